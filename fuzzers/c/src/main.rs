//! `xsmith-c`: generates C99 programs free of undefined behaviour, and runs
//! them on gcc, clang and tcc (`diff`).

fn main() -> std::process::ExitCode {
    xsmith::cli::main(&xsmith_c::FUZZER)
}
