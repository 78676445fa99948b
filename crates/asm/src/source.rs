//! Source files and positions: byte offsets to `FILE:LINE:COLUMN`.

use std::sync::Arc;

/// Index of a file in the [`SourceMap`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FileId(pub u32);

/// A place in a source file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Location {
    pub file: FileId,
    pub offset: u32,
}

#[derive(Debug)]
pub struct SourceFile {
    pub name: String,
    /// The whole text; empty for a file read as a stream (it is not kept).
    pub text: Arc<str>,
    line_starts: Vec<u32>,
    /// For a streamed file, the lines that are not ASCII (their columns count
    /// characters), by line index; for a file with `text`, none.
    wide_lines: Vec<(u32, Box<str>)>,
}

/// Every file read during an assembly: inputs and includes.
#[derive(Debug, Default)]
pub struct SourceMap {
    files: Vec<SourceFile>,
}

impl SourceMap {
    pub fn add(&mut self, name: impl Into<String>, text: impl Into<Arc<str>>) -> FileId {
        let text: Arc<str> = text.into();
        let mut line_starts = vec![0];
        line_starts.extend(
            text.bytes()
                .enumerate()
                .filter(|&(_, b)| b == b'\n')
                .map(|(i, _)| i as u32 + 1),
        );
        self.files.push(SourceFile {
            name: name.into(),
            text,
            line_starts,
            wide_lines: Vec::new(),
        });
        FileId(self.files.len() as u32 - 1)
    }

    /// A file read as a stream: its lines are known once it has been read
    /// ([`SourceMap::set_lines`]).
    pub(crate) fn add_streamed(&mut self, name: impl Into<String>) -> FileId {
        self.add(name, "")
    }

    /// The lines of a streamed file, as its reader recorded them.
    pub(crate) fn set_lines(&mut self, id: FileId, lines: LineTable) {
        let file = &mut self.files[id.0 as usize];
        file.line_starts = lines.starts;
        file.wide_lines = lines.wide;
    }

    /// How many files there are (ids run from 0).
    pub fn len(&self) -> usize {
        self.files.len()
    }

    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    pub fn file(&self, id: FileId) -> &SourceFile {
        &self.files[id.0 as usize]
    }

    /// 1-based line and column (in characters) of a location.
    pub fn line_col(&self, loc: &Location) -> (usize, usize) {
        let file = self.file(loc.file);
        let line = file.line_starts.partition_point(|&s| s <= loc.offset) - 1;
        let start = file.line_starts[line] as usize;
        let offset = loc.offset as usize;
        let column = if file.text.is_empty() {
            match file
                .wide_lines
                .binary_search_by_key(&(line as u32), |(l, _)| *l)
            {
                Ok(i) => chars_before(&file.wide_lines[i].1, offset - start),
                Err(_) => offset - start,
            }
        } else {
            let end = offset.min(file.text.len());
            file.text
                .get(start..end)
                .map_or(end - start, |s| s.chars().count())
        };
        (line + 1, column + 1)
    }

    /// `FILE:LINE:COLUMN`.
    pub fn describe(&self, loc: &Location) -> String {
        let (line, col) = self.line_col(loc);
        format!("{}:{line}:{col}", self.file(loc.file).name)
    }
}

/// Characters in the first `bytes` bytes of `line` (all of it if shorter).
fn chars_before(line: &str, bytes: usize) -> usize {
    line.char_indices().take_while(|&(i, _)| i < bytes).count()
}

/// Where the lines of a file read as a stream start, and the text of those that are
/// not ASCII: enough for `LINE:COLUMN` without keeping the file.
#[derive(Debug, Clone)]
pub(crate) struct LineTable {
    starts: Vec<u32>,
    wide: Vec<(u32, Box<str>)>,
}

impl Default for LineTable {
    fn default() -> LineTable {
        LineTable {
            starts: vec![0],
            wide: Vec::new(),
        }
    }
}

impl LineTable {
    /// Records the next line (with its line break, if any) that starts at `start`;
    /// `ascii` if it is known to be ASCII.
    pub(crate) fn push(&mut self, start: u32, line: &str, ascii: bool) {
        let index = self.starts.len() as u32 - 1;
        if !ascii && !line.is_ascii() {
            self.wide.push((index, line.into()));
        }
        if line.ends_with('\n') {
            self.starts.push(start + line.len() as u32);
        }
    }
}
