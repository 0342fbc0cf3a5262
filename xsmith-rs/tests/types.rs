//! The type engine through its public API: unit tests of each kind of type,
//! of the store's lattice, rollback and concretization; and property tests
//! that check random unification sequences against a ground subtype checker
//! written here, sharing no code with the engine.

use std::sync::Arc;

use proptest::prelude::*;
use xsmith::types::*;
use xsmith::Random;

// ----- the test system and an independent model of it -----

/// A small type system, with what the tests know about it kept apart from
/// the engine: the declared parents and the abstract bases.
struct Sys {
    system: Arc<TypeSystem>,
    number: Type,
    int: Type,
    float: Type,
    boolean: Type,
    animal: Type,
    dog: Type,
    puppy: Type,
    cat: Type,
    point: Type,
    /// Covariant `box<T>`.
    boxed: GenericId,
    /// Contravariant `sink<T>`.
    sink: GenericId,
    /// Invariant `cell<T>`.
    cell: GenericId,
    /// `pair<+A, -B>`.
    pair: GenericId,
    /// (child, declared parent) of bases and nominal records.
    parents: Vec<(Type, Type)>,
    abstracts: Vec<Type>,
    variances: Vec<(GenericId, Vec<Variance>)>,
}

impl Sys {
    fn new() -> Sys {
        let mut system = TypeSystem::new();
        let number = system.abstract_base("number", None);
        let int = system.base_under("int", &number);
        let float = system.base_under("float", &number);
        let boolean = system.base("bool");
        let animal = system.nominal_record("Animal", None, vec![("legs", int.clone())]);
        let dog = system.nominal_record("Dog", Some(&animal), vec![("barks", boolean.clone())]);
        let puppy = system.nominal_record("Puppy", Some(&dog), vec![]);
        let cat = system.nominal_record("Cat", Some(&animal), vec![]);
        // The same field as Animal, but no declared relation to it.
        let point = system.nominal_record("Point", None, vec![("legs", int.clone())]);
        let variances = vec![
            (system.generic("box", &[Variance::Covariant]), vec![Variance::Covariant]),
            (
                system.generic("sink", &[Variance::Contravariant]),
                vec![Variance::Contravariant],
            ),
            (
                system.generic("cell", &[Variance::Invariant]),
                vec![Variance::Invariant],
            ),
            (
                system.generic("pair", &[Variance::Covariant, Variance::Contravariant]),
                vec![Variance::Covariant, Variance::Contravariant],
            ),
        ];
        system.allow_functions(true);
        system.allow_products(true);
        system.record_field_names(&["a", "b", "c"]);
        let parents = vec![
            (int.clone(), number.clone()),
            (float.clone(), number.clone()),
            (dog.clone(), animal.clone()),
            (puppy.clone(), dog.clone()),
            (cat.clone(), animal.clone()),
        ];
        Sys {
            system: Arc::new(system),
            abstracts: vec![number.clone()],
            number,
            int,
            float,
            boolean,
            animal,
            dog,
            puppy,
            cat,
            point,
            boxed: variances[0].0,
            sink: variances[1].0,
            cell: variances[2].0,
            pair: variances[3].0,
            parents,
            variances,
        }
    }

    fn store(&self) -> TypeStore {
        TypeStore::new(self.system.clone())
    }

    fn boxed(&self, t: &Type) -> Type {
        Type::generic(self.boxed, vec![t.clone()])
    }

    fn sink(&self, t: &Type) -> Type {
        Type::generic(self.sink, vec![t.clone()])
    }

    fn cell(&self, t: &Type) -> Type {
        Type::generic(self.cell, vec![t.clone()])
    }

    fn show(&self, t: &Type) -> String {
        self.system.display(t).to_string()
    }

    /// The leaf types the property tests draw from.
    fn leaves(&self) -> Vec<Type> {
        vec![
            self.int.clone(),
            self.float.clone(),
            self.number.clone(),
            self.boolean.clone(),
            self.animal.clone(),
            self.dog.clone(),
            self.puppy.clone(),
            self.cat.clone(),
            self.point.clone(),
        ]
    }

    fn generics(&self) -> [GenericId; 4] {
        [self.boxed, self.sink, self.cell, self.pair]
    }

    /// `a` is `b` or declared below it.
    fn declared_le(&self, a: &Type, b: &Type) -> bool {
        let mut at = a.clone();
        loop {
            if at == *b {
                return true;
            }
            match self.parents.iter().find(|(child, _)| *child == at) {
                Some((_, parent)) => at = parent.clone(),
                None => return false,
            }
        }
    }

    /// Ground `a <: b`, from the rules of the system alone.
    fn ground_sub(&self, a: &Type, b: &Type) -> bool {
        let same = |x: &Type, y: &Type| self.ground_sub(x, y) && self.ground_sub(y, x);
        match (a, b) {
            (Type::Base(_), Type::Base(_)) | (Type::Nominal(_), Type::Nominal(_)) => self.declared_le(a, b),
            (Type::Generic(g, xs), Type::Generic(h, ys)) => {
                let variances = &self.variances.iter().find(|(id, _)| id == g).expect("declared").1;
                g == h
                    && xs.len() == variances.len()
                    && ys.len() == variances.len()
                    && xs.iter().zip(ys.iter()).zip(variances).all(|((x, y), v)| match v {
                        Variance::Covariant => self.ground_sub(x, y),
                        Variance::Contravariant => self.ground_sub(y, x),
                        Variance::Invariant => same(x, y),
                    })
            }
            (Type::Function(f), Type::Function(g)) => self.ground_sub(&g.0, &f.0) && self.ground_sub(&f.1, &g.1),
            (Type::Product(xs), Type::Product(ys)) => {
                xs.len() == ys.len() && xs.iter().zip(ys.iter()).all(|(x, y)| self.ground_sub(x, y))
            }
            (Type::Record(fa), Type::Record(fb)) => fb
                .iter()
                .all(|(name, tb)| fa.iter().any(|(n, ta)| n == name && same(ta, tb))),
            _ => false,
        }
    }

    fn has_abstract(&self, t: &Type) -> bool {
        self.abstracts.contains(t) || t.parts().into_iter().any(|p| self.has_abstract(p))
    }
}

fn var(t: &Type) -> TypeVar {
    match t {
        Type::Var(v) => *v,
        other => panic!("not a variable: {other:?}"),
    }
}

// ----- base types -----

#[test]
fn base_hierarchy() {
    let s = Sys::new();
    let mut store = s.store();
    assert!(store.subtype_unify(&s.int, &s.number).is_ok());
    assert!(store.subtype_unify(&s.float, &s.number).is_ok());
    assert!(store.subtype_unify(&s.int, &s.int).is_ok());
    assert!(store.subtype_unify(&s.number, &s.number).is_ok());
    assert!(store.subtype_unify(&s.number, &s.int).is_err());
    assert!(store.subtype_unify(&s.int, &s.float).is_err());
    assert!(store.subtype_unify(&s.float, &s.int).is_err());
    assert!(store.subtype_unify(&s.boolean, &s.number).is_err());
    assert!(!store.can_unify(&s.int, &s.number));
    assert!(store.can_unify(&s.int, &s.int));
}

#[test]
fn base_variables() {
    let s = Sys::new();
    let mut store = s.store();
    // Below number: int, float or number itself.
    let v = store.fresh();
    store.subtype_unify(&v, &s.number).unwrap();
    assert!(store.can_subtype_unify(&v, &s.int) && store.can_subtype_unify(&v, &s.float));
    assert!(!store.can_subtype_unify(&v, &s.boolean));
    // Above int: int or number.
    let w = store.fresh();
    store.subtype_unify(&s.int, &w).unwrap();
    assert!(store.can_unify(&w, &s.number) && store.can_unify(&w, &s.int));
    assert!(!store.can_unify(&w, &s.float));
    // Both: v <: w leaves v below number (w may be number), w above int.
    store.subtype_unify(&v, &w).unwrap();
    assert!(store.can_unify(&v, &s.float));
    assert!(!store.can_unify(&w, &s.float));
    store.unify(&w, &s.int).unwrap();
    assert_eq!(store.zonk(&v), s.int);
    assert_eq!(store.zonk(&w), s.int);
}

#[test]
fn abstract_bases_are_never_concretized() {
    let s = Sys::new();
    for seed in 0..100 {
        let mut store = s.store();
        let mut random = Random::from_seed(seed);
        let below = store.fresh();
        store.subtype_unify(&below, &s.number).unwrap();
        let t = store.concretize(&below, &mut random, 2).unwrap();
        assert!(t == s.int || t == s.float, "{}", s.show(&t));
        let above = store.fresh();
        store.subtype_unify(&s.int, &above).unwrap();
        assert_eq!(store.concretize(&above, &mut random, 2).unwrap(), s.int);
        let free = store.fresh();
        let t = store.concretize(&free, &mut random, 2).unwrap();
        assert!(!s.has_abstract(&t), "{}", s.show(&t));
        // Forced to be number: then it is.
        let forced = store.fresh();
        store.subtype_unify(&s.number, &forced).unwrap();
        assert_eq!(store.concretize(&forced, &mut random, 2).unwrap(), s.number);
    }
}

// ----- generic types -----

#[test]
fn generic_variances() {
    let s = Sys::new();
    let mut store = s.store();
    let (int, number) = (&s.int, &s.number);
    for (g, sub_ok, sup_ok) in [(s.boxed, true, false), (s.sink, false, true), (s.cell, false, false)] {
        let gi = Type::generic(g, vec![int.clone()]);
        let gn = Type::generic(g, vec![number.clone()]);
        assert_eq!(
            store.can_subtype_unify(&gi, &gn),
            sub_ok,
            "{} <: {}",
            s.show(&gi),
            s.show(&gn)
        );
        assert_eq!(store.subtype_unify(&gi, &gn).is_ok(), sub_ok);
        assert_eq!(
            store.can_subtype_unify(&gn, &gi),
            sup_ok,
            "{} <: {}",
            s.show(&gn),
            s.show(&gi)
        );
        assert_eq!(store.subtype_unify(&gn, &gi).is_ok(), sup_ok);
        assert!(store.subtype_unify(&gi, &gi).is_ok());
        assert!(store.subtype_unify(&gn, &gn).is_ok());
        // Unrelated arguments: never.
        let gb = Type::generic(g, vec![s.boolean.clone()]);
        assert!(store.subtype_unify(&gi, &gb).is_err());
        assert!(store.subtype_unify(&gb, &gi).is_err());
    }
    // Different constructors never relate.
    assert!(store.subtype_unify(&s.boxed(int), &s.cell(int)).is_err());
    // Two parameters, each with its variance.
    let pair = |a: &Type, b: &Type| Type::generic(s.pair, vec![a.clone(), b.clone()]);
    assert!(store.subtype_unify(&pair(int, number), &pair(number, int)).is_ok());
    assert!(store.subtype_unify(&pair(number, int), &pair(int, number)).is_err());
    assert!(store.subtype_unify(&pair(int, int), &pair(number, number)).is_err());
}

#[test]
fn generic_variables() {
    let s = Sys::new();
    let mut store = s.store();
    // box<v> <: box<int>: v <: int.
    let v = store.fresh();
    store.subtype_unify(&s.boxed(&v), &s.boxed(&s.int)).unwrap();
    assert_eq!(store.zonk(&v), s.int);
    // sink<w> <: sink<int>: int <: w, so w is int or number.
    let w = store.fresh();
    store.subtype_unify(&s.sink(&w), &s.sink(&s.int)).unwrap();
    assert!(store.can_unify(&w, &s.number));
    assert!(!store.can_unify(&w, &s.float));
    // cell<x> <: cell<number>: x is number.
    let x = store.fresh();
    store.subtype_unify(&s.cell(&x), &s.cell(&s.number)).unwrap();
    assert_eq!(store.zonk(&x), s.number);
    // y <: box<number>: y is a box of something below number.
    let y = store.fresh();
    store.subtype_unify(&y, &s.boxed(&s.number)).unwrap();
    assert!(store.can_unify(&y, &s.boxed(&s.int)));
    assert!(!store.can_unify(&y, &s.boxed(&s.boolean)));
    assert!(!store.can_unify(&y, &s.cell(&s.int)));
    // z <: cell<number>: z is exactly cell<number>.
    let z = store.fresh();
    store.subtype_unify(&z, &s.cell(&s.number)).unwrap();
    assert_eq!(store.zonk(&z), s.cell(&s.number));
}

// ----- function types -----

#[test]
fn function_types() {
    let s = Sys::new();
    let mut store = s.store();
    let (int, number) = (&s.int, &s.number);
    let f = |p: &Type, r: &Type| Type::function(vec![p.clone()], r.clone());
    // Contravariant parameters, covariant result.
    assert!(store.subtype_unify(&f(number, int), &f(int, number)).is_ok());
    assert!(store.subtype_unify(&f(int, int), &f(number, int)).is_err());
    assert!(store.subtype_unify(&f(int, number), &f(int, int)).is_err());
    assert!(store.subtype_unify(&f(int, int), &f(int, int)).is_ok());
    // Arity matters.
    let g = Type::function(vec![int.clone(), int.clone()], int.clone());
    assert!(store.subtype_unify(&f(int, int), &g).is_err());
    // A function is not a product.
    assert!(store
        .subtype_unify(&f(int, int), &Type::product(vec![int.clone()]))
        .is_err());
    // A variable below a function type: a function with a narrower result
    // (its ground parameters are kept as they are: the engine may narrow).
    let v = store.fresh();
    store.subtype_unify(&v, &f(int, number)).unwrap();
    assert!(store.can_unify(&v, &f(int, int)));
    assert!(store.can_unify(&v, &f(int, &s.float)));
    assert!(!store.can_unify(&v, &f(&s.float, int)));
    assert!(!store.can_unify(&v, &f(int, &s.boolean)));
    // With a variable parameter p: below (p) -> int is (q) -> int with
    // p <: q, so once p is int, q may be number (wider).
    let (w, p) = (store.fresh(), store.fresh());
    store.subtype_unify(&w, &f(&p, int)).unwrap();
    store.unify(&p, int).unwrap();
    assert!(store.can_unify(&w, &f(number, int)));
    assert!(store.can_unify(&w, &f(int, int)));
    assert!(!store.can_unify(&w, &f(&s.float, int)));
    // Above (p) -> int with p int: (r) -> t with r <: int, int <: t.
    let (x, p) = (store.fresh(), store.fresh());
    store.subtype_unify(&f(&p, int), &x).unwrap();
    store.unify(&p, number).unwrap();
    assert!(store.can_unify(&x, &f(int, number)));
    assert!(store.can_unify(&x, &f(&s.float, int)));
    assert!(!store.can_unify(&x, &f(&s.boolean, int)));
}

#[test]
fn function_parameters_of_open_arity() {
    let s = Sys::new();
    let mut store = s.store();
    let params = store.fresh_product();
    let result = store.fresh();
    let f = Type::function_of(params.clone(), result.clone());
    let concrete = Type::function(vec![s.int.clone(), s.boolean.clone()], s.int.clone());
    assert!(store.can_unify(&f, &Type::function(vec![], s.int.clone())));
    store.unify(&f, &concrete).unwrap();
    assert_eq!(
        store.zonk(&params),
        Type::product(vec![s.int.clone(), s.boolean.clone()])
    );
    assert!(!store.can_unify(&f, &Type::function(vec![], s.int.clone())));
    // function_parts of a fresh variable.
    let g = store.fresh();
    let (ps, r) = store.function_parts(&g).unwrap();
    assert_eq!(store.product_items(&ps, 1).unwrap().len(), 1);
    store.unify(&r, &s.boolean).unwrap();
    assert!(store.can_unify(&g, &Type::function(vec![s.int.clone()], s.boolean.clone())));
    assert!(!store.can_unify(&g, &Type::function(vec![], s.boolean.clone())));
    assert!(store.function_parts(&s.int).is_err());
}

// ----- products -----

#[test]
fn products_of_fixed_arity() {
    let s = Sys::new();
    let mut store = s.store();
    let p = |items: &[&Type]| Type::product(items.iter().map(|t| (*t).clone()).collect());
    assert!(store
        .subtype_unify(&p(&[&s.int, &s.float]), &p(&[&s.number, &s.number]))
        .is_ok());
    assert!(store.subtype_unify(&p(&[&s.number]), &p(&[&s.int])).is_err());
    assert!(store.subtype_unify(&p(&[&s.int]), &p(&[&s.int, &s.int])).is_err());
    assert!(store.subtype_unify(&p(&[&s.int, &s.int]), &p(&[&s.int])).is_err());
    assert!(store.subtype_unify(&p(&[]), &p(&[])).is_ok());
    let v = store.fresh();
    store.subtype_unify(&v, &p(&[&s.number, &s.boolean])).unwrap();
    assert!(store.can_unify(&v, &p(&[&s.int, &s.boolean])));
    assert!(!store.can_unify(&v, &p(&[&s.int])));
    assert!(!store.can_unify(&v, &p(&[&s.int, &s.boolean, &s.boolean])));
}

#[test]
fn products_of_open_arity() {
    let s = Sys::new();
    let mut store = s.store();
    let p = store.fresh_product();
    assert!(store.can_unify(&p, &Type::product(vec![])));
    assert!(store.can_unify(&p, &Type::product(vec![s.int.clone()])));
    assert!(store.can_unify(&p, &Type::product(vec![s.int.clone(), s.boolean.clone()])));
    assert!(store.can_subtype_unify(&p, &Type::product(vec![s.number.clone(), s.boolean.clone()])));
    assert!(!store.can_unify(&p, &s.int));
    assert!(!store.can_unify(&p, &s.boxed(&s.int)));
    assert!(!store.can_unify(&p, &Type::record(vec![("a", s.int.clone())])));
    assert!(!store.can_unify(&p, &Type::function(vec![], s.int.clone())));
    store
        .subtype_unify(&p, &Type::product(vec![s.number.clone(), s.boolean.clone()]))
        .unwrap();
    // Now of arity two.
    assert!(!store.can_unify(&p, &Type::product(vec![])));
    assert!(!store.can_unify(&p, &Type::product(vec![s.int.clone()])));
    assert!(store.can_unify(&p, &Type::product(vec![s.int.clone(), s.boolean.clone()])));
    assert_eq!(store.product_items(&p, 2).unwrap().len(), 2);
    assert!(store.product_items(&p, 3).is_err());
    // Two open products related stay products.
    let (q, r) = (store.fresh_product(), store.fresh());
    store.subtype_unify(&q, &r).unwrap();
    assert!(!store.can_unify(&r, &s.int));
    store.unify(&r, &Type::product(vec![s.int.clone()])).unwrap();
    assert_eq!(store.zonk(&q), Type::product(vec![s.int.clone()]));
}

// ----- nominal records -----

#[test]
fn nominal_records() {
    let s = Sys::new();
    let mut store = s.store();
    for (sub, sup) in [
        (&s.dog, &s.animal),
        (&s.puppy, &s.dog),
        (&s.puppy, &s.animal),
        (&s.cat, &s.animal),
        (&s.cat, &s.cat),
    ] {
        assert!(
            store.subtype_unify(sub, sup).is_ok(),
            "{} <: {}",
            s.show(sub),
            s.show(sup)
        );
    }
    for (sub, sup) in [
        (&s.animal, &s.dog),
        (&s.dog, &s.cat),
        (&s.cat, &s.dog),
        (&s.dog, &s.puppy),
        (&s.point, &s.animal),
        (&s.animal, &s.point),
    ] {
        assert!(
            store.subtype_unify(sub, sup).is_err(),
            "{} <: {}",
            s.show(sub),
            s.show(sup)
        );
    }
    // No structural relation, even with the same fields.
    let legs = Type::record(vec![("legs", s.int.clone())]);
    assert_eq!(s.system.nominal_fields(&s.point).len(), 1);
    assert_eq!(s.system.nominal_fields(&s.puppy).len(), 2);
    assert!(store.subtype_unify(&s.point, &legs).is_err());
    assert!(store.subtype_unify(&legs, &s.point).is_err());
    assert!(store.subtype_unify(&s.dog, &legs).is_err());
    // Variables: below Animal is one of its declared subtypes.
    let v = store.fresh();
    store.subtype_unify(&v, &s.dog).unwrap();
    assert!(store.can_unify(&v, &s.puppy));
    assert!(!store.can_unify(&v, &s.cat));
    assert!(!store.can_unify(&v, &s.animal));
    let w = store.fresh();
    store.subtype_unify(&s.dog, &w).unwrap();
    assert!(store.can_unify(&w, &s.animal));
    assert!(!store.can_unify(&w, &s.puppy));
    assert!(!store.can_unify(&w, &s.point));
}

// ----- structural records -----

#[test]
fn structural_records_width_and_invariant_fields() {
    let s = Sys::new();
    let mut store = s.store();
    let xy = Type::record(vec![("x", s.int.clone()), ("y", s.boolean.clone())]);
    let x = Type::record(vec![("x", s.int.clone())]);
    let x_number = Type::record(vec![("x", s.number.clone())]);
    let empty = Type::record(Vec::<(&str, Type)>::new());
    assert!(store.subtype_unify(&xy, &x).is_ok());
    assert!(store.subtype_unify(&xy, &empty).is_ok());
    assert!(store.subtype_unify(&x, &xy).is_err());
    // Field types are invariant.
    assert!(store.subtype_unify(&x, &x_number).is_err());
    assert!(store.subtype_unify(&x_number, &x).is_err());
    // Order of declaration does not matter.
    let yx = Type::record(vec![("y", s.boolean.clone()), ("x", s.int.clone())]);
    assert!(store.can_unify(&xy, &yx));
    // A variable below {x: number} has x: number and maybe more.
    let v = store.fresh();
    store.subtype_unify(&v, &x_number).unwrap();
    assert!(store.can_unify(&v, &Type::record(vec![("x", s.number.clone()), ("z", s.int.clone())])));
    assert!(store.can_unify(&v, &x_number));
    assert!(!store.can_unify(&v, &x));
    assert!(!store.can_unify(&v, &empty));
    // A field variable: {x: w} <: {x: int} makes w int.
    let w = store.fresh();
    store.subtype_unify(&Type::record(vec![("x", w.clone())]), &x).unwrap();
    assert_eq!(store.zonk(&w), s.int);
}

#[test]
fn fresh_record_is_at_least() {
    let s = Sys::new();
    let mut store = s.store();
    let r = store.fresh_record(vec![("x", s.int.clone())]);
    assert!(store.can_unify(&r, &Type::record(vec![("x", s.int.clone())])));
    assert!(store.can_unify(&r, &Type::record(vec![("x", s.int.clone()), ("y", s.boolean.clone())])));
    assert!(!store.can_unify(&r, &Type::record(vec![("y", s.boolean.clone())])));
    assert!(!store.can_unify(&r, &Type::record(vec![("x", s.number.clone())])));
    assert!(!store.can_unify(&r, &Type::product(vec![])));
    assert!(!store.can_unify(&r, &s.int));
    assert!(store.can_subtype_unify(&r, &Type::record(vec![("x", s.int.clone())])));
    assert!(!store.can_subtype_unify(&r, &Type::record(vec![("x", s.number.clone())])));
    // Below {y: bool} too: at least x and y.
    store
        .subtype_unify(&r, &Type::record(vec![("y", s.boolean.clone())]))
        .unwrap();
    assert!(!store.can_unify(&r, &Type::record(vec![("x", s.int.clone())])));
    assert!(store.can_unify(&r, &Type::record(vec![("x", s.int.clone()), ("y", s.boolean.clone())])));
    // Concretized: a record with at least those fields.
    let t = store.concretize(&r, &mut Random::from_seed(5), 2).unwrap();
    assert!(s.ground_sub(&t, &Type::record(vec![("x", s.int.clone()), ("y", s.boolean.clone())])));
    // A field variable in the at-least set.
    let f = store.fresh();
    let q = store.fresh_record(vec![("x", f.clone())]);
    store
        .unify(&q, &Type::record(vec![("x", s.float.clone()), ("z", s.int.clone())]))
        .unwrap();
    assert_eq!(store.zonk(&f), s.float);
}

// ----- candidate sets -----

#[test]
fn candidate_sets() {
    let s = Sys::new();
    let mut store = s.store();
    // One candidate is that type itself.
    assert_eq!(store.fresh_one_of(&[s.int.clone(), s.int.clone()]), s.int);
    // Narrowing.
    let v = store.fresh_one_of(&[s.int.clone(), s.float.clone(), s.boolean.clone()]);
    store.subtype_unify(&v, &s.number).unwrap();
    assert!(matches!(store.domain(var(&v)), Domain::OneOf(cs) if cs.len() == 2));
    assert!(!store.can_unify(&v, &s.boolean));
    assert!(store.can_unify(&v, &s.int) && store.can_unify(&v, &s.float));
    // No candidate fits: fails, changing nothing.
    let before = store.dump();
    assert!(store.subtype_unify(&v, &s.boolean).is_err());
    assert!(store.subtype_unify(&v, &s.boxed(&s.int)).is_err());
    assert_eq!(store.dump(), before);
    // One survivor binds.
    store.subtype_unify(&s.float, &v).unwrap();
    assert_eq!(store.resolve(&v), s.float);
    // Composite candidates, narrowed through a variable.
    let w = store.fresh_one_of(&[s.boxed(&s.int), s.boxed(&s.boolean), s.int.clone()]);
    let x = store.fresh();
    store.subtype_unify(&w, &s.boxed(&x)).unwrap();
    assert!(!store.can_unify(&w, &s.int));
    store.subtype_unify(&x, &s.number).unwrap();
    // x <: number rules out box<bool> for w at once.
    assert_eq!(store.resolve(&w), s.boxed(&s.int));
    let t = store.concretize(&w, &mut Random::from_seed(1), 2).unwrap();
    assert_eq!(t, s.boxed(&s.int));
    let tx = store.concretize(&x, &mut Random::from_seed(1), 2).unwrap();
    assert!(s.ground_sub(&t, &s.boxed(&tx)));
    // Two candidate variables related: their sets narrow each other.
    let a = store.fresh_one_of(&[s.int.clone(), s.boolean.clone()]);
    let b = store.fresh_one_of(&[s.number.clone(), s.dog.clone()]);
    store.subtype_unify(&a, &b).unwrap();
    assert_eq!(store.zonk(&a), s.int);
    assert_eq!(store.zonk(&b), s.number);
}

// ----- rollback -----

#[test]
fn rollback_restores_the_store() {
    let s = Sys::new();
    let mut store = s.store();
    let (a, b) = (store.fresh(), store.fresh());
    store.subtype_unify(&a, &b).unwrap();
    let before = store.dump();
    let trial = store.snapshot();
    let c = store.fresh();
    store.subtype_unify(&b, &c).unwrap();
    store.subtype_unify(&c, &a).unwrap();
    let e = store.fresh();
    store.unify(&a, &s.boxed(&e)).unwrap();
    assert_ne!(store.dump(), before);
    store.rollback(trial);
    assert_eq!(store.dump(), before);
    assert_eq!(store.variable_count(), 2);
    // Nested: an inner commit is still undone by the outer rollback.
    let outer = store.snapshot();
    store.unify(&a, &s.int).unwrap();
    let inner = store.snapshot();
    store.unify(&b, &s.int).unwrap();
    store.commit(inner);
    store.rollback(outer);
    assert_eq!(store.dump(), before);
}

#[test]
fn failures_and_queries_change_nothing() {
    let s = Sys::new();
    let mut store = s.store();
    let (a, b, c) = (store.fresh(), store.fresh(), store.fresh_product());
    store.subtype_unify(&a, &b).unwrap();
    store.subtype_unify(&b, &s.boxed(&c)).unwrap();
    let before = store.dump();
    // Fails after narrowing a part of the way.
    assert!(store.subtype_unify(&a, &s.boxed(&s.int)).is_err());
    assert_eq!(store.dump(), before);
    assert!(store
        .unify(
            &Type::product(vec![a.clone(), c.clone()]),
            &Type::product(vec![b.clone(), s.int.clone()])
        )
        .is_err());
    assert_eq!(store.dump(), before);
    store.subtype_unify(&b, &a).unwrap();
    let before = store.dump();
    assert!(store.can_subtype_unify(&a, &s.boxed(&Type::product(vec![]))));
    assert!(store.can_unify(&b, &s.boxed(&Type::product(vec![s.int.clone()]))));
    assert!(!store.can_unify(&b, &s.int));
    assert!(store.trial(|st| {
        let v = st.fresh();
        st.subtype_unify(&v, &a)
    }));
    assert_eq!(store.dump(), before);
    // A failed concretization changes nothing either: the only candidates
    // are abstract.
    let v = store.fresh_one_of(&[s.number.clone(), s.boxed(&s.number)]);
    let before = store.dump();
    assert!(matches!(
        store.concretize(&v, &mut Random::from_seed(0), 2),
        Err(TypeError::NoConcreteType(_))
    ));
    assert_eq!(store.dump(), before);
}

// ----- the lattice -----

#[test]
fn a_cycle_collapses() {
    let s = Sys::new();
    let mut store = s.store();
    let (a, b) = (store.fresh(), store.fresh());
    store.subtype_unify(&a, &b).unwrap();
    assert!(!store.same_variable(var(&a), var(&b)));
    store.subtype_unify(&b, &a).unwrap();
    assert!(store.same_variable(var(&a), var(&b)));
    store.unify(&a, &s.int).unwrap();
    assert_eq!(store.zonk(&b), s.int);
}

#[test]
fn a_cycle_collapses_everything_between() {
    let s = Sys::new();
    let mut store = s.store();
    let (a, m, n, b) = (store.fresh(), store.fresh(), store.fresh(), store.fresh());
    let (side, outside) = (store.fresh(), store.fresh());
    store.subtype_unify(&a, &m).unwrap();
    store.subtype_unify(&m, &n).unwrap();
    store.subtype_unify(&n, &b).unwrap();
    store.subtype_unify(&a, &side).unwrap(); // above a, not below b
    store.subtype_unify(&outside, &m).unwrap(); // below m, not above a
    store.subtype_unify(&b, &a).unwrap();
    for x in [&m, &n, &b] {
        assert!(store.same_variable(var(&a), var(x)));
    }
    assert!(!store.same_variable(var(&a), var(&side)));
    assert!(!store.same_variable(var(&a), var(&outside)));
    // The edges to the others remain.
    store.unify(&a, &s.int).unwrap();
    assert!(store.can_unify(&side, &s.number));
    assert!(!store.can_unify(&side, &s.float));
    assert!(!store.can_unify(&outside, &s.number));
    assert_eq!(store.zonk(&outside), s.int);
}

#[test]
fn a_collapse_intersects_domains() {
    let s = Sys::new();
    let mut store = s.store();
    let a = store.fresh_one_of(&[s.int.clone(), s.float.clone(), s.boolean.clone()]);
    let m = store.fresh();
    let b = store.fresh_one_of(&[s.int.clone(), s.float.clone(), s.number.clone(), s.dog.clone()]);
    store.subtype_unify(&a, &m).unwrap();
    store.subtype_unify(&m, &b).unwrap();
    store.subtype_unify(&b, &a).unwrap();
    assert!(store.same_variable(var(&a), var(&m)) && store.same_variable(var(&a), var(&b)));
    let Domain::OneOf(cs) = store.domain(var(&a)).clone() else {
        panic!("{:?}", store.domain(var(&a)))
    };
    let mut cs = cs.to_vec();
    cs.sort_by_key(|t| s.show(t));
    assert_eq!(cs, [s.float.clone(), s.int.clone()]);
    assert!(!store.can_unify(&b, &s.number));
    // Disjoint domains cannot collapse.
    let x = store.fresh_one_of(&[s.int.clone(), s.dog.clone()]);
    let y = store.fresh();
    let z = store.fresh_one_of(&[s.number.clone(), s.animal.clone()]);
    store.subtype_unify(&x, &y).unwrap();
    store.subtype_unify(&y, &z).unwrap();
    assert!(!store.same_variable(var(&x), var(&z)));
    let before = store.dump();
    assert!(store.subtype_unify(&z, &x).is_err());
    assert_eq!(store.dump(), before);
}

#[test]
fn a_collapse_with_structure() {
    let s = Sys::new();
    let mut store = s.store();
    let (a, b, e) = (store.fresh(), store.fresh(), store.fresh());
    store.subtype_unify(&a, &b).unwrap();
    store.subtype_unify(&b, &s.boxed(&e)).unwrap();
    store.subtype_unify(&s.boxed(&s.int), &a).unwrap();
    // box<int> <: a <: b <: box<e>: a and b are bound to boxes of x <: y;
    // then b <: a collapses x and y.
    store.subtype_unify(&b, &a).unwrap();
    let (Type::Generic(_, xs), Type::Generic(_, ys)) = (store.resolve(&a), store.resolve(&b)) else {
        panic!("a and b are boxes")
    };
    assert!(store.same_variable(var(&xs[0]), var(&ys[0])));
    let t = store.concretize(&a, &mut Random::from_seed(3), 2).unwrap();
    let te = store.concretize(&e, &mut Random::from_seed(3), 2).unwrap();
    assert!(s.ground_sub(&s.boxed(&s.int), &t));
    assert!(s.ground_sub(&t, &s.boxed(&te)));
    assert_eq!(store.zonk(&a), store.zonk(&b));
}

// ----- the occurs check -----

#[test]
fn occurs_check() {
    let s = Sys::new();
    let mut store = s.store();
    let v = store.fresh();
    assert!(matches!(
        store.subtype_unify(&v, &s.boxed(&v)),
        Err(TypeError::Infinite(_))
    ));
    assert!(store.subtype_unify(&s.boxed(&v), &v).is_err());
    assert!(store
        .unify(&v, &Type::function(vec![v.clone()], s.int.clone()))
        .is_err());
    assert!(store.unify(&v, &Type::record(vec![("a", v.clone())])).is_err());
    assert!(store.subtype_unify(&v, &Type::record(vec![("a", v.clone())])).is_err());
    let w = store.fresh();
    store.unify(&w, &Type::product(vec![v.clone()])).unwrap();
    assert!(store.unify(&v, &s.cell(&w)).is_err());
    assert!(matches!(store.domain(var(&v)), Domain::Any));
}

#[test]
fn occurs_check_through_subtype_edges() {
    // a <: b and a <: box<b> has no finite solution (nor has b <: a with
    // a <: box<b>): a must fail, not loop for ever.
    let s = Sys::new();
    let mut store = s.store();
    let (a, b) = (store.fresh(), store.fresh());
    store.subtype_unify(&a, &b).unwrap();
    let before = store.dump();
    assert!(store.subtype_unify(&a, &s.boxed(&b)).is_err());
    assert!(store.subtype_unify(&b, &s.boxed(&a)).is_err());
    assert!(store.subtype_unify(&s.boxed(&a), &b).is_err());
    assert!(store.subtype_unify(&Type::product(vec![b.clone()]), &a).is_err());
    assert_eq!(store.dump(), before);
    // Through a longer path, up and down.
    let (c, d, e) = (store.fresh(), store.fresh(), store.fresh());
    store.subtype_unify(&c, &d).unwrap();
    store.subtype_unify(&e, &d).unwrap();
    let before = store.dump();
    assert!(store.subtype_unify(&c, &Type::function(vec![], s.boxed(&e))).is_err());
    assert_eq!(store.dump(), before);
    // Through a record's fields.
    let (x, y) = (store.fresh(), store.fresh());
    store.subtype_unify(&x, &y).unwrap();
    assert!(store.subtype_unify(&y, &Type::record(vec![("a", x.clone())])).is_err());
}

#[test]
fn a_collapse_that_makes_a_domain_contain_itself_fails() {
    let s = Sys::new();
    let mut store = s.store();
    let (x, y) = (store.fresh(), store.fresh());
    store.subtype_unify(&x, &y).unwrap();
    store
        .subtype_unify(
            &x,
            &Type::record(vec![("a", Type::function(vec![y.clone()], s.int.clone()))]),
        )
        .unwrap();
    // y <: x makes x and y one variable with a field of a type mentioning it.
    let before = store.dump();
    assert!(store.subtype_unify(&y, &x).is_err());
    assert_eq!(store.dump(), before);
    // x above just y is fine: y is then the record {} or wider.
    let t = store.concretize(&x, &mut Random::from_seed(2), 2).unwrap();
    let u = store.concretize(&y, &mut Random::from_seed(2), 2).unwrap();
    assert!(s.ground_sub(&t, &u));
}

#[test]
fn a_blank_variable_joining_a_record_that_mentions_it_fails() {
    // Issue 14's `--max-depth 8 --seed 2080079`: `r` must be a record with
    // at least a field `a` of type `cell<cell<v>>`, and `cell<r> = cell<v>`
    // asks `r = v`. `v` has no constraint of its own, so it used to just
    // join `r`'s class, which then contained itself (and concretizing it
    // overflowed the stack); that must fail, changing nothing.
    let s = Sys::new();
    let mut store = s.store();
    let v = store.fresh();
    let r = store.fresh_record(vec![("a", s.cell(&s.cell(&v)))]);
    let before = store.dump();
    assert!(matches!(
        store.unify(&s.cell(&r), &s.cell(&v)),
        Err(TypeError::Infinite(_))
    ));
    assert!(!store.can_unify(&r, &v));
    assert!(store.unify(&v, &r).is_err());
    assert_eq!(store.dump(), before);
    // v is still free to be anything finite.
    store.unify(&v, &s.int).unwrap();
    assert!(store.can_unify(&r, &Type::record(vec![("a", s.cell(&s.cell(&s.int)))])));
}

// ----- records above several records -----

#[test]
fn a_record_above_two_records_keeps_just_its_fields() {
    let s = Sys::new();
    for seed in 0..50 {
        let mut store = s.store();
        let a = store.fresh_record(vec![("b", s.int.clone())]);
        let b = store.fresh_record(vec![("b", s.float.clone())]);
        let y = store.fresh();
        store.subtype_unify(&a, &y).unwrap();
        store.subtype_unify(&b, &y).unwrap();
        // Settling a settles nothing that b cannot live with.
        let mut random = Random::from_seed(seed);
        let ta = store.concretize(&a, &mut random, 2).unwrap();
        let tb = store.concretize(&b, &mut random, 2).unwrap();
        let ty = store.zonk(&y);
        assert!(s.ground_sub(&ta, &ty) && s.ground_sub(&tb, &ty), "{}", s.show(&ty));
    }
    // And unifying one of them with a record type first.
    let mut store = s.store();
    let a = store.fresh_record(vec![("b", s.int.clone())]);
    let b = store.fresh_record(vec![("b", s.float.clone())]);
    let y = store.fresh();
    store.subtype_unify(&a, &y).unwrap();
    store.subtype_unify(&b, &y).unwrap();
    store.unify(&a, &Type::record(vec![("b", s.int.clone())])).unwrap();
    store.unify(&b, &Type::record(vec![("b", s.float.clone())])).unwrap();
    assert_eq!(store.zonk(&y), Type::record(Vec::<(&str, Type)>::new()));
}

#[test]
fn a_record_variable_unifies_with_a_wider_record_either_way() {
    let s = Sys::new();
    let wide = Type::record(vec![("a", s.int.clone()), ("b", s.boolean.clone())]);
    let mut store = s.store();
    let r = store.fresh_record(vec![("a", s.int.clone())]);
    store.unify(&wide, &r).unwrap();
    assert_eq!(store.zonk(&r), wide);
    let q = store.fresh_record(vec![("a", s.int.clone())]);
    store.unify(&q, &wide).unwrap();
    assert_eq!(store.zonk(&q), wide);
    // Inside an invariant generic, too.
    let p = store.fresh_record(vec![("a", s.int.clone())]);
    store.unify(&s.cell(&wide), &s.cell(&p)).unwrap();
    assert_eq!(store.zonk(&p), wide);
}

// ----- bounds pending on candidate sets -----

#[test]
fn a_bound_pending_on_candidates_constrains_its_variables() {
    let s = Sys::new();
    for seed in 0..50 {
        let mut store = s.store();
        let v = store.fresh_one_of(&[s.cell(&s.int), s.cell(&s.boxed(&s.int))]);
        let w = store.fresh();
        store.subtype_unify(&s.cell(&w), &v).unwrap();
        // Both candidates are still possible, and w must be int or box<int>.
        assert!(matches!(store.domain(var(&v)), Domain::OneOf(_)));
        assert!(!store.can_unify(&w, &s.float));
        assert!(store.can_unify(&w, &s.boxed(&s.int)));
        // w settled first: v follows.
        let tw = store.concretize(&w, &mut Random::from_seed(seed), 2).unwrap();
        assert!(tw == s.int || tw == s.boxed(&s.int), "{}", s.show(&tw));
        assert_eq!(store.zonk(&v), s.cell(&tw));
    }
    // Through a variable joined to the one in the bound.
    let mut store = s.store();
    let v = store.fresh_one_of(&[s.cell(&s.boxed(&s.int)), s.cell(&s.boxed(&s.float))]);
    let (w, x) = (store.fresh(), store.fresh());
    store.subtype_unify(&s.cell(&w), &v).unwrap();
    store.subtype_unify(&x, &w).unwrap();
    let tx = store.concretize(&x, &mut Random::from_seed(0), 2).unwrap();
    let tv = store.concretize(&v, &mut Random::from_seed(0), 2).unwrap();
    assert!(s.ground_sub(&s.cell(&tx), &tv), "{} {}", s.show(&tx), s.show(&tv));
    // An edge between two variables of a pending bound is checked too: the
    // result of () -> int cannot be below its parameters ().
    let mut store = s.store();
    let f = store.fresh_one_of(&[
        Type::function(vec![], s.int.clone()),
        Type::function(vec![], s.float.clone()),
    ]);
    let (params, result) = (store.fresh(), store.fresh());
    store
        .unify(&Type::function_of(params.clone(), result.clone()), &f)
        .unwrap();
    let before = store.dump();
    assert!(store.subtype_unify(&result, &params).is_err());
    assert_eq!(store.dump(), before);
}

// ----- concretization -----

#[test]
fn concretization_is_ground_and_within_depth() {
    let s = Sys::new();
    for depth in 0..4 {
        for seed in 0..100 {
            let mut store = s.store();
            let mut random = Random::from_seed(seed);
            let v = store.fresh();
            let t = store.concretize(&v, &mut random, depth).unwrap();
            assert!(t.is_ground_term() && store.is_ground(&v));
            assert_eq!(store.zonk(&v), t);
            assert!(t.depth() <= depth, "{} is deeper than {depth}", s.show(&t));
            assert!(!s.has_abstract(&t), "{}", s.show(&t));
            // Open products and records: the shape they must have, with
            // invented parts within the bound.
            let p = store.fresh_product();
            let t = store.concretize(&p, &mut random, depth).unwrap();
            assert!(matches!(t, Type::Product(_)));
            assert!(t.depth() <= depth.max(1), "{} is deeper than {depth}", s.show(&t));
            let r = store.fresh_record(vec![("x", s.int.clone())]);
            let t = store.concretize(&r, &mut random, depth).unwrap();
            assert!(s.ground_sub(&t, &Type::record(vec![("x", s.int.clone())])));
            assert!(t.depth() <= depth.max(1), "{} is deeper than {depth}", s.show(&t));
        }
    }
}

#[test]
fn concretization_satisfies_constraints() {
    let s = Sys::new();
    for seed in 0..100 {
        let mut store = s.store();
        let mut random = Random::from_seed(seed);
        let (a, b, c, e) = (store.fresh(), store.fresh(), store.fresh(), store.fresh());
        let f = Type::function_of(store.fresh_product(), c.clone());
        store.subtype_unify(&a, &b).unwrap();
        store.subtype_unify(&b, &s.boxed(&e)).unwrap();
        store.subtype_unify(&e, &s.number).unwrap();
        store
            .subtype_unify(&f, &Type::function(vec![s.int.clone()], a.clone()))
            .unwrap();
        let relations = [
            (a.clone(), b.clone()),
            (b.clone(), s.boxed(&e)),
            (e.clone(), s.number.clone()),
            (f.clone(), Type::function(vec![s.int.clone()], a.clone())),
        ];
        for v in [&c, &a, &b, &e, &f] {
            let t = store.concretize(v, &mut random, 2).unwrap();
            assert!(t.is_ground_term());
        }
        for (x, y) in &relations {
            let (x, y) = (store.zonk(x), store.zonk(y));
            assert!(s.ground_sub(&x, &y), "{} <: {}", s.show(&x), s.show(&y));
        }
        assert!(!s.has_abstract(&store.zonk(&e)));
    }
}

// ----- property tests -----

/// Field names of the property tests' records.
const FIELDS: [&str; 3] = ["a", "b", "c"];
/// How many variables a scenario has.
const VARS: usize = 5;
/// Arities of `box`, `sink`, `cell` and `pair`.
const ARITIES: [usize; 4] = [1, 1, 1, 2];

/// A type over the test system and the scenario's variables.
#[derive(Clone, Debug)]
enum Shape {
    Var(usize),
    Leaf(usize),
    Generic(usize, Vec<Shape>),
    Product(Vec<Shape>),
    Function(Vec<Shape>, Box<Shape>),
    /// A function whose parameters are variable `.0`.
    FunctionOf(usize, Box<Shape>),
    Record(Vec<(usize, Shape)>),
}

impl Shape {
    fn build(&self, s: &Sys, vars: &[Type]) -> Type {
        let all = |items: &[Shape]| items.iter().map(|i| i.build(s, vars)).collect::<Vec<_>>();
        match self {
            Shape::Var(i) => vars[*i].clone(),
            Shape::Leaf(i) => s.leaves()[*i].clone(),
            Shape::Generic(g, args) => Type::generic(s.generics()[*g], all(args)),
            Shape::Product(items) => Type::product(all(items)),
            Shape::Function(params, result) => Type::function(all(params), result.build(s, vars)),
            Shape::FunctionOf(params, result) => Type::function_of(vars[*params].clone(), result.build(s, vars)),
            Shape::Record(fields) => Type::record(fields.iter().map(|(n, t)| (FIELDS[*n], t.build(s, vars))).collect()),
        }
    }
}

/// Types over the scenario's variables.
fn shape(with_vars: bool) -> BoxedStrategy<Shape> {
    let leaf_count = Sys::new().leaves().len();
    let leaf = if with_vars {
        prop_oneof![2 => (0..leaf_count).prop_map(Shape::Leaf), 3 => (0..VARS).prop_map(Shape::Var)].boxed()
    } else {
        (0..leaf_count).prop_map(Shape::Leaf).boxed()
    };
    shape_from(leaf, with_vars)
}

/// Ground types with no abstract base in them.
fn concrete_shape() -> BoxedStrategy<Shape> {
    let s = Sys::new();
    let concrete: Vec<usize> = (0..s.leaves().len())
        .filter(|&i| !s.has_abstract(&s.leaves()[i]))
        .collect();
    shape_from(prop::sample::select(concrete).prop_map(Shape::Leaf).boxed(), false)
}

fn shape_from(leaf: BoxedStrategy<Shape>, with_vars: bool) -> BoxedStrategy<Shape> {
    leaf.prop_recursive(3, 12, 3, move |inner| {
        let mut options = vec![
            (0..ARITIES.len(), prop::collection::vec(inner.clone(), 2))
                .prop_map(|(g, mut args)| {
                    args.truncate(ARITIES[g]);
                    Shape::Generic(g, args)
                })
                .boxed(),
            prop::collection::vec(inner.clone(), 0..3)
                .prop_map(Shape::Product)
                .boxed(),
            (prop::collection::vec(inner.clone(), 0..3), inner.clone())
                .prop_map(|(p, r)| Shape::Function(p, Box::new(r)))
                .boxed(),
            prop::collection::vec((0..FIELDS.len(), inner.clone()), 0..3)
                .prop_map(Shape::Record)
                .boxed(),
        ];
        if with_vars {
            options.push(
                (0..VARS, inner)
                    .prop_map(|(p, r)| Shape::FunctionOf(p, Box::new(r)))
                    .boxed(),
            );
        }
        proptest::strategy::Union::new(options)
    })
    .boxed()
}

/// How a scenario's variable is made.
#[derive(Clone, Debug)]
enum Kind {
    Any,
    OneOf(Vec<Shape>),
    Product,
    Record(Vec<(usize, Shape)>),
}

fn kind() -> impl Strategy<Value = Kind> {
    prop_oneof![
        5 => Just(Kind::Any),
        // Candidates of which concretization may pick one.
        2 => prop::collection::vec(concrete_shape(), 1..4).prop_map(Kind::OneOf),
        1 => Just(Kind::Product),
        1 => prop::collection::vec((0..FIELDS.len(), shape(false)), 0..3).prop_map(Kind::Record),
    ]
}

#[derive(Clone, Debug)]
enum Op {
    Subtype(Shape, Shape),
    Unify(Shape, Shape),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        3 => (0..VARS, 0..VARS).prop_map(|(a, b)| Op::Subtype(Shape::Var(a), Shape::Var(b))),
        4 => (shape(true), shape(true)).prop_map(|(a, b)| Op::Subtype(a, b)),
        1 => (shape(true), shape(true)).prop_map(|(a, b)| Op::Unify(a, b)),
    ]
}

#[derive(Clone, Debug)]
struct Scenario {
    kinds: Vec<Kind>,
    ops: Vec<Op>,
    seed: u64,
}

fn scenario(ops: std::ops::Range<usize>) -> impl Strategy<Value = Scenario> {
    (
        prop::collection::vec(kind(), VARS),
        prop::collection::vec(op(), ops),
        any::<u64>(),
    )
        .prop_map(|(kinds, ops, seed)| Scenario { kinds, ops, seed })
}

/// A store with a scenario's variables, and the relations that succeeded.
struct Run<'s> {
    s: &'s Sys,
    store: TypeStore,
    vars: Vec<Type>,
    kinds: Vec<Kind>,
    /// `(x, y)`: `x <: y` succeeded.
    relations: Vec<(Type, Type)>,
    /// Variables mentioned by an operation that succeeded.
    used: Vec<bool>,
}

impl<'s> Run<'s> {
    fn new(s: &'s Sys, kinds: &[Kind]) -> Run<'s> {
        let mut store = s.store();
        let vars = kinds
            .iter()
            .map(|kind| match kind {
                Kind::Any => store.fresh(),
                Kind::OneOf(cs) => store.fresh_one_of(&cs.iter().map(|c| c.build(s, &[])).collect::<Vec<_>>()),
                Kind::Product => store.fresh_product(),
                Kind::Record(fields) => {
                    store.fresh_record(fields.iter().map(|(n, t)| (FIELDS[*n], t.build(s, &[]))).collect())
                }
            })
            .collect();
        Run {
            s,
            store,
            vars,
            kinds: kinds.to_vec(),
            relations: Vec::new(),
            used: vec![false; kinds.len()],
        }
    }

    fn ty(&self, shape: &Shape) -> Type {
        shape.build(self.s, &self.vars)
    }

    fn mark_used(&mut self, shape: &Shape) {
        match shape {
            Shape::Var(i) => self.used[*i] = true,
            Shape::Leaf(_) => {}
            Shape::Generic(_, items) | Shape::Product(items) => items.iter().for_each(|i| self.mark_used(i)),
            Shape::Function(params, result) => {
                params.iter().for_each(|i| self.mark_used(i));
                self.mark_used(result);
            }
            Shape::FunctionOf(params, result) => {
                self.used[*params] = true;
                self.mark_used(result);
            }
            Shape::Record(fields) => fields.iter().for_each(|(_, t)| self.mark_used(t)),
        }
    }

    /// Runs `op`; checks that a failure changes nothing and that the query
    /// predicted the outcome.
    fn apply(&mut self, op: &Op) -> Result<(), TypeError> {
        let (a, b) = match op {
            Op::Subtype(a, b) | Op::Unify(a, b) => (a, b),
        };
        let (x, y) = (self.ty(a), self.ty(b));
        let before = self.store.dump();
        let predicted = match op {
            Op::Subtype(..) => self.store.can_subtype_unify(&x, &y),
            Op::Unify(..) => self.store.can_unify(&x, &y),
        };
        assert_eq!(self.store.dump(), before, "a query changed the store");
        let result = match op {
            Op::Subtype(..) => self.store.subtype_unify(&x, &y),
            Op::Unify(..) => self.store.unify(&x, &y),
        };
        assert_eq!(
            predicted,
            result.is_ok(),
            "the query disagrees with {op:?}: {}, {}",
            self.s.show(&x),
            self.s.show(&y)
        );
        match &result {
            Ok(()) => {
                self.mark_used(a);
                self.mark_used(b);
                self.relations.push((x.clone(), y.clone()));
                if matches!(op, Op::Unify(..)) {
                    self.relations.push((y, x));
                }
            }
            Err(_) => assert_eq!(self.store.dump(), before, "a failed {op:?} changed the store"),
        }
        result
    }

    /// Concretizes every variable (in an order drawn from `seed`) and checks
    /// every relation that succeeded against the independent checker.
    fn concretize_and_check(&mut self, seed: u64) {
        let mut random = Random::from_seed(seed);
        let mut order: Vec<usize> = (0..self.vars.len()).collect();
        for i in (1..order.len()).rev() {
            order.swap(i, random.below(i as u64 + 1) as usize);
        }
        for i in order {
            let v = self.vars[i].clone();
            let t = match self.store.concretize(&v, &mut random, 2) {
                Ok(t) => t,
                Err(e) => panic!("variable {i} ({:?}): {e}\n{}", self.kinds[i], self.store.dump()),
            };
            assert!(t.is_ground_term(), "{t:?}");
            assert_eq!(self.store.zonk(&v), t);
        }
        let s = self.s;
        for (x, y) in &self.relations {
            let (gx, gy) = (self.store.zonk(x), self.store.zonk(y));
            assert!(gx.is_ground_term() && gy.is_ground_term());
            assert!(
                s.ground_sub(&gx, &gy),
                "{} <: {} does not hold",
                s.show(&gx),
                s.show(&gy)
            );
        }
        for (i, kind) in self.kinds.iter().enumerate() {
            let t = self.store.zonk(&self.vars[i]);
            match kind {
                Kind::Any if !self.used[i] => assert!(!s.has_abstract(&t), "unconstrained: {}", s.show(&t)),
                Kind::Any => {}
                Kind::OneOf(cs) => assert!(cs.iter().any(|c| c.build(s, &[]) == t), "{}", s.show(&t)),
                Kind::Product => assert!(matches!(t, Type::Product(_)), "{}", s.show(&t)),
                Kind::Record(fields) => {
                    let at_least = Type::record(fields.iter().map(|(n, t)| (FIELDS[*n], t.build(s, &[]))).collect());
                    assert!(s.ground_sub(&t, &at_least), "{} <: {}", s.show(&t), s.show(&at_least));
                }
            }
        }
    }
}

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config(256))]

    /// (a) Subtyping is reflexive, before and after random operations.
    #[test]
    fn subtyping_is_reflexive(sc in scenario(0..6), t in shape(true)) {
        let s = Sys::new();
        let mut run = Run::new(&s, &sc.kinds);
        let ty = run.ty(&t);
        prop_assert!(run.store.can_subtype_unify(&ty, &ty));
        for op in &sc.ops {
            let _ = run.apply(op);
        }
        let ty = run.ty(&t);
        let zonked = run.store.zonk(&ty);
        prop_assert!(run.store.can_subtype_unify(&ty, &zonked));
        prop_assert!(run.store.can_subtype_unify(&zonked, &ty));
        let before = run.store.dump();
        prop_assert!(run.store.subtype_unify(&ty, &ty).is_ok());
        prop_assert!(run.store.unify(&ty, &ty).is_ok());
        prop_assert_eq!(run.store.dump(), before);
    }

    /// (b) Where `a <: b` and `b <: c` succeeded, `a <: c` can, and holds of
    /// the concretized types.
    #[test]
    fn subtyping_is_transitive(sc in scenario(0..5), a in shape(true), b in shape(true), c in shape(true)) {
        let s = Sys::new();
        let mut run = Run::new(&s, &sc.kinds);
        for op in &sc.ops {
            let _ = run.apply(op);
        }
        if run.apply(&Op::Subtype(a.clone(), b.clone())).is_ok() && run.apply(&Op::Subtype(b, c.clone())).is_ok() {
            let (ta, tc) = (run.ty(&a), run.ty(&c));
            prop_assert!(run.store.can_subtype_unify(&ta, &tc), "{} <: {}", s.show(&ta), s.show(&tc));
            run.concretize_and_check(sc.seed);
            let (ga, gc) = (run.store.zonk(&ta), run.store.zonk(&tc));
            prop_assert!(s.ground_sub(&ga, &gc), "{} <: {}", s.show(&ga), s.show(&gc));
        }
    }

    /// (c) A rolled-back trial and the queries leave the store as it was.
    #[test]
    fn rollback_and_queries_change_nothing(
        sc in scenario(0..5),
        trial in prop::collection::vec(op(), 1..5),
        queries in prop::collection::vec((shape(true), shape(true)), 1..4),
    ) {
        let s = Sys::new();
        let mut run = Run::new(&s, &sc.kinds);
        for op in &sc.ops {
            let _ = run.apply(op);
        }
        let before = run.store.dump();
        let snapshot = run.store.snapshot();
        for (i, op) in trial.iter().enumerate() {
            if i % 2 == 1 {
                let extra = run.store.fresh();
                let _ = run.store.subtype_unify(&extra, &run.vars[i % VARS].clone());
            }
            let inner = run.store.snapshot();
            let _ = run.apply(op);
            run.store.commit(inner);
        }
        run.store.rollback(snapshot);
        prop_assert_eq!(run.store.dump(), before.clone());
        for (x, y) in &queries {
            let (x, y) = (run.ty(x), run.ty(y));
            run.store.can_subtype_unify(&x, &y);
            run.store.can_unify(&x, &y);
            run.store.trial(|st| st.subtype_unify(&y, &x));
            prop_assert_eq!(run.store.dump(), before.clone());
        }
    }

    /// (d) Concretized types satisfy every relation that succeeded, are
    /// ground, and an unconstrained variable gets no abstract type.
    #[test]
    fn concretization_satisfies_every_relation(sc in scenario(1..9)) {
        let s = Sys::new();
        let mut run = Run::new(&s, &sc.kinds);
        for op in &sc.ops {
            let _ = run.apply(op);
        }
        run.concretize_and_check(sc.seed);
    }
}
