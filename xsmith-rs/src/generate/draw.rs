//! Drawing a hole's production so that a drawn value keeps its meaning in
//! any context, and checking the one production drawn rather than every
//! candidate.
//!
//! A draw among the productions that pass every filter (`choose`) gives a
//! value whose meaning depends on what passed: a variable more in sight, a
//! function fewer before the hole, and the same value picks another
//! production, also at holes whose own production did pass. A replayed
//! span (a reducer's splice, a subtree moved or borrowed) then changes
//! far more than the context forces. So, with local choices, the
//! production is drawn from the hole's *stable list* and checked alone:
//!
//! 1. the stable list holds the productions switched on that can make the
//!    hole's type, known from the hole's node type and type alone (those
//!    whose inhabitation allows the type's heads, and for a ground type
//!    those whose node type fits it), ordered simplest first as `choose`
//!    orders its candidates; past the size or depth bound, only those of
//!    them that finish soonest in themselves;
//! 2. one is drawn by weight and run through the filters that depend on
//!    the context (user filters, effects, an open type's unification,
//!    references, a way back that left it out; past the bounds, a
//!    reference that would have to lift a definition finishes later and
//!    fails); one that fails is taken out of the list and another drawn,
//!    until one passes;
//! 3. when none is left, one draw among the candidates `choose` offers
//!    (past the bounds: when every candidate that finishes soonest
//!    finishes later than the stable list's soonest; else there is none,
//!    and the hole is an error).
//!
//! A production that passes is then picked by the same values whatever
//! else the context offers, and as often as one draw among the candidates
//! picks it: drawing again without what failed is rejection sampling,
//! which gives each production that passes its weight's share of all that
//! pass. Past the bounds the same holds: when some candidate finishes as
//! soon as the stable list's soonest, the candidates kept (those that
//! finish soonest) are exactly the stable list's productions that pass;
//! when none does, every draw from the list fails and the last draw is
//! among the candidates kept. A draw of zero picks the simplest that
//! passes, as a draw of zero among the candidates did. Checking the
//! productions drawn, one at a time, costs less than checking every
//! candidate, which a hole does only in step 3 (past the bounds, only
//! until what is left cannot finish as soon as one that passed), or when
//! `--log-choices` counts offers, or `--cover` steers.

use std::sync::Arc;

use rustc_hash::FxHashMap;
use smallvec::SmallVec;

use super::choose::weigh;
use super::inhabitation::Finish;
use super::{GenerateError, Generator};
use crate::grammar::ProdId;
use crate::program::Program;
use crate::random::Random;
use crate::tree::NodeId;
use crate::types::heads::HeadSet;

/// How many pairs of a node type and heads are remembered before the
/// memory starts over.
const CAPACITY: usize = 4096;

/// For pairs of a hole's node type and the heads its type may take: the
/// productions switched on that may fill it, simplest first.
#[derive(Default)]
pub(super) struct StableOrders {
    orders: FxHashMap<(ProdId, HeadSet), Arc<StableOrder>>,
}

/// The productions switched on that may fill a hole of some node type
/// whose type may take some heads.
pub(super) struct StableOrder {
    /// All of them, simplest first.
    all: Vec<ProdId>,
    /// All of them, soonest finishing in themselves first (simplest first
    /// among those that finish as soon).
    by_own_finish: Vec<(Finish, ProdId)>,
    /// Those that finish soonest in themselves, in the same order.
    soonest: Vec<ProdId>,
    /// How soon those finish.
    soonest_finish: Option<Finish>,
}

impl Generator<'_> {
    /// Draws the production that fills the hole at `node` from its stable
    /// list (see the module's documentation).
    pub(super) fn draw_production(
        &mut self,
        program: &mut Program,
        node: NodeId,
        random: &mut Random,
    ) -> Result<ProdId, GenerateError> {
        let past_bounds = self.past_bounds(program, node);
        let soonest_finish = self.stable_list(program, node, past_bounds);
        // Every candidate, when offers are counted or steering needs them.
        let every = self.count_offers || self.cover.is_some();
        if every {
            self.offer_candidates(program, node);
        }
        let mut steered = match self.cover.is_some() {
            true => self.steered_stable_weights(program, node),
            false => None,
        };
        // An anchored replay keeps the production the node in this place
        // had, while it passes (see `xsmith::Anchors`).
        if let Some((kept, resume)) = self.kept_production(program, node, random) {
            if self.stable_entry_passes(program, node, self.stable[kept], every, past_bounds, soonest_finish) {
                random.weighted_keeping(&self.stable_weights, kept, resume);
                return Ok(self.drawn(program, node, kept));
            }
        }
        // Drawn from the stable list without the productions that failed,
        // until one passes.
        loop {
            let drawn = match &steered {
                Some(steered) => random.weighted_steered(&self.stable_weights, steered),
                None => random.weighted(&self.stable_weights),
            };
            let Some(drawn) = drawn else {
                break;
            };
            if self.stable_entry_passes(program, node, self.stable[drawn], every, past_bounds, soonest_finish) {
                return Ok(self.drawn(program, node, drawn));
            }
            self.stable_weights[drawn] = 0;
            if let Some(steered) = &mut steered {
                steered[drawn] = 0;
            }
        }
        match (every, past_bounds) {
            (true, _) => {}
            (false, true) => self.offer_soonest_candidates(program, node),
            (false, false) => self.offer_candidates(program, node),
        }
        self.pick(program, node, random)
    }

    /// Whether `candidate`, a production of the hole's stable list,
    /// passes: it is offered (among `self.choices` when `every` candidate
    /// was offered, else checked alone) and, `past_bounds`, finishes as
    /// soon as the stable list's soonest (a reference that would lift
    /// finishes later: `only_by_lifting` holds it after either check).
    pub(super) fn stable_entry_passes(
        &mut self,
        program: &mut Program,
        node: NodeId,
        candidate: ProdId,
        every: bool,
        past_bounds: bool,
        soonest_finish: Option<Finish>,
    ) -> bool {
        let offered = match every {
            true => self.choices.contains(&candidate),
            false => self.offers_alone(program, node, candidate),
        };
        offered && (!past_bounds || Some(self.finish_of(candidate)) == soonest_finish)
    }

    /// Notes that the hole at `node` takes the `index`-th production of
    /// its stable list, which passed; returns it.
    fn drawn(&mut self, program: &Program, node: NodeId, index: usize) -> ProdId {
        let candidate = self.stable[index];
        if self.count_offers {
            for &choice in &self.choices {
                self.log.offer(choice);
            }
        }
        self.log.choose(candidate);
        if let Some(cover) = &mut self.cover {
            cover.note(program, node, candidate);
        }
        candidate
    }

    /// In an anchored replay, the place in the stable list of the
    /// production the node in this hole's place had in the original
    /// program, if it is there with a weight, and where the draws of it
    /// ended there.
    fn kept_production(&self, program: &Program, node: NodeId, random: &Random) -> Option<(usize, usize)> {
        if !random.anchoring() {
            return None;
        }
        let (original, resume) = random.anchored_production(&program.path(node)?)?;
        let index = self.stable.iter().position(|p| p.0 == original)?;
        (self.stable_weights[index] > 0).then_some((index, resume))
    }

    /// Fills `self.stable` with the hole's stable list (past the bounds:
    /// its productions that finish soonest) and `self.stable_weights` with
    /// their weights; returns how soon the soonest finish.
    pub(super) fn stable_list(&mut self, program: &mut Program, node: NodeId, past_bounds: bool) -> Option<Finish> {
        let soonest_finish = self.stable_order(program, node, past_bounds).soonest_finish;
        weigh(
            self.spec,
            &self.stable,
            &self.hole(program, node),
            &mut self.stable_weights,
        );
        soonest_finish
    }

    /// Fills `self.stable` with the hole's stable list (past the bounds:
    /// its productions that finish soonest), unweighed; returns the order
    /// it was taken from (how soon the soonest finish, among the rest).
    pub(super) fn stable_order(&mut self, program: &mut Program, node: NodeId, past_bounds: bool) -> Arc<StableOrder> {
        let spec = self.spec;
        let node_type = program.node(node).production;
        self.hole_heads = self.heads_of_node(program, node);
        let key = (node_type, self.hole_heads);
        // Shared, so that one lookup finds it and leaves `self` free.
        let known = self.stable_orders.orders.get(&key).map(Arc::clone);
        let stable_order = known.unwrap_or_else(|| {
            if self.stable_orders.orders.len() >= CAPACITY {
                self.stable_orders.orders.clear();
            }
            let mut all: Vec<ProdId> = (spec.fillers(node_type).iter().copied())
                .filter(|&c| self.enabled[c.index()] && self.inhabited(c))
                .collect();
            all.sort_by_cached_key(|&c| self.simplicity(c));
            let mut by_own_finish: Vec<(Finish, ProdId)> = all.iter().map(|&c| (self.own_finish(c), c)).collect();
            // Stable: simplest first among equals.
            by_own_finish.sort_by_key(|&(finish, _)| finish);
            let soonest_finish = by_own_finish.first().map(|&(finish, _)| finish);
            let soonest = (all.iter().copied())
                .filter(|&c| Some(self.own_finish(c)) == soonest_finish)
                .collect();
            let order = Arc::new(StableOrder {
                all,
                by_own_finish,
                soonest,
                soonest_finish,
            });
            self.stable_orders.orders.insert(key, Arc::clone(&order));
            order
        });
        let order = match past_bounds {
            true => &stable_order.soonest,
            false => &stable_order.all,
        };
        self.stable.clear();
        match program.typing.as_mut().map(|typing| {
            let required = typing.types[node.index()].as_ref().expect("a typed hole");
            (typing.store.resolve(required), &mut typing.store)
        }) {
            Some((resolved, store)) if resolved.is_ground_term() => {
                let fits = self.ground_fits.fitting(spec, node_type, resolved, store);
                self.stable.extend(order.iter().filter(|c| fits[c.index()]));
                self.stable_fits_type = true;
            }
            _ => {
                self.stable.extend_from_slice(order);
                self.stable_fits_type = false;
            }
        }
        stable_order
    }

    /// Past the bounds, fills `self.choices` with what
    /// [`offer_candidates`](Generator::offer_candidates) offers the hole at
    /// `node` (those that pass and finish soonest, simplest first), with
    /// less work: the productions of the whole stable list are checked
    /// alone, those that finish soonest in themselves first, until the
    /// rest cannot finish as soon as one that passed (a production
    /// finishes no sooner than it does in itself: a reference that must
    /// lift a definition later). `self.stable` is left meaningless.
    pub(super) fn offer_soonest_candidates(&mut self, program: &mut Program, node: NodeId) {
        let stable_order = self.stable_order(program, node, false);
        let list = std::mem::take(&mut self.stable);
        // The stable list is the order's productions that fit the hole's
        // type: marked, to skip the others.
        self.in_stable.resize(self.enabled.len(), false);
        for &c in &list {
            self.in_stable[c.index()] = true;
        }
        let mut passed: SmallVec<[(ProdId, Finish); 8]> = SmallVec::new();
        let mut best: Option<Finish> = None;
        for &(own, c) in &stable_order.by_own_finish {
            if best.is_some_and(|best| own > best) {
                break;
            }
            if self.in_stable[c.index()] && self.offers_alone(program, node, c) {
                let finish = self.finish_of(c);
                passed.push((c, finish));
                best = Some(best.map_or(finish, |best| best.min(finish)));
            }
        }
        for &c in &list {
            self.in_stable[c.index()] = false;
        }
        self.choices.clear();
        (self.choices)
            .extend((list.iter().copied()).filter(|c| passed.iter().any(|&(p, f)| p == *c && Some(f) == best)));
        let mut list = list;
        list.clear();
        self.stable = list;
        #[cfg(debug_assertions)]
        {
            let quick = self.choices.clone();
            self.offer_candidates(program, node);
            assert_eq!(
                quick, self.choices,
                "the soonest candidates, checked alone and together"
            );
        }
    }

    /// With `--cover`, the weights steering gives the stable list (its
    /// productions that are not candidates get none), or `None` when it
    /// does not steer this hole; `self.choices` holds the candidates.
    fn steered_stable_weights(&mut self, program: &Program, node: NodeId) -> Option<Vec<u32>> {
        self.weigh_candidates(program, node);
        let cover = self.cover.as_ref()?;
        let steered = cover.steer(program, node, &self.choices, &self.weights)?;
        let weight_of = |p: &ProdId| self.choices.iter().position(|c| c == p).map_or(0, |i| steered[i]);
        Some(self.stable.iter().map(weight_of).collect())
    }

    /// Whether the hole at `node` would offer `candidate`, a production of
    /// its stable list, were it the only one: the filters that depend on
    /// the context, run on it alone.
    pub(super) fn offers_alone(&mut self, program: &mut Program, node: NodeId, candidate: ProdId) -> bool {
        if self.left_out(node, candidate) || !self.accepts(program, node, candidate) {
            return false;
        }
        self.choices.clear();
        self.choices.push(candidate);
        // `stable_order` found the heads of the hole's type, and when the
        // type is ground kept only productions that fit it.
        self.drop_unfit_at_heads(program, node, self.stable_fits_type);
        !self.choices.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use crate::fixtures::scoped;
    use crate::{Generator, Options, Random};

    #[test]
    fn checking_the_drawn_production_alone_gives_the_programs_checking_every_one_gives() {
        for spec in [scoped(), crate::example::spec()] {
            let options = Options {
                size: 60,
                ..Options::default()
            };
            let mut alone = Generator::new(&spec, options.clone()).unwrap();
            let mut every = Generator::new(&spec, options).unwrap();
            every.count_offers(true);
            for seed in 0..300 {
                let a = alone.generate(&mut Random::from_seed(seed));
                let b = every.generate(&mut Random::from_seed(seed));
                match (a, b) {
                    (Ok(a), Ok(b)) => assert_eq!(a.outline(spec.grammar()), b.outline(spec.grammar()), "seed {seed}"),
                    (a, b) => assert_eq!(a.is_ok(), b.is_ok(), "seed {seed}"),
                }
            }
            let log = every.choice_log();
            assert!(spec.grammar().ids().all(|id| log.offered(id) >= log.chosen(id)));
            assert!(spec.grammar().ids().any(|id| log.offered(id) > log.chosen(id)));
        }
    }

    #[test]
    fn productions_come_out_as_often_as_one_draw_among_the_candidates_gives_them() {
        // Without local choices a production is one draw among those that
        // pass; the example spec is untyped, so nothing else differs.
        let spec = crate::example::spec();
        let counts = |local: bool| {
            let mut generator = Generator::new(&spec, Options::default()).unwrap();
            generator.set_local_choices(local);
            for seed in 0..3000 {
                generator.generate(&mut Random::from_seed(seed)).unwrap();
            }
            let log = generator.choice_log();
            let total: u64 = spec.grammar().ids().map(|id| log.chosen(id)).sum();
            (spec.grammar().ids())
                .map(|id| log.chosen(id) as f64 / total as f64)
                .collect::<Vec<f64>>()
        };
        let (two_stages, one_draw) = (counts(true), counts(false));
        for (id, (a, b)) in spec.grammar().ids().zip(two_stages.iter().zip(&one_draw)) {
            assert!(
                (a - b).abs() < 0.02,
                "{}: {a:.3} against {b:.3}",
                spec.production(id).name()
            );
        }
    }
}
