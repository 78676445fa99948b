//! AMD Catalyst OpenCL 1.2 pseudo-ops.

use gcn_formats::amd::{calnote, ResId, UserData};
use gcn_formats::gpu;
use gcn_syntax::ast::AstNode;

use gcn_isa::PseudoOpId as Id;

use super::stmt::{
    at_most, config_kernel, cws, dims, no_args, opt_value_arg, set_symbol, string_arg, value_arg,
    warn_range,
};
use super::{ConfigKind, Host, Stmt};
use crate::layout::{Owner, SectionKind};

/// Policy from which `.sgprsnum` counts VCC too (CLRX 0.2).
const POLICY_UNIFIED_SGPR_COUNT: u32 = 200;

pub(crate) fn pseudo_op(h: &mut dyn Host, st: &Stmt) -> bool {
    match st.id {
        Id::Arg => arg(h, st),
        Id::Boolconsts => cal_note(h, st, calnote::BOOL32CONSTS),
        Id::Calnote => custom_cal_note(h, st),
        Id::Cbid => {
            if config_kernel(h).is_some() {
                config_value(h, st)
            } else {
                entry(h, st, &[calnote::CONSTANT_BUFFERS], "cbid")
            }
        }
        Id::Cbmask => entry(h, st, &[calnote::CONSTANT_BUFFERS], "cbmask"),
        Id::CompileOptions => {
            if let Some(s) = string_arg(h, st, 0) {
                if at_most(h, st, 1) {
                    h.config_mut().compile_options = s;
                }
            }
        }
        Id::Condout | Id::Earlyexit => {
            if config_kernel(h).is_some() {
                config_value(h, st)
            } else {
                let note = if st.id == Id::Condout {
                    calnote::CONDOUT
                } else {
                    calnote::EARLYEXIT
                };
                cal_note(h, st, note)
            }
        }
        Id::Config => config(h, st),
        Id::Constantbuffers => cal_note(h, st, calnote::CONSTANT_BUFFERS),
        Id::Cws | Id::ReqdWorkGroupSize => {
            if let Some(k) = in_config(h, st) {
                if let Some(v) = cws(h, st) {
                    h.config_mut().kernels[k].cws = v;
                }
            }
        }
        Id::Dims => {
            if let Some(k) = in_config(h, st) {
                if let Some(m) = dims(h, st, true) {
                    h.config_mut().kernels[k].dim_mask = Some(m);
                }
            }
        }
        Id::DriverInfo => {
            if let Some(s) = string_arg(h, st, 0) {
                if at_most(h, st, 1) {
                    h.config_mut().driver_info = Some(s);
                }
            }
        }
        Id::DriverVersion => {
            if let Some(v) = value_arg(h, st, 0) {
                if at_most(h, st, 1) {
                    h.config_mut().driver_version = Some(v as u32);
                }
            }
        }
        Id::Entry => entry(h, st, &[calnote::PROGINFO, calnote::UAV], "entry"),
        Id::Exceptions
        | Id::Floatmode
        | Id::Hwlocal
        | Id::Localsize
        | Id::Hwregion
        | Id::Pgmrsrc2
        | Id::Printfid
        | Id::Privateid
        | Id::Scratchbuffer
        | Id::Sgprsnum
        | Id::Uavid
        | Id::Uavprivate
        | Id::Vgprsnum => config_value(h, st),
        Id::Floatconsts => cal_note(h, st, calnote::FLOAT32CONSTS),
        Id::GetDriverVersion => {
            let config = h.config();
            let v = if config.driver_version.is_none() && config.driver_info.is_none() {
                h.driver_version()
            } else {
                config.driver_version.unwrap_or(0)
            };
            set_symbol(h, st, i64::from(v));
        }
        Id::Globalbuffers => cal_note(h, st, calnote::GLOBAL_BUFFERS),
        Id::Globaldata => {
            if no_args(h, st) {
                h.switch_to(0);
            }
        }
        Id::Header => raw_section(h, st, SectionKind::AmdHeader, "header"),
        Id::Ieeemode | Id::Tgsize | Id::Useconstdata | Id::Useprintf => bool_value(h, st),
        Id::Inputs => cal_note(h, st, calnote::INPUTS),
        Id::Inputsamplers => cal_note(h, st, calnote::INPUT_SAMPLERS),
        Id::Intconsts => cal_note(h, st, calnote::INT32CONSTS),
        Id::Metadata => raw_section(h, st, SectionKind::Metadata, "metadata"),
        Id::Outputs => cal_note(h, st, calnote::OUTPUTS),
        Id::Persistentbuffers => cal_note(h, st, calnote::PERSISTENT_BUFFERS),
        Id::Proginfo => cal_note(h, st, calnote::PROGINFO),
        Id::Sampler => {
            if let Some(k) = config_kernel(h) {
                let mut values = Vec::new();
                for i in 0..st.args.len() {
                    if let Some(v) = value_arg(h, st, i) {
                        warn_range(h, st.arg_range(i), 32, v);
                        values.push(v as u32);
                    }
                }
                h.config_mut().kernels[k].samplers.extend(values);
            } else {
                entry(h, st, &[calnote::INPUT_SAMPLERS], "sampler")
            }
        }
        Id::Scratchbuffers => cal_note(h, st, calnote::SCRATCH_BUFFERS),
        Id::Segment => entry(
            h,
            st,
            &[
                calnote::INT32CONSTS,
                calnote::FLOAT32CONSTS,
                calnote::BOOL32CONSTS,
            ],
            "segment",
        ),
        Id::Subconstantbuffers => cal_note(h, st, calnote::SUB_CONSTANT_BUFFERS),
        Id::Uav => cal_note(h, st, calnote::UAV),
        Id::Uavmailboxsize => cal_note(h, st, calnote::UAV_MAILBOX_SIZE),
        Id::Uavopmask => cal_note(h, st, calnote::UAV_OP_MASK),
        Id::Userdata => user_data(h, st),
        _ => return false,
    }
    true
}

/// The kernel whose configuration is open; reports otherwise.
fn in_config(h: &mut dyn Host, st: &Stmt) -> Option<usize> {
    let k = config_kernel(h);
    if k.is_none() {
        h.error_at(st.range, "illegal place of configuration pseudo-op");
    }
    k
}

fn config(h: &mut dyn Host, st: &Stmt) {
    let Some(k) = h.current_kernel() else {
        h.error_at(
            st.range,
            "kernel configuration can be defined only inside a kernel",
        );
        return;
    };
    let owner = Owner::Kernel(k);
    let raw = [
        SectionKind::Metadata,
        SectionKind::AmdHeader,
        SectionKind::CalNote,
    ]
    .iter()
    .any(|&kind| h.find_section(kind, owner).is_some());
    if raw {
        h.error_at(
            st.range,
            "configuration can't be defined if metadata, header and/or CAL notes exist",
        );
        return;
    }
    if !no_args(h, st) {
        return;
    }
    h.enter_config().expect("inside a kernel");
    h.config_mut().kernels[k].kind = ConfigKind::Config;
}

/// The current kernel, for `what` (raw sections, CAL notes), which cannot stand beside
/// a configuration; reports otherwise.
pub(crate) fn kernel_without_config(h: &mut dyn Host, st: &Stmt, what: &str) -> Option<usize> {
    let Some(k) = h.current_kernel() else {
        h.error_at(
            st.range,
            format!("{what} can be defined only inside a kernel"),
        );
        return None;
    };
    if h.config().kernels[k].kind != ConfigKind::None {
        h.error_at(
            st.range,
            format!("{what} can't be defined if a configuration was defined"),
        );
        return None;
    }
    Some(k)
}

/// Switches to `owner`'s section of `kind`, creating it (named `name`) if needed.
pub(crate) fn switch_to_kind(h: &mut dyn Host, name: &str, owner: Owner, kind: SectionKind) {
    let i = match h.find_section(kind, owner) {
        Some(i) => i,
        None => h.create_section(name, owner, kind),
    };
    h.switch_to(i);
}

fn raw_section(h: &mut dyn Host, st: &Stmt, kind: SectionKind, what: &str) {
    let Some(k) = kernel_without_config(h, st, what) else {
        return;
    };
    if no_args(h, st) {
        switch_to_kind(h, "", Owner::Kernel(k), kind);
    }
}

/// CAL notes holding a single value that their pseudo-op may give.
fn single_value(note: u32) -> bool {
    matches!(
        note,
        calnote::EARLYEXIT | calnote::CONDOUT | calnote::UAV_OP_MASK | calnote::UAV_MAILBOX_SIZE
    )
}

fn cal_note(h: &mut dyn Host, st: &Stmt, note: u32) {
    cal_note_from(h, st, note, 0);
}

fn cal_note_from(h: &mut dyn Host, st: &Stmt, note: u32, first: usize) {
    let Some(k) = kernel_without_config(h, st, "CAL note") else {
        return;
    };
    let present = st.args.get(first).is_some_and(|a| !a.is_empty());
    let mut value = None;
    if single_value(note) && present {
        let Some(v) = value_arg(h, st, first) else {
            return;
        };
        warn_range(h, st.arg_range(first), 32, v);
        value = Some(v as u32);
        if !at_most(h, st, first + 1) {
            return;
        }
    } else if st.args.iter().skip(first).any(|a| !a.is_empty()) {
        let range = st.args[first].syntax().text_range();
        h.error_at(range, "garbage at end of line");
        return;
    }
    let i = h.create_section("", Owner::Kernel(k), SectionKind::CalNote);
    h.section_mut(i).note_type = note;
    h.switch_to(i);
    if let Some(v) = value {
        h.emit(st.range, &v.to_le_bytes());
    }
}

fn custom_cal_note(h: &mut dyn Host, st: &Stmt) {
    if h.current_kernel().is_none() {
        h.error_at(st.range, "CAL note can be defined only inside a kernel");
        return;
    }
    let Some(id) = value_arg(h, st, 0) else {
        return;
    };
    warn_range(h, st.arg_range(0), 32, id);
    cal_note_from(h, st, id as u32, 1);
}

/// `.entry`, `.cbmask`, `.segment`, `.sampler`, `.cbid` inside CAL notes.
fn entry(h: &mut dyn Host, st: &Stmt, notes: &[u32], what: &str) {
    let section = h.current_section();
    let note = section.note_type;
    if h.current_kernel().is_none()
        || section.kind != SectionKind::CalNote
        || !notes.contains(&note)
    {
        h.error_at(st.range, format!("illegal place of {what}"));
        return;
    }
    let count = if note == calnote::UAV { 4 } else { 2 };
    let mut values = Vec::new();
    let mut good = true;
    for i in 0..count {
        if i >= st.args.len() && i > 0 {
            h.error_at(st.arg_range(i), "expected `,` before argument");
            return;
        }
        match value_arg(h, st, i) {
            Some(v) => {
                warn_range(h, st.arg_range(i), 32, v);
                values.push(v as u32);
            }
            None => good = false,
        }
    }
    if !good || !at_most(h, st, count) {
        return;
    }
    let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
    h.emit(st.range, &bytes);
}

fn bool_value(h: &mut dyn Host, st: &Stmt) {
    let Some(k) = in_config(h, st) else { return };
    if !no_args(h, st) {
        return;
    }
    let c = &mut h.config_mut().kernels[k];
    match st.id {
        Id::Ieeemode => c.rsrc.ieee_mode = true,
        Id::Tgsize => c.rsrc.tg_size = true,
        Id::Useconstdata => c.use_const_data = true,
        Id::Useprintf => c.use_printf = true,
        _ => {}
    }
}

fn config_value(h: &mut dyn Host, st: &Stmt) {
    let Some(k) = in_config(h, st) else { return };
    let optional = matches!(st.id, Id::Privateid | Id::Uavid | Id::Cbid | Id::Printfid);
    let value = if optional {
        match opt_value_arg(h, st, 0) {
            Some(v) => v,
            None => return,
        }
    } else {
        match value_arg(h, st, 0) {
            Some(v) => Some(v),
            None => return,
        }
    };
    if !at_most(h, st, 1) {
        return;
    }
    let range = st.arg_range(0);
    let gen = h.generation();
    let policy = h.options().policy.unwrap_or(crate::DEFAULT_POLICY);
    let id = |h: &mut dyn Host, what: &str| -> Option<ResId> {
        match value {
            None => Some(ResId::Omitted),
            Some(v) if !(0..1024).contains(&v) => {
                h.error_at(range, format!("{what} out of range (0-1023)"));
                None
            }
            Some(v) => Some(ResId::Id(v as u32)),
        }
    };
    let v = value.unwrap_or(0);
    match st.id {
        Id::Sgprsnum => {
            let max = if policy < POLICY_UNIFIED_SGPR_COUNT {
                gpu::max_sgprs_without_vcc(gen)
            } else {
                gpu::max_sgprs(gen)
            };
            if v as u64 > u64::from(max) {
                h.error_at(range, format!("used SGPRs number out of range (0-{max})"));
                return;
            }
            let v = if policy < POLICY_UNIFIED_SGPR_COUNT {
                v as u32
            } else {
                (v as u32).max(2) - 2
            };
            h.config_mut().kernels[k].sgprs = Some(v);
        }
        Id::Vgprsnum => {
            if v as u64 > u64::from(gpu::MAX_VGPRS) {
                h.error_at(
                    range,
                    format!("used VGPRs number out of range (0-{})", gpu::MAX_VGPRS),
                );
                return;
            }
            h.config_mut().kernels[k].vgprs = Some(v as u32);
        }
        Id::Hwlocal | Id::Localsize => {
            if v as u64 > gpu::MAX_LOCAL_SIZE {
                h.error_at(
                    range,
                    format!("HW local size out of range (0-{})", gpu::MAX_LOCAL_SIZE),
                );
                return;
            }
            h.config_mut().kernels[k].local_size = v as u64;
        }
        Id::Floatmode => {
            warn_range(h, range, 8, v);
            h.config_mut().kernels[k].rsrc.float_mode = (v & 0xff) as u32;
        }
        Id::Exceptions => {
            warn_range(h, range, 7, v);
            h.config_mut().kernels[k].rsrc.exceptions = (v & 0x7f) as u32;
        }
        Id::Uavid => {
            if let Some(id) = id(h, "UAV id") {
                h.config_mut().kernels[k].uav_id = id;
            }
        }
        Id::Cbid => {
            if let Some(id) = id(h, "constant buffer id") {
                h.config_mut().kernels[k].const_buffer_id = id;
            }
        }
        Id::Printfid => {
            if let Some(id) = id(h, "printf id") {
                h.config_mut().kernels[k].printf_id = id;
            }
        }
        Id::Privateid => {
            if let Some(id) = id(h, "private id") {
                h.config_mut().kernels[k].private_id = id;
            }
        }
        _ => {
            warn_range(h, range, 32, v);
            if st.id == Id::Pgmrsrc2 {
                let at = h.location(st.range);
                h.config_mut().kernels[k].pgm_rsrc2_location = Some(at);
            }
            let c = &mut h.config_mut().kernels[k];
            let v = v as u32;
            match st.id {
                Id::Condout => c.cond_out = v,
                Id::Earlyexit => c.early_exit = v,
                Id::Hwregion => c.hw_region = Some(v),
                Id::Pgmrsrc2 => c.rsrc.pgm_rsrc2 = v,
                Id::Scratchbuffer => c.scratch_buffer = v,
                Id::Uavprivate => c.uav_private = Some(v),
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

/// The name `.userdata` gives a data class.
pub(crate) fn data_class_name(class: u32) -> Option<&'static str> {
    DATA_CLASSES
        .iter()
        .find(|&&(_, c)| c == class)
        .map(|&(name, _)| name)
}

fn user_data(h: &mut dyn Host, st: &Stmt) {
    let Some(k) = config_kernel(h) else {
        h.error_at(st.range, "illegal place of user data");
        return;
    };
    let mut good = true;
    let class_name = st
        .args
        .first()
        .map(|a| a.text().to_ascii_lowercase())
        .unwrap_or_default();
    let data_class = DATA_CLASSES
        .iter()
        .find(|(n, _)| *n == class_name)
        .map(|&(_, v)| v);
    if data_class.is_none() {
        h.error_at(st.arg_range(0), "unknown data class");
        good = false;
    }
    if st.args.len() < 4 {
        h.error_at(st.arg_range(st.args.len()), "expected `,` before argument");
        return;
    }
    let api_slot = value_arg(h, st, 1);
    if let Some(v) = api_slot {
        warn_range(h, st.arg_range(1), 32, v);
    }
    let reg_start = value_arg(h, st, 2);
    if let Some(v) = reg_start {
        if v as u64 > 15 {
            h.error_at(
                st.arg_range(2),
                format!("first user data register {v} out of range (0 to 15)"),
            );
            good = false;
        }
    }
    let reg_size = value_arg(h, st, 3);
    if let (Some(s), Some(n)) = (reg_start.filter(|&s| s as u64 <= 15), reg_size) {
        if (s as u64).checked_add(n as u64).is_none_or(|t| t > 16) {
            h.error_at(
                st.arg_range(2),
                format!(
                    "user data registers {s} to {} go past the last one, 15",
                    (s as u64).saturating_add(n as u64) - 1
                ),
            );
            good = false;
        }
    }
    let (Some(api_slot), Some(reg_start), Some(reg_size)) = (api_slot, reg_start, reg_size) else {
        return;
    };
    if !good || !at_most(h, st, 4) {
        return;
    }
    let c = &mut h.config_mut().kernels[k];
    if c.user_datas.len() == 16 {
        h.error_at(st.range, "too many user data elements");
        return;
    }
    c.user_datas.push(UserData {
        data_class: data_class.unwrap_or(0),
        api_slot: api_slot as u32,
        reg_start: reg_start as u32,
        reg_size: reg_size as u32,
    });
}

fn arg(h: &mut dyn Host, st: &Stmt) {
    let Some(k) = config_kernel(h) else {
        h.error_at(st.range, "illegal place of kernel argument");
        return;
    };
    let names = h.config().kernels[k].arg_names.clone();
    if let Some(a) = super::args::parse_arg(h, st, &names, false) {
        let at = h.location(st.range);
        let c = &mut h.config_mut().kernels[k];
        c.arg_names.insert(a.name.clone());
        c.args.push(a);
        c.arg_locations.push(at);
    }
}
