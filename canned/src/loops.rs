//! Loops: over containers, where the body runs once per element of an
//! array or a list, whose length never changes; and counted loops, where
//! the body runs a drawn number of times, counted by a variable the body
//! reads but never writes (see [`counted`]). So every loop ends.

use xsmith::types::Type;
use xsmith::{Access, BinderInfo, BinderStyle, ScopeKind};
use xsmith::{ProductionDecl, TypeInfo, Weight};

use crate::builder::Builder;
use crate::statements::{stmt, stmt_type};
use crate::types::generic_of;
use crate::Group;

pub(crate) fn add(b: &mut Builder) {
    if !b.options.has(Group::Loops) {
        return;
    }
    let kinds = [
        ("array", Group::Arrays, "ForEachArray"),
        ("list", Group::Lists, "ForEachList"),
    ];
    let mut any = false;
    for (kind, needs, name) in kinds {
        if !b.options.has(needs) {
            continue;
        }
        any = true;
        let name = b.add(
            Group::Loops,
            stmt(name)
                .child("container", "Expr")
                .child("element", "LoopVar")
                .child("body", "Block"),
            stmt_type()
                .child("container", move |c| {
                    let element = c.fresh();
                    generic_of(c.store(), kind, element)
                })
                .child("element", |c| match c.earlier("container") {
                    Some(Type::Generic(_, args)) => args[0].clone(),
                    other => panic!("a loop's container is generic, not {other:?}"),
                })
                .child("body", |c| c.base("stmt")),
            5,
        );
        b.component
            .scope(&name, ScopeKind::Sequential)
            .strict_child_order(&name, true)
            .choice_weight(
                &name,
                Weight::dynamic(|hole| if hole.depth() + 2 < hole.max_depth() { 5 } else { 1 }),
            );
        if kind == "array" {
            b.component.mutable_container_access(&name, "container", Access::Read);
        }
    }
    if any {
        loop_var(b);
    }
}

/// Adds `LoopVar`, the read-only variable a loop binds (an element, a
/// counter), unless it is there already.
pub(crate) fn loop_var(b: &mut Builder) {
    if b.names.iter().any(|n| n == "LoopVar") {
        return;
    }
    let var = b.part(ProductionDecl::new("LoopVar"), TypeInfo::new(|s| s.fresh()));
    b.component
        .binder_info(&var, BinderInfo::new("name", BinderStyle::Parameter).read_only());
}
