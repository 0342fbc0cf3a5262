//! What running in-process engines in supervised workers costs against
//! running them on threads: the same campaign of calc programs on two
//! engines that do almost nothing (so that the difference is all
//! overhead), once with each [`Isolation`], in turn, `ROUNDS` times.
//! Prints programs per second of each and the overhead per run.
//!
//! ```sh
//! cargo run --release -p xsmith-calc --example isolation_overhead -- 2000
//! ```

use std::time::Instant;

use xsmith::{Campaign, Execution, Implementation, Isolation};

/// How often each isolation runs the campaign.
const ROUNDS: usize = 3;

/// The program's length in bytes.
fn length(text: &str) -> Execution {
    Execution::Output(text.len().to_string())
}

/// The same as [`length`] on calc's ASCII programs, by another route: two
/// distinct engines that agree.
fn chars(text: &str) -> Execution {
    Execution::Output(text.chars().count().to_string())
}

fn main() {
    let count: u64 = std::env::args().nth(1).map_or(2000, |n| n.parse().expect("a count"));
    let mut seconds = [0.0f64; 2];
    for _ in 0..ROUNDS {
        for (i, isolation) in [Isolation::Thread, Isolation::Worker].into_iter().enumerate() {
            let findings = tempfile::tempdir().unwrap();
            let mut campaign = Campaign::new(&xsmith_calc::FUZZER, findings.path());
            (campaign.first_seed, campaign.count) = (0, count);
            campaign.implementations = vec![
                Implementation::InProcess {
                    name: "length",
                    run: length,
                },
                Implementation::InProcess {
                    name: "chars",
                    run: chars,
                },
            ];
            campaign.isolation = isolation;
            let started = Instant::now();
            let tally = campaign.run(&mut std::io::sink()).unwrap();
            seconds[i] += started.elapsed().as_secs_f64();
            assert_eq!(tally.agree, count);
        }
    }
    let runs = (ROUNDS as u64 * count * 2) as f64;
    for (i, name) in ["thread", "worker"].into_iter().enumerate() {
        println!("{name}: {:.0} programs/s", (ROUNDS as u64 * count) as f64 / seconds[i]);
    }
    println!(
        "worker/thread throughput {:.3}; overhead per run {:.1} us (jobs {})",
        seconds[0] / seconds[1],
        (seconds[1] - seconds[0]) / runs * 1e6,
        std::thread::available_parallelism().map_or(1, |n| n.get())
    );
}
