//! `xsmith-sml`: generates Standard ML programs that run alike on SML/NJ and Poly/ML.

fn main() -> std::process::ExitCode {
    xsmith::cli::main(&xsmith_sml::FUZZER)
}
