//! Spec components: named bundles of grammar productions and their
//! properties, combined into a [`Spec`](crate::Spec) by
//! [`Spec::assemble`](crate::Spec::assemble).
//!
//! The [`component!`](crate::component) macro writes these calls for you;
//! this builder is the procedural form it expands into.

use std::sync::Arc;

use crate::grammar::{DataInit, ListLength};
use crate::properties::{BindingFilter, Filter, FreshHook, LengthFn, Renderer, TypeInfo, Weight};
use crate::scopes::{Access, BinderInfo, ReferenceInfo, ScopeKind};
use crate::types::{Type, TypeStore};

/// One field of a production: a child node, a list of child nodes, or a data
/// value drawn when the node is made.
#[derive(Clone)]
pub enum FieldDecl {
    /// A single child whose node type is the named production.
    Child {
        /// The field's name, unique in its production.
        name: String,
        /// The node type of the child (a production name).
        node_type: String,
    },
    /// A Kleene-star list of children of one node type.
    List {
        /// The field's name, unique in its production.
        name: String,
        /// The node type of the elements.
        node_type: String,
        /// How many elements a new list gets.
        length: ListLength,
    },
    /// A data value (a literal's value, a name) set when the node is made.
    Data {
        /// The field's name, unique in its production.
        name: String,
        /// Draws the value from the program's random source.
        init: DataInit,
    },
}

impl FieldDecl {
    /// The field's name.
    ///
    /// ```
    /// let f = xsmith::FieldDecl::Child { name: "left".into(), node_type: "Expr".into() };
    /// assert_eq!(f.name(), "left");
    /// ```
    pub fn name(&self) -> &str {
        match self {
            FieldDecl::Child { name, .. } | FieldDecl::List { name, .. } | FieldDecl::Data { name, .. } => name,
        }
    }
}

/// A grammar production as declared: a name, an optional supertype, whether
/// it is abstract, and its own fields (a subtype also has its supertype's
/// fields, which come first).
///
/// ```
/// use xsmith::ProductionDecl;
/// let add = ProductionDecl::new("Add").supertype("Expr").child("left", "Expr").child("right", "Expr");
/// assert_eq!(add.name, "Add");
/// assert_eq!(add.fields.len(), 2);
/// ```
#[derive(Clone)]
pub struct ProductionDecl {
    /// The production's name, unique in a spec.
    pub name: String,
    /// The production it is a subtype of, if any.
    pub supertype: Option<String>,
    /// Abstract productions are node types only: they are never generated.
    pub is_abstract: bool,
    /// The fields it declares (not counting inherited ones).
    pub fields: Vec<FieldDecl>,
}

impl ProductionDecl {
    /// A concrete production with no supertype and no fields.
    ///
    /// ```
    /// let p = xsmith::ProductionDecl::new("Program");
    /// assert!(!p.is_abstract);
    /// ```
    pub fn new(name: impl Into<String>) -> ProductionDecl {
        ProductionDecl {
            name: name.into(),
            supertype: None,
            is_abstract: false,
            fields: Vec::new(),
        }
    }

    /// Makes it a subtype of `supertype`.
    ///
    /// ```
    /// let p = xsmith::ProductionDecl::new("Literal").supertype("Expr");
    /// assert_eq!(p.supertype.as_deref(), Some("Expr"));
    /// ```
    pub fn supertype(mut self, supertype: impl Into<String>) -> ProductionDecl {
        self.supertype = Some(supertype.into());
        self
    }

    /// Makes it abstract: a node type that only its subtypes fill.
    ///
    /// ```
    /// assert!(xsmith::ProductionDecl::new("Expr").abstract_().is_abstract);
    /// ```
    pub fn abstract_(mut self) -> ProductionDecl {
        self.is_abstract = true;
        self
    }

    /// Adds a single child field.
    ///
    /// ```
    /// let p = xsmith::ProductionDecl::new("Neg").child("operand", "Expr");
    /// assert_eq!(p.fields[0].name(), "operand");
    /// ```
    pub fn child(mut self, name: impl Into<String>, node_type: impl Into<String>) -> ProductionDecl {
        self.fields.push(FieldDecl::Child {
            name: name.into(),
            node_type: node_type.into(),
        });
        self
    }

    /// Adds a Kleene-star list field.
    ///
    /// ```
    /// use xsmith::{ListLength, ProductionDecl};
    /// let p = ProductionDecl::new("Block").list("statements", "Statement", ListLength::uniform(0, 4));
    /// assert_eq!(p.fields.len(), 1);
    /// ```
    pub fn list(mut self, name: impl Into<String>, node_type: impl Into<String>, length: ListLength) -> ProductionDecl {
        self.fields.push(FieldDecl::List {
            name: name.into(),
            node_type: node_type.into(),
            length,
        });
        self
    }

    /// Adds a data field drawn by `init` when the node is made.
    ///
    /// ```
    /// use xsmith::{DataInit, ProductionDecl};
    /// let p = ProductionDecl::new("Literal").data("value", DataInit::new(|r| r.int_in(1, 99)));
    /// assert_eq!(p.fields[0].name(), "value");
    /// ```
    pub fn data(mut self, name: impl Into<String>, init: DataInit) -> ProductionDecl {
        self.fields.push(FieldDecl::Data {
            name: name.into(),
            init,
        });
        self
    }
}

/// A property value given to one production by a component.
#[derive(Clone)]
pub(crate) enum PropertyValue {
    MayBeGenerated(bool),
    ChoiceWeight(Weight),
    DepthIncrease(u32),
    Fresh(FreshHook),
    ChoiceFilter(Filter),
    Render(Renderer),
    Feature(String),
    TypeInfo(TypeInfo),
    ListLength(String, LengthFn),
    BinderInfo(BinderInfo),
    ReferenceInfo(ReferenceInfo),
    Scope(ScopeKind),
    LiftPredicate(String),
    LiftFilter(Filter),
    BindingFilter(BindingFilter),
    StrictChildOrder(bool),
    Io(bool),
    Calls(String),
    FunctionBody(String),
    ContainerAccess(String, Access),
}

impl PropertyValue {
    pub(crate) fn property_name(&self) -> &'static str {
        match self {
            PropertyValue::MayBeGenerated(_) => "may_be_generated",
            PropertyValue::ChoiceWeight(_) => "choice_weight",
            PropertyValue::DepthIncrease(_) => "depth_increase",
            PropertyValue::Fresh(_) => "fresh",
            PropertyValue::ChoiceFilter(_) => "choice_filters",
            PropertyValue::Render(_) => "render",
            PropertyValue::Feature(_) => "feature",
            PropertyValue::TypeInfo(_) => "type_info",
            PropertyValue::ListLength(..) => "list_length",
            PropertyValue::BinderInfo(_) => "binder_info",
            PropertyValue::ReferenceInfo(_) => "reference_info",
            PropertyValue::Scope(_) => "scope",
            PropertyValue::LiftPredicate(_) => "lift_predicate",
            PropertyValue::LiftFilter(_) => "lift_filters",
            PropertyValue::BindingFilter(_) => "binding_filters",
            PropertyValue::StrictChildOrder(_) => "strict_child_order",
            PropertyValue::Io(_) => "io",
            PropertyValue::Calls(_) => "calls",
            PropertyValue::FunctionBody(_) => "function_body",
            PropertyValue::ContainerAccess(..) => "mutable_container_access",
        }
    }
}

/// A named bundle of productions and properties.
///
/// Properties may name productions of other components: they are matched when
/// the components are assembled into a spec, and a property set by a later
/// component replaces the same property set by an earlier one (so a language
/// can override a canned default).
///
/// ```
/// use xsmith::{Component, ProductionDecl, Weight};
/// let mut c = Component::new("calc");
/// c.production(ProductionDecl::new("Expr").abstract_());
/// c.choice_weight("Expr", Weight::Constant(3));
/// assert_eq!(c.name(), "calc");
/// ```
#[derive(Clone)]
pub struct Component {
    name: String,
    pub(crate) productions: Vec<ProductionDecl>,
    pub(crate) properties: Vec<(String, PropertyValue)>,
    /// Property values every concrete production of the spec gets unless
    /// it is given its own.
    pub(crate) defaults: Vec<PropertyValue>,
    pub(crate) features_off_by_default: Vec<String>,
}

impl Component {
    /// An empty component.
    ///
    /// ```
    /// assert_eq!(xsmith::Component::new("x").name(), "x");
    /// ```
    pub fn new(name: impl Into<String>) -> Component {
        Component {
            name: name.into(),
            productions: Vec::new(),
            properties: Vec::new(),
            defaults: Vec::new(),
            features_off_by_default: Vec::new(),
        }
    }

    /// The component's name.
    ///
    /// ```
    /// assert_eq!(xsmith::Component::new("basic").name(), "basic");
    /// ```
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Adds a production.
    ///
    /// ```
    /// let mut c = xsmith::Component::new("c");
    /// c.production(xsmith::ProductionDecl::new("Program"));
    /// ```
    pub fn production(&mut self, production: ProductionDecl) -> &mut Component {
        self.productions.push(production);
        self
    }

    /// `may_be_generated`: whether the production is ever chosen for a hole
    /// (default true). A production that is never generated needs no
    /// renderer, unless it is a definition that lifting may still insert.
    ///
    /// ```
    /// let mut c = xsmith::Component::new("c");
    /// c.may_be_generated("Program", false);
    /// ```
    pub fn may_be_generated(&mut self, production: &str, value: bool) -> &mut Component {
        self.property(production, PropertyValue::MayBeGenerated(value))
    }

    /// `choice_weight`: the production's weight among the choices of a hole
    /// (default 10).
    ///
    /// ```
    /// let mut c = xsmith::Component::new("c");
    /// c.choice_weight("Add", xsmith::Weight::dynamic(|hole| if hole.depth() > 2 { 1 } else { 5 }));
    /// ```
    pub fn choice_weight(&mut self, production: &str, weight: Weight) -> &mut Component {
        self.property(production, PropertyValue::ChoiceWeight(weight))
    }

    /// `depth_increase`: how much deeper the production's children are than
    /// itself (default 1). Only a production with children and a positive
    /// depth increase deepens the tree.
    ///
    /// ```
    /// let mut c = xsmith::Component::new("c");
    /// c.depth_increase("Block", 0);
    /// ```
    pub fn depth_increase(&mut self, production: &str, increase: u32) -> &mut Component {
        self.property(production, PropertyValue::DepthIncrease(increase))
    }

    /// `fresh`: custom initialisation run when the production fills a hole,
    /// after its data fields got their initial values.
    ///
    /// ```
    /// let mut c = xsmith::Component::new("c");
    /// c.fresh("Literal", xsmith::FreshHook::new(|node| {
    ///     let v = node.random().int_in(1, 9);
    ///     node.set("value", v);
    /// }));
    /// ```
    pub fn fresh(&mut self, production: &str, hook: FreshHook) -> &mut Component {
        self.property(production, PropertyValue::Fresh(hook))
    }

    /// `choice_filters`: a predicate on the hole that must hold for the
    /// production to be a choice. Several filters all must hold.
    ///
    /// ```
    /// let mut c = xsmith::Component::new("c");
    /// c.choice_filter("Div", xsmith::Filter::new(|hole| hole.depth() > 0));
    /// ```
    pub fn choice_filter(&mut self, production: &str, filter: Filter) -> &mut Component {
        self.property(production, PropertyValue::ChoiceFilter(filter))
    }

    /// `render`: how the production's nodes print: a [`Renderer`], a
    /// template (a `Vec` of [`Piece`](crate::Piece)s) or a render function
    /// (a closure goes through [`Renderer::function`], which gives it its
    /// signature).
    ///
    /// ```
    /// use xsmith::{Piece, Renderer};
    /// let mut c = xsmith::Component::new("c");
    /// c.render("Literal", vec![Piece::Field("value")]);
    /// c.render("Neg", Renderer::function(|n| n.text("-").append(n.child("operand"))));
    /// ```
    pub fn render(&mut self, production: &str, renderer: impl Into<Renderer>) -> &mut Component {
        self.property(production, PropertyValue::Render(renderer.into()))
    }

    /// `type_info`: the type the production's nodes may have and the types
    /// of their children (required of every generatable production of a
    /// typed spec).
    ///
    /// ```
    /// let mut c = xsmith::Component::new("c");
    /// c.type_info("Literal", xsmith::TypeInfo::new(|s| s.base("int")));
    /// ```
    pub fn type_info(&mut self, production: &str, info: TypeInfo) -> &mut Component {
        self.property(production, PropertyValue::TypeInfo(info))
    }

    /// `list_length`: in a typed spec, the length a list field gets for the
    /// node's type, given the length drawn as usual; the function may fix the
    /// type to fit. A lambda's parameter list, for instance, is as long as
    /// its function type's parameters when those are known, and fixes them
    /// to the drawn length when they are not.
    ///
    /// ```
    /// use xsmith::types::Type;
    /// let mut c = xsmith::Component::new("c");
    /// c.list_length("Lambda", "params", |store, ty, drawn| {
    ///     let (params, _) = store.function_parts(ty).expect("a lambda has a function type");
    ///     store.product_items(&params, drawn).map_or_else(
    ///         |_| match store.resolve(&params) {
    ///             Type::Product(items) => items.len(),
    ///             _ => unreachable!("an open product takes any length"),
    ///         },
    ///         |items| items.len(),
    ///     )
    /// });
    /// ```
    pub fn list_length(
        &mut self,
        production: &str,
        field: &str,
        length: impl Fn(&mut TypeStore, &Type, usize) -> usize + Send + Sync + 'static,
    ) -> &mut Component {
        self.property(
            production,
            PropertyValue::ListLength(field.to_string(), Arc::new(length)),
        )
    }

    /// `binder_info`: the production binds a fresh name (written into a
    /// data field), visible according to the enclosing scope.
    ///
    /// ```
    /// use xsmith::{BinderInfo, BinderStyle};
    /// let mut c = xsmith::Component::new("c");
    /// c.binder_info("Let", BinderInfo::new("name", BinderStyle::Definition));
    /// ```
    pub fn binder_info(&mut self, production: &str, info: BinderInfo) -> &mut Component {
        self.property(production, PropertyValue::BinderInfo(info))
    }

    /// `reference_info`: the production refers to a visible binder of a
    /// fitting type, whose name the engine writes into a data field; it is
    /// a choice only where such a binder is visible.
    ///
    /// ```
    /// use xsmith::{Access, ReferenceInfo};
    /// let mut c = xsmith::Component::new("c");
    /// c.reference_info("Var", ReferenceInfo::new("name", Access::Read));
    /// ```
    pub fn reference_info(&mut self, production: &str, info: ReferenceInfo) -> &mut Component {
        self.property(production, PropertyValue::ReferenceInfo(info))
    }

    /// The production introduces a scope for the binders below it (what
    /// each kind lets a node see is [`ScopeKind`]'s documentation).
    ///
    /// ```
    /// let mut c = xsmith::Component::new("c");
    /// c.scope("Block", xsmith::ScopeKind::Sequential);
    /// ```
    pub fn scope(&mut self, production: &str, kind: ScopeKind) -> &mut Component {
        self.property(production, PropertyValue::Scope(kind))
    }

    /// `lift_predicate`: the production (a scope of any kind but
    /// recursive) may receive
    /// lifted definitions in its list field `field`: when a reference needs
    /// a variable that nothing visible has (or, sometimes, anyway), a new
    /// definition is inserted there, before the reference, and its
    /// initialiser becomes a hole.
    ///
    /// ```
    /// let mut c = xsmith::Component::new("c");
    /// c.lift_predicate("Block", "stmts");
    /// ```
    pub fn lift_predicate(&mut self, production: &str, field: &str) -> &mut Component {
        self.property(production, PropertyValue::LiftPredicate(field.to_string()))
    }

    /// `lift_filters`: a predicate on the place a definition would be
    /// lifted to, in a production that receives lifts (see
    /// [`Component::lift_predicate`]), that must hold for the lift to go
    /// there. The [`Hole`](crate::Hole) it sees has no node yet
    /// ([`Hole::is_lift`](crate::Hole::is_lift)); its parent is the scope,
    /// its required type the definition's. A refused site passes the lift
    /// on to the next scope out that receives lifts. (The definition's own
    /// `choice_filters` decide too.) Several filters all must hold.
    ///
    /// ```
    /// let mut c = xsmith::Component::new("c");
    /// // No lifted definitions in blocks deeper than 4.
    /// c.lift_predicate("Block", "stmts")
    ///     .lift_filter("Block", xsmith::Filter::new(|site| site.depth() <= 4));
    /// ```
    pub fn lift_filter(&mut self, production: &str, filter: Filter) -> &mut Component {
        self.property(production, PropertyValue::LiftFilter(filter))
    }

    /// `binding_filters`: a predicate on the binders in sight that a
    /// reference production (see [`Component::reference_info`]) may point
    /// at. A binder refused is as if out of sight: the reference takes
    /// another, or lifts a new definition (which the definition's own
    /// `choice_filters` decide on). Several filters all must hold.
    ///
    /// ```
    /// let mut c = xsmith::Component::new("c");
    /// // A reference never points at a binder whose name is `v1`.
    /// c.binding_filter("VarRef", xsmith::BindingFilter::new(|_, binder| {
    ///     binder.data("name").is_none_or(|name| name.to_string() != "v1")
    /// }));
    /// ```
    pub fn binding_filter(&mut self, production: &str, filter: BindingFilter) -> &mut Component {
        self.property(production, PropertyValue::BindingFilter(filter))
    }

    /// `strict_child_order`: the production's children run in order (a
    /// block, a sequence, a short-circuit operator), so their effects may
    /// depend on each other. Without it, siblings must not conflict.
    ///
    /// ```
    /// let mut c = xsmith::Component::new("c");
    /// c.strict_child_order("Block", true);
    /// ```
    pub fn strict_child_order(&mut self, production: &str, strict: bool) -> &mut Component {
        self.property(production, PropertyValue::StrictChildOrder(strict))
    }

    /// `io`: the production does I/O (printing), which must not be reordered
    /// with other I/O.
    ///
    /// ```
    /// let mut c = xsmith::Component::new("c");
    /// c.io("Print", true);
    /// ```
    pub fn io(&mut self, production: &str, io: bool) -> &mut Component {
        self.property(production, PropertyValue::Io(io))
    }

    /// `calls`: the production calls the function value its child
    /// `callee_field` evaluates to. The call's effects include the callee's
    /// latent effects: a function's body (see [`Component::function_body`])
    /// when the callee is a function literal or a reference to a read-only
    /// definition bound to one; otherwise the callee may do anything, and
    /// the call never runs in an unspecified order with a sibling that has
    /// any effect.
    ///
    /// ```
    /// let mut c = xsmith::Component::new("c");
    /// c.calls("Apply", "callee");
    /// ```
    pub fn calls(&mut self, production: &str, callee_field: &str) -> &mut Component {
        self.property(production, PropertyValue::Calls(callee_field.to_string()))
    }

    /// `function_body`: the production makes a function value (a lambda, a
    /// function definition) whose child `body_field` runs when it is called,
    /// not when the function value is made: the body's effects are latent,
    /// counted at calls, not where the function is written.
    ///
    /// ```
    /// let mut c = xsmith::Component::new("c");
    /// c.function_body("Lambda", "body");
    /// ```
    pub fn function_body(&mut self, production: &str, body_field: &str) -> &mut Component {
        self.property(production, PropertyValue::FunctionBody(body_field.to_string()))
    }

    /// `mutable_container_access`: the production reads (or writes) the
    /// mutable container that its child `field` evaluates to; containers are
    /// told apart by type (two of different ground types never alias).
    ///
    /// ```
    /// use xsmith::Access;
    /// let mut c = xsmith::Component::new("c");
    /// c.mutable_container_access("ArraySet", "array", Access::Write);
    /// ```
    pub fn mutable_container_access(&mut self, production: &str, field: &str, access: Access) -> &mut Component {
        self.property(production, PropertyValue::ContainerAccess(field.to_string(), access))
    }

    /// Puts the production in a named feature group, which `--with` and
    /// `--without` switch on and off.
    ///
    /// ```
    /// let mut c = xsmith::Component::new("c");
    /// c.feature("Div", "division");
    /// ```
    pub fn feature(&mut self, production: &str, group: &str) -> &mut Component {
        self.property(production, PropertyValue::Feature(group.to_string()))
    }

    /// Makes a feature group off unless `--with` names it.
    ///
    /// ```
    /// let mut c = xsmith::Component::new("c");
    /// c.feature("Div", "division").feature_off_by_default("division");
    /// ```
    pub fn feature_off_by_default(&mut self, group: &str) -> &mut Component {
        self.features_off_by_default.push(group.to_string());
        self
    }

    /// A spec-wide default of `strict_child_order`: every concrete
    /// production of the spec (of any component) that is given no
    /// `strict_child_order` of its own gets `strict` (the `component!`
    /// form is `strict_child_order { _ => true }`). The last default given
    /// wins.
    ///
    /// ```
    /// let mut c = xsmith::Component::new("c");
    /// c.default_strict_child_order(true).strict_child_order("Args", false);
    /// ```
    pub fn default_strict_child_order(&mut self, strict: bool) -> &mut Component {
        self.defaults.push(PropertyValue::StrictChildOrder(strict));
        self
    }

    /// A spec-wide default of `choice_weight` (instead of 10), for every
    /// concrete production given no weight of its own (`choice_weight { _
    /// => 5 }`).
    ///
    /// ```
    /// let mut c = xsmith::Component::new("c");
    /// c.default_choice_weight(xsmith::Weight::Constant(5));
    /// ```
    pub fn default_choice_weight(&mut self, weight: Weight) -> &mut Component {
        self.defaults.push(PropertyValue::ChoiceWeight(weight));
        self
    }

    /// A spec-wide default of `depth_increase` (instead of 1), for every
    /// concrete production given none of its own (`depth_increase { _ => 0
    /// }`).
    ///
    /// ```
    /// let mut c = xsmith::Component::new("c");
    /// c.default_depth_increase(2);
    /// ```
    pub fn default_depth_increase(&mut self, increase: u32) -> &mut Component {
        self.defaults.push(PropertyValue::DepthIncrease(increase));
        self
    }

    fn property(&mut self, production: &str, value: PropertyValue) -> &mut Component {
        self.properties.push((production.to_string(), value));
        self
    }
}
