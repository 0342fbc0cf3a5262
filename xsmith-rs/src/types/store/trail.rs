//! The undo log that the union-find and the variables' data share, and
//! rolling back to a snapshot.
//!
//! The log is `ena`'s `VecLog`, holding the typed actions of both
//! structures in the order they happened, as rustc's inference context
//! shares one log among its tables. Nothing is logged outside a snapshot:
//! no one could undo it. Snapshots nest, and are one-use tokens taken and
//! given back in stack order: rolled back (every action since is undone,
//! last first) or committed (kept, and still undone if an enclosing snapshot
//! is rolled back).

use ena::undo_log::{Rollback, Snapshots, UndoLogs, VecLog};

use super::classes::{ClassUndo, Classes};
use super::vars::{VarUndo, Vars};

/// A change to the store, as what undoes it.
enum Undo {
    Class(ClassUndo),
    Var(VarUndo),
}

/// The store's undo log.
#[derive(Default)]
pub(super) struct Trail {
    log: VecLog<Undo>,
}

/// A point of the trail to roll back to.
pub(super) type Mark = ena::undo_log::Snapshot;

impl UndoLogs<ClassUndo> for Trail {
    #[inline]
    fn num_open_snapshots(&self) -> usize {
        self.log.num_open_snapshots()
    }

    #[inline]
    fn push(&mut self, undo: ClassUndo) {
        self.log.push(Undo::Class(undo));
    }

    fn clear(&mut self) {
        self.log.clear();
    }
}

impl UndoLogs<VarUndo> for Trail {
    #[inline]
    fn num_open_snapshots(&self) -> usize {
        self.log.num_open_snapshots()
    }

    #[inline]
    fn push(&mut self, undo: VarUndo) {
        self.log.push(Undo::Var(undo));
    }

    fn clear(&mut self) {
        self.log.clear();
    }
}

/// The structures the trail's actions apply to.
struct Tables<'a> {
    classes: &'a mut Classes,
    vars: &'a mut Vars,
}

impl Rollback<Undo> for Tables<'_> {
    fn reverse(&mut self, undo: Undo) {
        match undo {
            Undo::Class(action) => self.classes.undo(action),
            Undo::Var(action) => self.vars.undo(action),
        }
    }
}

impl Trail {
    /// Opens a snapshot: changes from here on are logged.
    pub(super) fn mark(&mut self) -> Mark {
        self.log.start_snapshot()
    }

    /// Whether a snapshot is open (changes are being logged).
    pub(super) fn in_snapshot(&self) -> bool {
        UndoLogs::<ClassUndo>::in_snapshot(self)
    }

    /// Closes the snapshot `mark`, keeping its changes.
    pub(super) fn commit(&mut self, mark: Mark) {
        self.log.commit(mark);
    }

    /// Closes the snapshot `mark`, undoing its changes to `classes` and
    /// `vars`.
    pub(super) fn rollback(&mut self, mark: Mark, classes: &mut Classes, vars: &mut Vars) {
        self.log.rollback_to(|| Tables { classes, vars }, mark);
    }
}
