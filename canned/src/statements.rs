//! The program, blocks and basic statements: definitions, assignment,
//! conditionals, nested blocks and printing.

use std::sync::Arc;

use xsmith::{Access, BinderInfo, BinderStyle, ReferenceInfo, ScopeKind};
use xsmith::{ListLength, ProductionDecl, TypeInfo, Weight};

use crate::builder::Builder;
use crate::types::fresh_base;
use crate::Group;

pub(crate) fn stmt(name: &str) -> ProductionDecl {
    ProductionDecl::new(name).supertype("Stmt")
}

/// The type of a statement that binds nothing.
pub(crate) fn stmt_type() -> TypeInfo {
    TypeInfo::new(|s| s.base("stmt"))
}

/// A statement list's elements may have any type: a definition's type is
/// its variable's.
pub(crate) fn statements(info: TypeInfo, field: &str) -> TypeInfo {
    info.child(field, |c| c.fresh())
}

/// The type of `Program`: a statement list.
pub(crate) fn program_type() -> TypeInfo {
    statements(stmt_type(), "stmts")
}

/// A nested block's length: drawn in `low..=high`, but empty past the
/// depth bound (and wherever the engine keeps lists short), so that a block
/// finishes even where every statement would have an effect that
/// conflicts with what is around it.
pub(crate) fn block_length(low: usize, high: usize) -> ListLength {
    let drawn = ListLength::uniform(low, high);
    ListLength::Custom {
        min: 0,
        draw: Arc::new(move |random| drawn.draw(random)),
    }
}

pub(crate) fn add(b: &mut Builder) {
    let options = b.options.clone();
    b.component
        .production(ProductionDecl::new("Stmt").abstract_())
        .production(ProductionDecl::new("Expr").abstract_());
    let (low, high) = options.program_statements;
    // The program is the outermost scope; its statements get a length of
    // their own so that programs are large at a small depth.
    let program = ProductionDecl::new("Program").list("stmts", "Stmt", ListLength::uniform(low, high));
    b.component.production(program);
    b.component
        .type_info("Program", program_type())
        .scope("Program", ScopeKind::Sequential)
        .lift_predicate("Program", "stmts")
        .strict_child_order("Program", true);
    let (low, high) = options.block_statements;
    let block = b.part(
        ProductionDecl::new("Block").list("stmts", "Stmt", block_length(low, high)),
        statements(stmt_type(), "stmts"),
    );
    b.component
        .scope(&block, ScopeKind::Sequential)
        .lift_predicate(&block, "stmts")
        .strict_child_order(&block, true)
        .depth_increase(&block, 0);
    if options.has(Group::Variables) {
        let name = b.add(
            Group::Variables,
            stmt("Let").child("init", "Expr"),
            TypeInfo::new(|s| s.fresh()).child("init", |c| c.node_type().clone()),
            12,
        );
        b.component
            .binder_info(&name, BinderInfo::new("name", BinderStyle::Definition))
            .strict_child_order(&name, true);
    }
    if options.has(Group::Assignment) {
        let name = b.add(
            Group::Assignment,
            stmt("Assign").child("value", "Expr"),
            TypeInfo::new(fresh_base).child("value", |c| c.node_type().clone()),
            10,
        );
        b.component
            .reference_info(&name, ReferenceInfo::new("name", Access::Write))
            .strict_child_order(&name, true);
    }
    if options.has(Group::Conditionals) {
        let name = b.add(
            Group::Conditionals,
            stmt("IfStmt")
                .child("cond", "Expr")
                .child("then", "Block")
                .child("otherwise", "Block"),
            stmt_type()
                .child("cond", |c| c.base("bool"))
                .child("then", |c| c.base("stmt"))
                .child("otherwise", |c| c.base("stmt")),
            5,
        );
        b.component.strict_child_order(&name, true);
    }
    if options.has(Group::Blocks) {
        let name = b.add(
            Group::Blocks,
            stmt("BlockStmt").child("body", "Block"),
            stmt_type().child("body", |c| c.base("stmt")),
            3,
        );
        b.component.strict_child_order(&name, true);
    }
    if options.has(Group::Printing) {
        let name = b.add(
            Group::Printing,
            stmt("PrintStmt").child("value", "Expr"),
            stmt_type(),
            12,
        );
        // Rare in a counted loop's body: a print there prints on every
        // iteration (the loop's effects show in the variables it writes).
        // Never impossible: it is what a block of a program with printing
        // alone can hold.
        let weight = options.weights.get(&name).copied().unwrap_or(12);
        b.component
            .io(&name, true)
            .strict_child_order(&name, true)
            .choice_weight(
                &name,
                Weight::dynamic(move |hole| {
                    if crate::counted::in_counted_loop(hole) {
                        1
                    } else {
                        weight
                    }
                }),
            );
    }
    // Nested statements are rarer deeper down.
    for name in ["IfStmt", "BlockStmt"] {
        if b.names.iter().any(|n| n == name) {
            let base = options.weights.get(name).copied().unwrap_or(4);
            b.component.choice_weight(
                name,
                Weight::dynamic(move |hole| if hole.depth() + 2 < hole.max_depth() { base } else { 1 }),
            );
        }
    }
}
