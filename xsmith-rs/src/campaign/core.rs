//! A bug's core: what tells two bugs of one grouping apart (see [`Core`]).

use std::collections::BTreeSet;
use std::fmt;

use crate::features::Features;

/// The largest distance between the cores of two findings of one bug (see
/// [`Core`]): at least half the smaller core's edges in the other.
pub const SAME_BUG_DISTANCE: f64 = 0.5;

/// A bug's core: what tells two bugs of one grouping apart.
///
/// A [`Signature`](super::Signature) says which implementations a finding
/// concerns, so every difference of "wasmi alone" has one signature,
/// whatever made wasmi go wrong. Reduction shrinks a finding to a small
/// program; its *core* is the set of that program's
/// [features](crate::features) that are necessary: a node is necessary when
/// replacing its subtree by the smallest the generator makes there (the
/// rest of the program as it was) makes the finding uninteresting (another
/// signature, or agreement), and it carries two features, its production
/// and its edge `Parent.field>Child` from its parent
/// ([`bug_core`](crate::bug_core) computes it). The root is not replaced
/// (every program has one).
///
/// # Which cores are one bug
///
/// Two reduced findings of one grouping are the same bug when their cores
/// are close (Chen et al., "Taming Compiler Fuzzers", PLDI 2013, rank test
/// cases by distances of their features): their distance is at most
/// [`SAME_BUG_DISTANCE`], the distance being one minus the overlap
/// coefficient, the share of the smaller core's features that the other
/// has too (the Szymkiewicz-Simpson coefficient; Jaccard's divides by all
/// the features either has instead). The overlap, not Jaccard's share,
/// because a core holds, besides the trigger, the context that makes its
/// effect seen (in WebAssembly, the `Store` or `GlobalSet` that writes a
/// miscomputed value out), and that context differs between findings of
/// one bug: measured on three reduced findings of the wasmi `select` bug,
/// with 8 edges each, 3 to 5 in common, Jaccard's distances were 0.55 to
/// 0.77 (three bugs), the overlap's 0.38 to 0.63 (two). It also lets a
/// known bug name only its trigger: a core that is a part of another is
/// at distance 0 from it. The distance is taken over
/// the cores' edges, the `Parent.field>Child` pairs, when both have one:
/// an edge names both its productions and where one sits in the other, so
/// two bugs of the same productions in other places (a sum whose left
/// operand is a quotient, a quotient whose divisor is a sum) are apart,
/// while a production alone (`Add`) would count as common ground. A core
/// with no edge (a bug of a lone leaf) is compared by all its features.
///
/// A finding joins the first bug of its grouping whose core (the core of
/// the bug's first finding) is within the distance; otherwise it starts a
/// bug of its own. So the bugs, and which finding belongs to which, depend
/// only on the findings' order (a campaign's is its seed order).
///
/// ```
/// use xsmith::campaign::Core;
/// let sum_of_quotient = Core::parse("Add Add.left>Div Div");
/// let quotient_of_sum = Core::parse("Add Div Div.right>Add");
/// let deeper = Core::parse("Add Add.left>Div Add.right>Add Div");
/// assert_eq!(sum_of_quotient.distance(&quotient_of_sum), 1.0);
/// assert!(!sum_of_quotient.same_bug(&quotient_of_sum));
/// assert!(sum_of_quotient.same_bug(&deeper), "its one edge is the other's");
/// ```
///
/// ```
/// let core = xsmith::campaign::Core::parse("Div.right>Add Add Div");
/// assert_eq!(core.to_string(), "Add Div Div.right>Add");
/// assert_eq!(core.edges().collect::<Vec<_>>(), ["Div.right>Add"]);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Core {
    features: Features,
}

impl Core {
    /// The core made of `features`.
    ///
    /// ```
    /// let features = xsmith::features::Features::parse("Add Lit Add.left>Lit");
    /// let core = xsmith::campaign::Core::new(features.clone());
    /// assert_eq!(core.features(), &features);
    /// ```
    pub fn new(features: Features) -> Core {
        Core { features }
    }

    /// A core written by [`Display`](fmt::Display): feature names
    /// separated by spaces.
    ///
    /// ```
    /// assert!(xsmith::campaign::Core::parse("Add Add.left>Div").features().contains("Add.left>Div"));
    /// ```
    pub fn parse(text: &str) -> Core {
        Core::new(Features::parse(text))
    }

    /// Its features.
    ///
    /// ```
    /// assert_eq!(xsmith::campaign::Core::parse("B A").features().iter().count(), 2);
    /// ```
    pub fn features(&self) -> &Features {
        &self.features
    }

    /// Whether it has no feature (no node of the program is necessary:
    /// the bug is in what every program has).
    ///
    /// ```
    /// assert!(xsmith::campaign::Core::parse("").is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.features.iter().next().is_none()
    }

    /// Its edges: the `Parent.field>Child` features.
    ///
    /// ```
    /// let core = xsmith::campaign::Core::parse("Add Add.left>Div Div");
    /// assert_eq!(core.edges().count(), 1);
    /// ```
    pub fn edges(&self) -> impl Iterator<Item = &str> {
        self.features.iter().filter(|name| name.contains('>'))
    }

    /// The distance to `other`: one minus the share of the smaller one's
    /// edges the other has, when both have one, otherwise of all their
    /// features: 0 for equal cores and when one is part of the other, 1 for
    /// disjoint ones (an empty core is at 0 only from an empty one).
    ///
    /// ```
    /// use xsmith::campaign::Core;
    /// let a = Core::parse("A A.x>B A.y>C B C");
    /// let b = Core::parse("A A.x>B A.y>D A.z>D B D");
    /// assert_eq!(a.distance(&b), 0.5);
    /// assert_eq!(Core::parse("A.x>B").distance(&b), 0.0);
    /// assert_eq!(Core::parse("").distance(&b), 1.0);
    /// assert_eq!(Core::parse("Lit").distance(&Core::parse("Lit")), 0.0);
    /// ```
    pub fn distance(&self, other: &Core) -> f64 {
        let by_edges = self.edges().next().is_some() && other.edges().next().is_some();
        let keys = |core: &'_ Core| -> BTreeSet<String> {
            match by_edges {
                true => core.edges().map(str::to_string).collect(),
                false => core.features.iter().map(str::to_string).collect(),
            }
        };
        let (a, b) = (keys(self), keys(other));
        let smaller = a.len().min(b.len());
        if smaller == 0 {
            // An empty core is no part of another: only of an empty one.
            return if a.len() == b.len() { 0.0 } else { 1.0 };
        }
        1.0 - a.intersection(&b).count() as f64 / smaller as f64
    }

    /// Whether `other` is the core of the same bug: their
    /// [`distance`](Core::distance) is at most [`SAME_BUG_DISTANCE`].
    ///
    /// ```
    /// use xsmith::campaign::Core;
    /// assert!(Core::parse("A.x>B").same_bug(&Core::parse("A.x>B")));
    /// assert!(!Core::parse("A.x>B").same_bug(&Core::parse("A.y>B")));
    /// ```
    pub fn same_bug(&self, other: &Core) -> bool {
        self.distance(other) <= SAME_BUG_DISTANCE
    }

    /// Whether `necessary`, the part of this core that a program was shown
    /// to need ([`core_shown`](crate::bug_core::core_shown)), shows the
    /// program's finding to be this core's bug: it holds at least half of
    /// this core's edges (of its features, when it has no edge).
    ///
    /// Why half: a finding's core once reduced holds what its program needs
    /// now, and reducing further only takes away what the bug can do
    /// without, so the necessary part stays. Half of this core's edges in
    /// the finding's core make their distance at most one half, whatever
    /// else the finding's core holds: [`SAME_BUG_DISTANCE`].
    ///
    /// ```
    /// use xsmith::campaign::Core;
    /// let core = Core::parse("A A.x>B A.y>C B C");
    /// assert!(core.is_shown_by(&Core::parse("A A.x>B B")));
    /// assert!(!core.is_shown_by(&Core::parse("A B")), "no edge");
    /// assert!(Core::parse("Lit").is_shown_by(&Core::parse("Lit")));
    /// assert!(!Core::parse("").is_shown_by(&Core::parse("")), "an empty core shows nothing");
    /// ```
    pub fn is_shown_by(&self, necessary: &Core) -> bool {
        let share = |all: Vec<&str>| -> bool {
            let shown = all.iter().filter(|f| necessary.features.contains(f)).count();
            !all.is_empty() && 2 * shown >= all.len()
        };
        match self.edges().next().is_some() {
            true => share(self.edges().collect()),
            false => share(self.features.iter().collect()),
        }
    }

    /// The core recorded in a finding's `reduced/core` file (see
    /// [`bug_core`](crate::bug_core)), if it was computed.
    ///
    /// ```
    /// let dir = tempfile::tempdir().unwrap();
    /// assert_eq!(xsmith::campaign::Core::of_finding(dir.path()), None);
    /// std::fs::create_dir(dir.path().join("reduced")).unwrap();
    /// std::fs::write(dir.path().join("reduced/core"), "Add Add.left>Div Div\n").unwrap();
    /// assert_eq!(xsmith::campaign::Core::of_finding(dir.path()).unwrap().edges().count(), 1);
    /// ```
    pub fn of_finding(finding: &std::path::Path) -> Option<Core> {
        let text = std::fs::read_to_string(finding.join("reduced").join(CORE_FILE)).ok()?;
        Some(Core::parse(text.trim()))
    }
}

/// The name of the file in a finding's `reduced/` directory that holds its
/// core, one line of feature names.
pub const CORE_FILE: &str = "core";

impl fmt::Display for Core {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.features)
    }
}
