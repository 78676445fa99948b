//! The binary writers' refusals, from data: each `data/writer_errors/NAME.s` (which
//! chooses its format, device and driver with pseudo-ops) assembles without errors, and
//! writing its binary fails with the messages of `NAME.txt` (`FILE:LINE:COLUMN: Error:
//! MESSAGE`, as gcnasm prints them). `UPDATE_EXPECT=1 cargo test` refreshes them.

use gcn_asm::{assemble_here, Input, Options, Severity};

#[test]
fn writer_errors() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/writer_errors");
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "s"))
        .collect();
    names.sort();
    assert!(!names.is_empty());
    for path in names {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(&path).unwrap();
        let a = assemble_here(
            vec![Input {
                name: name.clone(),
                text,
            }],
            Options::default(),
        );
        let errors: Vec<_> = a
            .diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .map(|d| d.render(&a.sources))
            .collect();
        assert!(errors.is_empty(), "{name} does not assemble: {errors:?}");
        let Err(refusals) = a.binary() else {
            panic!("{name}: the binary was written")
        };
        let mut out = String::new();
        for d in &refusals {
            out.push_str(&d.render(&a.sources));
            out.push('\n');
        }
        expect_test::expect_file![path.with_extension("txt")].assert_eq(&out);
    }
}
