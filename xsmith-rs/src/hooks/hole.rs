//! The hole a choice filter or a dynamic weight decides on.

use crate::grammar::{Grammar, ProdId, Production};
use crate::hooks::NodeRef;
use crate::program::Program;
use crate::tree::NodeId;
use crate::types::Type;

/// A hole being filled, as choice filters and dynamic weights see it.
///
/// Two kinds of hole are asked about: a hole of the tree being filled, and
/// the place where a definition would be lifted (inserted into a scope's
/// list before the node that needs it) if the generator chose to: there
/// the node does not exist yet ([`Hole::node`] is `None`), and
/// [`Hole::parent`] is the scope that would receive it. A definition's
/// `choice_filters` decide on both, so a definition kept to the top level
/// by its filter is never lifted anywhere else.
///
/// A filter decides on the program as it is when the hole is filled: the
/// required type may be narrowed later (by a sibling filled after it), and
/// which binder a reference takes is drawn after the filters ran. So a
/// filter should not try to foresee how a reference below it will be
/// settled: the generator does that itself, taking a visible binder that
/// fits or lifting a definition into the nearest scope that accepts one
/// (see `lift_filters`), at the top level if need be.
///
/// ```
/// let filter = xsmith::Filter::new(|hole: &xsmith::Hole| hole.depth() + 1 < hole.max_depth());
/// # let _ = filter;
/// ```
pub struct Hole<'a> {
    pub(crate) grammar: &'a Grammar,
    pub(crate) program: &'a Program,
    pub(crate) place: Place,
    pub(crate) max_depth: u32,
}

/// Where a [`Hole`] is.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Place {
    /// A hole node of the tree.
    Node(NodeId),
    /// A definition that would be lifted into `scope` for the reference at
    /// `reference`: its node would be of node type `node_type`, at `depth`,
    /// with the reference's type.
    Lift {
        scope: NodeId,
        node_type: ProdId,
        depth: u32,
        reference: NodeId,
    },
}

impl<'a> Hole<'a> {
    /// The hole's node, or `None` where a definition is considered for
    /// lifting (its node does not exist yet).
    ///
    /// ```
    /// let f = xsmith::Filter::new(|hole| hole.node().is_some_and(|node| node.index() > 0));
    /// # let _ = f;
    /// ```
    pub fn node(&self) -> Option<NodeId> {
        match self.place {
            Place::Node(node) => Some(node),
            Place::Lift { .. } => None,
        }
    }

    /// The node the hole's node is (or, for a lift, would be) a child of;
    /// `None` at the root. Walk up from here to ask where the hole is.
    ///
    /// ```
    /// let f = xsmith::Filter::new(|hole| hole.parent().is_some());
    /// # let _ = f;
    /// ```
    pub fn parent(&self) -> Option<NodeId> {
        match self.place {
            Place::Node(node) => self.program.node(node).parent,
            Place::Lift { scope, .. } => Some(scope),
        }
    }

    /// Whether a definition is being considered for lifting here, rather
    /// than a hole of the tree being filled.
    ///
    /// ```
    /// // Lifted definitions only at depth 3 or less.
    /// let f = xsmith::Filter::new(|hole| !hole.is_lift() || hole.depth() <= 3);
    /// # let _ = f;
    /// ```
    pub fn is_lift(&self) -> bool {
        matches!(self.place, Place::Lift { .. })
    }

    /// The depth the filling node will have.
    ///
    /// ```
    /// let w = xsmith::Weight::dynamic(|hole| hole.depth() + 1);
    /// # let _ = w;
    /// ```
    pub fn depth(&self) -> u32 {
        match self.place {
            Place::Node(node) => self.program.node(node).depth,
            Place::Lift { depth, .. } => depth,
        }
    }

    /// The `--max-depth` in force.
    ///
    /// ```
    /// let w = xsmith::Weight::dynamic(|hole| hole.max_depth() - hole.depth().min(hole.max_depth()));
    /// # let _ = w;
    /// ```
    pub fn max_depth(&self) -> u32 {
        self.max_depth
    }

    /// The node type the hole stands for.
    ///
    /// ```
    /// let f = xsmith::Filter::new(|hole| hole.grammar().production(hole.node_type()).is_abstract());
    /// # let _ = f;
    /// ```
    pub fn node_type(&self) -> ProdId {
        match self.place {
            Place::Node(node) => self.program.node(node).production,
            Place::Lift { node_type, .. } => node_type,
        }
    }

    /// The type the hole's parent requires of it (typed specs only).
    ///
    /// ```
    /// let f = xsmith::Filter::new(|hole| hole.required_type().is_none());
    /// # let _ = f;
    /// ```
    pub fn required_type(&self) -> Option<Type> {
        match self.place {
            Place::Node(node) => self.program.node_type(node),
            Place::Lift { reference, .. } => self.program.node_type(reference),
        }
    }

    /// The production of the hole's parent, `None` at the root.
    ///
    /// ```
    /// let f = xsmith::Filter::new(|hole| hole.parent_production().map_or(true, |p| p.name() != "Div"));
    /// # let _ = f;
    /// ```
    pub fn parent_production(&self) -> Option<&'a Production> {
        let parent = self.parent()?;
        Some(self.grammar.production(self.program.node(parent).production))
    }

    /// The program being generated, for attributes and anything else a
    /// filter needs.
    ///
    /// ```
    /// let f = xsmith::Filter::new(|hole| hole.program().len() < 50);
    /// # let _ = f;
    /// ```
    pub fn program(&self) -> &'a Program {
        self.program
    }

    /// The grammar being generated from.
    ///
    /// ```
    /// let f = xsmith::Filter::new(|hole| hole.grammar().productions().len() > 1);
    /// # let _ = f;
    /// ```
    pub fn grammar(&self) -> &'a Grammar {
        self.grammar
    }

    /// Node `id` of the program, to read by production and field names
    /// (`hole.at(hole.node())` is the hole itself, of its node type).
    ///
    /// ```
    /// let f = xsmith::Filter::new(|hole| hole.parent().is_none_or(|p| !hole.at(p).is("Div")));
    /// # let _ = f;
    /// ```
    pub fn at(&self, id: NodeId) -> NodeRef<'a> {
        NodeRef::new(self.grammar, self.program, id)
    }

    /// The hole's ancestors, nearest first: its parent (the receiving
    /// scope, for a lift), then the parent's ancestors.
    ///
    /// ```
    /// let f = xsmith::Filter::new(|hole| hole.ancestors().count() < 10);
    /// # let _ = f;
    /// ```
    pub fn ancestors(&self) -> impl Iterator<Item = NodeRef<'a>> {
        std::iter::successors(self.parent().map(|p| self.at(p)), NodeRef::parent)
    }

    /// The nearest ancestor of production `name`, looking no further up
    /// than the first ancestor that `stop` holds for.
    ///
    /// ```
    /// // Only inside a loop, and not across a function boundary.
    /// let f = xsmith::Filter::new(|hole| hole.enclosing("Loop", |a| a.is("Func")).is_some());
    /// # let _ = f;
    /// ```
    pub fn enclosing(&self, name: &str, stop: impl Fn(&NodeRef<'a>) -> bool) -> Option<NodeRef<'a>> {
        self.ancestors().take_while(|a| !stop(a)).find(|a| a.is(name))
    }
}
