//! How the generator settles references: which visible bindings a
//! reference may take without a type mismatch or an effect conflict, and
//! where and what it may lift when none fits.

use crate::effects::Effects;
use crate::scopes::{lift_site, Access, Binding, LiftSite};
use crate::spec::{ProdId, Production, Spec};
use crate::tree::{NodeId, Tree, Typing};

/// The definition productions of `site` that a reference of `production`
/// at `node` could be given by lifting (in a typed tree, those whose type can
/// be the reference's).
pub(crate) fn liftable(
    spec: &Spec,
    site: &LiftSite,
    production: &Production,
    node: NodeId,
    typing: Option<&mut Typing>,
) -> Vec<ProdId> {
    let Some(typing) = typing else {
        return site.definitions.clone();
    };
    let required = typing.types[node.index()].clone().expect("a typed node has a type");
    let reference = production.type_info.as_ref().expect("assembly checks type_info");
    site.definitions
        .iter()
        .copied()
        .filter(|&definition| {
            let info = spec
                .production(definition)
                .type_info
                .as_ref()
                .expect("assembly checks type_info");
            typing.store.trial(|store| {
                let ty = (reference.node_type)(store);
                store.unify(&ty, &required)?;
                let bound = (info.node_type)(store);
                store.unify(&bound, &ty)
            })
        })
        .collect()
}

/// Where a new variable for a reference at `node` could be lifted, unless
/// even a new variable's read (or write) would conflict with what happens
/// `around` it (a sibling that calls a function value, which may do
/// anything).
pub(crate) fn harmless_lift_site(
    around: &Effects,
    spec: &Spec,
    liftable: &[bool],
    tree: &Tree,
    node: NodeId,
    access: Access,
) -> Option<LiftSite> {
    if around.conflicts_with_new_variable(access) {
        return None;
    }
    lift_site(spec, liftable, tree, node, access)
}

/// The bindings a reference could read (or write) without conflicting
/// with what happens `around` it.
pub(crate) fn harmless_bindings<'b>(around: &Effects, visible: &'b [Binding], access: Access) -> Vec<&'b Binding> {
    visible
        .iter()
        .filter(|binding| !around.conflicts(&Effects::of_access(binding.binder, access)))
        .collect()
}

/// Whether a reference of `production` at `node` may point at `binding`:
/// writes need a writable binder, and in a typed tree the reference's type
/// (already unified with its hole's, or the hole's requirement while the
/// choice is being made) must unify with the binder's.
pub(crate) fn binding_fits(
    binding: &Binding,
    access: Access,
    production: &Production,
    node: NodeId,
    typing: Option<&mut Typing>,
) -> bool {
    if access == Access::Write && !binding.writable {
        return false;
    }
    let (Some(typing), Some(binding_type)) = (typing, &binding.ty) else {
        return true;
    };
    let required = typing.types[node.index()].clone().expect("a typed node has a type");
    let info = production.type_info.as_ref().expect("assembly checks type_info");
    typing.store.trial(|store| {
        let ty = (info.node_type)(store);
        store.unify(&ty, &required)?;
        store.unify(&ty, binding_type)
    })
}
