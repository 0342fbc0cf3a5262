//! Any node of a program, as a filter or a render function reads it: its
//! production, its fields by name, its parent and ancestors.

use crate::grammar::Grammar;
use crate::program::Program;
use crate::tree::{NodeId, Slot};
use crate::types::Type;
use crate::value::Value;

/// A node of the program, read through the grammar: what a filter
/// ([`Hole::at`](crate::Hole::at)) or a render function
/// ([`RenderNode::at`](crate::RenderNode::at)) sees of nodes other than its
/// own, by production and field names, with no slot index to look up.
///
/// ```
/// let spec = xsmith::example::spec();
/// let program = xsmith::example::program(&spec, 4);
/// let root = xsmith::NodeRef::new(spec.grammar(), &program, program.root());
/// assert_eq!(root.production(), "Program");
/// let body = root.child("body").unwrap();
/// assert_eq!(body.parent().map(|p| p.id()), Some(root.id()));
/// assert!(body.is_inside(root.id()));
/// assert!(root.data("body").is_none());
/// ```
#[derive(Clone, Copy)]
pub struct NodeRef<'a> {
    grammar: &'a Grammar,
    program: &'a Program,
    id: NodeId,
}

impl<'a> NodeRef<'a> {
    /// Node `id` of `program`, whose productions are `grammar`'s.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let program = xsmith::example::program(&spec, 1);
    /// let root = xsmith::NodeRef::new(spec.grammar(), &program, program.root());
    /// assert_eq!(root.id(), program.root());
    /// ```
    pub fn new(grammar: &'a Grammar, program: &'a Program, id: NodeId) -> NodeRef<'a> {
        NodeRef { grammar, program, id }
    }

    /// The node's id.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let program = xsmith::example::program(&spec, 1);
    /// assert_eq!(xsmith::NodeRef::new(spec.grammar(), &program, program.root()).id().index(), 0);
    /// ```
    pub fn id(&self) -> NodeId {
        self.id
    }

    /// The node's production name (for a hole, its node type's).
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let program = xsmith::example::program(&spec, 1);
    /// assert_eq!(xsmith::NodeRef::new(spec.grammar(), &program, program.root()).production(), "Program");
    /// ```
    pub fn production(&self) -> &'a str {
        self.grammar.production(self.program.node(self.id).production).name()
    }

    /// Whether the node is of production `name`.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let program = xsmith::example::program(&spec, 1);
    /// assert!(xsmith::NodeRef::new(spec.grammar(), &program, program.root()).is("Program"));
    /// ```
    pub fn is(&self, name: &str) -> bool {
        self.production() == name
    }

    /// The node's parent (`None` for the root).
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let program = xsmith::example::program(&spec, 1);
    /// assert!(xsmith::NodeRef::new(spec.grammar(), &program, program.root()).parent().is_none());
    /// ```
    pub fn parent(&self) -> Option<NodeRef<'a>> {
        let parent = self.program.node(self.id).parent?;
        Some(self.at(parent))
    }

    /// The node's ancestors, nearest first (not the node itself).
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let program = xsmith::example::program(&spec, 4);
    /// let root = xsmith::NodeRef::new(spec.grammar(), &program, program.root());
    /// let body = root.child("body").unwrap();
    /// assert_eq!(body.ancestors().map(|a| a.production()).collect::<Vec<_>>(), ["Program"]);
    /// ```
    pub fn ancestors(&self) -> impl Iterator<Item = NodeRef<'a>> {
        std::iter::successors(self.parent(), NodeRef::parent)
    }

    /// The nearest ancestor of production `name`, looking no further up
    /// than the first ancestor that `stop` holds for.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let program = xsmith::example::program(&spec, 4);
    /// let body = xsmith::NodeRef::new(spec.grammar(), &program, program.root()).child("body").unwrap();
    /// assert!(body.enclosing("Program", |_| false).is_some());
    /// assert!(body.enclosing("Program", |a| a.is("Program")).is_none());
    /// ```
    pub fn enclosing(&self, name: &str, stop: impl Fn(&NodeRef<'a>) -> bool) -> Option<NodeRef<'a>> {
        self.ancestors().take_while(|a| !stop(a)).find(|a| a.is(name))
    }

    /// Whether the node is `ancestor` or lies under it.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let program = xsmith::example::program(&spec, 1);
    /// let root = xsmith::NodeRef::new(spec.grammar(), &program, program.root());
    /// assert!(root.is_inside(root.id()));
    /// ```
    pub fn is_inside(&self, ancestor: NodeId) -> bool {
        self.id == ancestor || self.ancestors().any(|a| a.id == ancestor)
    }

    /// The slot of field `field`, if the production has one of that name.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let program = xsmith::example::program(&spec, 1);
    /// let root = xsmith::NodeRef::new(spec.grammar(), &program, program.root());
    /// assert!(matches!(root.slot("body"), Some(xsmith::Slot::Child(_))));
    /// assert!(root.slot("nope").is_none());
    /// ```
    pub fn slot(&self, field: &str) -> Option<&'a Slot> {
        let node = self.program.node(self.id);
        let index = self.grammar.production(node.production).field_index(field)?;
        node.slots.get(index)
    }

    /// The child in the single-child field `field`.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let program = xsmith::example::program(&spec, 1);
    /// let root = xsmith::NodeRef::new(spec.grammar(), &program, program.root());
    /// assert!(root.child("body").is_some());
    /// ```
    pub fn child(&self, field: &str) -> Option<NodeRef<'a>> {
        match self.slot(field)? {
            Slot::Child(child) => Some(self.at(*child)),
            _ => None,
        }
    }

    /// The children in field `field`: a list's elements, or the one child
    /// of a single-child field (none for a data field or an unknown name).
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let program = xsmith::example::program(&spec, 1);
    /// let root = xsmith::NodeRef::new(spec.grammar(), &program, program.root());
    /// assert_eq!(root.children("body").len(), 1);
    /// ```
    pub fn children(&self, field: &str) -> Vec<NodeRef<'a>> {
        match self.slot(field) {
            Some(Slot::Child(child)) => vec![self.at(*child)],
            Some(Slot::List(list)) => list.iter().map(|&c| self.at(c)).collect(),
            Some(Slot::Data(_)) | None => Vec::new(),
        }
    }

    /// Every child of the node, field by field.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let program = xsmith::example::program(&spec, 1);
    /// let root = xsmith::NodeRef::new(spec.grammar(), &program, program.root());
    /// assert_eq!(root.all_children().count(), 1);
    /// ```
    pub fn all_children(&self) -> impl Iterator<Item = NodeRef<'a>> + 'a {
        let (grammar, program) = (self.grammar, self.program);
        program
            .children(self.id)
            .map(move |id| NodeRef { grammar, program, id })
    }

    /// The value of data field `field`.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let program = xsmith::example::program(&spec, 1);
    /// let root = xsmith::NodeRef::new(spec.grammar(), &program, program.root());
    /// assert!(root.data("body").is_none());
    /// ```
    pub fn data(&self, field: &str) -> Option<&'a Value> {
        match self.slot(field)? {
            Slot::Data(value) => Some(value),
            _ => None,
        }
    }

    /// The node's type (typed specs only).
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let program = xsmith::example::program(&spec, 1);
    /// assert!(xsmith::NodeRef::new(spec.grammar(), &program, program.root()).node_type().is_none());
    /// ```
    pub fn node_type(&self) -> Option<Type> {
        self.program.node_type(self.id)
    }

    /// The binder this reference node refers to, once settled.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let program = xsmith::example::program(&spec, 1);
    /// assert!(xsmith::NodeRef::new(spec.grammar(), &program, program.root()).reference_target().is_none());
    /// ```
    pub fn reference_target(&self) -> Option<NodeRef<'a>> {
        let target = self.program.reference_target(self.id)?;
        Some(self.at(target))
    }

    /// Another node of the same program.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let program = xsmith::example::program(&spec, 1);
    /// let root = xsmith::NodeRef::new(spec.grammar(), &program, program.root());
    /// assert_eq!(root.at(program.root()).id(), root.id());
    /// ```
    pub fn at(&self, id: NodeId) -> NodeRef<'a> {
        NodeRef { id, ..*self }
    }
}
