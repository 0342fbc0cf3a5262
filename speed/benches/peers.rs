//! The fuzzers beside their peers in one run, interleaved rounds, median
//! rates (see `xsmith_speed`): calc beside a hand-written generator of the
//! same grammar; Lua at 250, 1,000 and 2,500 nodes; JavaScript, Python and
//! C at the default size; `xsmith-wasm` (text generated and assembled)
//! beside wasm-smith's trap-free MVP and default configurations, in binary
//! bytes per second. Prints a Markdown table and the ratios the README's
//! "Speed" section gives.
//!
//! `cargo bench -p xsmith-speed` (5 rounds of 1 s per contender); `--
//! --rounds N --round-ms MS` to change them.

use std::time::Duration;

use xsmith::{Fuzzer, Generator, Options, Spec};
use xsmith_speed::wasm::{trap_free_mvp, SmithInputs};
use xsmith_speed::{by_hand, calc_options, race, sized, Contender, FuzzerBatch, Rates};

/// The allocator the fuzzers' binaries use (every contender runs on it).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Seeds per batch of a fuzzer's programs (the same seeds every batch, so
/// every round does the same work).
const SEEDS: std::ops::Range<u64> = 0..20;

/// The value after `flag` among the command-line arguments.
fn argument(flag: &str, default: u64) -> u64 {
    let arguments: Vec<String> = std::env::args().collect();
    (arguments.iter().position(|a| a == flag))
        .and_then(|i| arguments.get(i + 1))
        .map(|value| {
            value
                .parse()
                .unwrap_or_else(|_| panic!("{flag} takes a number, not {value}"))
        })
        .unwrap_or(default)
}

fn generator<'s>(spec: &'s Spec, options: Options) -> Generator<'s> {
    Generator::new(spec, options).expect("the options suit the spec")
}

fn spec(fuzzer: &Fuzzer) -> Spec {
    (fuzzer.spec)().expect("the spec assembles")
}

fn main() {
    let rounds = argument("--rounds", 5) as usize;
    let round_time = Duration::from_millis(argument("--round-ms", 1000));
    let (calc, lua, javascript, python, c, wasm) = (
        spec(&xsmith_calc::FUZZER),
        spec(&xsmith_lua::FUZZER),
        spec(&xsmith_javascript::FUZZER),
        spec(&xsmith_python::FUZZER),
        spec(&xsmith_c::FUZZER),
        spec(&xsmith_wasm::FUZZER),
    );
    let mut generators = [
        generator(&calc, calc_options(8)),
        generator(&calc, calc_options(12)),
        generator(&lua, sized(250)),
        generator(&lua, sized(1000)),
        generator(&lua, sized(2500)),
        generator(&javascript, Options::default()),
        generator(&python, Options::default()),
        generator(&c, Options::default()),
        generator(&wasm, Options::default()),
    ];
    let [calc8, calc12, lua250, lua1000, lua2500, js, py, c_gen, wasm_gen] = &mut generators;
    let smith_inputs = SmithInputs::new(SEEDS.end);
    let (mvp, default_config) = (trap_free_mvp(), wasm_smith::Config::default());
    let assembled = |text: &str| xsmith_wasm::engines::assemble(text).expect("a module assembles").len();
    let mut batches = [
        (
            "xsmith-calc, depth 8",
            FuzzerBatch::new(&xsmith_calc::FUZZER, &calc, calc8),
        ),
        (
            "xsmith-calc, depth 12",
            FuzzerBatch::new(&xsmith_calc::FUZZER, &calc, calc12),
        ),
        (
            "xsmith-lua, size 250",
            FuzzerBatch::new(&xsmith_lua::FUZZER, &lua, lua250),
        ),
        (
            "xsmith-lua, size 1000",
            FuzzerBatch::new(&xsmith_lua::FUZZER, &lua, lua1000),
        ),
        (
            "xsmith-lua, size 2500",
            FuzzerBatch::new(&xsmith_lua::FUZZER, &lua, lua2500),
        ),
        (
            "xsmith-javascript",
            FuzzerBatch::new(&xsmith_javascript::FUZZER, &javascript, js),
        ),
        ("xsmith-python", FuzzerBatch::new(&xsmith_python::FUZZER, &python, py)),
        ("xsmith-c", FuzzerBatch::new(&xsmith_c::FUZZER, &c, c_gen)),
    ];
    let mut wasm_batch = FuzzerBatch::new(&xsmith_wasm::FUZZER, &wasm, wasm_gen);
    let [calc8, calc12, rest @ ..] = &mut batches;
    let mut contenders = vec![
        Contender::new(calc8.0, || calc8.1.make(SEEDS)),
        Contender::new("calc by hand, depth 8", || by_hand::batch(8, SEEDS)),
        Contender::new(calc12.0, || calc12.1.make(SEEDS)),
        Contender::new("calc by hand, depth 12", || by_hand::batch(12, SEEDS)),
    ];
    for (name, batch) in rest {
        contenders.push(Contender::new(*name, || batch.make(SEEDS)));
    }
    contenders.push(Contender::new("xsmith-wasm (binary)", || {
        wasm_batch.make_with(SEEDS, assembled)
    }));
    contenders.push(Contender::new("wasm-smith, trap-free MVP", || smith_inputs.batch(&mvp)));
    contenders.push(Contender::new("wasm-smith, default", || {
        smith_inputs.batch(&default_config)
    }));
    eprintln!(
        "{} contenders, {rounds} rounds of {} ms each",
        contenders.len(),
        round_time.as_millis()
    );
    let rates = race(&mut contenders, rounds, round_time);
    print_table(&rates);
    print_ratios(&rates);
}

fn print_table(rates: &[Rates]) {
    println!("| generator | nodes/program | bytes/program | programs/s | M nodes/s | MB/s |");
    println!("|---|---:|---:|---:|---:|---:|");
    for r in rates {
        let nodes = match r.nodes_per_program {
            n if n > 0.0 => format!("{n:.0}"),
            _ => "-".to_string(),
        };
        let node_rate = match r.nodes_per_second {
            n if n > 0.0 => format!("{:.3}", n / 1e6),
            _ => "-".to_string(),
        };
        println!(
            "| {} | {nodes} | {:.0} | {:.0} | {node_rate} | {:.2} |",
            r.name,
            r.bytes_per_program,
            r.programs_per_second,
            r.bytes_per_second / 1e6
        );
    }
}

fn print_ratios(rates: &[Rates]) {
    let rate = |name: &str| {
        rates
            .iter()
            .find(|r| r.name == name)
            .unwrap_or_else(|| panic!("no contender {name}"))
    };
    for depth in [8, 12] {
        let (ours, hand) = (
            rate(&format!("xsmith-calc, depth {depth}")),
            rate(&format!("calc by hand, depth {depth}")),
        );
        println!(
            "calc, depth {depth}: the hand-written generator makes {:.1} times as many nodes per second",
            hand.nodes_per_second / ours.nodes_per_second
        );
    }
    let lua250 = rate("xsmith-lua, size 250").nodes_per_second;
    for size in [1000, 2500] {
        println!(
            "Lua: a node at size {size} costs {:.2} times a node at size 250",
            lua250 / rate(&format!("xsmith-lua, size {size}")).nodes_per_second
        );
    }
    let ours = rate("xsmith-wasm (binary)").bytes_per_second;
    for peer in ["wasm-smith, trap-free MVP", "wasm-smith, default"] {
        println!(
            "{peer} makes {:.1} times the binary bytes per second of xsmith-wasm",
            rate(peer).bytes_per_second / ours
        );
    }
}
