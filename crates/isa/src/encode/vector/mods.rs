//! Modifiers of vector-ALU instructions: VOP3 (`clamp`, `mul:N`, `div:2`, `omod:N`,
//! `abs:`, `neg:`, `op_sel:`), VOP3P (`op_sel_hi:`, `neg_lo:`, `neg_hi:`), SDWA
//! (`dst_sel:`, `dst_unused:`, `src0_sel:`, `src1_sel:`, `sext:`), DPP (`quad_perm:`,
//! `row_*`, `wave_*`, `bank_mask:`, `row_mask:`, `bound_ctrl`, `fi`), DPP8 (`dpp8:`) and
//! the encoding switches `vop3`, `sdwa`, `dpp`.
//!
//! Which modifiers exist depends on the encoding and the generation; a modifier that
//! does not apply is refused as unknown, as clrxasm does.

use crate::operand_names;
use gcn_syntax::ast::{self, AstNode};
use gcn_syntax::TextRange;

use super::super::operands::{Cx, ModifierRef};
use super::super::EncodeError;
use crate::arch::Generation;
use crate::lookup::Suffix;

/// What the modifier parser accepts for one instruction.
#[derive(Clone, Copy, Debug)]
pub(super) struct ModSpec {
    /// Operands the per-operand arrays count, destination included (VOP2: 3).
    pub operands: u8,
    /// SDWA selections that apply: 1 = dst_sel/dst_unused, 2 = + src0_sel, 3 = + src1_sel.
    /// 0 when SDWA and DPP do not apply at all (GCN 1.0/1.1, VOP3-only rows).
    pub sdwa_operands: u8,
    pub clamp: bool,
    pub sext: bool,
    pub op_sel: bool,
    /// VOP3P: op_sel_hi/neg_lo/neg_hi, no omod/abs/sext.
    pub vop3p: bool,
    /// VOPC on GCN 1.4+: no dst_sel/dst_unused.
    pub no_dst_mods: bool,
    /// Whether SDWA/DPP modifiers are parsed at all.
    pub extra: bool,
    /// VOP3-encoded interpolation: `op_sel` takes 4 bits as written (no moved
    /// destination bit).
    pub interp: bool,
}

/// Every modifier name the parser knows, whichever instruction takes it ([`takes`]).
const MODIFIERS: [&str; 41] = [
    "mul",
    "div",
    "omod",
    "clamp",
    "abs",
    "neg",
    "neg_lo",
    "neg_hi",
    "sext",
    "op_sel",
    "op_sel_hi",
    "vop3",
    "dst_sel",
    "src0_sel",
    "src1_sel",
    "dst_unused",
    "dst_un",
    "quad_perm",
    "row_shl",
    "row_shr",
    "row_ror",
    "row_share",
    "row_xmask",
    "wave_shl",
    "wave_shr",
    "wave_rol",
    "wave_ror",
    "row_mirror",
    "row_half_mirror",
    "row_hmirror",
    "row_bcast15",
    "row_bcast31",
    "row_bcast",
    "bank_mask",
    "row_mask",
    "bound_ctrl",
    "fi",
    "dpp8",
    "sdwa",
    "dpp",
    "high",
];

/// The modifiers an instruction of `spec` takes on `gen`.
pub(super) fn taken(spec: &ModSpec, gen: Generation) -> impl Iterator<Item = &'static str> + '_ {
    // `clamp` is parsed everywhere, to be refused by name where it is illegal (VOP3B
    // before GCN 1.2); it is neither offered nor suggested there.
    MODIFIERS
        .into_iter()
        .filter(move |n| takes(spec, gen, n) && (*n != "clamp" || spec.clamp))
}

/// Whether an instruction of `spec` takes the modifier `name` (lowercase) on `gen`:
/// the parser refuses the others as unknown, and suggests among these.
fn takes(spec: &ModSpec, gen: Generation, name: &str) -> bool {
    let gfx10 = gen.is_gfx10();
    let sources = spec.operands > 1;
    match name {
        "mul" | "div" | "omod" => !spec.vop3p,
        "clamp" | "vop3" => true,
        // Read by the interpolation encoder before these.
        "high" => spec.interp,
        "abs" => !spec.vop3p && sources,
        "neg" => sources,
        "neg_lo" | "neg_hi" => spec.vop3p && sources,
        "sext" => !spec.vop3p && spec.sext && gen >= Generation::Gcn1_2 && sources,
        "op_sel" => spec.op_sel && sources,
        "op_sel_hi" => spec.vop3p && spec.op_sel && sources,
        // SDWA and DPP.
        _ if !spec.extra => false,
        "dst_sel" | "dst_unused" | "dst_un" => spec.sdwa_operands >= 1 && !spec.no_dst_mods,
        "src0_sel" => spec.sdwa_operands >= 2,
        "src1_sel" => spec.sdwa_operands >= 3,
        "quad_perm" | "row_shl" | "row_shr" | "row_ror" | "row_mirror" | "row_half_mirror"
        | "row_hmirror" | "bank_mask" | "row_mask" | "bound_ctrl" | "sdwa" | "dpp" => true,
        "row_share" | "row_xmask" | "fi" | "dpp8" => gfx10,
        "wave_shl" | "wave_shr" | "wave_rol" | "wave_ror" | "row_bcast15" | "row_bcast31"
        | "row_bcast" => !gfx10,
        _ => false,
    }
}

/// Whether the modifier `name` applies once `suffix` has fixed the encoding: `_e64`
/// takes the VOP3 modifiers, `_sdwa` the SDWA selections with `abs`, `neg`, `clamp`
/// (and from GCN 1.4 the output modifiers), `_dpp` the DPP controls with `abs` and
/// `neg`, `_dpp8` its lane selects and `fi`; `_e32` none. A compare's SDWA form has no
/// `clamp` or output modifier from GCN 1.4.
pub(super) fn fits_suffix(name: &str, suffix: Suffix, compare: bool, gen: Generation) -> bool {
    let sdwa = matches!(
        name,
        "dst_sel" | "src0_sel" | "src1_sel" | "dst_unused" | "dst_un" | "sext" | "sdwa"
    );
    let dpp8 = matches!(name, "dpp8" | "fi");
    let dpp = !sdwa
        && !dpp8
        && (name.starts_with("row_")
            || name.starts_with("wave_")
            || matches!(name, "quad_perm" | "bank_mask" | "bound_ctrl" | "dpp"));
    let abs_neg = matches!(name, "abs" | "neg");
    let omod = matches!(name, "mul" | "div" | "omod");
    match suffix {
        Suffix::E32 => false,
        Suffix::E64 => !sdwa && !dpp && !dpp8,
        Suffix::Sdwa if compare && gen >= Generation::Gcn1_4 => sdwa || abs_neg,
        Suffix::Sdwa => sdwa || abs_neg || name == "clamp" || (omod && gen >= Generation::Gcn1_4),
        Suffix::Dpp => dpp || abs_neg || (name == "fi" && gen.is_gfx10()),
        Suffix::Dpp8 => dpp8,
    }
}

/// Which encoding the modifiers ask for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Extra {
    None,
    Sdwa,
    Dpp,
    Dpp8,
}

#[derive(Clone, Debug)]
pub(super) struct VopMods {
    pub clamp: bool,
    /// OMOD field (1 = mul:2, 2 = mul:4, 3 = div:2).
    pub omod: u8,
    /// Bit per source operand.
    pub abs: u8,
    pub neg: u8,
    pub neg_hi: u8,
    pub sext: u8,
    /// OP_SEL field bits (bit 3 = destination for VOP3).
    pub op_sel: u8,
    /// OP_SEL_HI bits (VOP3P; default all set).
    pub op_sel_hi: u8,
    pub vop3: bool,
    // SDWA
    pub dst_sel: u8,
    pub dst_unused: u8,
    pub src0_sel: u8,
    pub src1_sel: u8,
    // DPP
    pub dpp_ctrl: u16,
    pub bank_mask: u8,
    pub row_mask: u8,
    pub bound_ctrl: bool,
    pub fi: bool,
    pub dpp8: u32,
    /// Encoding the SDWA/DPP/DPP8 modifiers ask for; `sdwa`/`dpp` switches included.
    pub extra: Extra,
    /// Set when any of `dst_sel`.. `sext:` / DPP modifiers appeared (for error messages).
    pub sdwa_mods: bool,
    pub dpp_mods: bool,
    /// Range of the first modifier (for errors about the modifiers as a whole).
    pub first: Option<TextRange>,
    /// Ranges of the last `clamp` and OMOD modifier seen, for errors.
    pub clamp_range: Option<TextRange>,
    pub omod_range: Option<TextRange>,
    pub op_sel_range: Option<TextRange>,
}

impl VopMods {
    pub(super) fn new(spec: &ModSpec) -> VopMods {
        VopMods {
            clamp: false,
            omod: 0,
            abs: 0,
            neg: 0,
            neg_hi: 0,
            sext: 0,
            op_sel: 0,
            op_sel_hi: if spec.vop3p { 7 } else { 0 },
            vop3: false,
            dst_sel: 6,
            dst_unused: 0,
            src0_sel: if spec.sdwa_operands >= 2 { 6 } else { 0 },
            src1_sel: if spec.sdwa_operands >= 3 { 6 } else { 0 },
            dpp_ctrl: 0xe4,
            bank_mask: 15,
            row_mask: 15,
            bound_ctrl: false,
            fi: false,
            dpp8: 0,
            extra: Extra::None,
            sdwa_mods: false,
            dpp_mods: false,
            first: None,
            clamp_range: None,
            omod_range: None,
            op_sel_range: None,
        }
    }
}

/// Evaluates an expression that must be known now (modifier values).
pub(super) fn eval_now(cx: &mut Cx<'_>, expr: &ast::Expr) -> Result<i64, EncodeError> {
    cx.known(expr)
}

/// The value of `expr` truncated to `bits` bits (clrxasm warns and truncates).
fn eval_bits(cx: &mut Cx<'_>, expr: &ast::Expr, bits: u32) -> Result<u32, EncodeError> {
    let v = eval_now(cx, expr)?;
    Ok(cx.known_field(expr, v, bits as u8, false))
}

/// Text of a bare name used as a modifier value (`dst_sel:byte_0`), lowercase.
fn name_of(expr: &ast::Expr) -> Option<String> {
    match expr {
        ast::Expr::NameRef(n) => n.name_token().map(|t| t.text().to_ascii_lowercase()),
        // `dword` etc. never collide with register names, but `w0`/`b1` could be
        // parsed as something else only if the lexer knew them; be lenient.
        ast::Expr::Register(r) if r.range().is_none() => {
            r.name_token().map(|t| t.text().to_ascii_lowercase())
        }
        _ => None,
    }
}

/// A modifier's values: `name` (none), `name:a`, `name:a:b`.
fn values(m: &ast::Modifier) -> Vec<ast::Expr> {
    m.values().collect()
}

/// Whether the modifier node has a `:` (values may be missing after it).
fn has_colon(m: &ast::Modifier) -> bool {
    m.syntax()
        .children_with_tokens()
        .any(|e| e.kind() == gcn_syntax::SyntaxKind::COLON)
}

/// `name` or `name:expr` (non-zero enables).
fn enable(cx: &mut Cx<'_>, mref: &ModifierRef, errors: &mut Vec<EncodeError>) -> Option<bool> {
    // A bare flag (`clamp`) is read from the green node; anything else from the syntax.
    if mref.is_bare() {
        return Some(true);
    }
    let m = &mref.node();
    let vals = values(m);
    match vals.as_slice() {
        [] if !has_colon(m) => Some(true),
        [v] => match eval_now(cx, v) {
            Ok(x) => Some(x != 0),
            Err(e) => {
                errors.push(e);
                None
            }
        },
        _ => {
            errors.push(EncodeError::new(
                m.syntax().text_range(),
                format!("expected `{0}` or `{0}:VALUE`", m.name()),
            ));
            None
        }
    }
}

/// The single value of `name:value`, or an error at the modifier.
fn one_value(m: &ast::Modifier, what: &str, errors: &mut Vec<EncodeError>) -> Option<ast::Expr> {
    let vals = values(m);
    if vals.len() == 1 {
        return vals.into_iter().next();
    }
    let range = m.syntax().text_range();
    if vals.is_empty() && !has_colon(m) {
        errors.push(EncodeError::new(
            range,
            format!("expected ':' before {what}"),
        ));
    } else if vals.is_empty() {
        errors.push(EncodeError::new(
            range,
            format!("expected {what} after ':'"),
        ));
    } else {
        errors.push(EncodeError::new(
            range,
            format!("expected one {what} after ':'"),
        ));
    }
    None
}

/// The value of `name:value`, known now, and where the value is written; `None` after
/// an error about the modifier's shape (pushed). An integer literal is read from the
/// green node, anything else through [`one_value`] and [`eval_now`].
fn known_value(
    cx: &mut Cx<'_>,
    mref: &ModifierRef,
    what: &str,
    errors: &mut Vec<EncodeError>,
) -> Option<(Result<i64, EncodeError>, TextRange)> {
    if let Some((value, range)) = mref.plain_int_value() {
        return Some((Ok(value), range));
    }
    let v = one_value(&mref.node(), what, errors)?;
    Some((eval_now(cx, &v), v.syntax().text_range()))
}

/// The fields modifiers set; clrxasm warns when one is set a second time (the last
/// value counts).
#[derive(Clone, Copy)]
enum Field {
    Omod,
    DstSel,
    Src0Sel,
    Src1Sel,
    DstUnused,
    DppCtrl,
    BankMask,
    RowMask,
    BoundCtrl,
}

impl Field {
    fn of(name: &str) -> Option<Field> {
        Some(match name {
            "mul" | "div" | "omod" => Field::Omod,
            "dst_sel" => Field::DstSel,
            "src0_sel" => Field::Src0Sel,
            "src1_sel" => Field::Src1Sel,
            "dst_unused" | "dst_un" => Field::DstUnused,
            "quad_perm" | "row_shl" | "row_shr" | "row_ror" | "row_share" | "row_xmask"
            | "wave_shl" | "wave_shr" | "wave_rol" | "wave_ror" | "row_mirror"
            | "row_half_mirror" | "row_hmirror" | "row_bcast15" | "row_bcast31" | "row_bcast" => {
                Field::DppCtrl
            }
            "bank_mask" => Field::BankMask,
            "row_mask" => Field::RowMask,
            "bound_ctrl" => Field::BoundCtrl,
            _ => return None,
        })
    }

    fn what(self) -> &'static str {
        match self {
            Field::Omod => "the output modifier (`mul`, `div`, `omod`)",
            Field::DstSel => "`dst_sel`",
            Field::Src0Sel => "`src0_sel`",
            Field::Src1Sel => "`src1_sel`",
            Field::DstUnused => "`dst_unused`",
            Field::DppCtrl => "the DPP control (`quad_perm`, `row_*`, `wave_*`)",
            Field::BankMask => "`bank_mask`",
            Field::RowMask => "`row_mask`",
            Field::BoundCtrl => "`bound_ctrl`",
        }
    }
}

/// A bit per operand: `[b0,b1,..]` with exactly `bits` elements, or a `bits`-bit value.
fn bool_array(
    cx: &mut Cx<'_>,
    m: &ast::Modifier,
    bits: u32,
    errors: &mut Vec<EncodeError>,
) -> Option<u8> {
    let name = m.name();
    let v = one_value(m, &format!("{name} value"), errors)?;
    if let ast::Expr::List(list) = &v {
        let items: Vec<ast::Expr> = list.items().collect();
        if items.len() != bits as usize {
            errors.push(EncodeError::new(
                v.syntax().text_range(),
                format!(
                    "`{name}` takes {bits} bit{} (one per operand), {} given",
                    if bits == 1 { "" } else { "s" },
                    items.len()
                ),
            ));
            return None;
        }
        let mut out = 0u8;
        let mut good = true;
        for (i, item) in items.iter().enumerate() {
            match eval_bits(cx, item, 1) {
                Ok(b) => out |= (b as u8) << i,
                Err(e) => {
                    errors.push(e);
                    good = false;
                }
            }
        }
        good.then_some(out)
    } else {
        match eval_bits(cx, &v, bits) {
            Ok(x) => Some(x as u8),
            Err(e) => {
                errors.push(e);
                None
            }
        }
    }
}

/// Parses the modifiers `mods` of an instruction (`skip`: indexes of modifiers the
/// caller consumed itself, e.g. the `.x` of a spaced interpolation attribute).
pub(super) fn parse(
    cx: &mut Cx<'_>,
    spec: &ModSpec,
    list: &[ModifierRef],
    skip: &[usize],
    whole: TextRange,
    errors: &mut Vec<EncodeError>,
) -> VopMods {
    let gen = cx.gen();
    let mut mods = VopMods::new(spec);
    let gcn14 = gen >= Generation::Gcn1_4;
    let mut have_dpp_ctrl = false;
    let mut have_bank = false;
    let mut have_row = false;
    let mut have_bound = false;
    let mut have_sdwa_sel = false;
    let mut have_dpp_switch = false;
    let mut have_sdwa_switch = false;
    let mut have_dpp8 = false;
    let mut have_fi = false;
    let srcs = spec.operands.saturating_sub(1) as u32;
    if list.is_empty() {
        // The usual case; what the checks below make of no modifier at all.
        return mods;
    }
    let mut set_fields = 0u32;

    for (index, mref) in list.iter().enumerate() {
        if skip.contains(&index) {
            continue;
        }
        let range = mref.range();
        mods.first.get_or_insert(range);
        let lower;
        let name: &str = if mref.name().bytes().any(|b| b.is_ascii_uppercase()) {
            lower = mref.name().to_ascii_lowercase();
            &lower
        } else {
            mref.name()
        };
        let unknown = |errors: &mut Vec<EncodeError>| {
            errors.push(mref.unknown("VOP", taken(spec, gen)));
        };
        if let Some(field) = Field::of(name) {
            let bit = 1u32 << field as u32;
            if set_fields & bit != 0 {
                cx.warn(
                    range,
                    format!("{} is given twice: the last one counts", field.what()),
                );
            }
            set_fields |= bit;
        }
        if !takes(spec, gen, name) {
            unknown(errors);
            continue;
        }
        match name {
            "mul" | "div" => {
                let what = if name == "mul" {
                    "multiplier number"
                } else {
                    "divider number"
                };
                let Some((value, _)) = known_value(cx, mref, what, errors) else {
                    continue;
                };
                match value {
                    Ok(2) if name == "mul" => mods.omod = 1,
                    Ok(4) if name == "mul" => mods.omod = 2,
                    Ok(2) => mods.omod = 3,
                    Ok(_) => errors.push(EncodeError::new(
                        range,
                        if name == "mul" {
                            "unknown VOP3 `mul:X` modifier: X must be 2 or 4"
                        } else {
                            "unknown VOP3 `div:X` modifier: X must be 2"
                        },
                    )),
                    Err(e) => errors.push(e),
                }
                mods.omod_range = Some(range);
            }
            "omod" => {
                let Some((value, at)) = known_value(cx, mref, "omod value", errors) else {
                    continue;
                };
                match value.map(|v| cx.known_field_at(at, v, 2, false)) {
                    Ok(x) => mods.omod = x as u8,
                    Err(e) => errors.push(e),
                }
                mods.omod_range = Some(range);
            }
            "clamp" => {
                if let Some(on) = enable(cx, mref, errors) {
                    if spec.clamp {
                        mods.clamp = on;
                        mods.clamp_range = Some(range);
                    } else {
                        errors.push(EncodeError::new(
                            range,
                            "modifier `clamp` is illegal in VOP3B encoding on this architecture",
                        ));
                    }
                }
            }
            "abs" => {
                if let Some(v) = bool_array(cx, &mref.node(), srcs, errors) {
                    mods.abs = v;
                }
            }
            "neg" | "neg_lo" => {
                if let Some(v) = bool_array(cx, &mref.node(), srcs, errors) {
                    mods.neg = v;
                }
            }
            "neg_hi" => {
                if let Some(v) = bool_array(cx, &mref.node(), srcs, errors) {
                    mods.neg_hi = v;
                }
            }
            "sext" => {
                if let Some(v) = bool_array(cx, &mref.node(), srcs, errors) {
                    mods.sext = v;
                }
            }
            "op_sel" => {
                let bits = if spec.vop3p {
                    srcs
                } else if spec.interp {
                    4
                } else {
                    spec.operands as u32
                };
                if let Some(mut v) = bool_array(cx, &mref.node(), bits, errors) {
                    if !spec.vop3p && !spec.interp && spec.operands < 4 {
                        // The last bit is the destination's: move it to bit 3.
                        let last = 1u8 << (spec.operands - 1);
                        v = (v & (last - 1)) | if v & last != 0 { 8 } else { 0 };
                    }
                    mods.op_sel = v;
                    mods.op_sel_range = Some(range);
                }
            }
            "op_sel_hi" => {
                if let Some(v) = bool_array(cx, &mref.node(), srcs, errors) {
                    mods.op_sel_hi = v;
                }
            }
            "vop3" => {
                if let Some(on) = enable(cx, mref, errors) {
                    mods.vop3 = on;
                }
            }
            "dst_sel" | "src0_sel" | "src1_sel" => {
                have_sdwa_sel = true;
                let Some(v) = one_value(&mref.node(), name, errors) else {
                    continue;
                };
                let sel = if let ast::Expr::At(at) = &v {
                    match at.expr() {
                        Some(e) => match eval_bits(cx, &e, 3) {
                            Ok(x) => Some(x as u8),
                            Err(e) => {
                                errors.push(e);
                                None
                            }
                        },
                        None => None,
                    }
                } else {
                    match name_of(&v).as_deref().and_then(operand_names::sdwa_sel) {
                        Some(s) => Some(s),
                        None => {
                            errors.push(EncodeError::new(
                                v.syntax().text_range(),
                                format!(
                                    "unknown {name}: expected BYTE_0..3 (B0..3), WORD_0..1 \
                                     (W0..1), DWORD or @VALUE"
                                ),
                            ));
                            None
                        }
                    }
                };
                if let Some(s) = sel {
                    match name {
                        "dst_sel" => mods.dst_sel = s,
                        "src0_sel" => mods.src0_sel = s,
                        _ => mods.src1_sel = s,
                    }
                }
            }
            "dst_unused" | "dst_un" => {
                have_sdwa_sel = true;
                let Some(v) = one_value(&mref.node(), "dst_unused", errors) else {
                    continue;
                };
                let val = if let ast::Expr::At(at) = &v {
                    match at.expr() {
                        Some(e) => match eval_bits(cx, &e, 2) {
                            Ok(x) => Some(x as u8),
                            Err(e) => {
                                errors.push(e);
                                None
                            }
                        },
                        None => None,
                    }
                } else {
                    match name_of(&v).as_deref().and_then(operand_names::dst_unused) {
                        Some(x) => Some(x),
                        None => {
                            errors.push(EncodeError::new(
                                v.syntax().text_range(),
                                "unknown dst_unused: expected PAD, SEXT, PRESERVE or @VALUE",
                            ));
                            None
                        }
                    }
                };
                if let Some(x) = val {
                    mods.dst_unused = x;
                }
            }
            "quad_perm" => {
                have_dpp_ctrl = true;
                let Some(v) = one_value(&mref.node(), "quad_perm", errors) else {
                    continue;
                };
                if let Some(x) = perm_list(cx, &v, 4, 2, "quad_perm", errors) {
                    mods.dpp_ctrl = x as u16;
                }
            }
            "row_shl" | "row_shr" | "row_ror" => {
                have_dpp_ctrl = true;
                let Some((value, at)) = known_value(cx, mref, name, errors) else {
                    continue;
                };
                match value.map(|v| cx.known_field_at(at, v, 4, false)) {
                    Ok(0) => errors.push(EncodeError::new(
                        at,
                        format!("illegal zero shift for {name} (1..15)"),
                    )),
                    Ok(x) => {
                        let base = match name {
                            "row_shl" => 0x100,
                            "row_shr" => 0x110,
                            _ => 0x120,
                        };
                        mods.dpp_ctrl = base | x as u16;
                    }
                    Err(e) => errors.push(e),
                }
            }
            "row_share" | "row_xmask" => {
                have_dpp_ctrl = true;
                let Some((value, at)) = known_value(cx, mref, name, errors) else {
                    continue;
                };
                match value.map(|v| cx.known_field_at(at, v, 4, false)) {
                    Ok(x) => {
                        let base = if name == "row_share" { 0x150 } else { 0x160 };
                        mods.dpp_ctrl = base | x as u16;
                    }
                    Err(e) => errors.push(e),
                }
            }
            "wave_shl" | "wave_shr" | "wave_rol" | "wave_ror" => {
                have_dpp_ctrl = true;
                let node = mref.node();
                let vals = values(&node);
                let ok = match vals.as_slice() {
                    [] if !has_colon(&node) => true,
                    [v] => {
                        matches!(v, ast::Expr::Literal(_))
                            && v.syntax().text().to_string().trim() == "1"
                    }
                    _ => false,
                };
                if !ok {
                    errors.push(EncodeError::new(
                        range,
                        format!("{name} takes only the value 1"),
                    ));
                    continue;
                }
                mods.dpp_ctrl = match name {
                    "wave_shl" => 0x130,
                    "wave_rol" => 0x134,
                    "wave_shr" => 0x138,
                    _ => 0x13c,
                };
            }
            "row_mirror" | "row_half_mirror" | "row_hmirror" => {
                have_dpp_ctrl = true;
                mods.dpp_ctrl = if name == "row_mirror" { 0x140 } else { 0x141 };
            }
            "row_bcast15" | "row_bcast31" => {
                have_dpp_ctrl = true;
                mods.dpp_ctrl = if name == "row_bcast15" { 0x142 } else { 0x143 };
            }
            "row_bcast" => {
                have_dpp_ctrl = true;
                let Some((value, at)) = known_value(cx, mref, "row_bcast", errors) else {
                    continue;
                };
                match value {
                    Ok(15) => mods.dpp_ctrl = 0x142,
                    Ok(31) => mods.dpp_ctrl = 0x143,
                    Ok(_) => {
                        errors.push(EncodeError::new(at, "thread to broadcast must be 15 or 31"))
                    }
                    Err(e) => errors.push(e),
                }
            }
            "bank_mask" | "row_mask" => {
                if name == "bank_mask" {
                    have_bank = true;
                } else {
                    have_row = true;
                }
                let Some((value, at)) = known_value(cx, mref, name, errors) else {
                    continue;
                };
                match value.map(|v| cx.known_field_at(at, v, 4, false)) {
                    Ok(x) if name == "bank_mask" => mods.bank_mask = x as u8,
                    Ok(x) => mods.row_mask = x as u8,
                    Err(e) => errors.push(e),
                }
            }
            "bound_ctrl" => {
                have_bound = true;
                // `bound_ctrl`, `bound_ctrl:0`/`:1` (both enable), `bound_ctrl:0|1:EXPR`.
                let node = mref.node();
                let vals = values(&node);
                let first_ok = |e: &ast::Expr| {
                    matches!(e, ast::Expr::Literal(_))
                        && matches!(e.syntax().text().to_string().trim(), "0" | "1")
                };
                match vals.as_slice() {
                    [] if !has_colon(&node) => mods.bound_ctrl = true,
                    [v] if first_ok(v) => mods.bound_ctrl = true,
                    [v, e] if first_ok(v) => match eval_now(cx, e) {
                        Ok(x) => mods.bound_ctrl = x != 0,
                        Err(e) => errors.push(e),
                    },
                    _ => errors.push(EncodeError::new(
                        range,
                        "bound_ctrl value must be 0 or 1 (`bound_ctrl`, `bound_ctrl:0`, \
                         `bound_ctrl:0:EXPR`)",
                    )),
                }
            }
            "fi" => {
                if let Some(on) = enable(cx, mref, errors) {
                    mods.fi = on;
                    have_fi = true;
                }
            }
            "dpp8" => {
                have_dpp8 = true;
                let Some(v) = one_value(&mref.node(), "dpp8", errors) else {
                    continue;
                };
                if let Some(x) = perm_list(cx, &v, 8, 3, "dpp8", errors) {
                    mods.dpp8 = x;
                }
            }
            "sdwa" => {
                if let Some(on) = enable(cx, mref, errors) {
                    have_sdwa_switch = on;
                }
            }
            "dpp" => {
                if let Some(on) = enable(cx, mref, errors) {
                    have_dpp_switch = on;
                }
            }
            _ => unknown(errors),
        }
    }

    let sdwa = have_sdwa_sel || mods.sext != 0 || have_sdwa_switch;
    let dpp = have_dpp_ctrl || have_bound || have_bank || have_row || have_dpp_switch;
    // `fi` alone asks for DPP; with dpp8 it selects the DPP8 FI form.
    let dpp = dpp || (have_fi && !have_dpp8);
    mods.sdwa_mods = sdwa;
    mods.dpp_mods = dpp;
    // On GCN 1.4+ OMOD also fits the SDWA word, so it does not force VOP3 here.
    let vop3 = mods.vop3 || (!gcn14 && mods.omod != 0) || (mods.op_sel & 15) != 0;
    let kinds = vop3 as u8 + sdwa as u8 + dpp as u8 + have_dpp8 as u8;
    if kinds > 1
        || (gcn14 && mods.omod != 0 && (dpp || have_dpp8))
        || (mods.clamp && (dpp || have_dpp8))
    {
        errors.push(EncodeError::new(
            mods.first.unwrap_or(whole),
            "mixing modifiers from different encodings (VOP3, SDWA, DPP, DPP8) is illegal",
        ));
    }
    mods.extra = if have_dpp8 {
        Extra::Dpp8
    } else if dpp {
        Extra::Dpp
    } else if sdwa {
        Extra::Sdwa
    } else {
        Extra::None
    };
    mods
}

/// `[a,b,..]` with `n` elements of `bits` bits each, packed from element 0 up.
fn perm_list(
    cx: &mut Cx<'_>,
    v: &ast::Expr,
    n: usize,
    bits: u32,
    what: &str,
    errors: &mut Vec<EncodeError>,
) -> Option<u32> {
    let ast::Expr::List(list) = v else {
        errors.push(EncodeError::new(
            v.syntax().text_range(),
            format!("expected `[` before {what} list"),
        ));
        return None;
    };
    let items: Vec<ast::Expr> = list.items().collect();
    if items.len() != n {
        errors.push(EncodeError::new(
            v.syntax().text_range(),
            format!("{what} takes {n} elements, {} given", items.len()),
        ));
        return None;
    }
    let mut out = 0u32;
    let mut good = true;
    for (i, item) in items.iter().enumerate() {
        match eval_bits(cx, item, bits) {
            Ok(x) => out |= x << (bits as usize * i),
            Err(e) => {
                errors.push(e);
                good = false;
            }
        }
    }
    good.then_some(out)
}
