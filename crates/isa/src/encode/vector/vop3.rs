//! VOP3-only rows (VOP3A, VOP3B) and VOP3P.

use smallvec::smallvec;

use super::mods::{self, ModSpec};
use super::{fail, implicit, mask_regs, parse_src, valign, Ctx, ModAllow, VSrc};
use crate::arch::Generation;
use crate::encode::operands::{range_of, Cx, Reg, SrcSpec};
use crate::encode::{EncodeError, Words};
use crate::lookup::Suffix;
use crate::table::{Encoding, Flags, Instruction, OperandKind};

/// Instructions that read VCC without naming it.
fn reads_vcc(mnemonic: &str) -> bool {
    mnemonic.starts_with("v_div_fmas_")
}

/// What the modifiers of a VOP3-only or VOP3P row may be on `gen`.
pub(super) fn mod_spec(row: &Instruction, gen: Generation) -> ModSpec {
    let vop3b = row.flags.contains(Flags::VOP3B);
    // The sources: at most three (the encoder's `nsrc`).
    let sources = row
        .operands
        .iter()
        .filter(|o| {
            matches!(
                o.kind,
                OperandKind::Src | OperandKind::VSrc | OperandKind::SSrc
            )
        })
        .count()
        .min(3);
    ModSpec {
        operands: 1 + sources as u8,
        sdwa_operands: 0,
        clamp: gen >= Generation::Gcn1_2 || !vop3b,
        sext: false,
        op_sel: gen >= Generation::Gcn1_4 && !vop3b,
        vop3p: row.encoding == Encoding::Vop3p,
        no_dst_mods: false,
        extra: false,
        interp: false,
    }
}

pub(super) fn encode(
    cx: &mut Cx<'_>,
    ctx: &Ctx<'_, '_>,
    errors: &mut Vec<EncodeError>,
) -> Option<Words> {
    let row = ctx.row;
    let gen = cx.gen();
    let gcn12 = gen >= Generation::Gcn1_2;
    let gfx10 = gen.is_gfx10();
    let vop3p = row.encoding == Encoding::Vop3p;
    let vop3b = row.flags.contains(Flags::VOP3B);
    // V_MAD_MIX*/V_FMA_MIX*: NEG_HI holds the sources' ABS bits.
    let mix = vop3p && row.mnemonic.contains("_mix");

    match ctx.suffix {
        Some(Suffix::Sdwa | Suffix::Dpp | Suffix::Dpp8) => {
            return fail(
                errors,
                EncodeError::new(
                    ctx.whole,
                    "SDWA and DPP encodings are illegal for VOP3 instructions",
                ),
            );
        }
        Some(Suffix::E32) => {
            return fail(
                errors,
                EncodeError::new(
                    ctx.whole,
                    "this instruction has only a 64-bit (VOP3) encoding",
                ),
            );
        }
        _ => {}
    }
    if let Err(e) = ctx.expect_operands(row.operands.len()) {
        return fail(errors, e);
    }
    let allow = ModAllow {
        abs: !vop3b && (!vop3p || mix),
        neg: true,
        sext: false,
        what: if vop3p {
            "VOP3P encoding"
        } else if vop3b {
            "VOP3B encoding"
        } else {
            "VOP3 encoding"
        },
    };

    let mut dst: Option<Reg> = None;
    let mut sdst: Option<Reg> = None;
    let mut srcs: [Option<VSrc>; 3] = [None; 3];
    let mut nsrc = 0usize;
    for (op, expr) in row.operands.iter().zip(ctx.items.operands.iter()) {
        let regs = op.min_regs as u32;
        let r = match op.kind {
            OperandKind::VDst => cx.vreg(expr, regs, true).map(|r| dst = Some(r)),
            OperandKind::SDst => cx.sreg(expr, regs, valign(cx), true).map(|r| dst = Some(r)),
            OperandKind::VccDst => cx
                .sreg(expr, mask_regs(cx), valign(cx), true)
                .map(|r| sdst = Some(r)),
            OperandKind::Src | OperandKind::VSrc | OperandKind::SSrc if nsrc < 3 => {
                let mut spec = SrcSpec::vector(regs as u8, op.ty);
                if nsrc > 0 {
                    spec = spec.no_lds_direct();
                }
                if !gfx10 {
                    spec =
                        spec.no_literal("a literal is illegal in the VOP3 encoding before GCN 1.5");
                }
                let i = nsrc;
                nsrc += 1;
                parse_src(cx, expr, &spec, op.max_regs, allow).map(|s| srcs[i] = Some(s))
            }
            _ => Err(EncodeError::new(
                range_of(expr),
                "operand kind not supported in a VOP3 instruction",
            )),
        };
        if let Err(e) = r {
            errors.push(e);
        }
    }

    let spec = mod_spec(row, gen);
    debug_assert_eq!(spec.operands, 1 + nsrc as u8);
    let m = mods::parse(cx, &spec, &ctx.items.modifiers, &[], ctx.whole, errors);
    if !errors.is_empty() {
        return None;
    }
    for (i, s) in srcs.iter_mut().enumerate() {
        if let Some(s) = s {
            s.mods.abs |= m.abs & (1 << i) != 0;
            s.mods.neg |= m.neg & (1 << i) != 0;
        }
    }

    // Scalar reads: distinct SGPRs (codes below 108), the literal on GCN 1.5.
    let vcc_read = reads_vcc(row.mnemonic);
    let mut codes = [u16::MAX; 3];
    let mut n = 0usize;
    let mut literal = None;
    for s in srcs.iter().flatten() {
        if s.is_literal() {
            literal = Some(*s);
        }
        if s.is_sgpr() && !codes[..n].contains(&s.code()) {
            codes[n] = s.code();
            n += 1;
        }
    }
    let reads = n + if gfx10 { literal.is_some() as usize } else { 0 };
    let limit = match (gfx10, vcc_read) {
        (false, true) => 0,
        (false, false) | (true, true) => 1,
        (true, false) => 2,
    };
    if reads > limit {
        let at = srcs
            .iter()
            .flatten()
            .rfind(|s| s.is_sgpr() || s.is_literal())
            .map_or(ctx.whole, |s| s.src.range);
        let msg = match limit {
            0 => "no SGPR can be read here: the instruction reads VCC",
            1 if vcc_read => "more than one SGPR read by the instruction (VCC included)",
            1 => "more than one SGPR read by the instruction",
            _ => "more than two SGPRs or literals read by the instruction",
        };
        return fail(errors, EncodeError::new(at, msg));
    }
    if vcc_read {
        implicit(cx, 106, mask_regs(cx) as u16, false);
    }

    let Some(opcode) = row.opcode(gen) else {
        return fail(
            errors,
            EncodeError::new(ctx.whole, format!("instruction not available on {gen}")),
        );
    };
    let op = opcode as u32;
    let dst8 = dst.map_or(0, |d| (d.code & 0xff) as u32);
    let bit = |i: usize, f: fn(&VSrc) -> bool| srcs[i].as_ref().is_some_and(f) as u32;
    let code = |i: usize| srcs[i].map_or(0, |s| s.code() as u32);
    let clamp = m.clamp as u32;
    let w0 = if vop3p {
        let prefix = if gfx10 { 0xcc00_0000 } else { 0xd380_0000 };
        prefix
            | (op << 16)
            | dst8
            | (clamp << 15)
            | ((m.neg_hi as u32 & 7) << 8)
            | if mix {
                (bit(0, |s| s.mods.abs) | bit(1, |s| s.mods.abs) << 1 | bit(2, |s| s.mods.abs) << 2)
                    << 8
            } else {
                0
            }
            | ((m.op_sel as u32 & 7) << 11)
            | (((m.op_sel_hi as u32 >> 2) & 1) << 14)
    } else {
        let prefix = if gfx10 { 0xd400_0000 } else { 0xd000_0000 };
        let (opbits, clampbit) = if gcn12 {
            (op << 16, clamp << 15)
        } else {
            (op << 17, clamp << 11)
        };
        if let Some(sd) = sdst {
            prefix | opbits | clampbit | dst8 | ((sd.code as u32 & 0x7f) << 8)
        } else {
            prefix
                | opbits
                | clampbit
                | dst8
                | bit(0, |s| s.mods.abs) << 8
                | bit(1, |s| s.mods.abs) << 9
                | bit(2, |s| s.mods.abs) << 10
                | ((m.op_sel as u32 & 15) << 11)
        }
    };
    let w1 = code(0)
        | (code(1) << 9)
        | (code(2) << 18)
        | if vop3p {
            (m.op_sel_hi as u32 & 3) << 27
        } else {
            (m.omod as u32 & 3) << 27
        }
        | bit(0, |s| s.mods.neg) << 29
        | bit(1, |s| s.mods.neg) << 30
        | bit(2, |s| s.mods.neg) << 31;
    Some(smallvec![w0, w1])
}
