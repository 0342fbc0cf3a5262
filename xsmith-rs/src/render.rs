//! Rendering: each node prints through its production's `render` property
//! into a [`Doc`]ument, which is laid out at a chosen width.

pub use crate::doc::{layout, layout_into, Arena, Doc, IntoDoc};

use std::rc::Rc;

use crate::hooks::{HelperUses, RenderNode, RenderNodes};
use crate::program::Program;
use crate::properties::Renderer;
use crate::spec::Spec;
use crate::template::Step;
use crate::tree::{NodeId, Slot};

/// The document of a template's steps for `node`.
fn template<'a>(node: &RenderNode<'a>, steps: &[Step]) -> Doc<'a> {
    match steps {
        [single] => step(node, single),
        _ => node.concat(steps.iter().map(|s| step(node, s))),
    }
}

/// The document of one template step for `node`.
fn step<'a>(node: &RenderNode<'a>, step: &Step) -> Doc<'a> {
    let arena = node.arena;
    match step {
        Step::Text(text, width) => arena.measured(text, *width),
        // Newlines become hard line breaks (so they indent with nesting).
        Step::Lines(lines) => node.join(
            lines.iter().map(|(line, width)| arena.measured(line, *width)),
            node.hardline(),
        ),
        Step::Field(index) => match &node.program.node(node.node).slots[*index] {
            Slot::Child(child) => node.render(*child),
            Slot::List(children) => node.join(children.iter().map(|&c| node.render(c)), node.hardline()),
            Slot::Data(value) => node.arena.value(value),
        },
        Step::Join(index, separator) => match &node.program.node(node.node).slots[*index] {
            Slot::List(children) => node.join(children.iter().map(|&c| node.render(c)), template(node, separator)),
            _ => unreachable!("a template joins only list fields"),
        },
        // Panics, naming the production and the field.
        Step::Misused(field) => node.join(node.list(field), node.nil()),
        Step::Line => node.line(),
        Step::SoftLine => node.softline(),
        Step::HardLine => node.hardline(),
        Step::Nest(indent, steps) => template(node, steps).nest(*indent),
        Step::Group(steps) => template(node, steps).group(),
    }
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
            (Some(Renderer::Template(_)), false) => template(
                &render,
                self.template(target.production)
                    .expect("assembly readies every template"),
            ),
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
    // About what a template's node makes: a text or two, the appends
    // between them, a group or nest; a literal's few digits.
    let arena = Arena::with_room(8 * program.len(), 4 * program.len());
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
