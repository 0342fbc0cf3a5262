//! The views the closures of a spec receive: the hole a filter or weight
//! decides on ([`Hole`]), the node a `fresh` hook initialises
//! ([`FreshNode`]), the child types a `type_info` gives ([`ChildTypes`]),
//! the node a render function prints ([`RenderNode`]), and any other
//! node either reads ([`NodeRef`]). Each sees the
//! grammar and the program being built, never the whole spec.

mod child_types;
mod fresh_node;
mod hole;
mod node_ref;
mod render_node;

pub use child_types::ChildTypes;
pub use fresh_node::FreshNode;
pub use hole::Hole;
pub(crate) use hole::Place;
pub use node_ref::NodeRef;
pub use render_node::RenderNode;
pub(crate) use render_node::{HelperUses, RenderNodes};
