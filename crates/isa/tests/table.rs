//! Sanity of the instruction table, coverage of the conformance corpus, device names.

use std::collections::{BTreeSet, HashSet};
use std::path::PathBuf;

use gcn_isa::{
    complete, instructions, lookup, lookup_on, split_suffix, Device, Encoding, Flags, Generation,
    OperandKind, SpecialReg, Suffix,
};

#[test]
fn no_duplicate_mnemonic_per_encoding_and_generation() {
    let mut seen = HashSet::new();
    for i in instructions() {
        for g in i.generations() {
            assert!(
                seen.insert((i.mnemonic, i.encoding, g)),
                "{} {:?} twice on {g}",
                i.mnemonic,
                i.encoding
            );
        }
    }
}

#[test]
fn table_is_sorted_and_lowercase() {
    let rows = instructions();
    assert!(rows.windows(2).all(|w| w[0].mnemonic <= w[1].mnemonic));
    assert!(rows
        .iter()
        .all(|i| i.mnemonic == i.mnemonic.to_ascii_lowercase()));
}

#[test]
fn opcodes_fit_their_fields() {
    for i in instructions() {
        for g in i.generations() {
            let op = i.opcode(g).unwrap();
            let bits = match (i.encoding, g.is_gfx10()) {
                (Encoding::Sopk, _) | (Encoding::Smrd, _) => 5,
                (Encoding::Sop2 | Encoding::Sopc | Encoding::Sopp | Encoding::Vop3p, _) => 7,
                (Encoding::Vop2, _) => 6,
                (Encoding::Vintrp, _) => 2,
                (Encoding::Mtbuf, _) => 4,
                (Encoding::Vop3, _) => 10,
                (Encoding::Exp, _) => 0,
                (
                    Encoding::Mubuf | Encoding::Flat | Encoding::Global | Encoding::Scratch,
                    false,
                ) => 7,
                _ => 8,
            };
            assert!(
                u32::from(op) < 1 << bits,
                "{} {:?} opcode {op} on {g}",
                i.mnemonic,
                i.encoding
            );
        }
    }
}

#[test]
fn vop_rows_have_vop3_opcodes_unless_flagged() {
    for i in instructions().iter().filter(|i| i.encoding.has_vop3_form()) {
        for g in i.generations() {
            let has = i.vop3_opcode(g).is_some();
            assert_eq!(
                has,
                !i.flags.contains(Flags::NO_E64),
                "{} on {g}",
                i.mnemonic
            );
        }
    }
}

#[test]
fn every_generation_has_many_instructions() {
    for g in Generation::ALL {
        let n = instructions().iter().filter(|i| i.exists_on(g)).count();
        assert!(n > 700, "{g}: only {n} rows");
    }
}

#[test]
fn lookup_is_case_insensitive_and_knows_generations() {
    let rows = lookup("S_AND_B32");
    assert!(!rows.is_empty());
    let on10 = lookup_on("s_and_b32", Generation::Gcn1_0).next().unwrap();
    assert_eq!(
        (on10.encoding, on10.opcode(Generation::Gcn1_0)),
        (Encoding::Sop2, Some(14))
    );
    assert_eq!(on10.opcode(Generation::Gcn1_2), Some(12));
    let add = lookup_on("v_add_f32", Generation::Gcn1_2).next().unwrap();
    assert_eq!(
        (
            add.opcode(Generation::Gcn1_2),
            add.vop3_opcode(Generation::Gcn1_2)
        ),
        (Some(1), Some(257))
    );
    assert!(lookup_on("v_fmac_f32", Generation::Gcn1_4).next().is_none());
    assert!(lookup_on("v_fmac_f32", Generation::Gcn1_4_1)
        .next()
        .is_some());
    assert_eq!(
        gcn_isa::generations_of("s_call_b64").first(),
        Some(&Generation::Gcn1_4)
    );
    assert!(lookup("no_such_instr").is_empty());
}

#[test]
fn operand_forms() {
    let and64 = lookup("s_and_b64")[0];
    let regs: Vec<u8> = and64.operands.iter().map(|o| o.min_regs).collect();
    assert_eq!(regs, [2, 2, 2]);
    let addc = lookup_on("v_addc_u32", Generation::Gcn1_0).next().unwrap();
    let kinds: Vec<OperandKind> = addc.operands.iter().map(|o| o.kind).collect();
    use OperandKind::*;
    assert_eq!(kinds, [VDst, VccDst, Src, VSrc, VccSrc]);
    assert!(addc.flags.contains(Flags::VOP3B));
    // GCN 1.5 V_CMPX writes EXEC only: no destination operand.
    let cmpx = lookup_on("v_cmpx_eq_f32", Generation::Gcn1_5)
        .next()
        .unwrap();
    assert_eq!(cmpx.operands.len(), 2);
}

#[test]
fn suffixes_and_completion() {
    assert_eq!(
        split_suffix("V_ADD_F32_E64"),
        ("V_ADD_F32", Some(Suffix::E64))
    );
    assert_eq!(
        split_suffix("v_mov_b32_dpp8"),
        ("v_mov_b32", Some(Suffix::Dpp8))
    );
    assert_eq!(
        split_suffix("v_mov_b32_dpp"),
        ("v_mov_b32", Some(Suffix::Dpp))
    );
    assert_eq!(split_suffix("s_nop"), ("s_nop", None));
    let c = complete("S_CBRANCH_", Generation::Gcn1_0);
    assert!(c.contains(&"s_cbranch_scc0") && !c.contains(&"s_cbranch_cdbgsys"));
    assert!(c.windows(2).all(|w| w[0] < w[1]));
}

#[test]
fn devices_and_architectures() {
    let expected_devices = "Baffin Bonaire CapeVerde Carrizo Dummy Ellesmere Fiji GFX700 GFX701 GFX801 \
        GFX802 GFX803 GFX804 GFX900 GFX901 GFX902 GFX903 GFX904 GFX905 GFX906 GFX907 Goose Hainan \
        Hawaii Horse Iceland Kalindi Mullins Oland Pitcairn Polaris10 Polaris11 Polaris12 Polaris20 \
        Polaris21 Polaris22 Raven Spectre Spooky Stoney Tahiti Tonga Topaz Vega10 Vega11 Vega12 \
        Vega20 GFX1000 GFX1010 GFX1011 Navi10";
    for name in expected_devices.split_whitespace() {
        assert!(Device::from_name(name).is_some(), "{name}");
        assert!(
            Device::from_name(&name.to_ascii_lowercase()).is_some(),
            "{name}"
        );
    }
    assert_eq!(
        Device::names().count(),
        expected_devices.split_whitespace().count()
    );
    assert_eq!(
        Device::from_name("pitcairn").unwrap().generation(),
        Generation::Gcn1_0
    );
    assert_eq!(Device::from_name("GFX1011"), Some(Device::Gfx1011));
    assert_eq!(Device::Gfx1011.generation(), Generation::Gcn1_5_1);
    assert_eq!(Device::from_name("polaris10"), Some(Device::Ellesmere));
    assert_eq!(
        Device::from_name("gfx906").unwrap().generation(),
        Generation::Gcn1_4_1
    );
    assert!(Device::from_name("gfx1030").is_none());

    let arches = "SI VI CI VEGA VEGA20 Navi NaviDL GFX6 GFX7 GFX8 GFX9 GFX10 GFX906 GFX1011 \
        GCN1.0 GCN1.1 GCN1.2 GCN1.4 GCN1.4.1 GCN1.5 GCN1.5.1";
    for name in arches.split_whitespace() {
        assert!(
            Generation::from_arch_name(&name.to_ascii_lowercase()).is_some(),
            "{name}"
        );
    }
    assert_eq!(Generation::from_arch_name("vi"), Some(Generation::Gcn1_2));
    assert_eq!(
        Generation::from_arch_name("navidl"),
        Some(Generation::Gcn1_5_1)
    );
    assert_eq!(
        Generation::from_arch_name("gfx1011"),
        Some(Generation::Gcn1_5_1)
    );
    for g in Generation::ALL {
        assert_eq!(g.default_device().generation(), g);
        assert_eq!(Generation::from_arch_name(g.name()), Some(g));
    }
}

#[test]
fn special_registers_per_generation() {
    use Generation::*;
    assert_eq!(Gcn1_1.special_reg_code(SpecialReg::FlatScratch), Some(104));
    assert_eq!(Gcn1_2.special_reg_code(SpecialReg::FlatScratch), Some(102));
    assert_eq!(Gcn1_5.special_reg_code(SpecialReg::FlatScratch), None);
    assert_eq!(Gcn1_0.special_reg_code(SpecialReg::XnackMask), None);
    assert_eq!(Gcn1_2.special_reg_code(SpecialReg::Ttmp), Some(112));
    assert_eq!(Gcn1_5.special_reg_code(SpecialReg::Ttmp), Some(108));
    assert_eq!(Gcn1_5.special_reg_code(SpecialReg::Null), Some(125));
    assert_eq!(Gcn1_4.special_reg_code(SpecialReg::Tba), None);
    assert_eq!(Gcn1_2.registers().addressable_sgprs, 102);
    assert_eq!(
        Gcn1_2.extra_sgprs(gcn_isa::SpecialRegUse {
            flat_scratch: true,
            ..Default::default()
        }),
        6
    );
}

fn corpus() -> Option<PathBuf> {
    let p = conformance_dir().0.join("instructions.jsonl");
    p.exists().then_some(p)
}

fn case_generation(set: &str) -> Generation {
    let short = set.trim_start_matches("gcn");
    let short = short.split('-').next().unwrap();
    Generation::from_short_name(short).unwrap_or_else(|| panic!("set {set}"))
}

/// Mnemonics of a case: the first word of each statement that isn't an assignment,
/// a label or a directive, with the encoding suffix stripped.
fn case_mnemonics(src: &str) -> Vec<String> {
    src.split([';', '\n'])
        .filter(|stmt| !is_assignment(stmt))
        .filter_map(|stmt| stmt.split_whitespace().next())
        .filter(|w| !w.starts_with('.') && !w.ends_with(':'))
        .map(|w| split_suffix(w).0.to_ascii_lowercase())
        .collect()
}

/// `sym = expr` (also `sym=expr`): a symbol assignment, not an instruction.
fn is_assignment(stmt: &str) -> bool {
    let stmt = stmt.trim_start();
    let name_end = stmt
        .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.'))
        .unwrap_or(stmt.len());
    let rest = stmt[name_end..].trim_start();
    rest.starts_with('=') && !rest.starts_with("==")
}

#[test]
fn conformance_mnemonics_exist_on_their_generation() {
    let Some(path) = corpus() else {
        panic!("no instructions.jsonl in the conformance corpus or its sample");
    };
    let text = std::fs::read_to_string(path).unwrap();
    let mut misses = BTreeSet::new();
    for line in text.lines() {
        let case: serde_json::Value = serde_json::from_str(line).unwrap();
        if case["good"] != true {
            continue;
        }
        let gen = case_generation(case["set"].as_str().unwrap());
        for m in case_mnemonics(case["src"].as_str().unwrap()) {
            if lookup_on(&m, gen).next().is_none() {
                misses.insert(format!("{gen} {m}"));
            }
        }
    }
    assert!(
        misses.is_empty(),
        "{} mnemonics missing: {misses:#?}",
        misses.len()
    );
}

/// Encoding class and opcode of an instruction from its first two words, in the
/// generation's layout (GCN 1.0/1.1, 1.2/1.4, 1.5).
fn decode(gen: Generation, w: u32, w1: u32) -> Option<(Encoding, u16)> {
    let bits = |v: u32, hi: u32, lo: u32| ((v >> lo) & ((1 << (hi - lo + 1)) - 1)) as u16;
    let (old, nv) = (gen <= Generation::Gcn1_1, gen.is_gfx10());
    use Encoding::*;
    Some(match () {
        _ if w >> 23 == 0b1_0111_1101 => (Sop1, bits(w, 15, 8)),
        _ if w >> 23 == 0b1_0111_1110 => (Sopc, bits(w, 22, 16)),
        _ if w >> 23 == 0b1_0111_1111 => (Sopp, bits(w, 22, 16)),
        _ if w >> 28 == 0b1011 => (Sopk, bits(w, 27, 23)),
        _ if w >> 30 == 0b10 => (Sop2, bits(w, 29, 23)),
        _ if w >> 25 == 0b011_1111 => (Vop1, bits(w, 16, 9)),
        _ if w >> 25 == 0b011_1110 => (Vopc, bits(w, 24, 17)),
        _ if w >> 31 == 0 => (Vop2, bits(w, 30, 25)),
        _ if old && w >> 27 == 0b11000 => (Smrd, bits(w, 26, 22)),
        _ if old && w >> 26 == 0b110100 => (Vop3, bits(w, 25, 17)),
        _ if old && w >> 26 == 0b110010 => (Vintrp, bits(w, 17, 16)),
        _ if old && w >> 26 == 0b110110 => (Ds, bits(w, 25, 18)),
        _ if old && w >> 26 == 0b111010 => (Mtbuf, bits(w, 18, 16)),
        _ if !old && !nv && w >> 26 == 0b110000 => (Smem, bits(w, 25, 18)),
        _ if !old && !nv && w >> 23 == 0b1_1010_0111 => (Vop3p, bits(w, 22, 16)),
        _ if !old && !nv && w >> 26 == 0b110100 => (Vop3, bits(w, 25, 16)),
        _ if !old && !nv && w >> 26 == 0b110101 => (Vintrp, bits(w, 17, 16)),
        _ if !old && !nv && w >> 26 == 0b110110 => (Ds, bits(w, 24, 17)),
        _ if !old && !nv && w >> 26 == 0b111010 => (Mtbuf, bits(w, 18, 15)),
        _ if nv && w >> 26 == 0b111101 => (Smem, bits(w, 25, 18)),
        _ if nv && w >> 24 == 0b1100_1100 => (Vop3p, bits(w, 22, 16)),
        _ if nv && w >> 26 == 0b110101 => (Vop3, bits(w, 25, 16)),
        _ if nv && w >> 26 == 0b110010 => (Vintrp, bits(w, 17, 16)),
        _ if nv && w >> 26 == 0b110110 => (Ds, bits(w, 25, 18)),
        _ if nv && w >> 26 == 0b111010 => (Mtbuf, bits(w, 18, 16) | bits(w1, 21, 21) << 3),
        _ if w >> 26 == 0b111000 => (
            Mubuf,
            bits(w, 24, 18) | if nv { bits(w, 25, 25) << 7 } else { 0 },
        ),
        _ if w >> 26 == 0b111100 => (
            Mimg,
            bits(w, 24, 18) | if nv { bits(w, 0, 0) << 7 } else { 0 },
        ),
        _ if w >> 26 == 0b110111 => {
            let seg = if gen >= Generation::Gcn1_4 {
                bits(w, 15, 14)
            } else {
                0
            };
            ([Flat, Scratch, Global, Flat][seg as usize], bits(w, 24, 18))
        }
        _ if w >> 26 == 0b111110 || w >> 26 == 0b110001 => (Exp, 0),
        _ => return None,
    })
}

#[test]
fn conformance_opcodes_match_the_table() {
    let Some(path) = corpus() else {
        panic!("no instructions.jsonl in the conformance corpus or its sample");
    };
    let text = std::fs::read_to_string(path).unwrap();
    let mut wrong = BTreeSet::new();
    for line in text.lines() {
        let case: serde_json::Value = serde_json::from_str(line).unwrap();
        let words: Vec<u32> = case["words"]
            .as_array()
            .unwrap()
            .iter()
            .map(|w| u32::from_str_radix(w.as_str().unwrap(), 16).unwrap())
            .collect();
        let mnemonics = case_mnemonics(case["src"].as_str().unwrap());
        if case["good"] != true || mnemonics.len() != 1 || words.is_empty() {
            continue;
        }
        let gen = case_generation(case["set"].as_str().unwrap());
        let (enc, op) = decode(gen, words[0], words.get(1).copied().unwrap_or(0)).unwrap();
        let ok = lookup_on(&mnemonics[0], gen).any(|i| {
            (i.encoding == enc && i.opcode(gen) == Some(op))
                || (enc == Encoding::Vop3 && i.vop3_opcode(gen) == Some(op))
        });
        if !ok {
            wrong.insert(format!("{gen} {} encodes as {enc:?} {op}", mnemonics[0]));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} opcodes differ from the corpus: {wrong:#?}",
        wrong.len()
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
