//! What the store knows of each class of variables, kept under the class's
//! name: its domain, the classes just below and above it, the bounds its
//! candidates wait on, and the classes watching it.
//!
//! Every change goes through one method here and is logged as a typed undo
//! action holding just what it replaced (a domain, the length of a list that
//! grew), never a copy of the whole record, as `ena`'s snapshot vector does
//! with its delegate's actions.

use ena::undo_log::UndoLogs;
use smallvec::SmallVec;

use super::domain::Domain;
use crate::types::term::{Type, TypeVar};

/// The data of one class (meaningful under the class's name only).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct VarData {
    pub(super) domain: Domain,
    /// Classes known to be subtypes of this one.
    pub(super) lower: SmallVec<[TypeVar; 2]>,
    /// Classes known to be supertypes of this one.
    pub(super) upper: SmallVec<[TypeVar; 2]>,
    /// Upper bounds not yet applied because the domain is a set of several
    /// candidates; applied when one remains.
    pub(super) pending_upper: Vec<Type>,
    pub(super) pending_lower: Vec<Type>,
    /// Variables whose pending bounds mention this one: their candidates are
    /// checked again when this one changes.
    pub(super) watchers: SmallVec<[TypeVar; 2]>,
}

impl VarData {
    /// A class with this domain and no edges, bounds or watchers.
    pub(super) fn new(domain: Domain) -> VarData {
        VarData {
            domain,
            lower: SmallVec::new(),
            upper: SmallVec::new(),
            pending_upper: Vec::new(),
            pending_lower: Vec::new(),
            watchers: SmallVec::new(),
        }
    }
}

/// Below or above: which edges, or which pending bounds.
#[derive(Clone, Copy, Debug)]
pub(super) enum Side {
    /// Subtypes: `lower`, `pending_lower`.
    Below,
    /// Supertypes: `upper`, `pending_upper`.
    Above,
}

/// The data of every variable, indexed by variable.
#[derive(Default)]
pub(super) struct Vars {
    data: Vec<VarData>,
}

/// A change to [`Vars`], as what undoes it.
pub(super) enum VarUndo {
    /// A variable was added: remove it.
    Added,
    /// The domain was this.
    Domain(TypeVar, Domain),
    /// An edge was pushed on this side: pop it.
    Edge(TypeVar, Side),
    /// A pending bound was pushed on this side: pop it.
    Pending(TypeVar, Side),
    /// A watcher was pushed: pop it.
    Watcher(TypeVar),
    /// The pending bounds (upper, lower) were these, and were taken.
    PendingTaken(TypeVar, Box<(Vec<Type>, Vec<Type>)>),
    /// The whole record was this (classes merging into one).
    Replaced(TypeVar, Box<VarData>),
}

impl Vars {
    /// No variables, with room for `variables` before the table grows.
    pub(super) fn with_room(variables: usize) -> Vars {
        Vars {
            data: Vec::with_capacity(variables),
        }
    }

    /// The data kept under `v`.
    #[inline]
    pub(super) fn get(&self, v: TypeVar) -> &VarData {
        &self.data[v.index()]
    }

    /// Data for a new variable, which must be the next one.
    #[inline]
    pub(super) fn add(&mut self, v: TypeVar, domain: Domain, log: &mut impl UndoLogs<VarUndo>) {
        debug_assert_eq!(v.index(), self.data.len());
        self.data.push(VarData::new(domain));
        if log.in_snapshot() {
            log.push(VarUndo::Added);
        }
    }

    #[inline]
    pub(super) fn set_domain(&mut self, v: TypeVar, domain: Domain, log: &mut impl UndoLogs<VarUndo>) {
        let old = std::mem::replace(&mut self.data[v.index()].domain, domain);
        if log.in_snapshot() {
            log.push(VarUndo::Domain(v, old));
        }
    }

    /// Records class `to` as just below or above `v`.
    #[inline]
    pub(super) fn add_edge(&mut self, v: TypeVar, side: Side, to: TypeVar, log: &mut impl UndoLogs<VarUndo>) {
        let data = &mut self.data[v.index()];
        match side {
            Side::Below => data.lower.push(to),
            Side::Above => data.upper.push(to),
        }
        if log.in_snapshot() {
            log.push(VarUndo::Edge(v, side));
        }
    }

    /// Adds a bound the candidates of `v` wait on: `v <: ty` above, `ty <:
    /// v` below.
    #[inline]
    pub(super) fn add_pending(&mut self, v: TypeVar, side: Side, ty: Type, log: &mut impl UndoLogs<VarUndo>) {
        let data = &mut self.data[v.index()];
        match side {
            Side::Below => data.pending_lower.push(ty),
            Side::Above => data.pending_upper.push(ty),
        }
        if log.in_snapshot() {
            log.push(VarUndo::Pending(v, side));
        }
    }

    /// Makes `watcher` one of the watchers of `v`, if it is not yet.
    #[inline]
    pub(super) fn add_watcher(&mut self, v: TypeVar, watcher: TypeVar, log: &mut impl UndoLogs<VarUndo>) {
        let watchers = &mut self.data[v.index()].watchers;
        if !watchers.contains(&watcher) {
            watchers.push(watcher);
            if log.in_snapshot() {
                log.push(VarUndo::Watcher(v));
            }
        }
    }

    /// Takes the pending bounds of `v` (upper, lower), leaving none.
    pub(super) fn take_pending(&mut self, v: TypeVar, log: &mut impl UndoLogs<VarUndo>) -> (Vec<Type>, Vec<Type>) {
        let data = &mut self.data[v.index()];
        let taken = (
            std::mem::take(&mut data.pending_upper),
            std::mem::take(&mut data.pending_lower),
        );
        if log.in_snapshot() {
            log.push(VarUndo::PendingTaken(v, Box::new(taken.clone())));
        }
        taken
    }

    /// Replaces the whole record of `v`.
    pub(super) fn replace(&mut self, v: TypeVar, data: VarData, log: &mut impl UndoLogs<VarUndo>) {
        let old = std::mem::replace(&mut self.data[v.index()], data);
        if log.in_snapshot() {
            log.push(VarUndo::Replaced(v, Box::new(old)));
        }
    }

    /// Takes back one change.
    pub(super) fn undo(&mut self, action: VarUndo) {
        match action {
            VarUndo::Added => {
                self.data.pop();
            }
            VarUndo::Domain(v, domain) => self.data[v.index()].domain = domain,
            VarUndo::Edge(v, Side::Below) => {
                self.data[v.index()].lower.pop();
            }
            VarUndo::Edge(v, Side::Above) => {
                self.data[v.index()].upper.pop();
            }
            VarUndo::Pending(v, Side::Below) => {
                self.data[v.index()].pending_lower.pop();
            }
            VarUndo::Pending(v, Side::Above) => {
                self.data[v.index()].pending_upper.pop();
            }
            VarUndo::Watcher(v) => {
                self.data[v.index()].watchers.pop();
            }
            VarUndo::PendingTaken(v, taken) => {
                let data = &mut self.data[v.index()];
                (data.pending_upper, data.pending_lower) = *taken;
            }
            VarUndo::Replaced(v, old) => self.data[v.index()] = *old,
        }
    }
}

#[cfg(test)]
mod tests {
    use ena::undo_log::{Rollback, Snapshots, VecLog};

    use super::*;

    impl Rollback<VarUndo> for Vars {
        fn reverse(&mut self, undo: VarUndo) {
            self.undo(undo);
        }
    }

    #[test]
    fn every_change_rolls_back() {
        let unit = Type::product(vec![]);
        let mut log = VecLog::default();
        let mut vars = Vars::default();
        let (a, b) = (TypeVar(0), TypeVar(1));
        vars.add(a, Domain::Any, &mut log);
        vars.add(b, Domain::AnyProduct, &mut log);
        vars.add_pending(a, Side::Above, unit.clone(), &mut log);
        let before = vars.data.clone();
        let snapshot = log.start_snapshot();
        vars.add(TypeVar(2), Domain::Any, &mut log);
        vars.set_domain(a, Domain::Bound(unit.clone()), &mut log);
        vars.add_edge(a, Side::Above, b, &mut log);
        vars.add_edge(b, Side::Below, a, &mut log);
        vars.add_pending(b, Side::Below, unit.clone(), &mut log);
        vars.add_watcher(b, a, &mut log);
        vars.add_watcher(b, a, &mut log);
        assert_eq!(vars.get(b).watchers.len(), 1);
        assert_eq!(vars.take_pending(a, &mut log), (vec![unit], vec![]));
        vars.replace(b, VarData::new(Domain::Any), &mut log);
        assert_ne!(vars.data, before);
        log.rollback_to(|| &mut vars, snapshot);
        assert_eq!(vars.data, before);
    }

    /// An undo log with no snapshot open, counting what is pushed on it.
    struct Closed(usize);

    impl UndoLogs<VarUndo> for Closed {
        fn num_open_snapshots(&self) -> usize {
            0
        }

        fn push(&mut self, _: VarUndo) {
            self.0 += 1;
        }

        fn clear(&mut self) {}
    }

    #[test]
    fn nothing_is_logged_outside_a_snapshot() {
        let unit = Type::product(vec![]);
        let mut log = Closed(0);
        let mut vars = Vars::default();
        let (a, b) = (TypeVar(0), TypeVar(1));
        vars.add(a, Domain::Any, &mut log);
        vars.add(b, Domain::Any, &mut log);
        vars.set_domain(a, Domain::AnyProduct, &mut log);
        vars.add_edge(a, Side::Above, b, &mut log);
        vars.add_pending(a, Side::Below, unit, &mut log);
        vars.add_watcher(b, a, &mut log);
        vars.take_pending(a, &mut log);
        vars.replace(b, VarData::new(Domain::Any), &mut log);
        assert_eq!(log.0, 0);
    }
}
