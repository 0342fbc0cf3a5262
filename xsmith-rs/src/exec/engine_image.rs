//! Naming an in-process engine to a worker process: the engine is a
//! function of this executable, and a worker runs the same executable
//! (started from `/proc/self/exe`, the very file this process runs, even if
//! it was replaced on disk since), so the engine's distance from a fixed
//! function of this crate is the same in both, wherever the loader put
//! the executable. An engine outside the executable's image (in a shared
//! library) has no such distance and runs on a thread instead.

use std::sync::OnceLock;

use super::engine::Engine;

/// The fixed point engines are measured from.
#[inline(never)]
fn anchor() -> u64 {
    std::hint::black_box(0x7873_6d69_7468)
}

fn anchor_address() -> usize {
    anchor as fn() -> u64 as usize
}

/// The address range of this executable's mappings, from
/// `/proc/self/maps`: those of the file that holds [`anchor`].
fn image() -> Option<(usize, usize)> {
    static IMAGE: OnceLock<Option<(usize, usize)>> = OnceLock::new();
    *IMAGE.get_or_init(|| {
        let maps = std::fs::read_to_string("/proc/self/maps").ok()?;
        let anchor = anchor_address();
        // `start-end perms offset dev inode path`
        let mapping = |line: &str| {
            let mut fields = line.split_whitespace();
            let (start, end) = fields.next()?.split_once('-')?;
            let path = fields.nth(4)?.to_string();
            Some((
                usize::from_str_radix(start, 16).ok()?,
                usize::from_str_radix(end, 16).ok()?,
                path,
            ))
        };
        let mappings: Vec<(usize, usize, String)> = maps.lines().filter_map(mapping).collect();
        let (_, _, file) = mappings
            .iter()
            .find(|(start, end, _)| (*start..*end).contains(&anchor))?;
        let of_file = mappings.iter().filter(|(_, _, path)| path == file);
        let start = of_file.clone().map(|(start, _, _)| *start).min()?;
        let end = of_file.map(|(_, end, _)| *end).max()?;
        Some((start, end))
    })
}

/// Where `engine` lies from the anchor, when it is part of this
/// executable; `None` when it is not (or `/proc` cannot tell).
pub(super) fn offset_of(engine: Engine) -> Option<i64> {
    let (start, end) = image()?;
    let address = engine as usize;
    if !(start..end).contains(&address) {
        return None;
    }
    Some(address as i64 - anchor_address() as i64)
}

/// The engine at `offset` from the anchor, when that lies in this
/// executable.
pub(super) fn engine_at(offset: i64) -> Option<Engine> {
    let (start, end) = image()?;
    let address = (anchor_address() as i64).checked_add(offset)? as usize;
    if !(start..end).contains(&address) {
        return None;
    }
    // SAFETY: the address is that of an `Engine` in the parent process
    // (which sent its offset from the anchor), and this process runs the
    // same executable file (`/proc/self/exe` of the parent), laid out
    // identically relative to the anchor; it lies within this image.
    Some(unsafe { std::mem::transmute::<usize, Engine>(address) })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exec::Execution;

    fn double(text: &str) -> Execution {
        Execution::Output(format!("{text}{text}"))
    }

    #[test]
    fn an_engine_of_this_executable_is_found_again_from_its_offset() {
        let offset = offset_of(double).expect("the engine is in this executable");
        let engine = engine_at(offset).unwrap();
        assert_eq!(engine("ab"), Execution::Output("abab".into()));
        assert!(engine_at(i64::MAX).is_none());
        assert!(engine_at(-(anchor_address() as i64) + 16).is_none());
    }
}
