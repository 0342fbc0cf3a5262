//! Types as Standard ML writes them, and the printer of each type: an SML
//! function of type `t -> string` built from `t`, so that every value
//! prints the same on every implementation (no `PolyML.print`, no
//! top-level echo).

use xsmith::types::{GenericId, Type, TypeSystem};

/// The generic types of programs, by their SML names.
const GENERICS: [&str; 3] = ["list", "array", "ref"];

fn generic_name(system: &TypeSystem, g: GenericId) -> &'static str {
    GENERICS
        .into_iter()
        .find(|name| system.generic_named(name) == Some(g))
        .expect("a generic type of SML's")
}

/// The type `ty` (ground) as SML writes it where it binds as tightly as
/// `place`: 0 anywhere; 1 a tuple's component or an arrow's parameter or a
/// function's result annotation (an arrow needs parentheses); 2 the
/// argument of a postfix constructor such as `list` (a tuple needs them
/// too).
pub(crate) fn text(system: &TypeSystem, ty: &Type, place: u8) -> String {
    let bracket = |text: String, needs: bool| if needs { format!("({text})") } else { text };
    match ty {
        Type::Base(_) => system.display(ty).to_string(),
        Type::Generic(g, args) => format!("{} {}", text(system, &args[0], 2), generic_name(system, *g)),
        Type::Product(items) if items.is_empty() => "unit".to_string(),
        Type::Product(items) if items.len() == 1 => text(system, &items[0], place),
        Type::Product(items) => {
            let items: Vec<String> = items.iter().map(|t| text(system, t, 2)).collect();
            bracket(items.join(" * "), place == 2)
        }
        Type::Function(f) => bracket(
            format!("{} -> {}", text(system, &f.0, 1), text(system, &f.1, 0)),
            place > 0,
        ),
        Type::Record(fields) => {
            let fields: Vec<String> = fields
                .iter()
                .map(|(n, t)| format!("{n} : {}", text(system, t, 0)))
                .collect();
            format!("{{{}}}", fields.join(", "))
        }
        Type::Var(_) | Type::Nominal(_) => panic!("a program's types are ground and structural, not {ty:?}"),
    }
}

/// The fuzzer's own printer of type `ty`: an SML expression of type `ty
/// -> string`, of the header's `xs_int`, `xs_str`, `xs_list`, `xs_array`
/// and `xs_ref`, `Bool.toString`, and functions over tuples and records
/// (`(a,b)`, `{x=a,y=b}`); a function prints as `<fn>`. Each name it
/// writes goes to `uses` (to record the header's helpers it calls).
pub(crate) fn printer(system: &TypeSystem, ty: &Type, uses: &dyn Fn(&str)) -> String {
    let (fields, tuple): (Vec<(String, &Type)>, bool) = match ty {
        Type::Base(_) => {
            let name = system.display(ty).to_string();
            let bases = [("int", "xs_int"), ("bool", "Bool.toString"), ("string", "xs_str")];
            let printer = bases.iter().find(|b| b.0 == name).expect("a printable base").1;
            uses(printer);
            return printer.to_string();
        }
        Type::Generic(g, args) => {
            let own = format!("xs_{}", generic_name(system, *g));
            uses(&own);
            return format!("({own} {})", printer(system, &args[0], uses));
        }
        Type::Function(_) => return r#"(fn _ => "<fn>")"#.to_string(),
        Type::Product(items) if items.is_empty() => return r#"(fn () => "()")"#.to_string(),
        Type::Product(items) if items.len() == 1 => return printer(system, &items[0], uses),
        // A tuple is the record of fields `1`, `2`, ...: one pattern for both.
        Type::Product(items) => (
            items
                .iter()
                .enumerate()
                .map(|(i, t)| ((i + 1).to_string(), t))
                .collect(),
            true,
        ),
        Type::Record(fields) => (fields.iter().map(|(n, t)| (n.to_string(), t)).collect(), false),
        Type::Var(_) | Type::Nominal(_) => panic!("a program's types are ground and structural, not {ty:?}"),
    };
    let pattern: Vec<String> = fields
        .iter()
        .enumerate()
        .map(|(i, (n, _))| format!("{n} = p{i}"))
        .collect();
    let parts = fields.iter().enumerate().map(|(i, (n, t))| {
        let open = match (i, tuple) {
            (0, true) => "(".to_string(),
            (0, false) => format!("{{{n}="),
            (_, true) => ",".to_string(),
            (_, false) => format!(",{n}="),
        };
        format!(r#""{open}" ^ {} p{i}"#, printer(system, t, uses))
    });
    let close = if tuple { ")" } else { "}" };
    format!(
        r#"(fn {{{}}} => {} ^ "{close}")"#,
        pattern.join(", "),
        parts.collect::<Vec<_>>().join(" ^ ")
    )
}
