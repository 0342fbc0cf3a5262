//! `xsmith-python`: generates Python programs that run alike on python3 (CPython) and pypy3.

fn main() -> std::process::ExitCode {
    xsmith::cli::main(&xsmith_python::FUZZER)
}
