//! Spec assembly: components combined into one checked grammar with
//! properties, ready to generate from.

use std::sync::Arc;

use indexmap::IndexMap;

use super::{Properties, Spec, SpecError};
use crate::component::{Component, FieldDecl, ProductionDecl, PropertyValue};
use crate::grammar::{DataInit, Field, FieldKind, Grammar, ProdId, Production};
use crate::properties::{Piece, Renderer};
use crate::scopes::ScopeKind;
use crate::template;
use crate::types::{NodeTypeShape, TypeSystem};

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
                decls.push(decl.clone());
            }
        }
        let lookup = |name: &str| by_name.get(name).copied();
        imply_name_fields(&mut decls, &by_name, &components);

        let decls: Vec<&ProductionDecl> = decls.iter().collect();
        let productions = grammar_productions(&decls, &by_name)?;
        let mut properties = vec![Properties::default(); productions.len()];

        // Which properties each production was given, so that a default
        // reaches only the others.
        let mut given: Vec<Vec<&'static str>> = vec![Vec::new(); productions.len()];
        for component in &components {
            for (name, value) in &component.properties {
                let id = lookup(name).ok_or_else(|| SpecError::PropertyForUnknownProduction {
                    property: value.property_name().to_string(),
                    production: name.clone(),
                })?;
                given[id.index()].push(value.property_name());
                apply(&productions[id.index()], &mut properties[id.index()], value.clone())?;
            }
        }
        let defaults = components.iter().flat_map(|c| &c.defaults);
        for default in defaults {
            for (index, production) in productions.iter().enumerate() {
                if !production.is_abstract && !given[index].contains(&default.property_name()) {
                    apply(production, &mut properties[index], default.clone())?;
                }
            }
        }

        for (production, properties) in productions.iter().zip(&properties) {
            check_production(production, properties, type_system.is_some())?;
        }
        for (production, properties) in productions.iter().zip(&properties) {
            if properties.lift_field.is_some() && !properties.scope.is_some_and(ScopeKind::is_sequential) {
                return Err(SpecError::LiftIntoNonSequentialScope(production.name.clone()));
            }
            if !properties.lift_filters.is_empty() && properties.lift_field.is_none() {
                return Err(SpecError::LiftFilterWithoutLiftField(production.name.clone()));
            }
            if !properties.binding_filters.is_empty() && properties.reference_info.is_none() {
                return Err(SpecError::BindingFilterWithoutReference(production.name.clone()));
            }
        }

        let features_off_by_default: Vec<String> = components
            .iter()
            .flat_map(|c| c.features_off_by_default.iter().cloned())
            .collect();
        for group in &features_off_by_default {
            if !properties.iter().any(|p| p.features.contains(group)) {
                return Err(SpecError::UnknownFeature(group.clone()));
            }
        }

        let root = lookup(root).ok_or_else(|| SpecError::UnknownRoot(root.to_string()))?;
        let node_type_shapes = match &type_system {
            Some(system) => node_type_shapes(&productions, &properties, system)?,
            None => Vec::new(),
        };
        let templates = productions
            .iter()
            .zip(&properties)
            .map(|(production, properties)| match &properties.renderer {
                Some(Renderer::Template(pieces)) => Some(template::ready(production, pieces)),
                _ => None,
            })
            .collect();
        let spec = Spec {
            grammar: Grammar::new(productions, by_name, root),
            properties,
            features_off_by_default,
            node_type_shapes,
            templates,
            type_system,
        };
        let enabled: Vec<bool> = spec.grammar.ids().map(|id| spec.is_generatable(id)).collect();
        if let Err(node_type) = spec.grammar.finishing_heights(&enabled) {
            return Err(SpecError::NeverFinishes(spec.production(node_type).name.clone()));
        }
        Ok(spec)
    }
}

/// Gives every binder and reference production whose name field it does not
/// declare (nor inherit) that field: a data field, first of its own fields,
/// that the engine fills with the fresh or referenced name.
fn imply_name_fields(decls: &mut [ProductionDecl], by_name: &IndexMap<String, ProdId>, components: &[Component]) {
    let name_fields = components
        .iter()
        .flat_map(|c| &c.properties)
        .filter_map(|(production, value)| match value {
            PropertyValue::BinderInfo(info) => Some((production, &info.name_field)),
            PropertyValue::ReferenceInfo(info) => Some((production, &info.name_field)),
            _ => None,
        });
    for (production, field) in name_fields {
        let Some(&id) = by_name.get(production) else {
            continue; // an assembly error later
        };
        let mut cursor = Some(id);
        let mut declared = false;
        for _ in 0..decls.len() {
            let Some(at) = cursor else { break };
            let decl = &decls[at.index()];
            declared |= decl.fields.iter().any(|f| f.name() == field);
            cursor = decl.supertype.as_ref().and_then(|s| by_name.get(s).copied());
        }
        if !declared {
            let implied = FieldDecl::Data {
                name: field.clone(),
                init: DataInit::new(|_| ""),
            };
            decls[id.index()].fields.insert(0, implied);
        }
    }
}

/// The grammar of each declared production, in declaration order: its
/// supertype (known, and no cycle through supertypes) and its fields,
/// inherited ones first (no name twice, every child type known).
fn grammar_productions(
    decls: &[&ProductionDecl],
    by_name: &IndexMap<String, ProdId>,
) -> Result<Vec<Production>, SpecError> {
    let lookup = |name: &str| by_name.get(name).copied();
    let mut supertypes = Vec::with_capacity(decls.len());
    for decl in decls {
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
        });
    }
    Ok(productions)
}

/// Gives `production` (whose grammar is `grammar`) one property value,
/// checking the fields it names.
fn apply(grammar: &Production, production: &mut Properties, value: PropertyValue) -> Result<(), SpecError> {
    match value {
        PropertyValue::MayBeGenerated(v) => production.may_be_generated = v,
        PropertyValue::ChoiceWeight(w) => production.weight = w,
        PropertyValue::DepthIncrease(d) => production.depth_increase = d,
        PropertyValue::Fresh(hook) => production.fresh = Some(hook),
        PropertyValue::ChoiceFilter(filter) => production.filters.push(filter),
        PropertyValue::Render(renderer) => production.renderer = Some(renderer),
        PropertyValue::TypeInfo(info) => production.type_info = Some(info),
        PropertyValue::ListLength(field, length) => {
            list_field(grammar, &field)?;
            production.list_lengths.retain(|(f, _)| *f != field);
            production.list_lengths.push((field, length));
        }
        PropertyValue::BinderInfo(info) => {
            data_field(grammar, &info.name_field, "binder_info")?;
            production.binder_value = match &info.value_field {
                Some(field) => Some(child_field(grammar, field, "binder_info")?),
                None => None,
            };
            production.binder_info = Some(info);
        }
        PropertyValue::ReferenceInfo(info) => {
            data_field(grammar, &info.name_field, "reference_info")?;
            production.reference_info = Some(info);
        }
        PropertyValue::Scope(kind) => production.scope = Some(kind),
        PropertyValue::StrictChildOrder(strict) => production.strict_child_order = strict,
        PropertyValue::Io(io) => production.io = io,
        PropertyValue::Calls(field) => production.callee = Some(child_field(grammar, &field, "calls")?),
        PropertyValue::FunctionBody(field) => {
            production.function_body = Some(child_field(grammar, &field, "function_body")?)
        }
        PropertyValue::ContainerAccess(field, access) => {
            let index = child_field(grammar, &field, "mutable_container_access")?;
            production.container_access = Some((index, access));
        }
        PropertyValue::LiftPredicate(field) => production.lift_field = Some(list_field(grammar, &field)?),
        PropertyValue::LiftFilter(filter) => production.lift_filters.push(filter),
        PropertyValue::BindingFilter(filter) => production.binding_filters.push(filter),
        PropertyValue::Feature(group) => {
            if !production.features.contains(&group) {
                production.features.push(group)
            }
        }
    }
    Ok(())
}

/// Checks a production that can fill a hole or be lifted: in a typed spec
/// it has a `type_info` typing only its child fields, and it has a renderer
/// whose template names only its fields.
fn check_production(production: &Production, properties: &Properties, typed: bool) -> Result<(), SpecError> {
    let concrete = !production.is_abstract;
    if !(concrete && (properties.may_be_generated || properties.is_definition())) {
        return Ok(());
    }
    if typed {
        let info = properties
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
    match &properties.renderer {
        None => return Err(SpecError::MissingRenderer(production.name.clone())),
        Some(Renderer::Template(pieces)) => check_template(production, pieces)?,
        Some(Renderer::Function(_)) => {}
    }
    Ok(())
}

/// Per production, the shape of its `type_info` node type, found by
/// calling it once on a scratch store; a node type function that panics
/// (naming a base type the system does not have, say) is an error naming
/// the production.
fn node_type_shapes(
    productions: &[Production],
    properties: &[Properties],
    system: &Arc<TypeSystem>,
) -> Result<Vec<Option<NodeTypeShape>>, SpecError> {
    let mut shapes = Vec::with_capacity(productions.len());
    for (production, properties) in productions.iter().zip(properties) {
        let shape = match &properties.type_info {
            Some(info) => {
                let made = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    NodeTypeShape::of(|store| (info.node_type)(store), system)
                }));
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
    Ok(shapes)
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

/// Checks that `field` is a data field, as `property` requires.
fn data_field(production: &Production, field: &str, property: &str) -> Result<(), SpecError> {
    match production.field_index(field) {
        Some(index) if matches!(production.fields[index].kind, FieldKind::Data(_)) => Ok(()),
        _ => Err(SpecError::NotADataField {
            production: production.name.clone(),
            property: property.to_string(),
            field: field.to_string(),
        }),
    }
}

/// The index of `field`, which `list_length` or `lift_predicate` requires
/// to be a list.
fn list_field(production: &Production, field: &str) -> Result<usize, SpecError> {
    match production.field_index(field) {
        Some(index) if matches!(production.fields[index].kind, FieldKind::List(..)) => Ok(index),
        _ => Err(SpecError::NotAListField {
            production: production.name.clone(),
            field: field.to_string(),
        }),
    }
}

/// Checks that a render template names only fields the production has, and
/// joins only lists.
fn check_template(production: &Production, pieces: &[Piece]) -> Result<(), SpecError> {
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
