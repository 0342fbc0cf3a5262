//! The unifier proper: the subtype rules between terms, the edges between
//! variables, collapsing a cycle of edges into one class, and the occurs
//! check. Its callers run `propagate` afterwards (see the narrowing module),
//! inside a snapshot that is rolled back if anything fails.
//!
//! `equal` is two subtype relations, or, for variables of which one is
//! blank or isolated, one class. `subtype` dispatches on what the two sides
//! resolve to: two variables get an edge (closing a cycle collapses it),
//! a variable and a type narrow the variable's domain to the subtypes or
//! supertypes of the type (a shape of fresh variables for a composite
//! type), and two types are compared structurally, by the declared
//! variances of generic types.

use smallvec::SmallVec;

use super::candidates::Bound;
use super::domain::{one_of, Domain, TypeError};
use super::vars::Side;
use super::TypeStore;
use crate::types::term::{Type, TypeVar, Variance};

impl TypeStore {
    /// `a = b`: two subtype relations, or one class for two variables of
    /// which one is blank or has no edges.
    pub(super) fn equal(&mut self, a: &Type, b: &Type) -> Result<(), TypeError> {
        let (resolved_a, resolved_b) = (self.resolve_compressing(a), self.resolve_compressing(b));
        let bound = match (&resolved_a, &resolved_b) {
            (Type::Var(v), t) | (t, Type::Var(v)) if !matches!(t, Type::Var(_)) => self.bind_isolated(*v, t),
            _ => None,
        };
        if let Some(result) = bound {
            return result;
        }
        if let Some(result) = self.equal_parts(&resolved_a, &resolved_b) {
            return result;
        }
        if let (Type::Var(x), Type::Var(y)) = (resolved_a, resolved_b) {
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
                return self.join_blank(x, y);
            }
            if x != y && blank(y) {
                return self.join_blank(y, x);
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

    /// `a = b` for two composite types of the same constructor (neither a
    /// variable): their parts equal, one pair after another, which is
    /// what the subtype rules both ways come to (subtyping is a partial
    /// order) without relating each pair twice. `None` leaves the rest
    /// (variables, base and nominal types, different constructors) to
    /// them.
    fn equal_parts(&mut self, a: &Type, b: &Type) -> Option<Result<(), TypeError>> {
        let pairwise = |store: &mut TypeStore, xs: &[Type], ys: &[Type]| {
            (xs.iter().zip(ys)).try_for_each(|(x, y)| store.equal(x, y))
        };
        Some(match (a, b) {
            (Type::Generic(g, xs), Type::Generic(h, ys)) if g == h && xs.len() == ys.len() => pairwise(self, xs, ys),
            (Type::Function(f), Type::Function(g)) => self.equal(&f.0, &g.0).and_then(|()| self.equal(&f.1, &g.1)),
            (Type::Product(xs), Type::Product(ys)) if xs.len() == ys.len() => pairwise(self, xs, ys),
            (Type::Record(fa), Type::Record(fb))
                if fa.len() == fb.len() && fa.iter().zip(fb.iter()).all(|((m, _), (n, _))| m == n) =>
            {
                (fa.iter().zip(fb.iter())).try_for_each(|((_, x), (_, y))| self.equal(x, y))
            }
            _ => return None,
        })
    }

    /// `v = t` for a variable that no edge, watcher or pending bound ties
    /// to another and a ground `t` it may be, where the subtype rules both
    /// ways come to binding `v` to `t`: a base or nominal `t` in any
    /// domain, any `t` among candidates that are all ground. `None`
    /// leaves it to them.
    fn bind_isolated(&mut self, v: TypeVar, t: &Type) -> Option<Result<(), TypeError>> {
        let data = self.data(v);
        let isolated = data.lower.is_empty()
            && data.upper.is_empty()
            && data.watchers.is_empty()
            && data.pending_upper.is_empty()
            && data.pending_lower.is_empty();
        let allowed = match &data.domain {
            Domain::Any => matches!(t, Type::Base(_) | Type::Nominal(_)),
            Domain::OneOf(candidates) => {
                candidates.iter().all(Type::is_ground_term) && candidates.contains(t) && t.is_ground_term()
            }
            _ => false,
        };
        (isolated && allowed).then(|| self.set_domain(v, Domain::Bound(t.clone())))
    }

    /// Puts blank variable `blank` into the class of `other`, unless
    /// `other`'s domain mentions it: a record with a field whose type holds
    /// `blank` would then contain itself.
    fn join_blank(&mut self, blank: TypeVar, other: TypeVar) -> Result<(), TypeError> {
        self.classes.join(blank, other, &mut self.trail);
        if self.domain_occurs(other, self.domain(other)) {
            return Err(TypeError::Infinite(other));
        }
        Ok(())
    }

    /// `sub <: sup`, by what each side resolves to.
    pub(super) fn subtype(&mut self, sub: &Type, sup: &Type) -> Result<(), TypeError> {
        let (a, b) = (self.resolve_compressing(sub), self.resolve_compressing(sup));
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
    pub(super) fn structural(&mut self, a: &Type, b: &Type) -> Result<(), TypeError> {
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
    pub(super) fn ground_subtype(&self, a: &Type, b: &Type) -> bool {
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

    /// `x <: ty` for a free variable `x` and a type that is not a variable.
    pub(super) fn bound_above(&mut self, x: TypeVar, ty: &Type) -> Result<(), TypeError> {
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
    pub(super) fn bound_below(&mut self, y: TypeVar, ty: &Type) -> Result<(), TypeError> {
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

    /// The domain of the subtypes of `ty` (not a variable at the top); for a
    /// composite type, a shape of fresh variables related to its parts.
    fn below(&mut self, ty: &Type) -> Result<Domain, TypeError> {
        self.shape(ty, true)
    }

    /// The domain of the supertypes of `ty`.
    fn above(&mut self, ty: &Type) -> Result<Domain, TypeError> {
        self.shape(ty, false)
    }

    /// The domain of the subtypes (`below`) or supertypes of `ty`.
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

    /// `x <: y` for two free variables.
    fn relate_vars(&mut self, x: TypeVar, y: TypeVar) -> Result<(), TypeError> {
        let (x, y) = (self.find_compressing(x), self.find_compressing(y));
        if x == y || self.data(x).upper.iter().any(|&u| self.find(u) == y) {
            return Ok(());
        }
        // Only a variable with something above it can reach one with
        // something below it.
        let may_close_cycle = !self.data(y).upper.is_empty() && !self.data(x).lower.is_empty();
        if may_close_cycle && self.reaches_upward(y, x) {
            return self.collapse(x, y);
        }
        self.vars.add_edge(x, Side::Above, y, &mut self.trail);
        self.vars.add_edge(y, Side::Below, x, &mut self.trail);
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
            let data = self.vars.get(v);
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

    /// Makes `members` (names of classes) one class, with the intersection
    /// of their domains and the union of their edges. It is named by the
    /// first variable of them all; the others keep their records, which are
    /// no longer read.
    fn merge(&mut self, mut members: Vec<TypeVar>) -> Result<(), TypeError> {
        members.sort();
        let root = members[0];
        let mut merged = self.vars.get(root).clone();
        let mut absorbed = Vec::new();
        for &member in &members[1..] {
            self.classes.join(member, root, &mut self.trail);
            let data = self.vars.get(member);
            merged.lower.extend(data.lower.iter().copied());
            merged.upper.extend(data.upper.iter().copied());
            merged.pending_upper.extend(data.pending_upper.iter().cloned());
            merged.pending_lower.extend(data.pending_lower.iter().cloned());
            for &w in &data.watchers {
                if !merged.watchers.contains(&w) {
                    merged.watchers.push(w);
                }
            }
            absorbed.push(data.domain.clone());
        }
        // Edges to the class's own members go, and each class is kept once.
        let keep = |store: &TypeStore, edges: &[TypeVar]| {
            let mut kept: SmallVec<[TypeVar; 2]> = SmallVec::new();
            for &e in edges {
                let e = store.find(e);
                if e != root && !kept.contains(&e) {
                    kept.push(e);
                }
            }
            kept
        };
        merged.lower = keep(self, &merged.lower);
        merged.upper = keep(self, &merged.upper);
        self.vars.replace(root, merged, &mut self.trail);
        for domain in absorbed {
            self.restrict(root, domain)?;
        }
        // The domain may mention a variable that is now root itself.
        if self.domain_occurs(root, self.domain(root)) {
            return Err(TypeError::Infinite(root));
        }
        if let Domain::Bound(t) = self.domain(root).clone() {
            self.apply_pending(root, &t)?;
        }
        self.dirty.push(root);
        Ok(())
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
            let data = self.vars.get(*w);
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
    pub(super) fn joined(&self, v: TypeVar, stop: impl Fn(TypeVar) -> bool) -> Vec<TypeVar> {
        let start = self.find(v);
        let mut seen = vec![start];
        let mut stack = vec![start];
        while let Some(at) = stack.pop() {
            if stop(at) {
                continue;
            }
            let data = self.vars.get(at);
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
    pub(super) fn domain_occurs(&self, v: TypeVar, domain: &Domain) -> bool {
        match domain {
            Domain::Bound(t) => self.occurs(v, t),
            Domain::RecordAtLeast(fields) => self.occurs(v, &Type::Record(fields.clone())),
            _ => false,
        }
    }

    /// The representatives of the unbound variables in `ty` and in the
    /// fields of the records they must be.
    pub(super) fn free_vars(&self, ty: &Type, free: &mut Vec<TypeVar>) {
        match self.resolve_ref(ty) {
            Err(w) => {
                if !free.contains(&w) {
                    free.push(w);
                    if let Domain::RecordAtLeast(fields) = &self.vars.get(w).domain {
                        for (_, t) in fields.iter() {
                            self.free_vars(t, free);
                        }
                    }
                }
            }
            Ok(other) => {
                other.all_parts(|part| {
                    self.free_vars(part, free);
                    true
                });
            }
        }
    }
}
