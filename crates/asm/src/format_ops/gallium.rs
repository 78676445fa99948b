//! GalliumCompute pseudo-ops (and `.kcode`, which AMD OpenCL 2.0 shares).

use gcn_formats::gallium::{ArgInfo, ArgSemantic, ArgType};
use gcn_formats::gpu;
use gcn_formats::hsa::{feature_flags, sgpr_flags, HsaConfig};
use gcn_syntax::ast::AstNode;
use gcn_syntax::SyntaxKind;

use gcn_isa::PseudoOpId as Id;

use super::amd::switch_to_kind;
use super::hsa::{self, Field};
use super::stmt::{
    at_most, dims, expr_value, no_args, set_symbol, symbol_to_define, value_arg, warn_range,
};
use super::{ConfigKind, FormatConfig, Host, Inside, Stmt};
use crate::expr::Value;
use crate::layout::{Owner, SectionKind};

pub(crate) fn pseudo_op(h: &mut dyn Host, st: &Stmt) -> bool {
    match st.id {
        Id::ArchMinor | Id::ArchStepping => arch_minor_or_stepping(h, st),
        Id::Arg => arg(h, st),
        Id::Args => {
            if kernel_config_section(h).is_none() {
                h.error_at(st.range, "arguments outside a kernel definition");
            } else if no_args(h, st) {
                h.config_mut().inside = Inside::Args;
            }
        }
        Id::Config => config(h, st),
        Id::ControlDirective => control_directive(h, st),
        Id::DefaultHsaFeatures => {
            if let Some(k) = hsa_section_kernel(h, st) {
                if no_args(h, st) {
                    let hsa = hsa_of(h.config_mut(), k);
                    hsa.sgpr_flags = sgpr_flags::PRIVATE_SEGMENT_BUFFER
                        | sgpr_flags::DISPATCH_PTR
                        | sgpr_flags::KERNARG_SEGMENT_PTR;
                    hsa.feature_flags = feature_flags::PTR64 | 2;
                }
            }
        }
        Id::Dims | Id::HsaDims => {
            let hsa_op = st.id == Id::HsaDims;
            if let Some(k) = config_kernel(h, st, hsa_op) {
                if let Some(m) = dims(h, st, true) {
                    if hsa_op {
                        hsa_of(h.config_mut(), k).dim_mask = m;
                    } else {
                        h.config_mut().kernels[k].dim_mask = Some(m);
                    }
                }
            }
        }
        Id::DriverVersion | Id::LlvmVersion => {
            if let Some(v) = value_arg(h, st, 0) {
                if at_most(h, st, 1) {
                    if st.id == Id::DriverVersion {
                        h.config_mut().driver_version = Some(v as u32);
                    } else {
                        h.config_mut().llvm_version = Some(v as u32);
                    }
                }
            }
        }
        Id::Entry => entry(h, st),
        Id::GetDriverVersion => {
            let v = h.driver_version();
            set_symbol(h, st, i64::from(v));
        }
        Id::GetLlvmVersion => {
            let v = h.llvm_version();
            set_symbol(h, st, i64::from(v));
        }
        Id::Globaldata => {
            if no_args(h, st) {
                h.go_to(".rodata", Owner::Global, SectionKind::Data);
            }
        }
        Id::Kcode => kcode(h, st),
        Id::Kcodeend => kcode_end(h, st),
        Id::Machine
        | Id::Codeversion
        | Id::ReservedSgprs
        | Id::ReservedVgprs
        | Id::UseGridWorkgroupCount => {
            if let Some(k) = hsa_section_kernel(h, st) {
                descriptor_value(h, st, k);
            }
        }
        Id::Proginfo => {
            let Some(k) = kernel_config_section(h) else {
                h.error_at(st.range, "program info outside a kernel definition");
                return true;
            };
            if h.config().kernels[k].kind != ConfigKind::None {
                h.error_at(
                    st.range,
                    "program info can't be defined if a configuration exists",
                );
            } else if no_args(h, st) {
                h.config_mut().inside = Inside::ProgInfo;
                h.config_mut().kernels[k].has_prog_info = true;
            }
        }
        Id::Scratchsym => scratch_symbol(h, st),
        Id::Debugmode | Id::Dx10clamp | Id::Ieeemode | Id::Privmode | Id::Tgsize => {
            bool_value(h, st, false)
        }
        Id::HsaDebugmode | Id::HsaDx10clamp | Id::HsaIeeemode | Id::HsaPrivmode | Id::HsaTgsize => {
            bool_value(h, st, true)
        }
        Id::Sgprsnum
        | Id::Vgprsnum
        | Id::Pgmrsrc1
        | Id::Pgmrsrc2
        | Id::Floatmode
        | Id::Priority
        | Id::Exceptions
        | Id::Localsize
        | Id::Scratchbuffer
        | Id::Userdatanum
        | Id::Spilledsgprs
        | Id::Spilledvgprs => config_value(h, st),
        _ => {
            let field = match st.id {
                Id::HsaSgprsnum => Some(Field::SgprsNum),
                Id::HsaVgprsnum => Some(Field::VgprsNum),
                Id::HsaPgmrsrc1 => Some(Field::PgmRsrc1),
                Id::HsaPgmrsrc2 => Some(Field::PgmRsrc2),
                Id::HsaFloatmode => Some(Field::FloatMode),
                Id::HsaPriority => Some(Field::Priority),
                Id::HsaExceptions => Some(Field::Exceptions),
                Id::HsaUserdatanum => Some(Field::UserDataNum),
                Id::HsaLocalsize => Some(Field::WorkgroupGroupSegmentSize),
                Id::HsaScratchbuffer => Some(Field::WorkitemPrivateSegmentSize),
                _ => hsa::hsa_only_field(st.id),
            };
            if let Some(field) = field {
                if let Some(k) = config_kernel(h, st, true) {
                    if let Some(v) = hsa::value(h, st, field) {
                        hsa::set(hsa_of(h.config_mut(), k), field, v);
                    }
                }
                return true;
            }
            if let Some((sgpr, bit)) = hsa::hsa_flag(st.id) {
                if let Some(k) = config_kernel(h, st, true) {
                    if hsa::no_args_ok(h, st) {
                        hsa::set_flag(hsa_of(h.config_mut(), k), sgpr, bit);
                    }
                }
                return true;
            }
            return false;
        }
    }
    true
}

/// Kernel `k`'s HSA descriptor settings, created if needed.
pub(crate) fn hsa_of(config: &mut FormatConfig, k: usize) -> &mut HsaConfig {
    config.kernels[k].hsa.get_or_insert_with(HsaConfig::default)
}

/// `.arch_minor` and `.arch_stepping` (AMD OpenCL 2.0 has them too).
pub(crate) fn arch_minor_or_stepping(h: &mut dyn Host, st: &Stmt) {
    let Some(v) = value_arg(h, st, 0) else { return };
    warn_range(h, st.arg_range(0), 32, v);
    if at_most(h, st, 1) {
        let config = h.config_mut();
        let field = if st.id == Id::ArchMinor {
            &mut config.arch_minor
        } else {
            &mut config.arch_stepping
        };
        *field = Some(v as u32);
    }
}

/// `.machine`, `.codeversion`, `.reserved_sgprs`, `.reserved_vgprs` and
/// `.use_grid_workgroup_count` for kernel `k` (AMD OpenCL 2.0 has them too).
pub(crate) fn descriptor_value(h: &mut dyn Host, st: &Stmt, k: usize) {
    match st.id {
        Id::Machine => {
            if let Some(v) = hsa::machine(h, st) {
                hsa_of(h.config_mut(), k).machine = Some(v);
            }
        }
        Id::Codeversion => {
            if let Some(v) = hsa::code_version(h, st) {
                hsa_of(h.config_mut(), k).code_version = Some(v);
            }
        }
        Id::UseGridWorkgroupCount => {
            if let Some(m) = dims(h, st, false) {
                hsa::set_grid_workgroup_count(hsa_of(h.config_mut(), k), m);
            }
        }
        _ => {
            let vgprs = st.id == Id::ReservedVgprs;
            if let Some(v) = hsa::reserved(h, st, vgprs) {
                let hsa = hsa_of(h.config_mut(), k);
                *(if vgprs {
                    &mut hsa.reserved_vgprs
                } else {
                    &mut hsa.reserved_sgprs
                }) = Some(v);
            }
        }
    }
}

/// The kernel whose configuration section is current (after `.kernel`).
fn kernel_config_section(h: &dyn Host) -> Option<usize> {
    super::stmt::config_kernel(h)
}

/// The kernel whose `.config` is open; for an HSA pseudo-op also LLVM 4.0 or later.
fn config_kernel(h: &mut dyn Host, st: &Stmt, hsa_op: bool) -> Option<usize> {
    let k = kernel_config_section(h).filter(|_| h.config().inside == Inside::Config);
    if k.is_none() {
        h.error_at(st.range, "illegal place of configuration pseudo-op");
        return None;
    }
    if hsa_op && h.llvm_version() < 40000 {
        h.error_at(
            st.range,
            "HSA configuration pseudo-op only for LLVM 4.0.0 or later",
        );
        return None;
    }
    k
}

/// The kernel for a pseudo-op of the HSA descriptor alone (`.machine`, …).
fn hsa_section_kernel(h: &mut dyn Host, st: &Stmt) -> Option<usize> {
    let Some(k) = kernel_config_section(h) else {
        h.error_at(st.range, "illegal place of configuration pseudo-op");
        return None;
    };
    if h.llvm_version() < 40000 {
        h.error_at(
            st.range,
            "HSA configuration pseudo-op only for LLVM 4.0.0 or later",
        );
        return None;
    }
    Some(k)
}

fn config(h: &mut dyn Host, st: &Stmt) {
    let Some(k) = kernel_config_section(h) else {
        h.error_at(st.range, "configuration outside a kernel definition");
        return;
    };
    if h.config().kernels[k].has_prog_info {
        h.error_at(
            st.range,
            "configuration can't be defined if program info was defined",
        );
        return;
    }
    if !no_args(h, st) {
        return;
    }
    let llvm4 = h.llvm_version() >= 40000;
    h.config_mut().inside = Inside::Config;
    let c = &mut h.config_mut().kernels[k];
    c.kind = ConfigKind::Config;
    if llvm4 && c.hsa.is_none() {
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
    if h.llvm_version() < 40000 {
        h.error_at(
            st.range,
            "HSA configuration pseudo-op only for LLVM 4.0.0 or later",
        );
        return;
    }
    if !no_args(h, st) {
        return;
    }
    switch_to_kind(h, "", Owner::Kernel(k), SectionKind::ControlDirective);
    hsa_of(h.config_mut(), k);
}

fn bool_value(h: &mut dyn Host, st: &Stmt, hsa_op: bool) {
    let Some(k) = config_kernel(h, st, hsa_op) else {
        return;
    };
    if !no_args(h, st) {
        return;
    }
    let config = h.config_mut();
    let rsrc = if hsa_op {
        &mut hsa_of(config, k).rsrc
    } else {
        &mut config.kernels[k].rsrc
    };
    match st.id {
        Id::Debugmode | Id::HsaDebugmode => rsrc.debug_mode = true,
        Id::Dx10clamp | Id::HsaDx10clamp => rsrc.dx10_clamp = true,
        Id::Ieeemode | Id::HsaIeeemode => rsrc.ieee_mode = true,
        Id::Privmode | Id::HsaPrivmode => rsrc.priv_mode = true,
        _ => rsrc.tg_size = true,
    }
}

fn config_value(h: &mut dyn Host, st: &Stmt) {
    let Some(k) = config_kernel(h, st, false) else {
        return;
    };
    if st.id == Id::Spilledsgprs && h.llvm_version() < 30900 {
        h.error_at(
            st.range,
            "spilled VGPRs and SGPRs only for LLVM 3.9.0 or later",
        );
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
    let v32 = v as u32;
    match st.id {
        Id::Sgprsnum => c.sgprs = Some(v32),
        Id::Vgprsnum => c.vgprs = Some(v32),
        Id::Spilledsgprs => c.spilled_sgprs = v32,
        Id::Spilledvgprs => c.spilled_vgprs = v32,
        Id::Pgmrsrc1 => c.rsrc.pgm_rsrc1 = v32,
        Id::Pgmrsrc2 => c.rsrc.pgm_rsrc2 = v32,
        Id::Floatmode => c.rsrc.float_mode = v32 & 0xff,
        Id::Localsize => c.local_size = v as u64,
        Id::Scratchbuffer => c.scratch_buffer = v32,
        Id::Priority => c.rsrc.priority = v32 & 3,
        Id::Userdatanum => c.user_data_num = Some(v32),
        Id::Exceptions => c.rsrc.exceptions = v32 & 0x7f,
        _ => {}
    }
}

/// The value of a `.config` pseudo-op, checked as the reference does (AMD OpenCL 2.0
/// too): counts and sizes past their limit are errors, fields that truncate it warn.
pub(crate) fn checked_config_value(h: &mut dyn Host, st: &Stmt) -> Option<i64> {
    let v = value_arg(h, st, 0)?;
    if !at_most(h, st, 1) {
        return None;
    }
    let range = st.arg_range(0);
    if let Some((max, what)) = config_limit(st.id, h.generation()) {
        if v as u64 > max {
            h.error_at(range, format!("{what} out of range (0-{max})"));
            return None;
        }
    }
    if let Some(bits) = config_field_bits(st.id) {
        warn_range(h, range, bits, v);
    }
    Some(v)
}

/// The largest value of a count or size `.config` pseudo-op, and what it counts.
fn config_limit(id: Id, gen: gcn_isa::Generation) -> Option<(u64, &'static str)> {
    match id {
        Id::Sgprsnum => Some((u64::from(gpu::max_sgprs(gen)), "used SGPRs number")),
        Id::Vgprsnum => Some((u64::from(gpu::MAX_VGPRS), "used VGPRs number")),
        Id::Localsize => Some((gpu::MAX_LOCAL_SIZE, "local size")),
        Id::Gdssize => Some((gpu::MAX_GDS_SIZE, "GDS size")),
        Id::Userdatanum => Some((16, "user data number")),
        _ => None,
    }
}

/// The bits of the field a `.config` pseudo-op sets, where it is truncated to them.
fn config_field_bits(id: Id) -> Option<u32> {
    match id {
        Id::Exceptions => Some(7),
        Id::Floatmode => Some(8),
        Id::Priority => Some(2),
        Id::Pgmrsrc1 | Id::Pgmrsrc2 => Some(32),
        _ => None,
    }
}

fn entry(h: &mut dyn Host, st: &Stmt) {
    let Some(k) = kernel_config_section(h) else {
        h.error_at(
            st.range,
            "program info entry outside a kernel configuration",
        );
        return;
    };
    if h.config().inside != Inside::ProgInfo {
        h.error_at(st.range, "program info entry outside program info");
        return;
    }
    let addr = value_arg(h, st, 0);
    if let Some(a) = addr {
        warn_range(h, st.arg_range(0), 32, a);
    }
    if st.args.len() < 2 {
        h.error_at(st.arg_range(1), "expected `,` before argument");
        return;
    }
    let value = value_arg(h, st, 1);
    if let Some(v) = value {
        warn_range(h, st.arg_range(1), 32, v);
    }
    let (Some(addr), Some(value)) = (addr, value) else {
        return;
    };
    if !at_most(h, st, 2) {
        return;
    }
    let max = if h.llvm_version() < 30900 { 3 } else { 5 };
    let c = &mut h.config_mut().kernels[k];
    c.has_prog_info = true;
    if c.prog_info.len() >= max {
        h.error_at(
            st.range,
            format!("at most {max} entries can be in program info"),
        );
        return;
    }
    c.prog_info.push((addr as u32, value as u32));
}

fn arg(h: &mut dyn Host, st: &Stmt) {
    let Some(k) = kernel_config_section(h) else {
        h.error_at(
            st.range,
            "argument definition outside a kernel configuration",
        );
        return;
    };
    if h.config().inside != Inside::Args {
        h.error_at(st.range, "argument definition outside the argument list");
        return;
    }
    let args = st.args;
    let name_of = |i: usize| -> Option<String> {
        let arg = args.get(i)?;
        let mut t = arg.raw_tokens();
        let first = t.next()?;
        (first.kind() == SyntaxKind::NAME && t.next().is_none())
            .then(|| first.text().to_ascii_lowercase())
    };
    let mut good = true;
    let mut semantic = ArgSemantic::General;
    let mut semantic_given = false;
    let arg_type = match name_of(0).as_deref() {
        Some("griddim") => {
            semantic = ArgSemantic::GridDimension;
            semantic_given = true;
            ArgType::Scalar
        }
        Some("gridoffset") => {
            semantic = ArgSemantic::GridOffset;
            semantic_given = true;
            ArgType::Scalar
        }
        Some(n) => match n {
            "constant" => ArgType::Constant,
            "global" => ArgType::Global,
            "image2d_rd" => ArgType::Image2dRdonly,
            "image2d_wr" => ArgType::Image2dWronly,
            "image3d_rd" => ArgType::Image3dRdonly,
            "image3d_wr" => ArgType::Image3dWronly,
            "local" => ArgType::Local,
            "sampler" => ArgType::Sampler,
            "scalar" => ArgType::Scalar,
            _ => {
                h.error_at(st.arg_range(0), "unknown argument type");
                good = false;
                ArgType::Global
            }
        },
        None => {
            h.error_at(st.arg_range(0), "expected argument type");
            return;
        }
    };
    if args.len() < 2 {
        h.error_at(st.arg_range(1), "expected `,` before argument");
        return;
    }
    let present = |i: usize| args.get(i).is_some_and(|a| !a.is_empty());
    let size = if present(1) {
        expr_value(h, &args[1])
    } else {
        h.error_at(st.arg_range(1), "expected an expression");
        None
    };
    let Some(size) = size else { return };
    let size = size as u64;
    if size > u64::from(u32::MAX) || size == 0 {
        h.warn_at(st.arg_range(1), "size of argument out of range");
    }
    let mut target_size = (size + 3) & !3;
    let mut target_align = if size != 0 {
        1u64 << (63 - target_size.leading_zeros())
    } else {
        1
    };
    if target_size > target_align {
        target_align <<= 1;
    }
    let mut sext = false;
    if args.len() > 2 {
        if present(2) {
            match expr_value(h, &args[2]) {
                Some(v) => {
                    target_size = v as u64;
                    if target_size > u64::from(u32::MAX) || target_size == 0 {
                        h.warn_at(st.arg_range(2), "target size of argument out of range");
                    }
                }
                None => good = false,
            }
        }
        if args.len() > 3 {
            if present(3) {
                match expr_value(h, &args[3]) {
                    Some(v) => {
                        target_align = v as u64;
                        if target_align > u64::from(u32::MAX) || target_align == 0 {
                            h.warn_at(st.arg_range(3), "target alignment of argument out of range");
                        }
                        if target_align == 0 || target_align & (target_align - 1) != 0 {
                            h.error_at(st.arg_range(3), "target alignment is not a power of 2");
                            good = false;
                        }
                    }
                    None => good = false,
                }
            }
            if args.len() > 4 {
                match name_of(4).as_deref() {
                    Some("sext") => sext = true,
                    Some("zext") => {}
                    None if !present(4) => {}
                    _ => {
                        h.error_at(st.arg_range(4), "unknown numeric extension");
                        good = false;
                    }
                }
                if !semantic_given && args.len() > 5 {
                    match name_of(5).as_deref() {
                        Some("general") => semantic = ArgSemantic::General,
                        Some("griddim") => semantic = ArgSemantic::GridDimension,
                        Some("gridoffset") => semantic = ArgSemantic::GridOffset,
                        Some("imgformat") => semantic = ArgSemantic::ImageFormat,
                        Some("imgsize") => semantic = ArgSemantic::ImageSize,
                        _ => {
                            h.error_at(st.arg_range(5), "unknown argument semantic");
                            good = false;
                        }
                    }
                    if !at_most(h, st, 6) {
                        good = false;
                    }
                } else if !at_most(h, st, 5) {
                    good = false;
                }
            }
        }
    }
    if !good {
        return;
    }
    h.config_mut().kernels[k].gallium_args.push(ArgInfo {
        arg_type,
        sign_extended: sext,
        semantic,
        size: size as u32,
        target_size: target_size as u32,
        target_align: target_align as u32,
    });
}

fn scratch_symbol(h: &mut dyn Host, st: &Stmt) {
    let section = match h.find_section(SectionKind::Scratch, Owner::Global) {
        Some(i) => i,
        None => h.create_section("", Owner::Global, SectionKind::Scratch),
    };
    if let Some(id) = symbol_to_define(h, st) {
        h.set_symbol(
            id,
            Value::Rel {
                section: section as u32,
                offset: 0,
            },
        );
    }
}

/// `.kcode KERNEL, -KERNEL, +`: code from here belongs to these kernels.
pub(crate) fn kcode(h: &mut dyn Host, st: &Stmt) {
    let mut sel: Vec<usize> = h.kcode_selection().map(|s| s.to_vec()).unwrap_or_default();
    let mut good = true;
    for arg in st.args {
        let tokens: Vec<_> = arg.raw_tokens().collect();
        let (remove, name) = match tokens.as_slice() {
            [] if st.args.len() == 1 => return,
            [t] if t.kind() == SyntaxKind::PLUS => {
                sel = (0..h.kernels().len()).collect();
                continue;
            }
            [t, n] if t.kind() == SyntaxKind::MINUS && n.kind() == SyntaxKind::NAME => {
                (true, n.text().to_string())
            }
            [t, n] if t.kind() == SyntaxKind::PLUS && n.kind() == SyntaxKind::NAME => {
                (false, n.text().to_string())
            }
            [n] if n.kind() == SyntaxKind::NAME => (false, n.text().to_string()),
            _ => {
                h.error_at(arg.syntax().text_range(), "expected a kernel name");
                good = false;
                continue;
            }
        };
        match h.kernels().iter().position(|k| k.name == name) {
            Some(k) => {
                if remove {
                    sel.retain(|&x| x != k);
                } else if !sel.contains(&k) {
                    sel.push(k);
                }
            }
            None => {
                h.error_at(arg.syntax().text_range(), "kernel not found");
            }
        }
    }
    if !good {
        return;
    }
    if !h.is_code_section() {
        h.error_at(st.range, "`.kcode` outside code");
        return;
    }
    sel.sort_unstable();
    h.push_kcode(sel);
}

/// `.kcodeend`.
pub(crate) fn kcode_end(h: &mut dyn Host, st: &Stmt) {
    if !h.is_code_section() {
        h.error_at(st.range, "`.kcodeend` outside code");
        return;
    }
    if h.kcode_selection().is_none() {
        h.error_at(st.range, "`.kcodeend` without `.kcode`");
        return;
    }
    if no_args(h, st) {
        h.pop_kcode();
    }
}
