//! The checks a `component!` invocation gets before expansion: every mistake
//! visible inside the invocation is reported at its span.

use std::collections::BTreeMap;

use syn::{Expr, Ident, Lit};

use crate::parse::{ComponentInput, FieldDefKind, ProductionDef, PropertyValue, TemplatePiece};

/// The properties the DSL knows, and what each takes.
pub const PROPERTIES: &[(&str, &str)] = &[
    ("render", "a template `[..]` or a render function"),
    ("choice_weight", "a non-negative integer or a function of the hole"),
    ("may_be_generated", "`true` or `false`"),
    ("depth_increase", "a non-negative integer"),
    ("fresh", "field initialisers `{ field: |node| .. }` or a function of the fresh node"),
    ("choice_filters", "a function of the hole returning bool"),
    ("feature", "a feature group name as a string"),
];

/// Collects errors so that one compile shows them all.
#[derive(Default)]
struct Errors(Option<syn::Error>);

impl Errors {
    fn add(&mut self, span: proc_macro2::Span, message: impl std::fmt::Display) {
        let error = syn::Error::new(span, message);
        match &mut self.0 {
            Some(all) => all.combine(error),
            None => self.0 = Some(error),
        }
    }
}

/// What is known of a production's fields: `None` when some of them come
/// from a supertype declared in another component.
fn fields_of<'a>(input: &'a ComponentInput, production: &'a ProductionDef) -> Option<Vec<(&'a Ident, &'a FieldDefKind)>> {
    let mut chain = vec![production];
    let mut cursor = production.supertype.as_ref();
    while let Some(name) = cursor {
        let up = input.productions.iter().find(|p| p.name == *name)?;
        if chain.iter().any(|p| p.name == up.name) {
            return None; // a cycle: reported at assembly
        }
        chain.push(up);
        cursor = up.supertype.as_ref();
    }
    Some(chain.iter().rev().flat_map(|p| p.fields.iter().map(|f| (&f.name, &f.kind))).collect())
}

pub fn check(input: &ComponentInput) -> syn::Result<()> {
    let mut errors = Errors::default();
    let mut declared: BTreeMap<String, &Ident> = BTreeMap::new();
    for production in &input.productions {
        if let Some(first) = declared.get(&production.name.to_string()) {
            errors.add(
                production.name.span(),
                format!("production `{}` is declared twice", production.name),
            );
            errors.add(first.span(), format!("production `{first}` is first declared here"));
        } else {
            declared.insert(production.name.to_string(), &production.name);
        }
    }
    let known = |name: &Ident| declared.contains_key(&name.to_string()) || input.uses.iter().any(|u| u == name);
    let unknown_type = |name: &Ident| {
        format!("unknown node type `{name}`: declare it in `grammar`, or name it in `uses {{ .. }}` if another component declares it")
    };

    for production in &input.productions {
        if let Some(supertype) = &production.supertype {
            if !known(supertype) {
                errors.add(supertype.span(), unknown_type(supertype));
            }
        }
        for field in &production.fields {
            if let FieldDefKind::Child(t) | FieldDefKind::List(t, _) = &field.kind {
                if !known(t) {
                    errors.add(t.span(), unknown_type(t));
                }
            }
        }
        if let Some(fields) = fields_of(input, production) {
            for (index, (name, _)) in fields.iter().enumerate() {
                if fields[..index].iter().any(|(earlier, _)| earlier == name) {
                    errors.add(
                        name.span(),
                        format!("production `{}` has two fields called `{name}`", production.name),
                    );
                }
            }
        }
    }

    for block in &input.properties {
        let property = block.name.to_string();
        let Some((_, takes)) = PROPERTIES.iter().find(|(name, _)| *name == property) else {
            let names: Vec<&str> = PROPERTIES.iter().map(|(name, _)| *name).collect();
            errors.add(
                block.name.span(),
                format!("unknown property `{property}`: expected one of {}", names.join(", ")),
            );
            continue;
        };
        let mut seen: Vec<&Ident> = Vec::new();
        for entry in &block.entries {
            let production_name = &entry.production;
            if !known(production_name) {
                errors.add(
                    production_name.span(),
                    format!("property `{property}` is given for unknown production `{production_name}`"),
                );
                continue;
            }
            if seen.contains(&production_name) && property != "choice_filters" && property != "feature" {
                errors.add(
                    production_name.span(),
                    format!("property `{property}` is given twice for production `{production_name}`"),
                );
            }
            seen.push(production_name);
            let fields = input
                .productions
                .iter()
                .find(|p| p.name == *production_name)
                .and_then(|p| fields_of(input, p));
            let wrong = |errors: &mut Errors, span| errors.add(span, format!("property `{property}` takes {takes}"));
            match (property.as_str(), &entry.value) {
                ("render", PropertyValue::Template(pieces)) => {
                    check_template(&mut errors, production_name, fields.as_deref(), pieces)
                }
                ("render", PropertyValue::Expr(expr)) if !matches!(expr, Expr::Lit(_)) => {}
                ("choice_weight", PropertyValue::Expr(expr)) => match literal(expr) {
                    None => {}
                    Some(Lit::Int(int)) if int.base10_parse::<u32>().is_ok() => {}
                    Some(lit) => wrong(&mut errors, lit.span()),
                },
                ("may_be_generated", PropertyValue::Expr(expr)) => match literal(expr) {
                    Some(Lit::Bool(_)) => {}
                    _ => wrong(&mut errors, expr_span(expr)),
                },
                ("depth_increase", PropertyValue::Expr(expr)) => match literal(expr) {
                    Some(Lit::Int(int)) if int.base10_parse::<u32>().is_ok() => {}
                    _ => wrong(&mut errors, expr_span(expr)),
                },
                ("fresh", PropertyValue::Fields(inits)) => {
                    for (field, _) in inits {
                        match fields.as_deref().map(|f| f.iter().find(|(name, _)| *name == field)) {
                            Some(None) => errors.add(
                                field.span(),
                                format!("production `{production_name}` has no field `{field}`"),
                            ),
                            Some(Some((_, kind))) if !matches!(kind, FieldDefKind::Data(_)) => errors.add(
                                field.span(),
                                format!("field `{field}` of production `{production_name}` is a child, not a data field: `fresh` sets data fields"),
                            ),
                            _ => {}
                        }
                    }
                }
                ("fresh" | "choice_filters", PropertyValue::Expr(expr)) if !matches!(expr, Expr::Lit(_)) => {}
                ("feature", PropertyValue::Expr(expr)) if matches!(literal(expr), Some(Lit::Str(_))) => {}
                (_, PropertyValue::Expr(expr)) => wrong(&mut errors, expr_span(expr)),
                (_, _) => wrong(&mut errors, production_name.span()),
            }
        }
    }
    match errors.0 {
        Some(error) => Err(error),
        None => Ok(()),
    }
}

fn check_template(
    errors: &mut Errors,
    production: &Ident,
    fields: Option<&[(&Ident, &FieldDefKind)]>,
    pieces: &[TemplatePiece],
) {
    for piece in pieces {
        match piece {
            TemplatePiece::Field(field) | TemplatePiece::Join(field, _) => {
                match fields.map(|f| f.iter().find(|(name, _)| *name == field)) {
                    Some(None) => errors.add(
                        field.span(),
                        format!("production `{production}` has no field `{field}`"),
                    ),
                    Some(Some((_, kind))) if matches!(piece, TemplatePiece::Join(..)) && !matches!(kind, FieldDefKind::List(..)) => {
                        errors.add(field.span(), format!("`join` needs a list field, and `{field}` is not one"))
                    }
                    _ => {}
                }
                if let TemplatePiece::Join(_, separator) = piece {
                    check_template(errors, production, fields, separator);
                }
            }
            TemplatePiece::Nest(_, inner) | TemplatePiece::Group(inner) => {
                check_template(errors, production, fields, inner)
            }
            _ => {}
        }
    }
}

/// The literal an expression is, looking through a leading minus sign.
fn literal(expr: &Expr) -> Option<&Lit> {
    match expr {
        Expr::Lit(lit) => Some(&lit.lit),
        Expr::Group(group) => literal(&group.expr),
        Expr::Paren(paren) => literal(&paren.expr),
        _ => None,
    }
}

fn expr_span(expr: &Expr) -> proc_macro2::Span {
    use syn::spanned::Spanned;
    expr.span()
}
