//! Types: terms, a language's declared type system, and subtype
//! unification with rollback and concretization.
//!
//! A spec with a type system gives every production a
//! [`TypeInfo`](crate::TypeInfo): the type its nodes may have and the types of
//! its children. Generation drops the choices whose type cannot be a subtype
//! of the hole's, and gives the new holes their types.

mod glance;
pub(crate) mod heads;
mod shape;
mod store;
mod system;
mod term;

pub(crate) use glance::{form, Glance, GroundKeys};
pub use heads::Producible;
pub(crate) use shape::NodeTypeShape;
pub(crate) use store::Resolved;
pub use store::{Domain, TypeError, TypeSnapshot, TypeStore};
pub use system::TypeSystem;
pub use term::{BaseId, DisplayType, GenericId, NominalId, RecordField, Type, TypeVar, Variance};
