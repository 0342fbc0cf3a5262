//! One contender's batch, made once, for an instruction counter: the
//! benchmark's rates move with the machine's load, instruction counts do
//! not. Prints the programs, nodes and bytes made.
//!
//! ```text
//! cargo build --release -p xsmith-speed --example instructions
//! valgrind --tool=callgrind target/release/examples/instructions lua 250 50
//! ```
//!
//! The contenders: `calc DEPTH`, `by-hand DEPTH` (calc's grammar written
//! by hand), `lua SIZE`, `javascript SIZE`, `python SIZE`, `c SIZE`,
//! `wasm SIZE` (the text, not assembled), then the number of programs
//! (seeds from 0).

use xsmith::Fuzzer;
use xsmith_speed::{by_hand, calc_options, fuzzer_batch, sized, Work};

/// The allocator the fuzzers' binaries use (every contender runs on it).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn fuzzer(name: &str) -> Option<&'static Fuzzer> {
    Some(match name {
        "calc" => &xsmith_calc::FUZZER,
        "lua" => &xsmith_lua::FUZZER,
        "javascript" => &xsmith_javascript::FUZZER,
        "python" => &xsmith_python::FUZZER,
        "c" => &xsmith_c::FUZZER,
        "wasm" => &xsmith_wasm::FUZZER,
        _ => return None,
    })
}

fn main() -> Result<(), String> {
    let arguments: Vec<String> = std::env::args().skip(1).collect();
    let [name, bound, count] = &arguments[..] else {
        return Err("usage: instructions (calc|by-hand DEPTH | lua|javascript|python|c|wasm SIZE) PROGRAMS".into());
    };
    let number = |text: &str, what: &str| {
        text.parse::<u32>()
            .map_err(|_| format!("{what} is a number, not {text}"))
    };
    let (bound, seeds) = (
        number(bound, "the depth or size")?,
        0..u64::from(number(count, "PROGRAMS")?),
    );
    let work: Work = match name.as_str() {
        "by-hand" => by_hand::batch(bound, seeds),
        name => {
            let fuzzer = fuzzer(name).ok_or_else(|| format!("no contender named {name}"))?;
            let options = match name {
                "calc" => calc_options(bound),
                _ => sized(bound as usize),
            };
            fuzzer_batch(fuzzer, &options, seeds)
        }
    };
    println!("{} programs, {} nodes, {} bytes", work.programs, work.nodes, work.bytes);
    Ok(())
}
