//! Expand macro: what the macro calls and repetitions (`.rept`, `.irp`, `.irpc`, `.for`,
//! `.while`) written on the cursor's line expand to, as the assembler ran them: the
//! branch each conditional took, nested calls expanded, parameters, `\@` and `local`
//! names replaced. The source is assembled again with the assembler recording those
//! expansions ([`gcn_asm::expansion`]); a call the assembler never reached (in a branch
//! it skipped) has none.

use std::path::Path;

use gcn_asm::expansion::ExpandRequest;
use gcn_syntax::{TextRange, TextSize};

use crate::analysis::Analysis;

/// The expansion of a line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MacroExpansion {
    /// The line's statements (its text, blanks around it left out).
    pub range: TextRange,
    /// What ran, once or more: "macro `name`", "repetition 1/4", ….
    pub parts: Vec<String>,
    /// The statements it ran, as source text.
    pub text: String,
}

/// At most this many statements are shown (a call in a `.rept 100000` would otherwise
/// show the whole program).
pub const MAX_STATEMENTS: usize = 20_000;

/// The expansion of the calls and repetitions on the line of `offset` in `path` (the
/// analysed source or a file it includes); `None` when the assembler ran none there.
pub fn expand_macro(analysis: &Analysis, path: &Path, offset: TextSize) -> Option<MacroExpansion> {
    expand_at_most(analysis, path, offset, MAX_STATEMENTS)
}

fn expand_at_most(
    analysis: &Analysis,
    path: &Path,
    offset: TextSize,
    max_statements: usize,
) -> Option<MacroExpansion> {
    let file = analysis.file_id(path)?;
    let text = analysis.file_text(path)?;
    let range = line_at(text, offset)?;
    let mut options = analysis.asm_options.clone();
    options.record_symbols = false;
    options.cancel = None;
    options.encode_cache = None;
    options.expand = Some(ExpandRequest {
        file,
        start: range.start().into(),
        end: range.end().into(),
        max_statements,
    });
    let source = analysis.file_text(&analysis.path)?;
    let assembly = gcn_asm::assemble_parsed(
        analysis.path.display().to_string(),
        source.into(),
        analysis.parse.clone(),
        options,
    );
    let expansion = assembly.expansion?;
    if expansion.parts.is_empty() {
        return None;
    }
    Some(MacroExpansion {
        range,
        parts: expansion.parts.iter().map(|p| p.what.clone()).collect(),
        text: expansion.to_text(),
    })
}

/// The text of the line holding `offset`, with the lines a `\` at the end joins to
/// it (as the assembler joins them before it reads words), blanks at both ends left
/// out; `None` for a blank line.
fn line_at(text: &str, offset: TextSize) -> Option<TextRange> {
    let at = usize::from(offset).min(text.len());
    let mut start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    while start > 0 && continues(&text[..start - 1]) {
        start = text[..start - 1].rfind('\n').map_or(0, |i| i + 1);
    }
    let mut end = text[at..].find('\n').map_or(text.len(), |i| at + i);
    while end < text.len() && continues(&text[..end]) {
        end = text[end + 1..]
            .find('\n')
            .map_or(text.len(), |i| end + 1 + i);
    }
    let line = &text[start..end];
    let trimmed = line.trim();
    if trimmed.is_empty() {
        return None;
    }
    let lead = line.len() - line.trim_start().len();
    let from = start + lead;
    Some(TextRange::new(
        TextSize::from(from as u32),
        TextSize::from((from + trimmed.len()) as u32),
    ))
}

/// Whether the line `before` ends with (the text before its `\n`) goes on on the next
/// line.
fn continues(before: &str) -> bool {
    before.strip_suffix('\r').unwrap_or(before).ends_with('\\')
}

#[cfg(test)]
mod tests {
    use std::fmt::Write;

    use super::*;
    use crate::test_util::{analyse_case, check_dir_files, cursors, range_text};

    fn render(path: &Path, marked: &str) -> String {
        let (text, offsets) = cursors(marked);
        let analysis = analyse_case(path, &text);
        let mut out = String::new();
        for offset in offsets {
            let line = crate::test_util::line_of(&text, offset);
            match expand_macro(&analysis, path, offset) {
                None => writeln!(out, "== line {line}: none").unwrap(),
                Some(e) => {
                    writeln!(out, "== line {line}: {}", range_text(&text, e.range)).unwrap();
                    writeln!(out, "   ran: {}", e.parts.join(", ")).unwrap();
                    out.push_str(&e.text);
                }
            }
        }
        out
    }

    #[test]
    fn snapshots() {
        check_dir_files("expand_macro", render);
    }

    #[test]
    fn a_long_expansion_is_cut() {
        let text = "# args: -b rawcode\n.rept 10\n        s_nop 0\n.endr\n";
        let path = Path::new("/nonexistent/long.s");
        let analysis = analyse_case(path, text);
        let at = TextSize::from(text.find(".rept").unwrap() as u32);
        let expansion = expand_at_most(&analysis, path, at, 3).unwrap();
        assert_eq!(expansion.parts.len(), 3);
        assert!(
            expansion
                .text
                .ends_with("# … cut here: only the first 3 statements are shown\n"),
            "{}",
            expansion.text
        );
    }
}
