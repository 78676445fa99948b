//! Conversions between the protocol and the rest of the workspace: LSP positions and
//! ranges to and from byte offsets of a rope, and `gcn-ide` results to LSP types.
//!
//! This is the only module that maps offsets. Columns count code units of the encoding
//! negotiated at `initialize` (UTF-16 unless the client offers UTF-8). Lines end at `\n`,
//! `\r\n` or `\r`, as in the protocol (ropey is built with `cr_lines` and without
//! `unicode_lines`). Positions past the end of a line clamp to its end, lines past the last
//! one to the end of the text, and a column inside a character to its start.

use std::ops::Range as StdRange;

use gcn_ide::{PositionEncoding, Severity, SymbolKind};
use gcn_syntax::{TextEdit, TextRange, TextSize};
use ropey::{Rope, RopeSlice};
use tower_lsp::lsp_types as lsp;

/// The protocol's name of an encoding.
pub fn encoding_kind(encoding: PositionEncoding) -> lsp::PositionEncodingKind {
    match encoding {
        PositionEncoding::Utf8 => lsp::PositionEncodingKind::UTF8,
        PositionEncoding::Utf16 => lsp::PositionEncodingKind::UTF16,
    }
}

/// Chars of a line's line break (0 for the last line of a text without one).
fn line_break_chars(line: RopeSlice<'_>) -> usize {
    let len = line.len_chars();
    match (
        len.checked_sub(2).map(|i| line.char(i)),
        len.checked_sub(1).map(|i| line.char(i)),
    ) {
        (Some('\r'), Some('\n')) => 2,
        (_, Some('\n' | '\r')) => 1,
        _ => 0,
    }
}

/// The byte offset of a position.
pub fn offset(rope: &Rope, position: lsp::Position, encoding: PositionEncoding) -> TextSize {
    let line_idx = position.line as usize;
    let Some(line) = rope.get_line(line_idx) else {
        return text_size(rope.len_bytes());
    };
    let content_chars = line.len_chars() - line_break_chars(line);
    let column = position.character as usize;
    let char_in_line = match encoding {
        PositionEncoding::Utf16 => {
            line.utf16_cu_to_char(column.min(line.char_to_utf16_cu(content_chars)))
        }
        PositionEncoding::Utf8 => line.byte_to_char(column.min(line.char_to_byte(content_chars))),
    };
    text_size(rope.char_to_byte(rope.line_to_char(line_idx) + char_in_line))
}

/// The position of a byte offset (clamped to the text; inside a character or a `\r\n`, the
/// position before it).
pub fn position(rope: &Rope, offset: TextSize, encoding: PositionEncoding) -> lsp::Position {
    let char_idx = rope.byte_to_char(usize::from(offset).min(rope.len_bytes()));
    let line_idx = rope.char_to_line(char_idx);
    let line = rope.line(line_idx);
    let content_chars = line.len_chars() - line_break_chars(line);
    let char_in_line = (char_idx - rope.line_to_char(line_idx)).min(content_chars);
    let character = match encoding {
        PositionEncoding::Utf16 => line.char_to_utf16_cu(char_in_line),
        PositionEncoding::Utf8 => line.char_to_byte(char_in_line),
    };
    lsp::Position::new(line_idx as u32, character as u32)
}

pub fn range(rope: &Rope, range: TextRange, encoding: PositionEncoding) -> lsp::Range {
    lsp::Range::new(
        position(rope, range.start(), encoding),
        position(rope, range.end(), encoding),
    )
}

/// An LSP range of two `gcn-ide` positions (from a [`gcn_ide::LineIndex`], for a text
/// that is not an open document).
pub fn lsp_range(start: gcn_ide::Position, end: gcn_ide::Position) -> lsp::Range {
    lsp::Range::new(
        lsp::Position::new(start.line, start.character),
        lsp::Position::new(end.line, end.character),
    )
}

/// The byte range of an LSP range (ends in either order).
pub fn text_range(rope: &Rope, range: lsp::Range, encoding: PositionEncoding) -> TextRange {
    let start = offset(rope, range.start, encoding);
    let end = offset(rope, range.end, encoding);
    TextRange::new(start.min(end), start.max(end))
}

/// A ranged change of `didChange` as a byte edit for the parser.
pub fn text_edit(
    rope: &Rope,
    range: lsp::Range,
    insert: String,
    encoding: PositionEncoding,
) -> TextEdit {
    TextEdit {
        delete: text_range(rope, range, encoding),
        insert,
    }
}

/// The char indices of a byte range, to edit the rope with.
pub fn char_range(rope: &Rope, range: TextRange) -> StdRange<usize> {
    rope.byte_to_char(range.start().into())..rope.byte_to_char(range.end().into())
}

fn text_size(bytes: usize) -> TextSize {
    TextSize::try_from(bytes).expect("documents are smaller than 4 GiB")
}

pub fn severity(severity: Severity) -> lsp::DiagnosticSeverity {
    match severity {
        Severity::Error => lsp::DiagnosticSeverity::ERROR,
        Severity::Warning => lsp::DiagnosticSeverity::WARNING,
        Severity::Information => lsp::DiagnosticSeverity::INFORMATION,
        Severity::Hint => lsp::DiagnosticSeverity::HINT,
    }
}

pub fn diagnostic(
    rope: &Rope,
    diagnostic: &gcn_ide::Diagnostic,
    encoding: PositionEncoding,
) -> lsp::Diagnostic {
    lsp::Diagnostic {
        range: range(rope, diagnostic.range, encoding),
        severity: Some(severity(diagnostic.severity)),
        source: Some("gcn".to_string()),
        code: diagnostic
            .code
            .map(|code| lsp::NumberOrString::String(code.to_string())),
        message: diagnostic.message.clone(),
        // Editors draw unnecessary code faded.
        tags: diagnostic
            .code
            .filter(|c| {
                [
                    gcn_ide::diagnostics::NEEDLESS_WAITCNT,
                    gcn_ide::diagnostics::INACTIVE_BRANCH,
                ]
                .contains(c)
            })
            .map(|_| vec![lsp::DiagnosticTag::UNNECESSARY]),
        ..Default::default()
    }
}

pub fn symbol_kind(kind: SymbolKind) -> lsp::SymbolKind {
    match kind {
        // A kernel holds the labels and symbols of its scope.
        SymbolKind::Kernel => lsp::SymbolKind::MODULE,
        SymbolKind::Label => lsp::SymbolKind::KEY,
        SymbolKind::Macro => lsp::SymbolKind::FUNCTION,
        SymbolKind::Symbol => lsp::SymbolKind::CONSTANT,
    }
}

pub fn document_symbol(
    rope: &Rope,
    symbol: &gcn_ide::DocumentSymbol,
    encoding: PositionEncoding,
) -> lsp::DocumentSymbol {
    #[allow(deprecated)] // `deprecated` has no default; `tags` replaces it.
    lsp::DocumentSymbol {
        name: symbol.name.clone(),
        detail: symbol.detail.clone(),
        kind: symbol_kind(symbol.kind),
        tags: None,
        deprecated: None,
        range: range(rope, symbol.full_range, encoding),
        selection_range: range(rope, symbol.focus_range, encoding),
        children: (!symbol.children.is_empty()).then(|| {
            symbol
                .children
                .iter()
                .map(|c| document_symbol(rope, c, encoding))
                .collect()
        }),
    }
}

pub fn hover(rope: &Rope, hover: &gcn_ide::HoverResult, encoding: PositionEncoding) -> lsp::Hover {
    lsp::Hover {
        contents: lsp::HoverContents::Markup(lsp::MarkupContent {
            kind: lsp::MarkupKind::Markdown,
            value: hover.markdown.clone(),
        }),
        range: Some(range(rope, hover.range, encoding)),
    }
}

pub fn completion_kind(kind: gcn_ide::CompletionKind) -> lsp::CompletionItemKind {
    use gcn_ide::CompletionKind as K;
    match kind {
        K::Instruction => lsp::CompletionItemKind::KEYWORD,
        K::PseudoOp => lsp::CompletionItemKind::KEYWORD,
        K::Register => lsp::CompletionItemKind::VARIABLE,
        K::Label => lsp::CompletionItemKind::REFERENCE,
        K::Symbol => lsp::CompletionItemKind::CONSTANT,
        K::Kernel => lsp::CompletionItemKind::MODULE,
        K::Macro => lsp::CompletionItemKind::FUNCTION,
        K::Value => lsp::CompletionItemKind::VALUE,
        K::Modifier => lsp::CompletionItemKind::PROPERTY,
        K::Parameter => lsp::CompletionItemKind::VARIABLE,
    }
}

pub fn completions(
    rope: &Rope,
    completions: &gcn_ide::Completions,
    encoding: PositionEncoding,
) -> lsp::CompletionList {
    let replace = range(rope, completions.range, encoding);
    let items = completions
        .items
        .iter()
        .map(|item| lsp::CompletionItem {
            label: item.label.clone(),
            kind: Some(completion_kind(item.kind)),
            detail: item.detail.clone(),
            documentation: item.documentation.clone().map(|d| {
                lsp::Documentation::MarkupContent(lsp::MarkupContent {
                    kind: lsp::MarkupKind::Markdown,
                    value: d,
                })
            }),
            // Plain text is the default: said only for snippets (the list at the start of a
            // line holds a thousand items, and every byte is serialized and parsed).
            insert_text_format: item.is_snippet.then_some(lsp::InsertTextFormat::SNIPPET),
            // With nothing typed yet, a plain insertion (no range repeated per item).
            text_edit: (!completions.range.is_empty()).then(|| {
                lsp::CompletionTextEdit::Edit(lsp::TextEdit {
                    range: replace,
                    new_text: item
                        .insert_text
                        .clone()
                        .unwrap_or_else(|| item.label.clone()),
                })
            }),
            insert_text: if completions.range.is_empty() {
                item.insert_text.clone()
            } else {
                None
            },
            ..Default::default()
        })
        .collect();
    lsp::CompletionList {
        is_incomplete: false,
        items,
    }
}

/// Fills in the documentation of a completion item the editor resolves.
pub fn resolve_completion(mut item: lsp::CompletionItem) -> lsp::CompletionItem {
    // Instructions and pseudo-ops are the keywords; pseudo-ops start with a dot.
    if item.kind != Some(lsp::CompletionItemKind::KEYWORD) {
        return item;
    }
    let kind = if item.label.starts_with('.') {
        gcn_ide::CompletionKind::PseudoOp
    } else {
        gcn_ide::CompletionKind::Instruction
    };
    if let Some(doc) = gcn_ide::completion::documentation(kind, &item.label) {
        item.documentation = Some(lsp::Documentation::MarkupContent(lsp::MarkupContent {
            kind: lsp::MarkupKind::Markdown,
            value: doc,
        }));
    }
    item
}

pub fn signature_help(help: &gcn_ide::SignatureHelp) -> lsp::SignatureHelp {
    // Parameter offsets are byte offsets in an ASCII label: UTF-16 offsets too.
    let signatures = help
        .signatures
        .iter()
        .map(|s| lsp::SignatureInformation {
            label: s.label.clone(),
            documentation: s.documentation.clone().map(lsp::Documentation::String),
            parameters: Some(
                s.parameters
                    .iter()
                    .map(|((a, b), doc)| lsp::ParameterInformation {
                        label: lsp::ParameterLabel::LabelOffsets([*a, *b]),
                        documentation: doc.clone().map(lsp::Documentation::String),
                    })
                    .collect(),
            ),
            active_parameter: None,
        })
        .collect();
    lsp::SignatureHelp {
        signatures,
        active_signature: Some(0),
        active_parameter: Some(help.active_parameter),
    }
}

/// The legend of [`semantic_tokens`]: token types in `gcn_ide::SemanticTokenKind` order.
pub fn semantic_tokens_legend() -> lsp::SemanticTokensLegend {
    lsp::SemanticTokensLegend {
        token_types: gcn_ide::SemanticTokenKind::ALL
            .iter()
            .map(|k| lsp::SemanticTokenType::new(k.name()))
            .collect(),
        token_modifiers: Vec::new(),
    }
}

/// Semantic tokens, relative-encoded; a token over several lines (a block comment) is
/// sent as one token per line. `text` is the rope's text: the tokens' positions are
/// found in one walk over it from the line of the first one, in time linear in the
/// stretch of text they cover (a position per token from the rope costs several tree
/// searches each).
pub fn semantic_tokens(
    rope: &Rope,
    text: &str,
    tokens: &[gcn_ide::SemanticToken],
    encoding: PositionEncoding,
) -> Vec<lsp::SemanticToken> {
    let mut out = Vec::with_capacity(tokens.len());
    let Some(first) = tokens.first() else {
        return out;
    };
    let line = rope.byte_to_line(usize::from(first.range.start()).min(rope.len_bytes()));
    let mut cursor = TextCursor {
        text: text.as_bytes(),
        offset: rope.line_to_byte(line),
        line: line as u32,
        column: 0,
        encoding,
    };
    let (mut prev_line, mut prev_start) = (0u32, 0u32);
    let mut push = |line: u32, character: u32, length: u32, kind: u32| {
        let delta_line = line - prev_line;
        let delta_start = if delta_line == 0 {
            character - prev_start
        } else {
            character
        };
        out.push(lsp::SemanticToken {
            delta_line,
            delta_start,
            length,
            token_type: kind,
            token_modifiers_bitset: 0,
        });
        prev_line = line;
        prev_start = character;
    };
    for token in tokens {
        let kind = gcn_ide::SemanticTokenKind::ALL
            .iter()
            .position(|k| *k == token.kind)
            .unwrap_or(0) as u32;
        let end = usize::from(token.range.end()).min(text.len());
        cursor.advance(usize::from(token.range.start()).min(text.len()), false);
        let (line, from) = (cursor.line, cursor.column);
        if !cursor.advance(end, true) {
            push(line, from, cursor.column - from, kind);
            continue;
        }
        // One piece per line, those of no width left out.
        let mut from = from;
        loop {
            let line = cursor.line;
            let crossed = cursor.advance(end, true);
            if cursor.column > from {
                push(line, from, cursor.column - from, kind);
            }
            if !crossed {
                break;
            }
            cursor.skip_line_break();
            from = 0;
        }
    }
    out
}

/// A walk forward over a text that knows the line and column (in code units of
/// `encoding`) of where it stands.
struct TextCursor<'a> {
    text: &'a [u8],
    offset: usize,
    line: u32,
    column: u32,
    encoding: PositionEncoding,
}

impl TextCursor<'_> {
    /// Moves towards `target`, never into a character or between `\r` and `\n`; with
    /// `stop_at_break`, stops before a line break short of `target` and says so (`true`).
    fn advance(&mut self, target: usize, stop_at_break: bool) -> bool {
        while self.offset < target {
            let byte = self.text[self.offset];
            if byte == b'\n' || byte == b'\r' {
                let len = if byte == b'\r' && self.text.get(self.offset + 1) == Some(&b'\n') {
                    2
                } else {
                    1
                };
                if stop_at_break {
                    return true;
                }
                if self.offset + len > target {
                    break;
                }
                self.offset += len;
                self.line += 1;
                self.column = 0;
                continue;
            }
            let len = match byte {
                0..0x80 => 1,
                0xc0..0xe0 => 2,
                0xe0..0xf0 => 3,
                _ => 4,
            };
            if self.offset + len > target {
                break;
            }
            self.column += match self.encoding {
                PositionEncoding::Utf8 => len as u32,
                PositionEncoding::Utf16 => 1 + u32::from(len == 4),
            };
            self.offset += len;
        }
        false
    }

    /// Steps over the line break the cursor stands before.
    fn skip_line_break(&mut self) {
        let len = if self.text[self.offset..].starts_with(b"\r\n") {
            2
        } else {
            1
        };
        self.offset += len;
        self.line += 1;
        self.column = 0;
    }
}

/// A fold as lines; `None` when it starts and ends on one line.
pub fn folding_range(
    rope: &Rope,
    fold: &gcn_ide::Fold,
    encoding: PositionEncoding,
) -> Option<lsp::FoldingRange> {
    let start = position(rope, fold.range.start(), encoding);
    let end = position(rope, fold.range.end(), encoding);
    (end.line > start.line).then_some(lsp::FoldingRange {
        start_line: start.line,
        start_character: None,
        end_line: end.line,
        end_character: None,
        kind: Some(match fold.kind {
            gcn_ide::FoldKind::Comment => lsp::FoldingRangeKind::Comment,
            _ => lsp::FoldingRangeKind::Region,
        }),
        collapsed_text: None,
    })
}

/// Nested selection ranges from ranges innermost first.
pub fn selection_range(
    rope: &Rope,
    ranges: &[TextRange],
    encoding: PositionEncoding,
) -> lsp::SelectionRange {
    let mut current: Option<lsp::SelectionRange> = None;
    for r in ranges.iter().rev() {
        current = Some(lsp::SelectionRange {
            range: range(rope, *r, encoding),
            parent: current.map(Box::new),
        });
    }
    current.unwrap_or(lsp::SelectionRange {
        range: lsp::Range::default(),
        parent: None,
    })
}

/// Places in the files of an analysis as LSP locations: in the open document the
/// request is about, through its rope; in any other file (an included one), through a
/// [`gcn_ide::LineIndex`] over the text the analysis read for it (else the disk), built
/// once per file.
pub struct Locations<'a> {
    uri: &'a lsp::Url,
    rope: &'a Rope,
    path: std::path::PathBuf,
    analysis: &'a gcn_ide::Analysis,
    encoding: PositionEncoding,
    indexes: std::collections::HashMap<std::path::PathBuf, Option<gcn_ide::LineIndex>>,
}

impl<'a> Locations<'a> {
    /// `uri` is the open document whose rope is `rope` and whose path is `path`.
    pub fn new(
        uri: &'a lsp::Url,
        rope: &'a Rope,
        path: &std::path::Path,
        analysis: &'a gcn_ide::Analysis,
        encoding: PositionEncoding,
    ) -> Locations<'a> {
        let path = gcn_ide::analysis::normalize(path);
        Locations {
            uri,
            rope,
            path,
            analysis,
            encoding,
            indexes: std::collections::HashMap::new(),
        }
    }

    /// The URI of a file: the document's own for its path.
    pub fn uri(&self, file: &std::path::Path) -> Option<lsp::Url> {
        if file == self.path {
            return Some(self.uri.clone());
        }
        lsp::Url::from_file_path(file).ok()
    }

    pub fn range(&mut self, file: &std::path::Path, text_range: TextRange) -> Option<lsp::Range> {
        if file == self.path {
            return Some(range(self.rope, text_range, self.encoding));
        }
        let analysis = self.analysis;
        let index = self.indexes.entry(file.to_path_buf()).or_insert_with(|| {
            match analysis.file_text(file) {
                Some(text) => Some(gcn_ide::LineIndex::new(text)),
                None => gcn_ide::read_source(file)
                    .ok()
                    .map(|t| gcn_ide::LineIndex::new(&t)),
            }
        });
        let (start, end) = index.as_ref()?.range(text_range, self.encoding);
        Some(lsp_range(start, end))
    }

    pub fn location(
        &mut self,
        file: &std::path::Path,
        text_range: TextRange,
    ) -> Option<lsp::Location> {
        let range = self.range(file, text_range)?;
        Some(lsp::Location::new(self.uri(file)?, range))
    }
}

#[cfg(test)]
mod tests {
    use gcn_ide::LineIndex;
    use PositionEncoding::*;

    use super::*;

    /// The rope conversions agree with `gcn_ide::LineIndex` at every byte offset and at
    /// every position up to a few columns past each line's end.
    #[test]
    fn agrees_with_line_index() {
        for text in [
            "",
            "a\nb",
            "x😀y\r\né\rz\n",
            "# größe\r\n\r\n𝄞𝄞 s_nop 0\n\n",
            "\u{2028}a\u{85}b\n",
        ] {
            let rope = Rope::from_str(text);
            let index = LineIndex::new(text);
            for encoding in [Utf8, Utf16] {
                for byte in 0..=text.len() + 2 {
                    let offset = TextSize::from(byte as u32);
                    let ours = position(&rope, offset, encoding);
                    let theirs = index.position(offset, encoding);
                    assert_eq!(
                        (ours.line, ours.character),
                        (theirs.line, theirs.character),
                        "{text:?} @ {byte}"
                    );
                }
                for line in 0..index.line_count() + 2 {
                    for character in 0..12 {
                        let ours = offset(&rope, lsp::Position::new(line, character), encoding);
                        let theirs = index.offset(gcn_ide::Position { line, character }, encoding);
                        assert_eq!(ours, theirs, "{text:?} @ {line}:{character} {encoding:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn utf16_edit_after_non_ascii() {
        // `ä` is 2 bytes but 1 UTF-16 unit; `😀` is 4 bytes, 2 units.
        let rope = Rope::from_str("# ä😀\n.int 1 # ü\n");
        let range = lsp::Range::new(lsp::Position::new(0, 5), lsp::Position::new(1, 4));
        let edit = text_edit(&rope, range, "X".into(), Utf16);
        assert_eq!(edit.delete, TextRange::new(8.into(), 13.into()));
        let edit = text_edit(&rope, range, "X".into(), Utf8);
        assert_eq!(
            edit.delete,
            TextRange::new(4.into(), 13.into()),
            "inside `😀`: its start"
        );
    }

    /// The tokens converted position by position through the rope, as they were before
    /// the walk of [`semantic_tokens`].
    fn semantic_tokens_by_positions(
        rope: &Rope,
        tokens: &[gcn_ide::SemanticToken],
        encoding: PositionEncoding,
    ) -> Vec<lsp::SemanticToken> {
        let mut out = Vec::new();
        let (mut prev_line, mut prev_start) = (0u32, 0u32);
        for token in tokens {
            let kind = gcn_ide::SemanticTokenKind::ALL
                .iter()
                .position(|k| *k == token.kind)
                .unwrap() as u32;
            let start = position(rope, token.range.start(), encoding);
            let end = position(rope, token.range.end(), encoding);
            let mut pieces = Vec::new();
            if start.line == end.line {
                pieces.push((start.line, start.character, end.character - start.character));
            } else {
                for line in start.line..=end.line {
                    let from = if line == start.line {
                        start.character
                    } else {
                        0
                    };
                    let to = if line == end.line {
                        end.character
                    } else {
                        position(
                            rope,
                            offset(rope, lsp::Position::new(line, u32::MAX), encoding),
                            encoding,
                        )
                        .character
                    };
                    if to > from {
                        pieces.push((line, from, to - from));
                    }
                }
            }
            for (line, character, length) in pieces {
                let delta_line = line - prev_line;
                let delta_start = if delta_line == 0 {
                    character - prev_start
                } else {
                    character
                };
                out.push(lsp::SemanticToken {
                    delta_line,
                    delta_start,
                    length,
                    token_type: kind,
                    token_modifiers_bitset: 0,
                });
                prev_line = line;
                prev_start = character;
            }
        }
        out
    }

    proptest::proptest! {
        /// The walk gives what a conversion of each position gives, for the tokens of
        /// the file and of ranges, with every kind of line break, characters of every
        /// width and block comments over several lines.
        #[test]
        fn semantic_tokens_walk_is_the_positions(
            pieces in proptest::collection::vec(proptest::sample::select(vec![
                "\n", "\r\n", "\r", " ", "s_nop 0", "v_add_f32 v1, v2, v3", "x = 1 + é", "# ä😀 c", "/* a\r\nü\n\n😀 b */",
                "/*\r*/", "\"𝄞\"", "lbl:", ".int 1, 2", "s[4:5]", "€", "\t",
            ]), 0..40),
            a in 0usize..300,
            b in 0usize..300,
        ) {
            let text: String = pieces.concat();
            let rope = Rope::from_str(&text);
            let parse = gcn_syntax::parse(&text);
            let (a, b) = (a.min(text.len()), b.min(text.len()));
            for range in [None, Some(TextRange::new((a.min(b) as u32).into(), (a.max(b) as u32).into()))] {
                let tokens = gcn_ide::semantic_tokens(&parse, range);
                for encoding in [Utf8, Utf16] {
                    proptest::prop_assert_eq!(
                        semantic_tokens(&rope, &text, &tokens, encoding),
                        semantic_tokens_by_positions(&rope, &tokens, encoding),
                        "{:?} {:?}", range, encoding
                    );
                }
            }
        }
    }
}
