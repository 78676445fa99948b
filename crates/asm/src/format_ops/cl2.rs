//! AMD OpenCL 2.0 pseudo-ops.

use gcn_formats::amdcl2::NEW_BINARIES;
use gcn_formats::args::{ArgType, KernelArg, PtrSpace};
use gcn_formats::hsa::{feature_flags, sgpr_flags, HsaConfig};
use gcn_syntax::ast::AstNode;

use super::amd::{kernel_without_config, switch_to_kind};
use super::gallium::{
    arch_minor_or_stepping, checked_config_value, descriptor_value, hsa_of, kcode, kcode_end,
};
use gcn_isa::PseudoOpId as Id;

use super::hsa::{self, Field};
use super::stmt::{
    at_most, config_kernel, cws, dims, no_args, set_symbol, string_arg, value_arg, warn_range,
};
use super::{driver_version, ConfigKind, Host, Stmt};
use crate::assembler::Asm;
use crate::expr::Value;
use crate::layout::{Owner, SectionKind};

pub(crate) fn pseudo_op(h: &mut dyn Host, st: &Stmt) -> bool {
    match st.id {
        Id::AclVersion => {
            if let Some(s) = string_arg(h, st, 0) {
                if at_most(h, st, 1) {
                    h.config_mut().acl_version = s;
                }
            }
        }
        Id::ArchMinor | Id::ArchStepping => arch_minor_or_stepping(h, st),
        Id::Arg => arg(h, st),
        Id::Bssdata => bss(h, st),
        Id::Machine
        | Id::Codeversion
        | Id::ReservedSgprs
        | Id::ReservedVgprs
        | Id::UseGridWorkgroupCount => {
            if let Some(k) = hsa_kernel(h, st) {
                descriptor_value(h, st, k);
            }
        }
        Id::CompileOptions => {
            if let Some(s) = string_arg(h, st, 0) {
                if at_most(h, st, 1) {
                    h.config_mut().compile_options = s;
                }
            }
        }
        Id::Config => config(h, st, false),
        Id::Hsaconfig => config(h, st, true),
        Id::ControlDirective => control_directive(h, st),
        Id::Cws | Id::ReqdWorkGroupSize | Id::WorkGroupSizeHint => {
            if let Some(k) = in_config(h, st) {
                if let Some(v) = cws(h, st) {
                    let c = &mut h.config_mut().kernels[k];
                    if st.id == Id::WorkGroupSizeHint {
                        c.work_group_size_hint = v;
                    } else {
                        c.cws = v;
                    }
                }
            }
        }
        Id::DefaultHsaFeatures => {
            if let Some(k) = hsa_kernel(h, st) {
                if no_args(h, st) {
                    let is64 = h.options().is64;
                    let hsa = hsa_of(h.config_mut(), k);
                    hsa.sgpr_flags =
                        sgpr_flags::PRIVATE_SEGMENT_BUFFER | sgpr_flags::KERNARG_SEGMENT_PTR;
                    hsa.feature_flags = (if is64 { feature_flags::PTR64 } else { 0 }) | 2;
                }
            }
        }
        Id::Dims => {
            if let Some(k) = in_config(h, st) {
                if let Some(m) = dims(h, st, true) {
                    if h.config().kernels[k].kind == ConfigKind::Hsa {
                        hsa_of(h.config_mut(), k).dim_mask = m;
                    } else {
                        h.config_mut().kernels[k].dim_mask = Some(m);
                    }
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
        Id::GetDriverVersion => {
            let v = h.driver_version();
            set_symbol(h, st, i64::from(v));
        }
        Id::Globaldata => {
            data_section(h, st, ".rodata", SectionKind::Data, "global data");
        }
        Id::Rwdata => {
            data_section(h, st, ".data", SectionKind::RwData, "global rwdata");
        }
        Id::Samplerinit => {
            if h.config().samplers.is_some() {
                h.error_at(
                    st.range,
                    "samplerinit is illegal if sampler definitions are present",
                );
                return true;
            }
            data_section(h, st, "", SectionKind::SamplerInit, "samplerinit");
        }
        Id::Hsalayout => {
            if !h.kernels().is_empty() {
                h.error_at(st.range, "HSA layout must be enabled before any kernel");
            } else if h.driver_version() < NEW_BINARIES {
                h.error_at(st.range, "HSA layout is illegal in the old binary format");
            } else if no_args(h, st) {
                h.config_mut().hsa_layout = true;
            }
        }
        Id::Inner => {
            if no_args(h, st) {
                h.enter_inner();
            }
        }
        Id::Isametadata | Id::Metadata | Id::Setup | Id::Stub => raw_section(h, st),
        Id::Kcode => kcode(h, st),
        Id::Kcodeend => kcode_end(h, st),
        Id::Sampler => sampler(h, st),
        Id::Samplerreloc => sampler_reloc(h, st),
        Id::Setupargs => setup_args(h, st),
        Id::Vectypehint => {
            if let Some(k) = in_config(h, st) {
                let text = st.args.first().map(|a| a.text()).unwrap_or_default();
                if text.is_empty() {
                    h.error_at(st.arg_range(0), "expected vectypehint");
                } else if at_most(h, st, 1) {
                    h.config_mut().kernels[k].vec_type_hint = text;
                }
            }
        }
        Id::Debugmode
        | Id::Dx10clamp
        | Id::Ieeemode
        | Id::Privmode
        | Id::Tgsize
        | Id::Useargs
        | Id::Usesetup
        | Id::Useenqueue
        | Id::Usegeneric => bool_value(h, st),
        _ => {
            if let Some((sgpr, bit)) = hsa::hsa_flag(st.id) {
                if let Some(k) = hsa_kernel(h, st) {
                    if hsa::no_args_ok(h, st) {
                        hsa::set_flag(hsa_of(h.config_mut(), k), sgpr, bit);
                    }
                }
                return true;
            }
            if let Some(field) = hsa::hsa_only_field(st.id) {
                if let Some(k) = hsa_kernel(h, st) {
                    if let Some(v) = hsa::value(h, st, field) {
                        hsa::set(hsa_of(h.config_mut(), k), field, v);
                    }
                }
                return true;
            }
            match st.id {
                Id::Sgprsnum
                | Id::Vgprsnum
                | Id::Pgmrsrc1
                | Id::Pgmrsrc2
                | Id::Floatmode
                | Id::Priority
                | Id::Exceptions
                | Id::Localsize
                | Id::Gdssize
                | Id::Scratchbuffer
                | Id::Userdatanum => config_value(h, st),
                _ => return false,
            }
        }
    }
    true
}

/// The kernel whose configuration (either kind) is open; reports otherwise.
fn in_config(h: &mut dyn Host, st: &Stmt) -> Option<usize> {
    let k = config_kernel(h);
    if k.is_none() {
        h.error_at(st.range, "illegal place of configuration pseudo-op");
    }
    k
}

/// The kernel whose HSA configuration is open; reports otherwise.
fn hsa_kernel(h: &mut dyn Host, st: &Stmt) -> Option<usize> {
    let k = in_config(h, st)?;
    if h.config().kernels[k].kind != ConfigKind::Hsa {
        h.error_at(
            st.range,
            "HSA configuration pseudo-op only in an HSA configuration",
        );
        return None;
    }
    Some(k)
}

fn new_binaries(h: &mut dyn Host, st: &Stmt, what: &str) -> bool {
    if h.driver_version() < NEW_BINARIES {
        h.error_at(
            st.range,
            format!("{what} allowed only for new binary format"),
        );
        return false;
    }
    true
}

fn data_section(h: &mut dyn Host, st: &Stmt, name: &str, kind: SectionKind, what: &str) -> bool {
    if new_binaries(h, st, what) && no_args(h, st) {
        switch_to_kind(h, name, Owner::Inner, kind);
    }
    true
}

fn bss(h: &mut dyn Host, st: &Stmt) {
    if !new_binaries(h, st, "global BSS") {
        return;
    }
    let mut align = 0u64;
    for (i, arg) in st.args.iter().enumerate() {
        if arg.is_empty() && st.args.len() == 1 {
            continue;
        }
        let kv = arg.key_values().next();
        match kv {
            Some(kv)
                if kv
                    .key()
                    .is_some_and(|k| k.text().eq_ignore_ascii_case("align")) =>
            {
                let Some(e) = kv.value() else {
                    h.error_at(arg.syntax().text_range(), "expected an expression");
                    return;
                };
                let Some(v) = h.eval_abs_now(&e) else { return };
                if v != 0 && (v < 0 || v & (v - 1) != 0) {
                    h.error_at(
                        e.syntax().text_range(),
                        "alignment must be a power of two or zero",
                    );
                    return;
                }
                align = v as u64;
            }
            _ => {
                h.error_at(st.arg_range(i), "garbage at end of line");
                return;
            }
        }
    }
    let i = match h.find_section(SectionKind::Bss, Owner::Inner) {
        Some(i) => i,
        None => h.create_section(".bss", Owner::Inner, SectionKind::Bss),
    };
    if align != 0 {
        h.section_mut(i).align = align;
    }
    h.switch_to(i);
}

fn raw_section(h: &mut dyn Host, st: &Stmt) {
    let (kind, what) = match st.id {
        Id::Metadata => (SectionKind::Metadata, "metadata"),
        Id::Isametadata => (SectionKind::IsaMetadata, "ISA metadata"),
        Id::Setup => (SectionKind::Setup, "setup"),
        _ => (SectionKind::Stub, "stub"),
    };
    let Some(k) = kernel_without_config(h, st, what) else {
        return;
    };
    if matches!(kind, SectionKind::IsaMetadata | SectionKind::Stub)
        && h.driver_version() >= NEW_BINARIES
    {
        h.error_at(
            st.range,
            format!("{what} allowed only for the old binary format"),
        );
        return;
    }
    if no_args(h, st) {
        switch_to_kind(h, "", Owner::Kernel(k), kind);
    }
}

/// Whether kernel `k` has raw sections (metadata, ISA metadata, setup or stub), which
/// exclude a configuration.
fn has_raw_sections(h: &dyn Host, k: usize) -> bool {
    let owner = Owner::Kernel(k);
    [
        SectionKind::Metadata,
        SectionKind::IsaMetadata,
        SectionKind::Setup,
        SectionKind::Stub,
    ]
    .iter()
    .any(|&kind| h.find_section(kind, owner).is_some())
}

fn config(h: &mut dyn Host, st: &Stmt, hsa_config: bool) {
    let Some(k) = h.current_kernel() else {
        h.error_at(
            st.range,
            "kernel configuration can be defined only inside a kernel",
        );
        return;
    };
    if has_raw_sections(h, k) {
        h.error_at(
            st.range,
            "configuration can't be defined if metadata, setup or stub sections exist",
        );
        return;
    }
    let kind = h.config().kernels[k].kind;
    let want = if hsa_config {
        ConfigKind::Hsa
    } else {
        ConfigKind::Config
    };
    if kind != ConfigKind::None && kind != want {
        h.error_at(st.range, "Config and HSAConfig can't be mixed");
        return;
    }
    if !no_args(h, st) {
        return;
    }
    h.enter_config().expect("inside a kernel");
    let c = &mut h.config_mut().kernels[k];
    c.kind = want;
    if hsa_config && c.hsa.is_none() {
        c.hsa = Some(HsaConfig::default());
    }
}

fn control_directive(h: &mut dyn Host, st: &Stmt) {
    let Some(k) = h.current_kernel() else {
        h.error_at(
            st.range,
            "kernel control directive can be defined only inside a kernel",
        );
        return;
    };
    if has_raw_sections(h, k) {
        h.error_at(
            st.range,
            "control directive can't be defined if metadata, setup or stub sections exist",
        );
        return;
    }
    if h.config().kernels[k].kind == ConfigKind::Config {
        h.error_at(
            st.range,
            "a kernel with `.config` takes no `.control_directive` (the configuration makes it)",
        );
        return;
    }
    if !no_args(h, st) {
        return;
    }
    switch_to_kind(h, "", Owner::Kernel(k), SectionKind::ControlDirective);
    let c = &mut h.config_mut().kernels[k];
    if c.hsa.is_none() {
        c.hsa = Some(HsaConfig::default());
    }
}

fn bool_value(h: &mut dyn Host, st: &Stmt) {
    let Some(k) = in_config(h, st) else { return };
    let hsa_config = h.config().kernels[k].kind == ConfigKind::Hsa;
    if hsa_config
        && matches!(
            st.id,
            Id::Useargs | Id::Usesetup | Id::Useenqueue | Id::Usegeneric
        )
    {
        h.error_at(
            st.range,
            "illegal configuration pseudo-op in an HSA configuration",
        );
        return;
    }
    if !no_args(h, st) {
        return;
    }
    if hsa_config {
        let hsa = hsa_of(h.config_mut(), k);
        match st.id {
            Id::Debugmode => hsa.rsrc.debug_mode = true,
            Id::Dx10clamp => hsa.rsrc.dx10_clamp = true,
            Id::Ieeemode => hsa.rsrc.ieee_mode = true,
            Id::Privmode => hsa.rsrc.priv_mode = true,
            Id::Tgsize => hsa.rsrc.tg_size = true,
            _ => {}
        }
        return;
    }
    let c = &mut h.config_mut().kernels[k];
    match st.id {
        Id::Debugmode => c.rsrc.debug_mode = true,
        Id::Dx10clamp => c.rsrc.dx10_clamp = true,
        Id::Ieeemode => c.rsrc.ieee_mode = true,
        Id::Privmode => c.rsrc.priv_mode = true,
        Id::Tgsize => c.rsrc.tg_size = true,
        Id::Useargs => c.use_args = true,
        Id::Usesetup => c.use_setup = true,
        Id::Useenqueue => c.use_enqueue = true,
        Id::Usegeneric => c.use_generic = true,
        _ => {}
    }
}

fn config_value(h: &mut dyn Host, st: &Stmt) {
    let Some(k) = in_config(h, st) else { return };
    let hsa_config = h.config().kernels[k].kind == ConfigKind::Hsa;
    if !hsa_config && st.id == Id::Userdatanum {
        h.error_at(
            st.range,
            "HSA configuration pseudo-op only in an HSA configuration",
        );
        return;
    }
    if hsa_config {
        let field = match st.id {
            Id::Sgprsnum => Field::SgprsNum,
            Id::Vgprsnum => Field::VgprsNum,
            Id::Pgmrsrc1 => Field::PgmRsrc1,
            Id::Pgmrsrc2 => Field::PgmRsrc2,
            Id::Floatmode => Field::FloatMode,
            Id::Priority => Field::Priority,
            Id::Exceptions => Field::Exceptions,
            Id::Userdatanum => Field::UserDataNum,
            Id::Localsize => Field::WorkgroupGroupSegmentSize,
            Id::Gdssize => Field::GdsSegmentSize,
            _ => Field::WorkitemPrivateSegmentSize,
        };
        // The reference checks these by its own rules even in an HSA configuration.
        let own_check = matches!(st.id, Id::Localsize | Id::Gdssize | Id::Scratchbuffer);
        let v = if own_check {
            match checked_config_value(h, st) {
                Some(v) => v,
                None => return,
            }
        } else {
            match hsa::value(h, st, field) {
                Some(v) => v,
                None => return,
            }
        };
        hsa::set(hsa_of(h.config_mut(), k), field, v);
        return;
    }
    let Some(v) = checked_config_value(h, st) else {
        return;
    };
    if st.id == Id::Pgmrsrc2 {
        let at = h.location(st.range);
        h.config_mut().kernels[k].pgm_rsrc2_location = Some(at);
    }
    let c = &mut h.config_mut().kernels[k];
    match st.id {
        Id::Sgprsnum => c.sgprs = Some(v as u32),
        Id::Vgprsnum => c.vgprs = Some(v as u32),
        Id::Pgmrsrc1 => c.rsrc.pgm_rsrc1 = v as u32,
        Id::Pgmrsrc2 => c.rsrc.pgm_rsrc2 = v as u32,
        Id::Floatmode => c.rsrc.float_mode = (v & 0xff) as u32,
        Id::Priority => c.rsrc.priority = (v & 3) as u32,
        Id::Exceptions => c.rsrc.exceptions = (v & 0x7f) as u32,
        Id::Localsize => c.local_size = v as u64,
        Id::Gdssize => c.gds_size = v as u32,
        Id::Scratchbuffer => c.scratch_buffer = v as u32,
        _ => {}
    }
}

fn sampler(h: &mut dyn Host, st: &Stmt) {
    let owner = h.owner();
    let kernel = config_kernel(h);
    if matches!(owner, Owner::Kernel(_)) && kernel.is_none() {
        h.error_at(st.range, "illegal place of configuration pseudo-op");
        return;
    }
    if !new_binaries(h, st, "sampler") {
        return;
    }
    if kernel.is_none()
        && h.find_section(SectionKind::SamplerInit, Owner::Inner)
            .is_some()
    {
        h.error_at(
            st.range,
            "illegal sampler definition if samplerinit was defined",
        );
        return;
    }
    let mut values = Vec::new();
    for i in 0..st.args.len() {
        if st.args.len() == 1 && st.args[0].is_empty() {
            break;
        }
        if let Some(v) = value_arg(h, st, i) {
            warn_range(h, st.arg_range(i), 32, v);
            values.push(v as u32);
        }
    }
    match kernel {
        Some(k) => h.config_mut().kernels[k].samplers.extend(values),
        None => h
            .config_mut()
            .samplers
            .get_or_insert_with(Vec::new)
            .extend(values),
    }
}

fn sampler_reloc(h: &mut dyn Host, st: &Stmt) {
    if matches!(h.owner(), Owner::Kernel(_)) {
        h.error_at(st.range, "illegal place of samplerreloc pseudo-op");
        return;
    }
    if !new_binaries(h, st, "sampler relocation") {
        return;
    }
    let Some(arg) = st.args.first().filter(|a| !a.is_empty()) else {
        h.error_at(st.arg_range(0), "expected an expression");
        return;
    };
    let Some(e) = arg.expr() else {
        h.error_at(arg.syntax().text_range(), "expected an expression");
        return;
    };
    let Some(offset) = h.eval_now(&e) else { return };
    if st.args.len() < 2 {
        h.error_at(st.arg_range(1), "expected `,` before argument");
        return;
    }
    let Some(id) = value_arg(h, st, 1) else {
        return;
    };
    if !at_most(h, st, 2) {
        return;
    }
    let rodata = h.find_section(SectionKind::Data, Owner::Inner);
    let offset = match offset {
        Value::Abs(v) => v,
        Value::Rel { section, offset } if Some(section as usize) == rodata => offset,
        Value::Rel { .. } => {
            h.error_at(
                arg.syntax().text_range(),
                "offset can be an absolute value or a global data place",
            );
            return;
        }
    };
    let offsets = &mut h.config_mut().sampler_offsets;
    let id = id as usize;
    if offsets.len() <= id {
        offsets.resize(id + 1, None);
    }
    offsets[id] = Some(offset as u64);
}

fn arg(h: &mut dyn Host, st: &Stmt) {
    let Some(k) = config_kernel(h) else {
        h.error_at(st.range, "illegal place of kernel argument");
        return;
    };
    let names = h.config().kernels[k].arg_names.clone();
    if let Some(a) = super::args::parse_arg(h, st, &names, true) {
        let at = h.location(st.range);
        let c = &mut h.config_mut().kernels[k];
        c.arg_names.insert(a.name.clone());
        c.args.push(a);
        c.arg_locations.push(at);
    }
}

fn setup_args(h: &mut dyn Host, st: &Stmt) {
    let Some(k) = config_kernel(h) else {
        h.error_at(st.range, "illegal place of kernel argument");
        return;
    };
    if !h.config().kernels[k].arg_names.is_empty() {
        h.error_at(
            st.range,
            "setup arguments must come first in the argument list",
        );
        return;
    }
    if !no_args(h, st) {
        return;
    }
    let scalar = if h.options().is64 {
        ArgType::Long
    } else {
        ArgType::Int
    };
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
    let at = h.location(st.range);
    let c = &mut h.config_mut().kernels[k];
    for a in list {
        c.arg_names.insert(a.name.clone());
        c.args.push(a);
        c.arg_locations.push(at);
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
