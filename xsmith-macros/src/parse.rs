//! The syntax of a `component!` invocation, and its parser. Property
//! values are kept in their syntactic shape (template, field functions,
//! expression); `attr` decodes them into typed values.

use proc_macro2::{Span, TokenStream};
use syn::parse::{Parse, ParseStream};
use syn::punctuated::Punctuated;
use syn::{braced, bracketed, parenthesized, Attribute, Expr, Ident, LitInt, LitStr, Token, Visibility};

use crate::property::Property;

/// The whole invocation.
pub struct ComponentInput {
    /// The generated function's doc comments, visibility and name.
    pub signature: Signature,
    /// The `grammar` and `uses` sections.
    pub grammar: Grammar,
    /// The property blocks, in source order.
    pub properties: Vec<PropertyBlock>,
    /// The feature groups of `feature_off_by_default { "group", .. }`.
    pub features_off_by_default: Vec<LitStr>,
}

/// `/// docs` `pub fn name;`: the function the invocation generates.
pub struct Signature {
    /// Its attributes (doc comments among them).
    pub attrs: Vec<Attribute>,
    /// Its visibility.
    pub vis: Visibility,
    /// Its name, which is also the component's name.
    pub name: Ident,
}

/// The node types a component declares and those it uses.
pub struct Grammar {
    /// Node types declared by other components (`uses { .. }`).
    pub uses: Vec<Ident>,
    /// The productions of all `grammar` sections, in source order.
    pub productions: Vec<ProductionDef>,
}

impl Grammar {
    /// Whether a node type is declared here or named in `uses`.
    pub fn knows(&self, node_type: &Ident) -> bool {
        self.productions.iter().any(|production| production.name == *node_type) || self.uses.contains(node_type)
    }
}

/// One grammar production.
pub struct ProductionDef {
    /// Whether it is `abstract` (a node type, never generated).
    pub is_abstract: bool,
    /// Its name.
    pub name: Ident,
    /// The production it extends, if any.
    pub supertype: Option<Ident>,
    /// Its own fields (not the inherited ones).
    pub fields: Vec<FieldDef>,
}

/// One field of a production.
pub struct FieldDef {
    /// The field's name.
    pub name: Ident,
    /// What the field holds.
    pub kind: FieldDefKind,
}

/// What a field holds.
pub enum FieldDefKind {
    /// `name: NodeType`: one child.
    Child(Ident),
    /// `name: [NodeType; length]`: a list of children, with an optional
    /// length expression.
    List(Ident, Option<Expr>),
    /// `name = initialiser`: data, set by the initialiser.
    Data(Expr),
}

/// `name { Production => value, ... }`
pub struct PropertyBlock {
    /// The block's name as written.
    pub name: Ident,
    /// The property it names; `None` for an unknown name, whose entries are
    /// not parsed.
    pub property: Option<Property>,
    /// The entries, in source order.
    pub entries: Vec<PropertyEntry>,
}

/// `Production => value`, or `_ => value` for a spec-wide default.
pub struct PropertyEntry {
    /// The production the value is given for (`_` for the default).
    pub production: Ident,
    /// The value, in its syntactic shape.
    pub value: ValueSyntax,
    /// The value's brackets or braces, or its first token: where errors
    /// about the kind of value point.
    pub value_span: Span,
}

/// The syntactic shape of a property value.
pub enum ValueSyntax {
    /// `[piece, ...]`
    Template(Vec<TemplatePiece>),
    /// `{ field: expr, ... }`
    Fields(Vec<(Ident, Expr)>),
    /// Any other expression (a literal, a closure, a call), without its
    /// parentheses.
    Expr(Expr),
    /// `(expr) { field: expr, ... }`
    ExprWithFields(Expr, Vec<(Ident, Expr)>),
}

/// One piece of a render template.
#[derive(Clone)]
pub enum TemplatePiece {
    /// `"text"` (newlines become hard line breaks).
    Text(LitStr),
    /// `field`: a child rendered, or a data field displayed.
    Field(Ident),
    /// `line`: a space, or a line break when the group does not fit.
    Line,
    /// `softline`: nothing, or a line break when the group does not fit.
    SoftLine,
    /// `hardline`: always a line break.
    HardLine,
    /// `nest(indent, [..])`: pieces indented further after line breaks.
    Nest(LitInt, Vec<TemplatePiece>),
    /// `group([..])`: pieces whose line breaks are taken together.
    Group(Vec<TemplatePiece>),
    /// `join(list_field, [..])`: a list's elements with a separator.
    Join(Ident, Vec<TemplatePiece>),
}

mod kw {
    syn::custom_keyword!(uses);
    syn::custom_keyword!(grammar);
    syn::custom_keyword!(feature_off_by_default);
    syn::custom_keyword!(read_only);
    syn::custom_keyword!(value);
}

impl Parse for ComponentInput {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let attrs = input.call(Attribute::parse_outer)?;
        let vis: Visibility = input.parse()?;
        input.parse::<Token![fn]>()?;
        let name: Ident = input.parse()?;
        input.parse::<Token![;]>()?;
        let mut uses = Vec::new();
        let mut productions = Vec::new();
        let mut properties = Vec::new();
        let mut features_off_by_default = Vec::new();
        while !input.is_empty() {
            if input.peek(kw::uses) {
                input.parse::<kw::uses>()?;
                let content;
                braced!(content in input);
                uses.extend(Punctuated::<Ident, Token![,]>::parse_terminated(&content)?);
            } else if input.peek(kw::grammar) {
                input.parse::<kw::grammar>()?;
                let content;
                braced!(content in input);
                while !content.is_empty() {
                    productions.push(content.parse()?);
                    // Productions may be separated by commas or nothing.
                    let _ = content.parse::<Option<Token![,]>>()?;
                }
            } else if input.peek(kw::feature_off_by_default) {
                input.parse::<kw::feature_off_by_default>()?;
                let content;
                braced!(content in input);
                let groups = Punctuated::<LitStr, Token![,]>::parse_terminated(&content).map_err(|e| {
                    syn::Error::new(
                        e.span(),
                        "expected feature group names as strings: `feature_off_by_default { \"division\", .. }`",
                    )
                })?;
                features_off_by_default.extend(groups);
            } else {
                properties.push(input.parse()?);
            }
        }
        Ok(ComponentInput {
            signature: Signature { attrs, vis, name },
            grammar: Grammar { uses, productions },
            properties,
            features_off_by_default,
        })
    }
}

impl Parse for ProductionDef {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let is_abstract = input.parse::<Option<Token![abstract]>>()?.is_some();
        let name: Ident = input.parse()?;
        let supertype = if input.parse::<Option<Token![:]>>()?.is_some() {
            Some(input.parse()?)
        } else {
            None
        };
        let content;
        braced!(content in input);
        let fields = Punctuated::<FieldDef, Token![,]>::parse_terminated(&content)?
            .into_iter()
            .collect();
        Ok(ProductionDef {
            is_abstract,
            name,
            supertype,
            fields,
        })
    }
}

impl Parse for FieldDef {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let name: Ident = input.parse()?;
        if input.parse::<Option<Token![=]>>()?.is_some() {
            return Ok(FieldDef {
                name,
                kind: FieldDefKind::Data(input.parse()?),
            });
        }
        if !input.peek(Token![:]) {
            return Err(input.error(format!(
                "expected `:` and a node type, or `=` and an initialiser, after field `{name}`"
            )));
        }
        input.parse::<Token![:]>()?;
        if input.peek(syn::token::Bracket) {
            let content;
            bracketed!(content in input);
            let element: Ident = content.parse()?;
            let length = if content.parse::<Option<Token![;]>>()?.is_some() {
                Some(content.parse()?)
            } else {
                None
            };
            if !content.is_empty() {
                return Err(content.error("expected `]` after a list field's element type and length"));
            }
            return Ok(FieldDef {
                name,
                kind: FieldDefKind::List(element, length),
            });
        }
        let node_type: Ident = input.parse()?;
        Ok(FieldDef {
            name,
            kind: FieldDefKind::Child(node_type),
        })
    }
}

impl Parse for PropertyBlock {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let name: Ident = input.parse()?;
        let content;
        braced!(content in input);
        let property = Property::from_ident(&name);
        if property.is_none() {
            // Reported by `attr` at the name; the entries of an unknown
            // block (often a misspelt `grammar`) need not parse.
            content.parse::<TokenStream>()?;
            return Ok(PropertyBlock {
                name,
                property,
                entries: Vec::new(),
            });
        }
        let entries = if property == Some(Property::BinderInfo) {
            parse_binder_entries(&content)?
        } else {
            Punctuated::<PropertyEntry, Token![,]>::parse_terminated(&content)?
                .into_iter()
                .collect()
        };
        Ok(PropertyBlock {
            name,
            property,
            entries,
        })
    }
}

impl Parse for PropertyEntry {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let production = match input.parse::<Option<Token![_]>>()? {
            Some(underscore) => Ident::new("_", underscore.span),
            None => input.parse()?,
        };
        input.parse::<Token![=>]>()?;
        let mut value_span = input.span();
        let value = if input.peek(syn::token::Bracket) {
            let content;
            value_span = bracketed!(content in input).span.join();
            ValueSyntax::Template(parse_pieces(&content)?)
        } else if input.peek(syn::token::Brace) {
            let content;
            value_span = braced!(content in input).span.join();
            ValueSyntax::Fields(parse_field_inits(&content)?)
        } else {
            let expr = unwrap_parens(input.parse()?);
            if input.peek(syn::token::Brace) {
                let content;
                braced!(content in input);
                ValueSyntax::ExprWithFields(expr, parse_field_inits(&content)?)
            } else {
                ValueSyntax::Expr(expr)
            }
        };
        Ok(PropertyEntry {
            production,
            value,
            value_span,
        })
    }
}

/// The entries of a `binder_info` block. A binder's flags may be written
/// inside its call, `Def => definition(name, read_only, value = init)`, or
/// after it, `Def => definition(name), read_only, value = init`: flags
/// after the call are moved into it, so both forms decode alike.
fn parse_binder_entries(content: ParseStream) -> syn::Result<Vec<PropertyEntry>> {
    let mut entries: Vec<PropertyEntry> = Vec::new();
    while !content.is_empty() {
        let flag_follows = (content.peek(kw::read_only) || content.peek(kw::value)) && !content.peek2(Token![=>]);
        match entries.last_mut() {
            Some(PropertyEntry {
                value: ValueSyntax::Expr(Expr::Call(call)),
                ..
            }) if flag_follows => {
                let flag: Expr = if content.peek(kw::read_only) {
                    let flag: Ident = content.parse()?;
                    syn::parse_quote!(#flag)
                } else {
                    let flag: Ident = content.parse()?;
                    if !content.peek(Token![=]) {
                        return Err(content.error(
                            "expected `= child_field` after `value`: write `Def => definition(name, value = init)`",
                        ));
                    }
                    let eq: Token![=] = content.parse()?;
                    let child: Ident = content.parse().map_err(|e| {
                        syn::Error::new(
                            e.span(),
                            "expected the child field that initialises the binding: write `Def => definition(name, value = init)`",
                        )
                    })?;
                    syn::parse_quote!(#flag #eq #child)
                };
                call.args.push(flag);
            }
            _ => {
                if flag_follows {
                    let word: Ident = content.parse()?;
                    return Err(syn::Error::new(
                        word.span(),
                        format!("`{word}` is a flag of `definition(..)` or `parameter(..)`, which it does not follow"),
                    ));
                }
                if content.peek(Ident) && !content.peek2(Token![=>]) && !entries.is_empty() {
                    let word: Ident = content.parse()?;
                    return Err(syn::Error::new(
                        word.span(),
                        format!(
                            "expected `read_only`, `value = child_field` or the next `Production =>`, found `{word}`: \
                             a binder is written `Def => definition(name, read_only, value = init)` \
                             (or `Def => definition(name), read_only, value = init`)"
                        ),
                    ));
                }
                entries.push(content.parse()?);
            }
        }
        if content.is_empty() {
            break;
        }
        content.parse::<Token![,]>()?;
    }
    Ok(entries)
}

/// `field: expr, ...` (the inside of braces).
fn parse_field_inits(content: ParseStream) -> syn::Result<Vec<(Ident, Expr)>> {
    let mut fields = Vec::new();
    while !content.is_empty() {
        let field: Ident = content.parse()?;
        if !content.peek(Token![:]) {
            return Err(content.error(format!(
                "expected `:` and a function after field `{field}`: write `{field}: |node| ..`"
            )));
        }
        content.parse::<Token![:]>()?;
        let value: Expr = content.parse()?;
        fields.push((field, value));
        if content.parse::<Option<Token![,]>>()?.is_none() {
            break;
        }
    }
    if !content.is_empty() {
        return Err(content.error("expected `,` between field functions"));
    }
    Ok(fields)
}

/// The expression inside any parentheses and invisible groups (as a
/// `macro_rules!` `$value:expr` arrives), so that `(3)` is the literal `3`.
fn unwrap_parens(expr: Expr) -> Expr {
    match expr {
        Expr::Paren(paren) => unwrap_parens(*paren.expr),
        Expr::Group(group) => unwrap_parens(*group.expr),
        other => other,
    }
}

fn parse_pieces(input: ParseStream) -> syn::Result<Vec<TemplatePiece>> {
    let pieces = Punctuated::<TemplatePiece, Token![,]>::parse_terminated(input)?;
    Ok(pieces.into_iter().collect())
}

fn parse_bracketed_pieces(input: ParseStream) -> syn::Result<Vec<TemplatePiece>> {
    let content;
    bracketed!(content in input);
    parse_pieces(&content)
}

impl Parse for TemplatePiece {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        if input.peek(LitStr) {
            return Ok(TemplatePiece::Text(input.parse()?));
        }
        let ident: Ident = input.parse().map_err(|e| {
            syn::Error::new(
                e.span(),
                "expected a template piece: a string, a field name, line, softline, hardline, nest(..), group(..) or join(..)",
            )
        })?;
        if !input.peek(syn::token::Paren) {
            return Ok(match ident.to_string().as_str() {
                "line" => TemplatePiece::Line,
                "softline" => TemplatePiece::SoftLine,
                "hardline" => TemplatePiece::HardLine,
                _ => TemplatePiece::Field(ident),
            });
        }
        let args;
        parenthesized!(args in input);
        let piece = match ident.to_string().as_str() {
            "nest" => {
                let indent: LitInt = args.parse()?;
                if !args.peek(Token![,]) {
                    return Err(args.error("expected `,` and the pieces to indent: `nest(2, [..])`"));
                }
                args.parse::<Token![,]>()?;
                TemplatePiece::Nest(indent, parse_bracketed_pieces(&args)?)
            }
            "group" => TemplatePiece::Group(parse_bracketed_pieces(&args)?),
            "join" => {
                let field: Ident = args.parse()?;
                if !args.peek(Token![,]) {
                    return Err(args.error(format!(
                        "expected `,` and a separator after the list field: `join({field}, \", \")` or `join({field}, [..])`"
                    )));
                }
                args.parse::<Token![,]>()?;
                let separator = if args.peek(LitStr) {
                    vec![TemplatePiece::Text(args.parse()?)]
                } else {
                    parse_bracketed_pieces(&args)?
                };
                TemplatePiece::Join(field, separator)
            }
            other => {
                return Err(syn::Error::new(
                    ident.span(),
                    format!("unknown template function `{other}`: expected nest, group or join"),
                ))
            }
        };
        if !args.is_empty() {
            return Err(args.error("unexpected tokens in a template function's arguments"));
        }
        Ok(piece)
    }
}
