//! A language's type system: its base types and their hierarchy, generic
//! constructors with variances, nominal records, and which composite types
//! concretization may invent.

use std::sync::Arc;

use super::term::{BaseId, DisplayType, GenericId, NominalId, RecordField, Type, Variance};

struct BaseDecl {
    name: String,
    supertype: Option<BaseId>,
    concrete: bool,
}

struct GenericDecl {
    name: String,
    variances: Vec<Variance>,
}

struct NominalDecl {
    name: String,
    parent: Option<NominalId>,
    fields: Vec<RecordField>,
}

/// The declared types of a language.
///
/// ```
/// use xsmith::types::{TypeSystem, Variance};
/// let mut system = TypeSystem::new();
/// let number = system.abstract_base("number", None);
/// let int = system.base_under("int", &number);
/// let array = system.generic("array", &[Variance::Invariant]);
/// system.allow_functions(true);
/// assert!(system.is_base_subtype(&int, &number));
/// # let _ = array;
/// ```
#[derive(Default)]
pub struct TypeSystem {
    bases: Vec<BaseDecl>,
    /// Each base type's name and its first declaration's place in `bases`:
    /// fuzzers look types up by name as they make every node's type.
    base_names: rustc_hash::FxHashMap<String, u16>,
    generics: Vec<GenericDecl>,
    nominals: Vec<NominalDecl>,
    record_field_names: Vec<Arc<str>>,
    functions: bool,
    products: bool,
}

impl TypeSystem {
    /// An empty type system.
    ///
    /// ```
    /// assert!(xsmith::types::TypeSystem::new().bases().is_empty());
    /// ```
    pub fn new() -> TypeSystem {
        TypeSystem::default()
    }

    /// Declares a base type with no supertype that values may have.
    ///
    /// ```
    /// let mut system = xsmith::types::TypeSystem::new();
    /// let int = system.base("int");
    /// assert_eq!(system.display(&int).to_string(), "int");
    /// ```
    pub fn base(&mut self, name: &str) -> Type {
        self.declare_base(name, None, true)
    }

    /// Declares a base type that is a subtype of `supertype` (a base type).
    ///
    /// # Panics
    ///
    /// When `supertype` is not a base type of this system.
    ///
    /// ```
    /// let mut system = xsmith::types::TypeSystem::new();
    /// let number = system.base("number");
    /// let int = system.base_under("int", &number);
    /// assert!(system.is_base_subtype(&int, &number));
    /// ```
    pub fn base_under(&mut self, name: &str, supertype: &Type) -> Type {
        let Type::Base(id) = supertype else {
            panic!("the supertype of base type `{name}` must be a base type");
        };
        self.declare_base(name, Some(*id), true)
    }

    /// Declares an abstract base type: a supertype that no value has itself
    /// (concretization never picks it), such as `number` above `int` and
    /// `float`.
    ///
    /// ```
    /// let mut system = xsmith::types::TypeSystem::new();
    /// let number = system.abstract_base("number", None);
    /// assert_eq!(system.bases().len(), 1);
    /// # let _ = number;
    /// ```
    pub fn abstract_base(&mut self, name: &str, supertype: Option<&Type>) -> Type {
        let supertype = supertype.map(|t| match t {
            Type::Base(id) => *id,
            _ => panic!("the supertype of base type `{name}` must be a base type"),
        });
        self.declare_base(name, supertype, false)
    }

    fn declare_base(&mut self, name: &str, supertype: Option<BaseId>, concrete: bool) -> Type {
        let id = BaseId(self.bases.len() as u16);
        self.base_names.entry(name.to_string()).or_insert(id.0);
        self.bases.push(BaseDecl {
            name: name.to_string(),
            supertype,
            concrete,
        });
        Type::Base(id)
    }

    /// Declares a generic type constructor with a variance per parameter.
    ///
    /// ```
    /// use xsmith::types::{Type, TypeSystem, Variance};
    /// let mut system = TypeSystem::new();
    /// let dict = system.generic("dict", &[Variance::Invariant, Variance::Invariant]);
    /// assert_eq!(system.variances(dict).len(), 2);
    /// ```
    pub fn generic(&mut self, name: &str, variances: &[Variance]) -> GenericId {
        let id = GenericId(self.generics.len() as u16);
        self.generics.push(GenericDecl {
            name: name.to_string(),
            variances: variances.to_vec(),
        });
        id
    }

    /// Declares a nominal record type with its fields, optionally a subtype
    /// of a parent nominal record (whose fields it then has too).
    ///
    /// ```
    /// use xsmith::types::TypeSystem;
    /// let mut system = TypeSystem::new();
    /// let int = system.base("int");
    /// let point = system.nominal_record("Point", None, vec![("x", int.clone())]);
    /// let point3 = system.nominal_record("Point3", Some(&point), vec![("z", int)]);
    /// assert_eq!(system.nominal_fields(&point3).len(), 2);
    /// ```
    pub fn nominal_record(&mut self, name: &str, parent: Option<&Type>, fields: Vec<(&str, Type)>) -> Type {
        let parent = parent.map(|t| match t {
            Type::Nominal(id) => *id,
            _ => panic!("the parent of nominal record `{name}` must be a nominal record"),
        });
        let mut all: Vec<RecordField> = parent
            .map(|p| self.nominals[p.0 as usize].fields.clone())
            .unwrap_or_default();
        all.extend(fields.into_iter().map(|(n, t)| (Arc::<str>::from(n), t)));
        let id = NominalId(self.nominals.len() as u16);
        self.nominals.push(NominalDecl {
            name: name.to_string(),
            parent,
            fields: all,
        });
        Type::Nominal(id)
    }

    /// The field names concretization may give structural records it
    /// invents (none: it invents no structural records).
    ///
    /// ```
    /// let mut system = xsmith::types::TypeSystem::new();
    /// system.record_field_names(&["a", "b", "c"]);
    /// ```
    pub fn record_field_names(&mut self, names: &[&str]) {
        self.record_field_names = names.iter().map(|n| Arc::from(*n)).collect();
    }

    /// Whether concretization may invent function types.
    ///
    /// ```
    /// let mut system = xsmith::types::TypeSystem::new();
    /// system.allow_functions(true);
    /// ```
    pub fn allow_functions(&mut self, allow: bool) {
        self.functions = allow;
    }

    /// Whether concretization may invent product (tuple) types as values.
    ///
    /// ```
    /// let mut system = xsmith::types::TypeSystem::new();
    /// system.allow_products(false);
    /// ```
    pub fn allow_products(&mut self, allow: bool) {
        self.products = allow;
    }

    /// Every base type, in declaration order.
    ///
    /// ```
    /// let mut system = xsmith::types::TypeSystem::new();
    /// system.base("bool");
    /// assert_eq!(system.bases().len(), 1);
    /// ```
    pub fn bases(&self) -> Vec<Type> {
        (0..self.bases.len()).map(|i| Type::Base(BaseId(i as u16))).collect()
    }

    /// The base type called `name`.
    ///
    /// ```
    /// let mut system = xsmith::types::TypeSystem::new();
    /// let int = system.base("int");
    /// assert_eq!(system.base_named("int"), Some(int));
    /// ```
    pub fn base_named(&self, name: &str) -> Option<Type> {
        self.base_names.get(name).map(|&i| Type::Base(BaseId(i)))
    }

    /// The generic constructor called `name`.
    ///
    /// ```
    /// let mut system = xsmith::types::TypeSystem::new();
    /// let array = system.generic("array", &[xsmith::types::Variance::Covariant]);
    /// assert_eq!(system.generic_named("array"), Some(array));
    /// ```
    pub fn generic_named(&self, name: &str) -> Option<GenericId> {
        self.generics
            .iter()
            .position(|g| g.name == name)
            .map(|i| GenericId(i as u16))
    }

    /// The variances of a generic constructor's parameters.
    ///
    /// ```
    /// use xsmith::types::{TypeSystem, Variance};
    /// let mut system = TypeSystem::new();
    /// let f = system.generic("sink", &[Variance::Contravariant]);
    /// assert_eq!(system.variances(f), [Variance::Contravariant]);
    /// ```
    pub fn variances(&self, generic: GenericId) -> &[Variance] {
        &self.generics[generic.0 as usize].variances
    }

    /// The fields of a nominal record type (inherited ones first).
    ///
    /// # Panics
    ///
    /// When `record` is not a nominal record of this system.
    ///
    /// ```
    /// let mut system = xsmith::types::TypeSystem::new();
    /// let r = system.nominal_record("Unit", None, vec![]);
    /// assert!(system.nominal_fields(&r).is_empty());
    /// ```
    pub fn nominal_fields(&self, record: &Type) -> &[RecordField] {
        match record {
            Type::Nominal(id) => &self.nominals[id.0 as usize].fields,
            _ => panic!("not a nominal record type"),
        }
    }

    /// Whether base (or nominal) type `sub` is `sup` or below it in the
    /// declared hierarchy; `false` for other types.
    ///
    /// ```
    /// let mut system = xsmith::types::TypeSystem::new();
    /// let a = system.base("a");
    /// let b = system.base("b");
    /// assert!(system.is_base_subtype(&a, &a));
    /// assert!(!system.is_base_subtype(&a, &b));
    /// ```
    pub fn is_base_subtype(&self, sub: &Type, sup: &Type) -> bool {
        match (sub, sup) {
            (Type::Base(a), Type::Base(b)) => {
                let mut cursor = Some(*a);
                while let Some(at) = cursor {
                    if at == *b {
                        return true;
                    }
                    cursor = self.bases[at.0 as usize].supertype;
                }
                false
            }
            (Type::Nominal(a), Type::Nominal(b)) => {
                let mut cursor = Some(*a);
                while let Some(at) = cursor {
                    if at == *b {
                        return true;
                    }
                    cursor = self.nominals[at.0 as usize].parent;
                }
                false
            }
            _ => false,
        }
    }

    /// The declared subtypes of a base or nominal type, itself included, in
    /// declaration order; for any other type just the type.
    ///
    /// ```
    /// let mut system = xsmith::types::TypeSystem::new();
    /// let number = system.abstract_base("number", None);
    /// let int = system.base_under("int", &number);
    /// assert_eq!(system.declared_subtypes(&number), [number.clone(), int]);
    /// ```
    pub fn declared_subtypes(&self, ty: &Type) -> Vec<Type> {
        match ty {
            Type::Base(_) => self
                .bases()
                .into_iter()
                .filter(|b| self.is_base_subtype(b, ty))
                .collect(),
            Type::Nominal(_) => self
                .nominals()
                .into_iter()
                .filter(|n| self.is_base_subtype(n, ty))
                .collect(),
            _ => vec![ty.clone()],
        }
    }

    /// The declared supertypes of a base or nominal type, itself included;
    /// for any other type just the type.
    ///
    /// ```
    /// let mut system = xsmith::types::TypeSystem::new();
    /// let number = system.abstract_base("number", None);
    /// let int = system.base_under("int", &number);
    /// assert_eq!(system.declared_supertypes(&int), [number, int.clone()]);
    /// ```
    pub fn declared_supertypes(&self, ty: &Type) -> Vec<Type> {
        match ty {
            Type::Base(_) => self
                .bases()
                .into_iter()
                .filter(|b| self.is_base_subtype(ty, b))
                .collect(),
            Type::Nominal(_) => self
                .nominals()
                .into_iter()
                .filter(|n| self.is_base_subtype(ty, n))
                .collect(),
            _ => vec![ty.clone()],
        }
    }

    /// Every nominal record type, in declaration order.
    pub(crate) fn nominal_types(&self) -> Vec<Type> {
        self.nominals()
    }

    fn nominals(&self) -> Vec<Type> {
        (0..self.nominals.len())
            .map(|i| Type::Nominal(NominalId(i as u16)))
            .collect()
    }

    /// Whether values may have this base type (it is not abstract); `true`
    /// for other types.
    ///
    /// ```
    /// let mut system = xsmith::types::TypeSystem::new();
    /// let number = system.abstract_base("number", None);
    /// assert!(!system.is_concrete_base(&number));
    /// ```
    pub fn is_concrete_base(&self, ty: &Type) -> bool {
        match ty {
            Type::Base(id) => self.bases[id.0 as usize].concrete,
            _ => true,
        }
    }

    /// A printable form of `ty` using this system's names.
    ///
    /// ```
    /// let mut system = xsmith::types::TypeSystem::new();
    /// let int = system.base("int");
    /// assert_eq!(format!("{}", system.display(&xsmith::types::Type::product(vec![int]))), "(int)");
    /// ```
    pub fn display<'a>(&'a self, ty: &'a Type) -> DisplayType<'a> {
        DisplayType { system: self, ty }
    }

    pub(crate) fn base_name(&self, id: BaseId) -> &str {
        &self.bases[id.0 as usize].name
    }

    pub(crate) fn generic_name(&self, id: GenericId) -> &str {
        &self.generics[id.0 as usize].name
    }

    pub(crate) fn nominal_name(&self, id: NominalId) -> &str {
        &self.nominals[id.0 as usize].name
    }

    /// Types concretization may pick at the leaves: concrete base types and
    /// nominal records.
    pub(crate) fn leaf_types(&self) -> Vec<Type> {
        let mut leaves: Vec<Type> = self.bases().into_iter().filter(|b| self.is_concrete_base(b)).collect();
        leaves.extend(self.nominals());
        leaves
    }

    /// How many generic type constructors are declared: their ids are
    /// `0..generic_count()`.
    pub(crate) fn generic_count(&self) -> usize {
        self.generics.len()
    }

    pub(crate) fn generic_ids(&self) -> impl Iterator<Item = GenericId> {
        (0..self.generics.len() as u16).map(GenericId)
    }

    pub(crate) fn invented_record_fields(&self) -> &[Arc<str>] {
        &self.record_field_names
    }

    pub(crate) fn invents_functions(&self) -> bool {
        self.functions
    }

    pub(crate) fn invents_products(&self) -> bool {
        self.products
    }
}
