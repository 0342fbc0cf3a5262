//! Containers: mutable arrays and immutable lists (never empty, so a safe
//! index is the index modulo the length), dictionaries from strings (access
//! with a default), and structural records with field access and
//! assignment. Stores keep to base types, so no container ever holds
//! itself and no stored function is ever replaced.

use xsmith::types::Type;
use xsmith::Access;
use xsmith::{DataInit, ListLength, ProductionDecl, TypeInfo};

use crate::builder::Builder;
use crate::statements::{stmt, stmt_type};
use crate::types::{element_of_node, field_of_node, fresh_base, generic_of};
use crate::Group;

fn expr(name: &str) -> ProductionDecl {
    ProductionDecl::new(name).supertype("Expr")
}

/// The longest container literal.
const MAX_ITEMS: usize = 4;

/// `Literal { items }` of generic `kind`, `Get { container, index }`.
fn sequence(b: &mut Builder, group: Group, kind: &'static str, literal: &str, get: &str, mutable: bool) {
    let min = usize::from(kind != "dict");
    b.add(
        group,
        expr(literal).list("items", "Expr", ListLength::uniform(min, MAX_ITEMS)),
        TypeInfo::new(move |s| {
            let element = s.fresh();
            generic_of(s, kind, element)
        })
        .child("items", element_of_node),
        6,
    );
    let (container, index) = if kind == "dict" {
        ("dict", "key")
    } else {
        (kind, "index")
    };
    let index_type = if kind == "dict" { "string" } else { "int" };
    let mut decl = expr(get).child(container, "Expr").child(index, "Expr");
    let mut info = TypeInfo::new(|s| s.fresh())
        .child(container, move |c| {
            let element = c.node_type().clone();
            generic_of(c.store(), kind, element)
        })
        .child(index, move |c| c.base(index_type));
    if kind == "dict" {
        decl = decl.child("default", "Expr");
        info = info.child("default", |c| c.node_type().clone());
    }
    let get = b.add(group, decl, info, 8);
    if mutable {
        b.component.mutable_container_access(&get, container, Access::Read);
    }
}

/// `Set { container, index, value }`, a statement storing a base value.
fn store(b: &mut Builder, group: Group, kind: &'static str, name: &str) {
    let (container, index) = if kind == "dict" {
        ("dict", "key")
    } else {
        (kind, "index")
    };
    let index_type = if kind == "dict" { "string" } else { "int" };
    let set = b.add(
        group,
        stmt(name)
            .child(container, "Expr")
            .child(index, "Expr")
            .child("value", "Expr"),
        stmt_type()
            .child(container, move |c| {
                let element = fresh_base(c.store());
                generic_of(c.store(), kind, element)
            })
            .child(index, move |c| c.base(index_type))
            .child("value", move |c| {
                let container = c.earlier(container).expect("the container is typed first");
                match container {
                    Type::Generic(_, args) => args[0].clone(),
                    other => panic!("a container store has a generic container, not {other:?}"),
                }
            }),
        6,
    );
    b.component.mutable_container_access(&set, container, Access::Write);
}

pub(crate) fn add(b: &mut Builder) {
    let options = b.options.clone();
    if options.has(Group::Arrays) {
        sequence(b, Group::Arrays, "array", "ArrayLit", "ArrayGet", true);
        store(b, Group::Arrays, "array", "ArraySet");
    }
    if options.has(Group::Lists) {
        sequence(b, Group::Lists, "list", "ListLit", "ListGet", false);
    }
    if options.has(Group::Dictionaries) {
        sequence(b, Group::Dictionaries, "dict", "DictLit", "DictGet", true);
        store(b, Group::Dictionaries, "dict", "DictSet");
    }
    if options.has(Group::Records) {
        let fields = options.record_fields.clone();
        let n = fields.len();
        let literal_fields = fields.clone();
        let name = b.add(
            Group::Records,
            expr("RecordLit").list("values", "Expr", ListLength::uniform(n, n)),
            TypeInfo::new(move |s| Type::record(literal_fields.iter().map(|f| (*f, s.fresh())).collect())).child(
                "values",
                move |c| {
                    let field = fields[c.index()];
                    field_of_node(c, field)
                },
            ),
            5,
        );
        let _ = name;
        for field in options.record_fields.iter().copied() {
            let get = b.add(
                Group::Records,
                expr(&format!("FieldGet_{field}"))
                    .child("record", "Expr")
                    .data("field", DataInit::new(move |_| field)),
                TypeInfo::new(|s| s.fresh()).child("record", move |c| {
                    let t = c.node_type().clone();
                    c.store().fresh_record(vec![(field, t)])
                }),
                6,
            );
            b.component.mutable_container_access(&get, "record", Access::Read);
            let set = b.add(
                Group::Records,
                stmt(&format!("FieldSet_{field}"))
                    .child("record", "Expr")
                    .data("field", DataInit::new(move |_| field))
                    .child("value", "Expr"),
                stmt_type()
                    .child("record", move |c| {
                        let t = fresh_base(c.store());
                        c.store().fresh_record(vec![(field, t)])
                    })
                    .child("value", move |c| {
                        let record = c.earlier("record").expect("the record is typed first");
                        let record = c.store().resolve(&record);
                        match record {
                            Type::Var(_) | Type::Record(_) => {
                                let t = c.fresh();
                                let wanted = c.store().fresh_record(vec![(field, t.clone())]);
                                c.store().unify(&record, &wanted).expect("the record has the field");
                                t
                            }
                            other => panic!("a field store has a record, not {other:?}"),
                        }
                    }),
                4,
            );
            b.component.mutable_container_access(&set, "record", Access::Write);
        }
    }
}
