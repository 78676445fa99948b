//! Folding ranges: macros, repetitions, conditionals (and each branch), kernel
//! configurations and runs of comment lines, as byte ranges (the server turns them into
//! lines and drops those on one line).

use gcn_isa::{PseudoRole, PseudoScope};
use gcn_syntax::ast::{AstNode, PseudoOp, Statement};
use gcn_syntax::{Parse, SyntaxKind, SyntaxNode, TextRange};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FoldKind {
    Macro,
    Repeat,
    Conditional,
    KernelConfig,
    Comment,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fold {
    pub range: TextRange,
    pub kind: FoldKind,
}

pub fn folding_ranges(parse: &Parse) -> Vec<Fold> {
    let root = parse.syntax_node();
    let mut out = Vec::new();
    for node in root.descendants() {
        let kind = match node.kind() {
            SyntaxKind::MACRO_DEF => FoldKind::Macro,
            SyntaxKind::REPEAT => FoldKind::Repeat,
            SyntaxKind::CONDITIONAL => FoldKind::Conditional,
            SyntaxKind::COND_BRANCH => {
                // Only when there are several branches (the whole conditional folds otherwise).
                if node.parent().is_some_and(|p| {
                    p.children()
                        .filter(|c| c.kind() == SyntaxKind::COND_BRANCH)
                        .count()
                        > 1
                }) {
                    FoldKind::Conditional
                } else {
                    continue;
                }
            }
            _ => continue,
        };
        out.push(Fold {
            range: trimmed(&node),
            kind,
        });
    }
    configs(&root, &mut out);
    comments(&root, &mut out);
    out.sort_by_key(|f| (f.range.start(), std::cmp::Reverse(f.range.end())));
    out
}

/// A node's range without the line break it may end with.
fn trimmed(node: &SyntaxNode) -> TextRange {
    let mut end = node.text_range().end();
    if let Some(last) = node.last_token() {
        if last.kind() == SyntaxKind::NEWLINE {
            end = last.text_range().start();
        }
    }
    TextRange::new(node.text_range().start(), end)
}

/// `.config`/`.hsaconfig` up to the last configuration pseudo-op that follows it.
fn configs(root: &SyntaxNode, out: &mut Vec<Fold>) {
    let mut open: Option<TextRange> = None;
    let close = |open: &mut Option<TextRange>, out: &mut Vec<Fold>| {
        if let Some(range) = open.take() {
            out.push(Fold {
                range,
                kind: FoldKind::KernelConfig,
            });
        }
    };
    for statement in root.children().filter_map(Statement::cast) {
        let op = match &statement {
            Statement::PseudoOp(op) => gcn_isa::pseudo_op(&op.name()).map(|t| (op.clone(), t)),
            _ => None,
        };
        match op {
            Some((op, t)) if t.role == PseudoRole::Config => {
                close(&mut open, out);
                open = Some(op.syntax().text_range());
            }
            Some((op, t))
                if t.scope == PseudoScope::Config
                    || (open.is_some() && is_config_content(&op, t)) =>
            {
                if let Some(range) = &mut open {
                    *range = TextRange::new(range.start(), op.syntax().text_range().end());
                }
            }
            _ => close(&mut open, out),
        }
    }
    close(&mut open, out);
}

/// Pseudo-ops that may stand in a configuration without ending it (e.g. `.arg` lines of
/// Gallium's `.args`).
fn is_config_content(_op: &PseudoOp, t: &gcn_isa::PseudoOp) -> bool {
    t.scope == PseudoScope::Config
}

/// Runs of two or more lines that hold only a comment, and block comments over lines.
fn comments(root: &SyntaxNode, out: &mut Vec<Fold>) {
    let mut run: Option<(TextRange, usize)> = None;
    let mut only_comment_line = true;
    // A `#` comment, and the lines it takes (a `\` before a line break carries it over).
    let mut line_comment: Option<(TextRange, usize)> = None;
    let flush = |run: &mut Option<(TextRange, usize)>, out: &mut Vec<Fold>| {
        if let Some((range, lines)) = run.take() {
            if lines > 1 {
                out.push(Fold {
                    range,
                    kind: FoldKind::Comment,
                });
            }
        }
    };
    for element in root.descendants_with_tokens() {
        let Some(token) = element.into_token() else {
            continue;
        };
        match token.kind() {
            SyntaxKind::NEWLINE => {
                match (only_comment_line, line_comment) {
                    (true, Some((c, lines))) => {
                        run = Some(match run {
                            Some((r, n)) => (r.cover(c), n + lines),
                            None => (c, lines),
                        })
                    }
                    _ => flush(&mut run, out),
                }
                only_comment_line = true;
                line_comment = None;
            }
            SyntaxKind::WHITESPACE => {}
            SyntaxKind::COMMENT => {
                line_comment = Some((token.text_range(), 1 + token.text().matches('\n').count()))
            }
            SyntaxKind::BLOCK_COMMENT | SyntaxKind::MULTILINE_COMMENT => {
                if token.text().contains('\n') {
                    out.push(Fold {
                        range: token.text_range(),
                        kind: FoldKind::Comment,
                    });
                }
                only_comment_line = false;
            }
            _ => only_comment_line = false,
        }
    }
    if only_comment_line {
        if let Some((c, lines)) = line_comment {
            run = Some(match run {
                Some((r, n)) => (r.cover(c), n + lines),
                None => (c, lines),
            });
        }
    }
    flush(&mut run, out);
}

#[cfg(test)]
mod tests {
    use std::fmt::Write;

    use super::*;
    use crate::test_util::{check_dir, range_text};

    fn render(text: &str) -> String {
        let parse = gcn_syntax::parse(text);
        let mut out = String::new();
        for f in folding_ranges(&parse) {
            writeln!(out, "{:?} {}", f.kind, range_text(text, f.range)).unwrap();
        }
        out
    }

    #[test]
    fn snapshots() {
        check_dir("folding_ranges", render);
    }
}
