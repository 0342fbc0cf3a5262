//! A Standard ML fuzzer on the canned components: every program is
//! accepted without a warning by SML/NJ and Poly/ML, raises no exception,
//! and prints the same on SML/NJ (`sml`), Poly/ML's interpreter (`poly
//! --script`) and Poly/ML's compiler (`polyc`, then the executable).
//!
//! A program is one function `main` (so that `polyc` can export it), called
//! at the end: its body is a `let` of declarations (the canned statements),
//! then a print of every variable it defined and a checksum of all it
//! printed. Besides the canned productions it has tuples (`#1 t`),
//! `case` on integers, booleans and lists (exhaustive, never redundant),
//! list operations (`::`, `@`, `List.length`, `List.rev`, `List.map`,
//! `List.foldl`, a safe `List.nth`), `ref` cells (`ref`, `!`, `:=`) and
//! let-polymorphism: polymorphic `fun`s of a fixed catalog of type schemes
//! whose bodies are generated with the type variables as opaque types,
//! each called at whatever types its call sites need.
//!
//! What keeps a program conforming (see README.md): every binder carries
//! its full type (no flexible record, no value restriction), integers stay
//! in SML/NJ's 31 bits through wrappers computed in `IntInf`, division,
//! indexing and `nth` go through wrappers that cannot raise, strings and
//! appended lists are bounded, only base values are ever stored (so no
//! function reaches itself), and every value prints through a printer of
//! the fuzzer's own, built from its type.
//!
//! ```
//! let spec = (xsmith_sml::FUZZER.spec)().unwrap();
//! let mut generator = xsmith::Generator::new(&spec, Default::default()).unwrap();
//! let program = xsmith_sml::FUZZER.program(&spec, &mut generator, xsmith::Source::Seed(1)).unwrap();
//! assert!(program.text.starts_with("(* xsmith-sml"));
//! assert!(program.text.ends_with("val () = main ()\n"));
//! ```

mod grammar;
mod poly;
mod runtime;
mod syntax;
mod types;

pub use runtime::HELPERS;

use xsmith::fuzzer::SpecFailure;
use xsmith::types::{TypeSystem, Variance};
use xsmith::{Fuzzer, Implementation, Spec};
use xsmith_canned::{Canned, Group, Options};

/// The least and greatest integer of programs: SML/NJ's 31-bit `int`.
///
/// ```
/// assert_eq!(xsmith_sml::INT_RANGE, (-(1 << 30), (1 << 30) - 1));
/// ```
pub const INT_RANGE: (i64, i64) = (-(1 << 30), (1 << 30) - 1);

/// The canned options of the Standard ML fuzzer: every group but
/// dictionaries (the Basis has none), 31-bit integers, function bodies of
/// 0 to 4 declarations.
///
/// ```
/// assert!(!xsmith_sml::options().has(xsmith_canned::Group::Dictionaries));
/// assert!(!xsmith_sml::options().has(xsmith_canned::Group::CountedLoops));
/// ```
pub fn options() -> Options {
    // No counted loops either: SML has no loop statement of its own (a
    // counted loop would be a recursive function of the fuzzer's).
    let mut options = Options::default()
        .without(Group::Dictionaries)
        .without(Group::CountedLoops);
    options.int_range = INT_RANGE;
    // A function body may have no declaration: in a polymorphic function,
    // with few statements switched on, none may fit.
    options.block_statements = (0, 4);
    options
}

/// The type system: the canned base types, `list` and `array`, `ref`
/// cells, functions, tuples and records (never invented by
/// concretization, so every record type is a record literal's, with all
/// its fields), and the type variables `'a` and `'b` of polymorphic
/// functions as abstract types no value outside them has.
///
/// ```
/// let system = xsmith_sml::type_system();
/// assert!(system.generic_named("ref").is_some());
/// assert!(system.base_named("'a").is_some());
/// ```
pub fn type_system() -> TypeSystem {
    let mut system = TypeSystem::new();
    system.base("int");
    system.base("bool");
    system.base("string");
    system.abstract_base("stmt", None);
    for variable in poly::VARIABLES {
        system.abstract_base(variable, None);
    }
    system.generic("array", &[Variance::Invariant]);
    system.generic("list", &[Variance::Invariant]);
    system.generic("ref", &[Variance::Invariant]);
    system.allow_functions(true);
    system
}

/// The assembled spec: the canned productions written in Standard ML and
/// the fuzzer's own.
///
/// ```
/// let spec = xsmith_sml::spec().unwrap();
/// assert!(spec.lookup("ListCase").is_some());
/// ```
pub fn spec() -> Result<Spec, SpecFailure> {
    let canned = Canned::new(&options())?;
    let components = [syntax::canned(), grammar::sml(&canned), poly::component()];
    Ok(canned.assemble_with_types(type_system(), components)?)
}

/// The Standard ML fuzzer.
///
/// ```
/// assert_eq!(xsmith_sml::FUZZER.extension, "sml");
/// ```
pub const FUZZER: Fuzzer = Fuzzer {
    name: "xsmith-sml",
    version: env!("CARGO_PKG_VERSION"),
    extension: "sml",
    spec,
    comment: |text| format!("(* {text} *)\n"),
    prelude: "",
    helpers: HELPERS,
    width: 100,
    implementations: IMPLEMENTATIONS,
};

/// SML/NJ 110.79 on a program: its top level echoes every declaration and
/// prints a banner on standard output, so a driver on standard input
/// sends the compiler's messages to standard error, `use`s the program and
/// exits with a failure when the program does not compile or raises; the
/// banner line is dropped, and with it the only output that is not the
/// program's (the compilation manager is quiet, the prompt empty).
/// Non-exhaustive matches and bindings are errors.
pub const SMLNJ_TEMPLATE: &str = "bash -c 'set -o pipefail; \
     echo \"Control.Print.out := {say = fn s => TextIO.output (TextIO.stdErr, s), \
     flush = fn () => TextIO.flushOut TextIO.stdErr}; \
     (use \\\"$0\\\"; OS.Process.exit OS.Process.success) handle _ => OS.Process.exit OS.Process.failure;\" \
     | sml -Ccm.verbose=false -Cparser.primary-prompt= \
     -Ccompiler-mc.error-non-exhaustive-match=true -Ccompiler-mc.error-non-exhaustive-bind=true \
     | tail -n +2' {}";

/// The implementations `xsmith-sml diff` runs programs on by default:
/// SML/NJ (driven as [`SMLNJ_TEMPLATE`] says, where `sml` is installed), Poly/ML's interpreter
/// and Poly/ML's compiler (which needs `libpolyml-dev` and a C++ linker).
///
/// ```
/// assert_eq!(xsmith_sml::IMPLEMENTATIONS.len(), 3);
/// ```
pub const IMPLEMENTATIONS: &[Implementation] = &[
    Implementation::IfInstalled {
        implementation: &Implementation::Command {
            name: "smlnj",
            template: SMLNJ_TEMPLATE,
            package: "smlnj",
        },
        requires: "sml",
        package: "smlnj",
    },
    Implementation::Command {
        name: "poly",
        template: "poly --script {}",
        package: "polyml",
    },
    Implementation::Compiled {
        name: "polyc",
        template: "polyc {} -o {exe}",
        package: "polyml",
    },
];
