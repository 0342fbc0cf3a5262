//! # xsmith
//!
//! A library and procedural-macro DSL for writing *conforming program
//! generators*: random program generators whose every output is valid, well
//! typed and free of undefined behaviour, for differential testing of
//! language implementations. The model is Xsmith (Hatch et al., "Generating
//! Conforming Programs With Xsmith", GPCE 2023).
//!
//! A fuzzer declares its grammar and properties in one or more
//! [`component!`]s, assembles them into a [`Spec`], and hands a [`Fuzzer`] to
//! [`cli::main`], whose `diff` subcommand runs a differential [`Campaign`].
//! The engine fills the holes of a [`Program`] (a [`Tree`] with types and
//! names) with choices drawn from a [`Random`] source and renders it through
//! [`render::Doc`] documents laid out at a width.
//!
//! ```
//! use xsmith::{component, Spec};
//!
//! component! {
//!     /// Sums of small numbers.
//!     pub fn sums;
//!     grammar {
//!         Program { body: Expr }
//!         abstract Expr {}
//!         Number: Expr { value = |r| r.int_in(1, 9) }
//!         Plus: Expr { left: Expr, right: Expr }
//!     }
//!     render {
//!         Program => [body],
//!         Number => [value],
//!         Plus => ["(", left, " + ", right, ")"],
//!     }
//! }
//!
//! let spec = Spec::assemble("Program", [sums()]).unwrap();
//! let tree = xsmith::Generator::new(&spec, Default::default()).unwrap()
//!     .generate(&mut xsmith::Random::from_seed(1)).unwrap();
//! let text = xsmith::render::render_tree(&spec, &tree, 80);
//! assert!(text.chars().all(|c| c.is_ascii_digit() || "()+ \n".contains(c)));
//! ```

#![deny(missing_docs)]

extern crate self as xsmith;

// Imports follow the data flow, spec -> generation -> rendering -> campaign,
// with no cycle (ARCHITECTURE.md lists the modules in that order;
// CI checks that none runs back).
mod attributes;
pub mod bug_core;
mod cache;
pub mod campaign;
mod choices;
pub mod cli;
mod component;
pub mod corpus;
mod doc;
pub mod dsl;
pub mod edges;
pub mod edit;
pub mod effects;
pub mod example;
pub mod exec;
pub mod features;
#[cfg(test)]
mod fixtures;
pub mod fuzzer;
mod generate;
mod grammar;
pub mod guide;
#[cfg(feature = "libfuzzer")]
pub mod guided;
pub mod helpers;
mod hooks;
pub mod kpaths;
pub mod mutate;
pub mod names;
mod options;
pub mod plot;
mod program;
mod properties;
mod random;
pub mod reduce;
pub mod render;
mod scopes;
pub mod serve;
mod spec;
pub mod swarm;
mod template;
mod tree;
pub mod types;
mod value;

pub use attributes::{Attribute, Dependence};
pub use campaign::{Campaign, CampaignError, KnownBug, Shard, Signature, Signatures, Summary, Tally, Verdict};
pub use choices::{Anchors, Choice, Choices, ChoicesError, Splice};
pub use component::{Component, FieldDecl, ProductionDecl};
pub use doc::Doc;
pub use exec::{Execution, Implementation, ImplementationError, Isolation, Limits, Run};
pub use fuzzer::{Fuzzer, Generated, Source};
pub use generate::{ChoiceLog, GenerateError, Generator, Whereabouts, MAX_BACKTRACKS};
pub use grammar::{DataInit, Field, FieldKind, Grammar, ListLength, ProdId, Production};
pub use helpers::Helper;
pub use hooks::{ChildTypes, FreshNode, Hole, NodeRef, RenderNode};
pub use options::{OptionError, Options};
pub use program::Program;
pub use properties::{
    BindingFilter, BindingPredicate, ChildTypeFn, FieldInit, Filter, FreshHook, LengthFn, NodeTypeFn, Piece, Renderer,
    TypeInfo, Weight,
};
pub use random::Random;
pub use scopes::{Access, BinderInfo, BinderStyle, ReferenceInfo, ScopeKind};
pub use spec::{Spec, SpecError};
pub use tree::{Node, NodeId, Slot, Tree};
pub use value::Value;
pub use xsmith_macros::component;
