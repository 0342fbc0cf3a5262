//! The node a `fresh` hook initialises.

use crate::grammar::{FieldKind, Grammar};
use crate::program::Program;
use crate::random::Random;
use crate::tree::{NodeId, Slot};
use crate::types::Type;
use crate::value::Value;

/// A node just made, as a `fresh` hook sees it: its data fields can be reset
/// from the program's random source.
///
/// ```
/// let hook = xsmith::FreshHook::new(|node: &mut xsmith::FreshNode| {
///     let v = node.random().int_in(1, 9);
///     node.set("value", v);
/// });
/// # let _ = hook;
/// ```
pub struct FreshNode<'a> {
    pub(crate) grammar: &'a Grammar,
    pub(crate) program: &'a mut Program,
    pub(crate) node: NodeId,
    pub(crate) random: &'a mut Random,
    pub(crate) type_max_depth: u32,
}

impl FreshNode<'_> {
    /// The program's random source.
    ///
    /// ```
    /// let hook = xsmith::FreshHook::new(|node| { node.random().below(2); });
    /// # let _ = hook;
    /// ```
    pub fn random(&mut self) -> &mut Random {
        self.random
    }

    /// The node's id.
    ///
    /// ```
    /// let hook = xsmith::FreshHook::new(|node| assert!(node.node().index() > 0));
    /// # let _ = hook;
    /// ```
    pub fn node(&self) -> NodeId {
        self.node
    }

    /// The program the node is in.
    ///
    /// ```
    /// let hook = xsmith::FreshHook::new(|node| assert!(node.program().len() > 1));
    /// # let _ = hook;
    /// ```
    pub fn program(&self) -> &Program {
        self.program
    }

    /// The node's type, made ground now if it was still open: for
    /// productions whose data depend on their type, such as a literal of any
    /// base type. `None` for an untyped spec, and also when no ground type
    /// satisfies the constraints within `--type-max-depth` (the type is then
    /// left open, and generation reports the failure when it makes every
    /// type ground at the end).
    ///
    /// ```
    /// let hook = xsmith::FreshHook::new(|node| {
    ///     if let Some(ty) = node.concrete_type() {
    ///         let _ = ty;
    ///     }
    /// });
    /// # let _ = hook;
    /// ```
    pub fn concrete_type(&mut self) -> Option<Type> {
        let typing = self.program.typing.as_mut()?;
        let ty = typing.types[self.node.index()].clone()?;
        typing.store.concretize(&ty, self.random, self.type_max_depth).ok()
    }

    /// The value of one of the node's data fields.
    ///
    /// ```
    /// let hook = xsmith::FreshHook::new(|node| { let _ = node.get("value").clone(); });
    /// # let _ = hook;
    /// ```
    pub fn get(&self, field: &str) -> &Value {
        let index = self.data_field(field);
        match &self.program.node(self.node).slots[index] {
            Slot::Data(value) => value,
            _ => unreachable!("data_field returns the index of a data field"),
        }
    }

    /// Sets one of the node's data fields.
    ///
    /// # Panics
    ///
    /// When the production has no data field of that name: a spec bug, named
    /// in the message. (The `component!` macro checks names at compile time.)
    ///
    /// ```
    /// let hook = xsmith::FreshHook::new(|node| node.set("value", 42));
    /// # let _ = hook;
    /// ```
    pub fn set(&mut self, field: &str, value: impl Into<Value>) {
        let index = self.data_field(field);
        self.program.tree.set_data(self.node, index, value.into());
    }

    fn data_field(&self, field: &str) -> usize {
        let production = self.grammar.production(self.program.node(self.node).production);
        match production.field_index(field) {
            Some(index) if matches!(production.fields()[index].kind(), FieldKind::Data(_)) => index,
            _ => panic!(
                "the fresh hook of production `{}` uses `{field}`, which is not one of its data fields",
                production.name()
            ),
        }
    }
}
