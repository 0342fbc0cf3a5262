//! # xsmith-canned
//!
//! Reusable spec components for [xsmith](xsmith) fuzzers, in the spirit of
//! Xsmith's `add-basic-expressions`, `add-basic-statements` and
//! `add-loop-over-container`: productions with their types, binders,
//! references, effects and weights, selected by [`Options`]. A language
//! supplies renderers for them (a missing renderer is an assembly error
//! naming the production), its choice of options and its own productions.
//!
//! The canned grammar: `Program { stmts: [Stmt] }`, abstract `Stmt` and
//! `Expr`, `Block { stmts: [Stmt] }`, and the productions of each
//! [`Group`]. Every canned production is typed with the canned
//! [`type_system`].
//!
//! ```
//! use xsmith::{Component, Piece, Renderer};
//! use xsmith_canned::{Canned, Group, Options};
//!
//! // A tiny language: integer literals and printing.
//! let mut options = Options::default();
//! options.groups = vec![Group::Integers, Group::Printing];
//! let canned = Canned::new(&options).unwrap();
//! let mut language = Component::new("tiny");
//! for name in &canned.productions {
//!     let text: &'static str = Box::leak(format!("{name} ").into_boxed_str());
//!     language.render(name, Renderer::Template(vec![Piece::Text(text)]));
//! }
//! language.render("Program", Renderer::Template(vec![Piece::Field("stmts")]));
//! let spec = canned.assemble([language]).unwrap();
//! let mut generator = xsmith::Generator::new(&spec, Default::default()).unwrap();
//! let tree = generator.generate(&mut xsmith::Random::from_seed(1)).unwrap();
//! assert!(xsmith::render::render_tree(&spec, &tree, 80).contains("PrintStmt"));
//! ```

#[cfg(feature = "bench")]
pub mod bench;
mod builder;
mod containers;
mod expressions;
mod functions;
mod loops;
mod options;
pub mod render;
mod statements;
mod types;

use std::fmt;

use xsmith::{Component, Spec, SpecError};

pub use options::{Group, Options};
pub use types::type_system;

/// The canned productions for some options: the component holding them and
/// the names of its generatable productions (each needs a renderer).
#[derive(Clone)]
pub struct Canned {
    /// The component with every canned production and property.
    pub component: Component,
    /// The generatable canned productions, in the order they were added
    /// (`Program` first).
    pub productions: Vec<String>,
    /// The options it was made with.
    pub options: Options,
}

/// Options the canned components cannot work with.
///
/// ```
/// let mut options = xsmith_canned::Options::default();
/// options.strings.clear();
/// let error = xsmith_canned::Canned::new(&options).err().unwrap();
/// assert!(error.to_string().contains("strings"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionsError(String);

impl fmt::Display for OptionsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "canned options: {}", self.0)
    }
}

impl std::error::Error for OptionsError {}

impl Canned {
    /// The canned component for `options`.
    ///
    /// ```
    /// let canned = xsmith_canned::Canned::new(&Default::default()).unwrap();
    /// assert!(canned.productions.iter().any(|p| p == "ForEachArray"));
    /// assert!(canned.productions.iter().any(|p| p == "FieldGet_x"));
    /// ```
    pub fn new(options: &Options) -> Result<Canned, OptionsError> {
        check(options)?;
        let mut component = Component::new("canned");
        let mut builder = builder::Builder {
            component: &mut component,
            options,
            names: vec!["Program".to_string()],
        };
        statements::add(&mut builder);
        expressions::add(&mut builder);
        functions::add(&mut builder);
        containers::add(&mut builder);
        loops::add(&mut builder);
        let productions = builder.names;
        Ok(Canned {
            component,
            productions,
            options: options.clone(),
        })
    }

    /// Assembles the typed spec (root `Program`, the canned type system)
    /// from the canned component and the language's components, which come
    /// after it and so may override canned properties.
    ///
    /// ```
    /// let canned = xsmith_canned::Canned::new(&Default::default()).unwrap();
    /// // No renderers: an assembly error that names a production.
    /// assert!(canned.assemble([]).is_err());
    /// ```
    pub fn assemble(&self, language: impl IntoIterator<Item = Component>) -> Result<Spec, SpecError> {
        let components = std::iter::once(self.component.clone()).chain(language);
        Spec::assemble_typed("Program", type_system(&self.options), components)
    }
}

fn check(options: &Options) -> Result<(), OptionsError> {
    let error = |message: &str| Err(OptionsError(message.to_string()));
    let (low, high) = options.int_range;
    if low > 0 || high < 1 {
        return error("int_range must include 0 and 1");
    }
    if options.strings.is_empty() {
        return error("strings must not be empty");
    }
    let mut fields = options.record_fields.clone();
    fields.sort_unstable();
    fields.dedup();
    if fields.len() != options.record_fields.len() || fields.is_empty() {
        return error("record_fields must be distinct, and at least one");
    }
    if options
        .record_fields
        .iter()
        .any(|f| f.is_empty() || !f.chars().all(|c| c.is_ascii_alphanumeric()))
    {
        return error("record_fields must be ASCII letters and digits");
    }
    for (what, (low, high)) in [
        ("program_statements", options.program_statements),
        ("block_statements", options.block_statements),
    ] {
        if low > high {
            return Err(OptionsError(format!("{what}: the least length is above the greatest")));
        }
    }
    Ok(())
}
