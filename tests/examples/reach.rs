//! Reach (issue 34): `cargo run --release -p xsmith-tests --example reach
//! -- FUZZER COUNT` generates COUNT default programs (seeds 0 to COUNT - 1)
//! of `javascript`, `lua`, `python` or `c` and prints, for each optimizing
//! tier the implementations report (see `xsmith_tests::reach`), how many
//! of them reached it.

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: reach FUZZER COUNT (FUZZER: javascript, lua, python, c)";
    let name = args.first().map(String::as_str).unwrap_or("");
    let fuzzer = match name {
        "lua" => &xsmith_lua::FUZZER,
        "javascript" => &xsmith_javascript::FUZZER,
        "python" => &xsmith_python::FUZZER,
        "c" => &xsmith_c::FUZZER,
        _ => {
            eprintln!("{usage}");
            std::process::exit(2);
        }
    };
    let probes = xsmith_tests::reach::probes(name).expect("a fuzzer with probes");
    let Some(count) = args.get(1).and_then(|c| c.parse::<u64>().ok()) else {
        eprintln!("{usage}");
        std::process::exit(2);
    };
    let hits = xsmith_tests::reach::measure(fuzzer, &probes, count);
    println!("| fuzzer | tier | programs that reach it |");
    println!("|---|---|---|");
    for (probe, hit) in probes.iter().zip(hits) {
        let share = 100.0 * hit as f64 / count.max(1) as f64;
        println!(
            "| {} | {} (`{}`) | {hit} / {count} ({share:.0}%) |",
            fuzzer.name, probe.name, probe.command
        );
    }
}
