//! Which canned renderings a language inherits: the productions whose
//! [`Syntax`](crate::Syntax) method it leaves at the default. Each default
//! notes its production here when it runs while a listing is recorded, so
//! the list is what the language's programs really render with the
//! defaults, not a guess from its source.

use std::cell::RefCell;
use std::collections::BTreeSet;

use xsmith::{GenerateError, Generator, OptionError, Random, Spec};

thread_local! {
    /// The productions rendered by a default while a listing is recorded
    /// on this thread; `None` when none is.
    static INHERITED: RefCell<Option<BTreeSet<&'static str>>> = const { RefCell::new(None) };
}

/// Notes that the default rendering of `production` ran (a default
/// [`Syntax`](crate::Syntax) method calls it first).
pub(crate) fn inherited(production: &'static str) {
    INHERITED.with(|set| {
        if let Some(set) = set.borrow_mut().as_mut() {
            set.insert(production);
        }
    });
}

/// Why a listing failed: the spec's options or a program could not be made.
#[derive(Debug)]
pub enum ListingError {
    /// Every feature group could not be switched on.
    Options(OptionError),
    /// A program failed to generate.
    Generate(GenerateError),
}

impl std::fmt::Display for ListingError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ListingError::Options(e) => write!(f, "{e}"),
            ListingError::Generate(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for ListingError {}

/// The canned productions that `spec` (made by
/// [`Canned::spec`](crate::Canned::spec)) renders with the [`Syntax`]
/// trait's default, in name order, as seen in `programs` programs (seeds
/// `0..programs`, every feature group on): the renderings to read against
/// the language (the `Syntax` method of each says what its default
/// writes). A production none of the programs has is not listed; a few
/// hundred programs of the canned options have them all.
///
/// [`Syntax`]: crate::Syntax
///
/// ```
/// # use xsmith::Doc;
/// # use xsmith_canned::nodes::*;
/// # use xsmith_canned::{Canned, Group, Options, Syntax};
/// struct Tiny;
/// impl Syntax for Tiny {
///     fn print_stmt<'a>(&self, n: &ValueStmt<'_, 'a>) -> Doc<'a> {
///         n.text("print ").append(n.value())
///     }
/// #   fn if_stmt<'a>(&self, _: &IfStmt<'_, 'a>) -> Doc<'a> { unreachable!() }
/// #   fn block_stmt<'a>(&self, _: &BlockStmt<'_, 'a>) -> Doc<'a> { unreachable!() }
/// #   fn str_lit<'a>(&self, _: &Literal<'_, 'a>) -> Doc<'a> { unreachable!() }
/// #   fn str_len<'a>(&self, _: &Unary<'_, 'a>) -> Doc<'a> { unreachable!() }
/// #   fn if_expr<'a>(&self, _: &IfExpr<'_, 'a>) -> Doc<'a> { unreachable!() }
/// #   fn expr_seq<'a>(&self, _: &ExprSeq<'_, 'a>) -> Doc<'a> { unreachable!() }
/// #   fn let_star<'a>(&self, _: &LetStar<'_, 'a>) -> Doc<'a> { unreachable!() }
/// #   fn lambda<'a>(&self, _: &Function<'_, 'a>) -> Doc<'a> { unreachable!() }
/// #   fn lambda_block<'a>(&self, _: &Function<'_, 'a>) -> Doc<'a> { unreachable!() }
/// #   fn for_each<'a>(&self, _: &ForEach<'_, 'a>) -> Doc<'a> { unreachable!() }
/// #   fn counted_for<'a>(&self, _: &Counted<'_, 'a>) -> Doc<'a> { unreachable!() }
/// #   fn counted_while<'a>(&self, _: &CountedWhile<'_, 'a>) -> Doc<'a> { unreachable!() }
///     // ... the methods without a default
/// }
/// let mut options = Options::default();
/// options.groups = vec![Group::Integers, Group::Variables, Group::Printing];
/// let spec = Canned::new(&options).unwrap().spec(Tiny, []).unwrap();
/// let inherited = xsmith_canned::inherited_renderings(&spec, 50).unwrap();
/// assert!(inherited.contains(&"Add") && inherited.contains(&"Let"));
/// assert!(!inherited.contains(&"PrintStmt"), "{inherited:?}");
/// ```
pub fn inherited_renderings(spec: &Spec, programs: u64) -> Result<Vec<&'static str>, ListingError> {
    let options = xsmith::Options {
        with: spec.feature_groups().into_iter().map(String::from).collect(),
        ..Default::default()
    };
    let mut generator = Generator::new(spec, options).map_err(ListingError::Options)?;
    INHERITED.with(|set| *set.borrow_mut() = Some(BTreeSet::new()));
    let rendered = (0..programs).try_for_each(|seed| {
        let tree = generator.generate(&mut Random::from_seed(seed))?;
        xsmith::render::render_tree(spec, &tree, 100);
        Ok(())
    });
    let seen = INHERITED.with(|set| set.borrow_mut().take()).unwrap_or_default();
    rendered.map_err(ListingError::Generate)?;
    Ok(seen.into_iter().collect())
}

#[cfg(test)]
mod tests {
    use xsmith::Doc;

    use crate::nodes::*;
    use crate::{Canned, Options, Syntax};

    /// A syntax of the required methods only, each rendering every child
    /// (so the defaults below them run too).
    struct Required;

    impl Syntax for Required {
        fn if_stmt<'a>(&self, n: &IfStmt<'_, 'a>) -> Doc<'a> {
            n.cond().append(n.then()).append(n.otherwise())
        }
        fn block_stmt<'a>(&self, n: &BlockStmt<'_, 'a>) -> Doc<'a> {
            n.body()
        }
        fn str_lit<'a>(&self, n: &Literal<'_, 'a>) -> Doc<'a> {
            n.text("s")
        }
        fn str_len<'a>(&self, n: &Unary<'_, 'a>) -> Doc<'a> {
            n.operand()
        }
        fn if_expr<'a>(&self, n: &IfExpr<'_, 'a>) -> Doc<'a> {
            n.cond().append(n.then()).append(n.otherwise())
        }
        fn expr_seq<'a>(&self, n: &ExprSeq<'_, 'a>) -> Doc<'a> {
            n.concat(n.effects()).append(n.value())
        }
        fn let_star<'a>(&self, n: &LetStar<'_, 'a>) -> Doc<'a> {
            n.concat(n.defs()).append(n.body())
        }
        fn lambda<'a>(&self, n: &Function<'_, 'a>) -> Doc<'a> {
            n.concat(n.params()).append(n.body())
        }
        fn lambda_block<'a>(&self, n: &Function<'_, 'a>) -> Doc<'a> {
            n.concat(n.params()).append(n.body())
        }
        fn for_each<'a>(&self, n: &ForEach<'_, 'a>) -> Doc<'a> {
            n.container().append(n.element()).append(n.body())
        }
        fn counted_for<'a>(&self, n: &Counted<'_, 'a>) -> Doc<'a> {
            n.counter().append(n.body())
        }
        fn counted_while<'a>(&self, n: &CountedWhile<'_, 'a>) -> Doc<'a> {
            n.counter().append(n.body())
        }
    }

    #[test]
    fn a_syntax_of_required_methods_only_inherits_every_default() {
        let spec = Canned::new(&Options::default()).unwrap().spec(Required, []).unwrap();
        let inherited = super::inherited_renderings(&spec, 200).unwrap();
        // Every `Syntax` method with a default, by its production.
        let defaults = include_str!("syntax.rs").matches("    inherited(\"").count();
        assert_eq!(inherited.len(), defaults, "{inherited:?}");
        assert!(inherited.contains(&"DictLit") && inherited.contains(&"FieldGet_<f>"));
        assert!(!inherited.contains(&"IfStmt"), "IfStmt has no default");
        // Nothing is recorded once the listing is over.
        super::inherited("Add");
        assert!(super::INHERITED.with(|set| set.borrow().is_none()));
    }
}
