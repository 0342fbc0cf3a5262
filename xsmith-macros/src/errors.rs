//! The collector of the mistakes found in an invocation, so that one compile
//! shows them all, in the order of the source whichever pass found them.

use std::fmt::Display;

use proc_macro2::Span;
use quote::ToTokens;

/// The part of an invocation a mistake is in. Errors are shown in this
/// order: the grammar first, then the property blocks and their entries as
/// written.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Place {
    /// The `grammar` and `uses` sections.
    Grammar,
    /// A property block's name or one of its entries, numbered in source
    /// order over all blocks.
    Property(usize),
}

/// Collects errors; `finish` must read them before the collector is dropped.
#[derive(Default)]
pub struct Errors {
    found: Vec<(Place, syn::Error)>,
    /// Whether `finish` has read them.
    read: bool,
}

impl Errors {
    /// An error at `span`.
    pub fn add(&mut self, place: Place, span: Span, message: impl Display) {
        self.push(place, syn::Error::new(span, message));
    }

    /// An error spanning all of `tokens` (an expression), first to last.
    pub fn add_spanned(&mut self, place: Place, tokens: impl ToTokens, message: impl Display) {
        self.push(place, syn::Error::new_spanned(tokens, message));
    }

    fn push(&mut self, place: Place, error: syn::Error) {
        self.found.push((place, error));
    }

    /// All errors found, in source order (the order they were found in
    /// within one place), as one error; `Ok` when there are none.
    pub fn finish(mut self) -> syn::Result<()> {
        self.read = true;
        let mut found = std::mem::take(&mut self.found);
        found.sort_by_key(|(place, _)| *place);
        let mut errors = found.into_iter().map(|(_, error)| error);
        let Some(mut all) = errors.next() else { return Ok(()) };
        for error in errors {
            all.combine(error);
        }
        Err(all)
    }
}

impl Drop for Errors {
    fn drop(&mut self) {
        if !self.read && !std::thread::panicking() {
            panic!("the errors of a `component!` invocation were dropped without being read by `finish`");
        }
    }
}
