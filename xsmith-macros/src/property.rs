//! The table of the properties the DSL knows: each one's keyword and what
//! value it takes, defined once. A leaf: the parser reads keywords through
//! it, decoding dispatches on it, and checks quote it in their messages.

use syn::Ident;

/// A property of the DSL: the name of a `name { Production => value, .. }`
/// block.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Property {
    /// `render`: how a node is printed.
    Render,
    /// `choice_weight`: how likely a production is chosen for a hole.
    ChoiceWeight,
    /// `may_be_generated`: whether generation may choose the production.
    MayBeGenerated,
    /// `depth_increase`: how much deeper the production's children are.
    DepthIncrease,
    /// `fresh`: how a freshly generated node's data fields are set.
    Fresh,
    /// `choice_filters`: whether the production may fill a hole.
    ChoiceFilters,
    /// `feature`: the feature group that can disable the production.
    Feature,
    /// `list_length`: the lengths of the production's list fields.
    ListLength,
    /// `type_info`: the types of a node and of its children.
    TypeInfo,
    /// `binder_info`: the node binds a name.
    BinderInfo,
    /// `reference_info`: the node refers to a name.
    ReferenceInfo,
    /// `scope`: the node opens a scope.
    Scope,
    /// `lift_predicate`: the list field that receives lifted definitions.
    LiftPredicate,
    /// `lift_filters`: whether a lift may go into the lift field here.
    LiftFilters,
    /// `binding_filters`: whether a reference may point at a binder in sight.
    BindingFilters,
    /// `strict_child_order`: whether the children run in order.
    StrictChildOrder,
    /// `io`: whether the node does input or output.
    Io,
    /// `calls`: the node calls a function value.
    Calls,
    /// `function_body`: the node is a function value.
    FunctionBody,
    /// `mutable_container_access`: the node reads or writes a container.
    MutableContainerAccess,
}

impl Property {
    /// Every property, in the order error messages list them.
    pub const ALL: [Property; 20] = [
        Property::Render,
        Property::ChoiceWeight,
        Property::MayBeGenerated,
        Property::DepthIncrease,
        Property::Fresh,
        Property::ChoiceFilters,
        Property::Feature,
        Property::ListLength,
        Property::TypeInfo,
        Property::BinderInfo,
        Property::ReferenceInfo,
        Property::Scope,
        Property::LiftPredicate,
        Property::LiftFilters,
        Property::BindingFilters,
        Property::StrictChildOrder,
        Property::Io,
        Property::Calls,
        Property::FunctionBody,
        Property::MutableContainerAccess,
    ];

    /// The property a block's name stands for, if it names one.
    pub fn from_ident(name: &Ident) -> Option<Property> {
        Property::ALL.into_iter().find(|property| name == property.keyword())
    }

    /// The keyword that names the property's block.
    pub fn keyword(self) -> &'static str {
        self.definition().0
    }

    /// What value the property takes, as error messages say it.
    pub fn takes(self) -> &'static str {
        self.definition().1
    }

    /// Whether a production may be given the property more than once (each
    /// value adds to the others).
    pub fn repeatable(self) -> bool {
        matches!(
            self,
            Property::ChoiceFilters | Property::LiftFilters | Property::BindingFilters | Property::Feature
        )
    }

    /// Whether the property may be given a spec-wide default (`_ => value`).
    pub fn has_default(self) -> bool {
        matches!(
            self,
            Property::StrictChildOrder | Property::ChoiceWeight | Property::DepthIncrease
        )
    }

    /// The keyword and what the property takes.
    fn definition(self) -> (&'static str, &'static str) {
        match self {
            Property::Render => ("render", "a template `[..]` or a render function"),
            Property::ChoiceWeight => ("choice_weight", "a non-negative integer or a function of the hole"),
            Property::MayBeGenerated => ("may_be_generated", "`true` or `false`"),
            Property::DepthIncrease => ("depth_increase", "a non-negative integer"),
            Property::Fresh => (
                "fresh",
                "field initialisers `{ field: |node| .. }` or a function of the fresh node",
            ),
            Property::ChoiceFilters => ("choice_filters", "a function of the hole returning bool"),
            Property::Feature => ("feature", "a feature group name as a string"),
            Property::ListLength => (
                "list_length",
                "`{ list_field: |store, node_type, drawn_length| length }`",
            ),
            Property::TypeInfo => (
                "type_info",
                "`(|store| node type) { child: |c| child type, .. }` (the braces are optional)",
            ),
            Property::BinderInfo => (
                "binder_info",
                "`definition(name_field)` or `parameter(name_field)` with the flags `read_only` and `value = child_field` at most once each, inside the call or after it: `Def => definition(name, read_only, value = init)`",
            ),
            Property::ReferenceInfo => ("reference_info", "`read(name_field)` or `write(name_field)`"),
            Property::Scope => ("scope", "`sequential`, `recursive`, `isolated` or `global`"),
            Property::LiftPredicate => ("lift_predicate", "the list field that receives lifted definitions"),
            Property::LiftFilters => ("lift_filters", "a function of the lift site returning bool"),
            Property::BindingFilters => (
                "binding_filters",
                "a function of the hole and a binder in sight returning bool",
            ),
            Property::StrictChildOrder => ("strict_child_order", "`true` or `false`"),
            Property::Io => ("io", "`true` or `false`"),
            Property::Calls => ("calls", "the child field holding the function value called"),
            Property::FunctionBody => (
                "function_body",
                "the child field that runs when the function value is called",
            ),
            Property::MutableContainerAccess => (
                "mutable_container_access",
                "`read(container_field)` or `write(container_field)`",
            ),
        }
    }
}
