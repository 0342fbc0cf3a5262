//! Issue 25's Bonsai measurement: corpora that `corpus` grew (Bonsai,
//! fuzz-then-reduce, any seeds) compared at equal coverage, on the
//! `curve.tsv` each wrote (the bytes and coverage of each prefix of the
//! corpus, in the set cover's order). Two corpora seldom cover exactly as
//! much, so each is cut to its shortest prefix that covers as much as the
//! corpus that covers least, and the bytes of those prefixes compare.
//!
//! ```text
//! B=target/fuzz-wasmi-wasmtime-cranelift/x86_64-unknown-linux-gnu/release/xsmith-wasm-edges
//! $B corpus --coverage engines --method fuzz-then-reduce --budget 10 --reduce-budget 10 --out ftr
//! $B corpus --coverage engines --budget 1600 --out bonsai   # the seconds fuzz-then-reduce took
//! cargo run --release -p xsmith-wasm --example corpus_comparison -- docs/corpus-wasm.svg bonsai=bonsai ftr=ftr
//! ```
//!
//! It prints a table (each corpus whole, then cut to the least coverage)
//! and draws every curve, bytes against coverage, into the SVG file, up
//! to a quarter more bytes than any corpus needs for the least coverage.

use std::path::Path;

use xsmith::plot::{draw_lines, Line};

/// One corpus's curve: for each prefix, (bytes, covered).
struct Curve {
    name: String,
    points: Vec<(usize, usize)>,
}

impl Curve {
    /// The curve of the corpus in `dir`, from its `curve.tsv`.
    fn read(name: &str, dir: &Path) -> Result<Curve, String> {
        let path = dir.join("curve.tsv");
        let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let number = |field: Option<&str>, line: &str| -> Result<usize, String> {
            field
                .and_then(|n| n.parse().ok())
                .ok_or_else(|| format!("{}: not a row of programs, bytes, covered: {line}", path.display()))
        };
        let points = text
            .lines()
            .skip(1)
            .map(|line| {
                let mut fields = line.split('\t').skip(1);
                Ok((number(fields.next(), line)?, number(fields.next(), line)?))
            })
            .collect::<Result<Vec<_>, String>>()?;
        if points.is_empty() {
            return Err(format!("{}: an empty corpus", path.display()));
        }
        Ok(Curve {
            name: name.to_string(),
            points,
        })
    }

    /// The programs and bytes of the shortest prefix that covers `goal`.
    fn prefix_covering(&self, goal: usize) -> Option<(usize, usize)> {
        let i = self.points.iter().position(|&(_, covered)| covered >= goal)?;
        Some((i + 1, self.points[i].0))
    }
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [out, corpora @ ..] = args.as_slice() else {
        return Err("usage: corpus_comparison OUT.svg NAME=DIR...".into());
    };
    let curves = corpora
        .iter()
        .map(|arg| {
            let (name, dir) = arg.split_once('=').ok_or_else(|| format!("{arg}: not NAME=DIR"))?;
            Curve::read(name, Path::new(dir))
        })
        .collect::<Result<Vec<_>, String>>()?;
    let Some(least) = curves.iter().map(|c| c.points[c.points.len() - 1].1).min() else {
        return Err("usage: corpus_comparison OUT.svg NAME=DIR...: no corpus".into());
    };
    println!("| corpus | programs | bytes | mean bytes | covered | programs at {least} | bytes at {least} |");
    println!("|---|---|---|---|---|---|---|");
    for curve in &curves {
        let (bytes, covered) = curve.points[curve.points.len() - 1];
        let programs = curve.points.len();
        let (cut_programs, cut_bytes) = curve.prefix_covering(least).expect("every corpus covers the least");
        println!(
            "| {} | {programs} | {bytes} | {} | {covered} | {cut_programs} | {cut_bytes} |",
            curve.name,
            bytes / programs
        );
    }
    // A corpus that covers much more than the others can be many times
    // their bytes: the plot shows the curves where they compare, up to a
    // quarter more than the most bytes a corpus needs for the least
    // coverage.
    let most = curves
        .iter()
        .filter_map(|curve| curve.prefix_covering(least))
        .map(|(_, bytes)| bytes)
        .max()
        .unwrap_or(0);
    let shown = most + most / 4;
    let lines: Vec<Line> = curves
        .iter()
        .map(|curve| Line {
            name: curve.name.clone(),
            points: curve
                .points
                .iter()
                .take_while(|&&(bytes, _)| bytes <= shown)
                .map(|&(b, c)| (b as f64, c as f64))
                .collect(),
        })
        .collect();
    let title = "coverage of each prefix of a corpus, by its bytes";
    draw_lines(Path::new(out), title, ("bytes", "covered"), &lines)
}
