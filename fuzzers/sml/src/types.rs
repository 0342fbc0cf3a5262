//! Types as Standard ML writes them, and the printer of each type: an SML
//! function of type `t -> string` built from `t`, so that every value
//! prints the same on every implementation (no `PolyML.print`, no
//! top-level echo).

use xsmith::types::{GenericId, Type, TypeSystem};

/// How tightly a type is bound where it is written.
#[derive(Clone, Copy, PartialEq, PartialOrd)]
enum Place {
    /// Anywhere: an arrow needs no parentheses.
    Top,
    /// A tuple's component or an arrow's parameter: an arrow needs them.
    Component,
    /// The argument of a postfix constructor (`list`, `ref`): a tuple
    /// needs them too.
    Argument,
}

/// The type `ty` (ground) as SML writes it.
///
/// ```
/// use xsmith::types::Type;
/// let system = xsmith_sml::type_system();
/// let int = system.base_named("int").unwrap();
/// let list = system.generic_named("list").unwrap();
/// let pair = Type::product(vec![int.clone(), Type::generic(list, vec![int.clone()])]);
/// let f = Type::function(vec![pair.clone(), int.clone()], pair);
/// assert_eq!(xsmith_sml::types::text(&system, &f), "(int * int list) * int -> int * int list");
/// ```
pub fn text(system: &TypeSystem, ty: &Type) -> String {
    written(system, ty, Place::Top)
}

/// The type as a function's result annotation (`fun f (...) : R = ...`):
/// an arrow in parentheses.
pub fn result_text(system: &TypeSystem, ty: &Type) -> String {
    written(system, ty, Place::Component)
}

fn written(system: &TypeSystem, ty: &Type, place: Place) -> String {
    let bracket = |text: String, needs: bool| if needs { format!("({text})") } else { text };
    match ty {
        Type::Base(_) => system.display(ty).to_string(),
        Type::Generic(g, args) => format!(
            "{} {}",
            written(system, &args[0], Place::Argument),
            generic_name(system, *g)
        ),
        Type::Product(items) => match items.len() {
            0 => "unit".to_string(),
            1 => written(system, &items[0], place),
            _ => {
                let items: Vec<String> = items.iter().map(|t| written(system, t, Place::Argument)).collect();
                bracket(items.join(" * "), place == Place::Argument)
            }
        },
        Type::Function(f) => {
            let params = written(system, &f.0, Place::Component);
            let result = written(system, &f.1, Place::Top);
            bracket(format!("{params} -> {result}"), place > Place::Top)
        }
        Type::Record(fields) => {
            let fields: Vec<String> = fields
                .iter()
                .map(|(n, t)| format!("{n} : {}", text(system, t)))
                .collect();
            format!("{{{}}}", fields.join(", "))
        }
        Type::Var(_) | Type::Nominal(_) => panic!("a program's types are ground and structural, not {ty:?}"),
    }
}

/// The fuzzer's own printer of type `ty`: an SML expression of type
/// `ty -> string`, of the header's `xs_int`, `xs_str`, `xs_list`,
/// `xs_array` and `xs_ref`, `Bool.toString`, and functions over tuples and
/// records; a function prints as `<fn>`.
///
/// ```
/// use xsmith::types::Type;
/// let system = xsmith_sml::type_system();
/// let int = system.base_named("int").unwrap();
/// let record = Type::record(vec![("x", int.clone()), ("y", Type::function(vec![], int))]);
/// assert_eq!(
///     xsmith_sml::types::printer(&system, &record),
///     r#"(fn {x = p0, y = p1} => "{x=" ^ xs_int p0 ^ ",y=" ^ (fn _ => "<fn>") p1 ^ "}")"#
/// );
/// ```
pub fn printer(system: &TypeSystem, ty: &Type) -> String {
    match ty {
        Type::Base(_) => match system.display(ty).to_string().as_str() {
            "int" => "xs_int".to_string(),
            "bool" => "Bool.toString".to_string(),
            "string" => "xs_str".to_string(),
            other => panic!("no value of type {other} is ever printed"),
        },
        Type::Generic(g, args) => format!("(xs_{} {})", generic_name(system, *g), printer(system, &args[0])),
        Type::Product(items) => match items.len() {
            0 => r#"(fn () => "()")"#.to_string(),
            1 => printer(system, &items[0]),
            _ => {
                let names: Vec<String> = (0..items.len()).map(|i| format!("p{i}")).collect();
                let parts: Vec<String> = items
                    .iter()
                    .zip(&names)
                    .map(|(t, p)| format!("{} {p}", printer(system, t)))
                    .collect();
                format!(
                    r#"(fn ({}) => "(" ^ {} ^ ")")"#,
                    names.join(", "),
                    parts.join(r#" ^ "," ^ "#)
                )
            }
        },
        Type::Record(fields) => {
            let pattern: Vec<String> = fields
                .iter()
                .enumerate()
                .map(|(i, (n, _))| format!("{n} = p{i}"))
                .collect();
            let parts: Vec<String> = fields
                .iter()
                .enumerate()
                .map(|(i, (n, t))| {
                    let sep = if i == 0 { "{" } else { "," };
                    format!(r#""{sep}{n}=" ^ {} p{i}"#, printer(system, t))
                })
                .collect();
            format!(r#"(fn {{{}}} => {} ^ "}}")"#, pattern.join(", "), parts.join(" ^ "))
        }
        Type::Function(_) => r#"(fn _ => "<fn>")"#.to_string(),
        Type::Var(_) | Type::Nominal(_) => panic!("a program's types are ground and structural, not {ty:?}"),
    }
}

/// The header's helpers that [`printer`] of `ty` calls (`xs_int`,
/// `xs_list`, ...), each as often as it does.
///
/// ```
/// use xsmith::types::Type;
/// let system = xsmith_sml::type_system();
/// let int = system.base_named("int").unwrap();
/// let list = Type::generic(system.generic_named("list").unwrap(), vec![int]);
/// assert_eq!(xsmith_sml::types::printer_helpers(&system, &list), ["xs_list", "xs_int"]);
/// ```
pub fn printer_helpers(system: &TypeSystem, ty: &Type) -> Vec<&'static str> {
    match ty {
        Type::Base(_) => match system.display(ty).to_string().as_str() {
            "int" => vec!["xs_int"],
            "string" => vec!["xs_str"],
            _ => vec![],
        },
        Type::Generic(g, args) => {
            let own = match generic_name(system, *g) {
                "list" => "xs_list",
                "array" => "xs_array",
                _ => "xs_ref",
            };
            std::iter::once(own).chain(printer_helpers(system, &args[0])).collect()
        }
        Type::Product(items) => items.iter().flat_map(|t| printer_helpers(system, t)).collect(),
        Type::Record(fields) => fields.iter().flat_map(|(_, t)| printer_helpers(system, t)).collect(),
        _ => vec![],
    }
}

/// The generic types of programs, by their SML names.
const GENERICS: [&str; 3] = ["list", "array", "ref"];

fn generic_name(system: &TypeSystem, g: GenericId) -> &'static str {
    let named = |name: &&&str| system.generic_named(name) == Some(g);
    GENERICS
        .iter()
        .find(named)
        .expect("a generic type of the SML type system")
}

/// Whether `ty` is one of the base types a `ref` variable may hold.
pub fn is_storable(system: &TypeSystem, ty: &Type) -> bool {
    matches!(ty, Type::Base(_)) && ["int", "bool", "string"].contains(&system.display(ty).to_string().as_str())
}
