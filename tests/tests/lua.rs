//! The Lua fuzzer against real implementations: 300 programs at the default
//! size run on lua5.1, lua5.4 and luajit with no rejection, no runtime
//! error, no timeout and no disagreement, and every canned production
//! appears in at least a tenth of them.

use xsmith_tests::conformance::CannedFuzzer;

/// The fuzzer, run on its own implementations (`xsmith_lua::IMPLEMENTATIONS`).
fn lua() -> CannedFuzzer<'static> {
    CannedFuzzer {
        fuzzer: &xsmith_lua::FUZZER,
        options: xsmith_lua::options(),
    }
}

#[test]
fn programs_agree_on_lua51_lua54_and_luajit() {
    lua().check_programs_agree(300);
}

#[test]
fn the_same_seed_gives_the_same_bytes() {
    lua().check_same_seed_same_bytes();
}

/// Issue 14: at these depths and seeds a record type came to contain itself
/// (`type variable ?181 would contain itself`).
#[test]
fn seeds_whose_record_type_once_contained_itself_agree() {
    lua().check_seeds_agree(&[(8, 2080079), (9, 92332110289)]);
}

/// Issue 16: programs steered towards new 2-paths (`--cover 2`) conform too.
#[test]
fn steered_programs_agree() {
    let covered =
        xsmith_tests::conformance::assert_steered_programs_agree(&xsmith_lua::FUZZER, &Default::default(), 2, 300, &[]);
    assert!(covered > 1000, "{covered} k-paths");
}

/// Issue 16: a concise corpus's programs conform too.
#[test]
fn corpus_programs_agree() {
    let (programs, covered) = xsmith_tests::conformance::assert_corpus_programs_agree(
        &xsmith_lua::FUZZER,
        std::time::Duration::from_secs(10),
    );
    assert!(
        programs > 50 && covered > 1000,
        "{programs} programs, {covered} k-paths"
    );
}

/// Issue 34, items 2 and 3: Lua's own hot productions (polymorphic calls,
/// `for` with steps, upvalues, metatables, `pcall`, `string` functions) are
/// each in at least a tenth of 200 default programs and together in most;
/// those programs, and 100 `--swarm` ones, agree on lua5.1, lua5.4 and
/// LuaJIT.
#[test]
fn own_hot_productions_are_common_and_agree() {
    let own = [
        "PolyCall",
        "StepFor",
        "Upvalues",
        "MetaOps",
        "PcallLoop",
        "StrSub",
        "StrByte",
        "StrFind",
        "StrCase",
        "StrRep",
        "StrFormat",
    ];
    xsmith_tests::conformance::assert_own_productions_common_and_agree(&xsmith_lua::FUZZER, &own);
}
