//! Steering a program towards `--size` nodes. Without local choices, once
//! a program has `--size` nodes every hole left is filled as past the depth
//! bound. With local choices (see `Generator::set_local_choices`), the
//! root may have two
//! thirds of `--size` nodes (subtrees come out larger than their
//! budgets); each node's budget, less one for itself, is shared among its
//! children (half evenly, the other half to each child with one chance in
//! their number, drawn in the child's own span, where the budget it comes
//! to is kept too: replayed elsewhere, a subtree is made with the budget
//! it was made with), and a hole whose budget
//! is spent (one node or none) is filled as past the depth bound (see
//! `choose` and `construct`). A budget depends only on the node's
//! ancestors and its own draws, never on how large its siblings came out
//! or how many are left after an edit, so replacing or deleting a subtree
//! changes no other (local choices). A
//! program finished below `--size` nodes grows its root's list by one
//! element at a time (a new hole at the end, typed as the list's elements
//! are, with a budget of an eighth of the root's), so programs land near the size asked
//! for at any depth. Each step is a recorded decision, which a reducer may
//! turn off.

use super::construct::field_lengths;
use super::Generator;
use crate::grammar::{FieldKind, ProdId};
use crate::hooks::ChildTypes;
use crate::program::{Bonus, Program};
use crate::random::Random;
use crate::tree::{NodeId, Slot};

/// An element the root's list grows by may have `--size` divided by this
/// many nodes.
const GROWTH_SHARE: u32 = 8;

impl Generator<'_> {
    /// Whether the hole at `node` is filled as past the bounds: deeper than
    /// `--max-depth`, or in a program that already has `--size` nodes.
    pub(super) fn past_bounds(&self, program: &Program, node: NodeId) -> bool {
        let size = self.options.size;
        let spent = match self.local_choices {
            true => program.budgets[node.index()] <= 1,
            false => size > 0 && program.len() >= size,
        };
        program.node(node).depth >= self.options.max_depth || spent
    }

    /// The size budget of the whole program: two thirds of `--size`, or
    /// none. A hole whose budget is spent is still filled, by the smallest
    /// subtree that finishes (a node or a few), and lifted definitions come
    /// on top: subtrees end up about half as large again as their budgets.
    pub(super) fn root_budget(&self) -> u32 {
        match self.options.size {
            0 => u32::MAX,
            size => u32::try_from(size.saturating_mul(2) / 3).unwrap_or(u32::MAX),
        }
    }

    /// Shares the budget of the node at `parent`, less one for itself,
    /// among its new children `children`: with local choices, half of it
    /// goes to the children evenly, and each child may take the other half
    /// on top (a [`Bonus`], drawn in its own span when its hole is filled,
    /// one chance in the number of children), so that some paths run deep
    /// while the whole stays within the budget on average (an even split
    /// alone would bound the depth by the logarithm of `--size`). Where the
    /// parent has a list, how many children share is kept in its span
    /// ([`Random::kept`]): deleting an element leaves its siblings'
    /// budgets, and their chances, as they were.
    pub(super) fn share_budget(
        &self,
        program: &mut Program,
        parent: NodeId,
        children: std::ops::Range<usize>,
        random: &mut Random,
    ) {
        let budget = program.budgets[parent.index()];
        if budget == u32::MAX {
            for child in children {
                program.budgets[child] = u32::MAX;
            }
            return;
        }
        let count = children.len() as u64;
        let has_list = (program.node(parent).slots.iter()).any(|slot| matches!(slot, Slot::List(_)));
        let among = match self.local_choices && has_list {
            true => random.kept(count),
            false => count,
        };
        let shared = u64::from(budget.saturating_sub(1));
        let (each, bonus) = match (self.local_choices, among) {
            (_, 0 | 1) => (shared, 0),
            (true, among) => ((shared - shared / 2) / among, shared / 2),
            (false, among) => (shared / among, 0),
        };
        for child in children {
            program.budgets[child] = each as u32;
            program.bonuses[child] = Bonus {
                nodes: bonus as u32,
                among,
            };
        }
    }

    /// Settles the budget of the hole at `hole`, which is being filled:
    /// draws whether it takes the [`Bonus`] its parent offered it (a hole
    /// offered none holds the draw's place, [`Random::placeholder`]), then
    /// keeps the budget it came to in its span ([`Random::kept`], as the
    /// budget plus one: a kept 0 asks for what the place gives). So a span
    /// replayed in another place (a subtree hoisted, borrowed or crossed
    /// over, an element moved into the place of one deleted before it)
    /// makes its subtree with the budget it was made with, not the
    /// place's: moved into the first element's place, a function grown
    /// towards `--size` had the larger budget of a first element, and its
    /// expressions came out others. A replayed budget is at most the
    /// whole program's.
    pub(super) fn settle_budget(&self, program: &mut Program, hole: NodeId, random: &mut Random) {
        let Bonus { nodes, among } = program.bonuses[hole.index()];
        let budget = &mut program.budgets[hole.index()];
        if nodes == 0 {
            random.placeholder();
        } else if random.below(among) == among - 1 {
            *budget = budget.saturating_add(nodes);
        }
        let kept = random.kept(u64::from(*budget) + 1).saturating_sub(1);
        *budget = u32::try_from(kept).unwrap_or(u32::MAX).min(self.root_budget());
    }

    /// Where a program grows towards `--size` nodes: the root's last list
    /// field (its slot and element node type), when its elements can be
    /// made; `None` without `--size` or when it cannot grow. Whether it
    /// grows is a decision (see `Generator::complete`).
    pub(super) fn growth_site(&self, program: &Program) -> Option<(usize, ProdId)> {
        if self.options.size == 0 {
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
        // A budget of its own, whatever the elements before it came to.
        program.budgets[hole.index()] = (self.root_budget() / GROWTH_SHARE).max(2);
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
