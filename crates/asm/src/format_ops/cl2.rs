//! AMD OpenCL 2.0 pseudo-ops.

use gcn_formats::amdcl2::NEW_BINARIES;
use gcn_formats::args::{ArgType, KernelArg, PtrSpace};
use gcn_formats::hsa::{feature_flags, sgpr_flags, HsaConfig};
use gcn_syntax::ast::AstNode;

use super::amd::{kernel_without_config, switch_to_kind};
use super::gallium::{arch_minor_or_stepping, checked_config_value, descriptor_value, hsa_of};
use super::hsa::{self, Field};
use super::{
    at_most, config_kernel, cws, dims, driver_version, no_args, set_symbol, string_arg, value_arg, warn_range,
    ConfigKind, Stmt,
};
use crate::assembler::{Asm, Ctx};
use crate::expr::Value;
use crate::layout::{Owner, SectionKind};

pub(crate) fn pseudo_op(asm: &mut Asm, ctx: &Ctx, st: &Stmt) -> bool {
    let name = st.name;
    match name {
        ".acl_version" => {
            if let Some(s) = string_arg(asm, ctx, st, 0) {
                if at_most(asm, ctx, st, 1) {
                    asm.layout.config.acl_version = s;
                }
            }
        }
        ".arch_minor" | ".arch_stepping" => arch_minor_or_stepping(&mut asm.format_host(ctx), st),
        ".arg" => arg(asm, ctx, st),
        ".bssdata" => bss(asm, ctx, st),
        ".machine" | ".codeversion" | ".reserved_sgprs" | ".reserved_vgprs" | ".use_grid_workgroup_count" => {
            if let Some(k) = hsa_kernel(asm, ctx, st) {
                descriptor_value(&mut asm.format_host(ctx), st, k);
            }
        }
        ".compile_options" => {
            if let Some(s) = string_arg(asm, ctx, st, 0) {
                if at_most(asm, ctx, st, 1) {
                    asm.layout.config.compile_options = s;
                }
            }
        }
        ".config" => config(asm, ctx, st, false),
        ".hsaconfig" => config(asm, ctx, st, true),
        ".control_directive" => control_directive(asm, ctx, st),
        ".cws" | ".reqd_work_group_size" | ".work_group_size_hint" => {
            if let Some(k) = in_config(asm, ctx, st) {
                if let Some(v) = cws(asm, ctx, st) {
                    let c = &mut asm.layout.config.kernels[k];
                    if name == ".work_group_size_hint" {
                        c.work_group_size_hint = v;
                    } else {
                        c.cws = v;
                    }
                }
            }
        }
        ".default_hsa_features" => {
            if let Some(k) = hsa_kernel(asm, ctx, st) {
                if no_args(asm, ctx, st) {
                    let is64 = asm.opts.is64;
                    let h = hsa_of(&mut asm.layout.config, k);
                    h.sgpr_flags = sgpr_flags::PRIVATE_SEGMENT_BUFFER | sgpr_flags::KERNARG_SEGMENT_PTR;
                    h.feature_flags = (if is64 { feature_flags::PTR64 } else { 0 }) | 2;
                }
            }
        }
        ".dims" => {
            if let Some(k) = in_config(asm, ctx, st) {
                if let Some(m) = dims(asm, ctx, st, true) {
                    if asm.layout.config.kernels[k].kind == ConfigKind::Hsa {
                        hsa_of(&mut asm.layout.config, k).dim_mask = m;
                    } else {
                        asm.layout.config.kernels[k].dim_mask = Some(m);
                    }
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
        ".get_driver_version" => {
            let v = driver_version(asm);
            set_symbol(asm, ctx, st, i64::from(v));
        }
        ".globaldata" => {
            data_section(asm, ctx, st, ".rodata", SectionKind::Data, "global data");
        }
        ".rwdata" => {
            data_section(asm, ctx, st, ".data", SectionKind::RwData, "global rwdata");
        }
        ".samplerinit" => {
            if asm.layout.config.samplers.is_some() {
                asm.error_at(ctx, st.range, "samplerinit is illegal if sampler definitions are present");
                return true;
            }
            data_section(asm, ctx, st, "", SectionKind::SamplerInit, "samplerinit");
        }
        ".hsalayout" => {
            if !asm.layout.kernels.is_empty() {
                asm.error_at(ctx, st.range, "HSA layout must be enabled before any kernel");
            } else if driver_version(asm) < NEW_BINARIES {
                asm.error_at(ctx, st.range, "HSA layout is illegal in the old binary format");
            } else if no_args(asm, ctx, st) {
                asm.layout.config.hsa_layout = true;
            }
        }
        ".inner" => {
            if no_args(asm, ctx, st) {
                asm.layout.enter_inner();
            }
        }
        ".isametadata" | ".metadata" | ".setup" | ".stub" => raw_section(asm, ctx, st),
        ".kcode" => super::gallium::kcode(&mut asm.format_host(ctx), st),
        ".kcodeend" => super::gallium::kcode_end(&mut asm.format_host(ctx), st),
        ".sampler" => sampler(asm, ctx, st),
        ".samplerreloc" => sampler_reloc(asm, ctx, st),
        ".setupargs" => setup_args(asm, ctx, st),
        ".vectypehint" => {
            if let Some(k) = in_config(asm, ctx, st) {
                let text = st.args.first().map(|a| a.text()).unwrap_or_default();
                if text.is_empty() {
                    asm.error_at(ctx, st.arg_range(0), "expected vectypehint");
                } else if at_most(asm, ctx, st, 1) {
                    asm.layout.config.kernels[k].vec_type_hint = text;
                }
            }
        }
        ".debugmode" | ".dx10clamp" | ".ieeemode" | ".privmode" | ".tgsize" | ".useargs" | ".usesetup"
        | ".useenqueue" | ".usegeneric" => bool_value(asm, ctx, st),
        _ => {
            if let Some((sgpr, bit)) = hsa::hsa_flag(st.id) {
                if let Some(k) = hsa_kernel(asm, ctx, st) {
                    if hsa::no_args_ok(&mut asm.format_host(ctx), st) {
                        hsa::set_flag(hsa_of(&mut asm.layout.config, k), sgpr, bit);
                    }
                }
                return true;
            }
            if let Some(field) = hsa::hsa_only_field(st.id) {
                if let Some(k) = hsa_kernel(asm, ctx, st) {
                    if let Some(v) = hsa::value(&mut asm.format_host(ctx), st, field) {
                        hsa::set(hsa_of(&mut asm.layout.config, k), field, v);
                    }
                }
                return true;
            }
            match name {
                ".sgprsnum" | ".vgprsnum" | ".pgmrsrc1" | ".pgmrsrc2" | ".floatmode" | ".priority" | ".exceptions"
                | ".localsize" | ".gdssize" | ".scratchbuffer" | ".userdatanum" => config_value(asm, ctx, st),
                _ => return false,
            }
        }
    }
    true
}

/// The kernel whose configuration (either kind) is open; reports otherwise.
fn in_config(asm: &mut Asm, ctx: &Ctx, st: &Stmt) -> Option<usize> {
    let k = config_kernel(asm);
    if k.is_none() {
        asm.error_at(ctx, st.range, "illegal place of configuration pseudo-op");
    }
    k
}

/// The kernel whose HSA configuration is open; reports otherwise.
fn hsa_kernel(asm: &mut Asm, ctx: &Ctx, st: &Stmt) -> Option<usize> {
    let k = in_config(asm, ctx, st)?;
    if asm.layout.config.kernels[k].kind != ConfigKind::Hsa {
        asm.error_at(ctx, st.range, "HSA configuration pseudo-op only in an HSA configuration");
        return None;
    }
    Some(k)
}

fn new_binaries(asm: &mut Asm, ctx: &Ctx, st: &Stmt, what: &str) -> bool {
    if driver_version(asm) < NEW_BINARIES {
        asm.error_at(ctx, st.range, format!("{what} allowed only for new binary format"));
        return false;
    }
    true
}

fn data_section(asm: &mut Asm, ctx: &Ctx, st: &Stmt, name: &str, kind: SectionKind, what: &str) -> bool {
    if new_binaries(asm, ctx, st, what) && no_args(asm, ctx, st) {
        switch_to_kind(&mut asm.format_host(ctx), name, Owner::Inner, kind);
    }
    true
}

fn bss(asm: &mut Asm, ctx: &Ctx, st: &Stmt) {
    if !new_binaries(asm, ctx, st, "global BSS") {
        return;
    }
    let mut align = 0u64;
    for (i, arg) in st.args.iter().enumerate() {
        if arg.is_empty() && st.args.len() == 1 {
            continue;
        }
        let kv = arg.key_values().next();
        match kv {
            Some(kv) if kv.key().is_some_and(|k| k.text().eq_ignore_ascii_case("align")) => {
                let Some(e) = kv.value() else {
                    asm.error_at(ctx, arg.syntax().text_range(), "expected an expression");
                    return;
                };
                let Some(v) = asm.eval_abs_now(ctx, &e) else { return };
                if v != 0 && (v < 0 || v & (v - 1) != 0) {
                    asm.error_at(ctx, e.syntax().text_range(), "alignment must be a power of two or zero");
                    return;
                }
                align = v as u64;
            }
            _ => {
                asm.error_at(ctx, st.arg_range(i), "garbage at end of line");
                return;
            }
        }
    }
    let i = match asm.layout.find_kind(SectionKind::Bss, Owner::Inner) {
        Some(i) => i,
        None => asm.layout.create(".bss", Owner::Inner, SectionKind::Bss),
    };
    if align != 0 {
        asm.layout.sections[i].align = align;
    }
    asm.layout.switch_to(i);
}

fn raw_section(asm: &mut Asm, ctx: &Ctx, st: &Stmt) {
    let (kind, what) = match st.name {
        ".metadata" => (SectionKind::Metadata, "metadata"),
        ".isametadata" => (SectionKind::IsaMetadata, "ISA metadata"),
        ".setup" => (SectionKind::Setup, "setup"),
        _ => (SectionKind::Stub, "stub"),
    };
    let Some(k) = kernel_without_config(&mut asm.format_host(ctx), st, what) else { return };
    if matches!(kind, SectionKind::IsaMetadata | SectionKind::Stub) && driver_version(asm) >= NEW_BINARIES {
        asm.error_at(ctx, st.range, format!("{what} allowed only for the old binary format"));
        return;
    }
    if no_args(asm, ctx, st) {
        switch_to_kind(&mut asm.format_host(ctx), "", Owner::Kernel(k), kind);
    }
}

/// Whether kernel `k` has raw sections (metadata, ISA metadata, setup or stub), which
/// exclude a configuration.
fn has_raw_sections(asm: &Asm, k: usize) -> bool {
    let owner = Owner::Kernel(k);
    [SectionKind::Metadata, SectionKind::IsaMetadata, SectionKind::Setup, SectionKind::Stub]
        .iter()
        .any(|&kind| asm.layout.find_kind(kind, owner).is_some())
}

fn config(asm: &mut Asm, ctx: &Ctx, st: &Stmt, hsa_config: bool) {
    let Some(k) = asm.layout.current_kernel() else {
        asm.error_at(ctx, st.range, "kernel configuration can be defined only inside a kernel");
        return;
    };
    if has_raw_sections(asm, k) {
        asm.error_at(ctx, st.range, "configuration can't be defined if metadata, setup or stub sections exist");
        return;
    }
    let kind = asm.layout.config.kernels[k].kind;
    let want = if hsa_config { ConfigKind::Hsa } else { ConfigKind::Config };
    if kind != ConfigKind::None && kind != want {
        asm.error_at(ctx, st.range, "Config and HSAConfig can't be mixed");
        return;
    }
    if !no_args(asm, ctx, st) {
        return;
    }
    asm.layout.enter_config().expect("inside a kernel");
    let c = &mut asm.layout.config.kernels[k];
    c.kind = want;
    if hsa_config && c.hsa.is_none() {
        c.hsa = Some(HsaConfig::default());
    }
}

fn control_directive(asm: &mut Asm, ctx: &Ctx, st: &Stmt) {
    let Some(k) = asm.layout.current_kernel() else {
        asm.error_at(ctx, st.range, "kernel control directive can be defined only inside a kernel");
        return;
    };
    if has_raw_sections(asm, k) {
        asm.error_at(ctx, st.range, "control directive can't be defined if metadata, setup or stub sections exist");
        return;
    }
    if asm.layout.config.kernels[k].kind == ConfigKind::Config {
        asm.error_at(ctx, st.range, "Config and control directive can't be mixed");
        return;
    }
    if !no_args(asm, ctx, st) {
        return;
    }
    switch_to_kind(&mut asm.format_host(ctx), "", Owner::Kernel(k), SectionKind::ControlDirective);
    let c = &mut asm.layout.config.kernels[k];
    if c.hsa.is_none() {
        c.hsa = Some(HsaConfig::default());
    }
}

fn bool_value(asm: &mut Asm, ctx: &Ctx, st: &Stmt) {
    let Some(k) = in_config(asm, ctx, st) else { return };
    let hsa_config = asm.layout.config.kernels[k].kind == ConfigKind::Hsa;
    let name = st.name;
    if hsa_config && matches!(name, ".useargs" | ".usesetup" | ".useenqueue" | ".usegeneric") {
        asm.error_at(ctx, st.range, "illegal configuration pseudo-op in an HSA configuration");
        return;
    }
    if !no_args(asm, ctx, st) {
        return;
    }
    if hsa_config {
        let h = hsa_of(&mut asm.layout.config, k);
        match name {
            ".debugmode" => h.rsrc.debug_mode = true,
            ".dx10clamp" => h.rsrc.dx10_clamp = true,
            ".ieeemode" => h.rsrc.ieee_mode = true,
            ".privmode" => h.rsrc.priv_mode = true,
            ".tgsize" => h.rsrc.tg_size = true,
            _ => {}
        }
        return;
    }
    let c = &mut asm.layout.config.kernels[k];
    match name {
        ".debugmode" => c.rsrc.debug_mode = true,
        ".dx10clamp" => c.rsrc.dx10_clamp = true,
        ".ieeemode" => c.rsrc.ieee_mode = true,
        ".privmode" => c.rsrc.priv_mode = true,
        ".tgsize" => c.rsrc.tg_size = true,
        ".useargs" => c.use_args = true,
        ".usesetup" => c.use_setup = true,
        ".useenqueue" => c.use_enqueue = true,
        ".usegeneric" => c.use_generic = true,
        _ => {}
    }
}

fn config_value(asm: &mut Asm, ctx: &Ctx, st: &Stmt) {
    let Some(k) = in_config(asm, ctx, st) else { return };
    let name = st.name;
    let hsa_config = asm.layout.config.kernels[k].kind == ConfigKind::Hsa;
    if !hsa_config && name == ".userdatanum" {
        asm.error_at(ctx, st.range, "HSA configuration pseudo-op only in an HSA configuration");
        return;
    }
    if hsa_config {
        let field = match name {
            ".sgprsnum" => Field::SgprsNum,
            ".vgprsnum" => Field::VgprsNum,
            ".pgmrsrc1" => Field::PgmRsrc1,
            ".pgmrsrc2" => Field::PgmRsrc2,
            ".floatmode" => Field::FloatMode,
            ".priority" => Field::Priority,
            ".exceptions" => Field::Exceptions,
            ".userdatanum" => Field::UserDataNum,
            ".localsize" => Field::WorkgroupGroupSegmentSize,
            ".gdssize" => Field::GdsSegmentSize,
            _ => Field::WorkitemPrivateSegmentSize,
        };
        // The reference checks these by its own rules even in an HSA configuration.
        let own_check = matches!(name, ".localsize" | ".gdssize" | ".scratchbuffer");
        let v = if own_check {
            match checked_config_value(&mut asm.format_host(ctx), st) {
                Some(v) => v,
                None => return,
            }
        } else {
            match hsa::value(&mut asm.format_host(ctx), st, field) {
                Some(v) => v,
                None => return,
            }
        };
        hsa::set(hsa_of(&mut asm.layout.config, k), field, v);
        return;
    }
    let Some(v) = checked_config_value(&mut asm.format_host(ctx), st) else { return };
    let c = &mut asm.layout.config.kernels[k];
    match name {
        ".sgprsnum" => c.sgprs = Some(v as u32),
        ".vgprsnum" => c.vgprs = Some(v as u32),
        ".pgmrsrc1" => c.rsrc.pgm_rsrc1 = v as u32,
        ".pgmrsrc2" => c.rsrc.pgm_rsrc2 = v as u32,
        ".floatmode" => c.rsrc.float_mode = (v & 0xff) as u32,
        ".priority" => c.rsrc.priority = (v & 3) as u32,
        ".exceptions" => c.rsrc.exceptions = (v & 0x7f) as u32,
        ".localsize" => c.local_size = v as u64,
        ".gdssize" => c.gds_size = v as u32,
        ".scratchbuffer" => c.scratch_buffer = v as u32,
        _ => {}
    }
}

fn sampler(asm: &mut Asm, ctx: &Ctx, st: &Stmt) {
    let owner = asm.layout.owner();
    let kernel = config_kernel(asm);
    if matches!(owner, Owner::Kernel(_)) && kernel.is_none() {
        asm.error_at(ctx, st.range, "illegal place of configuration pseudo-op");
        return;
    }
    if !new_binaries(asm, ctx, st, "sampler") {
        return;
    }
    if kernel.is_none() && asm.layout.find_kind(SectionKind::SamplerInit, Owner::Inner).is_some() {
        asm.error_at(ctx, st.range, "illegal sampler definition if samplerinit was defined");
        return;
    }
    let mut values = Vec::new();
    for i in 0..st.args.len() {
        if st.args.len() == 1 && st.args[0].is_empty() {
            break;
        }
        if let Some(v) = value_arg(asm, ctx, st, i) {
            warn_range(asm, ctx, st.arg_range(i), 32, v);
            values.push(v as u32);
        }
    }
    match kernel {
        Some(k) => asm.layout.config.kernels[k].samplers.extend(values),
        None => asm.layout.config.samplers.get_or_insert_with(Vec::new).extend(values),
    }
}

fn sampler_reloc(asm: &mut Asm, ctx: &Ctx, st: &Stmt) {
    if matches!(asm.layout.owner(), Owner::Kernel(_)) {
        asm.error_at(ctx, st.range, "illegal place of samplerreloc pseudo-op");
        return;
    }
    if !new_binaries(asm, ctx, st, "sampler relocation") {
        return;
    }
    let Some(arg) = st.args.first().filter(|a| !a.is_empty()) else {
        asm.error_at(ctx, st.arg_range(0), "expected an expression");
        return;
    };
    let Some(e) = arg.expr() else {
        asm.error_at(ctx, arg.syntax().text_range(), "expected an expression");
        return;
    };
    let Some(offset) = asm.eval_now(ctx, &e) else { return };
    if st.args.len() < 2 {
        asm.error_at(ctx, st.arg_range(1), "expected `,` before argument");
        return;
    }
    let Some(id) = value_arg(asm, ctx, st, 1) else { return };
    if !at_most(asm, ctx, st, 2) {
        return;
    }
    let rodata = asm.layout.find_kind(SectionKind::Data, Owner::Inner);
    let offset = match offset {
        Value::Abs(v) => v,
        Value::Rel { section, offset } if Some(section as usize) == rodata => offset,
        Value::Rel { .. } => {
            asm.error_at(ctx, arg.syntax().text_range(), "offset can be an absolute value or a global data place");
            return;
        }
    };
    let offsets = &mut asm.layout.config.sampler_offsets;
    let id = id as usize;
    if offsets.len() <= id {
        offsets.resize(id + 1, None);
    }
    offsets[id] = Some(offset as u64);
}

fn arg(asm: &mut Asm, ctx: &Ctx, st: &Stmt) {
    let Some(k) = config_kernel(asm) else {
        asm.error_at(ctx, st.range, "illegal place of kernel argument");
        return;
    };
    let names = asm.layout.config.kernels[k].arg_names.clone();
    if let Some(a) = super::args::parse_arg(&mut asm.format_host(ctx), st, &names, true) {
        let c = &mut asm.layout.config.kernels[k];
        c.arg_names.insert(a.name.clone());
        c.args.push(a);
    }
}

fn setup_args(asm: &mut Asm, ctx: &Ctx, st: &Stmt) {
    let Some(k) = config_kernel(asm) else {
        asm.error_at(ctx, st.range, "illegal place of kernel argument");
        return;
    };
    if !asm.layout.config.kernels[k].arg_names.is_empty() {
        asm.error_at(ctx, st.range, "setup arguments must come first in the argument list");
        return;
    }
    if !no_args(asm, ctx, st) {
        return;
    }
    let scalar = if asm.opts.is64 { ArgType::Long } else { ArgType::Int };
    // The reference fills these with a shorter initializer: its "used" value lands in
    // the structure size, and the usage and resource id stay zero.
    let arg = |name: &str, arg_type, ptr_space, used: u32| KernelArg {
        name: name.into(),
        type_name: "size_t".into(),
        arg_type,
        pointer_type: ArgType::Void,
        ptr_space,
        ptr_access: 0,
        struct_size: used,
        const_space_size: 0,
        res_id: Some(0),
        used: 0,
    };
    let list = [
        arg("_.global_offset_0", scalar, PtrSpace::None, 0),
        arg("_.global_offset_1", scalar, PtrSpace::None, 0),
        arg("_.global_offset_2", scalar, PtrSpace::None, 0),
        arg("_.printf_buffer", ArgType::Pointer, PtrSpace::Global, 3),
        arg("_.vqueue_pointer", scalar, PtrSpace::None, 0),
        arg("_.aqlwrap_pointer", scalar, PtrSpace::None, 0),
    ];
    let c = &mut asm.layout.config.kernels[k];
    for a in list {
        c.arg_names.insert(a.name.clone());
        c.args.push(a);
    }
}

/// `.section NAME` (and `.rodata`, `.data`) in AMD OpenCL 2.0 before driver 1912.05:
/// the reference refuses the global data, read-write data and bss sections, and a new
/// section of the inner binary (made inside a kernel or after `.inner`), whose binary
/// the old layout does not have.
pub(crate) fn old_layout_section_error(asm: &Asm, name: &str) -> Option<&'static str> {
    if driver_version(asm) >= NEW_BINARIES {
        return None;
    }
    match name {
        ".rodata" => Some("global data allowed only for new binary format"),
        ".data" => Some("global rwdata allowed only for new binary format"),
        ".bss" => Some("global BSS allowed only for new binary format"),
        _ => match asm.layout.owner() {
            Owner::Global => None,
            Owner::Kernel(_) if name == ".text" => None,
            _ if asm.layout.find(name, Owner::Inner).is_some() => None,
            _ => Some("inner sections are allowed only for new binary format"),
        },
    }
}
