//! The equivalence classes of type variables: a union-find with union by
//! rank and path compression, each change logged as a typed undo action so a
//! snapshot can take it back.
//!
//! A class has a *name*, one of its variables, which the store hands out as
//! the class's representative (in [`TypeStore::resolve`], in the `?N` of a
//! printed type) and under which it keeps the class's domain and edges. The
//! name is not the union-find's root: which root a union keeps is chosen by
//! rank, to keep the trees shallow, while which name it keeps is the
//! caller's choice ([`Classes::join`]). So balancing the trees changes no
//! name, and no choice that a name could steer.
//!
//! Why not `ena`'s `UnificationTable`: its `find` compresses paths and so
//! takes `&mut self`, with no read-only lookup, while the store answers
//! queries through `&TypeStore` (a tree hands out its store by shared
//! reference to renderers, filters and fuzzers), and a `RefCell` around the
//! table would make the store, and every tree, `!Sync`. Here lookups
//! through `&self` walk without compressing, which union by rank keeps
//! logarithmic, and the unifier compresses where it holds `&mut self`. The
//! undo log is `ena`'s.
//!
//! [`TypeStore::resolve`]: super::TypeStore::resolve

use ena::undo_log::UndoLogs;

use crate::types::term::TypeVar;

/// The union-find over every variable of a store.
#[derive(Default)]
pub(super) struct Classes {
    nodes: Vec<Node>,
}

#[derive(Clone, Copy)]
struct Node {
    /// The next variable towards the root; a root is its own parent.
    parent: u32,
    /// At a root: an upper bound on the height of its tree.
    rank: u32,
    /// At a root: the name of the class.
    name: TypeVar,
}

/// A change to [`Classes`], as what undoes it.
pub(super) enum ClassUndo {
    /// A variable was added: remove it.
    Added,
    /// Root `child` was put under root `root`, whose rank and name were these.
    Joined {
        child: u32,
        root: u32,
        rank: u32,
        name: TypeVar,
    },
    /// A path was compressed: `node`'s parent was `parent`.
    Compressed { node: u32, parent: u32 },
}

impl Classes {
    /// No variables, with room for `variables` before the table grows.
    pub(super) fn with_room(variables: usize) -> Classes {
        Classes {
            nodes: Vec::with_capacity(variables),
        }
    }

    /// How many variables there are.
    #[inline]
    pub(super) fn len(&self) -> usize {
        self.nodes.len()
    }

    /// A new variable, alone in its class and its name.
    pub(super) fn add(&mut self, log: &mut impl UndoLogs<ClassUndo>) -> TypeVar {
        let index = self.nodes.len() as u32;
        self.nodes.push(Node {
            parent: index,
            rank: 0,
            name: TypeVar(index),
        });
        if log.in_snapshot() {
            log.push(ClassUndo::Added);
        }
        TypeVar(index)
    }

    /// The root of `v`'s tree, without compressing the path to it.
    #[inline]
    fn root(&self, v: TypeVar) -> u32 {
        let mut at = v.0;
        loop {
            let parent = self.nodes[at as usize].parent;
            if parent == at {
                return at;
            }
            at = parent;
        }
    }

    /// The name of `v`'s class.
    #[inline]
    pub(super) fn find(&self, v: TypeVar) -> TypeVar {
        self.nodes[self.root(v) as usize].name
    }

    /// The name of `v`'s class, pointing every variable on the way straight
    /// at the root.
    #[inline]
    pub(super) fn find_compressing(&mut self, v: TypeVar, log: &mut impl UndoLogs<ClassUndo>) -> TypeVar {
        // Most variables are roots or just below one: nothing to compress.
        let parent = self.nodes[v.index()].parent;
        if parent == v.0 || self.nodes[parent as usize].parent == parent {
            return self.nodes[parent as usize].name;
        }
        self.compress(v, log)
    }

    /// The slow path of [`Classes::find_compressing`], kept out of line.
    #[inline(never)]
    fn compress(&mut self, v: TypeVar, log: &mut impl UndoLogs<ClassUndo>) -> TypeVar {
        let root = self.root(v);
        let mut at = v.0;
        while at != root {
            let parent = self.nodes[at as usize].parent;
            if parent != root {
                self.nodes[at as usize].parent = root;
                if log.in_snapshot() {
                    log.push(ClassUndo::Compressed { node: at, parent });
                }
            }
            at = parent;
        }
        self.nodes[root as usize].name
    }

    /// Puts the class of `joining` into the class of `staying`, which keeps
    /// its name. Nothing happens when they are one class already.
    pub(super) fn join(&mut self, joining: TypeVar, staying: TypeVar, log: &mut impl UndoLogs<ClassUndo>) {
        let (a, b) = (self.root(joining), self.root(staying));
        if a == b {
            return;
        }
        let name = self.nodes[b as usize].name;
        let (rank_a, rank_b) = (self.nodes[a as usize].rank, self.nodes[b as usize].rank);
        // The root of lower rank goes under the other; equal ranks grow one.
        let (child, root) = if rank_a < rank_b { (a, b) } else { (b, a) };
        let old = self.nodes[root as usize];
        if log.in_snapshot() {
            log.push(ClassUndo::Joined {
                child,
                root,
                rank: old.rank,
                name: old.name,
            });
        }
        self.nodes[child as usize].parent = root;
        let root_node = &mut self.nodes[root as usize];
        if rank_a == rank_b {
            root_node.rank += 1;
        }
        root_node.name = name;
    }

    /// Takes back one change.
    pub(super) fn undo(&mut self, action: ClassUndo) {
        match action {
            ClassUndo::Added => {
                self.nodes.pop();
            }
            ClassUndo::Joined {
                child,
                root,
                rank,
                name,
            } => {
                self.nodes[child as usize].parent = child;
                let root = &mut self.nodes[root as usize];
                root.rank = rank;
                root.name = name;
            }
            ClassUndo::Compressed { node, parent } => self.nodes[node as usize].parent = parent,
        }
    }
}

#[cfg(test)]
mod tests {
    use ena::undo_log::{Rollback, Snapshots, VecLog};

    use super::*;

    impl Rollback<ClassUndo> for Classes {
        fn reverse(&mut self, undo: ClassUndo) {
            self.undo(undo);
        }
    }

    fn classes(n: u32, log: &mut VecLog<ClassUndo>) -> (Classes, Vec<TypeVar>) {
        let mut classes = Classes::default();
        let vars = (0..n).map(|_| classes.add(log)).collect();
        (classes, vars)
    }

    #[test]
    fn a_join_keeps_the_name_of_the_class_joined() {
        let mut log = VecLog::default();
        let (mut c, v) = classes(4, &mut log);
        c.join(v[0], v[1], &mut log);
        assert_eq!(c.find(v[0]), v[1]);
        // v[3] is alone, rank 0; the class of v[1] has rank 1 and its root
        // stays the root, but the name is v[3]'s.
        c.join(v[1], v[3], &mut log);
        for &x in &[v[0], v[1], v[3]] {
            assert_eq!(c.find(x), v[3]);
        }
        assert_eq!(c.find(v[2]), v[2]);
    }

    #[test]
    fn union_by_rank_keeps_trees_shallow() {
        let mut log = VecLog::default();
        let (mut c, v) = classes(1024, &mut log);
        // Always joining the growing class into a fresh variable would make
        // a chain 1,023 long without ranks.
        for i in 1..v.len() {
            c.join(v[i - 1], v[i], &mut log);
        }
        let height = |c: &Classes, x: TypeVar| {
            let mut at = x.0;
            let mut h = 0;
            while c.nodes[at as usize].parent != at {
                at = c.nodes[at as usize].parent;
                h += 1;
            }
            h
        };
        assert!(v.iter().all(|&x| height(&c, x) <= 10));
        assert!(v.iter().all(|&x| c.find(x) == v[1023]));
    }

    #[test]
    fn compression_and_joins_roll_back() {
        let mut log = VecLog::default();
        let (mut c, v) = classes(8, &mut log);
        let snapshot = log.start_snapshot();
        for pair in v.chunks(2) {
            c.join(pair[0], pair[1], &mut log);
        }
        c.join(v[1], v[3], &mut log);
        c.join(v[5], v[7], &mut log);
        c.join(v[3], v[7], &mut log);
        assert_eq!(c.find_compressing(v[0], &mut log), v[7]);
        assert!(v.iter().all(|&x| c.find(x) == v[7]));
        log.rollback_to(|| &mut c, snapshot);
        assert!(v.iter().all(|&x| c.find(x) == x));
    }
}
