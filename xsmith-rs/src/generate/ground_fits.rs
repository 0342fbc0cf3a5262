//! Which productions can fill a hole of a ground type, remembered: the
//! type stage of choosing (`choose`) asks it at most holes, and for a
//! ground type the answer depends on the hole's node type and that type
//! alone (a production's node type is made fresh for the check and unified
//! with the ground type, which has no variable the program could have
//! constrained). The first hole of each pair pays for the checks of every
//! production that may fill it; the answer then serves every later hole
//! of that pair, in every program the generator makes.

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
