//! Invariants checked on random input: the tree is lossless and parsing never panics,
//! and an incremental reparse equals a full parse of the edited text.

use std::path::PathBuf;

use gcn_syntax::{parse, Parse, TextEdit, TextRange, TextSize};
use proptest::prelude::*;

/// Real sources: the snapshot inputs, plus the conformance programs (or their sample).
fn sources() -> Vec<String> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut dirs = vec![root.join("test_data/ok"), root.join("test_data/err")];
    let binaries = conformance_dir().0.join("binaries");
    if let Ok(entries) = std::fs::read_dir(&binaries) {
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
    out.sort();
    out
}

/// Fragments that stress the grammar's seams when spliced anywhere.
const SNIPPETS: &[&str] = &[
    "",
    " ",
    "\n",
    ";",
    "\\\n",
    "\\",
    "#",
    "/*",
    "*/",
    "\"",
    "'",
    ",",
    ":",
    "(",
    ")",
    "[",
    "]",
    "|",
    "-",
    "+",
    "?",
    "@",
    "%",
    "=",
    "1",
    "1f",
    "0x",
    ".5",
    "e5",
    "x",
    "s1",
    "v[0:3]",
    ".if 1\n",
    ".else\n",
    ".endif\n",
    ".macro m a\n",
    ".endm\n",
    ".rept 2\n",
    ".endr\n",
    ".purgem m\n",
    "m 1, 2\n",
    "lbl: ",
    ".int (1+2*",
    "s_nop 0",
    "€",
    "\r\n",
    "glc",
    "# c \\\n",
    "/* c\n",
    "\\\r\n",
    "\"a\\\n",
    "'\\\n",
];

fn dump(p: &Parse) -> String {
    let mut out = p.debug_dump();
    for e in p.errors() {
        out.push_str(&format!("error {:?}: {}\n", e.range, e.message));
    }
    out
}

fn char_boundary(text: &str, at: usize) -> usize {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// An edit of `text` chosen by three random numbers.
fn edit_for(text: &str, start: usize, len: usize, snippet: usize) -> TextEdit {
    let start = char_boundary(
        text,
        if text.is_empty() {
            0
        } else {
            start % (text.len() + 1)
        },
    );
    let end = char_boundary(text, start + len % 12).max(start);
    TextEdit {
        delete: TextRange::new(TextSize::from(start as u32), TextSize::from(end as u32)),
        insert: SNIPPETS[snippet % SNIPPETS.len()].to_string(),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn any_text_round_trips(text in any::<String>()) {
        prop_assert_eq!(parse(&text).syntax_node().to_string(), text);
    }

    #[test]
    fn clrx_like_text_round_trips(parts in prop::collection::vec(0usize..1000, 0..60)) {
        let text: String = parts.iter().map(|&i| SNIPPETS[i % SNIPPETS.len()]).collect();
        prop_assert_eq!(parse(&text).syntax_node().to_string(), text);
    }

    #[test]
    fn mutated_sources_round_trip(file in 0usize..1000, start in 0usize..100_000, len in 0usize..50, snippet in 0usize..100) {
        let sources = sources();
        let text = &sources[file % sources.len()];
        let edited = edit_for(text, start, len, snippet).apply(text);
        prop_assert_eq!(parse(&edited).syntax_node().to_string(), edited);
    }

    #[test]
    fn incremental_reparse_equals_full_parse(
        file in 0usize..1000,
        edits in prop::collection::vec((0usize..100_000, 0usize..50, 0usize..100), 1..4),
    ) {
        let sources = sources();
        let mut text = sources[file % sources.len()].clone();
        let mut incremental = parse(&text);
        for (start, len, snippet) in edits {
            let edit = edit_for(&text, start, len, snippet);
            text = edit.apply(&text);
            incremental = incremental.reparse(&edit);
            let full = parse(&text);
            prop_assert_eq!(dump(&incremental), dump(&full), "after {:?}", edit);
        }
    }
}

/// Small edits inside statements, the editor's common case, must take the fast paths
/// and still agree with a full parse.
#[test]
fn typing_inside_statements_matches_full_parse() {
    let text = "label: s_add_u32 s1, s2, 3\n.int 1, 2\n.if 1\n  v_nop\n.endif\n.macro m\n  s_nop 0\n.endm\n";
    let mut current = text.to_string();
    let mut parse_now = parse(&current);
    for (offset, insert) in [(25usize, "4"), (33, " + 7"), (52, " "), (75, "1"), (0, "x")] {
        let at = TextSize::from(offset as u32);
        let edit = TextEdit {
            delete: TextRange::empty(at),
            insert: insert.to_string(),
        };
        current = edit.apply(&current);
        parse_now = parse_now.reparse(&edit);
        assert_eq!(
            dump(&parse_now),
            dump(&parse(&current)),
            "inserting {insert:?} at {offset}"
        );
    }
}

/// Edits found by fuzzing the language server where a reparse once differed from a full
/// parse: (source, start, end, insert).
#[test]
fn reparse_regressions() {
    let cases: &[(&str, u32, u32, &str)] = &[
        ("m=;", 0, 0, ""),
        ("t+;", 0, 0, ""),
        ("l,;", 0, 0, ""),
        ("v[;", 0, 0, ""),
        ("a:,\n", 0, 2, ".x"),
        ("a: s_nop 0\n", 1, 1, " "),
        ("p:]", 1, 1, ","),
        ("l:*", 1, 2, ""),
        ("..#", 2, 2, ","),
        // A macro that loses its name: calls after it are instructions again.
        (".macro test1 a\n.endm\ntest1 12, 34\n", 6, 6, "\n"),
    ];
    for &(text, start, end, insert) in cases {
        let edit = TextEdit {
            delete: TextRange::new(TextSize::from(start), TextSize::from(end)),
            insert: insert.to_string(),
        };
        let incremental = parse(text).reparse(&edit);
        let full = parse(&edit.apply(text));
        assert_eq!(dump(&incremental), dump(&full), "{text:?} with {edit:?}");
    }
}

#[test]
fn deep_nesting_does_not_overflow() {
    let text = format!(".int {}1{}\n", "(".repeat(100_000), ")".repeat(100_000));
    let p = parse(&text);
    assert_eq!(p.syntax_node().to_string(), text);
    assert!(!p.errors().is_empty());
    let ifs = ".if 1\n".repeat(50_000);
    assert_eq!(parse(&ifs).syntax_node().to_string(), ifs);
    let prefix = format!(".int {}1\n", "-".repeat(100_000));
    assert_eq!(parse(&prefix).syntax_node().to_string(), prefix);
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
