//! The JavaScript fuzzer against real implementations: 300 programs at the default
//! size run on node and duk with no rejection, no runtime
//! error, no timeout and no disagreement, and every canned production
//! appears in at least a tenth of them.

use xsmith::{Execution, Limits};
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
    let mut program = FUZZER.prelude.to_string();
    let mut expected = String::new();
    for (expression, printed) in checks {
        program.push_str(&format!("out({expression});\n"));
        expected.push_str(printed);
        expected.push('\n');
    }
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

/// Issue 14: at these depths and seeds a record type came to contain itself
/// (`type variable ?181 would contain itself`).
#[test]
fn seeds_whose_record_type_once_contained_itself_agree() {
    javascript().check_seeds_agree(&[(8, 2080079), (9, 92332110289)]);
}
