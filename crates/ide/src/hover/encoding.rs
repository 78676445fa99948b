//! What an instruction's line encodes to: the words the assembler put in the section
//! and where, read from the finished sections (labels defined further on, literals and
//! expressions resolved at the end are in). A line of a macro or repetition body is
//! put once for each run.

use std::fmt::Write;

use gcn_asm::index::Placed;
use gcn_syntax::TextRange;

use super::Program;

/// At most this many placings are shown.
const MAX_SHOWN: usize = 8;

/// The text on what the statement spanning `range` in the hovered file encodes to;
/// `None` when the assembler put nothing there (an error, a skipped branch).
pub(super) fn encoded(program: Program, range: TextRange) -> Option<String> {
    let analysis = program.analysis;
    let file = analysis.file_id(program.file)?;
    let index = analysis.assembly.index.as_ref()?;
    let placed: Vec<&Placed> = index
        .placed
        .iter()
        .filter(|p| p.location.file == file && range.contains(p.location.offset.into()))
        .collect();
    let lines: Vec<String> = placed
        .iter()
        .take(MAX_SHOWN)
        .filter_map(|p| placing(program, p))
        .collect();
    let mut text = match lines.as_slice() {
        [] => return None,
        [one] if placed.len() == 1 => format!("**Encoded** at {one}"),
        _ => {
            let mut text = format!("**Encoded** {} times:", placed.len());
            for line in &lines {
                write!(text, "\n- {line}").unwrap();
            }
            if placed.len() > MAX_SHOWN {
                write!(text, "\n- … and {} more", placed.len() - MAX_SHOWN).unwrap();
            }
            text
        }
    };
    if analysis.assembly.has_errors() {
        text.push_str("\n\n(The source has errors: a value not resolved is 0 here.)");
    }
    Some(text)
}

/// `` `.text+0x1c (kernel k)`: `7e020280 3f800000` ``: the place and words as
/// `gcnasm --emit listing` writes them, the words as the reference's disassembler does
/// (32-bit, little-endian in the section).
fn placing(program: Program, p: &Placed) -> Option<String> {
    let assembly = &program.analysis.assembly;
    let words: Vec<String> = assembly
        .placed_words(p)?
        .iter()
        .map(|w| format!("{w:08x}"))
        .collect();
    Some(format!(
        "`{}`: `{}`",
        assembly.placed_section(p),
        words.join(" ")
    ))
}
