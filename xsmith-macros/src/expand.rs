//! Expansion of a checked `component!` invocation into calls of xsmith's
//! `Component` builder. It reads only the grammar and the typed property
//! values, and names the runtime through crate-root paths (`::xsmith::Name`).

use proc_macro2::TokenStream;
use quote::quote;
use syn::{Ident, LitStr};

use crate::attr::{Access, BinderInfo, BinderStyle, Entry, FieldAccess, Fresh, Render, ScopeKind, Value, Weight};
use crate::parse::{FieldDefKind, Grammar, ProductionDef, Signature, TemplatePiece};

/// The function the invocation declares: it builds the component, its
/// productions first, then its properties in source order.
pub fn expand(
    signature: &Signature,
    grammar: &Grammar,
    properties: &[Entry],
    features_off_by_default: &[LitStr],
) -> TokenStream {
    let Signature { attrs, vis, name } = signature;
    let name_str = name.to_string();
    let productions = grammar.productions.iter().map(production);
    let properties = properties.iter().map(property);
    let views = views(signature, grammar);
    quote! {
        #(#attrs)*
        #vis fn #name() -> ::xsmith::Component {
            let mut component = ::xsmith::Component::new(#name_str);
            #(#productions)*
            #(#properties)*
            #(component.feature_off_by_default(#features_off_by_default);)*
            component
        }
        #views
    }
}

/// `mod name { .. }` beside the function: for each concrete production
/// whose fields are all known here, a view of a node being rendered with a
/// method per field (its inherited fields first), so a render function
/// reads `name::Add(n).left()` and a misspelt field is a compile error.
fn views(signature: &Signature, grammar: &Grammar) -> TokenStream {
    let Signature { vis, name, .. } = signature;
    let module_doc = format!(
        "Typed views of the productions of the component [`{name}()`]: `{name}::Production(node)` \
         has a method per field (a child's document, a list's documents, a data value)."
    );
    let views = grammar
        .productions
        .iter()
        .filter(|p| !p.is_abstract)
        .filter_map(|production| {
            let fields = crate::check::fields_of(grammar, production)?;
            let view = &production.name;
            let doc = format!("A `{view}` node being rendered: a method per field.");
            let accessors = fields.iter().map(|(field, kind)| {
                let field_str = field.to_string();
                match kind {
                    FieldDefKind::Child(_) => {
                        let doc = format!("The document of the child `{field_str}`.");
                        quote! {
                            #[doc = #doc]
                            pub fn #field(&self) -> ::xsmith::Doc<'a> { self.0.child(#field_str) }
                        }
                    }
                    FieldDefKind::List(..) => {
                        let doc = format!("The documents of the elements of the list `{field_str}`.");
                        quote! {
                            #[doc = #doc]
                            pub fn #field(&self) -> ::std::vec::Vec<::xsmith::Doc<'a>> { self.0.list(#field_str) }
                        }
                    }
                    FieldDefKind::Data(_) => {
                        let doc = format!("The value of the data field `{field_str}`.");
                        quote! {
                            #[doc = #doc]
                            pub fn #field(&self) -> &'a ::xsmith::Value { self.0.data(#field_str) }
                        }
                    }
                }
            });
            Some(quote! {
                #[doc = #doc]
                #[derive(Clone, Copy)]
                pub struct #view<'n, 'a>(pub &'n ::xsmith::RenderNode<'a>);

                #[allow(dead_code)]
                impl<'n, 'a> #view<'n, 'a> {
                    #(#accessors)*
                }
            })
        });
    quote! {
        #[doc = #module_doc]
        #[allow(non_snake_case, dead_code)]
        #vis mod #name {
            #(#views)*
        }
    }
}

/// `component.production(..);` for one production.
fn production(production: &ProductionDef) -> TokenStream {
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
}

/// The builder calls for one property entry.
fn property(entry: &Entry) -> TokenStream {
    let production = entry.production.to_string();
    // `component.method(production, arguments);`, the method named at the
    // property's keyword.
    let call = |method: &str, arguments: TokenStream| {
        if crate::attr::is_default(&entry.production) {
            // `_ => value`: the spec-wide default.
            let method = Ident::new(&format!("default_{method}"), entry.keyword);
            return quote!(component.#method(#arguments););
        }
        let method = Ident::new(method, entry.keyword);
        quote!(component.#method(#production, #arguments);)
    };
    match &entry.value {
        Value::Render(Render::Template(pieces)) => {
            let pieces = pieces.iter().map(piece);
            call(
                "render",
                quote!(::xsmith::Renderer::Template(::std::vec![#(#pieces),*])),
            )
        }
        Value::Render(Render::Function(function)) => call("render", quote!(::xsmith::Renderer::function(#function))),
        Value::ChoiceWeight(Weight::Constant(weight)) => {
            call("choice_weight", quote!(::xsmith::Weight::Constant(#weight)))
        }
        Value::ChoiceWeight(Weight::Dynamic(function)) => {
            call("choice_weight", quote!(::xsmith::Weight::dynamic(#function)))
        }
        Value::MayBeGenerated(generated) => call("may_be_generated", quote!(#generated)),
        Value::DepthIncrease(increase) => call("depth_increase", quote!(#increase)),
        Value::Fresh(Fresh::Fields(inits)) => {
            let inits = inits.iter().map(|(field, init)| {
                let field = field.to_string();
                quote!((#field, ::xsmith::FieldInit::new(#init)))
            });
            call(
                "fresh",
                quote!(::xsmith::FreshHook::set_fields(::std::vec![#(#inits),*])),
            )
        }
        Value::Fresh(Fresh::Function(function)) => call("fresh", quote!(::xsmith::FreshHook::new(#function))),
        Value::ChoiceFilter(filter) => call("choice_filter", quote!(::xsmith::Filter::new(#filter))),
        Value::LiftFilter(filter) => call("lift_filter", quote!(::xsmith::Filter::new(#filter))),
        Value::BindingFilter(filter) => call("binding_filter", quote!(::xsmith::BindingFilter::new(#filter))),
        Value::Feature(feature) => call("feature", quote!(#feature)),
        Value::ListLength(lengths) => lengths
            .iter()
            .map(|(field, length)| {
                let field = field.to_string();
                call("list_length", quote!(#field, #length))
            })
            .collect(),
        Value::TypeInfo(info) => {
            let node = &info.node;
            let children = info.children.iter().map(|(field, child)| {
                let field = field.to_string();
                quote!(.child(#field, #child))
            });
            call("type_info", quote!(::xsmith::TypeInfo::new(#node) #(#children)*))
        }
        Value::BinderInfo(binder) => call("binder_info", binder_info(binder)),
        Value::ReferenceInfo(FieldAccess { access, field }) => {
            let field = field.to_string();
            let access = self::access(access);
            call("reference_info", quote!(::xsmith::ReferenceInfo::new(#field, #access)))
        }
        Value::Scope(ScopeKind::Sequential) => call("scope", quote!(::xsmith::ScopeKind::Sequential)),
        Value::Scope(ScopeKind::Recursive) => call("scope", quote!(::xsmith::ScopeKind::Recursive)),
        Value::Scope(ScopeKind::Isolated) => call("scope", quote!(::xsmith::ScopeKind::Isolated)),
        Value::Scope(ScopeKind::Global) => call("scope", quote!(::xsmith::ScopeKind::Global)),
        Value::LiftPredicate(field) => call("lift_predicate", field_name(field)),
        Value::StrictChildOrder(strict) => call("strict_child_order", quote!(#strict)),
        Value::Io(io) => call("io", quote!(#io)),
        Value::Calls(field) => call("calls", field_name(field)),
        Value::FunctionBody(field) => call("function_body", field_name(field)),
        Value::MutableContainerAccess(FieldAccess { access, field }) => {
            let field = field.to_string();
            let access = self::access(access);
            call("mutable_container_access", quote!(#field, #access))
        }
    }
}

/// A field's name as a string literal.
fn field_name(field: &Ident) -> TokenStream {
    let field = field.to_string();
    quote!(#field)
}

/// `::xsmith::BinderInfo::new(name, style)` with its options.
fn binder_info(binder: &BinderInfo) -> TokenStream {
    let name = binder.name.to_string();
    let style = match binder.style {
        BinderStyle::Definition => quote!(::xsmith::BinderStyle::Definition),
        BinderStyle::Parameter => quote!(::xsmith::BinderStyle::Parameter),
    };
    let read_only = binder.read_only.then(|| quote!(.read_only()));
    let value = binder.value.as_ref().map(|value| {
        let value = value.to_string();
        quote!(.value(#value))
    });
    quote!(::xsmith::BinderInfo::new(#name, #style) #read_only #value)
}

/// The `::xsmith::Access` a `read(..)` or `write(..)` stands for.
fn access(access: &Access) -> TokenStream {
    match access {
        Access::Read => quote!(::xsmith::Access::Read),
        Access::Write => quote!(::xsmith::Access::Write),
    }
}

/// The `::xsmith::Piece` a template piece stands for.
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
