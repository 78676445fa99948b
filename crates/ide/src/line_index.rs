//! Byte offsets to and from line/column positions.
//!
//! Lines end at `\n`, `\r\n` or a lone `\r` (the line breaks of the Language Server
//! Protocol); Unicode line separators are ordinary characters. Columns are counted in
//! code units of a [`PositionEncoding`]: UTF-8 bytes or UTF-16 units (a character outside
//! the Basic Multilingual Plane takes two).
//!
//! Conversions never fail: a position past the end of its line maps to the line's end (its
//! line break excluded), a line past the last one to the end of the text, and a position
//! or offset inside a character (or between the `\r` and `\n` of one line break) to the
//! start of that character (or the end of the line).
//!
//! ```
//! use gcn_ide::{LineIndex, Position, PositionEncoding::*, TextSize};
//! let index = LineIndex::new("a\r\né😀x\n");
//! let x = TextSize::from(9);
//! assert_eq!(index.position(x, Utf16), Position { line: 1, character: 3 });
//! assert_eq!(index.position(x, Utf8), Position { line: 1, character: 6 });
//! assert_eq!(index.offset(Position { line: 1, character: 3 }, Utf16), x);
//! ```

use std::collections::HashMap;

use gcn_syntax::{TextRange, TextSize};

/// The unit in which a [`Position`]'s `character` counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PositionEncoding {
    /// Bytes of UTF-8.
    Utf8,
    /// UTF-16 code units (the LSP default).
    Utf16,
}

/// A zero-based line and a zero-based column in code units of some [`PositionEncoding`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Position {
    pub line: u32,
    pub character: u32,
}

/// A non-ASCII character: where it starts in its line (in bytes) and its UTF-8 length.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct WideChar {
    start: u32,
    len: u32,
}

impl WideChar {
    fn units(self, encoding: PositionEncoding) -> u32 {
        match encoding {
            PositionEncoding::Utf8 => self.len,
            PositionEncoding::Utf16 if self.len == 4 => 2,
            PositionEncoding::Utf16 => 1,
        }
    }

    fn end(self) -> u32 {
        self.start + self.len
    }
}

/// Where the lines of one text start and end, built once per text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineIndex {
    /// Offset of the first byte of each line; the first is 0.
    line_starts: Vec<TextSize>,
    /// Offset of each line's line break (or of the end of the text, for the last line).
    line_ends: Vec<TextSize>,
    /// The non-ASCII characters of each line that has any, in order.
    wide: HashMap<u32, Vec<WideChar>>,
    len: TextSize,
}

impl LineIndex {
    pub fn new(text: &str) -> LineIndex {
        let mut line_starts = vec![TextSize::from(0)];
        let mut line_ends = Vec::new();
        let mut wide: HashMap<u32, Vec<WideChar>> = HashMap::new();
        let bytes = text.as_bytes();
        let mut line_start = 0usize;
        let mut chars = text.char_indices().peekable();
        while let Some((i, c)) = chars.next() {
            match c {
                '\n' | '\r' => {
                    let mut next = i + 1;
                    if c == '\r' && bytes.get(next) == Some(&b'\n') {
                        chars.next();
                        next += 1;
                    }
                    line_ends.push(TextSize::from(i as u32));
                    line_starts.push(TextSize::from(next as u32));
                    line_start = next;
                }
                c if !c.is_ascii() => {
                    let line = (line_starts.len() - 1) as u32;
                    let start = (i - line_start) as u32;
                    wide.entry(line).or_default().push(WideChar {
                        start,
                        len: c.len_utf8() as u32,
                    });
                }
                _ => {}
            }
        }
        let len = TextSize::of(text);
        line_ends.push(len);
        LineIndex {
            line_starts,
            line_ends,
            wide,
            len,
        }
    }

    /// The length of the indexed text.
    pub fn len(&self) -> TextSize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == TextSize::from(0)
    }

    /// The number of lines; a text ending with a line break has an empty last line.
    pub fn line_count(&self) -> u32 {
        self.line_starts.len() as u32
    }

    /// The range of a line's content, without its line break; `None` past the last line.
    pub fn line_range(&self, line: u32) -> Option<TextRange> {
        let i = line as usize;
        Some(TextRange::new(*self.line_starts.get(i)?, self.line_ends[i]))
    }

    /// The position of a byte offset (clamped to the text).
    pub fn position(&self, offset: TextSize, encoding: PositionEncoding) -> Position {
        let offset = offset.min(self.len);
        let line = self.line_starts.partition_point(|&start| start <= offset) - 1;
        let start = self.line_starts[line];
        let mut col = u32::from(offset.min(self.line_ends[line]) - start);
        let line = line as u32;
        if let Some(c) = self
            .wide_chars(line)
            .find(|c| c.start < col && col < c.end())
        {
            // Inside a character: take its start.
            col = c.start;
        }
        Position {
            line,
            character: self.units_before(line, col, encoding),
        }
    }

    /// The byte offset of a position (clamped as the module documentation says).
    pub fn offset(&self, position: Position, encoding: PositionEncoding) -> TextSize {
        let Some(range) = self.line_range(position.line) else {
            return self.len;
        };
        let line_len = u32::from(range.len());
        let mut units = position.character;
        let mut prev_end = 0;
        for c in self.wide_chars(position.line) {
            let ascii_run = c.start - prev_end;
            if units <= ascii_run {
                return range.start() + TextSize::from(prev_end + units);
            }
            units -= ascii_run;
            if units < c.units(encoding) {
                return range.start() + TextSize::from(c.start);
            }
            units -= c.units(encoding);
            prev_end = c.end();
        }
        range.start() + TextSize::from(prev_end.saturating_add(units).min(line_len))
    }

    /// Both ends of a range as positions.
    pub fn range(&self, range: TextRange, encoding: PositionEncoding) -> (Position, Position) {
        (
            self.position(range.start(), encoding),
            self.position(range.end(), encoding),
        )
    }

    fn wide_chars(&self, line: u32) -> impl Iterator<Item = WideChar> + '_ {
        self.wide.get(&line).into_iter().flatten().copied()
    }

    /// Code units of `line` before byte column `col` (a character boundary).
    fn units_before(&self, line: u32, col: u32, encoding: PositionEncoding) -> u32 {
        self.wide_chars(line)
            .take_while(|c| c.start < col)
            .fold(col, |units, c| units - c.len + c.units(encoding))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use PositionEncoding::*;

    fn pos(line: u32, character: u32) -> Position {
        Position { line, character }
    }

    /// Every character boundary maps to a position and back, in both encodings, and the
    /// positions agree with counting code units of the line's prefix by hand.
    fn check_roundtrip(text: &str) {
        let index = LineIndex::new(text);
        let mut line = 0;
        let mut line_start = 0;
        let boundaries: Vec<usize> = text
            .char_indices()
            .map(|(i, _)| i)
            .chain(std::iter::once(text.len()))
            .collect();
        for &i in &boundaries {
            if i > 0 {
                let prev = &text[..i];
                let after_break =
                    prev.ends_with('\n') || (prev.ends_with('\r') && !text[i..].starts_with('\n'));
                if after_break {
                    line += 1;
                    line_start = i;
                }
            }
            let offset = TextSize::from(i as u32);
            let prefix = &text[line_start..i];
            if prefix.ends_with('\r') {
                // Between `\r` and `\n`: the end of the line.
                continue;
            }
            let utf16 = prefix.encode_utf16().count() as u32;
            assert_eq!(
                index.position(offset, Utf16),
                pos(line, utf16),
                "{text:?} @ {i}"
            );
            assert_eq!(
                index.position(offset, Utf8),
                pos(line, prefix.len() as u32),
                "{text:?} @ {i}"
            );
            assert_eq!(
                index.offset(pos(line, utf16), Utf16),
                offset,
                "{text:?} @ {i}"
            );
            assert_eq!(
                index.offset(pos(line, prefix.len() as u32), Utf8),
                offset,
                "{text:?} @ {i}"
            );
        }
        assert_eq!(index.line_count(), line + 1);
    }

    #[test]
    fn roundtrips() {
        for text in [
            "",
            "\n",
            "abc",
            "abc\n",
            "a\nb\r\nc\rd",
            "\r\n\r\n",
            "\r\r\n\n",
            "é\n",
            "# héllo wörld\ns_nop 0 # 😀 x\n",
            "😀😀\r\n𝄞a€b\rz",
            "\u{2028}x\u{85}y",
        ] {
            check_roundtrip(text);
        }
    }

    #[test]
    fn clamps_past_line_end_and_last_line() {
        let index = LineIndex::new("ab\r\ncd");
        assert_eq!(index.offset(pos(0, 99), Utf16), TextSize::from(2));
        assert_eq!(index.offset(pos(0, 99), Utf8), TextSize::from(2));
        assert_eq!(index.offset(pos(1, 99), Utf16), TextSize::from(6));
        assert_eq!(index.offset(pos(7, 0), Utf16), TextSize::from(6));
        assert_eq!(index.position(TextSize::from(99), Utf16), pos(1, 2));
        // Between `\r` and `\n`.
        assert_eq!(index.position(TextSize::from(3), Utf16), pos(0, 2));
    }

    #[test]
    fn inside_a_character_snaps_to_its_start() {
        // `😀` is 4 bytes, 2 UTF-16 units.
        let index = LineIndex::new("x😀y");
        assert_eq!(index.offset(pos(0, 2), Utf16), TextSize::from(1));
        assert_eq!(index.offset(pos(0, 3), Utf16), TextSize::from(5));
        assert_eq!(index.offset(pos(0, 3), Utf8), TextSize::from(1));
        assert_eq!(index.position(TextSize::from(3), Utf16), pos(0, 1));
        assert_eq!(index.position(TextSize::from(3), Utf8), pos(0, 1));
    }

    #[test]
    fn line_ranges() {
        let index = LineIndex::new("ab\r\ncd\n");
        assert_eq!(index.line_count(), 3);
        assert_eq!(
            index.line_range(0),
            Some(TextRange::new(0.into(), 2.into()))
        );
        assert_eq!(
            index.line_range(1),
            Some(TextRange::new(4.into(), 6.into()))
        );
        assert_eq!(
            index.line_range(2),
            Some(TextRange::new(7.into(), 7.into()))
        );
        assert_eq!(index.line_range(3), None);
    }
}
