//! k-path coverage (Havrikov and Zeller, "Systematically Covering Input
//! Structure", ASE 2019): a k-path is a chain of k productions, each a
//! child of the one before through a named field. The 1-paths are the
//! productions; `Func.body>LocalSet` is a 2-path (an assignment as a
//! statement of a function's body), `Program.items>Func.body>LocalSet` a
//! 3-path. A set of programs covers the k-paths that occur in their trees;
//! the grammar allows those that its fields and their fillers permit
//! ([`allowed`]), though types may make some of those impossible.

use indexmap::IndexSet;
use smallvec::SmallVec;

use crate::grammar::{FieldKind, Grammar, ProdId};
use crate::tree::{NodeId, Tree};

/// One k-path: productions and, between each and the next, the field of
/// the first that holds the second.
///
/// ```
/// let spec = xsmith::example::spec();
/// let program = xsmith::example::program(&spec, 2);
/// let paths = xsmith::kpaths::paths_of(&program, 2);
/// let names: Vec<String> = paths.iter().map(|p| p.display(spec.grammar())).collect();
/// assert!(names.contains(&"Program".to_string()));
/// assert!(names.iter().any(|n| n.starts_with("Program.") && n.contains('>')));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct KPath {
    /// Production, field, production, ..., production (odd length).
    steps: SmallVec<[u32; 5]>,
}

impl KPath {
    /// The 1-path of `production`.
    fn start(production: ProdId) -> KPath {
        KPath {
            steps: SmallVec::from_slice(&[production.0]),
        }
    }

    /// This path continued through field `field` (an index into the last
    /// production's fields) to `child`.
    fn then(&self, field: usize, child: ProdId) -> KPath {
        let mut steps = self.steps.clone();
        steps.extend([field as u32, child.0]);
        KPath { steps }
    }

    /// This path's last production.
    fn last(&self) -> ProdId {
        ProdId(*self.steps.last().expect("a path has a production"))
    }

    /// How many productions the path has (its k).
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let program = xsmith::example::program(&spec, 2);
    /// let paths = xsmith::kpaths::paths_of(&program, 3);
    /// assert!(paths.iter().all(|p| (1..=3).contains(&p.len())));
    /// ```
    #[allow(clippy::len_without_is_empty)]
    pub fn len(&self) -> usize {
        self.steps.len().div_ceil(2)
    }

    /// The path written as `Parent.field>Child.field>Grandchild` (for
    /// k = 2 the names of [`Features`](crate::features::Features)).
    ///
    /// ```
    /// let spec = xsmith::example::spec();
    /// let paths = xsmith::kpaths::allowed(spec.grammar(), |_| true, 2);
    /// assert!(paths.iter().any(|p| p.display(spec.grammar()) == "Add.left>Literal"));
    /// ```
    pub fn display(&self, grammar: &Grammar) -> String {
        let mut text = String::new();
        for (i, step) in self.steps.iter().enumerate() {
            if i % 2 == 0 {
                let production = grammar.production(ProdId(*step));
                text.push_str(production.name());
            } else {
                let parent = grammar.production(ProdId(self.steps[i - 1]));
                text.push('.');
                text.push_str(parent.fields()[*step as usize].name());
                text.push('>');
            }
        }
        text
    }
}

/// The k-paths of `tree` of every length from 1 to `k`, in the order of
/// its nodes (each path once).
///
/// ```
/// let spec = xsmith::example::spec();
/// let program = xsmith::example::program(&spec, 2);
/// let ones = xsmith::kpaths::paths_of(&program, 1);
/// assert!(ones.iter().all(|p| p.len() == 1));
/// ```
pub fn paths_of(tree: &Tree, k: usize) -> IndexSet<KPath> {
    let mut paths = IndexSet::new();
    for id in tree.ids().filter(|&id| !tree.node(id).is_hole) {
        paths.extend(paths_ending_at(tree, id, k));
    }
    paths
}

/// The paths of length 1 to `k` that end at node `node` of `tree`: its
/// production, then with its parent before it, and so on up.
fn paths_ending_at(tree: &Tree, node: NodeId, k: usize) -> SmallVec<[KPath; 4]> {
    paths_ending_with(tree, node, tree.node(node).production, k)
}

/// The paths of length 1 to `k` that `production` would end if it filled
/// the node (or hole) `node` of `tree`.
pub(crate) fn paths_ending_with(tree: &Tree, node: NodeId, production: ProdId, k: usize) -> SmallVec<[KPath; 4]> {
    let mut paths: SmallVec<[KPath; 4]> = SmallVec::new();
    if k == 0 {
        return paths;
    }
    let mut steps: SmallVec<[u32; 5]> = SmallVec::from_slice(&[production.0]);
    paths.push(KPath { steps: steps.clone() });
    let mut at = node;
    while paths.len() < k {
        let (Some(parent), Some(field)) = (tree.node(at).parent, tree.slot_holding(at)) else {
            break;
        };
        steps.insert(0, field as u32);
        steps.insert(0, tree.node(parent).production.0);
        paths.push(KPath { steps: steps.clone() });
        at = parent;
    }
    paths
}

/// The k-paths of every length from 1 to `k` that the grammar allows
/// among the concrete productions that `enabled` accepts: each such
/// production, continued through each of its child and list fields to each
/// enabled production that may fill it. Types may rule some out: see a
/// large sample for those that occur in practice.
///
/// ```
/// let spec = xsmith::example::spec();
/// let grammar = spec.grammar();
/// let ones = xsmith::kpaths::allowed(grammar, |_| true, 1);
/// assert!(ones.iter().all(|p| !grammar.production(grammar.lookup(&p.display(grammar)).unwrap()).is_abstract()));
/// ```
pub fn allowed(grammar: &Grammar, enabled: impl Fn(ProdId) -> bool, k: usize) -> IndexSet<KPath> {
    let mut paths: IndexSet<KPath> = IndexSet::new();
    if k == 0 {
        return paths;
    }
    let mut frontier: Vec<KPath> = grammar
        .productions()
        .iter()
        .enumerate()
        .map(|(i, _)| ProdId(i as u32))
        .filter(|&p| !grammar.production(p).is_abstract() && enabled(p))
        .map(KPath::start)
        .collect();
    for length in 1..=k {
        paths.extend(frontier.iter().cloned());
        if length == k {
            break;
        }
        let mut next = Vec::new();
        for path in &frontier {
            for (index, field) in grammar.production(path.last()).fields().iter().enumerate() {
                let node_type = match field.kind() {
                    FieldKind::Child(t) | FieldKind::List(t, _) => *t,
                    FieldKind::Data(_) => continue,
                };
                for &child in grammar.fillers(node_type) {
                    if enabled(child) && !grammar.production(child).is_abstract() {
                        next.push(path.then(index, child));
                    }
                }
            }
        }
        frontier = next;
    }
    paths
}

#[cfg(test)]
mod tests {
    use smallvec::smallvec;

    use super::*;
    use crate::tree::Slot;
    use crate::value::Value;

    /// `Program { body: Add { left: Literal, right: Div { left: Literal, right: Literal } } }`,
    /// built by hand.
    fn hand_built(grammar: &Grammar) -> Tree {
        let p = |name: &str| grammar.lookup(name).unwrap();
        let mut tree = Tree::new(p("Program"));
        let root = tree.root();
        let expr = p("Expr");
        let add = tree.add_hole(expr, Some(root), 1);
        tree.fill(root, p("Program"), smallvec![Slot::Child(add)]);
        let (a, div) = (tree.add_hole(expr, Some(add), 2), tree.add_hole(expr, Some(add), 2));
        tree.fill(add, p("Add"), smallvec![Slot::Child(a), Slot::Child(div)]);
        let (b, c) = (tree.add_hole(expr, Some(div), 3), tree.add_hole(expr, Some(div), 3));
        tree.fill(div, p("Div"), smallvec![Slot::Child(b), Slot::Child(c)]);
        for leaf in [a, b, c] {
            tree.fill(leaf, p("Literal"), smallvec![Slot::Data(Value::Int(1))]);
        }
        tree
    }

    fn names(grammar: &Grammar, paths: &IndexSet<KPath>, k: usize) -> Vec<String> {
        let mut names: Vec<String> = paths
            .iter()
            .filter(|p| p.len() == k)
            .map(|p| p.display(grammar))
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_hand_built_tree_has_the_paths_of_its_chains() {
        let spec = crate::example::spec();
        let grammar = spec.grammar();
        let tree = hand_built(grammar);
        let paths = paths_of(&tree, 3);
        assert_eq!(names(grammar, &paths, 1), ["Add", "Div", "Literal", "Program"]);
        assert_eq!(
            names(grammar, &paths, 2),
            [
                "Add.left>Literal",
                "Add.right>Div",
                "Div.left>Literal",
                "Div.right>Literal",
                "Program.body>Add"
            ]
        );
        assert_eq!(
            names(grammar, &paths, 3),
            [
                "Add.right>Div.left>Literal",
                "Add.right>Div.right>Literal",
                "Program.body>Add.left>Literal",
                "Program.body>Add.right>Div"
            ]
        );
        assert!(paths_of(&tree, 0).is_empty());
    }

    #[test]
    fn the_grammar_allows_every_field_to_every_filler() {
        let spec = crate::example::spec();
        let grammar = spec.grammar();
        let paths = allowed(grammar, |_| true, 3);
        // 4 productions; Program.body and 4 operand fields, 3 fillers each;
        // 3-paths: Program.body>X.f>Y (2 binary X, 2 fields, 3 Y) and
        // X.f>Y.g>Z (2 X, 2 f, 2 binary Y, 2 g, 3 Z).
        assert_eq!(names(grammar, &paths, 1).len(), 4);
        assert_eq!(names(grammar, &paths, 2).len(), 3 + 4 * 3);
        assert_eq!(names(grammar, &paths, 3).len(), 2 * 2 * 3 + 2 * 2 * 2 * 2 * 3);
        let without_div = allowed(grammar, |p| grammar.production(p).name() != "Div", 2);
        assert_eq!(
            names(grammar, &without_div, 2),
            [
                "Add.left>Add",
                "Add.left>Literal",
                "Add.right>Add",
                "Add.right>Literal",
                "Program.body>Add",
                "Program.body>Literal"
            ]
        );
        // Whatever a generated tree covers, the grammar allows.
        let program = crate::example::program(&spec, 5);
        assert!(paths_of(&program, 3).iter().all(|p| paths.contains(p)));
    }
}
