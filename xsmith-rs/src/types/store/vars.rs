//! What the store knows of each variable: its union-find parent, its
//! domain, the variables just below and above it, the bounds its candidates
//! wait on, and the variables watching it; kept in `ena`'s snapshot vector,
//! which logs a copy of a record before each change.

use ena::snapshot_vec::SnapshotVecDelegate;
use smallvec::SmallVec;

use super::domain::Domain;
use crate::types::term::{Type, TypeVar};

/// The record of one variable (meaningful at a representative only, but for
/// `parent`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct VarData {
    pub(super) parent: Option<TypeVar>,
    pub(super) domain: Domain,
    pub(super) lower: SmallVec<[TypeVar; 2]>,
    pub(super) upper: SmallVec<[TypeVar; 2]>,
    /// Upper bounds not yet applied because the domain is a set of several
    /// candidates; applied when one remains.
    pub(super) pending_upper: Vec<Type>,
    pub(super) pending_lower: Vec<Type>,
    /// Variables whose pending bounds mention this one: their candidates are
    /// checked again when this one changes.
    pub(super) watchers: SmallVec<[TypeVar; 2]>,
}

/// The snapshot vector's delegate: no undo actions of its own.
pub(super) struct Delegate;

impl SnapshotVecDelegate for Delegate {
    type Value = VarData;
    type Undo = ();
    fn reverse(_: &mut Vec<VarData>, _: ()) {}
}
