//! The modifiers each encoding class takes on each generation, and that an unknown one's
//! "did you mean" suggests exactly among those: for every name of [`all_names`] written
//! after a representative instruction, the encoder either takes it or calls it unknown,
//! and the same name with a slip (a letter added) is suggested back exactly when the
//! name is taken. `gcn_isa::encode::modifiers_of` (the editor's list) gives the same
//! names. What is taken is kept in `test_data/modifiers.txt`.

use gcn_isa::encode::{encode_instruction, EncodeError, Resolver, Target, Value};
use gcn_isa::Device;
use gcn_syntax::ast;

/// Every modifier name some instruction takes on some generation (as
/// `modifiers_of` lists them, which the probes below hold to the encoders), the
/// table's order kept.
fn all_names() -> Vec<&'static str> {
    let mut names: Vec<&'static str> = Vec::new();
    for row in gcn_isa::instructions() {
        for gen in gcn_isa::Generation::ALL {
            for name in gcn_isa::encode::modifiers_of(row.mnemonic, gen) {
                if !names.contains(&name) {
                    names.push(name);
                }
            }
        }
    }
    names
}

/// Representative instructions: (first device that has it as written, last, source).
const LINES: &[(&str, &str, &str)] = &[
    ("tahiti", "gfx1011", "s_add_u32 s1, s2, s3"),
    ("tahiti", "hawaii", "s_load_dword s1, s[2:3], 0"),
    ("tonga", "gfx1011", "s_load_dword s1, s[2:3], 0"),
    ("tahiti", "gfx1011", "v_mov_b32 v1, v2"),
    ("tahiti", "gfx1011", "v_add_f32 v1, v2, v3"),
    ("tahiti", "gfx1011", "v_cmp_eq_f32 vcc, v1, v2"),
    ("tahiti", "gfx1011", "v_mad_f32 v1, v2, v3, v4"),
    ("tahiti", "gfx1011", "v_div_scale_f32 v1, vcc, v2, v3, v4"),
    ("gfx900", "gfx1011", "v_pk_add_f16 v1, v2, v3"),
    ("tahiti", "gfx1011", "v_interp_p1_f32 v1, v2, attr0.x"),
    ("tahiti", "gfx1011", "ds_read_b32 v1, v2"),
    ("tahiti", "gfx1011", "ds_read2_b32 v[1:2], v3"),
    (
        "tahiti",
        "gfx1011",
        "buffer_load_dword v1, v2, s[0:3], 0 offen",
    ),
    (
        "tahiti",
        "gfx1011",
        "tbuffer_load_format_x v1, v2, s[0:3], 0 offen",
    ),
    (
        "tahiti",
        "gfx906",
        "image_load v[1:4], v[2:5], s[4:11] dmask:15",
    ),
    (
        "gfx1010",
        "gfx1011",
        "image_load v[1:4], v[2:5], s[4:11] dmask:15 dim:2d",
    ),
    ("tahiti", "gfx1011", "exp mrt0, v1, v2, v3, v4"),
    ("hawaii", "gfx1011", "flat_load_dword v1, v[2:3]"),
    ("gfx900", "gfx1011", "global_load_dword v1, v[2:3], off"),
];

/// Modifiers an instruction does not take but refuses with an error of their own
/// rather than as unknown: (mnemonic, modifier, on these devices).
const REFUSED_OTHERWISE: &[(&str, &str, &[&str])] = &[
    (
        "flat_load_dword",
        "lds",
        &["hawaii", "tonga", "gfx900", "gfx906", "gfx1010", "gfx1011"],
    ),
    ("v_div_scale_f32", "clamp", &["tahiti", "hawaii"]),
];

fn refused_otherwise(mnemonic: &str, modifier: &str, device: &str) -> bool {
    REFUSED_OTHERWISE
        .iter()
        .any(|(m, name, devices)| *m == mnemonic && *name == modifier && devices.contains(&device))
}

/// One device per generation, oldest first.
const DEVICES: &[&str] = &[
    "tahiti", "hawaii", "tonga", "gfx900", "gfx906", "gfx1010", "gfx1011",
];

/// Integers are known, names are pending: enough to reach the modifiers.
struct Pending;

impl Resolver for Pending {
    fn eval(&mut self, expr: &ast::Expr) -> Result<Value, String> {
        let text = expr.syntax().text().to_string();
        let known = gcn_isa::encode::operands::parse_int(text.trim());
        Ok(known.map_or(Value::Pending, Value::Known))
    }
    fn eval_branch(&mut self, expr: &ast::Expr) -> Result<Value, String> {
        self.eval(expr)
    }
    fn register_symbol(&mut self, _: &str) -> Option<gcn_isa::encode::RegRange> {
        None
    }
}

fn encode(device: Device, source: &str) -> Vec<EncodeError> {
    let target = Target::of_device(device);
    let parse = gcn_syntax::parse(source);
    let instr = parse.tree().instructions().next().unwrap();
    encode_instruction(&target, &instr, &mut Pending)
        .err()
        .unwrap_or_default()
}

/// The error calling `name` an unknown modifier, if any.
fn unknown(errors: &[EncodeError], name: &str) -> Option<EncodeError> {
    let tail = format!("modifier `{name}`");
    errors
        .iter()
        .find(|e| e.message.starts_with("unknown") && e.message.contains(&tail))
        .cloned()
}

#[test]
fn unknown_modifiers_suggest_exactly_the_modifiers_taken() {
    let names = all_names();
    let mut taken_table = String::new();
    for &(first, last, line) in LINES {
        let range = DEVICES.iter().position(|d| *d == first).unwrap()
            ..=DEVICES.iter().position(|d| *d == last).unwrap();
        for name in &DEVICES[range] {
            let device = Device::from_name(name).unwrap();
            let plain = encode(device, line);
            assert!(plain.is_empty(), "{name}: `{line}`: {plain:?}");
            let mut taken = Vec::new();
            for modifier in &names {
                let mnemonic = line.split_whitespace().next().unwrap();
                let is_taken = unknown(&encode(device, &format!("{line} {modifier}")), modifier)
                    .is_none()
                    && !refused_otherwise(mnemonic, modifier, name);
                if is_taken {
                    taken.push(*modifier);
                }
                let slip = format!("{modifier}q");
                let errors = encode(device, &format!("{line} {slip}"));
                let error = unknown(&errors, &slip)
                    .unwrap_or_else(|| panic!("{name}: `{line} {slip}`: {errors:?}"));
                let suggested = error.suggestions.iter().any(|s| s == modifier);
                assert_eq!(
                    suggested, is_taken,
                    "{name}: `{line} {slip}`: {} (`{modifier}` taken: {is_taken})",
                    error.message
                );
                let at = gcn_syntax::TextRange::at(
                    (line.len() as u32 + 1).into(),
                    (slip.len() as u32).into(),
                );
                assert_eq!(
                    error.range, at,
                    "{name}: `{line} {slip}`: the error is at the name"
                );
            }
            let mnemonic = line.split_whitespace().next().unwrap();
            let mut listed = gcn_isa::encode::modifiers_of(mnemonic, device.generation());
            listed.sort_unstable();
            taken.sort_unstable();
            assert_eq!(
                listed, taken,
                "{name}: `{line}`: modifiers_of and the encoder"
            );
            let taken = if taken.is_empty() {
                "(none)".to_string()
            } else {
                taken.join(" ")
            };
            taken_table.push_str(&format!("{name:8} {line}\n    {taken}\n"));
        }
    }
    expect_test::expect_file!["../test_data/modifiers.txt"].assert_eq(&taken_table);
}

/// The modifier as written in a program: with a value where it takes one.
fn with_value(name: &str) -> String {
    let value = match name {
        "mul" | "div" => "2",
        "omod" | "abs" | "neg" | "sext" | "row_shl" | "row_shr" | "row_ror" | "row_share"
        | "row_xmask" | "wave_shl" | "wave_shr" | "wave_rol" | "wave_ror" | "bank_mask"
        | "row_mask" | "op_sel" | "op_sel_hi" | "neg_lo" | "neg_hi" => "1",
        "dst_sel" => "byte0",
        "src0_sel" | "src1_sel" => "word1",
        "dst_unused" | "dst_un" => "sext",
        "quad_perm" => "[0,1,2,3]",
        "row_bcast" => "15",
        "dpp8" => "[0,1,2,3,4,5,6,7]",
        _ => return name.to_string(),
    };
    format!("{name}:{value}")
}

/// After a suffix (`_e64`, `_sdwa`, ...), `modifiers_of` lists only what the encoding
/// the suffix fixes takes: each listed modifier, written after the instruction, is
/// accepted. The lists are kept in `test_data/modifiers_after_suffix.txt`.
#[test]
fn modifiers_after_a_suffix_are_those_of_its_encoding() {
    let mut table = String::new();
    for &(first, last, line) in LINES {
        let (mnemonic, operands) = line.split_once(' ').unwrap();
        if !mnemonic.starts_with("v_") {
            continue;
        }
        let range = DEVICES.iter().position(|d| *d == first).unwrap()
            ..=DEVICES.iter().position(|d| *d == last).unwrap();
        for name in &DEVICES[range] {
            let device = Device::from_name(name).unwrap();
            for suffix in ["e32", "e64", "sdwa", "dpp", "dpp8"] {
                let suffixed = format!("{mnemonic}_{suffix}");
                let plain = format!("{suffixed} {operands}");
                if !encode(device, &plain).is_empty() {
                    continue;
                }
                let listed = gcn_isa::encode::modifiers_of(&suffixed, device.generation());
                for modifier in &listed {
                    // `fi` alone does not make a DPP8 instruction: the lanes come first.
                    let lanes = if suffix == "dpp8" && *modifier != "dpp8" {
                        format!(" {}", with_value("dpp8"))
                    } else {
                        String::new()
                    };
                    let source = format!("{plain}{lanes} {}", with_value(modifier));
                    let errors = encode(device, &source);
                    assert!(errors.is_empty(), "{name}: `{source}`: {errors:?}");
                }
                let listed = if listed.is_empty() {
                    "(none)".to_string()
                } else {
                    listed.join(" ")
                };
                table.push_str(&format!("{name:8} {plain}\n    {listed}\n"));
            }
        }
    }
    expect_test::expect_file!["../test_data/modifiers_after_suffix.txt"].assert_eq(&table);
}
