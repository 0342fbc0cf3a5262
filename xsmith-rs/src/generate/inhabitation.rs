//! Inhabitation: which productions can still make a finished subtree of
//! which type, with the productions switched on, and how soon.
//!
//! Types are abstracted to their heads (`int`, `array<_>`, functions,
//! records, ...). For each production and head, a probe on a scratch store
//! unifies the production's node type with a type of that head and types
//! its required children (single children, lists that cannot be empty),
//! noting each child's node type and the heads its type may take. A
//! reference also needs a definition it can lift of the same head. Then a
//! least fixpoint, like the grammar's finishing heights but per head, gives
//! the least height at which each production finishes a subtree of each
//! head, `NEVER` if it cannot. It is computed once per generator, so that
//! generation asks only table look-ups: a choice that cannot make the
//! hole's type is dropped before it is offered, past the depth bound the
//! choices that finish soonest *for the hole's type* are kept, only
//! definitions of producible types are lifted, and concretization picks
//! types of producible heads.
//!
//! A head keeps one constructor of a type's key part (looking through
//! nesting of the same constructor: `() -> () -> string` keys on `string`),
//! so the least height of a head is optimistic for a type nested deeper
//! than its representative, such as `array<list<T>>`. A *growing*
//! production, whose child's type strictly contains its own (a call needs
//! a function returning its type, an element read an array of its type, a
//! field read a record with a field of its type), could then look cheapest
//! past the depth bound again and again, each time asking for a larger
//! type. So a second fixpoint leaves growing productions out, and past the
//! bound a choice ranks first by the height it *settles* at (finishing
//! with no growing production), then by its least height ([`Finish`]).
//! Settling choices' children are parts of the hole's type, the same type
//! (never least), or free types, so the subtree ends.

use std::sync::Arc;

use crate::grammar::{FieldKind, ProdId, NEVER};
use crate::hooks::ChildTypes;
use crate::options::OptionError;
use crate::scopes::Access;
use crate::spec::Spec;
use crate::types::heads::{bit, head_of, Head, HeadSet, HeadTable, Simple, ALL_HEADS};
use crate::types::{Domain, NodeTypeShape, Producible, Type, TypeStore};

/// What a production needs to make a node of one head.
struct Needs {
    /// Each required child's node type and the heads its type may take.
    children: Vec<(ProdId, HeadSet)>,
    /// Whether it is a reference, which may need a lifted definition.
    reference: bool,
    /// Whether it is a reference that writes (its definition must be
    /// writable).
    writes: bool,
    /// Whether a required child's type strictly contains the node's own.
    growing: bool,
}

/// How soon a choice finishes a subtree, in the order past the depth bound
/// prefers: first the height at which it finishes with no growing
/// production (`NEVER` if it needs one), then its least height.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Finish {
    settling: u32,
    least: u32,
}

impl Finish {
    /// A choice without an inhabitation table: its grammar's finishing
    /// height.
    pub(crate) fn untyped(height: u32) -> Finish {
        Finish {
            settling: height,
            least: height,
        }
    }

    /// Whether it can finish at all.
    pub(crate) fn is_possible(self) -> bool {
        self.least != NEVER
    }

    /// One step later (a reference finishes a step after the definition
    /// it lifts).
    pub(crate) fn then_one_more(self) -> Finish {
        Finish {
            settling: self.settling.saturating_add(1),
            least: self.least.saturating_add(1),
        }
    }
}

/// Least heights per production and per node type, rows of one entry per
/// head.
struct Heights {
    /// Per production, counting a reference's lifted definition.
    productions: Vec<u32>,
    /// Per production, without a reference's lifted definition.
    own: Vec<u32>,
    /// Per node type: the least over its switched-on productions.
    types: Vec<u32>,
}

/// The least finishing heights of productions and node types per type
/// head, for one spec under one set of switched-on productions.
pub(crate) struct Inhabitation {
    heads: HeadTable,
    /// What each production needs per head (`None`: it cannot have it).
    needs: Vec<Option<Needs>>,
    /// `heights[p * (heads + 1) + h]`: the least height of a subtree rooted
    /// at production `p` whose type has head `h` (a reference counts a
    /// lifted definition); each row ends with its least, for holes of any
    /// type.
    heights: Vec<u32>,
    /// The same without a reference's lifted definition (a reference that
    /// reads a visible variable needs none).
    own_heights: Vec<u32>,
    /// `type_heights[n * (heads + 1) + h]`: the least over node type `n`'s
    /// switched-on productions (each row ending with its least).
    type_heights: Vec<u32>,
    /// `heights` with no growing production.
    settling_heights: Vec<u32>,
    /// `own_heights` with no growing production.
    settling_own_heights: Vec<u32>,
    /// The heads some switched-on production can make a subtree of.
    producible: Arc<Producible>,
}

impl Inhabitation {
    /// The inhabitation of typed `spec` with productions `enabled` (those
    /// that fill holes) and `liftable` (definitions that may be lifted);
    /// `None` for an untyped spec.
    pub(crate) fn new(spec: &Spec, enabled: &[bool], liftable: &[bool]) -> Option<Inhabitation> {
        let system = spec.type_system()?;
        let heads = HeadTable::new(system);
        let n = heads.len();
        let grammar = spec.grammar();
        let relevant = |p: ProdId| enabled[p.index()] || liftable[p.index()];
        let needs: Vec<Option<Needs>> = grammar
            .ids()
            .flat_map(|p| {
                let heads = &heads;
                (0..n).map(move |h| match relevant(p) {
                    true => probe(spec, heads, p, heads[h]),
                    false => None,
                })
            })
            .collect();
        let lifts = Lifts::new(spec, enabled, liftable);
        let least = fixpoint(spec, &needs, n, enabled, &lifts, |_| true);
        let settling = fixpoint(spec, &needs, n, enabled, &lifts, |need| !need.growing);
        let producible_set = (0..n)
            .filter(|&h| {
                grammar.ids().any(|p| {
                    enabled[p.index()]
                        && least.productions[p.index() * n + h] != NEVER
                        && makes_values(spec, &needs, n, p)
                })
            })
            .fold(0, |set, h| set | bit(h));
        Some(Inhabitation {
            needs,
            producible: Arc::new(Producible::new(system, producible_set)),
            heads,
            heights: with_least(&least.productions, n),
            own_heights: with_least(&least.own, n),
            type_heights: with_least(&least.types, n),
            settling_heights: with_least(&settling.productions, n),
            settling_own_heights: with_least(&settling.own, n),
        })
    }

    /// The heads generation can make values of.
    pub(crate) fn producible(&self) -> &Arc<Producible> {
        &self.producible
    }

    /// The heads `ty` may still take in `store`.
    pub(crate) fn possible_heads(&self, store: &TypeStore, ty: &Type) -> HeadSet {
        possible_heads(store, &self.heads, ty)
    }

    /// The least height at which `production` finishes a subtree of one of
    /// the heads `set`, counting a lifted definition for a reference
    /// (`lifted`) or not.
    pub(crate) fn height(&self, production: ProdId, set: HeadSet, lifted: bool) -> u32 {
        let table = if lifted { &self.heights } else { &self.own_heights };
        least(table, self.heads.len(), production, set)
    }

    /// How soon `production` finishes a subtree of one of the heads `set`,
    /// in the order past the depth bound prefers (see [`Finish`]).
    pub(crate) fn finish(&self, production: ProdId, set: HeadSet, lifted: bool) -> Finish {
        let settling = if lifted {
            &self.settling_heights
        } else {
            &self.settling_own_heights
        };
        Finish {
            settling: least(settling, self.heads.len(), production, set),
            least: self.height(production, set, lifted),
        }
    }

    /// The least height at which node type `node_type` finishes a subtree
    /// of one of the heads `set`.
    pub(crate) fn type_height(&self, node_type: ProdId, set: HeadSet) -> u32 {
        least(&self.type_heights, self.heads.len(), node_type, set)
    }

    /// Fails, naming what is missing, when no program can be finished: the
    /// root, then along the first production of each node type, the first
    /// required child that nothing switched on can make.
    pub(crate) fn check_root(&self, spec: &Spec, enabled: &[bool]) -> Result<(), OptionError> {
        let root = spec.root();
        if self.type_height(root, ALL_HEADS) != NEVER {
            return Ok(());
        }
        let n = self.heads.len();
        let name = |p: ProdId| spec.production(p).name().to_string();
        let mut steps = Vec::new();
        let (mut node_type, mut set) = (root, ALL_HEADS);
        let mut seen = Vec::new();
        while !seen.contains(&(node_type, set)) {
            seen.push((node_type, set));
            let types = self.describe_heads(spec, set);
            let made = match set {
                ALL_HEADS => format!("`{}`", name(node_type)),
                _ => format!("`{}` of type {}", name(node_type), types.join(" or ")),
            };
            // The first switched-on production of the node type, at a head
            // it can have, and the first of its children that cannot be made.
            let blocked = spec
                .fillers(node_type)
                .iter()
                .filter(|p| enabled[p.index()])
                .find_map(|&p| {
                    (0..n).filter(|&h| set & bit(h) != 0).find_map(|h| {
                        let need = self.needs[p.index() * n + h].as_ref()?;
                        let child = need.children.iter().find(|&&(t, s)| self.type_height(t, s) == NEVER)?;
                        Some((p, *child))
                    })
                });
            match blocked {
                Some((production, child)) => {
                    steps.push(format!("{made} needs (as `{}`)", name(production)));
                    (node_type, set) = child;
                }
                None => {
                    steps.push(format!("{made}, which no switched-on production makes"));
                    break;
                }
            }
        }
        Err(OptionError::Uninhabited {
            node_type: name(root),
            missing: steps.join(" "),
        })
    }

    /// The names of the heads in `set`, for errors.
    pub(crate) fn describe_heads(&self, spec: &Spec, set: HeadSet) -> Vec<String> {
        let system = spec.type_system().expect("a typed spec");
        let mut store = TypeStore::new(system.clone());
        (0..self.heads.len())
            .filter(|&h| set & bit(h) != 0)
            .map(|h| {
                let ty = representative(&mut store, self.heads[h]);
                system.display(&store.zonk(&ty)).to_string()
            })
            .collect()
    }
}

/// The definitions a reference may get lifted: those liftable into the
/// list of some switched-on scope, for reads; the writable ones of those,
/// for writes.
struct Lifts {
    reads: Vec<bool>,
    writes: Vec<bool>,
}

impl Lifts {
    fn new(spec: &Spec, enabled: &[bool], liftable: &[bool]) -> Lifts {
        let grammar = spec.grammar();
        let mut reads = vec![false; grammar.productions().len()];
        for scope in grammar.ids().filter(|s| enabled[s.index()]) {
            let Some(slot) = spec.properties(scope).lift_field else {
                continue;
            };
            if let FieldKind::List(element_type, _) = spec.production(scope).fields()[slot].kind() {
                for &p in spec.fillers(*element_type) {
                    reads[p.index()] |= liftable[p.index()];
                }
            }
        }
        let writes = grammar
            .ids()
            .map(|p| {
                reads[p.index()]
                    && spec
                        .properties(p)
                        .binder_info
                        .as_ref()
                        .is_some_and(|binder| binder.writable)
            })
            .collect();
        Lifts { reads, writes }
    }
}

/// The least fixpoint of the heights of the productions switched on
/// (`enabled`) or liftable, from what each needs per head (`needs`, rows of
/// `n` heads), using only the needs that `usable` accepts.
fn fixpoint(
    spec: &Spec,
    needs: &[Option<Needs>],
    n: usize,
    enabled: &[bool],
    lifts: &Lifts,
    usable: impl Fn(&Needs) -> bool,
) -> Heights {
    let grammar = spec.grammar();
    let count = grammar.productions().len();
    let mut heights = vec![NEVER; count * n];
    let mut type_heights = vec![NEVER; count * n];
    // The least height of a definition lifted for a read, and for a write,
    // per head.
    let mut lift_heights = [vec![NEVER; n], vec![NEVER; n]];
    let least_of = |type_heights: &[u32], node_type: ProdId, set: HeadSet| {
        (0..n)
            .filter(|&h| set & bit(h) != 0)
            .map(|h| type_heights[node_type.index() * n + h])
            .min()
            .unwrap_or(NEVER)
    };
    let children_height = |type_heights: &[u32], need: &Needs| {
        need.children
            .iter()
            .map(|&(node_type, set)| least_of(type_heights, node_type, set).saturating_add(1))
            .max()
            .unwrap_or(0)
    };
    let mut changed = true;
    while changed {
        changed = false;
        for (index, need) in needs.iter().enumerate() {
            let Some(need) = need.as_ref().filter(|need| usable(need)) else {
                continue;
            };
            let mut height = children_height(&type_heights, need);
            if need.reference {
                let lifted = lift_heights[usize::from(need.writes)][index % n];
                height = height.max(lifted.saturating_add(1));
            }
            // Heights only go down, so this reaches the least fixpoint.
            if height < heights[index] {
                heights[index] = height;
                changed = true;
            }
        }
        for node_type in grammar.ids() {
            for h in 0..n {
                type_heights[node_type.index() * n + h] = grammar
                    .fillers(node_type)
                    .iter()
                    .filter(|p| enabled[p.index()])
                    .map(|p| heights[p.index() * n + h])
                    .min()
                    .unwrap_or(NEVER);
            }
        }
        for (lift_heights, lifted) in lift_heights.iter_mut().zip([&lifts.reads, &lifts.writes]) {
            for (h, lift) in lift_heights.iter_mut().enumerate() {
                *lift = grammar
                    .ids()
                    .filter(|p| lifted[p.index()])
                    .map(|p| heights[p.index() * n + h])
                    .min()
                    .unwrap_or(NEVER);
            }
        }
    }
    let own = needs
        .iter()
        .enumerate()
        .map(|(index, need)| match need {
            Some(need) if need.reference && usable(need) => children_height(&type_heights, need),
            _ => heights[index],
        })
        .collect();
    Heights {
        productions: heights,
        own,
        types: type_heights,
    }
}

/// Whether a node of `production` stands for a value of its type, so that
/// it shows that type's head producible. A binder (a parameter, a loop
/// variable, a definition) has its variable's type but makes no value; a
/// production whose node type is a fresh variable that none of its
/// children's types follows (a block, a print statement) can have any type
/// and makes a value of none. A reference reads a value of its type.
fn makes_values(spec: &Spec, needs: &[Option<Needs>], n: usize, production: ProdId) -> bool {
    let properties = spec.properties(production);
    if properties.binder_info.is_some() {
        return false;
    }
    if properties.reference_info.is_some() || !matches!(spec.node_type_shape(production), Some(NodeTypeShape::Fresh)) {
        return true;
    }
    // A fresh node type that some child's type follows: the children's
    // heads differ with the node's.
    let row = &needs[production.index() * n..(production.index() + 1) * n];
    let children = |h: usize| {
        row[h]
            .as_ref()
            .map(|need| need.children.iter().map(|c| c.1).collect::<Vec<_>>())
    };
    (1..n).any(|h| children(h) != children(0))
}

/// The least of row `id` of `table` (rows of `n` heads, then the least of
/// the row) over the heads in `set`.
fn least(table: &[u32], n: usize, id: ProdId, set: HeadSet) -> u32 {
    let row = &table[id.index() * (n + 1)..(id.index() + 1) * (n + 1)];
    if set == ALL_HEADS {
        return row[n];
    }
    if n >= 64 {
        return (0..n)
            .filter(|&h| set & bit(h) != 0)
            .map(|h| row[h])
            .min()
            .unwrap_or(NEVER);
    }
    let mut bits = set & ((1 << n) - 1);
    let mut least = NEVER;
    while bits != 0 {
        least = least.min(row[bits.trailing_zeros() as usize]);
        bits &= bits - 1;
    }
    least
}

/// `table` (rows of `n` heads) with each row's least appended.
fn with_least(table: &[u32], n: usize) -> Vec<u32> {
    table
        .chunks(n.max(1))
        .flat_map(|row| row.iter().copied().chain([row.iter().copied().min().unwrap_or(NEVER)]))
        .collect()
}

/// What `production` needs to make a node whose type has head `head`:
/// `None` when its node type cannot have that head.
fn probe(spec: &Spec, heads: &HeadTable, production: ProdId, head: Head) -> Option<Needs> {
    let system = spec.type_system()?;
    let mut store = TypeStore::new(system.clone());
    let info = spec.type_info(production);
    let hole = representative(&mut store, head);
    let ty = (info.node_type)(&mut store);
    store.unify(&ty, &hole).ok()?;
    let grammar_production = spec.production(production);
    let properties = spec.properties(production);
    // Each field's length: a list its least, as its list-length hook makes it.
    let lengths: Vec<(&str, usize)> = grammar_production
        .fields()
        .iter()
        .filter_map(|field| match field.kind() {
            FieldKind::Child(_) => Some((field.name(), 1)),
            FieldKind::List(_, length) => {
                let least = properties
                    .list_lengths
                    .iter()
                    .find(|(name, _)| name == field.name())
                    .map_or(length.min(), |(_, f)| f(&mut store, &ty, length.min()));
                Some((field.name(), least))
            }
            FieldKind::Data(_) => None,
        })
        .collect();
    let mut children = Vec::new();
    let mut growing = false;
    let own = store.zonk(&ty);
    let mut earlier: Vec<(&str, Type)> = Vec::new();
    for field in grammar_production.fields() {
        let node_type = match field.kind() {
            FieldKind::Child(t) | FieldKind::List(t, _) => *t,
            FieldKind::Data(_) => continue,
        };
        let len = lengths
            .iter()
            .find(|(name, _)| *name == field.name())
            .map_or(0, |l| l.1);
        if len == 0 {
            continue;
        }
        let function = info.children.iter().find(|(name, _)| name == field.name());
        let child_type = match function {
            Some((_, function)) => function(&mut ChildTypes {
                store: &mut store,
                node_type: ty.clone(),
                index: 0,
                len,
                field_lens: &lengths,
                earlier: &earlier,
            }),
            None => store.fresh(),
        };
        children.push((node_type, possible_heads(&store, heads, &child_type)));
        growing |= strictly_contains(&store.zonk(&child_type), &own);
        // A value of a composite type holds values of its parts (an array
        // its elements, a record its fields): they must be made too, where
        // the child's node type constructs values. A node type of
        // references only (a global's name) reads a definition, whose own
        // needs say what its parts take.
        let constructs = spec
            .fillers(node_type)
            .iter()
            .any(|p| spec.properties(*p).reference_info.is_none());
        if constructs {
            parts_needed(&store, heads, &child_type, node_type, &mut children);
        }
        earlier.push((field.name(), child_type));
    }
    Some(Needs {
        children,
        reference: properties.reference_info.is_some(),
        writes: properties
            .reference_info
            .as_ref()
            .is_some_and(|info| info.access == Access::Write),
        growing,
    })
}

/// Whether `part` is a part of `whole` at some depth, other than `whole`
/// itself.
fn strictly_contains(whole: &Type, part: &Type) -> bool {
    whole
        .parts()
        .into_iter()
        .any(|inner| inner == part || strictly_contains(inner, part))
}

/// The heads `ty` may still take in `store`: its own, or the ones its
/// variable's domain allows (a generic type's or function's, with each head
/// its key part may take).
pub(crate) fn possible_heads(store: &TypeStore, all: &HeadTable, ty: &Type) -> HeadSet {
    let resolved = match store.resolve_ref(ty) {
        Ok(resolved) => resolved,
        Err(v) => {
            return match store.domain(v) {
                Domain::OneOf(candidates) => candidates
                    .iter()
                    .map(|c| possible_heads(store, all, c))
                    .fold(0, |set, h| set | h),
                Domain::AnyProduct => all.bit_of(Head::Product),
                Domain::RecordAtLeast(_) => all.bit_of(Head::Record),
                Domain::Any | Domain::Bound(_) => ALL_HEADS,
            }
        }
    };
    match resolved {
        &Type::Generic(g, ref args) => match args.first() {
            Some(arg) => all.keyed(possible_heads(store, all, arg), Simple::Generic(g)),
            None => all.bit_of(Head::Generic(g, None)),
        },
        Type::Function(f) => all.keyed(possible_heads(store, all, &f.1), Simple::Function),
        resolved => head_of(resolved).map_or(ALL_HEADS, |h| all.bit_of(h)),
    }
}

/// Adds to `needs` a need of node type `node_type` for each part of `ty`,
/// at any depth: the heads it may take.
fn parts_needed(
    store: &TypeStore,
    heads: &HeadTable,
    ty: &Type,
    node_type: ProdId,
    needs: &mut Vec<(ProdId, HeadSet)>,
) {
    let resolved = store.resolve(ty);
    let known_fields: Vec<Type> = match &resolved {
        Type::Var(v) => match store.domain(*v) {
            Domain::RecordAtLeast(fields) => fields.iter().map(|(_, t)| t.clone()).collect(),
            _ => Vec::new(),
        },
        _ => Vec::new(),
    };
    // A function value holds no value of its parameters' or its result's
    // types: the production that makes it (a lambda, a definition a
    // reference lifts) needs its body, and its own needs say so. Asking the
    // child's node type for them would be wrong where that node type only
    // names functions (a call's callee in a language without function
    // values).
    let parts: Vec<&Type> = match &resolved {
        Type::Function(_) => Vec::new(),
        _ => resolved.parts().into_iter().collect(),
    };
    for part in parts.into_iter().chain(&known_fields) {
        let set = possible_heads(store, heads, part);
        if set != ALL_HEADS && !needs.contains(&(node_type, set)) {
            needs.push((node_type, set));
        }
        parts_needed(store, heads, part, node_type, needs);
    }
}

/// A type of the outermost constructor `simple` whose parts are fresh
/// variables of `store`.
fn simple_representative(store: &mut TypeStore, simple: Simple) -> Type {
    match simple {
        Simple::Base(b) => Type::Base(b),
        Simple::Nominal(n) => Type::Nominal(n),
        Simple::Generic(g) => {
            let arity = store.system().variances(g).len();
            let args = (0..arity).map(|_| store.fresh()).collect();
            Type::generic(g, args)
        }
        Simple::Function => {
            let (params, result) = (store.fresh_product(), store.fresh());
            Type::function_of(params, result)
        }
        Simple::Product => store.fresh_product(),
        Simple::Record => store.fresh_record(Vec::<(&str, Type)>::new()),
    }
}

/// A type of head `head` whose other parts are fresh variables of `store`.
pub(crate) fn representative(store: &mut TypeStore, head: Head) -> Type {
    match head {
        Head::Generic(g, Some(key)) => {
            let arity = store.system().variances(g).len();
            let first = simple_representative(store, key);
            let args = std::iter::once(first)
                .chain((1..arity).map(|_| store.fresh()))
                .collect();
            Type::generic(g, args)
        }
        Head::Function(key) => {
            let params = store.fresh_product();
            let result = simple_representative(store, key);
            Type::function_of(params, result)
        }
        other => simple_representative(store, other.simple()),
    }
}

#[cfg(test)]
mod tests {
    use crate::types::TypeSystem;
    use crate::{Component, Generator, OptionError, Options, ProductionDecl, Random, Renderer, Spec, TypeInfo};

    /// `P { e: E }` whose child must be a `bool`, with an int literal, a
    /// comparison of ints (in group `compare`), and a bool literal (in
    /// group `bools`).
    fn spec() -> Spec {
        let mut system = TypeSystem::new();
        system.base("int");
        system.base("bool");
        let mut c = Component::new("tiny");
        c.production(ProductionDecl::new("P").child("e", "E"));
        c.production(ProductionDecl::new("E").abstract_());
        for name in ["Int", "Bool"] {
            c.production(ProductionDecl::new(name).supertype("E"));
        }
        c.production(
            ProductionDecl::new("Less")
                .supertype("E")
                .child("l", "E")
                .child("r", "E"),
        );
        c.type_info("P", TypeInfo::new(|s| s.fresh()).child("e", |c| c.base("bool")));
        c.type_info("Int", TypeInfo::new(|s| s.base("int")));
        c.type_info("Bool", TypeInfo::new(|s| s.base("bool")));
        c.type_info(
            "Less",
            TypeInfo::new(|s| s.base("bool"))
                .child("l", |c| c.base("int"))
                .child("r", |c| c.base("int")),
        );
        c.feature("Bool", "bools")
            .feature("Less", "compare")
            .feature("Int", "ints");
        for name in ["P", "Int", "Bool", "Less"] {
            c.render(name, Renderer::Template(vec![]));
        }
        Spec::assemble_typed("P", system, [c]).unwrap()
    }

    fn without(groups: &[&str]) -> Options {
        Options {
            without: groups.iter().map(|g| g.to_string()).collect(),
            ..Options::default()
        }
    }

    #[test]
    fn a_root_no_switched_on_production_can_make_is_an_error_naming_what_is_missing() {
        let spec = spec();
        let error = Generator::new(&spec, without(&["bools", "compare"])).err().unwrap();
        assert!(matches!(&error, OptionError::Uninhabited { node_type, .. } if node_type == "P"));
        let message = error.to_string();
        assert!(message.contains("`E` of type bool"), "{message}");
        // Without ints, a bool can still be a literal; without bool literals, a comparison.
        for groups in [&["ints"][..], &["bools"]] {
            let mut generator = Generator::new(&spec, without(groups)).unwrap();
            for seed in 0..50 {
                generator.generate(&mut Random::from_seed(seed)).unwrap();
            }
        }
    }

    #[test]
    fn a_type_only_an_uninhabited_production_could_make_is_never_required() {
        // Without ints, `Less` needs an int nothing makes: it is never chosen.
        let spec = spec();
        let less = spec.lookup("Less").unwrap();
        let mut generator = Generator::new(&spec, without(&["ints"])).unwrap();
        generator.count_offers(true);
        for seed in 0..100 {
            generator.generate(&mut Random::from_seed(seed)).unwrap();
        }
        assert_eq!(generator.choice_log().offered(less), 0);
        assert!(generator.choice_log().offered(spec.root()) > 0);
    }
}
