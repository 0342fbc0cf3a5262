//! Struct types: their members (read from their definitions in
//! [`crate::runtime::STRUCT_DEFINITIONS`]), the integer-typed places
//! ("leaves") inside them, and their initialisers.
//!
//! A struct type is an opaque base type of the type system (`S0` ...); the
//! member an access reaches is picked when the access is rendered, from
//! the leaves of the struct the access's variable has. So the engine
//! types a field access as a read or write of the whole variable, which is
//! the granularity of the effect analysis: a write of `s.f` conflicts with
//! any read or write of `s`, whatever member.

use crate::render::constant;
use crate::runtime::STRUCT_DEFINITIONS;
use crate::INT_TYPES;

/// An integer-typed place inside a struct: its access path (`.x.s.a`),
/// its integer type, and whether it is an array of
/// [`MEMBER_LENGTH`](crate::MEMBER_LENGTH) elements (then the path is
/// followed by a subscript).
///
/// ```
/// let leaves = xsmith_c::structs::leaves("S1");
/// assert!(leaves.iter().any(|l| l.path == ".s.b" && l.ty == "uint16_t" && l.array));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Leaf {
    /// The member path, starting with a `.`.
    pub path: String,
    /// The integer type of the place (of its elements, for an array).
    pub ty: &'static str,
    /// Whether the place is an array.
    pub array: bool,
}

/// The names of the struct types, in declaration order.
///
/// ```
/// assert_eq!(xsmith_c::structs::names().first(), Some(&"S0"));
/// ```
pub fn names() -> Vec<&'static str> {
    STRUCT_DEFINITIONS.iter().map(|h| h.name).collect()
}

/// The struct types that have a scalar member of every integer type, so
/// that a pointer to a member of any integer type can point into them.
///
/// ```
/// assert!(xsmith_c::structs::complete().contains(&"S1"));
/// assert!(!xsmith_c::structs::complete().contains(&"S0"));
/// ```
pub fn complete() -> Vec<&'static str> {
    names()
        .into_iter()
        .filter(|name| {
            let leaves = leaves(name);
            INT_TYPES
                .iter()
                .all(|(t, _, _)| leaves.iter().any(|l| !l.array && l.ty == *t))
        })
        .collect()
}

/// The members of struct `name`: each one's name, type name (an integer
/// type or an earlier struct) and whether it is an array.
fn members(name: &str) -> Vec<(&'static str, &'static str, bool)> {
    let definition = STRUCT_DEFINITIONS
        .iter()
        .find(|h| h.name == name)
        .unwrap_or_else(|| panic!("no struct type {name}"))
        .text;
    let body = &definition[definition.find('{').expect("a body") + 1..definition.rfind('}').expect("a body")];
    body.split(';')
        .map(str::trim)
        .filter(|member| !member.is_empty())
        .map(|member| {
            let (ty, name) = member.rsplit_once(' ').expect("`type name`");
            match name.strip_suffix("[8]") {
                Some(name) => (name, ty, true),
                None => (name, ty, false),
            }
        })
        .collect()
}

/// Every integer-typed place of struct `name`, nested structs' included,
/// in member order.
pub fn leaves(name: &str) -> Vec<Leaf> {
    let mut found = Vec::new();
    for (member, ty, array) in members(name) {
        if names().contains(&ty) {
            for mut leaf in leaves(ty) {
                leaf.path = format!(".{member}{}", leaf.path);
                found.push(leaf);
            }
        } else {
            found.push(Leaf {
                path: format!(".{member}"),
                ty,
                array,
            });
        }
    }
    found
}

/// The leaf of struct `name` that an access of type `ty` reaches: one of
/// the leaves of that type (or of any type, when none has it) that are
/// arrays or not as `array` says, chosen by `choice`.
///
/// ```
/// let leaf = xsmith_c::structs::leaf("S3", "int8_t", false, 7).unwrap();
/// assert_eq!(leaf.path, ".b");
/// ```
pub fn leaf(name: &str, ty: &str, array: bool, choice: i64) -> Option<Leaf> {
    let kind: Vec<Leaf> = leaves(name).into_iter().filter(|l| l.array == array).collect();
    let exact: Vec<Leaf> = kind.iter().filter(|l| l.ty == ty).cloned().collect();
    let pool = if exact.is_empty() { kind } else { exact };
    let at = choice.unsigned_abs() % (pool.len().max(1) as u64);
    pool.into_iter().nth(at as usize)
}

/// The integer types of the scalars of struct `name` in the order an
/// initialiser with elided braces gives them values (arrays as their
/// elements).
///
/// ```
/// assert_eq!(xsmith_c::structs::flattened("S0").len(), 11);
/// ```
pub fn flattened(name: &str) -> Vec<&'static str> {
    leaves(name)
        .into_iter()
        .flat_map(|l| std::iter::repeat(l.ty).take(if l.array { crate::MEMBER_LENGTH as usize } else { 1 }))
        .collect()
}

/// A constant initialiser of struct `name`, every member given, with the
/// pseudo-random constants `next` yields.
///
/// ```
/// let init = xsmith_c::structs::initialiser("S0", &mut || 1);
/// assert_eq!(init, "{1, {1, 1, 1, 1, 1, 1, 1, 1}, 1, UINT64_C(1)}");
/// ```
pub fn initialiser(name: &str, next: &mut dyn FnMut() -> i64) -> String {
    let items: Vec<String> = members(name)
        .into_iter()
        .map(|(_, ty, array)| {
            if names().contains(&ty) {
                initialiser(ty, next)
            } else if array {
                let elements: Vec<String> = (0..crate::MEMBER_LENGTH).map(|_| constant(ty, next())).collect();
                format!("{{{}}}", elements.join(", "))
            } else {
                constant(ty, next())
            }
        })
        .collect();
    format!("{{{}}}", items.join(", "))
}
