//! Spec assembly: components combined into one checked grammar with
//! properties, ready to generate from.

use std::fmt;

use indexmap::IndexMap;

use crate::component::{Component, FieldDecl, PropertyValue};
use std::sync::Arc;

use crate::properties::{DataInit, Filter, FreshHook, LengthFn, ListLength, Renderer, TypeInfo, Weight};
use crate::scopes::{BinderInfo, ReferenceInfo, ScopeKind};
use crate::type_filter::NodeTypeShape;
use crate::types::TypeSystem;

/// The id of a production in its [`Spec`] (its declaration index).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ProdId(pub(crate) u32);

impl ProdId {
    /// The production's declaration index.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// assert_eq!(spec.root().index(), 0);
    /// ```
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// What a field of an assembled production holds.
#[derive(Clone)]
pub enum FieldKind {
    /// A single child of a node type.
    Child(ProdId),
    /// A list of children of a node type.
    List(ProdId, ListLength),
    /// A data value and how it is drawn.
    Data(DataInit),
}

/// A field of an assembled production.
#[derive(Clone)]
pub struct Field {
    name: String,
    kind: FieldKind,
}

impl Field {
    /// The field's name.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let add = spec.production(spec.lookup("Add").unwrap());
    /// assert_eq!(add.fields()[0].name(), "left");
    /// ```
    pub fn name(&self) -> &str {
        &self.name
    }

    /// What the field holds.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let add = spec.production(spec.lookup("Add").unwrap());
    /// assert!(matches!(add.fields()[0].kind(), xsmith::FieldKind::Child(_)));
    /// ```
    pub fn kind(&self) -> &FieldKind {
        &self.kind
    }
}

/// An assembled production: its grammar and every property it was given.
#[derive(Clone)]
pub struct Production {
    name: String,
    supertype: Option<ProdId>,
    is_abstract: bool,
    fields: Vec<Field>,
    pub(crate) may_be_generated: bool,
    pub(crate) weight: Weight,
    pub(crate) depth_increase: u32,
    pub(crate) fresh: Option<FreshHook>,
    pub(crate) filters: Vec<Filter>,
    pub(crate) renderer: Option<Renderer>,
    pub(crate) features: Vec<String>,
    pub(crate) type_info: Option<TypeInfo>,
    pub(crate) list_lengths: Vec<(String, LengthFn)>,
    pub(crate) binder_info: Option<BinderInfo>,
    pub(crate) reference_info: Option<ReferenceInfo>,
    pub(crate) scope: Option<ScopeKind>,
    /// The list field that may receive lifted definitions.
    pub(crate) lift_field: Option<usize>,
    pub(crate) strict_child_order: bool,
    pub(crate) io: bool,
    /// The child that is called, for a production that calls a function
    /// value.
    pub(crate) callee: Option<usize>,
    /// The child that runs when the function value this production makes
    /// is called.
    pub(crate) function_body: Option<usize>,
    /// The child holding the value of a read-only definition.
    pub(crate) binder_value: Option<usize>,
    /// The child whose value is the container accessed, and how.
    pub(crate) container_access: Option<(String, crate::scopes::Access)>,
}

impl Production {
    /// The production's name.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// assert_eq!(spec.production(spec.root()).name(), "Program");
    /// ```
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Its supertype, if any.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let add = spec.production(spec.lookup("Add").unwrap());
    /// assert_eq!(add.supertype(), spec.lookup("Expr"));
    /// ```
    pub fn supertype(&self) -> Option<ProdId> {
        self.supertype
    }

    /// Whether it is abstract (a node type that is never generated itself).
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// assert!(spec.production(spec.lookup("Expr").unwrap()).is_abstract());
    /// ```
    pub fn is_abstract(&self) -> bool {
        self.is_abstract
    }

    /// All its fields, inherited ones first.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// assert_eq!(spec.production(spec.lookup("Literal").unwrap()).fields().len(), 1);
    /// ```
    pub fn fields(&self) -> &[Field] {
        &self.fields
    }

    /// The index of the field called `name`.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let add = spec.production(spec.lookup("Add").unwrap());
    /// assert_eq!(add.field_index("right"), Some(1));
    /// ```
    pub fn field_index(&self, name: &str) -> Option<usize> {
        self.fields.iter().position(|field| field.name == name)
    }

    /// Whether it ever fills a hole: concrete and `may_be_generated`.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// assert!(spec.production(spec.lookup("Add").unwrap()).is_generatable());
    /// ```
    pub fn is_generatable(&self) -> bool {
        !self.is_abstract && self.may_be_generated
    }

    /// Whether the generator may lift it (insert it as a new definition
    /// for a reference): a concrete definition, even one that
    /// `may_be_generated` keeps from filling holes (so a language can make
    /// definitions only where references need them).
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// assert!(!spec.production(spec.lookup("Add").unwrap()).is_liftable());
    /// ```
    pub fn is_liftable(&self) -> bool {
        !self.is_abstract
            && self
                .binder_info
                .as_ref()
                .is_some_and(|info| info.style == crate::scopes::BinderStyle::Definition)
    }

    /// The feature groups it belongs to.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let div = spec.production(spec.lookup("Div").unwrap());
    /// assert_eq!(div.features(), ["division"]);
    /// ```
    pub fn features(&self) -> &[String] {
        &self.features
    }
}

/// A mistake in a spec, found when its components are assembled. Each names
/// the production at fault.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SpecError {
    /// Two productions have one name.
    DuplicateProduction(String),
    /// A production's supertype is not a production.
    UnknownSupertype {
        /// The production.
        production: String,
        /// The name it gave as supertype.
        supertype: String,
    },
    /// A child field's node type is not a production.
    UnknownChildType {
        /// The production.
        production: String,
        /// The field.
        field: String,
        /// The node type it names.
        node_type: String,
    },
    /// Two fields of a production (inherited ones included) share a name.
    DuplicateField {
        /// The production.
        production: String,
        /// The field name.
        field: String,
    },
    /// Following supertypes from this production comes back to it.
    SupertypeCycle(String),
    /// A production that can be generated has no `render` property.
    MissingRenderer(String),
    /// A property names a production that no component declares.
    PropertyForUnknownProduction {
        /// The property.
        property: String,
        /// The production name it gave.
        production: String,
    },
    /// A template of this production names a field it does not have.
    UnknownTemplateField {
        /// The production.
        production: String,
        /// The field name in the template.
        field: String,
    },
    /// The root node type is not a production.
    UnknownRoot(String),
    /// Every way of filling this node type recurses forever (or it has no
    /// generatable production at all), so it can never be finished.
    NeverFinishes(String),
    /// A feature group declared off by default has no production in it.
    UnknownFeature(String),
    /// A `binder_info` or `reference_info` names a field that is not a data
    /// field.
    NotADataField {
        /// The production.
        production: String,
        /// The property.
        property: String,
        /// The field name.
        field: String,
    },
    /// A `lift_predicate` is given to a production that is not a sequential
    /// scope (a lifted definition must not see itself).
    LiftIntoNonSequentialScope(String),
    /// A property names a field that is not a single child.
    NotAChildField {
        /// The production.
        production: String,
        /// The property.
        property: String,
        /// The field name.
        field: String,
    },
    /// A render template joins a field that is not a list.
    JoinOfNonList {
        /// The production.
        production: String,
        /// The field name.
        field: String,
    },
    /// A `list_length` names a field that is not a list.
    NotAListField {
        /// The production.
        production: String,
        /// The field name.
        field: String,
    },
    /// A generatable production of a typed spec has no `type_info`.
    MissingTypeInfo(String),
    /// A `type_info` node type function failed (it panicked, for example
    /// naming a base type the type system does not have).
    TypeInfo {
        /// The production.
        production: String,
        /// The panic message.
        message: String,
    },
    /// A `type_info` gives a type to a field that is not a child field.
    UnknownTypeInfoField {
        /// The production.
        production: String,
        /// The field name.
        field: String,
    },
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SpecError::DuplicateProduction(p) => write!(f, "production `{p}` is declared twice"),
            SpecError::UnknownSupertype { production, supertype } => {
                write!(f, "production `{production}` has unknown supertype `{supertype}`")
            }
            SpecError::UnknownChildType {
                production,
                field,
                node_type,
            } => write!(
                f,
                "field `{field}` of production `{production}` has unknown node type `{node_type}`"
            ),
            SpecError::DuplicateField { production, field } => {
                write!(f, "production `{production}` has two fields called `{field}`")
            }
            SpecError::SupertypeCycle(p) => write!(f, "the supertypes of production `{p}` form a cycle"),
            SpecError::MissingRenderer(p) => {
                write!(f, "production `{p}` can be generated but has no `render` property")
            }
            SpecError::PropertyForUnknownProduction { property, production } => {
                write!(
                    f,
                    "property `{property}` is given for unknown production `{production}`"
                )
            }
            SpecError::UnknownTemplateField { production, field } => {
                write!(
                    f,
                    "the render template of production `{production}` names unknown field `{field}`"
                )
            }
            SpecError::UnknownRoot(p) => write!(f, "the root node type `{p}` is not a production"),
            SpecError::NeverFinishes(p) => write!(
                f,
                "node type `{p}` can never be finished: every generatable production of it recurses, or it has none"
            ),
            SpecError::NotADataField {
                production,
                property,
                field,
            } => write!(
                f,
                "the {property} of production `{production}` names `{field}`, which is not one of its data fields"
            ),
            SpecError::LiftIntoNonSequentialScope(p) => {
                write!(f, "production `{p}` has a lift_predicate but is not a sequential scope")
            }
            SpecError::NotAChildField {
                production,
                property,
                field,
            } => write!(
                f,
                "the {property} of production `{production}` names `{field}`, which is not a single child field"
            ),
            SpecError::JoinOfNonList { production, field } => {
                write!(
                    f,
                    "the render template of production `{production}` joins `{field}`, which is not a list field"
                )
            }
            SpecError::NotAListField { production, field } => {
                write!(
                    f,
                    "list_length of production `{production}` names `{field}`, which is not a list field"
                )
            }
            SpecError::TypeInfo { production, message } => {
                write!(f, "the type_info of production `{production}` failed: {message}")
            }
            SpecError::MissingTypeInfo(p) => {
                write!(
                    f,
                    "production `{p}` can be generated in a typed spec but has no `type_info` property"
                )
            }
            SpecError::UnknownTypeInfoField { production, field } => write!(
                f,
                "the type_info of production `{production}` types `{field}`, which is not one of its child fields"
            ),
            SpecError::UnknownFeature(g) => {
                write!(
                    f,
                    "feature group `{g}` is off by default but no production belongs to it"
                )
            }
        }
    }
}

impl std::error::Error for SpecError {}

/// A checked spec: every production with its properties, the concrete
/// productions that can fill each node type, and the root node type.
///
/// ```
/// let spec = xsmith::example::spec();
/// assert_eq!(spec.productions().len(), 5);
/// assert_eq!(spec.production(spec.root()).name(), "Program");
/// ```
pub struct Spec {
    productions: Vec<Production>,
    by_name: IndexMap<String, ProdId>,
    fillers: Vec<Vec<ProdId>>,
    root: ProdId,
    features_off_by_default: Vec<String>,
    type_system: Option<Arc<TypeSystem>>,
    /// Per production, the shape of its `type_info` node type (typed specs).
    pub(crate) node_type_shapes: Vec<Option<NodeTypeShape>>,
}

impl Spec {
    /// Combines components into a spec whose programs are trees of node type
    /// `root`, checking it.
    ///
    /// ```
    /// use xsmith::{Component, ProductionDecl, Spec, SpecError};
    /// let mut c = Component::new("broken");
    /// c.production(ProductionDecl::new("Program").child("body", "Missing"));
    /// let error = Spec::assemble("Program", [c]).err().unwrap();
    /// assert_eq!(error.to_string(), "field `body` of production `Program` has unknown node type `Missing`");
    /// ```
    pub fn assemble(root: &str, components: impl IntoIterator<Item = Component>) -> Result<Spec, SpecError> {
        Spec::assemble_with(root, None, components)
    }

    /// Combines components into a typed spec: every generatable production
    /// must have a `type_info`, and generation keeps every tree well typed
    /// in `system`.
    ///
    /// ```
    /// use xsmith::{Component, ProductionDecl, Piece, Renderer, Spec, SpecError};
    /// let mut c = Component::new("c");
    /// c.production(ProductionDecl::new("Program"));
    /// c.render("Program", Renderer::Template(vec![Piece::Text("pass")]));
    /// let error = Spec::assemble_typed("Program", xsmith::types::TypeSystem::new(), [c]).err().unwrap();
    /// assert_eq!(error, SpecError::MissingTypeInfo("Program".into()));
    /// ```
    pub fn assemble_typed(
        root: &str,
        system: TypeSystem,
        components: impl IntoIterator<Item = Component>,
    ) -> Result<Spec, SpecError> {
        Spec::assemble_with(root, Some(Arc::new(system)), components)
    }

    fn assemble_with(
        root: &str,
        type_system: Option<Arc<TypeSystem>>,
        components: impl IntoIterator<Item = Component>,
    ) -> Result<Spec, SpecError> {
        let components: Vec<Component> = components.into_iter().collect();
        let mut by_name = IndexMap::new();
        let mut decls = Vec::new();
        for component in &components {
            for decl in &component.productions {
                let id = ProdId(decls.len() as u32);
                if by_name.insert(decl.name.clone(), id).is_some() {
                    return Err(SpecError::DuplicateProduction(decl.name.clone()));
                }
                decls.push(decl);
            }
        }
        let lookup = |name: &str| by_name.get(name).copied();

        let mut supertypes = Vec::with_capacity(decls.len());
        for decl in &decls {
            supertypes.push(match &decl.supertype {
                None => None,
                Some(name) => Some(lookup(name).ok_or_else(|| SpecError::UnknownSupertype {
                    production: decl.name.clone(),
                    supertype: name.clone(),
                })?),
            });
        }
        for (index, decl) in decls.iter().enumerate() {
            let mut cursor = supertypes[index];
            for _ in 0..decls.len() {
                match cursor {
                    Some(up) if up.index() == index => return Err(SpecError::SupertypeCycle(decl.name.clone())),
                    Some(up) => cursor = supertypes[up.index()],
                    None => break,
                }
            }
        }

        let mut productions = Vec::with_capacity(decls.len());
        for (index, decl) in decls.iter().enumerate() {
            let mut chain = vec![index];
            while let Some(up) = supertypes[*chain.last().unwrap()] {
                chain.push(up.index());
            }
            let mut fields: Vec<Field> = Vec::new();
            for &ancestor in chain.iter().rev() {
                for field in &decls[ancestor].fields {
                    if fields.iter().any(|f| f.name == field.name()) {
                        return Err(SpecError::DuplicateField {
                            production: decl.name.clone(),
                            field: field.name().to_string(),
                        });
                    }
                    let node_type = |name: &String| {
                        lookup(name).ok_or_else(|| SpecError::UnknownChildType {
                            production: decls[ancestor].name.clone(),
                            field: field.name().to_string(),
                            node_type: name.clone(),
                        })
                    };
                    let kind = match field {
                        FieldDecl::Child { node_type: t, .. } => FieldKind::Child(node_type(t)?),
                        FieldDecl::List {
                            node_type: t, length, ..
                        } => FieldKind::List(node_type(t)?, length.clone()),
                        FieldDecl::Data { init, .. } => FieldKind::Data(init.clone()),
                    };
                    fields.push(Field {
                        name: field.name().to_string(),
                        kind,
                    });
                }
            }
            productions.push(Production {
                name: decl.name.clone(),
                supertype: supertypes[index],
                is_abstract: decl.is_abstract,
                fields,
                may_be_generated: true,
                weight: Weight::Constant(10),
                depth_increase: 1,
                fresh: None,
                filters: Vec::new(),
                renderer: None,
                features: Vec::new(),
                type_info: None,
                list_lengths: Vec::new(),
                binder_info: None,
                reference_info: None,
                scope: None,
                lift_field: None,
                strict_child_order: false,
                io: false,
                callee: None,
                function_body: None,
                binder_value: None,
                container_access: None,
            });
        }

        for component in &components {
            for (name, value) in &component.properties {
                let id = lookup(name).ok_or_else(|| SpecError::PropertyForUnknownProduction {
                    property: value.property_name().to_string(),
                    production: name.clone(),
                })?;
                let production = &mut productions[id.index()];
                match value.clone() {
                    PropertyValue::MayBeGenerated(v) => production.may_be_generated = v,
                    PropertyValue::ChoiceWeight(w) => production.weight = w,
                    PropertyValue::DepthIncrease(d) => production.depth_increase = d,
                    PropertyValue::Fresh(hook) => production.fresh = Some(hook),
                    PropertyValue::ChoiceFilter(filter) => production.filters.push(filter),
                    PropertyValue::Render(renderer) => production.renderer = Some(renderer),
                    PropertyValue::TypeInfo(info) => production.type_info = Some(info),
                    PropertyValue::ListLength(field, length) => {
                        let is_list = production
                            .field_index(&field)
                            .is_some_and(|i| matches!(production.fields[i].kind, FieldKind::List(..)));
                        if !is_list {
                            return Err(SpecError::NotAListField {
                                production: production.name.clone(),
                                field,
                            });
                        }
                        production.list_lengths.retain(|(f, _)| *f != field);
                        production.list_lengths.push((field, length));
                    }
                    PropertyValue::BinderInfo(info) => {
                        check_data_field(production, &info.name_field, "binder_info")?;
                        production.binder_value = match &info.value_field {
                            Some(field) => Some(child_field(production, field, "binder_info")?),
                            None => None,
                        };
                        production.binder_info = Some(info);
                    }
                    PropertyValue::ReferenceInfo(info) => {
                        check_data_field(production, &info.name_field, "reference_info")?;
                        production.reference_info = Some(info);
                    }
                    PropertyValue::Scope(kind) => production.scope = Some(kind),
                    PropertyValue::StrictChildOrder(strict) => production.strict_child_order = strict,
                    PropertyValue::Io(io) => production.io = io,
                    PropertyValue::Calls(field) => production.callee = Some(child_field(production, &field, "calls")?),
                    PropertyValue::FunctionBody(field) => {
                        production.function_body = Some(child_field(production, &field, "function_body")?)
                    }
                    PropertyValue::ContainerAccess(field, access) => {
                        child_field(production, &field, "mutable_container_access")?;
                        production.container_access = Some((field, access));
                    }
                    PropertyValue::LiftPredicate(field) => {
                        let index = production.field_index(&field);
                        match index.map(|i| &production.fields[i].kind) {
                            Some(FieldKind::List(..)) => production.lift_field = index,
                            _ => {
                                return Err(SpecError::NotAListField {
                                    production: production.name.clone(),
                                    field,
                                })
                            }
                        }
                    }
                    PropertyValue::Feature(group) => {
                        if !production.features.contains(&group) {
                            production.features.push(group)
                        }
                    }
                }
            }
        }

        for production in &productions {
            if !production.is_generatable() && !production.is_liftable() {
                continue;
            }
            if type_system.is_some() {
                let info = production
                    .type_info
                    .as_ref()
                    .ok_or_else(|| SpecError::MissingTypeInfo(production.name.clone()))?;
                for (field, _) in &info.children {
                    let is_child = production
                        .field_index(field)
                        .is_some_and(|i| !matches!(production.fields[i].kind, FieldKind::Data(_)));
                    if !is_child {
                        return Err(SpecError::UnknownTypeInfoField {
                            production: production.name.clone(),
                            field: field.to_string(),
                        });
                    }
                }
            }
            match &production.renderer {
                None => return Err(SpecError::MissingRenderer(production.name.clone())),
                Some(Renderer::Template(pieces)) => check_template(production, pieces)?,
                Some(Renderer::Function(_)) => {}
            }
        }

        for production in &productions {
            if production.lift_field.is_some() && production.scope != Some(ScopeKind::Sequential) {
                return Err(SpecError::LiftIntoNonSequentialScope(production.name.clone()));
            }
        }

        let features_off_by_default: Vec<String> = components
            .iter()
            .flat_map(|c| c.features_off_by_default.iter().cloned())
            .collect();
        for group in &features_off_by_default {
            if !productions.iter().any(|p| p.features.contains(group)) {
                return Err(SpecError::UnknownFeature(group.clone()));
            }
        }

        let root = lookup(root).ok_or_else(|| SpecError::UnknownRoot(root.to_string()))?;
        let fillers = (0..productions.len())
            .map(|node_type| {
                (0..productions.len())
                    .filter(|&candidate| {
                        !productions[candidate].is_abstract && walks_up_to(&productions, candidate, node_type)
                    })
                    .map(|candidate| ProdId(candidate as u32))
                    .collect()
            })
            .collect();
        let mut spec = Spec {
            productions,
            by_name,
            fillers,
            root,
            features_off_by_default,
            node_type_shapes: Vec::new(),
            type_system,
        };
        if let Some(system) = &spec.type_system {
            let mut shapes = Vec::with_capacity(spec.productions.len());
            for production in &spec.productions {
                let shape = match &production.type_info {
                    Some(info) => {
                        let made =
                            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| NodeTypeShape::of(info, system)));
                        Some(made.map_err(|panic| {
                            SpecError::TypeInfo {
                                production: production.name.clone(),
                                message: panic
                                    .downcast_ref::<String>()
                                    .cloned()
                                    .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                                    .unwrap_or_else(|| "it panicked".to_string()),
                            }
                        })?)
                    }
                    None => None,
                };
                shapes.push(shape);
            }
            spec.node_type_shapes = shapes;
        }
        let enabled: Vec<bool> = spec.productions.iter().map(Production::is_generatable).collect();
        if let Err(node_type) = spec.finishing_heights(&enabled) {
            return Err(SpecError::NeverFinishes(spec.production(node_type).name.clone()));
        }
        Ok(spec)
    }

    /// The type system of a typed spec.
    ///
    /// ```
    /// assert!(xsmith::example::spec().type_system().is_none());
    /// ```
    pub fn type_system(&self) -> Option<&Arc<TypeSystem>> {
        self.type_system.as_ref()
    }

    /// The root node type.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// assert_eq!(spec.production(spec.root()).name(), "Program");
    /// ```
    pub fn root(&self) -> ProdId {
        self.root
    }

    /// The production with this id.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let id = spec.lookup("Literal").unwrap();
    /// assert_eq!(spec.production(id).name(), "Literal");
    /// ```
    pub fn production(&self, id: ProdId) -> &Production {
        &self.productions[id.index()]
    }

    /// Every production in declaration order.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// assert!(spec.productions().iter().any(|p| p.name() == "Div"));
    /// ```
    pub fn productions(&self) -> &[Production] {
        &self.productions
    }

    /// The production called `name`.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// assert!(spec.lookup("Nope").is_none());
    /// ```
    pub fn lookup(&self, name: &str) -> Option<ProdId> {
        self.by_name.get(name).copied()
    }

    /// The concrete productions that may fill a hole of `node_type` (itself if
    /// concrete, and its concrete subtypes), in declaration order, whether
    /// generatable or not.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let expr = spec.lookup("Expr").unwrap();
    /// let names: Vec<_> = spec.fillers(expr).iter().map(|&p| spec.production(p).name()).collect();
    /// assert_eq!(names, ["Literal", "Add", "Div"]);
    /// ```
    pub fn fillers(&self, node_type: ProdId) -> &[ProdId] {
        &self.fillers[node_type.index()]
    }

    /// Whether `sub` is `sup` or one of its (transitive) subtypes.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let (add, expr) = (spec.lookup("Add").unwrap(), spec.lookup("Expr").unwrap());
    /// assert!(spec.is_subtype(add, expr));
    /// assert!(!spec.is_subtype(expr, add));
    /// ```
    pub fn is_subtype(&self, sub: ProdId, sup: ProdId) -> bool {
        walks_up_to(&self.productions, sub.index(), sup.index())
    }

    /// Feature groups that are off unless `--with` names them.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// assert!(spec.features_off_by_default().is_empty());
    /// ```
    pub fn features_off_by_default(&self) -> &[String] {
        &self.features_off_by_default
    }

    /// Every feature group name, in first-use order.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// assert_eq!(spec.feature_groups(), ["division"]);
    /// ```
    pub fn feature_groups(&self) -> Vec<&str> {
        let mut groups: Vec<&str> = Vec::new();
        for group in self.productions.iter().flat_map(|p| &p.features) {
            if !groups.contains(&group.as_str()) {
                groups.push(group);
            }
        }
        groups
    }

    /// For each production, the least height of a finished subtree it can
    /// root, using only the `enabled` productions: 0 for a node whose fields
    /// need no child (data fields, lists that may be empty). A node type's
    /// height is the least of its enabled fillers'. Returns the first node
    /// type (used as the root or a required child) that cannot finish.
    pub(crate) fn finishing_heights(&self, enabled: &[bool]) -> Result<Vec<u32>, ProdId> {
        const NEVER: u32 = u32::MAX;
        let count = self.productions.len();
        let mut height = vec![NEVER; count];
        let type_height = |height: &[u32], node_type: ProdId| {
            self.fillers(node_type)
                .iter()
                .filter(|p| enabled[p.index()])
                .map(|p| height[p.index()])
                .min()
                .unwrap_or(NEVER)
        };
        let mut changed = true;
        while changed {
            changed = false;
            for index in 0..count {
                if !enabled[index] {
                    continue;
                }
                let mut tallest_child = 0;
                for field in &self.productions[index].fields {
                    let required = match &field.kind {
                        FieldKind::Child(t) => Some(*t),
                        FieldKind::List(t, length) if length.min() > 0 => Some(*t),
                        _ => None,
                    };
                    if let Some(node_type) = required {
                        tallest_child = tallest_child.max(type_height(&height, node_type).saturating_add(1));
                    }
                }
                // Heights only go down, so this reaches the least fixpoint.
                if tallest_child < height[index] {
                    height[index] = tallest_child;
                    changed = true;
                }
            }
        }
        // Child types first, so the error names the type whose productions
        // all recurse rather than the root that merely contains it.
        let mut needed = Vec::new();
        for (index, production) in self.productions.iter().enumerate() {
            if enabled[index] {
                for field in &production.fields {
                    match &field.kind {
                        FieldKind::Child(t) | FieldKind::List(t, _) => needed.push(*t),
                        FieldKind::Data(_) => {}
                    }
                }
            }
        }
        needed.push(self.root);
        for node_type in needed {
            if type_height(&height, node_type) == NEVER {
                return Err(node_type);
            }
        }
        Ok(height)
    }
}

/// Whether following supertypes from production `sub` reaches `sup`.
fn walks_up_to(productions: &[Production], sub: usize, sup: usize) -> bool {
    let mut cursor = Some(sub);
    while let Some(at) = cursor {
        if at == sup {
            return true;
        }
        cursor = productions[at].supertype.map(ProdId::index);
    }
    false
}

/// The index of `field`, which `property` requires to be a single child.
fn child_field(production: &Production, field: &str, property: &str) -> Result<usize, SpecError> {
    match production.field_index(field) {
        Some(index) if matches!(production.fields[index].kind, FieldKind::Child(_)) => Ok(index),
        _ => Err(SpecError::NotAChildField {
            production: production.name.clone(),
            property: property.to_string(),
            field: field.to_string(),
        }),
    }
}

fn check_data_field(production: &Production, field: &str, property: &str) -> Result<(), SpecError> {
    match production.field_index(field) {
        Some(index) if matches!(production.fields[index].kind, FieldKind::Data(_)) => Ok(()),
        _ => Err(SpecError::NotADataField {
            production: production.name.clone(),
            property: property.to_string(),
            field: field.to_string(),
        }),
    }
}

fn check_template(production: &Production, pieces: &[crate::Piece]) -> Result<(), SpecError> {
    use crate::Piece;
    for piece in pieces {
        match piece {
            Piece::Field(name) | Piece::Join(name, _) if production.field_index(name).is_none() => {
                return Err(SpecError::UnknownTemplateField {
                    production: production.name.clone(),
                    field: name.to_string(),
                })
            }
            Piece::Join(name, _)
                if !matches!(
                    production.fields[production.field_index(name).unwrap()].kind,
                    FieldKind::List(..)
                ) =>
            {
                return Err(SpecError::JoinOfNonList {
                    production: production.name.clone(),
                    field: name.to_string(),
                })
            }
            Piece::Join(_, inner) | Piece::Nest(_, inner) | Piece::Group(inner) => check_template(production, inner)?,
            _ => {}
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Component, ProductionDecl, Renderer};

    fn rendered(mut c: Component, names: &[&str]) -> Component {
        for name in names {
            c.render(name, Renderer::Template(vec![]));
        }
        c
    }

    fn assemble(c: Component) -> Result<Spec, SpecError> {
        Spec::assemble("P", [c])
    }

    #[test]
    fn duplicate_production() {
        let mut c = Component::new("c");
        c.production(ProductionDecl::new("P"))
            .production(ProductionDecl::new("P"));
        assert_eq!(
            assemble(rendered(c, &["P"])).err(),
            Some(SpecError::DuplicateProduction("P".into()))
        );
    }

    #[test]
    fn unknown_supertype() {
        let mut c = Component::new("c");
        c.production(ProductionDecl::new("P").supertype("Q"));
        assert!(matches!(assemble(c), Err(SpecError::UnknownSupertype { production, .. }) if production == "P"));
    }

    #[test]
    fn supertype_cycle() {
        let mut c = Component::new("c");
        c.production(ProductionDecl::new("P").supertype("Q").abstract_());
        c.production(ProductionDecl::new("Q").supertype("P").abstract_());
        assert_eq!(assemble(c).err(), Some(SpecError::SupertypeCycle("P".into())));
    }

    #[test]
    fn missing_renderer() {
        let mut c = Component::new("c");
        c.production(ProductionDecl::new("P").child("e", "E"));
        c.production(ProductionDecl::new("E"));
        assert_eq!(
            assemble(rendered(c, &["P"])).err(),
            Some(SpecError::MissingRenderer("E".into()))
        );
    }

    #[test]
    fn never_generated_needs_no_renderer() {
        let mut c = Component::new("c");
        c.production(ProductionDecl::new("P"))
            .production(ProductionDecl::new("Unused"));
        c.may_be_generated("Unused", false);
        assert!(assemble(rendered(c, &["P"])).is_ok());
    }

    #[test]
    fn every_production_recursing_never_finishes() {
        let mut c = Component::new("c");
        c.production(ProductionDecl::new("P").child("e", "E"));
        c.production(ProductionDecl::new("E").abstract_());
        c.production(ProductionDecl::new("Neg").supertype("E").child("x", "E"));
        c.production(
            ProductionDecl::new("Pair")
                .supertype("E")
                .child("x", "E")
                .child("y", "E"),
        );
        assert_eq!(
            assemble(rendered(c, &["P", "Neg", "Pair"])).err(),
            Some(SpecError::NeverFinishes("E".into()))
        );
    }

    #[test]
    fn empty_lists_finish() {
        let mut c = Component::new("c");
        c.production(ProductionDecl::new("P").list("items", "P", ListLength::uniform(0, 3)));
        assert!(assemble(rendered(c, &["P"])).is_ok());
        let mut c = Component::new("c");
        c.production(ProductionDecl::new("P").list("items", "P", ListLength::uniform(1, 3)));
        assert_eq!(
            assemble(rendered(c, &["P"])).err(),
            Some(SpecError::NeverFinishes("P".into()))
        );
    }

    #[test]
    fn property_for_unknown_production() {
        let mut c = Component::new("c");
        c.production(ProductionDecl::new("P"));
        c.choice_weight("Q", Weight::Constant(1));
        assert!(matches!(
            assemble(rendered(c, &["P"])),
            Err(SpecError::PropertyForUnknownProduction { production, .. }) if production == "Q"
        ));
    }

    #[test]
    fn inherited_fields_come_first_and_may_not_repeat() {
        let mut c = Component::new("c");
        c.production(ProductionDecl::new("P").child("e", "E"));
        c.production(ProductionDecl::new("E").abstract_().data("tag", DataInit::new(|_| 0)));
        c.production(
            ProductionDecl::new("Lit")
                .supertype("E")
                .data("value", DataInit::new(|_| 1)),
        );
        let spec = assemble(rendered(c.clone(), &["P", "Lit"])).unwrap();
        let lit = spec.production(spec.lookup("Lit").unwrap());
        let names: Vec<&str> = lit.fields().iter().map(Field::name).collect();
        assert_eq!(names, ["tag", "value"]);
        c.production(
            ProductionDecl::new("Bad")
                .supertype("E")
                .data("tag", DataInit::new(|_| 1)),
        );
        assert!(matches!(
            assemble(rendered(c, &["P", "Lit", "Bad"])),
            Err(SpecError::DuplicateField { production, field }) if production == "Bad" && field == "tag"
        ));
    }

    #[test]
    fn finishing_heights_are_least_whatever_the_declaration_order() {
        let mut c = Component::new("c");
        c.production(ProductionDecl::new("W"));
        c.production(ProductionDecl::new("E").abstract_());
        c.production(ProductionDecl::new("X").supertype("E").child("w", "W"));
        c.production(ProductionDecl::new("P").child("e", "E"));
        c.production(ProductionDecl::new("L").supertype("E"));
        let spec = Spec::assemble("P", [rendered(c, &["W", "X", "P", "L"])]).unwrap();
        let heights = spec.finishing_heights(&[true; 5]).unwrap();
        assert_eq!(heights[spec.lookup("P").unwrap().index()], 1, "P finishes through L");
    }

    #[test]
    fn joins_need_list_fields() {
        let mut c = Component::new("c");
        c.production(ProductionDecl::new("P").child("e", "P"));
        c.render("P", Renderer::Template(vec![crate::Piece::Join("e", vec![])]));
        c.may_be_generated("P", true);
        let mut c2 = Component::new("leaf");
        c2.production(ProductionDecl::new("Q").supertype("P"));
        let result = Spec::assemble("P", [c, rendered(c2, &["Q"])]);
        assert!(
            matches!(result, Err(SpecError::JoinOfNonList { production, field }) if production == "P" && field == "e")
        );
    }

    #[test]
    fn template_fields_are_checked() {
        let mut c = Component::new("c");
        c.production(ProductionDecl::new("P"));
        c.render("P", Renderer::Template(vec![crate::Piece::Field("nope")]));
        assert!(matches!(assemble(c), Err(SpecError::UnknownTemplateField { field, .. }) if field == "nope"));
    }

    #[test]
    fn typed_specs_need_type_info_on_every_generatable_production() {
        use crate::{types::TypeSystem, TypeInfo};
        let mut c = Component::new("c");
        c.production(ProductionDecl::new("P").child("e", "E"));
        c.production(ProductionDecl::new("E"));
        c.type_info("P", TypeInfo::new(|s| s.fresh()));
        let c = rendered(c, &["P", "E"]);
        assert_eq!(
            Spec::assemble_typed("P", TypeSystem::new(), [c.clone()]).err(),
            Some(SpecError::MissingTypeInfo("E".into()))
        );
        assert!(Spec::assemble("P", [c.clone()]).is_ok(), "an untyped spec needs none");
        let mut bad = c.clone();
        bad.type_info("E", TypeInfo::new(|s| s.fresh()).child("nope", |c| c.fresh()));
        assert!(matches!(
            Spec::assemble_typed("P", TypeSystem::new(), [bad]),
            Err(SpecError::UnknownTypeInfoField { production, field }) if production == "E" && field == "nope"
        ));
        let mut typo = c.clone();
        typo.type_info("E", TypeInfo::new(|s| s.base("nope")));
        assert!(matches!(
            Spec::assemble_typed("P", TypeSystem::new(), [typo]),
            Err(SpecError::TypeInfo { production, message }) if production == "E" && message.contains("nope")
        ));
        let mut not_list = c;
        not_list.type_info("E", TypeInfo::new(|s| s.fresh()));
        not_list.list_length("P", "e", |_, _, n| n);
        assert!(matches!(
            Spec::assemble_typed("P", TypeSystem::new(), [not_list]),
            Err(SpecError::NotAListField { production, field }) if production == "P" && field == "e"
        ));
    }
}
