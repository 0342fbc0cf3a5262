//! Type heads: a type's outermost constructor (a base or nominal type, a
//! generic constructor, function, product or record), the abstraction in
//! which generation reasons about which types it can still produce. A
//! [`Producible`] set of heads restricts the types concretization invents
//! to those a program can actually hold a value of.

use super::term::{BaseId, GenericId, NominalId, Type};
use super::TypeSystem;

/// A type's outermost constructor, with its key: the outermost constructor
/// of its key part, a generic type's first argument or a function's result
/// (an `array<string>` can only be made where a `string` can, a function
/// that returns an array only where an array can).
///
/// The key looks through nesting of the same constructor: `() -> () ->
/// string` keys on `string` like `() -> string`, and `array<array<int>>` on
/// `int` like `array<int>`. Otherwise a call, which needs a function
/// returning the type it makes, would need a head ("function returning a
/// function") whose representative returns *any* function, and its least
/// height would say a `string` can be made by calling a lambda that
/// returns a lambda, with no string anywhere; generation past the depth
/// bound then called lambdas returning calls of lambdas without end. Keyed
/// through the nesting, the type a call needs has the head of the type it
/// makes, so its least height is above the lambda's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Head {
    Base(BaseId),
    Nominal(NominalId),
    /// A generic type and the key of its first argument (`None`: it has
    /// none); never the same generic.
    Generic(GenericId, Option<Simple>),
    /// A function and the key of its result; never a function.
    Function(Simple),
    Product,
    Record,
}

/// A type's outermost constructor alone: the key part of a [`Head`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Simple {
    Base(BaseId),
    Nominal(NominalId),
    Generic(GenericId),
    Function,
    Product,
    Record,
}

impl Head {
    /// The outermost constructor alone.
    pub(crate) fn simple(self) -> Simple {
        match self {
            Head::Base(b) => Simple::Base(b),
            Head::Nominal(n) => Simple::Nominal(n),
            Head::Generic(g, _) => Simple::Generic(g),
            Head::Function(_) => Simple::Function,
            Head::Product => Simple::Product,
            Head::Record => Simple::Record,
        }
    }

    /// The key that a key part of this head gives a type of outermost
    /// constructor `outer`: its own key when it nests the same
    /// constructor, else its outermost constructor.
    pub(crate) fn key_inside(self, outer: Simple) -> Simple {
        match self {
            Head::Function(key) if outer == Simple::Function => key,
            Head::Generic(g, Some(key)) if outer == Simple::Generic(g) => key,
            other => other.simple(),
        }
    }
}

/// Every head of a type system, in a fixed order (its index is a head's
/// bit in a [`HeadSet`]): bases, nominal records, product and record, then
/// each generic constructor and function with each key part.
pub(crate) fn heads(system: &TypeSystem) -> Vec<Head> {
    let mut simple: Vec<Simple> = system.bases().into_iter().filter_map(|t| simple_of(&t)).collect();
    simple.extend(system.nominal_types().iter().filter_map(simple_of));
    simple.extend([Simple::Product, Simple::Record]);
    let mut heads: Vec<Head> = simple
        .iter()
        .map(|&s| match s {
            Simple::Base(b) => Head::Base(b),
            Simple::Nominal(n) => Head::Nominal(n),
            Simple::Product => Head::Product,
            _ => Head::Record,
        })
        .collect();
    simple.extend(system.generic_ids().map(Simple::Generic));
    simple.push(Simple::Function);
    for g in system.generic_ids() {
        match system.variances(g).is_empty() {
            true => heads.push(Head::Generic(g, None)),
            false => heads.extend(
                simple
                    .iter()
                    .filter(|&&s| s != Simple::Generic(g))
                    .map(|&s| Head::Generic(g, Some(s))),
            ),
        }
    }
    heads.extend(
        simple
            .iter()
            .filter(|&&s| s != Simple::Function)
            .map(|&s| Head::Function(s)),
    );
    heads
}

/// The heads of a type system ([`heads`]), with what finding the heads a
/// type may take asks of them over and over worked out once: each head's
/// bit, and for each generic constructor and function the heads whose key
/// part a set of heads allows.
pub(crate) struct HeadTable {
    all: Vec<Head>,
    /// Per generic constructor and function (`outer`): its heads with no
    /// key part, and per head `i` of `all`, its heads whose key part is
    /// `all[i]`'s outermost constructor inside `outer`.
    keyed: Vec<(Simple, HeadSet, Vec<HeadSet>)>,
}

impl HeadTable {
    /// The heads of `system`, in the order of [`heads`].
    pub(crate) fn new(system: &TypeSystem) -> HeadTable {
        let all = heads(system);
        let outers = system.generic_ids().map(Simple::Generic).chain([Simple::Function]);
        let keyed = outers
            .map(|outer| {
                let key_of = |h: Head| match (h, outer) {
                    (Head::Generic(x, key), Simple::Generic(g)) if x == g => Some(key),
                    (Head::Function(key), Simple::Function) => Some(Some(key)),
                    _ => None,
                };
                let set_of = |wanted: Option<Simple>| {
                    all.iter().enumerate().fold(0, |set, (i, &h)| match key_of(h) {
                        Some(key) if key == wanted => set | bit(i),
                        _ => set,
                    })
                };
                let by_key = all.iter().map(|h| set_of(Some(h.key_inside(outer)))).collect();
                (outer, set_of(None), by_key)
            })
            .collect();
        HeadTable { all, keyed }
    }

    /// The bit of `head`; every bit for a head the system does not have.
    pub(crate) fn bit_of(&self, head: Head) -> HeadSet {
        self.all.iter().position(|&h| h == head).map_or(ALL_HEADS, bit)
    }

    /// The heads of outermost constructor `outer` (a generic constructor
    /// or function) whose key part may have one of the heads in `key`:
    /// those without a key part, and those whose key part is the outermost
    /// constructor, inside `outer`, of a head in `key`.
    pub(crate) fn keyed(&self, key: HeadSet, outer: Simple) -> HeadSet {
        let Some((_, none, by_key)) = self.keyed.iter().find(|(o, _, _)| *o == outer) else {
            return 0;
        };
        by_key
            .iter()
            .enumerate()
            .filter(|&(i, _)| key & bit(i) != 0)
            .fold(*none, |set, (_, &heads)| set | heads)
    }
}

impl std::ops::Deref for HeadTable {
    type Target = [Head];

    fn deref(&self) -> &[Head] {
        &self.all
    }
}

/// The outermost constructor of a type that is not a variable.
pub(crate) fn simple_of(ty: &Type) -> Option<Simple> {
    Some(match ty {
        Type::Var(_) => return None,
        Type::Base(b) => Simple::Base(*b),
        Type::Nominal(n) => Simple::Nominal(*n),
        Type::Generic(g, _) => Simple::Generic(*g),
        Type::Function(_) => Simple::Function,
        Type::Product(_) => Simple::Product,
        Type::Record(_) => Simple::Record,
    })
}

/// The head of a type whose outermost constructor and key are not
/// variables.
pub(crate) fn head_of(ty: &Type) -> Option<Head> {
    Some(match ty {
        Type::Var(_) => return None,
        Type::Base(b) => Head::Base(*b),
        Type::Nominal(n) => Head::Nominal(*n),
        Type::Generic(g, args) => match args.first() {
            Some(arg) => Head::Generic(*g, Some(head_of(arg)?.key_inside(Simple::Generic(*g)))),
            None => Head::Generic(*g, None),
        },
        Type::Function(f) => Head::Function(head_of(&f.1)?.key_inside(Simple::Function)),
        Type::Product(_) => Head::Product,
        Type::Record(_) => Head::Record,
    })
}

/// A set of heads of one type system, as bits in the order of [`heads`]
/// (a type system with more than 64 heads has its extra heads folded onto
/// the last bit, which only makes the sets larger: safe for reasoning that
/// over-approximates what can be produced).
pub(crate) type HeadSet = u64;

/// The set with every head.
pub(crate) const ALL_HEADS: HeadSet = u64::MAX;

/// The bit of head number `index`.
pub(crate) fn bit(index: usize) -> HeadSet {
    1 << index.min(63)
}

/// The heads of which a program can produce values: concretization picks
/// types built of these alone when it can (see
/// [`TypeStore::set_producible`](crate::types::TypeStore::set_producible)).
#[derive(Clone, Debug)]
pub struct Producible {
    heads: Vec<Head>,
    set: HeadSet,
}

impl Producible {
    /// The producible heads `set` (bits in the order of [`heads`]).
    pub(crate) fn new(system: &TypeSystem, set: HeadSet) -> Producible {
        Producible {
            heads: heads(system),
            set,
        }
    }

    /// Whether every head of ground type `ty` is producible.
    pub(crate) fn allows(&self, ty: &Type) -> bool {
        let own = match head_of(ty) {
            Some(head) => self.allows_head(head),
            None => true,
        };
        own && match ty {
            // A function's parameters are a product its values never are:
            // what must be producible is each parameter and the result.
            Type::Function(f) => {
                let params = match &f.0 {
                    Type::Product(items) => items.iter().all(|item| self.allows(item)),
                    other => self.allows(other),
                };
                params && self.allows(&f.1)
            }
            _ => ty.all_parts(|part| self.allows(part)),
        }
    }

    /// Whether values of head `head` can be produced.
    pub(crate) fn allows_head(&self, head: Head) -> bool {
        let index = self.heads.iter().position(|&h| h == head);
        index.map_or(true, |i| self.set & bit(i) != 0)
    }

    /// Whether every head is producible (nothing to restrict).
    pub(crate) fn is_everything(&self) -> bool {
        (0..self.heads.len()).all(|i| self.set & bit(i) != 0)
    }
}
