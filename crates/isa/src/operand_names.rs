//! The names operands take besides registers and numbers, as clrxasm reads them: the
//! hardware registers of `hwreg(...)`, the messages and GS operations of `sendmsg(...)`,
//! the counters of `s_waitcnt`, the SDWA selections and the MTBUF formats. The encoders
//! and the language server's hover and completion read the same tables.

use crate::Generation;

/// A named value and the first generation that has it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Named {
    pub name: &'static str,
    pub value: u32,
    pub since: Generation,
}

const fn named(name: &'static str, value: u32, since: Generation) -> Named {
    Named { name, value, since }
}

/// The hardware registers `hwreg(NAME, OFFSET, SIZE)` names (also with `hwreg_` in
/// front), with their ids.
pub const HWREGS: &[Named] = &[
    named("mode", 1, Generation::Gcn1_0),
    named("status", 2, Generation::Gcn1_0),
    named("trapsts", 3, Generation::Gcn1_0),
    named("hw_id", 4, Generation::Gcn1_0),
    named("gpr_alloc", 5, Generation::Gcn1_0),
    named("lds_alloc", 6, Generation::Gcn1_0),
    named("ib_sts", 7, Generation::Gcn1_0),
    named("pc_lo", 8, Generation::Gcn1_0),
    named("pc_hi", 9, Generation::Gcn1_0),
    named("inst_dw0", 10, Generation::Gcn1_0),
    named("inst_dw1", 11, Generation::Gcn1_0),
    named("ib_dbg0", 12, Generation::Gcn1_0),
    named("ib_dbg1", 13, Generation::Gcn1_2),
    named("flush_ib", 14, Generation::Gcn1_4),
    named("sh_mem_bases", 15, Generation::Gcn1_4),
    named("sq_shader_tba_lo", 16, Generation::Gcn1_4),
    named("sq_shader_tba_hi", 17, Generation::Gcn1_4),
    named("sq_shader_tma_lo", 18, Generation::Gcn1_4),
    named("sq_shader_tma_hi", 19, Generation::Gcn1_4),
    named("tba_lo", 16, Generation::Gcn1_4),
    named("tba_hi", 17, Generation::Gcn1_4),
    named("tma_lo", 18, Generation::Gcn1_4),
    named("tma_hi", 19, Generation::Gcn1_4),
    named("flat_scr_lo", 20, Generation::Gcn1_5),
    named("flat_scr_hi", 21, Generation::Gcn1_5),
    named("xnack_mask", 22, Generation::Gcn1_5),
    named("pops_packer", 23, Generation::Gcn1_5),
];

/// The messages `sendmsg(MSG, ...)` names (also with `msg_` in front).
pub const MESSAGES: &[Named] = &[
    named("interrupt", 1, Generation::Gcn1_0),
    named("gs", 2, Generation::Gcn1_0),
    named("gs_done", 3, Generation::Gcn1_0),
    named("savewave", 4, Generation::Gcn1_2),
    named("stall_wave_gen", 5, Generation::Gcn1_4),
    named("halt_waves", 6, Generation::Gcn1_4),
    named("ordered_ps_done", 7, Generation::Gcn1_4),
    named("early_prim_dealloc", 8, Generation::Gcn1_4),
    named("gs_alloc_req", 9, Generation::Gcn1_4),
    named("get_doorbell", 10, Generation::Gcn1_4),
    named("system", 15, Generation::Gcn1_0),
    named("sysmsg", 15, Generation::Gcn1_0),
];

/// The GS operations of `sendmsg(gs, OP, STREAM)` (also with `gs_op_` or `gs_` in front).
pub const GS_OPS: &[Named] = &[
    named("nop", 0, Generation::Gcn1_0),
    named("cut", 1, Generation::Gcn1_0),
    named("emit", 2, Generation::Gcn1_0),
    named("emit_cut", 3, Generation::Gcn1_0),
    named("emit-cut", 3, Generation::Gcn1_0),
];

/// The hardware register `name` (lower case) names on `gen`.
pub fn hwreg(name: &str, gen: Generation) -> Option<&'static Named> {
    let key = name.strip_prefix("hwreg_").unwrap_or(name);
    HWREGS.iter().find(|n| n.name == key && gen >= n.since)
}

/// The message `name` (lower case) names on `gen`.
pub fn message(name: &str, gen: Generation) -> Option<&'static Named> {
    let key = name.strip_prefix("msg_").unwrap_or(name);
    MESSAGES.iter().find(|n| n.name == key && gen >= n.since)
}

/// ` (GENERATION and later have it)` when `name` (lower case, without its prefix) is in
/// `table` only from a later generation than `gen`, else nothing: for "unknown" messages.
pub fn later_note(table: &[Named], name: &str, gen: Generation) -> String {
    match later_generation(table, name, gen) {
        Some(since) => format!(" ({since} and later have it)"),
        None => String::new(),
    }
}

/// The generation after `gen` that first has `name` in `table`, if one does.
fn later_generation(table: &[Named], name: &str, gen: Generation) -> Option<Generation> {
    table
        .iter()
        .find(|n| n.name == name && n.since > gen)
        .map(|n| n.since)
}

/// What follows "unknown hardware register `name` on GEN" for `name` (lower case): LLVM's
/// spelling (`hw_reg_mode`) answered with CLRX's, and the generation that has the
/// register when it is a later one, as in ` (CLRX writes it `mode` or `hwreg_mode`;
/// GCN1.5 and later have it)`; with CLRX's name to write instead, when `gen` has it.
pub fn unknown_hwreg_note(name: &str, gen: Generation) -> (String, Option<String>) {
    let llvm_key = name
        .strip_prefix("hw_reg_")
        .filter(|key| HWREGS.iter().any(|n| n.name == *key));
    let key = llvm_key
        .or_else(|| name.strip_prefix("hwreg_"))
        .unwrap_or(name);
    let mut notes = Vec::new();
    if let Some(key) = llvm_key {
        notes.push(format!("CLRX writes it `{key}` or `hwreg_{key}`"));
    }
    let later = later_generation(HWREGS, key, gen);
    if let Some(since) = later {
        notes.push(format!("{since} and later have it"));
    }
    let instead = llvm_key
        .filter(|_| later.is_none())
        .map(|key| format!("hwreg_{key}"));
    if notes.is_empty() {
        (String::new(), instead)
    } else {
        (format!(" ({})", notes.join("; ")), instead)
    }
}

/// The GS operation `name` (lower case) names.
pub fn gs_op(name: &str) -> Option<&'static Named> {
    let key = name
        .strip_prefix("gs_op_")
        .or_else(|| name.strip_prefix("gs_"))
        .unwrap_or(name);
    GS_OPS.iter().find(|n| n.name == key)
}

/// The counters of `s_waitcnt`, in their order in the instruction's words.
pub const WAIT_COUNTERS: [&str; 3] = ["vmcnt", "expcnt", "lgkmcnt"];

/// The largest value of the counter `WAIT_COUNTERS[which]` on `gen` (the value that does
/// not wait): VM_CNT has 4 bits before GCN 1.4 and 6 from it, EXP_CNT 3, LGKM_CNT 4
/// before GCN 1.5 and 6 on it.
pub fn wait_counter_max(which: usize, gen: Generation) -> u32 {
    match which {
        0 if gen >= Generation::Gcn1_4 => 0x3f,
        0 => 0xf,
        1 => 7,
        _ if gen.is_gfx10() => 0x3f,
        _ => 0xf,
    }
}

/// An SDWA selection (`dst_sel:`, `src0_sel:`, `src1_sel:`) by name (lower case): 0-3 a
/// byte, 4-5 a word, 6 the whole dword.
pub fn sdwa_sel(name: &str) -> Option<u8> {
    Some(match name {
        "b0" | "byte0" | "byte_0" => 0,
        "b1" | "byte1" | "byte_1" => 1,
        "b2" | "byte2" | "byte_2" => 2,
        "b3" | "byte3" | "byte_3" => 3,
        "w0" | "word0" | "word_0" => 4,
        "w1" | "word1" | "word_1" => 5,
        "dword" => 6,
        _ => return None,
    })
}

/// What `dst_unused:` takes (lower case, also with `unused_` in front): 0 pad, 1 sext,
/// 2 preserve.
pub fn dst_unused(name: &str) -> Option<u8> {
    match name.strip_prefix("unused_").unwrap_or(name) {
        "pad" => Some(0),
        "sext" => Some(1),
        "preserve" => Some(2),
        _ => None,
    }
}

/// The MTBUF data formats 1 to 14 by name (index + 1). 0 and 15 have none in clrxasm (the
/// disassembler's `invalid` and `reserved` are not names the assembler takes): `@0`,
/// `@15`.
pub const DATA_FORMATS: &[&str] = &[
    "8",
    "16",
    "8_8",
    "32",
    "16_16",
    "10_11_11",
    "11_11_10",
    "10_10_10_2",
    "2_10_10_10",
    "8_8_8_8",
    "32_32",
    "16_16_16_16",
    "32_32_32",
    "32_32_32_32",
];

/// The MTBUF number formats by name (index).
pub const NUMBER_FORMATS: &[&str] = &[
    "unorm",
    "snorm",
    "uscaled",
    "sscaled",
    "uint",
    "sint",
    "snorm_ogl",
    "float",
];

/// The data format `name` (lower case, also with `buf_data_format_` in front).
pub fn data_format(name: &str) -> Option<u32> {
    let key = name.strip_prefix("buf_data_format_").unwrap_or(name);
    DATA_FORMATS
        .iter()
        .position(|f| *f == key)
        .map(|i| i as u32 + 1)
}

/// The number format `name` (lower case, also with `buf_num_format_` in front).
pub fn number_format(name: &str) -> Option<u32> {
    let key = name.strip_prefix("buf_num_format_").unwrap_or(name);
    NUMBER_FORMATS
        .iter()
        .position(|f| *f == key)
        .map(|i| i as u32)
}
