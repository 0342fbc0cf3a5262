//! How long reduction takes (issue 26), measured the same way for every
//! fuzzer: the first `COUNT` default-size programs from seed `FIRST` on
//! whose text holds a planted bug's trigger, each reduced on the given
//! implementations (one of them with the planted bug) with the default
//! time budget of 300 s and `JOBS` jobs; a table row per finding, then the
//! median time. The examples `fuzzers/wasm/examples/reduction_times.rs`
//! and `tests/examples/lua_reduction_times.rs` plant the bugs.

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::Duration;

use xsmith::reduce::{Case, Reducer};
use xsmith::{Execution, Fuzzer, Generator, Implementation, Limits, Source, Verdict};

/// What the planted Lua bug reacts to.
pub const LUA_TRIGGER: &str = "repeat";

/// `lua5.4` and a planted `lua5.4` that prints one line more when the
/// program has a `repeat` loop (about half the Lua programs do): the
/// implementations of a Lua finding whose bug is known.
///
/// ```
/// assert_eq!(xsmith_tests::reduction_times::planted_lua().len(), 2);
/// ```
pub fn planted_lua() -> Vec<Implementation> {
    vec![
        xsmith_lua::IMPLEMENTATIONS[1],
        Implementation::InProcess {
            name: "planted",
            run: lua_with_a_planted_bug,
        },
    ]
}

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
    if program.contains(LUA_TRIGGER) {
        out.push_str("planted\n");
    }
    Execution::Output(out)
}

/// Prints the reduction times of `fuzzer`'s programs that hold `trigger`
/// on `implementations`, for the `[COUNT [FIRST [JOBS]]]` of the command
/// line (by default 10 findings from seed 0, one job).
pub fn measure(fuzzer: &Fuzzer, implementations: Vec<Implementation>, trigger: &str) {
    let mut args = std::env::args().skip(1);
    let count: usize = args.next().map_or(10, |a| a.parse().expect("COUNT is a number"));
    let first: u64 = args.next().map_or(0, |a| a.parse().expect("FIRST is a number"));
    let jobs: usize = args.next().map_or(1, |a| a.parse().expect("JOBS is a number"));
    let case = Case {
        fuzzer,
        options: Default::default(),
        implementations,
        limits: Limits::default(),
    };
    let reducer = Reducer::new(case, jobs, Duration::from_secs(300)).expect("the fuzzer's spec assembles");
    let spec = (fuzzer.spec)().expect("the fuzzer's spec assembles");
    let mut generator = Generator::new(&spec, Default::default()).expect("default options suit it");
    println!("| seed | bytes before | bytes after | nodes after | tests | seconds |");
    println!("|---:|---:|---:|---:|---:|---:|");
    let mut times = Vec::new();
    for seed in first.. {
        if times.len() == count {
            break;
        }
        // The planted bug shows where the program holds the trigger (and
        // runs to its end), which its text tells without running it.
        let program = fuzzer
            .program(&spec, &mut generator, Source::Seed(seed))
            .expect("a program generates");
        if !program.text.contains(trigger) {
            continue;
        }
        let reduced = match reducer.reduce(Source::Seed(seed), Some(Verdict::Differ), &mut |_| {}) {
            Ok(reduced) => reduced,
            Err(e) => {
                eprintln!("seed {seed}: {e}");
                continue;
            }
        };
        let seconds = reduced.elapsed.as_secs_f64();
        println!(
            "| {seed} | {} | {} | {} | {} | {seconds:.1} |",
            reduced.original.text.len(),
            reduced.reduced.text.len(),
            reduced.reduced.nodes,
            reduced.tests
        );
        times.push(seconds);
    }
    times.sort_by(f64::total_cmp);
    let median = match times.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => times[n / 2],
        n => (times[n / 2 - 1] + times[n / 2]) / 2.0,
    };
    println!("median: {median:.1} s over {} findings", times.len());
}
