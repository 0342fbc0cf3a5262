//! Basic expressions: literals, operators (with hooks for safe wrappers),
//! variable references, conditional expressions, expression sequences and
//! sequential let.

use xsmith::{Access, BinderInfo, BinderStyle, ReferenceInfo, ScopeKind};
use xsmith::{DataInit, ListLength, ProductionDecl, Random, TypeInfo};

use crate::builder::{reference_fits_depth, Builder};
use crate::Group;

fn expr(name: &str) -> ProductionDecl {
    ProductionDecl::new(name).supertype("Expr")
}

/// An integer literal: mostly small, sometimes an edge of the range.
fn int_literal(low: i64, high: i64) -> DataInit {
    DataInit::new(move |r: &mut Random| {
        if r.chance(1, 8) {
            let edges = [low, high, 0, -1, 1, low + 1, high - 1];
            (*r.pick(&edges)).clamp(low, high)
        } else {
            r.int_in(low.max(-20), high.min(20))
        }
    })
}

/// A binary operator over one type, giving `result`.
fn binary(b: &mut Builder, group: Group, name: &str, operand: &'static str, result: &'static str, weight: u32) {
    b.add(
        group,
        expr(name).child("left", "Expr").child("right", "Expr"),
        TypeInfo::new(move |s| s.base(result))
            .child("left", move |c| c.base(operand))
            .child("right", move |c| c.base(operand)),
        weight,
    );
}

fn unary(b: &mut Builder, group: Group, name: &str, ty: &'static str, result: &'static str, weight: u32) {
    b.add(
        group,
        expr(name).child("operand", "Expr"),
        TypeInfo::new(move |s| s.base(result)).child("operand", move |c| c.base(ty)),
        weight,
    );
}

pub(crate) fn add(b: &mut Builder) {
    let options = b.options.clone();
    if options.has(Group::Integers) {
        let (low, high) = options.int_range;
        b.add(
            Group::Integers,
            expr("IntLit").data("value", int_literal(low, high)),
            TypeInfo::new(|s| s.base("int")),
            10,
        );
        for name in ["Add", "Sub", "Mul"] {
            binary(b, Group::Integers, name, "int", "int", 6);
        }
        unary(b, Group::Integers, "Neg", "int", "int", 3);
        binary(b, Group::Integers, "Less", "int", "bool", 5);
        binary(b, Group::Integers, "IntEq", "int", "bool", 5);
    }
    if options.has(Group::Division) {
        binary(b, Group::Division, "SafeDiv", "int", "int", 5);
        binary(b, Group::Division, "SafeMod", "int", "int", 5);
    }
    if options.has(Group::Booleans) {
        b.add(
            Group::Booleans,
            expr("BoolLit").data("value", DataInit::new(|r| r.chance(1, 2))),
            TypeInfo::new(|s| s.base("bool")),
            6,
        );
        for name in ["And", "Or"] {
            binary(b, Group::Booleans, name, "bool", "bool", 4);
            b.component.strict_child_order(name, true);
        }
        unary(b, Group::Booleans, "Not", "bool", "bool", 4);
    }
    if options.has(Group::Strings) {
        let strings = options.strings.clone();
        b.add(
            Group::Strings,
            expr("StrLit").data("value", DataInit::new(move |r| *r.pick(&strings))),
            TypeInfo::new(|s| s.base("string")),
            6,
        );
        binary(b, Group::Strings, "Concat", "string", "string", 5);
        unary(b, Group::Strings, "StrLen", "string", "int", 4);
    }
    if options.has(Group::Variables) {
        let name = b.add(Group::Variables, expr("VarRef"), TypeInfo::new(|s| s.fresh()), 15);
        b.component
            .reference_info(&name, ReferenceInfo::new("name", Access::Read))
            .choice_filter(&name, reference_fits_depth());
    }
    if options.has(Group::Conditionals) {
        let name = b.add(
            Group::Conditionals,
            expr("IfExpr")
                .child("cond", "Expr")
                .child("then", "Expr")
                .child("otherwise", "Expr"),
            TypeInfo::new(|s| s.fresh())
                .child("cond", |c| c.base("bool"))
                .child("then", |c| c.node_type().clone())
                .child("otherwise", |c| c.node_type().clone()),
            5,
        );
        b.component.strict_child_order(&name, true);
    }
    if options.has(Group::Sequences) {
        let name = b.add(
            Group::Sequences,
            expr("ExprSeq")
                .list("effects", "Expr", ListLength::uniform(1, 2))
                .child("value", "Expr"),
            TypeInfo::new(|s| s.fresh()).child("value", |c| c.node_type().clone()),
            4,
        );
        b.component.strict_child_order(&name, true);
    }
    if options.has(Group::LetStar) {
        let name = b.add(
            Group::LetStar,
            expr("LetStar")
                .list("defs", "LetDef", ListLength::uniform(1, 3))
                .child("body", "Expr"),
            TypeInfo::new(|s| s.fresh()).child("body", |c| c.node_type().clone()),
            4,
        );
        b.component
            .strict_child_order(&name, true)
            .scope(&name, ScopeKind::Sequential);
        let def = b.part(
            ProductionDecl::new("LetDef").child("init", "Expr"),
            TypeInfo::new(|s| s.fresh()).child("init", |c| c.node_type().clone()),
        );
        b.component
            .binder_info(&def, BinderInfo::new("name", BinderStyle::Definition))
            .strict_child_order(&def, true);
    }
}
