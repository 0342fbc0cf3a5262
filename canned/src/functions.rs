//! Functions: lambdas with an expression body and with a block body (its
//! statements, then a `Return`), their parameters, and application.

use xsmith::types::Type;
use xsmith::{BinderInfo, BinderStyle, ScopeKind};
use xsmith::{ListLength, ProductionDecl, TypeInfo};

use crate::builder::Builder;
use crate::statements::statements;
use crate::Group;

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
        TypeInfo::new(|s| s.fresh_function())
            .child("params", |c| c.parameter_type())
            .child("body", |c| c.function_parts().1),
        5,
    );
    let block = b.add(
        Group::Functions,
        ProductionDecl::new("LambdaBlock")
            .supertype("Expr")
            .list("params", "Param", params())
            .child("body", "FnBody"),
        TypeInfo::new(|s| s.fresh_function())
            .child("params", |c| c.parameter_type())
            .child("body", |c| c.function_parts().1),
        5,
    );
    for name in [&lambda, &block] {
        b.component
            .scope(name, ScopeKind::Sequential)
            .strict_child_order(name, true)
            .function_body(name, "body")
            .list_length(name, "params", |s, t, drawn| s.function_arity(t, drawn));
    }
    let param = b.part(ProductionDecl::new("Param"), TypeInfo::new(|s| s.fresh()));
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
            .child("args", |c| c.argument_type("callee")),
        8,
    );
    b.component.calls(&apply, "callee");
}
