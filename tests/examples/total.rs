//! Generation at scale, for the numbers of a closing note: `cargo run
//! --release -p xsmith-tests --example total -- FUZZER COUNT [MAX_DEPTH]`
//! generates COUNT programs (seeds 0 to COUNT - 1) of `calc`, `lua`,
//! `javascript` or `python` at default options (or MAX_DEPTH), prints the
//! average and largest size in nodes, and fails listing every program that
//! could not be generated (see `xsmith_tests::total`).

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: total FUZZER COUNT [MAX_DEPTH] (FUZZER: calc, lua, javascript, python)";
    let fuzzer = match args.first().map(String::as_str) {
        Some("calc") => &xsmith_calc::FUZZER,
        Some("lua") => &xsmith_lua::FUZZER,
        Some("javascript") => &xsmith_javascript::FUZZER,
        Some("python") => &xsmith_python::FUZZER,
        _ => {
            eprintln!("{usage}");
            std::process::exit(2);
        }
    };
    let number = |i: usize| {
        args.get(i)
            .map(|a| a.parse::<u64>().unwrap_or_else(|_| panic!("{usage}")))
    };
    let count = number(1).unwrap_or_else(|| panic!("{usage}"));
    let depth = number(2).map(|d| u32::try_from(d).expect("a depth"));
    xsmith_tests::total::assert_generates(fuzzer, depth, 0..count);
}
