//! The README stays a first page: short, and every link in it (and in the
//! other top-level documents and the guide's pages) resolves inside the
//! repository, so a user who clones it meets no broken or outside link.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

/// The targets of a Markdown text's inline links, `[text](target)`, outside
/// code blocks and code spans.
fn link_targets(markdown: &str) -> Vec<String> {
    let mut targets = Vec::new();
    let mut in_block = false;
    for line in markdown.lines() {
        if line.trim_start().starts_with("```") {
            in_block = !in_block;
            continue;
        }
        if in_block {
            continue;
        }
        // Drop code spans, whose brackets are not links.
        let mut text = String::new();
        for (i, part) in line.split('`').enumerate() {
            if i % 2 == 0 {
                text.push_str(part);
            }
        }
        let mut rest = text.as_str();
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            let end = after.find(')').unwrap_or(after.len());
            targets.push(after[..end].to_string());
            rest = &after[end..];
        }
    }
    targets
}

/// Checks that every link of `file` (relative to the repository's root)
/// names a file or directory of the repository.
fn check_links(file: &str) -> usize {
    let path = root().join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{file}: {e}"));
    assert!(
        !text.contains("http://") && !text.contains("https://"),
        "{file} links outside the repository"
    );
    let targets = link_targets(&text);
    for target in &targets {
        let target = target.split('#').next().unwrap();
        assert!(!target.is_empty(), "{file}: an empty link");
        assert!(!target.contains("://"), "{file}: {target} is outside the repository");
        let resolved = path.parent().unwrap().join(target);
        let canonical = resolved
            .canonicalize()
            .unwrap_or_else(|_| panic!("{file}: the link `{target}` resolves to nothing"));
        assert!(
            canonical.starts_with(root().canonicalize().unwrap()),
            "{file}: the link `{target}` leaves the repository"
        );
    }
    targets.len()
}

#[test]
fn the_readme_is_short_and_its_links_resolve_inside_the_repository() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let lines = readme.lines().count();
    assert!(
        lines <= 260,
        "README.md has {lines} lines: move the detail into the guide"
    );
    assert!(
        check_links("README.md") >= 10,
        "the README links to the guide and the crates"
    );
}

#[test]
fn the_other_documents_link_inside_the_repository() {
    for file in ["ARCHITECTURE.md", "CHANGELOG.md"] {
        check_links(file);
    }
    let guide = root().join("xsmith-rs/src/guide");
    let mut pages = 0;
    for entry in std::fs::read_dir(&guide).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "md") {
            check_links(path.strip_prefix(root()).unwrap().to_str().unwrap());
            pages += 1;
        }
    }
    assert!(pages >= 8, "the guide's pages: {pages}");
}

#[test]
fn links_are_found_outside_code() {
    let text = "see [a](x.md) and `[b](y.md)`\n```\n[c](z.md)\n```\n[d](dir/#part)";
    assert_eq!(link_targets(text), ["x.md", "dir/#part"]);
}
