//! Concretization: making a type ground by choosing, at random, a type for
//! every variable still open in it, among those its constraints allow.
//!
//! A variable that a candidate set's pending bounds mention waits for that
//! set to settle, since its type follows from the set's. Then its candidates
//! are tried in a random order, each as a unification that is undone if it
//! fails: the ground members of a candidate set; or types invented within
//! the depth bound (composite types as deep as the bound allows), followed
//! by the simplest ones (the leaf types, the record of just the required
//! fields) so that one that fits is found when any does. Every choice draws
//! from the program's random source, so the same seed makes the same types.

use std::sync::Arc;

use super::domain::{Domain, TypeError};
use super::TypeStore;
use crate::random::Random;
use crate::types::heads::Head;
use crate::types::term::{GenericId, RecordField, Type, TypeVar};

impl TypeStore {
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

    /// Makes `ty` ground as [`concretize`](TypeStore::concretize) does, but
    /// a variable free to be anything becomes a leaf type (a base type),
    /// never an invented composite one (one bounded by a composite type can
    /// still become one): what a generator decides while the tree is still
    /// growing, where a hole of an invented record type could take a
    /// subtree without end, and one of an invented container type may hold
    /// elements nothing switched on can make.
    ///
    /// ```
    /// use xsmith::{Random, types::{Type, TypeStore, TypeSystem}};
    /// let mut system = TypeSystem::new();
    /// let int = system.base("int");
    /// system.record_field_names(&["a", "b"]);
    /// system.allow_products(true);
    /// let mut store = TypeStore::new(system.into());
    /// for seed in 0..50 {
    ///     let v = store.fresh();
    ///     let t = store.concretize_plain(&v, &mut Random::from_seed(seed), 2).unwrap();
    ///     assert_eq!(t, int, "the one leaf type");
    /// }
    /// ```
    pub fn concretize_plain(&mut self, ty: &Type, random: &mut Random, max_depth: u32) -> Result<Type, TypeError> {
        self.invents_composites = false;
        let result = self.concretize(ty, random, max_depth);
        self.invents_composites = true;
        result
    }

    /// Binds every variable of `ty`, inventing composite types at most
    /// `depth` deep; the caller undoes it all if this fails.
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
                let concrete = cs.iter().filter(|c| self.concrete_leaves(c));
                let (mut producible, rest): (Vec<Type>, Vec<Type>) =
                    concrete.cloned().partition(|c| self.producible(c));
                shuffle(&mut producible, random);
                // Types no value can be made of, only when nothing else fits.
                producible.extend(rest);
                producible
            }
            Domain::AnyProduct => {
                let leaves = self.producible_leaves();
                (0..INVENTED)
                    .map(|_| self.invent_product(&leaves, random, depth))
                    .collect()
            }
            Domain::RecordAtLeast(fields) => {
                let leaves = self.producible_leaves();
                let mut invented: Vec<Type> = (0..INVENTED)
                    .map(|_| self.invent_record(&leaves, Some(&fields), random, depth))
                    .collect();
                // The record of just those fields is a supertype of every
                // other candidate, so it suits whatever is below the
                // variable: make sure it gets tried.
                invented.push(Type::Record(fields));
                invented
            }
            Domain::Any => {
                let leaves = self.producible_leaves();
                let mut invented: Vec<Type> = (0..INVENTED).map(|_| self.invent(&leaves, random, depth)).collect();
                // Those of which no value can be made go last.
                let (producible, unproducible): (Vec<Type>, Vec<Type>) =
                    invented.into_iter().partition(|t| self.producible(t));
                invented = producible;
                // Make sure the simplest types get tried too.
                let (mut leaves, rest): (Vec<Type>, Vec<Type>) =
                    self.system.leaf_types().into_iter().partition(|t| self.producible(t));
                shuffle(&mut leaves, random);
                invented.extend(leaves);
                // Types no value can be made of, only when nothing else fits.
                invented.extend(rest);
                invented.extend(unproducible);
                invented
            }
            Domain::Bound(_) => unreachable!("resolved variables are unbound"),
        }
    }

    /// Whether the program can make values of ground type `ty` (every
    /// head in it producible; see [`set_producible`](TypeStore::set_producible)).
    pub(crate) fn producible(&self, ty: &Type) -> bool {
        self.producible.as_ref().map_or(true, |p| p.allows(ty))
    }

    /// Whether values of head `head` can be made.
    fn producible_head(&self, head: Head) -> bool {
        self.producible.as_ref().map_or(true, |p| p.allows_head(head))
    }

    fn concrete_leaves(&self, ty: &Type) -> bool {
        self.system.is_concrete_base(ty) && ty.all_parts(|p| self.concrete_leaves(p))
    }

    /// The leaf types of which values can be made, in the order the type
    /// system declares them.
    fn producible_leaves(&self) -> Vec<Type> {
        let mut leaves = self.system.leaf_types();
        leaves.retain(|t| self.producible(t));
        leaves
    }

    /// A random ground type at most `depth` deep, from the
    /// [`producible_leaves`](TypeStore::producible_leaves) `leaves`.
    fn invent(&self, leaves: &[Type], random: &mut Random, depth: u32) -> Type {
        let generics = self.system.generic_count();
        let records = self.invents_composites
            && !self.system.invented_record_fields().is_empty()
            && self.producible_head(Head::Record);
        // A function's parameters are a product inside it: a function type
        // is at least two deep.
        let functions = self.system.invents_functions() && depth >= 2;
        let products = self.invents_composites && self.system.invents_products() && self.producible_head(Head::Product);
        let composite_kinds = generics + usize::from(records) + usize::from(functions) + usize::from(products);
        let leaf_weight = 3 * leaves.len().max(1) as u32;
        let composite_weight = if depth == 0 { 0 } else { 2 * composite_kinds as u32 };
        // Plain concretization invents leaves only (see `concretize_plain`).
        let composite_weight = if self.invents_composites { composite_weight } else { 0 };
        let pick_composite = leaves.is_empty() || random.weighted(&[leaf_weight, composite_weight]) == Some(1);
        if !pick_composite || composite_kinds == 0 || depth == 0 {
            if leaves.is_empty() {
                return Type::product(vec![]);
            }
            return random.pick(leaves).clone();
        }
        let mut kind = random.below(composite_kinds as u64) as usize;
        if kind < generics {
            let g = GenericId(kind as u16);
            let arity = self.system.variances(g).len();
            let args = (0..arity).map(|_| self.invent(leaves, random, depth - 1)).collect();
            return Type::generic(g, args);
        }
        kind -= generics;
        if records {
            if kind == 0 {
                return self.invent_record(leaves, None, random, depth);
            }
            kind -= 1;
        }
        if functions && kind == 0 {
            let arity = random.below(3) as usize;
            let params = (0..arity).map(|_| self.invent(leaves, random, depth - 2)).collect();
            let result = self.invent(leaves, random, depth - 1);
            return Type::function(params, result);
        }
        self.invent_product(leaves, random, depth)
    }

    /// A random product at most `depth` deep, of up to three parts.
    fn invent_product(&self, leaves: &[Type], random: &mut Random, depth: u32) -> Type {
        let arity = random.below(4) as usize;
        Type::product(
            (0..arity)
                .map(|_| self.invent(leaves, random, depth.saturating_sub(1)))
                .collect(),
        )
    }

    /// A record with `at_least` fields (if any) and some random others.
    fn invent_record(
        &self,
        leaves: &[Type],
        at_least: Option<&Arc<[RecordField]>>,
        random: &mut Random,
        depth: u32,
    ) -> Type {
        let mut fields: Vec<RecordField> = at_least.map(|f| f.to_vec()).unwrap_or_default();
        let names = self.system.invented_record_fields();
        let extra = random.below(3) + u64::from(fields.is_empty());
        for _ in 0..extra {
            if names.is_empty() {
                break;
            }
            let name = random.pick(names).clone();
            if !fields.iter().any(|(n, _)| *n == name) {
                let ty = self.invent(leaves, random, depth.saturating_sub(1));
                fields.push((name, ty));
            }
        }
        fields.sort_by(|a, b| a.0.cmp(&b.0));
        Type::Record(fields.into())
    }
}

/// Fisher-Yates with the program's random source, front to back: each
/// place takes one of the items not yet placed, the smallest choice the
/// first of them, so that choices of zero (what a reducer lowers them to)
/// leave the items in their order, the first (the simplest, as a type
/// system declares them) tried first.
fn shuffle<T>(items: &mut [T], random: &mut Random) {
    let n = items.len();
    for i in 0..n.saturating_sub(1) {
        let j = i + random.below((n - i) as u64) as usize;
        items.swap(i, j);
    }
}
