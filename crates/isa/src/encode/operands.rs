//! Operands shared by every encoder: registers, inline constants, literals, modifiers.
//!
//! COMPATIBILITY NOTES (read before relying on this file; owner: scalar/memory encoders):
//! - The API below is stable; additions are fine, changes are announced here first.
//! - Added later (compatible): `RegKind::Const`, `Reg::symbol_range`,
//!   `Cx::register_value`, `Reg::from_symbol`, `is_bare_register_name`.
//! - For the assembler core: evaluate `x = %…` with [`Cx::register_value`] (not
//!   `Cx::reg` + `Reg::reg_range`): it also takes SCC/EXECZ/VCCZ/LDS_DIRECT/apertures and
//!   inline constants (`%-12`, `%0.5` -> `Sgpr` codes 128..=255), and reads `s[…]`
//!   as registers even when a symbol `s` exists, as clrxasm does.
//! - Changed for speed (callers in this crate only): [`Items`] holds [`InstrOperand`]s
//!   (`OperandSyntax::expr` makes their `ast::Expr` on each call; nothing is cached, so
//!   the lists have nothing to drop) and [`ModifierRef`]s (`node()` makes the node, also
//!   on each call); the register/source/value methods of [`Cx`] take any [`OperandSyntax`]
//!   (an `ast::Expr` or an `InstrOperand`); [`Cx::mod_pending`] returns a [`ModValue`].
//!   Read registers and literals through these, not through the AST: see `tree.rs`.
//! - Fixups: clrxasm truncates out-of-range field values with a warning (SOPK simm16,
//!   SMRD/SMEM/MUBUF/FLAT offsets, ...); `Fixup::bits`/`signed` describe the field, the
//!   conformance corpus expects a warning and the truncated value, not an error.
//!
//! # Overview
//!
//! An encoder builds a [`Cx`] (target + resolver + what the instruction accumulates:
//! register uses, fixups, the one literal), walks the instruction's items
//! ([`Items::read`]), turns each operand expression into a code with the `Cx` methods, and
//! finishes with [`Cx::finish`], which appends the literal word (if any) after the
//! instruction's words and returns the [`Encoded`].
//!
//! - Registers: [`Cx::reg`] parses any register syntax into a [`Reg`] (`s5`, `s[4:7]`,
//!   `v[1:2]`, `ttmp3`, `ttmp[4:7]`, `vcc`, `vcc_lo`, `vcc[1]`, `exec`, `m0`, `null`,
//!   `scc`, `lds_direct`, symbolic `x`, `x[1:2]` via [`Resolver::register_symbol`]).
//!   Operand codes are the 9-bit source codes: 0..=127 scalar, 128..=255 constants and
//!   source-only specials, 256 + n for `vN`.
//! - Checked registers: [`Cx::sreg`] (scalar, e.g. SDST/SBASE/SRSRC), [`Cx::vreg`]
//!   (VGPRs only), both with count/alignment checks and register-use recording.
//! - Sources: [`Cx::src`] with a [`SrcSpec`]: a register, an inline constant or a
//!   literal, by the operand's [`ValueType`] (float constants, `lit()`, `Pending`).
//! - Immediates: [`Cx::imm`] evaluates an expression to an [`Imm`] (integer, float
//!   literal with its `h`/`s`/`l` suffix, or pending); [`Imm::bits`] and
//!   [`inline_constant`] give the value/inline code for a type.
//! - Operand modifiers: [`Cx::strip_src_mods`] peels `-x`, `|x|`, `abs(x)`, `neg(x)`,
//!   `sext(x)` into [`SrcMods`].
//! - Instruction modifiers: [`ModifierRef`] (name matching without allocation),
//!   [`Cx::mod_flag`] (`glc`, `glc:0`), [`Cx::mod_int`] (`offset:expr`),
//!   [`Cx::mod_bits`] (`op_sel:[0,1]` or an expression), [`Cx::mod_pending`].
//!
//! # Register uses
//!
//! Every register range read or written goes into [`Encoded::regs`]: VGPRs as
//! `RegFile::Vgpr` with their number; scalar registers as `RegFile::Sgpr` with `first` =
//! their *operand code* (0..=127). Codes at or above the generation's
//! `addressable_sgprs` are special registers (VCC is 106..107, TTMP, EXEC, M0, ...),
//! so a register-usage count should only count `first < addressable_sgprs`, and can
//! detect VCC / FLAT_SCRATCH / XNACK_MASK use by code. Source-only codes (constants,
//! SCC, VCCZ, EXECZ, LDS_DIRECT, apertures) are not recorded.
//!
//! A register symbol ([`Resolver::register_symbol`]) uses the same convention: an
//! `Sgpr` range's `first` is the scalar operand code, so `x = %vcc` is `{Sgpr, 106, 2}`.

use std::borrow::Cow;

use gcn_syntax::ast::{self, AstNode};
use gcn_syntax::{ClrxLanguage, SyntaxKind, SyntaxNode, SyntaxToken, TextRange, TextSize};
use rowan::{GreenNodeData, Language, NodeOrToken};

use smallvec::SmallVec;

use super::tree;
use super::{
    EncodeError, EncodeErrorKind, EncodeWarning, Encoded, Fixup, FixupKind, RegFile, RegRange,
    RegUse, RegUses, Resolver, Target, Value, Words,
};
use crate::arch::{Generation, SpecialReg};
use crate::table::ValueType;

/// Result of the helpers: one error about one place.
pub type Result<T> = std::result::Result<T, EncodeError>;

/// The range of an expression in the source.
pub fn range_of<E: OperandSyntax + ?Sized>(expr: &E) -> TextRange {
    expr.range()
}

/// Where a message about an operand's value points: after the `@` of `@expr`.
fn value_range_of<E: OperandSyntax + ?Sized>(e: &E) -> TextRange {
    if e.kind() == SyntaxKind::AT_EXPR {
        super::value_range(&e.expr())
    } else {
        e.range()
    }
}

// ---------------------------------------------------------------------------------------
// Registers
// ---------------------------------------------------------------------------------------

/// What a parsed register is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RegKind {
    /// `vN`, `v[a:b]`.
    Vgpr,
    /// `sN`, `s[a:b]`.
    Sgpr,
    /// `ttmpN`, `ttmp[a:b]`.
    Ttmp,
    /// A named scalar register with a code below 128: VCC, EXEC, M0, TBA, TMA,
    /// FLAT_SCRATCH, XNACK_MASK, NULL (and their halves).
    Special(SpecialReg),
    /// A source-only code (128..=255): SCC, VCCZ, EXECZ, the apertures, POPS_EXITING_WAVE_ID.
    /// Accepted for operands of any register count, as clrxasm does.
    SrcOnly(SpecialReg),
    /// LDS_DIRECT (code 254): vector-ALU SRC0 only.
    LdsDirect,
    /// An inline constant named through a register symbol (`x = %-12`, `x = %0.5`):
    /// code 128..=208 or 240..=248. Accepted where inline constants are, for any count.
    Const,
}

/// A register (range) operand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reg {
    /// 9-bit operand code: 0..=127 scalar registers, 128..=255 source-only codes,
    /// 256 + n for `vN`.
    pub code: u16,
    /// Number of registers (1 for source-only codes).
    pub count: u16,
    pub kind: RegKind,
    /// Where it was written.
    pub range: TextRange,
    /// Named through a register symbol (`x`, `x[a:b]`): a source-only code taken this way
    /// must have the operand's count, and an indexed constant `[0]` or `[0:count-1]`.
    pub from_symbol: bool,
}

impl Reg {
    pub fn is_vgpr(&self) -> bool {
        self.kind == RegKind::Vgpr
    }
    /// SGPRs, TTMPs and named scalar registers (codes below 128).
    pub fn is_scalar(&self) -> bool {
        matches!(
            self.kind,
            RegKind::Sgpr | RegKind::Ttmp | RegKind::Special(_)
        )
    }
    /// The VGPR number (`code - 256`); meaningful for VGPRs only.
    pub fn vgpr(&self) -> u8 {
        (self.code.wrapping_sub(256) & 0xff) as u8
    }
    /// The low 8 bits of the code: the SSRC/SDST field value of scalar operands, the
    /// VDST/VADDR/VDATA field value of VGPRs.
    pub fn code8(&self) -> u8 {
        (self.code & 0xff) as u8
    }
    /// VCC (or VCC_LO alone when `count` is 1).
    pub fn is_vcc(&self) -> bool {
        self.kind == RegKind::Special(SpecialReg::Vcc) && self.code == 106
    }
    pub fn is_m0(&self) -> bool {
        self.kind == RegKind::Special(SpecialReg::M0)
    }
    /// The register range for [`Encoded::regs`], if recorded (see the module docs).
    pub fn reg_range(&self) -> Option<RegRange> {
        match self.kind {
            RegKind::Vgpr => Some(RegRange {
                file: RegFile::Vgpr,
                first: self.code - 256,
                count: self.count,
            }),
            RegKind::Sgpr | RegKind::Ttmp | RegKind::Special(_) => Some(RegRange {
                file: RegFile::Sgpr,
                first: self.code,
                count: self.count,
            }),
            RegKind::SrcOnly(_) | RegKind::LdsDirect | RegKind::Const => None,
        }
    }

    /// The range a register symbol (`x = %…`) holds for this register: like
    /// [`Reg::reg_range`], and source-only registers and constants as `Sgpr` ranges of
    /// one register at their operand code (128..=255).
    pub fn symbol_range(&self) -> RegRange {
        match self.kind {
            RegKind::Vgpr => RegRange {
                file: RegFile::Vgpr,
                first: self.code - 256,
                count: self.count,
            },
            _ => RegRange {
                file: RegFile::Sgpr,
                first: self.code,
                count: self.count,
            },
        }
    }
}

/// How a scalar register range must be aligned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Align {
    /// Scalar instructions: pairs aligned to 2, four or more registers aligned to 4.
    Scalar,
    /// Vector instructions: an SGPR range must not cross a line of 4 SGPRs.
    Vector,
    /// No rule.
    None,
}

/// Named registers: (name, register, offset in it, count).
const SPECIAL_NAMES: &[(&str, SpecialReg, u8, u8)] = &[
    ("vcc", SpecialReg::Vcc, 0, 2),
    ("vcc_lo", SpecialReg::Vcc, 0, 1),
    ("vcc_hi", SpecialReg::Vcc, 1, 1),
    ("exec", SpecialReg::Exec, 0, 2),
    ("exec_lo", SpecialReg::Exec, 0, 1),
    ("exec_hi", SpecialReg::Exec, 1, 1),
    ("m0", SpecialReg::M0, 0, 1),
    ("null", SpecialReg::Null, 0, 1),
    ("tba", SpecialReg::Tba, 0, 2),
    ("tba_lo", SpecialReg::Tba, 0, 1),
    ("tba_hi", SpecialReg::Tba, 1, 1),
    ("tma", SpecialReg::Tma, 0, 2),
    ("tma_lo", SpecialReg::Tma, 0, 1),
    ("tma_hi", SpecialReg::Tma, 1, 1),
    ("flat_scratch", SpecialReg::FlatScratch, 0, 2),
    ("flat_scratch_lo", SpecialReg::FlatScratch, 0, 1),
    ("flat_scratch_hi", SpecialReg::FlatScratch, 1, 1),
    ("xnack_mask", SpecialReg::XnackMask, 0, 2),
    ("xnack_mask_lo", SpecialReg::XnackMask, 0, 1),
    ("xnack_mask_hi", SpecialReg::XnackMask, 1, 1),
    ("scc", SpecialReg::Scc, 0, 1),
    ("src_scc", SpecialReg::Scc, 0, 1),
    ("vccz", SpecialReg::Vccz, 0, 1),
    ("src_vccz", SpecialReg::Vccz, 0, 1),
    ("execz", SpecialReg::Execz, 0, 1),
    ("src_execz", SpecialReg::Execz, 0, 1),
    ("lds", SpecialReg::LdsDirect, 0, 1),
    ("lds_direct", SpecialReg::LdsDirect, 0, 1),
    ("src_lds_direct", SpecialReg::LdsDirect, 0, 1),
    ("shared_base", SpecialReg::SrcSharedBase, 0, 1),
    ("src_shared_base", SpecialReg::SrcSharedBase, 0, 1),
    ("shared_limit", SpecialReg::SrcSharedLimit, 0, 1),
    ("src_shared_limit", SpecialReg::SrcSharedLimit, 0, 1),
    ("private_base", SpecialReg::SrcPrivateBase, 0, 1),
    ("src_private_base", SpecialReg::SrcPrivateBase, 0, 1),
    ("private_limit", SpecialReg::SrcPrivateLimit, 0, 1),
    ("src_private_limit", SpecialReg::SrcPrivateLimit, 0, 1),
    ("pops_exiting_wave_id", SpecialReg::PopsExitingWaveId, 0, 1),
    (
        "src_pops_exiting_wave_id",
        SpecialReg::PopsExitingWaveId,
        0,
        1,
    ),
];

/// The error for a constant register symbol (`x = %-12`) indexed other than `x[0]` or
/// `x[0:n-1]` (n: the operand's register count).
const CONST_SYMBOL_RANGE: &str =
    "a constant register symbol takes only `[0]` or `[0:n-1]` (n: the operand's register count)";

/// `s`, `v`, `ttmp` (any case) alone or with a number (`s5`): the register file and the
/// number. Numbers too big for `u32` become `u32::MAX` (out of range for any file).
fn register_file_name(name: &str) -> Option<(RegKind, Option<u32>)> {
    let bytes = name.as_bytes();
    let (kind, prefix) = match bytes.first()? {
        b's' | b'S' => (RegKind::Sgpr, 1),
        b'v' | b'V' => (RegKind::Vgpr, 1),
        _ if bytes.len() >= 4 && bytes[..4].eq_ignore_ascii_case(b"ttmp") => (RegKind::Ttmp, 4),
        _ => return None,
    };
    let digits = &bytes[prefix..];
    if digits.is_empty() {
        return Some((kind, None));
    }
    // One pass: stop at the first non-digit; saturate past `u32` (out of range anyway).
    let mut number = 0u32;
    for &d in digits {
        if !d.is_ascii_digit() {
            return None;
        }
        number = number.saturating_mul(10).saturating_add((d - b'0') as u32);
    }
    Some((kind, Some(number)))
}

fn special_by_name(name: &str) -> Option<(SpecialReg, u8, u8)> {
    SPECIAL_NAMES
        .iter()
        .find(|(n, ..)| n.eq_ignore_ascii_case(name))
        .map(|&(_, r, o, c)| (r, o, c))
}

/// A register range of the right kind but the wrong size: `required 2 scalar registers, not 1`.
fn wrong_count(required: u32, kind: &str, given: u16) -> String {
    format!(
        "required {required} {kind} register{}, not {given}",
        plural(required)
    )
}

fn plural(n: u32) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

// ---------------------------------------------------------------------------------------
// Immediates
// ---------------------------------------------------------------------------------------

/// Floating-point literal precision, from its suffix (`h`, `s`, `l`) or the operand type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FloatKind {
    Half,
    Single,
    /// Double: a 32-bit field takes the high half.
    Double,
}

/// A floating-point literal's value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FloatLit {
    pub value: f64,
    /// The value rounded once from the text to single precision.
    pub single: f32,
    /// `h`, `s` or `l` written after the number.
    pub suffix: Option<FloatKind>,
}

impl FloatLit {
    /// Whether the value rounds past the largest finite number of `kind` (for a double,
    /// of its high 32 bits: 11 exponent and 20 mantissa bits), which the reference's
    /// conversion refuses ("Absolute value of number is too big").
    pub fn too_big(&self, kind: FloatKind) -> bool {
        match kind {
            FloatKind::Half => self.bits(kind) & 0x7c00 == 0x7c00,
            FloatKind::Single => self.single.is_infinite(),
            FloatKind::Double => self.bits(kind) & 0x7ff0_0000 == 0x7ff0_0000,
        }
    }

    /// The bits for a precision: half in the low 16 bits, single, or the high 32 bits
    /// of the double (rounded).
    pub fn bits(&self, kind: FloatKind) -> u32 {
        match kind {
            FloatKind::Half => f64_to_f16(self.value) as u32,
            FloatKind::Single => self.single.to_bits(),
            FloatKind::Double => {
                // Rounded to nearest (even) at 32 bits, as clrxasm does.
                let b = self.value.to_bits();
                let (hi, lo) = ((b >> 32) as u32, b as u32);
                if lo > 0x8000_0000 || (lo == 0x8000_0000 && hi & 1 == 1) {
                    hi.wrapping_add(1)
                } else {
                    hi
                }
            }
        }
    }
}

/// An immediate value as written.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Imm {
    Int(i64),
    Float(FloatLit),
    /// Not known yet: a literal with a fixup.
    Pending,
}

impl Imm {
    /// The 32-bit value for an operand of type `ty` under `rules`: integers truncated,
    /// floats in the suffix's precision or else the operand's ([`FpRules::kind`]).
    /// `None` when pending.
    pub fn bits(&self, ty: ValueType, rules: FpRules) -> Option<u32> {
        match *self {
            Imm::Int(v) => Some(v as u32),
            Imm::Float(f) => Some(f.bits(f.suffix.unwrap_or(rules.kind(ty)))),
            Imm::Pending => None,
        }
    }
}

/// The precision an unsuffixed float literal takes in an operand of type `ty`.
pub fn float_kind_of(ty: ValueType) -> FloatKind {
    match ty {
        ValueType::F16 => FloatKind::Half,
        ValueType::F64 => FloatKind::Double,
        _ => FloatKind::Single,
    }
}

/// Which float-literal rules apply: clrxasm's (the default), or CLRX 0.1.2's
/// (`--buggyFPLit`, `.buggyfplit`), as `GCNAsmUtils::parseOperand` chooses them with
/// `asmr.buggyFPLit` (amdasm/GCNAsmHelpers.cpp).
///
/// - Default: an unsuffixed float takes the operand's precision (half for `f16`, the
///   high half of the double for 64-bit operands, single otherwise), and becomes an
///   inline constant (0.0, ±0.5, ±1.0, ±2.0, ±4.0, 1/(2*pi) on GCN 1.2+) only when it
///   is written in that precision: `2.0` and `2.0l` on an `f64` operand are code 244,
///   `2.0s` there is a literal 0x40000000, as `1.0h` on an `f32` operand is a literal.
/// - Buggy: there are no double literals without the `l` suffix (64-bit operands read
///   floats as single precision), a single-precision value becomes an inline constant
///   whatever the operand's type, a half one only when it is 0, a double one never.
///
/// Under both, an integer (`0x40000000`, an expression) is an inline constant only from
/// -16 to 64: its bits are never read as a float constant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct FpRules {
    pub buggy: bool,
}

impl FpRules {
    /// The precision of an unsuffixed float literal in an operand of type `ty`.
    pub fn kind(self, ty: ValueType) -> FloatKind {
        match float_kind_of(ty) {
            FloatKind::Double if self.buggy => FloatKind::Single,
            kind => kind,
        }
    }
}

/// The inline-constant code for an immediate in an operand of type `ty` on `gen`
/// under `rules`, or `None` when it needs a literal (see [`FpRules`]).
///
/// Integers -16..=64 are codes 128..=208 and no other integer is a constant. A float
/// literal is 128 when its bits are 0, else one of 0.5, -0.5, 1.0, -1.0, 2.0, -2.0,
/// 4.0, -4.0 (240..=247) and 1/(2*pi) (248, GCN 1.2+) in its own precision.
pub fn inline_constant(imm: &Imm, ty: ValueType, gen: Generation, rules: FpRules) -> Option<u16> {
    let f = match *imm {
        Imm::Int(v) if (0..=64).contains(&v) => return Some(128 + v as u16),
        Imm::Int(v) if (-16..0).contains(&v) => return Some((192 - v) as u16),
        Imm::Int(_) | Imm::Pending => return None,
        Imm::Float(f) => f,
    };
    let kind = f.suffix.unwrap_or(rules.kind(ty));
    let bits = f.bits(kind);
    let shortened = if rules.buggy {
        // CLRX 0.1.2: single precision always, half only for 0, double never.
        match kind {
            FloatKind::Single => true,
            FloatKind::Half => bits == 0,
            FloatKind::Double => false,
        }
    } else {
        kind == rules.kind(ty)
    };
    if !shortened {
        return None;
    }
    if bits == 0 {
        return Some(128);
    }
    let table: &[u32; 9] = match kind {
        FloatKind::Half => &[
            0x3800, 0xb800, 0x3c00, 0xbc00, 0x4000, 0xc000, 0x4400, 0xc400, 0x3118,
        ],
        FloatKind::Double => &[
            0x3fe0_0000,
            0xbfe0_0000,
            0x3ff0_0000,
            0xbff0_0000,
            0x4000_0000,
            0xc000_0000,
            0x4010_0000,
            0xc010_0000,
            0x3fc4_5f30,
        ],
        FloatKind::Single => &[
            0x3f00_0000,
            0xbf00_0000,
            0x3f80_0000,
            0xbf80_0000,
            0x4000_0000,
            0xc000_0000,
            0x4080_0000,
            0xc080_0000,
            0x3e22_f983,
        ],
    };
    let i = table.iter().position(|&t| t == bits)?;
    if i == 8 && gen < Generation::Gcn1_2 {
        return None;
    }
    Some(240 + i as u16)
}

/// Parses the text of a FLOAT_NUMBER token (decimal or `0x` hex float, optional
/// `h`/`s`/`l` suffix).
pub fn parse_float(text: &str) -> Option<FloatLit> {
    let (body, suffix) = match text.as_bytes().last()? {
        b'h' | b'H' => (&text[..text.len() - 1], Some(FloatKind::Half)),
        b's' | b'S' => (&text[..text.len() - 1], Some(FloatKind::Single)),
        b'l' | b'L' => (&text[..text.len() - 1], Some(FloatKind::Double)),
        _ => (text, None),
    };
    let hex =
        body.len() > 2 && body.as_bytes()[0] == b'0' && matches!(body.as_bytes()[1], b'x' | b'X');
    if hex {
        let value = parse_hex_float(&body[2..])?;
        return Some(FloatLit {
            value,
            single: value as f32,
            suffix,
        });
    }
    // An exponent marker needs digits ("1.5e" is refused, as by the reference).
    let value: f64 = body.parse().ok()?;
    let single: f32 = body.parse().ok()?;
    Some(FloatLit {
        value,
        single,
        suffix,
    })
}

fn parse_hex_float(s: &str) -> Option<f64> {
    let (mant, exp) = match s.find(['p', 'P']) {
        Some(i) => (&s[..i], &s[i + 1..]),
        None => (s, ""),
    };
    let exp: i32 = if exp.is_empty() { 0 } else { exp.parse().ok()? };
    let mut value = 0f64;
    let mut scale = 0i32;
    let mut seen_dot = false;
    let mut any = false;
    for c in mant.chars() {
        if c == '.' {
            if seen_dot {
                return None;
            }
            seen_dot = true;
            continue;
        }
        let d = c.to_digit(16)?;
        any = true;
        value = value * 16.0 + d as f64;
        if seen_dot {
            scale -= 4;
        }
    }
    if !any {
        return None;
    }
    Some(value * 2f64.powi(scale.saturating_add(exp)))
}

/// Rounds a double to half precision (round to nearest even), as bits.
pub fn f64_to_f16(v: f64) -> u16 {
    let bits = v.to_bits();
    let sign = ((bits >> 48) & 0x8000) as u16;
    let exp = ((bits >> 52) & 0x7ff) as i32;
    let mant = bits & 0x000f_ffff_ffff_ffff;
    if exp == 0x7ff {
        return sign | 0x7c00 | if mant != 0 { 0x200 } else { 0 };
    }
    let e = exp - 1023 + 15;
    if e >= 31 {
        return sign | 0x7c00;
    }
    if e <= 0 {
        // Subnormal (or zero): value = mant_full * 2^(exp-1075); unit = 2^-24.
        if e < -10 {
            return sign;
        }
        let full = mant | (1u64 << 52);
        let shift = (1 - e + 42) as u32; // bits to drop so the unit is 2^-24
        let q = full >> shift;
        let rem = full & ((1u64 << shift) - 1);
        let half = 1u64 << (shift - 1);
        let q = if rem > half || (rem == half && q & 1 == 1) {
            q + 1
        } else {
            q
        };
        return sign | q as u16;
    }
    let q = mant >> 42;
    let rem = mant & ((1u64 << 42) - 1);
    let half = 1u64 << 41;
    let mut r = ((e as u64) << 10) | q;
    if rem > half || (rem == half && q & 1 == 1) {
        r += 1; // may carry into the exponent, up to infinity: right
    }
    sign | r as u16
}

// ---------------------------------------------------------------------------------------
// Sources
// ---------------------------------------------------------------------------------------

/// What a source operand accepts; see [`Cx::src`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SrcSpec {
    /// Register count of the operand (1, 2, ...).
    pub regs: u8,
    pub ty: ValueType,
    pub vgpr: bool,
    /// SGPRs, TTMPs, named scalar registers and source-only codes (SCC, VCCZ, ...).
    pub sgpr: bool,
    pub inline: bool,
    pub literal: bool,
    pub lds_direct: bool,
    pub align: Align,
    /// Encode every constant as a literal (`lit()` does this for one operand; scalar
    /// instructions written with `_e64` do it for all).
    pub force_literal: bool,
    /// Error message when a literal is needed but not allowed.
    pub literal_error: &'static str,
}

impl SrcSpec {
    /// SSRC of a scalar instruction: SGPRs, specials, constants, a literal.
    pub const fn scalar(regs: u8, ty: ValueType) -> SrcSpec {
        SrcSpec {
            regs,
            ty,
            vgpr: false,
            sgpr: true,
            inline: true,
            literal: true,
            lds_direct: false,
            align: Align::Scalar,
            force_literal: false,
            literal_error: "a literal is not allowed here",
        }
    }

    /// A vector-ALU source: VGPRs, SGPRs, constants, a literal and LDS_DIRECT; narrow
    /// it with the builder methods.
    /// A 64-bit integer operand reads an unsuffixed float literal as a double, as a
    /// 64-bit float one does (clrxasm's `correctOpType`).
    pub const fn vector(regs: u8, ty: ValueType) -> SrcSpec {
        SrcSpec {
            regs,
            ty: if regs == 2 && matches!(ty, ValueType::Int) {
                ValueType::F64
            } else {
                ty
            },
            vgpr: true,
            sgpr: true,
            inline: true,
            literal: true,
            lds_direct: true,
            align: Align::Vector,
            force_literal: false,
            literal_error: "a literal is not allowed here",
        }
    }

    /// VGPRs only.
    pub const fn vgpr_only(regs: u8) -> SrcSpec {
        SrcSpec {
            regs,
            ty: ValueType::Int,
            vgpr: true,
            sgpr: false,
            inline: false,
            literal: false,
            lds_direct: false,
            align: Align::None,
            force_literal: false,
            literal_error: "a literal is not allowed here",
        }
    }

    pub const fn no_literal(mut self, message: &'static str) -> SrcSpec {
        self.literal = false;
        self.literal_error = message;
        self
    }
    pub const fn no_lds_direct(mut self) -> SrcSpec {
        self.lds_direct = false;
        self
    }
    pub const fn force_literal(mut self, on: bool) -> SrcSpec {
        self.force_literal = on;
        self
    }
}

/// What a source operand became.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SrcKind {
    Reg(Reg),
    /// Inline constant (code 128..=208 or 240..=248).
    Inline,
    /// Literal (code 255); the value is in the instruction's literal slot.
    Literal,
}

/// A parsed source operand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Src {
    /// The 9-bit operand code (255 for a literal, 256 + n for `vN`).
    pub code: u16,
    pub kind: SrcKind,
    pub range: TextRange,
}

impl Src {
    pub fn is_literal(&self) -> bool {
        self.kind == SrcKind::Literal
    }
    pub fn is_vgpr(&self) -> bool {
        matches!(self.kind, SrcKind::Reg(r) if r.is_vgpr())
    }
    /// A scalar register read through the constant bus (SGPR, TTMP, VCC, M0, EXEC, ...;
    /// not the source-only codes).
    pub fn is_scalar_reg(&self) -> bool {
        matches!(self.kind, SrcKind::Reg(r) if r.is_scalar())
    }
    pub fn reg(&self) -> Option<Reg> {
        match self.kind {
            SrcKind::Reg(r) => Some(r),
            _ => None,
        }
    }
    pub fn code8(&self) -> u8 {
        (self.code & 0xff) as u8
    }
}

/// Operand modifiers written around a source: `-x`, `|x|`, `abs(x)`, `neg(x)`, `sext(x)`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SrcMods {
    pub abs: bool,
    pub neg: bool,
    pub sext: bool,
}

impl SrcMods {
    pub fn any(&self) -> bool {
        self.abs || self.neg || self.sext
    }
}

// ---------------------------------------------------------------------------------------
// Instruction items
// ---------------------------------------------------------------------------------------

/// An instruction's operands (expressions, with their ranges) and modifiers.
///
/// Stored inline: an instruction has a handful of each, and this is built for every
/// instruction assembled.
#[derive(Debug, Clone, Default)]
pub struct Items<'a> {
    pub operands: SmallVec<[InstrOperand<'a>; 6]>,
    pub modifiers: SmallVec<[ModifierRef<'a>; 4]>,
    /// The first misplaced comma: where an operand lacks the one before it, or where
    /// one comes before a modifier; and which of the two.
    comma_problem: Option<(TextSize, &'static str)>,
}

impl<'a> Items<'a> {
    /// Reads the items of `instr` into `self` (emptied first) from `green`, the
    /// instruction's green node, which the caller keeps while the items live (an
    /// immutable tree's own, or a mutable tree's copy): syntax nodes are made only when
    /// needed. The encoders fill their own `Items` rather than have a few hundred bytes
    /// of inline storage copied out of a result.
    pub fn read(&mut self, instr: &'a ast::Instruction, green: &'a GreenNodeData) -> Result<()> {
        self.operands.clear();
        self.modifiers.clear();
        self.comma_problem = None;
        let instr = instr.syntax();
        let mut offset = instr.text_range().start();
        let mut list = None;
        for child in green.children() {
            let len = child.text_len();
            if let Some(node) = child
                .into_node()
                .filter(|n| n.kind() == tree::raw(SyntaxKind::OPERAND_LIST))
            {
                list = Some((node, TextRange::at(offset, len)));
                break;
            }
            offset += len;
        }
        let Some((list_green, list_range)) = list else {
            return Ok(());
        };
        let mut offset = list_range.start();
        // The parser takes an operand written after another without a comma, and a
        // modifier after a comma (so that the rest of the list still parses); the
        // reference requires the one and refuses the other.
        let mut first = true;
        let mut comma: Option<TextSize> = None;
        for child in list_green.children() {
            let start = offset;
            offset += child.text_len();
            let node = match child {
                NodeOrToken::Node(node) => node,
                NodeOrToken::Token(token) => {
                    if kind_of_token(token) == SyntaxKind::COMMA {
                        comma = comma.or(Some(start));
                    }
                    continue;
                }
            };
            let range = TextRange::new(start, offset);
            let kind = kind_of(node);
            let item = ListItem {
                green: node,
                kind,
                range,
                instr,
                list_range,
            };
            if ast::Modifier::can_cast(kind) {
                let Some((name, _)) = tree::first_token(node, SyntaxKind::NAME) else {
                    return Err(EncodeError::new(range, "expected a modifier"));
                };
                // `s_add_u32 s1, s2 s3`: the parser made the bare register name after an
                // operand a flag; it is an operand whose comma is missing (`lds` is
                // both a register and a MUBUF flag).
                let bare = node.children().count() == 1;
                if bare && !first && comma.is_none() && looks_like_register(name.text()) {
                    self.note_comma_problem(start, MISSING_COMMA);
                } else if let Some(at) = comma.filter(|_| !first) {
                    self.note_comma_problem(at, COMMA_BEFORE_MODIFIER);
                }
                self.modifiers.push(ModifierRef { item });
            } else if ast::Operand::can_cast(kind) {
                if !first && comma.is_none() {
                    self.note_comma_problem(start, MISSING_COMMA);
                }
                self.operands.push(InstrOperand { item, comma });
            }
            first = false;
            comma = None;
        }
        Ok(())
    }

    fn note_comma_problem(&mut self, at: TextSize, message: &'static str) {
        if self.comma_problem.is_none() {
            self.comma_problem = Some((at, message));
        }
    }

    /// Checks that a comma separates each operand from the one before and that none
    /// comes before a modifier, as the reference requires (the parser takes both, so
    /// that the rest of the list parses); only `s_waitcnt`'s counters may be joined by
    /// spaces.
    pub fn require_commas(&self) -> Result<()> {
        match self.comma_problem {
            Some((at, message)) => Err(EncodeError::new(TextRange::empty(at), message)),
            None => Ok(()),
        }
    }

    /// Checks the number of operands is within `min..=max`; the error points at the
    /// first extra operand or at `whole` (the instruction) when operands are missing.
    pub fn expect_count(&self, min: usize, max: usize, whole: TextRange) -> Result<()> {
        expect_operand_count(&self.operands, min, max, whole)
    }
}

/// [`Items::expect_count`] for some of an instruction's operands.
pub fn expect_operand_count(
    operands: &[InstrOperand],
    min: usize,
    max: usize,
    whole: TextRange,
) -> Result<()> {
    let n = operands.len();
    let count_error = |range, message| EncodeError {
        kind: EncodeErrorKind::OperandCount,
        ..EncodeError::new(range, message)
    };
    if n > max {
        return Err(count_error(
            range_of(&operands[max]),
            format!("too many operands: expected {max}"),
        ));
    }
    if n < min {
        let at = operands
            .last()
            .map(range_of)
            .map_or(whole, |r| TextRange::new(r.end(), whole.end()));
        return Err(count_error(
            if at.is_empty() { whole } else { at },
            format!("expected {min} operand{}, found {n}", plural(min as u32)),
        ));
    }
    Ok(())
}

fn kind_of(node: &GreenNodeData) -> SyntaxKind {
    ClrxLanguage::kind_from_raw(node.kind())
}

const MISSING_COMMA: &str = "expected `,` before the operand";
pub(crate) const COMMA_BEFORE_MODIFIER: &str =
    "unexpected `,`: modifiers follow the operands after a space, without a comma";

fn looks_like_register(name: &str) -> bool {
    gcn_syntax::is_register_name(name, false) && !name.eq_ignore_ascii_case("lds")
}

fn kind_of_token(token: &rowan::GreenTokenData) -> SyntaxKind {
    ClrxLanguage::kind_from_raw(token.kind())
}

/// The child node of `parent` written at `range`, of `kind`.
fn child_at(parent: &SyntaxNode, range: TextRange, kind: SyntaxKind) -> Option<SyntaxNode> {
    let is_it = |n: &SyntaxNode| n.text_range() == range && n.kind() == kind;
    // A binary search over the children (one node made), then a scan for safety.
    match parent
        .child_or_token_at_range(range)
        .and_then(|e| e.into_node())
        .filter(is_it)
    {
        Some(node) => Some(node),
        None => parent.children().find(is_it),
    }
}

/// An item of an instruction's operand list (an operand or a modifier): its green node
/// and where it is written, enough to make its syntax node when one is needed.
///
/// Making a syntax node allocates (one for the list, one for the item); registers,
/// integer literals and modifier names, most of what an instruction holds, are read
/// from the green node alone.
#[derive(Debug, Clone, Copy)]
struct ListItem<'a> {
    green: &'a GreenNodeData,
    kind: SyntaxKind,
    range: TextRange,
    /// The instruction, and where its operand list is.
    instr: &'a SyntaxNode,
    list_range: TextRange,
}

impl ListItem<'_> {
    fn make_node(&self) -> SyntaxNode {
        child_at(self.instr, self.list_range, SyntaxKind::OPERAND_LIST)
            .and_then(|list| child_at(&list, self.range, self.kind))
            .expect("an operand list item is a child node of its operand list")
    }
}

/// An instruction operand, whose expression node ([`OperandSyntax::expr`]) is made
/// each time it is asked for: [`OperandSyntax`] reads registers and integer literals
/// without it, and the operand lists, made for every instruction, hold nothing to drop.
#[derive(Debug, Clone, Copy)]
pub struct InstrOperand<'a> {
    item: ListItem<'a>,
    /// Where the comma before it is, if one is.
    comma: Option<TextSize>,
}

impl InstrOperand<'_> {
    /// Where the comma written before the operand is (none for the first, or for one
    /// written after another without a comma).
    pub fn comma_before(&self) -> Option<TextSize> {
        self.comma
    }

    fn make_expr(&self) -> ast::Expr {
        ast::Expr::cast(self.item.make_node()).expect("an operand is an expression node")
    }
}

/// An expression as the register and source parsers read it: an [`ast::Expr`], or an
/// [`InstrOperand`] whose syntax node is made only when a shape needs it.
pub trait OperandSyntax {
    /// The expression's syntax node (made on each call for an [`InstrOperand`]: keep
    /// it rather than ask twice).
    fn expr(&self) -> Cow<'_, ast::Expr>;
    fn kind(&self) -> SyntaxKind;
    fn range(&self) -> TextRange;
    /// The green node: kinds, tokens and texts, read without allocating.
    fn green(&self) -> Cow<'_, GreenNodeData>;
}

impl OperandSyntax for ast::Expr {
    fn expr(&self) -> Cow<'_, ast::Expr> {
        Cow::Borrowed(self)
    }
    fn kind(&self) -> SyntaxKind {
        self.syntax().kind()
    }
    fn range(&self) -> TextRange {
        self.syntax().text_range()
    }
    fn green(&self) -> Cow<'_, GreenNodeData> {
        self.syntax().green()
    }
}

impl OperandSyntax for InstrOperand<'_> {
    fn expr(&self) -> Cow<'_, ast::Expr> {
        Cow::Owned(self.make_expr())
    }
    fn kind(&self) -> SyntaxKind {
        self.item.kind
    }
    fn range(&self) -> TextRange {
        self.item.range
    }
    fn green(&self) -> Cow<'_, GreenNodeData> {
        Cow::Borrowed(self.item.green)
    }
}

/// A modifier (`glc`, `offset:16`, `op_sel:[0,1]`): its name is read from the green
/// node, its syntax node is made when asked for.
#[derive(Debug, Clone, Copy)]
pub struct ModifierRef<'a> {
    item: ListItem<'a>,
}

impl<'a> ModifierRef<'a> {
    /// The modifier's syntax node (made on each call: keep it rather than ask twice).
    pub fn node(&self) -> ast::Modifier {
        ast::Modifier::cast(self.item.make_node()).expect("a modifier node")
    }
    /// The name as written.
    pub fn name(&self) -> &str {
        tree::first_token(self.item.green, SyntaxKind::NAME).map_or("", |(t, _)| t.text())
    }
    /// Case-insensitive name comparison (`name` lowercase).
    pub fn is(&self, name: &str) -> bool {
        self.name().eq_ignore_ascii_case(name)
    }
    pub fn range(&self) -> TextRange {
        self.item.range
    }
    /// The values after each `:` (none for a flag).
    pub fn values(&self) -> impl Iterator<Item = ast::Expr> {
        self.node().values()
    }
    /// Whether the modifier is its name alone: no `:`, no value.
    pub fn is_bare(&self) -> bool {
        self.item.green.children().all(|c| {
            c.as_token()
                .is_some_and(|t| t.kind() != tree::raw(SyntaxKind::COLON))
        })
    }
    /// The single value (`name:value`), or `None` for a flag; an error for
    /// `name:a:b`.
    pub fn value(&self) -> Result<Option<ast::Expr>> {
        // A flag (no value node) needs no syntax node.
        if self.item.green.children().all(|c| c.as_node().is_none()) {
            return Ok(None);
        }
        let mut it = self.node().values();
        let first = it.next();
        if it.next().is_some() {
            return Err(EncodeError::new(
                self.range(),
                format!("modifier `{}` takes one value", self.name()),
            ));
        }
        Ok(first)
    }
    /// [`ModifierRef::value`] read from the green node: the value's syntax node is made
    /// only if needed (a pending value's fixup, a value that is no integer literal).
    pub fn value_syntax(&self) -> Result<Option<ModValue<'_, 'a>>> {
        let mut offset = self.item.range.start();
        let mut value = None;
        for child in self.item.green.children() {
            let range = TextRange::at(offset, child.text_len());
            offset += child.text_len();
            let Some(node) = child
                .into_node()
                .filter(|n| ast::Operand::can_cast(kind_of(n)))
            else {
                continue;
            };
            if value.is_some() {
                return Err(EncodeError::new(
                    self.range(),
                    format!("modifier `{}` takes one value", self.name()),
                ));
            }
            value = Some(ModValue {
                modifier: self,
                green: node,
                range,
            });
        }
        Ok(value)
    }
    /// `name:N` written as the name, a colon and an integer literal, nothing else: `N`
    /// (as [`Cx::known`] reads the value) and where the literal is written. `None` for
    /// any other shape.
    pub fn plain_int_value(&self) -> Option<(i64, TextRange)> {
        let mut children = self.item.green.children();
        let name = children
            .next()?
            .into_token()
            .filter(|t| t.kind() == tree::raw(SyntaxKind::NAME))?;
        let colon = children
            .next()?
            .into_token()
            .filter(|t| t.kind() == tree::raw(SyntaxKind::COLON))?;
        let value = children.next()?.into_node()?;
        if children.next().is_some() {
            return None;
        }
        let start = self.item.range.start() + name.text_len() + colon.text_len();
        Some((
            tree::int_literal(value)?,
            TextRange::at(start, value.text_len()),
        ))
    }
    /// Where the name is written (the whole modifier when it has none).
    pub fn name_range(&self) -> TextRange {
        match tree::first_token(self.item.green, SyntaxKind::NAME) {
            Some((t, offset)) => TextRange::at(self.item.range.start() + offset, t.text_len()),
            None => self.range(),
        }
    }
    /// "unknown modifier `x`" error at the name, with the encoding's name (`"MUBUF"`)
    /// and the modifiers of `accepted` (those the instruction takes) it may be a slip
    /// for.
    pub fn unknown<'n>(
        &self,
        class: &str,
        accepted: impl IntoIterator<Item = &'n str>,
    ) -> EncodeError {
        unknown_modifier(self.name_range(), class, self.name(), accepted)
    }
    /// "modifier `x` is not allowed here" error.
    pub fn illegal(&self, why: &str) -> EncodeError {
        EncodeError::new(self.range(), format!("modifier `{}` {why}", self.name()))
    }
}

/// The names of `(name, taken)` pairs that are taken: an encoding class's modifiers on
/// a generation, written as a table.
pub(crate) fn taken_names<const N: usize>(
    pairs: [(&'static str, bool); N],
) -> impl Iterator<Item = &'static str> + Clone {
    pairs
        .into_iter()
        .filter_map(|(name, taken)| taken.then_some(name))
}

/// "unknown modifier" error for `name` written at `range` (a modifier, or a bare word
/// taken for one), suggesting the names of `accepted` it may be a slip for.
pub(crate) fn unknown_modifier<'n>(
    range: TextRange,
    class: &str,
    name: &str,
    accepted: impl IntoIterator<Item = &'n str>,
) -> EncodeError {
    let found = crate::suggest::nearest(name, accepted);
    // Modifiers are names in any case: `GLCC` gets `GLC`.
    let found = found.into_iter().map(str::to_string).collect();
    let suggestions = crate::suggest::in_case_of(name, found, |_| true);
    let message = format!("unknown {class} modifier `{name}`");
    EncodeError {
        message: crate::suggest::did_you_mean(message, &suggestions),
        suggestions,
        ..EncodeError::new(range, "")
    }
}

/// The value of a `name:value` modifier (see [`ModifierRef::value_syntax`]).
#[derive(Debug, Clone)]
pub struct ModValue<'m, 'a> {
    modifier: &'m ModifierRef<'a>,
    green: &'m GreenNodeData,
    range: TextRange,
}

impl OperandSyntax for ModValue<'_, '_> {
    fn expr(&self) -> Cow<'_, ast::Expr> {
        let value = self.modifier.value().ok().flatten();
        Cow::Owned(value.expect("a modifier's value_syntax is its value"))
    }
    fn kind(&self) -> SyntaxKind {
        kind_of(self.green)
    }
    fn range(&self) -> TextRange {
        self.range
    }
    fn green(&self) -> Cow<'_, GreenNodeData> {
        Cow::Borrowed(self.green)
    }
}

/// A register peeled out of operand modifiers by [`Cx::peel_plain_src_mods`]: read from
/// its green node; its syntax node is found under the outer operand's when needed.
pub struct PeeledOperand<'o, E: ?Sized> {
    outer: &'o E,
    green: &'o GreenNodeData,
    range: TextRange,
}

impl<E: OperandSyntax + ?Sized> OperandSyntax for PeeledOperand<'_, E> {
    fn expr(&self) -> Cow<'_, ast::Expr> {
        let outer = self.outer.expr();
        let node = outer
            .syntax()
            .descendants()
            .find(|n| n.text_range() == self.range && n.kind() == SyntaxKind::REGISTER)
            .and_then(ast::Expr::cast)
            .expect("a peeled register is under its operand");
        Cow::Owned(node)
    }
    fn kind(&self) -> SyntaxKind {
        SyntaxKind::REGISTER
    }
    fn range(&self) -> TextRange {
        self.range
    }
    fn green(&self) -> Cow<'_, GreenNodeData> {
        Cow::Borrowed(self.green)
    }
}

/// The children of `node` if it has exactly two.
fn two_children(node: &GreenNodeData) -> Option<[tree::Element<'_>; 2]> {
    let mut children = node.children();
    let pair = [children.next()?, children.next()?];
    children.next().is_none().then_some(pair)
}

/// The word an operand is, if it is a bare name (`off`, `mrt0`, `done`, `p10`) or a
/// register-like keyword (`null`, `lds`): its token.
pub fn word_of(expr: &ast::Expr) -> Option<SyntaxToken> {
    match expr {
        ast::Expr::NameRef(n) => n.name_token(),
        ast::Expr::Register(r) if r.range().is_none() => r.name_token(),
        _ => None,
    }
}

/// Whether `expr` is a register name written alone (`vccz`, `m0`, `s5`; not `s[0:1]`,
/// not a register symbol). Where an instruction takes a register or a value, a name that
/// is no register of the right kind is the symbol of that name (the core evaluates such
/// a name as a symbol), as clrxasm reads it.
pub fn is_bare_register_name(expr: &ast::Expr) -> bool {
    matches!(expr, ast::Expr::Register(r) if r.range().is_none() && r.name_token().is_some())
}

/// Whether `expr` is the bare word `word` (case-insensitive).
pub fn is_word<E: OperandSyntax + ?Sized>(expr: &E, word: &str) -> bool {
    // `word_of`, read from the green node: a name, or a register name without `[…]`.
    let green = expr.green();
    let is_name = match expr.kind() {
        SyntaxKind::NAME_REF => true,
        SyntaxKind::REGISTER => tree::child_node(&green, SyntaxKind::REG_RANGE).is_none(),
        _ => false,
    };
    is_name
        && tree::first_token(&green, SyntaxKind::NAME)
            .is_some_and(|(t, _)| t.text().eq_ignore_ascii_case(word))
}

/// The value of an integer literal (`12`, `0x1f`), read from its green node.
fn int_literal<E: OperandSyntax + ?Sized>(expr: &E) -> Option<i64> {
    if expr.kind() != SyntaxKind::LITERAL {
        return None;
    }
    tree::int_literal(&expr.green())
}

/// `name(args…)` calls: the lowercase-compared name and the call.
pub fn call_named<'e>(expr: &'e ast::Expr, name: &str) -> Option<&'e ast::CallExpr> {
    match expr {
        ast::Expr::Call(c)
            if c.name_token()
                .is_some_and(|t| t.text().eq_ignore_ascii_case(name)) =>
        {
            Some(c)
        }
        _ => None,
    }
}

// ---------------------------------------------------------------------------------------
// The encoding context
// ---------------------------------------------------------------------------------------

struct LiteralSlot {
    value: u32,
    /// Set when the value is pending: the fixup's expression.
    pending: Option<ast::Expr>,
}

/// What an instruction's encoder carries: the target, the resolver, and what operands
/// add to the result (register uses, fixups, the literal).
pub struct Cx<'a> {
    pub target: &'a Target,
    pub resolver: &'a mut dyn Resolver,
    pub regs: RegUses,
    pub fixups: Vec<Fixup>,
    warnings: Vec<EncodeWarning>,
    literal: Option<LiteralSlot>,
    /// In `%` values, `s[…]`/`v[…]`/`ttmp[…]` are registers even when a register symbol
    /// of that name exists (in operands the symbol wins), as clrxasm does.
    names_first: bool,
    /// What the resolver said about register symbols named like a register file.
    file_symbols: FileSymbols,
}

/// [`Resolver::register_symbol`] answers for the names of the register files (`s`,
/// `v`, `ttmp`, as written), asked for every `s[…]`/`v[…]` operand: kept for the rest of
/// the instruction, during which no symbol changes.
#[derive(Default)]
struct FileSymbols {
    known: [Option<(&'static str, Option<RegRange>)>; 4],
}

impl FileSymbols {
    fn get(&self, name: &str) -> Option<Option<RegRange>> {
        self.known
            .iter()
            .flatten()
            .find(|(n, _)| *n == name)
            .map(|&(_, sym)| sym)
    }
    /// Remembers the answer for `name` if it is a register file's name and there is room.
    fn remember(&mut self, name: &str, sym: Option<RegRange>) {
        let Some(name) = FILE_NAMES.iter().find(|n| **n == name) else {
            return;
        };
        if let Some(slot) = self.known.iter_mut().find(|k| k.is_none()) {
            *slot = Some((name, sym));
        }
    }
}

/// The register-file names as they may be written (case-insensitive, as register names
/// are; symbols are case-sensitive, so each spelling is its own symbol).
const FILE_NAMES: &[&str] = &["s", "S", "v", "V", "ttmp", "TTMP"];

impl<'a> Cx<'a> {
    pub fn new(target: &'a Target, resolver: &'a mut dyn Resolver) -> Cx<'a> {
        Cx {
            target,
            resolver,
            regs: RegUses::new(),
            fixups: Vec::new(),
            warnings: Vec::new(),
            literal: None,
            names_first: false,
            file_symbols: FileSymbols::default(),
        }
    }

    /// The float-literal rules in force (`Target::buggy_fp_lit`).
    pub fn fp_rules(&self) -> FpRules {
        FpRules {
            buggy: self.target.buggy_fp_lit,
        }
    }

    pub fn gen(&self) -> Generation {
        self.target.gen
    }

    /// The encoded instruction: `words`, then the literal if an operand needs one (its
    /// fixup, if pending, points at that word).
    pub fn finish(mut self, mut words: Words) -> Encoded {
        if let Some(lit) = self.literal.take() {
            if let Some(expr) = lit.pending {
                self.fixups.push(Fixup {
                    word: words.len(),
                    shift: 0,
                    bits: 32,
                    signed: false,
                    kind: FixupKind::Value,
                    expr,
                });
            }
            words.push(lit.value);
        }
        Encoded {
            words,
            fixups: self.fixups,
            regs: self.regs,
            warnings: self.warnings,
            row: None,
        }
    }

    /// A known value for a field of `bits` bits, stored as [`super::fit_field`] says, with
    /// clrxasm's warning at `range` when it does not fit.
    pub fn known_field<E: OperandSyntax + ?Sized>(
        &mut self,
        e: &E,
        value: i64,
        bits: u8,
        signed: bool,
    ) -> u32 {
        self.known_field_at(value_range_of(e), value, bits, signed)
    }

    /// [`Cx::known_field`] for a value written at `range`.
    pub fn known_field_at(&mut self, range: TextRange, value: i64, bits: u8, signed: bool) -> u32 {
        let (field, warning) = super::fit_field(value, bits, signed);
        if let Some(message) = warning {
            self.warn(range, message);
        }
        field
    }

    /// A literal is 32 bits: an integer keeps its low 32, with clrxasm's warning when
    /// it had more.
    pub fn warn_if_wider_than_literal<E: OperandSyntax + ?Sized>(&mut self, imm: &Imm, e: &E) {
        if let Imm::Int(v) = *imm {
            self.known_field(e, v, 32, false);
        }
    }

    /// A warning about the value of `e` (after the `@` of `@expr`, as clrxasm points).
    pub fn warn_value<E: OperandSyntax + ?Sized>(&mut self, e: &E, message: impl Into<String>) {
        self.warn(value_range_of(e), message);
    }

    /// clrxasm's warning for a modifier that sets a field given again (the last counts).
    pub fn warn_repeated(&mut self, m: &ModifierRef) {
        let name = m.name().to_ascii_lowercase();
        self.warn(
            m.range(),
            format!("`{name}` is given twice: the last one counts"),
        );
    }

    /// A warning about `range`; the instruction is still encoded.
    pub fn warn(&mut self, range: TextRange, message: impl Into<String>) {
        self.warnings.push(EncodeWarning {
            range,
            message: message.into(),
        });
    }

    /// Whether an operand already took the literal.
    pub fn has_literal(&self) -> bool {
        self.literal.is_some()
    }

    /// Takes the instruction's one literal for `value` (`None`: pending `expr`). Two
    /// operands may share a literal only with the same known value.
    pub fn set_literal<E: OperandSyntax + ?Sized>(
        &mut self,
        value: Option<u32>,
        expr: &E,
    ) -> Result<()> {
        if let Some(old) = &self.literal {
            if old.pending.is_none() && value == Some(old.value) {
                return Ok(());
            }
            return Err(EncodeError::literal(
                range_of(expr),
                "only one literal can be used in an instruction",
            ));
        }
        self.literal = Some(LiteralSlot {
            value: value.unwrap_or(0),
            pending: if value.is_none() {
                Some(expr.expr().into_owned())
            } else {
                None
            },
        });
        Ok(())
    }

    /// Adds a fixup for a field of the instruction's own words.
    pub fn fixup<E: OperandSyntax + ?Sized>(
        &mut self,
        word: usize,
        shift: u8,
        bits: u8,
        signed: bool,
        kind: FixupKind,
        expr: &E,
    ) {
        self.fixups.push(Fixup {
            word,
            shift,
            bits,
            signed,
            kind,
            expr: expr.expr().into_owned(),
        });
    }

    /// Records a register use.
    pub fn use_reg(&mut self, reg: &Reg, write: bool) {
        if let Some(range) = reg.reg_range() {
            self.regs.push(RegUse { range, write });
        }
    }

    // ---- values ------------------------------------------------------------------

    /// Evaluates an expression through the resolver.
    pub fn eval<E: OperandSyntax + ?Sized>(&mut self, expr: &E) -> Result<Value> {
        // Fast path: plain integer literals need no resolver.
        if let Some(v) = int_literal(expr) {
            return Ok(Value::Known(v));
        }
        match self.resolver.eval(&expr.expr()) {
            Ok(v) => Ok(v),
            Err(m) => Err(EncodeError::new(
                self.resolver
                    .error_range()
                    .unwrap_or_else(|| range_of(expr)),
                m,
            )),
        }
    }

    /// Evaluates an expression that must be known now.
    pub fn known<E: OperandSyntax + ?Sized>(&mut self, expr: &E) -> Result<i64> {
        match self.eval(expr)? {
            Value::Known(v) => Ok(v),
            Value::Pending => Err(EncodeError::new(
                range_of(expr),
                "expression must be known here",
            )),
        }
    }

    /// Refuses a float literal too big for the precision it takes in an operand of type
    /// `ty` ([`FloatLit::too_big`]).
    pub fn check_float(&self, imm: &Imm, ty: ValueType, range: TextRange) -> Result<()> {
        if let Imm::Float(f) = imm {
            let kind = f.suffix.unwrap_or(self.fp_rules().kind(ty));
            if f.too_big(kind) {
                return Err(EncodeError::new(
                    range,
                    "absolute value of the number is too big for its precision",
                ));
            }
        }
        Ok(())
    }

    /// An immediate: a float literal (`1.5`, `-2.0h`, `(0.5)`), or an expression's
    /// value (possibly pending). `lit(…)` is not handled here (see [`Cx::src`]).
    pub fn imm<E: OperandSyntax + ?Sized>(&mut self, expr: &E) -> Result<Imm> {
        if let Some(v) = int_literal(expr) {
            return Ok(Imm::Int(v));
        }
        // Made once for both reads below.
        let syntax = expr.expr();
        if let Some(f) = float_literal(&syntax) {
            return f
                .map(Imm::Float)
                .ok_or_else(|| EncodeError::new(range_of(expr), "invalid floating-point number"));
        }
        Ok(match self.eval(&*syntax)? {
            Value::Known(v) => Imm::Int(v),
            Value::Pending => Imm::Pending,
        })
    }

    // ---- registers ---------------------------------------------------------------

    /// Parses a register operand. `Ok(None)`: not register syntax (a value, a word);
    /// `Err`: register syntax that is wrong (bad range, out of range, missing on this
    /// generation).
    pub fn reg<E: OperandSyntax + ?Sized>(&mut self, expr: &E) -> Result<Option<Reg>> {
        match expr.kind() {
            SyntaxKind::REGISTER => match self.plain_file_reg(&expr.green(), expr.range()) {
                Some(reg) => Ok(Some(reg)),
                None => self.named_reg(expr).map(Some),
            },
            SyntaxKind::REG_INDEX | SyntaxKind::NAME_REF | SyntaxKind::PERCENT_EXPR => {
                self.symbolic_reg(&expr.expr())
            }
            _ => Ok(None),
        }
    }

    /// A register symbol (`x`, `x[a:b]`) or a `%` register.
    fn symbolic_reg(&mut self, expr: &ast::Expr) -> Result<Option<Reg>> {
        match expr {
            ast::Expr::RegIndex(r) => {
                let range = r.syntax().text_range();
                let green = expr.green();
                let Some((name, _)) = tree::first_token(&green, SyntaxKind::NAME) else {
                    return Ok(None);
                };
                let Some(sym) = self.register_symbol(name.text()) else {
                    return Err(EncodeError::new(
                        range,
                        format!("`{}` is not a register", name.text()),
                    ));
                };
                self.indexed_symbol(sym, expr, range).map(Some)
            }
            ast::Expr::NameRef(n) => {
                let Some(name) = n.name_token() else {
                    return Ok(None);
                };
                Ok(self
                    .register_symbol(name.text())
                    .map(|sym| self.symbol_reg(sym, 0, sym.count, n.syntax().text_range())))
            }
            ast::Expr::Percent(p) => match p.expr() {
                Some(e) => self.reg(&e),
                None => Ok(None),
            },
            _ => Ok(None),
        }
    }

    /// `x[a:b]` of a register symbol `x` (`owner`: the `x[a:b]` node).
    fn indexed_symbol<E: OperandSyntax + ?Sized>(
        &mut self,
        sym: RegRange,
        owner: &E,
        range: TextRange,
    ) -> Result<Reg> {
        let (first, last) = self.index_range_of(owner, sym.count as u32, range)?;
        if sym.file == RegFile::Sgpr && sym.first >= 128 {
            let mut reg = self.symbol_reg(sym, 0, 1, range);
            if reg.kind == RegKind::Const {
                // A constant stands for any count: `[0]`, or `[0:n-1]` for an operand of n
                // registers (the operand checks n).
                if first != 0 {
                    return Err(EncodeError::new(range, CONST_SYMBOL_RANGE));
                }
                reg.count = (last + 1).min(u16::MAX as u32) as u16;
                return Ok(reg);
            }
        }
        if last >= sym.count as u32 {
            return Err(EncodeError::new(
                range,
                format!(
                    "register index out of range (0-{})",
                    sym.count.saturating_sub(1)
                ),
            ));
        }
        Ok(self.symbol_reg(sym, first as u16, (last - first + 1) as u16, range))
    }

    /// The register range a `%expr` value names, for register symbols (`x = %s[4:7]`,
    /// `x = %execz`, `x = %-12`, `x = %0.5`): see [`Reg::symbol_range`]; inline
    /// constants are `Sgpr` ranges of one register at their code (128..=208, 240..=248).
    /// In such values `s[…]`, `v[…]` and `ttmp[…]` always name registers.
    pub fn register_value(&mut self, expr: &ast::Expr) -> Result<RegRange> {
        self.names_first = true;
        let reg = self.reg(expr);
        self.names_first = false;
        if let Some(reg) = reg? {
            return Ok(reg.symbol_range());
        }
        let imm = self.imm(expr)?;
        // clrxasm reads the value as an operand of no type (GCNAssembler.cpp,
        // parseRegisterRange: parseOperand with INSTROP_ONLYINLINECONSTS), where floats
        // are single precision: `%0.5` is a constant, `%0.5h` and `%0.5l` are not.
        match inline_constant(&imm, ValueType::Int, self.gen(), self.fp_rules()) {
            Some(code) => Ok(RegRange {
                file: RegFile::Sgpr,
                first: code,
                count: 1,
            }),
            None => Err(EncodeError::new(
                range_of(expr),
                "expected a register or an inline constant",
            )),
        }
    }

    /// [`Resolver::register_symbol`] for a register file's name (`s` of `s[0:1]`).
    fn file_symbol(&mut self, name: &str) -> Option<RegRange> {
        if let Some(known) = self.file_symbols.get(name) {
            return known;
        }
        let sym = self.register_symbol(name);
        self.file_symbols.remember(name, sym);
        sym
    }

    /// [`Resolver::register_symbol`], unless the resolver knows there is none.
    fn register_symbol(&mut self, name: &str) -> Option<RegRange> {
        if !self.resolver.has_register_symbols() {
            return None;
        }
        self.resolver.register_symbol(name)
    }

    fn symbol_reg(&self, sym: RegRange, offset: u16, count: u16, range: TextRange) -> Reg {
        let gen = self.gen();
        match sym.file {
            RegFile::Vgpr => Reg {
                code: 256 + sym.first + offset,
                count,
                kind: RegKind::Vgpr,
                range,
                from_symbol: true,
            },
            RegFile::Sgpr => {
                let code = sym.first + offset;
                let ttmp = gen.special_reg_code(SpecialReg::Ttmp).unwrap_or(112);
                let kind = if (code as u32) < gen.registers().addressable_sgprs {
                    RegKind::Sgpr
                } else if code >= ttmp && code < ttmp + gen.ttmp_count() {
                    RegKind::Ttmp
                } else {
                    special_of_code(gen, code)
                };
                let count = if code >= 128 { 1 } else { count };
                Reg {
                    code,
                    count,
                    kind,
                    range,
                    from_symbol: true,
                }
            }
        }
    }

    /// The `[first:last]` / `[index]` under `owner` (a register or an indexed symbol),
    /// or the whole `count` without one.
    fn index_range_of<E: OperandSyntax + ?Sized>(
        &mut self,
        owner: &E,
        count: u32,
        whole: TextRange,
    ) -> Result<(u32, u32)> {
        let green = owner.green();
        self.index_range_in(
            tree::child_node(&green, SyntaxKind::REG_RANGE),
            owner,
            count,
            whole,
        )
    }

    /// [`Cx::index_range_of`] with the `REG_RANGE` green node (`index`) found already.
    /// Integer-literal indexes are read from it; anything else (and every error) goes
    /// through [`Cx::index_range`].
    fn index_range_in<E: OperandSyntax + ?Sized>(
        &mut self,
        index: Option<&GreenNodeData>,
        owner: &E,
        count: u32,
        whole: TextRange,
    ) -> Result<(u32, u32)> {
        let Some(index) = index else {
            return Ok((0, count.saturating_sub(1)));
        };
        match tree::literal_index(index) {
            Some((a, b)) if (0..=0xffff).contains(&a) && (a..=0xffff).contains(&b) => {
                Ok((a as u32, b as u32))
            }
            _ => {
                let range = owner
                    .expr()
                    .syntax()
                    .children()
                    .find_map(ast::RegRange::cast);
                self.index_range(range, count, whole)
            }
        }
    }

    /// `[first:last]` / `[index]` relative indexes; `None` range means the whole `count`.
    fn index_range(
        &mut self,
        r: Option<ast::RegRange>,
        count: u32,
        whole: TextRange,
    ) -> Result<(u32, u32)> {
        let Some(r) = r else {
            return Ok((0, count.saturating_sub(1)));
        };
        let Some(first) = r.first() else {
            return Err(EncodeError::new(whole, "expected a register number"));
        };
        let a = self.reg_number(&first)?;
        let b = match r.last() {
            Some(last) => self.reg_number(&last)?,
            None => a,
        };
        if b < a {
            return Err(EncodeError::new(
                whole,
                "illegal register range: last is below first",
            ));
        }
        Ok((a, b))
    }

    fn reg_number(&mut self, e: &ast::Expr) -> Result<u32> {
        match self.eval(e)? {
            Value::Known(v) if (0..=0xffff).contains(&v) => Ok(v as u32),
            Value::Known(_) => Err(EncodeError::new(
                range_of(e),
                "register number out of range",
            )),
            Value::Pending => Err(EncodeError::new(
                range_of(e),
                "register number must be known here",
            )),
        }
    }

    /// The common register shapes, `s5`, `v1` and `s[4:7]`, `v[1:2]` with literal
    /// indexes and no register symbol `s`/`v`, read in one pass over the green node;
    /// `None` for any other shape, and for a register out of range: [`Cx::named_reg`]
    /// reads those (and reports their errors). When it returns a register, it is the one
    /// `named_reg` would.
    fn plain_file_reg(&mut self, green: &GreenNodeData, range: TextRange) -> Option<Reg> {
        let (name, index) = tree::plain_register(green)?;
        let (kind, limit) = match name.first()? {
            b's' | b'S' => (RegKind::Sgpr, self.gen().registers().addressable_sgprs),
            b'v' | b'V' => (RegKind::Vgpr, self.gen().registers().max_vgprs),
            _ => return None,
        };
        let (first, last) = match index {
            None => {
                let n = tree::short_decimal(&name[1..])?;
                (n, n)
            }
            // `s[…]` is the symbol `s`, indexed, if there is one.
            Some(_) if name.len() != 1 || self.register_symbol_may_exist() => return None,
            Some(index) => tree::plain_index(index)
                .or_else(|| tree::literal_index(index))
                .filter(|&(a, b)| (0..=0xffff).contains(&a) && (a..=0xffff).contains(&b))?,
        };
        if last >= limit as i64 {
            return None;
        }
        let code = match kind {
            RegKind::Vgpr => 256 + first as u16,
            _ => first as u16,
        };
        let count = (last - first + 1) as u16;
        Some(Reg {
            code,
            count,
            kind,
            range,
            from_symbol: false,
        })
    }

    /// Whether [`Cx::register_symbol`] may find a symbol (`s` of `s[0:1]`): names read as
    /// registers first in `%` values.
    fn register_symbol_may_exist(&self) -> bool {
        !self.names_first && self.resolver.has_register_symbols()
    }

    fn named_reg<E: OperandSyntax + ?Sized>(&mut self, node: &E) -> Result<Reg> {
        let range = node.range();
        // Read from the green node: the name token and the `[…]` after it, if any.
        let green = node.green();
        let (Some(tok), index) = tree::register_parts(&green) else {
            return Err(EncodeError::new(range, "expected a register"));
        };
        let name = tok.text();
        let gen = self.gen();
        // sN / vN / ttmpN and their bracket forms.
        if let Some((kind, number)) = register_file_name(name) {
            let (first, last) = match (number, index) {
                (None, None) => return Err(EncodeError::new(range, "expected a register range")),
                (None, Some(index)) => {
                    // In an operand, a register symbol named `s`, `v` or `ttmp` wins over
                    // the register file.
                    if !self.names_first {
                        if let Some(sym) = self.file_symbol(name) {
                            return self.indexed_symbol(sym, node, range);
                        }
                    }
                    self.index_range_in(Some(index), node, 1, range)?
                }
                (Some(_), Some(_)) => {
                    return Err(EncodeError::new(range, "unexpected `[` after a register"))
                }
                (Some(n), None) => (n, n),
            };
            let (limit, what) = match kind {
                RegKind::Sgpr => (gen.registers().addressable_sgprs, "scalar register"),
                RegKind::Vgpr => (gen.registers().max_vgprs, "vector register"),
                _ => (gen.ttmp_count() as u32, "TTMP register"),
            };
            if last >= limit {
                return Err(EncodeError::new(
                    range,
                    format!("{what} number out of range (0-{}) on {gen}", limit - 1),
                ));
            }
            let count = (last - first + 1) as u16;
            let code = match kind {
                RegKind::Sgpr => first as u16,
                RegKind::Vgpr => 256 + first as u16,
                _ => gen.special_reg_code(SpecialReg::Ttmp).unwrap_or(112) + first as u16,
            };
            return Ok(Reg {
                code,
                count,
                kind,
                range,
                from_symbol: false,
            });
        }
        let Some((sreg, offset, count)) = special_by_name(name) else {
            return Err(EncodeError::new(
                range,
                format!("unknown register `{name}`"),
            ));
        };
        let Some(base) = gen.special_reg_code(sreg) else {
            return Err(EncodeError::new(
                range,
                format!("register `{name}` is not available on {gen}"),
            ));
        };
        let (first, last) = match index {
            Some(index) => {
                let (a, b) = self.index_range_in(Some(index), node, count as u32, range)?;
                if b >= count as u32 {
                    return Err(EncodeError::new(
                        range,
                        format!("register index out of range (0-{}) for `{name}`", count - 1),
                    ));
                }
                (a, b)
            }
            None => (0, count as u32 - 1),
        };
        let code = base + offset as u16 + first as u16;
        let count = (last - first + 1) as u16;
        let kind = match sreg {
            SpecialReg::LdsDirect => RegKind::LdsDirect,
            _ if base >= 128 => RegKind::SrcOnly(sreg),
            _ => RegKind::Special(sreg),
        };
        Ok(Reg {
            code,
            count,
            kind,
            range,
            from_symbol: false,
        })
    }

    /// A scalar register operand (SDST, SBASE, SRSRC, SDATA, ...): SGPRs, TTMPs and the
    /// named scalar registers, exactly `count` of them, aligned by `align`. Recorded as
    /// read or written.
    pub fn sreg<E: OperandSyntax + ?Sized>(
        &mut self,
        expr: &E,
        count: u32,
        align: Align,
        write: bool,
    ) -> Result<Reg> {
        let range = range_of(expr);
        let Some(reg) = self.reg(expr)? else {
            // A name that is no register may be a slip for one (`exec_low`).
            let kind = if expr.kind() == SyntaxKind::NAME_REF {
                EncodeErrorKind::NotARegister
            } else {
                EncodeErrorKind::Other
            };
            return Err(EncodeError {
                kind,
                ..EncodeError::new(
                    range,
                    format!("expected {count} scalar register{}", plural(count)),
                )
            });
        };
        if !reg.is_scalar() {
            return Err(EncodeError::new(
                range,
                format!("expected {count} scalar register{}", plural(count)),
            ));
        }
        self.check_scalar(&reg, count, align)?;
        self.use_reg(&reg, write);
        Ok(reg)
    }

    /// Checks the count and alignment of a scalar register.
    pub fn check_scalar(&self, reg: &Reg, count: u32, align: Align) -> Result<()> {
        // NULL stands for any count.
        if reg.kind == RegKind::Special(SpecialReg::Null) {
            return Ok(());
        }
        if reg.count as u32 != count {
            return Err(EncodeError::new(
                reg.range,
                wrong_count(count, "scalar", reg.count),
            ));
        }
        check_align(reg, align)
    }

    /// VGPRs only: exactly `count` of them. Recorded as read or written.
    pub fn vreg<E: OperandSyntax + ?Sized>(
        &mut self,
        expr: &E,
        count: u32,
        write: bool,
    ) -> Result<Reg> {
        let range = range_of(expr);
        match self.reg(expr)? {
            Some(reg) if reg.is_vgpr() => {
                if reg.count as u32 != count {
                    return Err(EncodeError::new(
                        range,
                        wrong_count(count, "vector", reg.count),
                    ));
                }
                self.use_reg(&reg, write);
                Ok(reg)
            }
            _ => Err(EncodeError::new(
                range,
                format!("expected {count} vector register{}", plural(count)),
            )),
        }
    }

    /// VGPRs, any count within `min..=max`. Recorded.
    pub fn vreg_range<E: OperandSyntax + ?Sized>(
        &mut self,
        expr: &E,
        min: u32,
        max: u32,
        write: bool,
    ) -> Result<Reg> {
        let range = range_of(expr);
        match self.reg(expr)? {
            Some(reg) if reg.is_vgpr() => {
                if (reg.count as u32) < min || reg.count as u32 > max {
                    let msg = if min == max {
                        wrong_count(min, "vector", reg.count)
                    } else {
                        format!(
                            "required {min} to {max} vector registers, not {}",
                            reg.count
                        )
                    };
                    return Err(EncodeError::new(range, msg));
                }
                self.use_reg(&reg, write);
                Ok(reg)
            }
            _ => Err(EncodeError::new(range, "expected vector registers")),
        }
    }

    // ---- sources -----------------------------------------------------------------

    /// A source operand: a register, an inline constant or a literal as `spec` allows.
    /// `lit(x)` forces a literal; a pending value is always a literal with a fixup.
    /// Operand modifiers must have been stripped ([`Cx::strip_src_mods`]).
    pub fn src<E: OperandSyntax + ?Sized>(&mut self, expr: &E, spec: &SrcSpec) -> Result<Src> {
        let range = range_of(expr);
        let syntax = if expr.kind() == SyntaxKind::CALL_EXPR {
            Some(expr.expr())
        } else {
            None
        };
        if let Some(call) = syntax.as_deref().and_then(|e| call_named(e, "lit")) {
            let mut args = call.args();
            let (Some(inner), None) = (args.next(), args.next()) else {
                return Err(EncodeError::new(range, "`lit` takes one value"));
            };
            let imm = self.imm(&inner)?;
            return self.literal_src(imm, &inner, range, spec);
        }
        if let Some(reg) = self.reg(expr)? {
            if reg.kind == RegKind::Const {
                if !spec.inline {
                    return Err(EncodeError::new(range, "a constant is not allowed here"));
                }
                if reg.count != 1 && reg.count != spec.regs as u16 {
                    return Err(EncodeError::new(range, CONST_SYMBOL_RANGE));
                }
                return Ok(Src {
                    code: reg.code,
                    kind: SrcKind::Inline,
                    range,
                });
            }
            let ok = match reg.kind {
                RegKind::Vgpr => spec.vgpr,
                RegKind::LdsDirect => spec.lds_direct,
                _ => spec.sgpr,
            };
            if !ok {
                let what = match (spec.vgpr, spec.sgpr) {
                    (true, false) => "vector register",
                    (false, true) => "scalar register",
                    _ => "register",
                };
                let what = if reg.kind == RegKind::LdsDirect {
                    "LDS_DIRECT is not allowed here".to_string()
                } else {
                    format!("expected {} {what}{}", spec.regs, plural(spec.regs as u32))
                };
                return Err(EncodeError::new(range, what));
            }
            match reg.kind {
                // A source-only register named directly stands for any count; through a
                // register symbol it is one register, as clrxasm counts it.
                RegKind::SrcOnly(_) if reg.from_symbol && reg.count != spec.regs as u16 => {
                    return Err(EncodeError::new(
                        range,
                        wrong_count(spec.regs as u32, "scalar", reg.count),
                    ));
                }
                RegKind::SrcOnly(_) | RegKind::LdsDirect | RegKind::Const => {}
                RegKind::Special(SpecialReg::Null) => {}
                RegKind::Vgpr => {
                    if reg.count != spec.regs as u16 {
                        return Err(EncodeError::new(
                            range,
                            wrong_count(spec.regs as u32, "vector", reg.count),
                        ));
                    }
                }
                _ => {
                    if reg.count != spec.regs as u16 {
                        return Err(EncodeError::new(
                            range,
                            wrong_count(spec.regs as u32, "scalar", reg.count),
                        ));
                    }
                    check_align(&reg, spec.align)?;
                }
            }
            self.use_reg(&reg, false);
            return Ok(Src {
                code: reg.code,
                kind: SrcKind::Reg(reg),
                range,
            });
        }
        if expr.kind() == SyntaxKind::REG_INDEX {
            return Err(EncodeError::new(range, "expected a register"));
        }
        if !spec.inline && !spec.literal {
            let what = if spec.vgpr && !spec.sgpr {
                "vector"
            } else {
                "scalar"
            };
            return Err(EncodeError::new(
                range,
                format!(
                    "expected {} {what} register{}",
                    spec.regs,
                    plural(spec.regs as u32)
                ),
            ));
        }
        let imm = self.imm(expr)?;
        self.check_float(&imm, spec.ty, range)?;
        if spec.inline && !spec.force_literal {
            if let Some(code) = inline_constant(&imm, spec.ty, self.gen(), self.fp_rules()) {
                return Ok(Src {
                    code,
                    kind: SrcKind::Inline,
                    range,
                });
            }
        }
        self.literal_src(imm, expr, range, spec)
    }

    fn literal_src<E: OperandSyntax + ?Sized>(
        &mut self,
        imm: Imm,
        value_expr: &E,
        range: TextRange,
        spec: &SrcSpec,
    ) -> Result<Src> {
        if !spec.literal {
            return Err(EncodeError::literal(range, spec.literal_error));
        }
        self.warn_if_wider_than_literal(&imm, value_expr);
        self.set_literal(imm.bits(spec.ty, self.fp_rules()), value_expr)
            .map_err(|e| EncodeError::new(range, e.message))?;
        Ok(Src {
            code: 255,
            kind: SrcKind::Literal,
            range,
        })
    }

    /// Peels operand modifiers: `sext(x)`, `-x` (on a register, `|…|`, `abs()`, `neg()`;
    /// `-1` and `-1.0` stay values), `|x|`, `abs(x)`, `neg(x)`. Returns the inner
    /// operand and the modifiers seen; the caller decides which are allowed.
    pub fn strip_src_mods(&mut self, expr: &ast::Expr) -> Result<(ast::Expr, SrcMods)> {
        let mut mods = SrcMods::default();
        let mut e = expr.clone();
        for _ in 0..8 {
            let next = match &e {
                ast::Expr::Call(c) => {
                    let name = c.name_token();
                    let is = |what: &str| {
                        name.as_ref()
                            .is_some_and(|t| t.text().eq_ignore_ascii_case(what))
                    };
                    let (which, flag) = if is("abs") {
                        ("abs", &mut mods.abs)
                    } else if is("neg") {
                        ("neg", &mut mods.neg)
                    } else if is("sext") {
                        ("sext", &mut mods.sext)
                    } else {
                        break;
                    };
                    *flag = true;
                    let mut args = c.args();
                    match (args.next(), args.next()) {
                        (Some(inner), None) => inner,
                        _ => {
                            return Err(EncodeError::new(
                                c.syntax().text_range(),
                                format!("`{which}` takes one operand"),
                            ))
                        }
                    }
                }
                ast::Expr::Abs(a) => {
                    mods.abs = true;
                    match a.expr() {
                        Some(inner) => inner,
                        None => {
                            return Err(EncodeError::new(
                                a.syntax().text_range(),
                                "expected an operand",
                            ))
                        }
                    }
                }
                ast::Expr::Prefix(p) if p.op().is_some_and(|t| t.kind() == SyntaxKind::MINUS) => {
                    let Some(inner) = p.expr() else { break };
                    let strip = match &inner {
                        ast::Expr::Register(_) | ast::Expr::RegIndex(_) | ast::Expr::Abs(_) => true,
                        ast::Expr::Call(c) => c.name_token().is_some_and(|t| {
                            ["abs", "neg", "sext"]
                                .iter()
                                .any(|n| t.text().eq_ignore_ascii_case(n))
                        }),
                        ast::Expr::NameRef(n) => n
                            .name_token()
                            .is_some_and(|t| self.register_symbol(t.text()).is_some()),
                        _ => false,
                    };
                    if !strip {
                        break;
                    }
                    mods.neg = true;
                    inner
                }
                _ => break,
            };
            e = next;
        }
        Ok((e, mods))
    }

    /// [`Cx::strip_src_mods`] for the usual shapes, read from the green node `green` of
    /// `expr`: `-r`, `|r|`, `-|r|`, `abs(r)`, `neg(r)`, `sext(r)` around a `REGISTER` `r`,
    /// written without spaces or comments. The same inner operand and modifiers as
    /// `strip_src_mods` finds, without making syntax nodes; `None` for any other shape.
    pub fn peel_plain_src_mods<'o, E: OperandSyntax + ?Sized>(
        expr: &'o E,
        green: &'o GreenNodeData,
    ) -> Option<(PeeledOperand<'o, E>, SrcMods)> {
        let mut mods = SrcMods::default();
        let mut node = green;
        let mut start = expr.range().start();
        if node.kind() == tree::raw(SyntaxKind::PREFIX_EXPR) {
            let [minus, NodeOrToken::Node(inner)] = two_children(node)? else {
                return None;
            };
            if minus.kind() != tree::raw(SyntaxKind::MINUS) {
                return None;
            }
            mods.neg = true;
            start += minus.text_len();
            node = inner;
        }
        let flag = if node.kind() == tree::raw(SyntaxKind::ABS_EXPR) {
            // `|r|`: the bars and the register.
            let mut children = node.children();
            let open = children.next()?.into_token()?;
            let inner = children.next()?.into_node()?;
            let close = children.next()?.into_token()?;
            let bars = open.kind() == tree::raw(SyntaxKind::PIPE)
                && close.kind() == tree::raw(SyntaxKind::PIPE);
            if !bars || children.next().is_some() {
                return None;
            }
            start += open.text_len();
            node = inner;
            &mut mods.abs
        } else if node.kind() == tree::raw(SyntaxKind::CALL_EXPR) && !mods.neg {
            // `abs(r)`: the name, the parentheses and the register.
            let mut children = node.children();
            let name = children
                .next()?
                .into_token()
                .filter(|t| t.kind() == tree::raw(SyntaxKind::NAME))?;
            let open = children
                .next()?
                .into_token()
                .filter(|t| t.kind() == tree::raw(SyntaxKind::L_PAREN))?;
            let inner = children.next()?.into_node()?;
            children
                .next()?
                .into_token()
                .filter(|t| t.kind() == tree::raw(SyntaxKind::R_PAREN))?;
            if children.next().is_some() {
                return None;
            }
            let flag = match name.text() {
                n if n.eq_ignore_ascii_case("abs") => &mut mods.abs,
                n if n.eq_ignore_ascii_case("neg") => &mut mods.neg,
                n if n.eq_ignore_ascii_case("sext") => &mut mods.sext,
                _ => return None,
            };
            start += name.text_len() + open.text_len();
            node = inner;
            flag
        } else {
            &mut mods.neg
        };
        *flag = true;
        if node.kind() != tree::raw(SyntaxKind::REGISTER) || !mods.any() {
            return None;
        }
        let range = TextRange::at(start, node.text_len());
        Some((
            PeeledOperand {
                outer: expr,
                green: node,
                range,
            },
            mods,
        ))
    }

    // ---- instruction modifiers -----------------------------------------------------

    /// A flag modifier: `glc` is on, `glc:expr` is on when the (known) value is not zero.
    pub fn mod_flag(&mut self, m: &ModifierRef) -> Result<bool> {
        match m.value()? {
            None => Ok(true),
            Some(e) => {
                let v = self.known(&e)?;
                if !self.resolver.old_mod_param() {
                    return Ok(v != 0);
                }
                // Up to CLRX 0.1.5 a flag's value was one bit: clrxasm warns of the rest.
                if !(0..=1).contains(&v) {
                    self.warn_value(&e, super::truncation_message(v, 1));
                }
                Ok(v & 1 != 0)
            }
        }
    }

    /// `name:value` with a known value; an error for a bare `name`.
    pub fn mod_int(&mut self, m: &ModifierRef) -> Result<i64> {
        match m.value()? {
            None => Err(EncodeError::new(
                m.range(),
                format!("expected `:` and a value after `{}`", m.name()),
            )),
            Some(e) => self.known(&e),
        }
    }

    /// `name:value` whose value may be pending: returns the value expression too, for a
    /// fixup.
    pub fn mod_pending<'m, 'i>(
        &mut self,
        m: &'m ModifierRef<'i>,
    ) -> Result<(Value, ModValue<'m, 'i>)> {
        match m.value_syntax()? {
            None => Err(EncodeError::new(
                m.range(),
                format!("expected `:` and a value after `{}`", m.name()),
            )),
            Some(e) => Ok((self.eval(&e)?, e)),
        }
    }

    /// A bit mask: `name:[b0,b1,…]` (at most `n` elements, each 0 or 1) or
    /// `name:expr` (a known value, masked to `n` bits). A bare `name` is all ones.
    pub fn mod_bits(&mut self, m: &ModifierRef, n: u32) -> Result<u32> {
        let mask = if n >= 32 { u32::MAX } else { (1u32 << n) - 1 };
        match m.value()? {
            None => Ok(mask),
            Some(ast::Expr::List(list)) => {
                let mut bits = 0u32;
                for (i, item) in list.items().enumerate() {
                    if i as u32 >= n {
                        return Err(EncodeError::new(
                            range_of(&item),
                            format!("too many elements: at most {n}"),
                        ));
                    }
                    match self.known(&item)? {
                        0 => {}
                        1 => bits |= 1 << i,
                        _ => return Err(EncodeError::new(range_of(&item), "value must be 0 or 1")),
                    }
                }
                Ok(bits)
            }
            Some(e) => Ok(self.known(&e)? as u32 & mask),
        }
    }
}

/// clrxasm checks the alignment of plain SGPR ranges only (GCNAsmHelpers.cpp,
/// parseSRegRange: `if (!ttmpReg && !doubleReg)`; parseSymRegRange: `rstart <
/// maxSGPRsNum`): `ttmp[1:2]` is good anywhere, as are the named pairs.
fn check_align(reg: &Reg, align: Align) -> Result<()> {
    if reg.kind != RegKind::Sgpr {
        return Ok(());
    }
    let code = reg.code;
    let count = reg.count;
    let bad = match align {
        Align::Scalar => {
            (count == 2 && !code.is_multiple_of(2)) || (count >= 3 && !code.is_multiple_of(4))
        }
        Align::Vector => {
            count > 1 && code < 128 && code / 4 != (code + count - 1) / 4 && !code.is_multiple_of(4)
        }
        Align::None => false,
    };
    if bad {
        let msg = match align {
            Align::Vector => "scalar register range crosses a line of 4 registers",
            _ => "unaligned scalar register range",
        };
        return Err(EncodeError::new(reg.range, msg));
    }
    Ok(())
}

fn special_of_code(gen: Generation, code: u16) -> RegKind {
    for &(_, sreg, _, count) in SPECIAL_NAMES {
        if let Some(base) = gen.special_reg_code(sreg) {
            if code >= base && code < base + count.max(1) as u16 {
                return match sreg {
                    SpecialReg::LdsDirect => RegKind::LdsDirect,
                    _ if base >= 128 => RegKind::SrcOnly(sreg),
                    _ => RegKind::Special(sreg),
                };
            }
        }
    }
    if (128..=208).contains(&code) || (240..=248).contains(&code) {
        return RegKind::Const;
    }
    // Any other scalar code (a reserved one) reads as a named scalar register.
    RegKind::Special(SpecialReg::M0)
}

/// A float literal operand: FLOAT_NUMBER, possibly under `-`, `+` or parentheses.
/// `Some(None)` when it looks like a float but does not parse.
fn float_literal(expr: &ast::Expr) -> Option<Option<FloatLit>> {
    match expr {
        ast::Expr::Literal(l) => {
            let t = l.token()?;
            (t.kind() == SyntaxKind::FLOAT_NUMBER).then(|| parse_float(t.text()))
        }
        ast::Expr::Prefix(p) => {
            let op = p.op()?.kind();
            if op != SyntaxKind::MINUS && op != SyntaxKind::PLUS {
                return None;
            }
            let inner = float_literal(&p.expr()?)?;
            Some(inner.map(|f| {
                if op == SyntaxKind::MINUS {
                    FloatLit {
                        value: -f.value,
                        single: -f.single,
                        ..f
                    }
                } else {
                    f
                }
            }))
        }
        ast::Expr::Paren(p) => float_literal(&p.expr()?),
        _ => None,
    }
}

/// Parses an INT_NUMBER token: decimal, `0x` hex, `0b` binary, `0` octal.
pub fn parse_int(text: &str) -> Option<i64> {
    if let Some(v) = short_decimal(text) {
        return Some(v);
    }
    let b = text.as_bytes();
    let (digits, radix) = if b.len() > 2 && b[0] == b'0' && (b[1] == b'x' || b[1] == b'X') {
        (&text[2..], 16)
    } else if b.len() > 2 && b[0] == b'0' && (b[1] == b'b' || b[1] == b'B') {
        (&text[2..], 2)
    } else if b.len() > 1 && b[0] == b'0' {
        (&text[1..], 8)
    } else {
        (text, 10)
    };
    u64::from_str_radix(digits, radix).ok().map(|v| v as i64)
}

/// A decimal number of up to 18 digits (no leading zero: that is octal), without
/// `from_str_radix`'s general checks: register numbers and indexes are such numbers,
/// and every one of them is parsed while assembling.
fn short_decimal(text: &str) -> Option<i64> {
    let b = text.as_bytes();
    let starts_well = matches!(b.first(), Some(b'1'..=b'9')) || b == b"0";
    if !starts_well || b.len() > 18 {
        return None;
    }
    b.iter().try_fold(0i64, |n, &d| {
        d.is_ascii_digit().then(|| n * 10 + (d - b'0') as i64)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode::{encode_instruction, Encoded, Target};
    use crate::Device;

    /// Integer literals are known; register symbols from a table.
    struct Symbols(&'static [(&'static str, RegRange)]);

    impl Resolver for Symbols {
        fn eval(&mut self, expr: &ast::Expr) -> std::result::Result<Value, String> {
            match expr {
                ast::Expr::Literal(l) => l
                    .token()
                    .and_then(|t| parse_int(t.text()))
                    .map(Value::Known)
                    .ok_or_else(|| "not an integer".to_string()),
                _ => Ok(Value::Pending),
            }
        }
        fn eval_branch(&mut self, expr: &ast::Expr) -> std::result::Result<Value, String> {
            self.eval(expr)
        }
        fn register_symbol(&mut self, name: &str) -> Option<RegRange> {
            self.0.iter().find(|(n, _)| *n == name).map(|&(_, r)| r)
        }
    }

    fn encode(
        symbols: &'static [(&'static str, RegRange)],
        src: &str,
    ) -> std::result::Result<Encoded, EncodeError> {
        let device = Device::from_name("pitcairn").unwrap();
        let target = Target::of_device(device);
        let parse = gcn_syntax::parse(src);
        let instr = parse.tree().instructions().next().unwrap();
        encode_instruction(&target, &instr, &mut Symbols(symbols)).map_err(|mut e| e.remove(0))
    }

    const SGPR: RegFile = RegFile::Sgpr;

    #[test]
    fn constant_symbol_ranges() {
        // dreg = %-12 (inline constant code 204): whole, `[0]` or `[0:n-1]` for n registers.
        const SYMS: &[(&str, RegRange)] = &[(
            "dreg",
            RegRange {
                file: SGPR,
                first: 204,
                count: 1,
            },
        )];
        for good in ["dreg", "dreg[0]", "dreg[0:1]"] {
            let e = encode(SYMS, &format!("s_xor_b64 s[22:23], {good}, s[62:63]")).unwrap();
            assert_eq!(e.words[..], [0x8996_3ecc], "{good}");
        }
        assert_eq!(
            encode(SYMS, "s_xor_b32 s22, dreg[0], s62").unwrap().words[..],
            [0x8916_3ecc]
        );
        for bad in ["dreg[1:1]", "dreg[0:2]", "dreg[1:2]"] {
            let src = format!("s_xor_b64 s[22:23], {bad}, s[62:63]");
            let err = encode(SYMS, &src).unwrap_err();
            assert!(
                err.message.contains("constant register symbol"),
                "{bad}: {}",
                err.message
            );
            assert_eq!(&src[err.range], bad);
        }
        let err = encode(SYMS, "s_xor_b32 s22, dreg[0:1], s62").unwrap_err();
        assert!(
            err.message.contains("constant register symbol"),
            "{}",
            err.message
        );
    }

    #[test]
    fn source_only_symbol_is_one_register() {
        // k = %execz: one register through the symbol, while `execz` itself stands for any
        // count.
        const SYMS: &[(&str, RegRange)] = &[(
            "k",
            RegRange {
                file: SGPR,
                first: 252,
                count: 1,
            },
        )];
        let err = encode(SYMS, "s_xor_b64 s[30:31], k, s[14:15]").unwrap_err();
        assert_eq!(err.message, "required 2 scalar registers, not 1");
        assert_eq!(&"s_xor_b64 s[30:31], k, s[14:15]"[err.range], "k");
        assert_eq!(
            encode(SYMS, "s_xor_b64 s[30:31], execz, s[14:15]")
                .unwrap()
                .words[..],
            [0x899e_0efc]
        );
        assert_eq!(
            encode(SYMS, "s_xor_b32 s30, k, s14").unwrap().words[..],
            [0x891e_0efc]
        );
    }

    #[test]
    fn half_rounding() {
        assert_eq!(f64_to_f16(1.0), 0x3c00);
        assert_eq!(f64_to_f16(-4.5), 0xc480);
        assert_eq!(f64_to_f16(6.9551627), 0x46f5);
        assert_eq!(f64_to_f16(1.374), 0x3d7f);
        assert_eq!(f64_to_f16(-23.56), 0xcde4);
        assert_eq!(f64_to_f16(65520.0), 0x7c00);
        assert_eq!(f64_to_f16(5.960464477539063e-8), 0x0001);
        assert_eq!(f64_to_f16(0.0), 0);
    }

    #[test]
    fn floats() {
        assert_eq!(
            parse_float("6.9551627e+13")
                .unwrap()
                .bits(FloatKind::Single),
            0x567d0700
        );
        assert_eq!(
            parse_float("0.51119751l").unwrap().bits(FloatKind::Double),
            0x3fe05bbb
        );
        assert_eq!(parse_float("0x1.8p1").unwrap().value, 3.0);
        assert_eq!(parse_float("1.5e"), None);
        let f = parse_float("0.15915494").unwrap();
        let new = FpRules::default();
        assert_eq!(
            inline_constant(&Imm::Float(f), ValueType::Int, Generation::Gcn1_2, new),
            Some(248)
        );
        assert_eq!(
            inline_constant(&Imm::Float(f), ValueType::Int, Generation::Gcn1_0, new),
            None
        );
    }

    #[test]
    fn inline_constant_rules() {
        let new = FpRules::default();
        let buggy = FpRules { buggy: true };
        let g = Generation::Gcn1_2;
        let fl = |t: &str| Imm::Float(parse_float(t).unwrap());
        // Integers are constants only from -16 to 64, whatever their bits.
        assert_eq!(
            inline_constant(&Imm::Int(0x4000_0000), ValueType::F32, g, new),
            None
        );
        assert_eq!(
            inline_constant(&Imm::Int(0x3c00), ValueType::F16, g, new),
            None
        );
        assert_eq!(
            inline_constant(&Imm::Int(-16), ValueType::F32, g, new),
            Some(208)
        );
        // A float in another precision than the operand's is a literal.
        assert_eq!(inline_constant(&fl("2.0l"), ValueType::F32, g, new), None);
        assert_eq!(inline_constant(&fl("0.0h"), ValueType::F32, g, new), None);
        assert_eq!(inline_constant(&fl("2.0s"), ValueType::F64, g, new), None);
        assert_eq!(
            inline_constant(&fl("2.0l"), ValueType::F64, g, new),
            Some(244)
        );
        // A tiny float whose bits are a small integer is no integer constant.
        assert_eq!(inline_constant(&fl("1e-44"), ValueType::F32, g, new), None);
        // CLRX 0.1.2: single precision everywhere, half only for 0, double never.
        assert_eq!(
            inline_constant(&fl("2.0s"), ValueType::F64, g, buggy),
            Some(244)
        );
        assert_eq!(inline_constant(&fl("1.0"), ValueType::F16, g, buggy), None);
        assert_eq!(
            inline_constant(&fl("0.0"), ValueType::F16, g, buggy),
            Some(128)
        );
        assert_eq!(
            inline_constant(&fl("1.0s"), ValueType::F16, g, buggy),
            Some(242)
        );
        assert_eq!(inline_constant(&fl("0.0l"), ValueType::F32, g, buggy), None);
        assert_eq!(fl("1.5").bits(ValueType::F64, buggy), Some(0x3fc0_0000));
        assert_eq!(fl("1.5").bits(ValueType::F64, new), Some(0x3ff8_0000));
    }
}
