//! `xsmith-scheme`: generates Scheme programs that run alike on Racket, Guile, Chez Scheme and CHICKEN.

fn main() -> std::process::ExitCode {
    xsmith::cli::main(&xsmith_scheme::FUZZER)
}
