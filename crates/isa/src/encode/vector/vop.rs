//! VOP1, VOP2 and VOPC rows: the 32-bit form, SDWA, DPP, DPP8, or the VOP3 form.

use gcn_syntax::ast;
use smallvec::smallvec;

use super::mods::{self, Extra, ModSpec};
use super::{fail, has_wide_operand, implicit, mask_regs, parse_src, valign, Ctx, ModAllow, VSrc};
use crate::arch::Generation;
use crate::encode::operands::{is_word, range_of, Align, Cx, OperandSyntax, Reg, SrcSpec};
use crate::encode::{EncodeError, Words};
use crate::lookup::Suffix;
use crate::table::{Encoding, Flags, Instruction, OperandKind, ValueType};

/// The operands of a VOP1/VOP2/VOPC instruction once parsed.
#[derive(Default)]
struct Parsed {
    /// VDST (or SDST of V_READFIRSTLANE/V_READLANE); for VOPC the lane-mask destination.
    dst: Option<Reg>,
    /// VOP2 carry-out (VOP3B SDST).
    dst_cc: Option<Reg>,
    src0: Option<VSrc>,
    src1: Option<VSrc>,
    /// VOP2 carry-in / V_CNDMASK mask (VOP3 SRC2).
    src_cc: Option<Reg>,
    /// V_MADMK/V_MADAK/V_FMAMK/V_FMAAK constant (in the literal slot).
    kimm: bool,
    /// SRC1 is a scalar operand in the 32-bit form (V_READLANE/V_WRITELANE on GCN 1.0/1.1).
    src1_scalar: bool,
}

/// What the modifiers of a VOP1, VOP2 or VOPC row may be on `gen`.
pub(super) fn mod_spec(row: &Instruction, gen: Generation) -> ModSpec {
    let gcn12 = gen >= Generation::Gcn1_2;
    let gcn14 = gen >= Generation::Gcn1_4;
    let enc = row.encoding;
    let has_dst_cc = has_dst_cc(row);
    ModSpec {
        operands: match enc {
            Encoding::Vop1 if row.operands.is_empty() => 0,
            Encoding::Vop1 => 2,
            _ => 3,
        },
        sdwa_operands: if !gcn12 {
            0
        } else if enc == Encoding::Vop1 {
            if row.operands.is_empty() {
                0
            } else {
                2
            }
        } else {
            3
        },
        clamp: !has_dst_cc || gcn12,
        sext: true,
        op_sel: gcn14 && !has_dst_cc,
        vop3p: false,
        no_dst_mods: enc == Encoding::Vopc && gcn14,
        extra: gcn12,
        interp: false,
    }
}

/// A VOP2 row with a carry-out (VOP3B in its 64-bit form).
fn has_dst_cc(row: &Instruction) -> bool {
    row.encoding == Encoding::Vop2 && row.operands.iter().any(|o| o.kind == OperandKind::VccDst)
}

pub(super) fn encode(
    cx: &mut Cx<'_>,
    ctx: &Ctx<'_, '_>,
    errors: &mut Vec<EncodeError>,
) -> Option<Words> {
    let row = ctx.row;
    let gen = cx.gen();
    let gcn12 = gen >= Generation::Gcn1_2;
    let gcn14 = gen >= Generation::Gcn1_4;
    let gfx10 = gen.is_gfx10();
    let enc = row.encoding;
    let suffix = ctx.suffix;

    // `v_nop vop3`: with no operands the parser takes the modifier for an operand.
    let bare_vop3 = row.operands.is_empty()
        && ctx.items.operands.len() == 1
        && is_word(&ctx.items.operands[0], "vop3");
    if !bare_vop3 {
        if let Err(e) = ctx.expect_operands(row.operands.len()) {
            return fail(errors, e);
        }
    }
    let has_dst_cc = has_dst_cc(row);
    // GCN 1.0/1.1 VOP3B has no ABS field; GCN 1.2+ parses abs and refuses it later.
    let allow = ModAllow {
        abs: !has_dst_cc || gcn12,
        neg: true,
        sext: gcn12,
        what: "VOP3B encoding",
    };

    // ---- operands, in source order --------------------------------------------------
    let mut p = Parsed::default();
    let mut seen_src = 0;
    for (op, expr) in row.operands.iter().zip(ctx.items.operands.iter()) {
        let regs = op.min_regs as u32;
        let r = match op.kind {
            OperandKind::VDst => cx.vreg(expr, regs, true).map(|reg| {
                if row.flags.contains(Flags::MAC) {
                    cx.use_reg(&reg, false);
                }
                p.dst = Some(reg);
            }),
            OperandKind::SDst => cx
                .sreg(expr, regs, valign(cx), true)
                .map(|reg| p.dst = Some(reg)),
            OperandKind::VccDst => cx.sreg(expr, mask_regs(cx), valign(cx), true).map(|reg| {
                if enc == Encoding::Vopc {
                    p.dst = Some(reg);
                } else {
                    p.dst_cc = Some(reg);
                }
            }),
            // clrxasm reads the carry-in / mask of a VOP2 row with no alignment rule at
            // all (INSTROP_UNALIGNED): `v_cndmask_b32 v1, v2, v3, s[15:16]` is good.
            OperandKind::VccSrc => cx
                .sreg(expr, mask_regs(cx), Align::None, false)
                .map(|reg| p.src_cc = Some(reg)),
            OperandKind::KImm => parse_kimm(cx, &expr.expr(), op.ty).map(|()| p.kimm = true),
            OperandKind::Src | OperandKind::VSrc | OperandKind::SSrc => {
                let first = seen_src == 0;
                seen_src += 1;
                let spec = if first {
                    // With a constant (V_MADMK/V_MADAK) SRC0 may still be a literal: the
                    // two share the literal word when their values are equal
                    // (`Cx::set_literal`), as clrxasm writes one word for them.
                    if enc == Encoding::Vop1 && op.kind == OperandKind::VSrc {
                        SrcSpec::vgpr_only(regs as u8)
                    } else {
                        SrcSpec::vector(regs as u8, op.ty)
                    }
                } else {
                    let mut spec = SrcSpec::vector(regs as u8, op.ty).no_lds_direct();
                    if op.kind == OperandKind::SSrc {
                        spec.vgpr = false;
                        p.src1_scalar = true;
                    }
                    if p.src0.is_some_and(|s| s.is_literal()) || p.kimm {
                        spec = spec.no_literal("only one literal can be used in an instruction");
                    }
                    spec
                };
                parse_src(cx, expr, &spec, op.max_regs, allow).map(|s| {
                    if first {
                        p.src0 = Some(s);
                    } else {
                        p.src1 = Some(s);
                    }
                })
            }
            _ => Err(EncodeError::new(
                range_of(expr),
                "operand kind not supported in a VOP1/VOP2/VOPC instruction",
            )),
        };
        if let Err(e) = r {
            errors.push(e);
        }
    }

    // ---- modifiers ------------------------------------------------------------------
    let spec = mod_spec(row, gen);
    let m = mods::parse(cx, &spec, &ctx.items.modifiers, &[], ctx.whole, errors);
    if !errors.is_empty() {
        return None;
    }
    if let Some(s) = p.src0.as_mut() {
        s.mods.abs |= m.abs & 1 != 0;
        s.mods.neg |= m.neg & 1 != 0;
        s.mods.sext |= m.sext & 1 != 0;
    }
    if let Some(s) = p.src1.as_mut() {
        s.mods.abs |= m.abs & 2 != 0;
        s.mods.neg |= m.neg & 2 != 0;
        s.mods.sext |= m.sext & 2 != 0;
    }
    let src0 = p.src0;
    let src1 = p.src1;
    let any = |f: fn(&VSrc) -> bool| src0.as_ref().is_some_and(f) || src1.as_ref().is_some_and(f);
    let sext_any = any(|s| s.mods.sext);
    let abs_neg_any = any(|s| s.abs_neg());
    let abs_any = any(|s| s.mods.abs);

    // ---- which encoding --------------------------------------------------------------
    let mut need_sdwa = m.extra == Extra::Sdwa || sext_any || suffix == Some(Suffix::Sdwa);
    let mut need_dpp = m.extra == Extra::Dpp;
    let mut need_dpp8 = m.extra == Extra::Dpp8;
    let sdwa_b = gcn14 && need_sdwa;
    let dst_is_vcc = p.dst.is_some_and(|d| d.code == 106);
    // SRC1 (VSRC1 field) must be a VGPR, or a scalar for V_READLANE/V_WRITELANE; the
    // VOPC destination must be VCC. GCN 1.4 SDWA lifts both.
    let mut vop3 = !sdwa_b
        && match enc {
            Encoding::Vop2 => src1.is_some_and(|s1| s1.is_vgpr() == p.src1_scalar),
            Encoding::Vopc => {
                (p.dst.is_some() && !dst_is_vcc) || src1.is_some_and(|s| !s.is_vgpr())
            }
            _ => false,
        };
    if p.dst_cc.is_some_and(|r| r.code != 106) || p.src_cc.is_some_and(|r| r.code != 106) {
        vop3 = true;
    }
    // Whether a modifier or the suffix asks for VOP3, rather than the operands.
    let mut vop3_by_request = (!gcn12 && any(|s| s.mods.abs || s.mods.neg || s.mods.sext))
        || (m.clamp && !need_sdwa)
        || (m.omod != 0 && !(gcn14 && need_sdwa))
        || m.vop3
        || bare_vop3
        || (m.op_sel & 15) != 0
        || suffix == Some(Suffix::E64);
    vop3 |= vop3_by_request;

    // ---- operand constraints --------------------------------------------------------
    let lit = [src0, src1].into_iter().flatten().find(|s| s.is_literal());
    if let Some(l) = lit {
        if any(|s| s.is_sgpr() || s.is_m0()) {
            return fail(
                errors,
                EncodeError::literal(
                    l.src.range,
                    "a literal cannot be used together with an SGPR or M0 in a vector instruction",
                ),
            );
        }
    }
    let limit = if gfx10 { 2 } else { 1 };
    let mut sgprs: [u16; 3] = [u16::MAX; 3];
    let mut nsgprs = 0usize;
    let mut count = |code: u16| {
        if code < 108 && !sgprs[..nsgprs].contains(&code) {
            sgprs[nsgprs] = code;
            nsgprs += 1;
        }
    };
    for s in [src0, src1].into_iter().flatten() {
        count(s.code());
    }
    if enc == Encoding::Vop2 {
        if let Some(cc) = p.src_cc {
            count(cc.code);
        }
    }
    // VOPC on GCN 1.5 is not checked by clrxasm (its SDWA form reads two).
    if nsgprs > limit && !(enc == Encoding::Vopc && gfx10) {
        return fail(errors, too_many_sgprs(ctx, limit, [src0, src1]));
    }
    let need_imm = lit.is_some() || p.kimm;

    // ---- SDWA / DPP ------------------------------------------------------------------
    let extra_suffix = matches!(suffix, Some(Suffix::Sdwa | Suffix::Dpp | Suffix::Dpp8));
    if gcn12 && (need_sdwa || need_dpp || need_dpp8 || extra_suffix) {
        if need_imm {
            let at = lit.map_or(ctx.whole, |l| l.src.range);
            return fail(
                errors,
                EncodeError::literal(at, "a literal is illegal in the SDWA or DPP encoding"),
            );
        }
        let src0_vgpr = src0.is_some_and(|s| s.is_vgpr());
        let at0 = src0.map_or(ctx.whole, |s| s.src.range);
        if !gcn14 && !src0_vgpr {
            return fail(
                errors,
                EncodeError::new(
                    at0,
                    "SRC0 must be a vector register in the SDWA or DPP encoding",
                ),
            );
        }
        if gcn14
            && (need_dpp || need_dpp8 || matches!(suffix, Some(Suffix::Dpp | Suffix::Dpp8)))
            && !src0_vgpr
        {
            return fail(
                errors,
                EncodeError::new(at0, "SRC0 must be a vector register in the DPP encoding"),
            );
        }
        if vop3 {
            return fail(
                errors,
                EncodeError::new(
                    m.first.unwrap_or(ctx.whole),
                    "the operands or modifiers need the VOP3 encoding, which cannot be mixed with SDWA or DPP",
                ),
            );
        }
        if sext_any && (need_dpp || need_dpp8 || matches!(suffix, Some(Suffix::Dpp | Suffix::Dpp8)))
        {
            return fail(
                errors,
                EncodeError::new(ctx.whole, "`sext` is unavailable in the DPP encoding"),
            );
        }
        if need_dpp8 && abs_neg_any {
            return fail(
                errors,
                EncodeError::new(
                    ctx.whole,
                    "ABS and NEG modifiers are unavailable in the DPP8 encoding",
                ),
            );
        }
        if !need_sdwa && !need_dpp && !need_dpp8 {
            match suffix {
                Some(Suffix::Dpp) => need_dpp = true,
                Some(Suffix::Dpp8) if gfx10 => need_dpp8 = true,
                _ => need_sdwa = true,
            }
        }
        let wrong_suffix = match suffix {
            Some(Suffix::Sdwa) => !need_sdwa,
            Some(Suffix::Dpp) => !(need_dpp || need_dpp8),
            Some(Suffix::Dpp8) => !need_dpp8,
            _ => false,
        };
        if wrong_suffix {
            return fail(
                errors,
                EncodeError::new(
                    ctx.whole,
                    "the modifiers ask for another encoding than the mnemonic's suffix",
                ),
            );
        }
    } else if gcn12 && abs_neg_any {
        vop3_by_request = true;
    }
    vop3 |= vop3_by_request;
    if (need_sdwa || need_dpp || need_dpp8) && !vop3 {
        let why = extra_illegal(ctx, gen, need_sdwa);
        if let Some(why) = why {
            return fail(errors, EncodeError::new(ctx.whole, why));
        }
    } else {
        need_sdwa = false;
        need_dpp = false;
        need_dpp8 = false;
    }

    if vop3 && has_dst_cc && abs_any {
        let at = [src0, src1]
            .into_iter()
            .flatten()
            .find(|s| s.mods.abs)
            .map_or(ctx.whole, |s| s.src.range);
        return fail(
            errors,
            EncodeError::new(
                at,
                "the absolute-value modifier is illegal in VOP3B encoding",
            ),
        );
    }
    // GCN 1.5's VOP3 takes a literal; clrxasm allows it where the operands need VOP3
    // (`v_cndmask_b32 v4, 0xffffff, -1, vcc_lo`), not where a modifier or `vop3` asks
    // for it (`v_add_f32 v1, abs(v2), 1234`).
    if vop3 && need_imm && (!gfx10 || vop3_by_request) {
        let at = lit.map_or(ctx.whole, |l| l.src.range);
        return fail(
            errors,
            EncodeError::literal(
                at,
                "a literal is illegal in the VOP3 encoding, which the operands or modifiers need",
            ),
        );
    }
    let Some(opcode) = row.opcode(gen) else {
        return fail(
            errors,
            EncodeError::new(ctx.whole, format!("instruction not available on {gen}")),
        );
    };
    let vop3_opcode = row.vop3_opcode(gen);
    if vop3 && vop3_opcode.is_none() {
        return fail(
            errors,
            EncodeError::new(ctx.whole, "no VOP3 encoding for this instruction"),
        );
    }
    if enc == Encoding::Vopc && gcn14 && need_sdwa && (m.clamp || m.omod != 0) {
        let at = m.clamp_range.or(m.omod_range).unwrap_or(ctx.whole);
        return fail(
            errors,
            EncodeError::new(at, "`clamp` and OMOD are illegal in the VOPC SDWA encoding"),
        );
    }
    // `_e32` asks for the 32-bit form; its literal (if any) still follows it.
    if suffix == Some(Suffix::E32) && (vop3 || need_sdwa || need_dpp || need_dpp8) {
        return fail(
            errors,
            EncodeError::new(
                ctx.whole,
                if vop3 {
                    "`_e32` given, but the operands or modifiers need the 64-bit VOP3 encoding"
                } else {
                    "`_e32` given, but the modifiers ask for the SDWA or DPP encoding"
                },
            ),
        );
    }

    if row.mnemonic.starts_with("v_cmpx") {
        implicit(cx, 126, mask_regs(cx) as u16, true);
    }

    // ---- words -----------------------------------------------------------------------
    let dst8 = p.dst.map_or(0, |d| (d.code & 0xff) as u32);
    let s0 = src0.map_or(0, |s| s.code() as u32);
    let s1 = src1.map_or(0, |s| s.code() as u32);
    if vop3 {
        let op = vop3_opcode.unwrap_or(0) as u32;
        let (opbits, clamp) = if gcn12 {
            (op << 16, (m.clamp as u32) << 15)
        } else {
            (op << 17, (m.clamp as u32) << 11)
        };
        let prefix = if gfx10 { 0xd400_0000 } else { 0xd000_0000 };
        let bit = |s: &Option<VSrc>, f: fn(&VSrc) -> bool| s.as_ref().is_some_and(f) as u32;
        let w0 = if let Some(cc) = p.dst_cc {
            prefix | opbits | clamp | dst8 | ((cc.code as u32 & 0x7f) << 8)
        } else {
            prefix
                | opbits
                | clamp
                | dst8
                | bit(&src0, |s| s.mods.abs) << 8
                | bit(&src1, |s| s.mods.abs) << 9
                | ((m.op_sel as u32 & 15) << 11)
        };
        let s2 = p.src_cc.map_or(0, |r| r.code as u32);
        let w1 = s0
            | (s1 << 9)
            | (s2 << 18)
            | ((m.omod as u32 & 3) << 27)
            | bit(&src0, |s| s.mods.neg) << 29
            | bit(&src1, |s| s.mods.neg) << 30;
        return Some(smallvec![w0, w1]);
    }

    let op = opcode as u32;
    let base = match enc {
        Encoding::Vop1 => 0x7e00_0000 | (op << 9) | (dst8 << 17),
        Encoding::Vop2 => (op << 25) | ((s1 & 0xff) << 9) | (dst8 << 17),
        _ => 0x7c00_0000 | (op << 17) | ((s1 & 0xff) << 9),
    };
    let src0_field = if need_sdwa {
        0xf9
    } else if need_dpp {
        0xfa
    } else if need_dpp8 {
        if m.fi {
            0xea
        } else {
            0xe9
        }
    } else {
        s0
    };
    let mut words = smallvec![base | src0_field];
    let b = |s: &Option<VSrc>, f: fn(&VSrc) -> bool| s.as_ref().is_some_and(f) as u32;
    if need_sdwa {
        let dst_part = if enc == Encoding::Vopc && gcn14 {
            match p.dst {
                Some(d) if d.code != 106 => ((d.code as u32 & 0x7f) | 0x80) << 8,
                _ => 0,
            }
        } else {
            ((m.dst_sel as u32) << 8)
                | ((m.dst_unused as u32) << 11)
                | ((m.clamp as u32) << 13)
                | ((m.omod as u32 & 3) << 14)
        };
        words.push(
            dst_part
                | (s0 & 0xff)
                | ((m.src0_sel as u32) << 16)
                | b(&src0, |s| s.mods.sext) << 19
                | b(&src0, |s| s.mods.neg) << 20
                | b(&src0, |s| s.mods.abs) << 21
                | b(&src0, |s| !s.is_vgpr()) << 23
                | ((m.src1_sel as u32) << 24)
                | b(&src1, |s| s.mods.sext) << 27
                | b(&src1, |s| s.mods.neg) << 28
                | b(&src1, |s| s.mods.abs) << 29
                | b(&src1, |s| !s.is_vgpr()) << 31,
        );
    } else if need_dpp {
        words.push(
            (s0 & 0xff)
                | ((m.dpp_ctrl as u32) << 8)
                | ((m.fi as u32) << 18)
                | ((m.bound_ctrl as u32) << 19)
                | b(&src0, |s| s.mods.neg) << 20
                | b(&src0, |s| s.mods.abs) << 21
                | b(&src1, |s| s.mods.neg) << 22
                | b(&src1, |s| s.mods.abs) << 23
                | ((m.bank_mask as u32) << 24)
                | ((m.row_mask as u32) << 28),
        );
    } else if need_dpp8 {
        words.push((s0 & 0xff) | (m.dpp8 << 8));
    }
    Some(words)
}

/// The constant of V_MADMK/V_MADAK/V_FMAMK/V_FMAAK: a literal of the operand's type.
fn parse_kimm(cx: &mut Cx<'_>, expr: &ast::Expr, ty: ValueType) -> Result<(), EncodeError> {
    let imm = cx.imm(expr)?;
    cx.check_float(&imm, ty, expr.syntax().text_range())?;
    cx.warn_if_wider_than_literal(&imm, expr);
    cx.set_literal(imm.bits(ty, cx.fp_rules()), expr)
}

/// Why the instruction has no SDWA (`sdwa`) or DPP form, if it has none.
fn extra_illegal(ctx: &Ctx<'_, '_>, gen: Generation, sdwa: bool) -> Option<&'static str> {
    let row = ctx.row;
    // clrxasm takes the DPP and DPP8 forms of the 64-bit compares on GCN 1.5 (the DPP
    // word names the first VGPR of SRC0, VSRC1 the first of SRC1).
    let wide_dpp_ok = !sdwa && gen.is_gfx10() && row.encoding == Encoding::Vopc;
    if !wide_dpp_ok && has_wide_operand(row, gen, sdwa) {
        return Some(if sdwa {
            "the SDWA encoding is illegal for this instruction (64-bit operands)"
        } else {
            "the DPP encoding is illegal for this instruction (64-bit operands)"
        });
    }
    if row.operands.iter().any(|o| o.kind == OperandKind::SDst) {
        return Some(if sdwa {
            "the SDWA encoding is illegal for this instruction (scalar destination)"
        } else {
            "the DPP encoding is illegal for this instruction (scalar destination)"
        });
    }
    if sdwa && row.flags.contains(Flags::MAC) && gen >= Generation::Gcn1_4 {
        return Some("the SDWA encoding is illegal for this instruction on this architecture");
    }
    None
}

fn too_many_sgprs(ctx: &Ctx<'_, '_>, limit: usize, srcs: [Option<VSrc>; 2]) -> EncodeError {
    let at = srcs
        .into_iter()
        .flatten()
        .rfind(|s| s.is_sgpr())
        .map_or(ctx.whole, |s| s.src.range);
    EncodeError::new(
        at,
        if limit == 1 {
            "more than one SGPR read by the instruction (VCC included)"
        } else {
            "more than two SGPRs read by the instruction (VCC included)"
        },
    )
}
