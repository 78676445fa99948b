//! Signature help: the operands of the instruction, or the parameters of the macro, whose
//! operand list the cursor is in, with the one being written.
//!
//! An instruction has one signature per operand form on the file's generation (usually
//! one); a macro call's signature is its `.macro` line from the file.

use gcn_isa::Generation;
use gcn_syntax::{Parse, SyntaxKind, SyntaxNode, SyntaxToken, TextSize};

use crate::isa_docs;
use crate::scan::{self, FileIndex};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Signature {
    pub label: String,
    pub documentation: Option<String>,
    /// Each parameter's byte range in `label` (ASCII: the same in UTF-16), and what it takes.
    pub parameters: Vec<((u32, u32), Option<String>)>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignatureHelp {
    pub signatures: Vec<Signature>,
    pub active_parameter: u32,
}

pub fn signature_help(
    parse: &Parse,
    index: &FileIndex,
    offset: TextSize,
    default_generation: Generation,
) -> Option<SignatureHelp> {
    let root = parse.syntax_node();
    let offset = offset.min(root.text_range().end());
    let token = scan::token_at_offset(&root, offset).left_biased()?;
    let statement = statement_of(&token)?;
    // The cursor must be past the head (mnemonic or macro name).
    let head = statement
        .children_with_tokens()
        .filter_map(|e| e.into_token())
        .find(|t| !t.kind().is_trivia())?;
    if offset <= head.text_range().end() {
        return None;
    }
    let list_kind = if statement.kind() == SyntaxKind::INSTRUCTION {
        SyntaxKind::OPERAND_LIST
    } else {
        SyntaxKind::ARG_LIST
    };
    let active = statement
        .children()
        .filter(|n| n.kind() == list_kind)
        .flat_map(|list| list.children_with_tokens())
        .filter(|e| e.kind() == SyntaxKind::COMMA && e.text_range().end() <= offset)
        .count() as u32;
    let signatures = if statement.kind() == SyntaxKind::INSTRUCTION {
        let gen = index
            .context_at(offset)
            .generation
            .unwrap_or(default_generation);
        instruction_signatures(head.text(), gen)
    } else {
        let def = index
            .find_definition(head.text())
            .filter(|d| d.kind == scan::DefinitionKind::Macro)?;
        vec![macro_signature(
            &def.name,
            def.detail.as_deref().unwrap_or(""),
        )]
    };
    (!signatures.is_empty()).then_some(SignatureHelp {
        signatures,
        active_parameter: active,
    })
}

/// The instruction or macro call the cursor is in: an ancestor, or the statement that
/// ends the line before trailing blanks (trivia at a line's end is outside nodes).
fn statement_of(token: &SyntaxToken) -> Option<SyntaxNode> {
    let is_statement =
        |n: &SyntaxNode| matches!(n.kind(), SyntaxKind::INSTRUCTION | SyntaxKind::MACRO_CALL);
    if let Some(n) = token.parent_ancestors().find(is_statement) {
        return Some(n);
    }
    let mut t = token.clone();
    while t.kind().is_trivia() {
        t = crate::hover::token_before(&t)?;
    }
    if t.kind().is_statement_end() {
        return None;
    }
    t.parent_ancestors().find(is_statement)
}

fn instruction_signatures(mnemonic: &str, gen: Generation) -> Vec<Signature> {
    let (base, _) = gcn_isa::split_suffix(mnemonic);
    let mut out: Vec<Signature> = Vec::new();
    for row in gcn_isa::lookup_on(base, gen) {
        let mut label = mnemonic.to_ascii_lowercase();
        let mut parameters = Vec::new();
        for (i, (name, op)) in row
            .operand_labels()
            .into_iter()
            .zip(row.operands)
            .enumerate()
        {
            label.push_str(if i == 0 { " " } else { ", " });
            let start = label.len() as u32;
            label.push_str(&name);
            parameters.push((
                (start, label.len() as u32),
                Some(isa_docs::operand_doc(op.kind).to_string()),
            ));
        }
        if out.iter().all(|s| s.label != label) {
            out.push(Signature {
                label,
                documentation: Some(isa_docs::describe(base)),
                parameters,
            });
        }
    }
    out
}

fn macro_signature(name: &str, params: &str) -> Signature {
    let mut label = name.to_string();
    let mut parameters = Vec::new();
    let names = params.split(',').map(str::trim).filter(|p| !p.is_empty());
    for (i, p) in names.enumerate() {
        label.push_str(if i == 0 { " " } else { ", " });
        let start = label.len() as u32;
        label.push_str(p);
        parameters.push(((start, label.len() as u32), None));
    }
    Signature {
        label,
        documentation: Some(format!("macro `{name}`")),
        parameters,
    }
}

#[cfg(test)]
mod tests {
    use std::fmt::Write;

    use super::*;
    use crate::test_util::{check_dir, cursors};

    fn render(text: &str) -> String {
        let (text, offsets) = cursors(text);
        let parse = gcn_syntax::parse(&text);
        let mut out = String::new();
        for offset in offsets {
            let line = crate::test_util::line_of(&text, offset);
            match signature_help(&parse, &FileIndex::new(&parse), offset, Generation::Gcn1_2) {
                None => writeln!(out, "== line {line}: none").unwrap(),
                Some(help) => {
                    writeln!(out, "== line {line}: active {}", help.active_parameter).unwrap();
                    for s in help.signatures {
                        let params: Vec<&str> = s
                            .parameters
                            .iter()
                            .map(|((a, b), _)| &s.label[*a as usize..*b as usize])
                            .collect();
                        writeln!(out, "  {}  [{}]", s.label, params.join("|")).unwrap();
                    }
                }
            }
        }
        out
    }

    #[test]
    fn snapshots() {
        check_dir("signature_help", render);
    }
}
