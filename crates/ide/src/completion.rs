//! Completion: what may be written at the cursor.
//!
//! - At the head of a statement (start of a line, after a label or `;`): the mnemonics of
//!   the file's generation (the last `.gpu`/`.arch` before the cursor, else the file's
//!   options) with their operand syntax as detail; the pseudo-ops valid there (kernel
//!   configuration pseudo-ops only inside a kernel's `.config`, kernel pseudo-ops only
//!   after `.kernel`, format pseudo-ops of the file's binary format); the macros the file
//!   defines, inserted as a snippet with their parameters.
//! - In operands: the special registers of the generation, and the labels, symbols and
//!   kernels the file defines.
//! - After the operands ([`modifiers`]): the modifiers the instruction takes on the
//!   generation, those with a value inserted with their colon (`offset:`).
//! - After `.gpu`, `.arch`, `.format` (and `.ifgpu`, `.ifarch` and the like): device,
//!   architecture and format names.
//! - Where an operand takes a name ([`operand_names`]): `hwreg(...)`, `sendmsg(...)`
//!   and the `s_waitcnt` counters as snippets in their operand's place; the hardware
//!   registers, messages and GS operations of the generation inside them; SDWA
//!   selections after `dst_sel:`/`src0_sel:`/`src1_sel:`/`dst_unused:`; MTBUF formats in
//!   `format:[...]`.
//!
//! - After `\` in a macro or repetition body: the parameters it may name there.
//!
//! The prefix already typed (the name the cursor is in or just after) is what the items
//! replace; items are filtered by it, case-insensitively.

use std::sync::OnceLock;

use gcn_isa::{Device, Formats, Generation};
use gcn_syntax::{Parse, SyntaxKind, SyntaxToken, TextRange, TextSize};

use crate::isa_docs;
use crate::scan::{self, DefinitionKind, FileIndex};

mod modifiers;
mod operand_names;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CompletionKind {
    Instruction,
    PseudoOp,
    Register,
    Label,
    Symbol,
    Kernel,
    Macro,
    /// A device, architecture or format name.
    Value,
    /// An instruction's modifier (`offset:`, `glc`).
    Modifier,
    /// A macro's parameter or a repetition's variable, after `\`.
    Parameter,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompletionItem {
    pub label: String,
    pub kind: CompletionKind,
    pub detail: Option<String>,
    pub documentation: Option<String>,
    /// Text to insert instead of the label (a snippet when `is_snippet`).
    pub insert_text: Option<String>,
    pub is_snippet: bool,
}

/// The items and the range of text they replace (the prefix typed so far).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Completions {
    pub range: TextRange,
    pub items: Vec<CompletionItem>,
}

fn item(label: &str, kind: CompletionKind, detail: Option<String>) -> CompletionItem {
    CompletionItem {
        label: label.to_string(),
        kind,
        detail,
        documentation: None,
        insert_text: None,
        is_snippet: false,
    }
}

/// The completions at `offset`; `default_generation` and `default_format` come from the
/// file's options.
pub fn completions(
    parse: &Parse,
    index: &FileIndex,
    offset: TextSize,
    default_generation: Generation,
    default_format: Formats,
) -> Completions {
    let root = parse.syntax_node();
    let offset = offset.min(root.text_range().end());
    let left = scan::token_at_offset(&root, offset).left_biased();
    if let Some(t) = left.as_ref().filter(|t| in_comment_or_string(t, offset)) {
        // In a body's string the parameters after `\` are substituted too.
        return match parameter_prefix_in_string(t, offset) {
            Some(prefix) => {
                let start = offset - TextSize::of(prefix.as_str());
                Completions {
                    range: TextRange::new(start, offset),
                    items: parameter_items(parse, offset, &prefix),
                }
            }
            None => Completions {
                range: TextRange::empty(offset),
                items: Vec::new(),
            },
        };
    }
    // The prefix: the name the cursor is in or right after.
    let (start, prefix) = match &left {
        Some(t) if t.kind() == SyntaxKind::NAME && t.text_range().start() < offset => {
            let start = t.text_range().start();
            (start, t.text()[..usize::from(offset - start)].to_string())
        }
        _ => (offset, String::new()),
    };
    let range = TextRange::new(start, offset);
    if after_backslash(left.as_ref(), start) {
        return Completions {
            range,
            items: parameter_items(parse, offset, &prefix),
        };
    }
    let typed = left.clone().filter(|t| t.kind() == SyntaxKind::NAME);
    let before = left.and_then(|t| {
        if t.text_range().start() < start {
            Some(t)
        } else {
            crate::hover::token_before(&t)
        }
    });
    let before = before.and_then(skip_trivia_back);
    let at_head = match &before {
        None => true,
        Some(t) => {
            t.kind().is_statement_end()
                || (t.kind() == SyntaxKind::COLON
                    && t.parent().is_some_and(|p| p.kind() == SyntaxKind::LABEL))
        }
    };
    let context = index.context_at(start);
    let gen = context.generation.unwrap_or(default_generation);
    let lower = prefix.to_ascii_lowercase();
    let mut items = Vec::new();
    if at_head {
        if !lower.starts_with('.') {
            items.extend(
                mnemonic_items(gen)
                    .iter()
                    .filter(|i| i.label.starts_with(lower.as_str()))
                    .cloned(),
            );
        }
        for op in gcn_isa::pseudo_ops() {
            if op.name.starts_with(lower.as_str()) && context.allows(op, default_format) {
                // Documentation comes on resolve ([`documentation`]): a long list stays small.
                items.push(item(
                    op.name,
                    CompletionKind::PseudoOp,
                    Some(op.syntax.to_string()),
                ));
            }
        }
        if !lower.starts_with('.') {
            for def in &index.definitions {
                if def.kind == DefinitionKind::Macro
                    && def.name.to_ascii_lowercase().starts_with(lower.as_str())
                {
                    items.push(macro_item(&def.name, def.detail.as_deref()));
                }
            }
        }
    } else if let Some(values) = before.as_ref().and_then(|t| pseudo_op_values(t, &lower)) {
        items = values;
    } else if let Some(values) =
        modifiers::items(typed.as_ref(), before.as_ref(), start, gen, &lower)
    {
        items = values;
    } else if let Some(values) = before
        .as_ref()
        .and_then(|t| operand_names::items(t, gen, &lower))
    {
        items = values;
    } else {
        for (name, doc) in special_registers(gen) {
            if name.starts_with(lower.as_str()) {
                let mut it = item(name, CompletionKind::Register, None);
                it.documentation = Some(doc);
                items.push(it);
            }
        }
        let mut seen = std::collections::HashSet::new();
        for def in &index.definitions {
            let kind = match def.kind {
                DefinitionKind::Label => CompletionKind::Label,
                DefinitionKind::Symbol => CompletionKind::Symbol,
                DefinitionKind::Kernel => CompletionKind::Kernel,
                DefinitionKind::Macro => continue,
            };
            if def.name.to_ascii_lowercase().starts_with(lower.as_str())
                && seen.insert(def.name.clone())
            {
                items.push(item(&def.name, kind, def.detail.clone()));
            }
        }
    }
    Completions { range, items }
}

/// Whether the prefix starting at `start` follows a `\` (`\co`, or a `\` just typed,
/// which a line break after it makes a line continuation).
fn after_backslash(left: Option<&SyntaxToken>, start: TextSize) -> bool {
    let Some(left) = left else {
        return false;
    };
    let backslash = match left.kind() {
        SyntaxKind::NAME => left.prev_token(),
        _ => Some(left.clone()),
    };
    backslash.is_some_and(|b| match b.kind() {
        SyntaxKind::BACKSLASH => b.text_range().end() == start,
        SyntaxKind::LINE_CONTINUATION => b.text_range().start() + TextSize::from(1) == start,
        _ => false,
    })
}

/// In a string or character literal, the name typed after a `\` up to `offset` (empty
/// right after the `\`).
fn parameter_prefix_in_string(token: &SyntaxToken, offset: TextSize) -> Option<String> {
    if !matches!(token.kind(), SyntaxKind::STRING | SyntaxKind::CHAR) {
        return None;
    }
    let before = &token.text()[..usize::from(offset - token.text_range().start())];
    let name_start = before
        .char_indices()
        .rfind(|&(_, c)| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '$')))
        .map_or(0, |(i, c)| i + c.len_utf8());
    let prefix = &before[name_start..];
    before[..name_start]
        .ends_with('\\')
        .then(|| prefix.to_string())
}

/// The parameters a `\` at `offset` may name, those starting with `prefix`.
fn parameter_items(parse: &Parse, offset: TextSize, prefix: &str) -> Vec<CompletionItem> {
    crate::macro_params::visible_at(parse, offset)
        .into_iter()
        .filter(|p| p.name.starts_with(prefix))
        .map(|p| {
            let detail = match &p.owner_name {
                Some(m) if p.detail.is_empty() => format!("parameter of macro `{m}`"),
                Some(m) => format!("parameter of macro `{m}` (`{}{}`)", p.name, p.detail),
                None => format!("variable of `{}`: {}", p.owner_kind, p.detail),
            };
            item(&p.name, CompletionKind::Parameter, Some(detail))
        })
        .collect()
}

/// Whether `offset` is inside `token`, a comment, string or character literal, where
/// nothing is completed: after its first character, and before its end unless the token
/// is not closed there (a `#` comment runs to the end of the line).
fn in_comment_or_string(token: &SyntaxToken, offset: TextSize) -> bool {
    let range = token.text_range();
    if offset <= range.start() {
        return false;
    }
    let text = token.text();
    let closed = match token.kind() {
        SyntaxKind::COMMENT => false,
        SyntaxKind::BLOCK_COMMENT => text.len() >= 4 && text.ends_with("*/"),
        SyntaxKind::STRING => text.len() >= 2 && text.ends_with('"') && !text.ends_with("\\\""),
        SyntaxKind::CHAR => text.len() >= 2 && text.ends_with('\''),
        _ => return false,
    };
    offset < range.end() || !closed
}

fn skip_trivia_back(mut token: SyntaxToken) -> Option<SyntaxToken> {
    while token.kind().is_trivia() {
        token = crate::hover::token_before(&token)?;
    }
    Some(token)
}

/// The documentation of an instruction or pseudo-op item, which [`completions`] leaves
/// out (the server sends it when the editor resolves the item).
pub fn documentation(kind: CompletionKind, label: &str) -> Option<String> {
    match kind {
        CompletionKind::Instruction => Some(isa_docs::describe(label)),
        CompletionKind::PseudoOp => gcn_isa::pseudo_op(label).map(crate::hover::pseudo_op_markdown),
        _ => None,
    }
}

/// A macro call with its parameters as snippet placeholders: `bump ${1:reg}, ${2:n}`.
fn macro_item(name: &str, params: Option<&str>) -> CompletionItem {
    let mut it = item(
        name,
        CompletionKind::Macro,
        params.map(|p| format!(".macro {name} {p}")),
    );
    let names: Vec<String> = params
        .unwrap_or("")
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|p| !p.is_empty())
        .map(|p| p.split(['=', ':']).next().unwrap_or(p).to_string())
        .filter(|p| !p.is_empty())
        .collect();
    if !names.is_empty() {
        let placeholders: Vec<String> = names
            .iter()
            .enumerate()
            .map(|(i, p)| format!("${{{}:{}}}", i + 1, p))
            .collect();
        it.insert_text = Some(format!("{name} {}", placeholders.join(", ")));
        it.is_snippet = true;
    }
    it
}

/// Values after `.gpu`, `.arch` and `.format`, when `before` is that pseudo-op's name.
fn pseudo_op_values(before: &SyntaxToken, prefix: &str) -> Option<Vec<CompletionItem>> {
    let parent = before.parent()?;
    if parent.kind() != SyntaxKind::PSEUDO_OP || before.kind() != SyntaxKind::NAME {
        return None;
    }
    let names: Vec<(String, String)> = match before.text().to_ascii_lowercase().as_str() {
        ".gpu" | ".ifgpu" | ".ifngpu" | ".elseifgpu" | ".elseifngpu" => Device::names()
            .map(|(n, d)| (n.to_string(), d.generation().name().to_string()))
            .collect(),
        ".arch" | ".ifarch" | ".ifnarch" | ".elseifarch" | ".elseifnarch" => {
            gcn_isa::arch::arch_names()
                .map(|(n, g)| (n.to_string(), g.name().to_string()))
                .collect()
        }
        ".format" => ["amd", "amdcl2", "gallium", "rocm", "rawcode"]
            .iter()
            .map(|n| (n.to_string(), String::new()))
            .collect(),
        _ => return None,
    };
    Some(
        names
            .into_iter()
            .filter(|(n, _)| n.to_ascii_lowercase().starts_with(prefix))
            .map(|(n, d)| item(&n, CompletionKind::Value, (!d.is_empty()).then_some(d)))
            .collect(),
    )
}

/// The special registers that are operands on `gen`, with what they are.
fn special_registers(gen: Generation) -> Vec<(&'static str, String)> {
    gcn_syntax::SPECIAL_REGISTERS
        .iter()
        .filter_map(|&name| {
            let (_, doc) = isa_docs::special_register(name, gen)?;
            (!doc.contains("Not an operand")).then_some((name, doc))
        })
        .collect()
}

/// The mnemonics of a generation with their syntax, made once per generation.
fn mnemonic_items(gen: Generation) -> &'static [CompletionItem] {
    static CACHE: [OnceLock<Vec<CompletionItem>>; 7] = [const { OnceLock::new() }; 7];
    CACHE[gen.index()].get_or_init(|| {
        gcn_isa::complete("", gen)
            .into_iter()
            .map(|mnemonic| {
                let row = gcn_isa::lookup_on(mnemonic, gen).next();
                let detail = row.map(|r| r.syntax(mnemonic));
                item(mnemonic, CompletionKind::Instruction, detail)
            })
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use std::fmt::Write;

    use super::*;
    use crate::test_util::{check_dir, cursors};

    /// Lists at most 12 items per kind (and the count), so snapshots stay short.
    fn render(text: &str) -> String {
        let (text, offsets) = cursors(text);
        let parse = gcn_syntax::parse(&text);
        let mut out = String::new();
        for offset in offsets {
            let line = crate::test_util::line_of(&text, offset);
            let c = completions(
                &parse,
                &FileIndex::new(&parse),
                offset,
                Generation::Gcn1_0,
                Formats::AMD,
            );
            writeln!(out, "== line {line} prefix {:?}", &text[c.range]).unwrap();
            let mut kinds: Vec<CompletionKind> = Vec::new();
            for i in &c.items {
                if !kinds.contains(&i.kind) {
                    kinds.push(i.kind);
                }
            }
            for kind in kinds {
                let of_kind: Vec<&CompletionItem> =
                    c.items.iter().filter(|i| i.kind == kind).collect();
                writeln!(out, "  {kind:?} ({})", of_kind.len()).unwrap();
                for i in of_kind.iter().take(12) {
                    write!(out, "    {}", i.label).unwrap();
                    if let Some(d) = &i.detail {
                        write!(out, "  — {d}").unwrap();
                    }
                    if let Some(t) = &i.insert_text {
                        write!(out, "  => {t}").unwrap();
                    }
                    out.push('\n');
                }
            }
        }
        out
    }

    #[test]
    fn snapshots() {
        check_dir("completion", render);
    }
}
