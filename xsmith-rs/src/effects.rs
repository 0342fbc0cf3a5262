//! Effects: a conservative summary of what a subtree may do when it runs
//! (variables read and written, I/O, calls of function values), and the
//! check that keeps siblings whose order of evaluation the language leaves
//! open from conflicting.
//!
//! Siblings conflict when one writes a variable the other reads or writes,
//! when both do I/O, or when one calls a function value and the other has
//! any effect at all: a call's latent effects are not tracked yet, so a call
//! is assumed to do anything. Lambda bodies count as effects of the lambda
//! (an over-approximation, which is safe). Children of a production with
//! `strict_child_order` run in order and are never checked against each
//! other.

use std::collections::BTreeSet;
use std::sync::{Arc, OnceLock};

use crate::attributes::{Attribute, Dependence};
use crate::scopes::Access;
use crate::spec::Spec;
use crate::tree::{NodeId, Slot, Tree};
use crate::types::Type;

/// What a subtree may do when it runs.
///
/// ```
/// use xsmith::effects::Effects;
/// let mut a = Effects::default();
/// a.writes.insert("v1".into());
/// let mut b = Effects::default();
/// b.reads.insert("v1".into());
/// assert!(a.conflicts(&b));
/// assert!(!b.conflicts(&b));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Effects {
    /// Names of the variables it may read.
    pub reads: BTreeSet<String>,
    /// Names of the variables it may write.
    pub writes: BTreeSet<String>,
    /// Whether it may do I/O.
    pub io: bool,
    /// Whether it calls a function value (whose effects are unknown).
    pub calls: bool,
    /// Types of the mutable containers it may read (`None`: a container
    /// whose type is not known yet, which may be any).
    pub container_reads: Vec<Option<Type>>,
    /// Types of the mutable containers it may write.
    pub container_writes: Vec<Option<Type>>,
}

impl Effects {
    /// The effect of reading (or writing) the variable `name`.
    ///
    /// ```
    /// use xsmith::{effects::Effects, scopes::Access};
    /// assert!(Effects::of_access("v1".into(), Access::Write).writes.contains("v1"));
    /// ```
    pub fn of_access(name: String, access: Access) -> Effects {
        let mut effects = Effects::default();
        match access {
            Access::Read => effects.reads.insert(name),
            Access::Write => effects.writes.insert(name),
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
            && !self.calls
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
        (self.calls && !other.is_pure())
            || (other.calls && !self.is_pure())
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

    /// Adds everything `other` may do.
    fn absorb(&mut self, other: &Effects) {
        self.reads.extend(other.reads.iter().cloned());
        self.writes.extend(other.writes.iter().cloned());
        self.io |= other.io;
        self.calls |= other.calls;
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

/// What a production does by itself, not counting its children.
#[derive(Clone, Copy)]
struct OwnEffects {
    io: bool,
    calls: bool,
    /// The name field and access of a reference.
    reference: Option<(usize, Access)>,
    /// The field whose value is the container accessed, and how.
    container: Option<(usize, Access)>,
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

/// The effect summaries of a spec's trees: an [`Attribute`] that depends on
/// the subtree, so each summary is computed once and recomputed only when
/// something below the node changes.
///
/// ```
/// let spec = xsmith::example::spec();
/// let summaries = xsmith::effects::EffectSummaries::new(&spec);
/// let tree = xsmith::example::tree(&spec, 2);
/// assert!(summaries.of(&tree, tree.root()).is_pure());
/// ```
#[derive(Clone)]
pub struct EffectSummaries {
    attribute: Attribute<Arc<Effects>>,
}

impl EffectSummaries {
    /// The summaries of trees of `spec`.
    ///
    /// ```
    /// let summaries = xsmith::effects::EffectSummaries::new(&xsmith::example::spec());
    /// # let _ = summaries;
    /// ```
    pub fn new(spec: &Spec) -> EffectSummaries {
        let table: Vec<OwnEffects> = spec
            .productions()
            .iter()
            .map(|production| OwnEffects {
                io: production.io,
                calls: production.calls,
                container: production.container_access.as_ref().map(|(field, access)| {
                    let index = production
                        .field_index(field)
                        .expect("assembly checks the container field");
                    (index, *access)
                }),
                reference: production.reference_info.as_ref().map(|info| {
                    let index = production
                        .field_index(&info.name_field)
                        .expect("assembly checks the name field");
                    (index, info.access)
                }),
            })
            .collect();
        // The summary of a node reads its children's through the same
        // attribute, so the closure gets hold of it once it exists.
        let this: Arc<OnceLock<Attribute<Arc<Effects>>>> = Arc::new(OnceLock::new());
        let itself = Arc::clone(&this);
        let attribute = Attribute::new("effects", Dependence::Subtree, move |tree: &Tree, node: NodeId| {
            let target = tree.node(node);
            let mut effects = Effects::default();
            if target.is_hole {
                return Arc::new(effects);
            }
            let own = table[target.production.index()];
            effects.io = own.io;
            effects.calls = own.calls;
            if let Some((index, access)) = own.reference {
                if let Slot::Data(name) = &target.slots[index] {
                    let name = name.to_string();
                    if !name.is_empty() {
                        effects.absorb(&Effects::of_access(name, access));
                    }
                }
            }
            if let Some((index, access)) = own.container {
                let container = match &target.slots[index] {
                    Slot::Child(child) => tree.node_type(*child),
                    _ => None,
                };
                match access {
                    Access::Read => effects.container_reads.push(container),
                    Access::Write => effects.container_writes.push(container),
                }
            }
            let summaries = itself.get().expect("set right after it is made");
            for child in tree.children(node) {
                let below: Arc<Effects> = tree.attribute(summaries, child);
                effects.absorb(&below);
            }
            Arc::new(effects)
        });
        let _ = this.set(attribute.clone());
        EffectSummaries { attribute }
    }

    /// The effects of the subtree at `node` (holes have none yet).
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let summaries = xsmith::effects::EffectSummaries::new(&spec);
    /// let tree = xsmith::example::tree(&spec, 5);
    /// assert!(summaries.of(&tree, tree.root()).is_pure());
    /// ```
    pub fn of(&self, tree: &Tree, node: NodeId) -> Arc<Effects> {
        tree.attribute(&self.attribute, node)
    }

    /// Everything the siblings of `node` and of its ancestors may do, at
    /// every ancestor whose children run in an unspecified order: what a new
    /// node at `node` must not conflict with. (Conflict with a union is
    /// conflict with one of its parts.)
    pub(crate) fn around(&self, spec: &Spec, tree: &Tree, node: NodeId) -> Effects {
        let mut around = Effects::default();
        let mut child = node;
        let mut cursor = tree.node(node).parent;
        while let Some(parent) = cursor {
            if !spec.production(tree.node(parent).production).strict_child_order {
                for sibling in tree.children(parent).filter(|&sibling| sibling != child) {
                    around.absorb(&self.of(tree, sibling));
                }
            }
            child = parent;
            cursor = tree.node(parent).parent;
        }
        around
    }
}
