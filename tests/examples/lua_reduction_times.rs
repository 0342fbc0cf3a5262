//! How long reduction takes (issue 26): findings of a planted Lua bug,
//! each reduced on `lua5.4` and a planted `lua5.4` that prints one line
//! more when the program has a `repeat` loop (about half the programs do;
//! see `xsmith_tests::reduction_times`). Needs `lua5.4`.
//!
//! `cargo run --release -p xsmith-tests --example lua_reduction_times -- [COUNT [FIRST [JOBS]]]`
//! (defaults: 10, 0, 1).

use std::io::Write;
use std::process::{Command, Stdio};
use xsmith::{Execution, Implementation};

/// What the planted bug reacts to.
const TRIGGER: &str = "repeat";

/// `lua5.4` with a planted bug: a program with a `repeat` loop prints one
/// line more.
fn lua_with_a_planted_bug(program: &str) -> Execution {
    let child = Command::new("lua5.4")
        .arg("-")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    let mut child = match child {
        Ok(child) => child,
        Err(e) => return Execution::Crashed(format!("lua5.4: {e}")),
    };
    let written = child.stdin.take().expect("piped").write_all(program.as_bytes());
    let output = match (written, child.wait_with_output()) {
        (Ok(()), Ok(output)) => output,
        (Err(e), _) | (_, Err(e)) => return Execution::Crashed(format!("lua5.4: {e}")),
    };
    if !output.status.success() {
        return Execution::Rejected(String::from_utf8_lossy(&output.stderr).into_owned());
    }
    let mut out = String::from_utf8_lossy(&output.stdout).into_owned();
    if program.contains(TRIGGER) {
        out.push_str("planted\n");
    }
    Execution::Output(out)
}

fn main() {
    let implementations = vec![
        xsmith_lua::IMPLEMENTATIONS[1],
        Implementation::InProcess {
            name: "planted",
            run: lua_with_a_planted_bug,
        },
    ];
    xsmith_tests::reduction_times::measure(&xsmith_lua::FUZZER, implementations, TRIGGER);
}
