//! Structure-aware mutation of coverage-guided inputs (Zest's parametric
//! mutation, on the edits of [`crate::edit`]).
//!
//! A guided input is a byte string that generation reads as its choices
//! ([`Source::from_input`]). libFuzzer's own mutations flip, insert and
//! erase bytes: with local choices that re-draws one subtree when the
//! bytes fall inside its span, but an inserted or erased byte shifts every
//! choice after it, which re-draws the rest of the program. A [`Mutator`]
//! instead regenerates the input's program with its choices recorded,
//! applies one edit of a subtree (fresh draws for it, a subtree of another
//! input in its place, a list element deleted, a smaller subtree hoisted
//! in its place, a value lowered) and writes the edited sequence back as
//! bytes; half the time it makes a new program instead. Every result is an
//! input whose program the fuzzer can generate, and most of an edited one
//! is the program it was.
//!
//! ```
//! use xsmith::mutate::Mutator;
//! let spec = xsmith::example::spec();
//! let mut mutator = Mutator::new(&spec, Default::default()).unwrap();
//! let input = mutator.input_of_seed(7).unwrap();
//! let mutated = mutator.mutate(&input, 1).unwrap();
//! assert_ne!(mutated, input);
//! assert!(mutator.program_of(&mutated).is_some());
//! ```

use crate::choices::Choices;
use crate::edit::{subtrees, Edit, Edited, Subtree};
use crate::fuzzer::Source;
use crate::generate::{GenerateError, Generator};
use crate::options::{OptionError, Options};
use crate::program::Program;
use crate::random::Random;
use crate::spec::Spec;

/// The seed prefix of a guided input: [`Source::from_input`] reads its
/// first eight bytes as the seed of the draws past its other bytes.
const SEED_BYTES: usize = 8;

/// Edits guided inputs as programs (see the [module docs](self)).
pub struct Mutator<'s> {
    spec: &'s Spec,
    generator: Generator<'s>,
    /// The program of one input, known without generating it: the last
    /// mutant made, or the input a guided run last ran (see
    /// [`Mutator::remember`]).
    known: Option<Known>,
}

/// An input and the program it generates, with the program's choices.
struct Known {
    input: Vec<u8>,
    program: Program,
    choices: Choices,
}

/// One input's program: its choices and its subtrees.
struct Decoded {
    values: Vec<u64>,
    subtrees: Vec<Subtree>,
    /// Where its program's nodes began, to keep an edit's replay in step.
    anchors: std::sync::Arc<crate::Anchors>,
}

impl<'s> Mutator<'s> {
    /// A mutator for the programs of `spec` under `options` (the options
    /// the guided run generates with).
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// assert!(xsmith::mutate::Mutator::new(&spec, Default::default()).is_ok());
    /// ```
    pub fn new(spec: &'s Spec, options: Options) -> Result<Mutator<'s>, OptionError> {
        Ok(Mutator {
            spec,
            generator: Generator::new(spec, options)?,
            known: None,
        })
    }

    /// The input whose program is the program of seed `seed` (its seed
    /// prefix zero, its bytes the seed's draws).
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let mut mutator = xsmith::mutate::Mutator::new(&spec, Default::default()).unwrap();
    /// let input = mutator.input_of_seed(3).unwrap();
    /// let program = mutator.program_of(&input).unwrap();
    /// let mut generator = xsmith::Generator::new(&spec, Default::default()).unwrap();
    /// let same = generator.generate(&mut xsmith::Random::from_seed(3)).unwrap();
    /// assert_eq!(program.outline(spec.grammar()), same.outline(spec.grammar()));
    /// ```
    pub fn input_of_seed(&mut self, seed: u64) -> Result<Vec<u8>, GenerateError> {
        input_of_draws(&mut self.generator, Random::from_seed(seed), &[])
    }

    /// The program of `input`, as a guided run generates it; `None` if it
    /// cannot be generated (never, for a total spec).
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let mut mutator = xsmith::mutate::Mutator::new(&spec, Default::default()).unwrap();
    /// assert!(mutator.program_of(&[1, 2, 3]).is_some());
    /// ```
    pub fn program_of(&mut self, input: &[u8]) -> Option<Program> {
        self.generator.generate(&mut Source::from_input(input).random()).ok()
    }

    /// `input` with one edit of its program, drawn from `seed`: a new
    /// program (half the time), else fresh draws for a subtree
    /// (half the time), a list element deleted, a smaller subtree hoisted
    /// in a subtree's place, or a value lowered. `None` when the program
    /// has nothing to edit or cannot be generated.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let mut mutator = xsmith::mutate::Mutator::new(&spec, Default::default()).unwrap();
    /// let input = mutator.input_of_seed(5).unwrap();
    /// let changed = (0..20).filter(|&seed| mutator.mutate(&input, seed).is_some_and(|m| m != input)).count();
    /// assert!(changed > 10);
    /// ```
    pub fn mutate(&mut self, input: &[u8], seed: u64) -> Option<Vec<u8>> {
        let mut random = Random::from_seed(seed);
        // A new program half the time: a seed prefix alone, whose program
        // is that seed's. Edits alone only vary the programs already in
        // the corpus (three minutes on the wasm engines: 27% fewer edges
        // than random generation; a quarter new, 10%; half, 6%).
        if random.below(2) == 0 {
            return Some(random.next_u64().to_be_bytes().to_vec());
        }
        let decoded = self.decode(input)?;
        // The subtrees made by a fill of their own but the root (fresh
        // draws for the root would be a new program).
        let editable: Vec<&Subtree> = (decoded.subtrees.iter())
            .filter(|s| s.fill.is_some_and(|fill| fill > 0))
            .collect();
        let subtree = *pick(&mut random, &editable)?;
        let edit = match random.below(8) {
            0..=3 => Edit::fresh(subtree, &mut random),
            4 | 5 => {
                delete_element(subtree, &decoded.values, &mut random).or_else(|| Edit::fresh(subtree, &mut random))
            }
            6 => match subtree.inner.as_slice() {
                [] => Edit::fresh(subtree, &mut random),
                inner => {
                    let inner = pick(&mut random, inner)?.clone();
                    Edit::replace(subtree, decoded.values.get(inner)?.to_vec())
                }
            },
            _ => lower(subtree, &decoded.values, &mut random),
        }?;
        self.encode(input, &edit.apply(&decoded.values).anchored(&decoded.anchors))
    }

    /// `input` with one of its subtrees replaced by a subtree of `other`
    /// that filled a hole of the same node type (drawn from `seed`); `None`
    /// when no subtree of `other` fits one of `input`'s.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let mut mutator = xsmith::mutate::Mutator::new(&spec, Default::default()).unwrap();
    /// let (a, b) = (mutator.input_of_seed(1).unwrap(), mutator.input_of_seed(2).unwrap());
    /// let crossed = mutator.cross_over(&a, &b, 0).unwrap();
    /// assert!(mutator.program_of(&crossed).is_some());
    /// ```
    pub fn cross_over(&mut self, input: &[u8], other: &[u8], seed: u64) -> Option<Vec<u8>> {
        let (mine, theirs) = (self.decode(input)?, self.decode(other)?);
        let mut random = Random::from_seed(seed);
        // Pairs of a subtree of `input` and one of `other` that may take
        // its place (not the root: that would be `other` whole).
        let pairs: Vec<(&Subtree, &Subtree)> = (mine.subtrees.iter())
            .filter(|s| s.fill.is_some_and(|fill| fill > 0))
            .flat_map(|s| {
                (theirs.subtrees.iter())
                    .filter(move |d| d.hole_type == s.hole_type)
                    .map(move |d| (s, d))
            })
            .collect();
        let (subtree, donor) = *pick(&mut random, &pairs)?;
        let edit = Edit::crossover(subtree, donor, &theirs.values)?;
        self.encode(input, &edit.apply(&mine.values).anchored(&mine.anchors))
    }

    /// Tells the mutator that `input` generates `program` from `choices`
    /// (a guided run's harness generated it to run it), so that a mutation
    /// of `input` edits it without generating it again: libFuzzer mutates
    /// the input it ran last several times over.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let mut mutator = xsmith::mutate::Mutator::new(&spec, Default::default()).unwrap();
    /// let input = mutator.input_of_seed(5).unwrap();
    /// let mut random = xsmith::Random::from_input(input.clone());
    /// random.record();
    /// let mut generator = xsmith::Generator::new(&spec, Default::default()).unwrap();
    /// let program = generator.generate(&mut random).unwrap();
    /// let expected = mutator.mutate(&input, 3);
    /// mutator.remember(&input, program, random.take_recorded().unwrap());
    /// assert_eq!(mutator.mutate(&input, 3), expected);
    /// ```
    pub fn remember(&mut self, input: &[u8], program: Program, choices: Choices) {
        self.known = Some(Known {
            input: input.to_vec(),
            program,
            choices,
        });
    }

    /// The program of `input`, with its choices, if `input` is the mutant
    /// this mutator made last (not a new program): an edited input is made
    /// by generating its program from the edited choices, which its bytes
    /// regenerate (see [`Random::record_bytes`]). A guided run
    /// hands it to the harness ([`Harness::rendered`](crate::campaign::Harness::rendered))
    /// rather than generating it again.
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let mut mutator = xsmith::mutate::Mutator::new(&spec, Default::default()).unwrap();
    /// let input = mutator.input_of_seed(5).unwrap();
    /// // An edit (not a new program, whose input is its seed's eight bytes).
    /// let mutant = (0..).find_map(|seed| mutator.mutate(&input, seed).filter(|m| m.len() > 8)).unwrap();
    /// let (program, _) = mutator.take_program_of(&mutant).expect("the mutant made last");
    /// let again = mutator.program_of(&mutant).unwrap();
    /// assert_eq!(program.outline(spec.grammar()), again.outline(spec.grammar()));
    /// assert!(mutator.take_program_of(&mutant).is_none(), "taken");
    /// ```
    pub fn take_program_of(&mut self, input: &[u8]) -> Option<(Program, Choices)> {
        match &self.known {
            Some(known) if known.input == input => self.known.take().map(|known| (known.program, known.choices)),
            _ => None,
        }
    }

    /// `input`'s program with its choices: the one known (see
    /// [`Mutator::remember`]), else regenerated with its choices recorded.
    fn decode(&mut self, input: &[u8]) -> Option<Decoded> {
        let decoded = |program: &Program, choices: &Choices| Decoded {
            values: choices.values().collect(),
            subtrees: subtrees(self.spec, program),
            anchors: std::sync::Arc::new(program.anchors()),
        };
        if let Some(known) = self.known.as_ref().filter(|known| known.input == input) {
            return Some(decoded(&known.program, &known.choices));
        }
        let mut random = Source::from_input(input).random();
        random.record();
        let program = self.generator.generate(&mut random).ok()?;
        Some(decoded(&program, &random.take_recorded()?))
    }

    /// The input of the edited sequence: `input`'s seed prefix, then the
    /// bytes of every draw its program makes; the program is known after.
    fn encode(&mut self, input: &[u8], edited: &Edited) -> Option<Vec<u8>> {
        let prefix = input.get(..SEED_BYTES).unwrap_or(input);
        let known = encode_draws(&mut self.generator, edited.random(), prefix).ok()?;
        let input = known.input.clone();
        self.known = Some(known);
        Some(input)
    }
}

/// The guided input of the program `generator` makes from `random`: the
/// seed prefix `prefix` (zeros past its end), then the bytes of every draw
/// (see [`Random::record_bytes`]), which [`Source::from_input`] reads back
/// as the same draws.
pub(crate) fn input_of_draws(
    generator: &mut Generator,
    random: Random,
    prefix: &[u8],
) -> Result<Vec<u8>, GenerateError> {
    encode_draws(generator, random, prefix).map(|known| known.input)
}

/// [`input_of_draws`], with the program made and its choices.
fn encode_draws(generator: &mut Generator, mut random: Random, prefix: &[u8]) -> Result<Known, GenerateError> {
    random.record();
    random.record_bytes();
    let program = generator.generate(&mut random)?;
    let mut input = prefix.to_vec();
    input.resize(SEED_BYTES, 0);
    input.extend(random.take_recorded_bytes().unwrap_or_default());
    Ok(Known {
        input,
        program,
        choices: random.take_recorded().unwrap_or_default(),
    })
}

/// One of `items`, drawn from `random`; `None` when there is none.
fn pick<'a, T>(random: &mut Random, items: &'a [T]) -> Option<&'a T> {
    (!items.is_empty()).then(|| random.pick(items))
}

/// The deletion of `subtree` from its list with the choice that made the
/// list that long (one of its parent's own, drawn at random); `None` for a
/// subtree that is no list element, or a list that cannot be shorter.
fn delete_element(subtree: &Subtree, values: &[u64], random: &mut Random) -> Option<Edit> {
    let parent = subtree.list_parent.clone()?;
    let lengths: Vec<usize> = parent.filter(|&i| values.get(i).is_some_and(|&v| v > 0)).collect();
    Edit::delete_element(subtree, *pick(random, &lengths)?)
}

/// One non-zero choice of `subtree`'s span lowered to a value drawn below
/// it (a smaller literal, an earlier production); its smallest version
/// when every choice is zero.
fn lower(subtree: &Subtree, values: &[u64], random: &mut Random) -> Option<Edit> {
    let nonzero: Vec<usize> = subtree
        .span
        .clone()
        .filter(|&i| values.get(i).is_some_and(|&v| v > 0))
        .collect();
    match pick(random, &nonzero) {
        Some(&index) => Some(Edit::Lower {
            index,
            to: random.below(values[index]),
        }),
        None => Edit::replace(subtree, Vec::new()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_mutant_generates_and_almost_every_one_is_another_program() {
        let spec = crate::fixtures::scoped();
        let mut mutator = Mutator::new(&spec, Options::default()).unwrap();
        let (mut mutants, mut changed) = (0, 0);
        for seed in 0..200 {
            let input = mutator.input_of_seed(seed).unwrap();
            let before = mutator.program_of(&input).unwrap().outline(spec.grammar());
            let Some(mutant) = mutator.mutate(&input, seed) else {
                continue;
            };
            let after = mutator
                .program_of(&mutant)
                .expect("a mutant generates")
                .outline(spec.grammar());
            mutants += 1;
            changed += usize::from(after != before);
        }
        assert!(mutants >= 190, "{mutants} of 200 inputs mutated");
        assert!(
            changed * 10 >= mutants * 9,
            "{changed} of {mutants} mutants are another program"
        );
    }

    #[test]
    fn a_known_mutant_program_is_the_one_its_bytes_generate() {
        for spec in [crate::fixtures::scoped(), crate::example::spec()] {
            let mut mutator = Mutator::new(&spec, Options::default()).unwrap();
            let (mut edited, mut known) = (0, 0);
            for seed in 0..300 {
                let input = mutator.input_of_seed(seed).unwrap();
                let Some(mutant) = mutator.mutate(&input, seed) else {
                    continue;
                };
                edited += usize::from(mutant.len() > SEED_BYTES);
                let Some((program, choices)) = mutator.take_program_of(&mutant) else {
                    continue;
                };
                known += 1;
                let mut random = Source::from_input(&mutant).random();
                random.record();
                let again = mutator.generator.generate(&mut random).unwrap();
                assert_eq!(program.outline(spec.grammar()), again.outline(spec.grammar()));
                assert_eq!(choices, random.take_recorded().unwrap(), "seed {seed}");
                assert!(mutator.take_program_of(&mutant).is_none(), "taken once");
            }
            assert!(edited >= 100, "{edited} edited mutants");
            assert_eq!(known, edited, "every edited mutant's program is known");
        }
    }

    #[test]
    fn a_remembered_program_gives_the_mutants_its_regeneration_gives() {
        let spec = crate::fixtures::scoped();
        let mut fresh = Mutator::new(&spec, Options::default()).unwrap();
        let mut told = Mutator::new(&spec, Options::default()).unwrap();
        for seed in 0..50 {
            let mut input = fresh.input_of_seed(seed).unwrap();
            // A chain of mutants, each of the last, as libFuzzer makes them.
            for step in 0..5 {
                let mut random = Source::from_input(&input).random();
                random.record();
                let program = fresh.generator.generate(&mut random).unwrap();
                told.remember(&input, program, random.take_recorded().unwrap());
                let expected = fresh.mutate(&input, seed * 10 + step);
                assert_eq!(
                    told.mutate(&input, seed * 10 + step),
                    expected,
                    "seed {seed}, step {step}"
                );
                let other = fresh.input_of_seed(seed + 1000).unwrap();
                assert_eq!(
                    told.cross_over(&input, &other, step),
                    fresh.cross_over(&input, &other, step)
                );
                input = expected.unwrap_or(input);
            }
        }
    }

    #[test]
    fn the_same_input_and_seed_give_the_same_mutant() {
        let spec = crate::fixtures::scoped();
        let mut mutator = Mutator::new(&spec, Options::default()).unwrap();
        let input = mutator.input_of_seed(11).unwrap();
        assert_eq!(mutator.mutate(&input, 4), mutator.mutate(&input, 4));
        let other = mutator.input_of_seed(12).unwrap();
        assert_eq!(
            mutator.cross_over(&input, &other, 4),
            mutator.cross_over(&input, &other, 4)
        );
    }

    #[test]
    fn a_mutant_replays_as_the_edited_sequence_generates() {
        let spec = crate::fixtures::scoped();
        let mut mutator = Mutator::new(&spec, Options::default()).unwrap();
        let input = mutator.input_of_seed(21).unwrap();
        let decoded = mutator.decode(&input).unwrap();
        let subtree = decoded
            .subtrees
            .iter()
            .find(|s| s.fill.is_some_and(|f| f > 0))
            .unwrap()
            .clone();
        let edited = Edit::replace(&subtree, Vec::new()).unwrap().apply(&decoded.values);
        let expected = mutator
            .generator
            .generate(&mut edited.random())
            .unwrap()
            .outline(spec.grammar());
        let encoded = mutator.encode(&input, &edited).unwrap();
        assert_eq!(mutator.program_of(&encoded).unwrap().outline(spec.grammar()), expected);
    }
}
