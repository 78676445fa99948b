//! Problems to show in the editor.
//!
//! An open source's diagnostics are the assembler's ([`crate::analysis`]): syntax,
//! assembling, encoding and the binary writer, the same `gcnasm` prints for the same
//! options. [`diagnostics`] gives the parser's syntax errors alone, for a text that is
//! not assembled.

use std::path::PathBuf;

use gcn_syntax::{Parse, TextRange};

/// How serious a diagnostic is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    Error,
    Warning,
    Information,
    Hint,
}

/// One problem: where (a byte range of the text), how serious, and what.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Diagnostic {
    pub range: TextRange,
    pub severity: Severity,
    pub message: String,
    /// Other places that explain it: where in an included file or macro body it
    /// arose, and the chain of calls and includes that led there, innermost first.
    pub related: Vec<Related>,
    /// For what the editor adds to the assembler's own diagnostics (which are
    /// `gcnasm`'s, and have none): what kind of check it is.
    pub code: Option<&'static str>,
    /// Edits that would correct it, each a quick fix ([`crate::code_actions`]): a name
    /// the text at `range` may be a slip for (the assembler's suggestions), a count set
    /// to what the code uses.
    pub fixes: Vec<Fix>,
}

/// An edit that corrects a diagnostic: `replacement` for the text at `range`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Fix {
    pub title: String,
    pub range: TextRange,
    pub replacement: String,
}

impl Fix {
    /// The fixes that replace the text at `range` (an unknown name) with one of the
    /// assembler's `suggestions`.
    pub fn renames(range: TextRange, suggestions: &[String]) -> Vec<Fix> {
        suggestions
            .iter()
            .map(|s| Fix {
                title: format!("Change to `{s}`"),
                range,
                replacement: s.clone(),
            })
            .collect()
    }
}

/// The code of the warning that `.sgprsnum`/`.vgprsnum` is below what the code uses.
pub const REGISTER_COUNT: &str = "register-count";
/// The code of the editor's warning about a register used while a memory load may
/// still write it (`gcn_asm::waits`).
pub const MISSING_WAITCNT: &str = "missing-waitcnt";
/// The code of the editor's warning about a register read too soon after a write, where
/// the program must give wait states (`gcn_asm::waits`, `s_nop`).
pub const MISSING_NOP: &str = "missing-nop";
/// The code of the editor's warning about a register a kernel reads before anything
/// writes it (`gcn_asm::waits`).
pub const UNINITIALIZED_REGISTER: &str = "uninitialized-register";
/// The code of the editor's hint that an `s_waitcnt` never waits (`gcn_asm::waits`): shown
/// as unnecessary code.
pub const NEEDLESS_WAITCNT: &str = "needless-waitcnt";
/// The code of the editor's hint on a branch of a conditional the assembler did not
/// assemble ([`crate::inactive_branches`]): shown as unnecessary code.
pub const INACTIVE_BRANCH: &str = "inactive-branch";
/// The code of the editor's hint that a kernel's `.sgprsnum`/`.vgprsnum` allocates so
/// many more registers than its code uses that fewer waves fit on a SIMD.
pub const OCCUPANCY: &str = "occupancy";
/// The code of the editor's note that its checks did not run on a source too long for
/// them (`gcn_asm::waits::MAX_CHECKED` instructions).
pub const CHECKS_SKIPPED: &str = "checks-skipped";
/// The code of a problem of the editor's settings or of `gcn.toml`.
pub const PROJECT_OPTIONS: &str = "project-options";

/// A place related to a diagnostic, in any file.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Related {
    pub file: PathBuf,
    pub range: TextRange,
    pub message: String,
}

/// The diagnostics of a parsed file, sorted by position.
pub fn diagnostics(parse: &Parse) -> Vec<Diagnostic> {
    parse
        .errors()
        .iter()
        .map(|e| Diagnostic {
            range: e.range,
            severity: Severity::Error,
            message: e.message.clone(),
            related: Vec::new(),
            code: None,
            fixes: Vec::new(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use std::fmt::Write;

    use super::*;
    use crate::test_util::{check_dir, range_text};

    fn render(text: &str) -> String {
        let parse = gcn_syntax::parse(text);
        let mut out = String::new();
        for d in diagnostics(&parse) {
            writeln!(
                out,
                "{:?} {}: {}",
                d.severity,
                range_text(text, d.range),
                d.message
            )
            .unwrap();
        }
        if out.is_empty() {
            out.push_str("no diagnostics\n");
        }
        out
    }

    #[test]
    fn snapshots() {
        check_dir("diagnostics", render);
    }

    #[test]
    fn valid_file_has_none() {
        let parse = gcn_syntax::parse(".kernel k\nk: s_mov_b32 s0, 1+2 # ok\n    s_endpgm\n");
        assert_eq!(diagnostics(&parse), []);
    }
}
