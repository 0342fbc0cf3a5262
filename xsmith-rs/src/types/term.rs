//! Type terms: what a type is, independent of any program's variables.

use std::fmt;
use std::sync::Arc;

use smallvec::SmallVec;

/// A base type declared in a [`TypeSystem`](crate::types::TypeSystem).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct BaseId(pub(crate) u16);

/// A generic type constructor declared in a
/// [`TypeSystem`](crate::types::TypeSystem).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct GenericId(pub(crate) u16);

/// A nominal record type declared in a
/// [`TypeSystem`](crate::types::TypeSystem).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct NominalId(pub(crate) u16);

/// A type variable of one program's [`TypeStore`](crate::types::TypeStore).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TypeVar(pub(crate) u32);

impl TypeVar {
    /// The variable's index in its store.
    ///
    /// ```
    /// let mut store = xsmith::types::TypeStore::new(xsmith::types::TypeSystem::new().into());
    /// let xsmith::types::Type::Var(v) = store.fresh() else { unreachable!() };
    /// assert_eq!(v.index(), 0);
    /// ```
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// How a generic type's parameter relates the subtyping of arguments to the
/// subtyping of the whole.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variance {
    /// `A <: B` gives `G<A> <: G<B>` (immutable containers).
    Covariant,
    /// `A <: B` gives `G<B> <: G<A>` (consumers).
    Contravariant,
    /// `G<A> <: G<B>` only when `A = B` (mutable containers).
    Invariant,
}

/// A record field: its name and type.
pub type RecordField = (Arc<str>, Type);

/// A type: cheap to clone (composite parts are shared).
///
/// ```
/// use xsmith::types::{Type, TypeSystem};
/// let mut system = TypeSystem::new();
/// let int = system.base("int");
/// let f = Type::function(vec![int.clone()], int.clone());
/// assert_eq!(system.display(&f).to_string(), "(int) -> int");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    /// A type variable (see [`TypeStore`](crate::types::TypeStore)).
    Var(TypeVar),
    /// A base type such as `int`.
    Base(BaseId),
    /// A generic type applied to arguments, such as `array<int>`.
    Generic(GenericId, Arc<[Type]>),
    /// A function type: its parameters (a product, or a variable standing for
    /// one) and its result.
    Function(Arc<(Type, Type)>),
    /// A product (tuple) of fixed arity; a product of still-open arity is a
    /// variable made by
    /// [`TypeStore::fresh_product`](crate::types::TypeStore::fresh_product).
    Product(Arc<[Type]>),
    /// A nominal record type, a subtype only of its declared parents.
    Nominal(NominalId),
    /// A structural record type with fields sorted by name: `{a: int, b:
    /// bool}` is a subtype of `{a: int}` (width subtyping; field types are
    /// invariant, as fields may be assigned).
    Record(Arc<[RecordField]>),
}

impl Type {
    /// A function type from parameter types and a result type.
    ///
    /// ```
    /// let unit = xsmith::types::Type::product(vec![]);
    /// let thunk = xsmith::types::Type::function(vec![], unit);
    /// assert!(matches!(thunk, xsmith::types::Type::Function(_)));
    /// ```
    pub fn function(params: Vec<Type>, result: Type) -> Type {
        Type::Function(Arc::new((Type::Product(params.into()), result)))
    }

    /// A function type whose parameters are given as one type (a product or
    /// a variable of open arity).
    ///
    /// ```
    /// use xsmith::types::Type;
    /// let f = Type::function_of(Type::product(vec![]), Type::product(vec![]));
    /// assert_eq!(f, Type::function(vec![], Type::product(vec![])));
    /// ```
    pub fn function_of(params: Type, result: Type) -> Type {
        Type::Function(Arc::new((params, result)))
    }

    /// A product (tuple) type.
    ///
    /// ```
    /// assert!(matches!(xsmith::types::Type::product(vec![]), xsmith::types::Type::Product(_)));
    /// ```
    pub fn product(items: Vec<Type>) -> Type {
        Type::Product(items.into())
    }

    /// A generic type applied to arguments.
    ///
    /// ```
    /// use xsmith::types::{Type, TypeSystem, Variance};
    /// let mut system = TypeSystem::new();
    /// let array = system.generic("array", &[Variance::Invariant]);
    /// let int = system.base("int");
    /// assert_eq!(system.display(&Type::generic(array, vec![int])).to_string(), "array<int>");
    /// ```
    pub fn generic(constructor: GenericId, args: Vec<Type>) -> Type {
        Type::Generic(constructor, args.into())
    }

    /// A structural record type (fields are sorted by name; a repeated name
    /// keeps its first type).
    ///
    /// ```
    /// use xsmith::types::{Type, TypeSystem};
    /// let mut system = TypeSystem::new();
    /// let int = system.base("int");
    /// let r = Type::record(vec![("y", int.clone()), ("x", int)]);
    /// assert_eq!(system.display(&r).to_string(), "{x: int, y: int}");
    /// ```
    pub fn record<N: Into<Arc<str>>>(fields: Vec<(N, Type)>) -> Type {
        let mut fields: Vec<RecordField> = fields.into_iter().map(|(n, t)| (n.into(), t)).collect();
        fields.sort_by(|a, b| a.0.cmp(&b.0));
        fields.dedup_by(|later, earlier| later.0 == earlier.0);
        Type::Record(fields.into())
    }

    /// The parts of a composite type, in order (empty for variables, base
    /// and nominal types).
    ///
    /// ```
    /// use xsmith::types::Type;
    /// let p = Type::product(vec![Type::product(vec![])]);
    /// assert_eq!(p.parts().len(), 1);
    /// ```
    #[inline]
    pub fn parts(&self) -> SmallVec<[&Type; 4]> {
        match self {
            Type::Var(_) | Type::Base(_) | Type::Nominal(_) => SmallVec::new(),
            Type::Generic(_, args) | Type::Product(args) => args.iter().collect(),
            Type::Function(f) => smallvec::smallvec![&f.0, &f.1],
            Type::Record(fields) => fields.iter().map(|(_, t)| t).collect(),
        }
    }

    /// Whether `test` holds for every part of a composite type (the parts
    /// [`parts`](Type::parts) lists), without collecting them.
    ///
    /// ```
    /// use xsmith::types::Type;
    /// let pair = Type::product(vec![Type::product(vec![]), Type::product(vec![])]);
    /// assert!(pair.all_parts(|part| *part == Type::product(vec![])));
    /// ```
    #[inline]
    pub fn all_parts(&self, mut test: impl FnMut(&Type) -> bool) -> bool {
        match self {
            Type::Var(_) | Type::Base(_) | Type::Nominal(_) => true,
            Type::Generic(_, args) | Type::Product(args) => args.iter().all(test),
            Type::Function(f) => test(&f.0) && test(&f.1),
            Type::Record(fields) => fields.iter().all(|(_, t)| test(t)),
        }
    }

    /// Whether the term mentions no variable at all.
    ///
    /// ```
    /// use xsmith::types::Type;
    /// assert!(Type::product(vec![]).is_ground_term());
    /// ```
    pub fn is_ground_term(&self) -> bool {
        match self {
            Type::Var(_) => false,
            _ => self.all_parts(Type::is_ground_term),
        }
    }

    /// The nesting depth of the term: 0 for a variable, base or nominal type.
    ///
    /// ```
    /// use xsmith::types::Type;
    /// assert_eq!(Type::product(vec![Type::product(vec![])]).depth(), 2);
    /// ```
    pub fn depth(&self) -> u32 {
        match self {
            Type::Var(_) | Type::Base(_) | Type::Nominal(_) => 0,
            _ => 1 + self.parts().into_iter().map(Type::depth).max().unwrap_or(0),
        }
    }
}

/// A type with the names of its system, for printing.
pub struct DisplayType<'a> {
    pub(crate) system: &'a crate::types::TypeSystem,
    pub(crate) ty: &'a Type,
}

impl fmt::Display for DisplayType<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let system = self.system;
        let show = |ty: &Type| DisplayType { system, ty }.to_string();
        let list = |f: &mut fmt::Formatter<'_>, items: &[Type]| {
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    f.write_str(", ")?;
                }
                write!(f, "{}", show(item))?;
            }
            Ok(())
        };
        match self.ty {
            Type::Var(v) => write!(f, "?{}", v.0),
            Type::Base(b) => f.write_str(self.system.base_name(*b)),
            Type::Nominal(n) => f.write_str(self.system.nominal_name(*n)),
            Type::Generic(g, args) => {
                write!(f, "{}<", self.system.generic_name(*g))?;
                list(f, args)?;
                f.write_str(">")
            }
            Type::Product(items) => {
                f.write_str("(")?;
                list(f, items)?;
                f.write_str(")")
            }
            Type::Function(function) => match &function.0 {
                Type::Product(_) => write!(f, "{} -> {}", show(&function.0), show(&function.1)),
                params => write!(f, "({}..) -> {}", show(params), show(&function.1)),
            },
            Type::Record(fields) => {
                f.write_str("{")?;
                for (i, (name, ty)) in fields.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{name}: {}", show(ty))?;
                }
                f.write_str("}")
            }
        }
    }
}
