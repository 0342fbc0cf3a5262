//! The tree: an arena of nodes addressed by [`NodeId`]s, where a hole is a
//! node that stands for a subtree not chosen yet. Every change bumps a
//! version, kept per node and per subtree, which is how cached attributes
//! know when they are stale. The tree knows shapes only; what a program
//! being built knows beyond them (types, names) is in `program`.

use std::cell::Cell;

use smallvec::SmallVec;

use crate::grammar::{Grammar, ProdId};
use crate::value::Value;

/// The address of a node in its [`Tree`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct NodeId(pub(crate) u32);

impl NodeId {
    /// The node's index in the arena (the root is 0).
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let tree = xsmith::Tree::new(spec.root());
    /// assert_eq!(tree.root().index(), 0);
    /// ```
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// What a field of a node holds.
#[derive(Clone, Debug)]
pub enum Slot {
    /// A single child.
    Child(NodeId),
    /// A list of children.
    List(SmallVec<[NodeId; 4]>),
    /// A data value.
    Data(Value),
}

/// One node: a hole of some node type, or a node of a concrete production.
#[derive(Clone, Debug)]
pub struct Node {
    /// For a hole, its node type; otherwise the node's production.
    pub production: ProdId,
    /// Whether the node is a hole.
    pub is_hole: bool,
    /// The parent, `None` for the root.
    pub parent: Option<NodeId>,
    /// The depth in `depth_increase` units (the root is at 0).
    pub depth: u32,
    /// The fields, in the production's field order (empty for a hole).
    pub slots: SmallVec<[Slot; 3]>,
    /// The tree version at which this node last changed.
    pub(crate) changed_at: u64,
    /// The tree version at which something in this node's subtree last
    /// changed.
    pub(crate) subtree_changed_at: u64,
}

/// An arena of nodes; node 0 is the root.
///
/// Every change to the tree bumps its version, which is how cached
/// [attributes](crate::Attribute) know when they are stale.
///
/// ```
/// let spec = xsmith::example::spec();
/// let tree = xsmith::Tree::new(spec.root());
/// assert!(tree.node(tree.root()).is_hole);
/// assert_eq!(tree.len(), 1);
/// ```
#[derive(Clone)]
pub struct Tree {
    nodes: Vec<Node>,
    version: u64,
    /// The latest version at which an attribute that depends on a
    /// subtree was computed: a node whose subtree changed after it is
    /// already newer than every such value cached, and so are its
    /// ancestors (see [`touch_ancestors`](Tree::touch_ancestors)).
    subtree_read_at: Cell<u64>,
}

impl Tree {
    /// A tree that is one hole of node type `root`.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let tree = xsmith::Tree::new(spec.root());
    /// assert_eq!(tree.node(tree.root()).production, spec.root());
    /// ```
    pub fn new(root: ProdId) -> Tree {
        Tree::with_capacity(root, 0)
    }

    /// A tree of one hole, with room for `capacity` nodes.
    pub(crate) fn with_capacity(root: ProdId, capacity: usize) -> Tree {
        let mut tree = Tree {
            nodes: Vec::with_capacity(capacity),
            version: 0,
            subtree_read_at: Cell::new(0),
        };
        tree.add_hole(root, None, 0);
        tree
    }

    /// The root node.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let tree = xsmith::Tree::new(spec.root());
    /// assert_eq!(tree.node(tree.root()).parent, None);
    /// ```
    pub fn root(&self) -> NodeId {
        NodeId(0)
    }

    /// The node at `id`.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let tree = xsmith::Tree::new(spec.root());
    /// assert_eq!(tree.node(tree.root()).depth, 0);
    /// ```
    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id.index()]
    }

    /// How many nodes (holes included) the tree has.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// assert_eq!(xsmith::Tree::new(spec.root()).len(), 1);
    /// ```
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the tree has no nodes (never true: a tree starts as a hole).
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// assert!(!xsmith::Tree::new(spec.root()).is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The tree's version: it grows with every change.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// assert_eq!(xsmith::Tree::new(spec.root()).version(), 0);
    /// ```
    pub fn version(&self) -> u64 {
        self.version
    }

    /// Every node id, in arena order.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// assert_eq!(xsmith::Tree::new(spec.root()).ids().count(), 1);
    /// ```
    pub fn ids(&self) -> impl Iterator<Item = NodeId> {
        (0..self.nodes.len() as u32).map(NodeId)
    }

    /// The children of a node in field order (list elements in list order).
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let tree = xsmith::Tree::new(spec.root());
    /// assert_eq!(tree.children(tree.root()).count(), 0);
    /// ```
    pub fn children(&self, id: NodeId) -> impl Iterator<Item = NodeId> + '_ {
        self.node(id).slots.iter().flat_map(|slot| {
            let ids: &[NodeId] = match slot {
                Slot::Child(child) => std::slice::from_ref(child),
                Slot::List(list) => list,
                Slot::Data(_) => &[],
            };
            ids.iter().copied()
        })
    }

    /// The index of the slot of `child`'s parent (and so of the parent
    /// production's field) that holds `child`; `None` for the root, or a
    /// node not yet linked into its parent.
    pub(crate) fn slot_holding(&self, child: NodeId) -> Option<usize> {
        let parent = self.node(child).parent?;
        self.node(parent).slots.iter().position(|slot| match slot {
            Slot::Child(c) => *c == child,
            Slot::List(children) => children.contains(&child),
            Slot::Data(_) => false,
        })
    }

    /// Adds a hole of `node_type` under `parent` (not yet linked into a
    /// slot of the parent: the caller does that).
    pub(crate) fn add_hole(&mut self, node_type: ProdId, parent: Option<NodeId>, depth: u32) -> NodeId {
        let id = NodeId(self.nodes.len() as u32);
        // No mark above its parent's (see `touch_ancestors`); no value
        // is cached for a new node.
        let subtree_changed_at = parent.map_or(self.version, |p| self.nodes[p.index()].subtree_changed_at);
        self.nodes.push(Node {
            production: node_type,
            is_hole: true,
            parent,
            depth,
            slots: SmallVec::new(),
            changed_at: self.version,
            subtree_changed_at,
        });
        id
    }

    /// Fills the hole at `id` with `production` and its slots, bumping the
    /// version of the node and of every ancestor's subtree.
    pub(crate) fn fill(&mut self, id: NodeId, production: ProdId, slots: SmallVec<[Slot; 3]>) {
        self.version += 1;
        let version = self.version;
        let node = &mut self.nodes[id.index()];
        debug_assert!(node.is_hole, "only a hole can be filled");
        node.production = production;
        node.is_hole = false;
        node.slots = slots;
        node.changed_at = version;
        self.touch_ancestors(id, version);
    }

    /// Inserts `child` (a node whose parent is already `parent`) into list
    /// slot `slot` of `parent` at `position`, bumping versions as
    /// [`fill`](Tree::fill) does.
    pub(crate) fn insert_into_list(&mut self, parent: NodeId, slot: usize, position: usize, child: NodeId) {
        self.version += 1;
        let version = self.version;
        match &mut self.nodes[parent.index()].slots[slot] {
            Slot::List(children) => children.insert(position, child),
            _ => unreachable!("lift fields are checked to be lists"),
        }
        self.nodes[parent.index()].changed_at = version;
        self.touch_ancestors(parent, version);
    }

    /// Replaces the data value in slot `index` of node `id`, bumping versions
    /// as [`fill`](Tree::fill) does.
    pub(crate) fn set_data(&mut self, id: NodeId, index: usize, value: Value) {
        self.version += 1;
        let version = self.version;
        self.nodes[id.index()].slots[index] = Slot::Data(value);
        self.nodes[id.index()].changed_at = version;
        self.touch_ancestors(id, version);
    }

    /// Notes that an attribute depending on a subtree was computed at
    /// `version` (the tree's version then).
    pub(crate) fn note_subtree_read(&self, version: u64) {
        self.subtree_read_at.set(self.subtree_read_at.get().max(version));
    }

    /// Marks the subtrees of `id` and its ancestors as changed, so that
    /// every attribute value cached there that depends on a subtree is
    /// stale. A node's mark is never below a descendant's, so the walk up
    /// stops at the first node marked after the latest such value was
    /// computed (that node and all above it are already stale); the nodes
    /// below it take its mark, and all the nodes up to the root `version`
    /// when there is none. Filling a hole costs a step or two, not one
    /// per ancestor, while nothing reads such attributes.
    fn touch_ancestors(&mut self, id: NodeId, version: u64) {
        let read_at = self.subtree_read_at.get();
        let mut mark = version;
        let mut cursor = Some(id);
        while let Some(at) = cursor {
            let node = &self.nodes[at.index()];
            if node.subtree_changed_at > read_at {
                mark = node.subtree_changed_at;
                break;
            }
            cursor = node.parent;
        }
        let mut cursor = Some(id);
        while let Some(at) = cursor {
            let node = &mut self.nodes[at.index()];
            if node.subtree_changed_at > read_at {
                break;
            }
            node.subtree_changed_at = mark;
            cursor = node.parent;
        }
    }

    /// Writes the tree as an indented outline, one node a line.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let tree = xsmith::Tree::new(spec.root());
    /// assert_eq!(tree.outline(spec.grammar()), "(hole Program)\n");
    /// ```
    pub fn outline(&self, grammar: &Grammar) -> String {
        self.outline_annotated(grammar, &|_| String::new())
    }

    /// The outline, with `note(node)` after each node's line head (its
    /// production and data fields, or `(hole T)`).
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let program = xsmith::example::program(&spec, 2);
    /// let outline = program.tree().outline_annotated(spec.grammar(), &|id| format!(" #{}", id.index()));
    /// assert!(outline.starts_with("Program #0"));
    /// ```
    pub fn outline_annotated(&self, grammar: &Grammar, note: &dyn Fn(NodeId) -> String) -> String {
        let mut out = String::new();
        self.outline_into(grammar, note, self.root(), 0, &mut out);
        out
    }

    fn outline_into(
        &self,
        grammar: &Grammar,
        note: &dyn Fn(NodeId) -> String,
        id: NodeId,
        indent: usize,
        out: &mut String,
    ) {
        use std::fmt::Write;
        let node = self.node(id);
        let production = grammar.production(node.production);
        let _ = write!(out, "{:indent$}", "");
        if node.is_hole {
            let _ = writeln!(out, "(hole {}){}", production.name(), note(id));
            return;
        }
        let _ = write!(out, "{}", production.name());
        for (field, slot) in production.fields().iter().zip(&node.slots) {
            if let Slot::Data(value) = slot {
                let _ = write!(out, " {}={:?}", field.name(), value.to_string());
            }
        }
        out.push_str(&note(id));
        out.push('\n');
        for (field, slot) in production.fields().iter().zip(&node.slots) {
            match slot {
                Slot::Child(child) => {
                    let _ = writeln!(out, "{:w$}{}:", "", field.name(), w = indent + 2);
                    self.outline_into(grammar, note, *child, indent + 4, out);
                }
                Slot::List(list) => {
                    let _ = writeln!(out, "{:w$}{}: [{}]", "", field.name(), list.len(), w = indent + 2);
                    for child in list {
                        self.outline_into(grammar, note, *child, indent + 4, out);
                    }
                }
                Slot::Data(_) => {}
            }
        }
    }
}
