//! Render templates made ready at assembly: a production's template
//! ([`Piece`]s) with its fields resolved to slot indices and its texts
//! measured and split at their newlines once, not at every node rendered.

use crate::grammar::{FieldKind, Production};
use crate::properties::Piece;

/// One step of a ready template; each makes the document its [`Piece`]
/// makes.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Step {
    /// A text with no newline, and its width.
    Text(&'static str, u32),
    /// A text's lines (it had newlines), each with its width, joined by
    /// hard line breaks.
    Lines(Vec<(&'static str, u32)>),
    /// The field in slot `.0`: a child's rendering, a list's elements (one
    /// per line), or a data value's display form.
    Field(usize),
    /// A list field's elements with a separator between them.
    Join(usize, Vec<Step>),
    /// A field the production does not have, or a join of a field that is
    /// not a list (a production that is never generated escapes
    /// assembly's checks): rendering it panics, naming the field.
    Misused(&'static str),
    Line,
    SoftLine,
    HardLine,
    Nest(isize, Vec<Step>),
    Group(Vec<Step>),
}

/// `production`'s template `pieces`, ready to render.
pub(crate) fn ready(production: &Production, pieces: &[Piece]) -> Vec<Step> {
    pieces.iter().map(|piece| step(production, piece)).collect()
}

fn step(production: &Production, piece: &Piece) -> Step {
    let field = |name: &'static str| production.field_index(name).ok_or(Step::Misused(name));
    match piece {
        Piece::Text(text) if text.contains('\n') => Step::Lines(text.split('\n').map(measured).collect()),
        Piece::Text(text) => {
            let (text, width) = measured(text);
            Step::Text(text, width)
        }
        Piece::Field(name) => field(name).map_or_else(|unknown| unknown, Step::Field),
        Piece::Join(name, separator) => match field(name) {
            Ok(index) if matches!(production.fields[index].kind, FieldKind::List(..)) => {
                Step::Join(index, ready(production, separator))
            }
            _ => Step::Misused(name),
        },
        Piece::Line => Step::Line,
        Piece::SoftLine => Step::SoftLine,
        Piece::HardLine => Step::HardLine,
        Piece::Nest(indent, pieces) => Step::Nest(*indent, ready(production, pieces)),
        Piece::Group(pieces) => Step::Group(ready(production, pieces)),
    }
}

/// A text and the width it takes on a line.
fn measured(text: &'static str) -> (&'static str, u32) {
    (text, crate::doc::text_width(text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_resolved_and_texts_split_at_newlines() {
        let spec = crate::example::spec();
        let production = spec.production(spec.lookup("Add").unwrap());
        let pieces = [
            Piece::Text("a\nbé"),
            Piece::Field("right"),
            Piece::Join("nothing", vec![]),
            Piece::Join("left", vec![]),
            Piece::Group(vec![Piece::Text("("), Piece::Line]),
        ];
        let right = production.field_index("right").unwrap();
        assert_eq!(
            ready(production, &pieces),
            vec![
                Step::Lines(vec![("a", 1), ("bé", 2)]),
                Step::Field(right),
                Step::Misused("nothing"),
                Step::Misused("left"),
                Step::Group(vec![Step::Text("(", 1), Step::Line]),
            ]
        );
    }
}
