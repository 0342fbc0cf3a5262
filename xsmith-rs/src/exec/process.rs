//! Running one program with an external command, held to [`Limits`]: in a
//! process group of its own (killed whole on timeout, and after its leader
//! exits, so nothing it started lingers), with its output read on two threads
//! so that no pipe ever fills and blocks it, its data segment capped and core
//! dumps off.

use std::io::Read;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::Path;
use std::process::{Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use rustix::process::{getrlimit, kill_process_group, setrlimit, Pid, Resource, Rlimit, Signal};
use wait_timeout::ChildExt;

use super::execution::{Execution, Run};
use super::limits::Limits;

/// At most this much of each output stream is kept; the rest is read and
/// dropped (and the stream is marked as cut).
const OUTPUT_CAP: usize = 64 << 20;

/// How long the output pipes may stay open once the process group is gone
/// (only a process that left the group can hold them longer).
const PIPE_GRACE: Duration = Duration::from_secs(2);

/// Runs the command `words` (every `{}` replaced by `program`).
pub(super) fn run(words: &[String], program: &Path, limits: &Limits) -> Run {
    let path = program.to_string_lossy();
    let argv: Vec<String> = words.iter().map(|w| w.replace("{}", &path)).collect();
    run_argv(&argv, limits.timeout, limits)
}

/// Runs the command line `argv` as it is, killed after `timeout`, its data
/// segment capped at `limits.memory`.
pub(super) fn run_argv(argv: &[String], timeout: Duration, limits: &Limits) -> Run {
    let mut command = Command::new(&argv[0]);
    command
        .args(&argv[1..])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    // The limits are computed before the fork: between fork and exec only
    // async-signal-safe calls are allowed, and setrlimit (a raw system call
    // in rustix) is one. A soft limit never exceeds the inherited hard one.
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
    let mut child = match command.spawn() {
        Ok(child) => child,
        Err(e) => return failed_to_start(&argv[0], &e),
    };
    let group = Pid::from_child(&child);
    let (sender, receiver) = mpsc::channel();
    let pipes: [(usize, Option<Box<dyn Read + Send>>); 2] = [
        (0, child.stdout.take().map(|p| Box::new(p) as Box<dyn Read + Send>)),
        (1, child.stderr.take().map(|p| Box::new(p) as Box<dyn Read + Send>)),
    ];
    for (stream, pipe) in pipes {
        let sender = sender.clone();
        let Some(pipe) = pipe else { continue };
        let reader = std::thread::Builder::new().name("output".into()).spawn(move || {
            let _ = sender.send((stream, read_capped(pipe)));
        });
        if let Err(e) = reader {
            let _ = kill_process_group(group, Signal::KILL);
            let _ = child.wait();
            return failed_to_start(&argv[0], &e);
        }
    }
    drop(sender);
    let status = child.wait_timeout(timeout);
    // Kill the whole group: on timeout, the run; after a normal exit, any
    // process the run left behind (ESRCH when there is none).
    let _ = kill_process_group(group, Signal::KILL);
    let status = match status {
        Ok(Some(status)) => Some(status),
        Ok(None) => {
            let _ = child.wait();
            None
        }
        Err(e) => {
            let _ = child.wait();
            return Run::crashed(format!("waiting for `{}` failed: {e}", argv[0]), "lost");
        }
    };
    let mut outputs = [String::new(), String::new()];
    for _ in 0..2 {
        match receiver.recv_timeout(PIPE_GRACE) {
            Ok((stream, text)) => outputs[stream] = text,
            Err(_) => break,
        }
    }
    let [stdout, stderr] = outputs;
    let (execution, status) = match status {
        None => (
            Execution::Timeout,
            format!("timed out after {} s", timeout.as_secs_f64()),
        ),
        Some(status) => classify(status, &stdout, &stderr),
    };
    Run {
        execution,
        stdout,
        stderr,
        status,
    }
}

/// Exit 0: output; killed by a signal: crashed; any other exit: rejected.
fn classify(status: ExitStatus, stdout: &str, stderr: &str) -> (Execution, String) {
    if let Some(signal) = status.signal() {
        let words = format!("killed by signal {signal}{}", signal_name(signal));
        return (Execution::Crashed(words.clone()), words);
    }
    let code = status.code().unwrap_or(-1);
    let words = format!("exit status {code}");
    if status.success() {
        return (Execution::Output(stdout.to_string()), words);
    }
    let why = if stderr.trim().is_empty() {
        words.clone()
    } else {
        stderr.to_string()
    };
    (Execution::Rejected(why), words)
}

/// ` (SIGSEGV)` for 11, ...: the name of a common signal, in parentheses
/// after a space; empty for others.
pub(super) fn signal_name(signal: i32) -> &'static str {
    match signal {
        1 => " (SIGHUP)",
        2 => " (SIGINT)",
        3 => " (SIGQUIT)",
        4 => " (SIGILL)",
        5 => " (SIGTRAP)",
        6 => " (SIGABRT)",
        7 => " (SIGBUS)",
        8 => " (SIGFPE)",
        9 => " (SIGKILL)",
        11 => " (SIGSEGV)",
        13 => " (SIGPIPE)",
        15 => " (SIGTERM)",
        24 => " (SIGXCPU)",
        25 => " (SIGXFSZ)",
        31 => " (SIGSYS)",
        _ => "",
    }
}

fn failed_to_start(command: &str, error: &std::io::Error) -> Run {
    Run::crashed(format!("cannot start `{command}`: {error}"), "did not start")
}

/// Reads a stream to its end, keeping at most [`OUTPUT_CAP`] bytes.
fn read_capped(mut pipe: Box<dyn Read + Send>) -> String {
    let mut kept = Vec::new();
    let _ = (&mut pipe).take(OUTPUT_CAP as u64).read_to_end(&mut kept);
    let dropped = std::io::copy(&mut pipe, &mut std::io::sink()).unwrap_or(0);
    let mut text = String::from_utf8_lossy(&kept).into_owned();
    if dropped > 0 {
        text.push_str(&format!("\n[xsmith: {dropped} more bytes not kept]\n"));
    }
    text
}
