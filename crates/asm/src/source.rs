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
    pub text: Arc<str>,
    line_starts: Vec<u32>,
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
        line_starts.extend(text.bytes().enumerate().filter(|&(_, b)| b == b'\n').map(|(i, _)| i as u32 + 1));
        self.files.push(SourceFile { name: name.into(), text, line_starts });
        FileId(self.files.len() as u32 - 1)
    }

    pub fn file(&self, id: FileId) -> &SourceFile {
        &self.files[id.0 as usize]
    }

    /// 1-based line and column (in characters) of a location.
    pub fn line_col(&self, loc: &Location) -> (usize, usize) {
        let file = self.file(loc.file);
        let line = file.line_starts.partition_point(|&s| s <= loc.offset) - 1;
        let start = file.line_starts[line] as usize;
        let end = (loc.offset as usize).min(file.text.len());
        let column = file.text.get(start..end).map_or(end - start, |s| s.chars().count());
        (line + 1, column + 1)
    }

    /// `FILE:LINE:COLUMN`.
    pub fn describe(&self, loc: &Location) -> String {
        let (line, col) = self.line_col(loc);
        format!("{}:{line}:{col}", self.file(loc.file).name)
    }
}
