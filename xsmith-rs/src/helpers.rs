//! Runtime helpers: the definitions of a fuzzer's header (safe arithmetic,
//! printing) that a program carries only when it uses them, so that a
//! small program, a reduced one above all, is small.
//!
//! A helper is used when its name occurs as a whole word in the program's
//! text, or in the text of another helper that is used. Used helpers are
//! written in the order the fuzzer declares them, so that one may call any
//! declared before it.

/// One definition of a fuzzer's runtime header.
///
/// ```
/// use xsmith::Helper;
/// const HELPERS: &[Helper] = &[
///     Helper { name: "wrap", text: "local function wrap(x) return x % 256 end\n" },
///     Helper { name: "add", text: "local function add(a, b) return wrap(a + b) end\n" },
///     Helper { name: "neg", text: "local function neg(a) return wrap(-a) end\n" },
/// ];
/// let used = xsmith::helpers::used(HELPERS, "print(add(1, 2))\n");
/// assert_eq!(used, "local function wrap(x) return x % 256 end\nlocal function add(a, b) return wrap(a + b) end\n");
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Helper {
    /// The name programs call it by: an identifier, which may start with
    /// `$` (as WebAssembly's do).
    pub name: &'static str,
    /// Its definition, ending with a newline.
    pub text: &'static str,
}

/// The definitions of `helpers` that `program` uses, directly or through
/// another used helper, in declared order.
///
/// ```
/// use xsmith::Helper;
/// let helpers = [Helper { name: "$div", text: "(func $div)\n" }];
/// assert_eq!(xsmith::helpers::used(&helpers, "(call $div (i32.const 1))"), "(func $div)\n");
/// assert_eq!(xsmith::helpers::used(&helpers, "(call $divide)"), "");
/// ```
pub fn used(helpers: &[Helper], program: &str) -> String {
    let mut used = vec![false; helpers.len()];
    let mut texts = vec![program];
    while let Some(text) = texts.pop() {
        for (helper, used) in helpers.iter().zip(&mut used) {
            if !*used && mentions(text, helper.name) {
                *used = true;
                texts.push(helper.text);
            }
        }
    }
    helpers
        .iter()
        .zip(&used)
        .filter(|(_, &used)| used)
        .map(|(helper, _)| helper.text)
        .collect()
}

/// Whether `name` occurs in `text` as a whole word: with no identifier
/// character right before or after it.
fn mentions(text: &str, name: &str) -> bool {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '$';
    text.match_indices(name).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + name.len()..].chars().next();
        !before.is_some_and(word) && !after.is_some_and(word)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_inside_a_longer_word_is_not_a_use() {
        assert!(mentions("x = add(1, 2)", "add"));
        assert!(!mentions("x = safe_add(1, 2)", "add"));
        assert!(!mentions("x = add2(1, 2)", "add"));
        assert!(!mentions("local $add", "add"));
        assert!(mentions("add", "add"));
    }

    #[test]
    fn helpers_used_only_by_an_unused_helper_are_left_out() {
        let helpers = [
            Helper {
                name: "a",
                text: "def a(): return b()\n",
            },
            Helper {
                name: "b",
                text: "def b(): return 1\n",
            },
            Helper {
                name: "c",
                text: "def c(): return 2\n",
            },
        ];
        assert_eq!(used(&helpers, "print(c())"), "def c(): return 2\n");
        assert_eq!(used(&helpers, "print(a())"), "def a(): return b()\ndef b(): return 1\n");
        assert_eq!(used(&helpers, "print(1)"), "");
    }
}
