//! The conformance corpus's instructions, rewritten in other styles, still encode to the
//! reference's words: upper case, spaces and tabs around commas and inside register
//! ranges, trailing and block comments, labels in front, several statements on a line.
//! Each style assembles every single-statement good case of a device as one program.
//! Skipped when `../shared/conformance` is absent.

use std::collections::BTreeMap;
use std::path::PathBuf;

use gcn_asm::{assemble, BinaryFormat, Input, Options};
use gcn_isa::Device;

struct Case {
    src: String,
    words: Vec<u32>,
}

/// Good cases of one statement that defines nothing, by device and wave size.
fn cases() -> Option<BTreeMap<(String, bool), Vec<Case>>> {
    let path = conformance_dir().0.join("instructions.jsonl");
    let text = std::fs::read_to_string(path).ok()?;
    let mut groups: BTreeMap<(String, bool), Vec<Case>> = BTreeMap::new();
    for line in text.lines() {
        let case: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
        let src = case["src"].as_str().unwrap_or_default().trim();
        // One statement that defines no label or symbol (those would clash in one program).
        let one_statement =
            !src.is_empty() && !src.contains(['\n', ';', '=']) && !src.starts_with('.');
        let labelled = src.contains(": ")
            || src
                .split_whitespace()
                .next()
                .is_some_and(|w| w.ends_with(':'));
        if case["good"] != true || !one_statement || labelled {
            continue;
        }
        let words = case["words"]
            .as_array()
            .unwrap()
            .iter()
            .map(|w| u32::from_str_radix(w.as_str().unwrap(), 16).unwrap());
        let key = (
            case["gpu"].as_str().unwrap().to_string(),
            case["wave32"] == true,
        );
        groups.entry(key).or_default().push(Case {
            src: src.to_string(),
            words: words.collect(),
        });
    }
    Some(groups)
}

/// Assembles `lines` for the device; the raw code, or the error messages.
fn assemble_lines(gpu: &str, wave32: bool, lines: &[String]) -> Result<Vec<u8>, Vec<String>> {
    let device = Device::from_name(gpu).expect("a known device");
    let opts = Options {
        format: BinaryFormat::Rawcode,
        device,
        device_given: true,
        wave32,
        ..Options::default()
    };
    let text = lines.join("\n") + "\n";
    let result = assemble(
        vec![Input {
            name: "styles.s".into(),
            text,
        }],
        opts,
    );
    if result.has_errors() {
        return Err(result
            .diagnostics
            .iter()
            .map(|d| d.render(&result.sources))
            .collect());
    }
    Ok(result.raw_code())
}

fn check_style(name: &str, restyle: impl Fn(usize, &str) -> String, extra_words: &[u32]) {
    let Some(groups) = cases() else {
        panic!("instruction_styles: no instructions.jsonl in the corpus or its sample");
    };
    let mut checked = 0;
    for ((gpu, wave32), cases) in &groups {
        let lines: Vec<String> = cases
            .iter()
            .enumerate()
            .map(|(i, c)| restyle(i, &c.src))
            .collect();
        let code = assemble_lines(gpu, *wave32, &lines)
            .unwrap_or_else(|errors| panic!("{name} on {gpu}: {errors:#?}"));
        let mut at = 0;
        for (case, line) in cases.iter().zip(&lines) {
            let expected: Vec<u8> = extra_words
                .iter()
                .chain(&case.words)
                .flat_map(|w| w.to_le_bytes())
                .collect();
            let got = code.get(at..at + expected.len()).unwrap_or_default();
            assert_eq!(
                got, expected,
                "{name} on {gpu}: `{line}` (from `{}`)",
                case.src
            );
            at += expected.len();
            checked += 1;
        }
        assert_eq!(at, code.len(), "{name} on {gpu}: more code than the cases");
    }
    let least = if conformance_dir().1 { 5000 } else { 40 };
    assert!(checked > least, "{name}: only {checked} cases");
}

#[test]
fn upper_case() {
    check_style("upper case", |_, s| s.to_uppercase(), &[]);
}

/// Spaces inside register ranges (`s[ 4 : 5 ]`).
fn spaced_ranges(s: &str) -> String {
    let mut out = String::new();
    let mut in_range = false;
    for c in s.chars() {
        match c {
            '[' => {
                out.push_str("[ ");
                in_range = true;
            }
            ']' => {
                out.push_str(" ]");
                in_range = false;
            }
            ':' if in_range => out.push_str(" : "),
            c => out.push(c),
        }
    }
    out
}

#[test]
fn spaces_and_tabs() {
    let spaced = |_: usize, s: &str| {
        let commas = s.split(',').map(str::trim).collect::<Vec<_>>().join(" ,\t");
        format!("\t{}  ", spaced_ranges(&commas))
    };
    check_style("spaces and tabs", spaced, &[]);
}

#[test]
fn comments() {
    check_style(
        "trailing comment",
        |_, s| format!("{s} # a comment, with; punctuation"),
        &[],
    );
    check_style(
        "block comment",
        |_, s| match s.split_once(char::is_whitespace) {
            Some((mnemonic, operands)) => format!("{mnemonic} /* c */ {operands} /* d */"),
            None => format!("/* c */ {s}"),
        },
        &[],
    );
}

#[test]
fn labels_and_statement_separators() {
    check_style("label in front", |i, s| format!("label_{i}: {s}"), &[]);
    check_style(
        "after another statement",
        |_, s| format!("s_nop 0 ; {s}"),
        &[0xbf80_0000],
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
