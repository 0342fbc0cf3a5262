//! The guide: how to write a fuzzer with xsmith, run its campaigns, and
//! plug it into what you already run. One page a topic; every Rust example
//! on these pages is a doctest (`cargo test -p xsmith --doc`), so none can
//! drift from the API.
//!
//! The pages are Markdown files beside this module
//! (`xsmith-rs/src/guide/*.md`), readable in the repository as they are
//! here. Read them in this order:
//!
//! 1. [`writing_a_fuzzer`]: a spec with `component!`, the `Fuzzer` value,
//!    render functions, typed views of productions.
//! 2. [`canned`]: the productions most languages share, and the `Syntax`
//!    trait a language implements to use them.
//! 3. [`types`]: typed specs and the type engine.
//! 4. [`names_and_effects`]: scopes, binders, references, lifting, effects;
//!    a program as its choice sequence.
//! 5. [`command_line`]: generation, `diff`, `reduce`, `findings` (merging
//!    shards, the HTML report), `coverage`, `corpus`, `guided`.
//! 6. [`scaling_out`]: the generation server, shards on a cluster, OSS-Fuzz
//!    and ClusterFuzzLite.
//! 7. [`libfuzzer`]: the libFuzzer targets and what coverage guidance
//!    measured.
//! 8. [`fuzzers`]: the WebAssembly and C fuzzers, and the speed of each.
//!
//! `ARCHITECTURE.md` at the repository's root maps the code: the crates, the
//! modules in the order data flows through them, and where to change what.

pub mod writing_a_fuzzer {
    #![doc = include_str!("writing-a-fuzzer.md")]
}

pub mod canned {
    #![doc = include_str!("canned.md")]
}

pub mod types {
    #![doc = include_str!("types.md")]
}

pub mod names_and_effects {
    #![doc = include_str!("names-and-effects.md")]
}

pub mod command_line {
    #![doc = include_str!("command-line.md")]
}

pub mod scaling_out {
    #![doc = include_str!("scaling-out.md")]
}

pub mod libfuzzer {
    #![doc = include_str!("libfuzzer.md")]
}

pub mod fuzzers {
    #![doc = include_str!("fuzzers.md")]
}
