//! Lua 5.4 in this process (the `in-process` feature): the reference
//! interpreter's C, built from source by `mlua`'s vendored `lua-src`, run
//! through `mlua`. It is the one Lua whose code can be compiled with
//! SanitizerCoverage into the fuzzer's own binary (`fuzz/build --fuzzer
//! lua`), so that `corpus --coverage engines` and `guided` measure and
//! steer by the interpreter's edges, as they do by wasmi's and wasmtime's
//! for WebAssembly.
//!
//! Each run gets a fresh interpreter with the standard libraries. What a
//! program writes (`io.write`, `print`) is kept in memory instead of going
//! to the process's standard output: the two functions are replaced by
//! Rust ones that write what Lua's own would (`io.write` formats numbers
//! as `lua_Number`s with `%.14g` and integers in decimal, `print` calls
//! `tostring` and separates by tabs). A run is limited to
//! [`INSTRUCTIONS`] virtual-machine instructions (past them it is
//! [`Execution::Timeout`]) and [`MEMORY`] bytes.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use mlua::{Function, HookTriggers, Lua, LuaString, MultiValue, Value, VmState};
use xsmith::{Execution, Implementation};

/// The virtual-machine instructions a run may execute.
pub const INSTRUCTIONS: u64 = 1_000_000_000;

/// The bytes a run's interpreter may allocate.
pub const MEMORY: usize = 1 << 30;

/// How often (in instructions) the budget is checked.
const CHECK_EVERY: u32 = 10_000;

/// The in-process Lua 5.4, as an implementation for `diff`, campaigns,
/// `corpus --coverage engines` and `guided`.
///
/// ```
/// use xsmith::Execution;
/// let run = xsmith_lua::in_process::LUA.run(std::path::Path::new("unused"), "io.write(6 * 7, '\\n')", &Default::default());
/// assert_eq!(run.execution, Execution::Output("42\n".into()));
/// ```
pub const LUA: Implementation = Implementation::InProcess {
    name: "lua5.4-in-process",
    run,
};

/// Runs a program on a fresh Lua 5.4: what it wrote, or why it did not
/// finish.
///
/// ```
/// use xsmith::Execution;
/// use xsmith_lua::in_process::run;
/// assert_eq!(run("print(1, 'a', 2.5, nil)"), Execution::Output("1\ta\t2.5\tnil\n".into()));
/// assert!(matches!(run("x ="), Execution::Rejected(_)));
/// assert!(matches!(run("error('no')"), Execution::Rejected(_)));
/// assert_eq!(run("while true do end"), Execution::Timeout);
/// ```
pub fn run(program: &str) -> Execution {
    let lua = Lua::new();
    let output = Rc::new(RefCell::new(Vec::new()));
    let out_of_time = Rc::new(Cell::new(false));
    if let Err(e) = prepare(&lua, &output, &out_of_time) {
        return Execution::Crashed(format!("lua5.4-in-process: setting up: {e}"));
    }
    let finished = lua.load(program).set_name("=program").exec();
    lua.remove_hook();
    if out_of_time.get() {
        return Execution::Timeout;
    }
    match finished {
        Ok(()) => Execution::Output(String::from_utf8_lossy(&output.borrow()).into_owned()),
        Err(e) => Execution::Rejected(format!("lua5.4-in-process: {e}")),
    }
}

/// Replaces `io.write` and `print` by writers into `output`, and sets the
/// limits: past [`INSTRUCTIONS`], `out_of_time` is set and every
/// instruction from then on raises an error (a `pcall` catches one, but
/// the code around it fails at its next instruction).
fn prepare(lua: &Lua, output: &Rc<RefCell<Vec<u8>>>, out_of_time: &Rc<Cell<bool>>) -> mlua::Result<()> {
    lua.set_memory_limit(MEMORY)?;
    let checks = Cell::new(0u64);
    let flag = Rc::clone(out_of_time);
    lua.set_hook(HookTriggers::new().every_nth_instruction(CHECK_EVERY), move |lua, _| {
        checks.set(checks.get() + 1);
        if checks.get() * u64::from(CHECK_EVERY) <= INSTRUCTIONS {
            return Ok(VmState::Continue);
        }
        flag.set(true);
        // From now on every instruction fails: code outside the `pcall`
        // that caught this error fails too, up to the main chunk.
        lua.set_hook(HookTriggers::new().every_nth_instruction(1), |_, _| {
            Err(mlua::Error::runtime("out of instructions"))
        })?;
        Err(mlua::Error::runtime("out of instructions"))
    })?;
    let globals = lua.globals();
    let format: Function = globals.get::<mlua::Table>("string")?.get("format")?;
    let written = Rc::clone(output);
    let write = lua.create_function(move |_, values: MultiValue| {
        let mut written = written.borrow_mut();
        for value in values {
            match value {
                Value::String(s) => written.extend_from_slice(&s.as_bytes()),
                Value::Integer(i) => written.extend_from_slice(i.to_string().as_bytes()),
                Value::Number(n) => {
                    let text: LuaString = format.call(("%.14g", n))?;
                    written.extend_from_slice(&text.as_bytes());
                }
                other => {
                    return Err(mlua::Error::runtime(format!(
                        "bad argument to 'write' (string expected, got {})",
                        other.type_name()
                    )))
                }
            }
        }
        Ok(())
    })?;
    globals.get::<mlua::Table>("io")?.set("write", write)?;
    let tostring: Function = globals.get("tostring")?;
    let printed = Rc::clone(output);
    let print = lua.create_function(move |_, values: MultiValue| {
        let mut line = Vec::new();
        for (i, value) in values.into_iter().enumerate() {
            if i > 0 {
                line.push(b'\t');
            }
            let text: LuaString = tostring.call(value)?;
            line.extend_from_slice(&text.as_bytes());
        }
        line.push(b'\n');
        printed.borrow_mut().extend_from_slice(&line);
        Ok(())
    })?;
    globals.set("print", print)
}
