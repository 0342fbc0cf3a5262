//! `findings DIR...`: the four shards of a campaign, listed together, are
//! listed as the campaign run whole; and `findings --html` writes a page
//! that a real browser (Debian's headless chromium) loads with no console
//! error, holding every bug.

use std::path::Path;
use std::process::{Command, Output};

const CALC: &str = env!("CARGO_BIN_EXE_xsmith-calc");

fn calc(args: &[&str]) -> Output {
    Command::new(CALC).args(args).output().expect("xsmith-calc runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Differs on the programs whose seed ends in 7 (four of 40, so every
/// finding is saved in full, sharded or not).
const BY_SEED: &str =
    r#"planted=sh -c 'if head -n 1 "$0" | grep -q "seed [0-9]*7$"; then echo bad; else echo ok; fi' {}"#;

/// Differs on the programs that divide a sum (a finding that reduces).
const BY_CONTENT: &str = r#"planted=sh -c 'if grep -q "safe_div((" "$0"; then echo bad; else echo ok; fi' {}"#;

/// A campaign of 40 programs from seed 1 on an implementation that prints
/// `ok` and the `planted` one, with findings in `dir`.
fn campaign(dir: &Path, shard: &str, planted: &str) -> Output {
    calc(&[
        "diff",
        "--count",
        "40",
        "--seed",
        "1",
        "--shard",
        shard,
        "--jobs",
        "2",
        "--impl",
        "ok=sh -c 'echo ok' {}",
        "--impl",
        planted,
        "--findings",
        dir.to_str().unwrap(),
    ])
}

/// A listing without its first line (which names the directories), with
/// the directories' paths taken out of the findings' names.
fn body(listing: &str, dirs: &[&Path]) -> String {
    let mut body: String = listing.lines().skip(1).map(|l| format!("{l}\n")).collect();
    for dir in dirs {
        body = body.replace(&format!("{}/", dir.display()), "");
    }
    body
}

#[test]
fn four_shards_merge_into_the_listing_of_the_whole_campaign() {
    let root = tempfile::tempdir().unwrap();
    let whole = root.path().join("whole");
    let output = campaign(&whole, "1/1", BY_SEED);
    assert_eq!(output.status.code(), Some(1), "{}", text(&output.stderr));
    let shards: Vec<_> = (1..=4).map(|k| root.path().join(format!("shard-{k}"))).collect();
    for (k, dir) in shards.iter().enumerate() {
        let output = campaign(dir, &format!("{}/4", k + 1), BY_SEED);
        assert!(output.status.code().is_some(), "{}", text(&output.stderr));
    }

    let listed = calc(&["findings", whole.to_str().unwrap()]);
    assert!(listed.status.success(), "{}", text(&listed.stderr));
    let listed = text(&listed.stdout);
    let mut args = vec!["findings"];
    args.extend(shards.iter().map(|d| d.to_str().unwrap()));
    let merged = calc(&args);
    assert!(merged.status.success(), "{}", text(&merged.stderr));
    let merged = text(&merged.stdout);

    assert!(listed.contains("40 programs, 4 findings, 1 signature"), "{listed}");
    assert!(merged.contains("40 programs, 4 findings, 1 signature"), "{merged}");
    assert!(listed.contains("  seeds: 7 17 27 37\n"), "{listed}");
    let shard_paths: Vec<&Path> = shards.iter().map(|d| d.as_path()).collect();
    assert_eq!(body(&merged, &shard_paths), body(&listed, &[]));

    // A directory named twice is refused, not counted twice.
    let twice = calc(&["findings", whole.to_str().unwrap(), whole.to_str().unwrap()]);
    assert_eq!(twice.status.code(), Some(2));
    assert!(text(&twice.stderr).contains("is named twice"));
}

/// Runs headless chromium on `page` with `flags`; its output.
fn chromium(page: &Path, profile: &Path, flags: &[&str]) -> Output {
    Command::new("chromium")
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--enable-logging=stderr",
            "--v=0",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(flags)
        .arg(format!("file://{}", page.display()))
        .output()
        .expect("chromium runs: ./test.sh installs Debian's package `chromium`")
}

/// The console messages chromium logged while loading a page.
fn console_messages(stderr: &str) -> Vec<&str> {
    stderr.lines().filter(|line| line.contains(":CONSOLE")).collect()
}

#[test]
fn the_html_report_loads_in_a_browser_with_every_bug() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("findings");
    let output = campaign(&dir, "1/1", BY_CONTENT);
    assert_eq!(output.status.code(), Some(1), "{}", text(&output.stderr));
    // A reduced finding: the report shows the reduced program.
    let stdout = text(&output.stdout);
    let first = stdout
        .lines()
        .find_map(|line| {
            line.strip_prefix("differ seed ")?
                .split_once(": ")
                .map(|(_, dir)| dir.to_string())
        })
        .unwrap_or_else(|| panic!("a finding:\n{stdout}"));
    let reduce = calc(&["reduce", &first, "--time-budget", "60"]);
    assert!(reduce.status.success(), "{}", text(&reduce.stderr));
    let listing = text(&calc(&["findings", dir.to_str().unwrap()]).stdout);
    let counts = listing.lines().next().unwrap().split_once(": ").unwrap().1.to_string();
    let seeds = listing
        .lines()
        .find_map(|l| l.strip_prefix("  seeds: "))
        .unwrap()
        .to_string();

    let page = root.path().join("report.html");
    let report = calc(&["findings", dir.to_str().unwrap(), "--html", page.to_str().unwrap()]);
    assert!(report.status.success(), "{}", text(&report.stderr));
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(!html.contains("<script"), "the page is static");
    assert!(
        !html.contains("http://") && !html.contains("https://"),
        "the page fetches nothing"
    );

    let profile = tempfile::tempdir().unwrap();
    let loaded = chromium(&page, profile.path(), &["--dump-dom"]);
    assert!(loaded.status.success(), "{}", text(&loaded.stderr));
    let dom = text(&loaded.stdout);
    assert!(dom.contains("differ: ok | planted"), "the bug's signature:\n{dom}");
    assert!(dom.contains(&counts), "{counts}:\n{dom}");
    assert!(dom.contains(&format!("seeds {seeds}")), "{seeds}:\n{dom}");
    assert!(
        dom.contains("<mark>bad</mark>"),
        "the differing output is marked:\n{dom}"
    );
    assert!(
        dom.contains("xsmith-calc --choices"),
        "the reduced program's command:\n{dom}"
    );
    let stderr = text(&loaded.stderr);
    assert_eq!(
        console_messages(&stderr),
        Vec::<&str>::new(),
        "console messages:\n{stderr}"
    );

    // The check sees a console error where there is one.
    let bad = root.path().join("bad.html");
    std::fs::write(
        &bad,
        "<html><body><script>console.error('broken')</script></body></html>",
    )
    .unwrap();
    let profile = tempfile::tempdir().unwrap();
    let loaded = chromium(&bad, profile.path(), &["--dump-dom"]);
    let stderr = text(&loaded.stderr);
    assert!(
        console_messages(&stderr).iter().any(|m| m.contains("broken")),
        "a console error is logged:\n{stderr}"
    );
}
