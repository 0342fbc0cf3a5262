//! Running a module: assembling its text with `wat`, validating it with
//! `wasmparser`, and executing it in-process on wasmtime and wasmi, or on
//! `wasm-interp` (Debian's `wabt`) as a separate process.
//!
//! Every engine reports the same text for a run that finishes, the format
//! `wasm-interp --run-all-exports` prints, so that one needs no
//! normalisation:
//!
//! ```text
//! main() => i64:<value as u64>
//! checksum() => i64:<value as u64>
//! ```
//!
//! A run is limited by fuel (wasmtime, wasmi) or by [`TIMEOUT`]
//! (wasm-interp); running out is [`Execution::Timeout`].

use std::io::Read;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

pub use xsmith::Execution;

/// Instructions' worth of fuel a run gets on wasmtime and wasmi.
pub const FUEL: u64 = 50_000_000;

/// How long `wasm-interp` may run.
pub const TIMEOUT: Duration = Duration::from_secs(20);

/// The binary module of a text one, validated (by `wasmparser`, with the
/// features of WebAssembly 2.0 that wasmtime enables by default).
///
/// ```
/// let binary = xsmith_wasm::engines::assemble("(module)").unwrap();
/// assert_eq!(&binary[..4], b"\0asm");
/// assert!(xsmith_wasm::engines::assemble("(module (func (result i32)))").is_err());
/// ```
pub fn assemble(program: &str) -> Result<Vec<u8>, String> {
    let binary = wat::parse_str(program).map_err(|e| format!("not a module: {e}"))?;
    wasmparser::Validator::new()
        .validate_all(&binary)
        .map_err(|e| format!("invalid module: {e}"))?;
    Ok(binary)
}

/// The output text of a finished run.
fn output(main: i64, checksum: i64) -> String {
    format!("main() => i64:{}\nchecksum() => i64:{}\n", main as u64, checksum as u64)
}

/// Runs `main` then `checksum` on wasmtime (Cranelift), with [`FUEL`].
///
/// ```
/// use xsmith_wasm::engines::{run_wasmtime, Execution};
/// let m = r#"(module (func (export "main") (result i64) (i64.const -1))
///                    (func (export "checksum") (result i64) (i64.const 2)))"#;
/// assert_eq!(run_wasmtime(m), Execution::Output("main() => i64:18446744073709551615\nchecksum() => i64:2\n".into()));
/// assert!(matches!(run_wasmtime("(module"), Execution::Rejected(_)));
/// ```
pub fn run_wasmtime(program: &str) -> Execution {
    use wasmtime::{Config, Engine, Instance, Module, Store, Trap};
    static ENGINE: OnceLock<Result<Engine, String>> = OnceLock::new();
    let engine = ENGINE.get_or_init(|| {
        let mut config = Config::new();
        config.consume_fuel(true);
        Engine::new(&config).map_err(|e| e.to_string())
    });
    let engine = match engine {
        Ok(engine) => engine,
        Err(e) => return Execution::Crashed(format!("wasmtime: {e}")),
    };
    let binary = match assemble(program) {
        Ok(binary) => binary,
        Err(e) => return Execution::Rejected(e),
    };
    let module = match Module::new(engine, &binary) {
        Ok(module) => module,
        Err(e) => return Execution::Rejected(format!("wasmtime: {e:?}")),
    };
    let mut store = Store::new(engine, ());
    let trapped = |e: wasmtime::Error| match e.downcast_ref::<Trap>() {
        Some(Trap::OutOfFuel) => Execution::Timeout,
        _ => Execution::Rejected(format!("wasmtime: {e:?}")),
    };
    if let Err(e) = store.set_fuel(FUEL) {
        return Execution::Crashed(format!("wasmtime: {e}"));
    }
    let run = |store: &mut Store<()>| -> Result<(i64, i64), wasmtime::Error> {
        let instance = Instance::new(&mut *store, &module, &[])?;
        let main = instance.get_typed_func::<(), i64>(&mut *store, "main")?;
        let checksum = instance.get_typed_func::<(), i64>(&mut *store, "checksum")?;
        Ok((main.call(&mut *store, ())?, checksum.call(&mut *store, ())?))
    };
    match run(&mut store) {
        Ok((main, checksum)) => Execution::Output(output(main, checksum)),
        Err(e) => trapped(e),
    }
}

/// Runs `main` then `checksum` on wasmi (an interpreter), with [`FUEL`].
///
/// ```
/// use xsmith_wasm::engines::{run_wasmi, Execution};
/// let m = r#"(module (func (export "main") (result i64) (i64.const 1))
///                    (func (export "checksum") (result i64) (loop $l (br $l)) (i64.const 0)))"#;
/// assert_eq!(run_wasmi(m), Execution::Timeout);
/// ```
pub fn run_wasmi(program: &str) -> Execution {
    use wasmi::{Config, Engine, Linker, Module, Store, TrapCode};
    static ENGINE: OnceLock<Engine> = OnceLock::new();
    let engine = ENGINE.get_or_init(|| {
        let mut config = Config::default();
        config.consume_fuel(true);
        Engine::new(&config)
    });
    let binary = match assemble(program) {
        Ok(binary) => binary,
        Err(e) => return Execution::Rejected(e),
    };
    let module = match Module::new(engine, &binary) {
        Ok(module) => module,
        Err(e) => return Execution::Rejected(format!("wasmi: {e}")),
    };
    let mut store = Store::new(engine, ());
    if let Err(e) = store.set_fuel(FUEL) {
        return Execution::Crashed(format!("wasmi: {e}"));
    }
    let run = |store: &mut Store<()>| -> Result<(i64, i64), wasmi::Error> {
        let instance = Linker::<()>::new(engine).instantiate_and_start(&mut *store, &module)?;
        let main = instance.get_typed_func::<(), i64>(&*store, "main")?;
        let checksum = instance.get_typed_func::<(), i64>(&*store, "checksum")?;
        Ok((main.call(&mut *store, ())?, checksum.call(&mut *store, ())?))
    };
    match run(&mut store) {
        Ok((main, checksum)) => Execution::Output(output(main, checksum)),
        Err(e) if e.as_trap_code() == Some(TrapCode::OutOfFuel) => Execution::Timeout,
        Err(e) => Execution::Rejected(format!("wasmi: {e}")),
    }
}

/// Whether `wasm-interp` can be started.
///
/// ```
/// let _maybe = xsmith_wasm::engines::wasm_interp_installed();
/// ```
pub fn wasm_interp_installed() -> bool {
    Command::new("wasm-interp")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Runs all exports (`main`, then `checksum`) on `wasm-interp`, from a
/// binary assembled here, within [`TIMEOUT`]. A trap prints
/// `name() => error: ...`, which is a rejection.
///
/// ```
/// use xsmith_wasm::engines::{run_wasm_interp, wasm_interp_installed, Execution};
/// let m = r#"(module (func (export "main") (result i64) (i64.const 3))
///                    (func (export "checksum") (result i64) (unreachable)))"#;
/// if wasm_interp_installed() {
///     assert!(matches!(run_wasm_interp(m), Execution::Rejected(_)));
/// }
/// ```
pub fn run_wasm_interp(program: &str) -> Execution {
    let binary = match assemble(program) {
        Ok(binary) => binary,
        Err(e) => return Execution::Rejected(e),
    };
    static RUNS: AtomicU64 = AtomicU64::new(0);
    let run = RUNS.fetch_add(1, Ordering::Relaxed);
    let path = std::env::temp_dir().join(format!("xsmith-wasm-{}-{run}.wasm", std::process::id()));
    if let Err(e) = std::fs::write(&path, &binary) {
        return Execution::Crashed(format!("wasm-interp: cannot write {}: {e}", path.display()));
    }
    let result = run_command(Command::new("wasm-interp").arg("--run-all-exports").arg(&path));
    let _ = std::fs::remove_file(&path);
    match result {
        Ok(Some((true, out))) if out.contains("=> error") => Execution::Rejected(format!("wasm-interp: {out}")),
        Ok(Some((true, out))) => Execution::Output(out),
        Ok(Some((false, out))) => Execution::Crashed(format!("wasm-interp: {out}")),
        Ok(None) => Execution::Timeout,
        Err(e) => Execution::Crashed(format!("wasm-interp: {e} (install Debian's wabt)")),
    }
}

/// Runs a command to its end or [`TIMEOUT`] (then kills it: `None`); gives
/// whether it exited with success, and its standard output followed by its
/// standard error.
fn run_command(command: &mut Command) -> std::io::Result<Option<(bool, String)>> {
    let mut child = command.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn()?;
    let read = |mut from: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut text = String::new();
            let _ = from.read_to_string(&mut text);
            text
        })
    };
    let stdout = read(Box::new(child.stdout.take().expect("piped")));
    let stderr = read(Box::new(child.stderr.take().expect("piped")));
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break Some(status);
        }
        if start.elapsed() > TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    let text = stdout.join().unwrap_or_default() + &stderr.join().unwrap_or_default();
    Ok(status.map(|s| (s.success(), text)))
}
