//! The paths of `.include "FILE"` and `.incbin "FILE"` as links to the files they name,
//! found by the assembler's own search (`gcn_asm::Options::find_file`): as given from
//! the working directory (the project's folder), then in the `-I` directories, then
//! beside the including file. A path that names no file gets no link.
//!
//! Statements in every branch of a conditional are looked at; macro and repetition
//! bodies are raw text until expanded and are not.

use std::path::{Path, PathBuf};

use gcn_syntax::ast::{AstNode, PseudoOp};
use gcn_syntax::{Parse, SyntaxKind, TextRange, TextSize};

use crate::analysis::Analysis;

/// A path in the text and the file it opens.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DocumentLink {
    /// The path inside its quotes.
    pub range: TextRange,
    pub target: PathBuf,
}

/// The links of `file` (parsed as `parse`) in `analysis`'s setting.
pub fn document_links(analysis: &Analysis, file: &Path, parse: &Parse) -> Vec<DocumentLink> {
    let mut links = Vec::new();
    for node in parse.tree().syntax().descendants() {
        if node.kind() != SyntaxKind::PSEUDO_OP {
            continue;
        }
        let Some(op) = PseudoOp::cast(node) else {
            continue;
        };
        let name = op.name().to_ascii_lowercase();
        if name != ".include" && name != ".incbin" {
            continue;
        }
        let Some(arg) = op.args().next() else {
            continue;
        };
        let mut tokens = arg.raw_tokens();
        let Some(token) = tokens.next().filter(|t| t.kind() == SyntaxKind::STRING) else {
            continue;
        };
        let Ok(bytes) = gcn_asm::literals::parse_string(token.text()) else {
            continue;
        };
        let path = String::from_utf8_lossy(&bytes);
        let Some(target) = analysis.find_include(file, &path) else {
            continue;
        };
        let range = token.text_range();
        let range = TextRange::new(
            range.start() + TextSize::from(1),
            range.end() - TextSize::from(1),
        );
        links.push(DocumentLink { range, target });
    }
    links
}

/// The link at `offset` of `file`, if any.
pub fn link_at(
    analysis: &Analysis,
    file: &Path,
    parse: &Parse,
    offset: TextSize,
) -> Option<DocumentLink> {
    document_links(analysis, file, parse)
        .into_iter()
        .find(|l| l.range.contains_inclusive(offset))
}
