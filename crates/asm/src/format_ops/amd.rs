//! AMD Catalyst OpenCL 1.2 pseudo-ops.

use gcn_formats::amd::{calnote, ResId, UserData};
use gcn_formats::gpu;
use gcn_syntax::ast::AstNode;

use super::{
    at_most, config_kernel, cws, dims, no_args, opt_value_arg, set_symbol, string_arg, value_arg, warn_range,
    ConfigKind, Stmt,
};
use crate::assembler::{Asm, Ctx};
use crate::layout::{Owner, SectionKind};

/// Policy from which `.sgprsnum` counts VCC too (CLRX 0.2).
const POLICY_UNIFIED_SGPR_COUNT: u32 = 200;

pub(crate) fn pseudo_op(asm: &mut Asm, ctx: &Ctx, st: &Stmt) -> bool {
    let name = st.name;
    match name {
        ".arg" => arg(asm, ctx, st),
        ".boolconsts" => cal_note(asm, ctx, st, calnote::BOOL32CONSTS),
        ".calnote" => custom_cal_note(asm, ctx, st),
        ".cbid" => {
            if config_kernel(asm).is_some() {
                config_value(asm, ctx, st)
            } else {
                entry(asm, ctx, st, &[calnote::CONSTANT_BUFFERS], "cbid")
            }
        }
        ".cbmask" => entry(asm, ctx, st, &[calnote::CONSTANT_BUFFERS], "cbmask"),
        ".compile_options" => {
            if let Some(s) = string_arg(asm, ctx, st, 0) {
                if at_most(asm, ctx, st, 1) {
                    asm.layout.config.compile_options = s;
                }
            }
        }
        ".condout" | ".earlyexit" => {
            if config_kernel(asm).is_some() {
                config_value(asm, ctx, st)
            } else {
                let note = if name == ".condout" { calnote::CONDOUT } else { calnote::EARLYEXIT };
                cal_note(asm, ctx, st, note)
            }
        }
        ".config" => config(asm, ctx, st),
        ".constantbuffers" => cal_note(asm, ctx, st, calnote::CONSTANT_BUFFERS),
        ".cws" | ".reqd_work_group_size" => {
            if let Some(k) = in_config(asm, ctx, st) {
                if let Some(v) = cws(asm, ctx, st) {
                    asm.layout.config.kernels[k].cws = v;
                }
            }
        }
        ".dims" => {
            if let Some(k) = in_config(asm, ctx, st) {
                if let Some(m) = dims(asm, ctx, st, true) {
                    asm.layout.config.kernels[k].dim_mask = Some(m);
                }
            }
        }
        ".driver_info" => {
            if let Some(s) = string_arg(asm, ctx, st, 0) {
                if at_most(asm, ctx, st, 1) {
                    asm.layout.config.driver_info = Some(s);
                }
            }
        }
        ".driver_version" => {
            if let Some(v) = value_arg(asm, ctx, st, 0) {
                if at_most(asm, ctx, st, 1) {
                    asm.layout.config.driver_version = Some(v as u32);
                }
            }
        }
        ".entry" => entry(asm, ctx, st, &[calnote::PROGINFO, calnote::UAV], "entry"),
        ".exceptions" | ".floatmode" | ".hwlocal" | ".localsize" | ".hwregion" | ".pgmrsrc2" | ".printfid"
        | ".privateid" | ".scratchbuffer" | ".sgprsnum" | ".uavid" | ".uavprivate" | ".vgprsnum" => {
            config_value(asm, ctx, st)
        }
        ".floatconsts" => cal_note(asm, ctx, st, calnote::FLOAT32CONSTS),
        ".get_driver_version" => {
            let config = &asm.layout.config;
            let v = if config.driver_version.is_none() && config.driver_info.is_none() {
                super::driver_version(asm)
            } else {
                config.driver_version.unwrap_or(0)
            };
            set_symbol(asm, ctx, st, i64::from(v));
        }
        ".globalbuffers" => cal_note(asm, ctx, st, calnote::GLOBAL_BUFFERS),
        ".globaldata" => {
            if no_args(asm, ctx, st) {
                asm.layout.switch_to(0);
            }
        }
        ".header" => raw_section(asm, ctx, st, SectionKind::AmdHeader, "header"),
        ".ieeemode" | ".tgsize" | ".useconstdata" | ".useprintf" => bool_value(asm, ctx, st),
        ".inputs" => cal_note(asm, ctx, st, calnote::INPUTS),
        ".inputsamplers" => cal_note(asm, ctx, st, calnote::INPUT_SAMPLERS),
        ".intconsts" => cal_note(asm, ctx, st, calnote::INT32CONSTS),
        ".metadata" => raw_section(asm, ctx, st, SectionKind::Metadata, "metadata"),
        ".outputs" => cal_note(asm, ctx, st, calnote::OUTPUTS),
        ".persistentbuffers" => cal_note(asm, ctx, st, calnote::PERSISTENT_BUFFERS),
        ".proginfo" => cal_note(asm, ctx, st, calnote::PROGINFO),
        ".sampler" => {
            if let Some(k) = config_kernel(asm) {
                let mut values = Vec::new();
                for i in 0..st.args.len() {
                    if let Some(v) = value_arg(asm, ctx, st, i) {
                        warn_range(asm, ctx, st.arg_range(i), 32, v);
                        values.push(v as u32);
                    }
                }
                asm.layout.config.kernels[k].samplers.extend(values);
            } else {
                entry(asm, ctx, st, &[calnote::INPUT_SAMPLERS], "sampler")
            }
        }
        ".scratchbuffers" => cal_note(asm, ctx, st, calnote::SCRATCH_BUFFERS),
        ".segment" => entry(
            asm,
            ctx,
            st,
            &[calnote::INT32CONSTS, calnote::FLOAT32CONSTS, calnote::BOOL32CONSTS],
            "segment",
        ),
        ".subconstantbuffers" => cal_note(asm, ctx, st, calnote::SUB_CONSTANT_BUFFERS),
        ".uav" => cal_note(asm, ctx, st, calnote::UAV),
        ".uavmailboxsize" => cal_note(asm, ctx, st, calnote::UAV_MAILBOX_SIZE),
        ".uavopmask" => cal_note(asm, ctx, st, calnote::UAV_OP_MASK),
        ".userdata" => user_data(asm, ctx, st),
        _ => return false,
    }
    true
}

/// The kernel whose configuration is open; reports otherwise.
fn in_config(asm: &mut Asm, ctx: &Ctx, st: &Stmt) -> Option<usize> {
    let k = config_kernel(asm);
    if k.is_none() {
        asm.error_at(ctx, st.range, "illegal place of configuration pseudo-op");
    }
    k
}

fn config(asm: &mut Asm, ctx: &Ctx, st: &Stmt) {
    let Some(k) = asm.layout.current_kernel() else {
        asm.error_at(ctx, st.range, "kernel configuration can be defined only inside a kernel");
        return;
    };
    let owner = Owner::Kernel(k);
    let raw = [SectionKind::Metadata, SectionKind::AmdHeader, SectionKind::CalNote]
        .iter()
        .any(|&kind| asm.layout.find_kind(kind, owner).is_some());
    if raw {
        asm.error_at(ctx, st.range, "configuration can't be defined if metadata, header and/or CAL notes exist");
        return;
    }
    if !no_args(asm, ctx, st) {
        return;
    }
    asm.layout.enter_config().expect("inside a kernel");
    asm.layout.config.kernels[k].kind = ConfigKind::Config;
}

/// The current kernel, for `what` (raw sections, CAL notes), which cannot stand beside
/// a configuration; reports otherwise.
pub(crate) fn kernel_without_config(asm: &mut Asm, ctx: &Ctx, st: &Stmt, what: &str) -> Option<usize> {
    let Some(k) = asm.layout.current_kernel() else {
        asm.error_at(ctx, st.range, format!("{what} can be defined only inside a kernel"));
        return None;
    };
    if asm.layout.config.kernels[k].kind != ConfigKind::None {
        asm.error_at(ctx, st.range, format!("{what} can't be defined if a configuration was defined"));
        return None;
    }
    Some(k)
}

/// Switches to `owner`'s section of `kind`, creating it (named `name`) if needed.
pub(crate) fn switch_to_kind(asm: &mut Asm, name: &str, owner: Owner, kind: SectionKind) {
    let i = match asm.layout.find_kind(kind, owner) {
        Some(i) => i,
        None => asm.layout.create(name, owner, kind),
    };
    asm.layout.switch_to(i);
}

fn raw_section(asm: &mut Asm, ctx: &Ctx, st: &Stmt, kind: SectionKind, what: &str) {
    let Some(k) = kernel_without_config(asm, ctx, st, what) else { return };
    if no_args(asm, ctx, st) {
        switch_to_kind(asm, "", Owner::Kernel(k), kind);
    }
}

/// CAL notes holding a single value that their pseudo-op may give.
fn single_value(note: u32) -> bool {
    matches!(note, calnote::EARLYEXIT | calnote::CONDOUT | calnote::UAV_OP_MASK | calnote::UAV_MAILBOX_SIZE)
}

fn cal_note(asm: &mut Asm, ctx: &Ctx, st: &Stmt, note: u32) {
    cal_note_from(asm, ctx, st, note, 0);
}

fn cal_note_from(asm: &mut Asm, ctx: &Ctx, st: &Stmt, note: u32, first: usize) {
    let Some(k) = kernel_without_config(asm, ctx, st, "CAL note") else { return };
    let present = st.args.get(first).is_some_and(|a| !a.is_empty());
    let mut value = None;
    if single_value(note) && present {
        let Some(v) = value_arg(asm, ctx, st, first) else { return };
        warn_range(asm, ctx, st.arg_range(first), 32, v);
        value = Some(v as u32);
        if !at_most(asm, ctx, st, first + 1) {
            return;
        }
    } else if st.args.iter().skip(first).any(|a| !a.is_empty()) {
        let range = st.args[first].syntax().text_range();
        asm.error_at(ctx, range, "garbage at end of line");
        return;
    }
    let i = asm.layout.create("", Owner::Kernel(k), SectionKind::CalNote);
    asm.layout.sections[i].note_type = note;
    asm.layout.switch_to(i);
    if let Some(v) = value {
        asm.emit(ctx, st.range, &v.to_le_bytes());
    }
}

fn custom_cal_note(asm: &mut Asm, ctx: &Ctx, st: &Stmt) {
    if asm.layout.current_kernel().is_none() {
        asm.error_at(ctx, st.range, "CAL note can be defined only inside a kernel");
        return;
    }
    let Some(id) = value_arg(asm, ctx, st, 0) else { return };
    warn_range(asm, ctx, st.arg_range(0), 32, id);
    cal_note_from(asm, ctx, st, id as u32, 1);
}

/// `.entry`, `.cbmask`, `.segment`, `.sampler`, `.cbid` inside CAL notes.
fn entry(asm: &mut Asm, ctx: &Ctx, st: &Stmt, notes: &[u32], what: &str) {
    let section = asm.layout.current_section();
    let note = section.note_type;
    if asm.layout.current_kernel().is_none() || section.kind != SectionKind::CalNote || !notes.contains(&note) {
        asm.error_at(ctx, st.range, format!("illegal place of {what}"));
        return;
    }
    let count = if note == calnote::UAV { 4 } else { 2 };
    let mut values = Vec::new();
    let mut good = true;
    for i in 0..count {
        if i >= st.args.len() && i > 0 {
            asm.error_at(ctx, st.arg_range(i), "expected `,` before argument");
            return;
        }
        match value_arg(asm, ctx, st, i) {
            Some(v) => {
                warn_range(asm, ctx, st.arg_range(i), 32, v);
                values.push(v as u32);
            }
            None => good = false,
        }
    }
    if !good || !at_most(asm, ctx, st, count) {
        return;
    }
    let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
    asm.emit(ctx, st.range, &bytes);
}

fn bool_value(asm: &mut Asm, ctx: &Ctx, st: &Stmt) {
    let Some(k) = in_config(asm, ctx, st) else { return };
    if !no_args(asm, ctx, st) {
        return;
    }
    let c = &mut asm.layout.config.kernels[k];
    match st.name {
        ".ieeemode" => c.rsrc.ieee_mode = true,
        ".tgsize" => c.rsrc.tg_size = true,
        ".useconstdata" => c.use_const_data = true,
        ".useprintf" => c.use_printf = true,
        _ => {}
    }
}

fn config_value(asm: &mut Asm, ctx: &Ctx, st: &Stmt) {
    let Some(k) = in_config(asm, ctx, st) else { return };
    let name = st.name;
    let optional = matches!(name, ".privateid" | ".uavid" | ".cbid" | ".printfid");
    let value = if optional {
        match opt_value_arg(asm, ctx, st, 0) {
            Some(v) => v,
            None => return,
        }
    } else {
        match value_arg(asm, ctx, st, 0) {
            Some(v) => Some(v),
            None => return,
        }
    };
    if !at_most(asm, ctx, st, 1) {
        return;
    }
    let range = st.arg_range(0);
    let gen = asm.target.gen;
    let policy = asm.opts.policy.unwrap_or(crate::DEFAULT_POLICY);
    let id = |asm: &mut Asm, what: &str| -> Option<ResId> {
        match value {
            None => Some(ResId::Omitted),
            Some(v) if !(0..1024).contains(&v) => {
                asm.error_at(ctx, range, format!("{what} out of range (0-1023)"));
                None
            }
            Some(v) => Some(ResId::Id(v as u32)),
        }
    };
    let v = value.unwrap_or(0);
    match name {
        ".sgprsnum" => {
            let max = if policy < POLICY_UNIFIED_SGPR_COUNT { gpu::max_sgprs_without_vcc(gen) } else { gpu::max_sgprs(gen) };
            if v as u64 > u64::from(max) {
                asm.error_at(ctx, range, format!("used SGPRs number out of range (0-{max})"));
                return;
            }
            let v = if policy < POLICY_UNIFIED_SGPR_COUNT { v as u32 } else { (v as u32).max(2) - 2 };
            asm.layout.config.kernels[k].sgprs = Some(v);
        }
        ".vgprsnum" => {
            if v as u64 > u64::from(gpu::MAX_VGPRS) {
                asm.error_at(ctx, range, format!("used VGPRs number out of range (0-{})", gpu::MAX_VGPRS));
                return;
            }
            asm.layout.config.kernels[k].vgprs = Some(v as u32);
        }
        ".hwlocal" | ".localsize" => {
            if v as u64 > gpu::MAX_LOCAL_SIZE {
                asm.error_at(ctx, range, format!("HW local size out of range (0-{})", gpu::MAX_LOCAL_SIZE));
                return;
            }
            asm.layout.config.kernels[k].local_size = v as u64;
        }
        ".floatmode" => {
            warn_range(asm, ctx, range, 8, v);
            asm.layout.config.kernels[k].rsrc.float_mode = (v & 0xff) as u32;
        }
        ".exceptions" => {
            warn_range(asm, ctx, range, 7, v);
            asm.layout.config.kernels[k].rsrc.exceptions = (v & 0x7f) as u32;
        }
        ".uavid" => {
            if let Some(id) = id(asm, "UAV id") {
                asm.layout.config.kernels[k].uav_id = id;
            }
        }
        ".cbid" => {
            if let Some(id) = id(asm, "constant buffer id") {
                asm.layout.config.kernels[k].const_buffer_id = id;
            }
        }
        ".printfid" => {
            if let Some(id) = id(asm, "printf id") {
                asm.layout.config.kernels[k].printf_id = id;
            }
        }
        ".privateid" => {
            if let Some(id) = id(asm, "private id") {
                asm.layout.config.kernels[k].private_id = id;
            }
        }
        _ => {
            warn_range(asm, ctx, range, 32, v);
            let c = &mut asm.layout.config.kernels[k];
            let v = v as u32;
            match name {
                ".condout" => c.cond_out = v,
                ".earlyexit" => c.early_exit = v,
                ".hwregion" => c.hw_region = Some(v),
                ".pgmrsrc2" => c.rsrc.pgm_rsrc2 = v,
                ".scratchbuffer" => c.scratch_buffer = v,
                ".uavprivate" => c.uav_private = Some(v),
                _ => {}
            }
        }
    }
}

const DATA_CLASSES: &[(&str, u32)] = &[
    ("imm_alu_bool32_const", 0x06),
    ("imm_alu_float_const", 0x05),
    ("imm_const_buffer", 0x02),
    ("imm_context_base", 0x1d),
    ("imm_dispatch_id", 0x0c),
    ("imm_gds_counter_range", 0x07),
    ("imm_gds_memory_range", 0x08),
    ("imm_generic_user_data", 0x20),
    ("imm_global_offset", 0x1f),
    ("imm_gws_base", 0x09),
    ("imm_heap_buffer", 0x0e),
    ("imm_kernel_arg", 0x0f),
    ("imm_lds_esgs_size", 0x1e),
    ("imm_resource", 0x00),
    ("imm_sampler", 0x01),
    ("imm_scratch_buffer", 0x0d),
    ("imm_uav", 0x04),
    ("imm_vertex_buffer", 0x03),
    ("imm_work_group_range", 0x0b),
    ("imm_work_item_range", 0x0a),
    ("ptr_const_buffer_table", 0x14),
    ("ptr_extended_user_data", 0x19),
    ("ptr_indirect_internal_resource", 0x1b),
    ("ptr_indirect_resource", 0x1a),
    ("ptr_indirect_uav", 0x1c),
    ("ptr_internal_global_table", 0x18),
    ("ptr_internal_resource_table", 0x12),
    ("ptr_resource_table", 0x11),
    ("ptr_sampler_table", 0x13),
    ("ptr_so_buffer_table", 0x16),
    ("ptr_uav_table", 0x17),
    ("ptr_vertex_buffer_table", 0x15),
    ("sub_ptr_fetch_shader", 0x10),
];

fn user_data(asm: &mut Asm, ctx: &Ctx, st: &Stmt) {
    let Some(k) = config_kernel(asm) else {
        asm.error_at(ctx, st.range, "illegal place of user data");
        return;
    };
    let mut good = true;
    let class_name = st.args.first().map(|a| a.text().to_ascii_lowercase()).unwrap_or_default();
    let data_class = DATA_CLASSES.iter().find(|(n, _)| *n == class_name).map(|&(_, v)| v);
    if data_class.is_none() {
        asm.error_at(ctx, st.arg_range(0), "unknown data class");
        good = false;
    }
    if st.args.len() < 4 {
        asm.error_at(ctx, st.arg_range(st.args.len()), "expected `,` before argument");
        return;
    }
    let api_slot = value_arg(asm, ctx, st, 1);
    if let Some(v) = api_slot {
        warn_range(asm, ctx, st.arg_range(1), 32, v);
    }
    let reg_start = value_arg(asm, ctx, st, 2);
    if let Some(v) = reg_start {
        if v as u64 > 15 {
            asm.error_at(ctx, st.arg_range(2), "RegStart out of range (0-15)");
            good = false;
        }
    }
    let reg_size = value_arg(asm, ctx, st, 3);
    if let (Some(s), Some(n)) = (reg_start, reg_size) {
        if (s as u64).checked_add(n as u64).is_none_or(|t| t > 16) {
            asm.error_at(ctx, st.arg_range(2), "RegStart+RegSize out of range (0-16)");
            good = false;
        }
    }
    let (Some(api_slot), Some(reg_start), Some(reg_size)) = (api_slot, reg_start, reg_size) else { return };
    if !good || !at_most(asm, ctx, st, 4) {
        return;
    }
    let c = &mut asm.layout.config.kernels[k];
    if c.user_datas.len() == 16 {
        asm.error_at(ctx, st.range, "too many user data elements");
        return;
    }
    c.user_datas.push(UserData {
        data_class: data_class.unwrap_or(0),
        api_slot: api_slot as u32,
        reg_start: reg_start as u32,
        reg_size: reg_size as u32,
    });
}

fn arg(asm: &mut Asm, ctx: &Ctx, st: &Stmt) {
    let Some(k) = config_kernel(asm) else {
        asm.error_at(ctx, st.range, "illegal place of kernel argument");
        return;
    };
    let names = asm.layout.config.kernels[k].arg_names.clone();
    if let Some(a) = super::args::parse_arg(asm, ctx, st, &names, false) {
        let c = &mut asm.layout.config.kernels[k];
        c.arg_names.insert(a.name.clone());
        c.args.push(a);
    }
}
