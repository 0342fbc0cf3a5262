//! Names: which binders a reference can see, and where a new definition
//! for it could be lifted.
//!
//! The scope graph is the one the program records as it is built (see
//! `program`): a node of a production that introduces a scope
//! ([`ScopeKind`]) owns the binders whose nearest scope-introducing ancestor
//! it is. From a node, walking up, each scope `S` on the way contributes its
//! binders: all of them if `S` is recursive (functions that see themselves
//! and their siblings), else those in children of `S` that come before the
//! child leading to the node (a definition is visible after itself; a
//! lambda's parameters, an earlier field, are visible in its body), and
//! past an isolated scope only global scopes contribute (see
//! [`ScopeKind`]). Binders get fresh names, so nothing is ever shadowed.
//!
//! # Fresh names, and a language's own
//!
//! The engine names binders `v1`, `v2`, `v3`, ... in the order it makes
//! them in a program: [`FRESH_NAME_PREFIX`] followed by a positive decimal
//! number with no leading zero ([`is_fresh_name`]). It makes no other
//! names, so every name of another form is the language's: its keywords,
//! its header's helpers (`add`, `out`) and any hidden name a renderer
//! writes. A renderer that needs names of its own for a node (a loop
//! counter the language's `for` does not bind, a temporary) draws them
//! with [`RenderNode::hidden_name`](crate::RenderNode::hidden_name), which
//! gives `_tag_N` (`N` the node's index, so each node's names are its
//! own, and no fresh name has that form).
//!
//! ```
//! use xsmith::names::is_fresh_name;
//! assert!(is_fresh_name("v1") && is_fresh_name("v207"));
//! assert!(!is_fresh_name("v0") && !is_fresh_name("v01") && !is_fresh_name("_i_3"));
//! ```

use crate::grammar::{FieldKind, ProdId};
use crate::program::{Program, Scope};
use crate::scopes::{Access, BinderStyle, ScopeKind};
use crate::spec::Spec;
use crate::tree::{NodeId, Slot};
use crate::types::Type;
use crate::value::Value;

/// What every fresh name starts with (see [the module](self)).
pub const FRESH_NAME_PREFIX: &str = "v";

/// Whether `name` has the form of the engine's fresh names: `v` and a
/// positive decimal number with no leading zero.
///
/// ```
/// assert!(xsmith::names::is_fresh_name("v12"));
/// assert!(!xsmith::names::is_fresh_name("value"));
/// ```
pub fn is_fresh_name(name: &str) -> bool {
    name.strip_prefix(FRESH_NAME_PREFIX)
        .is_some_and(|n| n.starts_with(|c: char| ('1'..='9').contains(&c)) && n.bytes().all(|b| b.is_ascii_digit()))
}

/// A binder visible from some node.
#[derive(Clone, Debug, PartialEq)]
pub struct Binding {
    /// The bound name.
    pub name: String,
    /// The binder node.
    pub binder: NodeId,
    /// The binder's type (typed specs): a term whose variables the
    /// program's type store knows more about (see [`Program::node_type`]
    /// for the type with everything known filled in).
    pub ty: Option<Type>,
    /// Whether it may be written.
    pub writable: bool,
    /// Definition or parameter.
    pub style: BinderStyle,
}

/// The nearest ancestor of `node` (strictly above it) that introduces a
/// scope.
pub(crate) fn enclosing_scope(program: &Program, node: NodeId) -> Option<NodeId> {
    let mut cursor = program.node(node).parent;
    while let Some(at) = cursor {
        if program.names.scopes.contains_key(&at) {
            return Some(at);
        }
        cursor = program.node(at).parent;
    }
    None
}

/// The binders visible at `node`, innermost scope first, each scope's in
/// the order they were made.
///
/// ```
/// let spec = xsmith::example::spec();
/// let program = xsmith::example::program(&spec, 1);
/// assert!(xsmith::names::visible_bindings(&program, program.root()).is_empty());
/// ```
pub fn visible_bindings(program: &Program, node: NodeId) -> Vec<Binding> {
    let mut binders = Vec::new();
    visible_binders(program, node, &mut InSight::default(), &mut binders);
    binders.into_iter().map(|seen| binding(program, seen.binder)).collect()
}

/// What [`visible_binders`] keeps from search to search: the binders of
/// each sequential scope in sight from one of its children, with what they
/// depend on, so that the references inside one child of a scope (a
/// top-level function of hundreds, say) read them rather than walk the
/// scope's earlier children again; and the marks of such a walk, cleared
/// in constant time.
#[derive(Default)]
pub(crate) struct InSight {
    /// For each node, the stamp of the walk that last marked it.
    stamps: Vec<u32>,
    /// The current walk's stamp (never 0, which no mark has).
    stamp: u32,
    /// For each scope node, the binders last found in sight in it.
    scopes: Vec<Option<Segment>>,
}

/// The binders of a scope in sight from one of its children, as of a
/// version of the scope.
struct Segment {
    /// The program, the child, the number of binders the scope had and the
    /// scope node's tree version (which a change to its children bumps).
    key: (u64, NodeId, usize, u64),
    in_sight: Vec<Seen>,
}

/// A binder in sight of a reference, as the generator's searches read it:
/// its node (whose type is the program's type of that node) and whether it
/// may be written.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Seen {
    pub(crate) binder: NodeId,
    pub(crate) writable: bool,
}

impl Seen {
    /// `binder` as the searches read it.
    fn of(program: &Program, binder: NodeId) -> Seen {
        Seen {
            binder,
            writable: program.names.binders[&binder].writable,
        }
    }
}

impl InSight {
    /// Clears every mark.
    fn clear(&mut self) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.stamps.iter_mut().for_each(|s| *s = 0);
            self.stamp = 1;
        }
    }

    fn mark(&mut self, node: NodeId) {
        if self.stamps.len() <= node.index() {
            self.stamps.resize(node.index() + 1, 0);
        }
        self.stamps[node.index()] = self.stamp;
    }

    fn is_marked(&self, node: NodeId) -> bool {
        self.stamps.get(node.index()) == Some(&self.stamp)
    }

    /// Appends to `out` the binders of the sequential scope `at` in
    /// children before `child`, in the scope's order.
    fn before(&mut self, program: &Program, at: NodeId, scope: &Scope, child: NodeId, out: &mut Vec<Seen>) {
        let key = (program.serial, child, scope.binders.len(), program.node(at).changed_at);
        if let Some(Some(segment)) = self.scopes.get(at.index()) {
            if segment.key == key {
                out.extend_from_slice(&segment.in_sight);
                return;
            }
        }
        self.clear();
        for earlier in program.children(at).take_while(|&c| c != child) {
            self.mark(earlier);
        }
        let mut in_sight = match self.scopes.get_mut(at.index()).and_then(Option::take) {
            Some(segment) => segment.in_sight,
            None => Vec::new(),
        };
        in_sight.clear();
        let marked = scope.binders.iter().filter(|&&(_, anchor)| self.is_marked(anchor));
        in_sight.extend(marked.map(|&(binder, _)| Seen::of(program, binder)));
        out.extend_from_slice(&in_sight);
        if self.scopes.len() <= at.index() {
            self.scopes.resize_with(at.index() + 1, || None);
        }
        self.scopes[at.index()] = Some(Segment { key, in_sight });
    }
}

/// The binder nodes visible at `node`, in the order of
/// [`visible_bindings`], into `out` (cleared first): the generator's
/// searches read only what they need of each (a name is copied only for
/// the binder a reference takes).
pub(crate) fn visible_binders(program: &Program, node: NodeId, in_sight: &mut InSight, out: &mut Vec<Seen>) {
    out.clear();
    let mut child = node;
    let mut cursor = program.node(node).parent;
    // Whether an isolated scope lies between `node` and `at`.
    let mut isolated = false;
    while let Some(at) = cursor {
        if let Some(scope) = program.names.scopes.get(&at) {
            let hidden = isolated && scope.kind != ScopeKind::Global;
            isolated |= scope.kind == ScopeKind::Isolated;
            match scope.kind {
                _ if hidden => {}
                ScopeKind::Recursive => out.extend(scope.binders.iter().map(|&(binder, _)| Seen::of(program, binder))),
                // Binders in children of the scope before the one that
                // leads to `node`.
                ScopeKind::Sequential | ScopeKind::Isolated | ScopeKind::Global => {
                    in_sight.before(program, at, scope, child, out)
                }
            }
        }
        child = at;
        cursor = program.node(at).parent;
    }
}

/// The child of `scope` that is `node` or an ancestor of it.
pub(crate) fn anchor(program: &Program, scope: NodeId, node: NodeId) -> NodeId {
    let mut anchor = node;
    while let Some(parent) = program.node(anchor).parent {
        if parent == scope {
            break;
        }
        anchor = parent;
    }
    anchor
}

/// The binding a binder node makes.
pub(crate) fn binding(program: &Program, binder: NodeId) -> Binding {
    let record = program.names.binders[&binder];
    Binding {
        name: binder_name(program, binder),
        binder,
        ty: program
            .typing
            .as_ref()
            .and_then(|typing| typing.types[binder.index()].clone()),
        writable: record.writable,
        style: record.style,
    }
}

/// The name binder node `binder` binds.
pub(crate) fn binder_name(program: &Program, binder: NodeId) -> String {
    let record = program.names.binders[&binder];
    match &program.node(binder).slots[record.name_slot] {
        // A copy, not the text `Display` would format.
        Slot::Data(Value::Str(name)) => name.clone(),
        Slot::Data(value) => value.to_string(),
        _ => unreachable!("assembly checks that the name field is a data field"),
    }
}

/// Where a lifted definition for a reference would go.
#[derive(Clone, Debug)]
pub(crate) struct LiftSite {
    /// The scope node that receives it.
    pub(crate) scope: NodeId,
    /// Its list slot.
    pub(crate) slot: usize,
    /// The index in the list: just before the child holding the reference,
    /// or at the end when the reference is in a later field of the scope.
    pub(crate) position: usize,
    /// The node type of the list's elements.
    pub(crate) element_type: ProdId,
    /// The depth the definition gets: the scope's children's, or the
    /// reference's if deeper, so that a chain of lifts (an initialiser
    /// whose references lift again) gets no fresh depth budget at each
    /// step.
    pub(crate) depth: u32,
    /// The definition productions that may be lifted there.
    pub(crate) definitions: Vec<ProdId>,
}

/// The scopes above `node` that may receive a lifted definition for it,
/// nearest first, each with the definition productions that fit its list
/// (writable ones only, for a write) and that `liftable` allows. A scope
/// receives the definition before the child of its list that holds
/// `node`, or at the end of the list when `node` is in a field after the
/// list (a function's result expression after its body), where the
/// definition is in sight too; a scope whose list comes after the field
/// holding `node` cannot.
pub(crate) fn lift_sites(
    spec: &Spec,
    liftable: &[bool],
    program: &Program,
    node: NodeId,
    access: Access,
) -> Vec<LiftSite> {
    let mut sites = Vec::new();
    let mut child = node;
    let mut cursor = program.node(node).parent;
    // Whether an isolated scope lies between `node` and `scope`: then only
    // a global scope's definitions would be in sight.
    let mut isolated = false;
    while let Some(scope) = cursor {
        let kind = program.node(scope).production;
        let properties = spec.properties(kind);
        let hidden = isolated && properties.scope != Some(ScopeKind::Global);
        isolated |= properties.scope == Some(ScopeKind::Isolated);
        if let (Some(slot), false) = (properties.lift_field, hidden) {
            let FieldKind::List(element_type, _) = spec.production(kind).fields()[slot].kind() else {
                unreachable!("lift fields are checked to be lists")
            };
            let slots = &program.node(scope).slots;
            let position = match &slots[slot] {
                Slot::List(children) => children.iter().position(|&c| c == child).or_else(|| {
                    let later = slots[slot + 1..]
                        .iter()
                        .any(|s| matches!(s, Slot::Child(c) if *c == child));
                    later.then_some(children.len())
                }),
                _ => None,
            };
            let definitions: Vec<ProdId> = spec
                .fillers(*element_type)
                .iter()
                .copied()
                .filter(|&p| {
                    liftable[p.index()]
                        && spec.properties(p).binder_info.as_ref().is_some_and(|b| {
                            b.style == BinderStyle::Definition && (access == Access::Read || b.writable)
                        })
                })
                .collect();
            if let (Some(position), false) = (position, definitions.is_empty()) {
                let at = program.node(scope);
                sites.push(LiftSite {
                    scope,
                    slot,
                    position,
                    element_type: *element_type,
                    depth: (at.depth + properties.depth_increase).max(program.node(node).depth),
                    definitions,
                });
            }
        }
        child = scope;
        cursor = program.node(scope).parent;
    }
    sites
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::{nodes_named, programs, scoped};
    use crate::Options;

    /// How many blocks hold `node`.
    fn depth_in_blocks(program: &Program, node: NodeId) -> usize {
        std::iter::successors(program.node(node).parent, |&a| program.node(a).parent)
            .filter(|&a| program.names.scopes.contains_key(&a))
            .count()
    }

    /// The child of `scope` on the way to `node`, and its position.
    fn position_in(program: &Program, scope: NodeId, node: NodeId) -> usize {
        let anchor = anchor(program, scope, node);
        program
            .children(scope)
            .position(|c| c == anchor)
            .expect("the anchor is a child")
    }

    #[test]
    fn a_binder_is_visible_only_after_itself_in_its_block_and_inside_it() {
        let spec = scoped();
        for program in programs(&spec, Options::default(), 0..200) {
            for node in program.ids() {
                for binding in visible_bindings(&program, node) {
                    let scope = enclosing_scope(&program, binding.binder).expect("every binder is in a block");
                    let mut ancestors = std::iter::successors(program.node(node).parent, |&a| program.node(a).parent);
                    assert!(ancestors.any(|a| a == scope), "a binder is seen outside its block");
                    assert!(
                        position_in(&program, scope, binding.binder) < position_in(&program, scope, node),
                        "a binder is seen before (or inside) its own statement"
                    );
                }
            }
        }
    }

    #[test]
    fn every_reference_points_at_a_binder_visible_from_it_with_its_name() {
        let spec = scoped();
        let mut references = 0;
        for program in programs(&spec, Options::default(), 0..200) {
            for name in ["Ref", "Assign"] {
                for reference in nodes_named(&spec, &program, name) {
                    references += 1;
                    let target = program.reference_target(reference).expect("every reference is settled");
                    let visible = visible_bindings(&program, reference);
                    let binding = visible
                        .iter()
                        .find(|b| b.binder == target)
                        .expect("the target is visible");
                    let Slot::Data(value) = &program.node(reference).slots[0] else {
                        panic!("a reference's first field is its name")
                    };
                    assert_eq!(value.to_string(), binding.name);
                    if name == "Assign" {
                        assert!(binding.writable, "a write targets a read-only binder");
                    }
                }
            }
        }
        assert!(references > 200, "the sample has references ({references})");
    }

    #[test]
    fn names_are_fresh_so_nothing_is_shadowed() {
        let spec = scoped();
        for program in programs(&spec, Options::default(), 0..100) {
            let names: Vec<String> = program
                .names
                .binders
                .keys()
                .map(|&b| binding(&program, b).name)
                .collect();
            let mut unique = names.clone();
            unique.sort();
            unique.dedup();
            assert_eq!(unique.len(), names.len());
        }
    }

    #[test]
    fn a_lift_site_is_the_nearest_block_just_before_the_statement_holding_the_node() {
        let spec = scoped();
        let liftable: Vec<bool> = spec.grammar().ids().map(|id| spec.is_liftable(id)).collect();
        let (let_, const_) = (spec.lookup("Let").unwrap(), spec.lookup("Const").unwrap());
        let mut references = 0;
        for program in programs(&spec, Options::default(), 0..100) {
            for reference in nodes_named(&spec, &program, "Ref") {
                let sites = lift_sites(&spec, &liftable, &program, reference, Access::Read);
                assert_eq!(
                    sites.len(),
                    depth_in_blocks(&program, reference),
                    "every block out receives lifts"
                );
                let site = sites.first().expect("blocks receive lifts");
                references += 1;
                assert_eq!(Some(site.scope), enclosing_scope(&program, reference));
                assert_eq!(site.position, position_in(&program, site.scope, reference));
                assert_eq!(site.definitions, [let_, const_]);
                let write = &lift_sites(&spec, &liftable, &program, reference, Access::Write)[0];
                assert_eq!(
                    write.definitions,
                    [let_],
                    "a write cannot be given a read-only definition"
                );
            }
        }
        assert!(references > 100);
    }
}
