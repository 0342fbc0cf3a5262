//! Runs module files (text format) on every engine and prints what each
//! printed: `cargo run -p xsmith-wasm --example run -- FILE...`.

use xsmith_wasm::engines;

fn main() -> std::process::ExitCode {
    let mut status = std::process::ExitCode::SUCCESS;
    for path in std::env::args().skip(1) {
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) => {
                eprintln!("{path}: {e}");
                status = std::process::ExitCode::FAILURE;
                continue;
            }
        };
        let runs = [
            ("wasmtime", engines::run_wasmtime(&text)),
            ("wasmi", engines::run_wasmi(&text)),
            ("wasm-interp", engines::run_wasm_interp(&text)),
        ];
        let agree = runs.iter().all(|(_, r)| r == &runs[0].1);
        println!("{path}: {}", if agree { "all agree" } else { "DIFFERENT" });
        for (name, run) in runs {
            println!("  {name}: {run:?}");
        }
    }
    status
}
