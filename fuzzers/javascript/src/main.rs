//! `xsmith-javascript`: generates JavaScript (ES5) programs that run alike on node and duk.

fn main() -> std::process::ExitCode {
    xsmith::cli::main(&xsmith_javascript::FUZZER)
}
