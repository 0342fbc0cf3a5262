//! Rendering: each node prints through its production's `render` property
//! into a [`pretty`] document, which is laid out at a chosen width.

use crate::properties::{Piece, Renderer};
use crate::spec::{FieldKind, Spec};
use crate::tree::{NodeId, Slot, Tree, Value};

/// A pretty-printing document (the `pretty` crate's reference-counted kind).
///
/// ```
/// use xsmith::Doc;
/// let doc = Doc::text("f(").append(Doc::text("x")).append(")");
/// assert_eq!(xsmith::render::layout(&doc, 80), "f(x)");
/// ```
pub type Doc = pretty::RcDoc<'static, ()>;

/// A node being rendered, as a render function sees it.
///
/// ```
/// use xsmith::{Doc, Renderer};
/// let call = Renderer::function(|node| {
///     Doc::text("safe_div(").append(node.child("left")).append(", ").append(node.child("right")).append(")")
/// });
/// # let _ = call;
/// ```
pub struct RenderNode<'a> {
    spec: &'a Spec,
    tree: &'a Tree,
    node: NodeId,
}

impl<'a> RenderNode<'a> {
    /// The node's production name.
    ///
    /// ```
    /// let r = xsmith::Renderer::function(|node| xsmith::Doc::text(node.production().to_lowercase()));
    /// # let _ = r;
    /// ```
    pub fn production(&self) -> &'a str {
        self.spec.production(self.tree.node(self.node).production).name()
    }

    /// The node's id.
    ///
    /// ```
    /// let r = xsmith::Renderer::function(|node| xsmith::Doc::text(format!("n{}", node.node().index())));
    /// # let _ = r;
    /// ```
    pub fn node(&self) -> NodeId {
        self.node
    }

    /// The tree, for attributes and anything else a renderer needs.
    ///
    /// ```
    /// let r = xsmith::Renderer::function(|node| xsmith::Doc::text(node.tree().len().to_string()));
    /// # let _ = r;
    /// ```
    pub fn tree(&self) -> &'a Tree {
        self.tree
    }

    /// The rendering of the single child in `field`.
    ///
    /// # Panics
    ///
    /// When the production has no single-child field of that name (a spec
    /// bug, named in the message).
    ///
    /// ```
    /// let r = xsmith::Renderer::function(|node| node.child("operand"));
    /// # let _ = r;
    /// ```
    pub fn child(&self, field: &str) -> Doc {
        match self.slot(field) {
            Slot::Child(child) => render_node(self.spec, self.tree, *child),
            _ => self.wrong_field(field, "a single child"),
        }
    }

    /// The renderings of the elements of the list in `field`.
    ///
    /// ```
    /// use xsmith::Doc;
    /// let r = xsmith::Renderer::function(|node| Doc::intersperse(node.list("items"), Doc::text(", ")));
    /// # let _ = r;
    /// ```
    pub fn list(&self, field: &str) -> Vec<Doc> {
        match self.slot(field) {
            Slot::List(children) => children.iter().map(|&c| render_node(self.spec, self.tree, c)).collect(),
            _ => self.wrong_field(field, "a list"),
        }
    }

    /// The value of the data field `field`.
    ///
    /// ```
    /// let r = xsmith::Renderer::function(|node| xsmith::Doc::text(node.data("value").to_string()));
    /// # let _ = r;
    /// ```
    pub fn data(&self, field: &str) -> &'a Value {
        match self.slot(field) {
            Slot::Data(value) => value,
            _ => self.wrong_field(field, "a data field"),
        }
    }

    /// The rendering of any node of the tree.
    ///
    /// ```
    /// let r = xsmith::Renderer::function(|node| node.tree().children(node.node()).map(|c| node.render(c)).collect::<Vec<_>>().into_iter().next().unwrap_or(xsmith::Doc::nil()));
    /// # let _ = r;
    /// ```
    pub fn render(&self, node: NodeId) -> Doc {
        render_node(self.spec, self.tree, node)
    }

    fn slot(&self, field: &str) -> &'a Slot {
        let production = self.spec.production(self.tree.node(self.node).production);
        match production.field_index(field) {
            Some(index) => &self.tree.node(self.node).slots[index],
            None => panic!("the renderer of production `{}` uses unknown field `{field}`", production.name()),
        }
    }

    fn wrong_field(&self, field: &str, wanted: &str) -> ! {
        panic!(
            "the renderer of production `{}` uses field `{field}` as {wanted}, which it is not",
            self.production()
        )
    }

    fn template(&self, pieces: &[Piece]) -> Doc {
        Doc::concat(pieces.iter().map(|piece| self.piece(piece)))
    }

    fn piece(&self, piece: &Piece) -> Doc {
        match piece {
            Piece::Text(text) => text_with_breaks(text),
            Piece::Field(field) => {
                let production = self.spec.production(self.tree.node(self.node).production);
                let index = production.field_index(field).expect("template fields are checked at assembly");
                match (&self.tree.node(self.node).slots[index], production.fields()[index].kind()) {
                    (Slot::Child(child), _) => render_node(self.spec, self.tree, *child),
                    (Slot::List(_), _) => Doc::intersperse(self.list(field), Doc::hardline()),
                    (Slot::Data(value), FieldKind::Data(_)) => Doc::text(value.to_string()),
                    (Slot::Data(_), _) => unreachable!("a data slot belongs to a data field"),
                }
            }
            Piece::Join(field, separator) => Doc::intersperse(self.list(field), self.template(separator)),
            Piece::Line => Doc::line(),
            Piece::SoftLine => Doc::line_(),
            Piece::HardLine => Doc::hardline(),
            Piece::Nest(indent, pieces) => self.template(pieces).nest(*indent),
            Piece::Group(pieces) => self.template(pieces).group(),
        }
    }
}

/// Text whose newlines become hard line breaks (so they indent with nesting).
fn text_with_breaks(text: &'static str) -> Doc {
    if !text.contains('\n') {
        return Doc::text(text);
    }
    Doc::intersperse(text.split('\n').map(Doc::text), Doc::hardline())
}

/// The document of the subtree at `node`.
///
/// ```
/// let spec = xsmith::example::spec();
/// let tree = xsmith::example::tree(&spec, 5);
/// let doc = xsmith::render::render_node(&spec, &tree, tree.root());
/// assert!(!xsmith::render::layout(&doc, 80).is_empty());
/// ```
pub fn render_node(spec: &Spec, tree: &Tree, node: NodeId) -> Doc {
    let target = tree.node(node);
    let production = spec.production(target.production);
    let render = RenderNode { spec, tree, node };
    match (&production.renderer, target.is_hole) {
        (_, true) => Doc::text(format!("<hole {}>", production.name())),
        (Some(Renderer::Template(pieces)), false) => render.template(pieces),
        (Some(Renderer::Function(f)), false) => f(&render),
        (None, false) => unreachable!("assembly checks that generatable productions have renderers"),
    }
}

/// Lays a document out at `width` columns.
///
/// ```
/// use xsmith::Doc;
/// let doc = Doc::text("a").append(Doc::line()).append("b").group();
/// assert_eq!(xsmith::render::layout(&doc, 80), "a b");
/// assert_eq!(xsmith::render::layout(&doc, 1), "a\nb");
/// ```
pub fn layout(doc: &Doc, width: usize) -> String {
    let mut out = String::new();
    doc.render_fmt(width, &mut out).expect("writing to a String cannot fail");
    out
}

/// Renders the whole tree at `width` columns.
///
/// ```
/// let spec = xsmith::example::spec();
/// let tree = xsmith::example::tree(&spec, 5);
/// assert!(xsmith::render::render_tree(&spec, &tree, 80).starts_with("print("));
/// ```
pub fn render_tree(spec: &Spec, tree: &Tree, width: usize) -> String {
    layout(&render_node(spec, tree, tree.root()), width)
}
