//! Coverage-guided generation (Zest) on LLVM's libFuzzer: libFuzzer mutates
//! byte strings, each byte string is a seed and a program's first choices
//! ([`Source::Input`]: a mutated byte is a mutated choice, the choices go
//! on with the seed's random stream once the bytes are used up, and every
//! byte string is a valid program), and the [`Harness`] runs the
//! program on the fuzzer's in-process implementations. libFuzzer keeps in
//! its corpus the inputs whose run reached code no input reached before;
//! the harness saves the programs that do not agree as a campaign saves
//! them.
//!
//! This is libFuzzer's own loop, entered through `LLVMFuzzerRunDriver`;
//! nothing here decides what to keep. How an input is mutated is ours:
//! libFuzzer calls `LLVMFuzzerCustomMutator` and `LLVMFuzzerCustomCrossOver`,
//! which edit the input's program (a [`Mutator`]: a subtree re-drawn or
//! taken from another input, a list element deleted, a value lowered) and
//! write the edited choices back as the input (the harness runs the
//! program the mutator made for it, and the mutator edits the program the
//! harness ran last, so that an execution generates its program once);
//! with [`Guided::edits`] off
//! (or outside a guided run, in a libFuzzer target that links this crate)
//! they leave it to libFuzzer's own byte mutations. libFuzzer sees the
//! coverage of code compiled with SanitizerCoverage, so the binary must be
//! built so (`fuzz/build` in the repository, on stable Rust); otherwise
//! libFuzzer finds no coverage and says so.
//!
//! Only with the crate's `libfuzzer` feature, which links libFuzzer (built
//! from the sources `libfuzzer-sys` bundles).

use std::cell::RefCell;
use std::ffi::{c_char, c_int, c_uint, CString};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

use crate::campaign::Harness;
use crate::fuzzer::{Source, GENERATION_STACK};
use crate::mutate::Mutator;

// libFuzzer itself: the C++ library `libfuzzer-sys` builds and links.
use libfuzzer_sys as _;

/// How a guided run goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Guided {
    /// How long libFuzzer runs.
    pub time: Duration,
    /// libFuzzer's corpus directory: read at the start, and where it
    /// writes each input that adds coverage.
    pub corpus: PathBuf,
    /// Inputs to start from, written into the corpus before libFuzzer
    /// starts (see [`Harness::input_of`]).
    pub seeds: Vec<Vec<u8>>,
    /// The longest input libFuzzer makes, in bytes.
    pub max_len: usize,
    /// Ignore libFuzzer's inputs: execution `i` runs the program of seed
    /// `first_seed + i`, as a campaign would; libFuzzer then only counts
    /// coverage (the baseline a guided run is measured against).
    pub unguided: Option<u64>,
    /// With `unguided`: steer each program towards k-paths, of every
    /// length up to this, that the programs before it have not covered
    /// ([`Source::Steered`] seeds from the first; see
    /// [`Harness::steer_to_cover`]), a second baseline. A swarm baseline
    /// is the harness's own ([`Harness::swarm`]).
    pub cover: Option<usize>,
    /// Mutate inputs by editing their programs (see [`Mutator`]); off,
    /// libFuzzer mutates their bytes (the baseline the edits are measured
    /// against).
    pub edits: bool,
    /// More libFuzzer flags (`-use_value_profile=1`, ...), passed as they
    /// are. Its `-fork` and `-jobs` modes are not supported (they restart
    /// the program with libFuzzer's command line).
    pub libfuzzer_flags: Vec<String>,
}

/// What the callback works with: the harness and, when unguided, the seed
/// of the next program (and the k-paths it is steered to, from which seed).
struct State {
    harness: Harness<'static>,
    next_seed: Option<u64>,
    steered: Option<(usize, u64)>,
}

/// The state libFuzzer's callback reaches (a C function pointer carries
/// none of its own).
static STATE: Mutex<Option<State>> = Mutex::new(None);

thread_local! {
    /// The mutator, when inputs are edited, on libFuzzer's thread: it
    /// keeps the program of the input run last and of the mutant made
    /// last, which stay on the thread that made them.
    static MUTATOR: RefCell<Option<Mutator<'static>>> = const { RefCell::new(None) };
}

extern "C" {
    /// libFuzzer's entry point for a program with its own `main` (LLVM 12
    /// and later): parses `argv` as libFuzzer's command line and runs the
    /// loop; at the end libFuzzer exits the process itself.
    fn LLVMFuzzerRunDriver(
        argc: *mut c_int,
        argv: *mut *mut *mut c_char,
        callback: extern "C" fn(*const u8, usize) -> c_int,
    ) -> c_int;
    /// libFuzzer's own mutation of `size` bytes at `data` (room for
    /// `max_size`), for a custom mutator to fall back on.
    fn LLVMFuzzerMutate(data: *mut u8, size: usize, max_size: usize) -> usize;
    /// The C library's: runs `function` when the process exits.
    fn atexit(function: extern "C" fn()) -> c_int;
}

/// libFuzzer's callback: one input, one program.
extern "C" fn test_one_input(data: *const u8, size: usize) -> c_int {
    let bytes: &[u8] = match size {
        0 => &[],
        // SAFETY: libFuzzer passes `size` readable bytes at `data`.
        _ => unsafe { std::slice::from_raw_parts(data, size) },
    };
    let mut state = STATE.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let Some(state) = state.as_mut() else { return 0 };
    let source = match &mut state.next_seed {
        Some(next) => {
            let seed = *next;
            *next = seed.wrapping_add(1);
            match state.steered {
                Some((k, from)) => Source::Steered { seed, k, from },
                None => Source::Seed(seed),
            }
        }
        None => Source::from_input(bytes),
    };
    // The program of a mutant the mutator made is known; the mutator
    // edits the program run last next, most of the time.
    let known = with_mutator(|mutator| mutator.take_program_of(bytes)).flatten();
    let generated = match known {
        Some((program, choices)) => Ok(state.harness.rendered(&source, program, choices)),
        None => state.harness.generate(&source),
    };
    let checked = state.harness.check_program(source, &generated);
    if let Ok(generated) = generated {
        with_mutator(|mutator| mutator.remember(bytes, generated.program, generated.choices));
    }
    match checked {
        Ok(checked) => {
            if let Some(dir) = checked.finding {
                let known = if checked.known { " (known)" } else { "" };
                eprintln!("xsmith: {}{known}: {}", checked.verdict.name(), dir.display());
            }
            0
        }
        Err(e) => {
            eprintln!("xsmith: error: {e}");
            std::process::abort();
        }
    }
}

/// libFuzzer's mutation hook: the input's program edited (see
/// [`Mutator::mutate`]), or libFuzzer's own byte mutation when edits are off
/// or the edited input does not fit in `max_size` bytes.
///
/// # Safety
///
/// libFuzzer calls it with `size` initialized bytes at `data` and room for
/// `max_size`.
#[no_mangle]
pub unsafe extern "C" fn LLVMFuzzerCustomMutator(data: *mut u8, size: usize, max_size: usize, seed: c_uint) -> usize {
    // SAFETY: as libFuzzer promises (see above).
    let input = unsafe { bytes_at(data, size) };
    let mutant = with_mutator(|mutator| mutator.mutate(&input, u64::from(seed))).flatten();
    // SAFETY: as libFuzzer promises (see above).
    match mutant.and_then(|mutant| unsafe { write_into(data, max_size, &mutant) }) {
        Some(written) => written,
        // SAFETY: the arguments are libFuzzer's own.
        None => unsafe { LLVMFuzzerMutate(data, size, max_size) },
    }
}

/// libFuzzer's cross-over hook: a subtree of the first input replaced by
/// one of the second (see [`Mutator::cross_over`]); 0 (no cross-over) when
/// edits are off, nothing fits or the result is over `max_out_size` bytes.
///
/// # Safety
///
/// libFuzzer calls it with `size1` and `size2` initialized bytes at
/// `data1` and `data2`, and room for `max_out_size` at `out`.
#[no_mangle]
pub unsafe extern "C" fn LLVMFuzzerCustomCrossOver(
    data1: *const u8,
    size1: usize,
    data2: *const u8,
    size2: usize,
    out: *mut u8,
    max_out_size: usize,
    seed: c_uint,
) -> usize {
    // SAFETY: as libFuzzer promises (see above).
    let (first, second) = unsafe { (bytes_at(data1, size1), bytes_at(data2, size2)) };
    let child = with_mutator(|mutator| mutator.cross_over(&first, &second, u64::from(seed))).flatten();
    // SAFETY: as libFuzzer promises (see above).
    child
        .and_then(|child| unsafe { write_into(out, max_out_size, &child) })
        .unwrap_or(0)
}

/// A copy of the `size` bytes at `data`.
///
/// # Safety
///
/// `data` points to `size` initialized bytes (or `size` is 0).
unsafe fn bytes_at(data: *const u8, size: usize) -> Vec<u8> {
    match size {
        0 => Vec::new(),
        // SAFETY: the caller's promise.
        _ => unsafe { std::slice::from_raw_parts(data, size) }.to_vec(),
    }
}

/// Writes `bytes` at `out` and returns their length, if they fit in
/// `room` bytes.
///
/// # Safety
///
/// `out` has room for `room` bytes.
unsafe fn write_into(out: *mut u8, room: usize, bytes: &[u8]) -> Option<usize> {
    (bytes.len() <= room).then(|| {
        // SAFETY: the caller's promise, and `bytes` fits.
        unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), out, bytes.len()) };
        bytes.len()
    })
}

/// What `work` gives with the run's mutator; `None` without one (edits
/// off, or not on libFuzzer's thread).
fn with_mutator<T>(work: impl FnOnce(&mut Mutator<'static>) -> T) -> Option<T> {
    MUTATOR.with(|mutator| mutator.borrow_mut().as_mut().map(work))
}

/// Prints the run's tally and signatures when libFuzzer exits the process
/// (unless it exits in the middle of a run, which holds the state).
extern "C" fn report_at_exit() {
    let state = match STATE.try_lock() {
        Ok(state) => state,
        Err(std::sync::TryLockError::Poisoned(poisoned)) => poisoned.into_inner(),
        Err(std::sync::TryLockError::WouldBlock) => return,
    };
    if let Some(state) = state.as_ref() {
        println!("{}", state.harness.tally());
        if !state.harness.tally().all_agree() {
            println!("{}", state.harness.signatures());
        }
        println!("findings: {}", state.harness.findings().display());
    }
}

/// Runs libFuzzer over `harness` as `guided` says. It does not return
/// when libFuzzer finishes (libFuzzer exits the process, after the tally
/// and signatures are printed); it returns an error if the corpus cannot
/// be prepared or libFuzzer refuses its command line.
pub fn run(mut harness: Harness<'static>, guided: &Guided) -> Result<std::convert::Infallible, String> {
    std::fs::create_dir_all(&guided.corpus).map_err(|e| format!("{}: {e}", guided.corpus.display()))?;
    write_seeds(&guided.corpus, &guided.seeds)?;
    let mut words = vec![
        "xsmith guided".to_string(),
        format!("-max_total_time={}", guided.time.as_secs().max(1)),
        format!("-max_len={}", guided.max_len),
        format!("-artifact_prefix={}/libfuzzer-", harness.findings().display()),
        "-print_final_stats=1".to_string(),
    ];
    words.extend(guided.libfuzzer_flags.iter().cloned());
    words.push(guided.corpus.display().to_string());
    let arguments = words
        .into_iter()
        .map(|word| CString::new(word).map_err(|e| format!("a libFuzzer argument: {e}")))
        .collect::<Result<Vec<CString>, String>>()?;
    let edits = guided.edits && guided.unguided.is_none();
    let steered = guided.unguided.and_then(|first| guided.cover.map(|k| (k, first)));
    if let Some((k, _)) = steered {
        harness.steer_to_cover(k);
    }
    *STATE.lock().unwrap_or_else(|poisoned| poisoned.into_inner()) = Some(State {
        harness,
        next_seed: guided.unguided,
        steered,
    });
    // SAFETY: `report_at_exit` only reads the state behind its mutex.
    unsafe { atexit(report_at_exit) };
    // libFuzzer runs on a thread with the generator's large stack; it
    // keeps the argument strings for the whole run, so they are leaked.
    let status = std::thread::Builder::new()
        .name("libfuzzer".into())
        .stack_size(GENERATION_STACK)
        .spawn(move || {
            if edits {
                let state = STATE.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
                let mutator = state.as_ref().map(|state| state.harness.mutator());
                MUTATOR.with(|cell| *cell.borrow_mut() = mutator);
            }
            let mut pointers: Vec<*mut c_char> = arguments.into_iter().map(CString::into_raw).collect();
            let mut argc = c_int::try_from(pointers.len()).unwrap_or(c_int::MAX);
            let mut argv = pointers.as_mut_ptr();
            std::mem::forget(pointers);
            // SAFETY: argc and argv describe NUL-terminated strings that
            // live to the end of the process; the callback has the
            // signature libFuzzer calls.
            unsafe { LLVMFuzzerRunDriver(&mut argc, &mut argv, test_one_input) }
        })
        .map_err(|e| format!("cannot start libFuzzer's thread: {e}"))?
        .join()
        .map_err(|_| "libFuzzer's thread panicked".to_string())?;
    Err(format!("libFuzzer stopped with status {status}"))
}

/// Writes the seed inputs into the corpus directory, as `seed-00000`,
/// `seed-00001`, ... (libFuzzer names its own inputs by their SHA-1).
fn write_seeds(corpus: &Path, seeds: &[Vec<u8>]) -> Result<(), String> {
    for (index, seed) in seeds.iter().enumerate() {
        let path = corpus.join(format!("seed-{index:05}"));
        std::fs::write(&path, seed).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(())
}
