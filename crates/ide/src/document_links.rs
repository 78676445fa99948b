//! Document links: the file each `.include` and `.incbin` names, resolved as the
//! assembler does (relative to the including file's folder, then each include folder of
//! the options, `-I`), the first that exists; else the path next to the source.

use std::path::{Path, PathBuf};

use gcn_syntax::ast::{AstNode, PseudoOp};
use gcn_syntax::{Parse, SyntaxKind, TextRange};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DocumentLink {
    /// The quoted file name.
    pub range: TextRange,
    pub target: PathBuf,
}

/// The links of a file at `source`, with the include folders of its options.
pub fn document_links(parse: &Parse, source: &Path, include_dirs: &[PathBuf]) -> Vec<DocumentLink> {
    let dir = source.parent().unwrap_or(Path::new("."));
    let mut out = Vec::new();
    for node in parse.syntax_node().descendants().filter(|n| n.kind() == SyntaxKind::PSEUDO_OP) {
        let Some(op) = PseudoOp::cast(node) else { continue };
        if !matches!(op.name().to_ascii_lowercase().as_str(), ".include" | ".incbin") {
            continue;
        }
        let Some(arg) = op.args().next() else { continue };
        let Some(string) = arg.raw_tokens().find(|t| t.kind() == SyntaxKind::STRING) else { continue };
        let Ok(bytes) = gcn_asm::literals::parse_string(string.text()) else { continue };
        let name = String::from_utf8_lossy(&bytes).into_owned();
        let name = Path::new(&name);
        let candidates = std::iter::once(dir.join(name)).chain(include_dirs.iter().map(|d| d.join(name)));
        let target = if name.is_absolute() {
            name.to_path_buf()
        } else {
            candidates.clone().find(|p| p.is_file()).unwrap_or_else(|| dir.join(name))
        };
        out.push(DocumentLink { range: string.text_range(), target });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn include_and_incbin() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data/analysis");
        let text = ".include \"include/helpers.s\"\n.incbin \"missing.bin\"\n.include \"in\\x63lude/helpers.s\"\n";
        let parse = gcn_syntax::parse(text);
        let links = document_links(&parse, &dir.join("x.s"), &[]);
        let shown: Vec<(String, PathBuf)> = links
            .iter()
            .map(|l| (text[l.range].to_string(), l.target.strip_prefix(&dir).unwrap().to_path_buf()))
            .collect();
        assert_eq!(
            shown,
            [
                ("\"include/helpers.s\"".to_string(), PathBuf::from("include/helpers.s")),
                ("\"missing.bin\"".to_string(), PathBuf::from("missing.bin")),
                ("\"in\\x63lude/helpers.s\"".to_string(), PathBuf::from("include/helpers.s")),
            ]
        );
    }
}
