//! SOP2, SOPK, SOP1, SOPC, SOPP, SMRD, SMEM; and the dispatch to every class.
//!
//! Out-of-range immediates are truncated to their field, as clrxasm does (it warns);
//! pending values get a [`Fixup`](super::Fixup) whose `bits`/`signed` let the core warn.

use crate::operand_names;
use gcn_syntax::{ast, ast::AstNode, SyntaxKind, TextRange};
use rowan::GreenNodeData;
use smallvec::smallvec;

use super::operands::{
    call_named, expect_operand_count, is_bare_register_name, range_of, word_of, Align, Cx,
    InstrOperand, Items, ModValue, OperandSyntax, SrcSpec,
};
use super::{
    memory, tree, vector, EncodeError, EncodeErrorKind, Encoded, FixupKind, Resolver, Target,
    Value, Words,
};
use crate::arch::Generation;
use crate::lookup::{split_suffix, Suffix};
use crate::table::{Encoding, Flags, Instruction, Operand, OperandKind};

type Result<T> = std::result::Result<T, EncodeError>;

/// Finds the rows of the instruction's mnemonic on the target's generation and calls
/// the class encoder.
pub(super) fn dispatch(
    target: &Target,
    instr: &ast::Instruction,
    resolver: &mut dyn Resolver,
) -> std::result::Result<Encoded, Vec<EncodeError>> {
    // The mnemonic, read from the green node (no token allocation).
    let green = instr.syntax().green();
    let Some((tok, offset)) = tree::first_token(&green, SyntaxKind::NAME) else {
        return Err(vec![EncodeError::new(
            instr.syntax().text_range(),
            "expected an instruction",
        )]);
    };
    let text = tok.text();
    let mrange = TextRange::at(instr.syntax().text_range().start() + offset, tok.text_len());
    let (mut base, mut suffix) = split_suffix(text);
    let mut all = crate::lookup::lookup(base);
    if all.is_empty() && suffix.is_some() {
        base = text;
        suffix = None;
        all = crate::lookup::lookup(base);
    }
    if all.is_empty() {
        return Err(vec![EncodeError {
            kind: EncodeErrorKind::UnknownMnemonic,
            ..EncodeError::new(mrange, format!("unknown instruction `{text}`"))
        }]);
    }
    let gen = target.gen;
    let Some(row) = pick_row(all, gen, suffix) else {
        let gens: Vec<&str> = crate::lookup::generations_of(base)
            .iter()
            .map(|g| g.name())
            .collect();
        let message = format!(
            "unknown instruction: `{base}` is not available on {gen} (only on {})",
            gens.join(", ")
        );
        return Err(vec![renamed(base, gen, mrange, message)]);
    };
    if row.encoding.is_valu() {
        let result = vector::encode(target, instr, &green, mrange, row, suffix, resolver);
        return result
            .map(|encoded| Encoded {
                row: Some(row),
                ..encoded
            })
            .map_err(|errors| with_syntax(errors, row, base));
    }
    let first = row;
    let scalar = is_scalar(first.encoding);
    let force_literal = match suffix {
        None => false,
        // clrxasm also takes `_e32`/`_e64` on memory instructions (no effect there).
        Some(Suffix::E32) => false,
        Some(Suffix::E64) => scalar,
        Some(_) => {
            return Err(vec![EncodeError::new(
                mrange,
                format!("unknown instruction `{text}`: `{base}` has no such encoding"),
            )])
        }
    };
    let mut cx = Cx::new(target, resolver);
    let result = if scalar {
        encode_scalar(&mut cx, first, instr, &green, force_literal)
    } else {
        memory::encode(&mut cx, first, instr, &green)
    };
    match result {
        Ok(words) => Ok(Encoded {
            row: Some(first),
            ..cx.finish(words)
        }),
        Err(e) => Err(with_syntax(vec![e], first, base)),
    }
}

/// The row the encoder uses among a mnemonic's rows (`all`) on `gen`, with `suffix`
/// written after it. Two vector rows on one generation are a 32-bit form and a
/// VOP3-only form: `_e64` picks the VOP3-only one.
fn pick_row(
    all: &'static [Instruction],
    gen: Generation,
    suffix: Option<Suffix>,
) -> Option<&'static Instruction> {
    let mut rows = all.iter().filter(|r| r.exists_on(gen));
    let first = rows.clone().next()?;
    if !first.encoding.is_valu() {
        return Some(first);
    }
    let row = if suffix == Some(Suffix::E64) {
        rows.find(|r| r.encoding == Encoding::Vop3)
    } else {
        rows.find(|r| r.encoding != Encoding::Vop3)
    };
    Some(row.unwrap_or(first))
}

/// The row the encoder uses for `mnemonic` as written (a suffix included) on `gen`.
pub(super) fn row_of(mnemonic: &str, gen: Generation) -> Option<&'static Instruction> {
    let (base, suffix) = split_suffix(mnemonic);
    let all = crate::lookup::lookup(base);
    if all.is_empty() && suffix.is_some() {
        return pick_row(crate::lookup::lookup(mnemonic), gen, None);
    }
    pick_row(all, gen, suffix)
}

/// The error of `mnemonic`, which `gen` lacks: with the name `gen` gives the same
/// instruction, when it has one under another name (`v_add_co_u32` is GCN 1.2's
/// `v_add_u32`), as a suggestion.
fn renamed(mnemonic: &str, gen: Generation, range: TextRange, message: String) -> EncodeError {
    let counterparts = crate::counterparts::on_generation(&mnemonic.to_ascii_lowercase(), gen);
    let note = match counterparts.as_slice() {
        [] => String::new(),
        [(name, _, _)] => format!("; on {gen} it is `{name}`"),
        several => {
            let each: Vec<String> = several
                .iter()
                .map(|(name, from, to)| {
                    format!("`{name}` (what `{mnemonic}` is on {})", span(*from, *to))
                })
                .collect();
            format!("; on {gen} it is {}", each.join(" or "))
        }
    };
    EncodeError {
        suggestions: counterparts
            .iter()
            .map(|(name, _, _)| name.to_string())
            .collect(),
        ..EncodeError::new(range, message + &note)
    }
}

/// `GCN1.0 to GCN1.2`, or one generation.
fn span(from: Generation, to: Generation) -> String {
    if from == to {
        from.name().to_string()
    } else {
        format!("{} to {}", from.name(), to.name())
    }
}

/// An error about the number of operands ends with the instruction's syntax, so that
/// what is missing can be seen (`v_add_u32` takes a VCC destination before GCN 1.4).
fn with_syntax(
    mut errors: Vec<EncodeError>,
    row: &Instruction,
    mnemonic: &str,
) -> Vec<EncodeError> {
    for e in errors
        .iter_mut()
        .filter(|e| e.kind == EncodeErrorKind::OperandCount)
    {
        e.message = format!(
            "{} (syntax: `{}`)",
            e.message,
            row.syntax(&mnemonic.to_ascii_lowercase())
        );
    }
    errors
}

fn is_scalar(e: Encoding) -> bool {
    matches!(
        e,
        Encoding::Sop2
            | Encoding::Sopk
            | Encoding::Sop1
            | Encoding::Sopc
            | Encoding::Sopp
            | Encoding::Smrd
            | Encoding::Smem
    )
}

/// Encodes a scalar instruction; returns its words (the literal is added by `finish`).
fn encode_scalar(
    cx: &mut Cx<'_>,
    row: &'static Instruction,
    instr: &ast::Instruction,
    green: &GreenNodeData,
    force_literal: bool,
) -> Result<Words> {
    let mut items = Items::default();
    items.read(instr, green)?;
    // s_waitcnt accepts its counters without `&` between them (juxtaposed operands).
    let waitcnt = row
        .operands
        .first()
        .is_some_and(|o| o.kind == OperandKind::WaitCnt);
    if !waitcnt {
        items.require_commas()?;
    }
    let whole = instr.syntax().text_range();
    let gen = cx.gen();
    let op = row.opcode(gen).unwrap_or(0) as u32;
    match row.encoding {
        Encoding::Smrd => return smrd(cx, row, op, &items, whole, force_literal),
        Encoding::Smem => return smem(cx, row, op, &items, whole),
        _ => {}
    }
    if let Some(m) = items.modifiers.first() {
        return Err(m.unknown("scalar", []));
    }
    let ops = row.operands;
    let max = ops.len();
    if !waitcnt {
        items.expect_count(max, max, whole)?;
    } else {
        items.expect_count(1, usize::MAX, whole)?;
    }
    let mnemonic = row.mnemonic;
    match row.encoding {
        Encoding::Sop2 | Encoding::Sop1 | Encoding::Sopc => {
            let mut sdst = 0u32;
            let mut srcs = [0u32; 2];
            let mut nsrc = 0;
            // SSRC0 is a literal as written (not only through `_e64`'s promotion).
            let mut src0_literal = false;
            for (o, e) in ops.iter().zip(&items.operands) {
                match o.kind {
                    OperandKind::SDst => sdst = sdst_code(cx, o, e, true)?,
                    OperandKind::SSrc => {
                        let mut spec =
                            SrcSpec::scalar(o.min_regs, o.ty).force_literal(force_literal);
                        // clrxasm refuses a literal SSRC1 after a literal SSRC0, even of the
                        // same value (ONLYINLINECONSTS, GCNAsmEncode1.cpp parseSOP2Encoding
                        // and parseSOPCEncoding); it promotes the constants of `_e64` forms
                        // to literals only after parsing.
                        if nsrc == 1 && src0_literal {
                            spec =
                                spec.no_literal("only one literal can be used in an instruction");
                        }
                        let code = cx.src(e, &spec)?.code as u32;
                        if nsrc == 0 && code == 255 {
                            src0_literal = !force_literal || written_literal(cx, e, &spec)?;
                        }
                        srcs[nsrc.min(1)] = code;
                        nsrc += 1;
                    }
                    OperandKind::GprIdxMode => {
                        srcs[nsrc.min(1)] = gpr_idx_mode(cx, &e.expr(), 8, 8)?;
                        nsrc += 1;
                    }
                    _ => return Err(EncodeError::new(range_of(e), "unsupported operand")),
                }
            }
            Ok(smallvec![match row.encoding {
                Encoding::Sop2 =>
                    0x8000_0000 | (op & 0x7f) << 23 | sdst << 16 | srcs[1] << 8 | srcs[0],
                Encoding::Sop1 => 0xbe80_0000 | sdst << 16 | (op & 0xff) << 8 | srcs[0],
                _ => 0xbf00_0000 | (op & 0x7f) << 16 | srcs[1] << 8 | srcs[0],
            }])
        }
        Encoding::Sopk => {
            let mut sdst = 0u32;
            let mut imm = 0u32;
            // SDST of these is read, not written.
            let reads = mnemonic.starts_with("s_cmpk_")
                || mnemonic.starts_with("s_setreg")
                || mnemonic.starts_with("s_waitcnt_")
                || mnemonic == "s_cbranch_i_fork";
            for (o, e) in ops.iter().zip(&items.operands) {
                match o.kind {
                    OperandKind::SDst => sdst = sdst_code(cx, o, e, !reads)?,
                    OperandKind::SImm16 | OperandKind::Imm16 => {
                        imm = imm16(cx, e, o.kind == OperandKind::SImm16)?
                    }
                    OperandKind::RelAddr => imm = branch(cx, &e.expr())?,
                    OperandKind::HwReg => imm = hwreg(cx, &e.expr())?,
                    OperandKind::Imm32 => {
                        let spec = SrcSpec::scalar(1, o.ty).force_literal(true);
                        cx.src(e, &spec)?;
                    }
                    _ => return Err(EncodeError::new(range_of(e), "unsupported operand")),
                }
            }
            Ok(smallvec![
                0xb000_0000 | (op & 0x1f) << 23 | sdst << 16 | (imm & 0xffff)
            ])
        }
        Encoding::Sopp => {
            let mut imm = 0u32;
            if waitcnt {
                imm = waitcnt_value(cx, &items.operands)?;
            } else {
                for (o, e) in ops.iter().zip(&items.operands) {
                    imm = match o.kind {
                        OperandKind::SImm16 | OperandKind::Imm16 => {
                            imm16(cx, e, o.kind == OperandKind::SImm16)?
                        }
                        OperandKind::RelAddr => branch(cx, &e.expr())?,
                        OperandKind::SendMsg => sendmsg(cx, &e.expr())?,
                        OperandKind::GprIdxMode => gpr_idx_mode(cx, &e.expr(), 0, 16)?,
                        _ => return Err(EncodeError::new(range_of(e), "unsupported operand")),
                    };
                }
            }
            Ok(smallvec![0xbf80_0000 | (op & 0x7f) << 16 | (imm & 0xffff)])
        }
        _ => Err(EncodeError::new(whole, "not a scalar instruction")),
    }
}

/// SDST: scalar registers only, aligned for scalar instructions.
fn sdst_code<E: OperandSyntax + ?Sized>(
    cx: &mut Cx<'_>,
    o: &Operand,
    e: &E,
    write: bool,
) -> Result<u32> {
    Ok(cx.sreg(e, o.min_regs as u32, Align::Scalar, write)?.code8() as u32)
}

/// A 16-bit immediate: known (truncated) or pending (fixup on bits 0..16 of word 0).
fn imm16<E: OperandSyntax + ?Sized>(cx: &mut Cx<'_>, e: &E, signed: bool) -> Result<u32> {
    if let Some(f) = float_like(e) {
        return Err(EncodeError::new(f, "expected an integer"));
    }
    match cx.eval(e)? {
        Value::Known(v) => Ok(cx.known_field(e, v, 16, false)),
        Value::Pending => {
            // All 16 bits are kept, whatever the sign (as for known values).
            let _ = signed;
            cx.fixup(0, 0, 16, false, FixupKind::Value, e);
            Ok(0)
        }
    }
}

fn float_like<E: OperandSyntax + ?Sized>(e: &E) -> Option<TextRange> {
    let float = e.kind() == SyntaxKind::LITERAL
        && tree::literal_token(&e.green())
            .is_some_and(|(_, kind)| kind == SyntaxKind::FLOAT_NUMBER);
    float.then(|| range_of(e))
}

/// A branch target: SIMM16 = (target - next instruction) / 4.
fn branch(cx: &mut Cx<'_>, e: &ast::Expr) -> Result<u32> {
    let target = match cx.resolver.eval_branch(e) {
        Ok(v) => v,
        Err(m) => {
            return Err(EncodeError::new(
                cx.resolver.error_range().unwrap_or_else(|| range_of(e)),
                m,
            ))
        }
    };
    match target {
        Value::Known(v) => {
            if !(-0x8000..=0x7fff).contains(&v) {
                return Err(EncodeError::new(
                    range_of(e),
                    "jump out of range (more than 32767 words)",
                ));
            }
            Ok(v as u32 & 0xffff)
        }
        Value::Pending => {
            cx.fixup(0, 0, 16, true, FixupKind::Branch, e);
            Ok(0)
        }
    }
}

/// Evaluates a value that must be known; `@expr` is the parametrized form.
fn known_param(cx: &mut Cx<'_>, e: &ast::Expr) -> Result<i64> {
    match e {
        ast::Expr::At(a) => match a.expr() {
            Some(inner) => cx.known(&inner),
            None => Err(EncodeError::new(
                range_of(e),
                "expected an expression after `@`",
            )),
        },
        _ => cx.known(e),
    }
}

/// The text of a name argument (`mode`, `HWREG_MODE`, `emit-cut`) without whitespace,
/// or `None` for a parametrized `@expr`.
fn name_arg(e: &ast::Expr) -> Option<String> {
    if matches!(e, ast::Expr::At(_)) {
        return None;
    }
    if let Some(t) = word_of(e) {
        return Some(t.text().to_ascii_lowercase());
    }
    let mut s = String::new();
    for t in e
        .syntax()
        .descendants_with_tokens()
        .filter_map(|x| x.into_token())
    {
        if !t.kind().is_trivia() {
            s.push_str(&t.text().to_ascii_lowercase());
        }
    }
    Some(s)
}

/// `hwreg(name, offset, size)` or a 16-bit value.
fn hwreg(cx: &mut Cx<'_>, e: &ast::Expr) -> Result<u32> {
    // clrxasm reads only the function here, not a plain number.
    let Some(call) = call_named(e, "hwreg") else {
        return Err(EncodeError::new(
            range_of(e),
            "expected `hwreg(name, offset, size)`",
        ));
    };
    let args: Vec<ast::Expr> = call.args().collect();
    if args.len() != 3 {
        return Err(EncodeError::new(
            range_of(e),
            "expected `hwreg(name, offset, size)`",
        ));
    }
    let gen = cx.gen();
    let id = match name_arg(&args[0]) {
        Some(name) => match operand_names::hwreg(&name, gen) {
            Some(n) => n.value,
            None => {
                let (note, instead) = operand_names::unknown_hwreg_note(&name, gen);
                return Err(EncodeError {
                    suggestions: instead.into_iter().collect(),
                    ..EncodeError::new(
                        range_of(&args[0]),
                        format!("unknown hardware register `{name}` on {gen}{note}"),
                    )
                });
            }
        },
        None => {
            let v = known_param(cx, &args[0])?;
            cx.known_field(&args[0], v, 6, false)
        }
    };
    // Out of range, clrxasm warns and still packs the values into the 16 bits, which
    // then overflow into the next field: so does this.
    let offset = cx.known(&args[1])?;
    if !(0..32).contains(&offset) {
        cx.warn(
            range_of(&args[1]),
            format!("bit offset {offset} out of range (0-31)"),
        );
    }
    let size = cx.known(&args[2])?;
    if !(1..=32).contains(&size) {
        cx.warn(
            range_of(&args[2]),
            format!("bit size {size} out of range (1-32)"),
        );
    }
    let packed = i64::from(id) | offset.wrapping_shl(6) | size.wrapping_sub(1).wrapping_shl(11);
    Ok(packed as u32 & 0xffff)
}

/// `sendmsg(msg[, gs_op[, stream]])` or a 16-bit value.
fn sendmsg(cx: &mut Cx<'_>, e: &ast::Expr) -> Result<u32> {
    // clrxasm reads only the function here, not a plain number.
    let Some(call) = call_named(e, "sendmsg") else {
        return Err(EncodeError::new(
            range_of(e),
            "expected `sendmsg(message, operation, stream)`",
        ));
    };
    let args: Vec<ast::Expr> = call.args().collect();
    if args.is_empty() || args.len() > 3 {
        return Err(EncodeError::new(
            range_of(e),
            "expected `sendmsg(message, operation, stream)`",
        ));
    }
    let gen = cx.gen();
    let msg = match name_arg(&args[0]) {
        Some(name) => match operand_names::message(&name, gen) {
            Some(n) => n.value,
            None => {
                let later = operand_names::later_note(
                    operand_names::MESSAGES,
                    name.strip_prefix("msg_").unwrap_or(&name),
                    gen,
                );
                return Err(EncodeError::new(
                    range_of(&args[0]),
                    format!("unknown message `{name}` on {gen}{later}"),
                ));
            }
        },
        None => {
            let v = known_param(cx, &args[0])?;
            cx.known_field(&args[0], v, 4, false)
        }
    };
    let mut value = msg;
    if let Some(op) = args.get(1) {
        let gs_op = match name_arg(op) {
            Some(name) => match operand_names::gs_op(&name) {
                Some(n) => n.value,
                None => {
                    return Err(EncodeError::new(
                        range_of(op),
                        format!("unknown GS operation `{name}`"),
                    ))
                }
            },
            None => {
                let v = known_param(cx, op)?;
                cx.known_field(op, v, 3, false)
            }
        };
        value |= gs_op << 4;
    }
    if let Some(stream) = args.get(2) {
        let id = cx.known(stream)?;
        if !(0..=3).contains(&id) {
            cx.warn(
                range_of(stream),
                format!("stream id {id} out of range (0-3): its low 2 bits are kept"),
            );
        }
        value |= (id as u32 & 3) << 8;
    }
    Ok(value)
}

/// `gpr_idx(SRC0, SRC1, SRC2, DST)` or a value, for a field of `bits` at `shift` of
/// word 0 (a pending value gets a fixup there).
fn gpr_idx_mode(cx: &mut Cx<'_>, e: &ast::Expr, shift: u8, bits: u8) -> Result<u32> {
    if let Some(call) = call_named(e, "gpr_idx") {
        let mut v = 0;
        for a in call.args() {
            let bit = match name_arg(&a).as_deref() {
                Some("src0") => 1,
                Some("src1") => 2,
                Some("src2") => 4,
                Some("dst") => 8,
                _ => {
                    return Err(EncodeError::new(
                        range_of(&a),
                        "expected SRC0, SRC1, SRC2 or DST",
                    ))
                }
            };
            v |= bit;
        }
        return Ok(v);
    }
    if let Some(f) = float_like(e) {
        return Err(EncodeError::new(f, "expected an integer"));
    }
    match cx.eval(e)? {
        Value::Known(v) => Ok(cx.known_field(e, v, bits, false)),
        Value::Pending => {
            cx.fixup(0, shift, bits, false, FixupKind::Value, e);
            Ok(0)
        }
    }
}

/// `vmcnt(n) & expcnt(n) & lgkmcnt(n)`: any order, `&` or spaces between them, and no
/// comma, as clrxasm's `s_waitcnt` reads its counters; or one 16-bit value, which the
/// reference's disassembler writes when no counter is waited for (`s_waitcnt 0xf7f`).
fn waitcnt_value(cx: &mut Cx<'_>, operands: &[InstrOperand]) -> Result<u32> {
    fn leaves(e: &ast::Expr, out: &mut Vec<ast::Expr>) {
        if let ast::Expr::Bin(b) = e {
            if b.op().is_some_and(|t| t.kind() == SyntaxKind::AMP) {
                if let (Some(l), Some(r)) = (b.lhs(), b.rhs()) {
                    leaves(&l, out);
                    leaves(&r, out);
                    return;
                }
            }
        }
        out.push(e.clone());
    }
    let mut terms = Vec::new();
    for e in operands {
        leaves(&e.expr(), &mut terms);
    }
    const COUNTERS: [&str; 3] = operand_names::WAIT_COUNTERS;
    // Which counter a term names (0 vmcnt, 1 expcnt, 2 lgkmcnt), and its call.
    let counter = |e: &ast::Expr| {
        COUNTERS
            .iter()
            .enumerate()
            .find_map(|(i, n)| call_named(e, n).map(|c| (i, c.clone())))
    };
    if let Some(at) = operands.iter().find_map(|o| o.comma_before()) {
        return Err(EncodeError::new(
            TextRange::empty(at),
            "unexpected `,`: the counters are joined by `&` or spaces",
        ));
    }
    if let ([only], [term]) = (operands, terms.as_slice()) {
        if counter(term).is_none() {
            return imm16(cx, only, false);
        }
    }
    let mut counters = Vec::with_capacity(terms.len());
    for t in &terms {
        match counter(t) {
            Some((which, call)) => counters.push((t, which, call)),
            None => {
                return Err(EncodeError::new(
                    range_of(t),
                    "expected vmcnt(N), expcnt(N) or lgkmcnt(N)",
                ))
            }
        }
    }
    let gen = cx.gen();
    let [vm_mask, exp_mask, lgkm_mask] =
        [0, 1, 2].map(|which| operand_names::wait_counter_max(which, gen));
    let (mut vm, mut exp, mut lgkm) = (vm_mask, exp_mask, lgkm_mask);
    let mut given = [false; 3];
    for (t, which, call) in counters {
        let name = COUNTERS[which];
        if std::mem::replace(&mut given[which], true) {
            cx.warn(
                range_of(t),
                format!("`{name}` is given twice: the last one counts"),
            );
        }
        let mut args = call.args();
        let (Some(a), None) = (args.next(), args.next()) else {
            return Err(EncodeError::new(range_of(t), "expected one value"));
        };
        let v = cx.known(&a)?;
        let mask = [vm_mask, exp_mask, lgkm_mask][which];
        if !(0..=i64::from(mask)).contains(&v) {
            cx.warn(
                range_of(&a),
                format!("`{name}` value {v} out of range (0-{mask}): its low bits are kept"),
            );
        }
        match which {
            0 => vm = v as u32 & mask,
            1 => exp = v as u32 & mask,
            _ => lgkm = v as u32 & mask,
        }
    }
    Ok((vm & 0xf) | ((vm >> 4) & 3) << 14 | exp << 4 | lgkm << 8)
}

// ---- scalar memory ---------------------------------------------------------------------

/// SMRD (GCN 1.0/1.1): one word (and a literal offset on GCN 1.1).
fn smrd(
    cx: &mut Cx<'_>,
    row: &'static Instruction,
    op: u32,
    items: &Items,
    whole: TextRange,
    force_literal: bool,
) -> Result<Words> {
    if let Some(m) = items.modifiers.first() {
        return Err(m.unknown("SMRD", []));
    }
    let ops = row.operands;
    items.expect_count(ops.len(), ops.len(), whole)?;
    let (mut sdst, mut sbase, mut imm, mut offset) = (0u32, 0u32, 0u32, 0u32);
    for (o, e) in ops.iter().zip(&items.operands) {
        match o.kind {
            OperandKind::SDst => sdst = sdst_code(cx, o, e, true)?,
            OperandKind::SBase => sbase = sbase_code(cx, o, e)?,
            OperandKind::SmemOffset => {
                let syntax = (e.kind() == SyntaxKind::CALL_EXPR).then(|| e.expr());
                let lit = syntax.as_deref().and_then(|s| call_named(s, "lit"));
                if lit.is_none() {
                    match cx.reg(e)? {
                        // A register name that is no offset register (`vccz`) names the
                        // symbol of that name, as in clrxasm.
                        Some(reg)
                            if !reg.is_scalar()
                                && !reg.is_vgpr()
                                && is_bare_register_name(&e.expr()) => {}
                        Some(reg) => {
                            if !reg.is_scalar() {
                                return Err(EncodeError::new(
                                    range_of(e),
                                    "expected a scalar register or an offset",
                                ));
                            }
                            cx.check_scalar(&reg, 1, Align::None)?;
                            cx.use_reg(&reg, false);
                            offset = reg.code8() as u32;
                            continue;
                        }
                        None => {}
                    }
                }
                let gen = cx.gen();
                if lit.is_some() || force_literal {
                    if gen < Generation::Gcn1_1 {
                        return Err(EncodeError::literal(
                            range_of(e),
                            "a literal offset needs GCN 1.1",
                        ));
                    }
                    cx.src(e, &SrcSpec::scalar(1, o.ty).force_literal(true))?;
                    offset = 0xff;
                    continue;
                }
                match cx.eval(e)? {
                    Value::Known(v) if gen == Generation::Gcn1_1 && !(0..=0xff).contains(&v) => {
                        cx.src(e, &SrcSpec::scalar(1, o.ty).force_literal(true))?;
                        offset = 0xff;
                    }
                    Value::Known(v) => {
                        imm = 1;
                        offset = cx.known_field(e, v, 8, false);
                    }
                    Value::Pending => {
                        imm = 1;
                        cx.fixup(0, 0, 8, false, FixupKind::Value, e);
                    }
                }
            }
            _ => return Err(EncodeError::new(range_of(e), "unsupported operand")),
        }
    }
    Ok(smallvec![
        0xc000_0000 | (op & 0x1f) << 22 | sdst << 15 | (sbase >> 1) << 9 | imm << 8 | offset
    ])
}

/// Whether a source encoded as a literal under `_e64` would be one without it: a
/// `lit()`, a pending value or a value that is no inline constant.
fn written_literal<E: OperandSyntax + ?Sized>(
    cx: &mut Cx<'_>,
    e: &E,
    spec: &SrcSpec,
) -> Result<bool> {
    if e.kind() == SyntaxKind::CALL_EXPR && call_named(&e.expr(), "lit").is_some() {
        return Ok(true);
    }
    let imm = cx.imm(e)?;
    Ok(super::operands::inline_constant(&imm, spec.ty, cx.gen(), cx.fp_rules()).is_none())
}

/// SBASE: an aligned SGPR range; a TTMP range is not checked (the field drops its
/// low bit), as clrxasm does.
fn sbase_code<E: OperandSyntax + ?Sized>(cx: &mut Cx<'_>, o: &Operand, e: &E) -> Result<u32> {
    let reg = cx.sreg(e, o.min_regs as u32, Align::None, false)?;
    if reg.code % 2 != 0 && reg.kind == super::operands::RegKind::Sgpr {
        return Err(EncodeError::new(
            reg.range,
            "unaligned scalar register range",
        ));
    }
    Ok(reg.code8() as u32)
}

/// The modifiers `row` takes on `gen` (see [`super::modifiers_taken`]).
pub(super) fn modifiers_taken(row: &Instruction, gen: Generation) -> Vec<&'static str> {
    match row.encoding {
        Encoding::Smem => smem_modifiers(gen).collect(),
        _ => Vec::new(),
    }
}

/// The modifiers SMEM instructions take on `gen`.
fn smem_modifiers(gen: Generation) -> impl Iterator<Item = &'static str> + Clone {
    let gcn14 = gen >= Generation::Gcn1_4;
    super::operands::taken_names([
        ("glc", true),
        ("nv", gcn14),
        ("dlc", gen.is_gfx10()),
        ("offset", gcn14),
    ])
}

/// SMEM (GCN 1.2/1.4, and GCN 1.5's layout).
fn smem(
    cx: &mut Cx<'_>,
    row: &'static Instruction,
    op: u32,
    items: &Items,
    whole: TextRange,
) -> Result<Words> {
    let gen = cx.gen();
    let gfx10 = gen.is_gfx10();
    let ops = row.operands;
    let (mut glc, mut nv, mut dlc) = (false, false, false);
    // `s_dcache_inv glc`: with no operand before it, a flag parses as an operand.
    let mut operands = &items.operands[..];
    while operands.len() > ops.len() {
        let last = &operands[operands.len() - 1];
        let Some(word) = word_of(&last.expr()) else {
            break;
        };
        match word.text().to_ascii_lowercase().as_str() {
            "glc" => glc = true,
            "nv" if gen >= Generation::Gcn1_4 => nv = true,
            "dlc" if gfx10 => dlc = true,
            _ => break,
        }
        operands = &operands[..operands.len() - 1];
    }
    if operands.len() != ops.len() {
        expect_operand_count(operands, ops.len(), ops.len(), whole)?;
    }
    let mut offset_mod: Option<(Value, ModValue)> = None;
    for m in &items.modifiers {
        if !smem_modifiers(gen).any(|n| m.is(n)) {
            return Err(m.unknown("SMEM", smem_modifiers(gen)));
        }
        if m.is("glc") {
            glc = cx.mod_flag(m)?;
        } else if m.is("nv") {
            nv = cx.mod_flag(m)?;
        } else if m.is("dlc") {
            dlc = cx.mod_flag(m)?;
        } else if m.is("offset") {
            if offset_mod.is_some() {
                cx.warn_repeated(m);
            }
            offset_mod = Some(cx.mod_pending(m)?);
        } else {
            return Err(m.unknown("SMEM", smem_modifiers(gen)));
        }
    }
    let store_like = row.flags.contains(Flags::STORE) || row.flags.contains(Flags::ATOMIC);
    let (mut sdata, mut sbase, mut imm, mut soe) = (0u32, 0u32, 0u32, 0u32);
    let mut offset = 0u32;
    let mut soffset: u32 = if gfx10 { 0x7d } else { 0 };
    let offset_bits: u8 = if gen == Generation::Gcn1_2 { 20 } else { 21 };
    let mut has_offset_operand = false;
    for (o, e) in ops.iter().zip(operands) {
        match o.kind {
            OperandKind::SDst => sdata = sdst_code(cx, o, e, true)?,
            OperandKind::SData => {
                // Atomics return the old value with glc.
                let write = row.flags.contains(Flags::ATOMIC) && glc;
                sdata = cx.sreg(e, o.min_regs as u32, Align::Scalar, write)?.code8() as u32;
            }
            OperandKind::SDataImm => match cx.eval(e)? {
                Value::Known(v) => sdata = cx.known_field(e, v, 7, false),
                Value::Pending => cx.fixup(0, 6, 7, false, FixupKind::Value, e),
            },
            OperandKind::SBase => sbase = sbase_code(cx, o, e)?,
            OperandKind::SmemOffset => {
                has_offset_operand = true;
                if let Some(reg) = cx.reg(e)? {
                    if !reg.is_scalar() {
                        return Err(EncodeError::new(
                            range_of(e),
                            "expected a scalar register or an offset",
                        ));
                    }
                    cx.check_scalar(&reg, 1, Align::None)?;
                    if store_like && gen == Generation::Gcn1_2 && !reg.is_m0() {
                        return Err(EncodeError::new(
                            range_of(e),
                            "store and atomic SMEM instructions accept only M0 as the offset register",
                        ));
                    }
                    cx.use_reg(&reg, false);
                    let code = reg.code8() as u32;
                    if gfx10 {
                        soffset = code;
                    } else if offset_mod.is_some() {
                        soe = 1;
                        imm = 1;
                        soffset = code;
                    } else {
                        offset = code;
                    }
                    continue;
                }
                if let Some((_, m)) = &offset_mod {
                    return Err(EncodeError::new(range_of(m), "illegal second offset"));
                }
                imm = 1;
                match cx.eval(e)? {
                    Value::Known(v) => offset = cx.known_field(e, v, offset_bits, gfx10),
                    Value::Pending => cx.fixup(1, 0, offset_bits, gfx10, FixupKind::Value, e),
                }
            }
            _ => return Err(EncodeError::new(range_of(e), "unsupported operand")),
        }
    }
    if let Some((v, e)) = &offset_mod {
        if !has_offset_operand {
            return Err(EncodeError::new(
                range_of(e),
                "this instruction takes no offset",
            ));
        }
        match *v {
            Value::Known(v) => offset = cx.known_field(e, v, offset_bits, gfx10),
            Value::Pending => cx.fixup(1, 0, offset_bits, gfx10, FixupKind::Value, e),
        }
    }
    if !has_offset_operand {
        soffset = 0;
    }
    let sbase = sbase >> 1;
    if gfx10 {
        let w0 = 0xf400_0000
            | (op & 0xff) << 18
            | (glc as u32) << 16
            | (nv as u32) << 15
            | (dlc as u32) << 14
            | sdata << 6
            | sbase;
        return Ok(smallvec![w0, soffset << 25 | offset]);
    }
    let w0 = 0xc000_0000
        | (op & 0xff) << 18
        | imm << 17
        | (glc as u32) << 16
        | (nv as u32) << 15
        | soe << 14
        | sdata << 6
        | sbase;
    Ok(smallvec![w0, soffset << 25 | offset])
}

#[cfg(test)]
mod tests {
    use gcn_syntax::ast;

    use crate::encode::operands::parse_int;
    use crate::encode::{
        encode_instruction, EncodeError, Encoded, FixupKind, RegRange, Resolver, Target, Value,
    };
    use crate::Device;

    /// Integer literals are known; the symbol `vccz` is 33 once `defined`, pending before;
    /// other names are pending.
    struct Vccz {
        defined: bool,
    }

    impl Resolver for Vccz {
        fn eval(&mut self, expr: &ast::Expr) -> Result<Value, String> {
            match expr {
                ast::Expr::Literal(l) => l
                    .token()
                    .and_then(|t| parse_int(t.text()))
                    .map(Value::Known)
                    .ok_or_else(|| "not an integer".into()),
                // The core evaluates a register name alone as the symbol of that name.
                ast::Expr::Register(r)
                    if r.name_token().is_some_and(|t| t.text() == "vccz") && self.defined =>
                {
                    Ok(Value::Known(33))
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

    fn encode(src: &str, defined: bool) -> Result<Encoded, EncodeError> {
        let device = Device::from_name("pitcairn").unwrap();
        let target = Target::of_device(device);
        let parse = gcn_syntax::parse(src);
        let instr = parse.tree().instructions().next().unwrap();
        encode_instruction(&target, &instr, &mut Vccz { defined }).map_err(|mut e| e.remove(0))
    }

    #[test]
    fn smrd_offset_register_name_falls_back_to_a_symbol() {
        // `vccz` is no offset register: it is the symbol `vccz` (an immediate offset).
        let src = "s_load_dword s50, s[58:59], vccz";
        assert_eq!(encode(src, true).unwrap().words[..], [0xc019_3b21]);
        let pending = encode(src, false).unwrap();
        assert_eq!(pending.words[..], [0xc019_3b00]);
        assert_eq!(pending.fixups.len(), 1);
        let f = &pending.fixups[0];
        assert_eq!(
            (f.word, f.shift, f.bits, f.kind),
            (0, 0, 8, FixupKind::Value)
        );
        assert_eq!(&src[crate::encode::operands::range_of(&f.expr)], "vccz");
        // Scalar registers stay registers; a VGPR is refused.
        assert_eq!(
            encode("s_load_dword s50, s[58:59], m0", true)
                .unwrap()
                .words[..],
            [0xc019_3a7c]
        );
        assert_eq!(
            encode("s_load_dword s50, s[58:59], s5", true)
                .unwrap()
                .words[..],
            [0xc019_3a05]
        );
        assert!(encode("s_load_dword s50, s[58:59], v5", true).is_err());
    }
}
