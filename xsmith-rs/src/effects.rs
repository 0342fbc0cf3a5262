//! Effects: a conservative summary of what a subtree may do when it runs
//! (variables read and written, mutable containers read and written by
//! type, I/O, calls of function values), and the check that keeps siblings
//! whose order of evaluation the language leaves open from conflicting.
//!
//! Siblings conflict when one writes a variable the other reads or writes,
//! when one writes a container type the other reads or writes, when both do
//! I/O, or when one may do anything (see below) and the other has any
//! effect. Children of a production with `strict_child_order` run in order
//! and are never checked against each other.
//!
//! A function value's body (`function_body`) runs when it is called, so
//! its effects are *latent*: making a lambda has none; a call (`calls`) has
//! the latent effects of its callee. Those are known when the callee is a
//! function literal, or a reference to a read-only definition whose value
//! (`BinderInfo::value`) or self is a function literal with no holes left
//! (a complete subtree never changes again). Any other callee (a parameter,
//! a writable variable, a call's result, a function still being generated,
//! a function that calls itself) may do anything.
//!
//! Variables are told apart by their binder node, not their name.

use std::collections::BTreeSet;
use std::sync::{Arc, OnceLock};

use crate::attributes::{Attribute, Dependence};
use crate::grammar::ProdId;
use crate::program::Program;
use crate::scopes::{Access, BinderInfo, BinderStyle};
use crate::spec::{Properties, Spec};
use crate::tree::{NodeId, Slot};
use crate::types::Type;

/// What a subtree may do when it runs.
///
/// ```
/// use xsmith::effects::Effects;
/// let spec = xsmith::example::spec();
/// let program = xsmith::example::program(&spec, 2);
/// let variable = program.root();
/// let mut a = Effects::default();
/// a.writes.insert(variable);
/// let mut b = Effects::default();
/// b.reads.insert(variable);
/// assert!(a.conflicts(&b));
/// assert!(!b.conflicts(&b));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Effects {
    /// The binders of the variables it may read.
    pub reads: BTreeSet<NodeId>,
    /// The binders of the variables it may write.
    pub writes: BTreeSet<NodeId>,
    /// Whether it may do I/O.
    pub io: bool,
    /// Whether it may do anything at all: it calls a function value whose
    /// effects are not known.
    pub anything: bool,
    /// Types of the mutable containers it may read (`None`: a container
    /// whose type is not known yet, which may be any).
    pub container_reads: Vec<Option<Type>>,
    /// Types of the mutable containers it may write.
    pub container_writes: Vec<Option<Type>>,
}

impl Effects {
    /// The effect of reading (or writing) the variable bound by `binder`.
    ///
    /// ```
    /// use xsmith::{effects::Effects, Access};
    /// let spec = xsmith::example::spec();
    /// let program = xsmith::example::program(&spec, 2);
    /// assert!(Effects::of_access(program.root(), Access::Write).writes.contains(&program.root()));
    /// ```
    pub fn of_access(binder: NodeId, access: Access) -> Effects {
        let mut effects = Effects::default();
        match access {
            Access::Read => effects.reads.insert(binder),
            Access::Write => effects.writes.insert(binder),
        };
        effects
    }

    /// Whether it has no effect at all.
    ///
    /// ```
    /// assert!(xsmith::effects::Effects::default().is_pure());
    /// ```
    pub fn is_pure(&self) -> bool {
        self.reads.is_empty()
            && self.writes.is_empty()
            && !self.io
            && !self.anything
            && self.container_reads.is_empty()
            && self.container_writes.is_empty()
    }

    /// Whether running `self` and `other` in either order could give
    /// different results.
    ///
    /// ```
    /// let mut io = xsmith::effects::Effects::default();
    /// io.io = true;
    /// assert!(io.conflicts(&io.clone()));
    /// ```
    pub fn conflicts(&self, other: &Effects) -> bool {
        // Nothing conflicts with a pure side (most choices a hole is
        // offered), which every clause below would find one by one; past
        // this, a side that may do anything conflicts with the other.
        if self.is_pure() || other.is_pure() {
            return false;
        }
        self.anything
            || other.anything
            || (self.io && other.io)
            || self
                .writes
                .iter()
                .any(|w| other.writes.contains(w) || other.reads.contains(w))
            || other.writes.iter().any(|w| self.reads.contains(w))
            || containers_clash(&self.container_writes, &other.container_writes)
            || containers_clash(&self.container_writes, &other.container_reads)
            || containers_clash(&other.container_writes, &self.container_reads)
    }

    /// Whether reading (or writing) the variable bound by `binder` conflicts
    /// with `self` (the same as `conflicts` with [`Effects::of_access`],
    /// without building it).
    ///
    /// ```
    /// use xsmith::{effects::Effects, Access};
    /// let spec = xsmith::example::spec();
    /// let program = xsmith::example::program(&spec, 2);
    /// let writes = Effects::of_access(program.root(), Access::Write);
    /// assert!(writes.conflicts_with_access(program.root(), Access::Read));
    /// ```
    pub fn conflicts_with_access(&self, binder: NodeId, access: Access) -> bool {
        self.anything || self.writes.contains(&binder) || (access == Access::Write && self.reads.contains(&binder))
    }

    /// Whether reading (or writing) a variable that does not exist yet
    /// conflicts with `self`: only when `self` may do anything.
    ///
    /// ```
    /// use xsmith::{effects::Effects, Access};
    /// assert!(!Effects::default().conflicts_with_new_variable(Access::Write));
    /// ```
    pub fn conflicts_with_new_variable(&self, _access: Access) -> bool {
        self.anything
    }

    /// Adds everything `other` may do.
    fn absorb(&mut self, other: &Effects) {
        self.reads.extend(other.reads.iter().copied());
        self.writes.extend(other.writes.iter().copied());
        self.io |= other.io;
        self.anything |= other.anything;
        for (mine, theirs) in [
            (&mut self.container_reads, &other.container_reads),
            (&mut self.container_writes, &other.container_writes),
        ] {
            for container in theirs {
                if !mine.contains(container) {
                    mine.push(container.clone());
                }
            }
        }
    }
}

/// What a production does by itself, not counting its children, and which
/// of its children take part in latent effects.
#[derive(Clone, Copy)]
struct OwnEffects {
    io: bool,
    /// Whether its children run in order (and so never conflict).
    strict_child_order: bool,
    /// How a reference accesses its variable.
    reference: Option<Access>,
    /// The field whose value is the container accessed, and how.
    container: Option<(usize, Access)>,
    /// The callee field of a call.
    callee: Option<usize>,
    /// The body field of a function value.
    function_body: Option<usize>,
    /// The value field of a read-only definition.
    definition_value: Option<usize>,
    /// Whether it binds a name whose value never changes (a read-only
    /// definition: not writable, and not a parameter, whose value comes
    /// from each caller).
    constant_binder: bool,
    /// Whether it binds a name at all.
    binder: bool,
}

/// Whether a binder's value is the one it was defined with, forever.
fn is_constant(info: &BinderInfo) -> bool {
    !info.writable && info.style == BinderStyle::Definition
}

impl OwnEffects {
    fn of(production: &Properties) -> OwnEffects {
        OwnEffects {
            io: production.io,
            strict_child_order: production.strict_child_order,
            reference: production.reference_info.as_ref().map(|info| info.access),
            container: production.container_access,
            callee: production.callee,
            function_body: production.function_body,
            definition_value: production
                .binder_info
                .as_ref()
                .filter(|info| is_constant(info))
                .and(production.binder_value),
            constant_binder: production.binder_info.as_ref().is_some_and(is_constant),
            binder: production.binder_info.is_some(),
        }
    }
}

/// Whether containers of some type in `a` may be the same as some in `b`:
/// equal types, or a type not known (yet) to be different.
fn containers_clash(a: &[Option<Type>], b: &[Option<Type>]) -> bool {
    a.iter().any(|x| {
        b.iter().any(|y| match (x, y) {
            (Some(x), Some(y)) => x == y || !x.is_ground_term() || !y.is_ground_term(),
            _ => true,
        })
    })
}

/// The effects a node of `production` is known to have before it is made:
/// its own I/O, "anything" for a call (its callee is not known yet), and a
/// container access of a type not known yet. (The effects of a reference
/// depend on the variable it will take, and are checked as it takes one.)
fn before_made(own: &OwnEffects) -> Effects {
    let mut effects = Effects {
        io: own.io,
        anything: own.callee.is_some(),
        ..Default::default()
    };
    match own.container.map(|(_, access)| access) {
        Some(Access::Read) => effects.container_reads.push(None),
        Some(Access::Write) => effects.container_writes.push(None),
        None => {}
    }
    effects
}

/// The child in `slot`, if it is a single child.
fn single_child(program: &Program, node: NodeId, slot: usize) -> Option<NodeId> {
    match program.node(node).slots.get(slot)? {
        Slot::Child(child) => Some(*child),
        _ => None,
    }
}

/// How many references a latent-effect lookup follows before giving up
/// (`let f = g`, `let g = h`, ...).
const MAX_REFERENCE_CHAIN: usize = 8;

/// The attributes effects are computed with.
struct Attributes {
    table: Vec<OwnEffects>,
    /// The effects of running a subtree.
    summary: OnceLock<Attribute<Arc<Effects>>>,
    /// Whether a subtree has no holes left.
    complete: Attribute<bool>,
}

impl Attributes {
    fn summary(&self, program: &Program, node: NodeId) -> Arc<Effects> {
        program.attribute(self.summary.get().expect("set when made"), node)
    }

    fn compute_summary(&self, program: &Program, node: NodeId) -> Arc<Effects> {
        let target = program.node(node);
        let mut effects = Effects::default();
        if target.is_hole {
            return Arc::new(effects);
        }
        let own = self.table[target.production.index()];
        effects.io = own.io;
        if let (Some(access), Some(binder)) = (own.reference, program.reference_target(node)) {
            effects.absorb(&Effects::of_access(binder, access));
        }
        if let Some((index, access)) = own.container {
            let container = single_child(program, node, index).and_then(|child| program.node_type(child));
            match access {
                Access::Read => effects.container_reads.push(container),
                Access::Write => effects.container_writes.push(container),
            }
        }
        if let Some(callee) = own.callee.and_then(|slot| single_child(program, node, slot)) {
            match self.latent(program, callee, false, MAX_REFERENCE_CHAIN) {
                Some(latent) => effects.absorb(&latent),
                None => effects.anything = true,
            }
        }
        let body = own.function_body.and_then(|slot| single_child(program, node, slot));
        let summary = self.summary.get().expect("set when made");
        for child in program.children(node).filter(|&child| Some(child) != body) {
            // A child being summarised already: the summary of a recursive
            // function's body was asked from inside that body. Not known.
            match program.attribute_unless_cyclic(summary, child) {
                Some(below) => effects.absorb(&below),
                None => effects.anything = true,
            }
        }
        Arc::new(effects)
    }

    /// The effects of calling the function value `callee` evaluates to, if
    /// they are known. `indirect`: reached through a reference, so the
    /// function must be complete (a hole in it is not checked against the
    /// call's siblings when it is filled).
    fn latent(&self, program: &Program, callee: NodeId, indirect: bool, chain: usize) -> Option<Arc<Effects>> {
        let target = program.node(callee);
        if target.is_hole || (indirect && !program.attribute(&self.complete, callee)) {
            return None;
        }
        let own = self.table[target.production.index()];
        if let Some(body) = own.function_body.and_then(|slot| single_child(program, callee, slot)) {
            // A function definition reached through a reference is only
            // known if nothing can rebind its name.
            if indirect && own.binder && !own.constant_binder {
                return None;
            }
            // A function whose body calls itself: its summary is being
            // computed right now, and its effects are not known.
            return program.attribute_unless_cyclic(self.summary.get().expect("set when made"), body);
        }
        if let (Some(value), true) = (own.definition_value, indirect) {
            return self.latent(program, single_child(program, callee, value)?, true, chain);
        }
        match own.reference {
            Some(Access::Read) if chain > 0 => {
                let binder = program.reference_target(callee)?;
                self.latent(program, binder, true, chain - 1)
            }
            _ => None,
        }
    }
}

/// The effect summaries of a spec's trees: an [`Attribute`] that depends on
/// the subtree, so each summary is computed once and recomputed only when
/// something below the node changes. (A summary that used the latent effects
/// of a function elsewhere in the program uses them only once that function is
/// complete, and so can never change; one computed before may stay "may do
/// anything" after it is complete, which is safe.)
///
/// ```
/// let spec = xsmith::example::spec();
/// let summaries = xsmith::effects::EffectSummaries::new(&spec);
/// let program = xsmith::example::program(&spec, 2);
/// assert!(summaries.of(&program, program.root()).is_pure());
/// ```
#[derive(Clone)]
pub struct EffectSummaries {
    attributes: Arc<Attributes>,
    /// What a node of each production is known to do before it is made
    /// (see [`before_made`](EffectSummaries::before_made)).
    before_made: Arc<[Effects]>,
}

impl EffectSummaries {
    /// The summaries of trees of `spec`.
    ///
    /// ```
    /// let summaries = xsmith::effects::EffectSummaries::new(&xsmith::example::spec());
    /// # let _ = summaries;
    /// ```
    pub fn new(spec: &Spec) -> EffectSummaries {
        let complete: Attribute<bool> = {
            let this: Arc<OnceLock<Attribute<bool>>> = Arc::new(OnceLock::new());
            let itself = Arc::clone(&this);
            let attribute = Attribute::new(
                "complete",
                Dependence::Subtree,
                move |program: &Program, node: NodeId| {
                    let complete = itself.get().expect("set right after it is made");
                    !program.node(node).is_hole
                        && program.children(node).all(|child| program.attribute(complete, child))
                },
            );
            let _ = this.set(attribute.clone());
            attribute
        };
        let attributes = Arc::new(Attributes {
            table: spec
                .grammar()
                .ids()
                .map(|id| OwnEffects::of(spec.properties(id)))
                .collect(),
            summary: OnceLock::new(),
            complete,
        });
        let before_made = attributes.table.iter().map(before_made).collect();
        // A summary reads its children's (and called functions') through
        // the same attribute, so the closure holds the attributes weakly.
        let weak = Arc::downgrade(&attributes);
        let summary = Attribute::new(
            "effects",
            Dependence::Subtree,
            move |program: &Program, node: NodeId| {
                weak.upgrade()
                    .expect("the summaries outlive their trees' use")
                    .compute_summary(program, node)
            },
        );
        let _ = attributes.summary.set(summary);
        EffectSummaries {
            attributes,
            before_made,
        }
    }

    /// The effects of the subtree at `node` (holes have none yet).
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let summaries = xsmith::effects::EffectSummaries::new(&spec);
    /// let program = xsmith::example::program(&spec, 5);
    /// assert!(summaries.of(&program, program.root()).is_pure());
    /// ```
    pub fn of(&self, program: &Program, node: NodeId) -> Arc<Effects> {
        self.attributes.summary(program, node)
    }

    /// The latent effects of calling the function value the expression at
    /// `callee` evaluates to, when they are known.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let summaries = xsmith::effects::EffectSummaries::new(&spec);
    /// let program = xsmith::example::program(&spec, 5);
    /// assert!(summaries.latent(&program, program.root()).is_none(), "not a function");
    /// ```
    pub fn latent(&self, program: &Program, callee: NodeId) -> Option<Arc<Effects>> {
        self.attributes.latent(program, callee, false, MAX_REFERENCE_CHAIN)
    }

    /// The effects a node of `production` is known to have before it is
    /// made: its own I/O, "anything" for a call (its callee is not known
    /// yet), and a container access of a type not known yet. (A reference's
    /// effect depends on the variable it will take, and is checked as it
    /// takes one.)
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let summaries = xsmith::effects::EffectSummaries::new(&spec);
    /// assert!(summaries.before_made(spec.lookup("Add").unwrap()).is_pure());
    /// ```
    pub fn before_made(&self, production: ProdId) -> &Effects {
        &self.before_made[production.index()]
    }

    /// Whether a node of `production` may have an effect of its own or
    /// through a variable it refers to (I/O, a call, a container access, a
    /// reference): whether choosing it needs the effects around its hole.
    pub(crate) fn may_have_effects(&self, production: ProdId) -> bool {
        let own = &self.attributes.table[production.index()];
        own.io || own.callee.is_some() || own.container.is_some() || own.reference.is_some()
    }

    /// Everything the siblings of `node` and of its ancestors may do, at
    /// every ancestor whose children run in an unspecified order: what a new
    /// node at `node` must not conflict with.
    ///
    /// The walk stops at the body of a function value that is not called
    /// right where it is made: that body runs where the value is called,
    /// and a call sees its callee's latent effects only once the function
    /// is complete (or else may do anything), so the siblings around the
    /// function value itself never run beside its body. The body of a
    /// function literal that is itself a callee runs at that call, so its
    /// holes are checked against the call's siblings.
    pub(crate) fn around(&self, program: &Program, node: NodeId) -> Around {
        let mut parts = Vec::new();
        let mut child = node;
        let mut cursor = program.node(node).parent;
        while let Some(parent) = cursor {
            if self.runs_elsewhere(program, parent, child) {
                break;
            }
            if !self.attributes.table[program.node(parent).production.index()].strict_child_order {
                for sibling in program.children(parent).filter(|&sibling| sibling != child) {
                    let effects = self.of(program, sibling);
                    if !effects.is_pure() {
                        parts.push(effects);
                    }
                }
            }
            child = parent;
            cursor = program.node(parent).parent;
        }
        Around { parts }
    }

    /// Whether `child` is the body of the function value `function`, and
    /// that value is not the callee of a call made right there.
    fn runs_elsewhere(&self, program: &Program, function: NodeId, child: NodeId) -> bool {
        let own = &self.attributes.table[program.node(function).production.index()];
        if own.function_body.and_then(|slot| single_child(program, function, slot)) != Some(child) {
            return false;
        }
        let Some(caller) = program.node(function).parent else {
            return true;
        };
        let calls = &self.attributes.table[program.node(caller).production.index()];
        calls.callee.and_then(|slot| single_child(program, caller, slot)) != Some(function)
    }
}

/// The effects around a hole (see [`EffectSummaries::around`]), kept as the
/// siblings' summaries rather than merged: conflict with a union is conflict
/// with one of its parts, and most holes ask only a question or two.
#[derive(Default)]
pub(crate) struct Around {
    parts: Vec<Arc<Effects>>,
}

impl Around {
    /// Whether nothing around has an effect (no choice can conflict).
    pub(crate) fn is_empty(&self) -> bool {
        self.parts.is_empty()
    }

    /// Whether `effects` conflicts with something around.
    pub(crate) fn conflicts(&self, effects: &Effects) -> bool {
        self.parts.iter().any(|part| part.conflicts(effects))
    }

    /// Whether reading (or writing) the variable of `binder` conflicts
    /// with something around.
    pub(crate) fn conflicts_with_access(&self, binder: NodeId, access: Access) -> bool {
        self.parts.iter().any(|part| part.conflicts_with_access(binder, access))
    }

    /// Whether reading (or writing) a new variable conflicts with something
    /// around.
    pub(crate) fn conflicts_with_new_variable(&self, access: Access) -> bool {
        self.parts.iter().any(|part| part.conflicts_with_new_variable(access))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::{nodes_named, programs, scoped};
    use crate::Options;

    fn with(f: impl FnOnce(&mut Effects)) -> Effects {
        let mut effects = Effects::default();
        f(&mut effects);
        effects
    }

    #[test]
    fn conflicts_are_writes_against_any_use_io_against_io_and_anything_against_any_effect() {
        let (x, y) = (NodeId(1), NodeId(2));
        let reads_x = Effects::of_access(x, Access::Read);
        let writes_x = Effects::of_access(x, Access::Write);
        let writes_y = Effects::of_access(y, Access::Write);
        let io = with(|e| e.io = true);
        let anything = with(|e| e.anything = true);
        let pure = Effects::default();
        assert!(writes_x.conflicts(&reads_x) && reads_x.conflicts(&writes_x));
        assert!(writes_x.conflicts(&writes_x));
        assert!(!reads_x.conflicts(&reads_x), "reads commute");
        assert!(!writes_x.conflicts(&writes_y), "different variables");
        assert!(io.conflicts(&io) && !io.conflicts(&reads_x));
        assert!(anything.conflicts(&reads_x) && anything.conflicts(&anything));
        assert!(!anything.conflicts(&pure), "nothing conflicts with what has no effect");
        let int = crate::types::TypeSystem::new().base("int");
        let writes_ints = with(|e| e.container_writes.push(Some(int.clone())));
        let reads_unknown = with(|e| e.container_reads.push(None));
        assert!(
            writes_ints.conflicts(&reads_unknown),
            "a container of a type not known yet may be any"
        );
    }

    #[test]
    fn before_a_node_is_made_only_its_own_io_is_known() {
        let spec = scoped();
        let summaries = EffectSummaries::new(&spec);
        let print = summaries.before_made(spec.lookup("Print").unwrap());
        assert!(print.io && !print.anything);
        assert!(summaries.before_made(spec.lookup("Ref").unwrap()).is_pure());
        assert!(summaries.may_have_effects(spec.lookup("Ref").unwrap()));
        assert!(!summaries.may_have_effects(spec.lookup("Pair").unwrap()));
    }

    #[test]
    fn summaries_gather_the_subtree_and_unordered_siblings_never_conflict() {
        let spec = scoped();
        let summaries = EffectSummaries::new(&spec);
        let mut pairs_with_effects = 0;
        for program in programs(&spec, Options::default(), 0..300) {
            for reference in nodes_named(&spec, &program, "Ref") {
                let target = program.reference_target(reference).unwrap();
                assert!(summaries.of(&program, reference).reads.contains(&target));
                assert!(summaries.of(&program, program.root()).reads.contains(&target));
            }
            for show in nodes_named(&spec, &program, "Show") {
                assert!(summaries.of(&program, show).io);
            }
            for pair in nodes_named(&spec, &program, "Pair") {
                let mut operands = program.children(pair);
                let (left, right) = (operands.next().unwrap(), operands.next().unwrap());
                let (left, right) = (summaries.of(&program, left), summaries.of(&program, right));
                assert!(
                    !left.conflicts(&right),
                    "the operands of a pair conflict: {left:?} {right:?}"
                );
                pairs_with_effects += usize::from(!left.is_pure() && !right.is_pure());
            }
        }
        assert!(
            pairs_with_effects > 20,
            "the sample has pairs with effects on both sides ({pairs_with_effects})"
        );
    }

    #[test]
    fn what_is_around_skips_ordered_parents() {
        let spec = scoped();
        let summaries = EffectSummaries::new(&spec);
        for program in programs(&spec, Options::default(), 0..100) {
            for print in nodes_named(&spec, &program, "Print") {
                // A statement's siblings run in order: a block is strict.
                assert!(!summaries.around(&program, print).conflicts(&with(|e| e.io = true)));
            }
        }
    }
}
