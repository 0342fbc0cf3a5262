//! The checks a `component!` invocation gets before expansion: every mistake
//! visible inside the invocation is reported at its span.

use std::collections::BTreeMap;

use syn::{Expr, Ident, Lit, RangeLimits, UnOp};

use crate::parse::{ComponentInput, FieldDefKind, ProductionDef, PropertyValue, TemplatePiece};

/// The properties the DSL knows, and what each takes.
pub const PROPERTIES: &[(&str, &str)] = &[
    ("render", "a template `[..]` or a render function"),
    ("choice_weight", "a non-negative integer or a function of the hole"),
    ("may_be_generated", "`true` or `false`"),
    ("depth_increase", "a non-negative integer"),
    (
        "fresh",
        "field initialisers `{ field: |node| .. }` or a function of the fresh node",
    ),
    ("choice_filters", "a function of the hole returning bool"),
    ("feature", "a feature group name as a string"),
    (
        "list_length",
        "`{ list_field: |store, node_type, drawn_length| length }`",
    ),
    (
        "type_info",
        "`(|store| node type) { child: |c| child type, .. }` (the braces are optional)",
    ),
    (
        "binder_info",
        "`definition(name_field)` or `parameter(name_field)`, optionally with `, read_only` and `, value = child_field`",
    ),
    ("reference_info", "`read(name_field)` or `write(name_field)`"),
    ("scope", "`sequential` or `recursive`"),
    ("lift_predicate", "the list field that receives lifted definitions"),
    ("strict_child_order", "`true` or `false`"),
    ("io", "`true` or `false`"),
    ("calls", "the child field holding the function value called"),
    ("function_body", "the child field that runs when the function value is called"),
    (
        "mutable_container_access",
        "`read(container_field)` or `write(container_field)`",
    ),
];

/// The parts of a call-like property value `head(field, flag)`.
pub fn call_parts(expr: &Expr) -> Option<(String, &syn::Ident, Vec<String>)> {
    let Expr::Call(call) = expr else { return None };
    let Expr::Path(head) = &*call.func else { return None };
    let head = head.path.get_ident()?.to_string();
    let mut args = call.args.iter().map(|arg| match arg {
        Expr::Path(path) => path.path.get_ident(),
        _ => None,
    });
    let field = args.next()??;
    let flags = args.map(|a| a.map(|i| i.to_string())).collect::<Option<Vec<_>>>()?;
    Some((head, field, flags))
}

/// The parts of a `binder_info` value: `definition(name)`,
/// `parameter(name, read_only)`, `definition(name, read_only, value = init)`.
pub struct BinderParts<'a> {
    /// `definition` or `parameter`.
    pub head: String,
    /// The data field holding the name.
    pub name: &'a syn::Ident,
    /// Whether `read_only` was given.
    pub read_only: bool,
    /// The child field given by `value = ..`.
    pub value: Option<&'a syn::Ident>,
}

/// Splits a `binder_info` value into its parts, if it has that shape.
pub fn binder_parts(expr: &Expr) -> Option<BinderParts<'_>> {
    let Expr::Call(call) = expr else { return None };
    let Expr::Path(head) = &*call.func else { return None };
    let head = head.path.get_ident()?.to_string();
    let mut args = call.args.iter();
    let name = ident_value(args.next()?)?;
    let mut parts = BinderParts {
        head,
        name,
        read_only: false,
        value: None,
    };
    for arg in args {
        match arg {
            Expr::Path(_) if ident_value(arg)? == "read_only" && !parts.read_only => parts.read_only = true,
            Expr::Assign(assign) if ident_value(&assign.left)? == "value" && parts.value.is_none() => {
                parts.value = Some(ident_value(&assign.right)?)
            }
            _ => return None,
        }
    }
    Some(parts)
}

/// The identifier a property value is, if it is one.
pub fn ident_value(expr: &Expr) -> Option<&syn::Ident> {
    match expr {
        Expr::Path(path) => path.path.get_ident(),
        _ => None,
    }
}

/// Collects errors so that one compile shows them all.
#[derive(Default)]
struct Errors(Option<syn::Error>);

impl Errors {
    fn add(&mut self, span: proc_macro2::Span, message: impl std::fmt::Display) {
        self.push(syn::Error::new(span, message));
    }

    /// An error spanning all of `tokens` (an expression), first to last.
    fn add_spanned(&mut self, tokens: impl quote::ToTokens, message: impl std::fmt::Display) {
        self.push(syn::Error::new_spanned(tokens, message));
    }

    fn push(&mut self, error: syn::Error) {
        match &mut self.0 {
            Some(all) => all.combine(error),
            None => self.0 = Some(error),
        }
    }
}

/// What is known of a production's fields: `None` when some of them come
/// from a supertype declared in another component.
fn fields_of<'a>(
    input: &'a ComponentInput,
    production: &'a ProductionDef,
) -> Option<Vec<(&'a Ident, &'a FieldDefKind)>> {
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
    Some(
        chain
            .iter()
            .rev()
            .flat_map(|p| p.fields.iter().map(|f| (&f.name, &f.kind)))
            .collect(),
    )
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
            if let FieldDefKind::List(_, Some(length)) = &field.kind {
                check_list_length(&mut errors, length);
            }
        }
        if let Some(fields) = fields_of(input, production) {
            // The production's own fields come last; a clash among the
            // inherited ones is reported at the supertype.
            let own = fields.len() - production.fields.len();
            for (index, (name, _)) in fields.iter().enumerate().skip(own) {
                if fields[..index].iter().any(|(earlier, _)| earlier == name) {
                    errors.add(
                        name.span(),
                        format!("production `{}` has two fields called `{name}`", production.name),
                    );
                }
            }
        }
    }

    // The productions each property is given for, over all its blocks.
    let mut seen: BTreeMap<String, Vec<&Ident>> = BTreeMap::new();
    for block in &input.properties {
        let property = block.name.to_string();
        let Some((_, takes)) = PROPERTIES.iter().find(|(name, _)| *name == property) else {
            let names: Vec<&str> = PROPERTIES.iter().map(|(name, _)| *name).collect();
            errors.add(
                block.name.span(),
                format!(
                    "unknown property `{property}`: expected a `grammar` or `uses` section, or one of the properties {}",
                    names.join(", ")
                ),
            );
            continue;
        };
        let seen = seen.entry(property.clone()).or_default();
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
            let wrong = format!("property `{property}` takes {takes}");
            match (property.as_str(), &entry.value) {
                ("render", PropertyValue::Template(pieces)) => {
                    check_template(&mut errors, production_name, fields.as_deref(), pieces)
                }
                ("render", PropertyValue::Expr(expr)) if literal(expr).is_none() => {}
                ("choice_weight", PropertyValue::Expr(expr)) if literal(expr).is_none() => {}
                ("choice_weight" | "depth_increase", PropertyValue::Expr(expr)) if is_u32(expr) => {}
                ("may_be_generated" | "strict_child_order" | "io", PropertyValue::Expr(Expr::Lit(lit)))
                    if matches!(lit.lit, Lit::Bool(_)) => {}
                ("fresh", PropertyValue::Fields(inits)) => {
                    let names = inits.iter().map(|(field, _)| field);
                    check_fields(
                        &mut errors,
                        production_name,
                        fields.as_deref(),
                        names,
                        |kind| match kind {
                            FieldDefKind::Child(_) => Some("is a child, not a data field: `fresh` sets data fields"),
                            FieldDefKind::List(..) => {
                                Some("is a list of children, not a data field: `fresh` sets data fields")
                            }
                            FieldDefKind::Data(_) => None,
                        },
                    )
                }
                ("fresh" | "choice_filters" | "type_info", PropertyValue::Expr(expr)) if literal(expr).is_none() => {}
                ("list_length", PropertyValue::Fields(lengths)) => {
                    let names = lengths.iter().map(|(field, _)| field);
                    check_fields(
                        &mut errors,
                        production_name,
                        fields.as_deref(),
                        names,
                        |kind| match kind {
                            FieldDefKind::List(..) => None,
                            _ => Some("is not a list: `list_length` sets list lengths"),
                        },
                    )
                }
                ("type_info", PropertyValue::TypeInfo(node_type, children)) => {
                    if literal(node_type).is_some() {
                        errors.add_spanned(node_type, wrong);
                    }
                    let names = children.iter().map(|(field, _)| field);
                    check_fields(
                        &mut errors,
                        production_name,
                        fields.as_deref(),
                        names,
                        |kind| match kind {
                            FieldDefKind::Data(_) => Some("is a data field: `type_info` types children"),
                            _ => None,
                        },
                    )
                }
                ("feature", PropertyValue::Expr(Expr::Lit(lit))) if matches!(lit.lit, Lit::Str(_)) => {}
                ("binder_info", PropertyValue::Expr(expr)) => match binder_parts(expr) {
                    Some(parts) if parts.head == "definition" || parts.head == "parameter" => {
                        let data = |kind: &FieldDefKind| match kind {
                            FieldDefKind::Data(_) => None,
                            _ => Some("is not a data field: it must hold the name"),
                        };
                        check_fields(
                            &mut errors,
                            production_name,
                            fields.as_deref(),
                            [parts.name].into_iter(),
                            data,
                        );
                        let child = |kind: &FieldDefKind| match kind {
                            FieldDefKind::Child(_) => None,
                            _ => Some("is not a single child: it must hold the definition's value"),
                        };
                        check_fields(
                            &mut errors,
                            production_name,
                            fields.as_deref(),
                            parts.value.into_iter(),
                            child,
                        );
                    }
                    _ => errors.add_spanned(expr, wrong),
                },
                ("reference_info", PropertyValue::Expr(expr)) => match call_parts(expr) {
                    Some((head, field, flags)) if (head == "read" || head == "write") && flags.is_empty() => {
                        check_fields(
                            &mut errors,
                            production_name,
                            fields.as_deref(),
                            [field].into_iter(),
                            |kind| match kind {
                                FieldDefKind::Data(_) => None,
                                _ => Some("is not a data field: it must hold the name"),
                            },
                        )
                    }
                    _ => errors.add_spanned(expr, wrong),
                },
                ("calls" | "function_body", PropertyValue::Expr(expr)) if ident_value(expr).is_some() => {
                    let field = ident_value(expr).expect("checked just above");
                    check_fields(
                        &mut errors,
                        production_name,
                        fields.as_deref(),
                        [field].into_iter(),
                        |kind| match kind {
                            FieldDefKind::Child(_) => None,
                            _ => Some("is not a single child field"),
                        },
                    )
                }
                ("mutable_container_access", PropertyValue::Expr(expr)) => match call_parts(expr) {
                    Some((head, field, flags)) if (head == "read" || head == "write") && flags.is_empty() => {
                        check_fields(
                            &mut errors,
                            production_name,
                            fields.as_deref(),
                            [field].into_iter(),
                            |kind| match kind {
                                FieldDefKind::Child(_) => None,
                                _ => Some("is not a single child: it must hold the container"),
                            },
                        )
                    }
                    _ => errors.add_spanned(expr, wrong),
                },
                ("scope", PropertyValue::Expr(expr))
                    if ident_value(expr).is_some_and(|i| i == "sequential" || i == "recursive") => {}
                ("lift_predicate", PropertyValue::Expr(expr)) if ident_value(expr).is_some() => {
                    let field = ident_value(expr).expect("checked just above");
                    check_fields(
                        &mut errors,
                        production_name,
                        fields.as_deref(),
                        [field].into_iter(),
                        |kind| match kind {
                            FieldDefKind::List(..) => None,
                            _ => Some("is not a list: lifted definitions go into a list"),
                        },
                    )
                }
                (_, PropertyValue::Expr(expr)) => errors.add_spanned(expr, wrong),
                (_, _) => errors.add(entry.value_span, wrong),
            }
        }
    }
    match errors.0 {
        Some(error) => Err(error),
        None => Ok(()),
    }
}

/// Reports each of `names` that the production has no field for, or whose
/// field kind `refuse` objects to (with the rest of the sentence). Nothing is
/// reported when some fields come from another component (`fields` is
/// `None`).
fn check_fields<'a>(
    errors: &mut Errors,
    production: &Ident,
    fields: Option<&[(&Ident, &FieldDefKind)]>,
    names: impl Iterator<Item = &'a Ident>,
    refuse: impl Fn(&FieldDefKind) -> Option<&'static str>,
) {
    let Some(fields) = fields else { return };
    for field in names {
        match fields.iter().find(|(name, _)| *name == field) {
            None => errors.add(
                field.span(),
                format!("production `{production}` has no field `{field}`"),
            ),
            Some((_, kind)) => {
                if let Some(complaint) = refuse(kind) {
                    errors.add(
                        field.span(),
                        format!("field `{field}` of production `{production}` {complaint}"),
                    );
                }
            }
        }
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
                    Some(Some((_, kind)))
                        if matches!(piece, TemplatePiece::Join(..)) && !matches!(kind, FieldDefKind::List(..)) =>
                    {
                        errors.add(
                            field.span(),
                            format!("`join` needs a list field, and `{field}` is not one"),
                        )
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
/// (The parser has removed parentheses around property values.)
fn literal(expr: &Expr) -> Option<&Lit> {
    match expr {
        Expr::Lit(lit) => Some(&lit.lit),
        Expr::Unary(unary) if matches!(unary.op, UnOp::Neg(_)) => literal(&unary.expr),
        _ => None,
    }
}

/// Whether an expression is an integer literal that fits a `u32`. (A type
/// suffix other than `u32` is left to the compiler, which names both types.)
fn is_u32(expr: &Expr) -> bool {
    matches!(expr, Expr::Lit(lit) if matches!(&lit.lit, Lit::Int(int) if int.base10_parse::<u32>().is_ok()))
}

/// A list length converts into `ListLength`, which integers and ranges other
/// than `min..=max` do not: say so here rather than let the conversion fail
/// at the macro call.
fn check_list_length(errors: &mut Errors, length: &Expr) {
    let message = "a list length is an inclusive range `min..=max` of lengths, or a `ListLength`";
    match length {
        Expr::Lit(_) => errors.add_spanned(length, message),
        Expr::Range(range) if !matches!(range.limits, RangeLimits::Closed(_)) || range.start.is_none() => {
            errors.add_spanned(length, message)
        }
        _ => {}
    }
}
