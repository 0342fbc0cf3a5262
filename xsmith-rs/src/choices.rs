//! A program's choice sequence: every draw it made from its
//! [`Random`](crate::Random), each with the bound it was drawn below (the
//! "parameters" of Zest, the "choice sequence" of Hypothesis).
//!
//! A program is its choice sequence: replaying the sequence gives the
//! byte-identical program, and any sequence (truncated, mutated, random)
//! gives a valid program, since a replayed value is reduced below the bound
//! asked for and an exhausted sequence gives the smallest choice, zero. So
//! a reducer may shrink the sequence as it likes and the generator keeps
//! every candidate conforming.
//!
//! On disk a sequence is a small text file: a version line, then one
//! choice a line, `value` or `value/bound` (the bound is informative: a
//! replay reads only the values).

use std::fmt;

/// One draw: the value drawn and the bound it was drawn below (`0` for a
/// draw of 64 raw bits).
///
/// ```
/// let choice = xsmith::Choice { value: 2, bound: 5 };
/// assert!(choice.value < choice.bound);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Choice {
    /// The value drawn (below `bound`, when it is not 0).
    pub value: u64,
    /// The bound it was drawn below; `0` for 64 raw bits.
    pub bound: u64,
}

/// A choice sequence.
///
/// Sequences are ordered shortlex, as a reducer wants them: a shorter
/// sequence is smaller, and among sequences of one length the one with the
/// smaller value at the first difference.
///
/// ```
/// use xsmith::{Choice, Choices};
/// let short = Choices::from_values(&[9]);
/// let long = Choices::from_values(&[0, 0]);
/// assert!(short < long);
/// assert!(Choices::from_values(&[1, 5]) < Choices::from_values(&[2, 0]));
/// let text = short.to_text();
/// assert_eq!(Choices::parse(&text).unwrap(), short);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Choices {
    choices: Vec<Choice>,
}

/// A replacement of one subtree's choices in a replay, for a reducer that
/// wants a subtree smaller while everything after it stays as it was: when
/// the generator comes to fill hole number `fill` (counting from 0, in the
/// order holes are filled), the subtree that grows there draws `values`
/// (then zeros) instead of the sequence's, and once it is finished the
/// replay goes on at position `resume` of the sequence (the end of the
/// subtree's original span).
///
/// ```
/// let spec = xsmith::example::spec();
/// let mut generator = xsmith::Generator::new(&spec, Default::default()).unwrap();
/// let mut random = xsmith::Random::from_seed(8);
/// random.record();
/// let program = generator.generate(&mut random).unwrap();
/// let choices = random.take_recorded().unwrap();
/// // The root's body (the second hole filled) made as small as can be.
/// let body = program.children(program.root()).next().unwrap();
/// let span = program.choice_span(body).unwrap();
/// let splice = xsmith::Splice { fill: 1, resume: span.end, values: vec![] };
/// let mut spliced = xsmith::Random::from_choices_spliced(&choices, splice);
/// let smaller = generator.generate(&mut spliced).unwrap();
/// assert!(smaller.len() <= program.len());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Splice {
    /// The number of the hole whose subtree is replaced.
    pub fill: usize,
    /// Where the replay goes on once that subtree is finished.
    pub resume: usize,
    /// The values the subtree draws (zeros after them).
    pub values: Vec<u64>,
}

/// Where each node of a program (but those of lifted definitions) and each
/// decision to grow the root's list (see `--size`) began in its choice
/// sequence: what lets a replay of an edited sequence stay in step with the
/// program it was edited from.
///
/// A replay reads its values in order, so a node outside an edit that draws
/// more or fewer values than before (it lifts a definition, now that a
/// variable it could read is gone; its production changed) would move
/// every later draw onto other values, and the rest of the program would
/// change. With anchors ([`Random::with_anchors`](crate::Random::with_anchors)),
/// once its [`Splice`] is finished, the replay goes, at each hole, to where
/// the node in its place (the same slots and indexes from the root, lifted
/// definitions not counted) began in the original program; at each type
/// seed a finished node draws, to where the node in its place drew its
/// own (a parent's seed, drawn after its last child, stays where it was
/// when that child changed and drew more or fewer values); and at each
/// decision to grow, to where the original decided: a change stays within
/// the nodes it concerns.
///
/// A node in the place of one of the original also keeps that one's
/// production while it passes there, and reads its next value where that
/// one's draws of it ended: a drawn value is a ticket among the
/// productions' weights, and a weight that depends on the context (a
/// reference is likelier where a variable of its type is in sight) would
/// otherwise move the tickets of every production at holes the edit never
/// touched.
///
/// The values an anchored replay draws (a kept production as its first
/// ticket among the weights the replay met), replayed in order without
/// anchors, make the same program: a program stays its choice sequence. Size
/// budgets need no anchors: how many children share a node's budget is
/// kept in its span ([`Random::kept`](crate::Random::kept)) and each
/// child's extra share is drawn in its own, so an edit that deletes a list
/// element leaves its siblings' budgets as they were.
/// Deletions are not anchored: anchoring the siblings after a
/// deleted element (tried on the five reduced C findings of the tcc bug)
/// left four results as they were and one 40% larger.
///
/// ```
/// let spec = xsmith::example::spec();
/// let mut generator = xsmith::Generator::new(&spec, Default::default()).unwrap();
/// let mut random = xsmith::Random::from_seed(8);
/// random.record();
/// let program = generator.generate(&mut random).unwrap();
/// let choices = random.take_recorded().unwrap();
/// let body = program.children(program.root()).next().unwrap();
/// let span = program.choice_span(body).unwrap();
/// let splice = xsmith::Splice { fill: program.fill_number(body).unwrap(), resume: span.end, values: vec![] };
/// let anchors = program.anchors();
/// let mut spliced = xsmith::Random::from_choices_spliced(&choices, splice).with_anchors(anchors);
/// assert!(generator.generate(&mut spliced).unwrap().len() <= program.len());
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Anchors {
    /// Where each node began (the first choice drawn for its hole), by its
    /// path (see `Program::path`).
    pub(crate) starts: std::collections::HashMap<Vec<(u32, u32)>, usize>,
    /// Where each finished node drew its type seed, by its path.
    pub(crate) type_seeds: std::collections::HashMap<Vec<(u32, u32)>, usize>,
    /// Where each decision to grow the root's list was drawn.
    pub(crate) growth: Vec<usize>,
    /// Each node's production (its number) and where the draws of it
    /// ended, by its path: a node in the place of one the splice left
    /// keeps it while it passes, however the weights of the others
    /// changed, and goes on reading values where that one did.
    pub(crate) productions: std::collections::HashMap<Vec<(u32, u32)>, (u32, usize)>,
}

/// The first line of a choice file.
const VERSION_LINE: &str = "xsmith-choices 1";

/// Why a choice file could not be read.
///
/// ```
/// let error = xsmith::Choices::parse("not a choice file").unwrap_err();
/// assert!(error.to_string().contains("xsmith-choices 1"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChoicesError {
    /// The line (1-based) that is wrong.
    pub line: usize,
    /// What is wrong with it.
    pub message: String,
}

impl fmt::Display for ChoicesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for ChoicesError {}

impl Choices {
    /// A sequence of `choices`.
    ///
    /// ```
    /// let c = xsmith::Choices::new(vec![xsmith::Choice { value: 1, bound: 2 }]);
    /// assert_eq!(c.len(), 1);
    /// ```
    pub fn new(choices: Vec<Choice>) -> Choices {
        Choices { choices }
    }

    /// A sequence of values whose bounds are unknown (recorded as 0).
    ///
    /// ```
    /// assert_eq!(xsmith::Choices::from_values(&[3, 4]).values().collect::<Vec<_>>(), [3, 4]);
    /// ```
    pub fn from_values(values: &[u64]) -> Choices {
        Choices::new(values.iter().map(|&value| Choice { value, bound: 0 }).collect())
    }

    /// The choices, in the order they were drawn.
    ///
    /// ```
    /// assert!(xsmith::Choices::default().choices().is_empty());
    /// ```
    pub fn choices(&self) -> &[Choice] {
        &self.choices
    }

    /// The values, in the order they were drawn.
    ///
    /// ```
    /// assert_eq!(xsmith::Choices::from_values(&[7]).values().next(), Some(7));
    /// ```
    pub fn values(&self) -> impl Iterator<Item = u64> + '_ {
        self.choices.iter().map(|c| c.value)
    }

    /// How many choices there are.
    ///
    /// ```
    /// assert_eq!(xsmith::Choices::from_values(&[1, 2, 3]).len(), 3);
    /// ```
    pub fn len(&self) -> usize {
        self.choices.len()
    }

    /// Whether there are none.
    ///
    /// ```
    /// assert!(xsmith::Choices::default().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.choices.is_empty()
    }

    pub(crate) fn push(&mut self, choice: Choice) {
        self.choices.push(choice);
    }

    /// Makes room for `more` choices.
    pub(crate) fn reserve(&mut self, more: usize) {
        self.choices.reserve(more);
    }

    /// The sequence as a choice file's text.
    ///
    /// ```
    /// let c = xsmith::Choices::new(vec![xsmith::Choice { value: 1, bound: 4 }]);
    /// assert_eq!(c.to_text(), "xsmith-choices 1\n1/4\n");
    /// ```
    pub fn to_text(&self) -> String {
        let mut text = String::with_capacity(16 + 6 * self.choices.len());
        text.push_str(VERSION_LINE);
        text.push('\n');
        for choice in &self.choices {
            use std::fmt::Write;
            let _ = match choice.bound {
                0 => writeln!(text, "{}", choice.value),
                bound => writeln!(text, "{}/{bound}", choice.value),
            };
        }
        text
    }

    /// Reads a choice file's text.
    ///
    /// ```
    /// let c = xsmith::Choices::parse("xsmith-choices 1\n3/8\n12\n").unwrap();
    /// assert_eq!(c.values().collect::<Vec<_>>(), [3, 12]);
    /// assert!(xsmith::Choices::parse("xsmith-choices 1\nx\n").is_err());
    /// ```
    pub fn parse(text: &str) -> Result<Choices, ChoicesError> {
        let mut lines = text.lines().enumerate();
        match lines.next() {
            Some((_, VERSION_LINE)) => {}
            _ => {
                return Err(ChoicesError {
                    line: 1,
                    message: format!("a choice file starts with the line `{VERSION_LINE}`"),
                })
            }
        }
        let number = |text: &str, index: usize| {
            text.trim().parse::<u64>().map_err(|e| ChoicesError {
                line: index + 1,
                message: format!("`{text}` is not a choice (`value` or `value/bound`): {e}"),
            })
        };
        let mut choices = Vec::new();
        for (index, line) in lines {
            if line.trim().is_empty() {
                continue;
            }
            let (value, bound) = match line.split_once('/') {
                Some((value, bound)) => (number(value, index)?, number(bound, index)?),
                None => (number(line, index)?, 0),
            };
            choices.push(Choice { value, bound });
        }
        Ok(Choices { choices })
    }
}

impl PartialOrd for Choices {
    fn partial_cmp(&self, other: &Choices) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Choices {
    /// Shortlex: length first, then the values in order.
    fn cmp(&self, other: &Choices) -> std::cmp::Ordering {
        self.len()
            .cmp(&other.len())
            .then_with(|| self.values().cmp(other.values()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_round_trips_and_bad_lines_are_named() {
        let choices = Choices::new(vec![
            Choice { value: 0, bound: 2 },
            Choice {
                value: u64::MAX,
                bound: 0,
            },
            Choice { value: 41, bound: 42 },
        ]);
        assert_eq!(Choices::parse(&choices.to_text()), Ok(choices));
        let error = Choices::parse("xsmith-choices 1\n1/2\n3/x\n").unwrap_err();
        assert_eq!(error.line, 3);
        assert!(
            Choices::parse("xsmith-choices 2\n").is_err(),
            "another version is refused"
        );
    }
}
