//! The catalog of the canned productions: each one's group, node type,
//! fields and type, generated from the productions themselves (the
//! `productions` page of the crate's documentation is this table, and a
//! test keeps it so).

use std::fmt::Write;
use std::sync::Arc;

use xsmith::types::{Domain, Type, TypeStore};
use xsmith::{Component, FieldKind, Piece};

use crate::{type_system, Canned};

impl Canned {
    /// A Markdown table of the canned productions: for each, its
    /// [`Group`](crate::Group) (none for a part that only its parent
    /// makes), the node type it fills (its supertype), its fields (`name:
    /// Node`, `name: [Node]` for a list, `name = data` for a data field)
    /// and the type its nodes may have, in the canned [`type_system`]
    /// (`stmt` for statements, `any` for a type any hole may choose,
    /// `one of int, bool, string` for one of those).
    ///
    /// ```
    /// let canned = xsmith_canned::Canned::new(&Default::default()).unwrap();
    /// let table = canned.catalog();
    /// assert!(table.contains("| `Less` | integers | `Expr` | `left: Expr`, `right: Expr` | `bool` |"));
    /// ```
    pub fn catalog(&self) -> String {
        let mut placeholders = Component::new("catalog");
        for production in &self.productions {
            placeholders.render(production, vec![Piece::Text("")]);
        }
        let spec = self.assemble([placeholders]).expect("the canned productions assemble");
        let grammar = spec.grammar();
        let mut store = TypeStore::new(Arc::new(type_system(&self.options)));
        let mut table = String::from("| production | group | node type | fields | type |\n|---|---|---|---|---|\n");
        for entry in &self.entries {
            let production = grammar.production(grammar.lookup(&entry.name).expect("a canned production"));
            let group = entry.group.map_or("", |g| g.name());
            let node_type = production
                .supertype()
                .map_or(String::new(), |s| format!("`{}`", grammar.production(s).name()));
            let fields: Vec<String> = production
                .fields()
                .iter()
                .map(|field| match field.kind() {
                    FieldKind::Child(p) => format!("`{}: {}`", field.name(), grammar.production(*p).name()),
                    FieldKind::List(p, _) => format!("`{}: [{}]`", field.name(), grammar.production(*p).name()),
                    FieldKind::Data(_) => format!("`{} = data`", field.name()),
                })
                .collect();
            let ty = entry.info.make_node_type(&mut store);
            let ty = describe(&store, &ty);
            let _ = writeln!(
                table,
                "| `{}` | {group} | {node_type} | {} | `{ty}` |",
                entry.name,
                fields.join(", ")
            );
        }
        table
    }
}

/// A type as the catalog shows it: an open variable by what it may become
/// (`any`, or the types it is one of).
fn describe(store: &TypeStore, ty: &Type) -> String {
    let system = store.system();
    match store.resolve(ty) {
        Type::Var(v) => match store.domain(v) {
            Domain::OneOf(candidates) => {
                let names: Vec<String> = candidates.iter().map(|c| system.display(c).to_string()).collect();
                format!("one of {}", names.join(", "))
            }
            _ => "any".to_string(),
        },
        other => without_variables(&system.display(&other).to_string()),
    }
}

/// `text` with every type variable (`?12`) written `any`.
fn without_variables(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '?' {
            while chars.peek().is_some_and(char::is_ascii_digit) {
                chars.next();
            }
            out.push_str("any");
        } else {
            out.push(c);
        }
    }
    out
}
