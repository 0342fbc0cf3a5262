//! The campaign side of a supervised engine worker (see
//! [`worker_entry`](super::worker_entry) for the worker's): each thread that
//! runs in-process engines keeps one worker, started on its first run and
//! again after each death, and ended when the thread ends
//! ([`end_this_threads_worker`] ends it at once).
//!
//! A run sends the program, then waits for the reply at most the run's
//! time-out: past it, the worker's whole process group is killed (nothing
//! of the run goes on) and the run has timed out. A worker that dies during
//! a run (a signal, an exit) has crashed on that program: its status is the
//! run's, and what it wrote is the run's standard error. The worker's data
//! segment is capped at the memory limit, its core dumps are off, and it is
//! started again when the memory limit changes.

use std::cell::RefCell;
use std::fs::File;
use std::io::Read;
use std::os::unix::fs::FileExt;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Child, ChildStdin, ChildStdout, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use rustix::event::{poll, PollFd, PollFlags, Timespec};
use rustix::process::{getrlimit, kill_process_group, setrlimit, Pid, Resource, Rlimit, Signal};
use wait_timeout::ChildExt;

use super::engine::{run_of, Engine, ENGINE_STACK};
use super::engine_image;
use super::execution::{Execution, Run};
use super::limits::Limits;
use super::process::signal_name;
use super::worker_entry;
use super::worker_protocol::{self, READY, REPLY_HEADER, WORKER_ENV};

/// How long a worker may take to start (load the executable, reach the
/// entry point) before it is given up, whatever the run's time-out.
const START_TIMEOUT: Duration = Duration::from_secs(60);

/// How long a worker that closed its end of the pipe may take to exit.
const EXIT_GRACE: Duration = Duration::from_secs(5);

/// At most this much of what an engine writes itself is kept per run.
const STRAY_CAP: u64 = 64 << 20;

/// The smallest engine stack a worker gets under a tight memory limit.
const SMALLEST_STACK: usize = 16 << 20;

thread_local! {
    static WORKER: RefCell<Option<Worker>> = const { RefCell::new(None) };
}

/// A running worker.
struct Worker {
    child: Child,
    requests: ChildStdin,
    replies: ChildStdout,
    /// The worker's standard output and error (what the engine printed).
    stray: File,
    /// The memory limit it was started with.
    memory: Option<u64>,
}

/// How a request to a worker ended.
enum Ended {
    /// The worker replied.
    Replied(Execution),
    /// No reply within the time-out: the worker is killed.
    TimedOut,
    /// The worker died (or closed its reply pipe) before it replied.
    Died(Option<ExitStatus>),
}

/// Runs `engine` on `text` in this thread's worker; `Err` (why) when no
/// worker can run it: the engine is not part of this executable, or a
/// worker cannot be started here. Nothing is left running after the call
/// but the worker, idle.
pub(super) fn run(engine: Engine, text: &str, limits: &Limits) -> Result<Run, String> {
    let offset = engine_image::offset_of(engine)
        .ok_or_else(|| "the engine is not a function of this executable (is it in a shared library?)".to_string())?;
    WORKER.with(|cell| {
        let mut slot = cell.borrow_mut();
        if slot.as_ref().is_some_and(|w| w.memory != limits.memory) {
            slot.take();
        }
        let worker = match slot.as_mut() {
            Some(worker) => worker,
            None => slot.insert(Worker::start(limits)?),
        };
        let started = Instant::now();
        let ended = worker.request(offset, text, limits.timeout);
        let stray = worker.stray_output();
        let run = match ended {
            Ended::Replied(execution) => {
                let mut run = run_of(execution, limits);
                run.stderr.push_str(&stray);
                run
            }
            Ended::TimedOut => {
                slot.take();
                Run {
                    execution: Execution::Timeout,
                    stdout: String::new(),
                    stderr: stray,
                    status: format!("timed out after {} s", limits.timeout.as_secs_f64()),
                }
            }
            Ended::Died(status) => {
                slot.take();
                died(status, stray, started.elapsed())
            }
        };
        Ok(run)
    })
}

/// Ends this thread's worker, if it has one, and waits for it to go: a
/// thread that ran in-process engines calls it before it ends, so that no
/// worker outlives what started it (the worker also ends when the thread
/// does, a moment later).
pub(crate) fn end_this_threads_worker() {
    let _ = WORKER.try_with(|cell| cell.borrow_mut().take());
}

/// Whether this process can start engine workers, and if not, why (a
/// worker is started and ended to find out).
pub(crate) fn check_workers() -> Result<(), String> {
    let limits = Limits::default();
    Worker::start(&limits).map(drop)
}

/// The run of a worker that died on its program.
fn died(status: Option<ExitStatus>, stray: String, after: Duration) -> Run {
    let status = match status {
        Some(status) => match status.signal() {
            Some(signal) => format!("killed by signal {signal}{}", signal_name(signal)),
            None => format!("exit status {}", status.code().unwrap_or(-1)),
        },
        None => "lost".to_string(),
    };
    let why = format!(
        "the engine's worker ended ({status}) after {:.1} s",
        after.as_secs_f64()
    );
    Run {
        execution: Execution::Crashed(why.clone()),
        stdout: String::new(),
        stderr: if stray.is_empty() { why } else { stray },
        status,
    }
}

impl Worker {
    /// Starts a worker: this executable again, as an engine worker, in a
    /// process group of its own, its data segment capped at
    /// `limits.memory`, and waits for it to say it is ready.
    fn start(limits: &Limits) -> Result<Worker, String> {
        if !worker_entry::entry_linked() {
            return Err("the worker's entry point is not linked in".into());
        }
        let stray = tempfile::tempfile().map_err(|e| format!("cannot create the worker's output file: {e}"))?;
        rustix::fs::fcntl_setfl(&stray, rustix::fs::OFlags::APPEND)
            .map_err(|e| format!("cannot set up the worker's output file: {e}"))?;
        let err = stray
            .try_clone()
            .map_err(|e| format!("cannot set up the worker's output file: {e}"))?;
        let stack = limits.memory.map_or(ENGINE_STACK, |bytes| {
            usize::try_from(bytes / 4)
                .unwrap_or(usize::MAX)
                .clamp(SMALLEST_STACK, ENGINE_STACK)
        });
        let name = std::env::current_exe()
            .ok()
            .and_then(|path| path.file_name().map(|n| n.to_string_lossy().into_owned()))
            .unwrap_or_else(|| "xsmith".into());
        let mut command = Command::new("/proc/self/exe");
        command
            .arg0(format!("{name} [engine worker]"))
            .env(WORKER_ENV, stack.to_string())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::from(err))
            .process_group(0);
        let core = Rlimit {
            current: Some(0),
            maximum: getrlimit(Resource::Core).maximum,
        };
        let data = limits.memory.map(|bytes| {
            let maximum = getrlimit(Resource::Data).maximum;
            Rlimit {
                current: Some(maximum.map_or(bytes, |m| m.min(bytes))),
                maximum,
            }
        });
        // SAFETY: the closure only makes setrlimit system calls on values
        // computed before the fork; it allocates nothing and takes no lock.
        unsafe {
            command.pre_exec(move || {
                setrlimit(Resource::Core, core)?;
                if let Some(data) = data {
                    setrlimit(Resource::Data, data)?;
                }
                Ok(())
            });
        }
        let mut child = command
            .spawn()
            .map_err(|e| format!("cannot start an engine worker: {e}"))?;
        let (Some(requests), Some(replies)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err("an engine worker has no pipes".into());
        };
        let mut worker = Worker {
            child,
            requests,
            replies,
            stray,
            memory: limits.memory,
        };
        let mut ready = Vec::new();
        let deadline = Instant::now() + START_TIMEOUT;
        while ready.len() < READY.len() {
            let missing = READY.len() - ready.len();
            match worker.read_some(&mut ready, missing, deadline) {
                Ok(true) => {}
                Ok(false) | Err(_) => break,
            }
        }
        if ready.as_slice() != READY {
            let output = worker.stray_output();
            return Err(format!(
                "an engine worker did not start{}",
                match output.trim() {
                    "" => String::new(),
                    text => format!(": {text}"),
                }
            ));
        }
        Ok(worker)
    }

    /// Sends one program and waits for its reply at most `timeout`.
    fn request(&mut self, offset: i64, text: &str, timeout: Duration) -> Ended {
        let deadline = Instant::now() + timeout;
        if worker_protocol::write_request(&mut self.requests, offset, text).is_err() {
            return Ended::Died(self.wait_for_end());
        }
        let mut message = Vec::new();
        let mut want = REPLY_HEADER as u64;
        loop {
            let missing = want - message.len() as u64;
            if missing == 0 {
                if message.len() == REPLY_HEADER {
                    let header: [u8; REPLY_HEADER] = message[..].try_into().expect("a whole header");
                    want = worker_protocol::reply_len(&header);
                    if want > REPLY_HEADER as u64 {
                        continue;
                    }
                }
                return match worker_protocol::read_reply(&message) {
                    Some(execution) => Ended::Replied(execution),
                    None => Ended::Died(self.wait_for_end()),
                };
            }
            match self.read_some(&mut message, missing.min(1 << 20) as usize, deadline) {
                Ok(true) => {}
                Ok(false) => return Ended::Died(self.wait_for_end()),
                Err(TimedOut) => return Ended::TimedOut,
            }
        }
    }

    /// Reads at most `most` bytes of the reply pipe into `into`, waiting
    /// until `deadline`: `Ok(false)` at the end of the pipe (or on an
    /// error), `Err` past the deadline.
    fn read_some(&mut self, into: &mut Vec<u8>, most: usize, deadline: Instant) -> Result<bool, TimedOut> {
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(TimedOut);
            }
            let timeout = Timespec {
                tv_sec: left.as_secs() as _,
                tv_nsec: left.subsec_nanos() as _,
            };
            let mut fds = [PollFd::new(&self.replies, PollFlags::IN)];
            match poll(&mut fds, Some(&timeout)) {
                Ok(0) => continue,
                Ok(_) => break,
                Err(rustix::io::Errno::INTR) => continue,
                Err(_) => return Ok(false),
            }
        }
        let mut buffer = vec![0; most];
        match self.replies.read(&mut buffer) {
            Ok(0) | Err(_) => Ok(false),
            Ok(n) => {
                into.extend_from_slice(&buffer[..n]);
                Ok(true)
            }
        }
    }

    /// Waits for a worker that stopped answering to end (killing it after
    /// a grace period), and tells how it ended.
    fn wait_for_end(&mut self) -> Option<ExitStatus> {
        match self.child.wait_timeout(EXIT_GRACE) {
            Ok(Some(status)) => {
                self.kill_group();
                Some(status)
            }
            _ => {
                self.kill_group();
                self.child.wait().ok()
            }
        }
    }

    /// What the engine wrote since the last call (at most [`STRAY_CAP`]
    /// bytes of it), emptied.
    fn stray_output(&mut self) -> String {
        let len = self.stray.metadata().map_or(0, |m| m.len());
        if len == 0 {
            return String::new();
        }
        let mut kept = vec![0; len.min(STRAY_CAP) as usize];
        let read = self.stray.read_at(&mut kept, 0).unwrap_or(0);
        kept.truncate(read);
        let _ = self.stray.set_len(0);
        let mut text = String::from_utf8_lossy(&kept).into_owned();
        if len > STRAY_CAP {
            text.push_str(&format!("\n[xsmith: {} more bytes not kept]\n", len - STRAY_CAP));
        }
        text
    }

    fn kill_group(&self) {
        let _ = kill_process_group(Pid::from_child(&self.child), Signal::KILL);
    }
}

/// A wait that went past its deadline.
struct TimedOut;

impl Drop for Worker {
    /// Kills the worker's process group and reaps the worker.
    fn drop(&mut self) {
        self.kill_group();
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(timeout_ms: u64) -> Limits {
        Limits {
            timeout: Duration::from_millis(timeout_ms),
            ..Limits::default()
        }
    }

    fn pid(_: &str) -> Execution {
        Execution::Output(std::process::id().to_string())
    }

    fn aborts(_: &str) -> Execution {
        eprintln!("about to abort");
        std::process::abort()
    }

    fn writes_through_null(_: &str) -> Execution {
        // SAFETY: none; the point is the segmentation fault.
        unsafe { std::ptr::null_mut::<u64>().write_volatile(7) };
        Execution::Output("unreachable".into())
    }

    fn spins(_: &str) -> Execution {
        loop {
            std::hint::spin_loop();
        }
    }

    fn panics(text: &str) -> Execution {
        panic!("no {text}")
    }

    fn allocates(_: &str) -> Execution {
        let mut kept = Vec::new();
        loop {
            kept.push(vec![1u8; 64 << 20]);
            std::hint::black_box(&kept);
        }
    }

    fn prints(text: &str) -> Execution {
        println!("stray {text}");
        Execution::Output(text.to_string())
    }

    /// Whether process `pid` exists (and is not a zombie).
    fn alive(pid: &str) -> bool {
        std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| !stat.contains(") Z "))
    }

    #[test]
    fn a_worker_runs_programs_one_after_another_in_another_process() {
        let first = run(pid, "", &limits(20_000)).unwrap();
        let second = run(pid, "", &limits(20_000)).unwrap();
        assert_eq!(first.status, "in process: output");
        assert_eq!(first.execution, second.execution, "the worker is kept");
        let Execution::Output(worker) = first.execution else {
            panic!()
        };
        assert_ne!(worker, std::process::id().to_string());
        assert!(alive(&worker));
        end_this_threads_worker();
        assert!(!alive(&worker), "the worker is gone once ended");
    }

    #[test]
    fn an_engine_that_dies_is_a_crash_with_its_last_words_and_a_new_worker_follows() {
        let before = run(pid, "", &limits(20_000)).unwrap();
        let run_aborting = run(aborts, "", &limits(20_000)).unwrap();
        assert_eq!(run_aborting.execution.kind(), "crashed");
        assert_eq!(run_aborting.status, "killed by signal 6 (SIGABRT)");
        assert!(
            run_aborting.stderr.contains("about to abort"),
            "{}",
            run_aborting.stderr
        );
        let segv = run(writes_through_null, "", &limits(20_000)).unwrap();
        assert_eq!(segv.status, "killed by signal 11 (SIGSEGV)");
        let after = run(pid, "", &limits(20_000)).unwrap();
        assert_ne!(before.execution, after.execution, "a new worker");
        let panicked = run(panics, "luck", &limits(20_000)).unwrap();
        assert_eq!(panicked.execution, Execution::Crashed("panicked: no luck".into()));
        let still = run(pid, "", &limits(20_000)).unwrap();
        assert_eq!(after.execution, still.execution, "a panic leaves the worker alive");
        let printed = run(prints, "x", &limits(20_000)).unwrap();
        assert_eq!(printed.execution, Execution::Output("x".into()));
        assert_eq!(printed.stderr, "stray x\n");
        end_this_threads_worker();
    }

    #[test]
    fn a_run_past_its_time_kills_its_worker() {
        let Execution::Output(worker) = run(pid, "", &limits(20_000)).unwrap().execution else {
            panic!()
        };
        let hung = run(spins, "", &limits(500)).unwrap();
        assert_eq!(hung.execution, Execution::Timeout);
        assert_eq!(hung.status, "timed out after 0.5 s");
        assert!(!alive(&worker), "the spinning worker was killed");
        assert_eq!(
            run(prints, "y", &limits(20_000)).unwrap().execution,
            Execution::Output("y".into())
        );
        end_this_threads_worker();
    }

    #[test]
    fn the_memory_limit_caps_the_worker() {
        let capped = Limits {
            memory: Some(256 << 20),
            ..limits(60_000)
        };
        let ran = run(allocates, "", &capped).unwrap();
        assert_eq!(ran.execution.kind(), "crashed", "{ran:?}");
        assert!(ran.stderr.contains("memory allocation"), "{}", ran.stderr);
        end_this_threads_worker();
    }
}
