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
//!
//! The handlers reach the assembler only through [`Host`] (reports, values of arguments,
//! symbols, options, the configuration and the layout); [`stmt`] reads their arguments.

pub(crate) mod added_symbols;
mod amd;
mod args;
pub(crate) mod build;
mod host;
mod stmt;

pub(crate) use host::Host;
pub(crate) use stmt::Stmt;

pub(crate) use build::{
    config_reg_counts, config_setup, finish_config, setting_warnings, xnack_enabled,
};
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
use gcn_isa::Formats;
use gcn_syntax::ast::{self, AstNode};
use gcn_syntax::TextRange;

use crate::assembler::Asm;
use crate::options::{BinaryFormat, Options};
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
    /// Where `.pgmrsrc2` was last written: the writer computes some of its fields
    /// ([`setting_warnings`]).
    pub pgm_rsrc2_location: Option<Location>,
    /// Where ROCm's `.wavefront_size` was last written: the runtime takes the lanes
    /// from `.use_wave32` instead ([`setting_warnings`]).
    pub wavefront_size_location: Option<Location>,
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
    /// Where each of `args` was written (`.arg`, `.setup_args`), for the writer's messages.
    pub arg_locations: Vec<Location>,
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
            arg_locations: Vec::new(),
            pgm_rsrc2_location: None,
            wavefront_size_location: None,
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
    matches!(
        asm.layout.format,
        BinaryFormat::AmdCl2 | BinaryFormat::Gallium
    )
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
pub(crate) use self::rocm::choose_amd3;

pub(crate) fn set_layout(h: &mut dyn Host, range: TextRange, format: BinaryFormat) {
    let device_location = h.config().device_location;
    let format_location = h.location(range);
    h.start_layout(format);
    let config = h.config_mut();
    config.device_location = device_location;
    config.format_location = Some(format_location);
}

/// `.gpu`, `.arch`: remembers where the device was chosen.
pub(crate) fn device_chosen(h: &mut dyn Host, range: TextRange) {
    let location = h.location(range);
    h.config_mut().device_location = Some(location);
}

/// The driver version the source asks for: `.driver_version`, else `-t`, else the
/// format's default. As in the reference, a version 0 (`-t 0`, `.driver_version 0`)
/// means "not given", so that the next of these applies. For AMD OpenCL 1.2 a
/// `.driver_info` string makes it 0 (the writer takes it from the string); in
/// GalliumCompute `.driver_version` replaces the command line's value, 0 included.
pub(crate) fn driver_version(asm: &Asm) -> u32 {
    driver_version_of(asm.layout.format, &asm.layout.config, &asm.opts)
}

/// A version as given: 0 is none.
fn given(version: Option<u32>) -> Option<u32> {
    version.filter(|&v| v != 0)
}

fn driver_version_of(format: BinaryFormat, config: &FormatConfig, opts: &Options) -> u32 {
    match format {
        BinaryFormat::Amd => match given(config.driver_version) {
            Some(v) => v,
            None if config.driver_info.is_some() => 0,
            None => given(opts.driver_version).unwrap_or(gcn_formats::DEFAULT_AMD_DRIVER_VERSION),
        },
        BinaryFormat::AmdCl2 => given(config.driver_version)
            .or(given(opts.driver_version))
            .unwrap_or(gcn_formats::DEFAULT_AMDCL2_DRIVER_VERSION),
        _ => given(config.driver_version.or(opts.driver_version))
            .unwrap_or(gcn_formats::DEFAULT_MESA_VERSION),
    }
}

/// The LLVM version (GalliumCompute): `.llvm_version`, which replaces the command line's,
/// else `--llvmVersion`; either 0 is the default.
pub(crate) fn llvm_version(asm: &Asm) -> u32 {
    llvm_version_of(&asm.layout.config, &asm.opts)
}

fn llvm_version_of(config: &FormatConfig, opts: &Options) -> u32 {
    given(config.llvm_version.or(opts.llvm_version)).unwrap_or(gcn_formats::DEFAULT_LLVM_VERSION)
}

impl dyn Host + '_ {
    /// [`driver_version`], for a handler.
    pub(crate) fn driver_version(&self) -> u32 {
        driver_version_of(self.format(), self.config(), self.options())
    }

    /// [`llvm_version`], for a handler.
    pub(crate) fn llvm_version(&self) -> u32 {
        llvm_version_of(self.config(), self.options())
    }
}

/// `.kernel NAME`: enters the kernel's layout.
pub(crate) fn kernel(h: &mut dyn Host, range: TextRange, args: &[ast::Arg]) {
    let Some(name) = args.first().map(|a| a.text()).filter(|t| !t.is_empty()) else {
        h.error_at(range, "`.kernel` needs a name");
        return;
    };
    if let Some(first) = args.first() {
        h.note_kernel_name(&name, first.syntax().text_range());
    }
    match h.enter_kernel(&name) {
        Ok((k, new)) => {
            h.config_mut().inside = Inside::Main;
            if new {
                let location = h.location(range);
                let mut config = KernelConfig {
                    location: Some(location),
                    ..Default::default()
                };
                if h.format() == BinaryFormat::Gallium && h.llvm_version() >= 40000 {
                    config.user_data_num = None;
                } else if h.format() == BinaryFormat::Gallium {
                    config.user_data_num = Some(4);
                }
                h.config_mut().kernels.push(config);
                debug_assert_eq!(h.config().kernels.len(), k + 1);
            }
        }
        Err(m) => h.error_at(range, m),
    }
}

/// Handles a format pseudo-op; false when `name` is not one of the current format (the
/// caller reports it). The pseudo-op table says which pseudo-ops a format has; the
/// format's handler dispatches on the row's id.
pub(crate) fn pseudo_op(
    h: &mut dyn Host,
    op: &ast::PseudoOp,
    name: &str,
    args: &[ast::Arg],
) -> bool {
    let Some(row) = gcn_isa::pseudo_op(name).filter(|row| belongs_to(row, h.format())) else {
        return false;
    };
    let st = Stmt {
        id: row.id,
        args,
        range: op.syntax().text_range(),
    };
    handle(h, &st)
}

/// The current format's handler; false when it has no arm for the statement's id.
fn handle(h: &mut dyn Host, st: &Stmt) -> bool {
    match h.format() {
        BinaryFormat::Amd => amd::pseudo_op(h, st),
        BinaryFormat::AmdCl2 => cl2::pseudo_op(h, st),
        BinaryFormat::Gallium => gallium::pseudo_op(h, st),
        BinaryFormat::Rocm => rocm::pseudo_op(h, st),
        BinaryFormat::Rawcode => false,
    }
}

/// Whether a row of the pseudo-op table is a pseudo-op of `format` (the general ones are
/// `pseudo.rs`'s, whatever the format).
fn belongs_to(row: &gcn_isa::PseudoOp, format: BinaryFormat) -> bool {
    let formats = match format {
        BinaryFormat::Amd => Formats::AMD,
        BinaryFormat::AmdCl2 => Formats::AMDCL2,
        BinaryFormat::Gallium => Formats::GALLIUM,
        BinaryFormat::Rocm => Formats::ROCM,
        BinaryFormat::Rawcode => return false,
    };
    !row.is_general() && row.formats.contains(formats)
}

/// The end of the source, before unresolved symbols are reported: what the format does
/// with the whole assembly (ROCm: descriptors into the code, the places of sections).
pub(crate) fn end_of_source(asm: &mut Asm) {
    rocm::finish(asm);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assembler::{Ctx, CtxKind};
    use crate::source::FileId;
    use crate::text::Mapper;

    /// A version 0 is no version, wherever it is given: the next source of the version
    /// applies (the reference's assembler keeps 0 for "detect it on this machine").
    #[test]
    fn version_zero_is_not_given() {
        use gcn_formats::{
            DEFAULT_AMDCL2_DRIVER_VERSION, DEFAULT_AMD_DRIVER_VERSION, DEFAULT_LLVM_VERSION,
            DEFAULT_MESA_VERSION,
        };
        let config = |driver: Option<u32>, info: bool| FormatConfig {
            driver_version: driver,
            driver_info: info.then(String::new),
            ..FormatConfig::default()
        };
        let opts = |driver: Option<u32>, llvm: Option<u32>| Options {
            driver_version: driver,
            llvm_version: llvm,
            ..Options::default()
        };
        let driver = |format, c: &FormatConfig, o: &Options| driver_version_of(format, c, o);
        for (format, default) in [
            (BinaryFormat::Amd, DEFAULT_AMD_DRIVER_VERSION),
            (BinaryFormat::AmdCl2, DEFAULT_AMDCL2_DRIVER_VERSION),
            (BinaryFormat::Gallium, DEFAULT_MESA_VERSION),
        ] {
            assert_eq!(
                driver(format, &config(None, false), &opts(Some(0), None)),
                default,
                "{format:?} -t 0"
            );
            assert_eq!(
                driver(format, &config(Some(0), false), &opts(None, None)),
                default,
                "{format:?} .driver_version 0"
            );
            assert_eq!(
                driver(format, &config(None, false), &opts(Some(180005), None)),
                180005,
                "{format:?} -t"
            );
            assert_eq!(
                driver(
                    format,
                    &config(Some(200406), false),
                    &opts(Some(180005), None)
                ),
                200406,
                "{format:?} both"
            );
        }
        // AMD OpenCL 1.2: `.driver_version 0` leaves `-t`; `.driver_info` stands for both.
        assert_eq!(
            driver(
                BinaryFormat::Amd,
                &config(Some(0), false),
                &opts(Some(180005), None)
            ),
            180005
        );
        assert_eq!(
            driver(
                BinaryFormat::Amd,
                &config(None, true),
                &opts(Some(180005), None)
            ),
            0
        );
        // GalliumCompute: the pseudo-op replaces the command line's value, 0 included.
        assert_eq!(
            driver(
                BinaryFormat::Gallium,
                &config(Some(0), false),
                &opts(Some(170000), None)
            ),
            DEFAULT_MESA_VERSION
        );
        let llvm = |c: Option<u32>, o: Option<u32>| {
            llvm_version_of(
                &FormatConfig {
                    llvm_version: c,
                    ..FormatConfig::default()
                },
                &opts(None, o),
            )
        };
        assert_eq!(llvm(None, Some(0)), DEFAULT_LLVM_VERSION);
        assert_eq!(llvm(Some(0), Some(40000)), DEFAULT_LLVM_VERSION);
        assert_eq!(llvm(None, Some(40000)), 40000);
        assert_eq!(llvm(Some(50000), Some(40000)), 50000);
    }

    /// Each format's handler has an arm for exactly the rows of the pseudo-op table that
    /// list the format (an arm that answers "not supported yet" counts): none is missing,
    /// and none handles a pseudo-op the table gives to other formats only, or a general
    /// one.
    #[test]
    fn handlers_have_exactly_their_formats_rows_of_the_table() {
        let formats = [
            BinaryFormat::Amd,
            BinaryFormat::AmdCl2,
            BinaryFormat::Gallium,
            BinaryFormat::Rocm,
            BinaryFormat::Rawcode,
        ];
        let mut mismatches = Vec::new();
        for format in formats {
            for row in gcn_isa::pseudo_ops() {
                // A new assembly each time: what a handler sets does not reach the next.
                let mut asm = Asm::new(crate::Options {
                    format,
                    ..Default::default()
                });
                let ctx = Ctx::new(
                    Mapper::File(FileId(0)),
                    Default::default(),
                    0,
                    CtxKind::File,
                );
                let st = Stmt {
                    id: row.id,
                    args: &[],
                    range: TextRange::empty(0.into()),
                };
                let handled = handle(&mut asm.format_host(&ctx), &st);
                if handled != belongs_to(row, format) {
                    mismatches.push(format!("{} in {format:?}: handled {handled}", row.name));
                }
            }
        }
        assert_eq!(mismatches, Vec::<String>::new());
    }
}
