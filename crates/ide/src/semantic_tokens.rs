//! Semantic tokens: what each name, number, string and comment of a file is, from the
//! syntax tree (no assembling): instructions, pseudo-ops, registers, labels, symbols,
//! macros, numbers, strings, comments and modifiers.
//!
//! Macro and repetition bodies are raw lines until expanded; their tokens are classified
//! by their shape (a line's first name is an instruction when the table knows it, a
//! pseudo-op when it starts with `.`, else a macro; register names are registers).

use gcn_syntax::{Parse, SyntaxKind, SyntaxNode, SyntaxToken, TextRange};

/// The legend, in the order of [`SemanticTokenKind`]'s values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SemanticTokenKind {
    Instruction,
    PseudoOp,
    Register,
    Label,
    Symbol,
    Macro,
    Number,
    String,
    Comment,
    Modifier,
}

impl SemanticTokenKind {
    pub const ALL: [SemanticTokenKind; 10] = [
        SemanticTokenKind::Instruction,
        SemanticTokenKind::PseudoOp,
        SemanticTokenKind::Register,
        SemanticTokenKind::Label,
        SemanticTokenKind::Symbol,
        SemanticTokenKind::Macro,
        SemanticTokenKind::Number,
        SemanticTokenKind::String,
        SemanticTokenKind::Comment,
        SemanticTokenKind::Modifier,
    ];

    /// The name in the server's legend.
    pub const fn name(self) -> &'static str {
        match self {
            SemanticTokenKind::Instruction => "instruction",
            SemanticTokenKind::PseudoOp => "pseudoOp",
            SemanticTokenKind::Register => "register",
            SemanticTokenKind::Label => "label",
            SemanticTokenKind::Symbol => "symbol",
            SemanticTokenKind::Macro => "macro",
            SemanticTokenKind::Number => "number",
            SemanticTokenKind::String => "string",
            SemanticTokenKind::Comment => "comment",
            SemanticTokenKind::Modifier => "modifier",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SemanticToken {
    pub range: TextRange,
    pub kind: SemanticTokenKind,
}

/// The semantic tokens of the file, or of the part that `range` overlaps, in order.
pub fn semantic_tokens(parse: &Parse, range: Option<TextRange>) -> Vec<SemanticToken> {
    let root = parse.syntax_node();
    let range = range.unwrap_or(root.text_range());
    // The top-level elements the range overlaps, found by binary search (walking the
    // root's children from the start would cost milliseconds in a long file).
    let start = root.child_or_token_at_range(TextRange::empty(range.start()).cover_offset(range.start()));
    let first = start.or_else(|| root.first_child_or_token());
    let tops = std::iter::successors(first, |e| e.next_sibling_or_token())
        .take_while(|e| range.is_empty() || e.text_range().start() < range.end() || e.text_range().is_empty());
    let mut out = Vec::new();
    for element in tops.flat_map(|e| match e {
        rowan::NodeOrToken::Node(n) => n.descendants_with_tokens().collect::<Vec<_>>(),
        t => vec![t],
    }) {
        let Some(token) = element.into_token() else { continue };
        let token_range = token.text_range();
        if token_range.end() <= range.start() && !token_range.is_empty() && range.start() != token_range.start() {
            continue;
        }
        if token_range.start() >= range.end() && !range.is_empty() {
            break;
        }
        if let Some(kind) = classify(&token) {
            out.push(SemanticToken { range: token_range, kind });
        }
    }
    out
}

fn is_head(token: &SyntaxToken, parent: &SyntaxNode) -> bool {
    parent
        .children_with_tokens()
        .filter_map(|e| e.into_token())
        .find(|t| !t.kind().is_trivia())
        .is_some_and(|t| &t == token)
}

/// Whether `op` is the `.arg` pseudo-op (a kernel argument).
fn is_kernel_arg(op: &SyntaxNode) -> bool {
    op.kind() == SyntaxKind::PSEUDO_OP
        && op.children_with_tokens().filter_map(|e| e.into_token()).find(|t| !t.kind().is_trivia()).is_some_and(|t| t.text().eq_ignore_ascii_case(".arg"))
}

fn classify(token: &SyntaxToken) -> Option<SemanticTokenKind> {
    use SemanticTokenKind as K;
    Some(match token.kind() {
        kind if kind.is_comment() => K::Comment,
        SyntaxKind::STRING | SyntaxKind::CHAR => K::String,
        SyntaxKind::INT_NUMBER | SyntaxKind::FLOAT_NUMBER | SyntaxKind::BAD_NUMBER => {
            if token.parent_ancestors().any(|n| n.kind() == SyntaxKind::REGISTER) {
                K::Register
            } else {
                K::Number
            }
        }
        SyntaxKind::LOCAL_LABEL_REF => K::Label,
        SyntaxKind::NAME => {
            let parent = token.parent()?;
            match parent.kind() {
                SyntaxKind::INSTRUCTION if is_head(token, &parent) => K::Instruction,
                SyntaxKind::PSEUDO_OP if is_head(token, &parent) => K::PseudoOp,
                SyntaxKind::LABEL => K::Label,
                SyntaxKind::ASSIGNMENT if is_head(token, &parent) => K::Symbol,
                SyntaxKind::REGISTER => K::Register,
                SyntaxKind::MODIFIER | SyntaxKind::KEY_VALUE => K::Modifier,
                SyntaxKind::CALL_EXPR => K::Modifier,
                SyntaxKind::MACRO_CALL if is_head(token, &parent) => K::Macro,
                SyntaxKind::NAME_REF => K::Symbol,
                SyntaxKind::ARG => {
                    // The name in `.macro NAME …`.
                    let op = parent.parent()?.parent()?;
                    let first_arg = is_head(token, &parent) && parent.prev_sibling().is_none();
                    if op.kind() == SyntaxKind::PSEUDO_OP && op.parent().is_some_and(|d| d.kind() == SyntaxKind::MACRO_DEF) && first_arg {
                        K::Macro
                    } else if first_arg && is_kernel_arg(&op) {
                        // `.arg NAME, …`: a kernel argument's name, even `v30`.
                        K::Symbol
                    } else if gcn_syntax::is_register_name(token.text(), false) {
                        K::Register
                    } else {
                        K::Symbol
                    }
                }
                SyntaxKind::LINE => {
                    if is_head(token, &parent) {
                        if token.text().starts_with('.') {
                            K::PseudoOp
                        } else if !gcn_isa::lookup(gcn_isa::split_suffix(token.text()).0).is_empty() {
                            K::Instruction
                        } else {
                            K::Macro
                        }
                    } else if gcn_syntax::is_register_name(token.text(), false) {
                        K::Register
                    } else {
                        return None;
                    }
                }
                _ => return None,
            }
        }
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use std::fmt::Write;

    use super::*;
    use crate::test_util::check_dir;

    fn render(text: &str) -> String {
        let parse = gcn_syntax::parse(text);
        let mut out = String::new();
        for t in semantic_tokens(&parse, None) {
            writeln!(out, "{:?} {:?}", t.kind, &text[t.range]).unwrap();
        }
        out
    }

    #[test]
    fn snapshots() {
        check_dir("semantic_tokens", render);
    }

    #[test]
    fn range_is_a_slice_of_full() {
        let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/test_data/semantic_tokens/kernel.s")).unwrap();
        let parse = gcn_syntax::parse(&text);
        let full = semantic_tokens(&parse, None);
        let range = TextRange::new(40.into(), 200.into());
        let part = semantic_tokens(&parse, Some(range));
        let expected: Vec<_> = full.into_iter().filter(|t| t.range.end() > range.start() && t.range.start() < range.end()).collect();
        assert_eq!(part, expected);
    }
}
