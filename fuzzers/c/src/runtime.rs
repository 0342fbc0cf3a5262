//! The runtime: the prelude every program starts with (printing and the
//! checksum), and the helpers a program carries only when it uses them
//! (the struct types and the safe operators, each written out for its
//! type, so that a reduced program holds a few plain C functions and no
//! macros).

use xsmith::Helper;

/// The runtime header of every program: printing and the checksum;
/// `xs_zero`, a volatile 0 through which `main` passes its arguments so
/// that the compiler cannot fold a whole program into constants (and so
/// skip the optimizations of its loops); and `xs_sink`, into which the
/// whole-array loops add what they compute, so that a loop over a local
/// array that nothing reads afterwards is not deleted as dead (an unsigned
/// sum: the same whatever order calls run in; `main` mixes it into the
/// checksum).
///
/// ```
/// assert!(xsmith_c::PRELUDE.contains("static void xs_mix(uint64_t v)"));
/// assert!(xsmith_c::PRELUDE.contains("static uint64_t xs_sink = 0;"));
/// ```
pub const PRELUDE: &str = r#"#include <stdint.h>
#include <stdio.h>

static volatile int xs_zero = 0;
static uint64_t xs_checksum = UINT64_C(0xcbf29ce484222325);
static void xs_mix(uint64_t v) { xs_checksum = (xs_checksum ^ v) * UINT64_C(0x100000001b3); }
static uint64_t xs_sink = 0;
static void xs_print(const char *what, uint64_t v) {
  printf("%s = %016llx\n", what, (unsigned long long)v);
  xs_mix(v);
}

"#;

/// The struct types, in declaration order (a struct nests only earlier
/// ones): one helper each, named by its `typedef`, so that a program
/// carries the definitions of the structs it uses (a nested one comes with
/// the struct that holds it). [`crate::structs`] reads the members from
/// this text.
pub const STRUCT_DEFINITIONS: &[Helper] = &[
    Helper::new(
        "S0",
        "typedef struct S0 { int8_t a; uint16_t b[8]; int32_t c; uint64_t d; } S0;\n",
    ),
    Helper::new(
        "S1",
        "typedef struct S1 { uint8_t a; S0 s; int16_t b[8]; uint32_t c; int64_t d; uint16_t e; int16_t f; } S1;\n",
    )
    .uses(&["S0"]),
    Helper::new(
        "S2",
        "typedef struct S2 { int64_t a[8]; S1 x; uint8_t b; S0 y; int32_t c; } S2;\n",
    )
    .uses(&["S1", "S0"]),
    Helper::new(
        "S3",
        "typedef struct S3 { uint32_t a; int8_t b; uint64_t c[8]; int16_t d; uint8_t e; int64_t f; \
         uint16_t g; int32_t h; uint64_t i; } S3;\n",
    ),
];

/// The helper `xs_OP_T`: `static T xs_OP_T(PARAMS) { BODY }`, its
/// parameters and body given as pieces of text and `$t`s; with `to` first,
/// it uses the signed conversion `xs_to_T`.
macro_rules! wrapper {
    ($op:literal, $t:literal, ($($params:expr),+), $($body:expr),+) => {
        Helper {
            name: concat!("xs_", $op, "_", $t),
            uses: &[],
            text: concat!("static ", $t, " xs_", $op, "_", $t, "(", $($params),+, ") { ", $($body),+, " }\n"),
        }
    };
    (to $op:literal, $t:literal, ($($params:expr),+), $($body:expr),+) => {
        wrapper!($op, $t, ($($params),+), $($body),+).uses(&[concat!("xs_to_", $t)])
    };
}

/// The safe operators of the signed type `$t` (`$u` its unsigned
/// counterpart): `xs_to_T` maps the low bits of a `uint64_t` to the
/// two's-complement value they stand for without an out-of-range
/// conversion, and every operator computes on `uint64_t` (where overflow
/// wraps) and converts back with it. Division and remainder by zero, and
/// `MIN / -1`, give the dividend; shift counts are taken modulo the width;
/// a right shift of a negative value is written with shifts of
/// non-negative ones.
#[rustfmt::skip]
macro_rules! signed {
    ($t:literal, $u:literal, $bits:literal, $min:literal, $max:literal) => {[
        wrapper!("to", $t, ("uint64_t x"), $u, " u = (", $u, ")x; return u > (", $u, ")", $max, " ? (", $t, ")(-(", $t, ")((",
            $u, ")-1 - u) - 1) : (", $t, ")u;"),
        wrapper!(to "add", $t, ($t, " a, ", $t, " b"), "return xs_to_", $t, "((uint64_t)a + (uint64_t)b);"),
        wrapper!(to "sub", $t, ($t, " a, ", $t, " b"), "return xs_to_", $t, "((uint64_t)a - (uint64_t)b);"),
        wrapper!(to "mul", $t, ($t, " a, ", $t, " b"), "return xs_to_", $t, "((uint64_t)a * (uint64_t)b);"),
        wrapper!("div", $t, ($t, " a, ", $t, " b"), "return (b == 0 || (a == ", $min, " && b == -1)) ? a : (", $t, ")(a / b);"),
        wrapper!("mod", $t, ($t, " a, ", $t, " b"), "return (b == 0 || (a == ", $min, " && b == -1)) ? a : (", $t, ")(a % b);"),
        wrapper!(to "shl", $t, ($t, " a, ", $t, " b"), "return xs_to_", $t, "((uint64_t)a << ((uint64_t)b % ", $bits, "));"),
        wrapper!("shr", $t, ($t, " a, ", $t, " b"), "int s = (int)((uint64_t)b % ", $bits, "); return a < 0 ? (", $t, ")(-(",
            $t, ")(-(a + 1) >> s) - 1) : (", $t, ")(a >> s);"),
        wrapper!(to "and", $t, ($t, " a, ", $t, " b"), "return xs_to_", $t, "((uint64_t)a & (uint64_t)b);"),
        wrapper!(to "or", $t, ($t, " a, ", $t, " b"), "return xs_to_", $t, "((uint64_t)a | (uint64_t)b);"),
        wrapper!(to "xor", $t, ($t, " a, ", $t, " b"), "return xs_to_", $t, "((uint64_t)a ^ (uint64_t)b);"),
        wrapper!(to "neg", $t, ($t, " a"), "return xs_to_", $t, "(UINT64_C(0) - (uint64_t)a);"),
        wrapper!(to "not", $t, ($t, " a"), "return xs_to_", $t, "(~(uint64_t)a);"),
    ]};
}

/// The safe operators of the unsigned type `$t`: computed on `uint64_t`
/// and reduced to `$t` by a cast (defined: modulo 2^N); division and
/// remainder by zero give the dividend, shift counts are taken modulo the
/// width.
#[rustfmt::skip]
macro_rules! unsigned {
    ($t:literal, $bits:literal) => {[
        wrapper!("add", $t, ($t, " a, ", $t, " b"), "return (", $t, ")((uint64_t)a + (uint64_t)b);"),
        wrapper!("sub", $t, ($t, " a, ", $t, " b"), "return (", $t, ")((uint64_t)a - (uint64_t)b);"),
        wrapper!("mul", $t, ($t, " a, ", $t, " b"), "return (", $t, ")((uint64_t)a * (uint64_t)b);"),
        wrapper!("div", $t, ($t, " a, ", $t, " b"), "return b == 0 ? a : (", $t, ")(a / b);"),
        wrapper!("mod", $t, ($t, " a, ", $t, " b"), "return b == 0 ? a : (", $t, ")(a % b);"),
        wrapper!("shl", $t, ($t, " a, ", $t, " b"), "return (", $t, ")((uint64_t)a << ((uint64_t)b % ", $bits, "));"),
        wrapper!("shr", $t, ($t, " a, ", $t, " b"), "return (", $t, ")((uint64_t)a >> ((uint64_t)b % ", $bits, "));"),
        wrapper!("and", $t, ($t, " a, ", $t, " b"), "return (", $t, ")(a & b);"),
        wrapper!("or", $t, ($t, " a, ", $t, " b"), "return (", $t, ")(a | b);"),
        wrapper!("xor", $t, ($t, " a, ", $t, " b"), "return (", $t, ")(a ^ b);"),
        wrapper!("neg", $t, ($t, " a"), "return (", $t, ")(UINT64_C(0) - (uint64_t)a);"),
        wrapper!("not", $t, ($t, " a"), "return (", $t, ")~(uint64_t)a;"),
    ]};
}

const INT8: [Helper; 13] = signed!("int8_t", "uint8_t", "8", "INT8_MIN", "INT8_MAX");
const INT16: [Helper; 13] = signed!("int16_t", "uint16_t", "16", "INT16_MIN", "INT16_MAX");
const INT32: [Helper; 13] = signed!("int32_t", "uint32_t", "32", "INT32_MIN", "INT32_MAX");
const INT64: [Helper; 13] = signed!("int64_t", "uint64_t", "64", "INT64_MIN", "INT64_MAX");
const UINT8: [Helper; 12] = unsigned!("uint8_t", "8");
const UINT16: [Helper; 12] = unsigned!("uint16_t", "16");
const UINT32: [Helper; 12] = unsigned!("uint32_t", "32");
const UINT64: [Helper; 12] = unsigned!("uint64_t", "64");

/// The helpers of programs: the struct definitions, then the safe
/// operators of every type (`xs_add_int8_t`, ..., `xs_to_int8_t` before
/// the operators that call it).
///
/// ```
/// let used = xsmith::helpers::included(xsmith_c::HELPERS, ["xs_add_int8_t", "S1"]);
/// assert!(used.contains("static int8_t xs_to_int8_t(uint64_t x)"));
/// assert!(used.starts_with("typedef struct S0 {"));
/// assert!(!used.contains("xs_sub_int8_t"));
/// ```
pub const HELPERS: &[Helper] = &{
    let mut all = [STRUCT_DEFINITIONS[0]; 4 + 4 * 13 + 4 * 12];
    let groups: [&[Helper]; 9] = [
        STRUCT_DEFINITIONS,
        &INT8,
        &INT16,
        &INT32,
        &INT64,
        &UINT8,
        &UINT16,
        &UINT32,
        &UINT64,
    ];
    let mut at = 0;
    let mut g = 0;
    while g < groups.len() {
        let mut i = 0;
        while i < groups[g].len() {
            all[at] = groups[g][i];
            at += 1;
            i += 1;
        }
        g += 1;
    }
    all
};
