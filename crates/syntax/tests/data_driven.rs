//! Tree snapshots of `test_data/{ok,err}/*.s`: `ok` files must parse without errors,
//! `err` files must report at least one. Run with `UPDATE_EXPECT=1` to refresh.

use std::path::{Path, PathBuf};

fn cases(dir: &str) -> Vec<PathBuf> {
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
    files
}

fn snapshot(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    let parse = gcn_syntax::parse(&text);
    assert_eq!(
        parse.syntax_node().to_string(),
        text,
        "lossless: {}",
        path.display()
    );
    let mut out = parse.debug_dump();
    for e in parse.errors() {
        out.push_str(&format!("error {:?}: {}\n", e.range, e.message));
    }
    expect_test::expect_file![path.with_extension("txt")].assert_eq(&out);
    out
}

#[test]
fn ok_cases_parse_without_errors() {
    for path in cases("ok") {
        let out = snapshot(&path);
        assert!(
            !out.contains("\nerror "),
            "unexpected error in {}",
            path.display()
        );
    }
}

#[test]
fn err_cases_report_errors() {
    for path in cases("err") {
        let out = snapshot(&path);
        assert!(
            out.contains("\nerror "),
            "no error reported for {}",
            path.display()
        );
    }
}
