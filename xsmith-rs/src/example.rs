//! A tiny arithmetic spec used by the examples in this crate's
//! documentation, built with the procedural [`Component`] API.

use crate::component::{Component, ProductionDecl};
use crate::generate::Generator;
use crate::grammar::DataInit;
use crate::options::Options;
use crate::program::Program;
use crate::properties::{Piece, Renderer};
use crate::random::Random;
use crate::spec::Spec;

/// Expressions of literals, sums and quotients, printed as one `print(...)`
/// call; division is in the feature group `division`.
///
/// ```
/// let spec = xsmith::example::spec();
/// assert_eq!(spec.production(spec.root()).name(), "Program");
/// ```
pub fn spec() -> Spec {
    let mut c = Component::new("arithmetic");
    c.production(ProductionDecl::new("Program").child("body", "Expr"))
        .production(ProductionDecl::new("Expr").abstract_())
        .production(
            ProductionDecl::new("Literal")
                .supertype("Expr")
                .data("value", DataInit::new(|r| r.int_in(1, 99))),
        )
        .production(
            ProductionDecl::new("Add")
                .supertype("Expr")
                .child("left", "Expr")
                .child("right", "Expr"),
        )
        .production(
            ProductionDecl::new("Div")
                .supertype("Expr")
                .child("left", "Expr")
                .child("right", "Expr"),
        );
    let binary = |op: &'static str| {
        Renderer::Template(vec![
            Piece::Text("("),
            Piece::Field("left"),
            Piece::Text(op),
            Piece::Field("right"),
            Piece::Text(")"),
        ])
    };
    c.render(
        "Program",
        Renderer::Template(vec![Piece::Text("print("), Piece::Field("body"), Piece::Text(")")]),
    )
    .render("Literal", Renderer::Template(vec![Piece::Field("value")]))
    .render("Add", binary(" + "))
    .render("Div", binary(" / "))
    .feature("Div", "division");
    Spec::assemble("Program", [c]).expect("the example spec is well formed")
}

/// A finished program of [`spec`] from `seed` with default options.
///
/// ```
/// let spec = xsmith::example::spec();
/// let program = xsmith::example::program(&spec, 1);
/// assert!(program.len() >= 2);
/// ```
pub fn program(spec: &Spec, seed: u64) -> Program {
    let mut generator = Generator::new(spec, Options::default()).expect("default options suit the example spec");
    generator
        .generate(&mut Random::from_seed(seed))
        .expect("the example spec always finishes")
}
