//! Helpers for a language's renderers of canned productions.

use xsmith::{RenderNode, Slot};

/// The names bound by the `Let` statements directly in the list `field` of
/// the node being rendered, in order: what a program prints at its end.
///
/// ```
/// use xsmith::Renderer;
/// let dump = Renderer::function(|n| {
///     let names = xsmith_canned::render::defined_names(n, "stmts");
///     n.concat(names.into_iter().map(|v| n.text(format!("show({v})\n"))))
/// });
/// # let _ = dump;
/// ```
pub fn defined_names(node: &RenderNode, field: &str) -> Vec<String> {
    let grammar = node.grammar();
    let tree = node.program();
    let production = grammar.production(tree.node(node.node()).production);
    let Some(Slot::List(children)) = production.field_index(field).map(|i| &tree.node(node.node()).slots[i]) else {
        return Vec::new();
    };
    children
        .iter()
        .filter_map(|&child| {
            let child_production = grammar.production(tree.node(child).production);
            if child_production.name() != "Let" {
                return None;
            }
            match &tree.node(child).slots[child_production.field_index("name")?] {
                Slot::Data(value) => Some(value.to_string()),
                _ => None,
            }
        })
        .collect()
}

/// The key a dictionary literal gives its element number `index`: the
/// canned string literals include the first few, so lookups sometimes hit.
///
/// ```
/// assert_eq!(xsmith_canned::render::dict_key(1), "k1");
/// ```
pub fn dict_key(index: usize) -> String {
    format!("k{index}")
}

/// `name(field, field, ...)`: a call of a header wrapper with the node's
/// children as arguments (the hook for safe division, modulo, overflow and
/// index wrappers).
///
/// ```
/// let div = xsmith::Renderer::function(|n| xsmith_canned::render::wrapper(n, "safe_div", &["left", "right"]));
/// # let _ = div;
/// ```
pub fn wrapper<'a>(node: &RenderNode<'a>, name: &'a str, fields: &[&str]) -> xsmith::Doc<'a> {
    let args = fields.iter().map(|f| node.child(f));
    node.text(name)
        .append("(")
        .append(node.join(args, node.text(", ")))
        .append(")")
}

/// The fields of the record literal being rendered, each with the document
/// of its value (`RecordLit`'s values follow its record type's fields), as
/// `field separator value`: `record_entries(n, " = ")` for Lua's `x = 1`,
/// `record_entries(n, ": ")` for JavaScript's `x: 1`.
///
/// ```
/// use xsmith::Renderer;
/// let record = Renderer::function(|n| {
///     let entries = xsmith_canned::render::record_entries(n, " = ");
///     n.text("{").append(n.join(entries, n.text(", "))).append("}")
/// });
/// # let _ = record;
/// ```
pub fn record_entries<'a>(node: &RenderNode<'a>, separator: &str) -> Vec<xsmith::Doc<'a>> {
    let Some(xsmith::types::Type::Record(fields)) = node.node_type() else {
        panic!("a record literal has a record type")
    };
    fields
        .iter()
        .zip(node.list("values"))
        .map(|((field, _), value)| node.text(format!("{field}{separator}")).append(value))
        .collect()
}
