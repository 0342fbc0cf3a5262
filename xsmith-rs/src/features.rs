//! A program's input features (Havrikov, "input features associated with
//! failures"): the productions it uses and the parent–child production
//! pairs of its tree, through the parent's field (`Div.left>Add`: a sum as
//! a division's left operand). A campaign records them for every program, so that
//! what the programs of one bug have in common, against all programs, can
//! be told ([`associated`]), and so that each production's verdicts can be
//! counted.

use std::collections::BTreeSet;
use std::fmt;

use crate::grammar::Grammar;
use crate::tree::{NodeId, Slot, Tree};

/// The features of one program.
///
/// ```
/// use xsmith::features::Features;
/// let spec = xsmith::example::spec();
/// let program = xsmith::example::program(&spec, 2);
/// let features = Features::of(spec.grammar(), &program);
/// assert!(features.contains("Program"));
/// assert_eq!(Features::parse(&features.to_string()), features);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Features {
    /// Each feature once: a production's name, or `Parent.field>Child` for
    /// a child of production `Child` in field `field` of a node of
    /// production `Parent`.
    names: BTreeSet<String>,
}

impl Features {
    /// The features of the finished nodes of `tree`.
    ///
    /// ```
    /// use xsmith::features::Features;
    /// let spec = xsmith::example::spec();
    /// let program = xsmith::example::program(&spec, 2);
    /// let features = Features::of(spec.grammar(), &program);
    /// assert!(features.iter().any(|f| f.starts_with("Program.")));
    /// ```
    pub fn of(grammar: &Grammar, tree: &Tree) -> Features {
        let mut names = BTreeSet::new();
        let name = |id| grammar.production(tree.node(id).production).name();
        for id in tree.ids().filter(|&id| !tree.node(id).is_hole) {
            let node = tree.node(id);
            names.insert(name(id).to_string());
            let fields = grammar.production(node.production).fields();
            for (field, slot) in fields.iter().zip(&node.slots) {
                let children: &[NodeId] = match slot {
                    Slot::Child(child) => std::slice::from_ref(child),
                    Slot::List(children) => children,
                    Slot::Data(_) => &[],
                };
                for &child in children.iter().filter(|&&c| !tree.node(c).is_hole) {
                    names.insert(format!("{}.{}>{}", name(id), field.name(), name(child)));
                }
            }
        }
        Features { names }
    }

    /// Features written by [`Display`](fmt::Display): names separated by
    /// spaces.
    ///
    /// ```
    /// let features = xsmith::features::Features::parse("Add Add.left>Lit Lit");
    /// assert_eq!(features.iter().count(), 3);
    /// ```
    pub fn parse(text: &str) -> Features {
        Features {
            names: text.split_whitespace().map(str::to_string).collect(),
        }
    }

    /// Whether the program has feature `name`.
    ///
    /// ```
    /// assert!(xsmith::features::Features::parse("Lit").contains("Lit"));
    /// ```
    pub fn contains(&self, name: &str) -> bool {
        self.names.contains(name)
    }

    /// The features in order: each name once.
    ///
    /// ```
    /// let features = xsmith::features::Features::parse("b a");
    /// assert_eq!(features.iter().collect::<Vec<_>>(), ["a", "b"]);
    /// ```
    pub fn iter(&self) -> impl Iterator<Item = &str> {
        self.names.iter().map(String::as_str)
    }

    /// The productions alone (no pairs).
    ///
    /// ```
    /// let features = xsmith::features::Features::parse("Add Add.left>Lit Lit");
    /// assert_eq!(features.productions().collect::<Vec<_>>(), ["Add", "Lit"]);
    /// ```
    pub fn productions(&self) -> impl Iterator<Item = &str> {
        self.iter().filter(|name| !name.contains('>'))
    }
}

impl fmt::Display for Features {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, name) in self.names.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            f.write_str(name)?;
        }
        Ok(())
    }
}

/// A feature over-represented in some programs (those of one bug) against
/// all programs.
#[derive(Clone, Debug, PartialEq)]
pub struct Association {
    /// The feature's name (see [`Features`]).
    pub feature: String,
    /// In how many of the selected programs it occurs.
    pub selected: usize,
    /// How many programs were selected.
    pub of_selected: usize,
    /// In how many of all programs it occurs.
    pub all: usize,
    /// How many programs there are in all.
    pub of_all: usize,
}

impl Association {
    /// How many times more often the feature occurs in the selected
    /// programs than in all programs.
    ///
    /// ```
    /// let a = xsmith::features::Association { feature: "Lit".into(), selected: 4, of_selected: 4, all: 10, of_all: 100 };
    /// assert_eq!(a.ratio(), 10.0);
    /// ```
    pub fn ratio(&self) -> f64 {
        let share = |n: usize, of: usize| n as f64 / of.max(1) as f64;
        share(self.selected, self.of_selected) / share(self.all, self.of_all).max(f64::MIN_POSITIVE)
    }
}

/// The features over-represented in `selected` against `all` (which
/// includes them), most associated first: those in every selected program
/// before the others, then by ratio, then by count, then by name. Only
/// features in at least half the selected programs and more frequent there
/// than overall are kept.
///
/// ```
/// use xsmith::features::{associated, Features};
/// let bug = [Features::parse("A B C"), Features::parse("A C")];
/// let others = [Features::parse("A B"), Features::parse("A"), Features::parse("A B")];
/// let all: Vec<&Features> = bug.iter().chain(&others).collect();
/// let found = associated(&bug.iter().collect::<Vec<_>>(), &all);
/// assert_eq!(found[0].feature, "C");
/// assert!(found.iter().all(|a| a.feature != "A"));
/// ```
pub fn associated(selected: &[&Features], all: &[&Features]) -> Vec<Association> {
    let count = |programs: &[&Features], feature: &str| programs.iter().filter(|f| f.contains(feature)).count();
    let candidates: BTreeSet<&str> = selected.iter().flat_map(|f| f.iter()).collect();
    let mut found: Vec<Association> = candidates
        .into_iter()
        .map(|feature| Association {
            feature: feature.to_string(),
            selected: count(selected, feature),
            of_selected: selected.len(),
            all: count(all, feature),
            of_all: all.len(),
        })
        .filter(|a| 2 * a.selected >= a.of_selected && a.ratio() > 1.0)
        .collect();
    found.sort_by(|a, b| {
        let everywhere = |x: &Association| x.selected == x.of_selected;
        everywhere(b)
            .cmp(&everywhere(a))
            .then(b.ratio().total_cmp(&a.ratio()))
            .then(b.selected.cmp(&a.selected))
            .then(a.feature.cmp(&b.feature))
    });
    found
}
