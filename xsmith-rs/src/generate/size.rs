//! Steering a program towards `--size` nodes: past it, every hole is
//! filled as past the depth bound (see `choose` and `construct`); a
//! program finished below it grows its root's list by one element at a
//! time (a new hole at the end, typed as the list's elements are), so
//! programs land near the size asked for at any depth. Each step is a
//! recorded decision, which a reducer may turn off.

use super::construct::field_lengths;
use super::Generator;
use crate::grammar::{FieldKind, ProdId};
use crate::hooks::ChildTypes;
use crate::program::Program;
use crate::tree::{NodeId, Slot};

impl Generator<'_> {
    /// Whether the hole at `node` is filled as past the bounds: deeper than
    /// `--max-depth`, or in a program that already has `--size` nodes.
    pub(super) fn past_bounds(&self, program: &Program, node: NodeId) -> bool {
        let size = self.options.size;
        program.node(node).depth >= self.options.max_depth || (size > 0 && program.len() >= size)
    }

    /// Where a program finished below `--size` nodes grows: the root's
    /// last list field (its slot and element node type), when its elements
    /// can be made; `None` when the program has the size asked for or
    /// cannot grow.
    pub(super) fn growth_site(&self, program: &Program) -> Option<(usize, ProdId)> {
        if self.options.size == 0 || program.len() >= self.options.size {
            return None;
        }
        let production = self.spec.production(program.node(program.root()).production);
        let (slot, field) = production
            .fields()
            .iter()
            .enumerate()
            .rev()
            .find(|(_, field)| matches!(field.kind(), FieldKind::List(..)))?;
        let FieldKind::List(element_type, _) = field.kind() else {
            unreachable!("the field was found as a list")
        };
        self.can_make(*element_type).then_some((slot, *element_type))
    }

    /// Adds a hole at the end of list slot `slot` of the root, of node
    /// type `element_type` (the [`growth_site`](Generator::growth_site)).
    pub(super) fn grow(&mut self, program: &mut Program, (slot, element_type): (usize, ProdId)) {
        let spec = self.spec;
        let root = program.root();
        let Slot::List(elements) = &program.node(root).slots[slot] else {
            unreachable!("a list field has a list slot")
        };
        let position = elements.len();
        let depth = program.node(root).depth + spec.properties(program.node(root).production).depth_increase;
        let hole = program.add_hole(element_type, Some(root), depth);
        program.tree.insert_into_list(root, slot, position, hole);
        self.type_new_element(program, root, slot, hole);
        program.pending_holes.push(hole);
    }

    /// Gives element `hole`, just added at the end of list slot `slot` of
    /// `parent`, the type the parent's `type_info` gives that element.
    fn type_new_element(&self, program: &mut Program, parent: NodeId, slot: usize, hole: NodeId) {
        let spec = self.spec;
        let id = program.node(parent).production;
        let production = spec.production(id);
        let slots = program.node(parent).slots.clone();
        let Some(typing) = program.typing.as_mut() else {
            return;
        };
        let Some(node_type) = typing.types[parent.index()].clone() else {
            return;
        };
        let field_lens = field_lengths(production, &slots);
        // The types of the first child of each earlier field, as when the
        // node was made.
        let earlier: Vec<(&str, crate::types::Type)> = production
            .fields()
            .iter()
            .zip(&slots)
            .take(slot)
            .filter_map(|(field, slot)| {
                let first = match slot {
                    Slot::Child(child) => *child,
                    Slot::List(children) => *children.first()?,
                    Slot::Data(_) => return None,
                };
                Some((field.name(), typing.types[first.index()].clone()?))
            })
            .collect();
        let field = &production.fields()[slot];
        let Slot::List(elements) = &slots[slot] else {
            unreachable!("a list field has a list slot")
        };
        let info = spec.type_info(id);
        let function = info.children.iter().find(|(name, _)| name == field.name());
        let ty = match function {
            Some((_, function)) => function(&mut ChildTypes {
                store: &mut typing.store,
                node_type,
                index: elements.len() - 1,
                len: elements.len(),
                field_lens: &field_lens,
                earlier: &earlier,
            }),
            None => typing.store.fresh(),
        };
        typing.types[hole.index()] = Some(ty);
    }
}
