//! A type at a glance: its form at the top and, for a ground type, a small
//! key that equal ground types share, so that a search of hundreds of
//! visible binders compares two integers per binder where it would resolve
//! and compare two terms.

use std::hash::BuildHasherDefault;

use indexmap::IndexSet;
use rustc_hash::FxHasher;

use super::term::Type;

/// The form of a type at the top, `None` for a variable: types of
/// different forms never unify, whatever the subtyping.
pub(crate) fn form(t: &Type) -> Option<u8> {
    match t {
        Type::Var(_) => None,
        Type::Base(_) | Type::Nominal(_) => Some(0),
        Type::Generic(..) => Some(1),
        Type::Function(_) => Some(2),
        Type::Product(_) => Some(3),
        Type::Record(_) => Some(4),
    }
}

/// A type that is no variable at the top, at a glance (see the module),
/// or [`Glance::NONE`] for one not looked at (not settled).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Glance {
    /// Its [`form`] at the top ([`Glance::NO_FORM`] in [`Glance::NONE`]).
    pub(crate) form: u8,
    /// Its key among the ground types (see [`GroundKeys`]), or
    /// [`Glance::NO_KEY`] if it is not ground.
    pub(crate) key: u32,
}

impl Glance {
    /// The form of [`Glance::NONE`], which no type has.
    pub(crate) const NO_FORM: u8 = u8::MAX;
    /// The key of a type that is not ground, which no ground type has.
    pub(crate) const NO_KEY: u32 = u32::MAX;
    /// The glance at a type not looked at.
    pub(crate) const NONE: Glance = Glance {
        form: Glance::NO_FORM,
        key: Glance::NO_KEY,
    };
}

/// Keys of ground types, given out as types are first seen: equal types,
/// equal keys.
#[derive(Default)]
pub(crate) struct GroundKeys {
    types: IndexSet<Type, BuildHasherDefault<FxHasher>>,
}

impl GroundKeys {
    /// The key of the ground type `ty`, given it now if it has none yet.
    pub(crate) fn key(&mut self, ty: &Type) -> u32 {
        let index = match self.types.get_index_of(ty) {
            Some(index) => index,
            None => self.types.insert_full(ty.clone()).0,
        };
        u32::try_from(index)
            .ok()
            .filter(|&key| key != Glance::NO_KEY)
            .expect("fewer than 2^32 - 1 ground types")
    }

    /// The key of `ty`, if it was given one.
    pub(crate) fn find(&self, ty: &Type) -> Option<u32> {
        self.types
            .get_index_of(ty)
            .map(|index| u32::try_from(index).expect("fewer than 2^32 ground types"))
    }

    /// [`Glance`] of `ty`, ground or not (`ground` says which), or `None`
    /// for a variable; a ground type gets a key if it has none yet.
    pub(crate) fn glance(&mut self, ty: &Type, ground: bool) -> Option<Glance> {
        let form = form(ty)?;
        let key = match ground {
            true => self.key(ty),
            false => Glance::NO_KEY,
        };
        Some(Glance { form, key })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_ground_types_share_a_key_and_a_variable_has_no_glance() {
        let mut system = crate::types::TypeSystem::new();
        let (int, str_) = (system.base("int"), system.base("str"));
        let array = system.generic("array", &[crate::types::Variance::Invariant]);
        let mut keys = GroundKeys::default();
        let ints = Type::generic(array, vec![int.clone()]);
        let first = keys.glance(&ints, true).expect("no variable");
        assert_eq!(first.form, 1);
        let again = keys.glance(&Type::generic(array, vec![int.clone()]), true);
        assert_eq!(again, Some(first));
        assert_ne!(keys.key(&Type::generic(array, vec![str_])), first.key);
        assert_eq!(keys.find(&int), None, "int was never given a key");
        assert_eq!(keys.glance(&int, true).map(|g| g.key), keys.find(&int));
        let open = Type::generic(array, vec![Type::Var(crate::types::TypeVar(0))]);
        let key = Glance::NO_KEY;
        assert_eq!(keys.glance(&open, false), Some(Glance { form: 1, key }));
        assert_eq!(keys.glance(&Type::Var(crate::types::TypeVar(0)), false), None);
    }
}
