//! What a type variable may still become, and why an operation of the store
//! failed.
//!
//! A [`Domain`] only ever narrows: unification intersects it with what a
//! new constraint allows (see the narrowing module), and concretization
//! picks one of its members. A set of candidates is kept free of duplicates,
//! and a set of one is the binding to that type ([`one_of`]), so that two
//! domains allowing the same types are equal.

use std::sync::Arc;

use crate::types::term::{RecordField, Type, TypeVar};

/// Why a unification or concretization failed.
///
/// A failed operation changes nothing in the store, so the error is all that
/// is left of it.
///
/// ```
/// use xsmith::types::{TypeError, TypeStore, TypeSystem};
/// let mut system = TypeSystem::new();
/// let (int, boolean) = (system.base("int"), system.base("bool"));
/// let mut store = TypeStore::new(system.into());
/// let error = store.unify(&int, &boolean).unwrap_err();
/// assert_eq!(error, TypeError::Mismatch(int, boolean));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TypeError {
    /// The first type cannot be a subtype of the second.
    Mismatch(Type, Type),
    /// A variable would have to contain itself.
    Infinite(TypeVar),
    /// No type satisfying a variable's constraints could be found within the
    /// type depth bound.
    NoConcreteType(TypeVar),
}

impl std::fmt::Display for TypeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TypeError::Mismatch(a, b) => write!(f, "type {a:?} cannot be a subtype of {b:?}"),
            TypeError::Infinite(v) => write!(f, "type variable ?{} would contain itself", v.0),
            TypeError::NoConcreteType(v) => write!(f, "no concrete type satisfies type variable ?{}", v.0),
        }
    }
}

impl std::error::Error for TypeError {}

/// The types a variable may still become.
///
/// ```
/// use xsmith::types::{Domain, Type, TypeStore, TypeSystem};
/// let mut system = TypeSystem::new();
/// let (int, boolean) = (system.base("int"), system.base("bool"));
/// let mut store = TypeStore::new(system.into());
/// let Type::Var(v) = store.fresh_one_of(&[int.clone(), boolean]) else { unreachable!() };
/// assert!(matches!(store.domain(v), Domain::OneOf(candidates) if candidates.len() == 2));
/// store.subtype_unify(&Type::Var(v), &int).unwrap();
/// assert_eq!(store.domain(v), &Domain::Bound(int));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Domain {
    /// Any type.
    Any,
    /// Any product, of any arity.
    AnyProduct,
    /// Any structural record with at least these fields (of exactly these
    /// types).
    RecordAtLeast(Arc<[RecordField]>),
    /// One of these ground types (at least two).
    OneOf(Arc<[Type]>),
    /// This type (never itself a variable; it may mention variables).
    Bound(Type),
}

/// The domain of exactly these ground types (duplicates removed, the first
/// occurrence kept): a binding when one type remains.
pub(super) fn one_of(mut types: Vec<Type>) -> Domain {
    // Each type's first occurrence, in order, moved to the front.
    let mut kept = 0;
    for i in 0..types.len() {
        // Base types, most candidates, compared by their ids in place.
        let seen = match &types[i] {
            Type::Base(b) => types[..kept].iter().any(|k| matches!(k, Type::Base(c) if c == b)),
            other => types[..kept].contains(other),
        };
        if !seen {
            types.swap(kept, i);
            kept += 1;
        }
    }
    types.truncate(kept);
    match types.len() {
        1 => Domain::Bound(types.pop().expect("one type")),
        _ => Domain::OneOf(types.into()),
    }
}

/// A representative type of a domain, for error messages.
pub(super) fn domain_example(domain: &Domain) -> Type {
    match domain {
        Domain::Bound(t) => t.clone(),
        Domain::OneOf(cs) => cs.first().cloned().unwrap_or_else(|| Type::product(vec![])),
        Domain::RecordAtLeast(f) => Type::Record(f.clone()),
        Domain::AnyProduct | Domain::Any => Type::product(vec![]),
    }
}
