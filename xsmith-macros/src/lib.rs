//! Procedural macros of [xsmith](https://docs.rs/xsmith): the declarative
//! spec DSL. They expand into calls of `xsmith`'s public API (the
//! `Component` builder); no generation logic lives here.
//!
//! One module a pass, each using only the ones before it (as serde_derive's
//! `internals` do):
//!
//! - `property`: the table of the properties, their keywords and the values
//!   they take;
//! - `parse`: the syntax of an invocation (property values in their
//!   syntactic shape);
//! - `errors`: the collector that shows all mistakes at once, in source
//!   order;
//! - `attr`: the table of the properties given to productions, each value
//!   decoded once into a typed value;
//! - `check`: the grammar, and the fields the typed values name against it;
//! - `expand`: the builder calls, read from the grammar and typed values.
//!
//! Use them through `xsmith`, which re-exports them.

mod attr;
mod check;
mod errors;
mod expand;
mod parse;
mod property;

use proc_macro::TokenStream;

/// Declares a spec component: a function returning an `xsmith::Component`
/// built from a grammar and per-production properties.
///
/// ```text
/// component! {
///     /// Doc comment of the generated function.
///     pub fn calc;                     // the function (and component) name
///     uses { Stmt }                    // node types declared by other components
///     grammar {
///         Program { body: Expr }       // a production with a child field
///         abstract Expr {}             // abstract: a node type, never generated
///         Literal: Expr { value = |r| r.int_in(1, 99) }   // data field and initialiser
///         Add: Expr { left: Expr, right: Expr }
///         Block { items: [Stmt; 0..=4] }                  // Kleene-star list, length 0 to 4
///     }
///     render {
///         Program => [body, hardline],                    // a template
///         Add => ["(", left, " + ", right, ")"],
///         Literal => |node| node.display(node.data("value")),
///     }
///     choice_weight { Literal => 3, Add => |hole| 8u32.saturating_sub(hole.depth()) }
///     may_be_generated { Block => false }
///     depth_increase { Block => 0 }
///     fresh { Literal => { value: |node| node.random().int_in(1, 9) } }
///     choice_filters { Add => |hole| hole.depth() < 10 }
///     feature { Add => "addition" }
///     feature_off_by_default { "addition" }          // off unless `--with addition`
/// }
/// ```
///
/// Template pieces: string literals (newlines become hard line breaks), field
/// names, `line`, `softline`, `hardline`, `nest(N, [..])`, `group([..])` and
/// `join(field, [..])` (a list's elements with a separator).
///
/// Every section, with an example that compiles, is in `xsmith::dsl`
/// (sections: `grammar`, `uses`, `render`, `choice_weight`,
/// `may_be_generated`, `depth_increase`, `fresh`, `choice_filters`,
/// `feature`, `type_info`, `list_length`, `scope`, `binder_info`,
/// `reference_info`, `lift_predicate`, `strict_child_order`, `io`, `calls`,
/// `function_body`, `mutable_container_access`). `_ => value` gives a
/// spec-wide default (`strict_child_order`, `choice_weight`,
/// `depth_increase`); a binder or reference production need not declare its
/// name field.
///
/// Mistakes the macro can see are compile errors at their span: unknown node
/// types and productions, duplicate productions and fields, unknown fields in
/// properties, unknown properties and values of the wrong kind. Names that
/// only other components know are checked when the spec is assembled.
#[proc_macro]
pub fn component(input: TokenStream) -> TokenStream {
    let parse::ComponentInput {
        signature,
        mut grammar,
        properties,
        features_off_by_default,
    } = syn::parse_macro_input!(input as parse::ComponentInput);
    let mut errors = errors::Errors::default();
    let properties = attr::decode(&grammar, &properties, &mut errors);
    attr::imply_name_fields(&mut grammar, &properties);
    check::check(&grammar, &properties, &mut errors);
    match errors.finish() {
        Ok(()) => expand::expand(&signature, &grammar, &properties, &features_off_by_default).into(),
        Err(error) => error.to_compile_error().into(),
    }
}
