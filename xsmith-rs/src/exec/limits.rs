//! The time and memory a run may take.

use std::time::Duration;

/// The limits a run is held to (a campaign holds all its runs to the same).
///
/// ```
/// let limits = xsmith::Limits::default();
/// assert_eq!(limits.timeout, std::time::Duration::from_secs(10));
/// assert_eq!(limits.memory, Some(4 << 30));
/// assert_eq!(limits.compile_timeout, std::time::Duration::from_secs(60));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Wall-clock time one run may take; past it, the run's whole process
    /// group is killed (an in-process engine's worker too; on a thread, with
    /// [`Isolation::Thread`](crate::Isolation::Thread), the run is
    /// abandoned: its thread cannot be stopped, only no longer waited for).
    pub timeout: Duration,
    /// Wall-clock time the compile step of an
    /// [`Implementation::Compiled`](crate::Implementation::Compiled) may
    /// take (its executable then gets `timeout`); past it, the compiler's
    /// process group is killed and the run has timed out.
    pub compile_timeout: Duration,
    /// The data-segment limit (`RLIMIT_DATA`, bytes) of an external command:
    /// what it may allocate, not what it reserves (engines that reserve large
    /// address ranges, as V8 and WebAssembly runtimes do, still start).
    /// `None`: no limit. An in-process engine's worker gets the same limit
    /// (engines on threads are not limited).
    pub memory: Option<u64>,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            timeout: Duration::from_secs(10),
            compile_timeout: Duration::from_secs(60),
            memory: Some(4 << 30),
        }
    }
}
