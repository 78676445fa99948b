//! Generates `src/generated/instructions.rs` from `data/instructions.txt`.
//!
//! rust-analyzer's sourcegen style: the test regenerates the file in memory and, when
//! the committed one differs, rewrites it and fails, so a second run passes.

use std::collections::HashSet;
use std::fmt::Write as _;
use std::path::PathBuf;

use gcn_isa::{Encoding, Flags, Generation, OperandKind, ValueType};

/// A parsed data-file row.
struct Row {
    line: usize,
    mnemonic: String,
    encoding: Encoding,
    operands: Vec<(OperandKind, u8, u8, ValueType)>,
    flags: Flags,
    opcodes: [Option<u16>; 7],
    vop3: [Option<u16>; 7],
}

fn crate_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn parse_operand(tok: &str) -> Result<(OperandKind, u8, u8, ValueType), String> {
    let mut parts = tok.split(':');
    let kind = parts.next().unwrap_or_default();
    let kind = OperandKind::from_token(kind).ok_or(format!("unknown operand kind {kind:?}"))?;
    let (mut lo, mut hi, mut ty) = (1u8, 1u8, ValueType::Int);
    for part in parts {
        if let Some(t) = ValueType::from_token(part) {
            ty = t;
        } else if let Some((a, b)) = part.split_once('-') {
            lo = a
                .parse()
                .map_err(|_| format!("bad register range {part:?}"))?;
            hi = b
                .parse()
                .map_err(|_| format!("bad register range {part:?}"))?;
        } else {
            lo = part
                .parse()
                .map_err(|_| format!("bad operand part {part:?}"))?;
            hi = lo;
        }
    }
    Ok((kind, lo, hi, ty))
}

/// Parses `GEN[-GEN]=OP[/VOP3OP|/-]` into the per-generation arrays.
fn parse_opcodes(
    tok: &str,
    opcodes: &mut [Option<u16>; 7],
    vop3: &mut [Option<u16>; 7],
) -> Result<(), String> {
    let (gens, value) = tok
        .split_once('=')
        .ok_or(format!("bad opcode entry {tok:?}"))?;
    let (first, last) = gens.split_once('-').unwrap_or((gens, gens));
    let gen = |s: &str| Generation::from_short_name(s).ok_or(format!("unknown generation {s:?}"));
    let (first, last) = (gen(first)?.index(), gen(last)?.index());
    let (op, v3) = value
        .split_once('/')
        .map_or((value, None), |(a, b)| (a, Some(b)));
    let op: u16 = op.parse().map_err(|_| format!("bad opcode {op:?}"))?;
    let v3: Option<u16> = match v3 {
        None | Some("-") => None,
        Some(v) => Some(v.parse().map_err(|_| format!("bad VOP3 opcode {v:?}"))?),
    };
    for i in first..=last {
        if opcodes[i].is_some() {
            return Err(format!("generation {} given twice", Generation::ALL[i]));
        }
        opcodes[i] = Some(op);
        vop3[i] = v3;
    }
    Ok(())
}

fn parse_row(line: usize, text: &str) -> Result<Row, String> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    let [mnemonic, encoding, operands, flags, opcodes @ ..] = fields.as_slice() else {
        return Err("expected: mnemonic encoding operands flags opcodes...".into());
    };
    if *mnemonic != mnemonic.to_ascii_lowercase() {
        return Err(format!("mnemonic {mnemonic:?} is not lowercase"));
    }
    let encoding =
        Encoding::from_token(encoding).ok_or(format!("unknown encoding {encoding:?}"))?;
    let operands = match *operands {
        "-" => Vec::new(),
        ops => ops
            .split(',')
            .map(parse_operand)
            .collect::<Result<_, _>>()?,
    };
    let mut fl = Flags::NONE;
    for f in flags.split(',').filter(|f| *f != "-") {
        fl = fl.union(Flags::from_token(f).ok_or(format!("unknown flag {f:?}"))?);
    }
    let (mut ops, mut vop3) = ([None; 7], [None; 7]);
    for tok in opcodes {
        parse_opcodes(tok, &mut ops, &mut vop3)?;
    }
    if ops.iter().all(Option::is_none) {
        return Err("no generation has this row".into());
    }
    let mnemonic = mnemonic.to_string();
    Ok(Row {
        line,
        mnemonic,
        encoding,
        operands,
        flags: fl,
        opcodes: ops,
        vop3,
    })
}

fn parse_data(text: &str) -> Result<Vec<Row>, String> {
    let mut rows = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        rows.push(
            parse_row(i + 1, line).map_err(|e| format!("data/instructions.txt:{}: {e}", i + 1))?,
        );
    }
    check_overlaps(&rows)?;
    Ok(rows)
}

/// Rows of one mnemonic and encoding must not share a generation.
fn check_overlaps(rows: &[Row]) -> Result<(), String> {
    let mut seen = HashSet::new();
    for r in rows {
        for g in Generation::ALL
            .into_iter()
            .filter(|g| r.opcodes[g.index()].is_some())
        {
            if !seen.insert((r.mnemonic.as_str(), r.encoding, g)) {
                return Err(format!(
                    "data/instructions.txt:{}: {} ({}) given twice for {g}",
                    r.line,
                    r.mnemonic,
                    r.encoding.token()
                ));
            }
        }
    }
    Ok(())
}

fn array(values: &[Option<u16>; 7]) -> String {
    let items: Vec<String> = values
        .iter()
        .map(|v| v.map_or("N".to_string(), |o| o.to_string()))
        .collect();
    format!("[{}]", items.join(", "))
}

fn flags_expr(flags: Flags) -> String {
    let names: Vec<String> = flags
        .tokens()
        .map(|t| format!("F::{}", flag_const(t)))
        .collect();
    match names.len() {
        0 => "F::NONE".into(),
        1 => names[0].clone(),
        _ => format!(
            "F({})",
            names
                .iter()
                .map(|n| format!("{n}.0"))
                .collect::<Vec<_>>()
                .join(" | ")
        ),
    }
}

fn flag_const(token: &str) -> &'static str {
    match token {
        "vop3b" => "VOP3B",
        "mac" => "MAC",
        "noe64" => "NO_E64",
        "interp" => "INTERP",
        "load" => "LOAD",
        "store" => "STORE",
        "atomic" => "ATOMIC",
        "cmpswap" => "CMPSWAP",
        "sample" => "SAMPLE",
        "gather4" => "GATHER4",
        "offset2" => "OFFSET2",
        "gds" => "GDS",
        other => panic!("flag {other:?} has no constant name here: add it"),
    }
}

fn generate(rows: &mut [Row]) -> String {
    // Sorted by mnemonic so that lookups can binary-search; ties keep data-file order.
    rows.sort_by(|a, b| a.mnemonic.cmp(&b.mnemonic).then(a.line.cmp(&b.line)));
    let mut out = String::new();
    out.push_str(
        "// generated by crates/isa/tests/sourcegen.rs from data/instructions.txt, do not edit\n",
    );
    out.push_str("use crate::table::{Encoding::*, Flags as F, Instruction as I, Operand as O, OperandKind::*, ValueType::*};\n\n");
    out.push_str("const N: u16 = u16::MAX;\n\n");
    // Operand lists are shared between rows: emit each distinct one once.
    let mut lists: Vec<String> = Vec::new();
    let mut list_of_row = Vec::new();
    for r in rows.iter() {
        let ops: Vec<String> = r
            .operands
            .iter()
            .map(|(k, lo, hi, ty)| format!("O::new({k:?}, {lo}, {hi}, {ty:?})"))
            .collect();
        let text = format!("&[{}]", ops.join(", "));
        let idx = lists.iter().position(|l| *l == text).unwrap_or_else(|| {
            lists.push(text);
            lists.len() - 1
        });
        list_of_row.push(idx);
    }
    for (i, l) in lists.iter().enumerate() {
        writeln!(out, "const P{i}: &[O] = {l};").unwrap();
    }
    out.push_str("\npub(crate) static INSTRUCTIONS: &[I] = &[\n");
    for (r, list) in rows.iter().zip(list_of_row) {
        writeln!(
            out,
            "    I::new({:?}, {:?}, P{}, {}, {}, {}),",
            r.mnemonic,
            r.encoding,
            list,
            flags_expr(r.flags),
            array(&r.opcodes),
            array(&r.vop3)
        )
        .unwrap();
    }
    out.push_str("];\n");
    out
}

#[test]
fn generated_table_is_fresh() {
    let data = std::fs::read_to_string(crate_dir().join("data/instructions.txt")).unwrap();
    let mut rows = parse_data(&data).unwrap_or_else(|e| panic!("{e}"));
    let generated = generate(&mut rows);
    let path = crate_dir().join("src/generated/instructions.rs");
    let current = std::fs::read_to_string(&path).unwrap_or_default();
    if current != generated {
        std::fs::write(&path, generated).unwrap();
        panic!(
            "src/generated/instructions.rs was stale and has been regenerated: run the tests again"
        );
    }
}

/// The identifier of a pseudo-op's variant of `PseudoOpId`: its name without the dot, in
/// CamelCase at the underscores (`.get_driver_version` is `GetDriverVersion`); a name
/// that starts with a digit keeps its dot as `Dot` (`.32bit` is `Dot32bit`).
fn id_of(name: &str) -> String {
    let mut id = String::new();
    for part in name[1..].split('_') {
        let mut chars = part.chars();
        if let Some(first) = chars.next() {
            id.push(first.to_ascii_uppercase());
            id.extend(chars);
        }
    }
    if id.starts_with(|c: char| c.is_ascii_digit()) {
        id.insert_str(0, "Dot");
    }
    id
}

/// Generates `src/generated/pseudo_ops.rs` from `data/pseudo_ops.txt`.
fn generate_pseudo_ops(data: &str) -> Result<String, String> {
    let mut rows: Vec<String> = Vec::new();
    let mut names: Vec<String> = Vec::new();
    let mut ids: Vec<String> = Vec::new();
    for (i, line) in data.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let err = |m: String| format!("data/pseudo_ops.txt:{}: {m}", i + 1);
        let fields: Vec<&str> = line.split(" | ").map(str::trim).collect();
        let [name, formats, scope, role, syntax, default, description] = fields.as_slice() else {
            return Err(err(format!(
                "expected 7 fields separated by ` | `, got {}",
                fields.len()
            )));
        };
        // Its identifier (`id_of`) is made of the letters, digits and underscores.
        let word = name.strip_prefix('.').unwrap_or_default();
        if word.is_empty()
            || !word
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
        {
            return Err(err(format!("name {name:?} is not a lowercase pseudo-op")));
        }
        let formats = if *formats == "all" {
            "Formats::ALL".to_string()
        } else {
            let mut parts = Vec::new();
            for f in formats.split(',') {
                parts.push(match f {
                    "amd" => "Formats::AMD.0",
                    "amdcl2" => "Formats::AMDCL2.0",
                    "gallium" => "Formats::GALLIUM.0",
                    "rocm" => "Formats::ROCM.0",
                    other => return Err(err(format!("unknown format {other:?}"))),
                });
            }
            format!("Formats({})", parts.join(" | "))
        };
        let scope = match *scope {
            "global" => "Global",
            "kernel" => "Kernel",
            "config" => "Config",
            other => return Err(err(format!("unknown scope {other:?}"))),
        };
        let role = match *role {
            "-" => "None",
            "kernel" => "Kernel",
            "leave" => "Leave",
            "section" => "Section",
            "format" => "Format",
            "define" => "Define",
            "config" => "Config",
            "block" => "Block",
            "cond" => "Cond",
            other => return Err(err(format!("unknown role {other:?}"))),
        };
        let default = if *default == "-" {
            "None".to_string()
        } else {
            format!("Some({default:?})")
        };
        // The most arguments it takes, from its syntax: none after the name alone, else
        // its commas plus one; no limit when the syntax has `...`.
        let rest = syntax.strip_prefix(*name).unwrap_or(syntax).trim();
        let max_args = if rest.contains("...") {
            "None".to_string()
        } else if rest.is_empty() {
            "Some(0)".to_string()
        } else {
            format!("Some({})", rest.matches(',').count() + 1)
        };
        let id = id_of(name);
        names.push(name.to_string());
        ids.push(id.clone());
        rows.push(format!(
            "    P {{ id: Id::{id}, name: {name:?}, formats: {formats}, scope: S::{scope}, role: R::{role}, syntax: {syntax:?}, max_args: {max_args}, default: {default}, description: {description:?} }},"
        ));
    }
    let mut sorted = names.clone();
    sorted.sort();
    sorted.dedup();
    if sorted != names {
        return Err("data/pseudo_ops.txt: names must be sorted and unique".into());
    }
    let mut distinct_ids = ids.clone();
    distinct_ids.sort();
    distinct_ids.dedup();
    if distinct_ids.len() != ids.len() {
        return Err(
            "data/pseudo_ops.txt: two names make the same identifier (`.a_b` and `.ab_`?)".into(),
        );
    }
    let mut out = String::new();
    out.push_str(
        "// generated by crates/isa/tests/sourcegen.rs from data/pseudo_ops.txt, do not edit\n",
    );
    out.push_str(
        "use crate::pseudo_ops::{Formats, PseudoOp as P, PseudoRole as R, PseudoScope as S};\n\n",
    );
    out.push_str(
        "/// One pseudo-op of the table: its name in CamelCase (a leading digit after `Dot`).\n",
    );
    out.push_str("#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]\n");
    out.push_str("pub enum PseudoOpId {\n");
    for id in &ids {
        writeln!(out, "    {id},").unwrap();
    }
    out.push_str("}\n\nuse PseudoOpId as Id;\n\n");
    out.push_str("pub(crate) static PSEUDO_OPS: &[P] = &[\n");
    for r in rows {
        out.push_str(&r);
        out.push('\n');
    }
    out.push_str("];\n");
    Ok(out)
}

#[test]
fn generated_pseudo_ops_are_fresh() {
    let data = std::fs::read_to_string(crate_dir().join("data/pseudo_ops.txt")).unwrap();
    let generated = generate_pseudo_ops(&data).unwrap_or_else(|e| panic!("{e}"));
    let path = crate_dir().join("src/generated/pseudo_ops.rs");
    let current = std::fs::read_to_string(&path).unwrap_or_default();
    if current != generated {
        std::fs::write(&path, generated).unwrap();
        panic!(
            "src/generated/pseudo_ops.rs was stale and has been regenerated: run the tests again"
        );
    }
}
