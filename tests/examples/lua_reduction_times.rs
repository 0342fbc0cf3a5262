//! How long reduction takes (issue 26): findings of a planted Lua bug,
//! each reduced on `lua5.4` and a planted `lua5.4` that prints one line
//! more when the program has a `repeat` loop (about half the programs do;
//! see `xsmith_tests::reduction_times`). Needs `lua5.4`.
//!
//! `cargo run --release -p xsmith-tests --example lua_reduction_times -- [COUNT [FIRST [JOBS]]]`
//! (defaults: 10, 0, 1).

fn main() {
    use xsmith_tests::reduction_times::{measure, planted_lua, LUA_TRIGGER};
    measure(&xsmith_lua::FUZZER, planted_lua(), LUA_TRIGGER);
}
