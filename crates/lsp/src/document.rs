//! An open document: its text (a rope), its syntax tree and its version.

use gcn_ide::PositionEncoding;
use gcn_syntax::Parse;
use ropey::Rope;
use tower_lsp::lsp_types::TextDocumentContentChangeEvent;

use crate::convert;

/// One open document. Cloning is cheap (the rope and the tree are shared), so handlers
/// take a snapshot and work without holding any lock.
#[derive(Debug, Clone)]
pub struct Document {
    pub rope: Rope,
    pub parse: Parse,
    /// The version the client gave the text.
    pub version: i32,
    /// Bumped by the server on every change, unique across documents and reopenings: what
    /// a pending diagnostics publication checks to know it is not stale.
    pub revision: u64,
}

impl Document {
    pub fn new(text: &str, version: i32, revision: u64) -> Document {
        Document {
            rope: Rope::from_str(text),
            parse: gcn_syntax::parse(text),
            version,
            revision,
        }
    }

    /// Applies one change of a `didChange`: a whole new text, or a ranged replacement
    /// that also goes to the syntax tree as an incremental reparse.
    pub fn apply_change(
        &mut self,
        change: TextDocumentContentChangeEvent,
        encoding: PositionEncoding,
    ) {
        match change.range {
            None => {
                self.parse = gcn_syntax::parse(&change.text);
                self.rope = Rope::from_str(&change.text);
            }
            Some(range) => {
                let edit = convert::text_edit(&self.rope, range, change.text, encoding);
                let chars = convert::char_range(&self.rope, edit.delete);
                self.rope.remove(chars.clone());
                self.rope.insert(chars.start, &edit.insert);
                self.parse = self.parse.reparse(&edit);
            }
        }
        debug_assert_eq!(
            usize::from(self.parse.syntax_node().text_range().len()),
            self.rope.len_bytes()
        );
    }

    pub fn text(&self) -> String {
        self.rope.to_string()
    }
}
