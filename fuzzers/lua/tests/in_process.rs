//! Lua 5.4 in-process (the `in-process` feature; `test.sh` runs these
//! with it): the fuzzer's programs run on it exactly as on the installed
//! interpreters, and what it writes is what `lua5.4` writes.

use std::process::Command;

use xsmith::Execution;
use xsmith_lua::in_process;

const LUA: &str = env!("CARGO_BIN_EXE_xsmith-lua");

/// The last line of a campaign: its tally.
fn tally(args: &[&str]) -> String {
    let findings = tempfile::tempdir().unwrap();
    let output = Command::new(LUA)
        .arg("diff")
        .args(args)
        .arg("--findings")
        .arg(findings.path())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout).to_string();
    assert!(
        output.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        stdout.contains("--impl lua5.4-in-process"),
        "the in-process Lua runs by default: {stdout}"
    );
    stdout.lines().last().unwrap_or_default().to_string()
}

#[test]
fn programs_agree_in_process_and_on_the_installed_interpreters() {
    assert_eq!(
        tally(&["--count", "300", "--seed", "0"]),
        "programs 300, agree 300, differ 0, rejected 0, crashed 0, timeout 0"
    );
    assert_eq!(
        tally(&["--count", "300", "--seed", "300", "--swarm"]),
        "programs 300, agree 300, differ 0, rejected 0, crashed 0, timeout 0"
    );
    assert_eq!(
        tally(&["--count", "50", "--seed", "600", "--size", "2000"]),
        "programs 50, agree 50, differ 0, rejected 0, crashed 0, timeout 0"
    );
}

/// Numbers, strings and values of every kind through `io.write` and
/// `print`, with what the installed `lua5.4` writes for the same program.
#[test]
fn what_it_writes_is_what_lua54_writes() {
    let program = r#"
io.write(1, " ", 2.5, " ", 1e100, " ", -0.0, " ", 1/0, " ", 2^53, " ", 7 // 2, " ", 7 / 2, "\n")
io.write("a\0b", "\n")
print(1, 2.0, nil, true, false, "x\ty", 0.1, -3, math.huge, math.mininteger)
print()
print(#{1, 2, 3})
"#;
    let file = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(file.path(), program).unwrap();
    let expected = Command::new("lua5.4")
        .arg(file.path())
        .output()
        .expect("lua5.4 is installed (test.sh installs it)");
    assert!(expected.status.success());
    assert_eq!(
        in_process::run(program),
        Execution::Output(String::from_utf8(expected.stdout).unwrap())
    );
}

#[test]
fn errors_and_endless_loops_end_the_run() {
    assert!(
        matches!(in_process::run("local t = nil; t.x = 1"), Execution::Rejected(e) if e.contains("attempt to index"))
    );
    assert!(matches!(in_process::run("io.write({})"), Execution::Rejected(e) if e.contains("bad argument")));
    // A loop that catches the budget's error still ends.
    let stubborn = "while true do pcall(function() while true do end end) end";
    assert_eq!(in_process::run(stubborn), Execution::Timeout);
    assert!(matches!(
        in_process::run("local t = {} for i = 1, 1e9 do t[i] = string.rep('x', 1000) .. i end"),
        Execution::Rejected(e) if e.contains("memory")
    ));
}
