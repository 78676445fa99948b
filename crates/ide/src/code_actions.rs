//! Quick fixes: the edits the diagnostics carry ([`Diagnostic::fixes`]): an unknown
//! instruction, macro, pseudo-op, symbol or register replaced with a name the assembler
//! suggests (`v_add_f23` → `v_add_f32`), a register count set to what the code uses.
//! Nothing is looked up again here.

use gcn_syntax::TextRange;

use crate::Diagnostic;

/// One fix: replace `range` with `replacement`, for `diagnostic`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QuickFix {
    pub title: String,
    pub range: TextRange,
    pub replacement: String,
    /// The one fix of its diagnostic: an editor may apply it at a keystroke.
    pub preferred: bool,
    pub diagnostic: Diagnostic,
}

/// The fixes of the diagnostics that `range` touches (a cursor inside or at either end of
/// one counts), in the order of the diagnostics and their fixes.
pub fn quick_fixes(diagnostics: &[Diagnostic], range: TextRange) -> Vec<QuickFix> {
    let touches = |d: &Diagnostic| d.range.start() <= range.end() && range.start() <= d.range.end();
    let mut out = Vec::new();
    for d in diagnostics.iter().filter(|d| touches(d)) {
        for fix in &d.fixes {
            out.push(QuickFix {
                title: fix.title.clone(),
                range: fix.range,
                replacement: fix.replacement.clone(),
                // A hint's fix is a suggestion (a count set on purpose, a wait kept
                // for later code): never applied as the one obvious fix.
                preferred: d.fixes.len() == 1 && d.severity != crate::Severity::Hint,
                diagnostic: d.clone(),
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use std::fmt::Write;
    use std::path::Path;

    use super::*;
    use crate::test_util::{analyse_case, check_dir_files, cursors, line_of, range_text};

    /// Each `$0` of a case: the fixes there, and the text with each applied.
    fn render(path: &Path, marked: &str) -> String {
        let (text, offsets) = cursors(marked);
        let analysis = analyse_case(path, &text);
        let mut out = String::new();
        for offset in offsets {
            let fixes = quick_fixes(&analysis.diagnostics, TextRange::empty(offset));
            let line = line_of(&text, offset);
            writeln!(out, "line {line}:").unwrap();
            if fixes.is_empty() {
                writeln!(out, "  (none)").unwrap();
            }
            for fix in fixes {
                let mut fixed = text.clone();
                fixed.replace_range(std::ops::Range::<usize>::from(fix.range), &fix.replacement);
                // The line the fix edits.
                let edited = line_of(&text, fix.range.start());
                let fixed_line = fixed.lines().nth(edited - 1).unwrap_or("");
                let star = if fix.preferred { " (preferred)" } else { "" };
                writeln!(
                    out,
                    "  {}{star} at {} -> {fixed_line:?}",
                    fix.title,
                    range_text(&text, fix.range)
                )
                .unwrap();
            }
        }
        out
    }

    /// The one-based line of `offset`.

    #[test]
    fn code_actions() {
        check_dir_files("code_actions", render);
    }
}
