//! The reference's disassembler output, assembled again, gives back the reference's
//! words. `../isa/test_data/clrx_disasm/DEVICE.txt` hold the cases of clrxasm's own
//! disassembler tests (`tests/amdasm/GCNDisasmOpc*.cpp`), one per line:
//! `WORD... | TEXT`, the words in hex and the text the reference's disassembler writes
//! for them (`\n` between lines). Every case must assemble to exactly its words, or do
//! what a line of `allow.txt` there that covers it says, with the reason why
//! the reference cannot give back its own output either (an illegal opcode, a field the
//! syntax has no place for, bits the text does not show); a line no case needs is an
//! error too, so the list stays true.
//!
//! Branch targets are written `.LOFFSET_0` by the disassembler (OFFSET in bytes from the
//! start of the code); each case defines them as `.LOFFSET_0 = . + OFFSET` first.
//!
//! Run: `cargo test -p gcn-asm --test disasm_roundtrip -- --nocapture` for the summary;
//! `DISASM_FILTER=text` keeps the cases whose text contains `text`.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use gcn_asm::{assemble_here, BinaryFormat, Input, Options};
use gcn_isa::Device;

struct Case {
    set: String,
    line: usize,
    words: Vec<u32>,
    text: String,
}

fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../isa/test_data/clrx_disasm")
}

/// The device and wave size a file's cases were disassembled for.
fn target_of(set: &str) -> (&'static str, bool) {
    match set {
        "pitcairn" => ("pitcairn", false),
        "hawaii" => ("hawaii", false),
        "tonga" => ("tonga", false),
        "gfx900" => ("gfx900", false),
        "gfx906" => ("gfx906", false),
        "gfx1010" | "gfx1010-long" => ("gfx1010", false),
        "gfx1010-wave32" => ("gfx1010", true),
        "gfx1011" => ("gfx1011", false),
        other => panic!("{other}.txt: no device known for this set"),
    }
}

fn read_cases(dir: &Path) -> Vec<Case> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("the disassembler cases")
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.extension().is_some_and(|e| e == "txt") && p.file_stem().is_some_and(|s| s != "allow")
        })
        .collect();
    files.sort();
    let mut cases = Vec::new();
    for path in files {
        let set = path.file_stem().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(&path).unwrap();
        for (i, line) in text.lines().enumerate() {
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            let (words, text) = line
                .split_once(" | ")
                .unwrap_or_else(|| panic!("{set}.txt:{}: no ` | `", i + 1));
            let words = words
                .split_whitespace()
                .map(|w| {
                    u32::from_str_radix(w, 16)
                        .unwrap_or_else(|_| panic!("{set}.txt:{}: bad word {w}", i + 1))
                })
                .collect();
            cases.push(Case {
                set: set.clone(),
                line: i + 1,
                words,
                text: text.to_string(),
            });
        }
    }
    cases
}

/// What a case the reference cannot give back does instead.
#[derive(Debug)]
enum Outcome {
    /// Refused, with a message containing this.
    Error(String),
    /// Other words: the case's words with these bits flipped (bits the text does not
    /// show, or a default the text leaves out).
    Flipped(Vec<u32>),
    /// These words (a different length).
    Words(Vec<u32>),
    /// The VOPC form of the case's VOP3 words: the text does not say `vop3`.
    Vopc,
}

fn hex_words(text: &str) -> Vec<u32> {
    text.split_whitespace()
        .map(|w| u32::from_str_radix(w, 16).expect("a hex word"))
        .collect()
}

/// The 32-bit VOPC encoding of the same comparison as VOP3 `words` (GCN 1.5 numbering:
/// the VOP3 opcode is the VOPC opcode).
fn vopc_of(words: &[u32]) -> Option<u32> {
    let (w0, w1) = (*words.first()?, *words.get(1)?);
    let opcode = (w0 >> 16) & 0x3ff;
    let (src0, src1) = (w1 & 0x1ff, (w1 >> 9) & 0x1ff);
    (opcode < 256 && src1 >= 256).then(|| 0x7c00_0000 | (opcode << 17) | ((src1 - 256) << 9) | src0)
}

/// An `allow.txt` line: `SETS ;; TEXT ;; OUTCOME ;; REASON`, SETS `*` or names joined by
/// `,`, TEXT with `*` for any run of characters, OUTCOME `error: MESSAGE PART` or
/// `flipped: HEX...` (the words that differ from the case's, by word).
#[derive(Debug)]
struct Allowed {
    line: usize,
    sets: Vec<String>,
    text: String,
    outcome: Outcome,
}

fn read_allowed(dir: &Path) -> Vec<Allowed> {
    let text = std::fs::read_to_string(dir.join("allow.txt")).unwrap_or_default();
    let mut rules = Vec::new();
    for (i, l) in text.lines().enumerate() {
        if l.trim().is_empty() || l.starts_with('#') {
            continue;
        }
        let parts: Vec<&str> = l.split(" ;; ").collect();
        assert!(
            parts.len() == 4 && !parts[3].trim().is_empty(),
            "allow.txt:{}: not SETS ;; TEXT ;; OUTCOME ;; REASON",
            i + 1
        );
        let outcome = if let Some(m) = parts[2].strip_prefix("error:") {
            Outcome::Error(m.trim().to_string())
        } else if let Some(w) = parts[2].strip_prefix("flipped: ") {
            Outcome::Flipped(hex_words(w))
        } else if let Some(w) = parts[2].strip_prefix("words: ") {
            Outcome::Words(hex_words(w))
        } else if parts[2] == "vopc" {
            Outcome::Vopc
        } else {
            panic!(
                "allow.txt:{}: the outcome is `error: ...`, `flipped: ...`, `words: ...` or `vopc`",
                i + 1
            )
        };
        let sets = if parts[0] == "*" {
            Vec::new()
        } else {
            parts[0].split(',').map(|s| s.trim().to_string()).collect()
        };
        rules.push(Allowed {
            line: i + 1,
            sets,
            text: parts[1].to_string(),
            outcome,
        });
    }
    rules
}

/// `*` matches any run of characters; everything else itself.
fn glob_matches(pattern: &str, text: &str) -> bool {
    let mut pieces = pattern.split('*');
    let first = pieces.next().unwrap_or_default();
    let Some(mut rest) = text.strip_prefix(first) else {
        return false;
    };
    let pieces: Vec<&str> = pieces.collect();
    for (i, piece) in pieces.iter().enumerate() {
        if i + 1 == pieces.len() {
            return rest.ends_with(piece);
        }
        match rest.find(piece) {
            Some(at) => rest = &rest[at + piece.len()..],
            None => return false,
        }
    }
    rest.is_empty()
}

impl Allowed {
    fn covers(&self, case: &Case) -> bool {
        (self.sets.is_empty() || self.sets.contains(&case.set))
            && glob_matches(&self.text, &case.text)
    }

    fn holds(&self, case: &Case, got: &Result<Vec<u32>, String>) -> bool {
        match (&self.outcome, got) {
            (Outcome::Error(part), Err(message)) => message.contains(part.as_str()),
            (Outcome::Flipped(bits), Ok(got)) => {
                got.len() == case.words.len()
                    && got
                        .iter()
                        .zip(&case.words)
                        .zip(bits.iter().chain(std::iter::repeat(&0)))
                        .all(|((g, w), b)| g ^ w == *b)
            }
            (Outcome::Words(words), Ok(got)) => got == words,
            (Outcome::Vopc, Ok(got)) => got.len() == 1 && vopc_of(&case.words) == Some(got[0]),
            _ => false,
        }
    }
}

/// The branch-target labels the disassembler wrote (`.L44_0`), with their offsets.
fn labels(text: &str) -> BTreeSet<(String, u64)> {
    let mut found = BTreeSet::new();
    let mut rest = text;
    while let Some(at) = rest.find(".L") {
        let tail = &rest[at + 2..];
        let digits: String = tail.chars().take_while(char::is_ascii_digit).collect();
        let after = &tail[digits.len()..];
        let suffix: String = after
            .strip_prefix('_')
            .map(|s| s.chars().take_while(char::is_ascii_digit).collect())
            .unwrap_or_default();
        if !digits.is_empty() && !suffix.is_empty() {
            found.insert((format!(".L{digits}_{suffix}"), digits.parse().unwrap()));
        }
        rest = tail;
    }
    found
}

fn source_of(case: &Case) -> String {
    let mut src: String = labels(&case.text)
        .iter()
        .map(|(name, offset)| format!("{name} = . + {offset}\n"))
        .collect();
    for line in case.text.split("\\n") {
        src.push_str(line);
        src.push('\n');
    }
    src
}

/// The words the case assembles to, or its first error.
fn reassemble(case: &Case) -> Result<Vec<u32>, String> {
    let (gpu, wave32) = target_of(&case.set);
    let device = Device::from_name(gpu).expect("a known device");
    let opts = Options {
        format: BinaryFormat::Rawcode,
        device,
        device_given: true,
        wave32,
        ..Options::default()
    };
    let result = assemble_here(
        vec![Input {
            name: "case.s".into(),
            text: source_of(case),
        }],
        opts,
    );
    if result.has_errors() {
        let first = result
            .diagnostics
            .iter()
            .map(|d| d.render(&result.sources))
            .find(|d| d.contains("rror"));
        return Err(first
            .unwrap_or_default()
            .lines()
            .next()
            .unwrap_or_default()
            .to_string());
    }
    let code = result.raw_code();
    Ok(code
        .chunks(4)
        .map(|c| {
            u32::from_le_bytes([
                c[0],
                c.get(1).copied().unwrap_or(0),
                c.get(2).copied().unwrap_or(0),
                c.get(3).copied().unwrap_or(0),
            ])
        })
        .collect())
}

fn hex(words: &[u32]) -> String {
    words
        .iter()
        .map(|w| format!("{w:08x}"))
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn the_reference_disassemblers_output_assembles_to_its_words() {
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(check_all)
        .unwrap()
        .join()
        .unwrap();
}

fn check_all() {
    let dir = data_dir();
    let filter = std::env::var("DISASM_FILTER").ok();
    let cases = read_cases(&dir);
    let rules = read_allowed(&dir);
    let mut failures = Vec::new();
    let mut used = vec![false; rules.len()];
    let (mut checked, mut allowed) = (0, 0);
    for case in &cases {
        if filter
            .as_ref()
            .is_some_and(|f| !case.text.contains(f.as_str()))
        {
            continue;
        }
        checked += 1;
        let got = reassemble(case);
        if got.as_ref().is_ok_and(|w| *w == case.words) {
            continue;
        }
        let covering: Vec<usize> = (0..rules.len())
            .filter(|&r| rules[r].covers(case))
            .collect();
        let holding = covering
            .iter()
            .copied()
            .find(|&r| rules[r].holds(case, &got));
        if let Some(r) = holding {
            used[r] = true;
            allowed += 1;
            continue;
        }
        let rule = covering.first().copied();
        let good = false;
        if !good {
            let got = match got {
                Ok(words) => hex(&words),
                Err(e) => e,
            };
            let want = match rule {
                Some(r) => format!("{:?} (allow.txt:{})", rules[r].outcome, rules[r].line),
                None => hex(&case.words),
            };
            failures.push(format!(
                "{}.txt:{}: `{}` | want {want} | got {got}",
                case.set, case.line, case.text
            ));
        }
    }
    let stale: Vec<String> = if filter.is_none() {
        rules
            .iter()
            .zip(&used)
            .filter(|(_, u)| !**u)
            .map(|(r, _)| format!("allow.txt:{}: `{}`", r.line, r.text))
            .collect()
    } else {
        Vec::new()
    };
    eprintln!(
        "{checked} cases: {} given back, {allowed} as allow.txt says the reference does, {} failed",
        checked - allowed - failures.len(),
        failures.len()
    );
    for f in failures.iter().take(3000) {
        eprintln!("{f}");
    }
    assert!(cases.len() > 1000, "only {} cases", cases.len());
    assert!(
        failures.is_empty(),
        "{} of {checked} cases do not assemble as they should",
        failures.len()
    );
    assert!(
        stale.is_empty(),
        "allow.txt rules that cover no case: {stale:#?}"
    );
}
