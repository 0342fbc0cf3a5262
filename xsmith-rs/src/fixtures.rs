//! A small language with names and effects for the unit tests of
//! generation, names, effects and references: blocks (sequential scopes
//! that receive lifted definitions, run in order), writable and read-only
//! definitions, reads, writes, printing statements and expressions, and
//! pairs whose operands run in an unspecified order.

use crate::component::{Component, ProductionDecl};
use crate::grammar::{DataInit, ListLength};
use crate::options::Options;
use crate::program::Program;
use crate::properties::{Piece, Renderer};
use crate::random::Random;
use crate::scopes::{Access, BinderInfo, BinderStyle, ReferenceInfo, ScopeKind};
use crate::spec::Spec;
use crate::Generator;

/// The scoped language's spec.
pub(crate) fn scoped() -> Spec {
    scoped_with(Component::new("nothing more"))
}

/// The scoped language's spec, with the properties of `more` (set after
/// the language's own, so they replace or add to them).
pub(crate) fn scoped_with(more: Component) -> Spec {
    Spec::assemble("Program", [scoped_component(), more]).expect("the scoped spec is well formed")
}

/// The scoped language's component.
pub(crate) fn scoped_component() -> Component {
    let mut c = Component::new("scoped");
    let name = || DataInit::new(|_| "");
    c.production(ProductionDecl::new("Program").child("body", "Block"))
        .production(ProductionDecl::new("Block").list("stmts", "Stmt", ListLength::uniform(1, 4)))
        .production(ProductionDecl::new("Stmt").abstract_())
        .production(
            ProductionDecl::new("Let")
                .supertype("Stmt")
                .data("name", name())
                .child("init", "Expr"),
        )
        .production(
            ProductionDecl::new("Const")
                .supertype("Stmt")
                .data("name", name())
                .child("init", "Expr"),
        )
        .production(ProductionDecl::new("Print").supertype("Stmt").child("value", "Expr"))
        .production(ProductionDecl::new("Nested").supertype("Stmt").child("block", "Block"))
        .production(ProductionDecl::new("Expr").abstract_())
        .production(
            ProductionDecl::new("Lit")
                .supertype("Expr")
                .data("value", DataInit::new(|r| r.int_in(0, 9))),
        )
        .production(ProductionDecl::new("Ref").supertype("Expr").data("name", name()))
        .production(
            ProductionDecl::new("Assign")
                .supertype("Expr")
                .data("name", name())
                .child("value", "Expr"),
        )
        .production(ProductionDecl::new("Show").supertype("Expr").child("value", "Expr"))
        .production(
            ProductionDecl::new("Pair")
                .supertype("Expr")
                .child("left", "Expr")
                .child("right", "Expr"),
        );
    c.scope("Block", ScopeKind::Sequential)
        .lift_predicate("Block", "stmts")
        .strict_child_order("Block", true)
        .strict_child_order("Let", true)
        .strict_child_order("Const", true)
        .binder_info("Let", BinderInfo::new("name", BinderStyle::Definition))
        .binder_info("Const", BinderInfo::new("name", BinderStyle::Definition).read_only())
        .reference_info("Ref", ReferenceInfo::new("name", Access::Read))
        .reference_info("Assign", ReferenceInfo::new("name", Access::Write))
        .io("Print", true)
        .io("Show", true);
    let template = |pieces: Vec<Piece>| Renderer::Template(pieces);
    c.render("Program", template(vec![Piece::Field("body")]))
        .render(
            "Block",
            template(vec![Piece::Text("{"), Piece::Field("stmts"), Piece::Text("}")]),
        )
        .render(
            "Let",
            template(vec![
                Piece::Text("let "),
                Piece::Field("name"),
                Piece::Text(" = "),
                Piece::Field("init"),
            ]),
        )
        .render(
            "Const",
            template(vec![
                Piece::Text("const "),
                Piece::Field("name"),
                Piece::Text(" = "),
                Piece::Field("init"),
            ]),
        )
        .render("Print", template(vec![Piece::Text("print "), Piece::Field("value")]))
        .render("Nested", template(vec![Piece::Field("block")]))
        .render("Lit", template(vec![Piece::Field("value")]))
        .render("Ref", template(vec![Piece::Field("name")]))
        .render(
            "Assign",
            template(vec![
                Piece::Text("("),
                Piece::Field("name"),
                Piece::Text(" := "),
                Piece::Field("value"),
                Piece::Text(")"),
            ]),
        )
        .render(
            "Show",
            template(vec![Piece::Text("show("), Piece::Field("value"), Piece::Text(")")]),
        )
        .render(
            "Pair",
            template(vec![
                Piece::Text("("),
                Piece::Field("left"),
                Piece::Text(", "),
                Piece::Field("right"),
                Piece::Text(")"),
            ]),
        );
    c
}

/// Programs of `spec` from the seeds `seeds`, with `options`.
pub(crate) fn programs(spec: &Spec, options: Options, seeds: std::ops::Range<u64>) -> Vec<Program> {
    let mut generator = Generator::new(spec, options).expect("the options suit the spec");
    seeds
        .map(|seed| {
            generator
                .generate(&mut Random::from_seed(seed))
                .unwrap_or_else(|e| panic!("seed {seed}: {e}"))
        })
        .collect()
}

/// The nodes of `program` whose production is called `name`.
pub(crate) fn nodes_named<'p>(
    spec: &'p Spec,
    program: &'p Program,
    name: &'p str,
) -> impl Iterator<Item = crate::NodeId> + 'p {
    program
        .ids()
        .filter(move |&id| !program.node(id).is_hole && spec.production(program.node(id).production).name() == name)
}
