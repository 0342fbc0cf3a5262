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
//! Variables made one form a class, named by one of them, which holds the
//! class's domain and edges; a union-find with union by rank and path
//! compression maps a variable to its class. Every change is logged on one
//! undo trail (`ena`'s undo log, rustc's) as a typed action that records
//! just what it replaced, so a trial is a snapshot and a rollback.
//!
//! The store is split by concept, each file adding to [`TypeStore`]:
//!
//! - `domain`: what a variable may become ([`Domain`]) and why an operation
//!   failed ([`TypeError`]);
//! - `classes`, `vars`, `trail`: the union-find, each class's data, and the
//!   undo log they share;
//! - `query`: reading the store: a variable's class and domain, the type
//!   it stands for so far ([`TypeStore::resolve`], [`TypeStore::zonk`]);
//! - `unify`: the subtype rules between terms, the edges between variables,
//!   collapsing cycles, the occurs check;
//! - `narrow`: intersecting a variable's domain with what a constraint
//!   allows, and propagating that along the edges;
//! - `candidates`: sets of candidate types with pending bounds, and the
//!   variables they watch;
//! - `concretize`: choosing a ground type for what is still open.
//!
//! Unifying, narrowing and checking candidates call one another (narrowing
//! a domain to a composite type relates its parts; relating parts narrows
//! domains), so those files are one recursive algorithm split for reading,
//! not layers. Their imports still run one way: each file imports the store
//! and the files below it (`domain`, `vars`, `candidates`' `Bound`), never
//! the reverse.

use std::sync::Arc;

mod candidates;
mod classes;
mod concretize;
mod domain;
mod narrow;
mod query;
mod trail;
mod unify;
mod vars;

use domain::one_of;
pub use domain::{Domain, TypeError};
pub(crate) use query::Resolved;

use super::heads::Producible;
use super::system::TypeSystem;
use super::term::{Type, TypeVar};
use classes::Classes;
use trail::{Mark, Trail};
use vars::Vars;

/// A snapshot of a [`TypeStore`], to roll back to or commit: a one-use
/// token, given back in the reverse order of taking.
pub struct TypeSnapshot {
    inner: Mark,
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
    /// Which class each variable is in.
    classes: Classes,
    /// Each class's domain, edges, pending bounds and watchers, under its
    /// name.
    vars: Vars,
    /// The undo log of `classes` and `vars`.
    trail: Trail,
    /// Classes whose domain changed, to propagate along their edges: the
    /// current operation's from `dirty_base` on (an operation inside
    /// another sees only its own, as if the vector were its alone, without
    /// allocating one for each).
    dirty: Vec<TypeVar>,
    dirty_base: usize,
    /// The heads concretization builds types of, when it can.
    producible: Option<Arc<Producible>>,
    /// Whether concretization may invent composite types
    /// (see [`concretize_plain`](TypeStore::concretize_plain)).
    invents_composites: bool,
    /// The domains of the last few candidate lists given to
    /// [`fresh_one_of`](TypeStore::fresh_one_of): a node type function
    /// gives the same list at every call.
    recent_one_of: Vec<(Box<[Type]>, Domain)>,
    /// The same for the lists of names given to
    /// [`fresh_one_of_named`](TypeStore::fresh_one_of_named).
    recent_named: Vec<(Box<[Box<str>]>, Domain)>,
}

/// How many candidate lists [`TypeStore::fresh_one_of`] remembers.
const RECENT_ONE_OF: usize = 8;

/// Remembers that `given` makes `domain`, forgetting the oldest of
/// `recent` when it holds [`RECENT_ONE_OF`] already.
fn remember<K>(recent: &mut Vec<(K, Domain)>, given: K, domain: &Domain) {
    if recent.len() == RECENT_ONE_OF {
        recent.remove(0);
    }
    recent.push((given, domain.clone()));
}

impl TypeStore {
    /// An empty store for types of `system`.
    ///
    /// ```
    /// let store = xsmith::types::TypeStore::new(xsmith::types::TypeSystem::new().into());
    /// assert_eq!(store.variable_count(), 0);
    /// ```
    pub fn new(system: Arc<TypeSystem>) -> TypeStore {
        TypeStore::with_room(system, 0)
    }

    /// An empty store with room for `variables` variables before it
    /// grows.
    pub(crate) fn with_room(system: Arc<TypeSystem>, variables: usize) -> TypeStore {
        TypeStore {
            system,
            classes: Classes::with_room(variables),
            vars: Vars::with_room(variables),
            trail: Trail::default(),
            dirty: Vec::new(),
            dirty_base: 0,
            producible: None,
            invents_composites: true,
            recent_one_of: Vec::new(),
            recent_named: Vec::new(),
        }
    }

    /// Makes concretization pick only types built of `producible` heads
    /// where any fits (types of which the program can hold values), and
    /// others only when none does.
    ///
    /// ```
    /// use xsmith::types::{TypeStore, TypeSystem};
    /// let mut store = TypeStore::new(TypeSystem::new().into());
    /// store.set_producible(None);
    /// ```
    pub fn set_producible(&mut self, producible: Option<Arc<Producible>>) {
        self.producible = producible;
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

    /// `name<args..>`: the generic constructor called `name` applied to
    /// `args` (the canned `array`, `list` and `dict` take one argument, the
    /// element type).
    ///
    /// # Panics
    ///
    /// When the system has no generic constructor `name`, or it takes
    /// another number of arguments (a spec bug, named).
    ///
    /// ```
    /// use xsmith::types::{TypeStore, TypeSystem, Variance};
    /// let mut system = TypeSystem::new();
    /// system.base("int");
    /// system.generic("array", &[Variance::Invariant]);
    /// let store = TypeStore::new(system.into());
    /// let array = store.generic("array", vec![store.base("int")]);
    /// assert_eq!(store.system().display(&array).to_string(), "array<int>");
    /// ```
    pub fn generic(&self, name: &str, args: Vec<Type>) -> Type {
        let id = self
            .system
            .generic_named(name)
            .unwrap_or_else(|| panic!("the type system has no generic type `{name}`"));
        let arity = self.system.variances(id).len();
        assert_eq!(
            args.len(),
            arity,
            "the generic type `{name}` takes {arity} argument(s), not {}",
            args.len()
        );
        Type::generic(id, args)
    }

    /// How many variables have been made (merged ones included).
    ///
    /// ```
    /// let mut store = xsmith::types::TypeStore::new(xsmith::types::TypeSystem::new().into());
    /// store.fresh();
    /// assert_eq!(store.variable_count(), 1);
    /// ```
    pub fn variable_count(&self) -> usize {
        self.classes.len()
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
        let domain = self.one_of_domain(candidates);
        self.fresh_in(domain)
    }

    /// A new variable restricted to one of the base types named `names`
    /// (a single name gives that type itself): [`fresh_one_of`](TypeStore::fresh_one_of)
    /// of their [`base`](TypeStore::base) types, with less work when the
    /// same names come again (a node type function gives the same names
    /// at every call).
    ///
    /// # Panics
    ///
    /// When `names` is empty or names no base type of the system.
    ///
    /// ```
    /// let mut system = xsmith::types::TypeSystem::new();
    /// let int = system.base("int");
    /// system.base("bool");
    /// let mut store = xsmith::types::TypeStore::new(system.into());
    /// let v = store.fresh_one_of_named(&["int", "bool"]);
    /// store.subtype_unify(&v, &int).unwrap();
    /// assert_eq!(store.zonk(&v), int);
    /// ```
    pub fn fresh_one_of_named(&mut self, names: &[&str]) -> Type {
        let same = |given: &[Box<str>]| given.len() == names.len() && given.iter().zip(names).all(|(g, n)| **g == **n);
        let domain = match self.recent_named.iter().find(|(given, _)| same(given)) {
            Some((_, domain)) => domain.clone(),
            None => {
                let candidates: Vec<Type> = names.iter().map(|name| self.base(name)).collect();
                let domain = self.one_of_domain(&candidates);
                let given = names.iter().map(|&name| name.into()).collect();
                remember(&mut self.recent_named, given, &domain);
                domain
            }
        };
        self.fresh_in(domain)
    }

    /// The domain of `candidates` (see [`fresh_one_of`](TypeStore::fresh_one_of)),
    /// remembered for the last few lists.
    fn one_of_domain(&mut self, candidates: &[Type]) -> Domain {
        if let Some((_, domain)) = self.recent_one_of.iter().find(|(given, _)| **given == *candidates) {
            return domain.clone();
        }
        assert!(!candidates.is_empty(), "fresh_one_of needs at least one candidate type");
        assert!(
            candidates.iter().all(Type::is_ground_term),
            "fresh_one_of takes ground candidate types (no variables)"
        );
        let domain = one_of(candidates.to_vec());
        remember(&mut self.recent_one_of, candidates.into(), &domain);
        domain
    }

    /// A new variable in `domain`, or the one type a binding names.
    fn fresh_in(&mut self, domain: Domain) -> Type {
        match domain {
            Domain::Bound(only) => only,
            domain => Type::Var(self.new_var(domain)),
        }
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
        self.with_own_dirty(|s| s.subtype(&v, ty).and_then(|()| s.propagate()))
            .expect("a fresh variable can be a subtype of any type");
        v
    }

    fn new_var(&mut self, domain: Domain) -> TypeVar {
        let v = self.classes.add(&mut self.trail);
        self.vars.add(v, domain, &mut self.trail);
        v
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
            inner: self.trail.mark(),
        }
    }

    /// Whether a snapshot is open: a change made now may still be undone.
    pub(crate) fn in_snapshot(&self) -> bool {
        self.trail.in_snapshot()
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
        self.trail.rollback(snapshot.inner, &mut self.classes, &mut self.vars);
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
        self.trail.commit(snapshot.inner);
    }

    /// Runs `f` and keeps its changes if it succeeds; undoes them if it
    /// fails.
    fn atomically<R>(&mut self, f: impl FnOnce(&mut TypeStore) -> Result<R, TypeError>) -> Result<R, TypeError> {
        let mark = self.trail.mark();
        let result = self.with_own_dirty(|s| f(s).and_then(|value| s.propagate().map(|()| value)));
        match result {
            Ok(value) => {
                self.trail.commit(mark);
                Ok(value)
            }
            Err(error) => {
                self.trail.rollback(mark, &mut self.classes, &mut self.vars);
                Err(error)
            }
        }
    }

    /// Whether `f` would succeed, changing nothing.
    fn succeeds(&mut self, f: impl FnOnce(&mut TypeStore) -> Result<(), TypeError>) -> bool {
        let mark = self.trail.mark();
        let ok = self.with_own_dirty(|s| f(s).and_then(|()| s.propagate()).is_ok());
        self.trail.rollback(mark, &mut self.classes, &mut self.vars);
        ok
    }

    /// Runs `f` with dirty classes of its own: those of the operation
    /// around it are out of its sight, and those it leaves are dropped.
    fn with_own_dirty<R>(&mut self, f: impl FnOnce(&mut TypeStore) -> R) -> R {
        let outer_base = std::mem::replace(&mut self.dirty_base, self.dirty.len());
        let result = f(self);
        self.dirty.truncate(self.dirty_base);
        self.dirty_base = outer_base;
        result
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
    /// use xsmith::types::{Type, TypeStore, TypeSystem};
    /// let mut system = TypeSystem::new();
    /// let int = system.base("int");
    /// let mut store = TypeStore::new(system.into());
    /// let f = store.fresh();
    /// let (params, result) = store.function_parts(&f).unwrap();
    /// store.unify(&result, &int).unwrap();
    /// store.product_items(&params, 0).unwrap();
    /// assert_eq!(store.zonk(&f), Type::function(vec![], int));
    /// ```
    pub fn function_parts(&mut self, ty: &Type) -> Result<(Type, Type), TypeError> {
        if let Type::Function(f) = self.resolve(ty) {
            return Ok((f.0.clone(), f.1.clone()));
        }
        let (params, result) = (self.fresh_product(), self.fresh());
        self.unify(ty, &Type::function_of(params.clone(), result.clone()))?;
        Ok((params, result))
    }

    /// How many parameters the function type `ty` has: its parameter
    /// product's arity when that is known, else `drawn`, to which the open
    /// product is then fixed. What a function literal's `list_length` for
    /// its parameter list returns.
    ///
    /// # Panics
    ///
    /// When `ty` cannot be a function type.
    ///
    /// ```
    /// use xsmith::types::{Type, TypeStore, TypeSystem};
    /// let mut system = TypeSystem::new();
    /// let int = system.base("int");
    /// system.allow_functions(true);
    /// let mut store = TypeStore::new(system.into());
    /// let known = Type::function(vec![int.clone(), int.clone()], int.clone());
    /// assert_eq!(store.function_arity(&known, 5), 2);
    /// let (params, result) = (store.fresh_product(), store.fresh());
    /// let open = Type::function_of(params, result);
    /// assert_eq!(store.function_arity(&open, 3), 3);
    /// assert_eq!(store.function_arity(&open, 1), 3);
    /// ```
    pub fn function_arity(&mut self, ty: &Type, drawn: usize) -> usize {
        let (params, _) = self
            .function_parts(ty)
            .unwrap_or_else(|e| panic!("function_arity: not a function type: {e}"));
        match self.resolve(&params) {
            Type::Product(items) => items.len(),
            _ => self
                .product_items(&params, drawn)
                .expect("an open product takes any arity")
                .len(),
        }
    }

    /// A function type of fresh parameters (a product of any arity) and a
    /// fresh result: the type a function literal may have.
    ///
    /// ```
    /// use xsmith::types::{TypeStore, TypeSystem};
    /// let mut system = TypeSystem::new();
    /// system.allow_functions(true);
    /// let mut store = TypeStore::new(system.into());
    /// let f = store.fresh_function();
    /// assert!(store.function_parts(&f).is_ok());
    /// ```
    pub fn fresh_function(&mut self) -> Type {
        let (params, result) = (self.fresh_product(), self.fresh());
        Type::function_of(params, result)
    }
}
