//! Why generation of one program stopped without a finished program.

use std::fmt;
use std::time::Duration;

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
    /// A node's type could not be made ground.
    Type {
        /// The node's production.
        production: String,
        /// What went wrong.
        message: String,
    },
    /// No production passed the filters for a hole.
    NoChoice {
        /// The hole's node type.
        node_type: String,
        /// The hole's depth.
        depth: u32,
        /// The type the hole required, in a typed spec.
        required_type: Option<String>,
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
            GenerateError::Type { production, message } => {
                write!(f, "the type of a `{production}` node: {message}")
            }
            GenerateError::NoChoice {
                node_type,
                depth,
                required_type,
            } => {
                write!(
                    f,
                    "no production passed the filters (or had a positive weight) for a hole of node type `{node_type}` at depth {depth}"
                )?;
                match required_type {
                    Some(ty) => write!(f, " requiring type {ty}"),
                    None => Ok(()),
                }
            }
        }
    }
}

impl std::error::Error for GenerateError {}
