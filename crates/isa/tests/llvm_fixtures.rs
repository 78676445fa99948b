//! Encoder against llvm-mc fixtures: every table row on every generation that has it.
//!
//! `test_data/llvm/<set>.txt` holds lines `SRC ;; WORDS [;; llvm: SOURCE]` that
//! `tools/gen_llvm_fixtures.py` wrote from `data/instructions.txt` and llvm-mc-14's
//! encodings (llvm-mc is not needed here). Each `SRC` is parsed, encoded for the set's
//! device and wave size (the file's first line: `# SET: device NAME [wave32]; ...`) with
//! a tiny resolver, and the words compared.
//!
//! The conformance corpus (clrxasm) is the reference; llvm-mc is a second oracle for
//! the generations the corpus tests less. Where the two assemblers differ on purpose,
//! or where the encoder is known to be wrong and the fix is pending,
//! `test_data/llvm/allow.txt` lists the case with a reason: lines
//! `SET ;; SRC ;; REASON`, where a `*` in SRC stands for any run of characters. The test fails on a failure not listed, on a panic, and on
//! a listed case that no longer fails (so the list never goes stale).
//!
//! Environment: `LLVM_FIXTURES_FILTER=text` (sources containing text, or a set name),
//! `LLVM_FIXTURES_SHOW=N` (failures printed, default 40), `LLVM_FIXTURES_ALL=1` (print
//! every failure, allow-listed ones too, as `SET ;; SRC ;; got ... want ...`).
//!
//! Run: `cargo test -p gcn-isa --test llvm_fixtures -- --nocapture`.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;

use gcn_isa::encode::{encode_instruction, RegRange, Resolver, Target, Value};
use gcn_isa::Device;
use gcn_syntax::ast;
use gcn_syntax::SyntaxKind;

/// Integer expressions only; names are pending (the fixtures use none).
struct TinyResolver;

fn eval_int(expr: &ast::Expr) -> Result<Value, String> {
    use ast::Expr::*;
    Ok(match expr {
        Literal(l) => {
            let t = l.token().ok_or("empty literal")?;
            match t.kind() {
                SyntaxKind::INT_NUMBER => Value::Known(
                    gcn_isa::encode::operands::parse_int(t.text()).ok_or("bad integer")?,
                ),
                _ => return Err(format!("not an integer: {}", t.text())),
            }
        }
        NameRef(_) => Value::Pending,
        Paren(p) => eval_int(&p.expr().ok_or("empty parens")?)?,
        Prefix(p) => {
            let Value::Known(v) = eval_int(&p.expr().ok_or("missing operand")?)? else {
                return Ok(Value::Pending);
            };
            Value::Known(match p.op().map(|t| t.kind()) {
                Some(SyntaxKind::MINUS) => v.wrapping_neg(),
                Some(SyntaxKind::PLUS) => v,
                Some(SyntaxKind::TILDE) => !v,
                _ => return Err("bad prefix".into()),
            })
        }
        _ => return Err("not a value".into()),
    })
}

impl Resolver for TinyResolver {
    fn eval(&mut self, expr: &ast::Expr) -> Result<Value, String> {
        eval_int(expr)
    }
    fn eval_branch(&mut self, expr: &ast::Expr) -> Result<Value, String> {
        // The instruction is at address 0.
        match eval_int(expr)? {
            Value::Known(v) if v % 4 != 0 => Err("jump is not aligned to a word".into()),
            Value::Known(v) => Ok(Value::Known(v.wrapping_sub(4) / 4)),
            Value::Pending => Ok(Value::Pending),
        }
    }
    fn register_symbol(&mut self, _name: &str) -> Option<RegRange> {
        None
    }
}

struct Fixture {
    set: String,
    src: String,
    words: Vec<u32>,
    file_line: usize,
}

struct Allow {
    set: String,
    src: String,
    line: usize,
    used: bool,
}

impl Allow {
    fn matches(&self, set: &str, src: &str) -> bool {
        self.set == set && glob(&self.src, src)
    }
}

/// `pattern` with `*` standing for any run of characters matches all of `text`.
fn glob(pattern: &str, text: &str) -> bool {
    let mut parts = pattern.split('*');
    let first = parts.next().unwrap_or_default();
    let Some(mut rest) = text.strip_prefix(first) else {
        return false;
    };
    let parts: Vec<&str> = parts.collect();
    let Some((last, middle)) = parts.split_last() else {
        return rest.is_empty();
    };
    for p in middle {
        match rest.find(p) {
            Some(i) => rest = &rest[i + p.len()..],
            None => return false,
        }
    }
    rest.len() >= last.len() && rest.ends_with(last)
}

#[test]
fn glob_matches() {
    assert!(glob("abc", "abc") && !glob("abc", "abcd"));
    assert!(glob("v_*_e64 *0x1*", "v_add_f32_e64 v1, 0x12, v2"));
    assert!(glob(
        "tbuffer_* offen",
        "tbuffer_load_format_x v1, v20, s[8:11], s20 offen"
    ));
    assert!(!glob(
        "tbuffer_* offen",
        "tbuffer_load_format_x v1, v20, s[8:11], s20 offen format:22"
    ));
    assert!(glob("a*b*b", "abb") && !glob("a*b*b", "ab"));
}

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("test_data/llvm")
}

/// Fixture sets: the device and wave size the first line names, and the fixtures.
fn load() -> Vec<(Device, bool, Vec<Fixture>)> {
    let mut files: Vec<_> = std::fs::read_dir(dir())
        .expect("test_data/llvm")
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.extension().is_some_and(|e| e == "txt") && p.file_stem().is_some_and(|s| s != "allow")
        })
        .collect();
    files.sort();
    let mut sets = Vec::new();
    for path in files {
        let set = path.file_stem().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(&path).unwrap();
        let header = text.lines().next().unwrap_or_default();
        let device = header
            .split_once("device ")
            .and_then(|(_, rest)| rest.split(|c: char| c == ';' || c.is_whitespace()).next())
            .and_then(Device::from_name)
            .unwrap_or_else(|| panic!("{}: first line names no device", path.display()));
        let wave32 = header
            .split(';')
            .next()
            .unwrap_or_default()
            .split_whitespace()
            .any(|w| w == "wave32");
        let mut fixtures = Vec::new();
        for (i, line) in text.lines().enumerate() {
            if line.starts_with('#') || line.trim().is_empty() {
                continue;
            }
            let mut parts = line.split(" ;; ");
            let src = parts.next().unwrap().to_string();
            let words = parts
                .next()
                .unwrap_or_else(|| panic!("{}:{}: no words", path.display(), i + 1))
                .split_whitespace()
                .map(|w| u32::from_str_radix(w, 16).expect("hex word"))
                .collect();
            fixtures.push(Fixture {
                set: set.clone(),
                src,
                words,
                file_line: i + 1,
            });
        }
        sets.push((device, wave32, fixtures));
    }
    sets
}

fn load_allow() -> Vec<Allow> {
    let text = std::fs::read_to_string(dir().join("allow.txt")).unwrap_or_default();
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let parts: Vec<&str> = line.split(" ;; ").collect();
        assert!(
            parts.len() == 3 && !parts[2].trim().is_empty(),
            "allow.txt:{}: want `SET ;; SRC ;; REASON`",
            i + 1
        );
        out.push(Allow {
            set: parts[0].to_string(),
            src: parts[1].to_string(),
            line: i + 1,
            used: false,
        });
    }
    out
}

fn hex(words: &[u32]) -> String {
    words
        .iter()
        .map(|w| format!("{w:08x}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `None` when the encoder produces the fixture's words; else what it did.
fn check(target: &Target, fx: &Fixture) -> Option<String> {
    let parse = gcn_syntax::parse(&fx.src);
    if !parse.errors().is_empty() {
        let errs: Vec<_> = parse.errors().iter().map(|e| e.message.clone()).collect();
        return Some(format!("parse errors {errs:?}"));
    }
    let Some(instr) = parse.tree().instructions().next() else {
        return Some("no instruction parsed".into());
    };
    match encode_instruction(target, &instr, &mut TinyResolver) {
        Ok(enc) if enc.words[..] == fx.words[..] && enc.fixups.is_empty() => None,
        Ok(enc) => Some(format!(
            "got {}{}",
            hex(&enc.words),
            if enc.fixups.is_empty() {
                String::new()
            } else {
                format!(" with {} fixup(s)", enc.fixups.len())
            }
        )),
        Err(errs) => Some(format!(
            "refused: {}",
            errs.iter()
                .map(|e| e.message.as_str())
                .collect::<Vec<_>>()
                .join("; ")
        )),
    }
}

#[test]
fn llvm_fixtures() {
    let sets = load();
    assert!(!sets.is_empty(), "no fixtures in test_data/llvm");
    let mut allow = load_allow();
    let filter = std::env::var("LLVM_FIXTURES_FILTER").ok();
    let show: usize = std::env::var("LLVM_FIXTURES_SHOW")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(40);
    let print_all = std::env::var_os("LLVM_FIXTURES_ALL").is_some();

    let mut failures = Vec::new();
    let mut panics = Vec::new();
    let prev_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    println!(
        "{:>13}  {:>6} {:>6} {:>8} {:>6}",
        "set", "cases", "pass", "allowed", "fail"
    );
    let (mut t_total, mut t_pass, mut t_allowed, mut t_fail) = (0, 0, 0, 0);
    for (device, wave32, fixtures) in &sets {
        let target = Target {
            device: *device,
            gen: device.generation(),
            wave32: *wave32,
            buggy_fp_lit: false,
        };
        let (mut total, mut pass, mut allowed, mut fail) = (0, 0, 0, 0);
        for fx in fixtures {
            if let Some(f) = &filter {
                if !fx.src.contains(f.as_str()) && &fx.set != f {
                    continue;
                }
            }
            total += 1;
            let outcome = catch_unwind(AssertUnwindSafe(|| check(&target, fx)));
            let why = match outcome {
                Ok(None) => {
                    pass += 1;
                    continue;
                }
                Ok(Some(why)) => why,
                Err(_) => {
                    panics.push(format!("  [{}] {}", fx.set, fx.src));
                    fail += 1;
                    continue;
                }
            };
            if print_all {
                println!("{} ;; {} ;; {why}; want {}", fx.set, fx.src, hex(&fx.words));
            }
            match allow.iter_mut().find(|a| a.matches(&fx.set, &fx.src)) {
                Some(a) => {
                    a.used = true;
                    allowed += 1;
                }
                None => {
                    fail += 1;
                    failures.push(format!(
                        "  [{} {}:{}] {}\n      want {}; {why}",
                        fx.set,
                        fx.set,
                        fx.file_line,
                        fx.src,
                        hex(&fx.words)
                    ));
                }
            }
        }
        let set = &fixtures.first().map(|f| f.set.clone()).unwrap_or_default();
        println!("{set:>13}  {total:>6} {pass:>6} {allowed:>8} {fail:>6}");
        t_total += total;
        t_pass += pass;
        t_allowed += allowed;
        t_fail += fail;
    }
    std::panic::set_hook(prev_hook);
    println!(
        "{:>13}  {t_total:>6} {t_pass:>6} {t_allowed:>8} {t_fail:>6}",
        "all"
    );
    if !failures.is_empty() {
        println!(
            "first {} of {} failures:",
            show.min(failures.len()),
            failures.len()
        );
        for f in failures.iter().take(show) {
            println!("{f}");
        }
    }
    let stale: Vec<String> = if filter.is_none() {
        allow
            .iter()
            .filter(|a| !a.used)
            .map(|a| format!("  allow.txt:{}: [{}] {}", a.line, a.set, a.src))
            .collect()
    } else {
        Vec::new()
    };
    assert!(
        panics.is_empty(),
        "encoding panicked on {} fixture(s):\n{}",
        panics.len(),
        panics.join("\n")
    );
    assert!(
        failures.is_empty(),
        "{} fixture(s) disagree with llvm-mc and are not in allow.txt",
        failures.len()
    );
    assert!(
        stale.is_empty(),
        "allow.txt entries that no longer fail (remove them):\n{}",
        stale.join("\n")
    );
}
