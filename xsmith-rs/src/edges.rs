//! The edges of instrumented code that programs reach: SanitizerCoverage's
//! inline 8-bit counters, read in-process, for a concise corpus on the
//! coverage of the implementations under test (`corpus --coverage
//! engines`) rather than on the programs' own k-paths.
//!
//! Code compiled with SanitizerCoverage (`-sanitizer-coverage-inline-8bit-counters`,
//! what `fuzz/build` passes) keeps one byte per edge, incremented each time
//! the edge runs, and registers the bytes of each module at start-up with
//! `__sanitizer_cov_8bit_counters_init`. libFuzzer defines that function
//! (and reads the bytes itself); with the crate's `engine-edges` feature
//! this module defines it instead, with the other callbacks the
//! instrumentation calls (the comparisons it traces, the table of its
//! program counters), and keeps the bytes for [`take_covered`]. The
//! feature cannot go with `libfuzzer` (both define the callbacks). In a
//! build without the feature, or one that instruments nothing, there are
//! no counters: [`counters`] is 0 and nothing is ever covered.
//!
//! The counters are the whole process's: what two threads run at once
//! counts together, so a measurement runs one program at a time.
//!
//! No crate does this alone: LibAFL's `libafl_targets` defines these
//! callbacks, but it brings LibAFL's build (a C compiler, its own
//! runtime); the callbacks are a stable C interface of a few lines.

use std::sync::Mutex;

/// The counter regions the instrumented modules registered: each one's
/// first byte (as an address) and its length.
static REGIONS: Mutex<Vec<(usize, usize)>> = Mutex::new(Vec::new());

/// How many edges the instrumented code has (0 in a build that counts
/// none).
///
/// ```
/// // Tests are not instrumented.
/// assert_eq!(xsmith::edges::counters(), 0);
/// ```
pub fn counters() -> usize {
    regions().iter().map(|&(_, len)| len).sum()
}

/// The edges run since the last call (or since the process started), by
/// their index among all [`counters`], in increasing order; their
/// counters start again from zero.
///
/// ```
/// assert!(xsmith::edges::take_covered().is_empty());
/// ```
pub fn take_covered() -> Vec<u32> {
    let mut covered = Vec::new();
    let mut first = 0;
    for (start, len) in regions() {
        // SAFETY: the instrumentation registered `len` bytes at `start`,
        // which live as long as the process; other threads may increment
        // them, which a volatile access tolerates (a count lost in a race
        // is an edge seen at the next call).
        for i in 0..len {
            let byte = (start + i) as *mut u8;
            if unsafe { std::ptr::read_volatile(byte) } != 0 {
                unsafe { std::ptr::write_volatile(byte, 0) };
                covered.push((first + i) as u32);
            }
        }
        first += len;
    }
    covered
}

fn regions() -> Vec<(usize, usize)> {
    REGIONS.lock().unwrap_or_else(|e| e.into_inner()).clone()
}

/// Records a region of counters (each module's constructor registers the
/// whole section it shares with the others: a region already held is not
/// counted twice).
#[cfg_attr(not(test), allow(dead_code))]
fn register(start: usize, end: usize) {
    if end <= start {
        return;
    }
    let mut regions = REGIONS.lock().unwrap_or_else(|e| e.into_inner());
    if !regions.iter().any(|&(s, _)| s == start) {
        regions.push((start, end - start));
    }
}

#[cfg(all(feature = "engine-edges", feature = "libfuzzer"))]
compile_error!("the features `engine-edges` and `libfuzzer` both define SanitizerCoverage's callbacks: enable one");

/// The callbacks SanitizerCoverage's instrumentation calls, as `fuzz/build`
/// compiles it (`-sanitizer-coverage-level=3`, inline 8-bit counters, the
/// table of program counters, traced comparisons). Only the counters are
/// kept; the rest are what libFuzzer would use to steer its mutations.
#[cfg(feature = "engine-edges")]
mod callbacks {
    #[no_mangle]
    extern "C" fn __sanitizer_cov_8bit_counters_init(start: *mut u8, end: *mut u8) {
        super::register(start as usize, end as usize);
    }

    #[no_mangle]
    extern "C" fn __sanitizer_cov_pcs_init(_start: *const usize, _end: *const usize) {}

    #[no_mangle]
    extern "C" fn __sanitizer_cov_trace_cmp1(_a: u8, _b: u8) {}
    #[no_mangle]
    extern "C" fn __sanitizer_cov_trace_cmp2(_a: u16, _b: u16) {}
    #[no_mangle]
    extern "C" fn __sanitizer_cov_trace_cmp4(_a: u32, _b: u32) {}
    #[no_mangle]
    extern "C" fn __sanitizer_cov_trace_cmp8(_a: u64, _b: u64) {}
    #[no_mangle]
    extern "C" fn __sanitizer_cov_trace_const_cmp1(_a: u8, _b: u8) {}
    #[no_mangle]
    extern "C" fn __sanitizer_cov_trace_const_cmp2(_a: u16, _b: u16) {}
    #[no_mangle]
    extern "C" fn __sanitizer_cov_trace_const_cmp4(_a: u32, _b: u32) {}
    #[no_mangle]
    extern "C" fn __sanitizer_cov_trace_const_cmp8(_a: u64, _b: u64) {}
    #[no_mangle]
    extern "C" fn __sanitizer_cov_trace_switch(_value: u64, _cases: *const u64) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_registered_region_counts_its_bytes_once_and_gives_the_edges_run() {
        let start = Box::leak(vec![0u8; 8].into_boxed_slice()).as_mut_ptr() as usize;
        let before = counters();
        register(start, start + 8);
        register(start, start + 8);
        assert_eq!(counters(), before + 8);
        // SAFETY: the eight leaked bytes live on.
        unsafe {
            *((start + 2) as *mut u8) = 1;
            *((start + 7) as *mut u8) = 200;
        }
        let covered = take_covered();
        let first = before as u32;
        assert_eq!(covered, [first + 2, first + 7]);
        assert!(take_covered().is_empty(), "taking the edges zeroes their counters");
    }
}
