//! `xsmith-scheme`: generates Scheme programs that run alike on Racket, Guile, Chez Scheme and CHICKEN.

fn main() -> std::process::ExitCode {
    xsmith::cli::main_with_known_bugs(&xsmith_scheme::FUZZER, xsmith_scheme::KNOWN_BUGS)
}
