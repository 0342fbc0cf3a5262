//! The choice log: how often each production was offered and chosen, and
//! how references were settled, over every program a generator made.

use crate::grammar::ProdId;
use crate::spec::Spec;
use crate::tree::Tree;

/// How often each production was offered as a choice (passed the filters)
/// and chosen, over every program a generator made.
///
/// ```
/// let spec = xsmith::example::spec();
/// let mut generator = xsmith::Generator::new(&spec, Default::default()).unwrap();
/// generator.generate(&mut xsmith::Random::from_seed(1)).unwrap();
/// let log = generator.choice_log();
/// assert_eq!(log.chosen(spec.root()), 1);
/// assert!(log.report(&spec).contains("Program"));
/// ```
#[derive(Clone, Debug, Default)]
pub struct ChoiceLog {
    offered: Vec<u64>,
    chosen: Vec<u64>,
    programs_with: Vec<u64>,
    programs: u64,
    references: u64,
    lifts: u64,
    backtracks: u64,
}

impl ChoiceLog {
    /// How many times `production` passed the filters for a hole, counted
    /// only while [`Generator::count_offers`](crate::Generator::count_offers)
    /// is on.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let generator = xsmith::Generator::new(&spec, Default::default()).unwrap();
    /// assert_eq!(generator.choice_log().offered(spec.root()), 0);
    /// ```
    pub fn offered(&self, production: ProdId) -> u64 {
        self.offered.get(production.index()).copied().unwrap_or(0)
    }

    /// How many times `production` was chosen.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let generator = xsmith::Generator::new(&spec, Default::default()).unwrap();
    /// assert_eq!(generator.choice_log().chosen(spec.root()), 0);
    /// ```
    pub fn chosen(&self, production: ProdId) -> u64 {
        self.chosen.get(production.index()).copied().unwrap_or(0)
    }

    /// How many finished programs contain `production` at least once.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let mut generator = xsmith::Generator::new(&spec, Default::default()).unwrap();
    /// generator.generate(&mut xsmith::Random::from_seed(2)).unwrap();
    /// assert_eq!(generator.choice_log().programs_with(spec.root()), 1);
    /// ```
    pub fn programs_with(&self, production: ProdId) -> u64 {
        self.programs_with.get(production.index()).copied().unwrap_or(0)
    }

    /// How many programs were finished.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let generator = xsmith::Generator::new(&spec, Default::default()).unwrap();
    /// assert_eq!(generator.choice_log().programs(), 0);
    /// ```
    pub fn programs(&self) -> u64 {
        self.programs
    }

    /// How many references were settled (each points at a binder).
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let generator = xsmith::Generator::new(&spec, Default::default()).unwrap();
    /// assert_eq!(generator.choice_log().references(), 0);
    /// ```
    pub fn references(&self) -> u64 {
        self.references
    }

    /// How many references got a new, lifted definition rather than an
    /// existing variable (`1 - lifts / references` is the share that reuse
    /// a variable).
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let generator = xsmith::Generator::new(&spec, Default::default()).unwrap();
    /// assert_eq!(generator.choice_log().lifts(), 0);
    /// ```
    pub fn lifts(&self) -> u64 {
        self.lifts
    }

    /// How many times generation went back to an enclosing choice because
    /// the user's filters left a hole with no choice (see
    /// [`Generator::generate`](crate::Generator::generate)).
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let generator = xsmith::Generator::new(&spec, Default::default()).unwrap();
    /// assert_eq!(generator.choice_log().backtracks(), 0);
    /// ```
    pub fn backtracks(&self) -> u64 {
        self.backtracks
    }

    /// Adds `other`'s counts to these (both logs of the same spec): the log
    /// of a batch whose programs had generators of their own, as `--swarm`
    /// programs do.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let mut total = xsmith::ChoiceLog::default();
    /// for seed in 0..3 {
    ///     let mut generator = xsmith::Generator::new(&spec, Default::default()).unwrap();
    ///     generator.generate(&mut xsmith::Random::from_seed(seed)).unwrap();
    ///     total.merge(generator.choice_log());
    /// }
    /// assert_eq!((total.programs(), total.chosen(spec.root())), (3, 3));
    /// ```
    pub fn merge(&mut self, other: &ChoiceLog) {
        for (mine, theirs) in [
            (&mut self.offered, &other.offered),
            (&mut self.chosen, &other.chosen),
            (&mut self.programs_with, &other.programs_with),
        ] {
            if mine.len() < theirs.len() {
                mine.resize(theirs.len(), 0);
            }
            for (m, t) in mine.iter_mut().zip(theirs) {
                *m += t;
            }
        }
        self.programs += other.programs;
        self.references += other.references;
        self.lifts += other.lifts;
        self.backtracks += other.backtracks;
    }

    /// A table with a row per generatable production: offered, chosen, the
    /// share of choices, and the share of programs that contain it.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let generator = xsmith::Generator::new(&spec, Default::default()).unwrap();
    /// assert!(generator.choice_log().report(&spec).starts_with("production"));
    /// ```
    pub fn report(&self, spec: &Spec) -> String {
        use std::fmt::Write;
        let width = spec
            .productions()
            .iter()
            .map(|p| p.name().len())
            .max()
            .unwrap_or(0)
            .max(10);
        let total_chosen: u64 = self.chosen.iter().sum();
        let mut out = format!(
            "{:width$}  {:>10}  {:>10}  {:>8}  {:>10}\n",
            "production", "offered", "chosen", "chosen%", "programs%"
        );
        for id in spec.grammar().ids() {
            if !spec.is_generatable(id) {
                continue;
            }
            let production = spec.production(id);
            let percent = |part: u64, whole: u64| {
                if whole == 0 {
                    0.0
                } else {
                    100.0 * part as f64 / whole as f64
                }
            };
            let _ = writeln!(
                out,
                "{:width$}  {:>10}  {:>10}  {:>7.2}%  {:>9.2}%",
                production.name(),
                self.offered(id),
                self.chosen(id),
                percent(self.chosen(id), total_chosen),
                percent(self.programs_with(id), self.programs),
            );
        }
        let _ = write!(out, "{} programs", self.programs);
        if self.backtracks > 0 {
            let _ = write!(out, ", {} ways back from a hole with no choice", self.backtracks);
        }
        out
    }

    /// An empty log for a spec of `count` productions.
    pub(crate) fn for_productions(count: usize) -> ChoiceLog {
        ChoiceLog {
            offered: vec![0; count],
            chosen: vec![0; count],
            programs_with: vec![0; count],
            programs: 0,
            references: 0,
            lifts: 0,
            backtracks: 0,
        }
    }

    /// Counts `count` ways back taken by the program being made (the log
    /// is the one from before that program, each time it goes back).
    pub(crate) fn note_backtracks(&mut self, count: usize) {
        self.backtracks += count as u64;
    }

    /// Counts `production` as offered (it passed every filter).
    pub(crate) fn offer(&mut self, production: ProdId) {
        self.offered[production.index()] += 1;
    }

    /// Counts `production` as chosen.
    pub(crate) fn choose(&mut self, production: ProdId) {
        self.chosen[production.index()] += 1;
    }

    /// Counts a settled reference, and whether it was settled by lifting.
    pub(crate) fn settle_reference(&mut self, lifted: bool) {
        self.references += 1;
        self.lifts += u64::from(lifted);
    }

    /// Counts a finished program and the productions in it.
    pub(crate) fn record_program(&mut self, spec: &Spec, tree: &Tree) {
        let mut seen = vec![false; spec.productions().len()];
        for id in tree.ids() {
            seen[tree.node(id).production.index()] = true;
        }
        for (count, seen) in self.programs_with.iter_mut().zip(seen) {
            *count += u64::from(seen);
        }
        self.programs += 1;
    }
}
