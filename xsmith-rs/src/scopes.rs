//! Names: binders (definitions and parameters), references, and the scopes
//! that decide which binders a reference can see.
//!
//! The scope graph is read off the tree. A production that introduces a
//! scope ([`ScopeKind`]) owns the binders whose nearest scope-introducing
//! ancestor it is. From a node, walking up, each scope `S` on the way
//! contributes its binders: all of them if `S` is recursive (functions that
//! see themselves and their siblings), else those in children of `S` that
//! come before the child leading to the node (a definition is visible after
//! itself; a lambda's parameters, an earlier field, are visible in its body).
//! Binders get fresh names, so nothing is ever shadowed.

use crate::spec::{FieldKind, ProdId, Spec};
use crate::tree::{NodeId, Slot, Tree};
use crate::types::Type;

/// How a binder is introduced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinderStyle {
    /// A definition (`let x = ...`, a function definition): the kind of
    /// binder that lifting may insert.
    Definition,
    /// A parameter of a function.
    Parameter,
}

/// Which binders of a scope a node inside it sees.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScopeKind {
    /// Binders in earlier children only (blocks, lambdas).
    Sequential,
    /// Every binder of the scope, its own included (mutually recursive
    /// definitions).
    Recursive,
}

/// Whether a reference reads or writes its variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// Reads the variable.
    Read,
    /// Assigns the variable (only writable binders qualify).
    Write,
}

/// The `binder_info` property: the data field holding the bound name, the
/// binder's style, and whether references may write it.
///
/// ```
/// use xsmith::scopes::{BinderInfo, BinderStyle};
/// let info = BinderInfo::new("name", BinderStyle::Definition).read_only();
/// assert!(!info.writable);
/// ```
#[derive(Clone, Debug)]
pub struct BinderInfo {
    /// The data field that holds the bound name.
    pub name_field: String,
    /// Definition or parameter.
    pub style: BinderStyle,
    /// Whether a write reference may target it.
    pub writable: bool,
    /// The child that holds a read-only definition's value, if any: a call
    /// through a reference to the binder then has the latent effects of
    /// that value (a function literal's body).
    pub value_field: Option<String>,
}

impl BinderInfo {
    /// A writable binder whose name is in `name_field`.
    ///
    /// ```
    /// let info = xsmith::scopes::BinderInfo::new("name", xsmith::scopes::BinderStyle::Parameter);
    /// assert!(info.writable);
    /// ```
    pub fn new(name_field: &str, style: BinderStyle) -> BinderInfo {
        BinderInfo {
            name_field: name_field.to_string(),
            style,
            writable: true,
            value_field: None,
        }
    }

    /// The same binder, but read-only.
    ///
    /// ```
    /// let info = xsmith::scopes::BinderInfo::new("n", xsmith::scopes::BinderStyle::Definition).read_only();
    /// assert!(!info.writable);
    /// ```
    pub fn read_only(mut self) -> BinderInfo {
        self.writable = false;
        self
    }

    /// The same binder, with its value in the child `field` (only read-only
    /// definitions' values are looked at: a writable one may be reassigned,
    /// and a parameter's value comes from each call).
    ///
    /// ```
    /// use xsmith::scopes::{BinderInfo, BinderStyle};
    /// let info = BinderInfo::new("name", BinderStyle::Definition).read_only().value("init");
    /// assert_eq!(info.value_field.as_deref(), Some("init"));
    /// ```
    pub fn value(mut self, field: &str) -> BinderInfo {
        self.value_field = Some(field.to_string());
        self
    }
}

/// The `reference_info` property: the data field that will hold the
/// referenced name, and whether the reference reads or writes.
///
/// ```
/// use xsmith::scopes::{Access, ReferenceInfo};
/// let target = ReferenceInfo::new("name", Access::Write);
/// assert_eq!(target.access, Access::Write);
/// ```
#[derive(Clone, Debug)]
pub struct ReferenceInfo {
    /// The data field that holds the referenced name.
    pub name_field: String,
    /// Read or write.
    pub access: Access,
}

impl ReferenceInfo {
    /// A reference whose name goes in `name_field`.
    ///
    /// ```
    /// let r = xsmith::scopes::ReferenceInfo::new("name", xsmith::scopes::Access::Read);
    /// assert_eq!(r.name_field, "name");
    /// ```
    pub fn new(name_field: &str, access: Access) -> ReferenceInfo {
        ReferenceInfo {
            name_field: name_field.to_string(),
            access,
        }
    }
}

/// A binder visible from some node.
#[derive(Clone, Debug, PartialEq)]
pub struct Binding {
    /// The bound name.
    pub name: String,
    /// The binder node.
    pub binder: NodeId,
    /// The binder's type (typed specs): a term whose variables the tree's
    /// type store knows more about (see [`Tree::node_type`] for the type
    /// with everything known filled in).
    pub ty: Option<Type>,
    /// Whether it may be written.
    pub writable: bool,
    /// Definition or parameter.
    pub style: BinderStyle,
}

/// The nearest ancestor of `node` (strictly above it) that introduces a
/// scope.
pub(crate) fn enclosing_scope(spec: &Spec, tree: &Tree, node: NodeId) -> Option<NodeId> {
    let mut cursor = tree.node(node).parent;
    while let Some(at) = cursor {
        if spec.production(tree.node(at).production).scope.is_some() && !tree.node(at).is_hole {
            return Some(at);
        }
        cursor = tree.node(at).parent;
    }
    None
}

/// The binders visible at `node`, innermost scope first, each scope's in
/// the order they were made.
///
/// ```
/// let spec = xsmith::example::spec();
/// let tree = xsmith::example::tree(&spec, 1);
/// assert!(xsmith::scopes::visible_bindings(&spec, &tree, tree.root()).is_empty());
/// ```
pub fn visible_bindings(spec: &Spec, tree: &Tree, node: NodeId) -> Vec<Binding> {
    let mut visible = Vec::new();
    let mut child = node;
    let mut cursor = tree.node(node).parent;
    while let Some(scope) = cursor {
        if let (Some(kind), Some(binders)) = (
            spec.production(tree.node(scope).production).scope,
            tree.scope_binders.get(&scope),
        ) {
            match kind {
                ScopeKind::Recursive => visible.extend(binders.iter().map(|&b| binding(spec, tree, b))),
                ScopeKind::Sequential => {
                    // Binders in children of the scope before the one that
                    // leads to `node`.
                    let earlier: smallvec::SmallVec<[NodeId; 16]> =
                        tree.children(scope).take_while(|&c| c != child).collect();
                    for &binder in binders {
                        if earlier.contains(&anchor(tree, scope, binder)) {
                            visible.push(binding(spec, tree, binder));
                        }
                    }
                }
            }
        }
        child = scope;
        cursor = tree.node(scope).parent;
    }
    visible
}

/// The child of `scope` that is `node` or an ancestor of it.
fn anchor(tree: &Tree, scope: NodeId, node: NodeId) -> NodeId {
    let mut anchor = node;
    while let Some(parent) = tree.node(anchor).parent {
        if parent == scope {
            break;
        }
        anchor = parent;
    }
    anchor
}

/// The binding a binder node makes.
pub(crate) fn binding(spec: &Spec, tree: &Tree, binder: NodeId) -> Binding {
    let production = spec.production(tree.node(binder).production);
    let info = production.binder_info.as_ref().expect("only binders are registered");
    let index = production
        .field_index(&info.name_field)
        .expect("assembly checks the name field");
    let name = match &tree.node(binder).slots[index] {
        Slot::Data(value) => value.to_string(),
        _ => unreachable!("assembly checks that the name field is a data field"),
    };
    Binding {
        name,
        binder,
        ty: tree
            .typing
            .as_ref()
            .and_then(|typing| typing.types[binder.index()].clone()),
        writable: info.writable,
        style: info.style,
    }
}

/// Where a lifted definition for a reference would go.
pub(crate) struct LiftSite {
    /// The scope node that receives it.
    pub(crate) scope: NodeId,
    /// Its list slot.
    pub(crate) slot: usize,
    /// The index in the list, just before the child holding the reference.
    pub(crate) position: usize,
    /// The definition productions that may be lifted there.
    pub(crate) definitions: Vec<ProdId>,
}

/// The nearest scope above `node` that may receive a lifted definition
/// before it, with the definition productions that fit its list (writable
/// ones only, for a write) and that `liftable` allows.
pub(crate) fn lift_site(spec: &Spec, liftable: &[bool], tree: &Tree, node: NodeId, access: Access) -> Option<LiftSite> {
    let mut child = node;
    let mut cursor = tree.node(node).parent;
    while let Some(scope) = cursor {
        let production = spec.production(tree.node(scope).production);
        if let Some(slot) = production.lift_field {
            let FieldKind::List(element_type, _) = production.fields()[slot].kind() else {
                unreachable!("lift fields are checked to be lists")
            };
            let position = match &tree.node(scope).slots[slot] {
                Slot::List(children) => children.iter().position(|&c| c == child),
                _ => None,
            };
            let definitions: Vec<ProdId> = spec
                .fillers(*element_type)
                .iter()
                .copied()
                .filter(|&p| {
                    let candidate = spec.production(p);
                    liftable[p.index()]
                        && candidate.binder_info.as_ref().is_some_and(|b| {
                            b.style == BinderStyle::Definition && (access == Access::Read || b.writable)
                        })
                })
                .collect();
            if let (Some(position), false) = (position, definitions.is_empty()) {
                return Some(LiftSite {
                    scope,
                    slot,
                    position,
                    definitions,
                });
            }
        }
        child = scope;
        cursor = tree.node(scope).parent;
    }
    None
}
