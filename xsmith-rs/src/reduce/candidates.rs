//! The reduction passes: each makes, from the best sequence so far and its
//! program's subtrees, the candidates to try, most promising first. A
//! candidate is an [`Edited`] sequence (see [`crate::edit`]): possibly a
//! subtree replaced in place, the rest of the program drawing what it drew
//! before.

use indexmap::IndexMap;

use crate::edit::{Edit, Edited, Subtree};
use crate::tree::NodeId;

/// A candidate: a sequence to replay, and a subtree of it replaced in place.
pub(super) type Candidate = Edited;

/// A pass: candidates from the best `values` and their program's subtrees.
pub(super) type Pass = fn(&[u64], &[Subtree]) -> Vec<Candidate>;

/// The passes, in the order they are tried.
pub(super) const PASSES: [Pass; 8] = [
    delete_element_runs,
    shrink_subtrees_in_place,
    delete_subtrees,
    delete_list_elements,
    hoist_subtrees,
    borrow_smaller_subtrees,
    delete_blocks,
    lower_choices,
];

/// The passes the text phase adds after [`PASSES`].
pub(super) const TEXT_PASSES: [Pass; 1] = [borrow_other_roots];

/// How many smaller subtrees from elsewhere in the program
/// [`borrow_smaller_subtrees`] tries in each subtree's place.
const DONORS_PER_SUBTREE: usize = 4;

/// Each subtree replaced in place (the rest of the program as it was) by
/// the smallest choices, then by its root's own choices alone (the same
/// production, lists as long and data as they were, every child at once
/// its smallest: where the smallest version of the hole loses the bug, a
/// node the bug needs keeps it while all below it shrinks in one test),
/// then by each smaller subtree inside it (hoisting).
fn shrink_subtrees_in_place(values: &[u64], subtrees: &[Subtree]) -> Vec<Candidate> {
    let mut candidates = Vec::new();
    for subtree in subtrees {
        let own = (subtree.own.end < subtree.span.end)
            .then(|| values.get(subtree.own.clone()))
            .flatten()
            .filter(|own| own.iter().any(|&v| v > 0))
            .map(<[u64]>::to_vec);
        let replacements = std::iter::once(Vec::new()).chain(own).chain(
            subtree
                .inner
                .iter()
                .filter_map(|inner| values.get(inner.clone()))
                .map(<[u64]>::to_vec),
        );
        for replacement in replacements {
            if let Some(edit) = Edit::replace(subtree, replacement) {
                candidates.push(edit.apply(values));
            }
        }
    }
    candidates
}

/// Each subtree's span deleted, then zeroed (the hole then takes its
/// smallest choices), what follows read from where it falls.
fn delete_subtrees(values: &[u64], subtrees: &[Subtree]) -> Vec<Candidate> {
    let mut candidates = Vec::new();
    for subtree in subtrees {
        let span = subtree.span.clone();
        candidates.push(
            Edit::Delete {
                span: span.clone(),
                by: Vec::new(),
            }
            .apply(values),
        );
        let zeros = vec![0; span.len()];
        if values.get(span.clone()) != Some(&zeros[..]) {
            candidates.push(Edit::Delete { span, by: zeros }.apply(values));
        }
    }
    candidates
}

/// Each element of a list deleted with the choice that made it: its span
/// (with the choices that decided its hole's type, drawn before it) with
/// one of its parent's own choices (the list's length among them) lowered
/// by one, or with the choice right before it (the decision that grew the
/// list by it, for an element added towards `--size`). Deleting the span
/// alone would leave the list as long, its last element drawn from what
/// follows, and the next element's hole decided by this one's choices; a
/// definition no reference uses goes this way. An element of the list's
/// own length (not grown) also goes with the decision that grew the first
/// element grown after it, which then takes the place of the list's last
/// own element: a list at its least length (a program's first function)
/// shrinks so too.
fn delete_list_elements(values: &[u64], subtrees: &[Subtree]) -> Vec<Candidate> {
    let mut candidates = Vec::new();
    for subtree in subtrees {
        let Some(parent) = &subtree.list_parent else {
            continue;
        };
        for length in parent.clone() {
            if values.get(length).is_some_and(|&v| v > 0) {
                candidates.extend(Edit::delete_element(subtree, length).map(|edit| edit.apply(values)));
            }
        }
        if subtree.grown {
            let with_decision = subtree.decided_from - 1..subtree.span.end;
            candidates.push(
                Edit::Delete {
                    span: with_decision,
                    by: Vec::new(),
                }
                .apply(values),
            );
        } else {
            let first_grown = (subtrees.iter())
                .filter(|s| s.grown && s.list == subtree.list)
                .filter(|s| s.decided_from > subtree.span.end)
                .min_by_key(|s| s.decided_from);
            if let Some(first_grown) = first_grown.filter(|s| s.span.end <= values.len()) {
                // The list's own elements end where its parent finished
                // (the choices between, up to the decision, are the
                // parent's finish: drawn after its last own element, which
                // the moved one now is).
                let own_end = (subtrees.iter())
                    .filter(|s| !s.grown && s.list == subtree.list)
                    .map(|s| s.span.end)
                    .max()
                    .unwrap_or(subtree.span.end);
                if own_end >= first_grown.decided_from {
                    continue;
                }
                let decision = first_grown.decided_from - 1;
                let mut out = values[..subtree.decided_from].to_vec();
                out.extend_from_slice(&values[subtree.span.end..own_end]);
                out.extend_from_slice(&values[first_grown.span.clone()]);
                out.extend_from_slice(&values[own_end..decision]);
                out.extend_from_slice(&values[first_grown.span.end..]);
                candidates.push(Candidate::plain(out));
            }
        }
    }
    candidates
}

/// Runs of consecutive elements of one list (of four or more) deleted at
/// once, as ddmin deletes chunks: halves first, then quarters, down to
/// runs of two, each with one of the parent's own choices (the list's
/// length among them) lowered by the run's length, or with the decision
/// right before it (a run of elements added towards `--size`, each after
/// a decision of its own). A program of `--size 2000` may keep dozens of
/// unused functions that one-at-a-time deletion, restarting after each,
/// has no time to remove.
fn delete_element_runs(values: &[u64], subtrees: &[Subtree]) -> Vec<Candidate> {
    let mut lists: IndexMap<(NodeId, usize), Vec<&Subtree>> = IndexMap::new();
    for subtree in subtrees {
        if let Some(list) = subtree.list {
            lists.entry(list).or_default().push(subtree);
        }
    }
    let mut candidates = Vec::new();
    for elements in lists.values_mut().filter(|elements| elements.len() >= 4) {
        elements.sort_by_key(|element| element.span.start);
        let mut run = elements.len() / 2;
        while run >= 2 {
            for chunk in elements.chunks(run).filter(|chunk| chunk.len() == run) {
                let (first, last) = (chunk[0], chunk[run - 1]);
                let span = first.decided_from..last.span.end;
                for length in first.list_parent.clone().unwrap_or_default() {
                    if values.get(length).is_some_and(|&v| v >= run as u64) && length < span.start {
                        let mut out = values.to_vec();
                        out[length] -= run as u64;
                        out.drain(span.clone());
                        candidates.push(Candidate::plain(out));
                    }
                }
                if first.grown {
                    let by = Vec::new();
                    candidates.push(
                        Edit::Delete {
                            span: span.start - 1..span.end,
                            by,
                        }
                        .apply(values),
                    );
                }
            }
            run /= 2;
        }
    }
    candidates
}

/// Each subtree's span replaced by the span of a smaller subtree inside
/// it, what follows read from where it falls.
fn hoist_subtrees(values: &[u64], subtrees: &[Subtree]) -> Vec<Candidate> {
    let mut candidates = Vec::new();
    for subtree in subtrees {
        for inner in &subtree.inner {
            if let Some(replacement) = values.get(inner.clone()) {
                let span = subtree.span.clone();
                candidates.push(
                    Edit::Delete {
                        span,
                        by: replacement.to_vec(),
                    }
                    .apply(values),
                );
            }
        }
    }
    candidates
}

/// Each subtree replaced in place by a copy of a smaller subtree from
/// elsewhere in the program that filled a hole of the same node type (the
/// smallest few first): a statement whose smallest version is still large
/// (a conditional whose blocks each need a statement) can become a copy of
/// a one-line statement, where neither deleting it (a list at its least
/// length) nor hoisting (nothing inside fits) can shrink it.
fn borrow_smaller_subtrees(values: &[u64], subtrees: &[Subtree]) -> Vec<Candidate> {
    let mut by_size: Vec<&Subtree> = subtrees.iter().collect();
    by_size.sort_by_key(|d| (d.span.len(), d.span.start));
    let mut candidates = Vec::new();
    for subtree in subtrees {
        let mut donors: Vec<&Subtree> = Vec::new();
        for &donor in by_size.iter().take_while(|d| d.span.len() < subtree.span.len()) {
            let outside = donor.span.start >= subtree.span.end || donor.span.end <= subtree.span.start;
            let repeated = donors
                .last()
                .is_some_and(|last| values.get(last.span.clone()) == values.get(donor.span.clone()));
            if donor.hole_type == subtree.hole_type && outside && !repeated {
                donors.push(donor);
                if donors.len() == DONORS_PER_SUBTREE {
                    break;
                }
            }
        }
        for donor in donors {
            if let Some(edit) = Edit::crossover(subtree, donor, values) {
                candidates.push(edit.apply(values));
            }
        }
    }
    candidates
}

/// Each subtree replaced in place by the root's own choices of a subtree
/// from elsewhere in the program that filled a hole of the same node type,
/// whatever its size (every child of the copy its smallest; the first few
/// roots that differ, in program order): a one-line definition whose
/// variable the program must print can become a statement with an empty
/// block, more choices but less text.
fn borrow_other_roots(values: &[u64], subtrees: &[Subtree]) -> Vec<Candidate> {
    let mut candidates = Vec::new();
    for subtree in subtrees {
        let own = values.get(subtree.own.clone());
        let mut roots: Vec<&[u64]> = Vec::new();
        for donor in subtrees {
            let outside = donor.span.start >= subtree.span.end || donor.span.end <= subtree.span.start;
            let Some(root) = values.get(donor.own.clone()) else {
                continue;
            };
            if donor.hole_type == subtree.hole_type && outside && Some(root) != own && !roots.contains(&root) {
                roots.push(root);
                if roots.len() == DONORS_PER_SUBTREE {
                    break;
                }
            }
        }
        for root in roots {
            if let Some(edit) = Edit::replace(subtree, root.to_vec()) {
                candidates.push(edit.apply(values));
            }
        }
    }
    candidates
}

/// Runs of 8, 4, 2 and 1 choices deleted, from the end back (later choices
/// are usually the leaves).
fn delete_blocks(values: &[u64], _: &[Subtree]) -> Vec<Candidate> {
    let mut candidates = Vec::new();
    for size in [8, 4, 2, 1] {
        if size > values.len() {
            continue;
        }
        for start in (0..=values.len() - size).rev().step_by(size) {
            candidates.push(
                Edit::Delete {
                    span: start..start + size,
                    by: Vec::new(),
                }
                .apply(values),
            );
        }
    }
    candidates
}

/// Each non-zero choice lowered to zero, to half, and by one.
fn lower_choices(values: &[u64], _: &[Subtree]) -> Vec<Candidate> {
    let mut candidates = Vec::new();
    for (index, &value) in values.iter().enumerate() {
        let mut lowered = |to: u64| candidates.push(Edit::Lower { index, to }.apply(values));
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
    use crate::grammar::ProdId;

    #[test]
    fn every_candidate_is_a_different_sequence_and_none_is_larger() {
        let values = [5, 0, 3, 9, 1, 1, 0, 2];
        let spans = [Subtree {
            node: NodeId(0),
            hole_type: ProdId(0),
            span: 0..8,
            own: 0..2,
            decided_from: 0,
            fill: Some(0),
            inner: vec![2..5, 5..6],
            list_parent: None,
            list: None,
            grown: false,
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
        assert_eq!(replacements, [vec![], vec![5, 0], vec![3, 9, 1], vec![1]]);
    }

    /// A subtree of no list, made by fill number `node`, whose root drew
    /// the first `own` choices of its `span`.
    fn subtree(node: u32, hole_type: u32, span: std::ops::Range<usize>, own: usize) -> Subtree {
        Subtree {
            node: NodeId(node),
            hole_type: ProdId(hole_type),
            decided_from: span.start,
            own: span.start..span.start + own,
            span,
            fill: Some(node as usize),
            inner: Vec::new(),
            list_parent: None,
            list: None,
            grown: false,
        }
    }

    #[test]
    fn a_subtree_borrows_a_smaller_one_of_its_node_type_from_elsewhere() {
        let values = [4, 4, 4, 4, 4, 1, 2, 9];
        // A large statement, a small one, and an expression of another
        // node type; only the large one has a smaller donor.
        let spans = [subtree(1, 0, 0..5, 0), subtree(2, 0, 5..7, 0), subtree(3, 1, 7..8, 0)];
        let borrowed = borrow_smaller_subtrees(&values, &spans);
        assert_eq!(borrowed.len(), 1);
        let splice = borrowed[0].splice.clone().unwrap();
        assert_eq!((splice.fill, splice.resume, splice.values), (1, 5, vec![1, 2]));
    }

    #[test]
    fn a_subtree_borrows_the_root_of_any_other_of_its_node_type() {
        // A one-line statement (own choices 4, 4), a larger one whose root
        // drew 1, 3 (then its children 5, 6, 7), and an expression.
        let values = [4, 4, 1, 3, 5, 6, 7, 9];
        let spans = [subtree(1, 0, 0..2, 2), subtree(2, 0, 2..7, 2), subtree(3, 1, 7..8, 1)];
        let borrowed = borrow_other_roots(&values, &spans);
        let splices: Vec<_> = borrowed.iter().map(|c| c.splice.clone().unwrap()).collect();
        // The small one takes the large one's root (more choices), and the
        // large one the small one's; the expression has no other.
        assert_eq!(splices.len(), 2);
        assert_eq!(
            (splices[0].fill, splices[0].resume, &splices[0].values),
            (1, 2, &vec![1, 3])
        );
        assert_eq!(
            (splices[1].fill, splices[1].resume, &splices[1].values),
            (2, 7, &vec![4, 4])
        );
    }

    #[test]
    fn a_list_element_goes_with_its_parents_length_choice_or_the_decision_before_it() {
        // A parent drew [production 0, length 2], then its two elements
        // 2..4 and 4..6; the second element grown (choice 1 at 4, then 5..7).
        let values = [0, 2, 7, 8, 1, 9, 9];
        let element = |decided_from: usize, span: std::ops::Range<usize>| Subtree {
            node: NodeId(1),
            hole_type: ProdId(0),
            decided_from,
            own: span.start..span.start,
            span,
            fill: Some(1),
            inner: Vec::new(),
            list_parent: Some(0..2),
            list: Some((NodeId(0), 0)),
            // The element at 5 was grown, after the decision at 4.
            grown: decided_from == 5,
        };
        let plain = |candidates: Vec<Candidate>| candidates.into_iter().map(|c| c.values).collect::<Vec<_>>();
        assert_eq!(
            plain(delete_list_elements(&values, &[element(2, 2..4)])),
            [vec![0, 1, 1, 9, 9]]
        );
        assert_eq!(
            plain(delete_list_elements(&values, &[element(5, 5..7)])),
            [vec![0, 1, 7, 8, 1], vec![0, 2, 7, 8]]
        );
        // With a grown element after it, the first also goes with that
        // one's decision (at 4), which then takes its place.
        assert_eq!(
            plain(delete_list_elements(&values, &[element(2, 2..4), element(5, 5..7)]))[..2],
            [vec![0, 1, 1, 9, 9], vec![0, 2, 9, 9]]
        );
        // A list at its least length (0 at 1: one element, 2..4), its
        // parent's finish at 4, the decision at 5 that grew 6..8: the grown
        // one takes the first's place, before the parent's finish (the
        // grown one itself goes with its decision).
        let least = [0, 0, 7, 8, 5, 1, 9, 9];
        let grown = Subtree {
            grown: true,
            ..element(6, 6..8)
        };
        assert_eq!(
            plain(delete_list_elements(&least, &[element(2, 2..4), grown])),
            [vec![0, 0, 9, 9, 5], vec![0, 0, 7, 8, 5]]
        );
        // The first element's hole type decided by the choice at 2: it
        // goes with the element, not left to decide the next one's.
        assert_eq!(
            plain(delete_list_elements(&values, &[element(2, 3..4)])),
            [vec![0, 1, 1, 9, 9]]
        );
    }

    #[test]
    fn runs_of_list_elements_go_at_once_halves_first() {
        // A parent drew [production 0, length 3] (four elements), then the
        // elements 2..3 to 5..6, then four grown, each after a decision
        // (1 at 6, 8, 10 and 12).
        let values = [0, 3, 10, 11, 12, 13, 1, 14, 1, 15, 1, 16, 1, 17];
        let element = |start: usize| Subtree {
            node: NodeId(start as u32),
            hole_type: ProdId(0),
            decided_from: start,
            span: start..start + 1,
            own: start..start,
            fill: Some(1),
            inner: Vec::new(),
            list_parent: Some(0..2),
            list: Some((NodeId(0), 0)),
            grown: start > 5,
        };
        let spans: Vec<Subtree> = [2, 3, 4, 5, 7, 9, 11, 13].into_iter().map(element).collect();
        let plain: Vec<Vec<u64>> = delete_element_runs(&values, &spans)
            .into_iter()
            .map(|c| c.values)
            .collect();
        assert_eq!(plain[0], [0, 3, 10, 11, 12, 13], "the grown half, with their decisions");
        assert_eq!(
            plain[1],
            [0, 1, 12, 13, 1, 14, 1, 15, 1, 16, 1, 17],
            "the first two, the length lowered by two"
        );
        assert!(
            plain.contains(&vec![0, 3, 10, 11, 12, 13, 1, 16, 1, 17]),
            "two grown ones"
        );
        assert!(plain.iter().all(|c| c.len() < values.len()));
        // A list of three: single deletions only (`delete_list_elements`).
        assert!(delete_element_runs(&values, &spans[..3]).is_empty());
    }
}
