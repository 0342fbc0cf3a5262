//! Reading the store: the class a variable is in, the data of that class,
//! and the type a variable stands for so far.
//!
//! A class is read under its name, which is what these lookups return for a
//! variable that is not bound ([`TypeStore::resolve`] gives `?N`, with `N`
//! the name). Reads take `&self` and walk the union-find without changing
//! it; the unifier, holding `&mut self`, reads through the compressing
//! lookups instead.

use std::sync::Arc;

use super::domain::Domain;
use super::vars::VarData;
use super::TypeStore;
use crate::types::term::{Type, TypeVar};

/// A type resolved at the top ([`TypeStore::resolve`]), and whether that
/// is a ground term.
pub(crate) struct Resolved {
    /// The type, resolved at the top.
    pub(crate) ty: Type,
    /// Whether `ty` mentions no variable.
    pub(crate) ground: bool,
}

impl TypeStore {
    /// The name of a variable's class: its representative.
    #[inline]
    pub(super) fn find(&self, v: TypeVar) -> TypeVar {
        self.classes.find(v)
    }

    /// The name of a variable's class, shortening the union-find's path to
    /// it for the lookups to come.
    #[inline]
    pub(super) fn find_compressing(&mut self, v: TypeVar) -> TypeVar {
        self.classes.find_compressing(v, &mut self.trail)
    }

    /// The data of a variable's class.
    #[inline]
    pub(super) fn data(&self, v: TypeVar) -> &VarData {
        self.vars.get(self.find(v))
    }

    /// The domain of a variable.
    ///
    /// ```
    /// use xsmith::types::{Domain, Type, TypeStore, TypeSystem};
    /// let mut store = TypeStore::new(TypeSystem::new().into());
    /// let Type::Var(v) = store.fresh() else { unreachable!() };
    /// assert_eq!(store.domain(v), &Domain::Any);
    /// ```
    pub fn domain(&self, v: TypeVar) -> &Domain {
        &self.data(v).domain
    }

    /// Whether a variable may still be any type and no candidate set
    /// depends on it.
    pub(crate) fn is_unconstrained(&self, v: TypeVar) -> bool {
        let data = self.data(v);
        data.domain == Domain::Any && data.watchers.is_empty()
    }

    /// Whether no candidate set depends on a variable (no pending bound
    /// mentions it, and it has none itself).
    pub(crate) fn is_watch_free(&self, v: TypeVar) -> bool {
        let data = self.data(v);
        data.watchers.is_empty() && data.pending_upper.is_empty() && data.pending_lower.is_empty()
    }

    /// The variables that subtyping relates to `v`, directly or through
    /// others, in either direction (as their classes' representatives, `v`'s
    /// first): what a type decided for `v` bounds.
    pub(crate) fn related_variables(&self, v: TypeVar) -> smallvec::SmallVec<[TypeVar; 4]> {
        let mut seen: smallvec::SmallVec<[TypeVar; 4]> = smallvec::smallvec![self.find(v)];
        let mut next = 0;
        while let Some(&at) = seen.get(next) {
            next += 1;
            let data = self.vars.get(at);
            for &other in data.upper.iter().chain(data.lower.iter()) {
                let other = self.find(other);
                if !seen.contains(&other) {
                    seen.push(other);
                }
            }
        }
        seen
    }

    /// Whether two variables have been collapsed into one.
    ///
    /// ```
    /// use xsmith::types::{Type, TypeStore, TypeSystem};
    /// let mut store = TypeStore::new(TypeSystem::new().into());
    /// let (a, b) = (store.fresh(), store.fresh());
    /// store.subtype_unify(&a, &b).unwrap();
    /// store.subtype_unify(&b, &a).unwrap();
    /// let (Type::Var(x), Type::Var(y)) = (a, b) else { unreachable!() };
    /// assert!(store.same_variable(x, y));
    /// ```
    pub fn same_variable(&self, a: TypeVar, b: TypeVar) -> bool {
        self.find(a) == self.find(b)
    }

    /// A printable summary of every variable (the domain and edges of a
    /// class under its name, the name of its class for any other variable),
    /// for tests and debugging: equal summaries mean equal stores.
    ///
    /// ```
    /// let mut store = xsmith::types::TypeStore::new(xsmith::types::TypeSystem::new().into());
    /// store.fresh();
    /// assert!(store.dump().contains("Any"));
    /// ```
    pub fn dump(&self) -> String {
        (0..self.classes.len() as u32)
            .map(TypeVar)
            .map(|v| match self.find(v) {
                name if name == v => format!("?{}: {:?}\n", v.0, self.vars.get(v)),
                name => format!("?{}: in ?{}\n", v.0, name.0),
            })
            .collect()
    }

    /// `ty` with its outer variable replaced by what it is bound to (parts
    /// are left as they are).
    ///
    /// ```
    /// let mut system = xsmith::types::TypeSystem::new();
    /// let int = system.base("int");
    /// let mut store = xsmith::types::TypeStore::new(system.into());
    /// let v = store.fresh();
    /// store.unify(&v, &int).unwrap();
    /// assert_eq!(store.resolve(&v), int);
    /// ```
    pub fn resolve(&self, ty: &Type) -> Type {
        match self.resolve_ref(ty) {
            Ok(ty) => ty.clone(),
            Err(v) => Type::Var(v),
        }
    }

    /// What [`resolve`](TypeStore::resolve) gives, unless it is a
    /// variable: `ty` itself or the type a variable is bound to, without
    /// cloning it; else (`Err`) the unbound variable's class name.
    #[inline]
    pub(crate) fn resolve_ref<'a>(&'a self, ty: &'a Type) -> Result<&'a Type, TypeVar> {
        let mut ty = ty;
        while let Type::Var(v) = ty {
            let root = self.find(*v);
            match &self.vars.get(root).domain {
                Domain::Bound(bound) => ty = bound,
                _ => return Err(root),
            }
        }
        Ok(ty)
    }

    /// `ty` resolved at the top, with whether that is a ground term: what
    /// the quick checks of a reference's bindings compare.
    pub(crate) fn resolved(&self, ty: &Type) -> Resolved {
        let ty = self.resolve(ty);
        let ground = ty.is_ground_term();
        Resolved { ty, ground }
    }

    /// [`resolve`](TypeStore::resolve), shortening the union-find's paths
    /// it walks.
    #[inline]
    pub(super) fn resolve_compressing(&mut self, ty: &Type) -> Type {
        let Type::Var(mut v) = ty else {
            return ty.clone();
        };
        loop {
            let root = self.find_compressing(v);
            match &self.vars.get(root).domain {
                Domain::Bound(Type::Var(next)) => v = *next,
                Domain::Bound(bound) => return bound.clone(),
                _ => return Type::Var(root),
            }
        }
    }

    /// `ty` with every bound variable replaced, all the way down; unbound
    /// variables are left as their representatives.
    ///
    /// ```
    /// use xsmith::types::Type;
    /// let mut system = xsmith::types::TypeSystem::new();
    /// let int = system.base("int");
    /// let mut store = xsmith::types::TypeStore::new(system.into());
    /// let v = store.fresh();
    /// store.unify(&v, &int).unwrap();
    /// assert_eq!(store.zonk(&Type::product(vec![v])), Type::product(vec![int]));
    /// ```
    pub fn zonk(&self, ty: &Type) -> Type {
        let ty = self.resolve(ty);
        match &ty {
            Type::Var(_) | Type::Base(_) | Type::Nominal(_) => ty,
            Type::Generic(g, args) => Type::Generic(*g, args.iter().map(|a| self.zonk(a)).collect()),
            Type::Product(items) => Type::Product(items.iter().map(|a| self.zonk(a)).collect()),
            Type::Function(f) => Type::Function(Arc::new((self.zonk(&f.0), self.zonk(&f.1)))),
            Type::Record(fields) => Type::Record(fields.iter().map(|(n, t)| (n.clone(), self.zonk(t))).collect()),
        }
    }

    /// `ty` with every variable replaced (see [`zonk`](TypeStore::zonk)),
    /// if it mentions no unbound variable.
    ///
    /// ```
    /// let mut system = xsmith::types::TypeSystem::new();
    /// let int = system.base("int");
    /// let mut store = xsmith::types::TypeStore::new(system.into());
    /// let v = store.fresh();
    /// let pair = xsmith::types::Type::product(vec![v.clone(), int.clone()]);
    /// assert_eq!(store.grounded(&pair), None);
    /// store.unify(&v, &int).unwrap();
    /// assert_eq!(store.grounded(&pair), Some(xsmith::types::Type::product(vec![int.clone(), int])));
    /// ```
    pub fn grounded(&self, ty: &Type) -> Option<Type> {
        self.is_ground(ty).then(|| self.zonk(ty))
    }

    /// Whether `ty` mentions no unbound variable.
    ///
    /// ```
    /// let mut store = xsmith::types::TypeStore::new(xsmith::types::TypeSystem::new().into());
    /// let v = store.fresh();
    /// assert!(!store.is_ground(&v));
    /// ```
    pub fn is_ground(&self, ty: &Type) -> bool {
        match self.resolve_ref(ty) {
            Err(_) => false,
            Ok(resolved) => resolved.all_parts(|part| self.is_ground(part)),
        }
    }
}
