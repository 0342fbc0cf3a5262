//! `xsmith-lua serve` over real sockets: 8 clients at once ask for 125
//! programs each (1,000 in all), each client with its own options, and every answer is
//! byte for byte what the command line prints for the same seed and
//! options; choice files, `/next` and bad requests too.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};

const LUA: &str = env!("CARGO_BIN_EXE_xsmith-lua");

/// The server, killed when dropped.
struct Server {
    child: Child,
    base: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `xsmith-lua serve` on a free port; its base URL from the line
/// it prints first.
fn start(first_seed: u64) -> Server {
    let mut child = Command::new(LUA)
        .args([
            "serve",
            "--port",
            "0",
            "--threads",
            "4",
            "--seed",
            &first_seed.to_string(),
        ])
        .stdout(Stdio::piped())
        .spawn()
        .expect("xsmith-lua serve starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let base = line
        .trim_end()
        .strip_prefix("listening on ")
        .unwrap_or_else(|| panic!("the first line names the address: {line:?}"))
        .to_string();
    Server { child, base }
}

/// A GET's status, body and `X-Xsmith-Command` header.
fn get(url: &str) -> (u16, String, Option<String>) {
    match ureq::get(url).call() {
        Ok(response) => {
            let command = response.header("X-Xsmith-Command").map(str::to_string);
            (response.status(), response.into_string().unwrap(), command)
        }
        Err(ureq::Error::Status(status, response)) => (status, response.into_string().unwrap(), None),
        Err(e) => panic!("{url}: {e}"),
    }
}

/// The options of client `k`, as a query and as command-line arguments.
const CLIENTS: [(&str, &[&str]); 8] = [
    ("", &[]),
    ("max-depth=3", &["--max-depth", "3"]),
    ("max-depth=8", &["--max-depth", "8"]),
    ("size=60", &["--size", "60"]),
    ("size=1000", &["--size", "1000"]),
    ("swarm", &["--swarm"]),
    (
        "swarm&swarm-probability=0.25",
        &["--swarm", "--swarm-probability", "0.25"],
    ),
    (
        "type-max-depth=2&max-depth=5",
        &["--type-max-depth", "2", "--max-depth", "5"],
    ),
];

const PER_CLIENT: u64 = 125;

/// What the command line writes for client `k`'s seeds and options.
fn cli_programs(dir: &Path, k: u64) -> Vec<Vec<u8>> {
    let out = dir.join(format!("client-{k}"));
    let first = k * PER_CLIENT;
    let status = Command::new(LUA)
        .args(["--seed", &first.to_string(), "--count", &PER_CLIENT.to_string()])
        .args(["--output-dir", out.to_str().unwrap()])
        .args(CLIENTS[k as usize].1)
        .status()
        .unwrap();
    assert!(status.success());
    (first..first + PER_CLIENT)
        .map(|seed| std::fs::read(out.join(format!("{seed}.lua"))).unwrap())
        .collect()
}

#[test]
#[ignore = "heavy sweep: ./test.sh runs it (cargo test -- --include-ignored)"]
fn eight_clients_get_the_programs_the_command_line_prints() {
    let server = start(0);
    let served: Vec<Vec<(String, Option<String>)>> = std::thread::scope(|scope| {
        let clients: Vec<_> = (0..CLIENTS.len() as u64)
            .map(|k| {
                let base = &server.base;
                scope.spawn(move || {
                    (k * PER_CLIENT..(k + 1) * PER_CLIENT)
                        .map(|seed| {
                            let url = format!("{base}/program?seed={seed}&{}", CLIENTS[k as usize].0);
                            let (status, body, command) = get(&url);
                            assert_eq!(status, 200, "{url}: {body}");
                            (body, command)
                        })
                        .collect()
                })
            })
            .collect();
        clients.into_iter().map(|c| c.join().unwrap()).collect()
    });
    let dir = tempfile::tempdir().unwrap();
    for (k, answers) in served.iter().enumerate() {
        let expected = cli_programs(dir.path(), k as u64);
        for (i, ((body, command), cli)) in answers.iter().zip(&expected).enumerate() {
            let seed = k as u64 * PER_CLIENT + i as u64;
            assert!(
                body.as_bytes() == cli.as_slice(),
                "client {k}, seed {seed}: not the CLI's program"
            );
            // The header comment is the command (with the version after the name).
            let command = command.as_deref().expect("an X-Xsmith-Command header");
            assert!(command.starts_with(&format!("xsmith-lua --seed {seed}")), "{command}");
        }
    }
}

#[test]
fn choice_files_next_seeds_and_bad_requests() {
    let server = start(500);
    let base = &server.base;

    // A program's choices, posted back, give the program of `--choices`.
    let (status, choices, _) = get(&format!("{base}/choices?seed=9&max-depth=4"));
    assert_eq!(status, 200);
    assert!(choices.starts_with("xsmith-choices 1\n"), "{choices}");
    let posted = ureq::post(&format!("{base}/program?max-depth=4"))
        .send_string(&choices)
        .unwrap()
        .into_string()
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("posted.choices"), &choices).unwrap();
    let cli = Command::new(LUA)
        .args(["--choices", "posted.choices", "--max-depth", "4"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(cli.status.success());
    assert_eq!(posted.as_bytes(), cli.stdout.as_slice());
    let (_, seed_9, _) = get(&format!("{base}/program?seed=9&max-depth=4"));
    assert_eq!(
        posted.lines().skip(1).collect::<Vec<_>>(),
        seed_9.lines().skip(1).collect::<Vec<_>>()
    );

    // `/next` counts from the server's first seed.
    let (_, first, _) = get(&format!("{base}/next"));
    let (_, second, _) = get(&format!("{base}/next"));
    assert!(
        first.starts_with("-- xsmith-lua ") && first.lines().next().unwrap().ends_with("--seed 500"),
        "{first}"
    );
    assert!(second.lines().next().unwrap().ends_with("--seed 501"), "{second}");

    // Bad requests: a clear message and a status, never a dead server.
    let (status, body, _) = get(&format!("{base}/program?seed=1&max-depth=deep"));
    assert_eq!(status, 400);
    assert!(body.contains("max-depth") && body.contains("deep"), "{body}");
    let (status, body, _) = get(&format!("{base}/program?seed=1&count=3"));
    assert_eq!(status, 400);
    assert!(body.contains("--count"), "{body}");
    let (status, body, _) = get(&format!("{base}/program"));
    assert_eq!(status, 400);
    assert!(body.contains("seed"), "{body}");
    let (status, _, _) = get(&format!("{base}/elsewhere"));
    assert_eq!(status, 404);
    let bad = ureq::post(&format!("{base}/program")).send_string("not choices");
    assert!(matches!(bad, Err(ureq::Error::Status(400, _))));
    let (status, _, _) = get(&format!("{base}/program?seed=2"));
    assert_eq!(status, 200, "still serving");
}
