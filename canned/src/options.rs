//! Which canned productions a language wants, and how they are weighed.

use std::collections::BTreeMap;

/// A group of canned productions that a language switches on or off as a
/// whole. Each group is also a feature group of the spec, so `--without
/// <group>` switches it off on the command line.
///
/// ```
/// use xsmith_canned::Group;
/// assert_eq!(Group::Records.name(), "records");
/// assert_eq!(Group::ALL.len(), 18);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Group {
    /// `IntLit`, `Add`, `Sub`, `Mul`, `Neg`, `Less`, `IntEq`.
    Integers,
    /// `SafeDiv`, `SafeMod`: division and modulo through header wrappers
    /// that return the dividend when the divisor is zero.
    Division,
    /// `BoolLit`, `And`, `Or`, `Not`.
    Booleans,
    /// `StrLit`, `Concat` (through a wrapper that bounds the length), `StrLen`.
    Strings,
    /// `Let` (a statement that defines a variable), `VarRef`.
    Variables,
    /// `Assign`: a statement that assigns a variable of a base type.
    Assignment,
    /// `IfExpr` and `IfStmt`.
    Conditionals,
    /// `BlockStmt`: a nested block.
    Blocks,
    /// `ExprSeq`: expressions evaluated for their effects, then a value.
    Sequences,
    /// `LetStar` with its `LetDef`s: sequential let as an expression.
    LetStar,
    /// `Lambda` (expression body), `LambdaBlock` (block body ending in a
    /// `Return`), `Param`, `FnBody`, `Return`, and `Apply`.
    Functions,
    /// `PrintStmt`: prints a value as it is computed.
    Printing,
    /// `ArrayLit`, `ArrayGet`, `ArraySet`: mutable arrays (never empty,
    /// fixed length) with safe index and safe assignment.
    Arrays,
    /// `ListLit`, `ListGet`: immutable lists (never empty) with safe index.
    Lists,
    /// `DictLit`, `DictGet`, `DictSet`: dictionaries from strings, with
    /// access that gives a default for a missing key.
    Dictionaries,
    /// `RecordLit`, `FieldGet_<f>`, `FieldSet_<f>`: structural records.
    Records,
    /// `ForEachArray`, `ForEachList`: loops over a container, bounded by
    /// its length.
    Loops,
    /// `CountedFor`, `CountedWhile`: loops run a drawn number of times,
    /// up to a few thousand (hot code for the optimizing tiers; bounds in
    /// the crate's README).
    CountedLoops,
}

impl Group {
    /// Every group, in declaration order.
    pub const ALL: [Group; 18] = [
        Group::Integers,
        Group::Division,
        Group::Booleans,
        Group::Strings,
        Group::Variables,
        Group::Assignment,
        Group::Conditionals,
        Group::Blocks,
        Group::Sequences,
        Group::LetStar,
        Group::Functions,
        Group::Printing,
        Group::Arrays,
        Group::Lists,
        Group::Dictionaries,
        Group::Records,
        Group::Loops,
        Group::CountedLoops,
    ];

    /// The group's feature name (for `--with` and `--without`).
    ///
    /// ```
    /// assert_eq!(xsmith_canned::Group::LetStar.name(), "let-star");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Group::Integers => "integers",
            Group::Division => "division",
            Group::Booleans => "booleans",
            Group::Strings => "strings",
            Group::Variables => "variables",
            Group::Assignment => "assignment",
            Group::Conditionals => "conditionals",
            Group::Blocks => "blocks",
            Group::Sequences => "sequences",
            Group::LetStar => "let-star",
            Group::Functions => "functions",
            Group::Printing => "printing",
            Group::Arrays => "arrays",
            Group::Lists => "lists",
            Group::Dictionaries => "dictionaries",
            Group::Records => "records",
            Group::Loops => "loops",
            Group::CountedLoops => "counted-loops",
        }
    }
}

/// The options of the canned components: which groups, the literal ranges,
/// list lengths and weights.
///
/// ```
/// use xsmith_canned::{Group, Options};
/// let options = Options::default().without(Group::Records).weight("PrintStmt", 30);
/// assert!(!options.has(Group::Records));
/// assert!(options.has(Group::Arrays));
/// ```
#[derive(Clone, Debug)]
pub struct Options {
    /// The groups switched on (all by default).
    pub groups: Vec<Group>,
    /// Integer literals and every integer value lie in `low..=high`; the
    /// language's wrappers keep arithmetic in it.
    pub int_range: (i64, i64),
    /// The contents of string literals, drawn from this list.
    pub strings: Vec<&'static str>,
    /// The field names of records (each record has all of them).
    pub record_fields: Vec<&'static str>,
    /// How many statements the program's top-level list starts with.
    pub program_statements: (usize, usize),
    /// How many statements a nested block starts with.
    pub block_statements: (usize, usize),
    /// The range of a hot counted loop's count (`CountedFor`,
    /// `CountedWhile`; see the crate's README for the bounds).
    pub hot_iterations: (i64, i64),
    /// Weights that replace the canned default of a production.
    pub weights: BTreeMap<String, u32>,
    /// The root production of the programs: the canned `Program` (a
    /// statement list), or one the language declares in a component it
    /// passes to [`Canned::spec`](crate::Canned::spec) (for example a
    /// module of function definitions, or an expression), whose fields may
    /// be canned node types (`Block`, `Stmt`, `Expr`).
    pub root: String,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            groups: Group::ALL.to_vec(),
            int_range: (-(1 << 31), (1 << 31) - 1),
            strings: vec![
                "",
                "a",
                "k0",
                "k1",
                "k2",
                "hello",
                "x y",
                "q\"uote",
                "back\\slash",
                "tab\t",
                "new\nline",
            ],
            record_fields: vec!["x", "y"],
            program_statements: (4, 8),
            block_statements: (1, 4),
            hot_iterations: (500, 2500),
            weights: BTreeMap::new(),
            root: "Program".to_string(),
        }
    }
}

impl Options {
    /// Whether `group` is on.
    ///
    /// ```
    /// assert!(xsmith_canned::Options::default().has(xsmith_canned::Group::Loops));
    /// ```
    pub fn has(&self, group: Group) -> bool {
        self.groups.contains(&group)
    }

    /// The same options without `group`.
    ///
    /// ```
    /// use xsmith_canned::{Group, Options};
    /// assert!(!Options::default().without(Group::Loops).has(Group::Loops));
    /// ```
    pub fn without(mut self, group: Group) -> Options {
        self.groups.retain(|g| *g != group);
        self
    }

    /// The same options with production `production` weighed `weight`.
    ///
    /// ```
    /// let options = xsmith_canned::Options::default().weight("Apply", 25);
    /// assert_eq!(options.weights["Apply"], 25);
    /// ```
    pub fn weight(mut self, production: &str, weight: u32) -> Options {
        self.weights.insert(production.to_string(), weight);
        self
    }
}
