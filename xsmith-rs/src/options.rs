//! The options that shape each program, and the error a bad one gives.
//!
//! Every option is defined once, in the table that makes [`Options`]: its
//! field, doc (whose first line is its `--help` text), default, command-line
//! flag and value name. From that one row come the field and its default,
//! the flag every fuzzer's command line offers (through `Options`' own
//! [`clap::Args`], flattened into [`cli::Args`](crate::cli::Args)), and the
//! arguments that write the option back into each program's header comment
//! ([`Options::args`]), as wasm-smith's `define_config!` does for its
//! settings.
//!
//! ```
//! use clap::Parser;
//!
//! // An option given on the command line comes back in the header's arguments.
//! let args = xsmith::cli::Args::parse_from(["x", "--max-depth", "3", "--time-limit", "2.5", "--without", "Div"]);
//! let options = args.options();
//! assert_eq!((options.max_depth, options.time_limit.as_millis()), (3, 2500));
//! assert_eq!(options.args(), ["--max-depth", "3", "--time-limit", "2.5", "--without", "Div"]);
//! ```

use std::fmt;
use std::sync::OnceLock;
use std::time::Duration;

use clap::{Arg, ArgAction, ArgMatches, Command};

/// Defines [`Options`] from its table: one row per option,
///
/// ```text
/// /// HELP (one line: the `--help` text, its final period dropped)
/// /// (more doc lines, for the field's documentation only)
/// FIELD: TYPE = DEFAULT, flag "LONG-FLAG", value "VALUE NAME";
/// ```
///
/// where `TYPE` is an [`OptionValue`].
macro_rules! define_options {
    (
        $(#[$meta:meta])*
        pub struct Options {
            $(
                #[doc = $help:literal]
                $(#[doc = $doc:literal])*
                $field:ident: $ty:ty = $default:expr, flag $flag:literal, value $value_name:literal;
            )*
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub struct Options {
            $(
                #[doc = $help]
                $(#[doc = $doc])*
                pub $field: $ty,
            )*
        }

        impl Default for Options {
            fn default() -> Options {
                Options {
                    $($field: $default,)*
                }
            }
        }

        impl Options {
            /// The command-line arguments that give these options, leaving
            /// out defaults, in the order of `--help`: what a program's
            /// header comment writes after its seed.
            ///
            /// ```
            /// let options = xsmith::Options { max_depth: 3, without: vec!["Div".into()], ..Default::default() };
            /// assert_eq!(options.args(), ["--max-depth", "3", "--without", "Div"]);
            /// assert!(xsmith::Options::default().args().is_empty());
            /// ```
            pub fn args(&self) -> Vec<String> {
                let defaults = Options::default();
                let mut args = Vec::new();
                $(
                    if self.$field != defaults.$field {
                        for word in self.$field.words() {
                            args.extend([concat!("--", $flag).to_string(), word]);
                        }
                    }
                )*
                args
            }
        }

        impl clap::Args for Options {
            fn augment_args(command: Command) -> Command {
                command $(.arg({
                    // clap keeps a default's text as a `&'static str`: each is
                    // written once per process.
                    static DEFAULT: OnceLock<Vec<String>> = OnceLock::new();
                    let default = DEFAULT.get_or_init(|| Options::default().$field.words());
                    option_arg::<$ty>(stringify!($field), $flag, $value_name, $help, default)
                }))*
            }

            fn augment_args_for_update(command: Command) -> Command {
                <Options as clap::Args>::augment_args(command)
            }
        }

        impl clap::FromArgMatches for Options {
            fn from_arg_matches(matches: &ArgMatches) -> Result<Options, clap::Error> {
                let mut options = Options::default();
                options.update_from_arg_matches(matches)?;
                Ok(options)
            }

            fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
                $(
                    if let Some(value) = <$ty as OptionValue>::read(matches, stringify!($field)) {
                        self.$field = value;
                    }
                )*
                Ok(())
            }
        }
    };
}

define_options! {
    /// The knobs of generation that every fuzzer's command line offers.
    /// Each is defined once, with its default, flag and value name, and
    /// each program's header writes back the ones it was given
    /// ([`Options::args`]).
    ///
    /// ```
    /// let options = xsmith::Options { max_depth: 3, ..Default::default() };
    /// assert_eq!(options.max_nodes, 100_000);
    /// ```
    pub struct Options {
        /// Past this depth only the choices that finish soonest are made.
        max_depth: u32 = 5, flag "max-depth", value "N";
        /// Steer each program towards this many nodes (0: depth alone bounds it).
        ///
        /// Once a program has this many nodes, every hole left is filled as
        /// past the depth bound (the choices that finish soonest, lists at
        /// their least length); a program that is finished with fewer nodes
        /// gets more elements in its root's list (a program's statements, a
        /// module's items) until it has them.
        size: usize = 250, flag "size", value "N";
        /// Fail a program that grows past this many nodes.
        ///
        /// Generation fails once a tree would have more nodes than this.
        max_nodes: usize = 100_000, flag "max-nodes", value "N";
        /// Fail a program whose generation takes longer than this many seconds.
        time_limit: Duration = Duration::from_secs(10), flag "time-limit", value "SECONDS";
        /// How deeply the composite types that typed fuzzers invent may nest.
        type_max_depth: u32 = 2, flag "type-max-depth", value "N";
        /// Switch on a production or feature group.
        ///
        /// Overrides `without` and off-by-default groups.
        with: Vec<String> = Vec::new(), flag "with", value "NAME";
        /// Switch off a production or feature group.
        without: Vec<String> = Vec::new(), flag "without", value "NAME";
    }
}

/// The flag `--LONG VALUE_NAME` of the option `id`, helped by the first
/// line of its doc, with the words of its default (if any) as clap's
/// default.
fn option_arg<T: OptionValue>(
    id: &'static str,
    long: &'static str,
    value_name: &'static str,
    doc: &'static str,
    default: &'static [String],
) -> Arg {
    let arg = Arg::new(id)
        .long(long)
        .value_name(value_name)
        .help(doc.trim().trim_end_matches('.'));
    let arg = if default.is_empty() {
        arg
    } else {
        arg.default_values(default.iter().map(String::as_str))
    };
    T::configure(arg)
}

/// The type of an option's value: how the command line reads it and how
/// it is written back.
trait OptionValue: Sized {
    /// Gives the flag its parser and action.
    fn configure(arg: Arg) -> Arg;
    /// The value the command line gave (its default when not given; `None`
    /// for a list given no element).
    fn read(matches: &ArgMatches, id: &str) -> Option<Self>;
    /// The words written after the flag, one per use of it.
    fn words(&self) -> Vec<String>;
}

/// Whole numbers, parsed as clap parses them.
macro_rules! number_values {
    ($($number:ty),*) => {$(
        impl OptionValue for $number {
            fn configure(arg: Arg) -> Arg {
                arg.value_parser(clap::value_parser!($number)).action(ArgAction::Set)
            }

            fn read(matches: &ArgMatches, id: &str) -> Option<$number> {
                matches.get_one::<$number>(id).copied()
            }

            fn words(&self) -> Vec<String> {
                vec![self.to_string()]
            }
        }
    )*};
}

number_values!(u32, usize);

/// A positive number of seconds, possibly fractional.
impl OptionValue for Duration {
    fn configure(arg: Arg) -> Arg {
        arg.value_parser(parse_seconds).action(ArgAction::Set)
    }

    fn read(matches: &ArgMatches, id: &str) -> Option<Duration> {
        matches.get_one::<Duration>(id).copied()
    }

    fn words(&self) -> Vec<String> {
        vec![self.as_secs_f64().to_string()]
    }
}

/// A list: the flag repeats, once per element.
impl OptionValue for Vec<String> {
    fn configure(arg: Arg) -> Arg {
        arg.value_parser(clap::value_parser!(String)).action(ArgAction::Append)
    }

    fn read(matches: &ArgMatches, id: &str) -> Option<Vec<String>> {
        matches.get_many::<String>(id).map(|names| names.cloned().collect())
    }

    fn words(&self) -> Vec<String> {
        self.clone()
    }
}

/// Reads a positive number of seconds, as `--time-limit` and `diff
/// --timeout` take them.
pub(crate) fn parse_seconds(text: &str) -> Result<Duration, String> {
    match text
        .parse::<f64>()
        .ok()
        .and_then(|s| Duration::try_from_secs_f64(s).ok())
    {
        Some(limit) if !limit.is_zero() => Ok(limit),
        _ => Err(format!("`{text}` is not a positive number of seconds")),
    }
}

/// A bad generation option, naming itself.
///
/// ```
/// use xsmith::{Generator, OptionError, Options};
/// let spec = xsmith::example::spec();
/// let unknown = Options { without: vec!["Mul".into()], ..Default::default() };
/// let Err(error @ OptionError::UnknownName { .. }) = Generator::new(&spec, unknown) else { panic!() };
/// assert!(error.to_string().starts_with("--without Mul: no production or feature group is called `Mul`"));
/// let no_literals = Options { without: vec!["Literal".into()], ..Default::default() };
/// assert!(matches!(Generator::new(&spec, no_literals), Err(OptionError::Unfinishable { .. })));
/// ```
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
    /// The productions switched off leave no way to make a program: no
    /// type its root needs can be made.
    Uninhabited {
        /// The root node type.
        node_type: String,
        /// What is missing, from the root down.
        missing: String,
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
            OptionError::Uninhabited { node_type, missing } => {
                write!(f, "--with/--without leave no way to make a `{node_type}`: {missing}")
            }
        }
    }
}

impl std::error::Error for OptionError {}
