//! Why generation of one program stopped without a finished program, and
//! where in the program it stopped.

use std::fmt;
use std::time::Duration;

use crate::program::Program;
use crate::spec::Spec;
use crate::tree::NodeId;

/// Where in the program a node is, as an error tells it: the field of its
/// parent that holds it, and the definition it is part of that was lifted
/// for a reference, if any.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Whereabouts {
    /// The parent's production and the field holding the node; `None` at
    /// the root.
    pub parent: Option<(String, String)>,
    /// The nearest definition at or above the node that was lifted, and the
    /// production of the reference it was lifted for.
    pub lifted: Option<(String, String)>,
}

impl Whereabouts {
    /// Where `node` of `program` is (boxed, to keep errors small).
    pub(crate) fn of(spec: &Spec, program: &Program, node: NodeId) -> Box<Whereabouts> {
        let name = |id: NodeId| spec.production(program.node(id).production).name().to_string();
        let parent = program.node(node).parent.map(|parent| {
            let production = spec.production(program.node(parent).production);
            let field = program
                .slot_holding(node)
                .map_or_else(String::new, |i| production.fields()[i].name().to_string());
            (production.name().to_string(), field)
        });
        let lifted = std::iter::successors(Some(node), |&at| program.node(at).parent)
            .find_map(|at| Some((name(at), name(program.lifted_for(at)?))));
        Box::new(Whereabouts { parent, lifted })
    }
}

impl fmt::Display for Whereabouts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.parent {
            Some((production, field)) => write!(f, " in field `{field}` of a `{production}`")?,
            None => write!(f, " at the root")?,
        }
        match &self.lifted {
            Some((definition, reference)) => write!(f, ", inside a `{definition}` lifted for a `{reference}`"),
            None => Ok(()),
        }
    }
}

/// Why generation of one program stopped without a finished tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GenerateError {
    /// The tree would have grown past `--max-nodes`.
    NodeBudget {
        /// The budget.
        max_nodes: usize,
    },
    /// Generation took longer than its time limit.
    TimeLimit {
        /// The limit.
        limit: Duration,
    },
    /// A node's type could not be made ground, or a choice's type could
    /// not be unified with its hole's.
    Type {
        /// The node's production.
        production: String,
        /// What went wrong.
        message: String,
        /// Where the node is.
        at: Box<Whereabouts>,
    },
    /// No production passed the filters for a hole.
    NoChoice {
        /// The hole's node type.
        node_type: String,
        /// The hole's depth.
        depth: u32,
        /// The type the hole required, in a typed spec.
        required_type: Option<String>,
        /// Where the hole is.
        at: Box<Whereabouts>,
        /// The productions switched on for the hole whose `choice_filters`
        /// refused it.
        refused_by: Vec<String>,
        /// How many times generation went back to an enclosing choice
        /// before it gave up (see [`MAX_BACKTRACKS`](crate::MAX_BACKTRACKS)).
        backtracks: usize,
    },
}

impl fmt::Display for GenerateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GenerateError::NodeBudget { max_nodes } => write!(
                f,
                "the program grew past the node budget of {max_nodes} nodes; lower --max-depth or raise --max-nodes"
            ),
            GenerateError::TimeLimit { limit } => write!(
                f,
                "generation took longer than its time limit of {:.1} s; lower --max-depth or raise --time-limit",
                limit.as_secs_f64()
            ),
            GenerateError::Type {
                production,
                message,
                at,
            } => {
                write!(f, "the type of a `{production}` node{at}: {message}")
            }
            GenerateError::NoChoice {
                node_type,
                depth,
                required_type,
                at,
                refused_by,
                backtracks,
            } => {
                write!(
                    f,
                    "no production passed the filters (or had a positive weight) for a hole of node type `{node_type}` at depth {depth}"
                )?;
                if let Some(ty) = required_type {
                    write!(f, " requiring type {ty}")?;
                }
                write!(f, "{at}")?;
                if !refused_by.is_empty() {
                    let names: Vec<String> = refused_by.iter().map(|p| format!("`{p}`")).collect();
                    write!(f, "; refused by the choice filters of {}", names.join(", "))?;
                }
                match backtracks {
                    0 => Ok(()),
                    1 => write!(f, " (drawing an enclosing choice again did not help)"),
                    n => write!(f, " (drawing enclosing choices again, {n} times, did not help)"),
                }
            }
        }
    }
}

impl std::error::Error for GenerateError {}
