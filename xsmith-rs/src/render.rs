//! Rendering: each node prints through its production's `render` property
//! into a [`Doc`]ument, which is laid out at a chosen width.

pub use crate::doc::{layout, layout_into, Arena, Doc, IntoDoc};

use std::rc::Rc;

use crate::hooks::{HelperUses, RenderNode, RenderNodes};
use crate::program::Program;
use crate::properties::{Piece, Renderer};
use crate::spec::Spec;
use crate::tree::{NodeId, Slot};

/// The document of a template's pieces for `node`.
fn template<'a>(node: &RenderNode<'a>, pieces: &[Piece]) -> Doc<'a> {
    match pieces {
        [single] => piece(node, single),
        _ => node.concat(pieces.iter().map(|p| piece(node, p))),
    }
}

/// The document of one template piece for `node`.
fn piece<'a>(node: &RenderNode<'a>, piece: &Piece) -> Doc<'a> {
    match piece {
        Piece::Text(text) => text_with_breaks(node, text),
        Piece::Field(field) => match node.slot(field) {
            Slot::Child(child) => node.render(*child),
            Slot::List(children) => node.join(children.iter().map(|&c| node.render(c)), node.hardline()),
            Slot::Data(value) => node.display(value),
        },
        Piece::Join(field, separator) => node.join(node.list(field), template(node, separator)),
        Piece::Line => node.line(),
        Piece::SoftLine => node.softline(),
        Piece::HardLine => node.hardline(),
        Piece::Nest(indent, pieces) => template(node, pieces).nest(*indent),
        Piece::Group(pieces) => template(node, pieces).group(),
    }
}

/// Text whose newlines become hard line breaks (so they indent with
/// nesting).
fn text_with_breaks<'a>(node: &RenderNode<'a>, text: &'static str) -> Doc<'a> {
    if !text.contains('\n') {
        return node.text(text);
    }
    node.join(text.split('\n').map(|line| node.text(line)), node.hardline())
}

/// The document of the subtree at `node`, allocated in `arena` (the
/// helpers its renderers use are not reported: [`render_tree_into`] does).
///
/// ```
/// use xsmith::render::{layout, render_node, Arena};
/// let spec = xsmith::example::spec();
/// let program = xsmith::example::program(&spec, 5);
/// let arena = Arena::new();
/// assert!(!layout(render_node(&spec, &program, program.root(), &arena), 80).is_empty());
/// ```
pub fn render_node<'a>(spec: &'a Spec, program: &'a Program, node: NodeId, arena: &'a Arena<'a>) -> Doc<'a> {
    spec.render(program, node, arena, &Rc::default())
}

impl RenderNodes for Spec {
    fn render<'a>(
        &'a self,
        program: &'a Program,
        node: NodeId,
        arena: &'a Arena<'a>,
        helpers: &Rc<HelperUses>,
    ) -> Doc<'a> {
        let target = program.node(node);
        let production = self.production(target.production);
        let render = RenderNode {
            grammar: self.grammar(),
            renderer: self,
            program,
            node,
            arena,
            helpers: Rc::clone(helpers),
        };
        match (&self.properties(target.production).renderer, target.is_hole) {
            (_, true) => render.text(format!("<hole {}>", production.name())),
            (Some(Renderer::Template(pieces)), false) => template(&render, pieces),
            (Some(Renderer::Function(f)), false) => f(&render),
            (None, false) => {
                unreachable!("assembly checks that generatable productions have renderers")
            }
        }
    }
}

/// Renders the whole tree at `width` columns at the end of `out`, and
/// gives the names of the helpers its renderers used
/// ([`RenderNode::helper`](crate::RenderNode::helper)), each once, in the
/// order first used: what [`crate::helpers::included`] takes.
///
/// ```
/// let spec = xsmith::example::spec();
/// let tree = xsmith::example::program(&spec, 5);
/// let mut out = String::new();
/// let helpers = xsmith::render::render_tree_into(&spec, &tree, 80, &mut out);
/// assert!(out.starts_with("print("));
/// assert!(helpers.is_empty(), "the example's renderers use no helper");
/// ```
pub fn render_tree_into(spec: &Spec, program: &Program, width: usize, out: &mut String) -> Vec<String> {
    let arena = Arena::new();
    let helpers = Rc::default();
    layout_into(spec.render(program, program.root(), &arena, &helpers), width, out);
    helpers.names()
}

/// Renders the whole tree at `width` columns.
///
/// ```
/// let spec = xsmith::example::spec();
/// let tree = xsmith::example::program(&spec, 5);
/// assert!(xsmith::render::render_tree(&spec, &tree, 80).starts_with("print("));
/// ```
pub fn render_tree(spec: &Spec, program: &Program, width: usize) -> String {
    let mut out = String::new();
    render_tree_into(spec, program, width, &mut out);
    out
}
