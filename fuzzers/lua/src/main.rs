//! `xsmith-lua`: generates Lua programs that run alike on lua5.1, lua5.4 and luajit.

fn main() -> std::process::ExitCode {
    xsmith::cli::main(&xsmith_lua::FUZZER)
}
