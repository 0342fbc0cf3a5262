//! The type system the canned productions share: `int`, `bool`, `string`,
//! mutable `array<T>`, immutable `list<T>`, `dict<T>` (from strings),
//! structural records and functions; statements have the abstract type
//! `stmt`, which no expression ever has.

use xsmith::types::{Type, TypeStore, TypeSystem, Variance};
use xsmith::ChildTypes;

use crate::Options;

/// The canned type system for `options` (its record field names); a
/// language may declare more types on it before assembling.
///
/// Its types, by the names a language's `type_info` writes them:
///
/// | type | written | what it is |
/// |---|---|---|
/// | `int`, `bool`, `string` | `s.base("int")`, `c.base("int")` | the base types |
/// | `stmt` | `s.base("stmt")` | the type of every statement (`Stmt` nodes, `Program`, `Block`); abstract, so no expression has it |
/// | `array<T>` | `s.generic("array", vec![t])` | a mutable array (`ArrayLit`, `ArrayGet`, `ArraySet`, `ForEachArray`) |
/// | `list<T>` | `s.generic("list", vec![t])` | an immutable list, covariant in `T` (`ListLit`, `ListGet`, `ForEachList`) |
/// | `dict<T>` | `s.generic("dict", vec![t])` | a mutable dictionary from strings to `T` (`DictLit`, `DictGet`, `DictSet`) |
/// | records | `Type::record(..)` | structural records of `options.record_fields` |
/// | functions | `Type::function(params, result)` | `Lambda`, `LambdaBlock`, `Apply` |
///
/// (`s` is the [`TypeStore`] of `TypeInfo::new(|s| ..)`, `c` the
/// [`ChildTypes`] of a child's type function; both have `base` and
/// `generic`.)
///
/// ```
/// use xsmith::component;
/// let system = xsmith_canned::type_system(&xsmith_canned::Options::default());
/// assert!(system.base_named("int").is_some());
/// assert!(system.base_named("stmt").is_some());
/// assert!(system.generic_named("dict").is_some());
///
/// // A language's own productions: `len(array)` of any element type, and
/// // a statement that appends an int to an `array<int>`.
/// component! {
///     fn own;
///     uses { Expr, Stmt }
///     grammar {
///         ArrayLen: Expr { array: Expr }
///         Push: Stmt { array: Expr, value: Expr }
///     }
///     type_info {
///         ArrayLen => (|s| s.base("int")) { array: |c| { let t = c.fresh(); c.generic("array", vec![t]) } },
///         Push => (|s| s.base("stmt")) {
///             array: |c| c.generic("array", vec![c.base("int")]),
///             value: |c| c.base("int"),
///         },
///     }
///     render { ArrayLen => ["len(", array, ")"], Push => [array, ".push(", value, ")"] }
/// }
/// # let _ = own;
/// ```
pub fn type_system(options: &Options) -> TypeSystem {
    let mut system = TypeSystem::new();
    system.base("int");
    system.base("bool");
    system.base("string");
    system.abstract_base("stmt", None);
    system.generic("array", &[Variance::Invariant]);
    system.generic("list", &[Variance::Covariant]);
    system.generic("dict", &[Variance::Invariant]);
    system.allow_functions(true);
    system.record_field_names(&options.record_fields);
    system
}

/// `name<element>` for the canned generic `name` (`array`, `list`, `dict`).
pub(crate) fn generic_of(store: &TypeStore, name: &str, element: Type) -> Type {
    store.generic(name, vec![element])
}

/// A fresh variable restricted to the base types `int`, `bool` and
/// `string` (what assignments store: functions are never stored over, so
/// no call can reach itself); for a language's own productions that store.
///
/// ```
/// use xsmith::types::TypeStore;
/// let options = xsmith_canned::Options::default();
/// let mut store = TypeStore::new(xsmith_canned::type_system(&options).into());
/// let t = xsmith_canned::fresh_base(&mut store);
/// let int = store.base("int");
/// assert!(store.can_unify(&t, &int));
/// assert!(!store.can_unify(&t, &xsmith::types::Type::function(vec![], int)));
/// ```
pub fn fresh_base(store: &mut TypeStore) -> Type {
    store.fresh_one_of_named(&["int", "bool", "string"])
}

/// The element type of the node's generic type (`T` of `list<T>`): the
/// type of a container literal's items, for a `TypeInfo`'s child.
///
/// ```
/// let info = xsmith::TypeInfo::new(|s| {
///     let t = s.fresh();
///     s.generic("list", vec![t])
/// })
/// .child("head", xsmith_canned::element_of_node);
/// # let _ = info;
/// ```
pub fn element_of_node(c: &mut ChildTypes) -> Type {
    let node_type = c.node_type().clone();
    match c.store().resolve(&node_type) {
        Type::Generic(_, args) => args[0].clone(),
        other => panic!("a container literal has a generic type, not {other:?}"),
    }
}

/// The type of field `name` of the node's record type.
pub(crate) fn field_of_node(c: &mut ChildTypes, name: &str) -> Type {
    let node_type = c.node_type().clone();
    match c.store().resolve(&node_type) {
        Type::Record(fields) => fields
            .iter()
            .find(|(n, _)| &**n == name)
            .map(|(_, t)| t.clone())
            .unwrap_or_else(|| panic!("a record literal has field `{name}`")),
        other => panic!("a record literal has a record type, not {other:?}"),
    }
}
