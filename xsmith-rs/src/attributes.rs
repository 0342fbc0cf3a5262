//! Attributes: per-node computations that may read the tree and other
//! attributes, cached per node and recomputed only when the part of the tree
//! they depend on has changed.
//!
//! An attribute declares what it depends on ([`Dependence`]); the tree keeps
//! versions of each node and of each node's subtree, so checking whether a
//! cached value is still good is one comparison. Types, scopes and effects are
//! built on this mechanism; fuzzer authors define their own the same way.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use crate::cache::Entry;
use crate::program::Program;
use crate::tree::NodeId;

/// What an attribute's value depends on, which decides when a cached value
/// goes stale.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dependence {
    /// The node itself and its ancestors (which never change once made):
    /// stale when the node changes (a hole is filled). Depth, the enclosing
    /// production, a hole's node type.
    Node,
    /// The node's subtree: stale when anything under the node changes. Sizes,
    /// synthesized summaries such as effects.
    Subtree,
    /// Anything in the tree: stale after any change. The safe default for
    /// attributes that look sideways (visible bindings).
    Tree,
}

/// A named per-node computation with a cached result.
///
/// ```
/// use xsmith::{Attribute, Dependence};
/// // How many nodes a subtree has: it depends on the subtree only.
/// let size = Attribute::new("size", Dependence::Subtree, |tree, node| {
///     let mut stack = vec![node];
///     let mut count = 0;
///     while let Some(n) = stack.pop() {
///         count += 1;
///         stack.extend(tree.children(n));
///     }
///     count
/// });
/// let spec = xsmith::example::spec();
/// let tree = xsmith::example::program(&spec, 1);
/// assert_eq!(tree.attribute(&size, tree.root()), tree.len());
/// ```
pub struct Attribute<T> {
    id: usize,
    name: &'static str,
    dependence: Dependence,
    compute: Compute<T>,
}

/// An attribute's computation.
type Compute<T> = Arc<dyn Fn(&Program, NodeId) -> T + Send + Sync>;

impl<T> Clone for Attribute<T> {
    fn clone(&self) -> Self {
        Attribute {
            id: self.id,
            name: self.name,
            dependence: self.dependence,
            compute: Arc::clone(&self.compute),
        }
    }
}

static NEXT_ATTRIBUTE_ID: AtomicUsize = AtomicUsize::new(0);

impl<T: Clone + 'static> Attribute<T> {
    /// Defines an attribute. Each call makes a distinct attribute with a cache
    /// of its own; clones share it.
    ///
    /// ```
    /// use xsmith::{Attribute, Dependence};
    /// let depth = Attribute::new("depth", Dependence::Node, |tree, node| tree.node(node).depth);
    /// # let _ = depth;
    /// ```
    pub fn new(
        name: &'static str,
        dependence: Dependence,
        compute: impl Fn(&Program, NodeId) -> T + Send + Sync + 'static,
    ) -> Attribute<T> {
        Attribute {
            id: NEXT_ATTRIBUTE_ID.fetch_add(1, Ordering::Relaxed),
            name,
            dependence,
            compute: Arc::new(compute),
        }
    }

    /// The attribute's name.
    ///
    /// ```
    /// let a = xsmith::Attribute::new("depth", xsmith::Dependence::Node, |t, n| t.node(n).depth);
    /// assert_eq!(a.name(), "depth");
    /// ```
    pub fn name(&self) -> &'static str {
        self.name
    }
}

impl Program {
    /// The value of `attribute` at `node`: from the cache when it is still
    /// good, else computed (reading whatever else it needs) and cached.
    ///
    /// # Panics
    ///
    /// When an attribute's value at a node depends on itself: a cyclic
    /// attribute definition is a bug in the spec, named in the message.
    ///
    /// ```
    /// use xsmith::{Attribute, Dependence};
    /// let spec = xsmith::example::spec();
    /// let tree = xsmith::example::program(&spec, 3);
    /// let depth = Attribute::new("depth", Dependence::Node, |tree, node| tree.node(node).depth);
    /// assert_eq!(tree.attribute(&depth, tree.root()), 0);
    /// ```
    pub fn attribute<T: Clone + 'static>(&self, attribute: &Attribute<T>, node: NodeId) -> T {
        if let Some(value) = self.cached(attribute, node) {
            return value;
        }
        self.with_table(attribute, |table| {
            if table.in_progress[node.index()] {
                panic!(
                    "attribute `{}` at node {} depends on itself: its definition is cyclic",
                    attribute.name,
                    node.index()
                );
            }
            table.in_progress[node.index()] = true;
        });
        let value = (attribute.compute)(self, node);
        let computed_at = self.version();
        if attribute.dependence == Dependence::Subtree {
            self.note_subtree_read(computed_at);
        }
        self.with_table(attribute, |table| {
            table.in_progress[node.index()] = false;
            table.entries[node.index()] = Some(Entry {
                value: value.clone(),
                computed_at,
            });
        });
        value
    }

    /// The value of `attribute` at `node`, or `None` when computing it is
    /// what asked (a cycle): for attributes whose definition follows edges
    /// that may loop (a function whose body calls itself) and which have a
    /// safe answer for "not known".
    pub(crate) fn attribute_unless_cyclic<T: Clone + 'static>(
        &self,
        attribute: &Attribute<T>,
        node: NodeId,
    ) -> Option<T> {
        if let Some(value) = self.cached(attribute, node) {
            return Some(value);
        }
        let cyclic = self.with_table(attribute, |table| table.in_progress[node.index()]);
        (!cyclic).then(|| self.attribute(attribute, node))
    }

    fn cached<T: Clone + 'static>(&self, attribute: &Attribute<T>, node: NodeId) -> Option<T> {
        self.caches
            .cached(attribute.id, node, |computed_at| match attribute.dependence {
                Dependence::Node => computed_at >= self.node(node).changed_at,
                Dependence::Subtree => computed_at >= self.node(node).subtree_changed_at,
                Dependence::Tree => computed_at == self.version(),
            })
    }

    fn with_table<T: 'static, R>(
        &self,
        attribute: &Attribute<T>,
        f: impl FnOnce(&mut crate::cache::Table<T>) -> R,
    ) -> R {
        self.caches.with_table(attribute.id, self.len(), f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    /// The holes in the subtree at `node`, counted afresh.
    fn holes_under(tree: &Program, node: NodeId) -> usize {
        let mut stack = vec![node];
        let mut holes = 0;
        while let Some(n) = stack.pop() {
            holes += usize::from(tree.node(n).is_hole);
            stack.extend(tree.children(n));
        }
        holes
    }

    #[test]
    fn cached_values_are_reused_until_the_subtree_changes() {
        let spec = crate::example::spec();
        let mut generator = crate::Generator::new(&spec, crate::Options::default()).unwrap();
        let mut random = crate::Random::from_seed(5);
        let calls = Arc::new(AtomicUsize::new(0));
        let counter = Arc::clone(&calls);
        let holes: Attribute<usize> = Attribute::new("holes", Dependence::Subtree, move |tree, node| {
            counter.fetch_add(1, Ordering::Relaxed);
            holes_under(tree, node)
        });
        let mut tree = generator.start();
        assert_eq!(tree.attribute(&holes, tree.root()), 1);
        assert_eq!(tree.attribute(&holes, tree.root()), 1);
        assert_eq!(calls.load(Ordering::Relaxed), 1, "second read comes from the cache");
        generator.fill_next_hole(&mut tree, &mut random).unwrap();
        let after_one_fill = tree.attribute(&holes, tree.root());
        assert_eq!(calls.load(Ordering::Relaxed), 2, "a fill under the root invalidates it");
        assert_eq!(after_one_fill, tree.ids().filter(|&n| tree.node(n).is_hole).count());
    }

    #[test]
    fn subtree_values_read_at_random_moments_are_never_stale() {
        // Reads between fills, at random nodes, leave some subtrees marked
        // as changed since the last read and some not: the walk up that
        // marks a fill stops early only where that is safe.
        let spec = crate::fixtures::scoped();
        let holes: Attribute<usize> = Attribute::new("holes", Dependence::Subtree, holes_under);
        let mut generator = crate::Generator::new(&spec, crate::Options::default()).unwrap();
        for seed in 0..40 {
            let (mut random, mut reads) = (crate::Random::from_seed(seed), crate::Random::from_seed(!seed));
            let mut tree = generator.start();
            while generator.fill_next_hole(&mut tree, &mut random).unwrap() {
                for _ in 0..reads.below(4) {
                    let node = NodeId(reads.below(tree.len() as u64) as u32);
                    let direct = holes_under(&tree, node);
                    assert_eq!(
                        tree.attribute(&holes, node),
                        direct,
                        "seed {seed}, node {}",
                        node.index()
                    );
                }
            }
        }
    }

    #[test]
    fn node_dependent_values_survive_changes_elsewhere() {
        let spec = crate::example::spec();
        let mut generator = crate::Generator::new(&spec, crate::Options::default()).unwrap();
        let mut random = crate::Random::from_seed(8);
        let calls = Arc::new(AtomicUsize::new(0));
        let counter = Arc::clone(&calls);
        let depth = Attribute::new("depth", Dependence::Node, move |tree, node| {
            counter.fetch_add(1, Ordering::Relaxed);
            tree.node(node).depth
        });
        let mut tree = generator.start();
        generator.fill_next_hole(&mut tree, &mut random).unwrap();
        let first_child = tree.children(tree.root()).next().unwrap();
        tree.attribute(&depth, tree.root());
        tree.attribute(&depth, first_child);
        while generator.fill_next_hole(&mut tree, &mut random).unwrap() {}
        tree.attribute(&depth, tree.root());
        assert_eq!(
            calls.load(Ordering::Relaxed),
            2,
            "the root did not change after it was filled"
        );
    }

    #[test]
    #[should_panic(expected = "attribute `loop` at node 0 depends on itself")]
    fn cyclic_definitions_are_reported() {
        thread_local!(static LOOP: Attribute<u32> = Attribute::new("loop", Dependence::Tree, |tree, node| {
            LOOP.with(|a| tree.attribute(a, node))
        }));
        let spec = crate::example::spec();
        let tree = crate::Generator::new(&spec, crate::Options::default()).unwrap().start();
        LOOP.with(|a| tree.attribute(a, tree.root()));
    }
}
