//! `xsmith-calc`: generates calc programs that run in python3 and node.

/// mimalloc: generation allocates and frees many small objects (types,
/// candidate lists, documents), which it serves in a fraction of the
/// instructions the system allocator takes.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    xsmith::cli::main(&xsmith_calc::FUZZER)
}
