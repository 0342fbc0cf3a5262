//! `findings DIR... --html OUT.html`: a [`Listing`] as one self-contained
//! HTML page (styles and charts inline, no script, nothing fetched), to
//! read in a browser or attach to a bug report. Per bug: its program (the
//! reduced one when there is a reduction; with reductions, one program for
//! each bug its findings' cores tell apart), each implementation's output
//! side by side with the lines that are not the same in all of them
//! marked, the command that regenerates the program, the features
//! associated with the bug as bars, and how its programs came over the
//! campaign; then the coverage plots (`*.svg`) the directories hold.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::listing::{reduction, Bug, Listing};
use crate::fuzzer::Fuzzer;

/// Writes the report page of `listing` to `out`.
///
/// ```
/// let dir = tempfile::tempdir().unwrap();
/// std::fs::write(dir.path().join("campaign-0-2.journal"),
///     "# x diff --count 2\n0 agree\n1 differ signature: differ: a | b\n").unwrap();
/// let listing = xsmith::campaign::Listing::read(&[dir.path().to_path_buf()], &[], 5).unwrap();
/// # let fuzzer = xsmith::Fuzzer { name: "x", version: "1", extension: "t",
/// #     spec: || Ok(xsmith::example::spec()), comment: |t| format!("# {t}\n"), prelude: "", helpers: &[], width: 80,
/// #     implementations: &[] };
/// let page = dir.path().join("report.html");
/// xsmith::campaign::write_report(&listing, &fuzzer, &page).unwrap();
/// assert!(std::fs::read_to_string(&page).unwrap().contains("differ: a | b"));
/// ```
pub fn write_report(listing: &Listing, fuzzer: &Fuzzer, out: &Path) -> std::io::Result<()> {
    std::fs::write(out, page(listing, fuzzer))
}

/// The whole page.
fn page(listing: &Listing, fuzzer: &Fuzzer) -> String {
    let mut html = String::new();
    let title = format!("{} findings", fuzzer.name);
    let _ = write!(
        html,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<h1>{}</h1>\n",
        escape(&title),
        escape(&title)
    );
    let dirs: Vec<String> = listing.dirs.iter().map(|d| d.display().to_string()).collect();
    let _ = writeln!(
        html,
        "<p class=\"summary\">{}, {}, {}, from {}</p>",
        plural(listing.programs, "program"),
        plural(listing.findings(), "finding"),
        plural(listing.bugs.len(), "signature"),
        escape(&dirs.join(", "))
    );
    if !listing.campaigns.is_empty() {
        html.push_str("<h2>Campaigns</h2>\n");
        for campaign in &listing.campaigns {
            let _ = writeln!(html, "<pre class=\"command\">{}</pre>", escape(campaign));
        }
    }
    if !listing.bugs.is_empty() {
        html.push_str("<h2>Bugs</h2>\n<ol class=\"toc\">\n");
        for (i, bug) in listing.bugs.iter().enumerate() {
            let _ = writeln!(
                html,
                "<li><a href=\"#bug-{}\">{}</a> ({}, {})</li>",
                i + 1,
                escape(&bug.signature),
                plural(bug.seeds.len(), "program"),
                status(bug)
            );
        }
        html.push_str("</ol>\n");
    }
    for (i, bug) in listing.bugs.iter().enumerate() {
        section(&mut html, i + 1, bug, listing, fuzzer);
    }
    plots(&mut html, &listing.dirs);
    html.push_str("</body>\n</html>\n");
    html
}

/// `n word`, with an `s` unless `n` is 1.
fn plural(n: usize, word: &str) -> String {
    format!("{n} {word}{}", if n == 1 { "" } else { "s" })
}

fn status(bug: &Bug) -> String {
    match &bug.known {
        Some(description) => format!("known: {}", escape(description)),
        None => "new".to_string(),
    }
}

/// One bug's section.
fn section(html: &mut String, number: usize, bug: &Bug, listing: &Listing, fuzzer: &Fuzzer) {
    let _ = writeln!(
        html,
        "<section class=\"bug\" id=\"bug-{number}\">\n<h2>{number}. {}</h2>\n<p>{} ({}); seeds {}</p>",
        escape(&bug.signature),
        plural(bug.seeds.len(), "program"),
        status(bug),
        escape(&seeds(&bug.seeds))
    );
    if bug.cores.iter().any(|c| c.core.is_some()) {
        cores(html, number, bug, fuzzer);
    } else {
        // The finding shown: the first with a reduction, else the first saved.
        let shown = bug
            .saved
            .iter()
            .find(|(_, path)| path.join("reduced").is_dir())
            .or(bug.saved.first());
        match shown {
            Some((name, path)) => finding(html, name, path, fuzzer),
            None => html.push_str("<p>No finding of this signature was saved in full.</p>\n"),
        }
    }
    features(html, bug);
    over_time(html, bug, listing.programs);
    html.push_str("</section>\n");
}

/// The bugs of a signature's saved findings, told apart by the cores of
/// their reductions: per bug, its status, its core, its findings and the
/// first one's reduced program and outputs.
fn cores(html: &mut String, number: usize, bug: &Bug, fuzzer: &Fuzzer) {
    let _ = writeln!(
        html,
        "<h3>{} by core</h3>\n<p>Its saved findings, told apart by the cores of their reductions (the productions and edges the bug needs).</p>",
        plural(bug.cores.len(), "bug")
    );
    for (i, core_bug) in bug.cores.iter().enumerate() {
        let names: Vec<String> = (core_bug.findings.iter())
            .map(|path| {
                path.file_name()
                    .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
            })
            .collect();
        let status = match &core_bug.known {
            Some(description) => format!("known: {}", escape(description)),
            None => "new".to_string(),
        };
        let core = match &core_bug.core {
            Some(core) => format!("<code>{}</code>", escape(&core.to_string())),
            None => "none: not reduced".to_string(),
        };
        let _ = writeln!(
            html,
            "<section class=\"core\" id=\"bug-{number}-{}\">\n<h3>{number}.{} {} ({status})</h3>\n<p>Core: {core}</p>\n<p>Findings: {}</p>",
            i + 1,
            i + 1,
            plural(core_bug.findings.len(), "finding"),
            escape(&names.join(" "))
        );
        if let (Some(name), Some(path)) = (names.first(), core_bug.findings.first()) {
            finding(html, name, path, fuzzer);
        }
        html.push_str("</section>\n");
    }
}

/// The seeds, the first 40 of them.
fn seeds(seeds: &[u64]) -> String {
    let mut shown: Vec<String> = seeds.iter().take(40).map(u64::to_string).collect();
    if seeds.len() > 40 {
        shown.push(format!("and {} more", seeds.len() - 40));
    }
    shown.join(" ")
}

/// A finding's program, command and outputs: those of its reduction if it
/// has one.
fn finding(html: &mut String, name: &str, path: &Path, fuzzer: &Fuzzer) {
    let reduced = path.join("reduced");
    let (dir, what) = match reduced.is_dir() {
        true => (
            reduced.clone(),
            format!("{name}, reduced ({})", reduction(path).unwrap_or_default()),
        ),
        false => (path.to_path_buf(), name.to_string()),
    };
    let read = |file: &str| std::fs::read_to_string(dir.join(file)).ok();
    let _ = writeln!(html, "<h3>Program: {}</h3>", escape(&what));
    if let Some(command) = read("command") {
        let _ = writeln!(
            html,
            "<p>Regenerate it with:</p>\n<pre class=\"command\">{}</pre>",
            escape(command.trim_end())
        );
    }
    match read(&format!("program.{}", fuzzer.extension)) {
        Some(program) => {
            let _ = writeln!(html, "<pre class=\"program\">{}</pre>", escape(&program));
        }
        None => {
            if let Some(error) = read("generation-error") {
                let _ = writeln!(html, "<pre class=\"program\">{}</pre>", escape(&error));
            }
        }
    }
    outputs(html, &dir);
}

/// Each implementation's output side by side; a line not the same in all
/// of them is marked.
fn outputs(html: &mut String, dir: &Path) {
    let mut statuses: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| entries.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    statuses.retain(|p| p.extension().is_some_and(|e| e == "status"));
    statuses.sort();
    if statuses.is_empty() {
        return;
    }
    let runs: Vec<(String, String, Vec<String>)> = statuses
        .iter()
        .map(|path| {
            let name = path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            let status = std::fs::read_to_string(path).unwrap_or_default();
            let stdout = std::fs::read_to_string(path.with_extension("stdout")).unwrap_or_default();
            let first = status.lines().next().unwrap_or_default().to_string();
            (name, first, stdout.lines().map(str::to_string).collect())
        })
        .collect();
    let longest = runs.iter().map(|(_, _, lines)| lines.len()).max().unwrap_or(0);
    let differs: Vec<bool> = (0..longest)
        .map(|i| {
            let first = runs[0].2.get(i);
            runs.iter().any(|(_, _, lines)| lines.get(i) != first)
        })
        .collect();
    let _ = writeln!(
        html,
        "<h3>Outputs</h3>\n<p>Lines not the same in every implementation are <mark>marked</mark>.</p>\n<div class=\"outputs\" style=\"grid-template-columns: repeat({}, minmax(0, 1fr))\">",
        runs.len()
    );
    for (name, status, lines) in &runs {
        let _ = write!(
            html,
            "<div class=\"run\"><h4>{}</h4><p class=\"status\">{}</p><pre>",
            escape(name),
            escape(status)
        );
        for (i, line) in lines.iter().enumerate() {
            match differs[i] {
                true => {
                    let _ = writeln!(html, "<mark>{}</mark>", escape(line));
                }
                false => {
                    let _ = writeln!(html, "{}", escape(line));
                }
            }
        }
        html.push_str("</pre></div>\n");
    }
    html.push_str("</div>\n");
}

/// The features over-represented in the bug's programs, as bars: the share
/// of its programs that have each, against the share of all programs.
fn features(html: &mut String, bug: &Bug) {
    if bug.features.is_empty() {
        return;
    }
    html.push_str(
        "<h3>Features associated with it</h3>\n<table class=\"features\">\n<tr><th>feature</th><th>share of its programs / of all programs</th><th>ratio</th></tr>\n",
    );
    for a in &bug.features {
        let share = |n: usize, of: usize| 100.0 * n as f64 / of.max(1) as f64;
        let (mine, all) = (share(a.selected, a.of_selected), share(a.all, a.of_all));
        let _ = writeln!(
            html,
            "<tr><td><code>{}</code></td><td><div class=\"bar mine\" style=\"width: {mine:.1}%\">{}/{}</div><div class=\"bar all\" style=\"width: {all:.1}%\">{}/{}</div></td><td>{:.1}x</td></tr>",
            escape(&a.feature),
            a.selected,
            a.of_selected,
            a.all,
            a.of_all,
            a.ratio()
        );
    }
    html.push_str("</table>\n");
}

/// How many of the bug's programs had come after each program of the
/// campaign (in seed order), as a line.
fn over_time(html: &mut String, bug: &Bug, programs: usize) {
    let (width, height) = (600.0, 120.0);
    let total = bug.positions.len().max(1) as f64;
    let x = |position: usize| 40.0 + (width - 50.0) * position as f64 / programs.max(1) as f64;
    let y = |count: usize| height - 20.0 - (height - 30.0) * count as f64 / total;
    let mut points = format!("{:.1},{:.1}", x(0), y(0));
    for (count, &position) in bug.positions.iter().enumerate() {
        let _ = write!(
            points,
            " {:.1},{:.1} {:.1},{:.1}",
            x(position),
            y(count),
            x(position),
            y(count + 1)
        );
    }
    let _ = write!(points, " {:.1},{:.1}", x(programs), y(bug.positions.len()));
    let _ = writeln!(
        html,
        "<h3>Over the campaign</h3>\n<svg class=\"timeline\" viewBox=\"0 0 {width} {height}\" width=\"{width}\" height=\"{height}\" role=\"img\" aria-label=\"programs of this bug against programs run\">\
         <line x1=\"40\" y1=\"{b}\" x2=\"{r}\" y2=\"{b}\" stroke=\"#888\"/><line x1=\"40\" y1=\"10\" x2=\"40\" y2=\"{b}\" stroke=\"#888\"/>\
         <polyline fill=\"none\" stroke=\"#c03\" stroke-width=\"2\" points=\"{points}\"/>\
         <text x=\"36\" y=\"16\" text-anchor=\"end\">{}</text><text x=\"36\" y=\"{b}\" text-anchor=\"end\">0</text>\
         <text x=\"{r}\" y=\"{t}\" text-anchor=\"end\">{programs} programs</text></svg>",
        bug.positions.len(),
        b = height - 20.0,
        r = width - 10.0,
        t = height - 4.0,
    );
}

/// The coverage plots of the directories, inline.
fn plots(html: &mut String, dirs: &[PathBuf]) {
    let mut files: Vec<PathBuf> = dirs
        .iter()
        .filter_map(|dir| std::fs::read_dir(dir).ok())
        .flat_map(|entries| entries.filter_map(|e| e.ok().map(|e| e.path())))
        .filter(|p| p.extension().is_some_and(|e| e == "svg"))
        .collect();
    files.sort();
    if files.is_empty() {
        return;
    }
    html.push_str("<h2>Coverage</h2>\n");
    for file in files {
        let Ok(svg) = std::fs::read_to_string(&file) else {
            continue;
        };
        // An SVG document inlined: its XML declaration dropped.
        let body = svg.find("<svg").map_or("", |at| &svg[at..]);
        let _ = writeln!(
            html,
            "<figure>{body}<figcaption>{}</figcaption></figure>",
            escape(&file.display().to_string())
        );
    }
}

/// Text made safe inside HTML elements and attribute values.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

const STYLE: &str = "
body { font-family: sans-serif; margin: 2em auto; max-width: 80em; padding: 0 1em; color: #222; }
pre { background: #f6f6f6; padding: 0.5em; overflow-x: auto; font-size: 85%; }
pre.program { max-height: 30em; overflow-y: auto; }
pre.command { white-space: pre-wrap; word-break: break-all; }
section.bug { border-top: 2px solid #ccc; margin-top: 2em; }
section.core { border-left: 3px solid #ddd; padding-left: 1em; margin: 1em 0; }
.outputs { display: grid; gap: 0.5em; }
.run h4 { margin: 0.2em 0; }
.run .status { margin: 0; color: #555; font-size: 85%; }
mark { background: #fd8; }
table.features { border-collapse: collapse; width: 100%; }
table.features td, table.features th { padding: 0.2em 0.5em; text-align: left; vertical-align: top; }
table.features td:nth-child(2) { width: 60%; }
.bar { font-size: 75%; white-space: nowrap; margin: 1px 0; min-width: 2em; }
.bar.mine { background: #e88; }
.bar.all { background: #aac; }
svg.timeline text { font-size: 11px; }
";

#[cfg(test)]
mod tests {
    use super::escape;

    #[test]
    fn escaping_leaves_no_markup() {
        assert_eq!(
            escape("<a href=\"x\">&'</a>"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;&lt;/a&gt;"
        );
    }
}
