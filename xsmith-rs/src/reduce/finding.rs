//! A finding directory as a reduction reads it (the command that
//! regenerates its program, the campaign's limits, the implementations it
//! ran on) and writes its result (`reduced/`).

use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::Parser;

use super::{Case, ReduceError, Reduced};
use crate::campaign::Verdict;
use crate::choices::Choices;
use crate::exec::{Implementation, Limits};
use crate::fuzzer::{Fuzzer, Source};
use crate::options::{self, Options};

/// What a finding directory says: how to regenerate its program and what
/// to run it on.
pub struct FindingCase<'f> {
    /// The fuzzer, options, implementations and limits.
    pub case: Case<'f>,
    /// Where the finding's program comes from.
    pub source: Source,
    /// The finding's verdict, as its directory's name tells it.
    pub verdict: Option<Verdict>,
}

/// The words of a finding's `command` file, as the generating command line
/// reads them (only what regenerates one program).
#[derive(Parser)]
#[command(no_binary_name = true)]
struct Regenerate {
    #[arg(long)]
    seed: Option<u64>,
    #[arg(long)]
    bytes: Option<PathBuf>,
    #[arg(long, default_value_t = 0)]
    bytes_offset: usize,
    #[arg(long)]
    choices: Option<PathBuf>,
    #[arg(long)]
    input: Option<PathBuf>,
    #[command(flatten)]
    generation: Options,
}

/// The limits of a finding's campaign command (the words of its
/// `campaign` file): `--timeout` and `--memory-limit`, or their defaults.
fn campaign_limits(words: &[String]) -> Result<Limits, String> {
    let value = |option: &str| words.iter().position(|w| w == option).and_then(|i| words.get(i + 1));
    let timeout = match value("--timeout") {
        Some(text) => options::parse_seconds(text)?,
        None => Duration::from_secs(10),
    };
    let memory: u64 = match value("--memory-limit") {
        Some(text) => text.parse().map_err(|e| format!("--memory-limit {text}: {e}"))?,
        None => 4096,
    };
    Ok(Limits {
        timeout,
        memory: (memory > 0).then_some(memory << 20),
        ..Limits::default()
    })
}

fn read(dir: &Path, file: &str) -> Result<String, ReduceError> {
    let path = dir.join(file);
    std::fs::read_to_string(&path).map_err(|e| ReduceError::Io(format!("{}: {e}", path.display())))
}

/// The words of a one-line command file, without the program's name.
fn words(dir: &Path, file: &str) -> Result<Vec<String>, ReduceError> {
    let line = read(dir, file)?;
    let words = shlex::split(line.trim()).ok_or_else(|| ReduceError::Io(format!("{file}: an unclosed quote")))?;
    Ok(words.into_iter().skip(1).collect())
}

/// Reads the finding in `dir`, saved by a campaign of `fuzzer`: the
/// options and source from its `command`, the limits from its `campaign`,
/// and the implementations from the `NAME=COMMAND` line of each
/// `<impl>.status` (an engine in the process is the fuzzer's own of that
/// name).
pub fn read_finding<'f>(fuzzer: &'f Fuzzer, dir: &Path) -> Result<FindingCase<'f>, ReduceError> {
    let command = words(dir, "command")?;
    let regenerate = Regenerate::try_parse_from(&command)
        .map_err(|e| ReduceError::Io(format!("{}: {e}", dir.join("command").display())))?;
    let source = match (regenerate.seed, regenerate.bytes, regenerate.choices) {
        _ if regenerate.input.is_some() => {
            let path = regenerate.input.expect("just seen");
            Source::Input {
                bytes: std::fs::read(&path).map_err(|e| ReduceError::Io(format!("{}: {e}", path.display())))?,
                path: path.display().to_string(),
            }
        }
        (_, _, Some(path)) => Source::from_choice_file(&path).map_err(ReduceError::Io)?,
        (_, Some(path), None) => Source::Bytes {
            bytes: std::fs::read(&path).map_err(|e| ReduceError::Io(format!("{}: {e}", path.display())))?,
            path: path.display().to_string(),
            offset: regenerate.bytes_offset,
        },
        (Some(seed), None, None) => Source::Seed(seed),
        (None, None, None) => return Err(ReduceError::Io("the finding's command names no seed".into())),
    };
    let limits = campaign_limits(&words(dir, "campaign")?)
        .map_err(|e| ReduceError::Io(format!("{}: {e}", dir.join("campaign").display())))?;
    // The directory is named after the finding's verdict: `differ-1234`.
    let name = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let verdict = name.split('-').next().and_then(|word| word.parse::<Verdict>().ok());
    let mut implementations = Vec::new();
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| ReduceError::Io(format!("{}: {e}", dir.display())))?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.extension().is_some_and(|e| e == "status"))
        .collect();
    entries.sort();
    for path in entries {
        let text = std::fs::read_to_string(&path).map_err(|e| ReduceError::Io(format!("{}: {e}", path.display())))?;
        let described = text.lines().nth(1).unwrap_or_default();
        let own = fuzzer.implementations.iter().find(|i| i.describe() == described);
        let implementation = match own {
            Some(implementation) => *implementation,
            None => {
                Implementation::parse(described).map_err(|e| ReduceError::Io(format!("{}: {e}", path.display())))?
            }
        };
        implementations.push(implementation);
    }
    if implementations.is_empty() {
        return Err(ReduceError::Io(format!(
            "{}: no `<impl>.status` file: not a finding with runs",
            dir.display()
        )));
    }
    Ok(FindingCase {
        case: Case {
            fuzzer,
            options: regenerate.generation,
            implementations,
            limits,
        },
        source,
        verdict,
    })
}

/// Writes `reduced` into `dir/reduced/`: the program, its choice file, the
/// command that regenerates it, each implementation's output and status,
/// and `sizes` (the signature; bytes, nodes and choices before and after;
/// tests run; seconds taken; the reduced program's productions, what the
/// bug needs). Returns the directory.
pub fn write_reduced(
    dir: &Path,
    fuzzer: &Fuzzer,
    options: &Options,
    reduced: &Reduced,
) -> Result<PathBuf, ReduceError> {
    let out = dir.join("reduced");
    let io = |e: std::io::Error| ReduceError::Io(format!("{}: {e}", out.display()));
    std::fs::create_dir_all(&out).map_err(io)?;
    let best = &reduced.reduced;
    let choices_path = out.join("choices");
    std::fs::write(&choices_path, Choices::from_values(&best.values).to_text()).map_err(io)?;
    let source = Source::Choices {
        path: choices_path.display().to_string(),
        choices: Choices::from_values(&best.values),
    };
    // The program as its own command prints it: the header names the choice file.
    let body = best.text.split_once('\n').map_or("", |(_, body)| body);
    let mut header = fuzzer.command_line(&source, options);
    let command = shlex::try_join(header.iter().map(String::as_str))
        .map_err(|e| ReduceError::Io(format!("the reduced program's command: {e}")))?;
    header.insert(1, fuzzer.version.to_string());
    let text = format!("{}{body}", (fuzzer.comment)(&header.join(" ")));
    std::fs::write(out.join(format!("program.{}", fuzzer.extension)), text).map_err(io)?;
    std::fs::write(out.join("command"), format!("{command}\n")).map_err(io)?;
    for (implementation, run) in &best.runs {
        let name = implementation.name();
        std::fs::write(out.join(format!("{name}.stdout")), &run.stdout).map_err(io)?;
        std::fs::write(out.join(format!("{name}.stderr")), &run.stderr).map_err(io)?;
        let status = format!("{}\n{}\n", run.status, implementation.describe());
        std::fs::write(out.join(format!("{name}.status")), status).map_err(io)?;
    }
    let original = &reduced.original;
    let sizes = format!(
        "signature {}\nbytes {} -> {}\nnodes {} -> {}\nchoices {} -> {}\ntests {}\nseconds {:.1}\nproductions {}\n",
        best.signature,
        original.text.len(),
        best.text.len(),
        original.nodes,
        best.nodes,
        original.values.len(),
        best.values.len(),
        reduced.tests,
        reduced.elapsed.as_secs_f64(),
        best.features.productions().collect::<Vec<_>>().join(" ")
    );
    std::fs::write(out.join("sizes"), sizes).map_err(io)?;
    Ok(out)
}
