//! Property values: the small declarative parts of a spec (weights, filters,
//! fresh hooks, renderers, type infos) and the closures that are their
//! procedural escape hatch. The closures receive the views of `hooks`.

use std::fmt;
use std::sync::Arc;

use crate::doc::Doc;
use crate::hooks::{ChildTypes, FreshNode, Hole, NodeRef, RenderNode};
use crate::types::{Type, TypeStore};
use crate::value::Value;

/// The weight of a production among the choices for a hole.
///
/// ```
/// use xsmith::Weight;
/// let constant = Weight::Constant(5);
/// let by_depth = Weight::dynamic(|hole| 10u32.saturating_sub(hole.depth()));
/// # let _ = (constant, by_depth);
/// ```
#[derive(Clone)]
pub enum Weight {
    /// The same weight for every hole.
    Constant(u32),
    /// A weight computed from the hole.
    Dynamic(Arc<dyn Fn(&Hole) -> u32 + Send + Sync>),
}

impl Weight {
    /// A weight computed from the hole.
    ///
    /// ```
    /// let w = xsmith::Weight::dynamic(|_| 1);
    /// # let _ = w;
    /// ```
    pub fn dynamic(f: impl Fn(&Hole) -> u32 + Send + Sync + 'static) -> Weight {
        Weight::Dynamic(Arc::new(f))
    }
}

impl From<u32> for Weight {
    fn from(weight: u32) -> Weight {
        Weight::Constant(weight)
    }
}

impl<F: Fn(&Hole) -> u32 + Send + Sync + 'static> From<F> for Weight {
    fn from(f: F) -> Weight {
        Weight::dynamic(f)
    }
}

/// A user choice filter: the production is a choice for a hole only where
/// the predicate holds.
///
/// Filters may refuse every choice of some holes: generation cannot see
/// that coming (it knows which productions can finish a type, not what a
/// filter will say), so where a hole is left with no choice it goes back
/// and draws the enclosing node's choice again without the production it
/// had (a `Call` whose `callee` every function refuses becomes some other
/// expression), up to [`MAX_BACKTRACKS`](crate::MAX_BACKTRACKS) times in
/// a row. A program that still cannot be made fails with an error that
/// names the hole and the productions whose filters refused it.
///
/// ```
/// let shallow_only = xsmith::Filter::new(|hole| hole.depth() < 3);
/// # let _ = shallow_only;
/// ```
#[derive(Clone)]
pub struct Filter(pub(crate) Arc<dyn Fn(&Hole) -> bool + Send + Sync>);

impl Filter {
    /// Wraps a predicate on the hole.
    ///
    /// ```
    /// let f = xsmith::Filter::new(|_| true);
    /// # let _ = f;
    /// ```
    pub fn new(predicate: impl Fn(&Hole) -> bool + Send + Sync + 'static) -> Filter {
        Filter(Arc::new(predicate))
    }
}

/// A predicate on a binding a reference may point at (the
/// `binding_filters` property of a reference production): given the
/// reference's hole and the binder in sight, whether the reference may
/// take it. A binder it refuses is as if out of sight: the reference
/// takes another, or lifts a new definition (which the definition's own
/// `choice_filters` decide on, not this filter). What a filter reads
/// should be the binder's own subtree, so that an edit elsewhere in the
/// program does not change what it says.
///
/// ```
/// // Only binders whose name ends in an even digit.
/// let even = xsmith::BindingFilter::new(|_hole, binder| {
///     binder.data("name").is_some_and(|name| name.to_string().ends_with(['0', '2', '4', '6', '8']))
/// });
/// # let _ = even;
/// ```
#[derive(Clone)]
pub struct BindingFilter(pub(crate) Arc<BindingPredicate>);

/// What a [`BindingFilter`] holds: a predicate on the reference's hole
/// and a binder in sight.
pub type BindingPredicate = dyn Fn(&Hole, NodeRef) -> bool + Send + Sync;

impl BindingFilter {
    /// Wraps a predicate on the reference's hole and a binder in sight.
    ///
    /// ```
    /// let any = xsmith::BindingFilter::new(|_, _| true);
    /// # let _ = any;
    /// ```
    pub fn new(predicate: impl Fn(&Hole, NodeRef) -> bool + Send + Sync + 'static) -> BindingFilter {
        BindingFilter(Arc::new(predicate))
    }
}

/// Custom initialisation of a freshly made node (the `fresh` property).
///
/// ```
/// let hook = xsmith::FreshHook::new(|node| {
///     let even = node.random().int_in(0, 10) * 2;
///     node.set("value", even);
/// });
/// # let _ = hook;
/// ```
#[derive(Clone)]
pub struct FreshHook(pub(crate) Arc<dyn Fn(&mut FreshNode) + Send + Sync>);

impl FreshHook {
    /// Wraps the initialisation function.
    ///
    /// ```
    /// let hook = xsmith::FreshHook::new(|_| {});
    /// # let _ = hook;
    /// ```
    pub fn new(hook: impl Fn(&mut FreshNode) + Send + Sync + 'static) -> FreshHook {
        FreshHook(Arc::new(hook))
    }

    /// A hook that sets each named data field to its initialiser's value, in
    /// order.
    ///
    /// ```
    /// use xsmith::{FieldInit, FreshHook};
    /// let hook = FreshHook::set_fields(vec![("name", FieldInit::new(|_| "x"))]);
    /// # let _ = hook;
    /// ```
    pub fn set_fields(fields: Vec<(&'static str, FieldInit)>) -> FreshHook {
        FreshHook::new(move |node| {
            for (field, init) in &fields {
                let value = (init.0)(node);
                node.set(field, value);
            }
        })
    }
}

/// One data field's value in a field-wise `fresh` hook (what the
/// `component!` macro's `fresh { P => { field: closure } }` form builds).
///
/// ```
/// use xsmith::{FieldInit, FreshHook};
/// let hook = FreshHook::set_fields(vec![("value", FieldInit::new(|node| node.random().int_in(0, 3)))]);
/// # let _ = hook;
/// ```
#[derive(Clone)]
pub struct FieldInit(Arc<dyn Fn(&mut FreshNode) -> Value + Send + Sync>);

impl FieldInit {
    /// Wraps a function of the fresh node whose result converts into a
    /// [`Value`].
    ///
    /// ```
    /// let init = xsmith::FieldInit::new(|_| 7);
    /// # let _ = init;
    /// ```
    pub fn new<V: Into<Value>>(init: impl Fn(&mut FreshNode) -> V + Send + Sync + 'static) -> FieldInit {
        FieldInit(Arc::new(move |node| init(node).into()))
    }
}

/// One piece of a render template.
///
/// ```
/// use xsmith::Piece;
/// let add = vec![Piece::Text("("), Piece::Field("left"), Piece::Text(" + "), Piece::Field("right"), Piece::Text(")")];
/// # let _ = add;
/// ```
#[derive(Clone, Debug)]
pub enum Piece {
    /// Literal text.
    Text(&'static str),
    /// A field: a child's rendering, a list's elements (one per line), or a
    /// data value's display form.
    Field(&'static str),
    /// A list field's elements with a separator between them.
    Join(&'static str, Vec<Piece>),
    /// A space, or a line break when the group does not fit.
    Line,
    /// Nothing, or a line break when the group does not fit.
    SoftLine,
    /// Always a line break.
    HardLine,
    /// The pieces, indented by the amount after each line break.
    Nest(isize, Vec<Piece>),
    /// The pieces, laid out flat if they fit on the line.
    Group(Vec<Piece>),
}

/// How a production's nodes print (the `render` property).
///
/// ```
/// use xsmith::{Piece, Renderer};
/// let template = Renderer::Template(vec![Piece::Field("value")]);
/// let function = Renderer::function(|node| node.child("operand").append("!"));
/// # let _ = (template, function);
/// ```
#[derive(Clone)]
pub enum Renderer {
    /// A template of text and fields.
    Template(Vec<Piece>),
    /// A function of the node, the escape hatch for anything a template
    /// cannot say.
    Function(Arc<dyn for<'a> Fn(&RenderNode<'a>) -> Doc<'a> + Send + Sync>),
}

impl Renderer {
    /// Wraps a render function.
    ///
    /// ```
    /// let r = xsmith::Renderer::function(|node| node.text(node.production()));
    /// # let _ = r;
    /// ```
    pub fn function(f: impl for<'a> Fn(&RenderNode<'a>) -> Doc<'a> + Send + Sync + 'static) -> Renderer {
        Renderer::Function(Arc::new(f))
    }
}

/// A render function converts into a renderer, so a function (or a closure
/// whose signature is already known) can be given wherever a renderer is
/// taken.
///
/// ```
/// use xsmith::{Doc, RenderNode, Renderer};
/// fn negation<'a>(node: &RenderNode<'a>) -> Doc<'a> {
///     node.text("-").append(node.child("operand"))
/// }
/// let renderer: Renderer = negation.into();
/// let mut c = xsmith::Component::new("c");
/// c.render("Neg", negation).render("Literal", renderer);
/// ```
impl<F> From<F> for Renderer
where
    F: for<'a> Fn(&RenderNode<'a>) -> Doc<'a> + Send + Sync + 'static,
{
    fn from(f: F) -> Renderer {
        Renderer::function(f)
    }
}

impl From<Vec<Piece>> for Renderer {
    fn from(pieces: Vec<Piece>) -> Renderer {
        Renderer::Template(pieces)
    }
}

impl fmt::Debug for Renderer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Renderer::Template(pieces) => f.debug_tuple("Template").field(pieces).finish(),
            Renderer::Function(_) => f.write_str("Function(..)"),
        }
    }
}

/// Makes the type a production's nodes may have.
pub type NodeTypeFn = Arc<dyn Fn(&mut TypeStore) -> Type + Send + Sync>;

/// The length a list field gets for the node's type, given the length
/// drawn as usual; it may also fix the type to fit the length it returns.
pub type LengthFn = Arc<dyn Fn(&mut TypeStore, &Type, usize) -> usize + Send + Sync>;

/// Gives one child (or list element) its type.
pub type ChildTypeFn = Arc<dyn Fn(&mut ChildTypes) -> Type + Send + Sync>;

/// The `type_info` property: the type a production's nodes may have, and
/// the types of their children. A node's type is unified with the type its
/// hole requires; a parent whose child position accepts subtypes gives that
/// child a fresh subtype ([`ChildTypes::subtype_of`](crate::ChildTypes::subtype_of)),
/// so subsumption is explicit where the language has it and never where it
/// must not be (a parameter's declared type). A child field with no
/// function gets a fresh unconstrained type variable.
///
/// ```
/// use xsmith::TypeInfo;
/// // `left + right` has a type that is int or float; both operands have it too.
/// let add = TypeInfo::new(|s| {
///     let (int, float) = (s.base("int"), s.base("float"));
///     s.fresh_one_of(&[int, float])
/// })
/// .child("left", |c| c.node_type().clone())
/// .child("right", |c| c.node_type().clone());
/// // `if c then a else b`: each branch may be a subtype of the whole.
/// let choice = TypeInfo::new(|s| s.fresh())
///     .child("cond", |c| c.base("bool"))
///     .child("then", |c| { let t = c.node_type().clone(); c.subtype_of(&t) })
///     .child("otherwise", |c| { let t = c.node_type().clone(); c.subtype_of(&t) });
/// # let _ = add;
/// ```
#[derive(Clone)]
pub struct TypeInfo {
    pub(crate) node_type: NodeTypeFn,
    pub(crate) children: Vec<(String, ChildTypeFn)>,
}

impl TypeInfo {
    /// A type info whose nodes may have the type `node_type` makes (fresh
    /// variables in it stand for any type that fits the hole).
    ///
    /// ```
    /// let literal = xsmith::TypeInfo::new(|s| s.base("int"));
    /// # let _ = literal;
    /// ```
    pub fn new(node_type: impl Fn(&mut TypeStore) -> Type + Send + Sync + 'static) -> TypeInfo {
        TypeInfo {
            node_type: Arc::new(node_type),
            children: Vec::new(),
        }
    }

    /// Makes the type a node of the production may have, in `store` (what
    /// generation does before unifying it with the hole's type; a
    /// documentation generator can show it).
    ///
    /// ```
    /// use xsmith::types::{TypeStore, TypeSystem};
    /// let mut system = TypeSystem::new();
    /// system.base("int");
    /// let mut store = TypeStore::new(system.into());
    /// let literal = xsmith::TypeInfo::new(|s| s.base("int"));
    /// let ty = literal.make_node_type(&mut store);
    /// assert_eq!(store.system().display(&ty).to_string(), "int");
    /// ```
    pub fn make_node_type(&self, store: &mut TypeStore) -> Type {
        (self.node_type)(store)
    }

    /// Gives the child field `field` (each element, for a list) its type.
    ///
    /// ```
    /// let negate = xsmith::TypeInfo::new(|s| s.base("int")).child("operand", |c| c.node_type().clone());
    /// # let _ = negate;
    /// ```
    pub fn child(
        mut self,
        field: &str,
        child_type: impl Fn(&mut ChildTypes) -> Type + Send + Sync + 'static,
    ) -> TypeInfo {
        self.children.push((field.to_string(), Arc::new(child_type)));
        self
    }
}
