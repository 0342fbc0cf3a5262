//! The caches of attributes: per attribute, a table with an entry per node
//! holding the value and the tree version it was computed at, and a marker
//! per node while the value is being computed (to report a cyclic
//! definition). What a version means for staleness is the attribute's
//! business (see `attributes`); this module only stores.

use std::any::Any;
use std::cell::RefCell;

use crate::tree::NodeId;

/// A cached value and the tree version it was computed at.
pub(crate) struct Entry<T> {
    pub(crate) value: T,
    pub(crate) computed_at: u64,
}

/// The cache of one attribute: an entry per node, and whether the value
/// at each node is being computed.
pub(crate) struct Table<T> {
    pub(crate) entries: Vec<Option<Entry<T>>>,
    pub(crate) in_progress: Vec<bool>,
}

/// Every attribute cache of one program, by attribute id. A program uses
/// a few attributes (the effect analysis two), and every lookup, several
/// per hole, finds its table: a short list searched in order costs less
/// than hashing the id.
#[derive(Default)]
pub(crate) struct AttributeCaches {
    tables: RefCell<Vec<(usize, Box<dyn Any>)>>,
}

impl AttributeCaches {
    /// The value cached for attribute `id` at `node`, if `still_good` holds
    /// of the version it was computed at.
    pub(crate) fn cached<T: Clone + 'static>(
        &self,
        id: usize,
        node: NodeId,
        still_good: impl FnOnce(u64) -> bool,
    ) -> Option<T> {
        let tables = self.tables.borrow();
        let (_, table) = tables.iter().find(|(table_id, _)| *table_id == id)?;
        let table = table.downcast_ref::<Table<T>>()?;
        let entry = table.entries.get(node.index())?.as_ref()?;
        still_good(entry.computed_at).then(|| entry.value.clone())
    }

    /// Runs `f` on the table of attribute `id`, made (or grown) to have an
    /// entry for each of `len` nodes.
    pub(crate) fn with_table<T: 'static, R>(&self, id: usize, len: usize, f: impl FnOnce(&mut Table<T>) -> R) -> R {
        let mut tables = self.tables.borrow_mut();
        let index = match tables.iter().position(|(table_id, _)| *table_id == id) {
            Some(index) => index,
            None => {
                let table: Box<dyn Any> = Box::new(Table::<T> {
                    entries: Vec::new(),
                    in_progress: Vec::new(),
                });
                tables.push((id, table));
                tables.len() - 1
            }
        };
        let table = tables[index]
            .1
            .downcast_mut::<Table<T>>()
            .expect("an attribute id always maps to a table of its own value type");
        if table.entries.len() < len {
            table.entries.resize_with(len, || None);
            table.in_progress.resize(len, false);
        }
        f(table)
    }
}
