//! Branches of conditionals the assembler did not assemble (`.ifarch GCN1.4` when the
//! source is for GCN 1.2, the `.else` after a branch taken), shown faded as inactive
//! code: a hint over the branch's lines (code [`INACTIVE_BRANCH`]), as editors grey out
//! a C preprocessor's inactive branches. Only conditionals in the source's own text:
//! one in a macro or repetition may go another way on another run.

use std::collections::BTreeMap;

use gcn_asm::index::{Branch, Decision};
use gcn_asm::Assembly;
use gcn_syntax::{TextRange, TextSize};

use crate::diagnostics::{Diagnostic, Severity, INACTIVE_BRANCH};

/// The longest header quoted in a hint.
const MAX_QUOTED: usize = 60;

/// A hint over the lines of each branch of the source's conditionals that no run of
/// the assembler took.
pub(crate) fn inactive_branches(assembly: &Assembly, text: &str) -> Vec<Diagnostic> {
    let Some(index) = &assembly.index else {
        return Vec::new();
    };
    // By header: a branch taken on any run is active (the source may be read twice).
    let mut branches: BTreeMap<u32, (Branch, bool)> = BTreeMap::new();
    for branch in index
        .branches
        .iter()
        .filter(|b| b.header.file == crate::analysis::SOURCE)
    {
        let entry = branches
            .entry(branch.header.offset)
            .or_insert((*branch, false));
        entry.1 |= branch.decision == Decision::Taken;
    }
    branches
        .into_values()
        .filter(|&(_, taken)| !taken)
        .filter_map(|(branch, _)| hint(&branch, text))
        .collect()
}

fn hint(branch: &Branch, text: &str) -> Option<Diagnostic> {
    let header_start = branch.header.offset as usize;
    let header_end = header_start + branch.header_len as usize;
    let branch_end = (header_start + branch.len as usize).min(text.len());
    // The places come from this text's own tree; `get` keeps a stale one harmless.
    let header = text.get(header_start..header_end)?;
    // Whole lines: from the one after the header to the one the next header (or
    // `.endif`) is on; to the end for a conditional left open.
    let start = text
        .get(header_end..)?
        .find('\n')
        .map(|i| header_end + i + 1)?;
    let end = if branch_end == text.len() {
        branch_end
    } else {
        line_start(text, branch_end)
    };
    if start >= end {
        return None;
    }
    let message = match branch.decision {
        Decision::False => format!(
            "not assembled: the condition of `{}` is false",
            quoted(header)
        ),
        _ => "not assembled: an earlier branch of this conditional was taken".to_string(),
    };
    Some(Diagnostic {
        range: TextRange::new(TextSize::from(start as u32), TextSize::from(end as u32)),
        severity: Severity::Hint,
        message,
        related: Vec::new(),
        code: Some(INACTIVE_BRANCH),
        fixes: Vec::new(),
    })
}

fn line_start(text: &str, offset: usize) -> usize {
    text.get(..offset)
        .unwrap_or(text)
        .rfind('\n')
        .map_or(0, |i| i + 1)
}

/// A header as one line, its spaces collapsed, cut at [`MAX_QUOTED`] characters.
fn quoted(header: &str) -> String {
    let one_line = header.split_whitespace().collect::<Vec<_>>().join(" ");
    match one_line.char_indices().nth(MAX_QUOTED) {
        Some((cut, _)) => format!("{}…", &one_line[..cut]),
        None => one_line,
    }
}
