//! What an `s_waitcnt` waits for, from the assembler's check of loads in flight
//! ([`gcn_asm::waits::WaitEffect`]): the memory operations it guarantees done and those
//! it leaves in flight, on the paths the check follows. A wait in a macro or repetition
//! runs several times: what it does on any run is shown.

use std::fmt::Write;
use std::path::Path;

use gcn_asm::waits::Operation;
use gcn_syntax::TextRange;

use super::Program;

/// At most this many operations are named in each list.
const MAX_NAMED: usize = 8;

/// The text on what the wait whose statement spans `range` in the hovered file waits
/// for; `None` when the check did not run (turned off, or the wait was never reached).
pub(super) fn wait_effect(program: Program, range: TextRange) -> Option<String> {
    let analysis = program.analysis;
    let file = analysis.file_id(program.file)?;
    let within = |offset: u32| range.contains(offset.into());
    let effects: Vec<_> = analysis
        .assembly
        .wait_effects
        .iter()
        .filter(|e| e.at.file == file && within(e.at.offset))
        .collect();
    if effects.is_empty() {
        return None;
    }
    let mut retired: Vec<Operation> = Vec::new();
    let mut left: Vec<Operation> = Vec::new();
    for effect in &effects {
        for op in &effect.retired {
            if !retired.contains(op) {
                retired.push(*op);
            }
        }
        for op in &effect.left {
            if !left.contains(op) {
                left.push(*op);
            }
        }
    }
    // Done on one run, still in flight on another: it may be left.
    retired.retain(|op| !left.contains(op));
    let name = |op: &Operation| describe(program, op);
    let mut text = String::from("**Waits for** (the paths the wait check follows): ");
    if retired.is_empty() {
        text.push_str("nothing in flight here");
    } else {
        text.push_str(&list(&retired, name));
    }
    if !left.is_empty() {
        write!(text, ".\n\n**Left in flight:** {}", list(&left, name)).unwrap();
    }
    text.push('.');
    if effects.iter().any(|e| e.unfollowed) {
        text.push_str(
            "\n\nOperations the check does not follow may be in flight too (a callee's, a trap handler's, or where a jump through a register lands).",
        );
    }
    Some(text)
}

/// `` `mnemonic` (line N)``, with the file when it is another.
fn describe(program: Program, op: &Operation) -> String {
    let sources = &program.analysis.assembly.sources;
    let file = sources.file(op.at.file);
    let at = (op.at.offset as usize).min(file.text.len());
    let line = file.text.as_bytes()[..at]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1;
    let same = program.analysis.file_id(program.file) == Some(op.at.file);
    if same {
        format!("`{}` (line {line})", op.mnemonic)
    } else {
        let name = Path::new(&file.name)
            .file_name()
            .map_or(file.name.clone(), |n| n.to_string_lossy().into_owned());
        format!("`{}` ({name}:{line})", op.mnemonic)
    }
}

fn list(ops: &[Operation], name: impl Fn(&Operation) -> String) -> String {
    let mut ops = ops.to_vec();
    ops.sort_by_key(|op| (op.at.file.0, op.at.offset));
    let mut text: Vec<String> = ops.iter().take(MAX_NAMED).map(name).collect();
    if ops.len() > MAX_NAMED {
        text.push(format!("{} more", ops.len() - MAX_NAMED));
    }
    text.join(", ")
}
