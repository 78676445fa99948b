//! Where an error is, and how it is printed.
//!
//! Several input files are read as one source, one after the other, as clrxasm does (its
//! assembler opens the next file when one ends, so a `.macro` or an `.if` may span
//! files). [`SourceMap`] concatenates them and maps an offset in the whole text back to
//! a file, a line and a column. A file that does not end with a line break gets one
//! between it and the next, so that its last line stays its own; that byte belongs to
//! no file, and an offset on it is placed at the end of the file before.

use std::fmt;

/// One input: the name errors are reported under and its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceFile {
    pub name: String,
    pub text: String,
}

/// The inputs as one text, with the way back from an offset to a file position.
#[derive(Debug, Default)]
pub struct SourceMap {
    text: String,
    files: Vec<Span>,
}

/// Where one file sits in the whole text.
#[derive(Debug)]
struct Span {
    name: String,
    start: usize,
    end: usize,
    /// Offsets (in the whole text) where each of the file's lines starts.
    line_starts: Vec<usize>,
}

/// A position in an input file: LINE and COLUMN start at 1, COLUMN counts characters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Location<'a> {
    pub file: &'a str,
    pub line: usize,
    pub column: usize,
}

impl SourceMap {
    /// Concatenates the files in order.
    pub fn new(files: Vec<SourceFile>) -> SourceMap {
        let mut map = SourceMap::default();
        let count = files.len();
        for (index, file) in files.into_iter().enumerate() {
            map.push(file);
            let last = index + 1 == count;
            if !last && !map.text.is_empty() && !map.text.ends_with('\n') {
                map.text.push('\n');
            }
        }
        map
    }

    fn push(&mut self, file: SourceFile) {
        let start = self.text.len();
        let line_starts = std::iter::once(start)
            .chain(file.text.match_indices('\n').map(|(i, _)| start + i + 1))
            .collect();
        self.text.push_str(&file.text);
        let end = self.text.len();
        self.files.push(Span {
            name: file.name,
            start,
            end,
            line_starts,
        });
    }

    /// All the inputs as one text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The file position of `offset` in [`SourceMap::text`]; `None` only with no file.
    pub fn locate(&self, offset: usize) -> Option<Location<'_>> {
        let offset = offset.min(self.text.len());
        let span = self.span_at(offset)?;
        let offset = offset.clamp(span.start, span.end);
        let line = span.line_starts.partition_point(|&start| start <= offset);
        let line_start = span.line_starts[line - 1];
        let column = self.chars_between(line_start, offset) + 1;
        Some(Location {
            file: &span.name,
            line,
            column,
        })
    }

    /// The file holding the byte at `offset`; for an offset past a file's last byte that
    /// no file holds (the end of the text, an added line break), the file just before.
    fn span_at(&self, offset: usize) -> Option<&Span> {
        let holding = self
            .files
            .iter()
            .find(|s| s.start <= offset && offset < s.end);
        holding.or_else(|| self.files.iter().rev().find(|s| s.end <= offset))
    }

    /// Characters from `start` to `end`, ending early on a byte inside a character.
    fn chars_between(&self, start: usize, end: usize) -> usize {
        self.text[start..]
            .char_indices()
            .take_while(|&(i, _)| start + i < end)
            .count()
    }
}

impl fmt::Display for Location<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.column)
    }
}

/// `FILE:LINE:COLUMN: Error: MESSAGE`, the form clrxasm prints.
pub fn located_error(location: &Location<'_>, message: &str) -> String {
    format!("{location}: Error: {message}")
}

/// `FILE: Error: MESSAGE`, for an error about a whole file.
pub fn file_error(file: &str, message: &str) -> String {
    format!("{file}: Error: {message}")
}

/// `gcnasm: error: MESSAGE`, for an error that belongs to no file.
pub fn tool_error(message: &str) -> String {
    format!("gcnasm: error: {message}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(files: &[(&str, &str)]) -> SourceMap {
        let files = files.iter().map(|(n, t)| SourceFile {
            name: n.to_string(),
            text: t.to_string(),
        });
        SourceMap::new(files.collect())
    }

    fn at(map: &SourceMap, offset: usize) -> String {
        map.locate(offset).unwrap().to_string()
    }

    #[test]
    fn lines_and_columns_count_from_one_in_characters() {
        let m = map(&[("a.s", "ab\n\u{e9}\u{e9}x\n")]);
        assert_eq!(at(&m, 0), "a.s:1:1");
        assert_eq!(at(&m, 2), "a.s:1:3");
        assert_eq!(at(&m, 3), "a.s:2:1");
        assert_eq!(at(&m, 7), "a.s:2:3"); // after two 2-byte characters
        assert_eq!(at(&m, 9), "a.s:3:1"); // end of text
    }

    #[test]
    fn offsets_map_to_the_right_file() {
        let m = map(&[("a.s", "x\ny"), ("b.s", "z\n"), ("c.s", ""), ("d.s", "w")]);
        assert_eq!(m.text(), "x\ny\nz\nw");
        assert_eq!(at(&m, 2), "a.s:2:1");
        assert_eq!(at(&m, 3), "a.s:2:2"); // the added line break: end of a.s
        assert_eq!(at(&m, 4), "b.s:1:1");
        assert_eq!(at(&m, 6), "d.s:1:1"); // where b.s ends and d.s starts: d.s
        assert_eq!(at(&m, 7), "d.s:1:2"); // end of text
    }

    #[test]
    fn no_file_no_location() {
        assert_eq!(map(&[]).locate(0), None);
    }
}
