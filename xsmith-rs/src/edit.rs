//! Edits of a program, as edits of its choice sequence: the reducer, the
//! corpus builder and mutation-based guidance all change programs this way.
//!
//! A program is the sequence of choices that made it, and each subtree
//! drew a span of that sequence ([`Program::choice_span`]). An [`Edit`]
//! makes a new sequence (and, for an edit in place, a [`Splice`]) from an
//! old one; generating from it gives the edited program, which is a
//! program the fuzzer can generate like any other, so it is as valid, well
//! typed and free of undefined behaviour as every other. With local choices
//! (the default, see [`Generator::set_local_choices`](crate::Generator::set_local_choices))
//! an edit in place leaves the rest of the program as it was far more
//! often than not.
//!
//! The edits:
//! - [`Edit::replace`]: a subtree replaced in place, the rest of the
//!   program drawing what it drew before: by its smallest version (no
//!   values), by fresh draws, by a smaller subtree inside it that may stand
//!   in its place (hoisting, C-Reduce's and Xsmith's "replace by child"),
//!   or by a subtree of another program that filled a hole of the same
//!   node type ([`Edit::crossover`]);
//! - [`Edit::Delete`]: a span deleted, what follows read from where it
//!   falls (as Hypothesis does), or replaced by other values;
//! - [`Edit::DeleteElement`]: an element of a list deleted with the choice
//!   that made the list that long (so a definition no reference uses goes);
//! - [`Edit::Lower`]: one choice lowered (a smaller literal, an earlier
//!   production).
//!
//! ```
//! use xsmith::edit::{subtrees, Edit};
//! let spec = xsmith::example::spec();
//! let mut generator = xsmith::Generator::new(&spec, Default::default()).unwrap();
//! let mut random = xsmith::Random::from_seed(4);
//! random.record();
//! let program = generator.generate(&mut random).unwrap();
//! let values: Vec<u64> = random.take_recorded().unwrap().values().collect();
//! // The largest subtree but the root, replaced by its smallest version.
//! let subtree = subtrees(&spec, &program).into_iter().find(|s| s.fill.is_some_and(|f| f > 0)).unwrap();
//! let edited = Edit::replace(&subtree, Vec::new()).unwrap().apply(&values);
//! let smaller = generator.generate(&mut edited.random()).unwrap();
//! assert!(smaller.len() <= program.len());
//! ```

use std::ops::Range;
use std::sync::Arc;

use crate::choices::{Anchors, Choices, Splice};
use crate::grammar::{FieldKind, ProdId};
use crate::program::Program;
use crate::random::Random;
use crate::spec::Spec;
use crate::tree::{NodeId, Slot};

/// How many smaller subtrees [`subtrees`] lists as able to stand in for
/// each subtree, at most (the largest first).
const INNER_PER_SUBTREE: usize = 8;

/// A subtree of a program, as its edits see it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Subtree {
    /// Its root.
    pub node: NodeId,
    /// The node type of the hole it fills (its parent field's, or the
    /// spec's root).
    pub hole_type: ProdId,
    /// Its choice span.
    pub span: Range<usize>,
    /// The choices its root drew itself, at the start of its span (its
    /// production, its lists' lengths, its data): a replacement in place by
    /// these alone keeps the root and makes every child its smallest.
    pub own: Range<usize>,
    /// Where the choices drawn for its hole begin: `span.start`, or before
    /// it when its hole's type was decided first (in its parent's span, so
    /// a replacement in place keeps that decision; deleting it from a list
    /// deletes it too).
    pub decided_from: usize,
    /// The number of the fill that made it (for an edit in place); `None`
    /// for a node no fill of its own made.
    pub fill: Option<usize>,
    /// The spans of the subtrees inside it whose production may fill its
    /// hole, largest first: what may stand in its place.
    pub inner: Vec<Range<usize>>,
    /// For an element of a list: the choices its parent drew itself, the
    /// list's length among them.
    pub list_parent: Option<Range<usize>>,
    /// For an element of a list: the list, as its parent node and the
    /// index of its slot (the elements of one list share it).
    pub list: Option<(NodeId, usize)>,
    /// Whether it is an element the root's list grew by towards `--size`:
    /// the choice right before `decided_from` is the decision that grew
    /// it (deleting the element deletes that decision too).
    pub grown: bool,
}

/// The subtrees of `program` with their choice spans, largest first (one
/// per span).
///
/// ```
/// let spec = xsmith::example::spec();
/// let program = xsmith::example::program(&spec, 2);
/// let all = xsmith::edit::subtrees(&spec, &program);
/// assert!(all.windows(2).all(|w| w[0].span.len() >= w[1].span.len()));
/// ```
pub fn subtrees(spec: &Spec, program: &Program) -> Vec<Subtree> {
    let grammar = spec.grammar();
    let mut found: Vec<Subtree> = Vec::new();
    for node in program.ids() {
        let Some(span) = program.choice_span(node) else {
            continue;
        };
        if span.is_empty() || found.iter().any(|s| s.span == span) {
            continue;
        }
        let hole = hole_type(spec, program, node);
        let mut inner: Vec<Range<usize>> = Vec::new();
        let mut stack: Vec<NodeId> = program.children(node).collect();
        while let Some(at) = stack.pop() {
            stack.extend(program.children(at));
            if let Some(s) = program.choice_span(at) {
                if s.len() < span.len() && !s.is_empty() && grammar.is_subtype(program.node(at).production, hole) {
                    inner.push(s);
                }
            }
        }
        inner.sort_by_key(|s| (std::cmp::Reverse(s.len()), s.start));
        inner.dedup();
        inner.truncate(INNER_PER_SUBTREE);
        let list = program
            .node(node)
            .parent
            .zip(program.slot_holding(node))
            .filter(|&(parent, slot)| matches!(program.node(parent).slots.get(slot), Some(Slot::List(_))));
        let list_parent = list.and_then(|(parent, _)| program.own_choice_span(parent));
        let own = program
            .own_choice_span(node)
            .filter(|own| own.start == span.start && own.end <= span.end)
            .unwrap_or(span.start..span.start);
        let decided_from = program.decision_start(node).unwrap_or(span.start).min(span.start);
        let grown = list.is_some_and(|(parent, _)| parent == program.root())
            && decided_from > 0
            && program.growth_decisions.contains(&(decided_from - 1));
        found.push(Subtree {
            node,
            hole_type: hole,
            own,
            decided_from,
            grown,
            span,
            fill: program.fill_number(node),
            inner,
            list_parent,
            list,
        });
    }
    found.sort_by_key(|s| (std::cmp::Reverse(s.span.len()), s.span.start));
    found
}

/// The node type of the hole `node` filled: its parent field's, or the
/// root's.
pub(crate) fn hole_type(spec: &Spec, program: &Program, node: NodeId) -> ProdId {
    let (Some(parent), Some(index)) = (program.node(node).parent, program.slot_holding(node)) else {
        return spec.root();
    };
    match spec.production(program.node(parent).production).fields()[index].kind() {
        FieldKind::Child(t) | FieldKind::List(t, _) => *t,
        FieldKind::Data(_) => spec.root(),
    }
}

/// One edit of a choice sequence.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Edit {
    /// The subtree made by fill number `fill` (whose span ends at
    /// `resume`) drawn from `values` (then zeros) instead, the rest of the
    /// program drawing what it drew before.
    Replace {
        /// The fill that makes the subtree.
        fill: usize,
        /// The end of its span: where the rest of the program goes on.
        resume: usize,
        /// What it draws instead.
        values: Vec<u64>,
    },
    /// The values in `span` replaced by `by` (deleted, for none), what
    /// follows read from where it falls.
    Delete {
        /// The span.
        span: Range<usize>,
        /// What takes its place.
        by: Vec<u64>,
    },
    /// A list element's `span` deleted, with the choice at `length` (one of
    /// its parent's own, before the span: the list's length) lowered by
    /// one. An element that grew the list towards `--size` goes with the
    /// decision right before it: a [`Delete`](Edit::Delete) of both.
    DeleteElement {
        /// The element's span, from where its hole's choices begin
        /// ([`Subtree::decided_from`]).
        span: Range<usize>,
        /// The choice that made the list this long.
        length: usize,
    },
    /// The choice at `index` lowered to `to`.
    Lower {
        /// Its position.
        index: usize,
        /// Its new value.
        to: u64,
    },
}

/// An edited sequence: the values to replay, and a subtree replaced in
/// place.
#[derive(Clone, Debug)]
pub struct Edited {
    /// The values.
    pub values: Vec<u64>,
    /// The subtree replaced in place, if the edit is one.
    pub splice: Option<Splice>,
    /// Where the nodes of the program the values were recorded from began,
    /// to keep the replay after a splice in step with it (see [`Anchors`]).
    pub anchors: Option<Arc<Anchors>>,
}

/// Edited sequences are the same when their values and splice are: the
/// anchors are those of the program the values make, so they follow.
impl PartialEq for Edited {
    fn eq(&self, other: &Edited) -> bool {
        (&self.values, &self.splice) == (&other.values, &other.splice)
    }
}

impl Eq for Edited {}

impl std::hash::Hash for Edited {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        (&self.values, &self.splice).hash(state);
    }
}

impl Edited {
    /// The unedited sequence `values`.
    ///
    /// ```
    /// let e = xsmith::edit::Edited::plain(vec![3, 1]);
    /// assert_eq!((e.values.len(), e.splice), (2, None));
    /// ```
    pub fn plain(values: Vec<u64>) -> Edited {
        Edited {
            values,
            splice: None,
            anchors: None,
        }
    }

    /// This edit, its splice kept in step by `anchors`, those of the
    /// program its values make (see [`Anchors`]); an edit without a splice
    /// needs none.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let program = xsmith::example::program(&spec, 2);
    /// let subtree = &xsmith::edit::subtrees(&spec, &program)[0];
    /// let anchors = std::sync::Arc::new(program.anchors());
    /// let edited = xsmith::edit::Edit::replace(subtree, vec![]).unwrap().apply(&[]).anchored(&anchors);
    /// assert!(edited.anchors.is_some());
    /// ```
    pub fn anchored(mut self, anchors: &Arc<Anchors>) -> Edited {
        if self.splice.is_some() {
            self.anchors = Some(Arc::clone(anchors));
        }
        self
    }

    /// A source of choices that replays the edited sequence.
    ///
    /// ```
    /// let e = xsmith::edit::Edited::plain(vec![]);
    /// assert!(e.random().is_exhausted());
    /// ```
    pub fn random(&self) -> Random {
        let choices = Choices::from_values(&self.values);
        let random = match &self.splice {
            Some(splice) => Random::from_choices_spliced(&choices, splice.clone()),
            None => Random::from_choices(&choices),
        };
        match &self.anchors {
            Some(anchors) => random.with_anchors(Arc::clone(anchors)),
            None => random,
        }
    }
}

impl Edit {
    /// `subtree` replaced in place by `values` (its smallest version for
    /// none; a span of another subtree's values to hoist or cross over);
    /// `None` for a subtree no fill of its own made.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let program = xsmith::example::program(&spec, 2);
    /// let subtree = &xsmith::edit::subtrees(&spec, &program)[0];
    /// assert!(xsmith::edit::Edit::replace(subtree, vec![]).is_some());
    /// ```
    pub fn replace(subtree: &Subtree, values: Vec<u64>) -> Option<Edit> {
        Some(Edit::Replace {
            fill: subtree.fill?,
            resume: subtree.span.end,
            values,
        })
    }

    /// `subtree` replaced in place by fresh draws from `random`: as many
    /// values as it drew, then zeros.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let program = xsmith::example::program(&spec, 2);
    /// let subtree = &xsmith::edit::subtrees(&spec, &program)[0];
    /// let edit = xsmith::edit::Edit::fresh(subtree, &mut xsmith::Random::from_seed(1));
    /// assert!(matches!(edit, Some(xsmith::edit::Edit::Replace { .. })));
    /// ```
    pub fn fresh(subtree: &Subtree, random: &mut Random) -> Option<Edit> {
        let values = (0..subtree.span.len()).map(|_| random.next_u64()).collect();
        Edit::replace(subtree, values)
    }

    /// `subtree` replaced in place by `donor`, a subtree of another
    /// program (whose choices are `donor_values`) that filled a hole of the
    /// same node type; `None` when the node types differ. The donor's
    /// choices are replayed in the new place: where the types around it
    /// differ they make another subtree, still one the fuzzer can make.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let program = xsmith::example::program(&spec, 2);
    /// let all = xsmith::edit::subtrees(&spec, &program);
    /// let donor = all.iter().find(|s| s.hole_type == all[1].hole_type).unwrap();
    /// assert!(xsmith::edit::Edit::crossover(&all[1], donor, &[0; 1000]).is_some());
    /// ```
    pub fn crossover(subtree: &Subtree, donor: &Subtree, donor_values: &[u64]) -> Option<Edit> {
        if subtree.hole_type != donor.hole_type {
            return None;
        }
        Edit::replace(subtree, donor_values.get(donor.span.clone())?.to_vec())
    }

    /// `subtree` deleted from its list, with the choices that decided its
    /// hole's type ([`Subtree::decided_from`]) and with the choice at
    /// `length` (one of its parent's own) lowered by one; `None` for a
    /// subtree that is no list element.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let program = xsmith::example::program(&spec, 2);
    /// let all = xsmith::edit::subtrees(&spec, &program);
    /// assert!(all.iter().all(|s| xsmith::edit::Edit::delete_element(s, 0).is_some() == s.list_parent.is_some()));
    /// ```
    pub fn delete_element(subtree: &Subtree, length: usize) -> Option<Edit> {
        subtree.list_parent.as_ref()?;
        Some(Edit::DeleteElement {
            span: subtree.decided_from..subtree.span.end,
            length,
        })
    }

    /// The edited sequence of `values`.
    ///
    /// ```
    /// use xsmith::edit::Edit;
    /// let values = [5, 2, 7, 8, 9];
    /// assert_eq!(Edit::Delete { span: 2..4, by: vec![] }.apply(&values).values, [5, 2, 9]);
    /// assert_eq!(Edit::DeleteElement { span: 2..4, length: 1 }.apply(&values).values, [5, 1, 9]);
    /// assert_eq!(Edit::Lower { index: 0, to: 1 }.apply(&values).values, [1, 2, 7, 8, 9]);
    /// ```
    pub fn apply(&self, values: &[u64]) -> Edited {
        match self {
            Edit::Replace {
                fill,
                resume,
                values: by,
            } => Edited {
                values: values.to_vec(),
                splice: Some(Splice {
                    fill: *fill,
                    resume: *resume,
                    values: by.clone(),
                }),
                anchors: None,
            },
            Edit::Delete { span, by } => Edited::plain(splice(values, span, by)),
            Edit::DeleteElement { span, length } => {
                let mut out = splice(values, span, &[]);
                if *length < span.start {
                    if let Some(value) = out.get_mut(*length) {
                        *value = value.saturating_sub(1);
                    }
                }
                Edited::plain(out)
            }
            Edit::Lower { index, to } => {
                let mut out = values.to_vec();
                if let Some(value) = out.get_mut(*index) {
                    *value = (*value).min(*to);
                }
                Edited::plain(out)
            }
        }
    }
}

/// `values` with `range` replaced by `replacement`.
fn splice(values: &[u64], range: &Range<usize>, replacement: &[u64]) -> Vec<u64> {
    let end = range.end.min(values.len());
    let start = range.start.min(end);
    let mut out = Vec::with_capacity(values.len() - (end - start) + replacement.len());
    out.extend_from_slice(&values[..start]);
    out.extend_from_slice(replacement);
    out.extend_from_slice(&values[end..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::scoped;
    use crate::tree::Slot;
    use crate::{Generator, Options};

    /// The nodes of `program` from `node` down, in order, as production
    /// names and data, leaving out the subtree at `skip`.
    fn outline(spec: &Spec, program: &Program, node: NodeId, skip: Option<NodeId>, out: &mut Vec<String>) {
        if Some(node) == skip {
            return;
        }
        let data = program.node(node).slots.iter().filter_map(|slot| match slot {
            Slot::Data(value) => Some(format!("{value:?}")),
            _ => None,
        });
        let name = spec.production(program.node(node).production).name();
        out.push(format!("{name} {}", data.collect::<Vec<_>>().join(" ")));
        for child in program.children(node) {
            outline(spec, program, child, skip, out);
        }
    }

    /// Deleting a block's statement (one that holds no reference and binds
    /// nothing) leaves the rest of the program as it was: how many
    /// statements share the block's size budget is kept in its span
    /// (`Random::kept`), and each statement's share of the other half is
    /// drawn in its own. At `--size 30`, where budgets decide shapes: 808
    /// of 808 deletions; 451 of 757 when the budget was shared by the
    /// block's length, with one favoured statement drawn in its span.
    #[test]
    fn deleting_an_element_leaves_the_rest_as_it_was() {
        let spec = scoped();
        let mut generator = Generator::new(
            &spec,
            Options {
                size: 30,
                ..Options::default()
            },
        )
        .unwrap();
        let (mut cases, mut unchanged) = (0, 0);
        for seed in 0..2_000 {
            let mut random = Random::from_seed(seed);
            random.record();
            let program = generator.generate(&mut random).unwrap();
            let recorded = random.take_recorded().unwrap();
            let values: Vec<u64> = recorded.values().collect();
            let name = |id: NodeId| spec.production(program.node(id).production).name();
            let deletable = |s: &&Subtree| {
                let Some(parent) = program.node(s.node).parent else {
                    return false;
                };
                let mut inside = vec![s.node];
                let mut at = 0;
                while at < inside.len() {
                    inside.extend(program.children(inside[at]));
                    at += 1;
                }
                let plain = inside
                    .iter()
                    .all(|&n| !["Ref", "Assign", "Let", "Const"].contains(&name(n)));
                name(parent) == "Block" && program.children(parent).count() >= 2 && plain
            };
            let all = subtrees(&spec, &program);
            let candidates: Vec<&Subtree> = all.iter().filter(deletable).collect();
            if candidates.is_empty() {
                continue;
            }
            let deleted = *Random::from_seed(seed).pick(&candidates);
            // The block's length, among its own choices: `1..=4` statements.
            let own = deleted.list_parent.clone().unwrap();
            let length = own.clone().find(|&i| recorded.choices()[i].bound == 4).unwrap();
            let edited = Edit::delete_element(deleted, length).unwrap().apply(&values);
            let smaller = generator.generate(&mut edited.random()).unwrap();
            let (mut before, mut after) = (Vec::new(), Vec::new());
            outline(&spec, &program, program.root(), Some(deleted.node), &mut before);
            outline(&spec, &smaller, smaller.root(), None, &mut after);
            cases += 1;
            unchanged += usize::from(before == after);
        }
        println!("{unchanged} of {cases} unchanged");
        assert!(cases >= 100, "{cases} cases");
        assert!(unchanged * 100 >= cases * 99, "{unchanged} of {cases} unchanged");
    }

    /// An anchored replay of a subtree replaced by its smallest version
    /// draws values that, replayed in order with no anchors, make the same
    /// program: anchors move where values are read, never what generation
    /// does with them.
    #[test]
    fn the_values_an_anchored_replay_draws_replay_to_the_same_program() {
        let spec = scoped();
        let mut generator = Generator::new(&spec, Options::default()).unwrap();
        let mut replays = 0;
        for seed in 0..300 {
            let mut random = Random::from_seed(seed);
            random.record();
            let program = generator.generate(&mut random).unwrap();
            let values: Vec<u64> = random.take_recorded().unwrap().values().collect();
            let anchors = Arc::new(program.anchors());
            let all = subtrees(&spec, &program);
            let subtree = Random::from_seed(seed ^ 0xa5).pick(&all).clone();
            let Some(edit) = Edit::replace(&subtree, Vec::new()) else {
                continue;
            };
            let edited = edit.apply(&values).anchored(&anchors);
            let mut anchored = edited.random();
            anchored.record();
            let made = generator.generate(&mut anchored).unwrap();
            let drawn = anchored.take_recorded().unwrap();
            let again = generator.generate(&mut Random::from_choices(&drawn)).unwrap();
            assert_eq!(
                again.outline(spec.grammar()),
                made.outline(spec.grammar()),
                "seed {seed}, {edited:?}"
            );
            replays += 1;
        }
        assert!(replays >= 250, "{replays} replays");
    }
}
