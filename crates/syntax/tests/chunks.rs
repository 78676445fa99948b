//! Parsing chunk by chunk gives the statements and errors of a whole-file parse.

use std::path::PathBuf;

use gcn_syntax::{
    parse, parse_chunk, parse_chunk_events, parts, Chunker, KnownMacros, Parse, SyntaxNode,
    TextSize,
};
use proptest::prelude::*;

/// Every element below the root as `KIND@RANGE`, shifted by `base`, a token's text after.
fn elements(node: &SyntaxNode, base: TextSize, out: &mut Vec<String>) {
    for e in node.descendants_with_tokens().skip(1) {
        let r = e.text_range() + base;
        let text = e.as_token().map(|t| t.text()).unwrap_or_default();
        out.push(format!("{:?}@{:?} {text:?}", e.kind(), r));
    }
}

fn errors(p: &Parse, base: TextSize, out: &mut Vec<String>) {
    out.extend(
        p.errors()
            .iter()
            .map(|e| format!("{:?} {}", e.range + base, e.message)),
    );
}

fn lines(text: &str) -> Vec<&str> {
    text.split_inclusive('\n').collect()
}

fn check(text: &str) {
    let whole = parse(text);
    let (mut want, mut want_errors) = (Vec::new(), Vec::new());
    elements(&whole.syntax_node(), 0.into(), &mut want);
    errors(&whole, 0.into(), &mut want_errors);

    let (mut got, mut got_errors) = (Vec::new(), Vec::new());
    let mut chunker = Chunker::new();
    let mut macros = KnownMacros::default();
    let mut base = TextSize::from(0);
    let mut take = |chunk: String, base: &mut TextSize| {
        let p = parse_chunk(&chunk, &mut macros);
        elements(&p.syntax_node(), *base, &mut got);
        errors(&p, *base, &mut got_errors);
        *base += TextSize::of(chunk.as_str());
    };
    for line in lines(text) {
        if let Some(chunk) = chunker.push_line(line) {
            take(chunk, &mut base);
        }
    }
    if let Some(chunk) = chunker.finish() {
        take(chunk, &mut base);
    }
    got_errors.sort();
    want_errors.sort();
    assert_eq!(got, want, "tree of {text:?}");
    assert_eq!(got_errors, want_errors, "errors of {text:?}");
    for min_len in [0, 40] {
        check_parts(text, min_len, &want, &want_errors);
    }
}

/// `parts` cuts where the chunker does, so its parts parse like the whole text too,
/// whether their trees share elements across the thread's builds (every other part) or
/// not.
fn check_parts(text: &str, min_len: usize, want: &[String], want_errors: &[String]) {
    let (mut got, mut got_errors) = (Vec::new(), Vec::new());
    let mut macros = KnownMacros::default();
    let mut base = TextSize::from(0);
    for (i, part) in parts(text, min_len).enumerate() {
        let p = match i % 2 {
            0 => parse_chunk(part, &mut macros),
            _ => parse_chunk_events(part, &mut macros).build_for_this_thread(part),
        };
        elements(&p.syntax_node(), base, &mut got);
        errors(&p, base, &mut got_errors);
        base += TextSize::of(part);
    }
    got_errors.sort();
    assert_eq!(u32::from(base) as usize, text.len(), "parts of {text:?}");
    assert_eq!(got, want, "tree of {text:?} in parts of {min_len}");
    assert_eq!(
        got_errors, want_errors,
        "errors of {text:?} in parts of {min_len}"
    );
}

fn corpus() -> Vec<String> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut dirs = vec![root.join("test_data/ok"), root.join("test_data/err")];
    let conformance = conformance_dir().0;
    if let Ok(entries) = std::fs::read_dir(conformance.join("binaries")) {
        dirs.extend(entries.map(|e| e.unwrap().path()));
    }
    let mut out = Vec::new();
    for dir in dirs {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "s") {
                out.push(std::fs::read_to_string(path).unwrap());
            }
        }
    }
    let modules = conformance.join("modules.jsonl");
    if let Ok(text) = std::fs::read_to_string(modules) {
        for line in text.lines() {
            let case: serde_json::Value = serde_json::from_str(line).unwrap();
            out.push(case["src"].as_str().unwrap().to_string() + "\n");
        }
    }
    out
}

#[test]
fn corpus_chunks_parse_like_whole_files() {
    for text in corpus() {
        check(&text);
    }
}

#[test]
fn blocks_comments_and_continuations_stay_in_one_chunk() {
    check(".macro m a\n .if 1\n.endm\nm 1, 2\n/* a\n b */ .rept 2\n s_nop 0\n.endr\n.int 1 + \\\n 2\nx: .if 1\n.else\n.endif\n");
    check(".if 1\n.macro x\n.endif\n.endm\n.endif\nx 1 (2\n");
    check(".irpc x, \"ab\"\n\\x\\()l: .rept 1\n.endr\n.endr\n.int 3\n");
}

#[test]
fn continued_comments_and_strings_stay_in_one_chunk() {
    // A `#` comment continued by `\`: the next line is comment too.
    check(".byte 1 # c \\\n.if 1\n.byte 2\n.byte 3 # d \\\r\n.endif\n.int 4\n");
    // A line break in a block comment ends the statement: `.if` after `*/` opens a block.
    check(".byte 1 /* c\n*/ .if 1\n.byte 2\n.endif\n.byte 3 /* d \\\n*/ .if 1\n.int 4\n");
    // Strings and characters continued onto the next line.
    check(".ascii \"ab\\\n.if 1 cd\"\n.byte '\\\n.'\n.int 5\n");
}

const PIECES: &[&str] = &[
    "\n",
    ";",
    " ",
    "\\\n",
    "/*",
    "*/",
    "#",
    "\"",
    "'",
    "\\",
    "\r\n",
    "# c \\\n",
    "/* c\n",
    ".if 1",
    ".else",
    ".endif",
    ".macro m a",
    ".endm",
    ".rept 2",
    ".irp x, 1",
    ".endr",
    ".purgem m",
    "m 1, (2",
    "l:",
    "\\x\\()l:",
    "s_nop 0",
    ".int 1+",
    "x = 2",
    ".5: ",
];

proptest! {
    #[test]
    fn random_sources_chunk_like_whole_files(parts in prop::collection::vec(0usize..100, 0..40)) {
        let text: String = parts.iter().map(|&i| PIECES[i % PIECES.len()]).collect();
        check(&text);
    }
}

/// The conformance corpus beside the repository (`../shared/conformance`), else the
/// sample of it kept in the repository (`tests/data/conformance-sample`), so that these
/// checks always run; and whether it is the whole corpus. `CONFORMANCE_SAMPLE=1` takes
/// the sample even when the corpus is there.
fn conformance_dir() -> (PathBuf, bool) {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let full = root.join("../shared/conformance");
    if full.join("instructions.jsonl").is_file() && std::env::var_os("CONFORMANCE_SAMPLE").is_none()
    {
        return (full, true);
    }
    eprintln!(
        "../shared/conformance not found: checking its sample, tests/data/conformance-sample"
    );
    (root.join("tests/data/conformance-sample"), false)
}
