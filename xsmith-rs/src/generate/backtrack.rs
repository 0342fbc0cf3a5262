//! Bounded backtracking: when a user's filters leave a hole with no
//! choice, generation redraws an enclosing choice rather than failing the
//! program.
//!
//! Inhabitation knows which productions can finish which types, but not
//! what a user's `choice_filters` will refuse where: a `Call` may be made
//! where every `FuncRef` its `callee` could take is refused. Then the hole
//! has no choice, and [`generate`](Generator::generate) goes back to the
//! node that holds it (the hole's parent; for a hole inside a lifted
//! definition, the reference it was lifted for) and draws that node's
//! choice again, without the production it had; if that hole in turn has
//! no choice, back to its own enclosing node, and so on, at most
//! [`MAX_BACKTRACKS`] times in a row without getting past the hole.
//!
//! Going back never rewinds the random source, so that a program's
//! recorded choices replay it: the program is rebuilt from the values
//! drawn so far ([`Random::rebuild`]) up to the redrawn node's choice,
//! the values its abandoned subtree drew are skipped ([`Random::jump`])
//! and stay in the choice sequence, inside the node's span, and the new
//! choice is the next value drawn. A replay of that sequence meets the
//! same empty hole at the same place, goes back the same way and skips
//! the same values. Each way back is a [`Backtrack`]: where the rebuild
//! jumps, and what the node may no longer be.

use super::Generator;
use crate::edit::hole_type;
use crate::grammar::ProdId;
use crate::program::Program;
use crate::random::Random;
use crate::tree::NodeId;

/// How many times in a row generation may go back to an enclosing choice
/// without getting past the hole that had no choice (without a later hole
/// failing instead) before it gives up with that hole's error. Each time
/// it gets past one, it may go back as many times again: a program can
/// have many places that its filters refuse (it can go back at most this
/// many times per fill, and the node budget bounds the fills).
pub const MAX_BACKTRACKS: usize = 16;

/// One way back: when hole number `fill` is about to draw its production
/// with `at` choices drawn, generation skips to choice number `resume`
/// (past the subtree it abandoned) and leaves out the productions
/// `excluded`.
#[derive(Clone, Debug)]
pub(super) struct Backtrack {
    fill: usize,
    at: usize,
    resume: usize,
    excluded: Vec<ProdId>,
}

impl Generator<'_> {
    /// Before hole `hole` (number `fill`) draws its production: if a way
    /// back starts here, skips the values it abandoned and notes the
    /// productions the hole may no longer take (see
    /// [`offer_switched_on`](Generator::offer_candidates)).
    pub(super) fn take_backtracks(&mut self, hole: NodeId, fill: usize, random: &mut Random) {
        // Positions only grow within a program, and each way back starts
        // where the one before it resumed, so at most a chain matches.
        while let Some(way) = (self.backtracks.iter()).find(|b| b.fill == fill && b.at == random.drawn()) {
            random.jump(way.resume);
            self.excluded.clone_from(&way.excluded);
            self.excluded_hole = Some(hole);
        }
    }

    /// The way back from `hole`, which no production can fill, in
    /// `program` as it stands with `random` where the failure left it:
    /// the nearest enclosing node made by a fill (a lifted definition
    /// counts as the reference it was lifted for) whose hole has some
    /// other production switched on, to be drawn again without its own;
    /// `None` when there is none or the program has gone back
    /// [`MAX_BACKTRACKS`] times in a row without getting past `hole`.
    pub(super) fn way_back(&mut self, program: &Program, hole: NodeId, random: &Random) -> Option<Backtrack> {
        let fill = program.fill_number(hole)?;
        let (furthest, in_a_row) = self.failures;
        self.failures = match fill > furthest || self.backtracks.is_empty() {
            true => (fill, 1),
            false => (furthest, in_a_row + 1),
        };
        if self.failures.1 > MAX_BACKTRACKS {
            return None;
        }
        let mut node = program.node(hole).parent?;
        loop {
            if let Some(reference) = program.lifted_for(node) {
                node = reference;
            }
            if let Some(way) = self.way_back_to(program, node, random) {
                return Some(way);
            }
            node = program.node(node).parent?;
        }
    }

    /// The way back to `node`, if a fill made it and its hole has another
    /// production switched on.
    fn way_back_to(&self, program: &Program, node: NodeId, random: &Random) -> Option<Backtrack> {
        let fill = program.fill_number(node)?;
        let (at, _) = (*program.own_choices.get(node.index())?)?;
        // What the node could not be already, when it was drawn after a
        // way back itself.
        let mut excluded = (self.backtracks.iter())
            .find(|b| b.fill == fill && b.resume == at)
            .map_or_else(Vec::new, |b| b.excluded.clone());
        excluded.push(program.node(node).production);
        let node_type = hole_type(self.spec, program, node);
        let other = (self.spec.fillers(node_type).iter()).any(|&p| self.enabled[p.index()] && !excluded.contains(&p));
        other.then_some(Backtrack {
            fill,
            at,
            resume: random.drawn(),
            excluded,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::component::{Component, ProductionDecl};
    use crate::generate::GenerateError;
    use crate::grammar::ListLength;
    use crate::options::Options;
    use crate::properties::{Filter, Piece, Renderer};
    use crate::spec::Spec;

    /// Statements that print expressions, where a call's callee is one of
    /// two functions and both refuse to be at an even depth: a `Call` at
    /// an odd depth has a callee hole that nothing may fill, which
    /// inhabitation cannot know. With `refuse_everywhere`, the functions
    /// refuse every hole and literals too.
    fn refusing_callees(refuse_everywhere: bool) -> Spec {
        let mut c = Component::new("calls");
        c.production(ProductionDecl::new("Program").list("stmts", "Stmt", ListLength::uniform(1, 4)))
            .production(ProductionDecl::new("Stmt").abstract_())
            .production(ProductionDecl::new("Print").supertype("Stmt").child("e", "Expr"))
            .production(ProductionDecl::new("Expr").abstract_())
            .production(ProductionDecl::new("Lit").supertype("Expr"))
            .production(
                ProductionDecl::new("Add")
                    .supertype("Expr")
                    .child("left", "Expr")
                    .child("right", "Expr"),
            )
            .production(
                ProductionDecl::new("Call")
                    .supertype("Expr")
                    .child("callee", "FuncRef")
                    .child("arg", "Expr"),
            )
            .production(ProductionDecl::new("FuncRef").abstract_())
            .production(ProductionDecl::new("Inc").supertype("FuncRef"))
            .production(ProductionDecl::new("Dbl").supertype("FuncRef"));
        let text = |t: &'static str| Renderer::Template(vec![Piece::Text(t)]);
        c.render("Program", Renderer::Template(vec![Piece::Field("stmts")]))
            .render("Print", Renderer::Template(vec![Piece::Field("e")]))
            .render("Lit", text("1"))
            .render(
                "Add",
                Renderer::Template(vec![Piece::Field("left"), Piece::Text("+"), Piece::Field("right")]),
            )
            .render(
                "Call",
                Renderer::Template(vec![Piece::Field("callee"), Piece::Field("arg")]),
            )
            .render("Inc", text("inc"))
            .render("Dbl", text("dbl"));
        for function in ["Inc", "Dbl"] {
            c.choice_filter(
                function,
                Filter::new(move |hole| !refuse_everywhere && hole.depth() % 2 == 1),
            );
        }
        if refuse_everywhere {
            c.choice_filter("Lit", Filter::new(|_| false));
        }
        Spec::assemble("Program", [c]).unwrap()
    }

    #[test]
    fn filters_that_refuse_every_choice_somewhere_are_backtracked_past() {
        let spec = refusing_callees(false);
        let mut generator = Generator::new(&spec, Options::default()).unwrap();
        let (inc, dbl) = (spec.lookup("Inc").unwrap(), spec.lookup("Dbl").unwrap());
        let mut calls = 0;
        for seed in 0..10_000 {
            let program = generator
                .generate(&mut Random::from_seed(seed))
                .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            for id in program.ids() {
                let production = program.node(id).production;
                if production == inc || production == dbl {
                    assert_eq!(program.node(id).depth % 2, 1, "seed {seed}: the filters hold");
                    calls += 1;
                }
            }
        }
        let log = generator.choice_log();
        assert!(
            calls > 1000 && log.backtracks() > 1000,
            "{calls} calls, {} backtracks",
            log.backtracks()
        );
    }

    #[test]
    fn a_program_made_by_going_back_replays_from_its_choices() {
        let spec = refusing_callees(false);
        let mut generator = Generator::new(&spec, Options::default()).unwrap();
        let mut backtracked = 0;
        for seed in 0..500 {
            let before = generator.choice_log().backtracks();
            let mut random = Random::from_seed(seed);
            random.record();
            let program = generator.generate(&mut random).unwrap();
            backtracked += u64::from(generator.choice_log().backtracks() > before);
            let choices = random.take_recorded().unwrap();
            assert_eq!(program.choice_span(program.root()).unwrap().end, choices.len());
            let replayed = generator.generate(&mut Random::from_choices(&choices)).unwrap();
            assert_eq!(
                replayed.outline(spec.grammar()),
                program.outline(spec.grammar()),
                "seed {seed}"
            );
            let again = generator.generate(&mut Random::from_seed(seed)).unwrap();
            assert_eq!(
                again.outline(spec.grammar()),
                program.outline(spec.grammar()),
                "seed {seed}"
            );
            let nodes = program.len() as u64;
            let log = generator.choice_log();
            assert!(log.chosen(spec.root()) >= 1 && nodes > 1);
        }
        assert!(backtracked > 50, "{backtracked} of 500 programs went back");
    }

    #[test]
    fn a_steered_program_that_went_back_covers_only_its_own_paths() {
        let spec = refusing_callees(false);
        let mut steered = Generator::new(&spec, Options::default()).unwrap();
        steered.steer_to_cover(2);
        let mut plain = Generator::new(&spec, Options::default()).unwrap();
        let mut paths = std::collections::HashSet::new();
        for seed in 0..200 {
            let mut random = Random::from_seed(seed);
            random.record();
            let program = steered.generate(&mut random).unwrap();
            paths.extend(crate::kpaths::paths_of(&program, 2));
            assert_eq!(steered.covered_paths(), paths.len(), "seed {seed}");
            let replayed = plain
                .generate(&mut Random::from_choices(&random.take_recorded().unwrap()))
                .unwrap();
            assert_eq!(
                replayed.outline(spec.grammar()),
                program.outline(spec.grammar()),
                "seed {seed}"
            );
        }
        assert!(steered.choice_log().backtracks() > 0);
    }

    #[test]
    fn filters_that_refuse_everything_fail_naming_the_filters_production() {
        let spec = refusing_callees(true);
        let options = Options {
            without: vec!["Add".into()],
            ..Options::default()
        };
        let mut generator = Generator::new(&spec, options).unwrap();
        let errors: Vec<GenerateError> = (0..200)
            .filter_map(|seed| generator.generate(&mut Random::from_seed(seed)).err())
            .collect();
        assert_eq!(errors.len(), 200, "no program can be made");
        for error in errors {
            let text = error.to_string();
            assert!(
                matches!(&error, GenerateError::NoChoice { node_type, refused_by, backtracks, .. }
                    if node_type == "FuncRef" && refused_by == &["Inc", "Dbl"] && *backtracks >= 1),
                "{text}"
            );
            assert!(
                text.contains("in field `callee` of a `Call`; refused by the choice filters of `Inc`, `Dbl`"),
                "{text}"
            );
        }
    }
}
