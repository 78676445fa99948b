//! VOP1, VOP2, VOPC, VOP3 (A/B), VOP3P, VINTRP, SDWA, DPP, DPP8.
//!
//! Entry point: [`encode`], called by the dispatch (`scalar.rs`) with the table row it
//! picked for the mnemonic on the target's generation and the encoding suffix written
//! after the mnemonic (`_e32`, `_e64`, `_sdwa`, `_dpp`, `_dpp8`).
//!
//! - [`vop`]: VOP1/VOP2/VOPC rows, in their 32-bit form, SDWA, DPP, DPP8 or the VOP3
//!   form; the shortest that fits the operands and modifiers unless a suffix or `vop3`
//!   asks otherwise.
//! - [`vop3`]: VOP3-only rows (VOP3A/VOP3B) and VOP3P.
//! - [`vintrp`]: VINTRP and the VOP3-encoded interpolation instructions.
//! - [`mods`]: the modifiers (`clamp`, `mul:2`, `op_sel:`, SDWA, DPP, ...).
//!
//! The behaviour follows clrxasm (the conformance corpus): which operands may be SGPRs
//! or constants, one literal, the scalar-read limit (one SGPR before GCN 1.5, two on
//! GCN 1.5), literals only in VOP3-only/VOP3P rows on GCN 1.5, the VOP3 opcode of
//! VOP1/VOP2/VOPC rows, default SDWA/DPP fields and the error cases.

mod mods;
mod vintrp;
mod vop;
mod vop3;

use gcn_syntax::ast::{self, AstNode};
use gcn_syntax::{SyntaxKind, TextRange};
use rowan::GreenNodeData;

use super::operands::{range_of, Align, Cx, Items, OperandSyntax, Src, SrcMods, SrcSpec};
use super::{EncodeError, Encoded, RegFile, RegRange, RegUse, Resolver, Target};
use crate::arch::Generation;
use crate::lookup::Suffix;
use crate::table::{Encoding, Instruction};

/// Encodes a vector-ALU instruction (`row.encoding` is VOP1, VOP2, VOPC, VOP3, VOP3P
/// or VINTRP) for `target`; `green` is the instruction's green node, `mnemonic` where
/// the mnemonic is written.
pub(super) fn encode(
    target: &Target,
    instr: &ast::Instruction,
    green: &GreenNodeData,
    mnemonic: TextRange,
    row: &'static Instruction,
    suffix: Option<Suffix>,
    resolver: &mut dyn Resolver,
) -> Result<Encoded, Vec<EncodeError>> {
    let mut items = Items::default();
    items.read(instr, green).map_err(|e| vec![e])?;
    items.require_commas().map_err(|e| vec![e])?;
    let whole = mnemonic;
    let mut cx = Cx::new(target, resolver);
    let mut errors = Vec::new();
    let ctx = Ctx {
        row,
        suffix,
        whole,
        instr_range: instr.syntax().text_range(),
        items: &items,
    };
    let words = match row.encoding {
        Encoding::Vop1 | Encoding::Vop2 | Encoding::Vopc => vop::encode(&mut cx, &ctx, &mut errors),
        Encoding::Vintrp => vintrp::encode(&mut cx, &ctx, &mut errors),
        Encoding::Vop3 | Encoding::Vop3p if row.flags.contains(crate::table::Flags::INTERP) => {
            vintrp::encode(&mut cx, &ctx, &mut errors)
        }
        Encoding::Vop3 | Encoding::Vop3p => vop3::encode(&mut cx, &ctx, &mut errors),
        _ => {
            errors.push(EncodeError::new(whole, "not a vector-ALU instruction"));
            None
        }
    };
    match words {
        Some(words) if errors.is_empty() => Ok(cx.finish(words)),
        _ => {
            if errors.is_empty() {
                errors.push(EncodeError::new(whole, "cannot encode this instruction"));
            }
            Err(errors)
        }
    }
}

/// The modifiers `row` takes on `gen` (see [`super::modifiers_taken`]).
pub(super) fn modifiers_taken(row: &Instruction, gen: Generation) -> Vec<&'static str> {
    let interp = row.flags.contains(crate::table::Flags::INTERP);
    let spec = match row.encoding {
        Encoding::Vop1 | Encoding::Vop2 | Encoding::Vopc => vop::mod_spec(row, gen),
        Encoding::Vintrp | Encoding::Vop3 | Encoding::Vop3p
            if row.encoding == Encoding::Vintrp || interp =>
        {
            if !vintrp::has_vop3_form(row, gen) {
                return Vec::new();
            }
            vintrp::mod_spec(row, gen)
        }
        Encoding::Vop3 | Encoding::Vop3p => vop3::mod_spec(row, gen),
        _ => return Vec::new(),
    };
    mods::taken(&spec, gen).collect()
}

/// Whether the modifier `name`, which the row takes, still applies after a mnemonic
/// written with `suffix` (see [`mods::fits_suffix`]).
pub(super) fn fits_suffix(name: &str, suffix: Suffix, row: &Instruction, gen: Generation) -> bool {
    mods::fits_suffix(name, suffix, row.encoding == Encoding::Vopc, gen)
}

/// What every encoder of this module gets besides the `Cx`.
struct Ctx<'a, 'i> {
    row: &'static Instruction,
    suffix: Option<Suffix>,
    /// The mnemonic: where errors about the instruction as a whole go.
    whole: TextRange,
    /// The whole instruction, operands included.
    instr_range: TextRange,
    items: &'a Items<'i>,
}

impl Ctx<'_, '_> {
    /// Checks the operand count against the row's operand list.
    fn expect_operands(&self, n: usize) -> Result<(), EncodeError> {
        self.items.expect_count(n, n, self.instr_range)
    }
}

/// A source operand with the modifiers written around it.
#[derive(Clone, Copy, Debug)]
struct VSrc {
    src: Src,
    mods: SrcMods,
}

impl VSrc {
    fn code(&self) -> u16 {
        self.src.code
    }
    fn is_vgpr(&self) -> bool {
        self.src.code >= 256
    }
    /// An SGPR as clrxasm counts scalar reads: operand codes below 108 (SGPRs,
    /// FLAT_SCRATCH, XNACK_MASK, VCC).
    fn is_sgpr(&self) -> bool {
        self.src.code < 108
    }
    fn is_m0(&self) -> bool {
        self.src.code == 124
    }
    fn is_literal(&self) -> bool {
        self.src.is_literal()
    }
    fn abs_neg(&self) -> bool {
        self.mods.abs || self.mods.neg
    }
}

/// Which operand modifiers (`abs()`/`|x|`, `-x`/`neg()`, `sext()`) a source takes.
#[derive(Clone, Copy, Debug)]
struct ModAllow {
    abs: bool,
    neg: bool,
    sext: bool,
    /// Why `abs` is refused (the encoding's name).
    what: &'static str,
}

/// Parses a source operand with its modifiers. `max_regs` above `spec.regs` accepts a
/// register range of any size in between (V_CMP_CLASS_F64's mask).
fn parse_src<E: OperandSyntax + ?Sized>(
    cx: &mut Cx<'_>,
    expr: &E,
    spec: &SrcSpec,
    max_regs: u8,
    allow: ModAllow,
) -> Result<VSrc, EncodeError> {
    if may_have_src_mods(expr.kind()) {
        let green = expr.green();
        if let Some((inner, mods)) = Cx::peel_plain_src_mods(expr, &green) {
            return checked_src(cx, &inner, mods, range_of(expr), spec, max_regs, allow);
        }
        let (inner, mods) = cx.strip_src_mods(&expr.expr())?;
        checked_src(cx, &inner, mods, range_of(expr), spec, max_regs, allow)
    } else {
        checked_src(
            cx,
            expr,
            SrcMods::default(),
            range_of(expr),
            spec,
            max_regs,
            allow,
        )
    }
}

/// Whether an operand of this kind may carry operand modifiers for
/// [`Cx::strip_src_mods`] to peel (`abs(x)`, `|x|`, `-x`); others are the source itself.
fn may_have_src_mods(kind: SyntaxKind) -> bool {
    matches!(
        kind,
        SyntaxKind::CALL_EXPR | SyntaxKind::ABS_EXPR | SyntaxKind::PREFIX_EXPR
    )
}

/// A source operand (`inner`, its modifiers peeled into `mods`) checked against `spec`
/// and `allow`; `range` covers the operand with its modifiers.
fn checked_src<E: OperandSyntax + ?Sized>(
    cx: &mut Cx<'_>,
    inner: &E,
    mods: SrcMods,
    range: TextRange,
    spec: &SrcSpec,
    max_regs: u8,
    allow: ModAllow,
) -> Result<VSrc, EncodeError> {
    let mut spec = *spec;
    if spec.align == Align::Vector {
        spec.align = valign(cx);
    }
    if max_regs > spec.regs {
        if let Ok(Some(reg)) = cx.reg(inner) {
            if reg.count > spec.regs as u16 && reg.count <= max_regs as u16 {
                spec.regs = reg.count as u8;
            }
        }
    }
    let spec = &spec;
    if mods.abs && !allow.abs {
        return Err(EncodeError::new(
            range,
            format!("the absolute-value modifier is illegal in {}", allow.what),
        ));
    }
    if mods.neg && !allow.neg {
        return Err(EncodeError::new(
            range,
            format!("the negation modifier is illegal in {}", allow.what),
        ));
    }
    if mods.sext && !allow.sext {
        return Err(EncodeError::new(
            range,
            format!("`sext` is illegal in {} (SDWA only, GCN 1.2+)", allow.what),
        ));
    }
    let mut src = cx.src(inner, spec)?;
    if src.code == 254 {
        // LDS_DIRECT reads M0 (offset and format).
        implicit(cx, 124, 1, false);
    }
    // Errors about the operand point at all of it, modifiers included.
    src.range = range;
    Ok(VSrc { src, mods })
}

/// Records an implicit register use (VCC of V_DIV_FMAS, EXEC of V_CMPX, M0 of VINTRP).
fn implicit(cx: &mut Cx<'_>, code: u16, count: u16, write: bool) {
    cx.regs.push(RegUse {
        range: RegRange {
            file: RegFile::Sgpr,
            first: code,
            count,
        },
        write,
    });
}

/// How SGPR ranges of vector instructions must be aligned: not across a line of 4
/// SGPRs before GCN 1.5, freely on GCN 1.5.
fn valign(cx: &Cx<'_>) -> Align {
    if cx.gen().is_gfx10() {
        Align::None
    } else {
        Align::Vector
    }
}

/// Lane-mask registers: 2 SGPRs, 1 in wave32 (GCN 1.5 only).
fn mask_regs(cx: &Cx<'_>) -> u32 {
    if cx.target.wave32 && cx.gen().is_gfx10() {
        1
    } else {
        2
    }
}

/// Whether the row has 64-bit operands that rule out SDWA (`sdwa`) or DPP: any operand
/// before GCN 1.5; on GCN 1.5 DPP allows a 64-bit destination (V_CVT_F64_F32).
fn has_wide_operand(row: &Instruction, gen: crate::arch::Generation, sdwa: bool) -> bool {
    use crate::table::OperandKind::*;
    row.operands.iter().any(|o| {
        o.min_regs > 1
            && match o.kind {
                Src | VSrc | SSrc => true,
                VDst | SDst => sdwa || !gen.is_gfx10(),
                _ => false,
            }
    })
}

/// Appends (or reports) an error and yields `None` so encoders can `?` on `Option`.
fn fail<T>(errors: &mut Vec<EncodeError>, e: EncodeError) -> Option<T> {
    errors.push(e);
    None
}

#[cfg(test)]
mod tests;
