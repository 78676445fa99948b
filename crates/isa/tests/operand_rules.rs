//! The reference's operand rules, as data: `test_data/clrx/*.txt` hold lines
//! `TARGET ;; SOURCE ;; EXPECTED[ ;; WARNING]...`, where TARGET is a device name with
//! optional `+wave32` and `+buggyfplit` (CLRX 0.1.2's float-literal rules), EXPECTED is
//! the words in hex (as the conformance corpus writes them) or `error: TEXT`, a refusal
//! whose message contains TEXT, and each WARNING is `COLUMN: TEXT`, a warning at that
//! column (1-based) whose message contains TEXT; words given without warnings mean none
//! is expected. `#` starts a comment line; each file's comments say which rule of
//! clrxasm's source its cases pin.
//!
//! Run: `cargo test -p gcn-isa --test operand_rules`.

use std::path::PathBuf;

use gcn_isa::encode::{encode_instruction, RegRange, Resolver, Target, Value};
use gcn_isa::Device;
use gcn_syntax::ast;
use gcn_syntax::SyntaxKind;

/// Integer literals (with `-`) only; names are pending.
struct TinyResolver;

fn eval_int(expr: &ast::Expr) -> Result<Value, String> {
    Ok(match expr {
        ast::Expr::Literal(l) => {
            let t = l.token().ok_or("empty literal")?;
            match t.kind() {
                SyntaxKind::INT_NUMBER => Value::Known(
                    gcn_isa::encode::operands::parse_int(t.text()).ok_or("bad integer")?,
                ),
                _ => return Err(format!("not an integer: {}", t.text())),
            }
        }
        ast::Expr::Prefix(p) if p.op().map(|t| t.kind()) == Some(SyntaxKind::MINUS) => {
            match eval_int(&p.expr().ok_or("missing operand")?)? {
                Value::Known(v) => Value::Known(v.wrapping_neg()),
                Value::Pending => Value::Pending,
            }
        }
        _ => Value::Pending,
    })
}

impl Resolver for TinyResolver {
    fn eval(&mut self, expr: &ast::Expr) -> Result<Value, String> {
        eval_int(expr)
    }
    fn eval_branch(&mut self, expr: &ast::Expr) -> Result<Value, String> {
        eval_int(expr)
    }
    fn register_symbol(&mut self, _name: &str) -> Option<RegRange> {
        None
    }
}

/// The words and the warnings (`COLUMN: MESSAGE`), or the first error's message.
fn encode(target: &Target, src: &str) -> Result<(Vec<u32>, Vec<String>), String> {
    let parse = gcn_syntax::parse(src);
    if let Some(e) = parse.errors().first() {
        return Err(format!("syntax: {e:?}"));
    }
    let instr = parse.tree().instructions().next().ok_or("no instruction")?;
    match encode_instruction(target, &instr, &mut TinyResolver) {
        Ok(e) => {
            let warnings = e
                .warnings
                .iter()
                .map(|w| format!("{}: {}", u32::from(w.range.start()) + 1, w.message))
                .collect();
            Ok((e.words.to_vec(), warnings))
        }
        Err(errors) => Err(errors[0].message.clone()),
    }
}

fn target_of(spec: &str) -> Target {
    let mut parts = spec.split('+');
    let name = parts.next().unwrap_or_default();
    let device = Device::from_name(name).unwrap_or_else(|| panic!("unknown device {name}"));
    let mut target = Target::of_device(device);
    for flag in parts {
        match flag {
            "wave32" => target.wave32 = true,
            "buggyfplit" => target.buggy_fp_lit = true,
            _ => panic!("unknown flag {flag}"),
        }
    }
    target
}

/// `got` is `COLUMN: MESSAGE`; `want` is `COLUMN: TEXT` with TEXT a part of MESSAGE.
fn warning_matches(got: &str, want: &str) -> bool {
    let (Some((got_column, message)), Some((want_column, text))) =
        (got.split_once(':'), want.split_once(':'))
    else {
        return false;
    };
    got_column == want_column.trim() && message.contains(text.trim())
}

#[test]
fn operand_rules() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("test_data/clrx");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    let (mut total, mut failures) = (0, Vec::new());
    for path in files
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
    {
        let text = std::fs::read_to_string(path).unwrap();
        let file = path.file_name().unwrap().to_string_lossy();
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let fields: Vec<&str> = line.split(";;").map(str::trim).collect();
            let [spec, src, want, ref want_warnings @ ..] = fields[..] else {
                panic!("{file}:{}: bad line", n + 1)
            };
            total += 1;
            let got = encode(&target_of(spec), src);
            let ok = match (want.strip_prefix("error:"), &got) {
                (Some(text), Err(message)) => message.contains(text.trim()),
                (None, Ok((words, warnings))) => {
                    let want: Vec<Option<u32>> = want
                        .split_whitespace()
                        .map(|w| u32::from_str_radix(w, 16).ok())
                        .collect();
                    words.iter().map(|&w| Some(w)).eq(want)
                        && warnings.len() == want_warnings.len()
                        && warnings
                            .iter()
                            .zip(want_warnings)
                            .all(|(got, want)| warning_matches(got, want))
                }
                _ => false,
            };
            if !ok {
                let got = match got {
                    Ok((w, warnings)) => {
                        let words = w
                            .iter()
                            .map(|w| format!("{w:08x}"))
                            .collect::<Vec<_>>()
                            .join(" ");
                        warnings
                            .iter()
                            .fold(words, |out, w| format!("{out} ;; {w}"))
                    }
                    Err(e) => format!("error: {e}"),
                };
                let want = fields[2..].join(" ;; ");
                failures.push(format!(
                    "{file}:{}: {spec} ;; {src} ;; got {got}, want {want}",
                    n + 1
                ));
            }
        }
    }
    assert!(total > 0, "no cases in {}", dir.display());
    assert!(
        failures.is_empty(),
        "{} of {total} cases failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
