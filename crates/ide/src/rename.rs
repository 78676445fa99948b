//! Rename a name everywhere the analysis saw it: in the source and every file it
//! includes.
//!
//! What is renamed is the name's own text: the last part of a scoped name (`x` of
//! `s::x`, so a path still leads to it), a local label's number (`1` of `1b`), a
//! macro's, kernel's or scope's name (a scope in each `.scope`, `.using` and path that
//! names it); a kernel and the global label of its name are renamed together. Refused, with a message that says why: instruction names, registers,
//! pseudo-ops, numbers and anything else that is not a name the assembler defines or
//! uses; a new name that is not a valid symbol name (or, for a local label, not a
//! number), or one that already names something of the same kind (in any scope): the
//! two would become one, and the program would change without an error.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use gcn_asm::index::NameKind;
use gcn_syntax::{SyntaxKind, SyntaxToken, TextRange, TextSize};

use crate::analysis::Analysis;
use crate::symbol_index::NameOccurrence;

/// The edits of one file: ranges to replace, by place.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileEdit {
    pub file: PathBuf,
    pub edits: Vec<(TextRange, String)>,
}

/// What would be renamed at `offset` of `file`: its range and current text, or why it
/// cannot be.
pub fn prepare_rename(
    analysis: &Analysis,
    file: &Path,
    offset: TextSize,
) -> Result<(TextRange, String), String> {
    if let Some(p) = crate::navigation::parameter_at(analysis, file, offset) {
        if alternate_macro_syntax(analysis, file) {
            return Err(ALTERNATE_SYNTAX.into());
        }
        return Ok((crate::macro_params::range_at(&p, offset), p.name));
    }
    let o = renamable(analysis, file, offset)?;
    let range = name_part(analysis, o);
    let text = analysis
        .file_text(file)
        .and_then(|t| t.get(std::ops::Range::<usize>::from(range)))
        .unwrap_or_default()
        .to_string();
    Ok((range, text))
}

/// The edits that rename the name at `offset` of `file` to `new_name`, per file.
pub fn rename(
    analysis: &Analysis,
    file: &Path,
    offset: TextSize,
    new_name: &str,
) -> Result<Vec<FileEdit>, String> {
    if let Some(p) = crate::navigation::parameter_at(analysis, file, offset) {
        if alternate_macro_syntax(analysis, file) {
            return Err(ALTERNATE_SYNTAX.into());
        }
        let edits = crate::macro_params::rename(&p, new_name)?;
        return Ok(vec![FileEdit {
            file: crate::analysis::normalize(file),
            edits,
        }]);
    }
    let o = renamable(analysis, file, offset)?;
    check_new_name(o.kind, new_name)?;
    if let Some(other) = analysis.names.collision(o, new_name) {
        return Err(format!(
            "`{new_name}` already names {} ({}): the two names would become one and the program would change",
            what(other),
            place(analysis, other)
        ));
    }
    let mut files: BTreeMap<PathBuf, Vec<(TextRange, String)>> = BTreeMap::new();
    for x in analysis.names.related(o) {
        files
            .entry(x.file.to_path_buf())
            .or_default()
            .push((name_part(analysis, x), new_name.to_string()));
    }
    Ok(files
        .into_iter()
        .map(|(file, mut edits)| {
            edits.sort_by_key(|(r, _)| (r.start(), r.end()));
            edits.dedup();
            FileEdit { file, edits }
        })
        .collect())
}

/// Why a macro parameter is not renamed where the alternate syntax may be on.
const ALTERNATE_SYNTAX: &str = "with the alternate macro syntax (`.altmacro`, `-a`) a body \
    may use a parameter by its bare name, which rename does not follow: rename it by hand";

/// Whether macros may use their parameters without `\` in `file`: the alternate
/// syntax is on (`-a`), or the file turns it on somewhere (`.altmacro`).
fn alternate_macro_syntax(analysis: &Analysis, file: &Path) -> bool {
    analysis.asm_options.alt_macro
        || analysis.file_text(file).is_some_and(|t| {
            t.as_bytes()
                .windows(9)
                .any(|w| w.eq_ignore_ascii_case(b".altmacro"))
        })
}

/// The occurrence at `offset`, or why there is nothing to rename there.
fn renamable<'a>(
    analysis: &'a Analysis,
    file: &Path,
    offset: TextSize,
) -> Result<&'a NameOccurrence, String> {
    if let Some(o) = analysis.names.at(file, offset) {
        return Ok(o);
    }
    let token = analysis
        .parse_of(file)
        .and_then(|parse| token_at(&parse.syntax_node(), offset));
    Err(match token {
        Some(token) => refusal(&token),
        None => "there is no name here to rename".into(),
    })
}

/// The token at `offset`, preferring one that is not trivia.
fn token_at(root: &gcn_syntax::SyntaxNode, offset: TextSize) -> Option<SyntaxToken> {
    if offset > root.text_range().end() {
        return None;
    }
    let at = root.token_at_offset(offset);
    at.clone()
        .find(|t| !t.kind().is_trivia() && t.kind() != SyntaxKind::NEWLINE)
        .or_else(|| at.left_biased())
}

/// Why the token cannot be renamed.
fn refusal(token: &SyntaxToken) -> String {
    let text = token.text();
    let parent = token.parent().map(|p| p.kind());
    let first_of_parent = token
        .parent()
        .and_then(|p| p.first_token())
        .is_some_and(|t| t == *token);
    match (token.kind(), parent) {
        (SyntaxKind::NAME, Some(SyntaxKind::INSTRUCTION)) if first_of_parent => {
            format!("`{text}` is an instruction name: instruction names cannot be renamed")
        }
        (SyntaxKind::NAME, Some(SyntaxKind::PSEUDO_OP)) if first_of_parent => {
            format!("`{text}` is a pseudo-op: pseudo-ops cannot be renamed")
        }
        (SyntaxKind::NAME, Some(SyntaxKind::REGISTER)) => {
            format!("`{text}` is a register: registers cannot be renamed")
        }
        (SyntaxKind::NAME, _) if gcn_syntax::is_register_name(text, false) => {
            format!("`{text}` is a register: registers cannot be renamed")
        }
        (SyntaxKind::INT_NUMBER | SyntaxKind::FLOAT_NUMBER, _) => {
            format!("`{text}` is a number: numbers cannot be renamed")
        }
        (SyntaxKind::STRING, _) => "a string cannot be renamed".into(),
        (SyntaxKind::NAME, _) => {
            format!("`{text}` is not a name the assembler defines or uses here: nothing to rename")
        }
        _ => "there is no name here to rename".into(),
    }
}

/// The part of an occurrence that spells the name itself.
fn name_part(analysis: &Analysis, o: &NameOccurrence) -> TextRange {
    let text = analysis
        .file_text(&o.file)
        .and_then(|t| t.get(std::ops::Range::<usize>::from(o.range)))
        .unwrap_or_default();
    match o.kind {
        NameKind::LocalLabel => {
            let digits = text.bytes().take_while(u8::is_ascii_digit).count();
            TextRange::at(o.range.start(), TextSize::from(digits as u32))
        }
        NameKind::Macro | NameKind::Kernel | NameKind::Scope => o.range,
        _ => match text.rfind("::") {
            Some(i) => TextRange::new(
                o.range.start() + TextSize::from(i as u32 + 2),
                o.range.end(),
            ),
            None => o.range,
        },
    }
}

/// What an occurrence names, in words.
fn what(o: &NameOccurrence) -> &'static str {
    match o.kind {
        NameKind::Label => "a label",
        NameKind::Symbol => "a symbol",
        NameKind::RegisterSymbol => "a register symbol",
        NameKind::LocalLabel => "a local label",
        NameKind::Macro => "a macro",
        NameKind::Kernel => "a kernel",
        NameKind::Scope => "a scope",
    }
}

/// `FILE:LINE` of an occurrence (the file's name only).
fn place(analysis: &Analysis, o: &NameOccurrence) -> String {
    let line = analysis.file_text(&o.file).map_or(0, |t| {
        t[..usize::from(o.range.start()).min(t.len())]
            .matches('\n')
            .count()
            + 1
    });
    let name = o.file.file_name().map_or_else(
        || o.file.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    format!("{name}:{line}")
}

/// Whether `new_name` can name what a `kind` names.
fn check_new_name(kind: NameKind, new_name: &str) -> Result<(), String> {
    if kind == NameKind::LocalLabel {
        return if !new_name.is_empty() && new_name.bytes().all(|b| b.is_ascii_digit()) {
            Ok(())
        } else {
            Err(format!(
                "`{new_name}` is not a number: a local label can only be renamed to another number"
            ))
        };
    }
    let single_name = gcn_syntax::lexer::lex_single(new_name) == Some(SyntaxKind::NAME);
    if !single_name || new_name.contains("::") || new_name == "." {
        return Err(format!("`{new_name}` is not a valid symbol name"));
    }
    if gcn_syntax::is_register_name(new_name, false) {
        return Err(format!(
            "`{new_name}` is a register name: it cannot name a symbol"
        ));
    }
    Ok(())
}
