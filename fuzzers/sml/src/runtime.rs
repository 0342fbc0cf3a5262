//! The runtime helpers a program carries when it uses them: 31-bit integer
//! arithmetic computed in `IntInf` and wrapped (SML/NJ's `int` has 31
//! bits, Poly/ML's 63, and both raise `Overflow`), division and modulo
//! that return the dividend for a zero divisor, bounded concatenation and
//! append, indexing that cannot raise `Subscript`, the printers of values,
//! and the output with its checksum.

use xsmith::Helper;

macro_rules! helpers {
    ($($name:literal $([$($uses:literal),*])? => $text:literal,)*) => {
        /// The helpers, in an order where each uses only earlier ones (the
        /// names in brackets).
        ///
        /// ```
        /// let used = xsmith::helpers::included(xsmith_sml::HELPERS, ["xs_add"]);
        /// assert!(used.starts_with("fun xs_wrap"));
        /// ```
        pub const HELPERS: &[Helper] = &[$(Helper { name: $name, uses: &[$($($uses),*)?], text: $text },)*];
    };
}

helpers! {
    "xs_wrap" => "fun xs_wrap (x : IntInf.int) : int = IntInf.toInt ((x + 1073741824) mod 2147483648 - 1073741824)",
    "xs_add" ["xs_wrap"] => "fun xs_add (a : int, b : int) : int = xs_wrap (IntInf.fromInt a + IntInf.fromInt b)",
    "xs_sub" ["xs_wrap"] => "fun xs_sub (a : int, b : int) : int = xs_wrap (IntInf.fromInt a - IntInf.fromInt b)",
    "xs_mul" ["xs_wrap"] => "fun xs_mul (a : int, b : int) : int = xs_wrap (IntInf.fromInt a * IntInf.fromInt b)",
    "xs_neg" ["xs_wrap"] => "fun xs_neg (a : int) : int = xs_wrap (~ (IntInf.fromInt a))",
    "xs_div" ["xs_wrap"] => "fun xs_div (a : int, b : int) : int =\n  if b = 0 then a else xs_wrap (IntInf.div (IntInf.fromInt a, IntInf.fromInt b))",
    "xs_mod" ["xs_wrap"] => "fun xs_mod (a : int, b : int) : int =\n  if b = 0 then a else xs_wrap (IntInf.mod (IntInf.fromInt a, IntInf.fromInt b))",
    "xs_cat" => "fun xs_cat (a : string, b : string) : string =\n  let val s = a ^ b in if size s > 40 then String.substring (s, 0, 40) else s end",
    "xs_append" => "fun xs_append (a : 'a list, b : 'a list) : 'a list =\n  let val l = a @ b in if length l > 16 then List.take (l, 16) else l end",
    "xs_nth" => "fun xs_nth (l : 'a list, i : int, d : 'a) : 'a =\n  if null l then d else List.nth (l, i mod length l)",
    "xs_aget" => "fun xs_aget (a : 'a array, i : int) : 'a = Array.sub (a, i mod Array.length a)",
    "xs_aset" => "fun xs_aset (a : 'a array, i : int, v : 'a) : unit = Array.update (a, i mod Array.length a, v)",
    "xs_int" => "fun xs_int (i : int) : string = Int.toString i",
    "xs_char" => "fun xs_char (c : char) : string =\n  if c = #\"\\\"\" orelse c = #\"\\\\\" orelse ord c < 32 orelse ord c > 126\n  then \"\\\\\" ^ Int.toString (ord c) else String.str c",
    "xs_str" ["xs_char"] => "fun xs_str (s : string) : string = \"\\\"\" ^ String.translate xs_char s ^ \"\\\"\"",
    "xs_list" => "fun xs_list (f : 'a -> string) (l : 'a list) : string = \"[\" ^ String.concatWith \",\" (map f l) ^ \"]\"",
    "xs_array" => "fun xs_array (f : 'a -> string) (a : 'a array) : string =\n  \"[|\" ^ String.concatWith \",\" (map f (Array.foldr (op ::) [] a)) ^ \"|]\"",
    "xs_ref" => "fun xs_ref (f : 'a -> string) (r : 'a ref) : string = \"ref \" ^ f (!r)",
    "xs_sum" => "val xs_sum : int ref = ref 0",
    "xs_out" ["xs_sum"] => "fun xs_out (s : string) : unit =\n  (print (s ^ \"\\n\");\n   xs_sum := CharVector.foldl (fn (c, h) => (h * 31 + ord c) mod 16777213) (!xs_sum) (s ^ \"\\n\"))",
    "xs_finish" ["xs_sum"] => "fun xs_finish () : unit =\n  (print (\"checksum \" ^ Int.toString (!xs_sum) ^ \"\\n\"); TextIO.flushOut TextIO.stdOut)",
}
