//! The mistakes spec assembly finds, each naming the production at fault.

use std::fmt;

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
    /// A `lift_predicate` is given to a production that is not a scope or
    /// is a recursive one (a lifted definition must not see itself).
    LiftIntoNonSequentialScope(String),
    /// A `lift_filters` is given to a production without a
    /// `lift_predicate` (it receives no lifts to filter).
    LiftFilterWithoutLiftField(String),
    /// A production has `binding_filters` but no `reference_info`: it
    /// points at no binding.
    BindingFilterWithoutReference(String),
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
                write!(
                    f,
                    "production `{p}` has a lift_predicate but is not a sequential, isolated or global scope"
                )
            }
            SpecError::LiftFilterWithoutLiftField(p) => {
                write!(
                    f,
                    "production `{p}` has lift_filters but no lift_predicate naming the field that receives lifts"
                )
            }
            SpecError::BindingFilterWithoutReference(p) => {
                write!(
                    f,
                    "production `{p}` has binding_filters but no reference_info: it points at no binding"
                )
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
