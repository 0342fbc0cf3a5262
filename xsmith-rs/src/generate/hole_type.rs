//! Local type choices: every draw that decides a node's type lies in a
//! choice span that holds every node the decision reaches.
//!
//! A hole's type can be open (a type variable, or a type with variables in
//! it). Where nothing outside the hole mentions those variables, the
//! subtree that fills the hole decides them, and whatever is still open
//! when the subtree is finished is concretized then
//! ([`finish_node`](Generator::finish_node)), at random from a seed drawn
//! then (one choice, however much is open: the choices after it must not
//! shift with what a replaced subtree leaves open).
//!
//! Where the parent's type or a sibling's mentions them (`left: same,
//! right: same`, an array loop's `array_of_node`), the subtree must not
//! decide them, or replacing it would change its siblings:
//! [`decide_shared_hole_type`](Generator::decide_shared_hole_type) decides
//! them just before the hole's span begins, inside the parent's span,
//! from one choice (a seed: the tries it takes vary with what is in
//! sight, and the choices after it must not shift). It
//! draws one of the hole's candidate productions by its weight (so types
//! come out about as often as when the productions decided them; drawn
//! from the hole's stable list and checked alone, as
//! [`draw`](super::draw) draws a hole's production), takes
//! that production's node type, for a reference the type of a visible
//! variable that fits, and concretizes what is then one of some ground
//! types; the production drawn must still be able to fill the hole, else a
//! few other concretizations are tried. What stays open: a variable the
//! production leaves free to be any type (the subtree's productions decide
//! it, as only they know what they can make: the inhabitation of heads
//! cannot tell a dictionary of arrays it can fill from one it cannot), a
//! record or product (a hole of an invented record type can take a
//! subtree without end), and whatever no concretization suits.

use super::references::{fitting_bindings, harmless_bindings};
use super::{GenerateError, Generator, Whereabouts};
use crate::grammar::ProdId;
use crate::names::visible_binders;
use crate::program::{Program, Typing};
use crate::random::Random;
use crate::tree::NodeId;
use crate::types::{Domain, NodeTypeShape, Type, TypeStore, TypeVar};

/// How many concretizations of a shared hole type are tried for one
/// candidate production.
const CONCRETIZE_TRIES: usize = 3;

/// How many candidate productions a shared hole type is tried for before
/// it is left open.
const CANDIDATE_TRIES: usize = 4;

impl Generator<'_> {
    /// Decides the open type of the hole at `hole` when its parent or a
    /// sibling shares it (see the module's documentation); draws nothing
    /// otherwise.
    pub(super) fn decide_shared_hole_type(&mut self, program: &mut Program, hole: NodeId, random: &mut Random) {
        let Some(typing) = &program.typing else {
            return;
        };
        let Some(ty) = typing.types[hole.index()].clone() else {
            return;
        };
        if typing.store.is_ground(&ty) || !shares_type(program, hole, &ty) {
            return;
        }
        let shared = SharedHole {
            sharers: sharing_holes(program, hole, &ty),
            node: hole,
            ty,
        };
        // One choice, however many tries the decision takes: the tries
        // depend on what is in sight, which a replaced subtree elsewhere
        // may change, and the choices after this one must stay in place.
        let random = &mut local_source(random.next_u64());
        if self.try_stable_candidates(program, &shared, random) {
            return;
        }
        // Past the bounds, no production of the stable list may pass when
        // every candidate finishes later than the list's soonest.
        if !self.past_bounds(program, hole) {
            return;
        }
        self.offer_soonest_candidates(program, hole);
        self.weigh_candidates(program, hole);
        let (candidates, weights) = (self.choices.clone(), self.weights.clone());
        self.try_candidates(program, &shared, &candidates, weights, random, |_, _, _| true);
    }

    /// Draws productions from the hole's stable list (see
    /// [`draw`](super::draw)) and tries the first few that pass for the
    /// hole's type; whether any passed.
    fn try_stable_candidates(&mut self, program: &mut Program, shared: &SharedHole, random: &mut Random) -> bool {
        let hole = shared.node;
        let past_bounds = self.past_bounds(program, hole);
        let soonest_finish = self.stable_list(program, hole, past_bounds);
        let heads = self.hole_heads;
        let (candidates, weights) = (self.stable.clone(), self.stable_weights.clone());
        // A try leaves the heads of another hole's type behind.
        let passes = |generator: &mut Self, program: &mut Program, index: usize| {
            generator.hole_heads = heads;
            let candidate = candidates[index];
            generator.stable_entry_passes(program, hole, candidate, false, past_bounds, soonest_finish)
        };
        self.try_candidates(program, shared, &candidates, weights, random, passes)
    }

    /// Draws `candidates` by `weights` and tries for the hole's type (see
    /// [`try_candidate`](Generator::try_candidate)) the first few that
    /// `passes` (rejection sampling: each candidate that passes comes out
    /// as often as one draw among those that pass gives it); whether any
    /// passed.
    fn try_candidates(
        &mut self,
        program: &mut Program,
        shared: &SharedHole,
        candidates: &[ProdId],
        mut weights: Vec<u32>,
        random: &mut Random,
        mut passes: impl FnMut(&mut Self, &mut Program, usize) -> bool,
    ) -> bool {
        let mut tries = 0;
        while tries < CANDIDATE_TRIES {
            // Nothing left: `choose` names the hole nothing can fill.
            let Some(picked) = random.weighted(&weights) else {
                break;
            };
            weights[picked] = 0;
            if !passes(self, program, picked) {
                continue;
            }
            tries += 1;
            if self.try_candidate(program, shared, candidates[picked], random) {
                break;
            }
        }
        tries > 0
    }

    /// Gives the `shared` hole a type `candidate` can fill: `candidate`'s
    /// node type, for a reference a visible variable's type, and plain
    /// ground types for what is still open; keeps it if `candidate` and
    /// something for each of the hole's sharers can still fill their holes (see [`try_concretizing`](Generator::try_concretizing)).
    fn try_candidate(
        &mut self,
        program: &mut Program,
        shared: &SharedHole,
        candidate: ProdId,
        random: &mut Random,
    ) -> bool {
        let (hole, ty) = (shared.node, &shared.ty);
        let typing = program.typing.as_mut().expect("a typed hole");
        let before = typing.store.snapshot();
        let node_type = (self.spec.type_info(candidate).node_type)(&mut typing.store);
        if typing.store.unify(&node_type, ty).is_err() || invents_structures(&typing.store, ty) {
            typing.store.rollback(before);
            return false;
        }
        self.take_a_visible_variables_type(program, hole, candidate, ty, random);
        let decided = (0..CONCRETIZE_TRIES).any(|_| self.try_concretizing(program, shared, candidate, random));
        let store = &mut program.typing.as_mut().expect("a typed hole").store;
        match decided {
            true => store.commit(before),
            false => store.rollback(before),
        }
        decided
    }

    /// For a `candidate` that is a reference: gives the hole the type of a
    /// visible variable that fits, drawn as the reference would draw it
    /// (each variable three times as likely as a new one), or leaves it for
    /// a new variable's type.
    fn take_a_visible_variables_type(
        &mut self,
        program: &mut Program,
        hole: NodeId,
        candidate: ProdId,
        ty: &Type,
        random: &mut Random,
    ) {
        let spec = self.spec;
        let Some(info) = &spec.properties(candidate).reference_info else {
            return;
        };
        // The generator's buffers, which keep their capacity.
        let (mut visible, mut bindings) = (std::mem::take(&mut self.visible), std::mem::take(&mut self.harmless[0]));
        visible_binders(program, hole, &mut self.in_sight, &mut visible);
        let around = self.effects.around(program, hole);
        harmless_bindings(&around, &visible, info.access, &mut bindings);
        let fitting = fitting_bindings(
            spec,
            &bindings,
            info.access,
            candidate,
            hole,
            program.typing.as_mut(),
            false,
        );
        (self.visible, self.harmless[0]) = (visible, bindings);
        let weights: Vec<u32> = fitting.iter().map(|_| 3).chain([1]).collect();
        let typing = program.typing.as_mut().expect("a typed reference");
        let Some(binding_type) = random
            .weighted(&weights)
            .and_then(|i| fitting.get(i))
            .and_then(|binder| typing.types[binder.index()].clone())
        else {
            return;
        };
        let store = &mut typing.store;
        let snapshot = store.snapshot();
        match store.unify(ty, &binding_type) {
            Ok(()) => store.commit(snapshot),
            Err(_) => store.rollback(snapshot),
        }
    }

    /// Concretizes the type of the `shared` hole, and keeps it if
    /// `candidate` can still fill the hole and something can still fill
    /// each of the holes still to fill that share it (its sharers: a
    /// dictionary's type decided for its literal must leave a value its
    /// `DictSet` can make).
    fn try_concretizing(
        &mut self,
        program: &mut Program,
        shared: &SharedHole,
        candidate: ProdId,
        random: &mut Random,
    ) -> bool {
        let (hole, ty) = (shared.node, &shared.ty);
        let max_depth = self.options.type_max_depth;
        let store = &mut program.typing.as_mut().expect("a typed hole").store;
        let snapshot = store.snapshot();
        let structures_before = structures(&store.zonk(ty));
        let concretized = store.concretize_plain(ty, random, max_depth);
        // A variable bounded by a record can still come out one; and a type
        // whose head the hole's productions can make may hold one nothing
        // makes (an array of a dictionary's values with arrays switched off).
        if concretized.map_or(true, |t| structures(&t) > structures_before || !store.producible(&t)) {
            store.rollback(snapshot);
            return false;
        }
        let fillable = self.would_offer(program, hole, Some(candidate))
            && (shared.sharers.iter()).all(|&other| self.would_offer(program, other, None));
        let store = &mut program.typing.as_mut().expect("a typed hole").store;
        match fillable {
            true => store.commit(snapshot),
            false => store.rollback(snapshot),
        }
        fillable
    }

    /// Marks `node` as being made: it is finished once the holes its
    /// construction pushes are filled (see [`finish_nodes`](Generator::finish_nodes)).
    pub(super) fn start_node(&self, program: &mut Program, node: NodeId) {
        let floor = program.pending_holes.len();
        program.unfinished.push((node, floor));
    }

    /// Finishes the nodes whose subtrees are complete, innermost first:
    /// concretizes what their types still leave open, notes where their
    /// spans end, and ends a splice whose subtree this finishes.
    pub(super) fn finish_nodes(&self, program: &mut Program, random: &mut Random) -> Result<(), GenerateError> {
        while let Some(&(node, floor)) = program.unfinished.last() {
            if program.pending_holes.len() > floor {
                break;
            }
            program.unfinished.pop();
            if self.local_choices {
                self.draw_type_seed(program, node, random);
                self.finish_node(program, node)?;
            }
            // The end of the node's span: past its own subtree's choices,
            // those of the definitions lifted from inside it too.
            program.note_finish_choices(node, random.drawn());
            if program.splice_root == Some(node) {
                program.splice_root = None;
                random.end_splice();
            }
        }
        Ok(())
    }

    /// Draws the seed that concretizes what the type of finished `node`
    /// leaves open, if its production's node type can leave anything open
    /// (is not one ground type): one choice, however much is open, so
    /// that the choices after it stay where they were when the subtree
    /// changes what it leaves open.
    fn draw_type_seed(&self, program: &mut Program, node: NodeId, random: &mut Random) {
        if program.typing.is_none() {
            return;
        }
        let production = program.node(node).production;
        if matches!(self.spec.node_type_shape(production), Some(NodeTypeShape::Ground(_))) {
            return;
        }
        if random.anchoring() {
            if let Some(path) = program.path(node) {
                random.anchor_type_seed(&path);
            }
        }
        program.note_type_seed(node, random.drawn());
        program.type_seeds[node.index()] = random.next_u64();
    }

    /// Concretizes what the type of finished `node` still leaves open, at
    /// random from its type seed.
    fn finish_node(&self, program: &mut Program, node: NodeId) -> Result<(), GenerateError> {
        let Some(typing) = &mut program.typing else {
            return Ok(());
        };
        let Some(ty) = typing.types[node.index()].clone() else {
            return Ok(());
        };
        // A record or product still open stays so until the whole tree is
        // made (see `make_types_ground`): made ground here, it would be a
        // ground record type that later holes must fill, past any depth
        // bound, with field reads of record literals without end. A type a
        // hole still to fill shares waits for that hole.
        if typing.store.is_ground(&ty) || invents_structures(&typing.store, &ty) || awaited(program, &ty) {
            return Ok(());
        }
        let mut local = local_source(program.type_seeds[node.index()]);
        let typing = program.typing.as_mut().expect("checked above");
        let structures_before = structures(&typing.store.zonk(&ty));
        let snapshot = typing.store.snapshot();
        match typing
            .store
            .concretize_plain(&ty, &mut local, self.options.type_max_depth)
        {
            Ok(t) if structures(&t) > structures_before || !typing.store.producible(&t) => {
                // A variable bounded by a record came out one: it waits for
                // the end, as records do. So does one that came out a type
                // no value can be made of (an empty dictionary's values when
                // every type they may have is switched off): a later hole of
                // that type could not be filled.
                typing.store.rollback(snapshot);
            }
            Ok(_) => typing.store.commit(snapshot),
            Err(e) => {
                typing.store.rollback(snapshot);
                return Err(GenerateError::Type {
                    production: self.spec.production(program.node(node).production).name().to_string(),
                    message: e.to_string(),
                    at: Whereabouts::of(self.spec, program, node),
                });
            }
        }
        Ok(())
    }
}

/// A hole whose open type its parent's type or a sibling's shares.
struct SharedHole {
    /// The hole.
    node: NodeId,
    /// Its type.
    ty: Type,
    /// The holes still to fill, other than this one, whose types share a
    /// variable of it.
    sharers: Vec<NodeId>,
}

/// Whether the open type `ty` of the hole at `hole` has a variable that its
/// parent's type or a sibling's mentions, or one that subtyping relates to
/// such a variable (a child typed `subtype_of` its parent's field type).
///
/// A sibling whose type has no variable left (most are finished, and keep
/// their ground type: see [`Typing::ground`]) is passed over at a glance:
/// a hole in a list of hundreds of statements need not look at their types.
fn shares_type(program: &mut Program, hole: NodeId, ty: &Type) -> bool {
    let Some(parent) = program.node(hole).parent else {
        return false;
    };
    let own = OpenVariables::of_related(program, ty);
    let typing = program.typing.as_mut().expect("a typed program");
    own.mentioned_by(typing, parent)
        || program
            .tree
            .children(parent)
            .any(|sibling| sibling != hole && typing.ground(sibling).is_none() && own.mentioned_by(typing, sibling))
}

/// A source of choices of its own for a decision that takes a varying
/// number of them, from one choice `seed`: seeded by it, or, for a seed of
/// 0 (the smallest choice, which a reducer's smallest version of a
/// subtree draws), one that gives the smallest choice every time, so that
/// the decision comes out as the smallest one too.
pub(super) fn local_source(seed: u64) -> Random {
    match seed {
        0 => Random::from_bytes(Vec::new()),
        seed => Random::from_seed(seed),
    }
}

/// The holes still to fill, other than `hole`, whose types share a
/// variable of `ty`.
fn sharing_holes(program: &Program, hole: NodeId, ty: &Type) -> Vec<NodeId> {
    let own = OpenVariables::of_related(program, ty);
    let typing = program.typing.as_ref().expect("a typed program");
    (program.pending_holes.iter().copied())
        .filter(|&other| other != hole && own.mentioned_by(typing, other))
        .collect()
}

/// Whether a hole still to fill shares a variable of `ty`: the hole's
/// productions decide it (a lambda's parameter types, which the call's
/// arguments after it must be able to make).
fn awaited(program: &Program, ty: &Type) -> bool {
    let own = OpenVariables::of(program, ty);
    let typing = program.typing.as_ref().expect("a typed program");
    (program.pending_holes.iter()).any(|&hole| own.mentioned_by(typing, hole))
}

/// The open variables of a type (see [`variables`]), to ask which other
/// nodes' types mention one of them.
struct OpenVariables(Vec<TypeVar>);

impl OpenVariables {
    /// The open variables of `ty`, a type of typed `program`.
    fn of(program: &Program, ty: &Type) -> OpenVariables {
        let mut own = Vec::new();
        variables(&program.typing.as_ref().expect("a typed program").store, ty, &mut own);
        OpenVariables(own)
    }

    /// The open variables of `ty` and those that subtyping relates to
    /// them: a hole whose type must be a subtype of its parent's field
    /// type decides that field type too.
    fn of_related(program: &Program, ty: &Type) -> OpenVariables {
        let store = &program.typing.as_ref().expect("a typed program").store;
        let mut own = Vec::new();
        variables(store, ty, &mut own);
        let mut related = Vec::new();
        for &v in &own {
            related.extend(store.related_variables(v).into_iter().filter(|r| !own.contains(r)));
        }
        own.extend(related);
        OpenVariables(own)
    }

    /// Whether the type of `node` has one of them.
    fn mentioned_by(&self, typing: &Typing, node: NodeId) -> bool {
        let Some(other_type) = &typing.types[node.index()] else {
            return false;
        };
        let mut theirs = smallvec::SmallVec::<[TypeVar; 8]>::new();
        variables(&typing.store, other_type, &mut theirs);
        theirs
            .iter()
            .any(|&v| self.0.iter().any(|&u| typing.store.same_variable(u, v)))
    }
}

/// The open variables of `ty`, as the store resolves them, and those of
/// the fields an open record must have.
fn variables(store: &TypeStore, ty: &Type, out: &mut impl Extend<TypeVar>) {
    match store.resolve_ref(ty) {
        Err(v) => {
            out.extend([v]);
            if let Domain::RecordAtLeast(fields) = store.domain(v) {
                for (_, field) in fields.iter() {
                    variables(store, field, out);
                }
            }
        }
        Ok(composite) => {
            composite.all_parts(|part| {
                variables(store, part, out);
                true
            });
        }
    }
}

/// Whether concretizing `ty` would invent a record or a product.
fn invents_structures(store: &TypeStore, ty: &Type) -> bool {
    let mut open = Vec::new();
    variables(store, ty, &mut open);
    open.iter()
        .any(|&v| matches!(store.domain(v), Domain::RecordAtLeast(_) | Domain::AnyProduct))
}

/// How many structural records and products (other than a function's
/// parameters) `ty` holds.
fn structures(ty: &Type) -> usize {
    match ty {
        Type::Function(parts) => structures(&parts.1) + parts.0.parts().iter().map(|p| structures(p)).sum::<usize>(),
        _ => {
            usize::from(matches!(ty, Type::Record(_) | Type::Product(_)))
                + ty.parts().iter().map(|p| structures(p)).sum::<usize>()
        }
    }
}
