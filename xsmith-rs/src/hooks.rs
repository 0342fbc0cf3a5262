//! The views the closures of a spec receive: the hole a filter or weight
//! decides on ([`Hole`]), the node a `fresh` hook initialises
//! ([`FreshNode`]), the child types a `type_info` gives ([`ChildTypes`]),
//! and the node a render function prints ([`RenderNode`]). Each sees the
//! grammar and the program being built, never the whole spec.

use crate::grammar::{FieldKind, Grammar, ProdId, Production};
use crate::program::Program;
use crate::random::Random;
use crate::tree::{NodeId, Slot};
use crate::types::{Type, TypeStore};
use crate::value::Value;

/// A hole being filled, as choice filters and dynamic weights see it.
///
/// ```
/// let filter = xsmith::Filter::new(|hole: &xsmith::Hole| hole.depth() + 1 < hole.max_depth());
/// # let _ = filter;
/// ```
pub struct Hole<'a> {
    pub(crate) grammar: &'a Grammar,
    pub(crate) program: &'a Program,
    pub(crate) node: NodeId,
    pub(crate) max_depth: u32,
}

impl<'a> Hole<'a> {
    /// The hole's node.
    ///
    /// ```
    /// let f = xsmith::Filter::new(|hole| hole.node().index() > 0);
    /// # let _ = f;
    /// ```
    pub fn node(&self) -> NodeId {
        self.node
    }

    /// The depth the filling node will have.
    ///
    /// ```
    /// let w = xsmith::Weight::dynamic(|hole| hole.depth() + 1);
    /// # let _ = w;
    /// ```
    pub fn depth(&self) -> u32 {
        self.program.node(self.node).depth
    }

    /// The `--max-depth` in force.
    ///
    /// ```
    /// let w = xsmith::Weight::dynamic(|hole| hole.max_depth() - hole.depth().min(hole.max_depth()));
    /// # let _ = w;
    /// ```
    pub fn max_depth(&self) -> u32 {
        self.max_depth
    }

    /// The node type the hole stands for.
    ///
    /// ```
    /// let f = xsmith::Filter::new(|hole| hole.grammar().production(hole.node_type()).is_abstract());
    /// # let _ = f;
    /// ```
    pub fn node_type(&self) -> ProdId {
        self.program.node(self.node).production
    }

    /// The type the hole's parent requires of it (typed specs only).
    ///
    /// ```
    /// let f = xsmith::Filter::new(|hole| hole.required_type().is_none());
    /// # let _ = f;
    /// ```
    pub fn required_type(&self) -> Option<Type> {
        self.program.node_type(self.node)
    }

    /// The production of the hole's parent, `None` at the root.
    ///
    /// ```
    /// let f = xsmith::Filter::new(|hole| hole.parent_production().map_or(true, |p| p.name() != "Div"));
    /// # let _ = f;
    /// ```
    pub fn parent_production(&self) -> Option<&'a Production> {
        let parent = self.program.node(self.node).parent?;
        Some(self.grammar.production(self.program.node(parent).production))
    }

    /// The program being generated, for attributes and anything else a
    /// filter needs.
    ///
    /// ```
    /// let f = xsmith::Filter::new(|hole| hole.program().len() < 50);
    /// # let _ = f;
    /// ```
    pub fn program(&self) -> &'a Program {
        self.program
    }

    /// The grammar being generated from.
    ///
    /// ```
    /// let f = xsmith::Filter::new(|hole| hole.grammar().productions().len() > 1);
    /// # let _ = f;
    /// ```
    pub fn grammar(&self) -> &'a Grammar {
        self.grammar
    }
}

/// A node just made, as a `fresh` hook sees it: its data fields can be reset
/// from the program's random source.
///
/// ```
/// let hook = xsmith::FreshHook::new(|node: &mut xsmith::FreshNode| {
///     let v = node.random().int_in(1, 9);
///     node.set("value", v);
/// });
/// # let _ = hook;
/// ```
pub struct FreshNode<'a> {
    pub(crate) grammar: &'a Grammar,
    pub(crate) program: &'a mut Program,
    pub(crate) node: NodeId,
    pub(crate) random: &'a mut Random,
    pub(crate) type_max_depth: u32,
}

/// What a `type_info` child function sees: the node's type, which element
/// of a list it is typing, and the type store.
///
/// ```
/// let info = xsmith::TypeInfo::new(|s| s.fresh())
///     .child("items", |c| {
///         let element = c.fresh();
///         if c.index() == 0 { c.node_type().clone() } else { element }
///     });
/// # let _ = info;
/// ```
pub struct ChildTypes<'a> {
    pub(crate) store: &'a mut TypeStore,
    pub(crate) node_type: Type,
    pub(crate) index: usize,
    pub(crate) len: usize,
    /// Every child field's name and length, in field order.
    pub(crate) field_lens: &'a [(&'a str, usize)],
    /// The types given so far to this node's children, by field.
    pub(crate) earlier: &'a [(&'a str, Type)],
}

impl ChildTypes<'_> {
    /// The type of the node whose child is being typed.
    ///
    /// ```
    /// let info = xsmith::TypeInfo::new(|s| s.base("int")).child("x", |c| c.node_type().clone());
    /// # let _ = info;
    /// ```
    pub fn node_type(&self) -> &Type {
        &self.node_type
    }

    /// Which element of a list field this is (0 for a single child).
    ///
    /// ```
    /// let info = xsmith::TypeInfo::new(|s| s.fresh()).child("xs", |c| { let _ = c.index(); c.fresh() });
    /// # let _ = info;
    /// ```
    pub fn index(&self) -> usize {
        self.index
    }

    /// How many elements the list field has (1 for a single child).
    ///
    /// ```
    /// let info = xsmith::TypeInfo::new(|s| s.fresh()).child("xs", |c| { let _ = c.len(); c.fresh() });
    /// # let _ = info;
    /// ```
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the list field is empty (never, for a child being typed).
    ///
    /// ```
    /// let info = xsmith::TypeInfo::new(|s| s.fresh()).child("xs", |c| { assert!(!c.is_empty()); c.fresh() });
    /// # let _ = info;
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// How many children the node's field `field` has (1 for a single
    /// child, 0 for an unknown field).
    ///
    /// ```
    /// let apply = xsmith::TypeInfo::new(|s| s.fresh()).child("callee", |c| {
    ///     let params = (0..c.field_len("args")).map(|_| c.fresh()).collect();
    ///     xsmith::types::Type::function(params, c.node_type().clone())
    /// });
    /// # let _ = apply;
    /// ```
    pub fn field_len(&self, field: &str) -> usize {
        self.field_lens
            .iter()
            .find(|(name, _)| *name == field)
            .map_or(0, |(_, len)| *len)
    }

    /// The type already given to the first child of an earlier field
    /// (children are typed in field order).
    ///
    /// ```
    /// let apply = xsmith::TypeInfo::new(|s| s.fresh())
    ///     .child("callee", |c| c.fresh())
    ///     .child("args", |c| {
    ///         let callee = c.earlier("callee").expect("typed first");
    ///         let (params, _) = c.store().function_parts(&callee).unwrap();
    ///         let (len, index) = (c.len(), c.index());
    ///         c.product_item(&params, len, index)
    ///     });
    /// # let _ = apply;
    /// ```
    pub fn earlier(&self, field: &str) -> Option<Type> {
        self.earlier
            .iter()
            .find(|(name, _)| *name == field)
            .map(|(_, t)| t.clone())
    }

    /// The type store, for anything else.
    ///
    /// ```
    /// let info = xsmith::TypeInfo::new(|s| s.fresh()).child("x", |c| c.store().fresh());
    /// # let _ = info;
    /// ```
    pub fn store(&mut self) -> &mut TypeStore {
        self.store
    }

    /// A fresh type variable that must be a subtype of `ty`: what a child
    /// position that accepts subtypes (an operand, an argument) gets.
    ///
    /// ```
    /// let add = xsmith::TypeInfo::new(|s| s.base("int")).child("left", |c| {
    ///     let t = c.node_type().clone();
    ///     c.subtype_of(&t)
    /// });
    /// # let _ = add;
    /// ```
    pub fn subtype_of(&mut self, ty: &Type) -> Type {
        self.store.fresh_subtype_of(ty)
    }

    /// A fresh type variable.
    ///
    /// ```
    /// let info = xsmith::TypeInfo::new(|s| s.fresh()).child("x", |c| c.fresh());
    /// # let _ = info;
    /// ```
    pub fn fresh(&mut self) -> Type {
        self.store.fresh()
    }

    /// The base type called `name` (panics naming it when there is none).
    ///
    /// ```
    /// let info = xsmith::TypeInfo::new(|s| s.base("bool")).child("x", |c| c.base("bool"));
    /// # let _ = info;
    /// ```
    pub fn base(&self, name: &str) -> Type {
        self.store.base(name)
    }

    /// The parameters and result of the node's type, made a function type if
    /// it was open.
    ///
    /// # Panics
    ///
    /// When the node's type cannot be a function type (the `type_info` is
    /// inconsistent).
    ///
    /// ```
    /// let lambda = xsmith::TypeInfo::new(|s| {
    ///     let (params, result) = (s.fresh_product(), s.fresh());
    ///     xsmith::types::Type::function_of(params, result)
    /// })
    /// .child("body", |c| c.function_parts().1);
    /// # let _ = lambda;
    /// ```
    pub fn function_parts(&mut self) -> (Type, Type) {
        let node_type = self.node_type.clone();
        self.store
            .function_parts(&node_type)
            .unwrap_or_else(|e| panic!("type_info: the node's type is not a function type: {e}"))
    }

    /// Item `index` of product type `ty`, which is given `len` items if its
    /// arity was open.
    ///
    /// # Panics
    ///
    /// When `ty` is a product of another arity.
    ///
    /// ```
    /// let lambda = xsmith::TypeInfo::new(|s| {
    ///     let (params, result) = (s.fresh_product(), s.fresh());
    ///     xsmith::types::Type::function_of(params, result)
    /// })
    /// .child("params", |c| {
    ///     let (params, _) = c.function_parts();
    ///     let (len, index) = (c.len(), c.index());
    ///     c.product_item(&params, len, index)
    /// });
    /// # let _ = lambda;
    /// ```
    pub fn product_item(&mut self, ty: &Type, len: usize, index: usize) -> Type {
        let items = self
            .store
            .product_items(ty, len)
            .unwrap_or_else(|e| panic!("type_info: not a product of {len} items: {e}"));
        items[index].clone()
    }
}

impl FreshNode<'_> {
    /// The program's random source.
    ///
    /// ```
    /// let hook = xsmith::FreshHook::new(|node| { node.random().below(2); });
    /// # let _ = hook;
    /// ```
    pub fn random(&mut self) -> &mut Random {
        self.random
    }

    /// The node's id.
    ///
    /// ```
    /// let hook = xsmith::FreshHook::new(|node| assert!(node.node().index() > 0));
    /// # let _ = hook;
    /// ```
    pub fn node(&self) -> NodeId {
        self.node
    }

    /// The program the node is in.
    ///
    /// ```
    /// let hook = xsmith::FreshHook::new(|node| assert!(node.program().len() > 1));
    /// # let _ = hook;
    /// ```
    pub fn program(&self) -> &Program {
        self.program
    }

    /// The node's type, made ground now if it was still open: for
    /// productions whose data depend on their type, such as a literal of any
    /// base type. `None` for an untyped spec, and also when no ground type
    /// satisfies the constraints within `--type-max-depth` (the type is then
    /// left open, and generation reports the failure when it makes every
    /// type ground at the end).
    ///
    /// ```
    /// let hook = xsmith::FreshHook::new(|node| {
    ///     if let Some(ty) = node.concrete_type() {
    ///         let _ = ty;
    ///     }
    /// });
    /// # let _ = hook;
    /// ```
    pub fn concrete_type(&mut self) -> Option<Type> {
        let typing = self.program.typing.as_mut()?;
        let ty = typing.types[self.node.index()].clone()?;
        typing.store.concretize(&ty, self.random, self.type_max_depth).ok()
    }

    /// The value of one of the node's data fields.
    ///
    /// ```
    /// let hook = xsmith::FreshHook::new(|node| { let _ = node.get("value").clone(); });
    /// # let _ = hook;
    /// ```
    pub fn get(&self, field: &str) -> &Value {
        let index = self.data_field(field);
        match &self.program.node(self.node).slots[index] {
            Slot::Data(value) => value,
            _ => unreachable!("data_field returns the index of a data field"),
        }
    }

    /// Sets one of the node's data fields.
    ///
    /// # Panics
    ///
    /// When the production has no data field of that name: a spec bug, named
    /// in the message. (The `component!` macro checks names at compile time.)
    ///
    /// ```
    /// let hook = xsmith::FreshHook::new(|node| node.set("value", 42));
    /// # let _ = hook;
    /// ```
    pub fn set(&mut self, field: &str, value: impl Into<Value>) {
        let index = self.data_field(field);
        self.program.tree.set_data(self.node, index, value.into());
    }

    fn data_field(&self, field: &str) -> usize {
        let production = self.grammar.production(self.program.node(self.node).production);
        match production.field_index(field) {
            Some(index) if matches!(production.fields()[index].kind(), FieldKind::Data(_)) => index,
            _ => panic!(
                "the fresh hook of production `{}` uses `{field}`, which is not one of its data fields",
                production.name()
            ),
        }
    }
}

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
    pub(crate) renderer: &'a dyn RenderNodes,
    pub(crate) program: &'a Program,
    pub(crate) node: NodeId,
    pub(crate) arena: &'a Arena<'a>,
}

/// What renders any node of a program: the spec's renderers, as the
/// rendering module runs them. A render function reaches other nodes'
/// renderings through it.
pub(crate) trait RenderNodes {
    /// The grammar of the spec being rendered.
    fn grammar(&self) -> &Grammar;

    /// The document of the subtree at `node`.
    fn render<'a>(&'a self, program: &'a Program, node: NodeId, arena: &'a Arena<'a>) -> Doc<'a>;
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
        self.renderer
            .grammar()
            .production(self.program.node(self.node).production)
            .name()
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
        self.renderer.grammar()
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
        self.renderer.render(self.program, node, self.arena)
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
