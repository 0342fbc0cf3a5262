//! xsmith-wasm beside wasm-smith: modules generated per second, and the
//! share of modules that run to completion without a trap on wasmtime.
//!
//! wasm-smith runs with its default `Config`, driven by an
//! `arbitrary::Unstructured` over `SMITH_BYTES` random bytes (the size of a
//! typical libFuzzer input). Its modules may import anything and export any
//! functions, so "runs to completion" means: imports are given default
//! values, the module instantiates (its start function included), and every
//! exported function, called with zero arguments, returns within wasmtime's
//! fuel. xsmith-wasm modules run as the campaign runs them (`main`, then
//! `checksum`).
//!
//! The trap shares and mean module sizes are printed before the timings.

use std::hint::black_box;

use arbitrary::Unstructured;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use xsmith::{Generator, Options, Random, Source};
use xsmith_wasm::engines::{self, Execution};
use xsmith_wasm::FUZZER;

const SMITH_BYTES: usize = 4096;
const SAMPLE: u64 = 300;

fn random_bytes(seed: u64) -> Vec<u8> {
    let mut random = Random::from_seed(seed);
    (0..SMITH_BYTES / 8)
        .flat_map(|_| random.next_u64().to_le_bytes())
        .collect()
}

fn smith(seed: u64) -> Option<Vec<u8>> {
    let bytes = random_bytes(seed);
    let module = wasm_smith::Module::new(wasm_smith::Config::default(), &mut Unstructured::new(&bytes)).ok()?;
    Some(module.to_bytes())
}

/// How a wasm-smith module fares on wasmtime: `None` if wasmtime cannot
/// compile it (a feature it lacks in this build), else whether it ran to
/// completion.
fn smith_completes(binary: &[u8]) -> Option<bool> {
    use wasmtime::{Config, Engine, Linker, Module, Store, Val};
    let mut config = Config::new();
    config.consume_fuel(true);
    let engine = Engine::new(&config).ok()?;
    let module = Module::new(&engine, binary).ok()?;
    let mut store = Store::new(&engine, ());
    store.set_fuel(engines::FUEL).ok()?;
    let mut linker = Linker::new(&engine);
    if linker
        .define_unknown_imports_as_default_values(&mut store, &module)
        .is_err()
    {
        return Some(false);
    }
    let Ok(instance) = linker.instantiate(&mut store, &module) else {
        return Some(false);
    };
    let functions: Vec<_> = module
        .exports()
        .filter(|e| e.ty().func().is_some())
        .map(|e| e.name().to_string())
        .collect();
    for name in functions {
        let func = instance.get_func(&mut store, &name).expect("an exported function");
        let ty = func.ty(&store);
        let params: Option<Vec<Val>> = ty.params().map(|p| Val::default_for_ty(&p)).collect();
        let Some(params) = params else { return Some(false) };
        let mut results: Vec<Val> = ty.results().map(|_| Val::I32(0)).collect();
        if func.call(&mut store, &params, &mut results).is_err() {
            return Some(false);
        }
    }
    Some(true)
}

fn report() {
    let spec = (FUZZER.spec)().expect("the spec assembles");
    let mut generator = Generator::new(&spec, Options::default()).expect("default options");
    let (mut ours_ok, mut ours_bytes) = (0, 0);
    for seed in 0..SAMPLE {
        let program = FUZZER
            .program(&spec, &mut generator, Source::Seed(seed))
            .expect("generates");
        ours_bytes += engines::assemble(&program.text).map_or(0, |b| b.len());
        ours_ok += u64::from(matches!(engines::run_wasmtime(&program.text), Execution::Output(_)));
    }
    let (mut smith_ok, mut smith_uncompiled, mut smith_bytes, mut smith_made) = (0, 0, 0, 0);
    for seed in 0..SAMPLE {
        let Some(binary) = smith(seed) else { continue };
        smith_made += 1;
        smith_bytes += binary.len();
        match smith_completes(&binary) {
            Some(true) => smith_ok += 1,
            Some(false) => {}
            None => smith_uncompiled += 1,
        }
    }
    println!(
        "xsmith-wasm: {ours_ok}/{SAMPLE} modules ({:.1}%) run without a trap on wasmtime; mean binary size {} bytes",
        100.0 * ours_ok as f64 / SAMPLE as f64,
        ours_bytes / SAMPLE as usize
    );
    println!(
        "wasm-smith (default Config, {SMITH_BYTES} random bytes): {smith_ok}/{smith_made} modules ({:.1}%) run without \
         a trap on wasmtime ({smith_uncompiled} not compiled: features this wasmtime build lacks); mean size {} bytes",
        100.0 * smith_ok as f64 / smith_made.max(1) as f64,
        smith_bytes / smith_made.max(1) as usize
    );
}

fn bench(c: &mut Criterion) {
    report();
    let spec = (FUZZER.spec)().expect("the spec assembles");
    let mut group = c.benchmark_group("modules");
    group.throughput(Throughput::Elements(1));
    let mut seed = 0;
    group.bench_function("xsmith-wasm text", |b| {
        let mut generator = Generator::new(&spec, Options::default()).expect("default options");
        b.iter(|| {
            seed += 1;
            black_box(
                FUZZER
                    .program(&spec, &mut generator, Source::Seed(seed))
                    .expect("generates")
                    .text,
            )
        })
    });
    group.bench_function("xsmith-wasm text + assemble", |b| {
        let mut generator = Generator::new(&spec, Options::default()).expect("default options");
        b.iter(|| {
            seed += 1;
            let text = FUZZER
                .program(&spec, &mut generator, Source::Seed(seed))
                .expect("generates")
                .text;
            black_box(wat::parse_str(&text).expect("assembles"))
        })
    });
    let inputs: Vec<Vec<u8>> = (0..64).map(random_bytes).collect();
    let mut i = 0;
    group.bench_function("wasm-smith binary", |b| {
        b.iter(|| {
            i += 1;
            let mut u = Unstructured::new(&inputs[i % inputs.len()]);
            black_box(wasm_smith::Module::new(wasm_smith::Config::default(), &mut u).map(|m| m.to_bytes()))
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
