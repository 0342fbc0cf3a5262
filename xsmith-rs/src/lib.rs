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
//! The engine fills holes in a [`Tree`] with choices drawn from a [`Random`]
//! source and renders the tree through [`pretty`] documents.
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

extern crate self as xsmith;

pub mod attributes;
pub mod campaign;
pub mod cli;
pub mod component;
pub mod effects;
pub mod example;
pub mod exec;
pub mod fuzzer;
pub mod generate;
pub mod options;
pub mod properties;
pub mod random;
mod references;
pub mod render;
pub mod scopes;
pub mod spec;
pub mod tree;
mod type_filter;
pub mod types;

pub use attributes::{Attribute, Dependence};
pub use campaign::{Campaign, CampaignError, Shard, Tally, Verdict};
pub use component::{Component, FieldDecl, ProductionDecl};
pub use exec::{Execution, Implementation, ImplementationError, Limits, Run};
pub use fuzzer::{Fuzzer, Program, Source};
pub use generate::{ChildTypes, ChoiceLog, FreshNode, GenerateError, Generator, Hole};
pub use options::{OptionError, Options};
pub use properties::{DataInit, FieldInit, Filter, FreshHook, ListLength, Piece, Renderer, TypeInfo, Weight};
pub use random::Random;
pub use render::{Doc, RenderNode};
pub use scopes::{Access, BinderInfo, BinderStyle, ReferenceInfo, ScopeKind};
pub use spec::{Field, FieldKind, ProdId, Production, Spec, SpecError};
pub use tree::{Node, NodeId, Slot, Tree, Value};
pub use xsmith_macros::component;
