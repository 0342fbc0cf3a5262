//! The JavaScript fuzzer against real implementations: 300 programs at the default
//! size run on node and duk with no rejection, no runtime
//! error, no timeout and no disagreement, and every canned production
//! appears in at least a tenth of them; at default options they are ES5
//! alone (parsed as ES5 by acorn, run with ES2015's built-ins deleted).

use std::process::Command;

use xsmith::{Execution, Generator, Limits, Options, Source};
use xsmith_javascript::FUZZER;
use xsmith_tests::conformance::CannedFuzzer;
use xsmith_tests::scratch_dir;

/// The fuzzer, run on its own implementations (`xsmith_javascript::IMPLEMENTATIONS`).
fn javascript() -> CannedFuzzer<'static> {
    CannedFuzzer {
        fuzzer: &FUZZER,
        options: xsmith_javascript::options(),
    }
}

#[test]
fn programs_agree_on_node_and_duk() {
    javascript().check_programs_agree(300);
}

#[test]
fn the_same_seed_gives_the_same_bytes() {
    javascript().check_same_seed_same_bytes();
}

/// The header's wrappers at the edges of the int32 range, and its printing,
/// give the same, expected text on both implementations.
#[test]
fn the_header_keeps_int32_and_prints_alike() {
    for implementation in FUZZER.implementations {
        implementation.check().unwrap_or_else(|e| panic!("{e}"));
    }
    let checks = [
        ("add(2147483647, 1)", "-2147483648"),
        ("sub((-2147483648), 1)", "2147483647"),
        ("neg((-2147483648))", "-2147483648"),
        ("neg(0)", "0"),
        ("mul(65537, 65537)", "131073"),
        ("mul((-2147483648), (-1))", "-2147483648"),
        ("mul(0, (-5))", "0"),
        ("div(7, 0)", "7"),
        ("div((-7), 2)", "-3"),
        ("div(0, (-5))", "0"),
        ("div((-2147483648), (-1))", "-2147483648"),
        ("mod((-7), 2)", "-1"),
        ("mod((-4), 2)", "0"),
        ("mod((-2147483648), (-1))", "0"),
        ("mod(5, 0)", "5"),
        ("aget([1, 2, 3], (-1))", "3"),
        ("aget([1, 2, 3], (-2147483648))", "2"),
        ("dget({\"k0\": 1}, \"toString\", 9)", "9"),
        ("cat(\"0123456789012345678901234567890123456789\", \"x\").length", "40"),
        ("\"q\\\"uote\\\\tab\\tnew\\nline\"", r#""q\"uote\\tab\tnew\nline""#),
        (
            "{\"k1\": [true, {y: 1, x: \"a\"}], \"k0\": (function () { return 0; })}",
            r#"{"k0":<function>,"k1":[true,{"x":"a","y":1}]}"#,
        ),
    ];
    let mut body = String::new();
    let mut expected = String::new();
    for (expression, printed) in checks {
        body.push_str(&format!("out({expression});\n"));
        expected.push_str(printed);
        expected.push('\n');
    }
    // What the checks call; `index` and `write` come in through `aget` and `out`.
    let helpers = xsmith::helpers::included(
        FUZZER.helpers,
        ["out", "add", "sub", "neg", "mul", "div", "mod", "aget", "dget", "cat"],
    );
    assert!(
        helpers.contains("function index(") && helpers.contains("var write"),
        "{helpers}"
    );
    let program = format!("{}{helpers}{body}", FUZZER.prelude);
    let dir = scratch_dir("javascript-header");
    let path = dir.path().join("header.js");
    std::fs::write(&path, &program).unwrap();
    for implementation in FUZZER.implementations {
        let run = implementation.run(&path, &program, &Limits::default());
        assert_eq!(
            run.execution,
            Execution::Output(expected.clone()),
            "{}",
            implementation.name()
        );
    }
}

/// The node script that checks each program file it is given: acorn (the
/// parser node ships, reached with `--expose-internals`) parses it as an
/// ES5 script, and it runs in a fresh context whose ES2015 built-ins are
/// deleted to the same output as in an untouched context. It prints one line
/// per program that fails, `FILE: why`, and `checked N` last.
const ES5_CHECK: &str = r#"
var acorn = require("internal/deps/acorn/acorn/dist/acorn");
var vm = require("vm");
var fs = require("fs");
var STRIP = [
  "Math.imul", "Math.sign", "Math.trunc", "Math.fround", "Math.clz32", "Math.cbrt", "Math.hypot",
  "Math.log2", "Math.log10", "Math.log1p", "Math.expm1", "Math.sinh", "Math.cosh", "Math.tanh",
  "Object.assign", "Object.is", "Object.entries", "Object.values", "Object.fromEntries",
  "Object.getOwnPropertySymbols", "Object.setPrototypeOf",
  "Array.from", "Array.of", "Array.prototype.includes", "Array.prototype.find",
  "Array.prototype.findIndex", "Array.prototype.fill", "Array.prototype.copyWithin",
  "Array.prototype.entries", "Array.prototype.keys", "Array.prototype.values", "Array.prototype.flat",
  "Array.prototype.flatMap", "Array.prototype.at",
  "String.prototype.repeat", "String.prototype.includes", "String.prototype.startsWith",
  "String.prototype.endsWith", "String.prototype.padStart", "String.prototype.padEnd",
  "String.prototype.codePointAt", "String.prototype.at", "String.fromCodePoint", "String.raw",
  "Number.isInteger", "Number.isFinite", "Number.isNaN", "Number.isSafeInteger",
  "Number.parseInt", "Number.parseFloat", "Number.EPSILON",
  "this.Map", "this.Set", "this.WeakMap", "this.WeakSet", "this.Promise", "this.Proxy",
  "this.Reflect", "this.Symbol"
].map(function (p) { return "delete " + p + ";"; }).join("\n");
function run(text, strip) {
  var lines = [];
  var context = vm.createContext({ print: function (s) { lines.push(String(s)); } });
  if (strip) {
    vm.runInContext(STRIP, context);
    if (vm.runInContext("typeof Math.imul + typeof Map", context) !== "undefinedundefined") {
      throw new Error("the ES2015 built-ins were not deleted");
    }
  }
  vm.runInContext(text, context, { timeout: 10000 });
  return lines.join("\n");
}
var files = process.argv.slice(2), failed = 0;
files.forEach(function (file) {
  var text = fs.readFileSync(file, "utf8");
  try {
    acorn.parse(text, { ecmaVersion: 5, sourceType: "script" });
  } catch (e) {
    failed += 1;
    console.log(file + ": not ES5: " + e.message);
    return;
  }
  try {
    if (run(text, true) !== run(text, false)) {
      failed += 1;
      console.log(file + ": prints otherwise without ES2015 built-ins");
    }
  } catch (e) {
    failed += 1;
    console.log(file + ": fails without ES2015 built-ins: " + e);
  }
});
console.log("checked " + files.length + ", failed " + failed);
"#;

/// Writes the programs of seeds `seeds` at `options` and runs
/// [`ES5_CHECK`] on them; returns its report.
fn es5_report(options: Options, seeds: std::ops::Range<u64>) -> String {
    let spec = (FUZZER.spec)().unwrap();
    let mut generator = Generator::new(&spec, options).unwrap();
    let dir = scratch_dir("javascript-es5");
    let script = dir.path().join("check.js");
    std::fs::write(&script, ES5_CHECK).unwrap();
    let mut files = Vec::new();
    for seed in seeds {
        let program = FUZZER.program(&spec, &mut generator, Source::Seed(seed)).unwrap();
        let path = dir.path().join(format!("{seed}.js"));
        std::fs::write(&path, &program.text).unwrap();
        files.push(path);
    }
    let output = Command::new("node")
        .arg("--expose-internals")
        .arg(&script)
        .args(&files)
        .output()
        .unwrap_or_else(|e| panic!("node (Debian package nodejs; ./test.sh installs it): {e}"));
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "the ES5 check did not run: {stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    stdout
}

/// At default options the header and every program are ES5: they parse as
/// ES5 and run alike with ES2015's built-ins deleted.
#[test]
fn programs_are_es5_alone_at_default_options() {
    let report = es5_report(Options::default(), 0..300);
    assert!(report.ends_with("checked 300, failed 0\n"), "{report}");
}

/// The check bites: with the `es2015` group on, programs call `Math.imul`
/// and the check finds them; node and duk (which has `Math.imul`) still
/// agree on them.
#[test]
fn the_es2015_group_calls_math_imul_and_still_agrees() {
    let es2015 = Options {
        with: vec![xsmith_javascript::ES2015.into()],
        ..Options::default()
    };
    let report = es5_report(es2015.clone(), 0..40);
    assert!(report.contains("fails without ES2015 built-ins"), "{report}");
    assert!(!report.ends_with("failed 0\n"), "{report}");
    xsmith_tests::conformance::assert_programs_agree(&FUZZER, FUZZER.implementations, &es2015, 0..100);
}

/// Issue 14: at these depths and seeds a record type came to contain itself
/// (`type variable ?181 would contain itself`).
#[test]
fn seeds_whose_record_type_once_contained_itself_agree() {
    javascript().check_seeds_agree(&[(8, 2080079), (9, 92332110289)]);
}

/// Issue 16: programs steered towards new 2-paths (`--cover 2`) conform too.
#[test]
fn steered_programs_agree() {
    let covered = xsmith_tests::conformance::assert_steered_programs_agree(
        &xsmith_javascript::FUZZER,
        &Default::default(),
        2,
        100,
        &[],
    );
    assert!(covered > 1000, "{covered} k-paths");
}

/// Issue 34, items 2 and 3: JavaScript's own hot productions (polymorphic
/// calls, objects growing in loops, prototype methods, exceptions in loops,
/// string methods) are each in at least a tenth of 200 default programs
/// and together in most; those programs, and 100 `--swarm` ones, agree on
/// node and duk.
#[test]
fn own_hot_productions_are_common_and_agree() {
    let own = [
        "PolyCall",
        "ShapeGrow",
        "ProtoCall",
        "TryLoop",
        "StrSearch",
        "StrCodeAt",
        "StrSlice",
        "StrCharAt",
        "StrCase",
    ];
    xsmith_tests::conformance::assert_own_productions_common_and_agree(&FUZZER, &own);
}
