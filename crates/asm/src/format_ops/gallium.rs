//! GalliumCompute pseudo-ops (and `.kcode`, which AMD OpenCL 2.0 shares).

use gcn_formats::gallium::{ArgInfo, ArgSemantic, ArgType};
use gcn_formats::gpu;
use gcn_formats::hsa::{feature_flags, sgpr_flags, HsaConfig};
use gcn_syntax::ast::AstNode;
use gcn_syntax::SyntaxKind;

use super::hsa::{self, Field};
use super::{
    at_most, dims, driver_version, expr_value, llvm_version, no_args, value_arg, warn_range, ConfigKind, Inside,
    Stmt,
};
use crate::assembler::{Asm, Ctx};
use crate::expr::Value;
use crate::layout::{Owner, SectionKind};

pub(crate) fn pseudo_op(asm: &mut Asm, ctx: &Ctx, st: &Stmt) -> bool {
    let name = st.name;
    match name {
        ".arch_minor" | ".arch_stepping" => arch_minor_or_stepping(asm, ctx, st),
        ".arg" => arg(asm, ctx, st),
        ".args" => {
            if kernel_config_section(asm).is_none() {
                asm.error_at(ctx, st.range, "arguments outside a kernel definition");
            } else if no_args(asm, ctx, st) {
                asm.layout.config.inside = Inside::Args;
            }
        }
        ".config" => config(asm, ctx, st),
        ".control_directive" => control_directive(asm, ctx, st),
        ".default_hsa_features" => {
            if let Some(k) = hsa_section_kernel(asm, ctx, st) {
                if no_args(asm, ctx, st) {
                    let h = hsa_of(asm, k);
                    h.sgpr_flags =
                        sgpr_flags::PRIVATE_SEGMENT_BUFFER | sgpr_flags::DISPATCH_PTR | sgpr_flags::KERNARG_SEGMENT_PTR;
                    h.feature_flags = feature_flags::PTR64 | 2;
                }
            }
        }
        ".dims" | ".hsa_dims" => {
            let hsa_op = name == ".hsa_dims";
            if let Some(k) = config_kernel(asm, ctx, st, hsa_op) {
                if let Some(m) = dims(asm, ctx, st, true) {
                    if hsa_op {
                        hsa_of(asm, k).dim_mask = m;
                    } else {
                        asm.layout.config.kernels[k].dim_mask = Some(m);
                    }
                }
            }
        }
        ".driver_version" | ".llvm_version" => {
            if let Some(v) = value_arg(asm, ctx, st, 0) {
                if at_most(asm, ctx, st, 1) {
                    if name == ".driver_version" {
                        asm.layout.config.driver_version = Some(v as u32);
                    } else {
                        asm.layout.config.llvm_version = Some(v as u32);
                    }
                }
            }
        }
        ".entry" => entry(asm, ctx, st),
        ".get_driver_version" => {
            let v = driver_version(asm);
            super::set_symbol(asm, ctx, st, i64::from(v));
        }
        ".get_llvm_version" => {
            let v = llvm_version(asm);
            super::set_symbol(asm, ctx, st, i64::from(v));
        }
        ".globaldata" => {
            if no_args(asm, ctx, st) {
                asm.layout.go_to(".rodata", Owner::Global, SectionKind::Data);
            }
        }
        ".kcode" => kcode(asm, ctx, st),
        ".kcodeend" => kcode_end(asm, ctx, st),
        ".machine" | ".codeversion" | ".reserved_sgprs" | ".reserved_vgprs" | ".use_grid_workgroup_count" => {
            if let Some(k) = hsa_section_kernel(asm, ctx, st) {
                descriptor_value(asm, ctx, st, k);
            }
        }
        ".proginfo" => {
            let Some(k) = kernel_config_section(asm) else {
                asm.error_at(ctx, st.range, "program info outside a kernel definition");
                return true;
            };
            if asm.layout.config.kernels[k].kind != ConfigKind::None {
                asm.error_at(ctx, st.range, "program info can't be defined if a configuration exists");
            } else if no_args(asm, ctx, st) {
                asm.layout.config.inside = Inside::ProgInfo;
                asm.layout.config.kernels[k].has_prog_info = true;
            }
        }
        ".scratchsym" => scratch_symbol(asm, ctx, st),
        ".debugmode" | ".dx10clamp" | ".ieeemode" | ".privmode" | ".tgsize" => bool_value(asm, ctx, st, false),
        ".hsa_debugmode" | ".hsa_dx10clamp" | ".hsa_ieeemode" | ".hsa_privmode" | ".hsa_tgsize" => {
            bool_value(asm, ctx, st, true)
        }
        ".sgprsnum" | ".vgprsnum" | ".pgmrsrc1" | ".pgmrsrc2" | ".floatmode" | ".priority" | ".exceptions"
        | ".localsize" | ".scratchbuffer" | ".userdatanum" | ".spilledsgprs" | ".spilledvgprs" => {
            config_value(asm, ctx, st)
        }
        _ => {
            let field = match name {
                ".hsa_sgprsnum" => Some(Field::SgprsNum),
                ".hsa_vgprsnum" => Some(Field::VgprsNum),
                ".hsa_pgmrsrc1" => Some(Field::PgmRsrc1),
                ".hsa_pgmrsrc2" => Some(Field::PgmRsrc2),
                ".hsa_floatmode" => Some(Field::FloatMode),
                ".hsa_priority" => Some(Field::Priority),
                ".hsa_exceptions" => Some(Field::Exceptions),
                ".hsa_userdatanum" => Some(Field::UserDataNum),
                ".hsa_localsize" => Some(Field::WorkgroupGroupSegmentSize),
                ".hsa_scratchbuffer" => Some(Field::WorkitemPrivateSegmentSize),
                _ => hsa::hsa_only_field(name),
            };
            if let Some(field) = field {
                if let Some(k) = config_kernel(asm, ctx, st, true) {
                    if let Some(v) = hsa::value(asm, ctx, st, field) {
                        hsa::set(hsa_of(asm, k), field, v);
                    }
                }
                return true;
            }
            if let Some((sgpr, bit)) = hsa::hsa_flag(name) {
                if let Some(k) = config_kernel(asm, ctx, st, true) {
                    if hsa::no_args_ok(asm, ctx, st) {
                        hsa::set_flag(hsa_of(asm, k), sgpr, bit);
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
pub(crate) fn hsa_of(asm: &mut Asm, k: usize) -> &mut HsaConfig {
    asm.layout.config.kernels[k].hsa.get_or_insert_with(HsaConfig::default)
}

/// `.arch_minor` and `.arch_stepping` (AMD OpenCL 2.0 has them too).
pub(crate) fn arch_minor_or_stepping(asm: &mut Asm, ctx: &Ctx, st: &Stmt) {
    let Some(v) = value_arg(asm, ctx, st, 0) else { return };
    warn_range(asm, ctx, st.arg_range(0), 32, v);
    if at_most(asm, ctx, st, 1) {
        let config = &mut asm.layout.config;
        let field = if st.name == ".arch_minor" { &mut config.arch_minor } else { &mut config.arch_stepping };
        *field = Some(v as u32);
    }
}

/// `.machine`, `.codeversion`, `.reserved_sgprs`, `.reserved_vgprs` and
/// `.use_grid_workgroup_count` for kernel `k` (AMD OpenCL 2.0 has them too).
pub(crate) fn descriptor_value(asm: &mut Asm, ctx: &Ctx, st: &Stmt, k: usize) {
    match st.name {
        ".machine" => {
            if let Some(v) = hsa::machine(asm, ctx, st) {
                hsa_of(asm, k).machine = Some(v);
            }
        }
        ".codeversion" => {
            if let Some(v) = hsa::code_version(asm, ctx, st) {
                hsa_of(asm, k).code_version = Some(v);
            }
        }
        ".use_grid_workgroup_count" => {
            if let Some(m) = dims(asm, ctx, st, false) {
                hsa::set_grid_workgroup_count(hsa_of(asm, k), m);
            }
        }
        _ => {
            let vgprs = st.name == ".reserved_vgprs";
            if let Some(v) = hsa::reserved(asm, ctx, st, vgprs) {
                let h = hsa_of(asm, k);
                *(if vgprs { &mut h.reserved_vgprs } else { &mut h.reserved_sgprs }) = Some(v);
            }
        }
    }
}

/// The kernel whose configuration section is current (after `.kernel`).
fn kernel_config_section(asm: &Asm) -> Option<usize> {
    super::config_kernel(asm)
}

/// The kernel whose `.config` is open; for an HSA pseudo-op also LLVM 4.0 or later.
fn config_kernel(asm: &mut Asm, ctx: &Ctx, st: &Stmt, hsa_op: bool) -> Option<usize> {
    let k = kernel_config_section(asm).filter(|_| asm.layout.config.inside == Inside::Config);
    if k.is_none() {
        asm.error_at(ctx, st.range, "illegal place of configuration pseudo-op");
        return None;
    }
    if hsa_op && llvm_version(asm) < 40000 {
        asm.error_at(ctx, st.range, "HSA configuration pseudo-op only for LLVM 4.0.0 or later");
        return None;
    }
    k
}

/// The kernel for a pseudo-op of the HSA descriptor alone (`.machine`, …).
fn hsa_section_kernel(asm: &mut Asm, ctx: &Ctx, st: &Stmt) -> Option<usize> {
    let Some(k) = kernel_config_section(asm) else {
        asm.error_at(ctx, st.range, "illegal place of configuration pseudo-op");
        return None;
    };
    if llvm_version(asm) < 40000 {
        asm.error_at(ctx, st.range, "HSA configuration pseudo-op only for LLVM 4.0.0 or later");
        return None;
    }
    Some(k)
}

fn config(asm: &mut Asm, ctx: &Ctx, st: &Stmt) {
    let Some(k) = kernel_config_section(asm) else {
        asm.error_at(ctx, st.range, "configuration outside a kernel definition");
        return;
    };
    if asm.layout.config.kernels[k].has_prog_info {
        asm.error_at(ctx, st.range, "configuration can't be defined if program info was defined");
        return;
    }
    if !no_args(asm, ctx, st) {
        return;
    }
    let llvm4 = llvm_version(asm) >= 40000;
    asm.layout.config.inside = Inside::Config;
    let c = &mut asm.layout.config.kernels[k];
    c.kind = ConfigKind::Config;
    if llvm4 && c.hsa.is_none() {
        c.hsa = Some(HsaConfig::default());
    }
}

fn control_directive(asm: &mut Asm, ctx: &Ctx, st: &Stmt) {
    let Some(k) = asm.layout.current_kernel() else {
        asm.error_at(ctx, st.range, "kernel control directive can be defined only inside a kernel");
        return;
    };
    if llvm_version(asm) < 40000 {
        asm.error_at(ctx, st.range, "HSA configuration pseudo-op only for LLVM 4.0.0 or later");
        return;
    }
    if !no_args(asm, ctx, st) {
        return;
    }
    super::amd::switch_to_kind(&mut asm.format_host(ctx), "", Owner::Kernel(k), SectionKind::ControlDirective);
    hsa_of(asm, k);
}

fn bool_value(asm: &mut Asm, ctx: &Ctx, st: &Stmt, hsa_op: bool) {
    let Some(k) = config_kernel(asm, ctx, st, hsa_op) else { return };
    if !no_args(asm, ctx, st) {
        return;
    }
    let base = st.name.trim_start_matches(".hsa_").trim_start_matches('.');
    if hsa_op {
        let h = hsa_of(asm, k);
        match base {
            "debugmode" => h.rsrc.debug_mode = true,
            "dx10clamp" => h.rsrc.dx10_clamp = true,
            "ieeemode" => h.rsrc.ieee_mode = true,
            "privmode" => h.rsrc.priv_mode = true,
            _ => h.rsrc.tg_size = true,
        }
        return;
    }
    let c = &mut asm.layout.config.kernels[k];
    match base {
        "debugmode" => c.rsrc.debug_mode = true,
        "dx10clamp" => c.rsrc.dx10_clamp = true,
        "ieeemode" => c.rsrc.ieee_mode = true,
        "privmode" => c.rsrc.priv_mode = true,
        _ => c.rsrc.tg_size = true,
    }
}

fn config_value(asm: &mut Asm, ctx: &Ctx, st: &Stmt) {
    let Some(k) = config_kernel(asm, ctx, st, false) else { return };
    let name = st.name;
    if name == ".spilledsgprs" && llvm_version(asm) < 30900 {
        asm.error_at(ctx, st.range, "spilled VGPRs and SGPRs only for LLVM 3.9.0 or later");
        return;
    }
    let Some(v) = checked_config_value(asm, ctx, st) else { return };
    let c = &mut asm.layout.config.kernels[k];
    let v32 = v as u32;
    match name {
        ".sgprsnum" => c.sgprs = Some(v32),
        ".vgprsnum" => c.vgprs = Some(v32),
        ".spilledsgprs" => c.spilled_sgprs = v32,
        ".spilledvgprs" => c.spilled_vgprs = v32,
        ".pgmrsrc1" => c.rsrc.pgm_rsrc1 = v32,
        ".pgmrsrc2" => c.rsrc.pgm_rsrc2 = v32,
        ".floatmode" => c.rsrc.float_mode = v32 & 0xff,
        ".localsize" => c.local_size = v as u64,
        ".scratchbuffer" => c.scratch_buffer = v32,
        ".priority" => c.rsrc.priority = v32 & 3,
        ".userdatanum" => c.user_data_num = Some(v32),
        ".exceptions" => c.rsrc.exceptions = v32 & 0x7f,
        _ => {}
    }
}

/// The value of a `.config` pseudo-op, checked as the reference does (AMD OpenCL 2.0
/// too): counts and sizes past their limit are errors, fields that truncate it warn.
pub(crate) fn checked_config_value(asm: &mut Asm, ctx: &Ctx, st: &Stmt) -> Option<i64> {
    let v = value_arg(asm, ctx, st, 0)?;
    if !at_most(asm, ctx, st, 1) {
        return None;
    }
    let range = st.arg_range(0);
    if let Some((max, what)) = config_limit(st.name, asm.target.gen) {
        if v as u64 > max {
            asm.error_at(ctx, range, format!("{what} out of range (0-{max})"));
            return None;
        }
    }
    if let Some(bits) = config_field_bits(st.name) {
        warn_range(asm, ctx, range, bits, v);
    }
    Some(v)
}

/// The largest value of a count or size `.config` pseudo-op, and what it counts.
fn config_limit(name: &str, gen: gcn_isa::Generation) -> Option<(u64, &'static str)> {
    match name {
        ".sgprsnum" => Some((u64::from(gpu::max_sgprs(gen)), "used SGPRs number")),
        ".vgprsnum" => Some((u64::from(gpu::MAX_VGPRS), "used VGPRs number")),
        ".localsize" => Some((gpu::MAX_LOCAL_SIZE, "local size")),
        ".gdssize" => Some((gpu::MAX_GDS_SIZE, "GDS size")),
        ".userdatanum" => Some((16, "user data number")),
        _ => None,
    }
}

/// The bits of the field a `.config` pseudo-op sets, where it is truncated to them.
fn config_field_bits(name: &str) -> Option<u32> {
    match name {
        ".exceptions" => Some(7),
        ".floatmode" => Some(8),
        ".priority" => Some(2),
        ".pgmrsrc1" | ".pgmrsrc2" => Some(32),
        _ => None,
    }
}

fn entry(asm: &mut Asm, ctx: &Ctx, st: &Stmt) {
    let Some(k) = kernel_config_section(asm) else {
        asm.error_at(ctx, st.range, "program info entry outside a kernel configuration");
        return;
    };
    if asm.layout.config.inside != Inside::ProgInfo {
        asm.error_at(ctx, st.range, "program info entry outside program info");
        return;
    }
    let addr = value_arg(asm, ctx, st, 0);
    if let Some(a) = addr {
        warn_range(asm, ctx, st.arg_range(0), 32, a);
    }
    if st.args.len() < 2 {
        asm.error_at(ctx, st.arg_range(1), "expected `,` before argument");
        return;
    }
    let value = value_arg(asm, ctx, st, 1);
    if let Some(v) = value {
        warn_range(asm, ctx, st.arg_range(1), 32, v);
    }
    let (Some(addr), Some(value)) = (addr, value) else { return };
    if !at_most(asm, ctx, st, 2) {
        return;
    }
    let max = if llvm_version(asm) < 30900 { 3 } else { 5 };
    let c = &mut asm.layout.config.kernels[k];
    c.has_prog_info = true;
    if c.prog_info.len() >= max {
        asm.error_at(ctx, st.range, format!("at most {max} entries can be in program info"));
        return;
    }
    c.prog_info.push((addr as u32, value as u32));
}

fn arg(asm: &mut Asm, ctx: &Ctx, st: &Stmt) {
    let Some(k) = kernel_config_section(asm) else {
        asm.error_at(ctx, st.range, "argument definition outside a kernel configuration");
        return;
    };
    if asm.layout.config.inside != Inside::Args {
        asm.error_at(ctx, st.range, "argument definition outside the argument list");
        return;
    }
    let args = st.args;
    let name_of = |i: usize| -> Option<String> {
        let arg = args.get(i)?;
        let mut t = arg.raw_tokens();
        let first = t.next()?;
        (first.kind() == SyntaxKind::NAME && t.next().is_none()).then(|| first.text().to_ascii_lowercase())
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
                asm.error_at(ctx, st.arg_range(0), "unknown argument type");
                good = false;
                ArgType::Global
            }
        },
        None => {
            asm.error_at(ctx, st.arg_range(0), "expected argument type");
            return;
        }
    };
    if args.len() < 2 {
        asm.error_at(ctx, st.arg_range(1), "expected `,` before argument");
        return;
    }
    let present = |i: usize| args.get(i).is_some_and(|a| !a.is_empty());
    let size = if present(1) { expr_value(asm, ctx, &args[1]) } else {
        asm.error_at(ctx, st.arg_range(1), "expected an expression");
        None
    };
    let Some(size) = size else { return };
    let size = size as u64;
    if size > u64::from(u32::MAX) || size == 0 {
        asm.warn_at(ctx, st.arg_range(1), "size of argument out of range");
    }
    let mut target_size = (size + 3) & !3;
    let mut target_align = if size != 0 { 1u64 << (63 - target_size.leading_zeros()) } else { 1 };
    if target_size > target_align {
        target_align <<= 1;
    }
    let mut sext = false;
    if args.len() > 2 {
        if present(2) {
            match expr_value(asm, ctx, &args[2]) {
                Some(v) => {
                    target_size = v as u64;
                    if target_size > u64::from(u32::MAX) || target_size == 0 {
                        asm.warn_at(ctx, st.arg_range(2), "target size of argument out of range");
                    }
                }
                None => good = false,
            }
        }
        if args.len() > 3 {
            if present(3) {
                match expr_value(asm, ctx, &args[3]) {
                    Some(v) => {
                        target_align = v as u64;
                        if target_align > u64::from(u32::MAX) || target_align == 0 {
                            asm.warn_at(ctx, st.arg_range(3), "target alignment of argument out of range");
                        }
                        if target_align == 0 || target_align & (target_align - 1) != 0 {
                            asm.error_at(ctx, st.arg_range(3), "target alignment is not a power of 2");
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
                        asm.error_at(ctx, st.arg_range(4), "unknown numeric extension");
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
                            asm.error_at(ctx, st.arg_range(5), "unknown argument semantic");
                            good = false;
                        }
                    }
                    if !at_most(asm, ctx, st, 6) {
                        good = false;
                    }
                } else if !at_most(asm, ctx, st, 5) {
                    good = false;
                }
            }
        }
    }
    if !good {
        return;
    }
    asm.layout.config.kernels[k].gallium_args.push(ArgInfo {
        arg_type,
        sign_extended: sext,
        semantic,
        size: size as u32,
        target_size: target_size as u32,
        target_align: target_align as u32,
    });
}

fn scratch_symbol(asm: &mut Asm, ctx: &Ctx, st: &Stmt) {
    let section = match asm.layout.find_kind(SectionKind::Scratch, Owner::Global) {
        Some(i) => i,
        None => asm.layout.create("", Owner::Global, SectionKind::Scratch),
    };
    let Some(arg) = st.args.first().filter(|a| !a.is_empty()) else {
        asm.error_at(ctx, st.range, "expected a symbol name");
        return;
    };
    let Some(token) = arg.raw_tokens().next().filter(|t| t.kind() == SyntaxKind::NAME) else {
        asm.error_at(ctx, arg.syntax().text_range(), "expected a symbol name");
        return;
    };
    let name = token.text().to_string();
    let id = asm.symbols.define_target(&name);
    if asm.symbols.get(id).once_defined {
        asm.error_at(ctx, token.text_range(), format!("symbol `{name}` is already defined"));
        return;
    }
    asm.set_symbol(id, Value::Rel { section: section as u32, offset: 0 });
}

/// `.kcode KERNEL, -KERNEL, +`: code from here belongs to these kernels.
pub(crate) fn kcode(asm: &mut Asm, ctx: &Ctx, st: &Stmt) {
    let mut sel: Vec<usize> = asm.layout.kcode_selection().map(|s| s.to_vec()).unwrap_or_default();
    let mut good = true;
    for arg in st.args {
        let tokens: Vec<_> = arg.raw_tokens().collect();
        let (remove, name) = match tokens.as_slice() {
            [] if st.args.len() == 1 => return,
            [t] if t.kind() == SyntaxKind::PLUS => {
                sel = (0..asm.layout.kernels.len()).collect();
                continue;
            }
            [t, n] if t.kind() == SyntaxKind::MINUS && n.kind() == SyntaxKind::NAME => (true, n.text().to_string()),
            [t, n] if t.kind() == SyntaxKind::PLUS && n.kind() == SyntaxKind::NAME => (false, n.text().to_string()),
            [n] if n.kind() == SyntaxKind::NAME => (false, n.text().to_string()),
            _ => {
                asm.error_at(ctx, arg.syntax().text_range(), "expected a kernel name");
                good = false;
                continue;
            }
        };
        match asm.layout.kernels.iter().position(|k| k.name == name) {
            Some(k) => {
                if remove {
                    sel.retain(|&x| x != k);
                } else if !sel.contains(&k) {
                    sel.push(k);
                }
            }
            None => {
                asm.error_at(ctx, arg.syntax().text_range(), "kernel not found");
            }
        }
    }
    if !good {
        return;
    }
    if !asm.layout.is_code_section() {
        asm.error_at(ctx, st.range, "`.kcode` outside code");
        return;
    }
    sel.sort_unstable();
    asm.layout.push_kcode(sel);
    let (section, offset) = (asm.layout.current(), asm.layout.offset());
    asm.reg_usage.label(section, offset);
}

/// `.kcodeend`.
pub(crate) fn kcode_end(asm: &mut Asm, ctx: &Ctx, st: &Stmt) {
    if !asm.layout.is_code_section() {
        asm.error_at(ctx, st.range, "`.kcodeend` outside code");
        return;
    }
    if asm.layout.kcode_selection().is_none() {
        asm.error_at(ctx, st.range, "`.kcodeend` without `.kcode`");
        return;
    }
    if no_args(asm, ctx, st) {
        asm.layout.pop_kcode();
        let (section, offset) = (asm.layout.current(), asm.layout.offset());
        asm.reg_usage.label(section, offset);
    }
}
