//! The one helper every canned module adds its productions through: it
//! declares the production, its type, its feature group and its weight.

use xsmith::types::{Domain, Type};
use xsmith::{Component, Filter, Hole, ProductionDecl, TypeInfo, Weight};

use crate::{Group, Options};

pub(crate) struct Builder<'a> {
    pub(crate) component: &'a mut Component,
    pub(crate) options: &'a Options,
    pub(crate) names: Vec<String>,
    /// Each production added, with its group (none for a part) and type.
    pub(crate) entries: Vec<Entry>,
}

/// A canned production as the catalog lists it.
#[derive(Clone)]
pub(crate) struct Entry {
    pub(crate) name: String,
    pub(crate) group: Option<Group>,
    pub(crate) info: TypeInfo,
}

impl Builder<'_> {
    /// Adds a generatable production of `group` with its type and default
    /// weight (replaced by the options' weight for it, if any).
    pub(crate) fn add(&mut self, group: Group, decl: ProductionDecl, info: TypeInfo, weight: u32) -> String {
        let name = decl.name.clone();
        let weight = self.options.weights.get(&name).copied().unwrap_or(weight);
        self.component.production(decl);
        self.entries.push(Entry {
            name: name.clone(),
            group: Some(group),
            info: info.clone(),
        });
        self.component
            .type_info(&name, info)
            .feature(&name, group.name())
            .choice_weight(&name, Weight::Constant(weight));
        self.names.push(name.clone());
        name
    }

    /// Adds a production that is only ever the child of one canned parent
    /// (a parameter, a function body): in no feature group of its own, since
    /// switching off its parent is what switches it off.
    pub(crate) fn part(&mut self, decl: ProductionDecl, info: TypeInfo) -> String {
        let name = decl.name.clone();
        self.component.production(decl);
        self.entries.push(Entry {
            name: name.clone(),
            group: None,
            info: info.clone(),
        });
        self.component.type_info(&name, info);
        self.names.push(name.clone());
        name
    }
}

/// A variable reference past the depth bound only where the variable could
/// be of a base type: a new variable of a composite type would need a
/// constructor as its initialiser, which past the bound may be a reference
/// again.
pub(crate) fn reference_fits_depth() -> Filter {
    Filter::new(move |hole: &Hole| {
        if hole.depth() < hole.max_depth() {
            return true;
        }
        let (Some(required), Some(store)) = (hole.required_type(), hole.program().type_store()) else {
            return true;
        };
        match store.resolve(&required) {
            Type::Base(_) => true,
            Type::Var(v) => matches!(store.domain(v), Domain::Any | Domain::OneOf(_)),
            _ => false,
        }
    })
}
