//! The reduction passes: each makes, from the best sequence so far and the
//! choice spans of its program's subtrees, the candidates to try, most
//! promising first. A candidate is a sequence, possibly with a
//! [`Splice`]: a subtree replaced in place, the rest of the program drawing
//! what it drew before.

use std::ops::Range;

use crate::choices::Splice;

use crate::grammar::{FieldKind, ProdId};
use crate::program::Program;
use crate::spec::Spec;
use crate::tree::{NodeId, Slot};

/// How many smaller subtrees a hoisting pass tries in place of each
/// subtree, at most (the largest first).
const HOISTS_PER_SUBTREE: usize = 8;

/// The choice span of a subtree, the number of the fill that made it (for
/// a splice), the spans of the subtrees inside it whose production may
/// fill its hole, and, for an element of a list, the choices its parent
/// drew itself (among them the list's length).
#[derive(Clone, Debug)]
pub(super) struct SubtreeSpan {
    span: Range<usize>,
    fill: Option<usize>,
    inner: Vec<Range<usize>>,
    list_parent: Option<Range<usize>>,
}

/// A candidate: a sequence to replay, and a subtree of it replaced in place.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) struct Candidate {
    pub(super) values: Vec<u64>,
    pub(super) splice: Option<Splice>,
}

impl Candidate {
    fn plain(values: Vec<u64>) -> Candidate {
        Candidate { values, splice: None }
    }
}

/// A pass: candidates from the best `values` and their program's subtree
/// spans.
pub(super) type Pass = fn(&[u64], &[SubtreeSpan]) -> Vec<Candidate>;

/// The passes, in the order they are tried.
pub(super) const PASSES: [Pass; 6] = [
    shrink_subtrees_in_place,
    delete_subtrees,
    delete_list_elements,
    hoist_subtrees,
    delete_blocks,
    lower_choices,
];

/// The node type of the hole `node` filled: its parent field's, or the
/// root's.
fn hole_type(spec: &Spec, program: &Program, node: NodeId) -> ProdId {
    let (Some(parent), Some(index)) = (program.node(node).parent, program.slot_holding(node)) else {
        return spec.root();
    };
    match spec.production(program.node(parent).production).fields()[index].kind() {
        FieldKind::Child(t) | FieldKind::List(t, _) => *t,
        FieldKind::Data(_) => spec.root(),
    }
}

/// The subtrees of `program` with their choice spans, largest first (one
/// per span), each with the spans of the subtrees inside it that may stand
/// in its place.
pub(super) fn subtree_spans(spec: &Spec, program: &Program) -> Vec<SubtreeSpan> {
    let grammar = spec.grammar();
    let mut spans: Vec<SubtreeSpan> = Vec::new();
    for node in program.ids() {
        let Some(span) = program.choice_span(node) else {
            continue;
        };
        if span.is_empty() || spans.iter().any(|s| s.span == span) {
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
        inner.truncate(HOISTS_PER_SUBTREE);
        let fill = program.fill_number(node);
        let list_parent = (program.node(node).parent)
            .filter(|&parent| {
                let slot = program.slot_holding(node).map(|i| &program.node(parent).slots[i]);
                matches!(slot, Some(Slot::List(_)))
            })
            .and_then(|parent| program.own_choice_span(parent));
        spans.push(SubtreeSpan {
            span,
            fill,
            inner,
            list_parent,
        });
    }
    spans.sort_by_key(|s| (std::cmp::Reverse(s.span.len()), s.span.start));
    spans
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

/// Each subtree replaced in place (the rest of the program as it was) by
/// the smallest choices, then by each smaller subtree inside it (hoisting).
fn shrink_subtrees_in_place(values: &[u64], spans: &[SubtreeSpan]) -> Vec<Candidate> {
    let mut candidates = Vec::new();
    for subtree in spans {
        let Some(fill) = subtree.fill else {
            continue;
        };
        let replace = |replacement: &[u64]| Candidate {
            values: values.to_vec(),
            splice: Some(Splice {
                fill,
                resume: subtree.span.end,
                values: replacement.to_vec(),
            }),
        };
        candidates.push(replace(&[]));
        for inner in &subtree.inner {
            if let Some(replacement) = values.get(inner.clone()) {
                candidates.push(replace(replacement));
            }
        }
    }
    candidates
}

/// Each subtree's span deleted, then zeroed (the hole then takes its
/// smallest choices), what follows read from where it falls.
fn delete_subtrees(values: &[u64], spans: &[SubtreeSpan]) -> Vec<Candidate> {
    let mut candidates = Vec::new();
    for subtree in spans {
        candidates.push(Candidate::plain(splice(values, &subtree.span, &[])));
        let zeros = vec![0; subtree.span.len()];
        if values.get(subtree.span.clone()) != Some(&zeros[..]) {
            candidates.push(Candidate::plain(splice(values, &subtree.span, &zeros)));
        }
    }
    candidates
}

/// Each element of a list deleted with the choice that made it: its span
/// with one of its parent's own choices (the list's length among them)
/// lowered by one, or with the choice right before it (the decision that
/// grew the list by it, for an element added towards `--size`). Deleting
/// the span alone would leave the list as long, its last element drawn
/// from what follows; a definition no reference uses goes this way.
fn delete_list_elements(values: &[u64], spans: &[SubtreeSpan]) -> Vec<Candidate> {
    let mut candidates = Vec::new();
    for subtree in spans {
        let Some(parent) = &subtree.list_parent else {
            continue;
        };
        for k in parent.clone() {
            if values.get(k).is_some_and(|&v| v > 0) {
                let mut shorter = splice(values, &subtree.span, &[]);
                shorter[k] -= 1;
                candidates.push(Candidate::plain(shorter));
            }
        }
        if subtree.span.start > parent.end {
            let with_decision = subtree.span.start - 1..subtree.span.end;
            candidates.push(Candidate::plain(splice(values, &with_decision, &[])));
        }
    }
    candidates
}

/// Each subtree's span replaced by the span of a smaller subtree inside
/// it, what follows read from where it falls.
fn hoist_subtrees(values: &[u64], spans: &[SubtreeSpan]) -> Vec<Candidate> {
    let mut candidates = Vec::new();
    for subtree in spans {
        for inner in &subtree.inner {
            if let Some(replacement) = values.get(inner.clone()) {
                candidates.push(Candidate::plain(splice(values, &subtree.span, replacement)));
            }
        }
    }
    candidates
}

/// Runs of 8, 4, 2 and 1 choices deleted, from the end back (later choices
/// are usually the leaves).
fn delete_blocks(values: &[u64], _: &[SubtreeSpan]) -> Vec<Candidate> {
    let mut candidates = Vec::new();
    for size in [8, 4, 2, 1] {
        if size > values.len() {
            continue;
        }
        for start in (0..=values.len() - size).rev().step_by(size) {
            candidates.push(Candidate::plain(splice(values, &(start..start + size), &[])));
        }
    }
    candidates
}

/// Each non-zero choice lowered to zero, to half, and by one.
fn lower_choices(values: &[u64], _: &[SubtreeSpan]) -> Vec<Candidate> {
    let mut candidates = Vec::new();
    for (index, &value) in values.iter().enumerate() {
        let mut lowered = |to: u64| {
            let mut candidate = values.to_vec();
            candidate[index] = to;
            candidates.push(Candidate::plain(candidate));
        };
        if value > 0 {
            lowered(0);
        }
        if value > 2 {
            lowered(value / 2);
        }
        if value > 1 {
            lowered(value - 1);
        }
    }
    candidates
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_candidate_is_a_different_sequence_and_none_is_larger() {
        let values = [5, 0, 3, 9, 1, 1, 0, 2];
        let spans = [SubtreeSpan {
            span: 0..8,
            fill: Some(0),
            inner: vec![2..5, 5..6],
            list_parent: None,
        }];
        for pass in PASSES {
            for candidate in pass(&values, &spans) {
                assert!(candidate.splice.is_some() || candidate.values != values);
                assert!(candidate.values.len() <= values.len());
            }
        }
        let plain = |candidates: Vec<Candidate>| candidates.into_iter().map(|c| c.values).collect::<Vec<_>>();
        assert_eq!(plain(hoist_subtrees(&values, &spans)), [vec![3, 9, 1], vec![1]]);
        assert_eq!(plain(delete_subtrees(&values, &spans)), [vec![], vec![0; 8]]);
        assert_eq!(plain(lower_choices(&[4], &[])), [vec![0], vec![2], vec![3]]);
        assert_eq!(delete_blocks(&[1, 2, 3], &[]).len(), 1 + 3);
        let in_place = shrink_subtrees_in_place(&values, &spans);
        let replacements: Vec<Vec<u64>> = in_place.iter().map(|c| c.splice.clone().unwrap().values).collect();
        assert_eq!(replacements, [vec![], vec![3, 9, 1], vec![1]]);
    }

    #[test]
    fn a_list_element_goes_with_its_parents_length_choice_or_the_decision_before_it() {
        // A parent drew [production 0, length 2], then its two elements
        // 2..4 and 4..6; the second element grown (choice 1 at 4, then 5..7).
        let values = [0, 2, 7, 8, 1, 9, 9];
        let element = |span: Range<usize>| SubtreeSpan {
            span,
            fill: Some(1),
            inner: Vec::new(),
            list_parent: Some(0..2),
        };
        let plain = |candidates: Vec<Candidate>| candidates.into_iter().map(|c| c.values).collect::<Vec<_>>();
        assert_eq!(
            plain(delete_list_elements(&values, &[element(2..4)])),
            [vec![0, 1, 1, 9, 9]]
        );
        assert_eq!(
            plain(delete_list_elements(&values, &[element(5..7)])),
            [vec![0, 1, 7, 8, 1], vec![0, 2, 7, 8]]
        );
    }
}
