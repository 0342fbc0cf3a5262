//! wasm-smith's modules on wasmtime and wasmi: the peer of `xsmith-wasm`
//! in the coverage measurement (README, "Coverage-guided generation").
//!
//! wasm-smith makes a module from libFuzzer's bytes under a configuration
//! both engines support and that never traps (`disallow_traps`; no
//! reference types, which this wasmtime build lacks; NaNs canonicalised,
//! one memory of at most 16 pages, no imports). Each engine
//! instantiates it and calls every exported function in order, with zero
//! arguments, under fuel; the two must return the same values. A run that
//! exhausts its fuel or the stack on either engine is not compared (fuel
//! is counted differently by the two, and wasm-smith's modules may recurse
//! without bound).

use arbitrary::Unstructured;

/// The configuration of the measurement: what wasmtime's and this wasmi
/// build both run, and no traps.
pub fn config() -> wasm_smith::Config {
    wasm_smith::Config {
        disallow_traps: true,
        canonicalize_nans: true,
        max_imports: 0,
        max_memories: 1,
        max_memory32_bytes: 16 * 65536,
        max_tables: 1,
        export_everything: true,
        simd_enabled: false,
        relaxed_simd_enabled: false,
        threads_enabled: false,
        gc_enabled: false,
        // This wasmtime build has no `gc` feature, which reference types need.
        reference_types_enabled: false,
        exceptions_enabled: false,
        memory64_enabled: false,
        tail_call_enabled: false,
        custom_page_sizes_enabled: false,
        wide_arithmetic_enabled: false,
        extended_const_enabled: false,
        ..wasm_smith::Config::default()
    }
}

/// The binary module wasm-smith makes of `bytes` (none if the bytes run
/// out before it is made).
pub fn module(bytes: &[u8]) -> Option<Vec<u8>> {
    let module = wasm_smith::Module::new(config(), &mut Unstructured::new(bytes)).ok()?;
    Some(module.to_bytes())
}

/// What one engine made of a module: each exported function's results,
/// as text, or `None` if the run was cut short (fuel, stack); an error if
/// the engine does not compile the module.
pub type Results = Result<Option<Vec<String>>, String>;

/// The module's export names, in the order of its export section: both
/// engines call the exported functions in this order (wasmi's own list of
/// exports has another).
pub fn export_names(binary: &[u8]) -> Vec<String> {
    let mut names = Vec::new();
    for payload in wasmparser::Parser::new(0).parse_all(binary) {
        if let Ok(wasmparser::Payload::ExportSection(exports)) = payload {
            names.extend(exports.into_iter().flatten().map(|e| e.name.to_string()));
        }
    }
    names
}

/// Runs the module on wasmtime, calling the exported functions `names`.
pub fn run_wasmtime(binary: &[u8], names: &[String]) -> Results {
    use wasmtime::{Config, Engine, Instance, Module, Store, Val};
    let mut config = Config::new();
    config.consume_fuel(true);
    let engine = Engine::new(&config).map_err(|e| format!("wasmtime: {e}"))?;
    let module = Module::new(&engine, binary).map_err(|e| format!("wasmtime: {e:?}"))?;
    let mut store = Store::new(&engine, ());
    store
        .set_fuel(xsmith_wasm::engines::FUEL)
        .map_err(|e| format!("wasmtime: {e}"))?;
    let Ok(instance) = Instance::new(&mut store, &module, &[]) else {
        return Ok(None);
    };
    let mut results = Vec::new();
    for name in names {
        let Some(func) = instance.get_func(&mut store, name) else {
            continue;
        };
        let ty = func.ty(&store);
        let params: Option<Vec<Val>> = ty.params().map(|p| Val::default_for_ty(&p)).collect();
        let Some(params) = params else { return Ok(None) };
        let mut out: Vec<Val> = ty.results().map(|_| Val::I32(0)).collect();
        if func.call(&mut store, &params, &mut out).is_err() {
            return Ok(None);
        }
        results.push(format!(
            "{name}: {}",
            out.iter().map(show_wasmtime).collect::<Vec<_>>().join(" ")
        ));
    }
    Ok(Some(results))
}

fn show_wasmtime(value: &wasmtime::Val) -> String {
    use wasmtime::Val;
    match value {
        Val::I32(v) => format!("i32:{v}"),
        Val::I64(v) => format!("i64:{v}"),
        Val::F32(bits) => format!("f32:{bits:#x}"),
        Val::F64(bits) => format!("f64:{bits:#x}"),
        Val::FuncRef(f) => format!("funcref:{}", if f.is_some() { "some" } else { "null" }),
        Val::ExternRef(r) => format!("externref:{}", if r.is_some() { "some" } else { "null" }),
        other => format!("{other:?}"),
    }
}

/// Runs the module on wasmi, calling the exported functions `names`.
pub fn run_wasmi(binary: &[u8], names: &[String]) -> Results {
    use wasmi::{Config, Engine, Linker, Module, Store, Val};
    let mut config = Config::default();
    config.consume_fuel(true);
    let engine = Engine::new(&config);
    let module = Module::new(&engine, binary).map_err(|e| format!("wasmi: {e}"))?;
    let mut store = Store::new(&engine, ());
    store
        .set_fuel(xsmith_wasm::engines::FUEL)
        .map_err(|e| format!("wasmi: {e}"))?;
    let Ok(instance) = Linker::<()>::new(&engine).instantiate_and_start(&mut store, &module) else {
        return Ok(None);
    };
    let mut results = Vec::new();
    for name in names {
        let Some(func) = instance.get_func(&store, name) else {
            continue;
        };
        let ty = func.ty(&store);
        let params: Vec<Val> = ty.params().iter().map(|p| Val::default_for_ty(*p)).collect();
        let mut out: Vec<Val> = ty.results().iter().map(|p| Val::default_for_ty(*p)).collect();
        if func.call(&mut store, &params, &mut out).is_err() {
            return Ok(None);
        }
        results.push(format!(
            "{name}: {}",
            out.iter().map(show_wasmi).collect::<Vec<_>>().join(" ")
        ));
    }
    Ok(Some(results))
}

fn show_wasmi(value: &wasmi::Val) -> String {
    use wasmi::Val;
    match value {
        Val::I32(v) => format!("i32:{v}"),
        Val::I64(v) => format!("i64:{v}"),
        Val::F32(v) => format!("f32:{:#x}", v.to_bits()),
        Val::F64(v) => format!("f64:{:#x}", v.to_bits()),
        Val::FuncRef(f) => format!("funcref:{}", if f.is_null() { "null" } else { "some" }),
        Val::ExternRef(r) => format!("externref:{}", if r.is_null() { "null" } else { "some" }),
        other => format!("{other:?}"),
    }
}

/// Runs wasm-smith's module of `bytes` on both engines and panics if one
/// compiles it and the other does not, or both finish and their results
/// differ.
pub fn agree(bytes: &[u8]) {
    let Some(binary) = module(bytes) else { return };
    let names = export_names(&binary);
    match (run_wasmtime(&binary, &names), run_wasmi(&binary, &names)) {
        (Ok(Some(wasmtime)), Ok(Some(wasmi))) => assert_eq!(wasmtime, wasmi, "wasm-smith: wasmtime and wasmi differ"),
        (Ok(_), Ok(_)) | (Err(_), Err(_)) => {}
        (wasmtime, wasmi) => panic!("wasm-smith: one engine rejects the module: {wasmtime:?} {wasmi:?}"),
    }
}
