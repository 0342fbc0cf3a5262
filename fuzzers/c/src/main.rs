//! `xsmith-c`: generates C99 programs free of undefined behaviour, and runs
//! them on gcc, clang and tcc (`diff`). `diff` counts the findings of the
//! known bugs in `known-bugs` as known.

/// mimalloc: generation allocates and frees many small objects (types,
/// candidate lists, documents), which it serves in a fraction of the
/// instructions the system allocator takes.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    xsmith::cli::main_with_known_bugs(&xsmith_c::FUZZER, include_str!("../known-bugs"))
}
