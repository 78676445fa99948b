//! Snapshot helpers: every `test_data/<dir>/*.s` is rendered and compared with the `.txt`
//! beside it (`UPDATE_EXPECT=1 cargo test` rewrites them).

use std::fmt::Write;
use std::path::Path;

use gcn_syntax::TextRange;

use crate::{LineIndex, PositionEncoding};

pub(crate) fn check_dir(dir: &str, render: impl Fn(&str) -> String) {
    check_dir_files(dir, |_, text| render(text));
}

/// [`check_dir`] with each case's path given to `render` too (for cases read from disk
/// with their includes).
pub(crate) fn check_dir_files(dir: &str, render: impl Fn(&Path, &str) -> String) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("test_data")
        .join(dir);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "s"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no cases in {}", dir.display());
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        expect_test::expect_file![path.with_extension("txt")].assert_eq(&render(&path, &text));
    }
}

/// The analysis of a test case read from disk at `path` (its includes from disk too),
/// with the `gcnasm` arguments of its first line (`# args: ...`).
pub(crate) fn analyse_case(path: &Path, text: &str) -> crate::Analysis {
    let args = text
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("# args:"))
        .unwrap_or("");
    let settings = crate::Settings {
        args: args.split_whitespace().map(String::from).collect(),
        ..Default::default()
    };
    crate::analyse(crate::AnalysisInput {
        path: path.to_path_buf(),
        text: text.into(),
        parse: gcn_syntax::parse(text),
        options: crate::project::options_with_project(path, &settings, None),
        open_files: Default::default(),
        cancel: None,
        encode_cache: None,
    })
}

/// `line:col-line:col "text"`, one-based lines, zero-based UTF-16 columns; long texts are
/// cut in the middle.
pub(crate) fn range_text(text: &str, range: TextRange) -> String {
    let index = LineIndex::new(text);
    let (start, end) = index.range(range, PositionEncoding::Utf16);
    let snippet = &text[range];
    let snippet = if snippet.chars().count() > 40 {
        let head: String = snippet.chars().take(18).collect();
        let tail: String = snippet
            .chars()
            .rev()
            .take(18)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        format!("{head}…{tail}")
    } else {
        snippet.to_string()
    };
    let mut out = String::new();
    write!(
        out,
        "{}:{}-{}:{} {:?}",
        start.line + 1,
        start.character,
        end.line + 1,
        end.character,
        snippet
    )
    .unwrap();
    out
}

/// The line (from 1) of `offset` in `text`.
pub(crate) fn line_of(text: &str, offset: gcn_syntax::TextSize) -> usize {
    text[..usize::from(offset)].matches('\n').count() + 1
}

/// The text without its `$0` cursor markers, and the offsets where they were.
pub(crate) fn cursors(marked: &str) -> (String, Vec<gcn_syntax::TextSize>) {
    let mut text = String::new();
    let mut offsets = Vec::new();
    let mut rest = marked;
    while let Some(at) = rest.find("$0") {
        text.push_str(&rest[..at]);
        offsets.push(gcn_syntax::TextSize::from(text.len() as u32));
        rest = &rest[at + 2..];
    }
    text.push_str(rest);
    (text, offsets)
}
