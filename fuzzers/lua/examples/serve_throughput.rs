//! Programs per second three ways, for the same 8 x N programs (seeds 0 to
//! 8N - 1, default options): the command line spawned once per program
//! (what a harness had to do before `serve`), the command line writing
//! them all in one batch, and `serve` with 8 clients at once.
//!
//!   cargo build --release -p xsmith-lua
//!   cargo run --release -p xsmith-lua --example serve_throughput -- target/release/xsmith-lua 1000

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let binary = args
        .get(1)
        .expect("usage: serve_throughput BINARY [PER_CLIENT]")
        .clone();
    let per_client: u64 = args.get(2).map_or(1000, |n| n.parse().expect("a number"));
    let clients = 8u64;
    let total = clients * per_client;
    let scratch = tempfile::tempdir().unwrap();

    let spawned = total.min(400);
    let start = Instant::now();
    for seed in 0..spawned {
        let out = Command::new(&binary)
            .args(["--seed", &seed.to_string()])
            .output()
            .unwrap();
        assert!(out.status.success());
    }
    let per_spawn = spawned as f64 / start.elapsed().as_secs_f64();
    println!("CLI, one process per program: {per_spawn:.0} programs/s ({spawned} programs)");

    let start = Instant::now();
    let batch = Command::new(&binary)
        .args(["--seed", "0", "--count", &total.to_string(), "--output-dir"])
        .arg(scratch.path())
        .status()
        .unwrap();
    assert!(batch.success());
    let batch_rate = total as f64 / start.elapsed().as_secs_f64();
    println!("CLI, one batch (--count {total}, one thread): {batch_rate:.0} programs/s");

    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).to_string();
    let mut server = Command::new(&binary)
        .args(["serve", "--port", "0", "--threads", &threads])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(server.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let base = line.trim_end().strip_prefix("listening on ").unwrap().to_string();
    let start = Instant::now();
    std::thread::scope(|scope| {
        for k in 0..clients {
            let base = &base;
            scope.spawn(move || {
                let agent = ureq::agent();
                for seed in k * per_client..(k + 1) * per_client {
                    let body = agent
                        .get(&format!("{base}/program?seed={seed}"))
                        .call()
                        .unwrap()
                        .into_string()
                        .unwrap();
                    assert!(!body.is_empty());
                }
            });
        }
    });
    let served = total as f64 / start.elapsed().as_secs_f64();
    let _ = server.kill();
    let _ = server.wait();
    println!("serve, {clients} clients, {threads} threads: {served:.0} programs/s ({total} requests)");
}
