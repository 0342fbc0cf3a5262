//! How the generator settles references: which visible bindings a
//! reference may take without a type mismatch or an effect conflict, and
//! where and what it may lift when none fits.

use smallvec::SmallVec;

use super::ground_fits::GroundFits;
use super::inhabitation::Finish;
use crate::effects::Around;
use crate::grammar::ProdId;
use crate::hooks::{Hole, Place};
use crate::names::{lift_sites, LiftSite, Seen};
use crate::program::{Program, Typing};
use crate::properties::Filter;
use crate::scopes::Access;
use crate::spec::Spec;
use crate::tree::NodeId;
use crate::types::{form, Glance, NodeTypeShape, Resolved, Type, TypeStore};

/// Whether the reference production's own type is a fresh variable, so
/// that it fits exactly what its hole requires and the checks below can
/// compare the required type with a binder's directly.
fn takes_hole_type(spec: &Spec, reference: ProdId) -> bool {
    matches!(spec.node_type_shape(reference), Some(NodeTypeShape::Fresh))
}

/// Whether `a` and `b` unify, where that can be told without a trial: both
/// ground (equal or not), or different at the top.
fn unifies_quickly(store: &TypeStore, a: &Type, b: &Type) -> Option<bool> {
    unifies_quickly_resolved(store, &store.resolved(a), &store.resolved(b))
}

/// [`unifies_quickly`] of two types already resolved.
fn unifies_quickly_resolved(store: &TypeStore, a: &Resolved, b: &Resolved) -> Option<bool> {
    if a.ground && b.ground {
        return Some(a.ty == b.ty);
    }
    let var_against_ground = match (&a.ty, &b.ty) {
        (var @ Type::Var(v), t) if b.ground => Some((var, *v, t)),
        (t, var @ Type::Var(v)) if a.ground => Some((var, *v, t)),
        _ => None,
    };
    if let Some((var, v, ground)) = var_against_ground {
        // Propagation keeps an unconstrained variable's neighbours
        // unconstrained, and a ground type has no variable to occur in.
        if store.is_unconstrained(v) {
            return Some(true);
        }
        // A ground type against a constrained variable: what the choice
        // filter knows about a node of that ground type.
        return NodeTypeShape::Ground(ground.clone()).fits(var, store);
    }
    match (form(&a.ty), form(&b.ty)) {
        (Some(x), Some(y)) if x != y => Some(false),
        (Some(0), Some(0)) => Some(a.ty == b.ty),
        _ => None,
    }
}

/// Whether `a` and `b` surely cannot be made the same type: told by
/// [`unifies_quickly`] at the top, else, for two types of the same
/// composite form, by a pair of parts that surely cannot (equal types have
/// equal parts, whatever the variances: each is a subtype of the other).
/// `false` says nothing.
fn surely_unequal(store: &TypeStore, a: &Type, b: &Type) -> bool {
    if let Some(unifies) = unifies_quickly(store, a, b) {
        return !unifies;
    }
    let any_pair =
        |xs: &[Type], ys: &[Type]| xs.len() != ys.len() || xs.iter().zip(ys).any(|(x, y)| surely_unequal(store, x, y));
    match (store.resolve(a), store.resolve(b)) {
        (Type::Generic(g, xs), Type::Generic(h, ys)) => g != h || any_pair(&xs, &ys),
        (Type::Function(f), Type::Function(g)) => {
            surely_unequal(store, &f.0, &g.0) || surely_unequal(store, &f.1, &g.1)
        }
        (Type::Product(xs), Type::Product(ys)) => any_pair(&xs, &ys),
        (Type::Record(fa), Type::Record(fb)) => {
            fa.len() != fb.len()
                || fa
                    .iter()
                    .zip(fb.iter())
                    .any(|((m, x), (n, y))| m != n || surely_unequal(store, x, y))
        }
        _ => false,
    }
}

/// Whether lifting `definition` could give a reference of production
/// `reference` at `node` its variable: in a typed tree, whether the
/// definition's type can be the reference's (for a hole of a ground
/// type, as `known` remembers).
fn lift_fits(
    spec: &Spec,
    reference: ProdId,
    definition: ProdId,
    node: NodeId,
    typing: Option<&mut Typing>,
    known: &mut GroundFits,
) -> bool {
    let Some(typing) = typing else {
        return true;
    };
    let required = typing.types[node.index()].clone().expect("a typed node has a type");
    let resolved = typing.store.resolve(&required);
    let mut check = || {
        let shape = spec.node_type_shape(definition);
        if let (true, Some(fits)) = (
            takes_hole_type(spec, reference),
            shape.and_then(|s| s.fits(&resolved, &typing.store)),
        ) {
            return fits;
        }
        let info = |p: ProdId| spec.type_info(p);
        typing.store.trial(|store| {
            let ty = (info(reference).node_type)(store);
            store.unify(&ty, &required)?;
            let bound = (info(definition).node_type)(store);
            store.unify(&bound, &ty)
        })
    };
    match resolved.is_ground_term() {
        true => {
            let productions = spec.grammar().productions().len();
            known.lift_fits(productions, reference, definition, &resolved, check)
        }
        false => check(),
    }
}

/// The nearest of `sites` where a definition can be lifted for a
/// reference of production `reference` at `node`, with the definitions
/// that fit there (see [`lift_fits`]) and that `makeable` keeps (those of
/// a type the switched-on productions can make); `None` if no site has
/// one.
pub(crate) fn nearest_lift<'s>(
    spec: &Spec,
    sites: &'s [LiftSite],
    reference: ProdId,
    node: NodeId,
    mut typing: Option<&mut Typing>,
    known: &mut GroundFits,
    makeable: impl Fn(ProdId) -> bool,
) -> Option<(&'s LiftSite, Vec<ProdId>)> {
    sites.iter().find_map(|site| {
        let definitions: Vec<ProdId> = (site.definitions.iter().copied())
            .filter(|&d| makeable(d) && lift_fits(spec, reference, d, node, typing.as_deref_mut(), known))
            .collect();
        (!definitions.is_empty()).then_some((site, definitions))
    })
}

/// How soon the soonest definition of [`nearest_lift`]'s finishes, by
/// `finish` (`None` where `finish` is impossible: not makeable), with
/// less work: at each site, the definitions are checked soonest first,
/// and the first that fits is the answer.
pub(crate) fn nearest_lift_finish(
    spec: &Spec,
    sites: &[LiftSite],
    reference: ProdId,
    node: NodeId,
    mut typing: Option<&mut Typing>,
    known: &mut GroundFits,
    finish: impl Fn(ProdId) -> Option<Finish>,
) -> Option<Finish> {
    let mut by_finish: SmallVec<[(Finish, ProdId); 16]> = SmallVec::new();
    sites.iter().find_map(|site| {
        by_finish.clear();
        by_finish.extend((site.definitions.iter()).filter_map(|&d| Some((finish(d)?, d))));
        by_finish.sort_by_key(|&(finish, _)| finish);
        (by_finish.iter())
            .find(|&&(_, d)| lift_fits(spec, reference, d, node, typing.as_deref_mut(), known))
            .map(|&(finish, _)| finish)
    })
}

/// Where a new variable for a reference at `node` could be lifted,
/// nearest first (see [`lift_sites`]), keeping at each site the
/// definitions whose `choice_filters` accept it, and the sites whose
/// `lift_filters` accept a lift; none if even a new variable's read (or
/// write) would conflict with what happens `around` it (a sibling that
/// calls a function value, which may do anything).
pub(crate) fn harmless_lift_sites(
    around: &Around,
    spec: &Spec,
    liftable: &[bool],
    program: &Program,
    node: NodeId,
    access: Access,
    max_depth: u32,
) -> Vec<LiftSite> {
    if around.conflicts_with_new_variable(access) {
        return Vec::new();
    }
    let mut sites = lift_sites(spec, liftable, program, node, access);
    sites.retain_mut(|site| {
        let hole = Hole {
            grammar: spec.grammar(),
            program,
            place: Place::Lift {
                scope: site.scope,
                node_type: site.element_type,
                depth: site.depth,
                reference: node,
            },
            max_depth,
        };
        let accepts = |filters: &[Filter]| filters.iter().all(|f| (f.0)(&hole));
        if !accepts(&spec.properties(program.node(site.scope).production).lift_filters) {
            return false;
        }
        site.definitions
            .retain(|&definition| accepts(&spec.properties(definition).filters));
        !site.definitions.is_empty()
    });
    sites
}

/// The binders among `visible` that a reference could read (or write)
/// without conflicting with what happens `around` it, into `out` (cleared
/// first).
pub(crate) fn harmless_bindings(around: &Around, visible: &[Seen], access: Access, out: &mut Vec<Seen>) {
    out.clear();
    if around.is_empty() {
        out.extend_from_slice(visible);
        return;
    }
    let harmless = visible
        .iter()
        .filter(|seen| !around.conflicts_with_access(seen.binder, access));
    out.extend(harmless);
}

/// Drops from `bindings` the binders that the `binding_filters` of the
/// reference production `reference` refuse for the reference at `hole`.
pub(crate) fn drop_refused_bindings(spec: &Spec, reference: ProdId, hole: &Hole, bindings: &mut Vec<Seen>) {
    let filters = &spec.properties(reference).binding_filters;
    if !filters.is_empty() {
        bindings.retain(|seen| filters.iter().all(|f| (f.0)(hole, hole.at(seen.binder))));
    }
}

/// How many visible bindings a reference tries to unify with, at most,
/// among those whose fit a quick look at the types cannot decide, once one
/// fits: this bounds the work of gathering the bindings to draw from (a
/// trial unification each) however many variables are in sight. Until one
/// fits, every binding is tried: a reference whose hole's type unifies with
/// a binding in sight must find it, or a hole that only a reference can
/// fill (a callee of a function type, with no lambdas or lifting) fails
/// with the binding in sight.
pub(crate) const MAX_BINDING_TRIALS: usize = 6;

/// The binders among `bindings` that a reference of `reference` at `node`
/// may point at (see [`binding_fits`]), in order, except that undecided
/// ones are tried only while none fits or fewer than
/// [`MAX_BINDING_TRIALS`] have been; with `first_only`, stops at the first
/// that fits. It is empty only when none fits.
pub(crate) fn fitting_bindings<'b>(
    spec: &Spec,
    bindings: impl IntoIterator<Item = &'b Seen>,
    access: Access,
    reference: ProdId,
    node: NodeId,
    mut typing: Option<&mut Typing>,
    first_only: bool,
) -> Vec<NodeId> {
    // Room for every binding at once: a search of hundreds of binders
    // would otherwise grow it step by step.
    let bindings = bindings.into_iter();
    let most = bindings.size_hint().1.unwrap_or(0);
    let mut fitting = Vec::with_capacity(if first_only { 1 } else { most });
    let mut trials = 0;
    let fresh_reference = takes_hole_type(spec, reference);
    // The hole's type with every variable replaced, if it has none left:
    // worked out at the first trial that needs it.
    let mut required_ground: Option<Option<Type>> = None;
    let required = typing.as_deref().map(|typing| {
        let required = typing.types[node.index()].as_ref().expect("a typed node has a type");
        typing.store.resolved(required)
    });
    let at_a_glance = match (&required, typing.as_deref()) {
        (Some(required), Some(typing)) if fresh_reference => Requirement::of(required, typing),
        _ => Requirement::Unknown,
    };
    for &binding in bindings {
        let quick = match (&required, typing.as_deref_mut()) {
            (Some(required), Some(typing)) => at_a_glance.fit(binding, access, typing).or_else(|| {
                typing.settle(binding.binder);
                quick_fit_typed(spec, binding, access, reference, required, typing)
            }),
            _ => quick_fit(binding, access),
        };
        let fits = match quick {
            Some(fits) => fits,
            None if trials < MAX_BINDING_TRIALS || fitting.is_empty() => {
                trials += 1;
                let told = match (&required, typing.as_deref_mut()) {
                    (Some(required), Some(typing)) if fresh_reference => {
                        let required_ground = required_ground.get_or_insert_with(|| {
                            let ty = typing.types[node.index()].as_ref().expect("a typed node has a type");
                            typing.store.grounded(ty)
                        });
                        ground_binding_fits(typing, binding, required, required_ground.as_ref())
                    }
                    _ => None,
                };
                told.unwrap_or_else(|| {
                    !surely_misfits(spec, binding, reference, node, typing.as_deref())
                        && binding_fits(spec, binding, access, reference, node, typing.as_deref_mut())
                })
            }
            None => false,
        };
        if fits {
            fitting.push(binding.binder);
            if first_only {
                break;
            }
        }
    }
    fitting
}

/// What a hole's required type tells at a glance about the binders whose
/// types are settled, for a reference that takes its hole's type: the
/// answers [`quick_fit_typed`] gives, told from two small integers rather
/// than from two terms resolved and compared, so that a reference among
/// hundreds of variables in sight looks at each for a few instructions.
enum Requirement {
    /// A ground type: only a binder of that type fits (`key`,
    /// [`Glance::NO_KEY`] if no settled binder has it), and a binder of an
    /// open type of another form does not.
    Ground { key: u32, form: u8 },
    /// A type of this form at the top, with variables in its parts: a
    /// binder of another form does not fit.
    Open { form: u8 },
    /// An unconstrained variable: any binder of a ground type fits.
    Unconstrained,
    /// Nothing told at a glance.
    Unknown,
}

impl Requirement {
    /// What `required`, the hole's type resolved at the top, tells.
    fn of(required: &Resolved, typing: &Typing) -> Requirement {
        match (form(&required.ty), &required.ty) {
            (Some(form), ty) if required.ground => Requirement::Ground {
                key: typing.ground_key(ty).unwrap_or(Glance::NO_KEY),
                form,
            },
            (Some(form), _) => Requirement::Open { form },
            (None, Type::Var(v)) if typing.store.is_unconstrained(*v) => Requirement::Unconstrained,
            (None, _) => Requirement::Unknown,
        }
    }

    /// Whether `binding` fits, if its settled type tells at a glance
    /// (as [`quick_fit_typed`] would tell it).
    #[inline]
    fn fit(&self, binding: Seen, access: Access, typing: &Typing) -> Option<bool> {
        if access == Access::Write && !binding.writable {
            return Some(false);
        }
        let Glance { form, key } = typing.glance(binding.binder);
        let ground = key != Glance::NO_KEY;
        match *self {
            Requirement::Ground { key: required, .. } if ground => Some(key == required),
            Requirement::Ground { form: required, .. } | Requirement::Open { form: required } => {
                (form != required && form != Glance::NO_FORM).then_some(false)
            }
            Requirement::Unconstrained => ground.then_some(true),
            Requirement::Unknown => None,
        }
    }
}

/// Whether `binding` fits an untyped reference: a write needs a writable
/// binder.
fn quick_fit(binding: Seen, access: Access) -> Option<bool> {
    Some(access != Access::Write || binding.writable)
}

/// Whether `binding` fits a typed reference whose hole requires
/// `required` (resolved at the top), when that needs no trial unification.
fn quick_fit_typed(
    spec: &Spec,
    binding: Seen,
    access: Access,
    reference: ProdId,
    required: &Resolved,
    typing: &Typing,
) -> Option<bool> {
    if access == Access::Write && !binding.writable {
        return Some(false);
    }
    let Some(binding_type) = &typing.types[binding.binder.index()] else {
        return Some(true);
    };
    let store = &typing.store;
    let resolved;
    let binding_type = match typing.settled(binding.binder) {
        Some(settled) => settled,
        None => {
            resolved = store.resolved(binding_type);
            &resolved
        }
    };
    match spec.node_type_shape(reference)? {
        NodeTypeShape::Fresh => unifies_quickly_resolved(store, required, binding_type),
        // The reference's type is one of some ground types (or one): with a
        // ground binder type it can only be that type, if it is among them,
        // and that type must fit the hole.
        shape => match shape.ground_types() {
            [] => None,
            candidates => ground_fit(store, candidates, required, binding_type),
        },
    }
}

/// Whether a binder of a ground type fits a reference whose type is its
/// hole's (`required`, resolved at the top; `required_ground` with every
/// variable replaced, if it has none left), as far as the types tell
/// without the trial unification [`binding_fits`] runs (the same answer,
/// in a fraction of the work): two ground types unify when they are
/// equal (`array<int>` whose parts are settled, against `array<int>`), and
/// a hole's variable's domain may say yes or no to a ground type.
fn ground_binding_fits(
    typing: &mut Typing,
    binding: Seen,
    required: &Resolved,
    required_ground: Option<&Type>,
) -> Option<bool> {
    let ground = typing.ground(binding.binder)?;
    if let Some(required) = required_ground {
        return Some(ground == required);
    }
    NodeTypeShape::Ground(ground.clone()).fits(&required.ty, &typing.store)
}

/// Whether `binding` surely cannot fit a reference of production
/// `reference` at `node`, told from the parts of its type and the hole's,
/// or from the forms of the ground types the reference may have, without
/// the trial [`binding_fits`] runs (a reference's type must equal both).
fn surely_misfits(spec: &Spec, binding: Seen, reference: ProdId, node: NodeId, typing: Option<&Typing>) -> bool {
    let Some(typing) = typing else { return false };
    let (Some(required), Some(binding_type)) = (&typing.types[node.index()], &typing.types[binding.binder.index()])
    else {
        return false;
    };
    let store = &typing.store;
    let candidates = spec
        .node_type_shape(reference)
        .map_or(&[][..], NodeTypeShape::ground_types);
    // A binder of a function type cannot be an integer variable's.
    let binding_form = form(&store.resolve(binding_type));
    if binding_form.is_some() && !candidates.is_empty() && candidates.iter().all(|c| form(c) != binding_form) {
        return true;
    }
    surely_unequal(store, required, binding_type)
}

/// Whether a reference whose type is one of `candidates` fits both its
/// hole's `required` type and a binder of type `binding` (both resolved at
/// the top), when one of the two is ground.
fn ground_fit(store: &TypeStore, candidates: &[Type], required: &Resolved, binding: &Resolved) -> Option<bool> {
    // Whichever of the two is ground decides the reference's type; the
    // other must be able to take it.
    let (ground, other) = match (binding.ground, required.ground) {
        (true, _) => (&binding.ty, &required.ty),
        (false, true) => (&required.ty, &binding.ty),
        (false, false) => return None,
    };
    if !candidates.contains(ground) {
        return Some(false);
    }
    NodeTypeShape::Ground(ground.clone()).fits(other, store)
}

/// Whether a reference of production `reference` at `node` may point at `binding`:
/// writes need a writable binder, and in a typed tree the reference's type
/// (already unified with its hole's, or the hole's requirement while the
/// choice is being made) must unify with the binder's.
fn binding_fits(
    spec: &Spec,
    binding: Seen,
    access: Access,
    reference: ProdId,
    node: NodeId,
    typing: Option<&mut Typing>,
) -> bool {
    if access == Access::Write && !binding.writable {
        return false;
    }
    let Some(Typing { store, types, .. }) = typing else {
        return true;
    };
    let Some(binding_type) = &types[binding.binder.index()] else {
        return true;
    };
    let required = types[node.index()].as_ref().expect("a typed node has a type");
    let info = spec.type_info(reference);
    store.trial(|store| {
        let ty = (info.node_type)(store);
        store.unify(&ty, required)?;
        store.unify(&ty, binding_type)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::component::Component;
    use crate::fixtures::{nodes_named, programs, scoped, scoped_with};
    use crate::names::visible_bindings;
    use crate::{Filter, Options};

    /// The depth of the block holding each node named `name`.
    fn block_depths(spec: &Spec, program: &Program, name: &'static str) -> Vec<u32> {
        nodes_named(spec, program, name)
            .map(|node| {
                program
                    .node(program.node(node).parent.expect("a statement is in a block"))
                    .depth
            })
            .collect()
    }

    #[test]
    fn a_lift_goes_only_where_the_definitions_filter_and_the_scopes_lift_filter_say_yes() {
        // Definitions only by lifting; `Const`s only into blocks at depth
        // 2 or less (their own filter: a lifted definition is at least a
        // level below its block), any lift only into blocks at depth 4 or
        // less (the blocks' lift filter).
        let mut only_lifted = Component::new("only lifted");
        only_lifted
            .may_be_generated("Let", false)
            .may_be_generated("Const", false)
            .choice_filter("Const", Filter::new(|hole| hole.is_lift() && hole.depth() <= 3))
            .lift_filter("Block", Filter::new(|site| site.depth() <= 5));
        let spec = scoped_with(only_lifted);
        let (mut lets, mut consts) = (0, 0);
        for program in programs(&spec, Options::default(), 0..300) {
            for depth in block_depths(&spec, &program, "Let") {
                assert!(depth <= 4, "a Let lifted into a block at depth {depth}");
                lets += 1;
            }
            for depth in block_depths(&spec, &program, "Const") {
                assert!(depth <= 2, "a Const lifted into a block at depth {depth}");
                consts += 1;
            }
        }
        assert!(
            lets > 100 && consts > 20,
            "the sample lifts ({lets} lets, {consts} consts)"
        );
    }

    #[test]
    fn a_lift_refused_everywhere_leaves_references_only_to_what_is_in_sight() {
        let mut never = Component::new("never lift");
        never.lift_filter("Block", Filter::new(|_| false));
        let spec = scoped_with(never);
        let programs = programs(&spec, Options::default(), 0..300);
        let references: usize = programs.iter().map(|p| nodes_named(&spec, p, "Ref").count()).sum();
        assert!(
            references > 100,
            "references still find what is in sight ({references})"
        );
    }

    #[test]
    fn a_reference_points_only_at_binders_its_binding_filters_admit() {
        // References never take a `Const` in sight: they take a `Let`, or
        // lift a definition.
        let mut no_consts = Component::new("no consts");
        no_consts.binding_filter(
            "Ref",
            crate::BindingFilter::new(|hole, binder| hole.node().is_some() && !binder.is("Const")),
        );
        let spec = scoped_with(no_consts);
        let (mut references, mut beside_a_const) = (0, 0);
        for program in programs(&spec, Options::default(), 0..300) {
            for reference in nodes_named(&spec, &program, "Ref") {
                // A binder lifted for the reference was not in sight: its
                // definition's own filters decide on it.
                let target = program.reference_target(reference).expect("a settled reference");
                if program.lifted_for(target) != Some(reference) {
                    assert_eq!(spec.production(program.node(target).production).name(), "Let");
                }
                references += 1;
                let is_const = |seen: &Seen| spec.production(program.node(seen.binder).production).name() == "Const";
                beside_a_const += usize::from(seen(&program, reference).iter().any(is_const));
            }
        }
        assert!(
            references > 100 && beside_a_const > 20,
            "{references} references, {beside_a_const} with a Const in sight"
        );
        // Without the filter, references do take constants.
        let spec = scoped();
        let takes_const = programs(&spec, Options::default(), 0..300).iter().any(|program| {
            nodes_named(&spec, program, "Ref").any(|reference| {
                let target = program.reference_target(reference).expect("a settled reference");
                spec.production(program.node(target).production).name() == "Const"
            })
        });
        assert!(takes_const);
    }

    #[test]
    fn a_binding_filter_on_a_production_that_refers_to_nothing_is_an_error_naming_it() {
        let mut misplaced = Component::new("misplaced");
        misplaced.binding_filter("Lit", crate::BindingFilter::new(|_, _| true));
        let error = Spec::assemble("Program", [crate::fixtures::scoped_component(), misplaced]).err();
        let message = error.map(|e| e.to_string()).unwrap_or_default();
        assert!(
            message.contains("production `Lit` has binding_filters but no reference_info"),
            "{message}"
        );
    }

    /// Every binder in sight of `node`, as the searches read them.
    fn seen(program: &Program, node: NodeId) -> Vec<Seen> {
        let (mut visible, mut seen) = (Vec::new(), Vec::new());
        crate::names::visible_binders(program, node, &mut Default::default(), &mut visible);
        harmless_bindings(&Around::default(), &visible, Access::Read, &mut seen);
        seen
    }

    #[test]
    fn a_write_fits_only_writable_bindings_and_first_only_stops_at_the_first() {
        let spec = scoped();
        let (read, write) = (spec.lookup("Ref").unwrap(), spec.lookup("Assign").unwrap());
        let mut checked = 0;
        for program in programs(&spec, Options::default(), 0..100) {
            for node in nodes_named(&spec, &program, "Ref") {
                let visible = visible_bindings(&program, node);
                let all = seen(&program, node);
                let readable = fitting_bindings(&spec, &all, Access::Read, read, node, None, false);
                let binders: Vec<NodeId> = visible.iter().map(|b| b.binder).collect();
                assert_eq!(readable, binders, "an untyped read fits every binding");
                let writable = fitting_bindings(&spec, &all, Access::Write, write, node, None, false);
                let expected: Vec<NodeId> = visible.iter().filter(|b| b.writable).map(|b| b.binder).collect();
                assert_eq!(writable, expected);
                let first = fitting_bindings(&spec, &all, Access::Write, write, node, None, true);
                assert_eq!(first, expected.into_iter().take(1).collect::<Vec<_>>());
                checked += usize::from(visible.iter().any(|b| !b.writable));
            }
        }
        assert!(checked > 10, "the sample has read-only bindings in sight ({checked})");
    }

    /// A typed language of one expression: a number or a reference.
    fn typed_references() -> Spec {
        typed_references_of(|s| s.fresh())
    }

    /// [`typed_references`] with the reference's node type made by
    /// `reference_type`.
    fn typed_references_of(reference_type: fn(&mut TypeStore) -> Type) -> Spec {
        use crate::component::{Component, ProductionDecl};
        use crate::grammar::DataInit;
        use crate::properties::{Piece, Renderer, TypeInfo};
        use crate::scopes::ReferenceInfo;
        use crate::types::TypeSystem;
        let mut c = Component::new("typed-references");
        c.production(ProductionDecl::new("Program").child("body", "Expr"))
            .production(ProductionDecl::new("Expr").abstract_())
            .production(
                ProductionDecl::new("Num")
                    .supertype("Expr")
                    .data("value", DataInit::new(|r| r.int_in(0, 9))),
            )
            .production(
                ProductionDecl::new("Ref")
                    .supertype("Expr")
                    .data("name", DataInit::new(|_| "")),
            );
        c.type_info("Program", TypeInfo::new(|s| s.fresh()).child("body", |c| c.fresh()))
            .type_info("Num", TypeInfo::new(|s| s.base("num")))
            .type_info("Ref", TypeInfo::new(reference_type))
            .reference_info("Ref", ReferenceInfo::new("name", Access::Read));
        for (name, field) in [("Program", "body"), ("Num", "value"), ("Ref", "name")] {
            c.render(name, Renderer::Template(vec![Piece::Field(field)]));
        }
        let mut system = TypeSystem::new();
        for base in ["num", "str", "bool"] {
            system.base(base);
        }
        system.allow_functions(true);
        Spec::assemble_typed("Program", system, [c]).expect("the spec is well formed")
    }

    #[test]
    fn a_binding_that_fits_is_found_however_many_undecided_ones_come_first() {
        // Issue 14: a hole requiring `(?, ?, ?) -> num` failed with
        // `(str, bool, str) -> num` in sight, when more than
        // MAX_BINDING_TRIALS bindings with open types (parameters, other
        // functions) came first and used up the trials.
        let spec = typed_references();
        let reference = spec.lookup("Ref").unwrap();
        let system = spec.type_system().unwrap().clone();
        let mut program = Program::new(spec.lookup("Program").unwrap(), Some(&system), 0);
        let typing = program.typing.as_mut().unwrap();
        let store = &mut typing.store;
        let (num, str_, boolean) = (store.base("num"), store.base("str"), store.base("bool"));
        let open: Vec<Type> = (0..3).map(|_| store.fresh()).collect();
        let required = Type::function(open, num.clone());
        // Binder `i` is node `i + 1`, its type the program's type of that
        // node; node 0 is the reference.
        let seen = |i: usize| Seen {
            binder: NodeId(i as u32 + 1),
            writable: false,
        };
        // Open functions of another result, or arity: each needs a trial.
        let mut types: Vec<Type> = (0..MAX_BINDING_TRIALS + 2)
            .map(|i| {
                let params = (0..i % 3).map(|_| store.fresh()).collect();
                Type::function(params, str_.clone())
            })
            .collect();
        types.push(Type::function(vec![str_.clone(), boolean, str_], num));
        let all: Vec<Seen> = (0..types.len()).map(seen).collect();
        let fits = seen(types.len() - 1).binder;
        typing.types = std::iter::once(required).chain(types).map(Some).collect();
        let node = NodeId(0);
        let first = fitting_bindings(
            &spec,
            &all,
            Access::Read,
            reference,
            node,
            program.typing.as_mut(),
            true,
        );
        assert_eq!(first, vec![fits]);
        let every = fitting_bindings(
            &spec,
            &all,
            Access::Read,
            reference,
            node,
            program.typing.as_mut(),
            false,
        );
        assert_eq!(every, vec![fits]);
    }

    #[test]
    fn a_binder_of_a_form_no_type_of_the_reference_has_surely_misfits_as_the_trial_says() {
        // The reference is a `num` or a `str`: a function binder cannot be
        // it; a `bool` one cannot either, but only the trial tells.
        let spec = typed_references_of(|s| {
            let candidates = [s.base("num"), s.base("str")];
            s.fresh_one_of(&candidates)
        });
        let reference = spec.lookup("Ref").unwrap();
        let system = spec.type_system().unwrap().clone();
        let mut program = Program::new(spec.lookup("Program").unwrap(), Some(&system), 0);
        let typing = program.typing.as_mut().unwrap();
        let store = &mut typing.store;
        let (num, boolean) = (store.base("num"), store.base("bool"));
        let binder_types = vec![
            Type::function(vec![num.clone()], num.clone()),
            num,
            boolean,
            store.fresh(),
        ];
        // Node 0 is the reference (of an open type), node `i + 1` binder `i`.
        typing.types = std::iter::once(store.fresh()).chain(binder_types).map(Some).collect();
        let node = NodeId(0);
        let verdicts: Vec<(bool, bool)> = (1..=4)
            .map(|binder| {
                let binding = Seen {
                    binder: NodeId(binder),
                    writable: false,
                };
                let misfits = surely_misfits(&spec, binding, reference, node, program.typing.as_ref());
                let fits = binding_fits(&spec, binding, Access::Read, reference, node, program.typing.as_mut());
                (misfits, fits)
            })
            .collect();
        assert_eq!(
            verdicts,
            [(true, false), (false, true), (false, false), (false, true)],
            "(surely misfits, fits by trial) for a function, num, bool and open binder"
        );
    }

    #[test]
    fn nothing_around_leaves_every_binding_harmless() {
        let spec = scoped();
        for program in programs(&spec, Options::default(), 0..50) {
            for node in nodes_named(&spec, &program, "Ref") {
                let (mut visible, mut harmless) = (Vec::new(), Vec::new());
                crate::names::visible_binders(&program, node, &mut Default::default(), &mut visible);
                let around = Around::default();
                harmless_bindings(&around, &visible, Access::Write, &mut harmless);
                assert_eq!(harmless.len(), visible.len());
                assert!(!harmless_lift_sites(&around, &spec, &[true; 13], &program, node, Access::Read, 5).is_empty());
            }
        }
    }
}
