//! Generation: filling the holes of a program, one at a time in a
//! deterministic order, each with a choice among the productions that pass
//! every filter.
//!
//! For the next hole (depth first, left to right) the generator makes one
//! choice per concrete production that could fill it and runs the filter
//! stages of `choose` in order: switched off (`may_be_generated`,
//! `--without`) or refused by a user filter; in conflict with the effects
//! around the hole; of a type that cannot be the hole's; a reference that
//! nothing visible fits and nothing can be lifted for; deeper than needed
//! past `--max-depth`. It weighs the rest (`choice_weight`), picks one with
//! the program's [`Random`] (with local choices, drawn first from a list
//! that depends on the hole's node type and type alone, and checked
//! alone: [`draw`]), and builds it fresh (`construct`): child
//! fields become new holes with their types, data fields are drawn, binders
//! are named, references settled (lifting a new definition when needed), and
//! the `fresh` hook runs. A node budget and a time limit end generation with
//! an error, never a hang.
//!
//! Choices are local ([`hole_type`]): every draw that decides something
//! about a subtree lies in a span of the choice sequence that holds every
//! node it reaches, so that replacing a subtree's span (a reducer's splice,
//! a mutation) leaves the rest of the program as it was. A hole's type that
//! its parent or a sibling shares is decided just before the hole's span;
//! what a subtree's types leave open is made ground when the subtree is
//! finished; under `--size` each node has a budget of its own ([`size`]).

mod backtrack;
mod choice_log;
mod choose;
mod construct;
mod cover;
mod draw;
mod error;
mod ground_fits;
mod hole_type;
mod inhabitation;
mod references;
mod size;

use std::time::Instant;

pub use backtrack::MAX_BACKTRACKS;
pub use choice_log::ChoiceLog;

pub use error::{GenerateError, Whereabouts};

use crate::effects::EffectSummaries;
use crate::grammar::ProdId;
use crate::names::Seen;
use crate::options::{OptionError, Options};
use crate::program::Program;
use crate::random::Random;
use crate::spec::Spec;
use crate::tree::NodeId;
use cover::Cover;
use inhabitation::{Finish, Inhabitation};

/// Generates programs from a spec under fixed options; reusable for any number
/// of programs (each from its own [`Random`]).
///
/// ```
/// use xsmith::{Generator, Options, Random};
/// let spec = xsmith::example::spec();
/// let mut generator = Generator::new(&spec, Options::default()).unwrap();
/// let a = generator.generate(&mut Random::from_seed(9)).unwrap();
/// let b = generator.generate(&mut Random::from_seed(9)).unwrap();
/// assert_eq!(a.outline(spec.grammar()), b.outline(spec.grammar()));
/// ```
pub struct Generator<'s> {
    spec: &'s Spec,
    options: Options,
    enabled: Vec<bool>,
    /// The definitions that may be lifted, by production.
    liftable: Vec<bool>,
    heights: Vec<u32>,
    /// The finishing height of each liftable definition.
    lift_heights: Vec<u32>,
    /// The reference choices of the current hole that only lifting can
    /// settle, with their finishing heights.
    only_by_lifting: Vec<(ProdId, Finish)>,
    /// Which productions can make which types, and how soon (typed specs).
    inhabitation: Option<Inhabitation>,
    /// The heads the current hole's type may take (typed specs).
    hole_heads: crate::types::heads::HeadSet,
    log: ChoiceLog,
    choices: Vec<ProdId>,
    /// The current hole's stable list and its weights (see [`draw`]).
    stable: Vec<ProdId>,
    stable_weights: Vec<u32>,
    /// Per production, whether it is in the stable list (a buffer, all
    /// `false` between uses; see `offer_soonest_candidates`).
    in_stable: Vec<bool>,
    /// Whether every production of the stable list fits the hole's type
    /// (a ground type, which the list was filtered by).
    stable_fits_type: bool,
    /// The stable lists' orders, remembered.
    stable_orders: draw::StableOrders,
    /// Whether every hole counts the productions it offers (see
    /// [`count_offers`](Generator::count_offers)).
    count_offers: bool,
    /// A second buffer of choices, for a stage that cannot filter in place.
    spare_choices: Vec<ProdId>,
    /// The binders in sight of the hole being filled (a buffer kept from
    /// hole to hole, as `choices` is).
    visible: Vec<Seen>,
    /// Of those, the ones a read (0) or a write (1) could take without an
    /// effect conflict (buffers kept from hole to hole).
    harmless: [Vec<Seen>; 2],
    /// What the searches of binders in sight keep from one to the next.
    in_sight: crate::names::InSight,
    /// Which productions fit holes of ground types, remembered.
    ground_fits: ground_fits::GroundFits,
    /// About how many nodes the largest of the last programs generated
    /// had: the room a new program's per-node tables start with.
    expected_nodes: usize,
    /// About how many choices the largest of the last programs drew: the
    /// room the choice trace and recording start with.
    expected_draws: usize,
    weights: Vec<u32>,
    effects: EffectSummaries,
    /// The k-paths chosen so far, when steering towards new ones.
    cover: Option<Cover>,
    /// Whether choices are local (see [`set_local_choices`](Generator::set_local_choices)).
    local_choices: bool,
    /// The ways back the program being made has taken (see [`backtrack`]).
    backtracks: Vec<backtrack::Backtrack>,
    /// Where the values a program draws are kept while it is made, kept
    /// from program to program (see [`Random::start_trace`]).
    trace_buffer: Vec<u64>,
    /// The hole being filled, and the productions a way back to it left out.
    excluded_hole: Option<NodeId>,
    excluded: Vec<ProdId>,
    /// The last hole that no production could fill.
    failed_hole: Option<NodeId>,
    /// The furthest fill that had no choice in the program being made, and
    /// how many times in a row generation has gone back without getting
    /// past it.
    failures: (usize, usize),
}

impl<'s> Generator<'s> {
    /// A generator for `spec`; fails when `--with`/`--without` name something
    /// unknown or switch off every way to finish some node type.
    ///
    /// ```
    /// use xsmith::{Generator, Options, OptionError};
    /// let spec = xsmith::example::spec();
    /// let options = Options { without: vec!["Literal".into()], ..Options::default() };
    /// assert!(matches!(Generator::new(&spec, options), Err(OptionError::Unfinishable { .. })));
    /// ```
    pub fn new(spec: &'s Spec, options: Options) -> Result<Generator<'s>, OptionError> {
        // A name is a feature group, or a production standing for itself and
        // its subtypes; it must stand for at least one generatable production.
        let groups = spec.feature_groups();
        let grammar = spec.grammar();
        let covers = |name: &str, id: ProdId| {
            spec.features(id).iter().any(|g| g == name)
                || grammar.lookup(name).is_some_and(|named| grammar.is_subtype(id, named))
        };
        let ids = || grammar.ids();
        for (option, names) in [("--with", &options.with), ("--without", &options.without)] {
            for name in names {
                if !ids().any(|id| spec.is_generatable(id) && covers(name, id)) {
                    let mut known: Vec<String> = groups.iter().map(|g| g.to_string()).collect();
                    known.extend(
                        ids()
                            .filter(|&id| spec.is_generatable(id))
                            .map(|id| spec.production(id).name().to_string()),
                    );
                    return Err(OptionError::UnknownName {
                        option,
                        name: name.clone(),
                        known,
                    });
                }
            }
        }
        let named = |names: &[String], id: ProdId| names.iter().any(|n| covers(n, id));
        let switched_on = |id: ProdId| {
            let off_by_default = spec
                .features(id)
                .iter()
                .any(|group| spec.features_off_by_default().contains(group));
            let switched_off = off_by_default || named(&options.without, id);
            !switched_off || named(&options.with, id)
        };
        let enabled: Vec<bool> = ids().map(|id| spec.is_generatable(id) && switched_on(id)).collect();
        let liftable: Vec<bool> = ids().map(|id| spec.is_liftable(id) && switched_on(id)).collect();
        let heights = grammar
            .finishing_heights(&enabled)
            .map_err(|node_type| OptionError::Unfinishable {
                node_type: spec.production(node_type).name().to_string(),
            })?;
        let inhabitation = Inhabitation::new(spec, &enabled, &liftable);
        if let Some(inhabitation) = &inhabitation {
            inhabitation.check_root(spec, &enabled)?;
        }
        Ok(Generator {
            inhabitation,
            hole_heads: crate::types::heads::ALL_HEADS,
            spec,
            options,
            enabled,
            lift_heights: ids()
                .map(|id| match liftable[id.index()] {
                    true => grammar.height_of(id, &heights),
                    false => crate::grammar::NEVER,
                })
                .collect(),
            only_by_lifting: Vec::new(),
            liftable,
            heights,
            log: ChoiceLog::for_productions(spec.productions().len()),
            choices: Vec::new(),
            stable: Vec::new(),
            stable_weights: Vec::new(),
            stable_fits_type: false,
            in_stable: Vec::new(),
            stable_orders: Default::default(),
            count_offers: false,
            spare_choices: Vec::new(),
            visible: Vec::new(),
            harmless: [Vec::new(), Vec::new()],
            in_sight: Default::default(),
            ground_fits: Default::default(),
            expected_nodes: 0,
            expected_draws: 0,
            weights: Vec::new(),
            effects: EffectSummaries::new(spec),
            cover: None,
            local_choices: true,
            backtracks: Vec::new(),
            trace_buffer: Vec::new(),
            excluded_hole: None,
            excluded: Vec::new(),
            failed_hole: None,
            failures: (0, 0),
        })
    }

    /// The options in force.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let g = xsmith::Generator::new(&spec, Default::default()).unwrap();
    /// assert_eq!(g.options().max_depth, 5);
    /// ```
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Whether `production` can be chosen under these options.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let options = xsmith::Options { without: vec!["division".into()], ..Default::default() };
    /// let g = xsmith::Generator::new(&spec, options).unwrap();
    /// assert!(!g.is_enabled(spec.lookup("Div").unwrap()));
    /// ```
    pub fn is_enabled(&self, production: ProdId) -> bool {
        self.enabled[production.index()]
    }

    /// Steers every later choice towards k-paths, of every length up to
    /// `k`, that this generator has not made yet (`--cover K`): a choice
    /// that would make one weighs 64 times more. Programs stay as
    /// conforming as any (only weights change) and their recorded choices
    /// replay them on an unsteered generator; but each program depends on
    /// those generated before it. `k == 0` stops steering.
    ///
    /// ```
    /// use xsmith::{kpaths, Generator, Random};
    /// let spec = xsmith::example::spec();
    /// let mut steered = Generator::new(&spec, Default::default()).unwrap();
    /// steered.steer_to_cover(2);
    /// let mut plain = Generator::new(&spec, Default::default()).unwrap();
    /// let mut random = Random::from_seed(1);
    /// random.record();
    /// let program = steered.generate(&mut random).unwrap();
    /// let replayed = plain.generate(&mut Random::from_choices(&random.take_recorded().unwrap())).unwrap();
    /// assert_eq!(program.outline(spec.grammar()), replayed.outline(spec.grammar()));
    /// assert_eq!(steered.covered_paths(), kpaths::paths_of(&program, 2).len());
    /// ```
    pub fn steer_to_cover(&mut self, k: usize) {
        self.cover = (k > 0).then(|| Cover::new(k));
    }

    /// Whether later programs' choices are local (the default): a hole's
    /// type that its parent or a sibling shares is decided just before the
    /// hole's span, what a subtree's types leave open is made ground when
    /// it is finished, a definition lifted for a reference is that
    /// reference's alone, `--size` gives each node a budget of its own, and
    /// a production is drawn from a list that does not depend on what is in
    /// sight, so that replacing a subtree's span (a reducer's splice, a
    /// mutation) leaves the rest of the program as it was far more often
    /// (`tests/tests/locality.rs` measures it). Off, types left open are
    /// drawn after the whole tree, as versions before 0.2 did: kept to
    /// measure the difference.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let mut g = xsmith::Generator::new(&spec, Default::default()).unwrap();
    /// g.set_local_choices(false);
    /// assert!(g.generate(&mut xsmith::Random::from_seed(1)).is_ok());
    /// ```
    pub fn set_local_choices(&mut self, on: bool) {
        self.local_choices = on;
    }

    /// Whether later programs count, at every hole, each production that
    /// passes every filter ([`ChoiceLog::offered`]); off by default, as
    /// with local choices a hole checks the production it draws and no
    /// other when that one passes. Counting never changes a program.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let mut g = xsmith::Generator::new(&spec, Default::default()).unwrap();
    /// g.count_offers(true);
    /// g.generate(&mut xsmith::Random::from_seed(1)).unwrap();
    /// assert!(g.choice_log().offered(spec.root()) >= 1);
    /// ```
    pub fn count_offers(&mut self, on: bool) {
        self.count_offers = on;
    }

    /// How many k-paths the steered programs have made so far (0 when not
    /// steering; see [`steer_to_cover`](Generator::steer_to_cover)).
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let g = xsmith::Generator::new(&spec, Default::default()).unwrap();
    /// assert_eq!(g.covered_paths(), 0);
    /// ```
    pub fn covered_paths(&self) -> usize {
        self.cover.as_ref().map_or(0, |c| c.covered().len())
    }

    /// The choice statistics so far.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let g = xsmith::Generator::new(&spec, Default::default()).unwrap();
    /// assert_eq!(g.choice_log().programs(), 0);
    /// ```
    pub fn choice_log(&self) -> &ChoiceLog {
        &self.log
    }

    /// A program that is one hole of the spec's root node type, to fill
    /// with [`fill_next_hole`](Generator::fill_next_hole).
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let g = xsmith::Generator::new(&spec, Default::default()).unwrap();
    /// let program = g.start();
    /// assert!(program.node(program.root()).is_hole);
    /// ```
    pub fn start(&self) -> Program {
        // A quarter more than expected: a program a little larger than the
        // last ones does not grow (copy) every per-node table.
        let room = self.expected_nodes + self.expected_nodes / 4;
        let mut program = Program::new(self.spec.root(), self.spec.type_system(), room);
        let root = program.root();
        program.budgets[root.index()] = self.root_budget();
        if let (Some(typing), Some(inhabitation)) = (&mut program.typing, &self.inhabitation) {
            if !inhabitation.producible().is_everything() {
                typing.store.set_producible(Some(inhabitation.producible().clone()));
            }
        }
        program
    }

    /// Generates one finished program, drawing every choice from `random`.
    ///
    /// Where a user's filters leave a hole with no choice, generation goes
    /// back and draws the enclosing node's choice again without the
    /// production it had, at most [`MAX_BACKTRACKS`] times in a row; the
    /// values the abandoned subtree drew stay in the choice sequence,
    /// inside the redrawn node's span, so that a recorded program replays.
    /// If that does not help, the error is the first hole's, naming the
    /// productions whose filters refused it.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let mut g = xsmith::Generator::new(&spec, Default::default()).unwrap();
    /// let program = g.generate(&mut xsmith::Random::from_seed(3)).unwrap();
    /// assert!(program.ids().all(|id| !program.node(id).is_hole));
    /// ```
    pub fn generate(&mut self, random: &mut Random) -> Result<Program, GenerateError> {
        let started = Instant::now();
        self.backtracks.clear();
        let first_draw = random.drawn();
        let room = self.expected_draws + self.expected_draws / 4;
        random.start_trace(room, std::mem::take(&mut self.trace_buffer));
        let log = self.log.clone();
        if let Some(cover) = &mut self.cover {
            cover.begin_program();
        }
        let mut first_error = None;
        let outcome = loop {
            let mut program = self.start();
            let error = match self.complete_by(&mut program, random, started) {
                Ok(()) => {
                    self.expected_nodes = largest_lately(self.expected_nodes, program.len());
                    self.expected_draws = largest_lately(self.expected_draws, random.drawn() - first_draw);
                    break Ok(program);
                }
                Err(error @ GenerateError::NoChoice { .. }) => error,
                Err(error) => break Err(error),
            };
            let failed = self.failed_hole.expect("a hole with no choice is noted");
            let way = self.way_back(&program, failed, random);

            let first = first_error.get_or_insert(error);
            let Some(way) = way else {
                if let GenerateError::NoChoice { backtracks, .. } = first {
                    *backtracks = self.backtracks.len();
                }
                break Err(first_error.expect("noted above"));
            };
            // The program is made again from the values drawn so far, as
            // if the abandoned attempts had not been: the statistics and
            // the k-paths steered towards are those of the program made.
            self.backtracks.push(way);
            self.log = log.clone();
            self.log.note_backtracks(self.backtracks.len());
            if let Some(cover) = &mut self.cover {
                cover.take_back_program();
            }
            random.rebuild();
        };
        self.trace_buffer = random.end_trace();
        self.backtracks.clear();
        outcome
    }

    /// Fills every hole of `program` (one from [`start`](Generator::start),
    /// or partly filled with [`fill_next_hole`](Generator::fill_next_hole))
    /// and makes the types still open ground (records and products, which
    /// wait for the whole tree), drawing every choice from `random`. On
    /// an error the program keeps what was built, holes and all, so that
    /// its [`outline`](Program::outline) shows where generation stopped.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let mut g = xsmith::Generator::new(&spec, Default::default()).unwrap();
    /// let mut program = g.start();
    /// g.complete(&mut program, &mut xsmith::Random::from_seed(3)).unwrap();
    /// assert!(!program.outline(spec.grammar()).contains("(hole"));
    /// ```
    pub fn complete(&mut self, program: &mut Program, random: &mut Random) -> Result<(), GenerateError> {
        self.complete_by(program, random, Instant::now())
    }

    /// [`complete`](Generator::complete), with the time limit counted
    /// from `started`.
    fn complete_by(
        &mut self,
        program: &mut Program,
        random: &mut Random,
        started: Instant,
    ) -> Result<(), GenerateError> {
        let mut fills: u32 = 0;
        loop {
            while self.fill_next_hole(program, random)? {
                fills = fills.wrapping_add(1);
                if fills % 256 == 0 && started.elapsed() > self.options.time_limit {
                    return Err(GenerateError::TimeLimit {
                        limit: self.options.time_limit,
                    });
                }
            }
            // Below `--size`, the root's list grows by one element. Each
            // step is a recorded decision (see `Random::decide`), so that a
            // reducer can stop the growth anywhere, and a replayed sequence
            // that is used up stops it. A replay follows the recorded
            // decisions whatever the size (the last one, at `--size`, is
            // to stop): an edit that makes a subtree larger leaves the
            // growth as it was.
            let Some(site) = self.growth_site(program) else {
                break;
            };
            random.anchor_growth(program.growth_decisions.len());
            program.growth_decisions.push(random.drawn());
            if !random.decide(program.len() < self.options.size) {
                // The decision to stop is the root's too.
                let root = program.root();
                program.note_finish_choices(root, random.drawn());
                break;
            }
            self.grow(program, site);
        }
        self.make_types_ground(program, random)?;
        self.log.record_program(self.spec, program);
        Ok(())
    }

    /// Concretizes every node's type still open once the tree is made (the
    /// records and products that [`finish_nodes`](Generator::finish_nodes)
    /// leaves), in node order, each from its type seed; without local
    /// choices, every type still open, from the choices after the tree's.
    fn make_types_ground(&self, program: &mut Program, random: &mut Random) -> Result<(), GenerateError> {
        let spec = self.spec;
        let ids: Vec<NodeId> = program.ids().collect();
        for id in ids {
            let Some(typing) = &mut program.typing else {
                return Ok(());
            };
            let Some(ty) = typing.types[id.index()].clone() else {
                continue;
            };
            if typing.store.is_ground(&ty) {
                continue;
            }
            // With local choices, from the node's type seed, not from the
            // choice sequence: choices after the tree's would shift with
            // every subtree replaced before this one.
            let mut local = hole_type::local_source(program.type_seeds[id.index()]);
            let source = match self.local_choices {
                true => &mut local,
                false => &mut *random,
            };
            let Some(typing) = &mut program.typing else {
                return Ok(());
            };
            if let Err(e) = typing.store.concretize(&ty, source, self.options.type_max_depth) {
                return Err(GenerateError::Type {
                    production: spec.production(program.node(id).production).name().to_string(),
                    message: e.to_string(),
                    at: Whereabouts::of(spec, program, id),
                });
            }
        }
        Ok(())
    }

    /// Fills the next hole of `program` (depth first, left to right); `false`
    /// when none is left.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let mut g = xsmith::Generator::new(&spec, Default::default()).unwrap();
    /// let mut program = g.start();
    /// let mut random = xsmith::Random::from_seed(4);
    /// assert!(g.fill_next_hole(&mut program, &mut random).unwrap());
    /// assert!(!program.node(program.root()).is_hole);
    /// ```
    pub fn fill_next_hole(&mut self, program: &mut Program, random: &mut Random) -> Result<bool, GenerateError> {
        let Some(hole) = program.pending_holes.pop() else {
            return Ok(false);
        };
        let fill = program.fills;
        program.fills += 1;
        program.note_fill(hole, fill);
        if random.anchoring() {
            if let Some(path) = program.path(hole) {
                random.anchor_node(&path);
            }
        }
        program.note_decision_start(hole, random.drawn());
        self.excluded_hole = None;
        // Decided in the parent's span: a splice of this hole keeps it.
        if self.local_choices {
            self.decide_shared_hole_type(program, hole, random);
        }
        if random.begin_splice(fill) {
            // The splice ends once the subtree is finished.
            program.splice_root = Some(hole);
        }
        self.take_backtracks(hole, fill, random);
        let start = random.drawn();
        if self.local_choices && self.options.size > 0 {
            self.settle_budget(program, hole, random);
        }
        let chosen = self.choose(program, hole, random)?;
        program.note_production_end(hole, random.drawn());
        self.construct(program, hole, chosen, random)?;
        program.note_own_choices(hole, start, random.drawn());
        self.finish_nodes(program, random)?;
        Ok(true)
    }
}

/// About the largest of the last few dozen programs' sizes, given the
/// last estimate and the newest size: sizes vary (calc's by ten times at
/// one depth), a table that grows copies itself, and room for a large
/// program costs nothing until it is used.
fn largest_lately(estimate: usize, newest: usize) -> usize {
    newest.max(estimate - estimate / 64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::{nodes_named, programs, scoped};
    use crate::Filter;

    fn example_programs(options: Options, count: u64) -> (Spec, Vec<Program>) {
        let spec = crate::example::spec();
        let programs = programs(&spec, options, 0..count);
        (spec, programs)
    }

    #[test]
    fn a_generator_can_be_sent_to_another_thread() {
        // `guided` keeps one in a static; campaigns move them to workers.
        fn send<T: Send>() {}
        send::<Generator<'static>>();
    }

    #[test]
    fn the_same_seed_gives_the_same_program() {
        let spec = scoped();
        let (a, b) = (
            programs(&spec, Options::default(), 0..50),
            programs(&spec, Options::default(), 0..50),
        );
        for (a, b) in a.iter().zip(&b) {
            assert_eq!(a.outline(spec.grammar()), b.outline(spec.grammar()));
        }
    }

    #[test]
    fn past_the_depth_bound_only_the_soonest_finishing_choices_are_made() {
        let options = Options {
            max_depth: 0,
            ..Options::default()
        };
        let (spec, programs) = example_programs(options, 100);
        for program in programs {
            assert_eq!(program.len(), 2, "{}", program.outline(spec.grammar()));
            let body = program.children(program.root()).next().unwrap();
            assert_eq!(spec.production(program.node(body).production).name(), "Literal");
        }
    }

    #[test]
    fn switched_off_productions_never_appear_and_every_node_is_one_choice() {
        let options = Options {
            without: vec!["division".into()],
            ..Options::default()
        };
        let spec = crate::example::spec();
        let mut generator = Generator::new(&spec, options).unwrap();
        generator.count_offers(true);
        let div = spec.lookup("Div").unwrap();
        let mut nodes = 0;
        for seed in 0..200 {
            let program = generator.generate(&mut Random::from_seed(seed)).unwrap();
            assert!(program.ids().all(|id| program.node(id).production != div));
            nodes += program.len() as u64;
        }
        let log = generator.choice_log();
        let chosen: u64 = spec.grammar().ids().map(|id| log.chosen(id)).sum();
        assert_eq!(chosen, nodes, "each node is the one choice made for its hole");
        assert_eq!((log.offered(div), log.chosen(div), log.programs()), (0, 0, 200));
        for id in spec.grammar().ids() {
            assert!(log.offered(id) >= log.chosen(id));
        }
    }

    #[test]
    fn a_hole_no_choice_can_fill_is_an_error_naming_its_node_type() {
        let mut component = crate::Component::new("refusing");
        component.production(crate::ProductionDecl::new("P").child("e", "E"));
        component.production(crate::ProductionDecl::new("E"));
        component.render("P", crate::Renderer::Template(vec![]));
        component.render("E", crate::Renderer::Template(vec![]));
        component.choice_filter("E", Filter::new(|_| false));
        let spec = Spec::assemble("P", [component]).unwrap();
        let mut generator = Generator::new(&spec, Options::default()).unwrap();
        let mut program = generator.start();
        let error = generator
            .complete(&mut program, &mut Random::from_seed(0))
            .err()
            .unwrap();
        assert!(matches!(&error, GenerateError::NoChoice { node_type, depth: 1, .. } if node_type == "E"));
        assert!(
            error.to_string().ends_with(
                "for a hole of node type `E` at depth 1 in field `e` of a `P`; refused by the choice filters of `E`"
            ),
            "{error}"
        );
        assert_eq!(
            program.outline(spec.grammar()),
            "P\n  e:\n    (hole E)\n",
            "the partial program is kept"
        );
    }

    #[test]
    fn an_error_inside_a_lifted_definition_says_so_and_going_back_redraws_the_reference() {
        // Definitions only by lifting, and their initialisers refuse every
        // choice: the first lift's initialiser fails.
        let mut refusing = crate::Component::new("refusing initialisers");
        refusing.may_be_generated("Let", false).may_be_generated("Const", false);
        let outside_definitions = || {
            Filter::new(|hole| {
                !hole
                    .parent_production()
                    .is_some_and(|p| p.name() == "Let" || p.name() == "Const")
            })
        };
        for expression in ["Lit", "Ref", "Assign", "Show", "Pair"] {
            refusing.choice_filter(expression, outside_definitions());
        }
        let spec = crate::fixtures::scoped_with(refusing);
        let mut generator = Generator::new(&spec, Options::default()).unwrap();
        // `complete` does not go back.
        let error = (0..50)
            .find_map(|seed| {
                let mut program = generator.start();
                generator.complete(&mut program, &mut Random::from_seed(seed)).err()
            })
            .expect("some program lifts a definition");
        let text = error.to_string();
        assert!(text.contains("in field `init` of a `"), "{text}");
        assert!(
            text.contains("lifted for a `Ref`") || text.contains("lifted for a `Assign`"),
            "{text}"
        );
        // `generate` goes back to the reference and draws it again.
        for seed in 0..50 {
            let program = generator.generate(&mut Random::from_seed(seed)).unwrap();
            assert!(program.ids().all(|id| program.lifted_for(id).is_none()), "seed {seed}");
        }
        assert!(generator.choice_log().backtracks() > 0);
    }

    #[test]
    fn the_node_budget_ends_generation_with_an_error() {
        let options = Options {
            max_depth: 30,
            max_nodes: 20,
            ..Options::default()
        };
        let spec = crate::example::spec();
        let mut generator = Generator::new(&spec, options).unwrap();
        let outcomes: Vec<_> = (0..50)
            .map(|seed| generator.generate(&mut Random::from_seed(seed)))
            .collect();
        assert!(outcomes
            .iter()
            .any(|o| matches!(o, Err(GenerateError::NodeBudget { max_nodes: 20 }))));
        assert!(outcomes.iter().flatten().all(|program| program.len() <= 20));
    }

    #[test]
    fn a_recorded_program_replays_and_each_subtree_spans_part_of_its_parents_choices() {
        let spec = scoped();
        let mut generator = Generator::new(&spec, Options::default()).unwrap();
        for seed in 0..100 {
            let mut random = Random::from_seed(seed);
            random.record();
            let program = generator.generate(&mut random).unwrap();
            let choices = random.take_recorded().unwrap();
            let replayed = generator.generate(&mut Random::from_choices(&choices)).unwrap();
            assert_eq!(
                replayed.outline(spec.grammar()),
                program.outline(spec.grammar()),
                "seed {seed}"
            );
            assert_eq!(program.choice_span(program.root()), Some(0..choices.len()));
            for node in program.ids() {
                let span = program
                    .choice_span(node)
                    .expect("every node of a finished program has a span");
                if let Some(parent) = program.node(node).parent {
                    let outer = program.choice_span(parent).unwrap();
                    assert!(
                        outer.start <= span.start && span.end <= outer.end,
                        "seed {seed}: {span:?} not in {outer:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn every_reference_is_settled_once_some_by_lifting() {
        let spec = scoped();
        let mut generator = Generator::new(&spec, Options::default()).unwrap();
        let mut references = 0;
        for seed in 0..100 {
            let program = generator.generate(&mut Random::from_seed(seed)).unwrap();
            for name in ["Ref", "Assign"] {
                for reference in nodes_named(&spec, &program, name) {
                    assert!(program.reference_target(reference).is_some());
                    references += 1;
                }
            }
        }
        let log = generator.choice_log();
        assert_eq!(log.references(), references);
        assert!(
            log.lifts() > 0 && log.lifts() < log.references(),
            "some reuse a variable, some lift one"
        );
    }
}
