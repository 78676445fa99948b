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
    /// Bumped by the server on every change of the document, of a file it includes or
    /// of the settings, unique across documents and reopenings: what a pending analysis
    /// or publication checks to know it is not stale.
    pub revision: u64,
    /// The text as one string, made when first asked for after a change.
    text: std::sync::Arc<std::sync::OnceLock<std::sync::Arc<str>>>,
    /// What hover, completion and signature help need from the whole file, made when
    /// first asked for after a change (one walk per version, not per request).
    index: std::sync::Arc<std::sync::OnceLock<std::sync::Arc<gcn_ide::scan::FileIndex>>>,
    /// Set when this text is replaced (a change, or the document's closing): shared by
    /// the snapshots of this text, so work on one of them (semantic tokens) can stop.
    replaced: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

impl Document {
    pub fn new(text: &str, version: i32, revision: u64) -> Document {
        Document {
            rope: Rope::from_str(text),
            parse: gcn_syntax::parse(text),
            version,
            revision,
            text: Default::default(),
            index: Default::default(),
            replaced: Default::default(),
        }
    }

    /// Whether this snapshot's text has since been changed or closed.
    pub fn is_replaced(&self) -> bool {
        self.replaced.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Marks the snapshots of the current text as replaced (the document is closing).
    pub fn mark_replaced(&self) {
        self.replaced
            .store(true, std::sync::atomic::Ordering::Relaxed);
    }

    /// The file index of the current text (made once per change).
    pub fn index(&self) -> std::sync::Arc<gcn_ide::scan::FileIndex> {
        self.index
            .get_or_init(|| gcn_ide::scan::FileIndex::new(&self.parse).into())
            .clone()
    }

    /// The text as one shared string (made once per change).
    pub fn shared_text(&self) -> std::sync::Arc<str> {
        self.text
            .get_or_init(|| self.rope.to_string().into())
            .clone()
    }

    /// Applies one change of a `didChange`: a whole new text, or a ranged replacement
    /// that also goes to the syntax tree as an incremental reparse.
    pub fn apply_change(
        &mut self,
        change: TextDocumentContentChangeEvent,
        encoding: PositionEncoding,
    ) {
        self.text = Default::default();
        self.index = Default::default();
        self.mark_replaced();
        self.replaced = Default::default();
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

#[cfg(test)]
mod tests {
    use gcn_ide::{LineIndex, Position};
    use proptest::prelude::*;
    use tower_lsp::lsp_types as lsp;

    use super::*;

    /// Pieces of text with every kind of line break and characters of 1 to 4 UTF-8 bytes
    /// (1 or 2 UTF-16 units), and statements that open and close blocks.
    fn piece() -> impl Strategy<Value = &'static str> {
        prop::sample::select(vec![
            "\n",
            "\r\n",
            "\r",
            " ",
            "s_nop 0",
            "v_mov_b32 v1, v2",
            "s_mov_b32 s3, x",
            "s_branch lbl",
            "lbl:",
            "1:",
            ".int (1+2*",
            ")",
            "x = 3",
            "# é ",
            "ß",
            "😀",
            "€",
            "/*",
            "*/",
            ".if 1",
            ".endif",
            ".macro m",
            ".endm",
            ".kernel k",
            ",",
            "v[0:1]",
            "\"s",
        ])
    }

    fn text() -> impl Strategy<Value = String> {
        prop::collection::vec(piece(), 0..30).prop_map(|p| p.concat())
    }

    /// A line or a column: mostly near the text, sometimes far past its end.
    fn coordinate(near: u32) -> impl Strategy<Value = u32> {
        prop_oneof![8 => 0..near, 1 => near..1000, 1 => Just(u32::MAX)]
    }

    /// A ranged change; its ends may be in either order, past the end of a line or of
    /// the text, or inside a character (a UTF-16 surrogate pair, a UTF-8 sequence).
    fn change() -> impl Strategy<Value = (u32, u32, u32, u32, String)> {
        (
            coordinate(8),
            coordinate(14),
            coordinate(8),
            coordinate(14),
            text().prop_map(|t| t.chars().take(6).collect()),
        )
    }

    /// Applies `changes` to a document and to a plain string (positions mapped with
    /// `gcn_ide::LineIndex`), checking after each that the rope and the tree's text are the
    /// string, and if `check_tree`, that the tree is the one of a fresh parse.
    fn check_changes(
        initial: &str,
        changes: Vec<(u32, u32, u32, u32, String)>,
        encoding: PositionEncoding,
        check_tree: bool,
    ) -> Result<(), TestCaseError> {
        let mut document = Document::new(initial, 1, 1);
        let mut model = initial.to_string();
        for (l0, c0, l1, c1, insert) in changes {
            let index = LineIndex::new(&model);
            let a = index.offset(
                Position {
                    line: l0,
                    character: c0,
                },
                encoding,
            );
            let b = index.offset(
                Position {
                    line: l1,
                    character: c1,
                },
                encoding,
            );
            let (a, b) = (usize::from(a.min(b)), usize::from(a.max(b)));
            model.replace_range(a..b, &insert);
            let range = lsp::Range::new(lsp::Position::new(l0, c0), lsp::Position::new(l1, c1));
            let change = lsp::TextDocumentContentChangeEvent {
                range: Some(range),
                range_length: None,
                text: insert,
            };
            document.apply_change(change, encoding);
            prop_assert_eq!(document.text(), model.clone());
            prop_assert_eq!(document.parse.syntax_node().to_string(), model.clone());
            if check_tree {
                prop_assert_eq!(&document.parse, &gcn_syntax::parse(&model));
            }
        }
        Ok(())
    }

    fn encoding(utf8: bool) -> PositionEncoding {
        if utf8 {
            PositionEncoding::Utf8
        } else {
            PositionEncoding::Utf16
        }
    }

    /// Positions past the end, reversed ranges and columns inside a character are
    /// clamped, and the document stays what the client holds.
    #[test]
    fn clamped_changes() {
        let far = u32::MAX;
        let cases = [
            // Reversed: the same as in order.
            (1, 2, 0, 1, PositionEncoding::Utf16),
            // Past the end of a line, and of the text.
            (0, 99, far, far, PositionEncoding::Utf16),
            // Inside the surrogate pair of `😀` (UTF-16 columns 2..4 of line 0).
            (0, 3, 0, 3, PositionEncoding::Utf16),
            (0, 3, 1, 0, PositionEncoding::Utf16),
            // Inside the UTF-8 bytes of `😀` and of `é`.
            (0, 4, 1, 1, PositionEncoding::Utf8),
            (far, 0, 0, far, PositionEncoding::Utf8),
        ];
        for (l0, c0, l1, c1, encoding) in cases {
            check_changes(
                "x😀y\r\né\n",
                vec![(l0, c0, l1, c1, "Z".into())],
                encoding,
                true,
            )
            .unwrap_or_else(|e| panic!("{l0}:{c0}..{l1}:{c1} {encoding:?}: {e}"));
        }
    }

    proptest! {
        /// Ranged changes in either encoding edit the same bytes as on a plain string.
        #[test]
        fn changes_match_a_plain_string(
            initial in text(),
            changes in prop::collection::vec(change(), 1..8),
            utf8 in any::<bool>(),
        ) {
            check_changes(&initial, changes, encoding(utf8), false)?;
        }

        /// After any edits, the assembler's analysis of the incrementally updated parse,
        /// made after each edit with the encodings kept from the one before, is the
        /// analysis of the final text from scratch.
        #[test]
        fn analysis_of_edits_is_the_analysis_from_scratch(
            initial in text(),
            changes in prop::collection::vec(change(), 1..6),
        ) {
            let mut document = Document::new(&initial, 1, 1);
            let cache = gcn_asm::encode_cache::SharedEncodeCache::default();
            let analyse = |document: &Document, parse: Parse, cache: Option<&gcn_asm::encode_cache::SharedEncodeCache>| {
                let path = std::path::PathBuf::from("/nonexistent/k.s");
                let settings = gcn_ide::Settings { args: vec!["-brawcode".into()], ..Default::default() };
                gcn_ide::analyse(gcn_ide::AnalysisInput {
                    options: gcn_ide::file_options(&path, &settings),
                    path,
                    text: document.shared_text(),
                    parse,
                    open_files: Default::default(),
                    cancel: None,
                    encode_cache: cache.cloned(),
                })
            };
            let mut edited = analyse(&document, document.parse.clone(), Some(&cache));
            for (l0, c0, l1, c1, insert) in changes {
                let range = lsp::Range::new(lsp::Position::new(l0, c0), lsp::Position::new(l1, c1));
                let change = lsp::TextDocumentContentChangeEvent { range: Some(range), range_length: None, text: insert };
                document.apply_change(change, PositionEncoding::Utf16);
                edited = analyse(&document, document.parse.clone(), Some(&cache));
            }
            let fresh = analyse(&document, gcn_syntax::parse(&document.text()), None);
            prop_assert_eq!(&edited.diagnostics, &fresh.diagnostics);
            prop_assert_eq!(&edited.kernels, &fresh.kernels);
            prop_assert_eq!(edited.assembly.raw_code(), fresh.assembly.raw_code());
        }

        /// The same, and the incrementally updated tree is the one of a full parse.
        #[test]
        fn changes_give_the_tree_of_a_full_parse(
            initial in text(),
            changes in prop::collection::vec(change(), 1..8),
            utf8 in any::<bool>(),
        ) {
            check_changes(&initial, changes, encoding(utf8), true)?;
        }
    }
}
