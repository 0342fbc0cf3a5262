//! A Scheme fuzzer on the canned components: every program runs alike on
//! Racket (as a module), Guile (interpreted, and compiled), Chez Scheme and
//! CHICKEN (interpreted, and compiled with `csc`). Programs use the common
//! subset of R5RS and R7RS-small that all of them share with no prelude;
//! exact integers are wrapped to 64 bits by header procedures (the
//! intermediate results are bignums on all of them), values print through
//! a printer of the fuzzer's own, and a checksum of the top-level variables
//! ends every program. See README.md.

mod forms;
mod helpers;
mod syntax;

use xsmith::fuzzer::SpecFailure;
use xsmith::{Fuzzer, Implementation, Spec};
use xsmith_canned::{Canned, Options};

/// The record fields, in the order of the slots of `(vector 'record x y)`.
pub(crate) const RECORD_FIELDS: [&str; 2] = ["x", "y"];

/// The canned options of the Scheme fuzzer: all groups, 64-bit integers,
/// the canned (ASCII) strings: CHICKEN 5's strings are bytes, so a
/// non-ASCII string's length would differ.
///
/// ```
/// let options = xsmith_scheme::options();
/// assert_eq!(options.int_range, (i64::MIN, i64::MAX));
/// assert!(options.strings.iter().all(|s| s.is_ascii()));
/// ```
pub fn options() -> Options {
    Options {
        int_range: (i64::MIN, i64::MAX),
        record_fields: RECORD_FIELDS.to_vec(),
        ..Options::default()
    }
}

/// The Scheme spec: the canned productions and their Scheme renderers.
///
/// ```
/// let spec = xsmith_scheme::spec().unwrap();
/// assert!(spec.lookup("LetStar").is_some());
/// ```
pub fn spec() -> Result<Spec, SpecFailure> {
    let canned = Canned::new(&options())?;
    Ok(canned.spec(syntax::Scheme, [forms::component()])?)
}

/// The known bugs of the default implementations (`known-bugs`: one
/// `SIGNATURE = DESCRIPTION` or `SIGNATURE; core: FEATURES = DESCRIPTION`
/// a line), which `diff` counts as known.
///
/// ```
/// use xsmith::campaign::Core;
/// let bugs = xsmith::KnownBug::parse(xsmith_scheme::KNOWN_BUGS).unwrap();
/// assert_eq!(bugs[0].signature, "rejected: guile-compiled");
/// // CHICKEN's compiler bug is known by its core: another bug of `csc` alone is not.
/// let csc = "differ: chez csi guile guile-compiled racket | csc";
/// let dropped = Core::parse("Apply.callee>LambdaBlock FnBody.stmts>PrintStmt Let.init>Apply");
/// assert!(bugs.iter().any(|bug| bug.matches(csc, Some(&dropped))));
/// let other = Core::parse("IntDiv.right>IntLit IntLit IntDiv");
/// assert!(!bugs.iter().any(|bug| bug.matches(csc, Some(&other))));
/// ```
pub const KNOWN_BUGS: &str = include_str!("../known-bugs");

/// The Scheme fuzzer.
///
/// ```
/// use xsmith_scheme::FUZZER;
/// let spec = (FUZZER.spec)().unwrap();
/// let mut generator = xsmith::Generator::new(&spec, Default::default()).unwrap();
/// let program = FUZZER.program(&spec, &mut generator, xsmith::Source::Seed(1)).unwrap();
/// assert!(program.text.starts_with(";; xsmith-scheme"));
/// assert!(program.text.contains("(define (out x)"));
/// ```
pub const FUZZER: Fuzzer = Fuzzer {
    name: "xsmith-scheme",
    version: env!("CARGO_PKG_VERSION"),
    extension: "scm",
    spec,
    comment: |text| format!(";; {text}\n"),
    prelude: "",
    helpers: helpers::HELPERS,
    width: 100,
    implementations: IMPLEMENTATIONS,
};

/// Racket reads the program's forms and evaluates them as the body of a
/// `racket/base` module (so the whole program is compiled as one module,
/// as a `#lang racket/base` file would be), then instantiates it. The body
/// is a `#%plain-module-begin`, which, unlike `racket/base`'s
/// `#%module-begin`, does not print the values of expressions.
const RACKET: &str = "racket -l racket/base -e \"(define forms (call-with-input-file (vector-ref \
                      (current-command-line-arguments) 0) (lambda (in) (let loop () (let ([form (read in)]) (if \
                      (eof-object? form) null (cons form (loop))))))))\" -e \"(parameterize ([current-namespace \
                      (make-base-namespace)]) (eval (list 'module 'program 'racket/base (cons '#%plain-module-begin forms))) (eval '(require \
                      'program)))\" {}";

/// Guile's compiler, in memory: the program's forms, read as one `begin`,
/// compiled to bytecode (at the default optimisation level) and run.
const GUILE_COMPILED: &str = "guile-3.0 --no-auto-compile -c \"(use-modules (system base compile)) (define forms \
                              (call-with-input-file (cadr (command-line)) (lambda (in) (let loop () (let ((form \
                              (read in))) (if (eof-object? form) '() (cons form (loop)))))))) (compile (cons 'begin \
                              forms) #:to 'value #:env (current-module))\" {}";

/// The implementations `xsmith-scheme diff` runs programs on by default.
///
/// ```
/// assert_eq!(xsmith_scheme::IMPLEMENTATIONS.len(), 6);
/// ```
pub const IMPLEMENTATIONS: &[Implementation] = &[
    Implementation::Command {
        name: "racket",
        template: RACKET,
        package: "racket",
    },
    Implementation::Command {
        name: "guile",
        template: "guile-3.0 --no-auto-compile -s {}",
        package: "guile-3.0",
    },
    Implementation::Command {
        name: "guile-compiled",
        template: GUILE_COMPILED,
        package: "guile-3.0",
    },
    Implementation::Command {
        name: "chez",
        template: "chezscheme --script {}",
        package: "chezscheme",
    },
    Implementation::Command {
        name: "csi",
        template: "csi -s {}",
        package: "chicken-bin",
    },
    Implementation::Compiled {
        name: "csc",
        template: "csc -O2 -C -O0 {} -o {exe}",
        package: "chicken-bin",
    },
];
