//! The generation server (`xsmith-<lang> serve`): programs over HTTP, for
//! a harness that asks for programs instead of spawning the command line
//! once per program.
//!
//! | request | answer |
//! |---|---|
//! | `GET /program?seed=N&OPTIONS` | the program of seed `N`, as `xsmith-<lang> --seed N OPTIONS` prints it |
//! | `GET /choices?seed=N&OPTIONS` | its choice sequence (the format of `--save-choices`) |
//! | `POST /program?OPTIONS`, a choice file as the body | the program of those choices (as `--choices FILE`; its header names the file `posted.choices`) |
//! | `GET /next?OPTIONS` | the program of the server's next seed: the first seed, then the one after, ... |
//!
//! `OPTIONS` are the command line's generation options without their
//! dashes, `max-depth=8&without=Div&swarm` (a flag has no value). Answers
//! carry `X-Xsmith-Command`, the command that regenerates the program, and
//! `X-Xsmith-Seed` where there is a seed. A bad option is status 400 with
//! the command line's message; a program that cannot be generated, 500
//! with its error; an unknown path, 404.
//!
//! Built on `tiny_http`, a small synchronous HTTP/1.1 server: generation
//! is CPU-bound, so each of `threads` workers takes one request at a time
//! on a thread with the generation stack, keeping a generator for the
//! options it saw last.
//!
//! ```
//! # let fuzzer = xsmith::Fuzzer { name: "x", version: "1", extension: "t",
//! #     spec: || Ok(xsmith::example::spec()), comment: |t| format!("# {t}\n"), prelude: "", helpers: &[], width: 80,
//! #     implementations: &[] };
//! use std::io::{Read, Write};
//! let config = xsmith::serve::Config { host: "127.0.0.1".into(), port: 0, threads: 2, first_seed: 0 };
//! let server = xsmith::serve::Server::bind(&config).unwrap();
//! let address = server.address();
//! std::thread::scope(|scope| {
//!     scope.spawn(|| server.run(&fuzzer, &config));
//!     let mut stream = std::net::TcpStream::connect(address).unwrap();
//!     write!(stream, "GET /program?seed=3&max-depth=2 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").unwrap();
//!     let mut answer = String::new();
//!     stream.read_to_string(&mut answer).unwrap();
//!     assert!(answer.starts_with("HTTP/1.1 200"));
//!     assert!(answer.contains("\r\n\r\n# x 1 --seed 3 --max-depth 2\n"), "{answer}");
//!     server.stop();
//! });
//! ```

use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};

use clap::Parser;

use crate::choices::Choices;
use crate::fuzzer::{Fuzzer, Generated, Source, GENERATION_STACK};
use crate::generate::Generator;
use crate::options::Options;
use crate::spec::Spec;
use crate::swarm::SwarmArgs;

/// Where the server listens and how many requests it serves at once.
#[derive(Clone, Debug)]
pub struct Config {
    /// The address to listen on (`127.0.0.1`: this machine only).
    pub host: String,
    /// The port (0: any free one; [`Server::address`] says which).
    pub port: u16,
    /// How many requests are served at once.
    pub threads: usize,
    /// The seed of the first program of `GET /next`.
    pub first_seed: u64,
}

/// A bound generation server (see the [module docs](self)).
pub struct Server {
    http: tiny_http::Server,
    next: AtomicU64,
}

/// The generation options of one request, parsed as the command line
/// parses them.
#[derive(Parser, Debug)]
#[command(no_binary_name = true, disable_help_flag = true)]
struct Query {
    #[arg(long)]
    seed: Option<u64>,
    #[command(flatten)]
    generation: Options,
    #[command(flatten)]
    swarm: SwarmArgs,
}

/// An answer: status, body, and the headers `X-Xsmith-Seed` and
/// `X-Xsmith-Command`.
struct Answer {
    status: u16,
    body: String,
    seed: Option<u64>,
    command: Option<String>,
}

impl Answer {
    fn text(status: u16, message: impl Into<String>) -> Answer {
        let mut body = message.into();
        body.push('\n');
        Answer {
            status,
            body,
            seed: None,
            command: None,
        }
    }
}

/// The generator a worker keeps for the options it saw last.
struct Cached<'s> {
    options: Options,
    generator: Generator<'s>,
}

impl Server {
    /// Binds the address of `config`; an address that cannot be bound is
    /// an error that says so.
    pub fn bind(config: &Config) -> Result<Server, String> {
        let address = format!("{}:{}", config.host, config.port);
        let http = tiny_http::Server::http(&address).map_err(|e| format!("cannot listen on {address}: {e}"))?;
        Ok(Server {
            http,
            next: AtomicU64::new(config.first_seed),
        })
    }

    /// The address the server listens on.
    pub fn address(&self) -> SocketAddr {
        self.http
            .server_addr()
            .to_ip()
            .expect("a server bound by Server::bind listens on an IP address")
    }

    /// Serves requests on `config.threads` workers until [`stop`](Server::stop).
    pub fn run(&self, fuzzer: &Fuzzer, config: &Config) -> Result<(), String> {
        let spec = (fuzzer.spec)().map_err(|e| format!("the fuzzer's spec is wrong: {e}"))?;
        std::thread::scope(|scope| {
            for w in 0..config.threads.max(1) {
                let spec = &spec;
                let spawned = std::thread::Builder::new()
                    .name(format!("serve-{w}"))
                    .stack_size(GENERATION_STACK)
                    .spawn_scoped(scope, move || self.work(fuzzer, spec));
                if let Err(e) = spawned {
                    self.stop();
                    return Err(format!("cannot start a worker thread: {e}"));
                }
            }
            Ok(())
        })
    }

    /// Stops the server: every worker ends after the request it is serving.
    pub fn stop(&self) {
        self.http.unblock();
    }

    /// One worker: takes requests until the server stops.
    fn work(&self, fuzzer: &Fuzzer, spec: &Spec) {
        let mut cached: Option<Cached> = None;
        while let Ok(mut request) = self.http.recv() {
            let mut body = String::new();
            let answer = match request.as_reader().read_to_string(&mut body) {
                Ok(_) => self.answer(fuzzer, spec, &mut cached, request.method(), request.url(), &body),
                Err(e) => Answer::text(400, format!("the request's body is not text: {e}")),
            };
            let mut response = tiny_http::Response::from_string(answer.body).with_status_code(answer.status);
            let header = |name: &str, value: &str| tiny_http::Header::from_bytes(name.as_bytes(), value.as_bytes());
            if let Ok(h) = header("Content-Type", "text/plain; charset=utf-8") {
                response.add_header(h);
            }
            if let Some(Ok(h)) = answer.seed.map(|seed| header("X-Xsmith-Seed", &seed.to_string())) {
                response.add_header(h);
            }
            if let Some(Ok(h)) = answer.command.as_deref().map(|c| header("X-Xsmith-Command", c)) {
                response.add_header(h);
            }
            // A client that went away is no concern of the others.
            let _ = request.respond(response);
        }
        // Wake the other workers: `unblock` wakes one.
        self.http.unblock();
    }

    /// The answer to one request.
    fn answer<'s>(
        &self,
        fuzzer: &Fuzzer,
        spec: &'s Spec,
        cached: &mut Option<Cached<'s>>,
        method: &tiny_http::Method,
        url: &str,
        body: &str,
    ) -> Answer {
        let (path, query) = url.split_once('?').unwrap_or((url, ""));
        let query = match parse_query(query) {
            Ok(query) => query,
            Err(message) => return Answer::text(400, message),
        };
        let source = match (method, path) {
            (tiny_http::Method::Get, "/program" | "/choices") => match query.seed {
                Some(seed) => Source::Seed(seed),
                None => return Answer::text(400, "name the program's seed: ?seed=N"),
            },
            (tiny_http::Method::Get, "/next") if query.seed.is_none() => {
                Source::Seed(self.next.fetch_add(1, Ordering::Relaxed))
            }
            (tiny_http::Method::Get, "/next") => return Answer::text(400, "`/next` takes no seed: it has its own"),
            (tiny_http::Method::Post, "/program") => match Choices::parse(body) {
                Ok(choices) => Source::Choices {
                    path: "posted.choices".into(),
                    choices,
                },
                Err(e) => return Answer::text(400, format!("the posted choice file: {e}")),
            },
            (tiny_http::Method::Get, "/") => return Answer::text(200, USAGE.trim_start()),
            _ => return Answer::text(404, format!("no such request: {method} {path}\n{}", USAGE.trim_start())),
        };
        if query.seed.is_some() && !matches!(source, Source::Seed(_)) {
            return Answer::text(400, "a posted choice file takes no seed");
        }
        let seed = match source {
            Source::Seed(seed) => Some(seed),
            _ => None,
        };
        // A swarm program draws its own options from its seed.
        let options = match (query.swarm.swarm(), seed) {
            (Some(swarm), Some(seed)) => swarm.options(spec, &query.generation, seed),
            (Some(_), None) => return Answer::text(400, "swarm programs come from seeds, not choice files"),
            (None, _) => query.generation,
        };
        let generator = match cached {
            Some(c) if c.options == options => &mut c.generator,
            _ => match Generator::new(spec, options.clone()) {
                Ok(generator) => &mut cached.insert(Cached { options, generator }).generator,
                Err(e) => return Answer::text(400, e.to_string()),
            },
        };
        let command = fuzzer.command(&source, generator.options());
        match fuzzer.program(spec, generator, source) {
            Ok(Generated { text, choices, .. }) => Answer {
                status: 200,
                body: if path == "/choices" { choices.to_text() } else { text },
                seed,
                command: Some(command),
            },
            Err(e) => Answer {
                status: 500,
                body: format!("{e}\nregenerate with: {command}\n"),
                seed,
                command: Some(command),
            },
        }
    }
}

/// A request's query parsed as the command line's options: `max-depth=8`
/// is `--max-depth 8`, `swarm` is `--swarm`.
fn parse_query(query: &str) -> Result<Query, String> {
    let mut words = Vec::new();
    for (name, value) in form_urlencoded::parse(query.as_bytes()) {
        if name.is_empty() {
            continue;
        }
        words.push(format!("--{name}"));
        if !value.is_empty() {
            words.push(value.into_owned());
        }
    }
    Query::try_parse_from(&words).map_err(|e| {
        let message = e.render().to_string();
        // clap's usage lines name no binary; the first line says it all.
        message.lines().next().unwrap_or("bad options").to_string()
    })
}

/// What `GET /` answers.
const USAGE: &str = "
GET  /program?seed=N&OPTIONS   the program of seed N
GET  /choices?seed=N&OPTIONS   its choice sequence
POST /program?OPTIONS          the program of the posted choice file
GET  /next?OPTIONS             the program of the next seed (e.g. /next?swarm)
OPTIONS: the generation options without dashes, e.g. max-depth=8&without=Div&swarm
";

#[cfg(test)]
mod tests {
    use super::parse_query;

    #[test]
    fn queries_are_parsed_as_the_command_line() {
        let query = parse_query("seed=4&max-depth=3&without=Div&swarm").unwrap();
        assert_eq!(query.seed, Some(4));
        assert_eq!(query.generation.args(), ["--max-depth", "3", "--without", "Div"]);
        assert!(query.swarm.swarm.then_some(()).is_some());
        assert!(parse_query("max-depth=x").unwrap_err().contains("max-depth"));
        assert!(parse_query("count=3").unwrap_err().contains("--count"));
    }
}
