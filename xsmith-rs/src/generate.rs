//! Generation: filling the holes of a tree, one at a time in a deterministic
//! order, each with a choice among the productions that pass every filter.
//!
//! For the next hole (depth first, left to right) the generator makes one
//! choice per concrete production that could fill it, drops those that are
//! switched off (`may_be_generated`, `--without`), fail a user filter, or
//! would go deeper than needed past `--max-depth`, weighs the rest
//! (`choice_weight`), picks one with the program's [`Random`], and builds it
//! fresh: child fields become new holes, data fields are drawn, and the
//! `fresh` hook runs. A node budget and a time limit end generation with an
//! error, never a hang.

use std::fmt;
use std::time::{Duration, Instant};

use smallvec::SmallVec;

use crate::options::{OptionError, Options};
use crate::properties::Weight;
use crate::random::Random;
use crate::references::{fitting_bindings, harmless_bindings, harmless_lift_site, liftable};
use crate::spec::{FieldKind, ProdId, Production, Spec};
use crate::tree::{NodeId, Slot, Tree, Value};
use crate::types::{Type, TypeStore};

/// A hole being filled, as choice filters and dynamic weights see it.
///
/// ```
/// let filter = xsmith::Filter::new(|hole: &xsmith::Hole| hole.depth() + 1 < hole.max_depth());
/// # let _ = filter;
/// ```
pub struct Hole<'a> {
    spec: &'a Spec,
    tree: &'a Tree,
    node: NodeId,
    max_depth: u32,
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
        self.tree.node(self.node).depth
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
    /// let f = xsmith::Filter::new(|hole| hole.spec().production(hole.node_type()).is_abstract());
    /// # let _ = f;
    /// ```
    pub fn node_type(&self) -> ProdId {
        self.tree.node(self.node).production
    }

    /// The type the hole's parent requires of it (typed specs only).
    ///
    /// ```
    /// let f = xsmith::Filter::new(|hole| hole.required_type().is_none());
    /// # let _ = f;
    /// ```
    pub fn required_type(&self) -> Option<Type> {
        self.tree.node_type(self.node)
    }

    /// The production of the hole's parent, `None` at the root.
    ///
    /// ```
    /// let f = xsmith::Filter::new(|hole| hole.parent_production().map_or(true, |p| p.name() != "Div"));
    /// # let _ = f;
    /// ```
    pub fn parent_production(&self) -> Option<&'a Production> {
        let parent = self.tree.node(self.node).parent?;
        Some(self.spec.production(self.tree.node(parent).production))
    }

    /// The tree, for attributes and anything else a filter needs.
    ///
    /// ```
    /// let f = xsmith::Filter::new(|hole| hole.tree().len() < 50);
    /// # let _ = f;
    /// ```
    pub fn tree(&self) -> &'a Tree {
        self.tree
    }

    /// The spec being generated from.
    ///
    /// ```
    /// let f = xsmith::Filter::new(|hole| hole.spec().productions().len() > 1);
    /// # let _ = f;
    /// ```
    pub fn spec(&self) -> &'a Spec {
        self.spec
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
    spec: &'a Spec,
    tree: &'a mut Tree,
    node: NodeId,
    random: &'a mut Random,
    type_max_depth: u32,
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
    store: &'a mut TypeStore,
    node_type: Type,
    index: usize,
    len: usize,
    /// Every child field's name and length, in field order.
    field_lens: &'a [(&'a str, usize)],
    /// The types given so far to this node's children, by field.
    earlier: &'a [(&'a str, Type)],
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

    /// The tree the node is in.
    ///
    /// ```
    /// let hook = xsmith::FreshHook::new(|node| assert!(node.tree().len() > 1));
    /// # let _ = hook;
    /// ```
    pub fn tree(&self) -> &Tree {
        self.tree
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
        let typing = self.tree.typing.as_mut()?;
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
        match &self.tree.node(self.node).slots[index] {
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
        self.tree.set_data(self.node, index, value.into());
    }

    fn data_field(&self, field: &str) -> usize {
        let production = self.spec.production(self.tree.node(self.node).production);
        match production.field_index(field) {
            Some(index) if matches!(production.fields()[index].kind(), FieldKind::Data(_)) => index,
            _ => panic!(
                "the fresh hook of production `{}` uses `{field}`, which is not one of its data fields",
                production.name()
            ),
        }
    }
}

/// Why generation of one program stopped without a finished tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GenerateError {
    /// The tree would have grown past `--max-nodes`.
    NodeBudget {
        /// The budget.
        max_nodes: usize,
    },
    /// Generation took longer than its time limit.
    TimeLimit {
        /// The limit.
        limit: Duration,
    },
    /// A node's type could not be made ground.
    Type {
        /// The node's production.
        production: String,
        /// What went wrong.
        message: String,
    },
    /// No production passed the filters for a hole.
    NoChoice {
        /// The hole's node type.
        node_type: String,
        /// The hole's depth.
        depth: u32,
        /// The type the hole required, in a typed spec.
        required_type: Option<String>,
    },
}

impl fmt::Display for GenerateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GenerateError::NodeBudget { max_nodes } => write!(
                f,
                "the program grew past the node budget of {max_nodes} nodes; lower --max-depth or raise --max-nodes"
            ),
            GenerateError::TimeLimit { limit } => write!(
                f,
                "generation took longer than its time limit of {:.1} s; lower --max-depth or raise --time-limit",
                limit.as_secs_f64()
            ),
            GenerateError::Type { production, message } => {
                write!(f, "the type of a `{production}` node: {message}")
            }
            GenerateError::NoChoice {
                node_type,
                depth,
                required_type,
            } => {
                write!(
                    f,
                    "no production passed the filters (or had a positive weight) for a hole of node type `{node_type}` at depth {depth}"
                )?;
                match required_type {
                    Some(ty) => write!(f, " requiring type {ty}"),
                    None => Ok(()),
                }
            }
        }
    }
}

impl std::error::Error for GenerateError {}

/// How often each production was offered as a choice (passed the filters)
/// and chosen, over every program a generator made.
///
/// ```
/// let spec = xsmith::example::spec();
/// let mut generator = xsmith::Generator::new(&spec, Default::default()).unwrap();
/// generator.generate(&mut xsmith::Random::from_seed(1)).unwrap();
/// let log = generator.choice_log();
/// assert_eq!(log.chosen(spec.root()), 1);
/// assert!(log.report(&spec).contains("Program"));
/// ```
#[derive(Clone, Debug, Default)]
pub struct ChoiceLog {
    offered: Vec<u64>,
    chosen: Vec<u64>,
    programs_with: Vec<u64>,
    programs: u64,
    references: u64,
    lifts: u64,
}

impl ChoiceLog {
    /// How many times `production` passed the filters for a hole.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let generator = xsmith::Generator::new(&spec, Default::default()).unwrap();
    /// assert_eq!(generator.choice_log().offered(spec.root()), 0);
    /// ```
    pub fn offered(&self, production: ProdId) -> u64 {
        self.offered.get(production.index()).copied().unwrap_or(0)
    }

    /// How many times `production` was chosen.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let generator = xsmith::Generator::new(&spec, Default::default()).unwrap();
    /// assert_eq!(generator.choice_log().chosen(spec.root()), 0);
    /// ```
    pub fn chosen(&self, production: ProdId) -> u64 {
        self.chosen.get(production.index()).copied().unwrap_or(0)
    }

    /// How many finished programs contain `production` at least once.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let mut generator = xsmith::Generator::new(&spec, Default::default()).unwrap();
    /// generator.generate(&mut xsmith::Random::from_seed(2)).unwrap();
    /// assert_eq!(generator.choice_log().programs_with(spec.root()), 1);
    /// ```
    pub fn programs_with(&self, production: ProdId) -> u64 {
        self.programs_with.get(production.index()).copied().unwrap_or(0)
    }

    /// How many programs were finished.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let generator = xsmith::Generator::new(&spec, Default::default()).unwrap();
    /// assert_eq!(generator.choice_log().programs(), 0);
    /// ```
    pub fn programs(&self) -> u64 {
        self.programs
    }

    /// How many references were settled (each points at a binder).
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let generator = xsmith::Generator::new(&spec, Default::default()).unwrap();
    /// assert_eq!(generator.choice_log().references(), 0);
    /// ```
    pub fn references(&self) -> u64 {
        self.references
    }

    /// How many references got a new, lifted definition rather than an
    /// existing variable (`1 - lifts / references` is the share that reuse
    /// a variable).
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let generator = xsmith::Generator::new(&spec, Default::default()).unwrap();
    /// assert_eq!(generator.choice_log().lifts(), 0);
    /// ```
    pub fn lifts(&self) -> u64 {
        self.lifts
    }

    /// A table with a row per generatable production: offered, chosen, the
    /// share of choices, and the share of programs that contain it.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let generator = xsmith::Generator::new(&spec, Default::default()).unwrap();
    /// assert!(generator.choice_log().report(&spec).starts_with("production"));
    /// ```
    pub fn report(&self, spec: &Spec) -> String {
        use std::fmt::Write;
        let width = spec
            .productions()
            .iter()
            .map(|p| p.name().len())
            .max()
            .unwrap_or(0)
            .max(10);
        let total_chosen: u64 = self.chosen.iter().sum();
        let mut out = format!(
            "{:width$}  {:>10}  {:>10}  {:>8}  {:>10}\n",
            "production", "offered", "chosen", "chosen%", "programs%"
        );
        for (index, production) in spec.productions().iter().enumerate() {
            if !production.is_generatable() {
                continue;
            }
            let id = ProdId(index as u32);
            let percent = |part: u64, whole: u64| {
                if whole == 0 {
                    0.0
                } else {
                    100.0 * part as f64 / whole as f64
                }
            };
            let _ = writeln!(
                out,
                "{:width$}  {:>10}  {:>10}  {:>7.2}%  {:>9.2}%",
                production.name(),
                self.offered(id),
                self.chosen(id),
                percent(self.chosen(id), total_chosen),
                percent(self.programs_with(id), self.programs),
            );
        }
        let _ = write!(out, "{} programs", self.programs);
        out
    }

    fn for_productions(count: usize) -> ChoiceLog {
        ChoiceLog {
            offered: vec![0; count],
            chosen: vec![0; count],
            programs_with: vec![0; count],
            programs: 0,
            references: 0,
            lifts: 0,
        }
    }

    fn record_program(&mut self, spec: &Spec, tree: &Tree) {
        let mut seen = vec![false; spec.productions().len()];
        for id in tree.ids() {
            seen[tree.node(id).production.index()] = true;
        }
        for (count, seen) in self.programs_with.iter_mut().zip(seen) {
            *count += u64::from(seen);
        }
        self.programs += 1;
    }
}

/// The finishing height of each liftable definition (as of the productions
/// that fill holes); `u32::MAX` for the rest.
fn lift_heights(spec: &Spec, liftable: &[bool], heights: &[u32]) -> Vec<u32> {
    let type_height = |node_type: ProdId| {
        spec.fillers(node_type)
            .iter()
            .map(|p| heights[p.index()])
            .min()
            .unwrap_or(u32::MAX)
    };
    spec.productions()
        .iter()
        .zip(liftable)
        .map(|(production, &liftable)| match liftable {
            false => u32::MAX,
            true => production
                .fields()
                .iter()
                .filter_map(|field| match field.kind() {
                    FieldKind::Child(t) => Some(*t),
                    FieldKind::List(t, length) if length.min() > 0 => Some(*t),
                    _ => None,
                })
                .map(|t| type_height(t).saturating_add(1))
                .max()
                .unwrap_or(0),
        })
        .collect()
}

/// Generates trees from a spec under fixed options; reusable for any number
/// of programs (each from its own [`Random`]).
///
/// ```
/// use xsmith::{Generator, Options, Random};
/// let spec = xsmith::example::spec();
/// let mut generator = Generator::new(&spec, Options::default()).unwrap();
/// let a = generator.generate(&mut Random::from_seed(9)).unwrap();
/// let b = generator.generate(&mut Random::from_seed(9)).unwrap();
/// assert_eq!(a.outline(&spec), b.outline(&spec));
/// ```
pub struct Generator<'s> {
    spec: &'s Spec,
    options: Options,
    enabled: Vec<bool>,
    /// The definitions that may be lifted, by production.
    liftable: Vec<bool>,
    heights: Vec<u32>,
    /// The finishing height of each liftable definition.
    lift_heights: Vec<u32>,
    /// The reference choices of the current hole that only lifting can
    /// settle, with their finishing heights.
    only_by_lifting: Vec<(ProdId, u32)>,
    log: ChoiceLog,
    choices: Vec<ProdId>,
    weights: Vec<u32>,
    effects: crate::effects::EffectSummaries,
}

impl<'s> Generator<'s> {
    /// A generator for `spec`; fails when `--with`/`--without` name something
    /// unknown or switch off every way to finish some node type.
    ///
    /// ```
    /// use xsmith::{Generator, Options, OptionError};
    /// let spec = xsmith::example::spec();
    /// let options = Options { without: vec!["Literal".into()], ..Options::default() };
    /// assert!(matches!(Generator::new(&spec, options), Err(OptionError::Unfinishable { .. })));
    /// ```
    pub fn new(spec: &'s Spec, options: Options) -> Result<Generator<'s>, OptionError> {
        // A name is a feature group, or a production standing for itself and
        // its subtypes; it must stand for at least one generatable production.
        let groups = spec.feature_groups();
        let covers = |name: &str, id: ProdId| {
            let production = spec.production(id);
            production.features().iter().any(|g| g == name)
                || spec.lookup(name).is_some_and(|named| spec.is_subtype(id, named))
        };
        let ids = || (0..spec.productions().len() as u32).map(ProdId);
        for (option, names) in [("--with", &options.with), ("--without", &options.without)] {
            for name in names {
                if !ids().any(|id| spec.production(id).is_generatable() && covers(name, id)) {
                    let mut known: Vec<String> = groups.iter().map(|g| g.to_string()).collect();
                    known.extend(
                        spec.productions()
                            .iter()
                            .filter(|p| p.is_generatable())
                            .map(|p| p.name().to_string()),
                    );
                    return Err(OptionError::UnknownName {
                        option,
                        name: name.clone(),
                        known,
                    });
                }
            }
        }
        let named = |names: &[String], id: ProdId| names.iter().any(|n| covers(n, id));
        let switched_on = |id: ProdId| {
            let off_by_default = spec
                .production(id)
                .features()
                .iter()
                .any(|group| spec.features_off_by_default().contains(group));
            let switched_off = off_by_default || named(&options.without, id);
            !switched_off || named(&options.with, id)
        };
        let enabled: Vec<bool> = ids()
            .map(|id| spec.production(id).is_generatable() && switched_on(id))
            .collect();
        let liftable: Vec<bool> = ids()
            .map(|id| spec.production(id).is_liftable() && switched_on(id))
            .collect();
        let heights = spec
            .finishing_heights(&enabled)
            .map_err(|node_type| OptionError::Unfinishable {
                node_type: spec.production(node_type).name().to_string(),
            })?;
        Ok(Generator {
            spec,
            options,
            enabled,
            lift_heights: lift_heights(spec, &liftable, &heights),
            only_by_lifting: Vec::new(),
            liftable,
            heights,
            log: ChoiceLog::for_productions(spec.productions().len()),
            choices: Vec::new(),
            weights: Vec::new(),
            effects: crate::effects::EffectSummaries::new(spec),
        })
    }

    /// The options in force.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let g = xsmith::Generator::new(&spec, Default::default()).unwrap();
    /// assert_eq!(g.options().max_depth, 5);
    /// ```
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Whether `production` can be chosen under these options.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let options = xsmith::Options { without: vec!["division".into()], ..Default::default() };
    /// let g = xsmith::Generator::new(&spec, options).unwrap();
    /// assert!(!g.is_enabled(spec.lookup("Div").unwrap()));
    /// ```
    pub fn is_enabled(&self, production: ProdId) -> bool {
        self.enabled[production.index()]
    }

    /// The choice statistics so far.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let g = xsmith::Generator::new(&spec, Default::default()).unwrap();
    /// assert_eq!(g.choice_log().programs(), 0);
    /// ```
    pub fn choice_log(&self) -> &ChoiceLog {
        &self.log
    }

    /// Generates one finished tree, drawing every choice from `random`.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let mut g = xsmith::Generator::new(&spec, Default::default()).unwrap();
    /// let tree = g.generate(&mut xsmith::Random::from_seed(3)).unwrap();
    /// assert!(tree.ids().all(|id| !tree.node(id).is_hole));
    /// ```
    pub fn generate(&mut self, random: &mut Random) -> Result<Tree, GenerateError> {
        let started = Instant::now();
        let mut tree = Tree::new(self.spec);
        let mut fills: u32 = 0;
        while self.fill_next_hole(&mut tree, random)? {
            fills = fills.wrapping_add(1);
            if fills % 256 == 0 && started.elapsed() > self.options.time_limit {
                return Err(GenerateError::TimeLimit {
                    limit: self.options.time_limit,
                });
            }
        }
        self.make_types_ground(&mut tree, random)?;
        self.log.record_program(self.spec, &tree);
        Ok(tree)
    }

    /// Concretizes every node's type, in node order.
    fn make_types_ground(&self, tree: &mut Tree, random: &mut Random) -> Result<(), GenerateError> {
        let spec = self.spec;
        let productions: Vec<ProdId> = tree.ids().map(|id| tree.node(id).production).collect();
        let Some(typing) = &mut tree.typing else {
            return Ok(());
        };
        for (index, production) in productions.into_iter().enumerate() {
            let Some(ty) = typing.types[index].clone() else {
                continue;
            };
            if typing.store.is_ground(&ty) {
                continue;
            }
            typing
                .store
                .concretize(&ty, random, self.options.type_max_depth)
                .map_err(|e| GenerateError::Type {
                    production: spec.production(production).name().to_string(),
                    message: e.to_string(),
                })?;
        }
        Ok(())
    }

    /// Fills the next hole of `tree` (depth first, left to right); `false`
    /// when none is left.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let mut g = xsmith::Generator::new(&spec, Default::default()).unwrap();
    /// let mut tree = xsmith::Tree::new(&spec);
    /// let mut random = xsmith::Random::from_seed(4);
    /// assert!(g.fill_next_hole(&mut tree, &mut random).unwrap());
    /// assert!(!tree.node(tree.root()).is_hole);
    /// ```
    pub fn fill_next_hole(&mut self, tree: &mut Tree, random: &mut Random) -> Result<bool, GenerateError> {
        let Some(hole) = tree.pending_holes.pop() else {
            return Ok(false);
        };
        let chosen = self.choose(tree, hole, random)?;
        self.construct(tree, hole, chosen, random)?;
        Ok(true)
    }

    fn choose(&mut self, tree: &mut Tree, node: NodeId, random: &mut Random) -> Result<ProdId, GenerateError> {
        let spec = self.spec;
        let max_depth = self.options.max_depth;
        let hole = Hole {
            spec,
            tree,
            node,
            max_depth,
        };
        self.choices.clear();
        for &candidate in spec.fillers(hole.node_type()) {
            if self.enabled[candidate.index()] && spec.production(candidate).filters.iter().all(|f| (f.0)(&hole)) {
                self.choices.push(candidate);
            }
        }
        let (node_type, depth) = (hole.node_type(), hole.depth());
        let effectful =
            |p: &Production| p.io || p.callee.is_some() || p.container_access.is_some() || p.reference_info.is_some();
        let around = match self.choices.iter().any(|&c| effectful(spec.production(c))) {
            true => self.effects.around(spec, tree, node),
            false => crate::effects::Around::default(),
        };
        self.choices.retain(|&choice| {
            let production = spec.production(choice);
            // Neither the callee nor the container's type is known before the
            // node is made.
            let mut effects = crate::effects::Effects {
                io: production.io,
                anything: production.callee.is_some(),
                ..Default::default()
            };
            match production.container_access.as_ref().map(|(_, access)| *access) {
                Some(crate::scopes::Access::Read) => effects.container_reads.push(None),
                Some(crate::scopes::Access::Write) => effects.container_writes.push(None),
                None => {}
            }
            !around.conflicts(&effects)
        });
        if let Some(typing) = &mut tree.typing {
            let required = typing.types[node.index()]
                .clone()
                .expect("every hole of a typed tree has a type");
            let shapes = &spec.node_type_shapes;
            let resolved = typing.store.resolve(&required);
            self.choices.retain(|&choice| {
                let shape = shapes[choice.index()].as_ref().expect("assembly checks type_info");
                if let Some(fits) = shape.fits(&resolved, &typing.store) {
                    return fits;
                }
                let info = spec
                    .production(choice)
                    .type_info
                    .as_ref()
                    .expect("assembly checks type_info");
                typing.store.trial(|store| {
                    let ty = (info.node_type)(store);
                    store.unify(&ty, &required)
                })
            });
        }
        if self
            .choices
            .iter()
            .any(|&c| spec.production(c).reference_info.is_some())
        {
            use crate::scopes::Access;
            let visible = crate::scopes::visible_bindings(spec, tree, node);
            let bindings = [
                harmless_bindings(&around, &visible, Access::Read),
                harmless_bindings(&around, &visible, Access::Write),
            ];
            let sites = [
                harmless_lift_site(&around, spec, &self.liftable, tree, node, Access::Read),
                harmless_lift_site(&around, spec, &self.liftable, tree, node, Access::Write),
            ];
            let mut typing = tree.typing.as_mut();
            let lift_heights = &self.lift_heights;
            let only_by_lifting = &mut self.only_by_lifting;
            only_by_lifting.clear();
            self.choices.retain(|&choice| {
                let production = spec.production(choice);
                let Some(info) = &production.reference_info else {
                    return true;
                };
                let site = &sites[usize::from(info.access == Access::Write)];
                let candidates = &bindings[usize::from(info.access == Access::Write)];
                if !fitting_bindings(spec, candidates, info.access, choice, node, typing.as_deref_mut(), true)
                    .is_empty()
                {
                    return true;
                }
                let definitions = match site {
                    Some(site) => liftable(spec, site, choice, node, typing.as_deref_mut()),
                    None => return false,
                };
                // A reference that only lifting can settle finishes once the
                // new definition does, a step later.
                let lifted_height = definitions.iter().map(|d| lift_heights[d.index()]).min();
                if let Some(height) = lifted_height {
                    only_by_lifting.push((choice, height.saturating_add(1)));
                }
                lifted_height.is_some()
            });
        } else {
            self.only_by_lifting.clear();
        }
        if depth >= max_depth {
            let (heights, lifted) = (&self.heights, &self.only_by_lifting);
            let height = |c: &ProdId| {
                lifted
                    .iter()
                    .find(|(choice, _)| choice == c)
                    .map_or(heights[c.index()], |&(_, height)| height)
            };
            if let Some(least) = self.choices.iter().map(height).min() {
                self.choices.retain(|c| height(c) == least);
            }
        }
        let hole = Hole {
            spec,
            tree,
            node,
            max_depth,
        };
        self.weights.clear();
        for &choice in &self.choices {
            self.weights.push(match &spec.production(choice).weight {
                Weight::Constant(w) => *w,
                Weight::Dynamic(f) => f(&hole),
            });
        }
        let picked = random.weighted(&self.weights).ok_or_else(|| GenerateError::NoChoice {
            node_type: spec.production(node_type).name().to_string(),
            depth,
            required_type: tree.typing.as_ref().and_then(|typing| {
                let ty = typing.store.zonk(typing.types[node.index()].as_ref()?);
                Some(typing.store.system().display(&ty).to_string())
            }),
        })?;
        for &choice in &self.choices {
            self.log.offered[choice.index()] += 1;
        }
        let chosen = self.choices[picked];
        self.log.chosen[chosen.index()] += 1;
        Ok(chosen)
    }

    fn construct(
        &mut self,
        tree: &mut Tree,
        hole: NodeId,
        chosen: ProdId,
        random: &mut Random,
    ) -> Result<(), GenerateError> {
        let production = self.spec.production(chosen);
        let depth = tree.node(hole).depth;
        let child_depth = depth + production.depth_increase;
        let past_depth_bound = depth >= self.options.max_depth;
        let node_type = self.type_node(tree, hole, production)?;
        let first_child = tree.len();
        let mut slots: SmallVec<[Slot; 3]> = SmallVec::new();
        for field in production.fields() {
            slots.push(match field.kind() {
                FieldKind::Child(node_type) => Slot::Child(tree.add_hole(*node_type, Some(hole), child_depth)),
                FieldKind::List(element_type, length) => {
                    let drawn = if past_depth_bound {
                        length.min()
                    } else {
                        length.draw(random)
                    };
                    let count = match (&node_type, &mut tree.typing) {
                        (Some(ty), Some(typing)) => production
                            .list_lengths
                            .iter()
                            .find(|(name, _)| name == field.name())
                            .map_or(drawn, |(_, f)| f(&mut typing.store, ty, drawn)),
                        _ => drawn,
                    };
                    if count > self.options.max_nodes.saturating_sub(tree.len()) {
                        return Err(GenerateError::NodeBudget {
                            max_nodes: self.options.max_nodes,
                        });
                    }
                    Slot::List(
                        (0..count)
                            .map(|_| tree.add_hole(*element_type, Some(hole), child_depth))
                            .collect(),
                    )
                }
                FieldKind::Data(init) => Slot::Data(init.draw(random)),
            });
        }
        if tree.len() > self.options.max_nodes {
            return Err(GenerateError::NodeBudget {
                max_nodes: self.options.max_nodes,
            });
        }
        let last_child = tree.len();
        tree.fill(hole, chosen, slots);
        if let Some(ty) = node_type {
            self.type_children(tree, hole, production, ty);
        }
        self.bind_names(tree, hole, production, random)?;
        if let Some(hook) = &production.fresh {
            (hook.0)(&mut FreshNode {
                spec: self.spec,
                tree,
                node: hole,
                random,
                type_max_depth: self.options.type_max_depth,
            });
        }
        tree.pending_holes
            .extend((first_child..last_child).rev().map(|i| NodeId(i as u32)));
        Ok(())
    }

    /// Names a binder freshly and registers it with its scope; points a
    /// reference at a visible binder that fits, chosen at random.
    fn bind_names(
        &mut self,
        tree: &mut Tree,
        node: NodeId,
        production: &Production,
        random: &mut Random,
    ) -> Result<(), GenerateError> {
        if let Some(info) = &production.binder_info {
            tree.names_made += 1;
            let name = format!("v{}", tree.names_made);
            let index = production
                .field_index(&info.name_field)
                .expect("assembly checks the name field");
            tree.set_data(node, index, Value::Str(name));
            if let Some(scope) = crate::scopes::enclosing_scope(self.spec, tree, node) {
                tree.scope_binders.entry(scope).or_default().push(node);
            }
        }
        if let Some(info) = &production.reference_info {
            let spec = self.spec;
            let reference = tree.node(node).production;
            let visible = crate::scopes::visible_bindings(spec, tree, node);
            let around = self.effects.around(spec, tree, node);
            let bindings = harmless_bindings(&around, &visible, info.access);
            let fitting = fitting_bindings(
                spec,
                &bindings,
                info.access,
                reference,
                node,
                tree.typing.as_mut(),
                false,
            );
            // Past the depth bound a reference lifts only when nothing in
            // sight fits, and then a definition that finishes soonest (the
            // choice was weighed with its height), so chains of lifts end.
            let may_lift = tree.node(node).depth < self.options.max_depth || fitting.is_empty();
            let site = harmless_lift_site(&around, spec, &self.liftable, tree, node, info.access).filter(|_| may_lift);
            let typing = tree.typing.as_mut();
            let mut definitions = match &site {
                Some(site) => liftable(spec, site, reference, node, typing),
                None => Vec::new(),
            };
            // Past the depth bound, only the definitions that finish soonest
            // (the height the choice was made with).
            if tree.node(node).depth >= self.options.max_depth {
                let heights = &self.lift_heights;
                if let Some(least) = definitions.iter().map(|d| heights[d.index()]).min() {
                    definitions.retain(|d| heights[d.index()] == least);
                }
            }
            // Existing variables are three times as likely as a new one each,
            // so programs reuse their variables.
            let mut weights = vec![3; fitting.len()];
            weights.push(u32::from(!definitions.is_empty()));
            let picked = random.weighted(&weights).ok_or_else(|| GenerateError::Type {
                production: production.name().to_string(),
                message: "no visible binding fits the reference, and none can be lifted".to_string(),
            })?;
            self.log.references += 1;
            let (name, binder, binding_type) = match fitting.get(picked) {
                Some(binding) => (binding.name.clone(), binding.binder, binding.ty.clone()),
                None => {
                    let site = site.expect("lifting was weighed only with a site");
                    let definition = definitions[random.below(definitions.len() as u64) as usize];
                    let lifted = self.lift(tree, node, &site, definition, random)?;
                    self.log.lifts += 1;
                    let binding = crate::scopes::binding(spec, tree, lifted);
                    (binding.name, binding.binder, binding.ty)
                }
            };
            tree.reference_targets.insert(node, binder);
            if let (Some(typing), Some(binding_type)) = (&mut tree.typing, &binding_type) {
                let ty = typing.types[node.index()].clone().expect("a typed node has a type");
                typing.store.unify(&ty, binding_type).map_err(|e| GenerateError::Type {
                    production: production.name().to_string(),
                    message: e.to_string(),
                })?;
            }
            let index = production
                .field_index(&info.name_field)
                .expect("assembly checks the name field");
            tree.set_data(node, index, Value::Str(name));
        }
        Ok(())
    }

    /// Inserts a new `definition` at `site`, before the child of the scope
    /// that holds `reference`, with the reference's type; its initialiser
    /// and other children become holes. Returns the new binder.
    fn lift(
        &mut self,
        tree: &mut Tree,
        reference: NodeId,
        site: &crate::scopes::LiftSite,
        definition: ProdId,
        random: &mut Random,
    ) -> Result<NodeId, GenerateError> {
        // The definition goes beside the reference's ancestors, but its
        // initialiser starts no shallower than the reference: a chain of
        // lifts (an initialiser whose references lift again) does not get a
        // fresh depth budget at each step, and past the bound the choice of
        // least finishing height ends it.
        let scope = tree.node(site.scope);
        let depth =
            (scope.depth + self.spec.production(scope.production).depth_increase).max(tree.node(reference).depth);
        let hole = tree.add_hole(definition, Some(site.scope), depth);
        tree.insert_into_list(site.scope, site.slot, site.position, hole);
        if let Some(typing) = &mut tree.typing {
            typing.types[hole.index()] = typing.types[reference.index()].clone();
        }
        self.construct(tree, hole, definition, random)?;
        Ok(hole)
    }

    /// Gives a hole being filled its node's type (unified with the hole's),
    /// or `None` for an untyped spec.
    fn type_node(&self, tree: &mut Tree, node: NodeId, production: &Production) -> Result<Option<Type>, GenerateError> {
        let Some(typing) = &mut tree.typing else {
            return Ok(None);
        };
        let info = production.type_info.as_ref().expect("assembly checks type_info");
        let required = typing.types[node.index()]
            .clone()
            .expect("every hole of a typed tree has a type");
        let ty = (info.node_type)(&mut typing.store);
        typing.store.unify(&ty, &required).map_err(|e| GenerateError::Type {
            production: production.name().to_string(),
            message: e.to_string(),
        })?;
        typing.types[node.index()] = Some(ty.clone());
        Ok(Some(ty))
    }

    /// Gives the children of a node just made their types.
    fn type_children(&self, tree: &mut Tree, node: NodeId, production: &Production, ty: Type) {
        let slots = tree.node(node).slots.clone();
        let typing = tree.typing.as_mut().expect("only typed trees have node types");
        let info = production.type_info.as_ref().expect("assembly checks type_info");
        let field_lens: Vec<(&str, usize)> = production
            .fields()
            .iter()
            .zip(&slots)
            .filter_map(|(field, slot)| match slot {
                Slot::Child(_) => Some((field.name(), 1)),
                Slot::List(children) => Some((field.name(), children.len())),
                Slot::Data(_) => None,
            })
            .collect();
        let mut earlier: Vec<(&str, Type)> = Vec::new();
        for (field, slot) in production.fields().iter().zip(&slots) {
            let children: &[NodeId] = match slot {
                Slot::Child(child) => std::slice::from_ref(child),
                Slot::List(children) => children,
                Slot::Data(_) => continue,
            };
            let function = info
                .children
                .iter()
                .find(|(name, _)| name == field.name())
                .map(|(_, f)| f);
            for (index, child) in children.iter().enumerate() {
                let child_type = match function {
                    Some(function) => function(&mut ChildTypes {
                        store: &mut typing.store,
                        node_type: ty.clone(),
                        index,
                        len: children.len(),
                        field_lens: &field_lens,
                        earlier: &earlier,
                    }),
                    None => typing.store.fresh(),
                };
                if index == 0 {
                    earlier.push((field.name(), child_type.clone()));
                }
                typing.types[child.index()] = Some(child_type);
            }
        }
    }
}
