//! Functions: lambdas with an expression body and with a block body (its
//! statements, then a `Return`), their parameters, and application.

use xsmith::types::{Type, TypeStore};
use xsmith::{BinderInfo, BinderStyle, ScopeKind};
use xsmith::{ChildTypes, DataInit, ListLength, ProductionDecl, TypeInfo};

use crate::builder::Builder;
use crate::statements::statements;
use crate::Group;

fn function_type(s: &mut TypeStore) -> Type {
    let (params, result) = (s.fresh_product(), s.fresh());
    Type::function_of(params, result)
}

fn param_type(c: &mut ChildTypes) -> Type {
    let (params, _) = c.function_parts();
    let (len, index) = (c.len(), c.index());
    c.product_item(&params, len, index)
}

/// A lambda's parameter list is as long as its type's parameters when they
/// are known, and fixes them to the drawn length when not.
fn param_count(store: &mut TypeStore, ty: &Type, drawn: usize) -> usize {
    let (params, _) = store.function_parts(ty).expect("a lambda has a function type");
    match store.resolve(&params) {
        Type::Product(items) => items.len(),
        _ => store
            .product_items(&params, drawn)
            .expect("an open product takes any arity")
            .len(),
    }
}

pub(crate) fn add(b: &mut Builder) {
    let options = b.options.clone();
    if !options.has(Group::Functions) {
        return;
    }
    let params = || ListLength::uniform(0, 3);
    let lambda = b.add(
        Group::Functions,
        ProductionDecl::new("Lambda")
            .supertype("Expr")
            .list("params", "Param", params())
            .child("body", "Expr"),
        TypeInfo::new(function_type)
            .child("params", param_type)
            .child("body", |c| c.function_parts().1),
        5,
    );
    let block = b.add(
        Group::Functions,
        ProductionDecl::new("LambdaBlock")
            .supertype("Expr")
            .list("params", "Param", params())
            .child("body", "FnBody"),
        TypeInfo::new(function_type)
            .child("params", param_type)
            .child("body", |c| c.function_parts().1),
        5,
    );
    for name in [&lambda, &block] {
        b.component
            .scope(name, ScopeKind::Sequential)
            .strict_child_order(name, true)
            .function_body(name, "body")
            .list_length(name, "params", param_count);
    }
    let param = b.part(
        ProductionDecl::new("Param").data("name", DataInit::new(|_| "")),
        TypeInfo::new(|s| s.fresh()),
    );
    b.component
        .binder_info(&param, BinderInfo::new("name", BinderStyle::Parameter));
    let (low, high) = b.options.block_statements;
    // A block body has the type of the value it returns.
    let body = b.part(
        ProductionDecl::new("FnBody")
            .list("stmts", "Stmt", ListLength::uniform(low, high))
            .child("ret", "Return"),
        statements(TypeInfo::new(|s| s.fresh()), "stmts").child("ret", |c| c.node_type().clone()),
    );
    b.component
        .scope(&body, ScopeKind::Sequential)
        .lift_predicate(&body, "stmts")
        .strict_child_order(&body, true)
        .depth_increase(&body, 0);
    let ret = b.part(
        ProductionDecl::new("Return").child("value", "Expr"),
        TypeInfo::new(|s| s.fresh()).child("value", |c| c.node_type().clone()),
    );
    b.component.strict_child_order(&ret, true);
    let apply = b.add(
        Group::Functions,
        ProductionDecl::new("Apply")
            .supertype("Expr")
            .child("callee", "Expr")
            .list("args", "Expr", ListLength::uniform(0, 3)),
        TypeInfo::new(|s| s.fresh())
            .child("callee", |c| {
                let params = (0..c.field_len("args")).map(|_| c.fresh()).collect();
                Type::function(params, c.node_type().clone())
            })
            .child("args", |c| {
                let callee = c.earlier("callee").expect("the callee is typed first");
                let (params, _) = c.store().function_parts(&callee).expect("the callee is a function");
                let (len, index) = (c.len(), c.index());
                c.product_item(&params, len, index)
            }),
        8,
    );
    b.component.calls(&apply, "callee");
}
