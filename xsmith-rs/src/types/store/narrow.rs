//! Narrowing: intersecting a variable's domain with what a constraint
//! allows, and propagating a change along the subtype edges and to the
//! candidate sets watching it, until nothing changes.
//!
//! A domain only narrows. Setting it to a one-candidate set binds the
//! variable; binding it to a type that is a variable makes the two one
//! class; binding a candidate set's variable applies its pending bounds.
//! Between two variables related by an edge, the lower one is narrowed to
//! the subtypes of what the upper one may be, and the upper one to the
//! supertypes of what the lower one may be.

use std::sync::Arc;

use super::candidates::Bound;
use super::domain::{domain_example, one_of, Domain, TypeError};
use super::TypeStore;
use crate::types::term::{RecordField, Type, TypeVar};

impl TypeStore {
    /// Narrows the domain of free variable `v` to its intersection with
    /// `domain`.
    pub(super) fn restrict(&mut self, v: TypeVar, domain: Domain) -> Result<(), TypeError> {
        let current = self.domain(v).clone();
        let mismatch = || TypeError::Mismatch(Type::Var(v), domain_example(&domain));
        match (current, domain.clone()) {
            (_, Domain::Any) => Ok(()),
            (Domain::Any, new) => self.set_domain(v, new),
            (Domain::Bound(t), new) => self.bound_in(&t, new),
            (Domain::AnyProduct, Domain::AnyProduct) => Ok(()),
            (Domain::AnyProduct, Domain::Bound(t)) => match self.resolve(&t) {
                Type::Product(_) => self.set_domain(v, Domain::Bound(t)),
                _ => Err(mismatch()),
            },
            (Domain::AnyProduct, Domain::OneOf(cs)) => {
                let products = cs.iter().filter(|c| matches!(c, Type::Product(_))).cloned().collect();
                self.set_domain(v, one_of(products))
            }
            (Domain::AnyProduct, Domain::RecordAtLeast(_)) | (Domain::RecordAtLeast(_), Domain::AnyProduct) => {
                Err(mismatch())
            }
            (Domain::RecordAtLeast(f), Domain::RecordAtLeast(g)) => {
                let merged = self.merge_fields(&f, &g)?;
                self.set_domain(v, Domain::RecordAtLeast(merged))
            }
            (Domain::RecordAtLeast(f), Domain::Bound(t)) => {
                self.structural(&self.resolve(&t), &Type::Record(f))?;
                self.set_domain(v, Domain::Bound(t))
            }
            (Domain::RecordAtLeast(f), Domain::OneOf(cs)) => {
                self.filter_candidates(v, cs, Bound::Upper(Type::Record(f)))
            }
            (Domain::OneOf(cs), Domain::OneOf(ds)) => {
                let common = cs.iter().filter(|c| ds.contains(c)).cloned().collect::<Vec<_>>();
                if common.is_empty() {
                    return Err(mismatch());
                }
                self.set_domain(v, one_of(common))
            }
            (Domain::OneOf(cs), Domain::AnyProduct) => {
                let products = cs
                    .iter()
                    .filter(|c| matches!(c, Type::Product(_)))
                    .cloned()
                    .collect::<Vec<_>>();
                if products.is_empty() {
                    return Err(mismatch());
                }
                self.set_domain(v, one_of(products))
            }
            (Domain::OneOf(cs), Domain::RecordAtLeast(f)) => {
                self.filter_candidates(v, cs, Bound::Upper(Type::Record(f)))
            }
            (Domain::OneOf(cs), Domain::Bound(t)) => self.filter_candidates(v, cs, Bound::Equal(t)),
        }
    }

    /// Checks that type `t` (bound already) lies in `domain`.
    fn bound_in(&mut self, t: &Type, domain: Domain) -> Result<(), TypeError> {
        let t = self.resolve(t);
        if let Type::Var(w) = t {
            return self.restrict(w, domain);
        }
        let mismatch = || Err(TypeError::Mismatch(t.clone(), domain_example(&domain)));
        match &domain {
            Domain::Any => Ok(()),
            Domain::AnyProduct if matches!(t, Type::Product(_)) => Ok(()),
            Domain::AnyProduct => mismatch(),
            Domain::RecordAtLeast(f) => self.structural(&t, &Type::Record(f.clone())),
            Domain::Bound(u) => self.equal(&t, u),
            Domain::OneOf(cs) => {
                let matching: Vec<Type> = cs
                    .iter()
                    .filter(|c| {
                        let c = (*c).clone();
                        let t = t.clone();
                        self.succeeds(move |s| s.equal(&c, &t))
                    })
                    .cloned()
                    .collect();
                match matching.as_slice() {
                    [] => mismatch(),
                    [only] => self.equal(only, &t),
                    _ if t.is_ground_term() => Ok(()),
                    // Several ground types could still be `t`: leave `t` as
                    // it is; the variable keeping this domain re-checks it.
                    _ => Ok(()),
                }
            }
        }
    }

    /// Record fields of both lists (the types of shared names unified).
    fn merge_fields(
        &mut self,
        f: &Arc<[RecordField]>,
        g: &Arc<[RecordField]>,
    ) -> Result<Arc<[RecordField]>, TypeError> {
        let mut merged: Vec<RecordField> = f.to_vec();
        for (name, ty) in g.iter() {
            match merged.iter().find(|(n, _)| n == name) {
                Some((_, existing)) => {
                    let existing = existing.clone();
                    self.equal(&existing, ty)?;
                }
                None => merged.push((name.clone(), ty.clone())),
            }
        }
        merged.sort_by(|a, b| a.0.cmp(&b.0));
        Ok(merged.into())
    }

    /// Sets the domain of `v`'s class (normalising a one-element set to a
    /// binding), marks it for propagation, and applies pending bounds once
    /// it is bound.
    pub(super) fn set_domain(&mut self, v: TypeVar, domain: Domain) -> Result<(), TypeError> {
        let root = self.find(v);
        let domain = match domain {
            Domain::OneOf(cs) if cs.len() == 1 => Domain::Bound(cs[0].clone()),
            Domain::OneOf(cs) if cs.is_empty() => return Err(TypeError::NoConcreteType(root)),
            Domain::Bound(t) => match self.resolve(&t) {
                Type::Var(w) => return self.equal(&Type::Var(root), &Type::Var(w)),
                resolved => Domain::Bound(resolved),
            },
            other => other,
        };
        if self.vars.get(root).domain == domain {
            return Ok(());
        }
        if self.domain_occurs(root, &domain) {
            return Err(TypeError::Infinite(root));
        }
        let bound = match &domain {
            Domain::Bound(t) => Some(t.clone()),
            _ => None,
        };
        self.vars.set_domain(root, domain, &mut self.trail);
        self.dirty.push(root);
        match bound {
            Some(t) => self.apply_pending(root, &t),
            None => Ok(()),
        }
    }

    /// Applies the bounds pending on `root`, just bound to `t`, as ordinary
    /// constraints: the upper ones first, each in the order it came.
    pub(super) fn apply_pending(&mut self, root: TypeVar, t: &Type) -> Result<(), TypeError> {
        let data = self.vars.get(root);
        if data.pending_upper.is_empty() && data.pending_lower.is_empty() {
            return Ok(());
        }
        let (pending_upper, pending_lower) = self.vars.take_pending(root, &mut self.trail);
        for upper in &pending_upper {
            self.subtype(t, upper)?;
        }
        for lower in &pending_lower {
            self.subtype(lower, t)?;
        }
        Ok(())
    }

    /// Narrows the domains of `x` and `y` so that `x <: y` can hold.
    pub(super) fn relate_domains(&mut self, x: TypeVar, y: TypeVar) -> Result<(), TypeError> {
        let (x, y) = (self.find(x), self.find(y));
        if x == y {
            return Ok(());
        }
        match (self.domain(x).clone(), self.domain(y).clone()) {
            (Domain::Bound(t), Domain::Bound(u)) => self.structural(&t, &u),
            (_, Domain::Bound(u)) => self.bound_above(x, &u),
            (Domain::Bound(t), _) => self.bound_below(y, &t),
            (dx, dy) => {
                let below_y = self.system_below(&dy);
                self.restrict(x, below_y)?;
                let above_x = self.system_above(&dx);
                let y = self.find(y);
                if matches!(self.domain(y), Domain::Bound(_)) {
                    return Ok(());
                }
                self.restrict(y, above_x)
            }
        }
    }

    /// The domain of all subtypes of some member of a free domain.
    fn system_below(&self, domain: &Domain) -> Domain {
        match domain {
            Domain::OneOf(cs) => one_of(cs.iter().flat_map(|c| self.system.declared_subtypes(c)).collect()),
            other => other.clone(),
        }
    }

    /// The domain of all supertypes of some member of a free domain.
    fn system_above(&self, domain: &Domain) -> Domain {
        match domain {
            Domain::OneOf(cs) => one_of(cs.iter().flat_map(|c| self.system.declared_supertypes(c)).collect()),
            Domain::RecordAtLeast(_) => Domain::RecordAtLeast(Arc::from(Vec::new())),
            other => other.clone(),
        }
    }

    /// Re-narrows along the edges of every variable whose domain changed,
    /// and checks again the candidates of the variables watching it, until
    /// nothing changes.
    pub(super) fn propagate(&mut self) -> Result<(), TypeError> {
        while self.dirty.len() > self.dirty_base {
            let v = self.dirty.pop().expect("longer than its base");
            let root = self.find(v);
            let data = self.vars.get(root);
            // Most variables have no edge and no watcher: nothing to copy.
            if data.lower.is_empty() && data.upper.is_empty() && data.watchers.is_empty() {
                continue;
            }
            let (lower, upper, watchers) = (data.lower.clone(), data.upper.clone(), data.watchers.clone());
            for lower in lower {
                self.relate_domains(lower, root)?;
            }
            for upper in upper {
                self.relate_domains(root, upper)?;
            }
            for watcher in watchers {
                self.recheck(watcher)?;
            }
        }
        Ok(())
    }
}
