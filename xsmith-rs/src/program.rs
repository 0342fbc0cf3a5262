//! One program being built: its tree, the types of its nodes, its names
//! (scopes, binders, what each reference points at), the holes still to
//! fill, and the caches of its attributes.
//!
//! A program reads as its [`Tree`] (it dereferences to it); what it knows
//! beyond the shape of the tree is asked of it directly.

use std::ops::Deref;
use std::sync::Arc;

use indexmap::IndexMap;

use crate::cache::AttributeCaches;
use crate::grammar::ProdId;
use crate::scopes::{BinderStyle, ScopeKind};
use crate::tree::{NodeId, Tree};
use crate::types::{Glance, GroundKeys, Resolved, Type, TypeStore, TypeSystem};

/// A program being generated (or finished): a [`Tree`] with types, names
/// and cached attributes.
///
/// ```
/// let spec = xsmith::example::spec();
/// let program = xsmith::example::program(&spec, 3);
/// assert!(program.ids().all(|id| !program.node(id).is_hole));
/// assert!(program.type_store().is_none(), "the example spec is untyped");
/// ```
pub struct Program {
    /// A number no other program made in this process has: what caches
    /// kept outside the program (the generator's, from search to search)
    /// tell it by.
    pub(crate) serial: u64,
    pub(crate) tree: Tree,
    pub(crate) caches: AttributeCaches,
    /// Holes still to fill; the next one is at the end.
    pub(crate) pending_holes: Vec<NodeId>,
    /// The types of a typed spec's program.
    pub(crate) typing: Option<Typing>,
    /// Scopes, binders and references.
    pub(crate) names: Names,
    /// For each node made, the choices its own construction drew: the
    /// index of its first choice and one past its last (see
    /// [`Program::choice_span`]).
    pub(crate) own_choices: Vec<Option<(usize, usize)>>,
    /// The number of each node's fill (holes filled so far, when it was):
    /// what a [`Splice`](crate::Splice) names a subtree by.
    pub(crate) fill_numbers: Vec<Option<usize>>,
    /// How many holes have been filled.
    pub(crate) fills: usize,
    /// While a splice's subtree is being made: its root.
    pub(crate) splice_root: Option<NodeId>,
    /// The nodes made whose subtrees are not finished yet, innermost last,
    /// each with the number of pending holes that marks its end.
    pub(crate) unfinished: Vec<(NodeId, usize)>,
    /// For each finished node, the seed that concretizes what its type left
    /// open (0 for a node whose type is one ground type).
    pub(crate) type_seeds: Vec<u64>,
    /// For each node, how many nodes its subtree may have under `--size`
    /// (`u32::MAX` without a size): its parent's budget, less one for the
    /// parent, shared among the parent's children. A subtree's budget does
    /// not depend on its siblings' sizes, so replacing one changes no other.
    pub(crate) budgets: Vec<u32>,
    /// For each node, what its parent offered it on top of its budget.
    pub(crate) bonuses: Vec<Bonus>,
    /// For each finished node: one past the last choice drawn before it was
    /// finished (its subtree's, the definitions' lifted from inside it, and
    /// the concretization of what its type left open).
    pub(crate) finish_ends: Vec<Option<usize>>,
    /// For each node made by a fill: the index of the first choice drawn
    /// for its hole, before its own (with local choices, a shared hole
    /// type is decided there, in the parent's span).
    pub(crate) decision_starts: Vec<Option<usize>>,
    /// Where each decision to grow the root's list (see `--size`) was
    /// drawn, in order.
    pub(crate) growth_decisions: Vec<usize>,
    /// For each finished node that drew a type seed: where it drew it.
    pub(crate) type_seed_positions: Vec<Option<usize>>,
    /// For each node a fill made: where the draws of its production ended.
    pub(crate) production_ends: Vec<Option<usize>>,
}

/// The type variables of one program and the type of each node: for a hole,
/// the type its parent requires; for a node, its own type (a subtype of
/// what its parent required). After generation every type is ground.
pub(crate) struct Typing {
    pub(crate) store: TypeStore,
    pub(crate) types: Vec<Option<Type>>,
    /// Per node, its type resolved at the top once that is no variable
    /// and no snapshot can undo it: from then on what resolving it gives,
    /// so that the searches of the visible binders compare it rather than
    /// resolve the binder's type again at every reference (see
    /// [`Typing::settle`]).
    settled: Vec<Option<Resolved>>,
    /// Per node, its settled type at a glance (see [`Typing::glance`]).
    glances: Vec<Glance>,
    /// The keys of the settled ground types.
    ground_keys: GroundKeys,
    /// Per node, its type with every variable replaced, once it has none
    /// left (see [`Typing::ground`]).
    ground: Vec<Option<Type>>,
}

impl Typing {
    /// Settles the type of `node` if it can be (see [`Typing::settled`]):
    /// once its variable is bound (the parts may still be open, but what
    /// it resolves to at the top stays), outside snapshots (a binding made
    /// in one could be undone).
    pub(crate) fn settle(&mut self, node: NodeId) {
        if self.settled(node).is_some() || self.store.in_snapshot() {
            return;
        }
        let Some(ty) = &self.types[node.index()] else {
            return;
        };
        let resolved = self.store.resolved(ty);
        if let Some(glance) = self.ground_keys.glance(&resolved.ty, resolved.ground) {
            if self.glances.len() <= node.index() {
                self.glances.resize(node.index() + 1, Glance::NONE);
            }
            self.glances[node.index()] = glance;
            keep(&mut self.settled, node, resolved);
        }
    }

    /// The type of `node` at a glance, if [`Typing::settle`] settled it
    /// (else [`Glance::NONE`]): its form at the top and, if it is ground,
    /// its key (see [`Typing::ground_key`]).
    pub(crate) fn glance(&self, node: NodeId) -> Glance {
        self.glances.get(node.index()).copied().unwrap_or(Glance::NONE)
    }

    /// The key the settled ground types equal to `ty` have, if one was
    /// settled.
    pub(crate) fn ground_key(&self, ty: &Type) -> Option<u32> {
        self.ground_keys.find(ty)
    }

    /// The type of `node` with every variable replaced, once it has none
    /// left, kept from then on (outside snapshots: a binding made in one
    /// could be undone); `None` while it has one.
    pub(crate) fn ground(&mut self, node: NodeId) -> Option<&Type> {
        let known = self.ground.get(node.index()).is_some_and(Option::is_some);
        if !known {
            let ty = self.types[node.index()].as_ref()?;
            if self.store.in_snapshot() {
                return None;
            }
            let ground = self.store.grounded(ty)?;
            keep(&mut self.ground, node, ground);
        }
        self.ground[node.index()].as_ref()
    }

    /// The type of `node` resolved at the top, if [`Typing::settle`]
    /// settled it: what resolving it gives, now and from now on.
    pub(crate) fn settled(&self, node: NodeId) -> Option<&Resolved> {
        self.settled.get(node.index()).and_then(Option::as_ref)
    }
}

/// Keeps `value` for `node` in `table` (indexed by node, grown as needed).
fn keep<T>(table: &mut Vec<Option<T>>, node: NodeId, value: T) {
    if table.len() <= node.index() {
        table.resize_with(node.index() + 1, || None);
    }
    table[node.index()] = Some(value);
}

/// A map keyed by node, in insertion order: node ids are small dense
/// integers that need no collision-resistant hash (rustc's Fx hash, not
/// SipHash: every reference's search of the visible binders looks up each
/// enclosing scope and each binder in these maps).
pub(crate) type NodeMap<V> = IndexMap<NodeId, V, std::hash::BuildHasherDefault<rustc_hash::FxHasher>>;

/// The scope graph of a program as it is built: each scope node with its
/// kind and the binders it owns, each binder with what a reference needs to
/// know of it, and the binder each settled reference points at.
#[derive(Default)]
pub(crate) struct Names {
    /// The scope nodes made so far, with their binders.
    pub(crate) scopes: NodeMap<Scope>,
    /// The binder nodes made so far.
    pub(crate) binders: NodeMap<Binder>,
    /// How many fresh names have been given out.
    pub(crate) made: u32,
    /// The binder each settled reference points at.
    pub(crate) reference_targets: NodeMap<NodeId>,
    /// Each lifted definition, with the reference it was lifted for.
    pub(crate) lifted_for: NodeMap<NodeId>,
}

/// A share of its parent's size budget that a node may take on top of
/// its own: with one chance in `among`, drawn when its hole is filled (in
/// its own span, so that its siblings' draws do not move it).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Bonus {
    /// The nodes it adds to the budget.
    pub(crate) nodes: u32,
    /// How many children it was offered to.
    pub(crate) among: u64,
}

/// A node that introduces a scope.
pub(crate) struct Scope {
    pub(crate) kind: ScopeKind,
    /// The binders whose nearest scope this is, in the order they were
    /// made, each with its anchor: the child of the scope that is the
    /// binder or holds it (what decides where in the scope it is in sight).
    pub(crate) binders: Vec<(NodeId, NodeId)>,
}

/// A binder node: where its name is, and how it may be used.
#[derive(Clone, Copy)]
pub(crate) struct Binder {
    /// The slot of the data field that holds the bound name.
    pub(crate) name_slot: usize,
    pub(crate) writable: bool,
    pub(crate) style: BinderStyle,
}

impl Program {
    /// A program that is one hole of node type `root`, typed in `system`
    /// when there is one, with room for `capacity` nodes in its per-node
    /// tables (a generator expects as many as its last program had, so
    /// that they do not grow step by step in every program).
    pub(crate) fn new(root: ProdId, system: Option<&Arc<TypeSystem>>, capacity: usize) -> Program {
        let mut typing = system.map(|system| Typing {
            // Typed fuzzers make one to two variables per node.
            store: TypeStore::with_room(system.clone(), 2 * capacity),
            types: Vec::with_capacity(capacity),
            settled: Vec::new(),
            glances: Vec::new(),
            ground_keys: GroundKeys::default(),
            ground: Vec::new(),
        });
        if let Some(typing) = &mut typing {
            let root_type = typing.store.fresh();
            typing.types.push(Some(root_type));
        }
        let tree = Tree::with_capacity(root, capacity);
        fn with_first<T>(capacity: usize, first: T) -> Vec<T> {
            let mut table = Vec::with_capacity(capacity.max(1));
            table.push(first);
            table
        }
        static SERIALS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        Program {
            serial: SERIALS.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            pending_holes: vec![tree.root()],
            tree,
            caches: AttributeCaches::default(),
            typing,
            names: Names::default(),
            own_choices: Vec::with_capacity(capacity),
            fill_numbers: Vec::with_capacity(capacity),
            fills: 0,
            splice_root: None,
            unfinished: Vec::new(),
            finish_ends: Vec::with_capacity(capacity),
            decision_starts: Vec::with_capacity(capacity),
            growth_decisions: Vec::new(),
            type_seed_positions: Vec::new(),
            production_ends: Vec::new(),
            budgets: with_first(capacity, u32::MAX),
            bonuses: with_first(capacity, Bonus::default()),
            type_seeds: with_first(capacity, 0),
        }
    }

    /// The tree.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let program = xsmith::example::program(&spec, 3);
    /// assert_eq!(program.tree().len(), program.len());
    /// ```
    pub fn tree(&self) -> &Tree {
        &self.tree
    }

    /// Adds a hole of `node_type` under `parent` (not yet linked into a
    /// slot of the parent: the caller does that).
    pub(crate) fn add_hole(&mut self, node_type: ProdId, parent: Option<NodeId>, depth: u32) -> NodeId {
        if let Some(typing) = &mut self.typing {
            typing.types.push(None);
        }
        self.budgets.push(u32::MAX);
        self.bonuses.push(Bonus::default());
        self.type_seeds.push(0);
        self.tree.add_hole(node_type, parent, depth)
    }

    /// The binder a reference node points at, once its name is settled.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let program = xsmith::example::program(&spec, 3);
    /// assert_eq!(program.reference_target(program.root()), None);
    /// ```
    pub fn reference_target(&self, reference: NodeId) -> Option<NodeId> {
        self.names.reference_targets.get(&reference).copied()
    }

    /// The type of a node of a typed spec's program, with everything known
    /// about it filled in (after generation: a ground type); `None` for an
    /// untyped spec.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let program = xsmith::example::program(&spec, 1);
    /// assert!(program.node_type(program.root()).is_none());
    /// ```
    pub fn node_type(&self, id: NodeId) -> Option<Type> {
        let typing = self.typing.as_ref()?;
        typing.types[id.index()].as_ref().map(|t| typing.store.zonk(t))
    }

    /// The type variables of a typed spec's program.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// assert!(xsmith::example::program(&spec, 1).type_store().is_none());
    /// ```
    pub fn type_store(&self) -> Option<&TypeStore> {
        self.typing.as_ref().map(|t| &t.store)
    }

    /// The reference a lifted definition was lifted for; `None` for a node
    /// that was not lifted.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let program = xsmith::example::program(&spec, 1);
    /// assert_eq!(program.lifted_for(program.root()), None);
    /// ```
    pub fn lifted_for(&self, definition: NodeId) -> Option<NodeId> {
        self.names.lifted_for.get(&definition).copied()
    }

    /// The span of the program's choice sequence (see
    /// [`Choices`](crate::Choices)) that `node`'s subtree consumed: from the
    /// choice of its production to the last choice of its last descendant
    /// (holes are filled depth first, so a subtree's choices are
    /// contiguous), with those of the definitions lifted from inside it and
    /// the concretization of what its types left open, up to when it was
    /// finished.
    /// `None` for a hole.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let mut random = xsmith::Random::from_seed(4);
    /// random.record();
    /// let mut g = xsmith::Generator::new(&spec, Default::default()).unwrap();
    /// let program = g.generate(&mut random).unwrap();
    /// assert_eq!(program.choice_span(program.root()), Some(0..random.recorded().unwrap().len()));
    /// ```
    pub fn choice_span(&self, node: NodeId) -> Option<std::ops::Range<usize>> {
        let (start, mut end) = (*self.own_choices.get(node.index())?)?;
        let mut stack = vec![node];
        while let Some(at) = stack.pop() {
            if let Some(Some((_, own_end))) = self.own_choices.get(at.index()) {
                end = end.max(*own_end);
            }
            if let Some(Some(finish_end)) = self.finish_ends.get(at.index()) {
                end = end.max(*finish_end);
            }
            stack.extend(self.children(at));
        }
        Some(start..end)
    }

    /// The choices `node`'s own construction drew (its production, its
    /// lists' lengths, its data), without its children's; `None` for a
    /// hole.
    pub(crate) fn own_choice_span(&self, node: NodeId) -> Option<std::ops::Range<usize>> {
        let (start, end) = (*self.own_choices.get(node.index())?)?;
        Some(start..end)
    }

    /// The number of the fill that made `node` (holes are numbered from 0
    /// in the order they are filled; see [`Splice`](crate::Splice)); `None`
    /// for a hole, or a lifted definition (made inside another's fill).
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let program = xsmith::example::program(&spec, 1);
    /// assert_eq!(program.fill_number(program.root()), Some(0));
    /// ```
    pub fn fill_number(&self, node: NodeId) -> Option<usize> {
        *self.fill_numbers.get(node.index())?
    }

    /// Where `node` is in the tree, as [`Anchors`](crate::Anchors) knows
    /// it: from the root down, each node's slot and its index among the
    /// elements of that slot that no reference lifted; `None` for a node
    /// in a lifted definition (a definition is lifted where its reference
    /// needs it, so it has no place of its own).
    pub(crate) fn path(&self, node: NodeId) -> Option<Vec<(u32, u32)>> {
        let mut path = Vec::new();
        let mut at = node;
        while let Some(parent) = self.node(at).parent {
            if self.lifted_for(at).is_some() {
                return None;
            }
            let slot = self.slot_holding(at)?;
            let index = match &self.node(parent).slots[slot] {
                crate::tree::Slot::List(elements) => elements
                    .iter()
                    .take_while(|&&e| e != at)
                    .filter(|&&e| self.lifted_for(e).is_none())
                    .count(),
                _ => 0,
            };
            path.push((slot as u32, index as u32));
            at = parent;
        }
        path.reverse();
        Some(path)
    }

    /// Where each node (but those of lifted definitions) and each decision
    /// to grow the root's list began in the program's choice sequence:
    /// what keeps a replay of an edit of that sequence in step with it (see
    /// [`Anchors`](crate::Anchors)).
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let program = xsmith::example::program(&spec, 2);
    /// assert_eq!(program.anchors(), program.anchors());
    /// ```
    pub fn anchors(&self) -> crate::choices::Anchors {
        let starts = self
            .ids()
            .filter_map(|node| Some((self.path(node)?, self.decision_start(node)?)))
            .collect();
        let type_seeds = self
            .ids()
            .filter_map(|node| Some((self.path(node)?, (*self.type_seed_positions.get(node.index())?)?)))
            .collect();
        let productions = self
            .ids()
            .filter(|&node| !self.node(node).is_hole)
            .filter_map(|node| {
                let end = (*self.production_ends.get(node.index())?)?;
                Some((self.path(node)?, (self.node(node).production.0, end)))
            })
            .collect();
        crate::choices::Anchors {
            starts,
            type_seeds,
            growth: self.growth_decisions.clone(),
            productions,
        }
    }

    /// Notes the fill that made `node`.
    pub(crate) fn note_fill(&mut self, node: NodeId, fill: usize) {
        note_at(&mut self.fill_numbers, node, fill);
    }

    /// Notes that the choices drawn for the hole `node` began at `start`.
    pub(crate) fn note_decision_start(&mut self, node: NodeId, start: usize) {
        note_at(&mut self.decision_starts, node, start);
    }

    /// The index of the first choice drawn for the hole that `node` filled:
    /// the start of its [`choice_span`](Program::choice_span), or before it
    /// when the hole's type was decided first (those choices belong to the
    /// parent: a splice of `node` keeps them, but deleting `node` from a
    /// list must delete them too). `None` for a node no fill made.
    pub(crate) fn decision_start(&self, node: NodeId) -> Option<usize> {
        *self.decision_starts.get(node.index())?
    }

    /// Notes the choices `node`'s own construction drew.
    pub(crate) fn note_own_choices(&mut self, node: NodeId, start: usize, end: usize) {
        note_at(&mut self.own_choices, node, (start, end));
    }

    /// Notes that the draws of `node`'s production ended at `end`.
    pub(crate) fn note_production_end(&mut self, node: NodeId, end: usize) {
        note_at(&mut self.production_ends, node, end);
    }

    /// Notes that `node`'s type seed was drawn at `position`.
    pub(crate) fn note_type_seed(&mut self, node: NodeId, position: usize) {
        note_at(&mut self.type_seed_positions, node, position);
    }

    /// Notes that `node` was finished when `end` choices had been drawn.
    pub(crate) fn note_finish_choices(&mut self, node: NodeId, end: usize) {
        note_at(&mut self.finish_ends, node, end);
    }

    /// The tree as an indented outline, one node a line (see
    /// [`Tree::outline`]), with each node's type in a typed program (the
    /// type its hole requires, for a hole), and each reference's target.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let program = xsmith::example::program(&spec, 1);
    /// assert!(program.outline(spec.grammar()).starts_with("Program"));
    /// ```
    pub fn outline(&self, grammar: &crate::grammar::Grammar) -> String {
        self.tree.outline_annotated(grammar, &|id| {
            let mut note = String::new();
            if let (Some(typing), Some(ty)) = (&self.typing, self.node_type(id)) {
                note.push_str(&format!(" : {}", typing.store.system().display(&ty)));
            }
            if let Some(target) = self.reference_target(id) {
                note.push_str(&format!(" -> node {}", target.index()));
            }
            if let Some(reference) = self.lifted_for(id) {
                note.push_str(&format!(" (lifted for node {})", reference.index()));
            }
            note
        })
    }
}

impl Deref for Program {
    type Target = Tree;

    fn deref(&self) -> &Tree {
        &self.tree
    }
}

/// Sets `table`'s entry for `node` to `value`, growing the table (with
/// `None`s) to reach it.
fn note_at<T: Clone>(table: &mut Vec<Option<T>>, node: NodeId, value: T) {
    if table.len() <= node.index() {
        table.resize(node.index() + 1, None);
    }
    table[node.index()] = Some(value);
}
