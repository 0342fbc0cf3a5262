//! Property values: the small declarative parts of a spec (weights, filters,
//! list lengths, data initialisers, fresh hooks, renderers) and the closures
//! that are their procedural escape hatch.

use std::fmt;
use std::sync::Arc;

use crate::generate::{ChildTypes, FreshNode, Hole};
use crate::random::Random;
use crate::render::{Doc, RenderNode};
use crate::tree::Value;
use crate::types::{Type, TypeStore};

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

/// Draws a data field's initial value from the program's random source.
///
/// ```
/// use xsmith::{DataInit, Random, Value};
/// let init = DataInit::new(|r| r.int_in(1, 99));
/// let v = init.draw(&mut Random::from_seed(0));
/// assert!(matches!(v, Value::Int(1..=99)));
/// ```
#[derive(Clone)]
pub struct DataInit(Arc<dyn Fn(&mut Random) -> Value + Send + Sync>);

impl DataInit {
    /// Wraps a function of the random source whose result converts into a
    /// [`Value`].
    ///
    /// ```
    /// let name = xsmith::DataInit::new(|_| "x");
    /// # let _ = name;
    /// ```
    pub fn new<V: Into<Value>>(init: impl Fn(&mut Random) -> V + Send + Sync + 'static) -> DataInit {
        DataInit(Arc::new(move |random| init(random).into()))
    }

    /// Draws one value.
    ///
    /// ```
    /// let init = xsmith::DataInit::new(|_| true);
    /// assert_eq!(init.draw(&mut xsmith::Random::from_seed(1)), xsmith::Value::Bool(true));
    /// ```
    pub fn draw(&self, random: &mut Random) -> Value {
        (self.0)(random)
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

/// How many elements a new Kleene-star list gets. Past `--max-depth` a list
/// always gets its minimum length.
///
/// ```
/// use xsmith::{ListLength, Random};
/// let len = ListLength::uniform(1, 3).draw(&mut Random::from_seed(4));
/// assert!((1..=3).contains(&len));
/// ```
#[derive(Clone)]
pub enum ListLength {
    /// Uniform in `min..=max`.
    Uniform {
        /// The least length.
        min: usize,
        /// The greatest length.
        max: usize,
    },
    /// `min` plus a geometric number of extra elements: each further element
    /// is added with probability `percent`/100, up to `max` in all.
    Geometric {
        /// The least length.
        min: usize,
        /// The chance, in percent, of each further element.
        percent: u8,
        /// The greatest length.
        max: usize,
    },
    /// A function of the random source; `min` is the length used past the
    /// depth bound.
    Custom {
        /// The least length (used past the depth bound).
        min: usize,
        /// Draws the length.
        draw: Arc<dyn Fn(&mut Random) -> usize + Send + Sync>,
    },
}

impl ListLength {
    /// The most elements a geometric length adds beyond its minimum (a
    /// list that long would exceed any sensible node budget).
    pub const MAX_EXTRA: usize = 1 << 16;

    /// Uniform in `min..=max`.
    ///
    /// ```
    /// assert_eq!(xsmith::ListLength::uniform(2, 5).min(), 2);
    /// ```
    pub fn uniform(min: usize, max: usize) -> ListLength {
        ListLength::Uniform { min, max: max.max(min) }
    }

    /// The least length this distribution gives.
    ///
    /// ```
    /// assert_eq!(xsmith::ListLength::default().min(), 0);
    /// ```
    pub fn min(&self) -> usize {
        match self {
            ListLength::Uniform { min, .. } | ListLength::Geometric { min, .. } | ListLength::Custom { min, .. } => {
                *min
            }
        }
    }

    /// Draws a length.
    ///
    /// ```
    /// use xsmith::{ListLength, Random};
    /// let geometric = ListLength::Geometric { min: 1, percent: 50, max: 8 };
    /// let n = geometric.draw(&mut Random::from_seed(2));
    /// assert!((1..=8).contains(&n));
    /// ```
    pub fn draw(&self, random: &mut Random) -> usize {
        match self {
            ListLength::Uniform { min, max } => *min + random.below(max.saturating_sub(*min) as u64 + 1) as usize,
            ListLength::Geometric { min, percent, max } => {
                // Each further element is a draw that stops the list with
                // probability 100 - percent; the smallest choice (zero)
                // stops it, so an exhausted byte string gives `min`.
                let stop = 100 - u64::from((*percent).min(100));
                let max = (*max).min(min.saturating_add(Self::MAX_EXTRA));
                let mut length = *min;
                while length < max && !random.chance(stop, 100) {
                    length += 1;
                }
                length
            }
            ListLength::Custom { min, draw } => draw(random).max(*min),
        }
    }
}

impl From<std::ops::RangeInclusive<usize>> for ListLength {
    /// Uniform over the range.
    fn from(range: std::ops::RangeInclusive<usize>) -> ListLength {
        ListLength::uniform(*range.start(), *range.end())
    }
}

impl Default for ListLength {
    /// Zero to four elements, uniformly.
    fn default() -> ListLength {
        ListLength::uniform(0, 4)
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
