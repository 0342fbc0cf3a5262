//! Isolated and global scopes (`scope { .. => isolated }`, `global`) on a
//! real implementation: a small Python of module-level globals, classes
//! and functions, where a function body and a class body see their own
//! names and the module's, never those of the class or function around
//! them (Python's rule for class bodies, which `python3` enforces with a
//! `NameError`). Every program runs clean on `python3`; the same language
//! with plain sequential scopes does not, so the test can fail.

use std::io::Write;
use std::process::{Command, Stdio};

use xsmith::{component, Doc, Generator, Random, RenderNode, Spec};

/// `head:`, then `body` indented by four on the lines after it.
fn suite<'a>(n: &RenderNode<'a>, head: String, body: Doc<'a>) -> Doc<'a> {
    n.text(head).append(n.hardline().append(body).nest(4))
}

macro_rules! python {
    ($name:ident, $body_scope:ident) => {
        component! {
            fn $name;
            grammar {
                Program { stmts: [Stmt; 1..=6] }
                abstract Stmt {}
                Let: Stmt { init: Expr }
                Print: Stmt { value: Expr }
                Class: Stmt { body: Suite }
                Def: Stmt { body: Suite }
                Suite { stmts: [Stmt; 1..=4] }
                abstract Expr {}
                Int: Expr { value = |r| r.int_in(0, 9) }
                Ref: Expr {}
                Add: Expr { left: Expr, right: Expr }
            }
            scope { Program => global, Suite => $body_scope }
            lift_predicate { Program => stmts, Suite => stmts }
            binder_info { Let => definition(name, read_only) }
            reference_info { Ref => read(name) }
            choice_weight { Ref => 12, Class => 3, Def => 3 }
            choice_filters { Class => |h| h.depth() < 6, Def => |h| h.depth() < 6 }
            render {
                Program => [join(stmts, [hardline]), hardline],
                Let => [name, " = ", init],
                Print => ["print(", value, ")"],
                Class => |n| suite(n, format!("class {}:", n.hidden_name("C")), n.child("body")),
                Def => |n| {
                    let f = n.hidden_name("f");
                    let def = suite(n, format!("def {f}():"), n.child("body").append(n.hardline()).append("return 0"));
                    def.append(n.hardline()).append(format!("{f}()"))
                },
                Suite => [join(stmts, [hardline])],
                Int => [value],
                Ref => [name],
                Add => ["(", left, " + ", right, ")"],
            }
        }
    };
}

python!(isolated_python, isolated);
python!(sequential_python, sequential);

/// Runs `programs` on `python3`, each with fresh globals, in one process:
/// the error of each program that fails (`seed N: NameError: ..`).
fn python3(programs: &[String]) -> Vec<String> {
    const DRIVER: &str = r#"
import sys
for seed, source in enumerate(sys.stdin.read().split("\n#---\n")):
    try:
        exec(compile(source, f"seed {seed}", "exec"), {})
    except Exception as e:
        print(f"seed {seed}: {type(e).__name__}: {e}", file=sys.stderr)
"#;
    let mut child = Command::new("python3")
        .args(["-c", DRIVER])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python3 runs (Debian package python3, installed by ./test.sh)");
    let input = programs.join("\n#---\n");
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    assert!(output.status.success(), "the driver runs");
    String::from_utf8_lossy(&output.stderr)
        .lines()
        .map(String::from)
        .collect()
}

/// The programs of seeds `0..count`.
fn programs(spec: &Spec, count: u64) -> Vec<String> {
    let mut generator = Generator::new(spec, Default::default()).unwrap();
    (0..count)
        .map(|seed| {
            let tree = generator.generate(&mut Random::from_seed(seed)).unwrap();
            xsmith::render::render_tree(spec, &tree, 100)
        })
        .collect()
}

#[test]
fn isolated_scopes_hide_enclosing_names_and_keep_globals_on_python3() {
    let spec = Spec::assemble("Program", [isolated_python()]).unwrap();
    let programs = programs(&spec, 300);
    let errors = python3(&programs);
    assert!(errors.is_empty(), "python3 fails: {errors:#?}");
    let mut seen_inside = 0;
    for program in &programs {
        // A module-level name read inside a function or class body.
        let globals: Vec<&str> = program
            .lines()
            .filter(|l| !l.starts_with(' '))
            .filter_map(|l| l.split_once(" = ").map(|(name, _)| name))
            .collect();
        let inside = program.lines().filter(|l| l.starts_with(' '));
        seen_inside += inside
            .filter(|l| {
                globals
                    .iter()
                    .any(|g| l.split(|c: char| !c.is_alphanumeric()).any(|w| w == *g))
            })
            .count();
    }
    assert!(
        seen_inside > 1_000,
        "globals are read inside isolated scopes ({seen_inside})"
    );
}

#[test]
fn the_same_language_with_sequential_scopes_is_rejected_by_python3() {
    let spec = Spec::assemble("Program", [sequential_python()]).unwrap();
    let errors = python3(&programs(&spec, 300));
    let failing = errors.iter().filter(|e| e.contains("NameError")).count();
    assert!(
        failing > 10,
        "without isolation a class body's names leak into functions: {errors:?}"
    );
}
