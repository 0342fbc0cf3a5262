//! The options that shape each program, and the error a bad one gives.

use std::fmt;
use std::time::Duration;

/// The knobs of generation that every fuzzer's command line offers.
///
/// ```
/// let options = xsmith::Options { max_depth: 3, ..Default::default() };
/// assert_eq!(options.max_nodes, 100_000);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Past this depth only the choices that finish soonest are made.
    pub max_depth: u32,
    /// Generation fails once a tree would have more nodes than this.
    pub max_nodes: usize,
    /// Generation fails once it has taken longer than this.
    pub time_limit: Duration,
    /// Productions or feature groups switched on (overrides `without` and
    /// off-by-default groups).
    pub with: Vec<String>,
    /// Productions or feature groups switched off.
    pub without: Vec<String>,
    /// How deeply concretization may nest the composite types it invents.
    pub type_max_depth: u32,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            max_depth: 5,
            max_nodes: 100_000,
            time_limit: Duration::from_secs(10),
            with: Vec::new(),
            without: Vec::new(),
            type_max_depth: 2,
        }
    }
}

/// A bad generation option, naming itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    /// `--with` or `--without` names neither a feature group nor a
    /// production that is (or has a subtype that is) generatable.
    UnknownName {
        /// `--with` or `--without`.
        option: &'static str,
        /// The name given.
        name: String,
        /// What could have been named.
        known: Vec<String>,
    },
    /// The productions switched off leave a node type with no finite way to
    /// fill it.
    Unfinishable {
        /// The node type.
        node_type: String,
    },
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionError::UnknownName { option, name, known } => write!(
                f,
                "{option} {name}: no production or feature group is called `{name}` (known: {})",
                known.join(", ")
            ),
            OptionError::Unfinishable { node_type } => write!(
                f,
                "--with/--without leave node type `{node_type}` with no way to finish"
            ),
        }
    }
}

impl std::error::Error for OptionError {}
