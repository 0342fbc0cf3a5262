//! `xsmith-wasm`: generates WebAssembly modules (text format) that run alike
//! on wasmtime, wasmi and wasm-interp.

fn main() -> std::process::ExitCode {
    xsmith::cli::main(&xsmith_wasm::FUZZER)
}
