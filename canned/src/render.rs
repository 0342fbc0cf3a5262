//! Helpers for a language's renderers of canned productions (and of its
//! own): statement lists, indentation, calls, infix operators, string
//! literals, and what a program prints at its end.

use xsmith::{Doc, RenderNode};

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
    let this = node.at(node.node());
    this.children(field)
        .into_iter()
        .filter(|child| child.is("Let"))
        .filter_map(|child| child.data("name").map(|name| name.to_string()))
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
/// index wrappers). Like [`call`], it records `name` as a helper the node
/// uses ([`RenderNode::helper`]).
///
/// ```
/// let div = xsmith::Renderer::function(|n| xsmith_canned::render::wrapper(n, "safe_div", &["left", "right"]));
/// # let _ = div;
/// ```
pub fn wrapper<'a>(node: &RenderNode<'a>, name: &'a str, fields: &[&str]) -> xsmith::Doc<'a> {
    call(node, name, fields.iter().map(|f| node.child(f)))
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

/// The documents one per line: a statement list.
///
/// ```
/// use xsmith_canned::nodes::Statements;
/// let r = xsmith::Renderer::function(|n| xsmith_canned::render::statements(n, Statements(n).stmts()));
/// # let _ = r;
/// ```
pub fn statements<'a>(node: &RenderNode<'a>, docs: Vec<Doc<'a>>) -> Doc<'a> {
    node.join(docs, node.hardline())
}

/// A line break, then `doc` indented by `indent` (what follows is not
/// indented).
///
/// ```
/// let r = xsmith::Renderer::function(|n| {
///     n.text("if x:").append(xsmith_canned::render::indented(n, n.child("then"), 4))
/// });
/// # let _ = r;
/// ```
pub fn indented<'a>(node: &RenderNode<'a>, doc: Doc<'a>, indent: isize) -> Doc<'a> {
    node.hardline().append(doc).nest(indent)
}

/// `name(arg, arg, ...)`: a call, of a header wrapper or anything else.
/// `name` is written through [`RenderNode::helper`], so a program whose
/// node calls a helper of the fuzzer includes it; a name no helper has (a
/// builtin such as Python's `len`) adds nothing.
///
/// ```
/// use xsmith_canned::nodes::Binary;
/// let r = xsmith::Renderer::function(|n| {
///     let b = Binary(n);
///     xsmith_canned::render::call(n, "safe_div", [b.left(), b.right()])
/// });
/// # let _ = r;
/// ```
pub fn call<'a>(node: &RenderNode<'a>, name: &'a str, args: impl IntoIterator<Item = Doc<'a>>) -> Doc<'a> {
    node.helper(name)
        .append("(")
        .append(node.join(args, node.text(", ")))
        .append(")")
}

/// `(left operator right)`, the operator with its spaces (`" < "`).
///
/// ```
/// use xsmith_canned::nodes::Binary;
/// let r = xsmith::Renderer::function(|n| xsmith_canned::render::infix(&Binary(n), " && "));
/// # let _ = r;
/// ```
pub fn infix<'a>(node: &crate::nodes::Binary<'_, 'a>, operator: &'a str) -> Doc<'a> {
    node.text("(")
        .append(node.left())
        .append(operator)
        .append(node.right())
        .append(")")
}

/// A double-quoted string literal: `"` and `\` escaped with a backslash,
/// newline and tab as `\n` and `\t`, any other character as `escape`
/// writes it (`None`: as itself). The escapes every canned language shares.
///
/// ```
/// use xsmith_canned::render::string_literal;
/// assert_eq!(string_literal("a\"b\n", |_| None), r#""a\"b\n""#);
/// let hex = |c: char| c.is_control().then(|| format!("\\x{:02x}", c as u32));
/// assert_eq!(string_literal("\u{1}", hex), r#""\x01""#);
/// ```
pub fn string_literal(text: &str, escape: impl Fn(char) -> Option<String>) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c => match escape(c) {
                Some(escaped) => out.push_str(&escaped),
                None => out.push(c),
            },
        }
    }
    out.push('"');
    out
}
