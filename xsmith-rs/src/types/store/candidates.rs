//! Candidate sets: a variable that is one of several ground types keeps the
//! bounds that mention other variables *pending* instead of choosing, and
//! *watches* those variables: whenever one of them changes, its candidates
//! are checked against all its pending bounds again, and the ones that no
//! longer fit are dropped. When one candidate remains, the variable is bound
//! to it and its pending bounds become ordinary constraints.
//!
//! Checking a candidate is a trial unification rolled back at once, so a
//! check changes nothing but the candidate set.

use std::sync::Arc;

use super::domain::{one_of, TypeError};
use super::vars::Side;
use super::{Domain, TypeStore};
use crate::types::term::{Type, TypeVar};

/// A bound on a candidate type.
#[derive(Clone)]
pub(super) enum Bound {
    /// The candidate must be a subtype of this type.
    Upper(Type),
    /// The candidate must be a supertype of this type.
    Lower(Type),
    /// The candidate must be this type.
    Equal(Type),
}

impl Bound {
    /// The type bounding the candidate.
    fn ty(&self) -> &Type {
        match self {
            Bound::Upper(t) | Bound::Lower(t) | Bound::Equal(t) => t,
        }
    }
}

impl TypeStore {
    /// Keeps the ground candidates of `v` that satisfy `bound` together with
    /// the bounds already pending on `v`.
    pub(super) fn filter_candidates(
        &mut self,
        v: TypeVar,
        candidates: Arc<[Type]>,
        bound: Bound,
    ) -> Result<(), TypeError> {
        let mut bounds = self.pending_bounds(v);
        bounds.push(bound.clone());
        let kept = self.satisfying(candidates, &bounds);
        if kept.is_empty() {
            let bound_type = bound.ty().clone();
            return Err(TypeError::Mismatch(Type::Var(v), bound_type));
        }
        if !self.is_ground(bound.ty()) {
            let root = self.find(v);
            let trail = &mut self.trail;
            match &bound {
                Bound::Upper(t) => self.vars.add_pending(root, Side::Above, t.clone(), trail),
                Bound::Lower(t) => self.vars.add_pending(root, Side::Below, t.clone(), trail),
                Bound::Equal(t) => {
                    self.vars.add_pending(root, Side::Above, t.clone(), trail);
                    self.vars.add_pending(root, Side::Below, t.clone(), trail);
                }
            }
            self.watch(root, bound.ty());
        }
        self.set_domain(v, one_of(kept))
    }

    /// The bounds pending on `v`.
    fn pending_bounds(&self, v: TypeVar) -> Vec<Bound> {
        let data = self.data(v);
        let upper = data.pending_upper.iter().cloned().map(Bound::Upper);
        upper
            .chain(data.pending_lower.iter().cloned().map(Bound::Lower))
            .collect()
    }

    /// The candidates that satisfy all of `bounds` together.
    fn satisfying(&mut self, candidates: Arc<[Type]>, bounds: &[Bound]) -> Vec<Type> {
        // Bounds of ground types (most are: `i32` above a wasm operand's
        // four candidates) are checked without a trial.
        let ground: Option<Vec<(Side, Type)>> = bounds
            .iter()
            .map(|bound| {
                let ty = self.resolve(bound.ty());
                let side = match bound {
                    Bound::Upper(_) => Side::Above,
                    Bound::Lower(_) => Side::Below,
                    Bound::Equal(_) => return None,
                };
                ty.is_ground_term().then_some((side, ty))
            })
            .collect();
        candidates
            .iter()
            .filter(|c| match &ground {
                Some(ground) if c.is_ground_term() => ground.iter().all(|(side, t)| match side {
                    Side::Above => self.ground_subtype(c, t),
                    Side::Below => self.ground_subtype(t, c),
                }),
                _ => self.succeeds(|s| bounds.iter().try_for_each(|bound| s.satisfy(c, bound))),
            })
            .cloned()
            .collect()
    }

    /// Makes `watcher` be checked again when a variable of `ty` changes.
    fn watch(&mut self, watcher: TypeVar, ty: &Type) {
        let mut free = Vec::new();
        self.free_vars(ty, &mut free);
        for w in free {
            self.vars.add_watcher(w, watcher, &mut self.trail);
        }
    }

    /// Keeps the candidates of `v` that still satisfy its pending bounds, a
    /// variable of which has changed.
    pub(super) fn recheck(&mut self, v: TypeVar) -> Result<(), TypeError> {
        let root = self.find(v);
        let Domain::OneOf(candidates) = self.domain(root).clone() else {
            return Ok(());
        };
        let bounds = self.pending_bounds(root);
        if bounds.is_empty() {
            return Ok(());
        }
        let kept = self.satisfying(candidates, &bounds);
        if kept.is_empty() {
            return Err(TypeError::Mismatch(Type::Var(root), bounds[0].ty().clone()));
        }
        for bound in &bounds {
            self.watch(root, bound.ty());
        }
        self.set_domain(root, one_of(kept))
    }

    /// Applies `bound` to candidate type `c`.
    fn satisfy(&mut self, c: &Type, bound: &Bound) -> Result<(), TypeError> {
        match bound {
            Bound::Upper(t) => self.subtype(c, t),
            Bound::Lower(t) => self.subtype(t, c),
            Bound::Equal(t) => self.equal(c, t),
        }
    }
}
