//! Choosing the production that fills a hole: the candidates are the
//! concrete productions of the hole's node type, and each filter stage
//! below drops some, in this order (cheapest and most decisive first):
//!
//! 1. [`switched_on`](Generator::offer_switched_on): enabled under the
//!    options, passing every user `choice_filters`, and not left out by
//!    a way back to this hole ([`backtrack`](super::backtrack));
//! 2. [`effects`](Generator::drop_effect_conflicts): no conflict between
//!    what the production is known to do before it is made and what its
//!    unordered siblings (and its ancestors') do;
//! 3. [`types`](Generator::drop_type_mismatches): its node type can be the
//!    type the hole requires (told from its shape, else by a trial
//!    unification that is rolled back);
//! 4. [`references`](Generator::drop_unsettleable_references): a reference
//!    has a visible binder that fits, or a definition can be lifted for it;
//! 5. [`depth`](Generator::keep_soonest_finishing): past `--max-depth`,
//!    only the choices that finish soonest.
//!
//! With local choices the survivors are then ordered simplest first
//! ([`order_simplest_first`](Generator::order_simplest_first)), so that a
//! draw of 0 picks a literal, and the smallest one.
//!
//! The survivors are weighed (`choice_weight`), steered towards new
//! k-paths under `--cover` ([`cover`](super::cover)), and one is drawn.
//! With local choices the draw comes first instead, from the hole's
//! stable list, and the stages run on the production drawn alone
//! ([`draw`](super::draw)); on every candidate only when that one fails.

use super::inhabitation::Finish;
use super::references::{
    drop_refused_bindings, fitting_bindings, harmless_bindings, harmless_lift_sites, nearest_lift_finish,
};
use super::{GenerateError, Generator, Whereabouts};
use crate::effects::Around;
use crate::grammar::{ProdId, NEVER};
use crate::hooks::{Hole, Place};
use crate::names::{visible_binders, LiftSite};
use crate::program::Program;
use crate::properties::Weight;
use crate::random::Random;
use crate::scopes::Access;
use crate::spec::Spec;
use crate::tree::NodeId;
use crate::types::heads::{HeadSet, ALL_HEADS};

impl<'s> Generator<'s> {
    /// The production that fills the hole at `node`, drawn from `random`
    /// among those that pass every filter stage.
    pub(super) fn choose(
        &mut self,
        program: &mut Program,
        node: NodeId,
        random: &mut Random,
    ) -> Result<ProdId, GenerateError> {
        if self.local_choices {
            return self.draw_production(program, node, random);
        }
        self.offer_candidates(program, node);
        self.pick(program, node, random)
    }

    /// Runs every filter stage for the hole at `node`: `self.choices` holds
    /// the productions that may fill it.
    pub(super) fn offer_candidates(&mut self, program: &mut Program, node: NodeId) {
        self.offer_switched_on(program, node);
        self.drop_unfit(program, node);
        self.order_simplest_first();
    }

    /// Whether [`offer_candidates`](Generator::offer_candidates) would
    /// offer `candidate` for the hole at `node` (`Some`), or anything at
    /// all (`None`), told with less work: stages 2 to 4 judge each choice
    /// on its own (what `around` and the references' bindings are does not
    /// depend on the other choices), so they run on `candidate` alone, or
    /// on one choice after another until one passes (the depth stage
    /// never empties a set). Past the bounds, where whether `candidate`
    /// finishes soonest depends on the others, the candidates that finish
    /// soonest are found as a hole's own draw finds them when its stable
    /// list fails ([`offer_soonest_candidates`](Generator::offer_soonest_candidates)):
    /// those that could finish soonest, each checked alone. `self.choices`
    /// is left meaningless.
    pub(super) fn would_offer(&mut self, program: &mut Program, node: NodeId, candidate: Option<ProdId>) -> bool {
        match candidate {
            Some(candidate) if !self.switched_on(program, node, candidate) => false,
            Some(candidate) if self.past_bounds(program, node) => {
                // The candidates that finish soonest, each checked alone.
                self.offer_soonest_candidates(program, node);
                self.choices.contains(&candidate)
            }
            Some(candidate) => {
                self.choices.clear();
                self.choices.push(candidate);
                self.drop_unfit(program, node);
                !self.choices.is_empty()
            }
            None => {
                // The productions that may have the type's heads (and fit
                // a ground type), simplest first: a literal, which passes
                // where most others fail, is checked before them.
                self.stable_order(program, node, false);
                let list = std::mem::take(&mut self.stable);
                let any = list.iter().any(|&choice| self.offers_alone(program, node, choice));
                self.stable = list;
                any
            }
        }
    }

    /// Whether stage 1 offers `candidate` for the hole at `node` (see
    /// [`offer_switched_on`](Generator::offer_switched_on)).
    fn switched_on(&self, program: &Program, node: NodeId, candidate: ProdId) -> bool {
        self.enabled[candidate.index()]
            && !self.left_out(node, candidate)
            && self.spec.fillers(program.node(node).production).contains(&candidate)
            && self.accepts(program, node, candidate)
    }

    /// Whether a way back to the hole at `node` left `candidate` out (see
    /// [`backtrack`](super::backtrack)).
    pub(super) fn left_out(&self, node: NodeId, candidate: ProdId) -> bool {
        self.excluded_hole == Some(node) && self.excluded.contains(&candidate)
    }

    /// Stages 2 to 5 on `self.choices`, for the hole at `node`.
    fn drop_unfit(&mut self, program: &mut Program, node: NodeId) {
        self.hole_heads = self.heads_of_node(program, node);
        self.drop_unfit_at_heads(program, node, false);
    }

    /// Stages 2 to 5 on `self.choices`, for the hole at `node` whose
    /// type's heads `self.hole_heads` already holds; stage 3, the type's,
    /// is left out when the choices are known to fit it (`types_fit`).
    pub(super) fn drop_unfit_at_heads(&mut self, program: &mut Program, node: NodeId, types_fit: bool) {
        let needs_around = self.choices.iter().any(|&c| self.effects.may_have_effects(c));
        let around = match needs_around {
            true => self.effects.around(program, node),
            false => Around::default(),
        };
        self.drop_effect_conflicts(&around);
        if !types_fit {
            self.drop_type_mismatches(program, node);
        }
        self.drop_uninhabited();
        self.drop_unsettleable_references(program, node, &around);
        self.keep_soonest_finishing(self.past_bounds(program, node));
    }

    /// Weighs the offered choices (`self.choices`) for the hole at `node`
    /// into `self.weights`.
    pub(super) fn weigh_candidates(&mut self, program: &Program, node: NodeId) {
        weigh(self.spec, &self.choices, &self.hole(program, node), &mut self.weights);
    }

    /// The hole at `node` as filters and weights see it.
    pub(super) fn hole<'a>(&self, program: &'a Program, node: NodeId) -> Hole<'a>
    where
        's: 'a,
    {
        Hole {
            grammar: self.spec.grammar(),
            program,
            place: Place::Node(node),
            max_depth: self.options.max_depth,
        }
    }

    /// Stage 1: the candidates that are switched on and pass their user
    /// filters.
    fn offer_switched_on(&mut self, program: &Program, node: NodeId) {
        let spec = self.spec;
        let hole = self.hole(program, node);
        self.choices.clear();
        // A way back to this hole left out the productions it had.
        let excluded: &[ProdId] = match self.excluded_hole == Some(node) {
            true => &self.excluded,
            false => &[],
        };
        for &candidate in spec.fillers(program.node(node).production) {
            if self.enabled[candidate.index()]
                && !excluded.contains(&candidate)
                && filters_accept(spec, candidate, &hole)
            {
                self.choices.push(candidate);
            }
        }
    }

    /// Whether every user filter of `candidate` accepts the hole at `node`.
    pub(super) fn accepts(&self, program: &Program, node: NodeId, candidate: ProdId) -> bool {
        filters_accept(self.spec, candidate, &self.hole(program, node))
    }

    /// The productions switched on for the hole at `node` whose user
    /// filters refuse it, by name.
    fn refusing_filters(&self, program: &Program, node: NodeId) -> Vec<String> {
        let spec = self.spec;
        let hole = self.hole(program, node);
        (spec.fillers(program.node(node).production).iter())
            .filter(|&&p| self.enabled[p.index()] && !filters_accept(spec, p, &hole))
            .map(|&p| spec.production(p).name().to_string())
            .collect()
    }

    /// Stage 2: drops the choices whose own effects conflict with what
    /// happens `around` the hole.
    fn drop_effect_conflicts(&mut self, around: &Around) {
        if around.is_empty() {
            return;
        }
        let effects = &self.effects;
        self.choices
            .retain(|&choice| !around.conflicts(effects.before_made(choice)));
    }

    /// Stage 3: in a typed program, drops the choices whose node type cannot
    /// be the type the hole requires.
    fn drop_type_mismatches(&mut self, program: &mut Program, node: NodeId) {
        let Some(typing) = &mut program.typing else {
            return;
        };
        let spec = self.spec;
        let required = typing.types[node.index()]
            .clone()
            .expect("every hole of a typed program has a type");
        let resolved = typing.store.resolve(&required);
        // Ground at the top, or once its variables are replaced (the
        // parts of `dict<?5>` with `?5` bound to `int`).
        let ground = match resolved.is_ground_term() {
            true => Some(resolved.clone()),
            false => typing.store.grounded(&required),
        };
        if let Some(ground) = ground {
            let node_type = program.tree.node(node).production;
            let fits = self.ground_fits.fitting(spec, node_type, ground, &mut typing.store);
            self.choices.retain(|&choice| fits[choice.index()]);
            return;
        }
        self.choices.retain(|&choice| {
            let shape = spec.node_type_shape(choice).expect("assembly checks type_info");
            if let Some(fits) = shape.fits(&resolved, &typing.store) {
                return fits;
            }
            let info = spec.type_info(choice);
            typing.store.trial(|store| {
                let ty = (info.node_type)(store);
                store.unify(&ty, &required)
            })
        });
    }

    /// Stage 3b: in a typed program, drops the choices that cannot finish a
    /// subtree of the hole's type with the productions switched on (a
    /// reference may still read a visible variable: it is dropped only when
    /// its own children cannot be made).
    fn drop_uninhabited(&mut self) {
        if self.inhabitation.is_some() {
            let mut choices = std::mem::take(&mut self.choices);
            choices.retain(|&choice| self.inhabited(choice));
            self.choices = choices;
        }
    }

    /// Whether `choice` can finish a subtree whose type may take the
    /// current hole's heads (stage 3b on one choice; always in an untyped
    /// program).
    pub(super) fn inhabited(&self, choice: ProdId) -> bool {
        let Some(inhabitation) = &self.inhabitation else {
            return true;
        };
        let lifted = self.spec.properties(choice).reference_info.is_none();
        inhabitation.height(choice, self.hole_heads, lifted) != NEVER
    }

    /// The heads the type of the node at `node` may take (every head in an
    /// untyped program).
    pub(super) fn heads_of_node(&self, program: &Program, node: NodeId) -> HeadSet {
        match (&self.inhabitation, &program.typing) {
            (Some(inhabitation), Some(typing)) => match &typing.types[node.index()] {
                Some(ty) => inhabitation.possible_heads(&typing.store, ty),
                None => ALL_HEADS,
            },
            _ => ALL_HEADS,
        }
    }

    /// Whether a subtree of node type `node_type` can be finished with the
    /// productions switched on (of some type, in a typed spec).
    pub(super) fn can_make(&self, node_type: ProdId) -> bool {
        match &self.inhabitation {
            Some(inhabitation) => inhabitation.type_height(node_type, ALL_HEADS) != NEVER,
            // Switched-off productions have no finishing height.
            None => self.spec.grammar().type_height(&self.heights, node_type) != NEVER,
        }
    }

    /// How soon definition `definition`, lifted for a reference whose type
    /// may take the heads `heads`, finishes.
    pub(super) fn lift_finish(&self, definition: ProdId, heads: HeadSet) -> Finish {
        match &self.inhabitation {
            Some(inhabitation) => inhabitation.finish(definition, heads, true),
            None => Finish::untyped(self.lift_heights[definition.index()]),
        }
    }

    /// Stage 4: drops the references that no visible binder fits (without
    /// an effect conflict) and that lifting cannot settle; notes those only
    /// lifting can settle, with the height they finish at.
    fn drop_unsettleable_references(&mut self, program: &mut Program, node: NodeId, around: &Around) {
        let spec = self.spec;
        self.only_by_lifting.clear();
        if !self
            .choices
            .iter()
            .any(|&c| spec.properties(c).reference_info.is_some())
        {
            return;
        }
        let mut visible = std::mem::take(&mut self.visible);
        visible_binders(program, node, &mut self.in_sight, &mut visible);
        // Per access (read, write), computed when a reference first needs
        // them: the bindings it may take, and where a definition may be
        // lifted for it (only when none fits).
        let mut harmless = std::mem::take(&mut self.harmless);
        let mut gathered = [false, false];
        // The bindings a reference with binding filters may take.
        let mut admitted = Vec::new();
        let mut sites: [Option<Vec<LiftSite>>; 2] = [None, None];
        let max_depth = self.options.max_depth;
        let heads = self.hole_heads;
        let mut only_by_lifting = std::mem::take(&mut self.only_by_lifting);
        // The kept choices go to the spare buffer, and the two swap: both
        // keep their capacity for the next hole.
        let choices = std::mem::take(&mut self.choices);
        let mut kept = std::mem::take(&mut self.spare_choices);
        kept.clear();
        let mut ground_fits = std::mem::take(&mut self.ground_fits);
        let lift_finish = |d: &ProdId| self.lift_finish(*d, heads);
        for &choice in &choices {
            let Some(info) = &spec.properties(choice).reference_info else {
                kept.push(choice);
                continue;
            };
            let access = usize::from(info.access == Access::Write);
            let fits = match spec.properties(choice).binding_filters.is_empty() {
                // Looked at only until one fits: most of hundreds of
                // binders in sight are never asked about conflicts.
                true if around.is_empty() => {
                    fitting_bindings(spec, &visible, info.access, choice, node, program.typing.as_mut(), true)
                }
                true => {
                    let harmless =
                        (visible.iter()).filter(|seen| !around.conflicts_with_access(seen.binder, info.access));
                    fitting_bindings(spec, harmless, info.access, choice, node, program.typing.as_mut(), true)
                }
                false => {
                    if !gathered[access] {
                        harmless_bindings(around, &visible, info.access, &mut harmless[access]);
                        gathered[access] = true;
                    }
                    admitted.clear();
                    admitted.extend_from_slice(&harmless[access]);
                    drop_refused_bindings(spec, choice, &self.hole(program, node), &mut admitted);
                    fitting_bindings(
                        spec,
                        &admitted,
                        info.access,
                        choice,
                        node,
                        program.typing.as_mut(),
                        true,
                    )
                }
            };
            if !fits.is_empty() {
                kept.push(choice);
                continue;
            }
            let sites = sites[access].get_or_insert_with(|| {
                harmless_lift_sites(around, spec, &self.liftable, program, node, info.access, max_depth)
            });
            // Only definitions of a type that can be made; a reference
            // that only lifting can settle finishes once the soonest new
            // definition does, a step later.
            let makeable = |d: ProdId| Some(lift_finish(&d)).filter(|f| f.is_possible());
            if let Some(finish) = nearest_lift_finish(
                spec,
                sites,
                choice,
                node,
                program.typing.as_mut(),
                &mut ground_fits,
                makeable,
            ) {
                only_by_lifting.push((choice, finish.then_one_more()));
                kept.push(choice);
            }
        }
        self.only_by_lifting = only_by_lifting;
        self.ground_fits = ground_fits;
        self.visible = visible;
        self.harmless = harmless;
        self.spare_choices = choices;
        self.choices = kept;
    }

    /// Stage 5: past the depth bound (or `--size`), keeps only the choices
    /// that finish soonest (see [`Finish`]).
    fn keep_soonest_finishing(&mut self, past_bounds: bool) {
        // One choice finishes soonest of one.
        if !past_bounds || self.choices.len() < 2 {
            return;
        }
        let finishes: smallvec::SmallVec<[Finish; 32]> = self.choices.iter().map(|&c| self.finish_of(c)).collect();
        if let Some(&least) = finishes.iter().min() {
            let mut finish = finishes.iter();
            self.choices
                .retain(|_| *finish.next().expect("a finish per choice") == least);
        }
    }

    /// Stage 6, with local choices: orders the choices simplest first, so
    /// that the first draw of a choice (a draw of 0, as a reducer's
    /// smallest version of a subtree draws) picks the simplest: first those
    /// that neither bind nor reference a variable (a literal rather than a
    /// variable that may have to be lifted: no new definition, and no
    /// variable for later references to pick up), then those that finish
    /// soonest. The order changes which draw picks which choice, never how
    /// likely each is.
    fn order_simplest_first(&mut self) {
        if !self.local_choices {
            return;
        }
        let mut choices = std::mem::take(&mut self.choices);
        choices.sort_by_cached_key(|&c| self.simplicity(c));
        self.choices = choices;
    }

    /// How simple the current hole's choice `choice` is, least first (see
    /// [`order_simplest_first`](Generator::order_simplest_first)).
    pub(super) fn simplicity(&self, choice: ProdId) -> (bool, Finish) {
        let properties = self.spec.properties(choice);
        let names = properties.binder_info.is_some() || properties.reference_info.is_some();
        (names, self.own_finish(choice))
    }

    /// How soon the hole's choice `choice` finishes (see [`Finish`]): for
    /// the hole's type, in a typed program; a reference that only lifting
    /// can settle a step after the definition it lifts, one that reads a
    /// visible variable lifting nothing.
    pub(super) fn finish_of(&self, choice: ProdId) -> Finish {
        match self.only_by_lifting.iter().find(|(c, _)| *c == choice) {
            Some(&(_, finish)) => finish,
            None => self.own_finish(choice),
        }
    }

    /// How soon the hole's choice `choice` finishes in itself, whatever is
    /// in sight: a reference as if it read a visible variable.
    pub(super) fn own_finish(&self, choice: ProdId) -> Finish {
        match &self.inhabitation {
            Some(inhabitation) => inhabitation.finish(
                choice,
                self.hole_heads,
                self.spec.properties(choice).reference_info.is_none(),
            ),
            None => Finish::untyped(self.heights[choice.index()]),
        }
    }

    /// Weighs the surviving choices and draws one, logging what was offered
    /// and chosen.
    pub(super) fn pick(
        &mut self,
        program: &Program,
        node: NodeId,
        random: &mut Random,
    ) -> Result<ProdId, GenerateError> {
        let spec = self.spec;
        self.weigh_candidates(program, node);
        let hole = self.hole(program, node);
        let steered = (self.cover.as_ref()).and_then(|cover| cover.steer(program, node, &self.choices, &self.weights));
        let picked = match &steered {
            Some(steered) => random.weighted_steered(&self.weights, steered),
            None => random.weighted(&self.weights),
        };
        let Some(picked) = picked else {
            self.failed_hole = Some(node);
            return Err(GenerateError::NoChoice {
                node_type: spec.production(hole.node_type()).name().to_string(),
                depth: hole.depth(),
                required_type: program.typing.as_ref().and_then(|typing| {
                    let ty = typing.store.zonk(typing.types[node.index()].as_ref()?);
                    Some(typing.store.system().display(&ty).to_string())
                }),
                at: Whereabouts::of(spec, program, node),
                refused_by: self.refusing_filters(program, node),
                backtracks: 0,
            });
        };
        if self.count_offers {
            for &choice in &self.choices {
                self.log.offer(choice);
            }
        }
        let chosen = self.choices[picked];
        self.log.choose(chosen);
        if let Some(cover) = &mut self.cover {
            cover.note(program, node, chosen);
        }
        Ok(chosen)
    }
}

/// The weights (`choice_weight`) of `choices` for `hole`, into `weights`.
pub(super) fn weigh(spec: &Spec, choices: &[ProdId], hole: &Hole, weights: &mut Vec<u32>) {
    weights.clear();
    weights.extend(choices.iter().map(|&choice| match &spec.properties(choice).weight {
        Weight::Constant(w) => *w,
        Weight::Dynamic(f) => f(hole),
    }));
}

/// Whether every user choice filter of `production` accepts `hole`.
fn filters_accept(spec: &Spec, production: ProdId, hole: &Hole) -> bool {
    spec.properties(production).filters.iter().all(|f| (f.0)(hole))
}
