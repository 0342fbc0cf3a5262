//! Building a chosen production: its node's type, its children (new holes
//! with their types), its data, its binder's fresh name or its reference's
//! target (lifting a new definition when nothing visible fits), and its
//! `fresh` hook.

use smallvec::SmallVec;

use super::references::{
    drop_refused_bindings, fitting_bindings, harmless_bindings, harmless_lift_sites, nearest_lift,
};
use super::{GenerateError, Generator, Whereabouts};
use crate::grammar::{FieldKind, ProdId};
use crate::hooks::{ChildTypes, FreshNode};
use crate::names::{anchor, binder_name, binding, enclosing_scope, visible_binders, LiftSite};
use crate::program::{Binder, Program, Scope};
use crate::random::Random;
use crate::tree::{NodeId, Slot};
use crate::types::Type;
use crate::value::Value;

impl Generator<'_> {
    /// Fills the hole at `hole` with a node of `chosen`, whose children
    /// become holes to fill later.
    pub(super) fn construct(
        &mut self,
        program: &mut Program,
        hole: NodeId,
        chosen: ProdId,
        random: &mut Random,
    ) -> Result<(), GenerateError> {
        let spec = self.spec;
        let (production, properties) = (spec.production(chosen), spec.properties(chosen));
        self.start_node(program, hole);
        let depth = program.node(hole).depth;
        let child_depth = depth + properties.depth_increase;
        let past_depth_bound = self.past_bounds(program, hole);
        let node_type = self.type_node(program, hole, chosen)?;
        let first_child = program.len();
        let mut slots: SmallVec<[Slot; 3]> = SmallVec::new();
        for field in production.fields() {
            slots.push(match field.kind() {
                FieldKind::Child(node_type) => Slot::Child(program.add_hole(*node_type, Some(hole), child_depth)),
                FieldKind::List(element_type, length) => {
                    // A list of elements nothing switched on can make stays
                    // as short as it may be (inhabitation checked that the
                    // production needs none).
                    let drawn = if past_depth_bound || !self.can_make(*element_type) {
                        length.min()
                    } else {
                        length.draw(random)
                    };
                    let count = match (&node_type, &mut program.typing) {
                        (Some(ty), Some(typing)) => properties
                            .list_lengths
                            .iter()
                            .find(|(name, _)| name == field.name())
                            .map_or(drawn, |(_, f)| f(&mut typing.store, ty, drawn)),
                        _ => drawn,
                    };
                    if count > self.options.max_nodes.saturating_sub(program.len()) {
                        return Err(GenerateError::NodeBudget {
                            max_nodes: self.options.max_nodes,
                        });
                    }
                    Slot::List(
                        (0..count)
                            .map(|_| program.add_hole(*element_type, Some(hole), child_depth))
                            .collect(),
                    )
                }
                FieldKind::Data(init) => Slot::Data(init.draw(random)),
            });
        }
        if program.len() > self.options.max_nodes {
            return Err(GenerateError::NodeBudget {
                max_nodes: self.options.max_nodes,
            });
        }
        let last_child = program.len();
        program.tree.fill(hole, chosen, slots);
        self.share_budget(program, hole, first_child..last_child, random);
        if let Some(kind) = properties.scope {
            program.names.scopes.insert(
                hole,
                Scope {
                    kind,
                    binders: Vec::new(),
                },
            );
        }
        if let Some(ty) = node_type {
            self.type_children(program, hole, chosen, ty);
        }
        self.bind_names(program, hole, chosen, random)?;
        if let Some(hook) = &properties.fresh {
            (hook.0)(&mut FreshNode {
                grammar: spec.grammar(),
                program,
                node: hole,
                random,
                type_max_depth: self.options.type_max_depth,
            });
        }
        program
            .pending_holes
            .extend((first_child..last_child).rev().map(|i| NodeId(i as u32)));
        Ok(())
    }

    /// Names a binder freshly and registers it with its scope; points a
    /// reference at a visible binder that fits, chosen at random.
    fn bind_names(
        &mut self,
        program: &mut Program,
        node: NodeId,
        chosen: ProdId,
        random: &mut Random,
    ) -> Result<(), GenerateError> {
        let spec = self.spec;
        let (production, properties) = (spec.production(chosen), spec.properties(chosen));
        if let Some(info) = &properties.binder_info {
            program.names.made += 1;
            let name = format!("v{}", program.names.made);
            let index = production
                .field_index(&info.name_field)
                .expect("assembly checks the name field");
            program.tree.set_data(node, index, Value::Str(name));
            program.names.binders.insert(
                node,
                Binder {
                    name_slot: index,
                    writable: info.writable,
                    style: info.style,
                },
            );
            if let Some(scope) = enclosing_scope(program, node) {
                let anchor = anchor(program, scope, node);
                program.names.scopes[&scope].binders.push((node, anchor));
            }
        }
        if let Some(info) = &properties.reference_info {
            let reference = chosen;
            // The generator's buffers, which keep their capacity from hole
            // to hole (a program's later references see hundreds of
            // binders).
            let (mut visible, mut bindings) =
                (std::mem::take(&mut self.visible), std::mem::take(&mut self.harmless[0]));
            visible_binders(program, node, &mut self.in_sight, &mut visible);
            let around = self.effects.around(program, node);
            harmless_bindings(&around, &visible, info.access, &mut bindings);
            drop_refused_bindings(spec, reference, &self.hole(program, node), &mut bindings);
            let fitting = fitting_bindings(
                spec,
                &bindings,
                info.access,
                reference,
                node,
                program.typing.as_mut(),
                false,
            );
            (self.visible, self.harmless[0]) = (visible, bindings);
            // Past the depth bound a reference lifts only when nothing in
            // sight fits, and then a definition that finishes soonest (the
            // choice was weighed with its height), so chains of lifts end.
            let past_bounds = self.past_bounds(program, node);
            let may_lift = !past_bounds || fitting.is_empty();
            let sites = match may_lift {
                true => harmless_lift_sites(
                    &around,
                    spec,
                    &self.liftable,
                    program,
                    node,
                    info.access,
                    self.options.max_depth,
                ),
                false => Vec::new(),
            };
            // Only definitions of a type that can be made.
            let heads = self.heads_of_node(program, node);
            let mut ground_fits = std::mem::take(&mut self.ground_fits);
            let makeable = |d: ProdId| self.lift_finish(d, heads).is_possible();
            let nearest = nearest_lift(
                spec,
                &sites,
                reference,
                node,
                program.typing.as_mut(),
                &mut ground_fits,
                makeable,
            );
            let (site, mut definitions) = match nearest {
                Some((site, definitions)) => (Some(site.clone()), definitions),
                None => (None, Vec::new()),
            };
            self.ground_fits = ground_fits;
            // Past the depth bound, only the definitions that finish soonest
            // (the height the choice was made with).
            if past_bounds {
                if let Some(least) = definitions.iter().map(|&d| self.lift_finish(d, heads)).min() {
                    definitions.retain(|&d| self.lift_finish(d, heads) == least);
                }
            }
            // Existing variables are three times as likely as a new one each,
            // so programs reuse their variables.
            let lifting = u32::from(!definitions.is_empty());
            let weights: Vec<u32> = fitting.iter().map(|_| 3).chain([lifting]).collect();
            let picked = random.weighted(&weights).ok_or_else(|| GenerateError::Type {
                production: production.name().to_string(),
                message: "no visible binding fits the reference, and none can be lifted".to_string(),
                at: Whereabouts::of(spec, program, node),
            })?;
            let (name, binder, binding_type) = match fitting.get(picked) {
                Some(&binder) => {
                    self.log.settle_reference(false);
                    let binder_type = program.typing.as_ref().and_then(|t| t.types[binder.index()].clone());
                    (binder_name(program, binder), binder, binder_type)
                }
                None => {
                    let site = site.expect("lifting was weighed only with a site");
                    let definition = *random.pick(&definitions);
                    let lifted = self.lift(program, node, &site, definition, random)?;
                    self.log.settle_reference(true);
                    let binding = binding(program, lifted);
                    (binding.name, binding.binder, binding.ty)
                }
            };
            program.names.reference_targets.insert(node, binder);
            if let (Some(typing), Some(binding_type)) = (&mut program.typing, &binding_type) {
                let ty = typing.types[node.index()].clone().expect("a typed node has a type");
                if let Err(e) = typing.store.unify(&ty, binding_type) {
                    return Err(GenerateError::Type {
                        production: production.name().to_string(),
                        message: e.to_string(),
                        at: Whereabouts::of(spec, program, node),
                    });
                }
            }
            let index = production
                .field_index(&info.name_field)
                .expect("assembly checks the name field");
            program.tree.set_data(node, index, Value::Str(name));
        }
        Ok(())
    }

    /// Inserts a new `definition` at `site`, before the child of the scope
    /// that holds `reference`, with the reference's type; its initialiser
    /// and other children become holes. Returns the new binder.
    fn lift(
        &mut self,
        program: &mut Program,
        reference: NodeId,
        site: &LiftSite,
        definition: ProdId,
        random: &mut Random,
    ) -> Result<NodeId, GenerateError> {
        // Past the bound the choice of least finishing height ends a chain
        // of lifts (see `LiftSite::depth`).
        let hole = program.add_hole(definition, Some(site.scope), site.depth);
        program.budgets[hole.index()] = program.budgets[reference.index()];
        program.names.lifted_for.insert(hole, reference);
        let start = random.drawn();
        program
            .tree
            .insert_into_list(site.scope, site.slot, site.position, hole);
        if let Some(typing) = &mut program.typing {
            typing.types[hole.index()] = typing.types[reference.index()].clone();
        }
        self.construct(program, hole, definition, random)?;
        program.note_own_choices(hole, start, random.drawn());
        Ok(hole)
    }

    /// Gives a hole being filled its node's type (unified with the hole's),
    /// or `None` for an untyped spec.
    fn type_node(&self, program: &mut Program, node: NodeId, chosen: ProdId) -> Result<Option<Type>, GenerateError> {
        let Some(typing) = &mut program.typing else {
            return Ok(None);
        };
        let production = self.spec.production(chosen);
        let info = self.spec.type_info(chosen);
        let required = typing.types[node.index()]
            .clone()
            .expect("every hole of a typed program has a type");
        let ty = (info.node_type)(&mut typing.store);
        if let Err(e) = typing.store.unify(&ty, &required) {
            return Err(GenerateError::Type {
                production: production.name().to_string(),
                message: e.to_string(),
                at: Whereabouts::of(self.spec, program, node),
            });
        }
        typing.types[node.index()] = Some(ty.clone());
        Ok(Some(ty))
    }

    /// Gives the children of a node just made their types.
    fn type_children(&self, program: &mut Program, node: NodeId, chosen: ProdId, ty: Type) {
        let production = self.spec.production(chosen);
        let info = self.spec.type_info(chosen);
        let slots = program.node(node).slots.clone();
        let typing = program.typing.as_mut().expect("only typed programs have node types");
        let field_lens = field_lengths(production, &slots);
        let mut earlier: Vec<(&str, Type)> = Vec::new();
        for (field, slot) in production.fields().iter().zip(&slots) {
            let children: &[NodeId] = match slot {
                Slot::Child(child) => std::slice::from_ref(child),
                Slot::List(children) => children,
                Slot::Data(_) => continue,
            };
            let function = info
                .children
                .iter()
                .find(|(name, _)| name == field.name())
                .map(|(_, f)| f);
            for (index, child) in children.iter().enumerate() {
                let child_type = match function {
                    Some(function) => function(&mut ChildTypes {
                        store: &mut typing.store,
                        node_type: ty.clone(),
                        index,
                        len: children.len(),
                        field_lens: &field_lens,
                        earlier: &earlier,
                    }),
                    None => typing.store.fresh(),
                };
                if index == 0 {
                    earlier.push((field.name(), child_type.clone()));
                }
                typing.types[child.index()] = Some(child_type);
            }
        }
    }
}

/// How many children each child or list field of `production` holds in
/// `slots`: what `ChildTypes::field_len` answers.
pub(super) fn field_lengths<'p>(production: &'p crate::grammar::Production, slots: &[Slot]) -> Vec<(&'p str, usize)> {
    production
        .fields()
        .iter()
        .zip(slots)
        .filter_map(|(field, slot)| match slot {
            Slot::Child(_) => Some((field.name(), 1)),
            Slot::List(children) => Some((field.name(), children.len())),
            Slot::Data(_) => None,
        })
        .collect()
}
