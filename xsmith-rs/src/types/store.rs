//! Subtype unification: one program's type variables, the subtype lattice
//! between them, and the undo trail that lets a trial be rolled back.
//!
//! Every variable has a *domain* of types it may still become: anything;
//! any product; any record with at least some fields; one of a set of ground
//! types; or bound to one type (which may mention other variables). Besides
//! its domain, a variable has edges to the variables known to be below and
//! above it. `subtype_unify(a, b)` narrows domains and adds edges so that
//! `a <: b` can hold, propagating the narrowing along edges until nothing
//! changes; a cycle of edges collapses its variables into one. A variable
//! that is one of several candidate types keeps the bounds that mention
//! other variables pending until one candidate remains, and checks its
//! candidates against them again whenever those variables change.
//!
//! Narrowing may commit to fewer solutions than the most general ones (for
//! example, a variable below a record type becomes a record with at least its
//! fields, but a variable above one becomes exactly that record): every
//! solution kept is a real one, which is what a generator needs. Failures are
//! values, and a failed operation changes nothing.
//!
//! The undo trail is `ena`'s snapshot vector (rustc's), so a trial is a
//! snapshot and a rollback.

use std::sync::Arc;

use ena::snapshot_vec::{Snapshot, SnapshotVec, SnapshotVecDelegate};
use smallvec::{smallvec, SmallVec};

use super::system::TypeSystem;
use super::term::{RecordField, Type, TypeVar, Variance};
use crate::random::Random;

/// Why a unification or concretization failed.
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

#[derive(Clone, Debug, PartialEq, Eq)]
struct VarData {
    parent: Option<TypeVar>,
    domain: Domain,
    lower: SmallVec<[TypeVar; 2]>,
    upper: SmallVec<[TypeVar; 2]>,
    /// Upper bounds not yet applied because the domain is a set of several
    /// candidates; applied when one remains.
    pending_upper: Vec<Type>,
    pending_lower: Vec<Type>,
    /// Variables whose pending bounds mention this one: their candidates are
    /// checked again when this one changes.
    watchers: SmallVec<[TypeVar; 2]>,
}

struct Delegate;

impl SnapshotVecDelegate for Delegate {
    type Value = VarData;
    type Undo = ();
    fn reverse(_: &mut Vec<VarData>, _: ()) {}
}

/// A snapshot of a [`TypeStore`], to roll back to or commit.
pub struct TypeSnapshot {
    inner: Snapshot,
}

/// The type variables of one program and the constraints between them.
///
/// ```
/// use xsmith::types::{Type, TypeStore, TypeSystem};
/// let mut system = TypeSystem::new();
/// let number = system.abstract_base("number", None);
/// let int = system.base_under("int", &number);
/// let boolean = system.base("bool");
/// let mut store = TypeStore::new(system.into());
/// let v = store.fresh();
/// store.subtype_unify(&v, &number).unwrap();
/// assert!(store.can_subtype_unify(&v, &int));
/// assert!(!store.can_subtype_unify(&v, &boolean));
/// assert!(store.subtype_unify(&v, &boolean).is_err());
/// // Above int too: int or number.
/// store.subtype_unify(&int, &v).unwrap();
/// assert!(store.can_unify(&v, &number));
/// store.subtype_unify(&v, &int).unwrap();
/// assert_eq!(store.zonk(&v), int);
/// ```
pub struct TypeStore {
    system: Arc<TypeSystem>,
    vars: SnapshotVec<Delegate>,
    dirty: Vec<TypeVar>,
}

impl TypeStore {
    /// An empty store for types of `system`.
    ///
    /// ```
    /// let store = xsmith::types::TypeStore::new(xsmith::types::TypeSystem::new().into());
    /// assert_eq!(store.variable_count(), 0);
    /// ```
    pub fn new(system: Arc<TypeSystem>) -> TypeStore {
        TypeStore {
            system,
            vars: SnapshotVec::new(),
            dirty: Vec::new(),
        }
    }

    /// The type system.
    ///
    /// ```
    /// let store = xsmith::types::TypeStore::new(xsmith::types::TypeSystem::new().into());
    /// assert!(store.system().bases().is_empty());
    /// ```
    pub fn system(&self) -> &TypeSystem {
        &self.system
    }

    /// The base type called `name`.
    ///
    /// # Panics
    ///
    /// When the system has no such base type (a spec bug, named).
    ///
    /// ```
    /// let mut system = xsmith::types::TypeSystem::new();
    /// let int = system.base("int");
    /// let store = xsmith::types::TypeStore::new(system.into());
    /// assert_eq!(store.base("int"), int);
    /// ```
    pub fn base(&self, name: &str) -> Type {
        self.system
            .base_named(name)
            .unwrap_or_else(|| panic!("the type system has no base type `{name}`"))
    }

    /// How many variables have been made (merged ones included).
    ///
    /// ```
    /// let mut store = xsmith::types::TypeStore::new(xsmith::types::TypeSystem::new().into());
    /// store.fresh();
    /// assert_eq!(store.variable_count(), 1);
    /// ```
    pub fn variable_count(&self) -> usize {
        self.vars.len()
    }

    /// A new unconstrained variable.
    ///
    /// ```
    /// let mut store = xsmith::types::TypeStore::new(xsmith::types::TypeSystem::new().into());
    /// assert!(matches!(store.fresh(), xsmith::types::Type::Var(_)));
    /// ```
    pub fn fresh(&mut self) -> Type {
        Type::Var(self.new_var(Domain::Any))
    }

    /// A new variable restricted to one of `candidates`, which must be ground
    /// types (a single candidate gives that type itself).
    ///
    /// # Panics
    ///
    /// When `candidates` is empty or one of them mentions a variable.
    ///
    /// ```
    /// let mut system = xsmith::types::TypeSystem::new();
    /// let int = system.base("int");
    /// let boolean = system.base("bool");
    /// let mut store = xsmith::types::TypeStore::new(system.into());
    /// let v = store.fresh_one_of(&[int.clone(), boolean]);
    /// store.subtype_unify(&v, &int).unwrap();
    /// assert_eq!(store.zonk(&v), int);
    /// ```
    pub fn fresh_one_of(&mut self, candidates: &[Type]) -> Type {
        assert!(!candidates.is_empty(), "fresh_one_of needs at least one candidate type");
        assert!(
            candidates.iter().all(Type::is_ground_term),
            "fresh_one_of takes ground candidate types (no variables)"
        );
        let mut unique: SmallVec<[Type; 4]> = SmallVec::new();
        for candidate in candidates {
            if !unique.contains(candidate) {
                unique.push(candidate.clone());
            }
        }
        if unique.len() == 1 {
            return unique.pop().unwrap();
        }
        Type::Var(self.new_var(Domain::OneOf(unique.into_iter().collect())))
    }

    /// A variable standing for a product of still-open arity.
    ///
    /// ```
    /// use xsmith::types::{Type, TypeStore, TypeSystem};
    /// let mut store = TypeStore::new(TypeSystem::new().into());
    /// let p = store.fresh_product();
    /// assert!(store.can_unify(&p, &Type::product(vec![])));
    /// ```
    pub fn fresh_product(&mut self) -> Type {
        Type::Var(self.new_var(Domain::AnyProduct))
    }

    /// A variable standing for any structural record with at least these
    /// fields.
    ///
    /// ```
    /// use xsmith::types::{Type, TypeStore, TypeSystem};
    /// let mut system = TypeSystem::new();
    /// let int = system.base("int");
    /// let mut store = TypeStore::new(system.into());
    /// let r = store.fresh_record(vec![("x", int.clone())]);
    /// assert!(store.can_unify(&r, &Type::record(vec![("x", int.clone()), ("y", int)])));
    /// ```
    pub fn fresh_record<N: Into<Arc<str>>>(&mut self, at_least: Vec<(N, Type)>) -> Type {
        let Type::Record(fields) = Type::record(at_least) else {
            unreachable!("Type::record makes a record")
        };
        Type::Var(self.new_var(Domain::RecordAtLeast(fields)))
    }

    /// A fresh variable that is a subtype of `ty`.
    ///
    /// ```
    /// let mut system = xsmith::types::TypeSystem::new();
    /// let int = system.base("int");
    /// let mut store = xsmith::types::TypeStore::new(system.into());
    /// let v = store.fresh_subtype_of(&int);
    /// assert_eq!(store.zonk(&v), int);
    /// ```
    pub fn fresh_subtype_of(&mut self, ty: &Type) -> Type {
        let v = self.fresh();
        // Cannot fail, so no snapshot is needed: outside trials nothing is
        // logged for undoing.
        let outer_dirty = std::mem::take(&mut self.dirty);
        self.subtype(&v, ty)
            .and_then(|()| self.propagate())
            .expect("a fresh variable can be a subtype of any type");
        self.dirty = outer_dirty;
        v
    }

    fn new_var(&mut self, domain: Domain) -> TypeVar {
        let index = self.vars.push(VarData {
            parent: None,
            domain,
            lower: SmallVec::new(),
            upper: SmallVec::new(),
            pending_upper: Vec::new(),
            pending_lower: Vec::new(),
            watchers: SmallVec::new(),
        });
        TypeVar(index as u32)
    }

    /// Starts a trial: changes from here on can be rolled back.
    ///
    /// ```
    /// let mut system = xsmith::types::TypeSystem::new();
    /// let int = system.base("int");
    /// let mut store = xsmith::types::TypeStore::new(system.into());
    /// let v = store.fresh();
    /// let trial = store.snapshot();
    /// store.unify(&v, &int).unwrap();
    /// store.rollback(trial);
    /// assert!(matches!(store.zonk(&v), xsmith::types::Type::Var(_)));
    /// ```
    pub fn snapshot(&mut self) -> TypeSnapshot {
        TypeSnapshot {
            inner: self.vars.start_snapshot(),
        }
    }

    /// Undoes every change since `snapshot`.
    ///
    /// ```
    /// let mut store = xsmith::types::TypeStore::new(xsmith::types::TypeSystem::new().into());
    /// let s = store.snapshot();
    /// store.fresh();
    /// store.rollback(s);
    /// assert_eq!(store.variable_count(), 0);
    /// ```
    pub fn rollback(&mut self, snapshot: TypeSnapshot) {
        self.vars.rollback_to(snapshot.inner);
    }

    /// Keeps the changes since `snapshot` (an enclosing snapshot can still
    /// undo them).
    ///
    /// ```
    /// let mut store = xsmith::types::TypeStore::new(xsmith::types::TypeSystem::new().into());
    /// let s = store.snapshot();
    /// store.fresh();
    /// store.commit(s);
    /// assert_eq!(store.variable_count(), 1);
    /// ```
    pub fn commit(&mut self, snapshot: TypeSnapshot) {
        self.vars.commit(snapshot.inner);
    }

    /// Runs `f` and keeps its changes if it succeeds; undoes them if it
    /// fails.
    fn atomically<R>(&mut self, f: impl FnOnce(&mut TypeStore) -> Result<R, TypeError>) -> Result<R, TypeError> {
        let snapshot = self.vars.start_snapshot();
        let outer_dirty = std::mem::take(&mut self.dirty);
        let result = f(self).and_then(|value| self.propagate().map(|()| value));
        self.dirty = outer_dirty;
        match result {
            Ok(value) => {
                self.vars.commit(snapshot);
                Ok(value)
            }
            Err(error) => {
                self.vars.rollback_to(snapshot);
                Err(error)
            }
        }
    }

    /// Whether `f` would succeed, changing nothing.
    fn succeeds(&mut self, f: impl FnOnce(&mut TypeStore) -> Result<(), TypeError>) -> bool {
        let snapshot = self.vars.start_snapshot();
        let outer_dirty = std::mem::take(&mut self.dirty);
        let ok = f(self).and_then(|()| self.propagate()).is_ok();
        self.dirty = outer_dirty;
        self.vars.rollback_to(snapshot);
        ok
    }

    /// Runs `f` as a trial and reports whether it succeeded; nothing it did
    /// is kept. `f` may make variables and unify.
    ///
    /// ```
    /// let mut system = xsmith::types::TypeSystem::new();
    /// let int = system.base("int");
    /// let mut store = xsmith::types::TypeStore::new(system.into());
    /// assert!(store.trial(|s| { let v = s.fresh(); s.unify(&v, &int) }));
    /// assert_eq!(store.variable_count(), 0);
    /// ```
    pub fn trial(&mut self, f: impl FnOnce(&mut TypeStore) -> Result<(), TypeError>) -> bool {
        self.succeeds(f)
    }

    /// Records `sub` as a subtype of `sup`, or fails changing nothing.
    ///
    /// ```
    /// let mut system = xsmith::types::TypeSystem::new();
    /// let number = system.base("number");
    /// let int = system.base_under("int", &number);
    /// let mut store = xsmith::types::TypeStore::new(system.into());
    /// assert!(store.subtype_unify(&int, &number).is_ok());
    /// assert!(store.subtype_unify(&number, &int).is_err());
    /// ```
    pub fn subtype_unify(&mut self, sub: &Type, sup: &Type) -> Result<(), TypeError> {
        if sub.is_ground_term() && sup.is_ground_term() {
            return match self.ground_subtype(sub, sup) {
                true => Ok(()),
                false => Err(TypeError::Mismatch(sub.clone(), sup.clone())),
            };
        }
        self.atomically(|s| s.subtype(sub, sup))
    }

    /// Makes `a` and `b` the same type (two subtype unifications), or fails
    /// changing nothing.
    ///
    /// ```
    /// let mut system = xsmith::types::TypeSystem::new();
    /// let int = system.base("int");
    /// let mut store = xsmith::types::TypeStore::new(system.into());
    /// let v = store.fresh();
    /// store.unify(&v, &int).unwrap();
    /// assert_eq!(store.zonk(&v), int);
    /// ```
    pub fn unify(&mut self, a: &Type, b: &Type) -> Result<(), TypeError> {
        if a.is_ground_term() && b.is_ground_term() {
            return match a == b {
                true => Ok(()),
                false => Err(TypeError::Mismatch(a.clone(), b.clone())),
            };
        }
        self.atomically(|s| s.equal(a, b))
    }

    /// Whether `sub <: sup` could be recorded; changes nothing.
    ///
    /// ```
    /// let mut system = xsmith::types::TypeSystem::new();
    /// let int = system.base("int");
    /// let mut store = xsmith::types::TypeStore::new(system.into());
    /// let v = store.fresh();
    /// assert!(store.can_subtype_unify(&v, &int));
    /// assert!(matches!(store.zonk(&v), xsmith::types::Type::Var(_)));
    /// ```
    pub fn can_subtype_unify(&mut self, sub: &Type, sup: &Type) -> bool {
        if sub.is_ground_term() && sup.is_ground_term() {
            return self.ground_subtype(sub, sup);
        }
        self.succeeds(|s| s.subtype(sub, sup))
    }

    /// Whether `a` and `b` could be unified; changes nothing.
    ///
    /// ```
    /// let mut system = xsmith::types::TypeSystem::new();
    /// let int = system.base("int");
    /// let boolean = system.base("bool");
    /// let mut store = xsmith::types::TypeStore::new(system.into());
    /// assert!(!store.can_unify(&int, &boolean));
    /// ```
    pub fn can_unify(&mut self, a: &Type, b: &Type) -> bool {
        if a.is_ground_term() && b.is_ground_term() {
            return a == b;
        }
        self.succeeds(|s| s.equal(a, b))
    }

    /// The representative of a variable's equivalence class.
    fn find(&self, mut v: TypeVar) -> TypeVar {
        while let Some(parent) = self.vars.get(v.index()).parent {
            v = parent;
        }
        v
    }

    fn data(&self, v: TypeVar) -> &VarData {
        self.vars.get(self.find(v).index())
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

    /// A printable summary of every variable (its representative, domain and
    /// edges), for tests and debugging: equal summaries mean equal stores.
    ///
    /// ```
    /// let mut store = xsmith::types::TypeStore::new(xsmith::types::TypeSystem::new().into());
    /// store.fresh();
    /// assert!(store.dump().contains("Any"));
    /// ```
    pub fn dump(&self) -> String {
        (0..self.vars.len())
            .map(|i| format!("?{i}: {:?}\n", self.vars.get(i)))
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
        let mut ty = ty.clone();
        while let Type::Var(v) = ty {
            let root = self.find(v);
            match &self.vars.get(root.index()).domain {
                Domain::Bound(bound) => ty = bound.clone(),
                _ => return Type::Var(root),
            }
        }
        ty
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

    /// Whether `ty` mentions no unbound variable.
    ///
    /// ```
    /// let mut store = xsmith::types::TypeStore::new(xsmith::types::TypeSystem::new().into());
    /// let v = store.fresh();
    /// assert!(!store.is_ground(&v));
    /// ```
    pub fn is_ground(&self, ty: &Type) -> bool {
        match self.resolve(ty) {
            Type::Var(_) => false,
            resolved => resolved.parts().into_iter().all(|part| self.is_ground(part)),
        }
    }

    /// Unifies `ty` with a product of `arity` items (fresh variables where it
    /// is still open) and returns the items.
    ///
    /// ```
    /// let mut store = xsmith::types::TypeStore::new(xsmith::types::TypeSystem::new().into());
    /// let p = store.fresh_product();
    /// assert_eq!(store.product_items(&p, 2).unwrap().len(), 2);
    /// assert!(store.product_items(&p, 3).is_err());
    /// ```
    pub fn product_items(&mut self, ty: &Type, arity: usize) -> Result<Vec<Type>, TypeError> {
        if let Type::Product(items) = self.resolve(ty) {
            return if items.len() == arity {
                Ok(items.to_vec())
            } else {
                Err(TypeError::Mismatch(Type::Product(items), ty.clone()))
            };
        }
        let items: Vec<Type> = (0..arity).map(|_| self.fresh()).collect();
        self.unify(ty, &Type::product(items.clone()))?;
        Ok(items)
    }

    /// Unifies `ty` with a function type and returns its parameters and
    /// result.
    ///
    /// ```
    /// let mut store = xsmith::types::TypeStore::new(xsmith::types::TypeSystem::new().into());
    /// let f = store.fresh();
    /// let (params, result) = store.function_parts(&f).unwrap();
    /// # let _ = (params, result);
    /// ```
    pub fn function_parts(&mut self, ty: &Type) -> Result<(Type, Type), TypeError> {
        if let Type::Function(f) = self.resolve(ty) {
            return Ok((f.0.clone(), f.1.clone()));
        }
        let (params, result) = (self.fresh_product(), self.fresh());
        self.unify(ty, &Type::function_of(params.clone(), result.clone()))?;
        Ok((params, result))
    }

    // ----- the unifier proper (callers run `propagate` afterwards) -----

    fn equal(&mut self, a: &Type, b: &Type) -> Result<(), TypeError> {
        if let (Type::Var(x), Type::Var(y)) = (self.resolve(a), self.resolve(b)) {
            // Two variables with no path between them (one has no edges at
            // all) just become one.
            let isolated = |v: TypeVar| {
                let data = self.data(v);
                data.lower.is_empty() && data.upper.is_empty()
            };
            // A blank variable (unconstrained, unrelated, unwatched) just
            // joins the other one.
            let blank = |v: TypeVar| {
                let data = self.data(v);
                isolated(v)
                    && data.domain == Domain::Any
                    && data.watchers.is_empty()
                    && data.pending_upper.is_empty()
                    && data.pending_lower.is_empty()
            };
            if x != y && blank(x) {
                self.vars.update(x.index(), |d| d.parent = Some(y));
                return Ok(());
            }
            if x != y && blank(y) {
                self.vars.update(y.index(), |d| d.parent = Some(x));
                return Ok(());
            }
            if x != y && (isolated(x) || isolated(y)) {
                return self.merge(vec![x, y]);
            }
        }
        // A variable below a type first: below a record it gains the
        // record's fields, above one it becomes just the fields it has.
        if matches!(self.resolve(b), Type::Var(_)) && !matches!(self.resolve(a), Type::Var(_)) {
            self.subtype(b, a)?;
            return self.subtype(a, b);
        }
        self.subtype(a, b)?;
        self.subtype(b, a)
    }

    fn subtype(&mut self, sub: &Type, sup: &Type) -> Result<(), TypeError> {
        let (a, b) = (self.resolve(sub), self.resolve(sup));
        if a == b {
            return Ok(());
        }
        match (&a, &b) {
            (Type::Var(x), Type::Var(y)) => self.relate_vars(*x, *y),
            (Type::Var(x), _) => self.bound_above(*x, &b),
            (_, Type::Var(y)) => self.bound_below(*y, &a),
            _ => self.structural(&a, &b),
        }
    }

    /// `a <: b` for two types that are not variables at the top.
    fn structural(&mut self, a: &Type, b: &Type) -> Result<(), TypeError> {
        let mismatch = || Err(TypeError::Mismatch(a.clone(), b.clone()));
        match (a, b) {
            (Type::Base(_), Type::Base(_)) | (Type::Nominal(_), Type::Nominal(_)) => {
                if self.system.is_base_subtype(a, b) {
                    Ok(())
                } else {
                    mismatch()
                }
            }
            (Type::Generic(g, xs), Type::Generic(h, ys)) if g == h && xs.len() == ys.len() => {
                let variances = self.system.variances(*g).to_vec();
                for ((x, y), variance) in xs.iter().zip(ys.iter()).zip(variances) {
                    match variance {
                        Variance::Covariant => self.subtype(x, y)?,
                        Variance::Contravariant => self.subtype(y, x)?,
                        Variance::Invariant => self.equal(x, y)?,
                    }
                }
                Ok(())
            }
            (Type::Function(f), Type::Function(g)) => {
                self.subtype(&g.0, &f.0)?;
                self.subtype(&f.1, &g.1)
            }
            (Type::Product(xs), Type::Product(ys)) if xs.len() == ys.len() => {
                for (x, y) in xs.iter().zip(ys.iter()) {
                    self.subtype(x, y)?;
                }
                Ok(())
            }
            (Type::Record(fa), Type::Record(fb)) => {
                for (name, tb) in fb.iter() {
                    match fa.iter().find(|(n, _)| n == name) {
                        Some((_, ta)) => self.equal(ta, tb)?,
                        None => return mismatch(),
                    }
                }
                Ok(())
            }
            _ => mismatch(),
        }
    }

    /// Whether ground `a <: b`, without touching the store.
    fn ground_subtype(&self, a: &Type, b: &Type) -> bool {
        if a == b {
            return true;
        }
        match (a, b) {
            (Type::Base(_), Type::Base(_)) | (Type::Nominal(_), Type::Nominal(_)) => self.system.is_base_subtype(a, b),
            (Type::Generic(g, xs), Type::Generic(h, ys)) if g == h && xs.len() == ys.len() => xs
                .iter()
                .zip(ys.iter())
                .zip(self.system.variances(*g))
                .all(|((x, y), v)| match v {
                    Variance::Covariant => self.ground_subtype(x, y),
                    Variance::Contravariant => self.ground_subtype(y, x),
                    Variance::Invariant => x == y,
                }),
            (Type::Function(f), Type::Function(g)) => {
                self.ground_subtype(&g.0, &f.0) && self.ground_subtype(&f.1, &g.1)
            }
            (Type::Product(xs), Type::Product(ys)) => {
                xs.len() == ys.len() && xs.iter().zip(ys.iter()).all(|(x, y)| self.ground_subtype(x, y))
            }
            (Type::Record(fa), Type::Record(fb)) => fb
                .iter()
                .all(|(name, tb)| fa.iter().any(|(n, ta)| n == name && ta == tb)),
            _ => false,
        }
    }

    /// Whether `v`, about to become `ty` (or a record with at least the
    /// fields of record `ty`), would contain itself: whether `ty` mentions
    /// `v` or a variable joined to it by subtype edges, up or down, through
    /// variables that are not records. Variables so joined have the same
    /// shape, so `ty` could not be finite, and unifying on would expand
    /// their shapes for ever. (A record's subtypes and supertypes may have
    /// other fields, so the edges of records are not followed.)
    fn occurs(&self, v: TypeVar, ty: &Type) -> bool {
        let mut free = Vec::new();
        self.free_vars(ty, &mut free);
        if free.is_empty() {
            return false;
        }
        let start = self.find(v);
        // A variable with no edges is joined to nothing but itself.
        let isolated = |w: &TypeVar| {
            let data = self.vars.get(w.index());
            data.lower.is_empty() && data.upper.is_empty()
        };
        if free.iter().all(isolated) {
            return free.contains(&start);
        }
        let record = matches!(self.resolve(ty), Type::Record(_));
        let joined = self.joined(start, |at| {
            if at == start {
                record
            } else {
                matches!(
                    self.domain(at),
                    Domain::RecordAtLeast(_) | Domain::Bound(Type::Record(_))
                )
            }
        });
        joined.iter().any(|w| free.contains(w))
    }

    /// The representatives joined to `v` by subtype edges, up or down, `v`
    /// included; the edges of those for which `stop` holds are not followed.
    fn joined(&self, v: TypeVar, stop: impl Fn(TypeVar) -> bool) -> Vec<TypeVar> {
        let start = self.find(v);
        let mut seen = vec![start];
        let mut stack = vec![start];
        while let Some(at) = stack.pop() {
            if stop(at) {
                continue;
            }
            let data = self.vars.get(at.index());
            for &n in data.lower.iter().chain(data.upper.iter()) {
                let n = self.find(n);
                if !seen.contains(&n) {
                    seen.push(n);
                    stack.push(n);
                }
            }
        }
        seen
    }

    /// Whether `v` would contain itself with domain `domain`.
    fn domain_occurs(&self, v: TypeVar, domain: &Domain) -> bool {
        match domain {
            Domain::Bound(t) => self.occurs(v, t),
            Domain::RecordAtLeast(fields) => self.occurs(v, &Type::Record(fields.clone())),
            _ => false,
        }
    }

    /// The representatives of the unbound variables in `ty` and in the
    /// fields of the records they must be.
    fn free_vars(&self, ty: &Type, free: &mut Vec<TypeVar>) {
        match self.resolve(ty) {
            Type::Var(w) => {
                if !free.contains(&w) {
                    free.push(w);
                    if let Domain::RecordAtLeast(fields) = &self.vars.get(w.index()).domain {
                        for (_, t) in fields.iter() {
                            self.free_vars(t, free);
                        }
                    }
                }
            }
            other => {
                for part in other.parts() {
                    self.free_vars(part, free);
                }
            }
        }
    }

    /// The domain of the subtypes of `ty` (not a variable at the top); for a
    /// composite type, a shape of fresh variables related to its parts.
    fn below(&mut self, ty: &Type) -> Result<Domain, TypeError> {
        self.shape(ty, true)
    }

    /// The domain of the supertypes of `ty`.
    fn above(&mut self, ty: &Type) -> Result<Domain, TypeError> {
        self.shape(ty, false)
    }

    fn shape(&mut self, ty: &Type, below: bool) -> Result<Domain, TypeError> {
        // A fresh variable related to `part` in the direction given.
        let related = |store: &mut TypeStore, part: &Type, covariant: bool| -> Result<Type, TypeError> {
            // A ground part with nothing above or below it can only be itself.
            let fixed = part.is_ground_term()
                && !matches!(part, Type::Record(_))
                && store.system.declared_subtypes(part).len() == 1
                && store.system.declared_supertypes(part).len() == 1;
            if fixed {
                return Ok(part.clone());
            }
            let fresh = store.fresh();
            if covariant == below {
                store.subtype(&fresh, part)?;
            } else {
                store.subtype(part, &fresh)?;
            }
            Ok(fresh)
        };
        Ok(match ty {
            Type::Base(_) | Type::Nominal(_) => {
                let options = if below {
                    self.system.declared_subtypes(ty)
                } else {
                    self.system.declared_supertypes(ty)
                };
                one_of(options)
            }
            Type::Record(fields) if below => Domain::RecordAtLeast(fields.clone()),
            Type::Record(_) => Domain::Bound(ty.clone()),
            Type::Product(items) => {
                let mut shape = Vec::with_capacity(items.len());
                for item in items.iter() {
                    shape.push(related(self, item, true)?);
                }
                Domain::Bound(Type::product(shape))
            }
            Type::Generic(g, args) => {
                let variances = self.system.variances(*g).to_vec();
                let mut shape = Vec::with_capacity(args.len());
                for (arg, variance) in args.iter().zip(variances) {
                    shape.push(match variance {
                        Variance::Invariant => arg.clone(),
                        Variance::Covariant => related(self, arg, true)?,
                        Variance::Contravariant => related(self, arg, false)?,
                    });
                }
                Domain::Bound(Type::generic(*g, shape))
            }
            Type::Function(f) => {
                let params = related(self, &f.0, false)?;
                let result = related(self, &f.1, true)?;
                Domain::Bound(Type::function_of(params, result))
            }
            Type::Var(_) => unreachable!("shapes are made of resolved, non-variable types"),
        })
    }

    /// `x <: ty` for a free variable `x` and a type that is not a variable.
    fn bound_above(&mut self, x: TypeVar, ty: &Type) -> Result<(), TypeError> {
        if self.occurs(x, ty) {
            return Err(TypeError::Infinite(x));
        }
        match self.domain(x).clone() {
            Domain::Any | Domain::AnyProduct | Domain::RecordAtLeast(_) => {
                let shape = self.below(ty)?;
                self.restrict(x, shape)
            }
            Domain::OneOf(candidates) => self.filter_candidates(x, candidates, Bound::Upper(ty.clone())),
            Domain::Bound(_) => unreachable!("resolved variables are unbound"),
        }
    }

    /// `ty <: y` for a free variable `y` and a type that is not a variable.
    fn bound_below(&mut self, y: TypeVar, ty: &Type) -> Result<(), TypeError> {
        let domain = self.domain(y).clone();
        if !matches!(domain, Domain::RecordAtLeast(_)) && self.occurs(y, ty) {
            return Err(TypeError::Infinite(y));
        }
        match domain {
            Domain::RecordAtLeast(fields) => {
                // y is a supertype of ty with at least `fields`: ty must have
                // them, and y becomes exactly the record of those fields (the
                // supertype that serves every other type below y too; `equal`
                // gives y its other fields first when y must equal ty).
                let exact = Type::Record(fields);
                self.structural(&self.resolve(ty), &exact)?;
                self.restrict(y, Domain::Bound(exact))
            }
            Domain::Any | Domain::AnyProduct => {
                let shape = self.above(ty)?;
                self.restrict(y, shape)
            }
            Domain::OneOf(candidates) => self.filter_candidates(y, candidates, Bound::Lower(ty.clone())),
            Domain::Bound(_) => unreachable!("resolved variables are unbound"),
        }
    }

    /// Keeps the ground candidates of `v` that satisfy `bound` together with
    /// the bounds already pending on `v`.
    fn filter_candidates(&mut self, v: TypeVar, candidates: Arc<[Type]>, bound: Bound) -> Result<(), TypeError> {
        let mut bounds = self.pending_bounds(v);
        bounds.push(bound.clone());
        let kept = self.satisfying(candidates, &bounds);
        if kept.is_empty() {
            let bound_type = bound.ty().clone();
            return Err(TypeError::Mismatch(Type::Var(v), bound_type));
        }
        if !self.is_ground(bound.ty()) {
            let root = self.find(v);
            self.vars.update(root.index(), |d| match &bound {
                Bound::Upper(t) => d.pending_upper.push(t.clone()),
                Bound::Lower(t) => d.pending_lower.push(t.clone()),
                Bound::Equal(t) => {
                    d.pending_upper.push(t.clone());
                    d.pending_lower.push(t.clone());
                }
            });
            self.watch(root, bound.ty());
        }
        self.set_domain(v, one_of(kept.into_vec()))
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
    fn satisfying(&mut self, candidates: Arc<[Type]>, bounds: &[Bound]) -> SmallVec<[Type; 4]> {
        candidates
            .iter()
            .filter(|c| self.succeeds(|s| bounds.iter().try_for_each(|bound| s.satisfy(c, bound))))
            .cloned()
            .collect()
    }

    /// Makes `watcher` be checked again when a variable of `ty` changes.
    fn watch(&mut self, watcher: TypeVar, ty: &Type) {
        let mut free = Vec::new();
        self.free_vars(ty, &mut free);
        for w in free {
            if !self.vars.get(w.index()).watchers.contains(&watcher) {
                self.vars.update(w.index(), |d| d.watchers.push(watcher));
            }
        }
    }

    /// Keeps the candidates of `v` that still satisfy its pending bounds, a
    /// variable of which has changed.
    fn recheck(&mut self, v: TypeVar) -> Result<(), TypeError> {
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
        self.set_domain(root, one_of(kept.into_vec()))
    }

    /// Applies `bound` to candidate type `c`.
    fn satisfy(&mut self, c: &Type, bound: &Bound) -> Result<(), TypeError> {
        match bound {
            Bound::Upper(t) => self.subtype(c, t),
            Bound::Lower(t) => self.subtype(t, c),
            Bound::Equal(t) => self.equal(c, t),
        }
    }

    /// Narrows the domain of free variable `v` to its intersection with
    /// `domain`.
    fn restrict(&mut self, v: TypeVar, domain: Domain) -> Result<(), TypeError> {
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
    fn set_domain(&mut self, v: TypeVar, domain: Domain) -> Result<(), TypeError> {
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
        if self.vars.get(root.index()).domain == domain {
            return Ok(());
        }
        if self.domain_occurs(root, &domain) {
            return Err(TypeError::Infinite(root));
        }
        self.vars.update(root.index(), |d| d.domain = domain.clone());
        self.dirty.push(root);
        if let Domain::Bound(t) = domain {
            let data = self.vars.get(root.index());
            if !data.pending_upper.is_empty() || !data.pending_lower.is_empty() {
                let (pending_upper, pending_lower) = (data.pending_upper.clone(), data.pending_lower.clone());
                self.vars.update(root.index(), |d| {
                    d.pending_upper.clear();
                    d.pending_lower.clear();
                });
                for upper in &pending_upper {
                    self.subtype(&t, upper)?;
                }
                for lower in &pending_lower {
                    self.subtype(lower, &t)?;
                }
            }
        }
        Ok(())
    }

    /// `x <: y` for two free variables.
    fn relate_vars(&mut self, x: TypeVar, y: TypeVar) -> Result<(), TypeError> {
        let (x, y) = (self.find(x), self.find(y));
        if x == y || self.data(x).upper.iter().any(|&u| self.find(u) == y) {
            return Ok(());
        }
        // Only a variable with something above it can reach one with
        // something below it.
        let may_close_cycle = !self.data(y).upper.is_empty() && !self.data(x).lower.is_empty();
        if may_close_cycle && self.reaches_upward(y, x) {
            return self.collapse(x, y);
        }
        self.vars.update(x.index(), |d| d.upper.push(y));
        self.vars.update(y.index(), |d| d.lower.push(x));
        // A new edge may rule out candidates watching x or y.
        if !self.data(x).watchers.is_empty() || !self.data(y).watchers.is_empty() {
            self.dirty.extend([x, y]);
        }
        self.relate_domains(x, y)
    }

    /// Whether `to` can be reached from `from` along upper edges.
    fn reaches_upward(&self, from: TypeVar, to: TypeVar) -> bool {
        self.closure(from, true).contains(&self.find(to))
    }

    /// The representatives reachable from `start` along upper (or lower)
    /// edges, `start` included.
    fn closure(&self, start: TypeVar, upward: bool) -> Vec<TypeVar> {
        let mut seen = vec![self.find(start)];
        let mut stack = vec![self.find(start)];
        while let Some(v) = stack.pop() {
            let data = self.vars.get(v.index());
            let next = if upward { &data.upper } else { &data.lower };
            for &n in next {
                let n = self.find(n);
                if !seen.contains(&n) {
                    seen.push(n);
                    stack.push(n);
                }
            }
        }
        seen
    }

    /// Adding `x <: y` closes a cycle (`y` is already below `x`): every
    /// variable between them becomes one.
    fn collapse(&mut self, x: TypeVar, y: TypeVar) -> Result<(), TypeError> {
        let above_y = self.closure(y, true);
        let below_x = self.closure(x, false);
        let members: Vec<TypeVar> = above_y.into_iter().filter(|v| below_x.contains(v)).collect();
        self.merge(members)
    }

    /// Makes `members` one variable, with the intersection of their domains
    /// and the union of their edges.
    fn merge(&mut self, mut members: Vec<TypeVar>) -> Result<(), TypeError> {
        members.sort();
        let root = members[0];
        let mut absorbed = Vec::new();
        for &member in &members[1..] {
            let data = self.vars.get(member.index()).clone();
            self.vars.update(member.index(), |d| {
                d.parent = Some(root);
                d.lower.clear();
                d.upper.clear();
                d.pending_upper.clear();
                d.pending_lower.clear();
                d.watchers.clear();
            });
            self.vars.update(root.index(), |d| {
                d.lower.extend(data.lower.iter().copied());
                d.upper.extend(data.upper.iter().copied());
                d.pending_upper.extend(data.pending_upper.iter().cloned());
                d.pending_lower.extend(data.pending_lower.iter().cloned());
                for &w in &data.watchers {
                    if !d.watchers.contains(&w) {
                        d.watchers.push(w);
                    }
                }
            });
            absorbed.push(data.domain);
        }
        let (lower, upper) = {
            let data = self.vars.get(root.index());
            (data.lower.clone(), data.upper.clone())
        };
        let keep = |store: &TypeStore, edges: SmallVec<[TypeVar; 2]>| {
            let mut kept: SmallVec<[TypeVar; 2]> = SmallVec::new();
            for e in edges {
                let e = store.find(e);
                if e != root && !kept.contains(&e) {
                    kept.push(e);
                }
            }
            kept
        };
        let (lower, upper) = (keep(self, lower), keep(self, upper));
        self.vars.update(root.index(), |d| {
            d.lower = lower;
            d.upper = upper;
        });
        for domain in absorbed {
            self.restrict(root, domain)?;
        }
        // The domain may mention a variable that is now root itself.
        if self.domain_occurs(root, self.domain(root)) {
            return Err(TypeError::Infinite(root));
        }
        let pending = self.vars.get(root.index()).clone();
        if let Domain::Bound(t) = &pending.domain {
            if !pending.pending_upper.is_empty() || !pending.pending_lower.is_empty() {
                self.vars.update(root.index(), |d| {
                    d.pending_upper.clear();
                    d.pending_lower.clear();
                });
                for upper in &pending.pending_upper {
                    self.subtype(t, upper)?;
                }
                for lower in &pending.pending_lower {
                    self.subtype(lower, t)?;
                }
            }
        }
        self.dirty.push(root);
        Ok(())
    }

    /// Narrows the domains of `x` and `y` so that `x <: y` can hold.
    fn relate_domains(&mut self, x: TypeVar, y: TypeVar) -> Result<(), TypeError> {
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
    fn propagate(&mut self) -> Result<(), TypeError> {
        while let Some(v) = self.dirty.pop() {
            let root = self.find(v);
            let data = self.vars.get(root.index());
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

    // ----- concretization -----

    /// Makes `ty` ground: every variable in it becomes a type chosen at
    /// random among those that satisfy its constraints (composite types
    /// nested at most `max_depth` deep where they are invented). Fails,
    /// changing nothing, when no choice works.
    ///
    /// ```
    /// use xsmith::{Random, types::{TypeStore, TypeSystem}};
    /// let mut system = TypeSystem::new();
    /// let int = system.base("int");
    /// let boolean = system.base("bool");
    /// let mut store = TypeStore::new(system.into());
    /// let v = store.fresh_one_of(&[int.clone(), boolean.clone()]);
    /// let t = store.concretize(&v, &mut Random::from_seed(1), 2).unwrap();
    /// assert!(t == int || t == boolean);
    /// assert_eq!(store.zonk(&v), t);
    /// ```
    pub fn concretize(&mut self, ty: &Type, random: &mut Random, max_depth: u32) -> Result<Type, TypeError> {
        self.atomically(|s| s.make_ground(ty, random, max_depth))?;
        Ok(self.zonk(ty))
    }

    fn make_ground(&mut self, ty: &Type, random: &mut Random, depth: u32) -> Result<(), TypeError> {
        match self.resolve(ty) {
            Type::Var(v) => {
                if !matches!(self.domain(v), Domain::OneOf(_)) {
                    // Candidate sets whose pending bounds mention v, or a
                    // variable joined to it, settle first: v's type follows
                    // from theirs.
                    let watchers: Vec<TypeVar> = self
                        .joined(v, |_| false)
                        .into_iter()
                        .flat_map(|u| self.data(u).watchers.clone())
                        .collect();
                    for watcher in watchers {
                        let w = self.find(watcher);
                        if matches!(self.domain(w), Domain::OneOf(_)) {
                            self.make_ground(&Type::Var(w), random, depth)?;
                        }
                    }
                    if !matches!(self.resolve(&Type::Var(v)), Type::Var(_)) {
                        return self.make_ground(&Type::Var(v), random, depth);
                    }
                }
                let v = self.find(v);
                let candidates = self.ground_candidates(v, random, depth);
                for candidate in candidates {
                    let attempt = self.atomically(|s| s.equal(&Type::Var(v), &candidate));
                    if attempt.is_ok() {
                        return self.make_ground(&candidate, random, depth.saturating_sub(1));
                    }
                }
                Err(TypeError::NoConcreteType(v))
            }
            composite => {
                for part in composite.parts() {
                    self.make_ground(part, random, depth.saturating_sub(1))?;
                    self.propagate()?;
                }
                Ok(())
            }
        }
    }

    /// Candidate types for free variable `v`, in the order to try them.
    fn ground_candidates(&mut self, v: TypeVar, random: &mut Random, depth: u32) -> Vec<Type> {
        const INVENTED: usize = 8;
        match self.domain(v).clone() {
            Domain::OneOf(cs) => {
                let mut concrete: Vec<Type> = cs.iter().filter(|c| self.concrete_leaves(c)).cloned().collect();
                shuffle(&mut concrete, random);
                concrete
            }
            Domain::AnyProduct => (0..INVENTED).map(|_| self.invent_product(random, depth)).collect(),
            Domain::RecordAtLeast(fields) => {
                let mut invented: Vec<Type> = (0..INVENTED)
                    .map(|_| self.invent_record(Some(&fields), random, depth))
                    .collect();
                // The record of just those fields is a supertype of every
                // other candidate, so it suits whatever is below the
                // variable: make sure it gets tried.
                invented.push(Type::Record(fields));
                invented
            }
            Domain::Any => {
                let mut invented: Vec<Type> = (0..INVENTED).map(|_| self.invent(random, depth)).collect();
                // Make sure the simplest types get tried too.
                let mut leaves = self.system.leaf_types();
                shuffle(&mut leaves, random);
                invented.extend(leaves);
                invented
            }
            Domain::Bound(_) => unreachable!("resolved variables are unbound"),
        }
    }

    fn concrete_leaves(&self, ty: &Type) -> bool {
        self.system.is_concrete_base(ty) && ty.parts().into_iter().all(|p| self.concrete_leaves(p))
    }

    /// A random ground type at most `depth` deep.
    fn invent(&mut self, random: &mut Random, depth: u32) -> Type {
        let leaves = self.system.leaf_types();
        let generics: Vec<_> = self.system.generic_ids().collect();
        let records = !self.system.invented_record_fields().is_empty();
        // A function's parameters are a product inside it: a function type
        // is at least two deep.
        let functions = self.system.invents_functions() && depth >= 2;
        let products = self.system.invents_products();
        let composite_kinds = generics.len() + usize::from(records) + usize::from(functions) + usize::from(products);
        let leaf_weight = 3 * leaves.len().max(1) as u32;
        let composite_weight = if depth == 0 { 0 } else { 2 * composite_kinds as u32 };
        let pick_composite = leaves.is_empty() || random.weighted(&[leaf_weight, composite_weight]) == Some(1);
        if !pick_composite || composite_kinds == 0 || depth == 0 {
            if leaves.is_empty() {
                return Type::product(vec![]);
            }
            return leaves[random.below(leaves.len() as u64) as usize].clone();
        }
        let mut kind = random.below(composite_kinds as u64) as usize;
        if kind < generics.len() {
            let g = generics[kind];
            let arity = self.system.variances(g).len();
            let args = (0..arity).map(|_| self.invent(random, depth - 1)).collect();
            return Type::generic(g, args);
        }
        kind -= generics.len();
        if records {
            if kind == 0 {
                return self.invent_record(None, random, depth);
            }
            kind -= 1;
        }
        if functions && kind == 0 {
            let arity = random.below(3) as usize;
            let params = (0..arity).map(|_| self.invent(random, depth - 2)).collect();
            let result = self.invent(random, depth - 1);
            return Type::function(params, result);
        }
        self.invent_product(random, depth)
    }

    fn invent_product(&mut self, random: &mut Random, depth: u32) -> Type {
        let arity = random.below(4) as usize;
        Type::product(
            (0..arity)
                .map(|_| self.invent(random, depth.saturating_sub(1)))
                .collect(),
        )
    }

    /// A record with `at_least` fields (if any) and some random others.
    fn invent_record(&mut self, at_least: Option<&Arc<[RecordField]>>, random: &mut Random, depth: u32) -> Type {
        let mut fields: Vec<RecordField> = at_least.map(|f| f.to_vec()).unwrap_or_default();
        let names = self.system.invented_record_fields().to_vec();
        let extra = random.below(3) + u64::from(fields.is_empty());
        for _ in 0..extra {
            if names.is_empty() {
                break;
            }
            let name = names[random.below(names.len() as u64) as usize].clone();
            if !fields.iter().any(|(n, _)| *n == name) {
                let ty = self.invent(random, depth.saturating_sub(1));
                fields.push((name, ty));
            }
        }
        fields.sort_by(|a, b| a.0.cmp(&b.0));
        Type::Record(fields.into())
    }
}

/// A bound on a candidate type.
#[derive(Clone)]
enum Bound {
    Upper(Type),
    Lower(Type),
    Equal(Type),
}

impl Bound {
    fn ty(&self) -> &Type {
        match self {
            Bound::Upper(t) | Bound::Lower(t) | Bound::Equal(t) => t,
        }
    }
}

/// The domain of exactly these ground types (duplicates removed).
fn one_of(types: Vec<Type>) -> Domain {
    let mut unique: SmallVec<[Type; 4]> = smallvec![];
    for t in types {
        if !unique.contains(&t) {
            unique.push(t);
        }
    }
    match unique.len() {
        1 => Domain::Bound(unique.pop().unwrap()),
        _ => Domain::OneOf(unique.into_iter().collect()),
    }
}

/// A representative type of a domain, for error messages.
fn domain_example(domain: &Domain) -> Type {
    match domain {
        Domain::Bound(t) => t.clone(),
        Domain::OneOf(cs) => cs.first().cloned().unwrap_or_else(|| Type::product(vec![])),
        Domain::RecordAtLeast(f) => Type::Record(f.clone()),
        Domain::AnyProduct | Domain::Any => Type::product(vec![]),
    }
}

/// Fisher-Yates with the program's random source.
fn shuffle<T>(items: &mut [T], random: &mut Random) {
    for i in (1..items.len()).rev() {
        let j = random.below(i as u64 + 1) as usize;
        items.swap(i, j);
    }
}
