//! Hover on the names operands take besides registers: the functions `hwreg(...)`,
//! `sendmsg(...)`, `vmcnt(...)`/`expcnt(...)`/`lgkmcnt(...)`, `lit(...)` and
//! `gpr_idx(...)`, the names in their arguments, SDWA selections (`dst_sel:byte0`) and
//! MTBUF formats (`format:[32, float]`). Which names exist on which generation comes
//! from `gcn_isa::operand_names`, the encoders' own tables; the descriptions are here.

use gcn_isa::operand_names::{self, Named};
use gcn_isa::Generation;
use gcn_syntax::{SyntaxKind, SyntaxNode, SyntaxToken, TextSize};

use super::HoverResult;

/// The hover for `token` when it is one of these names, else None.
pub(super) fn hover(token: &SyntaxToken, gen: Generation) -> Option<HoverResult> {
    let parent = token.parent()?;
    let range = token.text_range();
    let lower = token.text().to_ascii_lowercase();
    let markdown = match parent.kind() {
        // The function's own name.
        SyntaxKind::CALL_EXPR
            if token.kind() == SyntaxKind::NAME && first_name(&parent).as_ref() == Some(token) =>
        {
            function(&lower, &parent, gen)?
        }
        SyntaxKind::NAME_REF | SyntaxKind::LITERAL => {
            let holder = parent.parent()?;
            match holder.kind() {
                SyntaxKind::CALL_EXPR => argument(&lower, token.text(), &holder, &parent, gen)?,
                SyntaxKind::MODIFIER => modifier_value(&lower, token.text(), &holder)?,
                SyntaxKind::LIST_EXPR => format_item(&lower, token.text(), &holder, &parent)?,
                SyntaxKind::OPERAND_LIST if lower == "off" => OFF.to_string(),
                _ => return None,
            }
        }
        _ => return None,
    };
    Some(HoverResult { range, markdown })
}

/// `off` written for an operand.
const OFF: &str = "**off** — the operand is left out: a `global_` instruction without an \
SADDR base (VADDR then holds the whole 64-bit address), a `scratch_` instruction without \
SADDR or VADDR, or a component an `exp` does not write";

/// Whether `token`, a name in an operand, names one of these values where it stands
/// (on any generation): then it is no symbol (semantic tokens leave it uncoloured).
pub(crate) fn is_operand_name(token: &SyntaxToken) -> bool {
    let Some(name_ref) = token.parent().filter(|p| p.kind() == SyntaxKind::NAME_REF) else {
        return false;
    };
    let Some(holder) = name_ref.parent() else {
        return false;
    };
    let lower = token.text().to_ascii_lowercase();
    match holder.kind() {
        SyntaxKind::CALL_EXPR => {
            let function = first_name(&holder)
                .map(|t| t.text().to_ascii_lowercase())
                .unwrap_or_default();
            let key = |prefix: &str| lower.strip_prefix(prefix).unwrap_or(&lower).to_string();
            match (function.as_str(), position_in(&holder, &name_ref)) {
                ("hwreg", 0) => operand_names::HWREGS
                    .iter()
                    .any(|n| n.name == key("hwreg_")),
                ("sendmsg", 0) => operand_names::MESSAGES
                    .iter()
                    .any(|n| n.name == key("msg_")),
                ("sendmsg", 1) => operand_names::gs_op(&lower).is_some(),
                ("gpr_idx", _) => matches!(lower.as_str(), "src0" | "src1" | "src2" | "dst"),
                _ => false,
            }
        }
        SyntaxKind::MODIFIER => modifier_value(&lower, token.text(), &holder).is_some(),
        SyntaxKind::LIST_EXPR => format_item(&lower, token.text(), &holder, &name_ref).is_some(),
        SyntaxKind::OPERAND_LIST => lower == "off",
        _ => false,
    }
}

/// The first NAME token of a call or modifier: its name.
pub(crate) fn first_name(node: &SyntaxNode) -> Option<SyntaxToken> {
    node.children_with_tokens()
        .filter_map(|e| e.into_token())
        .find(|t| t.kind() == SyntaxKind::NAME)
}

/// How many of `node`'s direct children that are commas start before `at`: the index of
/// the argument or list item at `at`.
pub(crate) fn commas_before(node: &SyntaxNode, at: TextSize) -> usize {
    node.children_with_tokens()
        .filter(|e| e.kind() == SyntaxKind::COMMA && e.text_range().start() < at)
        .count()
}

fn position_in(node: &SyntaxNode, child: &SyntaxNode) -> usize {
    commas_before(node, child.text_range().start())
}

fn function(name: &str, call: &SyntaxNode, gen: Generation) -> Option<String> {
    let counter = operand_names::WAIT_COUNTERS.iter().position(|c| *c == name);
    if let Some(which) = counter {
        let max = operand_names::wait_counter_max(which, gen);
        let what = match which {
            0 => "vector memory operations of the wave are outstanding (a load until its data is in the VGPRs, a store or atomic until it completes)",
            1 => "exports, and GDS or memory writes whose data is not read from the VGPRs yet, are outstanding",
            _ => "LDS, GDS, scalar memory (constant) and message operations of the wave are outstanding",
        };
        return Some(format!(
            "**{name}**(N) — an `s_waitcnt` counter: waits until at most N {what}.\n\n- N from 0 to {max} on {gen}; {max}, the default when the counter is not given, does not wait"
        ));
    }
    let text = match name {
        "hwreg" => {
            let value = hwreg_value(call, gen).map(|v| format!("\n\n- here: SIMM16 = {v} ({v:#x})")).unwrap_or_default();
            return Some(format!(
                "**hwreg**(REGISTER, OFFSET, SIZE) — a bit field of a hardware register, for `s_getreg_b32`, `s_setreg_b32` and `s_setreg_imm32_b32`: SIZE bits (1 to 32) from bit OFFSET (0 to 31) of REGISTER, a name or `@ID`.{value}"
            ));
        }
        "sendmsg" => "**sendmsg**(MESSAGE, OPERATION, STREAM) — the message `s_sendmsg` sends: MESSAGE a name or `@ID`; for `gs`, the GS OPERATION (`cut`, `emit`, `emit_cut`) and the STREAM (0 to 3)",
        "lit" => "**lit**(VALUE) — VALUE as a 32-bit literal that follows the instruction, even when it fits an inline constant",
        "gpr_idx" => "**gpr_idx**(OPERANDS...) — which operands `s_set_gpr_idx_on` indexes with M0: any of `src0`, `src1`, `src2`, `dst`",
        _ => return None,
    };
    Some(text.to_string())
}

/// `hwreg(name, offset, size)` with all three known: the 16-bit value it gives.
fn hwreg_value(call: &SyntaxNode, gen: Generation) -> Option<u32> {
    let args: Vec<SyntaxNode> = call.children().collect();
    let [reg, offset, size] = args.as_slice() else {
        return None;
    };
    let id = operand_names::hwreg(&reg.text().to_string().to_ascii_lowercase(), gen)?.value;
    let number = |n: &SyntaxNode| gcn_isa::encode::operands::parse_int(n.text().to_string().trim());
    let (offset, size) = (number(offset)?, number(size)?);
    if !(0..32).contains(&offset) || !(1..=32).contains(&size) {
        return None;
    }
    Some(id | (offset as u32) << 6 | (size as u32 - 1) << 11)
}

fn argument(
    name: &str,
    written: &str,
    call: &SyntaxNode,
    arg: &SyntaxNode,
    gen: Generation,
) -> Option<String> {
    let function = first_name(call)?.text().to_ascii_lowercase();
    let index = position_in(call, arg);
    match (function.as_str(), index) {
        ("hwreg", 0) => named_hover(
            written,
            operand_names::hwreg(name, gen),
            operand_names::HWREGS,
            "hardware register",
            gen,
            hwreg_doc,
        ),
        ("sendmsg", 0) => named_hover(
            written,
            operand_names::message(name, gen),
            operand_names::MESSAGES,
            "message",
            gen,
            message_doc,
        ),
        ("sendmsg", 1) => {
            let op = operand_names::gs_op(name)?;
            Some(format!(
                "**{written}** — GS operation {}: {}",
                op.value,
                gs_op_doc(op.name)
            ))
        }
        ("gpr_idx", _) => {
            let which = match name {
                "src0" => "the first source",
                "src1" => "the second source",
                "src2" => "the third source",
                "dst" => "the destination",
                _ => return None,
            };
            Some(format!(
                "**{written}** — {which} is indexed by M0 until `s_set_gpr_idx_off`"
            ))
        }
        _ => None,
    }
}

/// A name of `table` (`written` as in the source): found on `gen`, or known only on later
/// generations.
fn named_hover(
    written: &str,
    found: Option<&Named>,
    table: &[Named],
    what: &str,
    gen: Generation,
    doc: fn(&str) -> &'static str,
) -> Option<String> {
    if let Some(n) = found {
        return Some(format!(
            "**{written}** — {what} {}: {}",
            n.value,
            doc(n.name)
        ));
    }
    // Known, but from a later generation: say so rather than nothing.
    let lower = written.to_ascii_lowercase();
    let key = lower
        .trim_start_matches("hwreg_")
        .trim_start_matches("msg_");
    let later = table.iter().find(|n| n.name == key)?;
    Some(format!(
        "**{written}** — {what} {}: {}. Not on {gen} (from {})",
        later.value,
        doc(later.name),
        later.since
    ))
}

fn hwreg_doc(name: &str) -> &'static str {
    match name {
        "mode" => "the wave's mode: float rounding and denormals, IEEE mode, DX10 clamp, exception enables",
        "status" => "the wave's status: SCC, EXECZ, VCCZ, priority, halt and trap state",
        "trapsts" => "the trap status: which exceptions were raised",
        "hw_id" => "where the wave runs: wave slot, SIMD, compute unit, shader engine, queue",
        "gpr_alloc" => "the wave's VGPR and SGPR allocation (base and size)",
        "lds_alloc" => "the wave's LDS allocation (base and size)",
        "ib_sts" => "the instruction buffer's status: the counters of outstanding operations",
        "pc_lo" => "the low 32 bits of the program counter",
        "pc_hi" => "the high 32 bits of the program counter",
        "inst_dw0" => "the first dword of the instruction that trapped",
        "inst_dw1" => "the second dword of the instruction that trapped",
        "ib_dbg0" | "ib_dbg1" => "instruction buffer debug state",
        "flush_ib" => "writing it flushes the instruction buffer",
        "sh_mem_bases" => "the bases of the shared (LDS) and private apertures of the flat address space",
        "sq_shader_tba_lo" | "tba_lo" => "the low 32 bits of the trap handler's base address",
        "sq_shader_tba_hi" | "tba_hi" => "the high 32 bits of the trap handler's base address",
        "sq_shader_tma_lo" | "tma_lo" => "the low 32 bits of the trap handler's memory address",
        "sq_shader_tma_hi" | "tma_hi" => "the high 32 bits of the trap handler's memory address",
        "flat_scr_lo" => "the low 32 bits of the flat scratch base",
        "flat_scr_hi" => "the high 32 bits of the flat scratch base",
        "xnack_mask" => "the lanes that must retry a memory access after a page fault",
        "pops_packer" => "the primitive-ordered pixel shading packer state",
        _ => "a hardware register",
    }
}

fn message_doc(name: &str) -> &'static str {
    match name {
        "interrupt" => "raises an interrupt on the host; M0 holds its data",
        "gs" => "a geometry shader operation on a stream: `cut`, `emit` or `emit_cut`",
        "gs_done" => "the geometry shader wave is done",
        "savewave" => "the wave's state is saved (for a context switch)",
        "stall_wave_gen" => "stops the creation of new waves",
        "halt_waves" => "halts the waves",
        "ordered_ps_done" => "the ordered section of a pixel shader is done",
        "early_prim_dealloc" => "frees the primitive's parameter cache space early",
        "gs_alloc_req" => "requests geometry shader output space",
        "get_doorbell" => "reads the queue's doorbell id",
        "system" | "sysmsg" => {
            "a system message (ECC error, register read, host trap acknowledge, trace PC)"
        }
        _ => "a message",
    }
}

fn gs_op_doc(name: &str) -> &'static str {
    match name {
        "nop" => "no operation",
        "cut" => "ends the current primitive strip",
        "emit" => "emits a vertex",
        _ => "emits a vertex and ends the primitive strip",
    }
}

/// `dst_sel:byte0`, `dst_unused:preserve`, `src0_sel:word1`.
fn modifier_value(value: &str, written: &str, modifier: &SyntaxNode) -> Option<String> {
    let name = first_name(modifier)?.text().to_ascii_lowercase();
    match name.as_str() {
        "dst_sel" | "src0_sel" | "src1_sel" => {
            let part = match operand_names::sdwa_sel(value)? {
                sel @ 0..=3 => format!("byte {sel}: bits {} to {}", sel * 8, sel * 8 + 7),
                sel @ 4..=5 => format!(
                    "word {}: bits {} to {}",
                    sel - 4,
                    (sel - 4) * 16,
                    (sel - 4) * 16 + 15
                ),
                _ => "the whole dword: bits 0 to 31".to_string(),
            };
            let role = if name == "dst_sel" {
                "the part of the destination written"
            } else {
                "the part of the source read"
            };
            Some(format!("**{written}** — SDWA selection: {role}, {part}"))
        }
        "dst_unused" => {
            let what = match operand_names::dst_unused(value)? {
                0 => "the destination's other bits are set to zero",
                1 => "the destination's other bits are the sign of the written part",
                _ => "the destination's other bits keep their value",
            };
            Some(format!("**{written}** — SDWA: {what}"))
        }
        _ => None,
    }
}

/// An item of `format:[DATA, NUMBER]`: a data format or a number format.
fn format_item(text: &str, written: &str, list: &SyntaxNode, item: &SyntaxNode) -> Option<String> {
    let modifier = list.parent().filter(|m| m.kind() == SyntaxKind::MODIFIER)?;
    if !first_name(&modifier)?.text().eq_ignore_ascii_case("format") {
        return None;
    }
    if let Some(n) = operand_names::number_format(text).filter(|_| position_in(list, item) <= 1) {
        let what = match text.trim_start_matches("buf_num_format_") {
            "unorm" => "unsigned, normalized to 0.0..1.0",
            "snorm" => "signed, normalized to -1.0..1.0",
            "uscaled" => "unsigned integers converted to floats",
            "sscaled" => "signed integers converted to floats",
            "uint" => "unsigned integers",
            "sint" => "signed integers",
            "snorm_ogl" => "signed, normalized to -1.0..1.0 the OpenGL way",
            _ => "floats",
        };
        return Some(format!("**{written}** — number format {n}: {what}"));
    }
    let d = operand_names::data_format(text).filter(|_| position_in(list, item) == 0)?;
    let widths: Vec<&str> = text
        .trim_start_matches("buf_data_format_")
        .split('_')
        .collect();
    let components = if widths.len() == 1 {
        "one component".to_string()
    } else {
        format!("{} components", widths.len())
    };
    Some(format!(
        "**{written}** — data format {d}: {components} of {} bits",
        widths.join(", ")
    ))
}
