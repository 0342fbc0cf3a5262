//! The hole a choice filter or a dynamic weight decides on.

use crate::grammar::{Grammar, ProdId, Production};
use crate::hooks::NodeRef;
use crate::program::Program;
use crate::tree::NodeId;
use crate::types::Type;

/// A hole being filled, as choice filters and dynamic weights see it.
///
/// ```
/// let filter = xsmith::Filter::new(|hole: &xsmith::Hole| hole.depth() + 1 < hole.max_depth());
/// # let _ = filter;
/// ```
pub struct Hole<'a> {
    pub(crate) grammar: &'a Grammar,
    pub(crate) program: &'a Program,
    pub(crate) node: NodeId,
    pub(crate) max_depth: u32,
}

impl<'a> Hole<'a> {
    /// The hole's node.
    ///
    /// ```
    /// let f = xsmith::Filter::new(|hole| hole.node().index() > 0);
    /// # let _ = f;
    /// ```
    pub fn node(&self) -> NodeId {
        self.node
    }

    /// The depth the filling node will have.
    ///
    /// ```
    /// let w = xsmith::Weight::dynamic(|hole| hole.depth() + 1);
    /// # let _ = w;
    /// ```
    pub fn depth(&self) -> u32 {
        self.program.node(self.node).depth
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
        self.program.node(self.node).production
    }

    /// The type the hole's parent requires of it (typed specs only).
    ///
    /// ```
    /// let f = xsmith::Filter::new(|hole| hole.required_type().is_none());
    /// # let _ = f;
    /// ```
    pub fn required_type(&self) -> Option<Type> {
        self.program.node_type(self.node)
    }

    /// The production of the hole's parent, `None` at the root.
    ///
    /// ```
    /// let f = xsmith::Filter::new(|hole| hole.parent_production().map_or(true, |p| p.name() != "Div"));
    /// # let _ = f;
    /// ```
    pub fn parent_production(&self) -> Option<&'a Production> {
        let parent = self.program.node(self.node).parent?;
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
    /// // Only inside a loop, and not across a function boundary.
    /// let f = xsmith::Filter::new(|hole| {
    ///     hole.at(hole.node()).enclosing("Loop", |a| a.is("Func")).is_some()
    /// });
    /// # let _ = f;
    /// ```
    pub fn at(&self, id: NodeId) -> NodeRef<'a> {
        NodeRef::new(self.grammar, self.program, id)
    }
}
