//! A checked spec: the grammar, the properties of each production, the
//! feature groups, and the type system of a typed spec. Assembly (in
//! `assemble`) combines components into one and reports the mistakes it
//! finds ([`SpecError`]).

mod assemble;
mod error;
#[cfg(test)]
mod tests;

use std::sync::Arc;

pub use error::SpecError;

use crate::grammar::{Grammar, ProdId, Production};
use crate::properties::{BindingFilter, Filter, FreshHook, LengthFn, Renderer, TypeInfo, Weight};
use crate::scopes::{Access, BinderInfo, BinderStyle, ReferenceInfo, ScopeKind};
use crate::template::Step;
use crate::types::{NodeTypeShape, TypeSystem};

/// What a production does beyond its grammar: every property it was given
/// (or its default), as generation, effects and rendering read them.
#[derive(Clone)]
pub(crate) struct Properties {
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
    /// Whether a lift may go into the lift field at a given site.
    pub(crate) lift_filters: Vec<Filter>,
    /// Which binders in sight a reference production may point at.
    pub(crate) binding_filters: Vec<BindingFilter>,
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
    pub(crate) container_access: Option<(usize, Access)>,
}

impl Default for Properties {
    /// The spec-wide defaults of every property.
    fn default() -> Properties {
        Properties {
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
            lift_filters: Vec::new(),
            binding_filters: Vec::new(),
            strict_child_order: false,
            io: false,
            callee: None,
            function_body: None,
            binder_value: None,
            container_access: None,
        }
    }
}

impl Properties {
    /// Whether a production with these properties may ever be lifted
    /// (abstract or not): it is a definition.
    fn is_definition(&self) -> bool {
        self.binder_info
            .as_ref()
            .is_some_and(|info| info.style == BinderStyle::Definition)
    }
}

/// A checked spec: every production with its properties, the concrete
/// productions that can fill each node type, and the root node type.
///
/// ```
/// let spec = xsmith::example::spec();
/// assert_eq!(spec.productions().len(), 5);
/// assert_eq!(spec.production(spec.root()).name(), "Program");
/// ```
pub struct Spec {
    grammar: Grammar,
    properties: Vec<Properties>,
    features_off_by_default: Vec<String>,
    type_system: Option<Arc<TypeSystem>>,
    /// Per production, the shape of its `type_info` node type (typed specs).
    node_type_shapes: Vec<Option<NodeTypeShape>>,
    /// Per production, its render template made ready (none for a render
    /// function).
    templates: Vec<Option<Vec<Step>>>,
}

impl Spec {
    /// The grammar: productions, their fields, which fill each node type.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// assert_eq!(spec.grammar().productions().len(), 5);
    /// ```
    pub fn grammar(&self) -> &Grammar {
        &self.grammar
    }

    /// The properties of a production.
    pub(crate) fn properties(&self, id: ProdId) -> &Properties {
        &self.properties[id.index()]
    }

    /// A production's render template, ready to render (`None` when it
    /// renders through a function, or has no renderer).
    pub(crate) fn template(&self, id: ProdId) -> Option<&[Step]> {
        self.templates[id.index()].as_deref()
    }

    /// The `type_info` of a production of a typed spec (assembly checks
    /// that every production that can fill a hole or be lifted has one).
    pub(crate) fn type_info(&self, id: ProdId) -> &TypeInfo {
        self.properties(id)
            .type_info
            .as_ref()
            .expect("assembly checks type_info")
    }

    /// The shape of a production's node type (typed specs, productions with
    /// a `type_info`).
    pub(crate) fn node_type_shape(&self, id: ProdId) -> Option<&NodeTypeShape> {
        self.node_type_shapes.get(id.index())?.as_ref()
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
        self.grammar.root()
    }

    /// The grammar of the production with this id.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let id = spec.lookup("Literal").unwrap();
    /// assert_eq!(spec.production(id).name(), "Literal");
    /// ```
    pub fn production(&self, id: ProdId) -> &Production {
        self.grammar.production(id)
    }

    /// Every production's grammar, in declaration order.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// assert!(spec.productions().iter().any(|p| p.name() == "Div"));
    /// ```
    pub fn productions(&self) -> &[Production] {
        self.grammar.productions()
    }

    /// The production called `name`.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// assert!(spec.lookup("Nope").is_none());
    /// ```
    pub fn lookup(&self, name: &str) -> Option<ProdId> {
        self.grammar.lookup(name)
    }

    /// The concrete productions that may fill a hole of `node_type` (see
    /// [`Grammar::fillers`]).
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// assert_eq!(spec.fillers(spec.lookup("Expr").unwrap()).len(), 3);
    /// ```
    pub fn fillers(&self, node_type: ProdId) -> &[ProdId] {
        self.grammar.fillers(node_type)
    }

    /// Whether `production` ever fills a hole: concrete and
    /// `may_be_generated`.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// assert!(spec.is_generatable(spec.lookup("Add").unwrap()));
    /// ```
    pub fn is_generatable(&self, production: ProdId) -> bool {
        !self.production(production).is_abstract() && self.properties(production).may_be_generated
    }

    /// Whether the generator may lift `production` (insert it as a new
    /// definition for a reference): a concrete definition, even one that
    /// `may_be_generated` keeps from filling holes (so a language can make
    /// definitions only where references need them).
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// assert!(!spec.is_liftable(spec.lookup("Add").unwrap()));
    /// ```
    pub fn is_liftable(&self, production: ProdId) -> bool {
        !self.production(production).is_abstract() && self.properties(production).is_definition()
    }

    /// The feature groups `production` belongs to.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// assert_eq!(spec.features(spec.lookup("Div").unwrap()), ["division"]);
    /// ```
    pub fn features(&self, production: ProdId) -> &[String] {
        &self.properties(production).features
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
        for group in self.properties.iter().flat_map(|p| &p.features) {
            if !groups.contains(&group.as_str()) {
                groups.push(group);
            }
        }
        groups
    }
}
