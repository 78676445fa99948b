//! DS, MUBUF, MTBUF, MIMG, EXP, FLAT, GLOBAL, SCRATCH.
//!
//! Out-of-range offsets and masks are truncated to their field, as clrxasm does (it
//! warns); pending offsets get a [`Fixup`](super::Fixup).

use crate::operand_names;
use gcn_syntax::{ast, ast::AstNode, SyntaxKind, TextRange, TextSize};
use rowan::GreenNodeData;
use smallvec::smallvec;

use super::operands::{
    expect_operand_count, is_word, range_of, unknown_modifier, word_of, Align, Cx, Items, ModValue,
    ModifierRef, OperandSyntax, Reg, SrcSpec,
};
use super::{EncodeError, FixupKind, Value, Words};
use crate::arch::Generation;
use crate::table::{Encoding, Flags, Instruction, OperandKind, ValueType};

type Result<T> = std::result::Result<T, EncodeError>;

/// Encodes a memory instruction (`row` exists on `cx.gen()`): its words.
pub(super) fn encode(
    cx: &mut Cx<'_>,
    row: &'static Instruction,
    instr: &ast::Instruction,
    green: &GreenNodeData,
) -> Result<Words> {
    let mut items = Items::default();
    items.read(instr, green)?;
    items.require_commas()?;
    let whole = instr.syntax().text_range();
    let op = row.opcode(cx.gen()).unwrap_or(0) as u32;
    match row.encoding {
        Encoding::Ds => ds(cx, row, op, &items, whole),
        Encoding::Mubuf | Encoding::Mtbuf => buffer(cx, row, op, &items, whole),
        Encoding::Mimg => mimg(cx, row, op, &items, whole),
        Encoding::Exp => exp(cx, &items, whole),
        Encoding::Flat | Encoding::Global | Encoding::Scratch => flat(cx, row, op, &items, whole),
        _ => Err(EncodeError::new(whole, "not a memory instruction")),
    }
}

/// A known or pending field value: known values are stored as [`super::fit_field`] says
/// (with its warning); pending ones get a fixup at `word`/`shift`.
fn field<E: OperandSyntax + ?Sized>(
    cx: &mut Cx<'_>,
    v: Value,
    e: &E,
    word: usize,
    shift: u8,
    bits: u8,
    signed: bool,
) -> u32 {
    match v {
        Value::Known(v) => cx.known_field(e, v, bits, signed),
        Value::Pending => {
            cx.fixup(word, shift, bits, signed, FixupKind::Value, e);
            0
        }
    }
}

/// Bare-word flags written where an operand was expected (`buffer_wbinvl1 glc`,
/// `ds_gws_sema_p gds`): operands past `n` that are words become modifiers by name.
/// Each comes with its range and the place of the comma before it, if any: a flag
/// after a comma is refused ([`comma_before_flag`]), a word put back as an operand is not.
fn trailing_words(items: &Items, n: usize) -> (usize, Vec<(String, TextRange, Option<TextSize>)>) {
    let mut end = items.operands.len();
    let mut words = Vec::new();
    while end > n {
        let last = &items.operands[end - 1];
        // Checked on the green node first: only a name needs its syntax node.
        if last.kind() != SyntaxKind::NAME_REF {
            break;
        }
        let ast::Expr::NameRef(name) = last.expr().into_owned() else {
            break;
        };
        let Some(w) = name.name_token() else { break };
        words.push((
            w.text().to_ascii_lowercase(),
            w.text_range(),
            last.comma_before(),
        ));
        end -= 1;
    }
    (end, words)
}

/// The error for a flag written after a comma (`..., 0, offen`), as the reference
/// reads modifiers separated by spaces only.
fn comma_before_flag(comma: Option<TextSize>) -> Result<()> {
    match comma {
        Some(at) => Err(EncodeError::new(
            TextRange::empty(at),
            super::operands::COMMA_BEFORE_MODIFIER,
        )),
        None => Ok(()),
    }
}

/// A format or dimension written by name or as `@expr`.
enum NameOrValue {
    /// The name's text, lowercase.
    Name(String),
    Value(u32),
}

/// A name, or `@expr` for a field of `bits` bits (truncated, with clrxasm's warning).
fn name_or_value(cx: &mut Cx<'_>, e: &ast::Expr, bits: u8) -> Result<NameOrValue> {
    if let ast::Expr::At(a) = e {
        let Some(inner) = a.expr() else {
            return Err(EncodeError::new(
                range_of(e),
                "expected an expression after `@`",
            ));
        };
        let v = cx.known(&inner)?;
        return Ok(NameOrValue::Value(cx.known_field(e, v, bits, false)));
    }
    let text = e
        .syntax()
        .descendants_with_tokens()
        .filter_map(|x| x.into_token())
        .filter(|t| !t.kind().is_trivia())
        .map(|t| t.text().to_ascii_lowercase())
        .collect();
    Ok(NameOrValue::Name(text))
}

/// The modifiers `row` takes on `gen` (see [`super::modifiers_taken`]).
pub(super) fn modifiers_taken(row: &Instruction, gen: Generation) -> Vec<&'static str> {
    match row.encoding {
        Encoding::Ds => ds_modifiers(row).to_vec(),
        Encoding::Mubuf | Encoding::Mtbuf => {
            BufferFlags::modifiers(row.encoding == Encoding::Mtbuf, gen).collect()
        }
        Encoding::Mimg => mimg_modifiers(gen).collect(),
        Encoding::Exp => EXP_MODIFIERS.to_vec(),
        Encoding::Flat | Encoding::Global | Encoding::Scratch => {
            flat_modifiers(gen, row.encoding).collect()
        }
        _ => Vec::new(),
    }
}

// ---- DS ---------------------------------------------------------------------------------

/// The modifiers a DS row takes (`offset0`/`offset1` those with two offsets).
fn ds_modifiers(row: &Instruction) -> &'static [&'static str] {
    if row.flags.contains(Flags::OFFSET2) {
        &["gds", "offset", "offset0", "offset1"]
    } else {
        &["gds", "offset"]
    }
}

fn ds(
    cx: &mut Cx<'_>,
    row: &'static Instruction,
    op: u32,
    items: &Items,
    whole: TextRange,
) -> Result<Words> {
    let gen = cx.gen();
    let two = row.flags.contains(Flags::OFFSET2);
    // GWS instructions (`vdata` or no operand in the table): clrxasm takes one VGPR in
    // the ADDR field and requires `gds`.
    let gds_only =
        row.flags.contains(Flags::GDS) && row.operands.iter().all(|o| o.kind == OperandKind::VData);
    let (mut offset, mut offset0, mut offset1) = (None::<(Value, ModValue)>, None, None);
    let mut gds = false;
    for m in &items.modifiers {
        if m.is("gds") {
            gds = cx.mod_flag(m)?;
        } else if m.is("offset") {
            if offset.is_some() {
                cx.warn_repeated(m);
            }
            offset = Some(cx.mod_pending(m)?);
        } else if two && m.is("offset0") {
            if offset0.is_some() {
                cx.warn_repeated(m);
            }
            offset0 = Some(cx.mod_pending(m)?);
        } else if two && m.is("offset1") {
            if offset1.is_some() {
                cx.warn_repeated(m);
            }
            offset1 = Some(cx.mod_pending(m)?);
        } else {
            return Err(m.unknown("DS", ds_modifiers(row).iter().copied()));
        }
    }
    let (mut vdst, mut addr, mut data) = (0u32, 0u32, [0u32; 2]);
    if gds_only {
        // GWS instructions: one VGPR in the ADDR field (or none).
        let (n, words) = trailing_words(items, 0);
        for (w, r, comma) in &words {
            if w == "gds" {
                comma_before_flag(*comma)?;
                gds = true;
            } else {
                return Err(unknown_modifier(*r, "DS", w, ["gds"]));
            }
        }
        let operands = &items.operands[..n];
        if operands.len() > 1 {
            return Err(EncodeError::new(
                range_of(&operands[1]),
                "too many operands: expected 1",
            ));
        }
        if let Some(e) = operands.first() {
            addr = cx.vreg(e, 1, false)?.vgpr() as u32;
        }
        if !gds {
            return Err(EncodeError::new(
                whole,
                "this instruction requires the `gds` modifier",
            ));
        }
    } else {
        let mut ops = row.operands;
        // clrxasm takes DS_CONDXCHG32_RTN_* with VDST only.
        if row.mnemonic.starts_with("ds_condxchg32_rtn") && items.operands.len() == 1 {
            ops = &ops[..1];
        }
        items.expect_count(ops.len(), ops.len(), whole)?;
        let mut ndata = 0;
        for (o, e) in ops.iter().zip(&items.operands) {
            let count = o.min_regs as u32;
            match o.kind {
                OperandKind::VDst => vdst = cx.vreg(e, count, true)?.vgpr() as u32,
                OperandKind::DsAddr => addr = cx.vreg(e, count, false)?.vgpr() as u32,
                OperandKind::VData => {
                    data[ndata.min(1)] = cx.vreg(e, count, false)?.vgpr() as u32;
                    ndata += 1;
                }
                _ => return Err(EncodeError::new(range_of(e), "unsupported operand")),
            }
        }
    }
    let mut off = 0u32;
    if let Some((v, e)) = &offset {
        off = field(cx, *v, e, 0, 0, 16, false);
    }
    if let Some((v, e)) = &offset0 {
        off = (off & 0xff00) | field(cx, *v, e, 0, 0, 8, false);
    }
    if let Some((v, e)) = &offset1 {
        off = (off & 0x00ff) | field(cx, *v, e, 0, 8, 8, false) << 8;
    }
    let old_layout = gen <= Generation::Gcn1_1 || gen.is_gfx10();
    let w0 = if old_layout {
        0xd800_0000 | (op & 0xff) << 18 | (gds as u32) << 17 | off
    } else {
        0xd800_0000 | (op & 0xff) << 17 | (gds as u32) << 16 | off
    };
    Ok(smallvec![
        w0,
        vdst << 24 | data[1] << 16 | data[0] << 8 | addr
    ])
}

/// The VDATA (or VDST) register of a buffer or image instruction, recorded as what the
/// instruction does with it: a store reads it, a load writes it, an atomic reads its
/// data and, returning the old value (`glc`), writes that back into the same registers.
fn vdata_operand<E: OperandSyntax + ?Sized>(
    cx: &mut Cx<'_>,
    row: &Instruction,
    kind: OperandKind,
    e: &E,
    count: u32,
    glc: bool,
) -> Result<u32> {
    let returns = row.flags.contains(Flags::ATOMIC) && glc;
    let reg = cx.vreg(e, count, kind == OperandKind::VDst || returns)?;
    if returns {
        cx.use_reg(&reg, false);
    }
    Ok(reg.vgpr() as u32)
}

// ---- MUBUF / MTBUF ----------------------------------------------------------------------

/// Registers of a packed-or-not D16 format access: GCN 1.2 has one component per
/// register; later generations pack two.
fn d16_format_regs(row: &Instruction, gen: Generation, base: u32) -> u32 {
    let name = row.mnemonic;
    if gen == Generation::Gcn1_2 && has_part(name, "format_d16_") && !has_part(name, "_hi") {
        let comps = name.rsplit('_').next().map_or(1, |c| c.len() as u32);
        return comps;
    }
    base
}

/// Whether `part` occurs in `name`: `str::contains` builds a substring searcher on each
/// call, which costs more than this scan over a short mnemonic.
fn has_part(name: &str, part: &str) -> bool {
    name.as_bytes()
        .windows(part.len())
        .any(|w| w == part.as_bytes())
}

/// `format:[dfmt, nfmt]` (either may be omitted, names or `@expr`) before GCN 1.5,
/// `format:N` on GCN 1.5. Returns (dfmt, nfmt) or the GCN 1.5 unified format in `.0`.
fn buffer_format(
    cx: &mut Cx<'_>,
    m: &ModifierRef,
    gfx10: bool,
    fmt: &mut (u32, u32),
) -> Result<()> {
    let Some(value) = m.value()? else {
        return Err(EncodeError::new(
            m.range(),
            "expected `:` and a format after `format`",
        ));
    };
    let list: Vec<ast::Expr> = match &value {
        // GCN 1.5 has one unified format: a data and number format pair has no place.
        ast::Expr::List(_) if gfx10 => {
            return Err(EncodeError::new(
                range_of(&value),
                "on GCN 1.5 `format` takes the unified format as one number (`format:22` is 32_FLOAT), not `[data format, number format]`",
            ))
        }
        ast::Expr::List(l) => l.items().collect(),
        _ if gfx10 => {
            let v = cx.known(&value)?;
            fmt.0 = cx.known_field(&value, v, 7, false);
            return Ok(());
        }
        _ => return Err(EncodeError::new(range_of(&value), "expected `[data format, number format]`")),
    };
    if list.is_empty() || list.len() > 2 {
        return Err(EncodeError::new(
            range_of(&value),
            "expected `[data format, number format]`",
        ));
    }
    let mut seen_dfmt = false;
    for (i, e) in list.iter().enumerate() {
        // `[@d]` and `[@d, @n]`: the first is the data format (4 bits), the second the
        // number format (3 bits).
        let text = match name_or_value(cx, e, if i == 0 { 4 } else { 3 })? {
            NameOrValue::Value(v) if i == 0 => {
                fmt.0 = v;
                seen_dfmt = true;
                continue;
            }
            NameOrValue::Value(v) => {
                fmt.1 = v;
                continue;
            }
            NameOrValue::Name(text) => text,
        };
        if let Some(d) = operand_names::data_format(&text).filter(|_| !seen_dfmt) {
            fmt.0 = d;
            seen_dfmt = true;
        } else if let Some(n) = operand_names::number_format(&text) {
            fmt.1 = n;
            seen_dfmt = true;
        } else {
            return Err(EncodeError::new(
                range_of(e),
                format!("unknown data or number format `{text}`"),
            ));
        }
    }
    Ok(())
}

/// The on/off modifiers of MUBUF and MTBUF, given as `name` or as bare words.
#[derive(Default)]
struct BufferFlags {
    offen: bool,
    idxen: bool,
    glc: bool,
    slc: bool,
    tfe: bool,
    lds: bool,
    addr64: bool,
    dlc: bool,
}

impl BufferFlags {
    /// The length of the longest flag name: longer names are none.
    const LONGEST_NAME: usize = "addr64".len();
    /// Every flag's name, whichever instruction takes it.
    const NAMES: [&'static str; 8] = [
        "offen", "idxen", "glc", "slc", "tfe", "lds", "addr64", "dlc",
    ];

    /// The flags a MUBUF (or, `typed`, MTBUF) instruction takes on `gen`.
    fn flags(typed: bool, gen: Generation) -> impl Iterator<Item = &'static str> {
        Self::NAMES
            .into_iter()
            .filter(move |n| Self::default().named(n.as_bytes(), typed, gen).is_some())
    }

    /// All the modifiers such an instruction takes: the flags, `offset`, `format`.
    fn modifiers(typed: bool, gen: Generation) -> impl Iterator<Item = &'static str> {
        Self::flags(typed, gen)
            .chain(["offset"])
            .chain(typed.then_some("format"))
    }

    /// The flag called `name` (lowercase), where the instruction (`typed`: MTBUF) takes it.
    fn named(&mut self, name: &[u8], typed: bool, gen: Generation) -> Option<&mut bool> {
        Some(match name {
            b"offen" => &mut self.offen,
            b"idxen" => &mut self.idxen,
            b"glc" => &mut self.glc,
            b"slc" => &mut self.slc,
            b"tfe" => &mut self.tfe,
            b"lds" if !typed => &mut self.lds,
            b"addr64" if gen <= Generation::Gcn1_1 => &mut self.addr64,
            b"dlc" if gen.is_gfx10() => &mut self.dlc,
            _ => return None,
        })
    }
}

/// `text` ASCII-lowercased in `buf`, or empty if it is longer than `buf` (no allocation
/// for the short names compared this way).
fn ascii_lowercase_in<'b>(text: &str, buf: &'b mut [u8]) -> &'b [u8] {
    let Some(lower) = buf.get_mut(..text.len()) else {
        return &[];
    };
    lower.copy_from_slice(text.as_bytes());
    lower.make_ascii_lowercase();
    lower
}

fn buffer(
    cx: &mut Cx<'_>,
    row: &'static Instruction,
    op: u32,
    items: &Items,
    whole: TextRange,
) -> Result<Words> {
    let gen = cx.gen();
    let gfx10 = gen.is_gfx10();
    let typed = row.encoding == Encoding::Mtbuf;
    let class = if typed { "MTBUF" } else { "MUBUF" };
    let mut flags = BufferFlags::default();
    let mut offset: Option<(Value, ModValue)> = None;
    let mut fmt: (u32, u32) = if gfx10 { (0, 0) } else { (1, 0) };
    let mut have_format = false;
    for m in &items.modifiers {
        let mut lower = [0u8; BufferFlags::LONGEST_NAME];
        if let Some(flag) = flags.named(ascii_lowercase_in(m.name(), &mut lower), typed, gen) {
            *flag = cx.mod_flag(m)?;
        } else if m.is("offset") {
            if offset.is_some() {
                cx.warn_repeated(m);
            }
            offset = Some(cx.mod_pending(m)?);
        } else if m.is("format") && typed {
            if std::mem::replace(&mut have_format, true) {
                cx.warn_repeated(m);
            }
            buffer_format(cx, m, gfx10, &mut fmt)?;
        } else {
            return Err(m.unknown(class, BufferFlags::modifiers(typed, gen)));
        }
    }
    let ops = row.operands;
    let (n, words) = trailing_words(items, ops.len().saturating_sub(1).min(items.operands.len()));
    let mut n = n;
    for (w, r, comma) in &words {
        if let Some(flag) = flags.named(w.as_bytes(), typed, gen) {
            comma_before_flag(*comma)?;
            *flag = true;
        } else if ops.len() > n {
            // A word that could be an operand (`off`): put it back.
            n += 1;
        } else {
            return Err(unknown_modifier(
                *r,
                class,
                w,
                BufferFlags::flags(typed, gen),
            ));
        }
    }
    let BufferFlags {
        offen,
        idxen,
        glc,
        slc,
        tfe,
        lds,
        addr64,
        dlc,
    } = flags;
    if addr64 && (idxen || offen) {
        return Err(EncodeError::new(
            whole,
            "`idxen` and `offen` must be off with `addr64`",
        ));
    }
    if lds && tfe {
        return Err(EncodeError::new(
            whole,
            "`lds` and `tfe` cannot be used together",
        ));
    }
    let operands = &items.operands[..n];
    let (mut vdata, mut vaddr, mut srsrc, mut soffset) = (0u32, 0u32, 0u32, 0u32);
    if !ops.is_empty() {
        let full = ops.len();
        // VADDR may be left out (or `off`) when no address mode needs it.
        let with_vaddr = ops.iter().any(|o| o.kind == OperandKind::VAddr);
        if operands.len() != full && !(with_vaddr && operands.len() == full - 1) {
            expect_operand_count(operands, full, full, whole)?;
        }
        let mut it = operands.iter();
        let needs_vaddr = idxen || offen || addr64;
        for o in ops {
            match o.kind {
                OperandKind::VDst | OperandKind::VData => {
                    let e = it.next().unwrap();
                    let base = d16_format_regs(row, gen, o.min_regs as u32);
                    let count = base + tfe as u32;
                    vdata = vdata_operand(cx, row, o.kind, e, count, glc)?;
                }
                OperandKind::VAddr => {
                    let present = operands.len() == full;
                    let e = if present { it.next() } else { None };
                    match e {
                        Some(e) if !is_word(e, "off") => {
                            let count = if addr64 || (idxen && offen) { 2 } else { 1 };
                            vaddr = cx.vreg(e, count, false)?.vgpr() as u32;
                        }
                        _ if needs_vaddr => {
                            let at = e.map_or(whole, range_of);
                            return Err(EncodeError::new(
                                at,
                                "VADDR is required with `idxen`, `offen` or `addr64`",
                            ));
                        }
                        _ => {}
                    }
                }
                OperandKind::SRsrc => {
                    let e = it.next().unwrap();
                    srsrc = cx.sreg(e, 4, Align::Scalar, false)?.code8() as u32 >> 2;
                }
                OperandKind::SOffset => {
                    let e = it.next().unwrap();
                    let spec = SrcSpec::scalar(1, ValueType::Int)
                        .no_literal("a literal cannot be used in MUBUF/MTBUF");
                    soffset = cx.src(e, &spec)?.code8() as u32;
                }
                _ => return Err(EncodeError::new(whole, "unsupported operand")),
            }
        }
    } else if !operands.is_empty() {
        return Err(EncodeError::new(
            range_of(&operands[0]),
            "too many operands: expected 0",
        ));
    }
    let mut off = 0u32;
    if let Some((v, e)) = &offset {
        off = field(cx, *v, e, 0, 0, 12, false);
    }
    let flags = (idxen as u32) << 13 | (offen as u32) << 12 | (glc as u32) << 14 | off;
    let mut w1 = soffset << 24 | (tfe as u32) << 23 | srsrc << 16 | vdata << 8 | vaddr;
    let w0 = if typed {
        if gfx10 {
            w1 |= (slc as u32) << 22 | ((op >> 3) & 1) << 21;
            0xe800_0000 | fmt.0 << 19 | (op & 7) << 16 | (dlc as u32) << 15 | flags
        } else {
            w1 |= (slc as u32) << 22;
            let base = 0xe800_0000 | (fmt.1 & 7) << 23 | (fmt.0 & 0xf) << 19 | flags;
            if gen <= Generation::Gcn1_1 {
                base | (op & 7) << 16 | (addr64 as u32) << 15
            } else {
                base | (op & 0xf) << 15
            }
        }
    } else if gfx10 {
        w1 |= (slc as u32) << 22;
        0xe000_0000
            | ((op >> 7) & 1) << 25
            | (op & 0x7f) << 18
            | (lds as u32) << 16
            | (dlc as u32) << 15
            | flags
    } else if gen <= Generation::Gcn1_1 {
        w1 |= (slc as u32) << 22;
        0xe000_0000 | (op & 0x7f) << 18 | (lds as u32) << 16 | (addr64 as u32) << 15 | flags
    } else {
        0xe000_0000 | (op & 0x7f) << 18 | (slc as u32) << 17 | (lds as u32) << 16 | flags
    };
    Ok(smallvec![w0, w1])
}

// ---- MIMG -------------------------------------------------------------------------------

const DIMS: &[&str] = &[
    "1d",
    "2d",
    "3d",
    "cube",
    "1d_array",
    "2d_array",
    "2d_msaa",
    "2d_msaa_array",
];

/// The modifiers MIMG instructions take on `gen`.
fn mimg_modifiers(gen: Generation) -> impl Iterator<Item = &'static str> + Clone {
    let gfx10 = gen.is_gfx10();
    super::operands::taken_names([
        ("dmask", true),
        ("unorm", true),
        ("glc", true),
        ("slc", true),
        ("r128", true),
        ("tfe", true),
        ("lwe", true),
        ("da", true),
        ("d16", gen >= Generation::Gcn1_2),
        ("a16", gen >= Generation::Gcn1_4),
        ("dlc", gfx10),
        ("dim", gfx10),
    ])
}

fn mimg(
    cx: &mut Cx<'_>,
    row: &'static Instruction,
    op: u32,
    items: &Items,
    whole: TextRange,
) -> Result<Words> {
    let gen = cx.gen();
    let gfx10 = gen.is_gfx10();
    let mut dmask: u32 = 1;
    let (
        mut unorm,
        mut glc,
        mut slc,
        mut r128,
        mut tfe,
        mut lwe,
        mut da,
        mut d16,
        mut a16,
        mut dlc,
    ) = (
        false, false, false, false, false, false, false, false, false, false,
    );
    let mut dim: Option<u32> = None;
    let mut have_dmask = false;
    for m in &items.modifiers {
        if !mimg_modifiers(gen).any(|n| m.is(n)) {
            return Err(m.unknown("MIMG", mimg_modifiers(gen)));
        }
        if m.is("dmask") {
            if std::mem::replace(&mut have_dmask, true) {
                cx.warn_repeated(m);
            }
            let Some(e) = m.value()? else {
                return Err(EncodeError::new(
                    m.range(),
                    "expected `:` and a value after `dmask`",
                ));
            };
            let v = cx.known(&e)?;
            if !(0..=15).contains(&v) {
                cx.warn(
                    range_of(&e),
                    format!("dmask {v:#x} out of range (1-15): its low 4 bits are kept"),
                );
            }
            dmask = v as u32 & 0xf;
            if dmask == 0 {
                return Err(EncodeError::new(m.range(), "zero in dmask is illegal"));
            }
        } else if m.is("unorm") {
            unorm = cx.mod_flag(m)?;
        } else if m.is("glc") {
            glc = cx.mod_flag(m)?;
        } else if m.is("slc") {
            slc = cx.mod_flag(m)?;
        } else if m.is("r128") {
            r128 = cx.mod_flag(m)?;
        } else if m.is("tfe") {
            tfe = cx.mod_flag(m)?;
        } else if m.is("lwe") {
            lwe = cx.mod_flag(m)?;
        } else if m.is("da") {
            da = cx.mod_flag(m)?;
        } else if m.is("d16") {
            d16 = cx.mod_flag(m)?;
        } else if m.is("a16") {
            a16 = cx.mod_flag(m)?;
        } else if m.is("dlc") {
            dlc = cx.mod_flag(m)?;
        } else if m.is("dim") {
            if dim.is_some() {
                cx.warn_repeated(m);
            }
            let Some(v) = m.value()? else {
                return Err(EncodeError::new(
                    m.range(),
                    "expected `:` and a dimension after `dim`",
                ));
            };
            let text = match name_or_value(cx, &v, 3)? {
                NameOrValue::Value(d) => {
                    dim = Some(d);
                    continue;
                }
                NameOrValue::Name(text) => text,
            };
            let key = text.strip_prefix("sq_rsrc_img_").unwrap_or(&text);
            match DIMS.iter().position(|d| *d == key) {
                Some(i) => dim = Some(i as u32),
                None => {
                    return Err(EncodeError::new(
                        range_of(&v),
                        format!("unknown MIMG dimension `{text}`"),
                    ))
                }
            }
        } else {
            return Err(m.unknown("MIMG", mimg_modifiers(gen)));
        }
    }
    if gfx10 && dim.is_none() {
        return Err(EncodeError::new(
            whole,
            "MIMG instructions on GCN 1.5 require a `dim:` modifier",
        ));
    }
    let store_like = row.flags.contains(Flags::STORE) || row.flags.contains(Flags::ATOMIC);
    if store_like && !unorm {
        return Err(EncodeError::new(
            whole,
            "`unorm` must be set for store and atomic instructions",
        ));
    }
    let ops = row.operands;
    items.expect_count(ops.len(), ops.len(), whole)?;
    let comps = if row.flags.contains(Flags::GATHER4) {
        4
    } else {
        dmask.count_ones()
    };
    let packed = d16 && gen >= Generation::Gcn1_4;
    let count = if packed { comps.div_ceil(2) } else { comps } + tfe as u32;
    let (mut vdata, mut vaddr, mut srsrc, mut ssamp) = (0u32, 0u32, 0u32, 0u32);
    let mut extra: Vec<u8> = Vec::new();
    for (o, e) in ops.iter().zip(&items.operands) {
        match o.kind {
            OperandKind::VDst | OperandKind::VData => {
                vdata = vdata_operand(cx, row, o.kind, e, count, glc)?;
            }
            OperandKind::VAddr => {
                if let ast::Expr::List(list) = e.expr().into_owned() {
                    if !gfx10 {
                        return Err(EncodeError::new(range_of(e), "address lists need GCN 1.5"));
                    }
                    let mut addrs: Vec<u8> = Vec::new();
                    for item in list.items() {
                        let r: Reg = cx.vreg_range(&item, 1, 16, false)?;
                        for i in 0..r.count {
                            addrs.push(r.vgpr().wrapping_add(i as u8));
                        }
                    }
                    if addrs.is_empty() {
                        return Err(EncodeError::new(range_of(e), "expected address registers"));
                    }
                    vaddr = addrs[0] as u32;
                    extra = addrs[1..].to_vec();
                } else {
                    vaddr = cx.vreg_range(e, 1, 16, false)?.vgpr() as u32;
                }
            }
            OperandKind::SRsrc => {
                let n = if r128 { 4 } else { 8 };
                srsrc = cx.sreg(e, n, Align::Scalar, false)?.code8() as u32 >> 2;
            }
            OperandKind::SSamp => ssamp = cx.sreg(e, 4, Align::Scalar, false)?.code8() as u32 >> 2,
            _ => return Err(EncodeError::new(range_of(e), "unsupported operand")),
        }
    }
    let nsa = extra.len().div_ceil(4) as u32;
    let mut w1 = ssamp << 21 | srsrc << 16 | vdata << 8 | vaddr | (d16 as u32) << 31;
    let mut w0 = 0xf000_0000
        | (slc as u32) << 25
        | (op & 0x7f) << 18
        | (lwe as u32) << 17
        | (tfe as u32) << 16
        | (glc as u32) << 13
        | (unorm as u32) << 12
        | (dmask & 0xf) << 8;
    if gfx10 {
        w0 |= (r128 as u32) << 15
            | (dlc as u32) << 7
            | dim.unwrap_or(0) << 3
            | nsa << 1
            | ((op >> 7) & 1);
        w1 |= (a16 as u32) << 30;
    } else {
        w0 |= ((r128 || a16) as u32) << 15 | (da as u32) << 14;
    }
    let mut words = smallvec![w0, w1];
    for chunk in extra.chunks(4) {
        let mut w = 0u32;
        for (i, &b) in chunk.iter().enumerate() {
            w |= (b as u32) << (8 * i);
        }
        words.push(w);
    }
    Ok(words)
}

// ---- EXP --------------------------------------------------------------------------------

fn exp_target(text: &str) -> std::result::Result<u32, &'static str> {
    let t = text.to_ascii_lowercase();
    let num = |s: &str| -> std::result::Result<u32, &'static str> {
        if s.is_empty() {
            return Err("missing target number");
        }
        s.parse::<u32>().map_err(|_| "unknown export target")
    };
    if t == "mrtz" {
        return Ok(8);
    }
    if t == "null" {
        return Ok(9);
    }
    if let Some(n) = t.strip_prefix("mrt") {
        let n = num(n)?;
        return if n < 8 {
            Ok(n)
        } else {
            Err("MRT number out of range (0-7)")
        };
    }
    if let Some(n) = t.strip_prefix("pos") {
        let n = num(n)?;
        return if n < 4 {
            Ok(12 + n)
        } else {
            Err("position number out of range (0-3)")
        };
    }
    if let Some(n) = t.strip_prefix("param") {
        let n = num(n)?;
        return if n < 32 {
            Ok(32 + n)
        } else {
            Err("parameter number out of range (0-31)")
        };
    }
    Err("unknown export target")
}

/// The modifiers of `exp`.
const EXP_MODIFIERS: [&str; 3] = ["done", "vm", "compr"];

fn exp(cx: &mut Cx<'_>, items: &Items, whole: TextRange) -> Result<Words> {
    let (mut done, mut vm, mut compr) = (false, false, false);
    for m in &items.modifiers {
        if m.is("done") {
            done = cx.mod_flag(m)?;
        } else if m.is("vm") {
            vm = cx.mod_flag(m)?;
        } else if m.is("compr") {
            compr = cx.mod_flag(m)?;
        } else {
            return Err(m.unknown("EXP", EXP_MODIFIERS));
        }
    }
    items.expect_count(5, 5, whole)?;
    let t = &items.operands[0];
    let Some(word) = word_of(&t.expr()) else {
        return Err(EncodeError::new(
            range_of(t),
            "expected an export target (mrt0-7, mrtz, null, pos0-3, param0-31)",
        ));
    };
    let target = exp_target(word.text()).map_err(|m| EncodeError::new(range_of(t), m))?;
    let mut srcs: [Option<(u32, TextRange)>; 4] = [None; 4];
    for (i, e) in items.operands[1..].iter().enumerate() {
        if !is_word(e, "off") {
            srcs[i] = Some((cx.vreg(e, 1, false)?.vgpr() as u32, range_of(e)));
        }
    }
    let mut en = 0u32;
    for (i, s) in srcs.iter().enumerate() {
        if s.is_some() {
            en |= 1 << i;
        }
    }
    let v = |i: usize| srcs[i].map_or(0, |s| s.0);
    let w1 = if compr {
        for (a, b) in [(0usize, 1usize), (2, 3)] {
            if let (Some(x), Some(y)) = (srcs[a], srcs[b]) {
                if x.0 != y.0 {
                    return Err(EncodeError::new(
                        y.1,
                        format!("VSRC{b} must be equal to VSRC{a} in compressed mode"),
                    ));
                }
            }
        }
        // clrxasm takes VSRC0 and VSRC2 as written (zero when `off`).
        v(2) << 8 | v(0)
    } else {
        v(3) << 24 | v(2) << 16 | v(1) << 8 | v(0)
    };
    // EXP is 0b110001 on GCN 1.2/1.4, 0b111110 elsewhere.
    let gen = cx.gen();
    let base: u32 = if matches!(
        gen,
        Generation::Gcn1_2 | Generation::Gcn1_4 | Generation::Gcn1_4_1
    ) {
        0xc400_0000
    } else {
        0xf800_0000
    };
    let w0 =
        base | (vm as u32) << 12 | (done as u32) << 11 | (compr as u32) << 10 | target << 4 | en;
    Ok(smallvec![w0, w1])
}

// ---- FLAT / GLOBAL / SCRATCH ---------------------------------------------------------------

/// The modifiers FLAT, GLOBAL and SCRATCH instructions (`encoding`) take on `gen`.
fn flat_modifiers(
    gen: Generation,
    encoding: Encoding,
) -> impl Iterator<Item = &'static str> + Clone {
    let vega = gen >= Generation::Gcn1_4;
    super::operands::taken_names([
        ("glc", true),
        ("slc", true),
        ("tfe", !vega),
        ("nv", vega),
        ("lds", vega && encoding != Encoding::Flat),
        ("dlc", gen.is_gfx10()),
        ("offset", vega),
        ("inst_offset", vega),
    ])
}

fn flat(
    cx: &mut Cx<'_>,
    row: &'static Instruction,
    op: u32,
    items: &Items,
    whole: TextRange,
) -> Result<Words> {
    let gen = cx.gen();
    let gfx10 = gen.is_gfx10();
    let vega = gen >= Generation::Gcn1_4;
    let class = match row.encoding {
        Encoding::Flat => "FLAT",
        Encoding::Global => "GLOBAL",
        _ => "SCRATCH",
    };
    let (mut glc, mut slc, mut tfe, mut nv, mut lds, mut dlc) =
        (false, false, false, false, false, false);
    let mut offset: Option<(Value, ModValue)> = None;
    for m in &items.modifiers {
        if !flat_modifiers(gen, row.encoding).any(|n| m.is(n)) {
            if vega && m.is("lds") {
                return Err(EncodeError::new(
                    m.range(),
                    "`lds` is allowed only for global_ and scratch_ instructions",
                ));
            }
            return Err(m.unknown(class, flat_modifiers(gen, row.encoding)));
        }
        if m.is("glc") {
            glc = cx.mod_flag(m)?;
        } else if m.is("slc") {
            slc = cx.mod_flag(m)?;
        } else if m.is("tfe") {
            tfe = cx.mod_flag(m)?;
        } else if m.is("nv") {
            nv = cx.mod_flag(m)?;
        } else if m.is("lds") {
            lds = cx.mod_flag(m)?;
        } else if m.is("dlc") {
            dlc = cx.mod_flag(m)?;
        } else if m.is("offset") || m.is("inst_offset") {
            if offset.is_some() {
                cx.warn_repeated(m);
            }
            offset = Some(cx.mod_pending(m)?);
        } else {
            return Err(m.unknown(class, flat_modifiers(gen, row.encoding)));
        }
    }
    let ops = row.operands;
    let atomic = row.flags.contains(Flags::ATOMIC);
    let mut ops_iter: &[crate::table::Operand] = ops;
    // Atomics without a returned value leave out VDST.
    if atomic && items.operands.len() + 1 == ops.len() {
        ops_iter = &ops[1..];
        if glc {
            return Err(EncodeError::new(
                whole,
                "`glc` needs the VDST operand (the returned value)",
            ));
        }
    }
    items.expect_count(ops_iter.len(), ops_iter.len(), whole)?;
    // Where the address comes from: an SGPR pair / SGPR (`saddr`) or `off`.
    let saddr_off = ops_iter
        .iter()
        .zip(&items.operands)
        .find(|(o, _)| o.kind == OperandKind::SAddr)
        .is_some_and(|(_, e)| is_word(e, "off"));
    let (mut vdst, mut vaddr, mut data) = (0u32, 0u32, 0u32);
    let off_code: u32 = if gfx10 { 0x7d } else { 0x7f };
    let mut saddr: u32 = if gfx10 { 0x7d } else { 0 };
    for (o, e) in ops_iter.iter().zip(&items.operands) {
        match o.kind {
            OperandKind::VDst => {
                let count = o.min_regs as u32 + tfe as u32;
                vdst = cx.vreg(e, count, true)?.vgpr() as u32;
            }
            OperandKind::VData => {
                data = cx.vreg(e, o.min_regs as u32, false)?.vgpr() as u32;
            }
            OperandKind::VAddr => {
                if row.encoding == Encoding::Scratch && is_word(e, "off") {
                    vaddr = 0;
                    continue;
                }
                let count = match row.encoding {
                    Encoding::Flat => 2,
                    Encoding::Global if saddr_off => 2,
                    _ => 1,
                };
                vaddr = cx.vreg(e, count, false)?.vgpr() as u32;
            }
            OperandKind::SAddr => {
                if is_word(e, "off") {
                    saddr = off_code;
                } else {
                    let n = if row.encoding == Encoding::Scratch {
                        1
                    } else {
                        2
                    };
                    saddr = cx.sreg(e, n, Align::Scalar, false)?.code8() as u32;
                }
            }
            _ => return Err(EncodeError::new(range_of(e), "unsupported operand")),
        }
    }
    let seg: u32 = match row.encoding {
        Encoding::Flat => 0,
        Encoding::Scratch => 1,
        _ => 2,
    };
    let mut w0 = 0xdc00_0000 | (op & 0x7f) << 18 | (slc as u32) << 17 | (glc as u32) << 16;
    if vega {
        w0 |= seg << 14 | (lds as u32) << 13;
        if let Some((v, e)) = &offset {
            let (bits, signed): (u8, bool) = if gfx10 {
                (12, row.encoding != Encoding::Flat)
            } else if row.encoding == Encoding::Flat {
                (12, false)
            } else {
                (13, true)
            };
            // Positive offsets keep the bits below the sign bit, as clrxasm does.
            w0 |= field(cx, *v, e, 0, 0, bits, signed || gfx10);
        }
        if gfx10 {
            w0 |= (dlc as u32) << 12;
        }
    }
    let w1 = vdst << 24 | ((tfe || nv) as u32) << 23 | saddr << 16 | data << 8 | vaddr;
    Ok(smallvec![w0, w1])
}
