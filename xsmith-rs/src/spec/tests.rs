//! Tests of spec assembly: each mistake is found and named.

use super::*;
use crate::grammar::{DataInit, Field, ListLength};
use crate::properties::Weight;
use crate::{Component, ProductionDecl, Renderer};

fn rendered(mut c: Component, names: &[&str]) -> Component {
    for name in names {
        c.render(name, Renderer::Template(vec![]));
    }
    c
}

fn assemble(c: Component) -> Result<Spec, SpecError> {
    Spec::assemble("P", [c])
}

#[test]
fn duplicate_production() {
    let mut c = Component::new("c");
    c.production(ProductionDecl::new("P"))
        .production(ProductionDecl::new("P"));
    assert_eq!(
        assemble(rendered(c, &["P"])).err(),
        Some(SpecError::DuplicateProduction("P".into()))
    );
}

#[test]
fn unknown_supertype() {
    let mut c = Component::new("c");
    c.production(ProductionDecl::new("P").supertype("Q"));
    assert!(matches!(assemble(c), Err(SpecError::UnknownSupertype { production, .. }) if production == "P"));
}

#[test]
fn supertype_cycle() {
    let mut c = Component::new("c");
    c.production(ProductionDecl::new("P").supertype("Q").abstract_());
    c.production(ProductionDecl::new("Q").supertype("P").abstract_());
    assert_eq!(assemble(c).err(), Some(SpecError::SupertypeCycle("P".into())));
}

#[test]
fn missing_renderer() {
    let mut c = Component::new("c");
    c.production(ProductionDecl::new("P").child("e", "E"));
    c.production(ProductionDecl::new("E"));
    assert_eq!(
        assemble(rendered(c, &["P"])).err(),
        Some(SpecError::MissingRenderer("E".into()))
    );
}

#[test]
fn never_generated_needs_no_renderer() {
    let mut c = Component::new("c");
    c.production(ProductionDecl::new("P"))
        .production(ProductionDecl::new("Unused"));
    c.may_be_generated("Unused", false);
    assert!(assemble(rendered(c, &["P"])).is_ok());
}

#[test]
fn every_production_recursing_never_finishes() {
    let mut c = Component::new("c");
    c.production(ProductionDecl::new("P").child("e", "E"));
    c.production(ProductionDecl::new("E").abstract_());
    c.production(ProductionDecl::new("Neg").supertype("E").child("x", "E"));
    c.production(
        ProductionDecl::new("Pair")
            .supertype("E")
            .child("x", "E")
            .child("y", "E"),
    );
    assert_eq!(
        assemble(rendered(c, &["P", "Neg", "Pair"])).err(),
        Some(SpecError::NeverFinishes("E".into()))
    );
}

#[test]
fn empty_lists_finish() {
    let mut c = Component::new("c");
    c.production(ProductionDecl::new("P").list("items", "P", ListLength::uniform(0, 3)));
    assert!(assemble(rendered(c, &["P"])).is_ok());
    let mut c = Component::new("c");
    c.production(ProductionDecl::new("P").list("items", "P", ListLength::uniform(1, 3)));
    assert_eq!(
        assemble(rendered(c, &["P"])).err(),
        Some(SpecError::NeverFinishes("P".into()))
    );
}

#[test]
fn property_for_unknown_production() {
    let mut c = Component::new("c");
    c.production(ProductionDecl::new("P"));
    c.choice_weight("Q", Weight::Constant(1));
    assert!(matches!(
        assemble(rendered(c, &["P"])),
        Err(SpecError::PropertyForUnknownProduction { production, .. }) if production == "Q"
    ));
}

#[test]
fn inherited_fields_come_first_and_may_not_repeat() {
    let mut c = Component::new("c");
    c.production(ProductionDecl::new("P").child("e", "E"));
    c.production(ProductionDecl::new("E").abstract_().data("tag", DataInit::new(|_| 0)));
    c.production(
        ProductionDecl::new("Lit")
            .supertype("E")
            .data("value", DataInit::new(|_| 1)),
    );
    let spec = assemble(rendered(c.clone(), &["P", "Lit"])).unwrap();
    let lit = spec.production(spec.lookup("Lit").unwrap());
    let names: Vec<&str> = lit.fields().iter().map(Field::name).collect();
    assert_eq!(names, ["tag", "value"]);
    c.production(
        ProductionDecl::new("Bad")
            .supertype("E")
            .data("tag", DataInit::new(|_| 1)),
    );
    assert!(matches!(
        assemble(rendered(c, &["P", "Lit", "Bad"])),
        Err(SpecError::DuplicateField { production, field }) if production == "Bad" && field == "tag"
    ));
}

#[test]
fn finishing_heights_are_least_whatever_the_declaration_order() {
    let mut c = Component::new("c");
    c.production(ProductionDecl::new("W"));
    c.production(ProductionDecl::new("E").abstract_());
    c.production(ProductionDecl::new("X").supertype("E").child("w", "W"));
    c.production(ProductionDecl::new("P").child("e", "E"));
    c.production(ProductionDecl::new("L").supertype("E"));
    let spec = Spec::assemble("P", [rendered(c, &["W", "X", "P", "L"])]).unwrap();
    let heights = spec.grammar().finishing_heights(&[true; 5]).unwrap();
    assert_eq!(heights[spec.lookup("P").unwrap().index()], 1, "P finishes through L");
}

#[test]
fn joins_need_list_fields() {
    let mut c = Component::new("c");
    c.production(ProductionDecl::new("P").child("e", "P"));
    c.render("P", Renderer::Template(vec![crate::Piece::Join("e", vec![])]));
    c.may_be_generated("P", true);
    let mut c2 = Component::new("leaf");
    c2.production(ProductionDecl::new("Q").supertype("P"));
    let result = Spec::assemble("P", [c, rendered(c2, &["Q"])]);
    assert!(matches!(result, Err(SpecError::JoinOfNonList { production, field }) if production == "P" && field == "e"));
}

#[test]
fn template_fields_are_checked() {
    let mut c = Component::new("c");
    c.production(ProductionDecl::new("P"));
    c.render("P", Renderer::Template(vec![crate::Piece::Field("nope")]));
    assert!(matches!(assemble(c), Err(SpecError::UnknownTemplateField { field, .. }) if field == "nope"));
}

#[test]
fn typed_specs_need_type_info_on_every_generatable_production() {
    use crate::{types::TypeSystem, TypeInfo};
    let mut c = Component::new("c");
    c.production(ProductionDecl::new("P").child("e", "E"));
    c.production(ProductionDecl::new("E"));
    c.type_info("P", TypeInfo::new(|s| s.fresh()));
    let c = rendered(c, &["P", "E"]);
    assert_eq!(
        Spec::assemble_typed("P", TypeSystem::new(), [c.clone()]).err(),
        Some(SpecError::MissingTypeInfo("E".into()))
    );
    assert!(Spec::assemble("P", [c.clone()]).is_ok(), "an untyped spec needs none");
    let mut bad = c.clone();
    bad.type_info("E", TypeInfo::new(|s| s.fresh()).child("nope", |c| c.fresh()));
    assert!(matches!(
        Spec::assemble_typed("P", TypeSystem::new(), [bad]),
        Err(SpecError::UnknownTypeInfoField { production, field }) if production == "E" && field == "nope"
    ));
    let mut typo = c.clone();
    typo.type_info("E", TypeInfo::new(|s| s.base("nope")));
    assert!(matches!(
        Spec::assemble_typed("P", TypeSystem::new(), [typo]),
        Err(SpecError::TypeInfo { production, message }) if production == "E" && message.contains("nope")
    ));
    let mut not_list = c;
    not_list.type_info("E", TypeInfo::new(|s| s.fresh()));
    not_list.list_length("P", "e", |_, _, n| n);
    assert!(matches!(
        Spec::assemble_typed("P", TypeSystem::new(), [not_list]),
        Err(SpecError::NotAListField { production, field }) if production == "P" && field == "e"
    ));
}
