//! Node-type shapes: deciding whether a production's node type can take a
//! hole's type, without a trial unification where the shape of the
//! production's type already tells.

use std::sync::Arc;

use super::{Domain, GenericId, Type, TypeStore, TypeSystem};

/// What a production's node type function makes, found once by calling it
/// on a scratch store (node type functions build the same shape each
/// time), so that most type checks of a choice need no trial unification.
#[derive(Clone, Debug)]
pub(crate) enum NodeTypeShape {
    /// A fresh unconstrained variable: it unifies with any hole.
    Fresh,
    /// A variable restricted to these ground types.
    OneOf(Vec<Type>),
    /// This ground type.
    Ground(Type),
    /// A composite type whose parts are all distinct fresh, unconstrained
    /// variables: it unifies with any hole of the same head.
    FreeShape(Type),
    /// A composite type whose parts are distinct fresh variables, some of
    /// them open products: it unifies with an unconstrained hole.
    FreshParts(Type),
    /// Anything else.
    Other(Type),
}

/// The outermost constructor of a type, as far as equality needs it.
#[derive(PartialEq)]
enum Head<'t> {
    Base(&'t Type),
    Generic(GenericId),
    Function,
    Product(usize),
    Record(Vec<&'t str>),
}

fn head(ty: &Type) -> Option<Head<'_>> {
    Some(match ty {
        Type::Var(_) => return None,
        Type::Base(_) | Type::Nominal(_) => Head::Base(ty),
        Type::Generic(g, _) => Head::Generic(*g),
        Type::Function(_) => Head::Function,
        Type::Product(items) => Head::Product(items.len()),
        Type::Record(fields) => Head::Record(fields.iter().map(|(n, _)| &**n).collect()),
    })
}

impl NodeTypeShape {
    /// The shape of the type `node_type` makes, called once on a scratch
    /// store of `system`.
    pub(crate) fn of(node_type: impl FnOnce(&mut TypeStore) -> Type, system: &Arc<TypeSystem>) -> NodeTypeShape {
        let mut scratch = TypeStore::new(system.clone());
        let ty = node_type(&mut scratch);
        match &ty {
            Type::Var(v) if scratch.variable_count() == 1 => match scratch.domain(*v) {
                Domain::Any => NodeTypeShape::Fresh,
                Domain::OneOf(candidates) => NodeTypeShape::OneOf(candidates.to_vec()),
                _ => NodeTypeShape::Other(ty),
            },
            Type::Var(_) => NodeTypeShape::Other(ty),
            _ if ty.is_ground_term() => NodeTypeShape::Ground(ty),
            _ => {
                let (all_any, all_fresh) = {
                    let parts = ty.parts();
                    let domain = |p: &&Type| match p {
                        Type::Var(v) => Some(scratch.domain(*v).clone()),
                        _ => None,
                    };
                    let all_vars =
                        parts.iter().all(|p| matches!(p, Type::Var(_))) && parts.len() == scratch.variable_count();
                    let all_any = all_vars && parts.iter().all(|p| domain(p) == Some(Domain::Any));
                    let all_fresh = all_vars
                        && parts
                            .iter()
                            .all(|p| matches!(domain(p), Some(Domain::Any | Domain::AnyProduct)));
                    (all_any, all_fresh)
                };
                match (all_any, all_fresh) {
                    (true, _) => NodeTypeShape::FreeShape(ty),
                    (false, true) => NodeTypeShape::FreshParts(ty),
                    _ => NodeTypeShape::Other(ty),
                }
            }
        }
    }

    /// The ground types a node of this shape may have, when it is one of
    /// some ground types (or one); empty for any other shape.
    pub(crate) fn ground_types(&self) -> &[Type] {
        match self {
            NodeTypeShape::OneOf(candidates) => candidates,
            NodeTypeShape::Ground(t) => std::slice::from_ref(t),
            _ => &[],
        }
    }

    /// Whether a node of this shape can be unified with the hole's type,
    /// where that can be told without a trial.
    pub(crate) fn fits(&self, resolved: &Type, store: &TypeStore) -> Option<bool> {
        let sample = match self {
            NodeTypeShape::Fresh => return Some(true),
            NodeTypeShape::OneOf(candidates) => candidates.first(),
            NodeTypeShape::Ground(t)
            | NodeTypeShape::FreeShape(t)
            | NodeTypeShape::FreshParts(t)
            | NodeTypeShape::Other(t) => Some(t),
        };
        if let Type::Var(v) = *resolved {
            // Propagation keeps the neighbours of an unconstrained variable
            // unconstrained, so any type of fresh variables fits it.
            if store.is_unconstrained(v) && !matches!(self, NodeTypeShape::Other(_)) {
                return Some(true);
            }
            // A candidate of a set that propagation keeps consistent with
            // the neighbours (and that no pending bound watches) fits.
            if store.is_watch_free(v) {
                match (self, store.domain(v)) {
                    (NodeTypeShape::FreeShape(Type::Record(ours)), Domain::RecordAtLeast(fields)) => {
                        return Some(fields.iter().all(|(name, _)| ours.iter().any(|(n, _)| n == name)))
                    }
                    (NodeTypeShape::Ground(t), Domain::OneOf(candidates)) => return Some(candidates.contains(t)),
                    (NodeTypeShape::OneOf(ours), Domain::OneOf(theirs)) => {
                        return Some(ours.iter().any(|t| theirs.contains(t)))
                    }
                    _ => {}
                }
            }
            // Otherwise the hole's domain may rule the shape out by its head.
            let sample = sample?;
            let possible = match (self, store.domain(v)) {
                (NodeTypeShape::Ground(t), Domain::OneOf(candidates)) => candidates.contains(t),
                (NodeTypeShape::OneOf(ours), Domain::OneOf(theirs)) => ours.iter().any(|t| theirs.contains(t)),
                (_, Domain::OneOf(candidates)) => candidates.iter().any(|c| head(c) == head(sample)),
                (_, Domain::AnyProduct) => matches!(sample, Type::Product(_)),
                (_, Domain::RecordAtLeast(fields)) => match sample {
                    Type::Record(ours) => fields.iter().all(|(name, _)| ours.iter().any(|(n, _)| n == name)),
                    _ => false,
                },
                _ => true,
            };
            return if possible { None } else { Some(false) };
        }
        if let NodeTypeShape::OneOf(candidates) = self {
            return match resolved.is_ground_term() {
                true => Some(candidates.contains(resolved)),
                false => Some(false),
            };
        }
        let sample = sample.expect("only OneOf can lack a sample, and it returned");
        if head(sample) != head(resolved) {
            return Some(false);
        }
        match self {
            NodeTypeShape::Ground(t) if resolved.is_ground_term() => Some(t == resolved),
            NodeTypeShape::FreeShape(_) => Some(true),
            _ => None,
        }
    }
}
