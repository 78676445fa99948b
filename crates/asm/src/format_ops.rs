//! Pseudo-ops of the binary formats (`.config`, `.arg`, `.hsaconfig`, `.globaldata`, …):
//! the kernel configuration they set is kept here ([`FormatConfig`], in the layout) for
//! the format writers of `gcn-formats`, which [`Assembly::binary`](crate::Assembly)
//! feeds.
//!
//! - [`amd`]: AMD Catalyst OpenCL 1.2 (`.config`, CAL notes, `.metadata`, `.header`);
//! - [`cl2`]: AMD OpenCL 2.0 (`.config`, `.hsaconfig`, `.setup`, `.stub`, global data,
//!   samplers, `.hsalayout`);
//! - [`gallium`]: GalliumCompute (`.args`, `.config`, `.proginfo`, the `.hsa_*` forms);
//! - [`hsa`]: the AMD HSA descriptor fields both of the last two take;
//! - [`rocm`]: ROCm (descriptors, metadata, the places of code and global data);
//! - [`build`]: from an assembly to the bytes of a binary;
//! - [`added_symbols`]: the symbols `-S` adds to the AMD OpenCL 1.2 and 2.0 and
//!   GalliumCompute binaries.

pub(crate) mod added_symbols;
mod amd;
mod args;
pub(crate) mod build;

pub(crate) use build::{config_reg_counts, finish_config};
mod cl2;
pub(crate) use cl2::old_layout_section_error;
mod gallium;
mod hsa;
mod rocm;
mod symorder;

pub(crate) use rocm::{in_section_space, section_diffs};

use std::collections::HashSet;

use gcn_formats::gallium::ArgInfo;
use gcn_formats::hsa::HsaConfig;
use gcn_syntax::ast::{self, AstNode};
use gcn_syntax::{SyntaxKind, TextRange};

use crate::assembler::{Asm, Ctx};
use crate::expr::Value;
use crate::layout::SectionKind;
use crate::literals;
use crate::options::BinaryFormat;
use crate::source::Location;

/// How a kernel's configuration is given.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ConfigKind {
    /// Nothing given yet.
    #[default]
    None,
    /// `.config`.
    Config,
    /// `.hsaconfig` (AMD OpenCL 2.0).
    Hsa,
}

/// A GalliumCompute kernel's configuration part being written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Inside {
    #[default]
    Main,
    Config,
    Args,
    ProgInfo,
}

/// What the format pseudo-ops set for one kernel. Unset values are computed by the
/// writer (register counts from the code, resource ids, …).
#[derive(Debug, Clone)]
pub struct KernelConfig {
    /// Where the kernel was first declared (`.kernel`), for messages.
    pub location: Option<Location>,
    pub kind: ConfigKind,
    pub dim_mask: Option<u32>,
    pub sgprs: Option<u32>,
    pub vgprs: Option<u32>,
    /// `.pgmrsrc1`, `.pgmrsrc2`, the modes, priority, exceptions, TG_SIZE: what every
    /// format's program resource registers take from the source.
    pub rsrc: gcn_formats::gpu::RsrcSettings,
    pub local_size: u64,
    pub scratch_buffer: u32,
    pub gds_size: u32,
    pub user_data_num: Option<u32>,
    pub cws: [u32; 3],
    pub work_group_size_hint: [u32; 3],
    pub vec_type_hint: String,
    pub samplers: Vec<u32>,
    /// AMD and AMD OpenCL 2.0 arguments.
    pub args: Vec<gcn_formats::args::KernelArg>,
    pub arg_names: HashSet<String>,
    // AMD OpenCL 1.2
    pub hw_region: Option<u32>,
    pub uav_private: Option<u32>,
    pub uav_id: gcn_formats::amd::ResId,
    pub const_buffer_id: gcn_formats::amd::ResId,
    pub printf_id: gcn_formats::amd::ResId,
    pub private_id: gcn_formats::amd::ResId,
    pub early_exit: u32,
    pub cond_out: u32,
    pub use_printf: bool,
    pub use_const_data: bool,
    pub user_datas: Vec<gcn_formats::amd::UserData>,
    // AMD OpenCL 2.0
    pub use_args: bool,
    pub use_setup: bool,
    pub use_enqueue: bool,
    pub use_generic: bool,
    /// HSA descriptor settings (`.hsaconfig`, Gallium from LLVM 4.0, `.control_directive`).
    pub hsa: Option<HsaConfig>,
    // GalliumCompute
    pub gallium_args: Vec<ArgInfo>,
    pub prog_info: Vec<(u32, u32)>,
    pub has_prog_info: bool,
    pub spilled_sgprs: u32,
    pub spilled_vgprs: u32,
}

impl Default for KernelConfig {
    fn default() -> Self {
        KernelConfig {
            location: None,
            kind: ConfigKind::None,
            dim_mask: None,
            sgprs: None,
            vgprs: None,
            rsrc: gcn_formats::gpu::RsrcSettings::default(),
            local_size: 0,
            scratch_buffer: 0,
            gds_size: 0,
            user_data_num: None,
            cws: [0; 3],
            work_group_size_hint: [0; 3],
            vec_type_hint: String::new(),
            samplers: Vec::new(),
            args: Vec::new(),
            arg_names: HashSet::new(),
            hw_region: None,
            uav_private: None,
            uav_id: Default::default(),
            const_buffer_id: Default::default(),
            printf_id: Default::default(),
            private_id: Default::default(),
            early_exit: 0,
            cond_out: 0,
            use_printf: false,
            use_const_data: false,
            user_datas: Vec::new(),
            use_args: false,
            use_setup: false,
            use_enqueue: false,
            use_generic: false,
            hsa: None,
            gallium_args: Vec::new(),
            prog_info: Vec::new(),
            has_prog_info: false,
            spilled_sgprs: 0,
            spilled_vgprs: 0,
        }
    }
}

/// Whether values of the format can be relocated: an operand the core cannot give a
/// value to now may still be a relocation (the core's `relocate`), so the encoder keeps
/// a literal for it.
pub(crate) fn may_relocate(asm: &Asm) -> bool {
    matches!(asm.layout.format, BinaryFormat::AmdCl2 | BinaryFormat::Gallium)
}

/// A relocation of a code word to a data section (AMD OpenCL 2.0 global data, Gallium
/// scratch buffer).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Relocation {
    /// Section and offset of the relocated 32-bit word.
    pub section: usize,
    pub offset: usize,
    pub high: bool,
    /// The section the value points into, and the offset in it.
    pub target: usize,
    pub addend: i64,
}

/// Configuration of the whole binary set by the format pseudo-ops.
#[derive(Debug, Clone, Default)]
pub struct FormatConfig {
    /// `.driver_version`.
    pub driver_version: Option<u32>,
    /// `.llvm_version` (GalliumCompute).
    pub llvm_version: Option<u32>,
    /// `.driver_info` (AMD OpenCL 1.2).
    pub driver_info: Option<String>,
    pub compile_options: String,
    pub acl_version: String,
    pub arch_minor: Option<u32>,
    pub arch_stepping: Option<u32>,
    /// `.hsalayout` (AMD OpenCL 2.0).
    pub hsa_layout: bool,
    pub kernels: Vec<KernelConfig>,
    /// Global `.sampler` values (AMD OpenCL 2.0), when given.
    pub samplers: Option<Vec<u32>>,
    /// `.samplerreloc`: offset in the global data per sampler.
    pub sampler_offsets: Vec<Option<u64>>,
    /// Gallium `.config`/`.args`/`.proginfo` part being written.
    pub inside: Inside,
    pub relocations: Vec<Relocation>,
    /// State at the end of the source (filled when the assembly finishes).
    pub snapshot: build::Snapshot,
    /// Where the device (`.gpu`, `.arch`) and the format (`.amd`, …) were last chosen,
    /// for errors about the binary as a whole.
    pub device_location: Option<Location>,
    pub format_location: Option<Location>,
    /// ROCm: the binary's settings and the kernels' metadata.
    pub rocm: rocm::RocmConfig,
}

impl FormatConfig {
    pub fn new(_format: BinaryFormat) -> FormatConfig {
        FormatConfig::default()
    }
}

/// `.amd`, `.amdcl2`, `.gallium`, `.rocm`, `.rawcode`, `.format`: the layout of the
/// format (nothing was written yet); the device's place is kept.
pub(crate) fn set_layout(asm: &mut Asm, ctx: &Ctx, range: TextRange, format: BinaryFormat) {
    let device_location = asm.layout.config.device_location;
    asm.layout = crate::layout::Layout::new(format);
    asm.layout.config.device_location = device_location;
    asm.layout.config.format_location = Some(ctx.loc(range.start()));
}

/// `.gpu`, `.arch`: remembers where the device was chosen.
pub(crate) fn device_chosen(asm: &mut Asm, ctx: &Ctx, range: TextRange) {
    asm.layout.config.device_location = Some(ctx.loc(range.start()));
}

/// The driver version the source asks for: `.driver_version`, else `-t`, else the
/// format's default (AMD OpenCL 2.0: a version 0 counts as not given). For AMD OpenCL
/// 1.2 a `.driver_info` string makes it 0 (taken from the string by the writer).
pub(crate) fn driver_version(asm: &Asm) -> u32 {
    let config = &asm.layout.config;
    match asm.layout.format {
        BinaryFormat::Amd => {
            if config.driver_version.is_some() || config.driver_info.is_some() {
                config.driver_version.unwrap_or(0)
            } else {
                asm.opts.driver_version.unwrap_or(gcn_formats::DEFAULT_AMD_DRIVER_VERSION)
            }
        }
        // As the reference, 0 (`.driver_version 0`, `-t 0`) means not given.
        BinaryFormat::AmdCl2 => config
            .driver_version
            .filter(|&v| v != 0)
            .or(asm.opts.driver_version.filter(|&v| v != 0))
            .unwrap_or(gcn_formats::DEFAULT_AMDCL2_DRIVER_VERSION),
        _ => config.driver_version.or(asm.opts.driver_version).unwrap_or(gcn_formats::DEFAULT_MESA_VERSION),
    }
}

/// The LLVM version (GalliumCompute): `.llvm_version`, else `--llvmVersion`, else the
/// default.
pub(crate) fn llvm_version(asm: &Asm) -> u32 {
    asm.layout.config.llvm_version.or(asm.opts.llvm_version).unwrap_or(gcn_formats::DEFAULT_LLVM_VERSION)
}

/// `.kernel NAME`: enters the kernel's layout.
pub(crate) fn kernel(asm: &mut Asm, ctx: &Ctx, range: TextRange, args: &[ast::Arg]) {
    let Some(name) = args.first().map(|a| a.text()).filter(|t| !t.is_empty()) else {
        asm.error_at(ctx, range, "`.kernel` needs a name");
        return;
    };
    if let Some(first) = args.first() {
        asm.note_name(ctx, crate::index::NameKind::Kernel, |_| name.clone(), first.syntax().text_range(), true);
    }
    match asm.layout.enter_kernel(&name) {
        Ok((k, new)) => {
            asm.layout.config.inside = Inside::Main;
            if new {
                let location = ctx.mapper.map(range.start().into());
                let mut config = KernelConfig { location: Some(location), ..Default::default() };
                if asm.layout.format == BinaryFormat::Gallium && llvm_version(asm) >= 40000 {
                    config.user_data_num = None;
                } else if asm.layout.format == BinaryFormat::Gallium {
                    config.user_data_num = Some(4);
                }
                asm.layout.config.kernels.push(config);
                debug_assert_eq!(asm.layout.config.kernels.len(), k + 1);
            }
        }
        Err(m) => asm.error_at(ctx, range, m),
    }
}

/// Handles a format pseudo-op; false when `name` is not one (the caller reports it).
pub(crate) fn pseudo_op(asm: &mut Asm, ctx: &Ctx, op: &ast::PseudoOp, name: &str, args: &[ast::Arg]) -> bool {
    let st = Stmt { name, args, range: op.syntax().text_range() };
    match asm.layout.format {
        BinaryFormat::Amd => amd::pseudo_op(asm, ctx, &st),
        BinaryFormat::AmdCl2 => cl2::pseudo_op(asm, ctx, &st),
        BinaryFormat::Gallium => gallium::pseudo_op(asm, ctx, &st),
        BinaryFormat::Rocm => rocm::pseudo_op(asm, ctx, &st),
        BinaryFormat::Rawcode => false,
    }
}

/// The end of the source, before unresolved symbols are reported: what the format does
/// with the whole assembly (ROCm: descriptors into the code, the places of sections).
pub(crate) fn end_of_source(asm: &mut Asm) {
    rocm::finish(asm);
}

/// A statement being handled.
pub(crate) struct Stmt<'a> {
    pub name: &'a str,
    pub args: &'a [ast::Arg],
    pub range: TextRange,
}

impl Stmt<'_> {
    /// Range of argument `i`, or of the end of the statement when missing.
    pub fn arg_range(&self, i: usize) -> TextRange {
        match self.args.get(i) {
            Some(a) => a.syntax().text_range(),
            None => TextRange::empty(self.range.end()),
        }
    }
}

// ---- argument helpers -----------------------------------------------------------------

/// Errors with "garbage" when a pseudo-op without arguments has some.
pub(crate) fn no_args(asm: &mut Asm, ctx: &Ctx, st: &Stmt) -> bool {
    match st.args.iter().find(|a| !a.is_empty()) {
        Some(a) => {
            asm.error_at(ctx, a.syntax().text_range(), "garbage at end of line");
            false
        }
        None => true,
    }
}

/// An absolute value argument; reports a missing or bad one.
pub(crate) fn value_arg(asm: &mut Asm, ctx: &Ctx, st: &Stmt, i: usize) -> Option<i64> {
    let Some(arg) = st.args.get(i).filter(|a| !a.is_empty()) else {
        asm.error_at(ctx, st.arg_range(i), "expected an expression");
        return None;
    };
    expr_value(asm, ctx, arg)
}

/// An optional absolute value argument: `Some(None)` when absent.
pub(crate) fn opt_value_arg(asm: &mut Asm, ctx: &Ctx, st: &Stmt, i: usize) -> Option<Option<i64>> {
    match st.args.get(i).filter(|a| !a.is_empty()) {
        None => Some(None),
        Some(arg) => expr_value(asm, ctx, arg).map(Some),
    }
}

/// The value of an argument's expression, or of its raw tokens read as an expression.
pub(crate) fn expr_value(asm: &mut Asm, ctx: &Ctx, arg: &ast::Arg) -> Option<i64> {
    let range = arg.syntax().text_range();
    if let Some(e) = arg.expr() {
        if arg.raw_tokens().count() == e.syntax().descendants_with_tokens().filter_map(|t| t.into_token()).filter(|t| !t.kind().is_trivia()).count() {
            return asm.eval_abs_now(ctx, &e);
        }
    }
    // Raw arguments (`.arg`): parse the text as an expression.
    let text = arg.text();
    let parse = gcn_syntax::parse(&format!(".int {text}\n"));
    let expr = parse
        .tree()
        .statements()
        .next()
        .and_then(|s| match s {
            ast::Statement::PseudoOp(op) => op.args().next().and_then(|a| a.expr()),
            _ => None,
        });
    let Some(expr) = expr.filter(|_| parse.errors().is_empty()) else {
        asm.error_at(ctx, range, "expected an expression");
        return None;
    };
    let ir = match asm.try_lower(ctx, &expr, false) {
        Ok(ir) => ir,
        Err((_, m)) => {
            asm.error_at(ctx, range, m);
            return None;
        }
    };
    match asm.eval_ir(ctx, range, &ir) {
        Ok(Value::Abs(v)) => Some(v),
        Ok(Value::Rel { .. }) => {
            asm.error_at(ctx, range, "expression must be absolute");
            None
        }
        Err(crate::expr::EvalError::Pending) => {
            let mut syms = Vec::new();
            ir.symbols(&mut syms);
            let names: Vec<String> = syms.iter().map(|&s| format!("`{}`", asm.symbols.get(s).name)).collect();
            asm.error_at(ctx, range, format!("expression needs {} defined before this point", names.join(", ")));
            None
        }
        Err(crate::expr::EvalError::Invalid(m)) => {
            asm.error_at(ctx, range, m);
            None
        }
        Err(crate::expr::EvalError::Later) => {
            asm.error_at(ctx, range, crate::assembler::PLACES_LATER);
            None
        }
    }
}

/// A string argument.
pub(crate) fn string_arg(asm: &mut Asm, ctx: &Ctx, st: &Stmt, i: usize) -> Option<String> {
    let Some(arg) = st.args.get(i).filter(|a| !a.is_empty()) else {
        asm.error_at(ctx, st.arg_range(i), "expected a string");
        return None;
    };
    let mut tokens = arg.raw_tokens();
    let token = tokens.next().filter(|t| t.kind() == SyntaxKind::STRING);
    let Some(token) = token.filter(|_| tokens.next().is_none()) else {
        asm.error_at(ctx, arg.syntax().text_range(), "expected a string");
        return None;
    };
    match literals::parse_string(token.text()) {
        Ok(bytes) => Some(String::from_utf8_lossy(&bytes).into_owned()),
        Err(m) => {
            asm.error_at(ctx, token.text_range(), m);
            None
        }
    }
}

/// Errors when there are more than `n` arguments.
pub(crate) fn at_most(asm: &mut Asm, ctx: &Ctx, st: &Stmt, n: usize) -> bool {
    if st.args.len() > n {
        let range = st.args[n].syntax().text_range();
        asm.error_at(ctx, range, "garbage at end of line");
        return false;
    }
    true
}

/// Warns when a value does not fit in `bits` bits (unsigned).
pub(crate) fn warn_range(asm: &mut Asm, ctx: &Ctx, range: TextRange, bits: u32, value: i64) {
    if bits < 64 && (value as u64) >> bits != 0 && (value >> (bits - 1)) != -1 {
        asm.warn_at(ctx, range, format!("value {value:#x} is truncated to {bits} bits"));
    }
}

/// Defines a symbol to a value (`.get_driver_version SYMBOL`).
pub(crate) fn set_symbol(asm: &mut Asm, ctx: &Ctx, st: &Stmt, value: i64) {
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
    asm.set_symbol(id, Value::Abs(value));
}

/// Dimensions (`.dims xyz` or `.dims GID, LID`) as a mask: bits 0-2 work-group ids,
/// 3-5 work-item ids.
pub(crate) fn dims(asm: &mut Asm, ctx: &Ctx, st: &Stmt, two_fields: bool) -> Option<u32> {
    let one = |asm: &mut Asm, i: usize| -> Option<u32> {
        let Some(arg) = st.args.get(i) else { return Some(0) };
        let text = arg.text().to_ascii_lowercase();
        let mut mask = 0;
        for c in text.chars() {
            match c {
                'x' => mask |= 1,
                'y' => mask |= 2,
                'z' => mask |= 4,
                _ => {
                    asm.error_at(ctx, arg.syntax().text_range(), "unknown dimension type");
                    return None;
                }
            }
        }
        Some(mask)
    };
    // As in the reference, an empty field is no dimension (`.dims , x`).
    let first = one(asm, 0)?;
    if !two_fields {
        return if at_most(asm, ctx, st, 1) { Some(first) } else { None };
    }
    if !at_most(asm, ctx, st, 2) {
        return None;
    }
    match st.args.get(1) {
        Some(_) => {
            let second = one(asm, 1)?;
            Some(first | (second << 3) | gcn_formats::gpu::DIMS_SECOND_FIELD)
        }
        None => Some(first | (first << 3)),
    }
}

/// The kernel being configured, if the current section is its configuration.
pub(crate) fn config_kernel(asm: &Asm) -> Option<usize> {
    let k = asm.layout.current_kernel()?;
    (asm.layout.current_section().kind == SectionKind::Config).then_some(k)
}

/// `.cws X[, Y[, Z]]` (and `.work_group_size_hint`): missing values are 1.
pub(crate) fn cws(asm: &mut Asm, ctx: &Ctx, st: &Stmt) -> Option<[u32; 3]> {
    if !at_most(asm, ctx, st, 3) {
        return None;
    }
    let mut out = [1u32; 3];
    let mut good = true;
    for (i, slot) in out.iter_mut().enumerate() {
        match opt_value_arg(asm, ctx, st, i) {
            Some(Some(v)) => {
                warn_range(asm, ctx, st.arg_range(i), 32, v);
                *slot = v as u32;
            }
            Some(None) => {}
            None => good = false,
        }
    }
    if !good {
        return None;
    }
    if out.iter().any(|&v| v != 0) {
        for (i, &v) in out.iter().enumerate() {
            if v == 0 {
                asm.error_at(ctx, st.arg_range(i), "group size must not be zero");
                good = false;
            }
        }
    }
    good.then_some(out)
}
