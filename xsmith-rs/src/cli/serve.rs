//! `serve`: the generation server from the command line.

use std::io::Write;
use std::process::ExitCode;

use super::args::{random_seed, ServeArgs};
use crate::fuzzer::Fuzzer;
use crate::serve::{Config, Server};

/// Binds the address, prints `listening on http://ADDR:PORT` and serves
/// until the process is stopped; exit status 1 when the address cannot be
/// bound or the spec is wrong.
pub(super) fn serve(fuzzer: &Fuzzer, args: &ServeArgs) -> ExitCode {
    let config = Config {
        host: args.host.clone(),
        port: args.port,
        threads: args.threads.map_or_else(
            || std::thread::available_parallelism().map_or(1, |n| n.get()),
            |t| t as usize,
        ),
        first_seed: args.seed.unwrap_or_else(random_seed),
    };
    let server = match Server::bind(&config) {
        Ok(server) => server,
        Err(e) => {
            eprintln!("{}: error: {e}", fuzzer.name);
            return ExitCode::from(1);
        }
    };
    let mut stdout = std::io::stdout();
    let _ = writeln!(stdout, "listening on http://{}", server.address());
    let _ = stdout.flush();
    match server.run(fuzzer, &config) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{}: error: {e}", fuzzer.name);
            ExitCode::from(1)
        }
    }
}
