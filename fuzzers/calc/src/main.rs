//! `xsmith-calc`: generates calc programs that run in python3 and node.

fn main() -> std::process::ExitCode {
    xsmith::cli::main(&xsmith_calc::FUZZER)
}
