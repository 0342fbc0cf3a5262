//! A C fuzzer: C99 programs free of undefined, unspecified and
//! implementation-defined behaviour by construction, that print the same on
//! every correct compiler at every optimisation level.
//!
//! A program has global variables, arrays and structs (with nested structs
//! and arrays as members, [`structs`]) of the fixed-width integer types
//! (`int8_t` to `uint64_t`), and functions with parameters, local variables,
//! pointers to variables, array elements and struct members, assignments
//! (of structs too) and compound assignments, `if`, counted `for` loops with
//! `break` and `continue`, whole-array loops (maps, zips and folds, which
//! gcc and clang vectorize), reads of a loop's induction variable, calls,
//! the comma operator, casts and prints. `main` calls every function in
//! turn with constant arguments and prints its result, then prints a
//! checksum of every global, member by member (as Csmith and YARPGen do),
//! and of `xs_sink`, the sum of what the whole-array loops computed (when
//! a loop of the program adds into it).
//!
//! Modules: `grammar` (productions, types, effects, filters), `render`
//! (C text and `main`), [`runtime`] (the prelude and the helpers a program
//! carries when it uses them), [`structs`] (struct members).
//!
//! What keeps a program defined (see the README for the whole list):
//! every arithmetic, shift and bitwise operator goes through a wrapper
//! ([`HELPERS`]) that computes in `uint64_t` (where overflow
//! wraps) and converts back to the operand type without an
//! implementation-defined conversion, and divides only by a divisor that is
//! neither zero nor `-1` under `MIN`; a cast to a signed type goes through
//! the same conversion; expressions have no side effects but calls, and the
//! engine's effect analysis keeps two operands (or arguments) from touching
//! the same variable when one of them writes it; function `i` calls only
//! functions before it, never from inside a loop; a loop's counter is hidden
//! from assignments, so it runs a fixed number of times, and a whole-array
//! loop's index stays below [`ARRAY_LENGTH`]; every variable is
//! initialised where it is declared.
//!
//! ```
//! let spec = (xsmith_c::FUZZER.spec)().unwrap();
//! let mut generator = xsmith::Generator::new(&spec, Default::default()).unwrap();
//! let program = xsmith_c::FUZZER.program(&spec, &mut generator, xsmith::Source::Seed(3)).unwrap();
//! assert!(program.text.starts_with("/* xsmith-c 0.2.0 --seed 3 */\n#include <stdint.h>"));
//! assert!(program.text.contains("int main(void)"));
//! ```

mod grammar;
mod render;
pub mod runtime;
pub mod structs;

pub use grammar::c;
pub use runtime::{HELPERS, PRELUDE};

use xsmith::fuzzer::SpecFailure;
use xsmith::types::{TypeSystem, Variance};
use xsmith::{Fuzzer, Implementation, Spec};

/// How high a program's call graph may be: a function without calls is
/// one high, a function that calls others one higher than the highest it
/// calls. A function of the program's own may be this high, a function
/// lifted for a call one less than its caller may; a call takes only a
/// callee low enough. With no call in a loop and no recursion, a run's
/// work is at most the calls one body makes to this power, however many
/// functions the program has. (Before, calls stopped program-wide after
/// the eighth function: deleting any earlier function then let later ones
/// call, and changed them.)
///
/// ```
/// use xsmith::{NodeId, Program};
/// let spec = xsmith_c::spec().unwrap();
/// let mut generator = xsmith::Generator::new(&spec, Default::default()).unwrap();
/// // The height of a function, from the calls in its subtree.
/// fn height(tree: &Program, is_callee: &dyn Fn(NodeId) -> bool, func: NodeId) -> u32 {
///     let mut stack = vec![func];
///     let mut highest = 0;
///     while let Some(node) = stack.pop() {
///         if is_callee(node) {
///             highest = highest.max(height(tree, is_callee, tree.reference_target(node).unwrap()));
///         }
///         stack.extend(tree.children(node));
///     }
///     highest + 1
/// }
/// for seed in 0..20 {
///     let tree = xsmith_c::FUZZER.program(&spec, &mut generator, xsmith::Source::Seed(seed)).unwrap().program;
///     let is = |id: NodeId, name: &str| spec.grammar().production(tree.node(id).production).name() == name;
///     let funcs: Vec<NodeId> = tree.ids().filter(|&id| is(id, "Func")).collect();
///     let is_callee = |id| is(id, "FuncRef");
///     assert!(funcs.iter().all(|&f| height(&tree, &is_callee, f) <= xsmith_c::MAX_CALL_HEIGHT));
/// }
/// ```
pub const MAX_CALL_HEIGHT: u32 = 4;

/// The integer types of programs, as `<stdint.h>` names them, with their
/// width in bits and signedness.
///
/// ```
/// assert!(xsmith_c::INT_TYPES.contains(&("uint16_t", 16, false)));
/// ```
pub const INT_TYPES: [(&str, u32, bool); 8] = [
    ("int8_t", 8, true),
    ("int16_t", 16, true),
    ("int32_t", 32, true),
    ("int64_t", 64, true),
    ("uint8_t", 8, false),
    ("uint16_t", 16, false),
    ("uint32_t", 32, false),
    ("uint64_t", 64, false),
];

/// The names of [`INT_TYPES`], in order.
///
/// ```
/// assert_eq!(xsmith_c::INT_NAMES[4], "uint8_t");
/// ```
pub const INT_NAMES: [&str; INT_TYPES.len()] = {
    let mut names = [""; INT_TYPES.len()];
    let mut i = 0;
    while i < INT_TYPES.len() {
        names[i] = INT_TYPES[i].0;
        i += 1;
    }
    names
};

/// Elements of every array variable (global or local; struct members'
/// arrays have [`MEMBER_LENGTH`]): long enough that a whole-array loop
/// (`ArrayMap`, `ArrayFold`) is worth vectorizing to gcc's and clang's cost
/// models, and that clang does not unroll it whole before its loop
/// vectorizer sees it (issue 34).
///
/// ```
/// let spec = xsmith_c::spec().unwrap();
/// let mut generator = xsmith::Generator::new(&spec, Default::default()).unwrap();
/// let text = (0..20)
///     .map(|seed| xsmith_c::FUZZER.program(&spec, &mut generator, xsmith::Source::Seed(seed)).unwrap().text)
///     .collect::<String>();
/// assert!(text.contains(&format!("[{}] = {{", xsmith_c::ARRAY_LENGTH)));
/// ```
pub const ARRAY_LENGTH: u64 = 64;

/// Elements of every array member of a struct type (the `[8]` of
/// [`runtime::STRUCT_DEFINITIONS`]).
///
/// ```
/// assert!(xsmith_c::runtime::STRUCT_DEFINITIONS[0].text.contains(&format!("b[{}]", xsmith_c::MEMBER_LENGTH)));
/// ```
pub const MEMBER_LENGTH: u64 = 8;

/// The type system: the eight integer types, the struct types (opaque: the
/// member an access reaches is picked when it is rendered, see
/// [`structs`]), `array<T>` (arrays of [`ARRAY_LENGTH`] elements),
/// `ptr<T>` (pointers) and function types.
///
/// ```
/// assert!(xsmith_c::type_system().base_named("uint16_t").is_some());
/// assert!(xsmith_c::type_system().base_named("S2").is_some());
/// ```
pub fn type_system() -> TypeSystem {
    let mut system = TypeSystem::new();
    for (name, _, _) in INT_TYPES {
        system.base(name);
    }
    for name in structs::names() {
        system.base(name);
    }
    system.generic("array", &[Variance::Invariant]);
    system.generic("ptr", &[Variance::Invariant]);
    system.allow_functions(true);
    system
}

/// The assembled spec.
///
/// ```
/// let spec = xsmith_c::spec().unwrap();
/// assert!(spec.lookup("For").is_some());
/// ```
pub fn spec() -> Result<Spec, SpecFailure> {
    Ok(Spec::assemble_typed("Program", type_system(), [c()])?)
}

/// The C fuzzer: its spec, prelude and file conventions.
///
/// ```
/// assert_eq!(xsmith_c::FUZZER.extension, "c");
/// ```
pub const FUZZER: Fuzzer = Fuzzer {
    name: "xsmith-c",
    version: env!("CARGO_PKG_VERSION"),
    extension: "c",
    spec,
    comment: |text| format!("/* {text} */\n"),
    prelude: PRELUDE,
    helpers: HELPERS,
    width: 100,
    implementations: IMPLEMENTATIONS,
};

/// The compilers `xsmith-c diff` runs programs on by default: gcc and
/// clang at `-O0` and `-O2`, and tcc. Each compiles the program (`-w`:
/// missing braces in a struct's initialiser, unused parameters and the
/// like are not worth a warning), then the executable runs.
///
/// ```
/// assert_eq!(xsmith_c::IMPLEMENTATIONS.len(), 5);
/// ```
pub const IMPLEMENTATIONS: &[Implementation] = &[
    Implementation::Compiled {
        name: "gcc-O0",
        template: "gcc -std=c99 -w -O0 {} -o {exe}",
        package: "gcc",
    },
    Implementation::Compiled {
        name: "gcc-O2",
        template: "gcc -std=c99 -w -O2 {} -o {exe}",
        package: "gcc",
    },
    Implementation::Compiled {
        name: "clang-O0",
        template: "clang -std=c99 -w -O0 {} -o {exe}",
        package: "clang",
    },
    Implementation::Compiled {
        name: "clang-O2",
        template: "clang -std=c99 -w -O2 {} -o {exe}",
        package: "clang",
    },
    Implementation::Compiled {
        name: "tcc",
        template: "tcc -w {} -o {exe}",
        package: "tcc",
    },
];
