//! Generation steered towards k-paths not covered yet (`--cover K`; after
//! Havrikov and Zeller, "Systematically Covering Input Structure"): a
//! generator keeps the k-paths (of every length up to K) of everything it
//! has chosen, and weighs each choice that would make a new one
//! [`STEER`] times heavier. Only weights change, never the filters, so a
//! steered program is as conforming as any other; and a steered draw is
//! recorded as the plain draw that makes the same choice
//! ([`Random::weighted_steered`](crate::Random::weighted_steered)), so the
//! program's choice sequence replays it without the steering.

use std::collections::HashSet;

use crate::grammar::ProdId;
use crate::kpaths::{paths_ending_with, KPath};
use crate::tree::{NodeId, Tree};

/// How many times heavier a choice that makes a new k-path weighs. Lua,
/// 2-paths, 95% of those a sample of 10,000 programs reaches: 138 programs
/// unsteered; 44 at 16, 38 at 64, 37 at 256.
pub(super) const STEER: u32 = 64;

/// The k-paths chosen so far, and their length bound.
#[derive(Clone, Debug)]
pub(super) struct Cover {
    k: usize,
    covered: HashSet<KPath>,
    /// The k-paths first chosen by the program being made, so that a
    /// program made again from its start can take them back.
    added: Vec<KPath>,
}

impl Cover {
    /// Nothing covered yet, for paths up to length `k`.
    pub(super) fn new(k: usize) -> Cover {
        Cover {
            k,
            covered: HashSet::new(),
            added: Vec::new(),
        }
    }

    /// The steered weights of `choices` (weighing `weights`) for the hole
    /// `hole` of `tree`, or `None` when no choice would make a new k-path.
    pub(super) fn steer(&self, tree: &Tree, hole: NodeId, choices: &[ProdId], weights: &[u32]) -> Option<Vec<u32>> {
        let new = |&choice: &ProdId| {
            paths_ending_with(tree, hole, choice, self.k)
                .iter()
                .any(|path| !self.covered.contains(path))
        };
        let fresh: Vec<bool> = choices.iter().map(new).collect();
        if !fresh.iter().zip(weights).any(|(&f, &w)| f && w > 0) {
            return None;
        }
        Some(
            fresh
                .iter()
                .zip(weights)
                .map(|(&f, &w)| if f { w.saturating_mul(STEER) } else { w })
                .collect(),
        )
    }

    /// Notes the k-paths `chosen` makes in the hole `hole` of `tree`.
    pub(super) fn note(&mut self, tree: &Tree, hole: NodeId, chosen: ProdId) {
        for path in paths_ending_with(tree, hole, chosen, self.k) {
            if !self.covered.contains(&path) {
                self.covered.insert(path.clone());
                self.added.push(path);
            }
        }
    }

    /// Starts a program: what it covers can be taken back.
    pub(super) fn begin_program(&mut self) {
        self.added.clear();
    }

    /// Takes back what the program being made has covered so far (it is
    /// made again from its start).
    pub(super) fn take_back_program(&mut self) {
        for path in self.added.drain(..) {
            self.covered.remove(&path);
        }
    }

    /// The k-paths covered so far.
    pub(super) fn covered(&self) -> &HashSet<KPath> {
        &self.covered
    }
}
