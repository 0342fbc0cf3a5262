//! # xsmith-canned
//!
//! Reusable spec components for [xsmith] fuzzers, in the spirit of
//! Xsmith's `add-basic-expressions`, `add-basic-statements` and
//! `add-loop-over-container`: productions with their types, binders,
//! references, effects and weights, selected by [`Options`]. A language
//! supplies renderers for them (a missing renderer is an assembly error
//! naming the production), its choice of options and its own productions.
//!
//! The canned grammar: `Program { stmts: [Stmt] }`, abstract `Stmt` and
//! `Expr`, `Block { stmts: [Stmt] }`, and the productions of each
//! [`Group`], each listed with its fields and type in [`productions`].
//! Every canned production is typed with the canned [`type_system`] (to
//! which a language may add its own types). A language writes them through
//! the [`Syntax`] trait ([`Canned::spec`]); its programs' root is `Program`
//! or one of its own productions ([`Options::root`]).
//!
//! The lower-level way, which [`Canned::spec`] builds on: a component with
//! a renderer for every canned production, assembled after the canned one.
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
mod catalog;
mod containers;
mod counted;
mod expressions;
mod functions;
pub mod hot;
mod inherited;
mod loops;
pub mod nodes;
pub mod productions {
    #![doc = include_str!("../PRODUCTIONS.md")]
}
mod options;
pub mod render;
mod statements;
mod syntax;
mod types;

use std::fmt;

use xsmith::types::TypeSystem;
use xsmith::{Component, Spec, SpecError};

pub use counted::may_run_hot;
pub use inherited::{inherited_renderings, ListingError};
pub use options::{Group, Options};
pub use syntax::Syntax;
pub use types::{element_of_node, fresh_base, type_system};

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
    /// Each canned production with its group and type, for the catalog.
    entries: Vec<builder::Entry>,
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
            entries: vec![builder::Entry {
                name: "Program".to_string(),
                group: None,
                info: statements::program_type(),
            }],
        };
        statements::add(&mut builder);
        expressions::add(&mut builder);
        functions::add(&mut builder);
        containers::add(&mut builder);
        loops::add(&mut builder);
        counted::add(&mut builder);
        let (productions, entries) = (builder.names, builder.entries);
        Ok(Canned {
            component,
            productions,
            options: options.clone(),
            entries,
        })
    }

    /// The spec of a language: the canned productions written in `syntax`,
    /// typed with the canned [`type_system`], and the language's own
    /// components, which come after the canned ones and so may override
    /// canned properties (and renderers).
    ///
    /// ```
    /// let canned = xsmith_canned::Canned::new(&Default::default()).unwrap();
    /// # struct Mini;
    /// # use xsmith::Doc; use xsmith_canned::nodes::*;
    /// # impl xsmith_canned::Syntax for Mini {
    /// #     fn if_stmt<'a>(&self, n: &IfStmt<'_, 'a>) -> Doc<'a> { n.cond() }
    /// #     fn block_stmt<'a>(&self, n: &BlockStmt<'_, 'a>) -> Doc<'a> { n.body() }
    /// #     fn str_lit<'a>(&self, n: &Literal<'_, 'a>) -> Doc<'a> { n.display(n.value()) }
    /// #     fn str_len<'a>(&self, n: &Unary<'_, 'a>) -> Doc<'a> { n.operand() }
    /// #     fn if_expr<'a>(&self, n: &IfExpr<'_, 'a>) -> Doc<'a> { n.cond() }
    /// #     fn expr_seq<'a>(&self, n: &ExprSeq<'_, 'a>) -> Doc<'a> { n.value() }
    /// #     fn let_star<'a>(&self, n: &LetStar<'_, 'a>) -> Doc<'a> { n.body() }
    /// #     fn lambda<'a>(&self, n: &Function<'_, 'a>) -> Doc<'a> { n.body() }
    /// #     fn lambda_block<'a>(&self, n: &Function<'_, 'a>) -> Doc<'a> { n.body() }
    /// #     fn for_each<'a>(&self, n: &ForEach<'_, 'a>) -> Doc<'a> { n.body() }
    /// #     fn counted_for<'a>(&self, n: &Counted<'_, 'a>) -> Doc<'a> { n.body() }
    /// #     fn counted_while<'a>(&self, n: &CountedWhile<'_, 'a>) -> Doc<'a> { n.body() }
    /// # }
    /// let spec = canned.spec(Mini, []).unwrap();
    /// assert!(spec.lookup("ForEachArray").is_some());
    /// ```
    pub fn spec(&self, syntax: impl Syntax, language: impl IntoIterator<Item = Component>) -> Result<Spec, SpecError> {
        self.spec_with_types(type_system(&self.options), syntax, language)
    }

    /// [`spec`](Canned::spec) with the language's own type system:
    /// [`type_system`] with the language's types declared on it (a
    /// language's own productions may then have types no canned production
    /// has).
    ///
    /// ```
    /// let options = xsmith_canned::Options::default();
    /// let mut types = xsmith_canned::type_system(&options);
    /// types.base("float");
    /// let canned = xsmith_canned::Canned::new(&options).unwrap();
    /// let mut floats = xsmith::Component::new("floats");
    /// floats.production(xsmith::ProductionDecl::new("FloatLit").supertype("Expr"));
    /// floats.type_info("FloatLit", xsmith::TypeInfo::new(|s| s.base("float")));
    /// floats.render("FloatLit", vec![xsmith::Piece::Text("1.5")]);
    /// # struct Mini;
    /// # use xsmith::Doc; use xsmith_canned::nodes::*;
    /// # impl xsmith_canned::Syntax for Mini {
    /// #     fn if_stmt<'a>(&self, n: &IfStmt<'_, 'a>) -> Doc<'a> { n.cond() }
    /// #     fn block_stmt<'a>(&self, n: &BlockStmt<'_, 'a>) -> Doc<'a> { n.body() }
    /// #     fn str_lit<'a>(&self, n: &Literal<'_, 'a>) -> Doc<'a> { n.display(n.value()) }
    /// #     fn str_len<'a>(&self, n: &Unary<'_, 'a>) -> Doc<'a> { n.operand() }
    /// #     fn if_expr<'a>(&self, n: &IfExpr<'_, 'a>) -> Doc<'a> { n.cond() }
    /// #     fn expr_seq<'a>(&self, n: &ExprSeq<'_, 'a>) -> Doc<'a> { n.value() }
    /// #     fn let_star<'a>(&self, n: &LetStar<'_, 'a>) -> Doc<'a> { n.body() }
    /// #     fn lambda<'a>(&self, n: &Function<'_, 'a>) -> Doc<'a> { n.body() }
    /// #     fn lambda_block<'a>(&self, n: &Function<'_, 'a>) -> Doc<'a> { n.body() }
    /// #     fn for_each<'a>(&self, n: &ForEach<'_, 'a>) -> Doc<'a> { n.body() }
    /// #     fn counted_for<'a>(&self, n: &Counted<'_, 'a>) -> Doc<'a> { n.body() }
    /// #     fn counted_while<'a>(&self, n: &CountedWhile<'_, 'a>) -> Doc<'a> { n.body() }
    /// # }
    /// let spec = canned.spec_with_types(types, Mini, [floats]).unwrap();
    /// assert!(spec.lookup("FloatLit").is_some());
    /// ```
    pub fn spec_with_types(
        &self,
        types: TypeSystem,
        syntax: impl Syntax,
        language: impl IntoIterator<Item = Component>,
    ) -> Result<Spec, SpecError> {
        let renderers = syntax::renderers(syntax, &self.productions);
        self.assemble_with_types(types, std::iter::once(renderers).chain(language))
    }

    /// Assembles the typed spec (root [`Options::root`], the canned type
    /// system)
    /// from the canned component and the language's components, which come
    /// after it and so may override canned properties; the language
    /// renders every canned production itself (see [`spec`](Canned::spec)
    /// for rendering through a [`Syntax`]).
    ///
    /// ```
    /// let canned = xsmith_canned::Canned::new(&Default::default()).unwrap();
    /// // No renderers: an assembly error that names a production.
    /// assert!(canned.assemble([]).is_err());
    /// ```
    pub fn assemble(&self, language: impl IntoIterator<Item = Component>) -> Result<Spec, SpecError> {
        self.assemble_with_types(type_system(&self.options), language)
    }

    /// [`assemble`](Canned::assemble) with the language's own type system
    /// (see [`spec_with_types`](Canned::spec_with_types)).
    ///
    /// ```
    /// let options = xsmith_canned::Options::default();
    /// let canned = xsmith_canned::Canned::new(&options).unwrap();
    /// assert!(canned.assemble_with_types(xsmith_canned::type_system(&options), []).is_err());
    /// ```
    pub fn assemble_with_types(
        &self,
        types: TypeSystem,
        language: impl IntoIterator<Item = Component>,
    ) -> Result<Spec, SpecError> {
        let components = std::iter::once(self.component.clone()).chain(language);
        Spec::assemble_typed(&self.options.root, types, components)
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
    let (low, high) = options.hot_iterations;
    if low <= counted::SHORT.1 || low > high {
        return error("hot_iterations must be a range above the short loops' counts");
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

#[cfg(test)]
mod tests {
    use crate::nodes::FieldShape;
    use crate::{Canned, Options};
    use xsmith::FieldKind;

    /// The `productions` page of the documentation is the catalog of the
    /// default options (`XSMITH_BLESS=1 cargo test -p xsmith-canned`
    /// rewrites it).
    #[test]
    fn the_documented_catalog_is_the_generated_one() {
        let catalog = Canned::new(&Options::default()).unwrap().catalog();
        let page = format!(
            "# The canned productions\n\n\
             The canned productions of the default [`Options`](crate::Options), as \
             [`Canned::catalog`](crate::Canned::catalog) lists them: each one's [`Group`](crate::Group) \
             (none for a part that only its parent makes, switched off with it), the node type it fills, \
             its fields (`name: Node`, `name: [Node]` for a list, `name = data` for a data field) and the \
             type its nodes may have. The base types are `int`, `bool` and `string`; statements have the \
             abstract type `stmt`, which no expression has; `any` is whatever type the hole needs. A \
             language's own production that is an `Expr` of a new type needs that type declared \
             ([`Canned::spec_with_types`](crate::Canned::spec_with_types)); the canned `Let` and `VarRef` \
             then define and use variables of it too.\n\n{catalog}"
        );
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/PRODUCTIONS.md");
        if std::env::var_os("XSMITH_BLESS").is_some() {
            std::fs::write(path, &page).unwrap();
        }
        let documented = std::fs::read_to_string(path).unwrap();
        assert!(
            documented == page,
            "canned/PRODUCTIONS.md is not the catalog: run XSMITH_BLESS=1 cargo test -p xsmith-canned"
        );
    }

    /// A program shape other than the canned statement list: the
    /// language's own root, a block and then an integer expression.
    #[test]
    fn a_language_has_its_own_root() {
        use xsmith::{Component, Piece, ProductionDecl, TypeInfo};
        let options = Options {
            root: "Module".to_string(),
            ..Options::default()
        };
        let canned = Canned::new(&options).unwrap();
        let mut module = Component::new("module");
        module.production(
            ProductionDecl::new("Module")
                .child("main", "Block")
                .child("result", "Expr"),
        );
        module.type_info(
            "Module",
            TypeInfo::new(|s| s.base("stmt"))
                .child("main", |c| c.base("stmt"))
                .child("result", |c| c.base("int")),
        );
        module.render(
            "Module",
            vec![
                Piece::Field("main"),
                Piece::HardLine,
                Piece::Text("result "),
                Piece::Field("result"),
            ],
        );
        let spec = canned.spec(crate::syntax::tests::Placeholder, [module]).unwrap();
        let mut generator = xsmith::Generator::new(&spec, Default::default()).unwrap();
        for seed in 0..20 {
            let tree = generator.generate(&mut xsmith::Random::from_seed(seed)).unwrap();
            assert_eq!(spec.production(tree.node(tree.root()).production).name(), "Module");
            assert!(xsmith::render::render_tree(&spec, &tree, 80).contains("\nresult "));
        }
    }

    /// Every canned production's renderer reads a view whose fields are the
    /// production's, by name and shape: a misspelt or misshapen view field
    /// fails here, not when a node is rendered.
    #[test]
    fn views_match_the_grammar() {
        let canned = Canned::new(&Options::default()).unwrap();
        let spec = canned.assemble([crate::syntax::tests::placeholders(&canned)]).unwrap();
        let syntax = std::sync::Arc::new(crate::syntax::tests::Placeholder);
        for name in &canned.productions {
            let production = spec.production(spec.lookup(name).unwrap());
            let fields: Vec<(&str, FieldShape)> = production
                .fields()
                .iter()
                .map(|f| {
                    let shape = match f.kind() {
                        FieldKind::Child(_) => FieldShape::Child,
                        FieldKind::List(..) => FieldShape::List,
                        FieldKind::Data(_) => FieldShape::Data,
                    };
                    (f.name(), shape)
                })
                .collect();
            let (_, view) = crate::syntax::renderer(&syntax, name);
            assert_eq!(fields, view, "the view of `{name}`");
        }
    }
}
