//! Selection ranges: from the token at the cursor outwards through the syntax tree
//! (operand, operand list, statement, block, file), each range strictly larger than the
//! one before.

use gcn_syntax::{Parse, SyntaxKind, TextRange, TextSize};

/// For each offset, the ranges to select, innermost first.
pub fn selection_ranges(parse: &Parse, offsets: &[TextSize]) -> Vec<Vec<TextRange>> {
    let root = parse.syntax_node();
    offsets
        .iter()
        .map(|&offset| {
            let offset = offset.min(root.text_range().end());
            let mut out: Vec<TextRange> = Vec::new();
            // A word (name, number, string) on either side wins over punctuation and blanks.
            let word = |t: &gcn_syntax::SyntaxToken| {
                matches!(
                    t.kind(),
                    SyntaxKind::NAME
                        | SyntaxKind::INT_NUMBER
                        | SyntaxKind::FLOAT_NUMBER
                        | SyntaxKind::STRING
                        | SyntaxKind::CHAR
                        | SyntaxKind::LOCAL_LABEL_REF
                )
            };
            let at = crate::scan::token_at_offset(&root, offset);
            let (left, right) = (at.clone().left_biased(), at.right_biased());
            let token = right
                .clone()
                .filter(word)
                .or_else(|| left.clone().filter(word))
                .or_else(|| right.clone().filter(|t| !t.kind().is_trivia()))
                .or(left);
            let Some(token) = token else {
                return vec![root.text_range()];
            };
            let mut push = |r: TextRange| {
                if out.last().is_none_or(|l| r.contains_range(*l) && r != *l) {
                    out.push(r);
                }
            };
            if !token.kind().is_trivia() {
                push(token.text_range());
            } else {
                push(TextRange::empty(offset));
            }
            for node in token.parent_ancestors() {
                push(node.text_range());
            }
            out
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use std::fmt::Write;

    use super::*;
    use crate::test_util::{check_dir, cursors, range_text};

    fn render(text: &str) -> String {
        let (text, offsets) = cursors(text);
        let parse = gcn_syntax::parse(&text);
        let mut out = String::new();
        for ranges in selection_ranges(&parse, &offsets) {
            out.push_str("==\n");
            for r in ranges {
                writeln!(out, "  {}", range_text(&text, r)).unwrap();
            }
        }
        out
    }

    #[test]
    fn snapshots() {
        check_dir("selection_ranges", render);
    }
}
