//! Command templates, as a fuzzer declares them or `--impl NAME=COMMAND`
//! gives them: the words of a template, and where its executable is.

use std::path::{Path, PathBuf};

/// The words of a command template, which must have at least one word and a
/// `{}` in some word.
pub(super) fn words(template: &str) -> Result<Vec<String>, String> {
    let words = shlex::split(template).ok_or_else(|| "the command has an unclosed quote".to_string())?;
    if words.is_empty() {
        return Err("the command is empty".into());
    }
    if !words.iter().any(|w| w.contains("{}")) {
        return Err("the command has no `{}` for the program file".into());
    }
    Ok(words)
}

/// Where the executable `command` is: itself when it has a `/`, else the
/// first match on the `PATH`.
pub(super) fn locate(command: &str) -> Option<PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    let executable = |path: &Path| {
        std::fs::metadata(path)
            .map(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
            .unwrap_or(false)
    };
    if command.contains('/') {
        let path = PathBuf::from(command);
        return executable(&path).then_some(path);
    }
    let paths = std::env::var_os("PATH")?;
    std::env::split_paths(&paths)
        .map(|dir| dir.join(command))
        .find(|path| executable(path))
}
