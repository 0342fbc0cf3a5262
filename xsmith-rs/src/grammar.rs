//! The grammar of an assembled spec: productions with their supertypes and
//! fields (children, lists with their lengths, data with their
//! initialisers), which productions can fill each node type, and how soon
//! each can finish. It holds no closure over generation state: what a
//! production does beyond its shape is a property (see `spec`).

use std::sync::Arc;

use indexmap::IndexMap;

use crate::random::Random;
use crate::value::Value;

/// The id of a production in its [`Grammar`] (its declaration index).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ProdId(pub(crate) u32);

impl ProdId {
    /// The production's declaration index.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// assert_eq!(spec.root().index(), 0);
    /// ```
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// What a field of an assembled production holds.
#[derive(Clone, Debug)]
pub enum FieldKind {
    /// A single child of a node type.
    Child(ProdId),
    /// A list of children of a node type.
    List(ProdId, ListLength),
    /// A data value and how it is drawn.
    Data(DataInit),
}

/// A field of an assembled production.
///
/// ```
/// let spec = xsmith::example::spec();
/// let add = spec.production(spec.lookup("Add").unwrap());
/// assert!(format!("{:?}", add.fields()[0]).contains("left"));
/// ```
#[derive(Clone, Debug)]
pub struct Field {
    pub(crate) name: String,
    pub(crate) kind: FieldKind,
}

impl Field {
    /// The field's name.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let add = spec.production(spec.lookup("Add").unwrap());
    /// assert_eq!(add.fields()[0].name(), "left");
    /// ```
    pub fn name(&self) -> &str {
        &self.name
    }

    /// What the field holds.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let add = spec.production(spec.lookup("Add").unwrap());
    /// assert!(matches!(add.fields()[0].kind(), xsmith::FieldKind::Child(_)));
    /// ```
    pub fn kind(&self) -> &FieldKind {
        &self.kind
    }
}

/// A production's grammar: its name, supertype and fields.
#[derive(Clone)]
pub struct Production {
    pub(crate) name: String,
    pub(crate) supertype: Option<ProdId>,
    pub(crate) is_abstract: bool,
    pub(crate) fields: Vec<Field>,
}

impl Production {
    /// The production's name.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// assert_eq!(spec.production(spec.root()).name(), "Program");
    /// ```
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Its supertype, if any.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let add = spec.production(spec.lookup("Add").unwrap());
    /// assert_eq!(add.supertype(), spec.lookup("Expr"));
    /// ```
    pub fn supertype(&self) -> Option<ProdId> {
        self.supertype
    }

    /// Whether it is abstract (a node type that is never generated itself).
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// assert!(spec.production(spec.lookup("Expr").unwrap()).is_abstract());
    /// ```
    pub fn is_abstract(&self) -> bool {
        self.is_abstract
    }

    /// All its fields, inherited ones first.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// assert_eq!(spec.production(spec.lookup("Literal").unwrap()).fields().len(), 1);
    /// ```
    pub fn fields(&self) -> &[Field] {
        &self.fields
    }

    /// The index of the field called `name`.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let add = spec.production(spec.lookup("Add").unwrap());
    /// assert_eq!(add.field_index("right"), Some(1));
    /// ```
    pub fn field_index(&self, name: &str) -> Option<usize> {
        self.fields.iter().position(|field| field.name == name)
    }

    /// The node types a node of it needs at least one child of: its single
    /// children's and its non-empty lists'.
    fn required_child_types(&self) -> impl Iterator<Item = ProdId> + '_ {
        self.fields.iter().filter_map(|field| match &field.kind {
            FieldKind::Child(t) => Some(*t),
            FieldKind::List(t, length) if length.min() > 0 => Some(*t),
            _ => None,
        })
    }
}

/// The productions of a spec, by id and by name, with the concrete
/// productions that can fill each node type.
///
/// ```
/// let spec = xsmith::example::spec();
/// let grammar = spec.grammar();
/// let expr = grammar.lookup("Expr").unwrap();
/// assert_eq!(grammar.fillers(expr).len(), 3);
/// ```
#[derive(Clone)]
pub struct Grammar {
    productions: Vec<Production>,
    by_name: IndexMap<String, ProdId>,
    fillers: Vec<Vec<ProdId>>,
    root: ProdId,
}

/// The height of something that can never finish.
pub(crate) const NEVER: u32 = u32::MAX;

impl Grammar {
    /// A grammar of checked productions (supertypes acyclic, names unique,
    /// child types known) whose programs are trees of node type `root`.
    pub(crate) fn new(productions: Vec<Production>, by_name: IndexMap<String, ProdId>, root: ProdId) -> Grammar {
        let fillers = (0..productions.len())
            .map(|node_type| {
                (0..productions.len())
                    .filter(|&candidate| {
                        !productions[candidate].is_abstract && walks_up_to(&productions, candidate, node_type)
                    })
                    .map(|candidate| ProdId(candidate as u32))
                    .collect()
            })
            .collect();
        Grammar {
            productions,
            by_name,
            fillers,
            root,
        }
    }

    /// The root node type.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// assert_eq!(spec.grammar().production(spec.grammar().root()).name(), "Program");
    /// ```
    pub fn root(&self) -> ProdId {
        self.root
    }

    /// The production with this id.
    ///
    /// ```
    /// let grammar = xsmith::example::spec().grammar().clone();
    /// let id = grammar.lookup("Literal").unwrap();
    /// assert_eq!(grammar.production(id).name(), "Literal");
    /// ```
    pub fn production(&self, id: ProdId) -> &Production {
        &self.productions[id.index()]
    }

    /// Every production in declaration order.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// assert!(spec.grammar().productions().iter().any(|p| p.name() == "Div"));
    /// ```
    pub fn productions(&self) -> &[Production] {
        &self.productions
    }

    /// Every production id in declaration order.
    pub(crate) fn ids(&self) -> impl Iterator<Item = ProdId> {
        (0..self.productions.len() as u32).map(ProdId)
    }

    /// The production called `name`.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// assert!(spec.grammar().lookup("Nope").is_none());
    /// ```
    pub fn lookup(&self, name: &str) -> Option<ProdId> {
        self.by_name.get(name).copied()
    }

    /// The concrete productions that may fill a hole of `node_type` (itself if
    /// concrete, and its concrete subtypes), in declaration order, whether
    /// generatable or not.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let grammar = spec.grammar();
    /// let expr = grammar.lookup("Expr").unwrap();
    /// let names: Vec<_> = grammar.fillers(expr).iter().map(|&p| grammar.production(p).name()).collect();
    /// assert_eq!(names, ["Literal", "Add", "Div"]);
    /// ```
    pub fn fillers(&self, node_type: ProdId) -> &[ProdId] {
        &self.fillers[node_type.index()]
    }

    /// Whether `sub` is `sup` or one of its (transitive) subtypes.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let grammar = spec.grammar();
    /// let (add, expr) = (grammar.lookup("Add").unwrap(), grammar.lookup("Expr").unwrap());
    /// assert!(grammar.is_subtype(add, expr));
    /// assert!(!grammar.is_subtype(expr, add));
    /// ```
    pub fn is_subtype(&self, sub: ProdId, sup: ProdId) -> bool {
        walks_up_to(&self.productions, sub.index(), sup.index())
    }

    /// The least height of a finished subtree of node type `node_type`,
    /// given each production's `heights`: the least of its fillers'.
    pub(crate) fn type_height(&self, heights: &[u32], node_type: ProdId) -> u32 {
        self.fillers(node_type)
            .iter()
            .map(|p| heights[p.index()])
            .min()
            .unwrap_or(NEVER)
    }

    /// The least height of a finished subtree rooted at a node of
    /// `production`, given each production's `heights`: 0 for a node whose
    /// fields need no child (data fields, lists that may be empty), else one
    /// more than its tallest required child type's.
    pub(crate) fn height_of(&self, production: ProdId, heights: &[u32]) -> u32 {
        self.production(production)
            .required_child_types()
            .map(|t| self.type_height(heights, t).saturating_add(1))
            .max()
            .unwrap_or(0)
    }

    /// For each production, the least height of a finished subtree it can
    /// root, using only the `enabled` productions (the rest get [`NEVER`]).
    /// Returns the first node type (used as the root or a required child of
    /// an enabled production) that cannot finish.
    pub(crate) fn finishing_heights(&self, enabled: &[bool]) -> Result<Vec<u32>, ProdId> {
        let mut heights = vec![NEVER; self.productions.len()];
        let mut changed = true;
        while changed {
            changed = false;
            for id in self.ids().filter(|id| enabled[id.index()]) {
                let height = self.height_of(id, &heights);
                // Heights only go down, so this reaches the least fixpoint.
                if height < heights[id.index()] {
                    heights[id.index()] = height;
                    changed = true;
                }
            }
        }
        // Child types first, so the error names the type whose productions
        // all recurse rather than the root that merely contains it.
        let mut needed = Vec::new();
        for (index, production) in self.productions.iter().enumerate() {
            if enabled[index] {
                for field in &production.fields {
                    match &field.kind {
                        FieldKind::Child(t) | FieldKind::List(t, _) => needed.push(*t),
                        FieldKind::Data(_) => {}
                    }
                }
            }
        }
        needed.push(self.root);
        match needed.into_iter().find(|&t| self.type_height(&heights, t) == NEVER) {
            Some(node_type) => Err(node_type),
            None => Ok(heights),
        }
    }
}

/// Whether following supertypes from production `sub` reaches `sup`.
pub(crate) fn walks_up_to(productions: &[Production], sub: usize, sup: usize) -> bool {
    let mut cursor = Some(sub);
    while let Some(at) = cursor {
        if at == sup {
            return true;
        }
        cursor = productions[at].supertype.map(ProdId::index);
    }
    false
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

impl std::fmt::Debug for DataInit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("DataInit(..)")
    }
}

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

impl std::fmt::Debug for ListLength {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ListLength::Uniform { min, max } => write!(f, "Uniform({min}..={max})"),
            ListLength::Geometric { min, percent, max } => write!(f, "Geometric({min}..={max}, {percent}%)"),
            ListLength::Custom { min, .. } => write!(f, "Custom({min}..)"),
        }
    }
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
