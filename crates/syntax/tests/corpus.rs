//! Every source of the conformance corpus (`../shared/conformance`, else its sample in
//! `tests/data/conformance-sample`) parses losslessly,
//! and the sources the reference assembles parse without syntax errors.

use std::path::PathBuf;

/// (name, source, whether the reference accepts it)
fn corpus() -> Vec<(String, String, bool)> {
    let (dir, _) = conformance_dir();
    let mut out = Vec::new();
    for file in ["instructions.jsonl", "modules.jsonl"] {
        let text = std::fs::read_to_string(dir.join(file)).unwrap();
        for (i, line) in text.lines().enumerate() {
            let case: serde_json::Value = serde_json::from_str(line).unwrap();
            let src = case["src"].as_str().unwrap().to_string();
            let good = case["good"].as_bool().unwrap();
            out.push((format!("{file}:{}", i + 1), src, good));
        }
    }
    for entry in std::fs::read_dir(dir.join("binaries")).unwrap() {
        let path = entry.unwrap().path().join("input.s");
        let src = std::fs::read_to_string(&path).unwrap();
        let good = !path.with_file_name("expected.err").exists();
        out.push((path.display().to_string(), src, good));
    }
    out
}

#[test]
fn corpus_parses_losslessly_and_cleanly() {
    let mut failures = Vec::new();
    for (name, src, good) in corpus() {
        let parse = gcn_syntax::parse(&src);
        assert_eq!(parse.syntax_node().to_string(), src, "{name}");
        if good {
            for e in parse.errors() {
                let start = usize::from(e.range.start());
                let line = src[..start].matches('\n').count() + 1;
                let text = src.lines().nth(line - 1).unwrap_or("");
                failures.push(format!("{name}:{line}: {} in {text:?}", e.message));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} errors:\n{}",
        failures.len(),
        failures.join("\n")
    );
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
