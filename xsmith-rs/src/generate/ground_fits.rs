//! Which productions can fill a hole of a ground type, and which lifted
//! definitions can settle a reference of a ground type, remembered: the
//! type stage of choosing (`choose`) asks the first at most holes, the
//! references stage the second for most references that nothing in sight
//! fits, and for a ground type the answer depends on the productions and
//! that type alone (their node types are made fresh for the check and
//! unified with the ground type, which has no variable the program could
//! have constrained). The first hole of each pair pays for the checks; the
//! answer then serves every later hole of that pair, in every program the
//! generator makes.

use rustc_hash::FxHashMap;

use crate::grammar::ProdId;
use crate::spec::Spec;
use crate::types::{Type, TypeStore};

/// How many pairs are remembered before the memory starts over: a bound
/// on its size, however many ground types programs invent (composite
/// types are bounded by `--type-max-depth`, but their number grows fast
/// with it).
const CAPACITY: usize = 4096;

/// For pairs of a hole's node type and a ground type: whether each
/// production (by index) may fill such a hole.
#[derive(Default)]
pub(super) struct GroundFits {
    fits: FxHashMap<(ProdId, Type), Vec<bool>>,
    /// For pairs of a reference production and a ground type: whether a
    /// lifted definition of each production (by index) can settle such a
    /// reference, for the definitions asked about so far.
    lifts: FxHashMap<(ProdId, Type), Vec<Option<bool>>>,
}

impl GroundFits {
    /// Whether each production (by index) whose node type may be `ground`
    /// may fill a hole of node type `node_type`; `false` for productions
    /// that cannot fill such a hole.
    pub(super) fn fitting(&mut self, spec: &Spec, node_type: ProdId, ground: Type, store: &mut TypeStore) -> &[bool] {
        if self.fits.len() >= CAPACITY && !self.fits.contains_key(&(node_type, ground.clone())) {
            self.fits.clear();
        }
        self.fits
            .entry((node_type, ground))
            .or_insert_with_key(|(node_type, ground)| {
                let mut fits = vec![false; spec.grammar().productions().len()];
                for &candidate in spec.fillers(*node_type) {
                    fits[candidate.index()] = fits_ground(spec, candidate, ground, store);
                }
                fits
            })
    }

    /// Whether a definition of production `definition`, lifted, can settle
    /// a reference of production `reference` whose hole has the ground
    /// type `ground`: `check`'s answer, remembered (`productions` is how
    /// many the grammar has).
    pub(super) fn lift_fits(
        &mut self,
        productions: usize,
        reference: ProdId,
        definition: ProdId,
        ground: &Type,
        check: impl FnOnce() -> bool,
    ) -> bool {
        if self.lifts.len() >= CAPACITY && !self.lifts.contains_key(&(reference, ground.clone())) {
            self.lifts.clear();
        }
        let known = self
            .lifts
            .entry((reference, ground.clone()))
            .or_insert_with(|| vec![None; productions]);
        *known[definition.index()].get_or_insert_with(check)
    }
}

/// Whether `candidate`'s node type can be the ground type `ground`: told
/// from its shape, else by a trial unification that is rolled back.
fn fits_ground(spec: &Spec, candidate: ProdId, ground: &Type, store: &mut TypeStore) -> bool {
    let shape = spec.node_type_shape(candidate).expect("assembly checks type_info");
    if let Some(fits) = shape.fits(ground, store) {
        return fits;
    }
    let info = spec.type_info(candidate);
    store.trial(|store| {
        let ty = (info.node_type)(store);
        store.unify(&ty, ground)
    })
}
