//! The table of the properties given to productions: each value decoded
//! once from its syntax into a typed value (as serde_derive's
//! `internals/attr.rs` decodes attributes). What cannot enter the table is
//! reported here, at its span: an unknown property, a production the grammar
//! does not know, a property given twice, a value of the wrong kind. `check`
//! validates the typed values against the grammar; `expand` reads nothing
//! else.

use std::collections::BTreeMap;

use proc_macro2::Span;
use syn::{Expr, Ident, Lit, LitBool, LitInt, LitStr, UnOp};

use crate::errors::{Errors, Place};
use crate::parse::{FieldDef, FieldDefKind, Grammar, PropertyBlock, TemplatePiece, ValueSyntax};
use crate::property::Property;

/// One decoded `Production => value` entry.
pub struct Entry {
    /// Where its errors are shown among the others.
    pub place: Place,
    /// Where the property's name is written: the span its builder call
    /// gets.
    pub keyword: Span,
    /// The production it is given for.
    pub production: Ident,
    /// The value.
    pub value: Value,
}

/// A property's value, one variant a property.
pub enum Value {
    /// `render`.
    Render(Render),
    /// `choice_weight`.
    ChoiceWeight(Weight),
    /// `may_be_generated`.
    MayBeGenerated(LitBool),
    /// `depth_increase`: an integer that fits a `u32`.
    DepthIncrease(LitInt),
    /// `fresh`.
    Fresh(Fresh),
    /// `choice_filters`: a function of the hole.
    ChoiceFilter(Expr),
    /// `lift_filters`: a function of the lift site.
    LiftFilter(Expr),
    /// `binding_filters`: a function of the hole and a binder in sight.
    BindingFilter(Expr),
    /// `feature`: the feature group's name.
    Feature(LitStr),
    /// `list_length`: a function for each list field.
    ListLength(Vec<(Ident, Expr)>),
    /// `type_info`.
    TypeInfo(TypeInfo),
    /// `binder_info`.
    BinderInfo(BinderInfo),
    /// `reference_info`: the access and the data field holding the name.
    ReferenceInfo(FieldAccess),
    /// `scope`.
    Scope(ScopeKind),
    /// `lift_predicate`: the list field that receives lifted definitions.
    LiftPredicate(Ident),
    /// `strict_child_order`.
    StrictChildOrder(LitBool),
    /// `io`.
    Io(LitBool),
    /// `calls`: the child field holding the function value called.
    Calls(Ident),
    /// `function_body`: the child field that runs when the function is called.
    FunctionBody(Ident),
    /// `mutable_container_access`: the access and the child field holding
    /// the container.
    MutableContainerAccess(FieldAccess),
}

/// How a node renders.
pub enum Render {
    /// `[piece, ..]`
    Template(Vec<TemplatePiece>),
    /// A function of the render node.
    Function(Expr),
}

/// How likely a production is chosen.
pub enum Weight {
    /// An integer that fits a `u32`.
    Constant(LitInt),
    /// A function of the hole.
    Dynamic(Expr),
}

/// How a fresh node's data fields are set.
pub enum Fresh {
    /// `{ field: |node| .., .. }`: a function for each data field.
    Fields(Vec<(Ident, Expr)>),
    /// A function of the fresh node.
    Function(Expr),
}

/// `(node type function) { child: type function, .. }`
pub struct TypeInfo {
    /// The function giving the node's type.
    pub node: Expr,
    /// The functions giving some children's types.
    pub children: Vec<(Ident, Expr)>,
}

/// `definition(name)`, `parameter(name, read_only)`,
/// `definition(name, value = init)`.
pub struct BinderInfo {
    /// `definition` or `parameter`.
    pub style: BinderStyle,
    /// The data field holding the name.
    pub name: Ident,
    /// Whether `read_only` was given.
    pub read_only: bool,
    /// The child field given by `value = ..`.
    pub value: Option<Ident>,
}

/// What a binder declares.
pub enum BinderStyle {
    /// `definition(..)`
    Definition,
    /// `parameter(..)`
    Parameter,
}

/// `read(field)` or `write(field)`.
pub struct FieldAccess {
    /// Read or write.
    pub access: Access,
    /// The field named.
    pub field: Ident,
}

/// A read or a write.
pub enum Access {
    /// `read(..)`
    Read,
    /// `write(..)`
    Write,
}

/// What a scope lets its bindings see.
pub enum ScopeKind {
    /// `sequential`
    Sequential,
    /// `recursive`
    Recursive,
    /// `isolated`
    Isolated,
    /// `global`
    Global,
}

/// Decodes every entry of the property blocks, in source order. A block of
/// no known property, an entry for a production that is neither declared nor
/// used, and a value of the wrong kind are reported and give no entry; a
/// property given twice for a production is reported.
pub fn decode(grammar: &Grammar, blocks: &[PropertyBlock], errors: &mut Errors) -> Vec<Entry> {
    // The productions each property is given for, so far.
    let mut given: BTreeMap<Property, Vec<&Ident>> = BTreeMap::new();
    let mut count = 0;
    let mut next_place = || {
        count += 1;
        Place::Property(count)
    };
    let mut entries = Vec::new();
    for block in blocks {
        let block_place = next_place();
        let Some(property) = block.property else {
            let names: Vec<&str> = Property::ALL.iter().map(|property| property.keyword()).collect();
            errors.add(
                block_place,
                block.name.span(),
                format!(
                    "unknown property `{}`: expected a `grammar` or `uses` section, or one of the properties {}",
                    block.name,
                    names.join(", ")
                ),
            );
            continue;
        };
        let keyword = property.keyword();
        for entry in &block.entries {
            let place = next_place();
            let production = &entry.production;
            if is_default(production) {
                if !property.has_default() {
                    let with: Vec<&str> = Property::ALL
                        .iter()
                        .filter(|p| p.has_default())
                        .map(|p| p.keyword())
                        .collect();
                    errors.add(
                        place,
                        production.span(),
                        format!(
                            "property `{keyword}` has no spec-wide default: `_ =>` is for {}",
                            with.join(", ")
                        ),
                    );
                    continue;
                }
            } else if !grammar.knows(production) {
                errors.add(
                    place,
                    production.span(),
                    format!("property `{keyword}` is given for unknown production `{production}`"),
                );
                continue;
            }
            let given = given.entry(property).or_default();
            if given.contains(&production) && !property.repeatable() {
                errors.add(
                    place,
                    production.span(),
                    format!("property `{keyword}` is given twice for production `{production}`"),
                );
            }
            given.push(production);
            let Some(value) = decode_value(property, &entry.value) else {
                let message = format!("property `{keyword}` takes {}", property.takes());
                match (property, &entry.value) {
                    // The expression is what is wrong: point at all of it.
                    (_, ValueSyntax::Expr(expr)) | (Property::TypeInfo, ValueSyntax::ExprWithFields(expr, _)) => {
                        errors.add_spanned(place, expr, message)
                    }
                    _ => errors.add(place, entry.value_span, message),
                }
                continue;
            };
            entries.push(Entry {
                place,
                keyword: block.name.span(),
                production: production.clone(),
                value,
            });
        }
    }
    entries
}

/// Whether an entry is a spec-wide default (`_ => value`).
pub fn is_default(production: &Ident) -> bool {
    production == "_"
}

/// Declares the name field of each production given a `binder_info` or a
/// `reference_info` whose name field it neither declares nor inherits: a
/// data field, first of its own fields (the engine writes the name into
/// it), so no binder or reference spells out `name = |_| ""`.
pub fn imply_name_fields(grammar: &mut Grammar, entries: &[Entry]) {
    for entry in entries {
        let field = match &entry.value {
            Value::BinderInfo(binder) => &binder.name,
            Value::ReferenceInfo(reference) => &reference.field,
            _ => continue,
        };
        if declares(grammar, &entry.production, field) {
            continue;
        }
        if let Some(production) = grammar.productions.iter_mut().find(|p| p.name == entry.production) {
            let init: Expr = syn::parse_quote_spanned!(field.span()=> |_| "");
            production.fields.insert(
                0,
                FieldDef {
                    name: field.clone(),
                    kind: FieldDefKind::Data(init),
                },
            );
        }
    }
}

/// Whether `production` or one of its supertypes declares `field`.
fn declares(grammar: &Grammar, production: &Ident, field: &Ident) -> bool {
    let mut cursor = Some(production);
    for _ in 0..=grammar.productions.len() {
        let Some(name) = cursor else { return false };
        let Some(p) = grammar.productions.iter().find(|p| p.name == *name) else {
            return false;
        };
        if p.fields.iter().any(|f| f.name == *field) {
            return true;
        }
        cursor = p.supertype.as_ref();
    }
    false
}

/// The typed value of `property` that `syntax` writes, if it writes one.
fn decode_value(property: Property, syntax: &ValueSyntax) -> Option<Value> {
    use ValueSyntax as S;
    let value = match (property, syntax) {
        (Property::Render, S::Template(pieces)) => Value::Render(Render::Template(pieces.clone())),
        (Property::Render, S::Expr(expr)) => Value::Render(Render::Function(function(expr)?)),
        (Property::ChoiceWeight, S::Expr(expr)) => Value::ChoiceWeight(match u32_literal(expr) {
            Some(weight) => Weight::Constant(weight),
            None => Weight::Dynamic(function(expr)?),
        }),
        (Property::MayBeGenerated, S::Expr(expr)) => Value::MayBeGenerated(bool_literal(expr)?),
        (Property::DepthIncrease, S::Expr(expr)) => Value::DepthIncrease(u32_literal(expr)?),
        (Property::Fresh, S::Fields(inits)) => Value::Fresh(Fresh::Fields(inits.clone())),
        (Property::Fresh, S::Expr(expr)) => Value::Fresh(Fresh::Function(function(expr)?)),
        (Property::ChoiceFilters, S::Expr(expr)) => Value::ChoiceFilter(function(expr)?),
        (Property::LiftFilters, S::Expr(expr)) => Value::LiftFilter(function(expr)?),
        (Property::BindingFilters, S::Expr(expr)) => Value::BindingFilter(function(expr)?),
        (Property::Feature, S::Expr(expr)) => Value::Feature(string_literal(expr)?),
        (Property::ListLength, S::Fields(lengths)) => Value::ListLength(lengths.clone()),
        (Property::TypeInfo, S::Expr(node)) => Value::TypeInfo(TypeInfo {
            node: function(node)?,
            children: Vec::new(),
        }),
        (Property::TypeInfo, S::ExprWithFields(node, children)) => Value::TypeInfo(TypeInfo {
            node: function(node)?,
            children: children.clone(),
        }),
        (Property::BinderInfo, S::Expr(expr)) => Value::BinderInfo(binder_info(expr)?),
        (Property::ReferenceInfo, S::Expr(expr)) => Value::ReferenceInfo(field_access(expr)?),
        (Property::Scope, S::Expr(expr)) => Value::Scope(scope_kind(expr)?),
        (Property::LiftPredicate, S::Expr(expr)) => Value::LiftPredicate(ident(expr)?.clone()),
        (Property::StrictChildOrder, S::Expr(expr)) => Value::StrictChildOrder(bool_literal(expr)?),
        (Property::Io, S::Expr(expr)) => Value::Io(bool_literal(expr)?),
        (Property::Calls, S::Expr(expr)) => Value::Calls(ident(expr)?.clone()),
        (Property::FunctionBody, S::Expr(expr)) => Value::FunctionBody(ident(expr)?.clone()),
        (Property::MutableContainerAccess, S::Expr(expr)) => Value::MutableContainerAccess(field_access(expr)?),
        _ => return None,
    };
    Some(value)
}

/// A function (a closure, a path, a call: any expression but a literal).
fn function(expr: &Expr) -> Option<Expr> {
    match literal(expr) {
        Some(_) => None,
        None => Some(expr.clone()),
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

/// An integer literal that fits a `u32`. (A type suffix other than `u32` is
/// left to the compiler, which names both types.)
fn u32_literal(expr: &Expr) -> Option<LitInt> {
    match expr {
        Expr::Lit(lit) => match &lit.lit {
            Lit::Int(int) if int.base10_parse::<u32>().is_ok() => Some(int.clone()),
            _ => None,
        },
        _ => None,
    }
}

/// `true` or `false`.
fn bool_literal(expr: &Expr) -> Option<LitBool> {
    match expr {
        Expr::Lit(lit) => match &lit.lit {
            Lit::Bool(bool) => Some(bool.clone()),
            _ => None,
        },
        _ => None,
    }
}

/// A string literal.
fn string_literal(expr: &Expr) -> Option<LitStr> {
    match expr {
        Expr::Lit(lit) => match &lit.lit {
            Lit::Str(string) => Some(string.clone()),
            _ => None,
        },
        _ => None,
    }
}

/// The identifier an expression is, if it is one.
fn ident(expr: &Expr) -> Option<&Ident> {
    match expr {
        Expr::Path(path) => path.path.get_ident(),
        _ => None,
    }
}

/// The function name and arguments of a call `head(args..)` whose function
/// is an identifier.
fn call(expr: &Expr) -> Option<(&Ident, Vec<&Expr>)> {
    let Expr::Call(call) = expr else { return None };
    Some((ident(&call.func)?, call.args.iter().collect()))
}

/// `sequential`, `recursive`, `isolated` or `global`.
fn scope_kind(expr: &Expr) -> Option<ScopeKind> {
    let kind = ident(expr)?;
    [
        ("sequential", ScopeKind::Sequential),
        ("recursive", ScopeKind::Recursive),
        ("isolated", ScopeKind::Isolated),
        ("global", ScopeKind::Global),
    ]
    .into_iter()
    .find_map(|(name, scope)| (kind == name).then_some(scope))
}

/// `read(field)` or `write(field)`.
fn field_access(expr: &Expr) -> Option<FieldAccess> {
    let (head, args) = call(expr)?;
    let access = if head == "read" {
        Access::Read
    } else if head == "write" {
        Access::Write
    } else {
        return None;
    };
    let [field] = args[..] else { return None };
    Some(FieldAccess {
        access,
        field: ident(field)?.clone(),
    })
}

/// `definition(name)` or `parameter(name)`, then optionally `read_only`
/// and `value = child`, each at most once.
fn binder_info(expr: &Expr) -> Option<BinderInfo> {
    let (head, args) = call(expr)?;
    let style = if head == "definition" {
        BinderStyle::Definition
    } else if head == "parameter" {
        BinderStyle::Parameter
    } else {
        return None;
    };
    let (name, flags) = args.split_first()?;
    let mut binder = BinderInfo {
        style,
        name: ident(name)?.clone(),
        read_only: false,
        value: None,
    };
    for flag in flags {
        match flag {
            Expr::Path(_) if ident(flag)? == "read_only" && !binder.read_only => binder.read_only = true,
            Expr::Assign(assign) if ident(&assign.left)? == "value" && binder.value.is_none() => {
                binder.value = Some(ident(&assign.right)?.clone())
            }
            _ => return None,
        }
    }
    Some(binder)
}
