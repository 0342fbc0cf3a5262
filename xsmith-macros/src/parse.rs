//! The syntax tree of a `component!` invocation, and its parser.

use proc_macro2::{Span, TokenStream};
use syn::parse::{Parse, ParseStream};
use syn::punctuated::Punctuated;
use syn::{braced, bracketed, parenthesized, Attribute, Expr, Ident, LitInt, LitStr, Token, Visibility};

use crate::check::PROPERTIES;

/// The whole invocation.
pub struct ComponentInput {
    pub attrs: Vec<Attribute>,
    pub vis: Visibility,
    pub name: Ident,
    pub uses: Vec<Ident>,
    pub productions: Vec<ProductionDef>,
    pub properties: Vec<PropertyBlock>,
}

/// One grammar production.
pub struct ProductionDef {
    pub is_abstract: bool,
    pub name: Ident,
    pub supertype: Option<Ident>,
    pub fields: Vec<FieldDef>,
}

/// One field of a production.
pub struct FieldDef {
    pub name: Ident,
    pub kind: FieldDefKind,
}

pub enum FieldDefKind {
    Child(Ident),
    List(Ident, Option<Expr>),
    Data(Expr),
}

/// `name { Production => value, ... }`
pub struct PropertyBlock {
    pub name: Ident,
    pub entries: Vec<PropertyEntry>,
}

pub struct PropertyEntry {
    pub production: Ident,
    pub value: PropertyValue,
    /// The value's brackets or braces, or its first token: where errors
    /// about the kind of value point.
    pub value_span: Span,
}

pub enum PropertyValue {
    /// `[piece, ...]`
    Template(Vec<TemplatePiece>),
    /// `{ field: expr, ... }`
    Fields(Vec<(Ident, Expr)>),
    /// Any other expression (a literal or a closure).
    Expr(Expr),
    /// `(node type function) { child: type function, ... }` (`type_info`).
    TypeInfo(Expr, Vec<(Ident, Expr)>),
}

pub enum TemplatePiece {
    Text(LitStr),
    Field(Ident),
    Line,
    SoftLine,
    HardLine,
    Nest(LitInt, Vec<TemplatePiece>),
    Group(Vec<TemplatePiece>),
    Join(Ident, Vec<TemplatePiece>),
}

mod kw {
    syn::custom_keyword!(uses);
    syn::custom_keyword!(grammar);
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
            } else {
                properties.push(input.parse()?);
            }
        }
        Ok(ComponentInput {
            attrs,
            vis,
            name,
            uses,
            productions,
            properties,
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
        if !PROPERTIES.iter().any(|(known, _)| name == known) {
            // Reported by `check` at the name; the entries of an unknown
            // block (often a misspelt `grammar`) need not parse.
            content.parse::<TokenStream>()?;
            return Ok(PropertyBlock {
                name,
                entries: Vec::new(),
            });
        }
        let entries = Punctuated::<PropertyEntry, Token![,]>::parse_terminated(&content)?
            .into_iter()
            .collect();
        Ok(PropertyBlock { name, entries })
    }
}

impl Parse for PropertyEntry {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let production: Ident = input.parse()?;
        input.parse::<Token![=>]>()?;
        let mut value_span = input.span();
        let value = if input.peek(syn::token::Bracket) {
            let content;
            value_span = bracketed!(content in input).span.join();
            PropertyValue::Template(parse_pieces(&content)?)
        } else if input.peek(syn::token::Brace) {
            let content;
            value_span = braced!(content in input).span.join();
            PropertyValue::Fields(parse_field_inits(&content)?)
        } else {
            let expr = unwrap_parens(input.parse()?);
            if input.peek(syn::token::Brace) {
                let content;
                braced!(content in input);
                PropertyValue::TypeInfo(expr, parse_field_inits(&content)?)
            } else {
                PropertyValue::Expr(expr)
            }
        };
        Ok(PropertyEntry {
            production,
            value,
            value_span,
        })
    }
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
