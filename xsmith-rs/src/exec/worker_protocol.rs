//! What a campaign and its engine worker say to each other over the
//! worker's standard input (requests) and standard output (replies), each
//! message a fixed header and a body:
//!
//! - the worker, once started: the eight bytes [`READY`];
//! - a request: the engine's offset (see [`engine_image`](super::engine_image),
//!   `i64`), the program's length (`u64`), the program's text;
//! - a reply: the kind of [`Execution`] (one byte), its text's length
//!   (`u64`), its text.
//!
//! Numbers are little-endian.

use std::io::{self, Read, Write};

use super::execution::Execution;

/// The first bytes a worker writes: it has started, as a worker.
pub(super) const READY: &[u8; 8] = b"xsmith-w";

/// The length of a reply's header: a kind and a length.
pub(super) const REPLY_HEADER: usize = 9;

/// The environment variable that makes a process an engine worker; its
/// value is the stack size of the worker's engine thread, in bytes.
pub(super) const WORKER_ENV: &str = "XSMITH_ENGINE_WORKER";

/// Sends a request to run `text` on the engine at `offset`.
pub(super) fn write_request(to: &mut impl Write, offset: i64, text: &str) -> io::Result<()> {
    let mut message = Vec::with_capacity(16 + text.len());
    message.extend_from_slice(&offset.to_le_bytes());
    message.extend_from_slice(&(text.len() as u64).to_le_bytes());
    message.extend_from_slice(text.as_bytes());
    to.write_all(&message)?;
    to.flush()
}

/// Reads a request: `None` when the campaign has closed the pipe.
pub(super) fn read_request(from: &mut impl Read) -> io::Result<Option<(i64, String)>> {
    let mut header = [0u8; 16];
    match from.read_exact(&mut header) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => return Ok(None),
        Err(e) => return Err(e),
    }
    let offset = i64::from_le_bytes(header[..8].try_into().expect("eight bytes"));
    let len = u64::from_le_bytes(header[8..].try_into().expect("eight bytes"));
    let mut text = vec![0; usize::try_from(len).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))?];
    from.read_exact(&mut text)?;
    let text = String::from_utf8(text).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))?;
    Ok(Some((offset, text)))
}

/// The reply that tells `execution`.
pub(super) fn reply(execution: &Execution) -> Vec<u8> {
    let (kind, text): (u8, &str) = match execution {
        Execution::Output(text) => (0, text),
        Execution::Rejected(text) => (1, text),
        Execution::Crashed(text) => (2, text),
        Execution::CompilerCrashed(text) => (3, text),
        Execution::Timeout => (4, ""),
    };
    let mut message = Vec::with_capacity(REPLY_HEADER + text.len());
    message.push(kind);
    message.extend_from_slice(&(text.len() as u64).to_le_bytes());
    message.extend_from_slice(text.as_bytes());
    message
}

/// The length of the whole reply that starts with `header`.
pub(super) fn reply_len(header: &[u8; REPLY_HEADER]) -> u64 {
    (REPLY_HEADER as u64).saturating_add(u64::from_le_bytes(header[1..].try_into().expect("eight bytes")))
}

/// The execution a whole reply tells; `None` if it is not a reply.
pub(super) fn read_reply(message: &[u8]) -> Option<Execution> {
    let text = String::from_utf8_lossy(message.get(REPLY_HEADER..)?).into_owned();
    Some(match message.first()? {
        0 => Execution::Output(text),
        1 => Execution::Rejected(text),
        2 => Execution::Crashed(text),
        3 => Execution::CompilerCrashed(text),
        4 => Execution::Timeout,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_and_replies_read_back_as_written() {
        let mut pipe = Vec::new();
        write_request(&mut pipe, -1234, "print(1)\n").unwrap();
        write_request(&mut pipe, 5, "").unwrap();
        let mut reading = pipe.as_slice();
        assert_eq!(
            read_request(&mut reading).unwrap(),
            Some((-1234, "print(1)\n".to_string()))
        );
        assert_eq!(read_request(&mut reading).unwrap(), Some((5, String::new())));
        assert_eq!(read_request(&mut reading).unwrap(), None);
        for execution in [
            Execution::Output("1\n".into()),
            Execution::Rejected("trap".into()),
            Execution::Crashed("panicked: x".into()),
            Execution::CompilerCrashed("ice".into()),
            Execution::Timeout,
        ] {
            let message = reply(&execution);
            let header: [u8; REPLY_HEADER] = message[..REPLY_HEADER].try_into().unwrap();
            assert_eq!(reply_len(&header), message.len() as u64);
            assert_eq!(read_reply(&message), Some(execution));
        }
        assert_eq!(read_reply(&[9; REPLY_HEADER]), None);
    }
}
