//! VINTRP (`v_interp_p1_f32 vdst, vsrc, attrN.c`), its VOP3 form on GCN 1.2+ (with
//! `high`, `clamp`, OMOD, `op_sel`, or `_e64`/`vop3`), and the VOP3-only interpolation
//! instructions (`v_interp_p1ll_f16`, `v_interp_p2_f16`, ...).

use gcn_syntax::{SyntaxKind, TextRange};
use smallvec::smallvec;

use super::mods::{self, ModSpec};
use super::{fail, implicit, parse_src, Ctx, ModAllow, VSrc};
use crate::arch::Generation;
use crate::encode::operands::{range_of, Cx, Items, OperandSyntax, SrcSpec};
use crate::encode::tree;
use crate::encode::{EncodeError, Words};
use crate::lookup::Suffix;
use crate::table::{Encoding, Instruction, OperandKind};

/// Whether the row has a VOP3 form on `gen`, where modifiers go (not GCN 1.0/1.1's
/// VINTRP rows).
pub(super) fn has_vop3_form(row: &Instruction, gen: Generation) -> bool {
    row.encoding != Encoding::Vintrp || row.vop3_opcode(gen).is_some()
}

/// What the modifiers of an interpolation row may be on `gen`, in its VOP3 form
/// ([`has_vop3_form`]: without one, none).
pub(super) fn mod_spec(row: &Instruction, gen: Generation) -> ModSpec {
    let src2 = row.operands.iter().any(|o| o.kind == OperandKind::Src);
    ModSpec {
        operands: 1 + 2 + src2 as u8,
        sdwa_operands: 0,
        clamp: true,
        sext: false,
        op_sel: gen >= Generation::Gcn1_4,
        vop3p: false,
        no_dst_mods: false,
        extra: false,
        interp: true,
    }
}

pub(super) fn encode(
    cx: &mut Cx<'_>,
    ctx: &Ctx<'_, '_>,
    errors: &mut Vec<EncodeError>,
) -> Option<Words> {
    let row = ctx.row;
    let gen = cx.gen();
    let gfx10 = gen.is_gfx10();
    let vintrp_row = row.encoding == Encoding::Vintrp;

    if matches!(ctx.suffix, Some(Suffix::Sdwa | Suffix::Dpp | Suffix::Dpp8)) {
        return fail(
            errors,
            EncodeError::new(
                ctx.whole,
                "SDWA and DPP encodings are illegal for interpolation instructions",
            ),
        );
    }
    if !vintrp_row && ctx.suffix == Some(Suffix::E32) {
        return fail(
            errors,
            EncodeError::new(
                ctx.whole,
                "this instruction has only a 64-bit (VOP3) encoding",
            ),
        );
    }
    if let Err(e) = ctx.expect_operands(row.operands.len()) {
        return fail(errors, e);
    }
    let allow = ModAllow {
        abs: true,
        neg: true,
        sext: false,
        what: "interpolation instructions",
    };

    let mut dst8 = 0u32;
    // SRC1 of the VOP3 form / VSRC of VINTRP: a VGPR code (256+) or P10/P20/P0 (0..2).
    let mut vsrc: Option<VSrc> = None;
    let mut param: Option<u32> = None;
    let mut attr: Option<(u32, u32)> = None;
    let mut consumed: Vec<usize> = Vec::new();
    let mut src2: Option<VSrc> = None;
    let operands = &ctx.items.operands;
    for (i, (op, expr)) in row.operands.iter().zip(operands.iter()).enumerate() {
        let r = match op.kind {
            OperandKind::VDst => cx.vreg(expr, 1, true).map(|r| dst8 = r.code8() as u32),
            OperandKind::VSrc => {
                parse_src(cx, expr, &SrcSpec::vgpr_only(1), 1, allow).map(|s| vsrc = Some(s))
            }
            OperandKind::InterpParam => interp_param(expr).map(|p| param = Some(p)),
            OperandKind::Attr => {
                let next = operands.get(i + 1).map(|e| range_of(e).start());
                parse_attr(ctx.items, expr, next, &mut consumed).map(|a| attr = Some(a))
            }
            OperandKind::Src => {
                let mut spec = SrcSpec::vector(op.min_regs, op.ty).no_lds_direct();
                spec.inline = false;
                spec.literal = false;
                parse_src(cx, expr, &spec, op.max_regs, allow).map(|s| src2 = Some(s))
            }
            _ => Err(EncodeError::new(
                range_of(expr),
                "operand kind not supported in an interpolation instruction",
            )),
        };
        if let Err(e) = r {
            errors.push(e);
        }
    }
    if !errors.is_empty() {
        return None;
    }
    implicit(cx, 124, 1, false);

    // `high` is the interpolation instructions' own modifier; the rest are VOP3's.
    let mut high = false;
    let mut skip = consumed.clone();
    for (i, m) in ctx.items.modifiers.iter().enumerate() {
        if !consumed.contains(&i) && m.is("high") {
            match cx.mod_flag(m) {
                Ok(v) => high = v,
                Err(e) => errors.push(e),
            }
            skip.push(i);
        }
    }
    let has_mods = ctx.items.modifiers.len() > consumed.len();
    if has_mods && !has_vop3_form(row, gen) {
        // Without a VOP3 form (GCN 1.0/1.1) no modifier applies, `high` neither.
        for (i, m) in ctx.items.modifiers.iter().enumerate() {
            if !consumed.contains(&i) {
                errors.push(m.unknown("VINTRP", []));
            }
        }
        return None;
    }
    let spec = mod_spec(row, gen);
    debug_assert_eq!(spec.operands, 1 + 2 + src2.is_some() as u8);
    let m = mods::parse(cx, &spec, &ctx.items.modifiers, &skip, ctx.whole, errors);
    if !errors.is_empty() {
        return None;
    }
    let (attr_num, chan) = attr.unwrap_or((0, 0));
    let src1_code = vsrc.map_or(param.unwrap_or(0), |s| s.code() as u32);

    let abs = |i: usize, s: &Option<VSrc>| {
        ((m.abs >> i) & 1 != 0 || s.is_some_and(|s| s.mods.abs)) as u32
    };
    let neg = |i: usize, s: &Option<VSrc>| {
        ((m.neg >> i) & 1 != 0 || s.is_some_and(|s| s.mods.neg)) as u32
    };
    let vop3 = !vintrp_row
        || ctx.suffix == Some(Suffix::E64)
        || m.vop3
        || high
        || m.clamp
        || m.omod != 0
        || m.op_sel != 0
        || abs(1, &vsrc) != 0
        || neg(1, &vsrc) != 0
        || m.abs & 1 != 0
        || m.neg & 1 != 0;

    if !vop3 {
        let Some(opcode) = row.opcode(gen) else {
            return fail(
                errors,
                EncodeError::new(ctx.whole, format!("instruction not available on {gen}")),
            );
        };
        let prefix = if gen >= Generation::Gcn1_2 && !gfx10 {
            0xd400_0000
        } else {
            0xc800_0000
        };
        return Some(smallvec![
            prefix
                | (src1_code & 0xff)
                | (chan << 8)
                | (attr_num << 10)
                | ((opcode as u32) << 16)
                | (dst8 << 18),
        ]);
    }
    if ctx.suffix == Some(Suffix::E32) {
        return fail(
            errors,
            EncodeError::new(
                ctx.whole,
                "`_e32` given, but the modifiers need the VOP3 encoding",
            ),
        );
    }
    let opcode = if vintrp_row {
        row.vop3_opcode(gen)
    } else {
        row.opcode(gen)
    };
    let Some(opcode) = opcode else {
        return fail(
            errors,
            EncodeError::new(ctx.whole, "no VOP3 encoding for this instruction"),
        );
    };
    let prefix = if gfx10 { 0xd400_0000 } else { 0xd000_0000 };
    let src0 = ((chan << 6) | attr_num) + if high { 0x100 } else { 0 };
    let s2 = src2.map_or(0, |s| s.code() as u32);
    let w0 = prefix
        | ((opcode as u32) << 16)
        | dst8
        | ((m.clamp as u32) << 15)
        | (abs(0, &None) << 8)
        | (abs(1, &vsrc) << 9)
        | (abs(2, &src2) << 10)
        | ((m.op_sel as u32 & 15) << 11);
    let w1 = src0
        | (src1_code << 9)
        | (s2 << 18)
        | ((m.omod as u32 & 3) << 27)
        | (neg(0, &None) << 29)
        | (neg(1, &vsrc) << 30)
        | (neg(2, &src2) << 31);
    Some(smallvec![w0, w1])
}

/// The name of a `NAME_REF` operand (as `ast::NameRef::name_token`), lowercase, read
/// from its green node.
fn name_ref_lowercase<E: OperandSyntax + ?Sized>(expr: &E) -> Option<String> {
    if expr.kind() != SyntaxKind::NAME_REF {
        return None;
    }
    tree::first_token(&expr.green(), SyntaxKind::NAME).map(|(t, _)| t.text().to_ascii_lowercase())
}

/// `p10`, `p20`, `p0` of V_INTERP_MOV_F32.
fn interp_param<E: OperandSyntax + ?Sized>(expr: &E) -> Result<u32, EncodeError> {
    let range = range_of(expr);
    let name = name_ref_lowercase(expr);
    match name.as_deref() {
        Some("p10") => Ok(0),
        Some("p20") => Ok(1),
        Some("p0") => Ok(2),
        _ => Err(EncodeError::new(
            range,
            "unknown interpolation parameter: expected P10, P20 or P0",
        )),
    }
}

/// `attrN.c`: attribute 0..63 and channel x/y/z/w. Written with spaces (`attr3 . x`) the
/// parser leaves `.`/`.x`/`x` as modifiers after the operand: those are taken too and
/// their indexes put in `consumed`.
fn parse_attr<E: OperandSyntax + ?Sized>(
    items: &Items,
    expr: &E,
    next_operand: Option<gcn_syntax::TextSize>,
    consumed: &mut Vec<usize>,
) -> Result<(u32, u32), EncodeError> {
    let range = range_of(expr);
    let Some(mut text) = name_ref_lowercase(expr) else {
        return Err(EncodeError::new(
            range,
            "expected `attr` keyword: `attrN.x|y|z|w`",
        ));
    };
    let mut full = range;
    if !text.contains('.') {
        for (i, m) in items.modifiers.iter().enumerate() {
            let at = m.range();
            if at.start() < range.end() || next_operand.is_some_and(|n| at.start() > n) {
                continue;
            }
            let name = m.name();
            let take = if consumed.is_empty() {
                name.starts_with('.')
            } else {
                !text.ends_with(|c: char| c.is_ascii_alphabetic())
            };
            if !take {
                break;
            }
            text.push_str(&name.to_ascii_lowercase());
            consumed.push(i);
            full = TextRange::new(full.start(), at.end());
            if text.len() > text.find('.').unwrap_or(text.len()) + 1 {
                break;
            }
        }
    }
    let Some(rest) = text.strip_prefix("attr") else {
        return Err(EncodeError::new(
            range,
            "expected `attr` keyword: `attrN.x|y|z|w`",
        ));
    };
    let digits = rest.bytes().take_while(|b| b.is_ascii_digit()).count();
    if digits == 0 {
        return Err(EncodeError::new(
            full,
            "expected the attribute number after `attr`",
        ));
    }
    let number: u64 = rest[..digits].parse().unwrap_or(u64::MAX);
    if number > 63 {
        return Err(EncodeError::new(
            full,
            "attribute number out of range (0-63)",
        ));
    }
    let Some(chan) = rest[digits..].strip_prefix('.') else {
        return Err(EncodeError::new(
            full,
            "expected `.` after the attribute number",
        ));
    };
    let chan = match chan {
        "x" => 0,
        "y" => 1,
        "z" => 2,
        "w" => 3,
        _ => {
            return Err(EncodeError::new(
                full,
                "expected the attribute channel: x, y, z or w",
            ))
        }
    };
    Ok((number as u32, chan))
}
