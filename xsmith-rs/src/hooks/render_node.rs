//! The node a render function prints, and the documents it builds.

use std::cell::RefCell;
use std::rc::Rc;

use indexmap::IndexSet;

use crate::grammar::Grammar;
use crate::hooks::NodeRef;
use crate::program::Program;
use crate::tree::{NodeId, Slot};
use crate::value::Value;

use crate::doc::{Arena, Doc};

/// A node being rendered, as a render function sees it: its fields, the
/// tree, and constructors of documents.
///
/// ```
/// use xsmith::Renderer;
/// let call = Renderer::function(|node| {
///     node.helper("safe_div").append("(").append(node.child("left")).append(", ").append(node.child("right")).append(")")
/// });
/// # let _ = call;
/// ```
pub struct RenderNode<'a> {
    pub(crate) grammar: &'a Grammar,
    pub(crate) renderer: &'a dyn RenderNodes,
    pub(crate) program: &'a Program,
    pub(crate) node: NodeId,
    pub(crate) arena: &'a Arena<'a>,
    pub(crate) helpers: Rc<HelperUses>,
}

/// The names of the helpers one rendering's renderers used
/// ([`RenderNode::helper`]), each once, in the order first used.
#[derive(Debug, Default)]
pub(crate) struct HelperUses(RefCell<IndexSet<String>>);

impl HelperUses {
    /// Records a use of `name`.
    fn record(&self, name: &str) {
        if !self.0.borrow().contains(name) {
            self.0.borrow_mut().insert(name.to_string());
        }
    }

    /// The names used, in the order first used.
    pub(crate) fn names(&self) -> Vec<String> {
        self.0.borrow().iter().cloned().collect()
    }
}

/// What renders any node of a program: the spec's renderers, as the
/// rendering module runs them. A render function reaches other nodes'
/// renderings through it.
pub(crate) trait RenderNodes {
    /// The document of the subtree at `node`.
    fn render<'a>(
        &'a self,
        program: &'a Program,
        node: NodeId,
        arena: &'a Arena<'a>,
        helpers: &Rc<HelperUses>,
    ) -> Doc<'a>;
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
        self.arena.text(text)
    }

    /// A document of anything displayable (short texts are not heap
    /// allocated).
    ///
    /// ```
    /// let r = xsmith::Renderer::function(|node| node.display(42));
    /// # let _ = r;
    /// ```
    pub fn display(&self, value: impl std::fmt::Display) -> Doc<'a> {
        self.arena.display(value)
    }

    /// The empty document.
    ///
    /// ```
    /// let r = xsmith::Renderer::function(|node| node.nil());
    /// # let _ = r;
    /// ```
    pub fn nil(&self) -> Doc<'a> {
        self.arena.nil()
    }

    /// A space, or a line break when the enclosing group does not fit.
    ///
    /// ```
    /// let r = xsmith::Renderer::function(|node| node.text("a").append(node.line()).append("b").group());
    /// # let _ = r;
    /// ```
    pub fn line(&self) -> Doc<'a> {
        self.arena.line()
    }

    /// Nothing, or a line break when the enclosing group does not fit.
    ///
    /// ```
    /// let r = xsmith::Renderer::function(|node| node.text("a").append(node.softline()).append("b").group());
    /// # let _ = r;
    /// ```
    pub fn softline(&self) -> Doc<'a> {
        self.arena.softline()
    }

    /// Always a line break.
    ///
    /// ```
    /// let r = xsmith::Renderer::function(|node| node.text("a").append(node.hardline()).append("b"));
    /// # let _ = r;
    /// ```
    pub fn hardline(&self) -> Doc<'a> {
        self.arena.hardline()
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
        self.arena.join(docs, separator)
    }

    /// The name of the fuzzer's runtime helper `name`, recording that this
    /// node uses it: a program includes exactly the helpers its nodes use,
    /// and those the helpers use (see [`crate::helpers`]). A name that no
    /// helper of the fuzzer has (a builtin) is written all the same and
    /// adds nothing.
    ///
    /// ```
    /// // `safe_div(left, right)`, and the helper `safe_div` in the header.
    /// let r = xsmith::Renderer::function(|n| {
    ///     n.helper("safe_div").append("(").append(n.child("left")).append(", ").append(n.child("right")).append(")")
    /// });
    /// # let _ = r;
    /// ```
    pub fn helper(&self, name: impl Into<std::borrow::Cow<'a, str>>) -> Doc<'a> {
        let name = name.into();
        self.uses_helper(&name);
        self.text(name)
    }

    /// Records that this node uses helper `name`, writing nothing: for a
    /// renderer that writes the name inside a longer text of its own (a C
    /// declaration `S1 v1`, whose struct definition is a helper). Like
    /// [`helper`](RenderNode::helper), a name no helper has adds nothing.
    ///
    /// ```
    /// let r = xsmith::Renderer::function(|n| {
    ///     let ty = n.data("type").to_string();
    ///     n.uses_helper(&ty);
    ///     n.text(format!("{ty} {};", n.data("name")))
    /// });
    /// # let _ = r;
    /// ```
    pub fn uses_helper(&self, name: &str) {
        self.helpers.record(name);
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
        self.program.node_type(self.node)
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
        match self.program.type_store() {
            Some(store) => store.system().display(ty).to_string(),
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
        self.arena.concat(docs)
    }

    /// The arena the documents are allocated in.
    ///
    /// ```
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
        self.grammar.production(self.program.node(self.node).production).name()
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

    /// A name of the language's own for this node, `_tag_N` (`N` the
    /// node's index): distinct for distinct nodes or tags (a tag of
    /// identifier characters), and never a fresh name of the engine (see
    /// [`crate::names`]). For what a renderer binds that the program does
    /// not: a `while` loop's hidden counter, a temporary.
    ///
    /// ```
    /// // `for (let _i_4 = 0; _i_4 < 3; _i_4++) body`
    /// let r = xsmith::Renderer::function(|n| {
    ///     let i = n.hidden_name("i");
    ///     n.text(format!("for (let {i} = 0; {i} < 3; {i}++) ")).append(n.child("body"))
    /// });
    /// # let _ = r;
    /// assert!(!xsmith::names::is_fresh_name("_i_4"));
    /// ```
    pub fn hidden_name(&self, tag: &str) -> String {
        format!("_{tag}_{}", self.node.index())
    }

    /// The program, for attributes and anything else a renderer needs.
    ///
    /// ```
    /// let r = xsmith::Renderer::function(|node| node.display(node.program().len()));
    /// # let _ = r;
    /// ```
    pub fn program(&self) -> &'a Program {
        self.program
    }

    /// The grammar being rendered, for renderers that look at other nodes'
    /// productions and fields.
    ///
    /// ```
    /// let r = xsmith::Renderer::function(|node| {
    ///     let production = node.program().node(node.node()).production;
    ///     node.text(node.grammar().production(production).name().to_string())
    /// });
    /// # let _ = r;
    /// ```
    pub fn grammar(&self) -> &'a Grammar {
        self.grammar
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
    ///     let children: Vec<_> = node.program().children(node.node()).map(|c| node.render(c)).collect();
    ///     node.join(children, node.text(" "))
    /// });
    /// # let _ = r;
    /// ```
    pub fn render(&self, node: NodeId) -> Doc<'a> {
        self.renderer.render(self.program, node, self.arena, &self.helpers)
    }

    /// Node `id` of the program (`n.at(n.node())` is this node), to read
    /// other nodes by production and field names.
    ///
    /// ```
    /// // A name, or `it` where the node is inside a loop.
    /// let r = xsmith::Renderer::function(|n| {
    ///     let looped = n.at(n.node()).enclosing("Loop", |_| false).is_some();
    ///     if looped { n.text("it") } else { n.display(n.data("name")) }
    /// });
    /// # let _ = r;
    /// ```
    pub fn at(&self, id: NodeId) -> NodeRef<'a> {
        NodeRef::new(self.grammar, self.program, id)
    }

    /// The slot of the field called `field`.
    pub(crate) fn slot(&self, field: &str) -> &'a Slot {
        let production = self.grammar().production(self.program.node(self.node).production);
        match production.field_index(field) {
            Some(index) => &self.program.node(self.node).slots[index],
            None => panic!(
                "the renderer of production `{}` uses unknown field `{field}`",
                production.name()
            ),
        }
    }

    /// Panics naming the renderer's misuse of `field`.
    pub(crate) fn wrong_field(&self, field: &str, wanted: &str) -> ! {
        panic!(
            "the renderer of production `{}` uses field `{field}` as {wanted}, which it is not",
            self.production()
        )
    }
}
