//! Documents: text with places where a line may break, built in an
//! [`Arena`], and their layout at a width ([`layout`]).
//!
//! The layout is Wadler's "prettier printer" as the `pretty` crate (0.12)
//! lays it out, to the byte: a [`group`](Doc::group) is laid out flat
//! when it fits on the rest of the line together with whatever follows it
//! up to the next place where a line may break. xsmith used `pretty`
//! itself until rendering turned out to be half of what a small node
//! costs; this module keeps its layouts (a test lays random documents out
//! with both) and makes them cheaper in two ways. A document is an index
//! into the arena's one vector of nodes, so building one allocates
//! nothing of its own and a handle is `Copy`. And every node knows, from
//! the moment it is built, its width laid flat and the width of its text
//! up to its first possible line break, so that deciding whether a group
//! fits costs a step per document waiting after it, not a walk through
//! the group.
//!
//! ```
//! use xsmith::render::{layout, Arena};
//! let arena = Arena::new();
//! let call = |width| {
//!     let args = arena.text("first").append(",").append(arena.line()).append("second");
//!     let doc = arena.text("f(").append(args.nest(2)).append(")").group();
//!     layout(doc, width)
//! };
//! assert_eq!(call(80), "f(first, second)");
//! assert_eq!(call(10), "f(first,\n  second)");
//! ```

use std::borrow::Cow;
use std::cell::RefCell;
use std::fmt::Write;

use crate::value::Value;

/// Where the documents of one rendering are allocated: every document of a
/// program lives in one arena, freed at once when the rendering is done.
///
/// ```
/// let arena = xsmith::render::Arena::new();
/// let doc = arena.text("x").append(arena.hardline()).append("y");
/// assert_eq!(xsmith::render::layout(doc, 80), "x\ny");
/// ```
pub struct Arena<'a> {
    nodes: RefCell<Vec<Node<'a>>>,
    /// The texts the documents own (made by [`Arena::display`] or given
    /// as `String`s), one after another.
    owned: RefCell<String>,
}

/// A document, allocated in an [`Arena`]: a handle, cheap to copy.
///
/// ```
/// use xsmith::render::{layout, Arena};
/// let arena = Arena::new();
/// let doc = arena.text("f(").append("x").append(")");
/// assert_eq!(layout(doc, 80), "f(x)");
/// ```
#[derive(Clone, Copy)]
pub struct Doc<'a> {
    arena: &'a Arena<'a>,
    id: u32,
}

/// One document of an arena, and what the layout asks of it.
#[derive(Clone, Copy)]
struct Node<'a> {
    kind: Kind<'a>,
    /// Its width laid out flat, [`NEVER_FLAT`] when it holds a hard line
    /// break.
    flat: u32,
    /// The width of its text before its first possible line break (all
    /// of it when it has none).
    head: u32,
    /// Whether it holds a possible line break of any kind.
    breaks: bool,
    /// Whether laying it out flat writes any text (a text of no width
    /// counts: the layout checks the width at each text written).
    shows: bool,
    /// Whether it writes any text before its first possible line break.
    head_shows: bool,
}

/// What a document is.
#[derive(Clone, Copy)]
enum Kind<'a> {
    Nil,
    Text(&'a str),
    /// Text in the arena's owned text, from `start`, `len` bytes long.
    Owned {
        start: u32,
        len: u32,
    },
    Hardline,
    /// A space, or a line break when its group does not fit.
    Line,
    /// Nothing, or a line break when its group does not fit.
    SoftLine,
    Append(u32, u32),
    Nest(isize, u32),
    Group(u32),
}

/// The flat width of a document that holds a hard line break: it never
/// fits flat.
const NEVER_FLAT: u32 = u32::MAX;

/// The documents every arena starts with, at these indices.
const NIL: u32 = 0;
const HARDLINE: u32 = 1;
const LINE: u32 = 2;
const SOFT_LINE: u32 = 3;

/// The width a text takes on a line: its length in bytes when it is
/// ASCII, its display width otherwise (as `pretty` counts it).
#[inline]
pub(crate) fn text_width(text: &str) -> u32 {
    let width = match text.is_ascii() {
        true => text.len(),
        false => unicode_width::UnicodeWidthStr::width(text),
    };
    u32::try_from(width).unwrap_or(NEVER_FLAT - 1)
}

impl<'a> Node<'a> {
    /// A line break of some kind: `flat` wide laid out flat, where it
    /// `shows` a space or not.
    const fn line(kind: Kind<'a>, flat: u32, shows: bool) -> Node<'a> {
        Node {
            kind,
            flat,
            head: 0,
            breaks: true,
            shows,
            head_shows: false,
        }
    }

    /// A text `width` wide.
    fn text(kind: Kind<'a>, width: u32) -> Node<'a> {
        Node {
            kind,
            flat: width,
            head: width,
            breaks: false,
            shows: true,
            head_shows: true,
        }
    }

    /// `kind`, which lays out as `inner` does (a nest or a group).
    fn around(kind: Kind<'a>, inner: &Node<'a>) -> Node<'a> {
        Node { kind, ..*inner }
    }
}

impl Default for Arena<'_> {
    fn default() -> Self {
        Arena::new()
    }
}

impl<'a> Arena<'a> {
    /// An empty arena.
    ///
    /// ```
    /// let arena = xsmith::render::Arena::new();
    /// assert_eq!(xsmith::render::layout(arena.nil(), 80), "");
    /// ```
    pub fn new() -> Arena<'a> {
        Arena::with_room(64, 0)
    }

    /// An empty arena with room for about `docs` documents and `text`
    /// bytes of owned text, so that a rendering of known size does not
    /// grow (copy) them as it goes.
    pub(crate) fn with_room(docs: usize, text: usize) -> Arena<'a> {
        let mut nodes = Vec::with_capacity(docs.max(4));
        nodes.extend([
            Node {
                kind: Kind::Nil,
                flat: 0,
                head: 0,
                breaks: false,
                shows: false,
                head_shows: false,
            },
            Node::line(Kind::Hardline, NEVER_FLAT, false),
            Node::line(Kind::Line, 1, true),
            Node::line(Kind::SoftLine, 0, false),
        ]);
        Arena {
            nodes: RefCell::new(nodes),
            owned: RefCell::new(String::with_capacity(text)),
        }
    }

    #[inline]
    fn doc(&'a self, id: u32) -> Doc<'a> {
        Doc { arena: self, id }
    }

    #[inline]
    fn node(&self, id: u32) -> Node<'a> {
        self.nodes.borrow()[id as usize]
    }

    #[inline]
    fn alloc(&'a self, node: Node<'a>) -> Doc<'a> {
        self.push(&mut self.nodes.borrow_mut(), node)
    }

    #[inline]
    fn push(&'a self, nodes: &mut Vec<Node<'a>>, node: Node<'a>) -> Doc<'a> {
        let id = u32::try_from(nodes.len()).expect("fewer than 2^32 documents in one rendering");
        nodes.push(node);
        self.doc(id)
    }

    /// The empty document.
    ///
    /// ```
    /// let arena = xsmith::render::Arena::new();
    /// assert_eq!(xsmith::render::layout(arena.text("a").append(arena.nil()), 80), "a");
    /// ```
    #[inline]
    pub fn nil(&'a self) -> Doc<'a> {
        self.doc(NIL)
    }

    /// Always a line break (indented as the document after it is).
    ///
    /// ```
    /// let arena = xsmith::render::Arena::new();
    /// assert_eq!(xsmith::render::layout(arena.text("a").append(arena.hardline()).append("b"), 80), "a\nb");
    /// ```
    #[inline]
    pub fn hardline(&'a self) -> Doc<'a> {
        self.doc(HARDLINE)
    }

    /// A space, or a line break when the enclosing group does not fit.
    ///
    /// ```
    /// let arena = xsmith::render::Arena::new();
    /// let doc = || arena.text("a").append(arena.line()).append("b").group();
    /// assert_eq!(xsmith::render::layout(doc(), 80), "a b");
    /// assert_eq!(xsmith::render::layout(doc(), 1), "a\nb");
    /// ```
    #[inline]
    pub fn line(&'a self) -> Doc<'a> {
        self.doc(LINE)
    }

    /// Nothing, or a line break when the enclosing group does not fit.
    ///
    /// ```
    /// let arena = xsmith::render::Arena::new();
    /// let doc = || arena.text("a").append(arena.softline()).append("b").group();
    /// assert_eq!(xsmith::render::layout(doc(), 80), "ab");
    /// assert_eq!(xsmith::render::layout(doc(), 1), "a\nb");
    /// ```
    #[inline]
    pub fn softline(&'a self) -> Doc<'a> {
        self.doc(SOFT_LINE)
    }

    /// A space.
    ///
    /// ```
    /// let arena = xsmith::render::Arena::new();
    /// assert_eq!(xsmith::render::layout(arena.text("a").append(arena.space()).append("b"), 1), "a b");
    /// ```
    pub fn space(&'a self) -> Doc<'a> {
        self.text(" ")
    }

    /// A document of literal text, which should hold no newline (use
    /// [`hardline`](Arena::hardline)).
    ///
    /// ```
    /// let arena = xsmith::render::Arena::new();
    /// assert_eq!(xsmith::render::layout(arena.text(String::from("owned")), 80), "owned");
    /// ```
    #[inline]
    pub fn text(&'a self, text: impl Into<Cow<'a, str>>) -> Doc<'a> {
        match text.into() {
            Cow::Borrowed(text) => self.borrowed(text),
            Cow::Owned(text) => self.owned_from(|owned| owned.push_str(&text)),
        }
    }

    /// A document of `text`, `width` wide ([`text_width`]), which lives
    /// as long as the arena.
    #[inline]
    pub(crate) fn measured(&'a self, text: &'a str, width: u32) -> Doc<'a> {
        match text.is_empty() {
            true => self.nil(),
            false => self.alloc(Node::text(Kind::Text(text), width)),
        }
    }

    /// A document of text that lives as long as the arena.
    #[inline]
    fn borrowed(&'a self, text: &'a str) -> Doc<'a> {
        self.measured(text, text_width(text))
    }

    /// A document of the text that `write` adds to the arena's owned text.
    fn owned_from(&'a self, write: impl FnOnce(&mut String)) -> Doc<'a> {
        let (start, len, width) = {
            let mut owned = self.owned.borrow_mut();
            let start = owned.len();
            write(&mut owned);
            (start, owned.len() - start, text_width(&owned[start..]))
        };
        if len == 0 {
            return self.nil();
        }
        let (start, len) = (
            u32::try_from(start).expect("less than 4 GiB of text in one rendering"),
            u32::try_from(len).expect("less than 4 GiB of text in one rendering"),
        );
        self.alloc(Node::text(Kind::Owned { start, len }, width))
    }

    /// A document of anything displayable, written straight into the
    /// arena (no string of its own).
    ///
    /// ```
    /// let arena = xsmith::render::Arena::new();
    /// assert_eq!(xsmith::render::layout(arena.display(-42), 80), "-42");
    /// ```
    pub fn display(&'a self, value: impl std::fmt::Display) -> Doc<'a> {
        self.owned_from(|owned| write!(owned, "{value}").expect("writing to a String cannot fail"))
    }

    /// A document of a data field's value, as [`display`](Arena::display)
    /// writes it, with less work for the common values (an integer is
    /// written without the formatting machinery, a string borrowed).
    pub(crate) fn value(&'a self, value: &'a Value) -> Doc<'a> {
        match value {
            Value::Int(int) => self.owned_from(|owned| owned.push_str(itoa::Buffer::new().format(*int))),
            Value::Str(text) => self.borrowed(text),
            _ => self.display(value),
        }
    }

    /// The documents one after another.
    ///
    /// ```
    /// let arena = xsmith::render::Arena::new();
    /// let doc = arena.concat(["a", "b", "c"].map(|t| arena.text(t)));
    /// assert_eq!(xsmith::render::layout(doc, 80), "abc");
    /// ```
    pub fn concat(&'a self, docs: impl IntoIterator<Item = Doc<'a>>) -> Doc<'a> {
        docs.into_iter().fold(self.nil(), Doc::append)
    }

    /// The documents with `separator` between each two.
    ///
    /// ```
    /// let arena = xsmith::render::Arena::new();
    /// let doc = arena.join(["a", "b", "c"].map(|t| arena.text(t)), arena.text(", "));
    /// assert_eq!(xsmith::render::layout(doc, 80), "a, b, c");
    /// ```
    pub fn join(&'a self, docs: impl IntoIterator<Item = Doc<'a>>, separator: Doc<'a>) -> Doc<'a> {
        let mut docs = docs.into_iter();
        let Some(first) = docs.next() else {
            return self.nil();
        };
        docs.fold(self.nil().append(first), |joined, doc| {
            joined.append(separator).append(doc)
        })
    }
}

/// What [`Doc::append`] takes: a document, or text.
///
/// ```
/// use xsmith::render::{layout, Arena};
/// let arena = Arena::new();
/// let doc = arena.text("a").append("b").append(String::from("c")).append(arena.text("d"));
/// assert_eq!(layout(doc, 80), "abcd");
/// ```
pub trait IntoDoc<'a> {
    /// This, as a document of `arena`.
    fn into_doc(self, arena: &'a Arena<'a>) -> Doc<'a>;
}

impl<'a> IntoDoc<'a> for Doc<'a> {
    fn into_doc(self, _: &'a Arena<'a>) -> Doc<'a> {
        self
    }
}

impl<'a> IntoDoc<'a> for &'a str {
    fn into_doc(self, arena: &'a Arena<'a>) -> Doc<'a> {
        arena.borrowed(self)
    }
}

impl<'a> IntoDoc<'a> for String {
    fn into_doc(self, arena: &'a Arena<'a>) -> Doc<'a> {
        arena.text(self)
    }
}

impl<'a> IntoDoc<'a> for Cow<'a, str> {
    fn into_doc(self, arena: &'a Arena<'a>) -> Doc<'a> {
        arena.text(self)
    }
}

impl<'a> Doc<'a> {
    /// This document, then `that`.
    ///
    /// ```
    /// let arena = xsmith::render::Arena::new();
    /// assert_eq!(xsmith::render::layout(arena.text("f").append("(x)"), 80), "f(x)");
    /// ```
    #[inline]
    pub fn append(self, that: impl IntoDoc<'a>) -> Doc<'a> {
        let arena = self.arena;
        let that = that.into_doc(arena);
        if self.id == NIL {
            return that;
        }
        if that.id == NIL {
            return self;
        }
        let mut nodes = arena.nodes.borrow_mut();
        let (left, right) = (&nodes[self.id as usize], &nodes[that.id as usize]);
        let node = Node {
            kind: Kind::Append(self.id, that.id),
            flat: left.flat.saturating_add(right.flat),
            head: match left.breaks {
                true => left.head,
                // With no line break, its flat width is its text's width.
                false => left.flat.saturating_add(right.head),
            },
            breaks: left.breaks || right.breaks,
            shows: left.shows || right.shows,
            head_shows: match left.breaks {
                true => left.head_shows,
                false => left.shows || right.head_shows,
            },
        };
        arena.push(&mut nodes, node)
    }

    /// This document, its lines after the first indented by `offset`
    /// more columns (fewer when negative).
    ///
    /// ```
    /// let arena = xsmith::render::Arena::new();
    /// let doc = arena.text("a").append(arena.hardline()).append("b").nest(2);
    /// assert_eq!(xsmith::render::layout(doc, 80), "a\n  b");
    /// ```
    #[inline]
    pub fn nest(self, offset: isize) -> Doc<'a> {
        if self.id == NIL || offset == 0 {
            return self;
        }
        let inner = self.arena.node(self.id);
        self.arena.alloc(Node::around(Kind::Nest(offset, self.id), &inner))
    }

    /// This document as a group: laid out flat (each line a space, each
    /// soft line nothing) when that fits.
    ///
    /// ```
    /// let arena = xsmith::render::Arena::new();
    /// let doc = || arena.text("a").append(arena.line()).append("b").group();
    /// assert_eq!(xsmith::render::layout(doc(), 3), "a b");
    /// assert_eq!(xsmith::render::layout(doc(), 2), "a\nb");
    /// ```
    #[inline]
    pub fn group(self) -> Doc<'a> {
        let inner = self.arena.node(self.id);
        match inner.kind {
            Kind::Group(_) | Kind::Text(_) | Kind::Owned { .. } | Kind::Nil => self,
            _ => self.arena.alloc(Node::around(Kind::Group(self.id), &inner)),
        }
    }
}

/// Lays a document out at `width` columns.
///
/// ```
/// use xsmith::render::{layout, Arena};
/// let arena = Arena::new();
/// let doc = || arena.text("a").append(arena.line()).append("b").group();
/// assert_eq!(layout(doc(), 80), "a b");
/// assert_eq!(layout(doc(), 1), "a\nb");
/// ```
pub fn layout(doc: Doc<'_>, width: usize) -> String {
    let mut out = String::new();
    layout_into(doc, width, &mut out);
    out
}

/// Whether a document waiting to be laid out is laid out flat.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Break,
    Flat,
}

/// A document waiting to be laid out: its indentation, its mode, itself.
type Command = (usize, Mode, u32);

/// Lays a document out at `width` columns at the end of `out`.
///
/// ```
/// use xsmith::render::{layout_into, Arena};
/// let arena = Arena::new();
/// let mut out = String::from("> ");
/// layout_into(arena.text("x"), 80, &mut out);
/// assert_eq!(out, "> x");
/// ```
pub fn layout_into(doc: Doc<'_>, width: usize, out: &mut String) {
    let nodes = doc.arena.nodes.borrow();
    let owned = doc.arena.owned.borrow();
    let mut waiting: Vec<Command> = Vec::with_capacity(64);
    waiting.push((0, Mode::Break, doc.id));
    let mut column = 0usize;
    while let Some(mut command) = waiting.pop() {
        loop {
            let (indent, mode, id) = command;
            let node = &nodes[id as usize];
            match node.kind {
                Kind::Nil => {}
                Kind::Text(text) => {
                    out.push_str(text);
                    column += node.flat as usize;
                }
                Kind::Owned { start, len } => {
                    out.push_str(&owned[start as usize..(start + len) as usize]);
                    column += node.flat as usize;
                }
                Kind::Append(left, right) => {
                    command.2 = pieces(&nodes, left, right, |piece| waiting.push((indent, mode, piece)));
                    continue;
                }
                Kind::Group(inner) => {
                    if mode == Mode::Break && fits(&nodes, &waiting, inner, column, width) {
                        command.1 = Mode::Flat;
                    }
                    command.2 = inner;
                    continue;
                }
                Kind::Nest(offset, inner) => {
                    command = (indent.saturating_add_signed(offset), mode, inner);
                    continue;
                }
                Kind::Line if mode == Mode::Flat => {
                    out.push(' ');
                    column += 1;
                }
                Kind::SoftLine if mode == Mode::Flat => {}
                Kind::Hardline | Kind::Line | Kind::SoftLine => {
                    // The line after the break is indented as the next
                    // document waiting is, if there is one.
                    match waiting.pop() {
                        Some(next) => {
                            new_line(out, next.0);
                            column = next.0;
                            command = next;
                            continue;
                        }
                        None => {
                            new_line(out, indent);
                            column = indent;
                        }
                    }
                }
            }
            break;
        }
    }
}

/// Pushes, through `push`, the pieces of `left` then `right` (the right
/// children along each one's left spine) so that they pop in order, but the
/// very first, which it returns.
fn pieces(nodes: &[Node], left: u32, right: u32, mut push: impl FnMut(u32)) -> u32 {
    let first_of_right = leftmost(nodes, right, &mut push);
    push(first_of_right);
    leftmost(nodes, left, &mut push)
}

/// Pushes the right children along the left spine of `id`, outermost
/// first, and returns the document at the spine's end.
fn leftmost(nodes: &[Node], mut id: u32, push: &mut impl FnMut(u32)) -> u32 {
    loop {
        match nodes[id as usize].kind {
            Kind::Append(left, right) => {
                push(right);
                id = left;
            }
            _ => return id,
        }
    }
}

/// Whether the group whose content is `inner`, starting at `column`, fits
/// within `width` laid out flat, with the documents waiting after it laid
/// out up to their first possible line break: whether no text they write
/// ends past `width` (so a group that writes nothing fits even on a line
/// already too long, as in `pretty`).
fn fits(nodes: &[Node], waiting: &[Command], inner: u32, column: usize, width: usize) -> bool {
    let group = &nodes[inner as usize];
    if group.flat == NEVER_FLAT {
        return false;
    }
    let mut column = column + group.flat as usize;
    if group.shows && column > width {
        return false;
    }
    for &(_, _, id) in waiting.iter().rev() {
        let node = &nodes[id as usize];
        column += node.head as usize;
        if node.head_shows && column > width {
            return false;
        }
        if node.breaks {
            return true;
        }
    }
    true
}

/// A line break, then `indent` spaces.
fn new_line(out: &mut String, indent: usize) {
    const SPACES: &str = "                                                                ";
    out.push('\n');
    let mut left = indent;
    while left > 0 {
        let run = left.min(SPACES.len());
        out.push_str(&SPACES[..run]);
        left -= run;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty::DocAllocator;
    use proptest::prelude::*;

    /// A document's shape, built with both this module and `pretty`.
    #[derive(Clone, Debug)]
    enum Shape {
        Text(&'static str),
        Owned(String),
        Nil,
        Line,
        SoftLine,
        Hardline,
        Append(Box<Shape>, Box<Shape>),
        Nest(isize, Box<Shape>),
        Group(Box<Shape>),
    }

    fn ours<'a>(arena: &'a Arena<'a>, shape: &Shape) -> Doc<'a> {
        match shape {
            Shape::Text(text) => arena.text(*text),
            Shape::Owned(text) => arena.text(text.clone()),
            Shape::Nil => arena.nil(),
            Shape::Line => arena.line(),
            Shape::SoftLine => arena.softline(),
            Shape::Hardline => arena.hardline(),
            Shape::Append(left, right) => ours(arena, left).append(ours(arena, right)),
            Shape::Nest(offset, inner) => ours(arena, inner).nest(*offset),
            Shape::Group(inner) => ours(arena, inner).group(),
        }
    }

    type Theirs<'a> = pretty::DocBuilder<'a, pretty::Arena<'a, ()>, ()>;

    fn theirs<'a>(arena: &'a pretty::Arena<'a, ()>, shape: &Shape) -> Theirs<'a> {
        match shape {
            Shape::Text(text) => arena.text(*text),
            Shape::Owned(text) => arena.text(text.clone()),
            Shape::Nil => arena.nil(),
            Shape::Line => arena.line(),
            Shape::SoftLine => arena.line_(),
            Shape::Hardline => arena.hardline(),
            Shape::Append(left, right) => theirs(arena, left).append(theirs(arena, right)),
            Shape::Nest(offset, inner) => theirs(arena, inner).nest(*offset),
            Shape::Group(inner) => theirs(arena, inner).group(),
        }
    }

    fn shape() -> impl Strategy<Value = Shape> {
        let leaf = prop_oneof![
            prop::sample::select(vec![
                "x",
                "(",
                ")",
                "abc",
                "safe_div(",
                ", ",
                " ",
                "",
                "é",
                "日本",
                "\t"
            ])
            .prop_map(Shape::Text),
            "[a-z ]{0,12}".prop_map(Shape::Owned),
            Just(Shape::Nil),
            Just(Shape::Line),
            Just(Shape::SoftLine),
            Just(Shape::Hardline),
        ];
        leaf.prop_recursive(8, 96, 4, |inner| {
            prop_oneof![
                4 => (inner.clone(), inner.clone()).prop_map(|(l, r)| Shape::Append(Box::new(l), Box::new(r))),
                1 => (-3isize..8, inner.clone()).prop_map(|(o, i)| Shape::Nest(o, Box::new(i))),
                2 => inner.prop_map(|i| Shape::Group(Box::new(i))),
            ]
        })
    }

    fn both(shape: &Shape, width: usize) -> (String, String) {
        let arena = Arena::new();
        let mine = layout(ours(&arena, shape), width);
        let pretty_arena = pretty::Arena::<()>::new();
        let mut theirs_text = String::new();
        theirs(&pretty_arena, shape)
            .into_doc()
            .render_fmt(width, &mut theirs_text)
            .unwrap();
        (mine, theirs_text)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]
        #[test]
        fn lays_out_as_pretty_does(shape in shape(), width in 0usize..40) {
            let (mine, theirs) = both(&shape, width);
            prop_assert_eq!(mine, theirs);
        }
    }

    #[test]
    fn a_line_break_is_indented_as_the_document_after_it() {
        // `pretty`'s rule, kept: the break before `end` takes the
        // indentation of `end`, not of the nested body it ends.
        let shape = Shape::Append(
            Box::new(Shape::Nest(
                4,
                Box::new(Shape::Append(
                    Box::new(Shape::Text("do")),
                    Box::new(Shape::Append(Box::new(Shape::Hardline), Box::new(Shape::Text("x")))),
                )),
            )),
            Box::new(Shape::Append(Box::new(Shape::Hardline), Box::new(Shape::Text("end")))),
        );
        let (mine, theirs) = both(&shape, 80);
        assert_eq!(mine, "do\n    x\nend");
        assert_eq!(mine, theirs);
    }

    #[test]
    fn a_group_that_fits_only_without_what_follows_it_breaks() {
        let arena = Arena::new();
        let group = arena.text("ab").append(arena.line()).append("cd").group();
        let doc = group.append("efgh").append(arena.line()).append("ij");
        assert_eq!(
            layout(doc, 8),
            "ab\ncdefgh\nij",
            "5 + 4 columns with what follows do not fit in 8"
        );
        assert_eq!(layout(doc, 9), "ab cdefgh\nij");
    }
}
