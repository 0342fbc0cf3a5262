//! Expansion of a checked `component!` invocation into calls of xsmith's
//! `Component` builder.

use proc_macro2::TokenStream;
use quote::quote;

use crate::parse::{ComponentInput, FieldDefKind, PropertyValue, TemplatePiece};

pub fn expand(input: &ComponentInput) -> TokenStream {
    let ComponentInput { attrs, vis, name, .. } = input;
    let name_str = name.to_string();
    let productions = input.productions.iter().map(|production| {
        let production_name = production.name.to_string();
        let mut decl = quote!(::xsmith::ProductionDecl::new(#production_name));
        if let Some(supertype) = &production.supertype {
            let supertype = supertype.to_string();
            decl = quote!(#decl.supertype(#supertype));
        }
        if production.is_abstract {
            decl = quote!(#decl.abstract_());
        }
        for field in &production.fields {
            let field_name = field.name.to_string();
            decl = match &field.kind {
                FieldDefKind::Child(node_type) => {
                    let node_type = node_type.to_string();
                    quote!(#decl.child(#field_name, #node_type))
                }
                FieldDefKind::List(node_type, length) => {
                    let node_type = node_type.to_string();
                    let length = match length {
                        Some(length) => quote!(::xsmith::ListLength::from(#length)),
                        None => quote!(::xsmith::ListLength::default()),
                    };
                    quote!(#decl.list(#field_name, #node_type, #length))
                }
                FieldDefKind::Data(init) => {
                    quote!(#decl.data(#field_name, ::xsmith::DataInit::new(#init)))
                }
            };
        }
        quote!(component.production(#decl);)
    });
    let properties = input.properties.iter().flat_map(|block| {
        block.entries.iter().map(move |entry| {
            let production = entry.production.to_string();
            let method = &block.name;
            let value = match (block.name.to_string().as_str(), &entry.value) {
                ("render", PropertyValue::Template(pieces)) => {
                    let pieces = pieces.iter().map(piece);
                    quote!(::xsmith::Renderer::Template(::std::vec![#(#pieces),*]))
                }
                ("render", PropertyValue::Expr(f)) => quote!(::xsmith::Renderer::function(#f)),
                ("choice_weight", PropertyValue::Expr(syn::Expr::Lit(lit))) => {
                    quote!(::xsmith::Weight::Constant(#lit))
                }
                ("choice_weight", PropertyValue::Expr(f)) => quote!(::xsmith::Weight::dynamic(#f)),
                ("fresh", PropertyValue::Fields(inits)) => {
                    let inits = inits.iter().map(|(field, init)| {
                        let field = field.to_string();
                        quote!((#field, ::xsmith::FieldInit::new(#init)))
                    });
                    quote!(::xsmith::FreshHook::set_fields(::std::vec![#(#inits),*]))
                }
                ("fresh", PropertyValue::Expr(f)) => quote!(::xsmith::FreshHook::new(#f)),
                ("choice_filters", PropertyValue::Expr(f)) => quote!(::xsmith::Filter::new(#f)),
                ("type_info", PropertyValue::Expr(f)) => quote!(::xsmith::TypeInfo::new(#f)),
                ("list_length", PropertyValue::Fields(lengths)) => {
                    let calls = lengths.iter().map(|(field, length)| {
                        let field = field.to_string();
                        quote!(component.list_length(#production, #field, #length);)
                    });
                    return quote!(#(#calls)*);
                }
                ("type_info", PropertyValue::TypeInfo(f, children)) => {
                    let children = children.iter().map(|(field, child)| {
                        let field = field.to_string();
                        quote!(.child(#field, #child))
                    });
                    quote!(::xsmith::TypeInfo::new(#f) #(#children)*)
                }
                ("binder_info", PropertyValue::Expr(expr)) => {
                    let parts = crate::check::binder_parts(expr).expect("checked");
                    let field = parts.name.to_string();
                    let style = match parts.head.as_str() {
                        "definition" => quote!(::xsmith::BinderStyle::Definition),
                        _ => quote!(::xsmith::BinderStyle::Parameter),
                    };
                    let read_only = parts.read_only.then(|| quote!(.read_only()));
                    let value = parts.value.map(|value| {
                        let value = value.to_string();
                        quote!(.value(#value))
                    });
                    quote!(::xsmith::BinderInfo::new(#field, #style) #read_only #value)
                }
                ("calls" | "function_body", PropertyValue::Expr(expr)) => {
                    let field = crate::check::ident_value(expr).expect("checked").to_string();
                    quote!(#field)
                }
                ("mutable_container_access", PropertyValue::Expr(expr)) => {
                    let (head, field, _) = crate::check::call_parts(expr).expect("checked");
                    let field = field.to_string();
                    let access = access(&head);
                    return quote!(component.mutable_container_access(#production, #field, #access););
                }
                ("reference_info", PropertyValue::Expr(expr)) => {
                    let (head, field, _) = crate::check::call_parts(expr).expect("checked");
                    let field = field.to_string();
                    let access = access(&head);
                    quote!(::xsmith::ReferenceInfo::new(#field, #access))
                }
                ("scope", PropertyValue::Expr(expr)) => {
                    match crate::check::ident_value(expr).expect("checked").to_string().as_str() {
                        "sequential" => quote!(::xsmith::ScopeKind::Sequential),
                        _ => quote!(::xsmith::ScopeKind::Recursive),
                    }
                }
                ("lift_predicate", PropertyValue::Expr(expr)) => {
                    let field = crate::check::ident_value(expr).expect("checked").to_string();
                    quote!(#field)
                }
                (_, PropertyValue::Expr(value)) => quote!(#value),
                _ => unreachable!("check() accepts only these property values"),
            };
            let method = match method.to_string().as_str() {
                "choice_filters" => quote!(choice_filter),
                _ => quote!(#method),
            };
            quote!(component.#method(#production, #value);)
        })
    });
    quote! {
        #(#attrs)*
        #vis fn #name() -> ::xsmith::Component {
            let mut component = ::xsmith::Component::new(#name_str);
            #(#productions)*
            #(#properties)*
            component
        }
    }
}

/// The `Access` a checked `read(..)` or `write(..)` stands for.
fn access(head: &str) -> TokenStream {
    match head {
        "read" => quote!(::xsmith::Access::Read),
        _ => quote!(::xsmith::Access::Write),
    }
}

fn piece(piece: &TemplatePiece) -> TokenStream {
    match piece {
        TemplatePiece::Text(text) => quote!(::xsmith::Piece::Text(#text)),
        TemplatePiece::Field(field) => {
            let field = field.to_string();
            quote!(::xsmith::Piece::Field(#field))
        }
        TemplatePiece::Line => quote!(::xsmith::Piece::Line),
        TemplatePiece::SoftLine => quote!(::xsmith::Piece::SoftLine),
        TemplatePiece::HardLine => quote!(::xsmith::Piece::HardLine),
        TemplatePiece::Nest(indent, inner) => {
            let inner = inner.iter().map(self::piece);
            quote!(::xsmith::Piece::Nest(#indent, ::std::vec![#(#inner),*]))
        }
        TemplatePiece::Group(inner) => {
            let inner = inner.iter().map(self::piece);
            quote!(::xsmith::Piece::Group(::std::vec![#(#inner),*]))
        }
        TemplatePiece::Join(field, separator) => {
            let field = field.to_string();
            let separator = separator.iter().map(self::piece);
            quote!(::xsmith::Piece::Join(#field, ::std::vec![#(#separator),*]))
        }
    }
}
