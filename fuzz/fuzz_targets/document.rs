//! The server's document model under random edit sequences (any positions: past the
//! end of a line or of the text, reversed ranges, inside a character or a UTF-16
//! surrogate pair): its text equals a model string edited with `gcn_ide::LineIndex`'s
//! positions, and its incrementally reparsed tree equals a full parse of that text.
#![no_main]

use arbitrary::Arbitrary;
use gcn_ide::{LineIndex, Position, PositionEncoding};
use gcn_lsp::document::Document;
use libfuzzer_sys::{arbitrary, fuzz_target};
use tower_lsp::lsp_types as lsp;

#[derive(Debug, Arbitrary)]
struct Edit {
    start: (u8, u8),
    end: (u8, u8),
    text: String,
    /// A whole-text replacement instead of a ranged one.
    full: bool,
}

#[derive(Debug, Arbitrary)]
struct Case {
    initial: String,
    utf8: bool,
    edits: Vec<Edit>,
}

fuzz_target!(|case: Case| {
    let encoding = if case.utf8 { PositionEncoding::Utf8 } else { PositionEncoding::Utf16 };
    let mut document = Document::new(&case.initial, 1, 1);
    let mut model = case.initial.clone();
    for edit in case.edits.into_iter().take(16) {
        let range = if edit.full {
            model = edit.text.clone();
            None
        } else {
            let index = LineIndex::new(&model);
            let at = |(line, character): (u8, u8)| {
                usize::from(index.offset(Position { line: line.into(), character: character.into() }, encoding))
            };
            let (a, b) = (at(edit.start), at(edit.end));
            model.replace_range(a.min(b)..a.max(b), &edit.text);
            Some(lsp::Range::new(
                lsp::Position::new(edit.start.0.into(), edit.start.1.into()),
                lsp::Position::new(edit.end.0.into(), edit.end.1.into()),
            ))
        };
        let change = lsp::TextDocumentContentChangeEvent { range, range_length: None, text: edit.text };
        document.apply_change(change, encoding);
        assert_eq!(document.text(), model);
        assert_eq!(document.parse.syntax_node().to_string(), model);
        assert_eq!(document.parse, gcn_syntax::parse(&model));
    }
});
