//! Encoder conformance against ../shared/conformance/instructions.jsonl.
//!
//! Covers the cases whose source is a single statement (no `;`, newline or `=`): it is
//! parsed, encoded for the case's device with a tiny resolver (integer expressions
//! known, names pending) and the words compared; `good: false` cases must be refused
//! (a parse error or an encode error). The other cases need the assembler core and are
//! checked through `gcnasm`.
//!
//! Run: `cargo test -p gcn-isa --test conformance -- --nocapture` to see the summary.
//!
//! Environment:
//! - `CONFORMANCE_FILTER=text`: only cases whose source contains `text`
//!   (case-insensitive) or whose set is `text`; e.g. `CONFORMANCE_FILTER=s_add`;
//!   `^text` matches the start of the (trimmed) source, e.g. `^ds_`; several filters
//!   may be given separated by `|` (`^ds_|^buffer_`).
//! - `CONFORMANCE_SHOW=N`: how many failures to print (default 40).
//! - `CONFORMANCE_SET=gcn1.2`: only that set.
//! - `CONFORMANCE_ERRORS=1`: print the message and place of each refusal.
//!
//! The test fails if a set listed in [`FINISHED_SETS`] has a failure, or if encoding
//! panics on any case. Other sets only print their summary.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;

use gcn_isa::encode::{encode_instruction, RegRange, Resolver, Target, Value};
use gcn_isa::Device;
use gcn_syntax::ast;
use gcn_syntax::SyntaxKind;

/// Sets whose single-statement cases all pass; they must stay that way.
const FINISHED_SETS: &[&str] = &[
    "gcn1.0",
    "gcn1.1",
    "gcn1.2",
    "gcn1.4",
    "gcn1.4.1",
    "gcn1.5",
    "gcn1.5-multi",
    "gcn1.5.1",
    "gcn1.5-wave32",
];

/// Knows integer expressions and the labels of the case's own line (all at address 0,
/// where the instruction is); other names are pending.
struct TestResolver {
    labels: Vec<String>,
}

fn eval_int(expr: &ast::Expr, labels: &[String]) -> Result<Value, String> {
    use ast::Expr::*;
    Ok(match expr {
        Literal(l) => {
            let t = l.token().ok_or("empty literal")?;
            match t.kind() {
                SyntaxKind::INT_NUMBER => Value::Known(
                    gcn_isa::encode::operands::parse_int(t.text()).ok_or("bad integer")?,
                ),
                SyntaxKind::CHAR => {
                    let s = t.text();
                    let inner = &s[1..s.len().saturating_sub(1)];
                    Value::Known(inner.bytes().next().unwrap_or(0) as i64)
                }
                SyntaxKind::LOCAL_LABEL_REF => Value::Pending,
                _ => return Err(format!("not an integer: {}", t.text())),
            }
        }
        NameRef(n) => {
            let name = n
                .name_token()
                .map(|t| t.text().to_string())
                .unwrap_or_default();
            if labels.contains(&name) {
                Value::Known(0)
            } else {
                Value::Pending
            }
        }
        Paren(p) => eval_int(&p.expr().ok_or("empty parens")?, labels)?,
        Prefix(p) => {
            let v = eval_int(&p.expr().ok_or("missing operand")?, labels)?;
            let Value::Known(v) = v else {
                return Ok(Value::Pending);
            };
            Value::Known(match p.op().map(|t| t.kind()) {
                Some(SyntaxKind::MINUS) => v.wrapping_neg(),
                Some(SyntaxKind::PLUS) => v,
                Some(SyntaxKind::TILDE) => !v,
                Some(SyntaxKind::BANG) => (v == 0) as i64,
                _ => return Err("bad prefix".into()),
            })
        }
        Bin(b) => {
            let l = eval_int(&b.lhs().ok_or("missing operand")?, labels)?;
            let r = eval_int(&b.rhs().ok_or("missing operand")?, labels)?;
            let (Value::Known(l), Value::Known(r)) = (l, r) else {
                return Ok(Value::Pending);
            };
            use SyntaxKind::*;
            Value::Known(match b.op().map(|t| t.kind()).ok_or("no operator")? {
                PLUS => l.wrapping_add(r),
                MINUS => l.wrapping_sub(r),
                STAR => l.wrapping_mul(r),
                SLASH if r != 0 => l.wrapping_div(r),
                PERCENT if r != 0 => l.wrapping_rem(r),
                AMP => l & r,
                PIPE => l | r,
                CARET => l ^ r,
                SHL => l.wrapping_shl(r as u32),
                SHR => ((l as u64).wrapping_shr(r as u32)) as i64,
                ASHR => l.wrapping_shr(r as u32),
                _ => return Err("unsupported operator".into()),
            })
        }
        _ => return Err("not a value".into()),
    })
}

impl Resolver for TestResolver {
    fn eval(&mut self, expr: &ast::Expr) -> Result<Value, String> {
        eval_int(expr, &self.labels)
    }
    fn eval_branch(&mut self, expr: &ast::Expr) -> Result<Value, String> {
        // The instruction is at address 0.
        match eval_int(expr, &self.labels)? {
            Value::Known(v) if v % 4 != 0 => Err("jump is not aligned to a word".into()),
            Value::Known(v) => Ok(Value::Known(v.wrapping_sub(4) / 4)),
            Value::Pending => Ok(Value::Pending),
        }
    }
    fn register_symbol(&mut self, _name: &str) -> Option<RegRange> {
        None
    }
}

struct Case {
    set: String,
    gpu: String,
    wave32: bool,
    src: String,
    good: bool,
    words: Vec<u32>,
    line: usize,
}

fn load() -> Option<Vec<Case>> {
    let path = conformance_dir().0.join("instructions.jsonl");
    let text = std::fs::read_to_string(&path).ok()?;
    let mut cases = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let v: serde_json::Value = serde_json::from_str(line).expect("bad json line");
        cases.push(Case {
            set: v["set"].as_str().unwrap_or_default().to_string(),
            gpu: v["gpu"].as_str().unwrap_or_default().to_string(),
            wave32: v["wave32"].as_bool().unwrap_or(false),
            src: v["src"].as_str().unwrap_or_default().to_string(),
            good: v["good"].as_bool().unwrap_or(false),
            words: v["words"]
                .as_array()
                .map(|a| {
                    a.iter()
                        .map(|w| u32::from_str_radix(w.as_str().unwrap_or("0"), 16).unwrap_or(0))
                        .collect()
                })
                .unwrap_or_default(),
            line: i + 1,
        });
    }
    Some(cases)
}

fn single_statement(src: &str) -> bool {
    let t = src.trim();
    !t.is_empty() && !t.contains(';') && !t.contains('\n') && !t.contains('=')
}

enum Outcome {
    Pass,
    Fail(String),
}

fn run_case(case: &Case) -> Outcome {
    let Some(device) = Device::from_name(&case.gpu) else {
        return Outcome::Fail(format!("unknown device {}", case.gpu));
    };
    let target = Target {
        device,
        gen: device.generation(),
        wave32: case.wave32,
        buggy_fp_lit: false,
    };
    let parse = gcn_syntax::parse(&case.src);
    let instr = parse.tree().instructions().next();
    let parse_errors: Vec<String> = parse.errors().iter().map(|e| e.message.clone()).collect();
    let Some(instr) = instr else {
        return if case.good {
            Outcome::Fail(format!("no instruction parsed; errors: {parse_errors:?}"))
        } else {
            Outcome::Pass
        };
    };
    let labels = parse
        .tree()
        .statements()
        .filter_map(|s| match s {
            ast::Statement::Label(l) => Some(l.name()),
            _ => None,
        })
        .collect();
    let result = encode_instruction(&target, &instr, &mut TestResolver { labels });
    match (case.good, result) {
        (true, Ok(enc)) => {
            if !parse_errors.is_empty() {
                return Outcome::Fail(format!("parse errors: {parse_errors:?}"));
            }
            if enc.words[..] == case.words[..] && enc.fixups.is_empty() {
                Outcome::Pass
            } else {
                Outcome::Fail(format!(
                    "got [{}]{}",
                    hex(&enc.words),
                    if enc.fixups.is_empty() {
                        String::new()
                    } else {
                        format!(" with {} fixup(s)", enc.fixups.len())
                    }
                ))
            }
        }
        (true, Err(errs)) => Outcome::Fail(format!(
            "refused: {}{}",
            errs.iter()
                .map(|e| format!(
                    "{} @{:?} `{}`",
                    e.message,
                    e.range,
                    slice(&case.src, e.range)
                ))
                .collect::<Vec<_>>()
                .join("; "),
            if parse_errors.is_empty() {
                String::new()
            } else {
                format!(" (parse errors: {parse_errors:?})")
            }
        )),
        (false, Ok(enc)) => {
            if parse_errors.is_empty() {
                Outcome::Fail(format!(
                    "accepted, should be refused: [{}]",
                    hex(&enc.words)
                ))
            } else {
                Outcome::Pass
            }
        }
        (false, Err(errs)) => {
            if std::env::var_os("CONFORMANCE_ERRORS").is_some() {
                for e in &errs {
                    println!(
                        "  refused [{}] {}\n      {} @ `{}`",
                        case.set,
                        case.src.trim(),
                        e.message,
                        slice(&case.src, e.range)
                    );
                }
            }
            for e in &errs {
                let len = case.src.len() as u32;
                if u32::from(e.range.end()) > len {
                    return Outcome::Fail(format!("error range {:?} outside the source", e.range));
                }
            }
            Outcome::Pass
        }
    }
}

fn slice(src: &str, r: gcn_syntax::TextRange) -> &str {
    src.get(usize::from(r.start())..usize::from(r.end()))
        .unwrap_or("?")
}

fn hex(words: &[u32]) -> String {
    words
        .iter()
        .map(|w| format!("{w:08x}"))
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn conformance() {
    let Some(cases) = load() else {
        panic!("conformance: no instructions.jsonl in the corpus or its sample");
    };
    let filter = std::env::var("CONFORMANCE_FILTER")
        .ok()
        .map(|f| f.to_ascii_lowercase());
    let only_set = std::env::var("CONFORMANCE_SET").ok();
    let show: usize = std::env::var("CONFORMANCE_SHOW")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(40);

    // set -> (pass, total)
    let mut sets: Vec<(String, usize, usize)> = Vec::new();
    let mut failures: Vec<String> = Vec::new();
    let mut panics: Vec<String> = Vec::new();
    let mut finished_failed = Vec::new();
    let prev_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    for case in &cases {
        if !single_statement(&case.src) {
            continue;
        }
        if let Some(s) = &only_set {
            if &case.set != s {
                continue;
            }
        }
        if let Some(f) = &filter {
            let src = case.src.trim().to_ascii_lowercase();
            let hit = f.split('|').any(|f| match f.strip_prefix('^') {
                Some(p) => src.starts_with(p),
                None => src.contains(f) || case.set == f,
            });
            if !hit {
                continue;
            }
        }
        let outcome = catch_unwind(AssertUnwindSafe(|| run_case(case)));
        let idx = match sets.iter().position(|s| s.0 == case.set) {
            Some(i) => i,
            None => {
                sets.push((case.set.clone(), 0, 0));
                sets.len() - 1
            }
        };
        sets[idx].2 += 1;
        let expected = if case.good {
            hex(&case.words)
        } else {
            "error".to_string()
        };
        match outcome {
            Ok(Outcome::Pass) => sets[idx].1 += 1,
            Ok(Outcome::Fail(why)) => {
                if FINISHED_SETS.contains(&case.set.as_str()) {
                    finished_failed.push(case.line);
                }
                failures.push(format!(
                    "  [{} line {}] {}\n      expected {expected}; {why}",
                    case.set,
                    case.line,
                    case.src.trim()
                ));
            }
            Err(_) => {
                panics.push(format!(
                    "  [{} line {}] {}",
                    case.set,
                    case.line,
                    case.src.trim()
                ));
            }
        }
    }
    std::panic::set_hook(prev_hook);
    let (mut pass, mut total) = (0, 0);
    for (set, p, t) in &sets {
        println!(
            "{set:>14}: {p:>5} / {t:<5} passed{}",
            if FINISHED_SETS.contains(&set.as_str()) {
                "  (finished)"
            } else {
                ""
            }
        );
        pass += p;
        total += t;
    }
    println!("{:>14}: {pass:>5} / {total:<5} passed", "all");
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
    assert!(
        panics.is_empty(),
        "encoding panicked on {} case(s):\n{}",
        panics.len(),
        panics.join("\n")
    );
    assert!(
        finished_failed.is_empty(),
        "finished sets have failures (lines {finished_failed:?})"
    );
}

/// Encodes each line `GPU<TAB>SOURCE` of the file named by `ENCODE_LIST` and prints
/// `GPU<TAB>SOURCE<TAB>words|ERR message`: a tool for cross-checking with llvm-mc
/// (`cargo test -p gcn-isa --test conformance encode_list -- --ignored --nocapture`).
#[test]
#[ignore]
fn encode_list() {
    let Ok(path) = std::env::var("ENCODE_LIST") else {
        eprintln!("set ENCODE_LIST to a file of GPU<TAB>SOURCE lines");
        return;
    };
    let text = std::fs::read_to_string(path).expect("ENCODE_LIST file");
    for line in text.lines() {
        let Some((gpu, src)) = line.split_once('\t') else {
            continue;
        };
        let Some(device) = Device::from_name(gpu) else {
            continue;
        };
        let target = Target::of_device(device);
        let parse = gcn_syntax::parse(src);
        let Some(instr) = parse.tree().instructions().next() else {
            println!("{gpu}\t{src}\tERR no instruction");
            continue;
        };
        let out =
            match encode_instruction(&target, &instr, &mut TestResolver { labels: Vec::new() }) {
                Ok(enc) => hex(&enc.words),
                Err(errs) => format!("ERR {}", errs[0].message),
            };
        println!("{gpu}\t{src}\t{out}");
    }
}

/// Odd operands substituted for each operand of each corpus case.
const ODD_OPERANDS: &[&str] = &[
    "s[5:3]",
    "v[0:300]",
    "v[255:256]",
    "s[0:200]",
    "ttmp[99]",
    "vcc[5]",
    "vcc[1:0]",
    "exec[0:3]",
    "s[z]",
    "x[1:2]",
    "lit(",
    "lit()",
    "lit(1,2)",
    "lit(v1)",
    "lit(s[0:1])",
    "-|",
    "|v1",
    "-",
    "@",
    "%v",
    "%",
    "[]",
    "[v1,v2,v3,v4,v5,v6,v7,v8,v9,v10,v11,v12,v13,v14,v15,v16,v17]",
    "[s0]",
    "[1]",
    "1.0e400",
    "-1e-400h",
    "0x",
    "0x1.8p99999",
    "1e",
    "abs()",
    "neg(1,2)",
    "sext(sext(sext(v1)))",
    "--v1",
    "-abs(-abs(v1))",
    "hwreg()",
    "hwreg(mode)",
    "hwreg(mode,99,0)",
    "hwreg(@x,1,1)",
    "sendmsg(1,2,3,4)",
    "sendmsg()",
    "sendmsg(gs,@x)",
    "vmcnt()",
    "vmcnt(1,2)",
    "vmcnt(1)&5",
    "gpr_idx(SRC0,foo)",
    "9223372036854775807",
    "-9223372036854775808",
    "0xffffffffffffffff",
    "'a'",
    "\"str\"",
    "1f",
    "1b",
    "off",
    "null",
    "lds_direct",
    "src_scc",
    "m0",
    "scc",
    "shared_base",
    "flat_scratch",
    "xnack_mask",
    "tba",
    "v",
    "s",
    "ttmp",
    "s[0:1]",
    "s[0:3]",
    "s[0:7]",
    "v[0:15]",
    "v[1:2]",
    "mrt0",
    "param99",
    "pos",
    "attr0.x",
    "p10",
];

/// Odd modifiers appended to each corpus case.
const ODD_MODIFIERS: &[&str] = &[
    "offset:",
    "offset:x",
    "offset:-1",
    "offset:0x7fffffffffff",
    "offset0:1 offset1:2",
    "glc:x",
    "glc:2",
    "dmask:0",
    "dmask:0x1f",
    "dim:",
    "dim:5d",
    "dim:@9",
    "format:[]",
    "format:[1,2,3]",
    "format:[@]",
    "format:[foo]",
    "format:9",
    "tfe lds",
    "addr64 offen",
    "op_sel:[1,1,1,1,1]",
    "abs:[]",
    "neg:5",
    "dpp8:[1]",
    "quad_perm:[4,4,4,4,4]",
    "row_shl:0",
    "bound_ctrl:0:1:2",
    "vop3 sdwa dpp",
    "mul:0",
    "div:3",
    "omod:9",
    "gds gds",
    "nv dlc slc glc",
    "r128 a16 d16 da",
    "done compr vm",
    "inst_offset:99999",
];

/// Encoding never panics: corpus sources truncated at every character, and with each
/// operand replaced by odd ones or odd modifiers appended, on the case's device.
#[test]
fn never_panics() {
    let Some(cases) = load() else {
        panic!("never_panics: no instructions.jsonl in the corpus or its sample");
    };
    let mut seen = std::collections::HashSet::new();
    let mut panics = Vec::new();
    let prev_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let mut try_src = |gpu: &str, wave32: bool, src: &str| {
        let Some(device) = Device::from_name(gpu) else {
            return;
        };
        let target = Target {
            device,
            gen: device.generation(),
            wave32,
            buggy_fp_lit: false,
        };
        let ok = catch_unwind(AssertUnwindSafe(|| {
            let parse = gcn_syntax::parse(src);
            for s in parse.tree().statements() {
                if let ast::Statement::Instruction(i) = s {
                    let _ =
                        encode_instruction(&target, &i, &mut TestResolver { labels: Vec::new() });
                }
            }
        }));
        if ok.is_err() {
            panics.push(format!("[{gpu}] {src}"));
        }
    };
    for case in &cases {
        let src = case.src.trim();
        // One case per device and mnemonic keeps this quick.
        let mnemonic = src
            .split_whitespace()
            .next()
            .unwrap_or("")
            .to_ascii_lowercase();
        if src.contains('\n') || !seen.insert((case.gpu.clone(), mnemonic)) {
            continue;
        }
        // Every case is cut after each token; every fourth one (by mnemonic) after each
        // character and with its operands replaced, which keeps the test quick.
        let thorough = seen.len() % 4 == 0;
        for (i, c) in src.char_indices().skip(1) {
            if thorough || matches!(c, ' ' | ',' | ':' | '[' | '(' | '|') {
                try_src(&case.gpu, case.wave32, &src[..i]);
            }
        }
        if !thorough {
            continue;
        }
        // Operands: split at top-level commas after the mnemonic.
        let Some((mnemonic, rest)) = src.split_once(char::is_whitespace) else {
            continue;
        };
        let parts: Vec<&str> = rest.split(',').collect();
        for k in 0..parts.len().min(5) {
            for odd in ODD_OPERANDS {
                let mut p = parts.clone();
                p[k] = odd;
                try_src(
                    &case.gpu,
                    case.wave32,
                    &format!("{mnemonic} {}", p.join(",")),
                );
            }
        }
        for m in ODD_MODIFIERS {
            try_src(&case.gpu, case.wave32, &format!("{src} {m}"));
        }
    }
    std::panic::set_hook(prev_hook);
    assert!(
        panics.is_empty(),
        "encoding panicked on {} input(s):\n{}",
        panics.len(),
        panics
            .iter()
            .take(50)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

/// Register uses (`Encoded::regs`): files, first registers (scalar operand codes),
/// counts and the write flag.
#[test]
fn register_uses() {
    use gcn_isa::encode::RegFile::{Sgpr as S, Vgpr as V};
    type Use = (gcn_isa::encode::RegFile, u16, u16, bool);
    let cases: &[(&str, &str, &[Use])] = &[
        (
            "Tonga",
            "s_add_u32 s21, s4, s61",
            &[(S, 21, 1, true), (S, 4, 1, false), (S, 61, 1, false)],
        ),
        (
            "Tonga",
            "s_xor_b64 vcc, s[4:5], exec",
            &[(S, 106, 2, true), (S, 4, 2, false), (S, 126, 2, false)],
        ),
        ("Tonga", "s_cmpk_eq_u32 s5, 3", &[(S, 5, 1, false)]),
        ("Tonga", "s_movk_i32 s5, 3", &[(S, 5, 1, true)]),
        ("Tonga", "s_add_u32 s1, scc, 5", &[(S, 1, 1, true)]),
        (
            "Tonga",
            "s_load_dwordx4 s[8:11], s[2:3], s4",
            &[(S, 8, 4, true), (S, 2, 2, false), (S, 4, 1, false)],
        ),
        (
            "Tonga",
            "s_store_dword s8, s[2:3], m0",
            &[(S, 8, 1, false), (S, 2, 2, false), (S, 124, 1, false)],
        ),
        (
            "Tonga",
            "ds_read2_b32 v[1:2], v3 offset0:1 offset1:2",
            &[(V, 1, 2, true), (V, 3, 1, false)],
        ),
        (
            "Tonga",
            "ds_write_b64 v3, v[4:5]",
            &[(V, 3, 1, false), (V, 4, 2, false)],
        ),
        (
            "Tonga",
            "buffer_load_dwordx2 v[1:2], v3, s[4:7], s8 offen",
            &[
                (V, 1, 2, true),
                (V, 3, 1, false),
                (S, 4, 4, false),
                (S, 8, 1, false),
            ],
        ),
        (
            "Tonga",
            "buffer_atomic_add v1, v3, s[4:7], s8 offen glc",
            // Returning the old value, it reads its data and writes that back there.
            &[
                (V, 1, 1, true),
                (V, 1, 1, false),
                (V, 3, 1, false),
                (S, 4, 4, false),
                (S, 8, 1, false),
            ],
        ),
        (
            "Tonga",
            "buffer_atomic_add v1, v3, s[4:7], s8 offen",
            &[
                (V, 1, 1, false),
                (V, 3, 1, false),
                (S, 4, 4, false),
                (S, 8, 1, false),
            ],
        ),
        (
            "Tonga",
            "image_atomic_cmpswap v[1:2], v[4:5], s[8:15] dmask:3 unorm glc",
            &[
                (V, 1, 2, true),
                (V, 1, 2, false),
                (V, 4, 2, false),
                (S, 8, 8, false),
            ],
        ),
        (
            "Tonga",
            "image_sample v[1:3], v[4:5], s[8:15], s[16:19] dmask:7",
            &[
                (V, 1, 3, true),
                (V, 4, 2, false),
                (S, 8, 8, false),
                (S, 16, 4, false),
            ],
        ),
        (
            "GFX900",
            "global_load_dword v1, v[2:3], off",
            &[(V, 1, 1, true), (V, 2, 2, false)],
        ),
        (
            "GFX900",
            "global_store_dword v2, v5, s[6:7]",
            &[(V, 2, 1, false), (V, 5, 1, false), (S, 6, 2, false)],
        ),
        (
            "Tonga",
            "exp mrt0, v1, v2, off, off",
            &[(V, 1, 1, false), (V, 2, 1, false)],
        ),
    ];
    for (gpu, src, want) in cases {
        let device = Device::from_name(gpu).unwrap();
        let target = Target::of_device(device);
        let parse = gcn_syntax::parse(src);
        let instr = parse.tree().instructions().next().unwrap();
        let enc = encode_instruction(&target, &instr, &mut TestResolver { labels: Vec::new() })
            .unwrap_or_else(|e| panic!("{src}: {e:?}"));
        let got: Vec<_> = enc
            .regs
            .iter()
            .map(|u| (u.range.file, u.range.first, u.range.count, u.write))
            .collect();
        assert_eq!(&got, want, "{src}");
    }
}

/// Encoding throughput over the corpus's single statements (parse excluded):
/// `cargo test --release -p gcn-isa --test conformance bench_encode -- --ignored --nocapture`.
#[test]
#[ignore]
fn bench_encode() {
    let Some(cases) = load() else { return };
    let mut parsed = Vec::new();
    let filter = std::env::var("CONFORMANCE_FILTER")
        .ok()
        .map(|f| f.to_ascii_lowercase());
    for case in cases.iter().filter(|c| c.good && single_statement(&c.src)) {
        let src = case.src.trim().to_ascii_lowercase();
        if let Some(f) = &filter {
            if !f
                .split('|')
                .any(|f| src.starts_with(f.trim_start_matches('^')))
            {
                continue;
            }
        }
        let device = Device::from_name(&case.gpu).unwrap();
        let target = Target {
            device,
            gen: device.generation(),
            wave32: case.wave32,
            buggy_fp_lit: false,
        };
        let parse = gcn_syntax::parse(&case.src);
        if let Some(i) = parse.tree().instructions().next() {
            parsed.push((target, i));
        }
    }
    let rounds = 50;
    let start = std::time::Instant::now();
    let mut words = 0usize;
    for _ in 0..rounds {
        for (target, instr) in &parsed {
            if let Ok(enc) =
                encode_instruction(target, instr, &mut TestResolver { labels: Vec::new() })
            {
                words += enc.words.len();
            }
        }
    }
    let n = rounds * parsed.len();
    let t = start.elapsed();
    println!(
        "{n} encodings ({words} words) in {t:?}: {:.0} ns each",
        t.as_nanos() as f64 / n as f64
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
