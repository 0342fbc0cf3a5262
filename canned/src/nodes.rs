//! Typed views of the canned productions, one per shape: what a
//! [`Syntax`](crate::Syntax) method receives. Each field is a method (a
//! child's document, a list's documents, a data value), so a misspelt field
//! is a compile error; each view also derefs to the [`RenderNode`] for the
//! document constructors (`text`, `hardline`, `join`, ...) and for reading
//! other nodes ([`RenderNode::at`]). The test `views_match_the_grammar`
//! checks every view's fields against the assembled canned grammar.

use std::ops::Deref;

use xsmith::{Doc, RenderNode, Value};

/// What a field of a view holds, as [`View::FIELDS`] lists it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FieldShape {
    /// A single child.
    Child,
    /// A list of children.
    List,
    /// A data value.
    Data,
}

/// A typed view of a canned node.
///
/// ```
/// use xsmith_canned::nodes::{Binary, FieldShape, View};
/// assert_eq!(Binary::FIELDS, &[("left", FieldShape::Child), ("right", FieldShape::Child)]);
/// ```
pub trait View {
    /// The view's fields and what each holds, in the production's order.
    const FIELDS: &'static [(&'static str, FieldShape)];
}

macro_rules! views {
    ($($(#[doc = $doc:literal])* $view:ident { $($field:ident: $shape:ident),* $(,)? })*) => {$(
        $(#[doc = $doc])*
        #[derive(Clone, Copy)]
        pub struct $view<'n, 'a>(pub &'n RenderNode<'a>);

        impl<'n, 'a> $view<'n, 'a> {
            $(views!(@accessor $field $shape);)*
        }

        impl View for $view<'_, '_> {
            const FIELDS: &'static [(&'static str, FieldShape)] = &[$((stringify!($field), views!(@shape $shape))),*];
        }

        impl<'a> Deref for $view<'_, 'a> {
            type Target = RenderNode<'a>;

            fn deref(&self) -> &RenderNode<'a> {
                self.0
            }
        }
    )*};
    (@shape child) => { FieldShape::Child };
    (@shape list) => { FieldShape::List };
    (@shape data) => { FieldShape::Data };
    (@accessor $field:ident child) => {
        #[doc = concat!("The document of the child `", stringify!($field), "`.")]
        pub fn $field(&self) -> Doc<'a> {
            self.0.child(stringify!($field))
        }
    };
    (@accessor $field:ident list) => {
        #[doc = concat!("The documents of the elements of the list `", stringify!($field), "`.")]
        pub fn $field(&self) -> Vec<Doc<'a>> {
            self.0.list(stringify!($field))
        }
    };
    (@accessor $field:ident data) => {
        #[doc = concat!("The value of the data field `", stringify!($field), "`.")]
        pub fn $field(&self) -> &'a Value {
            self.0.data(stringify!($field))
        }
    };
}

views! {
    /// `Program`, `Block`: a statement list.
    Statements { stmts: list }
    /// `Let`, `LetDef`: a definition of `name` with the value `init`.
    Binding { name: data, init: child }
    /// `Assign`: `name` gets `value`.
    Assign { name: data, value: child }
    /// `IfStmt`: a condition and two blocks.
    IfStmt { cond: child, then: child, otherwise: child }
    /// `IfExpr`: a condition and two expressions.
    IfExpr { cond: child, then: child, otherwise: child }
    /// `BlockStmt`: a nested block.
    BlockStmt { body: child }
    /// `PrintStmt`, `Return`: a statement about one value.
    ValueStmt { value: child }
    /// `IntLit`, `BoolLit`, `StrLit`: a literal's value.
    Literal { value: data }
    /// `Add`, `Sub`, `Mul`, `SafeDiv`, `SafeMod`, `Concat`, `Less`, `IntEq`,
    /// `And`, `Or`: two operands.
    Binary { left: child, right: child }
    /// `Neg`, `Not`, `StrLen`: one operand.
    Unary { operand: child }
    /// `VarRef`, `Param`, `LoopVar`: a name.
    Name { name: data }
    /// `ExprSeq`: expressions run for their effects, then a value.
    ExprSeq { effects: list, value: child }
    /// `LetStar`: sequential definitions, then a body.
    LetStar { defs: list, body: child }
    /// `Lambda` (an expression body), `LambdaBlock` (an `FnBody`).
    Function { params: list, body: child }
    /// `FnBody`: statements, then a `Return`.
    FnBody { stmts: list, ret: child }
    /// `Apply`: a call.
    Apply { callee: child, args: list }
    /// `ArrayLit`, `ListLit`, `DictLit`: a container literal.
    Items { items: list }
    /// `RecordLit`: one value per record field, in the record type's order
    /// (see [`record_entries`](crate::render::record_entries)).
    RecordLit { values: list }
    /// `ArrayGet`: an element of an array.
    ArrayGet { array: child, index: child }
    /// `ListGet`: an element of a list.
    ListGet { list: child, index: child }
    /// `ArraySet`: an array element gets a value.
    ArraySet { array: child, index: child, value: child }
    /// `DictGet`: the value of a key, or a default.
    DictGet { dict: child, key: child, default: child }
    /// `DictSet`: a key gets a value.
    DictSet { dict: child, key: child, value: child }
    /// `FieldGet_<f>`: a record's field (`field` holds the field's name).
    FieldGet { record: child, field: data }
    /// `FieldSet_<f>`: a record's field gets a value.
    FieldSet { record: child, field: data, value: child }
    /// `ForEachArray`, `ForEachList`: a loop over a container's elements
    /// (`element` is the `LoopVar` that binds each; see
    /// [`ForEach::element_name`]).
    ForEach { container: child, element: child, body: child }
    /// `CountedFor`: a loop whose `LoopVar` `counter` runs from 0 to
    /// its [`iterations`](Counted::iterations) less one (see
    /// [`Counted::counter_name`]).
    Counted { count: data, counter: child, body: child }
    /// `CountedWhile`: a `while` loop over a counter from 0 while it is
    /// below its [`iterations`](CountedWhile::iterations), incremented
    /// after the body; `form` 0 tests before the
    /// body, 1 after it (`repeat ... until`, `do ... while`; `count` is at
    /// least 1, so both run the body `count` times).
    CountedWhile { count: data, counter: child, form: data, body: child }
}

/// The name the `LoopVar` in field `field` of the node `n` renders binds.
fn loop_var_name(n: &RenderNode<'_>, field: &str) -> String {
    let var = n.at(n.node()).child(field);
    let name = var.and_then(|e| e.data("name"));
    name.expect("a loop's variable is a LoopVar with a name").to_string()
}

impl Counted<'_, '_> {
    /// The name of the loop's counter.
    pub fn counter_name(&self) -> String {
        loop_var_name(self.0, "counter")
    }

    /// How many times the loop runs its body: its `count`, or once where
    /// loops around it or a function would multiply it past the nest
    /// budget (see the crate's README).
    pub fn iterations(&self) -> i64 {
        crate::counted::iterations(self.0.at(self.0.node()))
    }
}

impl CountedWhile<'_, '_> {
    /// The name of the loop's counter.
    pub fn counter_name(&self) -> String {
        loop_var_name(self.0, "counter")
    }

    /// How many times the loop runs its body (see [`Counted::iterations`]).
    pub fn iterations(&self) -> i64 {
        crate::counted::iterations(self.0.at(self.0.node()))
    }

    /// Whether the loop tests its condition after the body (`form` 1).
    pub fn tests_last(&self) -> bool {
        matches!(self.form(), Value::Int(1))
    }
}

impl ForEach<'_, '_> {
    /// The name the loop's `LoopVar` binds.
    ///
    /// ```
    /// use xsmith_canned::nodes::ForEach;
    /// let r = xsmith::Renderer::function(|n| n.text(ForEach(n).element_name()));
    /// # let _ = r;
    /// ```
    pub fn element_name(&self) -> String {
        loop_var_name(self.0, "element")
    }
}
