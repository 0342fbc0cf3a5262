//! `xsmith-scheme`: generates Scheme programs that run alike on Racket, Guile, Chez Scheme and CHICKEN.

/// mimalloc: generation allocates and frees many small objects (types,
/// candidate lists, documents), which it serves in a fraction of the
/// instructions the system allocator takes.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    xsmith::cli::main_with_known_bugs(&xsmith_scheme::FUZZER, xsmith_scheme::KNOWN_BUGS)
}
