//! Rendering: each node prints through its production's `render` property
//! into a [`pretty`] document, which is laid out at a chosen width.

/// The `pretty` trait whose methods build documents in an [`Arena`].
pub use pretty::DocAllocator;

use crate::properties::{Piece, Renderer};
use crate::spec::Spec;
use crate::tree::{NodeId, Slot, Tree, Value};

/// Where the documents of one rendering are allocated: every document of a
/// program lives in one arena, freed at once when the rendering is done.
pub type Arena<'a> = pretty::Arena<'a, ()>;

/// A pretty-printing document, allocated in an [`Arena`].
///
/// ```
/// use xsmith::render::{layout, Arena, DocAllocator};
/// let arena = Arena::new();
/// let doc = arena.text("f(").append("x").append(")");
/// assert_eq!(layout(doc, 80), "f(x)");
/// ```
pub type Doc<'a> = pretty::DocBuilder<'a, Arena<'a>, ()>;

/// A node being rendered, as a render function sees it: its fields, the
/// tree, and constructors of documents.
///
/// ```
/// use xsmith::Renderer;
/// let call = Renderer::function(|node| {
///     node.text("safe_div(").append(node.child("left")).append(", ").append(node.child("right")).append(")")
/// });
/// # let _ = call;
/// ```
pub struct RenderNode<'a> {
    spec: &'a Spec,
    tree: &'a Tree,
    node: NodeId,
    arena: &'a Arena<'a>,
}

impl<'a> RenderNode<'a> {
    /// A document of literal text (which should hold no newline; use
    /// [`hardline`](RenderNode::hardline)).
    ///
    /// ```
    /// let r = xsmith::Renderer::function(|node| node.text("pass"));
    /// # let _ = r;
    /// ```
    pub fn text(&self, text: impl Into<std::borrow::Cow<'a, str>>) -> Doc<'a> {
        pretty::DocAllocator::text(self.arena, text)
    }

    /// A document of anything displayable (short texts are not heap
    /// allocated).
    ///
    /// ```
    /// let r = xsmith::Renderer::function(|node| node.display(42));
    /// # let _ = r;
    /// ```
    pub fn display(&self, value: impl std::fmt::Display) -> Doc<'a> {
        pretty::DocAllocator::as_string(self.arena, value)
    }

    /// The empty document.
    ///
    /// ```
    /// let r = xsmith::Renderer::function(|node| node.nil());
    /// # let _ = r;
    /// ```
    pub fn nil(&self) -> Doc<'a> {
        pretty::DocAllocator::nil(self.arena)
    }

    /// A space, or a line break when the enclosing group does not fit.
    ///
    /// ```
    /// let r = xsmith::Renderer::function(|node| node.text("a").append(node.line()).append("b").group());
    /// # let _ = r;
    /// ```
    pub fn line(&self) -> Doc<'a> {
        pretty::DocAllocator::line(self.arena)
    }

    /// Nothing, or a line break when the enclosing group does not fit.
    ///
    /// ```
    /// let r = xsmith::Renderer::function(|node| node.text("a").append(node.softline()).append("b").group());
    /// # let _ = r;
    /// ```
    pub fn softline(&self) -> Doc<'a> {
        pretty::DocAllocator::line_(self.arena)
    }

    /// Always a line break.
    ///
    /// ```
    /// let r = xsmith::Renderer::function(|node| node.text("a").append(node.hardline()).append("b"));
    /// # let _ = r;
    /// ```
    pub fn hardline(&self) -> Doc<'a> {
        pretty::DocAllocator::hardline(self.arena)
    }

    /// The documents with `separator` between each two.
    ///
    /// ```
    /// let r = xsmith::Renderer::function(|node| {
    ///     let items = node.list("items");
    ///     node.join(items, node.text(", "))
    /// });
    /// # let _ = r;
    /// ```
    pub fn join(&self, docs: impl IntoIterator<Item = Doc<'a>>, separator: Doc<'a>) -> Doc<'a> {
        pretty::DocAllocator::intersperse(self.arena, docs, separator)
    }

    /// The node's type (typed specs only; ground once generation is done).
    ///
    /// ```
    /// let r = xsmith::Renderer::function(|node| match node.node_type() {
    ///     Some(ty) => node.text(node.type_text(&ty)),
    ///     None => node.nil(),
    /// });
    /// # let _ = r;
    /// ```
    pub fn node_type(&self) -> Option<crate::types::Type> {
        self.tree.node_type(self.node)
    }

    /// A type written with the type system's names (`array<int>`, `(int) ->
    /// bool`, `{a: int}`); the empty string for an untyped spec.
    ///
    /// ```
    /// let r = xsmith::Renderer::function(|node| {
    ///     let text = node.node_type().map(|t| node.type_text(&t)).unwrap_or_default();
    ///     node.text(text)
    /// });
    /// # let _ = r;
    /// ```
    pub fn type_text(&self, ty: &crate::types::Type) -> String {
        match self.spec.type_system() {
            Some(system) => system.display(ty).to_string(),
            None => String::new(),
        }
    }

    /// The documents one after another.
    ///
    /// ```
    /// let r = xsmith::Renderer::function(|node| {
    ///     let items = node.list("items").into_iter().map(|item| node.text(" ").append(item));
    ///     node.concat(items)
    /// });
    /// # let _ = r;
    /// ```
    pub fn concat(&self, docs: impl IntoIterator<Item = Doc<'a>>) -> Doc<'a> {
        pretty::DocAllocator::concat(self.arena, docs)
    }

    /// The arena, for any other `pretty` constructor.
    ///
    /// ```
    /// use xsmith::render::DocAllocator;
    /// let r = xsmith::Renderer::function(|node| node.arena().space());
    /// # let _ = r;
    /// ```
    pub fn arena(&self) -> &'a Arena<'a> {
        self.arena
    }

    /// The node's production name.
    ///
    /// ```
    /// let r = xsmith::Renderer::function(|node| node.text(node.production().to_lowercase()));
    /// # let _ = r;
    /// ```
    pub fn production(&self) -> &'a str {
        self.spec.production(self.tree.node(self.node).production).name()
    }

    /// The node's id.
    ///
    /// ```
    /// let r = xsmith::Renderer::function(|node| node.text(format!("n{}", node.node().index())));
    /// # let _ = r;
    /// ```
    pub fn node(&self) -> NodeId {
        self.node
    }

    /// The tree, for attributes and anything else a renderer needs.
    ///
    /// ```
    /// let r = xsmith::Renderer::function(|node| node.display(node.tree().len()));
    /// # let _ = r;
    /// ```
    pub fn tree(&self) -> &'a Tree {
        self.tree
    }

    /// The spec being rendered, for renderers that look at other nodes'
    /// productions and fields.
    ///
    /// ```
    /// let r = xsmith::Renderer::function(|node| node.text(node.spec().production(node.tree().node(node.node()).production).name().to_string()));
    /// # let _ = r;
    /// ```
    pub fn spec(&self) -> &'a Spec {
        self.spec
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
    pub fn child(&self, field: &str) -> Doc<'a> {
        match self.slot(field) {
            Slot::Child(child) => self.render(*child),
            _ => self.wrong_field(field, "a single child"),
        }
    }

    /// The renderings of the elements of the list in `field`.
    ///
    /// ```
    /// let r = xsmith::Renderer::function(|node| node.join(node.list("items"), node.text(", ")));
    /// # let _ = r;
    /// ```
    pub fn list(&self, field: &str) -> Vec<Doc<'a>> {
        match self.slot(field) {
            Slot::List(children) => children.iter().map(|&c| self.render(c)).collect(),
            _ => self.wrong_field(field, "a list"),
        }
    }

    /// The value of the data field `field`.
    ///
    /// ```
    /// let r = xsmith::Renderer::function(|node| node.display(node.data("value")));
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
    /// let r = xsmith::Renderer::function(|node| {
    ///     let children: Vec<_> = node.tree().children(node.node()).map(|c| node.render(c)).collect();
    ///     node.join(children, node.text(" "))
    /// });
    /// # let _ = r;
    /// ```
    pub fn render(&self, node: NodeId) -> Doc<'a> {
        render_node(self.spec, self.tree, node, self.arena)
    }

    fn slot(&self, field: &str) -> &'a Slot {
        let production = self.spec.production(self.tree.node(self.node).production);
        match production.field_index(field) {
            Some(index) => &self.tree.node(self.node).slots[index],
            None => panic!(
                "the renderer of production `{}` uses unknown field `{field}`",
                production.name()
            ),
        }
    }

    fn wrong_field(&self, field: &str, wanted: &str) -> ! {
        panic!(
            "the renderer of production `{}` uses field `{field}` as {wanted}, which it is not",
            self.production()
        )
    }

    fn template(&self, pieces: &[Piece]) -> Doc<'a> {
        match pieces {
            [single] => self.piece(single),
            _ => pretty::DocAllocator::concat(self.arena, pieces.iter().map(|piece| self.piece(piece))),
        }
    }

    fn piece(&self, piece: &Piece) -> Doc<'a> {
        match piece {
            Piece::Text(text) => self.text_with_breaks(text),
            Piece::Field(field) => match self.slot(field) {
                Slot::Child(child) => self.render(*child),
                Slot::List(children) => self.join(children.iter().map(|&c| self.render(c)), self.hardline()),
                Slot::Data(value) => self.display(value),
            },
            Piece::Join(field, separator) => self.join(self.list(field), self.template(separator)),
            Piece::Line => self.line(),
            Piece::SoftLine => self.softline(),
            Piece::HardLine => self.hardline(),
            Piece::Nest(indent, pieces) => self.template(pieces).nest(*indent),
            Piece::Group(pieces) => self.template(pieces).group(),
        }
    }

    /// Text whose newlines become hard line breaks (so they indent with
    /// nesting).
    fn text_with_breaks(&self, text: &'static str) -> Doc<'a> {
        if !text.contains('\n') {
            return self.text(text);
        }
        self.join(text.split('\n').map(|line| self.text(line)), self.hardline())
    }
}

/// The document of the subtree at `node`, allocated in `arena`.
///
/// ```
/// use xsmith::render::{layout, render_node, Arena};
/// let spec = xsmith::example::spec();
/// let tree = xsmith::example::tree(&spec, 5);
/// let arena = Arena::new();
/// assert!(!layout(render_node(&spec, &tree, tree.root(), &arena), 80).is_empty());
/// ```
pub fn render_node<'a>(spec: &'a Spec, tree: &'a Tree, node: NodeId, arena: &'a Arena<'a>) -> Doc<'a> {
    let target = tree.node(node);
    let production = spec.production(target.production);
    let render = RenderNode {
        spec,
        tree,
        node,
        arena,
    };
    match (&production.renderer, target.is_hole) {
        (_, true) => render.text(format!("<hole {}>", production.name())),
        (Some(Renderer::Template(pieces)), false) => render.template(pieces),
        (Some(Renderer::Function(f)), false) => f(&render),
        (None, false) => {
            unreachable!("assembly checks that generatable productions have renderers")
        }
    }
}

/// Lays a document out at `width` columns.
///
/// ```
/// use xsmith::render::{layout, Arena, DocAllocator};
/// let arena = Arena::new();
/// let doc = || arena.text("a").append(arena.line()).append("b").group();
/// assert_eq!(layout(doc(), 80), "a b");
/// assert_eq!(layout(doc(), 1), "a\nb");
/// ```
pub fn layout(doc: Doc<'_>, width: usize) -> String {
    let mut out = String::new();
    layout_into(doc, width, &mut out);
    out
}

/// Lays a document out at `width` columns at the end of `out`.
///
/// ```
/// use xsmith::render::{layout_into, Arena, DocAllocator};
/// let arena = Arena::new();
/// let mut out = String::from("> ");
/// layout_into(arena.text("x"), 80, &mut out);
/// assert_eq!(out, "> x");
/// ```
pub fn layout_into(doc: Doc<'_>, width: usize, out: &mut String) {
    doc.into_doc()
        .render_fmt(width, out)
        .expect("writing to a String cannot fail");
}

/// Renders the whole tree at `width` columns at the end of `out`.
///
/// ```
/// let spec = xsmith::example::spec();
/// let tree = xsmith::example::tree(&spec, 5);
/// let mut out = String::new();
/// xsmith::render::render_tree_into(&spec, &tree, 80, &mut out);
/// assert!(out.starts_with("print("));
/// ```
pub fn render_tree_into(spec: &Spec, tree: &Tree, width: usize, out: &mut String) {
    let arena = Arena::new();
    layout_into(render_node(spec, tree, tree.root(), &arena), width, out);
}

/// Renders the whole tree at `width` columns.
///
/// ```
/// let spec = xsmith::example::spec();
/// let tree = xsmith::example::tree(&spec, 5);
/// assert!(xsmith::render::render_tree(&spec, &tree, 80).starts_with("print("));
/// ```
pub fn render_tree(spec: &Spec, tree: &Tree, width: usize) -> String {
    let mut out = String::new();
    render_tree_into(spec, tree, width, &mut out);
    out
}
