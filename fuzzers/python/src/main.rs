//! `xsmith-python`: generates Python programs that run alike on python3 (CPython) and pypy3.

/// mimalloc: generation allocates and frees many small objects (types,
/// candidate lists, documents), which it serves in a fraction of the
/// instructions the system allocator takes.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    xsmith::cli::main(&xsmith_python::FUZZER)
}
