//! The checks of a decoded `component!` invocation: the grammar, and the
//! fields the typed property values name against it. Every mistake visible
//! inside the invocation is reported at its span; names that only other
//! components know are left to spec assembly.

use std::collections::BTreeMap;

use syn::{Expr, Ident, RangeLimits};

use crate::attr::{Entry, Fresh, Render, Value};
use crate::errors::{Errors, Place};
use crate::parse::{FieldDefKind, Grammar, ProductionDef, TemplatePiece};

/// Checks the grammar, then each property entry against it.
pub fn check(grammar: &Grammar, properties: &[Entry], errors: &mut Errors) {
    check_grammar(grammar, errors);
    check_properties(grammar, properties, errors);
}

/// Duplicate productions and fields, unknown node types, list lengths that
/// are not inclusive ranges.
fn check_grammar(grammar: &Grammar, errors: &mut Errors) {
    let place = Place::Grammar;
    let mut declared: BTreeMap<String, &Ident> = BTreeMap::new();
    for production in &grammar.productions {
        if let Some(first) = declared.get(&production.name.to_string()) {
            errors.add(
                place,
                production.name.span(),
                format!("production `{}` is declared twice", production.name),
            );
            errors.add(
                place,
                first.span(),
                format!("production `{first}` is first declared here"),
            );
        } else {
            declared.insert(production.name.to_string(), &production.name);
        }
    }
    for production in &grammar.productions {
        if let Some(supertype) = &production.supertype {
            check_known(grammar, supertype, errors);
        }
        for field in &production.fields {
            if let FieldDefKind::Child(node_type) | FieldDefKind::List(node_type, _) = &field.kind {
                check_known(grammar, node_type, errors);
            }
            if let FieldDefKind::List(_, Some(length)) = &field.kind {
                check_list_length(length, errors);
            }
        }
        if let Some(fields) = fields_of(grammar, production) {
            // The production's own fields come last; a clash among the
            // inherited ones is reported at the supertype.
            let own = fields.len() - production.fields.len();
            for (index, (name, _)) in fields.iter().enumerate().skip(own) {
                if fields[..index].iter().any(|(earlier, _)| earlier == name) {
                    errors.add(
                        place,
                        name.span(),
                        format!("production `{}` has two fields called `{name}`", production.name),
                    );
                }
            }
        }
    }
}

/// Reports a node type that is neither declared nor used.
fn check_known(grammar: &Grammar, node_type: &Ident, errors: &mut Errors) {
    if !grammar.knows(node_type) {
        errors.add(
            Place::Grammar,
            node_type.span(),
            format!("unknown node type `{node_type}`: declare it in `grammar`, or name it in `uses {{ .. }}` if another component declares it"),
        );
    }
}

/// A list length converts into `ListLength`, which integers and ranges other
/// than `min..=max` do not: say so here rather than let the conversion fail
/// at the macro call.
fn check_list_length(length: &Expr, errors: &mut Errors) {
    let message = "a list length is an inclusive range `min..=max` of lengths, or a `ListLength`";
    match length {
        Expr::Lit(_) => errors.add_spanned(Place::Grammar, length, message),
        Expr::Range(range) if !matches!(range.limits, RangeLimits::Closed(_)) || range.start.is_none() => {
            errors.add_spanned(Place::Grammar, length, message)
        }
        _ => {}
    }
}

/// What is known of a production's fields, inherited ones first: `None`
/// when some of them come from a supertype declared in another component.
pub fn fields_of<'a>(
    grammar: &'a Grammar,
    production: &'a ProductionDef,
) -> Option<Vec<(&'a Ident, &'a FieldDefKind)>> {
    let mut chain = vec![production];
    let mut cursor = production.supertype.as_ref();
    while let Some(name) = cursor {
        let up = grammar.productions.iter().find(|p| p.name == *name)?;
        if chain.iter().any(|p| p.name == up.name) {
            return None; // a cycle: reported at assembly
        }
        chain.push(up);
        cursor = up.supertype.as_ref();
    }
    Some(
        chain
            .iter()
            .rev()
            .flat_map(|p| p.fields.iter().map(|f| (&f.name, &f.kind)))
            .collect(),
    )
}

/// The fields each entry's value names.
fn check_properties(grammar: &Grammar, properties: &[Entry], errors: &mut Errors) {
    for entry in properties {
        let fields = Fields {
            place: entry.place,
            production: &entry.production,
            known: grammar
                .productions
                .iter()
                .find(|p| p.name == entry.production)
                .and_then(|p| fields_of(grammar, p)),
        };
        check_value(&fields, &entry.value, errors);
    }
}

/// The fields that the field names in one entry's value must be among.
struct Fields<'a> {
    /// The entry's place.
    place: Place,
    /// The production the entry is given for.
    production: &'a Ident,
    /// Its fields, if they are all known.
    known: Option<Vec<(&'a Ident, &'a FieldDefKind)>>,
}

impl Fields<'_> {
    /// Reports each of `names` that the production has no field for, or whose
    /// field kind `refuse` objects to (with the rest of the sentence). Nothing
    /// is reported when some fields come from another component.
    fn expect<'n>(
        &self,
        errors: &mut Errors,
        names: impl IntoIterator<Item = &'n Ident>,
        refuse: impl Fn(&FieldDefKind) -> Option<&'static str>,
    ) {
        for field in names {
            if let Some(kind) = self.find(errors, field) {
                if let Some(complaint) = refuse(kind) {
                    errors.add(
                        self.place,
                        field.span(),
                        format!("field `{field}` of production `{}` {complaint}", self.production),
                    );
                }
            }
        }
    }

    /// The kind of the field `name`, reporting it if the production has no
    /// such field; `None` as well when the fields are not all known.
    fn find(&self, errors: &mut Errors, name: &Ident) -> Option<&FieldDefKind> {
        let known = self.known.as_ref()?;
        match known.iter().find(|(field, _)| *field == name) {
            Some((_, kind)) => Some(kind),
            None => {
                errors.add(
                    self.place,
                    name.span(),
                    format!("production `{}` has no field `{name}`", self.production),
                );
                None
            }
        }
    }
}

/// Checks the fields a value names.
fn check_value(fields: &Fields, value: &Value, errors: &mut Errors) {
    let single_child = |complaint| {
        move |kind: &FieldDefKind| match kind {
            FieldDefKind::Child(_) => None,
            _ => Some(complaint),
        }
    };
    let list = |complaint| {
        move |kind: &FieldDefKind| match kind {
            FieldDefKind::List(..) => None,
            _ => Some(complaint),
        }
    };
    let name_field = |kind: &FieldDefKind| match kind {
        FieldDefKind::Data(_) => None,
        _ => Some("is not a data field: it must hold the name"),
    };
    match value {
        Value::Render(Render::Template(pieces)) => check_template(fields, pieces, errors),
        Value::Fresh(Fresh::Fields(inits)) => {
            fields.expect(errors, inits.iter().map(|(field, _)| field), |kind| match kind {
                FieldDefKind::Child(_) => Some("is a child, not a data field: `fresh` sets data fields"),
                FieldDefKind::List(..) => Some("is a list of children, not a data field: `fresh` sets data fields"),
                FieldDefKind::Data(_) => None,
            })
        }
        Value::ListLength(lengths) => fields.expect(
            errors,
            lengths.iter().map(|(field, _)| field),
            list("is not a list: `list_length` sets list lengths"),
        ),
        Value::TypeInfo(info) => fields.expect(
            errors,
            info.children.iter().map(|(field, _)| field),
            |kind| match kind {
                FieldDefKind::Data(_) => Some("is a data field: `type_info` types children"),
                _ => None,
            },
        ),
        Value::BinderInfo(binder) => {
            fields.expect(errors, [&binder.name], name_field);
            fields.expect(
                errors,
                &binder.value,
                single_child("is not a single child: it must hold the definition's value"),
            );
        }
        Value::ReferenceInfo(reference) => fields.expect(errors, [&reference.field], name_field),
        Value::Calls(field) | Value::FunctionBody(field) => {
            fields.expect(errors, [field], single_child("is not a single child field"))
        }
        Value::MutableContainerAccess(container) => fields.expect(
            errors,
            [&container.field],
            single_child("is not a single child: it must hold the container"),
        ),
        Value::LiftPredicate(field) => fields.expect(
            errors,
            [field],
            list("is not a list: lifted definitions go into a list"),
        ),
        Value::Render(Render::Function(_))
        | Value::ChoiceWeight(_)
        | Value::MayBeGenerated(_)
        | Value::DepthIncrease(_)
        | Value::Fresh(Fresh::Function(_))
        | Value::ChoiceFilter(_)
        | Value::LiftFilter(_)
        | Value::BindingFilter(_)
        | Value::Feature(_)
        | Value::Scope(_)
        | Value::StrictChildOrder(_)
        | Value::Io(_) => {}
    }
}

/// Checks the fields a template names, nested pieces included.
fn check_template(fields: &Fields, pieces: &[TemplatePiece], errors: &mut Errors) {
    for piece in pieces {
        match piece {
            TemplatePiece::Field(field) => {
                fields.find(errors, field);
            }
            TemplatePiece::Join(field, separator) => {
                if fields
                    .find(errors, field)
                    .is_some_and(|kind| !matches!(kind, FieldDefKind::List(..)))
                {
                    errors.add(
                        fields.place,
                        field.span(),
                        format!("`join` needs a list field, and `{field}` is not one"),
                    );
                }
                check_template(fields, separator, errors);
            }
            TemplatePiece::Nest(_, inner) | TemplatePiece::Group(inner) => check_template(fields, inner, errors),
            TemplatePiece::Text(_) | TemplatePiece::Line | TemplatePiece::SoftLine | TemplatePiece::HardLine => {}
        }
    }
}
