//! The view a `type_info` child function has while typing a node's children.

use crate::types::{Type, TypeStore};

/// What a `type_info` child function sees: the node's type, which element
/// of a list it is typing, and the type store.
///
/// ```
/// let info = xsmith::TypeInfo::new(|s| s.fresh())
///     .child("items", |c| {
///         let element = c.fresh();
///         if c.index() == 0 { c.node_type().clone() } else { element }
///     });
/// # let _ = info;
/// ```
pub struct ChildTypes<'a> {
    pub(crate) store: &'a mut TypeStore,
    pub(crate) node_type: Type,
    pub(crate) index: usize,
    pub(crate) len: usize,
    /// Every child field's name and length, in field order.
    pub(crate) field_lens: &'a [(&'a str, usize)],
    /// The types given so far to this node's children, by field.
    pub(crate) earlier: &'a [(&'a str, Type)],
}

impl ChildTypes<'_> {
    /// The type of the node whose child is being typed.
    ///
    /// ```
    /// let info = xsmith::TypeInfo::new(|s| s.base("int")).child("x", |c| c.node_type().clone());
    /// # let _ = info;
    /// ```
    pub fn node_type(&self) -> &Type {
        &self.node_type
    }

    /// Which element of a list field this is (0 for a single child).
    ///
    /// ```
    /// let info = xsmith::TypeInfo::new(|s| s.fresh()).child("xs", |c| { let _ = c.index(); c.fresh() });
    /// # let _ = info;
    /// ```
    pub fn index(&self) -> usize {
        self.index
    }

    /// How many elements the list field has (1 for a single child).
    ///
    /// ```
    /// let info = xsmith::TypeInfo::new(|s| s.fresh()).child("xs", |c| { let _ = c.len(); c.fresh() });
    /// # let _ = info;
    /// ```
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the list field is empty (never, for a child being typed).
    ///
    /// ```
    /// let info = xsmith::TypeInfo::new(|s| s.fresh()).child("xs", |c| { assert!(!c.is_empty()); c.fresh() });
    /// # let _ = info;
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// How many children the node's field `field` has (1 for a single
    /// child, 0 for an unknown field).
    ///
    /// ```
    /// let apply = xsmith::TypeInfo::new(|s| s.fresh()).child("callee", |c| {
    ///     let params = (0..c.field_len("args")).map(|_| c.fresh()).collect();
    ///     xsmith::types::Type::function(params, c.node_type().clone())
    /// });
    /// # let _ = apply;
    /// ```
    pub fn field_len(&self, field: &str) -> usize {
        self.field_lens
            .iter()
            .find(|(name, _)| *name == field)
            .map_or(0, |(_, len)| *len)
    }

    /// The type already given to the first child of an earlier field
    /// (children are typed in field order).
    ///
    /// ```
    /// let apply = xsmith::TypeInfo::new(|s| s.fresh())
    ///     .child("callee", |c| c.fresh())
    ///     .child("args", |c| {
    ///         let callee = c.earlier("callee").expect("typed first");
    ///         let (params, _) = c.store().function_parts(&callee).unwrap();
    ///         let (len, index) = (c.len(), c.index());
    ///         c.product_item(&params, len, index)
    ///     });
    /// # let _ = apply;
    /// ```
    pub fn earlier(&self, field: &str) -> Option<Type> {
        self.earlier
            .iter()
            .find(|(name, _)| *name == field)
            .map(|(_, t)| t.clone())
    }

    /// The type store, for anything else.
    ///
    /// ```
    /// let info = xsmith::TypeInfo::new(|s| s.fresh()).child("x", |c| c.store().fresh());
    /// # let _ = info;
    /// ```
    pub fn store(&mut self) -> &mut TypeStore {
        self.store
    }

    /// A fresh type variable that must be a subtype of `ty`: what a child
    /// position that accepts subtypes (an operand, an argument) gets.
    ///
    /// ```
    /// let add = xsmith::TypeInfo::new(|s| s.base("int")).child("left", |c| {
    ///     let t = c.node_type().clone();
    ///     c.subtype_of(&t)
    /// });
    /// # let _ = add;
    /// ```
    pub fn subtype_of(&mut self, ty: &Type) -> Type {
        self.store.fresh_subtype_of(ty)
    }

    /// A fresh type variable.
    ///
    /// ```
    /// let info = xsmith::TypeInfo::new(|s| s.fresh()).child("x", |c| c.fresh());
    /// # let _ = info;
    /// ```
    pub fn fresh(&mut self) -> Type {
        self.store.fresh()
    }

    /// The base type called `name` (panics naming it when there is none).
    ///
    /// ```
    /// let info = xsmith::TypeInfo::new(|s| s.base("bool")).child("x", |c| c.base("bool"));
    /// # let _ = info;
    /// ```
    pub fn base(&self, name: &str) -> Type {
        self.store.base(name)
    }

    /// `name<args..>`, the generic type called `name` applied to `args`
    /// (see [`TypeStore::generic`]; panics naming it when there is none).
    ///
    /// ```
    /// // An array literal of the canned type system: `array<T>`, each item a `T`.
    /// let info = xsmith::TypeInfo::new(|s| {
    ///     let element = s.fresh();
    ///     s.generic("array", vec![element])
    /// })
    /// .child("items", |c| c.fresh());
    /// let index = xsmith::TypeInfo::new(|s| s.base("int"))
    ///     .child("array", |c| c.generic("array", vec![c.base("int")]));
    /// # let _ = (info, index);
    /// ```
    pub fn generic(&self, name: &str, args: Vec<Type>) -> Type {
        self.store.generic(name, args)
    }

    /// The parameters and result of the node's type, made a function type if
    /// it was open.
    ///
    /// # Panics
    ///
    /// When the node's type cannot be a function type (the `type_info` is
    /// inconsistent).
    ///
    /// ```
    /// let lambda = xsmith::TypeInfo::new(|s| {
    ///     let (params, result) = (s.fresh_product(), s.fresh());
    ///     xsmith::types::Type::function_of(params, result)
    /// })
    /// .child("body", |c| c.function_parts().1);
    /// # let _ = lambda;
    /// ```
    pub fn function_parts(&mut self) -> (Type, Type) {
        let node_type = self.node_type.clone();
        self.store
            .function_parts(&node_type)
            .unwrap_or_else(|e| panic!("type_info: the node's type is not a function type: {e}"))
    }

    /// Item `index` of product type `ty`, which is given `len` items if its
    /// arity was open.
    ///
    /// # Panics
    ///
    /// When `ty` is a product of another arity.
    ///
    /// ```
    /// let lambda = xsmith::TypeInfo::new(|s| {
    ///     let (params, result) = (s.fresh_product(), s.fresh());
    ///     xsmith::types::Type::function_of(params, result)
    /// })
    /// .child("params", |c| {
    ///     let (params, _) = c.function_parts();
    ///     let (len, index) = (c.len(), c.index());
    ///     c.product_item(&params, len, index)
    /// });
    /// # let _ = lambda;
    /// ```
    pub fn product_item(&mut self, ty: &Type, len: usize, index: usize) -> Type {
        let items = self
            .store
            .product_items(ty, len)
            .unwrap_or_else(|e| panic!("type_info: not a product of {len} items: {e}"));
        items[index].clone()
    }

    /// The type of the parameter being typed: item [`index`](Self::index)
    /// of the parameters of the node's function type, which has
    /// [`len`](Self::len) of them (a function literal's parameter list).
    ///
    /// ```
    /// let lambda = xsmith::TypeInfo::new(|s| s.fresh_function())
    ///     .child("params", |c| c.parameter_type())
    ///     .child("body", |c| c.function_parts().1);
    /// # let _ = lambda;
    /// ```
    pub fn parameter_type(&mut self) -> Type {
        let (params, _) = self.function_parts();
        let (len, index) = (self.len, self.index);
        self.product_item(&params, len, index)
    }

    /// The type of the argument being typed: item [`index`](Self::index)
    /// of the parameters of the function type of the earlier child
    /// `callee`, which has [`len`](Self::len) of them (a call's argument
    /// list).
    ///
    /// # Panics
    ///
    /// When `callee` was not typed before, or is not a function.
    ///
    /// ```
    /// use xsmith::types::Type;
    /// let apply = xsmith::TypeInfo::new(|s| s.fresh())
    ///     .child("callee", |c| {
    ///         let params = (0..c.field_len("args")).map(|_| c.fresh()).collect();
    ///         Type::function(params, c.node_type().clone())
    ///     })
    ///     .child("args", |c| c.argument_type("callee"));
    /// # let _ = apply;
    /// ```
    pub fn argument_type(&mut self, callee: &str) -> Type {
        let callee_type = self
            .earlier(callee)
            .unwrap_or_else(|| panic!("type_info: `{callee}` is typed after the arguments"));
        let (params, _) = self
            .store
            .function_parts(&callee_type)
            .unwrap_or_else(|e| panic!("type_info: `{callee}` is not a function: {e}"));
        let (len, index) = (self.len, self.index);
        self.product_item(&params, len, index)
    }
}
