//! wasm-smith, the peer of `xsmith-wasm`, as the benchmark drives it:
//! modules from random bytes (the size of a typical libFuzzer input),
//! in its default configuration and in the configuration closest to
//! xsmith-wasm's programs (MVP features only, no traps).
//!
//! ```
//! let module = xsmith_speed::wasm::smith_module(&xsmith_speed::wasm::trap_free_mvp(), 1);
//! assert!(module.is_some_and(|bytes| bytes.starts_with(b"\0asm")));
//! ```

use arbitrary::Unstructured;
use xsmith::Random;

/// How many random bytes drive one wasm-smith module.
pub const SMITH_BYTES: usize = 4096;

/// wasm-smith's configuration closest to what xsmith-wasm makes: the MVP's
/// features alone (every proposal switched off) and no traps
/// (`disallow_traps`), NaNs canonicalized.
///
/// ```
/// assert!(xsmith_speed::wasm::trap_free_mvp().disallow_traps);
/// ```
pub fn trap_free_mvp() -> wasm_smith::Config {
    wasm_smith::Config {
        disallow_traps: true,
        canonicalize_nans: true,
        bulk_memory_enabled: false,
        exceptions_enabled: false,
        gc_enabled: false,
        custom_page_sizes_enabled: false,
        memory64_enabled: false,
        multi_value_enabled: false,
        reference_types_enabled: false,
        relaxed_simd_enabled: false,
        saturating_float_to_int_enabled: false,
        sign_extension_ops_enabled: false,
        simd_enabled: false,
        tail_call_enabled: false,
        threads_enabled: false,
        wide_arithmetic_enabled: false,
        extended_const_enabled: false,
        ..wasm_smith::Config::default()
    }
}

/// [`SMITH_BYTES`] random bytes of `seed`.
fn random_bytes(seed: u64) -> Vec<u8> {
    let mut random = Random::from_seed(seed);
    (0..SMITH_BYTES / 8)
        .flat_map(|_| random.next_u64().to_le_bytes())
        .collect()
}

/// wasm-smith's binary module under `config` from the bytes of `seed`
/// (`None` where it gives up on them).
pub fn smith_module(config: &wasm_smith::Config, seed: u64) -> Option<Vec<u8>> {
    let bytes = random_bytes(seed);
    let module = wasm_smith::Module::new(config.clone(), &mut Unstructured::new(&bytes)).ok()?;
    Some(module.to_bytes())
}

/// Inputs for wasm-smith made ahead of a measurement, so that drawing the
/// random bytes is not part of it.
pub struct SmithInputs(Vec<Vec<u8>>);

impl SmithInputs {
    /// The random bytes of seeds `0..count`.
    ///
    /// ```
    /// let inputs = xsmith_speed::wasm::SmithInputs::new(4);
    /// assert_eq!(inputs.batch(&wasm_smith::Config::default()).programs, 4);
    /// ```
    pub fn new(count: u64) -> SmithInputs {
        SmithInputs((0..count).map(random_bytes).collect())
    }

    /// One module per input under `config`: modules, their bytes (a module
    /// wasm-smith gives up on counts with no bytes; it never happens with
    /// these inputs' lengths) and no nodes (wasm-smith builds no tree the
    /// benchmark could count).
    pub fn batch(&self, config: &wasm_smith::Config) -> crate::Work {
        let mut work = crate::Work::default();
        for bytes in &self.0 {
            let module = wasm_smith::Module::new(config.clone(), &mut Unstructured::new(bytes));
            work += crate::Work {
                programs: 1,
                nodes: 0,
                bytes: module.map_or(0, |m| std::hint::black_box(m.to_bytes()).len() as u64),
            };
        }
        work
    }
}
