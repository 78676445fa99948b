//! Cases the conformance corpus does not pin: register uses, fixups, error places, and
//! encodings checked against `llvm-mc` (LLVM 14).

use gcn_syntax::ast;

use crate::encode::{
    encode_instruction, EncodeError, Encoded, RegFile, RegRange, RegUse, Resolver, Target, Value,
};
use crate::Device;

/// Integers are known; names are pending.
struct Pending;

impl Resolver for Pending {
    fn eval(&mut self, expr: &ast::Expr) -> Result<Value, String> {
        match expr {
            ast::Expr::Literal(l) => {
                let t = l.token().ok_or("empty")?;
                crate::encode::operands::parse_int(t.text())
                    .map(Value::Known)
                    .ok_or_else(|| "not an integer".to_string())
            }
            _ => Ok(Value::Pending),
        }
    }
    fn eval_branch(&mut self, expr: &ast::Expr) -> Result<Value, String> {
        self.eval(expr)
    }
    fn register_symbol(&mut self, _: &str) -> Option<RegRange> {
        None
    }
}

fn run(device: &str, wave32: bool, src: &str) -> Result<Encoded, Vec<EncodeError>> {
    let device = Device::from_name(device).unwrap();
    let target = Target {
        device,
        gen: device.generation(),
        wave32,
        buggy_fp_lit: false,
    };
    let parse = gcn_syntax::parse(src);
    assert!(parse.errors().is_empty(), "{src}: {:?}", parse.errors());
    let instr = parse.tree().instructions().next().unwrap();
    encode_instruction(&target, &instr, &mut Pending)
}

fn words(device: &str, src: &str) -> Vec<u32> {
    match run(device, false, src) {
        Ok(e) => e.words.to_vec(),
        Err(e) => panic!("{src}: {e:?}"),
    }
}

/// The error's message and the source text it points at.
fn error(device: &str, wave32: bool, src: &str) -> (String, String) {
    match run(device, wave32, src) {
        Ok(e) => panic!("{src}: accepted as {:08x?}", e.words),
        Err(e) => (e[0].message.clone(), src[e[0].range].to_string()),
    }
}

fn s(first: u16, count: u16, write: bool) -> RegUse {
    RegUse {
        range: RegRange {
            file: RegFile::Sgpr,
            first,
            count,
        },
        write,
    }
}

fn v(first: u16, count: u16, write: bool) -> RegUse {
    RegUse {
        range: RegRange {
            file: RegFile::Vgpr,
            first,
            count,
        },
        write,
    }
}

#[test]
fn register_uses() {
    let e = run("GFX900", false, "v_add_f32 v1, s2, v[3]").unwrap();
    assert_eq!(e.regs[..], [v(1, 1, true), s(2, 1, false), v(3, 1, false)]);
    // MAC: the destination is also read (SRC2 of the VOP3 form).
    let e = run("Tonga", false, "v_mac_f32 v1, v2, v3").unwrap();
    assert!(e.regs.contains(&v(1, 1, true)) && e.regs.contains(&v(1, 1, false)));
    // Implicit VCC of V_DIV_FMAS; VCC of V_CNDMASK as written.
    let e = run("Pitcairn", false, "v_div_fmas_f32 v1, v2, v3, v4").unwrap();
    assert!(e.regs.contains(&s(106, 2, false)));
    let e = run("GFX1010", true, "v_cndmask_b32 v1, v2, v3, vcc_lo").unwrap();
    assert!(e.regs.contains(&s(106, 1, false)));
    // V_CMPX writes EXEC; VOP3B carry-out is written.
    let e = run("GFX1010", true, "v_cmpx_eq_f32 v1, v2").unwrap();
    assert!(e.regs.contains(&s(126, 1, true)));
    let e = run("GFX900", false, "v_add_co_u32 v1, s[4:5], v2, v3").unwrap();
    assert!(e.regs.contains(&s(4, 2, true)));
    // Interpolation and LDS_DIRECT read M0.
    let e = run("Bonaire", false, "v_interp_p1_f32 v1, v2, attr0.x").unwrap();
    assert_eq!(
        e.regs[..],
        [v(1, 1, true), v(2, 1, false), s(124, 1, false)]
    );
    let e = run("Bonaire", false, "v_mov_b32 v1, lds_direct").unwrap();
    assert!(e.regs.contains(&s(124, 1, false)));
}

#[test]
fn pending_values_are_literals_with_fixups() {
    let e = run("Tonga", false, "v_add_f32 v1, later, v2").unwrap();
    assert_eq!(e.words[..], [0x020204ff, 0]);
    assert_eq!(
        (e.fixups.len(), e.fixups[0].word, e.fixups[0].bits),
        (1, 1, 32)
    );
    let e = run("GFX1010", false, "v_madmk_f32 v1, v2, later, v3").unwrap();
    assert_eq!(e.words.len(), 2);
    assert_eq!(e.fixups[0].word, 1);
    // A VOP3-only instruction takes a pending literal on GCN 1.5 only.
    let e = run("GFX1010", false, "v_fma_f32 v1, later, v2, v3").unwrap();
    assert_eq!((e.words.len(), e.fixups[0].word), (3, 2));
    assert_eq!(
        error("GFX900", false, "v_fma_f32 v1, later, v2, v3").1,
        "later"
    );
}

#[test]
fn llvm_encodings() {
    // Words from llvm-mc-14 -show-encoding.
    assert_eq!(
        words("GFX1010", "v_mov_b32 v1, v2 dpp8:[7,6,5,4,3,2,1,0] fi:1"),
        [0x7e0202ea, 0x05397702]
    );
    assert_eq!(
        words("GFX900", "v_cmp_eq_f32 s[4:5], v1, v2 src0_sel:WORD_1"),
        [0x7c8404f9, 0x06058401]
    );
    assert_eq!(
        words("GFX1010", "v_fma_f32 v1, s1, 0x1234, v2"),
        [0xd54b0001, 0x0409fe01, 0x1234]
    );
    assert_eq!(
        words(
            "GFX1010",
            "v_add_f32 v1, v2, v3 row_xmask:5 row_mask:0x3 bank_mask:0xc bound_ctrl:0"
        ),
        [0x060206fa, 0x3c096502]
    );
    assert_eq!(
        words("GFX900", "v_add_f32 v1, s2, v3 dst_sel:BYTE_1 dst_unused:UNUSED_SEXT src0_sel:WORD_1 src1_sel:BYTE_3"),
        [0x020206f9, 0x03850902]
    );
    assert_eq!(
        words(
            "GFX1010",
            "v_pk_fma_f16 v1, v2, v3, v4 op_sel:[1,0,1] op_sel_hi:[0,1,0] neg_lo:[1,0,0] neg_hi:[0,0,1] clamp"
        ),
        [0xcc0eac01, 0x34120702]
    );
    assert_eq!(
        words("GFX1010", "v_fma_f16 v1, v2, v3, v4 op_sel:[1,0,1,1]"),
        [0xd74b6801, 0x04120702]
    );
    assert_eq!(
        words("GFX906", "v_fma_mix_f32 v1, -v2, |v3|, v4"),
        [0xd3a04201, 0x3c120702]
    );
    assert_eq!(
        words(
            "GFX1010",
            "v_cvt_f64_f32_dpp v[1:2], v10 row_shl:1 row_mask:0xa bank_mask:0x5"
        ),
        [0x7e0220fa, 0xa501010a]
    );
    // `_e32` with a literal is the 32-bit form followed by the literal.
    assert_eq!(
        words("Tonga", "v_add_f32_e32 v1, 0x1234, v2"),
        [0x020204ff, 0x1234]
    );
}

#[test]
fn errors_point_at_the_culprit() {
    let (m, at) = error("GFX900", false, "v_add_f32 v1, v[2:3], v3");
    assert!(m.contains("1 vector register"), "{m}");
    assert_eq!(at, "v[2:3]");
    // Two SGPRs before GCN 1.5, three scalar reads (a literal counts) on GCN 1.5.
    assert_eq!(error("GFX900", false, "v_fma_f32 v1, s1, s2, v3").1, "s2");
    assert!(run("GFX1010", false, "v_fma_f32 v1, s1, s2, v3").is_ok());
    assert_eq!(
        error("GFX1010", false, "v_fma_f32 v1, s1, s2, 0x1234").1,
        "0x1234"
    );
    // V_DIV_FMAS reads VCC: no SGPR before GCN 1.5.
    assert_eq!(
        error("GFX900", false, "v_div_fmas_f32 v1, s1, v2, v3").1,
        "s1"
    );
    // Modifiers.
    assert_eq!(
        error("Tonga", false, "v_add_f32 v1, v2, v3 row_shl:0").1,
        "0"
    );
    assert_eq!(
        error("Tonga", false, "v_add_f32 v1, v2, v3 quad_perm:[1,2,3]").1,
        "[1,2,3]"
    );
    assert_eq!(
        error("GFX1010", false, "v_add_f32 v1, v2, v3 wave_shl").1,
        "wave_shl"
    );
    // A modifier the instruction does not take: its name (what a quick fix replaces).
    assert_eq!(
        error("Pitcairn", false, "v_add_f32 v1, v2, v3 dst_sel:WORD_1").1,
        "dst_sel"
    );
    assert_eq!(
        error("GFX900", false, "v_pk_add_f16 v1, |v2|, v3").1,
        "|v2|"
    );
    assert_eq!(
        error("GFX900", false, "v_div_scale_f32 v1, vcc, v2, |v3|, v4").1,
        "|v3|"
    );
    // Lane masks: one SGPR in wave32, two otherwise.
    assert_eq!(error("GFX1010", true, "v_cmp_eq_f32 vcc, v1, v2").1, "vcc");
    assert_eq!(
        error("GFX1010", false, "v_cmp_eq_f32 vcc_lo, v1, v2").1,
        "vcc_lo"
    );
    // Attributes.
    assert_eq!(
        error("Pitcairn", false, "v_interp_p1_f32 v1, v2, attr64.x").1,
        "attr64.x"
    );
    assert!(error("Pitcairn", false, "v_interp_p1_f32 v1, v2, attr1.q")
        .0
        .contains("channel"));
    assert_eq!(
        words("GFX900", "v_interp_p1_f32 v93, v211, attr26 . w"),
        [0xd5746bd3]
    );
    // `_e32` cannot hold what needs VOP3.
    assert!(error("Tonga", false, "v_add_f32_e32 v1, v2, s3")
        .0
        .contains("_e32"));
}
