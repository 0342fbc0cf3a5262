//! Let-polymorphism: the type schemes of the polymorphic functions programs
//! define (`fun ('a, 'b) polyN (p : ..., q : ...) : ... = ...`) and call at
//! the types their call sites need.
//!
//! The engine's types have no schemes, so each scheme is a pair of
//! productions ([`crate::grammar`]): `PolyDef_k`, a declaration whose
//! parameters and body are typed with the type variables as the opaque
//! types `'a` and `'b` (no value of them can be made but through a
//! parameter), and `PolyCall_k`, a call whose argument and result types
//! instantiate the scheme with fresh type variables, offered only where a
//! `PolyDef_k` is in scope.

use xsmith::types::{Type, TypeStore};

/// The type variables of schemes, as the type system names them.
pub const VARIABLES: [&str; 2] = ["'a", "'b"];

/// A type of a scheme: a type variable, `int`, or a type built of them.
#[derive(Clone, Copy, Debug)]
pub enum Scheme {
    /// `'a`.
    A,
    /// `'b`.
    B,
    /// `int`.
    Int,
    /// `'a list` (of the type variable `'a` or `'b`).
    ListOf(Var),
    /// `'a -> 'b`, `'b -> 'a`, ... (one parameter to one result).
    Arrow(Var, Var),
    /// `'a * 'b -> 'b` (two parameters to one result).
    Arrow2(Var, Var, Var),
    /// `'a * 'b` (a pair).
    Pair(Var, Var),
}

/// A type variable of a scheme.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Var {
    /// `'a`.
    A,
    /// `'b`.
    B,
}

/// One polymorphic function type: its parameters and its result.
#[derive(Clone, Copy, Debug)]
pub struct Signature {
    /// The parameters' types.
    pub params: &'static [Scheme],
    /// The result type.
    pub result: Scheme,
}

use Scheme::*;

/// The catalog of schemes (`PolyDef_k` is the function of `SCHEMES[k]`):
/// choices, wrapping in a list, projections with a default, application,
/// mapping, swapping and folding. Every type variable of a scheme is the
/// type of a parameter of its own: a value of it can always be had where
/// a hole of it is past the depth bound.
///
/// ```
/// assert_eq!(xsmith_sml::poly::SCHEMES.len(), 8);
/// ```
pub const SCHEMES: [Signature; 8] = [
    // 'a * 'a -> 'a
    Signature {
        params: &[A, A],
        result: A,
    },
    // 'a -> 'a list
    Signature {
        params: &[A],
        result: ListOf(Var::A),
    },
    // 'a list * 'a -> 'a
    Signature {
        params: &[ListOf(Var::A), A],
        result: A,
    },
    // ('a -> 'b) * 'a * 'b -> 'b
    Signature {
        params: &[Arrow(Var::A, Var::B), A, B],
        result: B,
    },
    // ('a -> 'b) * 'a list * 'a * 'b -> 'b list
    Signature {
        params: &[Arrow(Var::A, Var::B), ListOf(Var::A), A, B],
        result: ListOf(Var::B),
    },
    // 'a * 'b -> 'b * 'a
    Signature {
        params: &[A, B],
        result: Pair(Var::B, Var::A),
    },
    // ('a * 'b -> 'b) * 'a * 'b * 'a list -> 'b
    Signature {
        params: &[Arrow2(Var::A, Var::B, Var::B), A, B, ListOf(Var::A)],
        result: B,
    },
    // 'a * int -> int
    Signature {
        params: &[A, Int],
        result: Int,
    },
];

impl Signature {
    /// Whether every type variable the signature mentions is the type of a
    /// parameter of its own.
    ///
    /// ```
    /// assert!(xsmith_sml::poly::SCHEMES.iter().all(|s| s.has_direct_parameters()));
    /// ```
    pub fn has_direct_parameters(&self) -> bool {
        let direct = |v: Var| {
            self.params
                .iter()
                .any(|p| p.variables() == [v] && !matches!(p, ListOf(_)))
        };
        let all = self.params.iter().chain([&self.result]).flat_map(|p| p.variables());
        all.collect::<Vec<_>>().into_iter().all(direct)
    }

    /// The type variables the signature mentions, in order (for `fun 'a 'b`).
    ///
    /// ```
    /// assert_eq!(xsmith_sml::poly::SCHEMES[3].variables(), vec!["'a", "'b"]);
    /// assert_eq!(xsmith_sml::poly::SCHEMES[0].variables(), vec!["'a"]);
    /// ```
    pub fn variables(&self) -> Vec<&'static str> {
        let mut used = [false; 2];
        for scheme in self.params.iter().chain([&self.result]) {
            for var in scheme.variables() {
                used[var as usize] = true;
            }
        }
        VARIABLES
            .iter()
            .zip(used)
            .filter(|(_, u)| *u)
            .map(|(v, _)| *v)
            .collect()
    }
}

impl Scheme {
    fn variables(self) -> Vec<Var> {
        match self {
            A => vec![Var::A],
            B => vec![Var::B],
            Int => vec![],
            ListOf(v) => vec![v],
            Arrow(p, r) | Pair(p, r) => vec![p, r],
            Arrow2(p, q, r) => vec![p, q, r],
        }
    }

    /// The type with `'a` and `'b` replaced by `a` and `b`.
    ///
    /// ```
    /// use xsmith_sml::poly::Scheme;
    /// let mut store = xsmith::types::TypeStore::new(xsmith_sml::type_system().into());
    /// let int = store.base("int");
    /// let t = Scheme::ListOf(xsmith_sml::poly::Var::A).instantiate(&store, &int, &int);
    /// assert!(matches!(t, xsmith::types::Type::Generic(..)));
    /// ```
    pub fn instantiate(self, store: &TypeStore, a: &Type, b: &Type) -> Type {
        let var = |v: Var| if v == Var::A { a.clone() } else { b.clone() };
        let list = store
            .system()
            .generic_named("list")
            .expect("the type system declares `list`");
        match self {
            A => a.clone(),
            B => b.clone(),
            Int => store.base("int"),
            ListOf(v) => Type::generic(list, vec![var(v)]),
            Arrow(p, r) => Type::function(vec![var(p)], var(r)),
            Arrow2(p, q, r) => Type::function(vec![var(p), var(q)], var(r)),
            Pair(p, q) => Type::product(vec![var(p), var(q)]),
        }
    }

    /// The type in the definition: with the opaque types `'a` and `'b`.
    pub fn opaque(self, store: &TypeStore) -> Type {
        let (a, b) = (store.base(VARIABLES[0]), store.base(VARIABLES[1]));
        self.instantiate(store, &a, &b)
    }
}
