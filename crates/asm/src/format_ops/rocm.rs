//! ROCm pseudo-ops: the kernel descriptors (`.config` and the HSA fields), the metadata
//! (`.md_version`, `.arg`, `.md_language`, `.printf`, …), the binary's settings
//! (`.arch_minor`, `.eflags`, `.newbinfmt`, `.target`), `.globaldata`, `.kcode`.
//!
//! At the end of the source ([`finish`]) each kernel's descriptor is written over the
//! first 256 bytes of its code, as the reference does before it writes the binary, and
//! the code and the global data get the places the binary will give them
//! ([`Asm::place_sections`](crate::assembler::Asm)): expressions between the two
//! (`label - globaldata_label`), which waited so far, get their values. The places
//! depend on everything before the code in the binary, the metadata note included, so
//! the metadata text is made here too, and so are the dynamic symbols a global offset
//! table (`.gotsym`) brings; the places come from `gcn_formats::rocm::layout`.
//! [`binary_input`] hands all of it to the writer (`gcn_formats::rocm::write`).
//!
//! In the LLVM 10 binary format (`.llvm10binfmt`, which implies the new one) the kernels'
//! 64-byte descriptors are the source's own bytes at the start of `.globaldata` (the
//! reference builds them from the configuration pseudo-ops, which is refused here as not
//! supported yet), `.arg` gives an offset where it gave an alignment, and the metadata
//! made from the pseudo-ops is the v3 MessagePack (`.metadatav3`, [`metadata_v3`]).

mod metadata;
mod metadata_v3;

use gcn_formats::gpu::{self, ArchTable};
use gcn_formats::hsa::{feature_flags, sgpr_flags, KernelCode};
use gcn_formats::rocm::{KernelDescriptor, KERNEL_DESCRIPTOR_SIZE};
use gcn_syntax::{SyntaxKind, SyntaxToken};

use self::metadata::{
    AccessQual, AddressSpace, DescriptorValues, KernelArg, KernelMetadata, PrintfInfo, ValueKind,
    ValueType,
};
use gcn_isa::PseudoOpId as Id;

use super::gallium::{self, hsa_of};
use super::hsa::{self, Field};
use super::stmt::{
    at_most, config_kernel, cws, dims, expr_value, no_args, string_arg, value_arg, warn_range,
};
use super::{ConfigKind, Host, Stmt};
use crate::assembler::Asm;
use crate::diag::Severity;
use crate::expr::Value;
use crate::layout::{Layout, Owner, SectionKind};
use crate::options::BinaryFormat;
use crate::source::Location;

/// What the ROCm pseudo-ops set for the binary as a whole.
#[derive(Debug, Clone, Default)]
pub struct RocmConfig {
    /// `.eflags`: the ELF header's flags.
    pub eflags: Option<u32>,
    /// `.newbinfmt`: notes first, the metadata made from the pseudo-ops by default.
    pub new_bin_format: bool,
    /// `.llvm10binfmt` (where it stood): the LLVM 10 binary format, in the new layout.
    pub llvm10_bin_format: Option<Location>,
    /// `.metadatav3` (where it stood): the metadata is MessagePack (v3).
    pub metadata_v3: Option<Location>,
    /// Where the first `.gotsym` stood.
    pub got_location: Option<Location>,
    /// `.target`: the LLVM target with the device.
    pub target: Option<String>,
    /// `.tripple`: the LLVM target without the device.
    pub triple: Option<String>,
    /// `.nosectdiffs`: code and global data are not placed relative to each other.
    pub no_section_diffs: bool,
    /// The metadata is made from the pseudo-ops (`.md_version`, `.arg`, …).
    pub use_metadata_info: bool,
    pub metadata: metadata::Metadata,
    /// Per kernel, in kernel order (kernels past the end have nothing set).
    pub kernels: Vec<RocmKernel>,
    /// The metadata note's text (made at the end of the source): the raw `.metadata`, or
    /// the YAML made from the pseudo-ops.
    pub metadata_text: Vec<u8>,
    /// `.gotsym`: the global offset table's symbols (names in the global scope), in order.
    pub got_symbols: Vec<String>,
    /// Made at the end of the source: the binary's data symbols of the code, its other
    /// global symbols, and its global offset table (indices into the data symbols, the
    /// kernels and the others).
    pub data_symbols: Vec<gcn_formats::rocm::CodeSymbol>,
    pub extra_symbols: Vec<gcn_formats::rocm::ExtraSymbol>,
    pub got_indices: Vec<usize>,
}

/// What the ROCm pseudo-ops set for one kernel besides its descriptor.
#[derive(Debug, Clone, Default)]
pub struct RocmKernel {
    pub metadata: KernelMetadata,
    /// `.fkernel`: a function, not a kernel.
    pub fkernel: bool,
    /// Where `.fkernel` stood.
    pub fkernel_location: Option<Location>,
    /// Where `.control_directive` first stood.
    pub control_directive_location: Option<Location>,
    /// Where `.pgmrsrc3` or `.shared_vgprs` first stood (only the LLVM 10 format's
    /// descriptor has COMPUTE_PGM_RSRC3).
    pub rsrc3_location: Option<Location>,
}

fn rocm_kernel(h: &mut dyn Host, k: usize) -> &mut RocmKernel {
    let kernels = &mut h.config_mut().rocm.kernels;
    if kernels.len() <= k {
        kernels.resize_with(k + 1, Default::default);
    }
    &mut kernels[k]
}

/// ROCm's new binary format (`.newbinfmt`, `--newROCmBinFormat`): notes first, code
/// version 1.1, the metadata made from the pseudo-ops by default.
fn new_bin_format(asm: &Asm) -> bool {
    asm.layout.config.rocm.new_bin_format || asm.opts.new_rocm_bin_format
}

/// Whether positions in the code and in the global data combine (see [`finish`]).
pub(crate) fn section_diffs(asm: &Asm) -> bool {
    asm.layout.format == BinaryFormat::Rocm && !asm.layout.config.rocm.no_section_diffs
}

/// Whether a section is placed relative to the others of the binary's section space:
/// the code (`.text`) and the global data (`.rodata`).
pub(crate) fn in_section_space(layout: &Layout, section: usize) -> bool {
    layout.sections.get(section).is_some_and(|s| {
        s.kernel.is_none()
            && (s.kind == SectionKind::Code
                || s.kind == SectionKind::Got
                || (s.kind == SectionKind::Data && s.name == ".rodata"))
    })
}

/// `.llvm10binfmt` (at `location`): the LLVM 10 layout, which is the new one too.
fn use_llvm10_format(h: &mut dyn Host, location: Location) {
    let r = &mut h.config_mut().rocm;
    r.llvm10_bin_format = Some(location);
    r.new_bin_format = true;
}

/// `.amd3` (at `range`), once the ROCm format is chosen: the LLVM 10 layout with v3
/// metadata, as `.llvm10binfmt` and `.metadatav3` ask.
pub(crate) fn choose_amd3(h: &mut dyn Host, range: gcn_syntax::TextRange) {
    let location = h.location(range);
    use_llvm10_format(h, location);
    h.config_mut().rocm.metadata_v3 = Some(location);
}

pub(crate) fn pseudo_op(h: &mut dyn Host, st: &Stmt) -> bool {
    match st.id {
        Id::ArchMinor | Id::ArchStepping => gallium::arch_minor_or_stepping(h, st),
        Id::Arg => arg(h, st),
        Id::Config => config(h, st),
        Id::ControlDirective => control_directive(h, st),
        Id::Cws | Id::ReqdWorkGroupSize | Id::WorkGroupSizeHint | Id::FixedWorkGroupSize => {
            if let Some(k) = metadata_kernel(h, st) {
                if let Some(v) = cws(h, st) {
                    set_metadata_info(h);
                    let m = &mut rocm_kernel(h, k).metadata;
                    match st.id {
                        Id::WorkGroupSizeHint => m.work_group_size_hint = v,
                        Id::FixedWorkGroupSize => m.fixed_work_group_size = v,
                        _ => m.reqd_work_group_size = v,
                    }
                }
            }
        }
        Id::DefaultHsaFeatures => {
            if let Some(k) = descriptor_kernel(h, st) {
                if no_args(h, st) {
                    let hsa = hsa_of(h.config_mut(), k);
                    hsa.sgpr_flags = sgpr_flags::PRIVATE_SEGMENT_BUFFER
                        | sgpr_flags::DISPATCH_PTR
                        | sgpr_flags::KERNARG_SEGMENT_PTR;
                    hsa.feature_flags = feature_flags::PTR64 | 2;
                }
            }
        }
        Id::Dims => {
            if let Some(k) = descriptor_kernel(h, st) {
                if let Some(m) = dims(h, st, true) {
                    hsa_of(h.config_mut(), k).dim_mask = m;
                }
            }
        }
        Id::Eflags => {
            if let Some(v) = value_arg(h, st, 0) {
                warn_range(h, st.arg_range(0), 32, v);
                if at_most(h, st, 1) {
                    h.config_mut().rocm.eflags = Some(v as u32);
                }
            }
        }
        Id::Fkernel => match h.current_kernel() {
            None => h.error_at(st.range, "`.fkernel` belongs in a kernel"),
            Some(k) => {
                if no_args(h, st) {
                    let location = h.location(st.range);
                    let r = rocm_kernel(h, k);
                    r.fkernel = true;
                    r.fkernel_location.get_or_insert(location);
                }
            }
        },
        Id::Globaldata => {
            if no_args(h, st) {
                h.go_to(".rodata", Owner::Global, SectionKind::Data);
            }
        }
        Id::Gotsym => gotsym(h, st),
        Id::Kcode => gallium::kcode(h, st),
        Id::Kcodeend => gallium::kcode_end(h, st),
        Id::Machine
        | Id::Codeversion
        | Id::ReservedSgprs
        | Id::ReservedVgprs
        | Id::UseGridWorkgroupCount => {
            if let Some(k) = descriptor_kernel(h, st) {
                gallium::descriptor_value(h, st, k);
            }
        }
        Id::Llvm10binfmt => {
            if no_args(h, st) {
                let location = h.location(st.range);
                use_llvm10_format(h, location);
            }
        }
        Id::MdLanguage => md_language(h, st),
        Id::MdSymname | Id::RuntimeHandle => {
            if let Some(k) = metadata_kernel(h, st) {
                if let Some(s) = string_arg(h, st, 0) {
                    if at_most(h, st, 1) {
                        set_metadata_info(h);
                        let m = &mut rocm_kernel(h, k).metadata;
                        if st.id == Id::MdSymname {
                            m.symbol_name = Some(s);
                        } else {
                            m.runtime_handle = s;
                        }
                    }
                }
            }
        }
        Id::MdVersion => {
            if metadata_section_exists(h, st) {
                return true;
            }
            let major = value_arg(h, st, 0);
            let minor = value_arg(h, st, 1);
            for (i, v) in [major, minor].into_iter().enumerate() {
                if let Some(v) = v {
                    warn_range(h, st.arg_range(i), 32, v);
                }
            }
            if let (Some(major), Some(minor), true) = (major, minor, at_most(h, st, 2)) {
                set_metadata_info(h);
                h.config_mut().rocm.metadata.version = Some((major as u32, minor as u32));
            }
        }
        Id::MdGroupSegmentFixedSize
        | Id::MdKernargSegmentAlign
        | Id::MdKernargSegmentSize
        | Id::MdPrivateSegmentFixedSize
        | Id::MdSgprsnum
        | Id::MdVgprsnum
        | Id::MdWavefrontSize
        | Id::Spilledsgprs
        | Id::Spilledvgprs
        | Id::MaxFlatWorkGroupSize => metadata_value(h, st),
        Id::Metadata => {
            if h.config().rocm.use_metadata_info {
                h.error_at(
                    st.range,
                    "metadata can't be defined if metadata config is already defined",
                );
            } else if no_args(h, st) {
                h.go_to("", Owner::Global, SectionKind::Metadata);
            }
        }
        Id::Metadatav3 => {
            if no_args(h, st) {
                let location = h.location(st.range);
                h.config_mut().rocm.metadata_v3 = Some(location);
            }
        }
        Id::Newbinfmt => {
            if no_args(h, st) {
                h.config_mut().rocm.new_bin_format = true;
            }
        }
        Id::Nosectdiffs => {
            if no_args(h, st) {
                h.config_mut().rocm.no_section_diffs = true;
            }
        }
        Id::Printf => printf(h, st),
        Id::Target | Id::Tripple => {
            if let Some(s) = string_arg(h, st, 0) {
                if at_most(h, st, 1) {
                    let r = &mut h.config_mut().rocm;
                    *(if st.id == Id::Target {
                        &mut r.target
                    } else {
                        &mut r.triple
                    }) = Some(s);
                }
            }
        }
        Id::Vectypehint => {
            if let Some(k) = metadata_kernel(h, st) {
                let word = st.args.first().and_then(single_name);
                match word {
                    Some(w) if at_most(h, st, 1) => {
                        set_metadata_info(h);
                        rocm_kernel(h, k).metadata.vec_type_hint = w.text().to_string();
                    }
                    Some(_) => {}
                    None => h.error_at(st.arg_range(0), "expected a vector type hint"),
                }
            }
        }
        Id::Debugmode | Id::Dx10clamp | Id::Ieeemode | Id::Privmode | Id::Tgsize => {
            if let Some(k) = descriptor_kernel(h, st) {
                if no_args(h, st) {
                    let rsrc = &mut hsa_of(h.config_mut(), k).rsrc;
                    match st.id {
                        Id::Debugmode => rsrc.debug_mode = true,
                        Id::Dx10clamp => rsrc.dx10_clamp = true,
                        Id::Ieeemode => rsrc.ieee_mode = true,
                        Id::Privmode => rsrc.priv_mode = true,
                        _ => rsrc.tg_size = true,
                    }
                }
            }
        }
        Id::Pgmrsrc3 | Id::SharedVgprs => {
            if let Some(k) = descriptor_kernel(h, st) {
                if let Some(v) = rsrc3_value(h, st) {
                    let location = h.location(st.range);
                    rocm_kernel(h, k).rsrc3_location.get_or_insert(location);
                    let rsrc = &mut hsa_of(h.config_mut(), k).rsrc;
                    if st.id == Id::Pgmrsrc3 {
                        rsrc.pgm_rsrc3 = v;
                    } else {
                        rsrc.shared_vgprs = v;
                    }
                }
            }
        }
        Id::UseWave32 => {
            if let Some(k) = descriptor_kernel(h, st) {
                if no_args(h, st) {
                    hsa_of(h.config_mut(), k).sgpr_flags |= sgpr_flags::WAVEFRONT_SIZE32;
                    // The reference assembles a kernel that asks for wave32 in wave32
                    // mode (RandomX's GFX1010 kernel uses `vcc_lo` as a compare's
                    // destination with `.use_wave32` and no `-3`).
                    h.set_wave32();
                }
            }
        }
        _ => {
            let field = match st.id {
                Id::Sgprsnum => Some(Field::SgprsNum),
                Id::Vgprsnum => Some(Field::VgprsNum),
                Id::Pgmrsrc1 => Some(Field::PgmRsrc1),
                Id::Pgmrsrc2 => Some(Field::PgmRsrc2),
                Id::Floatmode => Some(Field::FloatMode),
                Id::Priority => Some(Field::Priority),
                Id::Exceptions => Some(Field::Exceptions),
                Id::Userdatanum => Some(Field::UserDataNum),
                Id::Localsize | Id::GroupSegmentFixedSize | Id::GroupSegmentFixesSize => {
                    Some(Field::WorkgroupGroupSegmentSize)
                }
                Id::Scratchbuffer | Id::PrivateSegmentFixedSize => {
                    Some(Field::WorkitemPrivateSegmentSize)
                }
                _ => hsa::hsa_only_field(st.id),
            };
            if let Some(field) = field {
                if field == Field::KernelCodeEntryOffset
                    && h.config().rocm.llvm10_bin_format.is_some()
                {
                    let message = "ignored in the LLVM10 binary format: the descriptor's entry offset is the distance from it to the code";
                    h.warn_at(st.range, message);
                }
                if let Some(k) = descriptor_kernel(h, st) {
                    if let Some(v) = hsa::value(h, st, field) {
                        hsa::set(hsa_of(h.config_mut(), k), field, v);
                        let at = h.location(st.range);
                        let kernel = &mut h.config_mut().kernels[k];
                        match field {
                            Field::PgmRsrc2 => kernel.pgm_rsrc2_location = Some(at),
                            Field::WavefrontSize => kernel.wavefront_size_location = Some(at),
                            _ => {}
                        }
                    }
                }
                return true;
            }
            if let Some((sgpr, bit)) = hsa::hsa_flag(st.id) {
                if let Some(k) = descriptor_kernel(h, st) {
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

/// The value of `.pgmrsrc3 VALUE` (32 bits) or `.shared_vgprs REGNUM` (at most 120: 15
/// blocks of 8).
fn rsrc3_value(h: &mut dyn Host, st: &Stmt) -> Option<u32> {
    let v = value_arg(h, st, 0)?;
    if !at_most(h, st, 1) {
        return None;
    }
    if st.id == Id::SharedVgprs {
        if !(0..=120).contains(&v) {
            h.error_at(st.arg_range(0), "shared VGPRs number out of range (0-120)");
            return None;
        }
    } else {
        warn_range(h, st.arg_range(0), 32, v);
    }
    Some(v as u32)
}

/// `.gotsym SYMBOL[, OUTSYMBOL]`: a global offset table entry for SYMBOL (of the global
/// scope); OUTSYMBOL gets the entry's place.
fn gotsym(h: &mut dyn Host, st: &Stmt) {
    let is_name = |text: &str| {
        !text.is_empty()
            && text
                .split("::")
                .all(|p| p.is_empty() || crate::macros::name_len(p.as_bytes(), 0) == p.len())
    };
    let Some(first) = st.args.first() else {
        h.error_at(st.range, "expected a symbol");
        return;
    };
    let name = first.text().to_string();
    if name == "." {
        h.error_at(st.arg_range(0), "illegal symbol `.`");
        return;
    }
    if !is_name(&name) {
        h.error_at(st.arg_range(0), "expected a symbol");
        return;
    }
    let target = match st.args.get(1) {
        None => None,
        Some(a) => {
            let t = a.text().to_string();
            if !is_name(&t) || t == "." {
                h.error_at(st.arg_range(1), "illegal symbol name");
                return;
            }
            if t.ends_with("::.") {
                h.error_at(
                    st.arg_range(1),
                    "symbol `.` exists only in the global scope",
                );
                return;
            }
            Some(t)
        }
    };
    if !at_most(h, st, 2) {
        return;
    }
    let id = h.reference_target(&name);
    let full = h.symbol(id).name.clone();
    if full.contains("::") {
        h.error_at(st.arg_range(0), "symbol must be in the global scope");
        return;
    }
    let index = h.config().rocm.got_symbols.len();
    h.config_mut().rocm.got_symbols.push(full);
    let location = h.location(st.range);
    h.config_mut().rocm.got_location.get_or_insert(location);
    let got = match h.find_section(SectionKind::Got, Owner::Global) {
        Some(g) => g,
        None => h.create_section("", Owner::Global, SectionKind::Got),
    };
    h.section_mut(got).content.resize(8 * (index + 1), 0);
    if let Some(t) = target {
        let tid = h.definition_target(&t);
        let sym = h.symbol(tid);
        if sym.once_defined && sym.is_defined() {
            h.error_at(st.arg_range(1), format!("symbol `{t}` is already defined"));
            return;
        }
        h.set_symbol(
            tid,
            Value::Rel {
                section: got as u32,
                offset: 8 * index as i64,
            },
        );
    }
}

/// The argument's one NAME token, if that is all it is.
fn single_name(arg: &gcn_syntax::ast::Arg) -> Option<SyntaxToken> {
    let mut tokens = arg.raw_tokens();
    let first = tokens.next().filter(|t| t.kind() == SyntaxKind::NAME)?;
    tokens.next().is_none().then_some(first)
}

/// The kernel whose configuration section is current, for a descriptor pseudo-op; its
/// configuration is made if needed.
fn descriptor_kernel(h: &mut dyn Host, st: &Stmt) -> Option<usize> {
    let Some(k) = config_kernel(h) else {
        h.error_at(st.range, "illegal place of configuration pseudo-op");
        return None;
    };
    init_config(h, k);
    Some(k)
}

/// The kernel whose configuration section is current, for a metadata pseudo-op (there
/// must be no raw `.metadata`).
fn metadata_kernel(h: &mut dyn Host, st: &Stmt) -> Option<usize> {
    let Some(k) = config_kernel(h) else {
        h.error_at(st.range, "illegal place of configuration pseudo-op");
        return None;
    };
    if metadata_section_exists(h, st) {
        return None;
    }
    Some(k)
}

/// Reports (and is true) when a raw `.metadata` section exists.
fn metadata_section_exists(h: &mut dyn Host, st: &Stmt) -> bool {
    if h.find_section(SectionKind::Metadata, Owner::Global)
        .is_some()
    {
        h.error_at(
            st.range,
            "metadata config can't be defined if a metadata section exists",
        );
        return true;
    }
    false
}

fn set_metadata_info(h: &mut dyn Host) {
    h.config_mut().rocm.use_metadata_info = true;
}

/// The kernel has a descriptor from now on.
fn init_config(h: &mut dyn Host, k: usize) {
    let config = h.config_mut();
    config.kernels[k].kind = ConfigKind::Config;
    hsa_of(config, k);
}

fn config(h: &mut dyn Host, st: &Stmt) {
    let Some(k) = h.current_kernel() else {
        h.error_at(
            st.range,
            "kernel config can be defined only inside a kernel",
        );
        return;
    };
    if !no_args(h, st) {
        return;
    }
    if let Err(m) = h.enter_config() {
        h.error_at(st.range, m);
        return;
    }
    init_config(h, k);
}

fn control_directive(h: &mut dyn Host, st: &Stmt) {
    let Some(k) = h.current_kernel() else {
        h.error_at(
            st.range,
            "kernel control directive can be defined only inside a kernel",
        );
        return;
    };
    if !no_args(h, st) {
        return;
    }
    let index = match h.find_section(SectionKind::ControlDirective, Owner::Kernel(k)) {
        Some(i) => i,
        None => h.create_section("", Owner::Kernel(k), SectionKind::ControlDirective),
    };
    h.switch_to(index);
    init_config(h, k);
    let location = h.location(st.range);
    rocm_kernel(h, k)
        .control_directive_location
        .get_or_insert(location);
}

fn md_language(h: &mut dyn Host, st: &Stmt) {
    let Some(k) = metadata_kernel(h, st) else {
        return;
    };
    let language = string_arg(h, st, 0);
    let mut version = (0, 0);
    let mut good = language.is_some();
    if st.args.len() > 1 {
        for (i, slot) in [(1, &mut version.0), (2, &mut version.1)] {
            match value_arg(h, st, i) {
                Some(v) => {
                    warn_range(h, st.arg_range(i), 32, v);
                    *slot = v as u32;
                }
                None => good = false,
            }
        }
    }
    if !at_most(h, st, 3) || !good {
        return;
    }
    set_metadata_info(h);
    let m = &mut rocm_kernel(h, k).metadata;
    m.language = language.unwrap_or_default();
    // As in the reference, the version is written even when not given (0.0).
    m.language_version = Some(version);
}

fn metadata_value(h: &mut dyn Host, st: &Stmt) {
    let Some(k) = metadata_kernel(h, st) else {
        return;
    };
    let Some(v) = value_arg(h, st, 0) else { return };
    if !at_most(h, st, 1) {
        return;
    }
    let range = st.arg_range(0);
    let power_of_two = v > 0 && v & (v - 1) == 0;
    let gen = h.generation();
    let error = match st.id {
        Id::MdWavefrontSize if !power_of_two => {
            Some("wavefront size must be a power of two".to_string())
        }
        Id::MdWavefrontSize if v > 256 => {
            Some("wavefront size must not be greater than 256".to_string())
        }
        Id::MdKernargSegmentAlign if !power_of_two => {
            Some("alignment must be a power of two".to_string())
        }
        Id::MdSgprsnum if v as u64 > u64::from(gpu::max_sgprs(gen)) => Some(format!(
            "used SGPRs number out of range (0-{})",
            gpu::max_sgprs(gen)
        )),
        Id::MdVgprsnum if v as u64 > u64::from(gpu::MAX_VGPRS) => Some(format!(
            "used VGPRs number out of range (0-{})",
            gpu::MAX_VGPRS
        )),
        _ => None,
    };
    if let Some(e) = error {
        h.error_at(range, e);
        return;
    }
    set_metadata_info(h);
    let m = &mut rocm_kernel(h, k).metadata;
    let (v64, v32) = (v as u64, v as u32);
    match st.id {
        Id::MdGroupSegmentFixedSize => m.group_segment_fixed_size = Some(v64),
        Id::MdKernargSegmentAlign => m.kernarg_segment_align = Some(v64),
        Id::MdKernargSegmentSize => m.kernarg_segment_size = Some(v64),
        Id::MdPrivateSegmentFixedSize => m.private_segment_fixed_size = Some(v64),
        Id::MdSgprsnum => m.sgprs = Some(v32),
        Id::MdVgprsnum => m.vgprs = Some(v32),
        Id::MdWavefrontSize => m.wavefront_size = Some(v32),
        Id::Spilledsgprs => m.spilled_sgprs = Some(v32),
        Id::Spilledvgprs => m.spilled_vgprs = Some(v32),
        _ => m.max_flat_work_group_size = Some(v64),
    }
}

/// `.printf [ID], [ARGSIZE, …], "FORMAT"`.
fn printf(h: &mut dyn Host, st: &Stmt) {
    if metadata_section_exists(h, st) {
        return;
    }
    let args = st.args;
    let Some(last) = args.last().filter(|a| {
        a.raw_tokens()
            .next()
            .is_some_and(|t| t.kind() == SyntaxKind::STRING)
    }) else {
        h.error_at(st.range, "missing format string");
        return;
    };
    let _ = last;
    if args.len() < 2 {
        h.error_at(st.arg_range(1), "expected `,` and the format string");
        return;
    }
    let mut good = true;
    let id = match args.first().filter(|a| !a.is_empty()) {
        None => None,
        Some(a) => match expr_value(h, a) {
            Some(v) => {
                warn_range(h, st.arg_range(0), 32, v);
                Some(v as u32)
            }
            None => {
                good = false;
                None
            }
        },
    };
    let mut arg_sizes = Vec::new();
    for (i, a) in args.iter().enumerate().take(args.len() - 1).skip(1) {
        if a.is_empty() {
            h.error_at(st.arg_range(i), "expected an expression");
            good = false;
            continue;
        }
        match expr_value(h, a) {
            Some(v) => {
                warn_range(h, st.arg_range(i), 32, v);
                arg_sizes.push(v as u32);
            }
            None => good = false,
        }
    }
    let Some(token) =
        single_token(&args[args.len() - 1]).filter(|t| t.kind() == SyntaxKind::STRING)
    else {
        h.error_at(st.arg_range(args.len() - 1), "expected a string");
        return;
    };
    let format = match crate::literals::parse_string(token.text()) {
        Ok(bytes) => bytes,
        Err(m) => {
            h.error_at(token.text_range(), m);
            return;
        }
    };
    if !good {
        return;
    }
    set_metadata_info(h);
    h.config_mut().rocm.metadata.printfs.push(PrintfInfo {
        id,
        arg_sizes,
        format,
    });
}

fn single_token(arg: &gcn_syntax::ast::Arg) -> Option<SyntaxToken> {
    let mut tokens = arg.raw_tokens();
    let first = tokens.next()?;
    tokens.next().is_none().then_some(first)
}

/// `.arg [NAME], ["TYPENAME"], SIZE, [ALIGN], VALUEKIND, VALUETYPE[, POINTEEALIGN]
/// [, ADDRSPACE][, ACCQUAL][, ACTUALACCQUAL] [FLAG…]`.
fn arg(h: &mut dyn Host, st: &Stmt) {
    let Some(k) = metadata_kernel(h, st) else {
        return;
    };
    let args = st.args;
    let mut good = true;
    let mut i = 0;
    // The name.
    let name = match args.first().filter(|a| !a.is_empty()) {
        None => String::new(),
        Some(a) => match single_name(a) {
            Some(t) => t.text().to_string(),
            None => {
                h.error_at(st.arg_range(0), "expected an argument name");
                good = false;
                String::new()
            }
        },
    };
    i += 1;
    let missing = |h: &mut dyn Host, i: usize| {
        if args.len() <= i {
            h.error_at(st.arg_range(i), "expected `,` before argument");
            true
        } else {
            false
        }
    };
    if missing(h, i) {
        return;
    }
    // The type name, if a string.
    let mut type_name = String::new();
    if single_token(&args[i]).is_some_and(|t| t.kind() == SyntaxKind::STRING) {
        match string_arg(h, st, i) {
            Some(s) => type_name = s,
            None => good = false,
        }
        i += 1;
        if missing(h, i) {
            return;
        }
    }
    // The size.
    let size = if args[i].is_empty() {
        h.error_at(st.arg_range(i), "expected an expression");
        good = false;
        0
    } else {
        match expr_value(h, &args[i]) {
            Some(0) => {
                h.error_at(st.arg_range(i), "argument size is zero");
                good = false;
                0
            }
            Some(v) => v as u64,
            None => {
                good = false;
                0
            }
        }
    };
    i += 1;
    if missing(h, i) {
        return;
    }
    // The alignment, or in the LLVM 10 binary format the offset.
    let (mut align, mut offset) = (0, 0);
    if h.config().rocm.llvm10_bin_format.is_some() {
        match arg_offset(h, st, i) {
            Some(v) => offset = v,
            None => good = false,
        }
    } else {
        match arg_align(h, st, i, size) {
            Some(v) => align = v,
            None => good = false,
        }
    }
    i += 1;
    if missing(h, i) {
        return;
    }
    // Enumerations: a name first in the argument; flags may follow the last one (`rest`).
    let mut rest: Vec<SyntaxToken> = Vec::new();
    let word =
        |h: &mut dyn Host, i: usize, what: &str, rest: &mut Vec<SyntaxToken>| -> Option<String> {
            let mut tokens = args[i].raw_tokens();
            match tokens.next().filter(|t| t.kind() == SyntaxKind::NAME) {
                Some(t) => {
                    *rest = tokens.collect();
                    Some(t.text().to_ascii_lowercase())
                }
                None => {
                    h.error_at(st.arg_range(i), format!("expected {what}"));
                    rest.clear();
                    None
                }
            }
        };
    let kind = match word(h, i, "a value kind", &mut rest) {
        Some(w) => ValueKind::from_name(&w).or_else(|| {
            h.error_at(st.arg_range(i), "unknown value kind");
            None
        }),
        None => None,
    };
    let kind_rest = std::mem::take(&mut rest);
    if !kind_rest.is_empty() {
        h.error_at(kind_rest[0].text_range(), "expected `,` before argument");
        return;
    }
    i += 1;
    if missing(h, i) {
        return;
    }
    let value_type = match word(h, i, "a value type", &mut rest) {
        Some(w) => ValueType::from_name(&w).or_else(|| {
            h.error_at(st.arg_range(i), "unknown value type");
            None
        }),
        None => None,
    };
    let (Some(kind), Some(value_type)) = (kind, value_type) else {
        return;
    };
    let mut pointee_align = 0;
    let mut address_space = None;
    let mut access = AccessQual::Default;
    let mut actual_access = AccessQual::Default;
    if kind == ValueKind::DynSharedPtr {
        if !rest.is_empty() {
            h.error_at(rest[0].text_range(), "expected `,` before argument");
            return;
        }
        i += 1;
        if missing(h, i) {
            return;
        }
        match expr_value(h, &args[i]) {
            Some(v) if v > 0 && v & (v - 1) == 0 => pointee_align = v as u64,
            Some(_) => {
                h.error_at(
                    st.arg_range(i),
                    "argument pointee alignment is not a power of two",
                );
                good = false;
            }
            None => good = false,
        }
        rest.clear();
    }
    if matches!(kind, ValueKind::DynSharedPtr | ValueKind::GlobalBuffer) {
        if !rest.is_empty() {
            h.error_at(rest[0].text_range(), "expected `,` before argument");
            return;
        }
        i += 1;
        if missing(h, i) {
            return;
        }
        match word(h, i, "an address space", &mut rest) {
            Some(w) => match AddressSpace::from_name(&w) {
                Some(s) => address_space = Some(s),
                None => {
                    h.error_at(st.arg_range(i), "unknown address space");
                    good = false;
                }
            },
            None => good = false,
        }
    }
    let optional_access = |h: &mut dyn Host,
                           i: &mut usize,
                           rest: &mut Vec<SyntaxToken>,
                           out: &mut AccessQual|
     -> bool {
        if !rest.is_empty() || args.len() <= *i + 1 {
            return true;
        }
        *i += 1;
        let mut tokens = args[*i].raw_tokens();
        match tokens.next().filter(|t| t.kind() == SyntaxKind::NAME) {
            Some(t) => {
                *rest = tokens.collect();
                match AccessQual::from_name(&t.text().to_ascii_lowercase()) {
                    Some(q) => *out = q,
                    None => {
                        h.error_at(t.text_range(), "unknown access qualifier");
                        return false;
                    }
                }
            }
            None => {
                h.error_at(st.arg_range(*i), "expected an access qualifier");
                return false;
            }
        }
        true
    };
    if matches!(kind, ValueKind::Image | ValueKind::Pipe) {
        good &= optional_access(h, &mut i, &mut rest, &mut access);
    }
    if matches!(
        kind,
        ValueKind::GlobalBuffer | ValueKind::Image | ValueKind::Pipe
    ) {
        good &= optional_access(h, &mut i, &mut rest, &mut actual_access);
    }
    if args.len() > i + 1 {
        h.error_at(st.arg_range(i + 1), "garbage at end of line");
        return;
    }
    let (mut is_const, mut is_restrict, mut is_volatile, mut is_pipe) =
        (false, false, false, false);
    for t in &rest {
        let flag = match (t.kind(), t.text()) {
            (SyntaxKind::NAME, "const") => &mut is_const,
            (SyntaxKind::NAME, "restrict") => &mut is_restrict,
            (SyntaxKind::NAME, "volatile") => &mut is_volatile,
            (SyntaxKind::NAME, "pipe") => &mut is_pipe,
            (SyntaxKind::NAME, _) => {
                h.error_at(t.text_range(), "unknown argument flag");
                good = false;
                break;
            }
            _ => {
                h.error_at(t.text_range(), "some garbage at argument flag place");
                good = false;
                break;
            }
        };
        *flag = true;
    }
    if !good {
        return;
    }
    set_metadata_info(h);
    rocm_kernel(h, k).metadata.args.push(KernelArg {
        name,
        type_name,
        size,
        align,
        offset,
        pointee_align,
        kind,
        value_type,
        address_space,
        access,
        actual_access,
        is_const,
        is_restrict,
        is_volatile,
        is_pipe,
    });
}

/// The alignment `.arg`'s argument `i` gives, by default the size rounded up to a power
/// of two.
fn arg_align(h: &mut dyn Host, st: &Stmt, i: usize, size: u64) -> Option<u64> {
    if !st.args[i].is_empty() {
        return match expr_value(h, &st.args[i]) {
            Some(v) if v > 0 && v & (v - 1) == 0 => Some(v as u64),
            Some(_) => {
                h.error_at(st.arg_range(i), "argument alignment is not a power of two");
                None
            }
            None => None,
        };
    }
    let mut align = if size != 0 {
        1u64 << (63 - size.leading_zeros())
    } else {
        1
    };
    if size > align {
        align <<= 1;
    }
    Some(align)
}

/// The offset in the argument segment `.arg`'s argument `i` gives (LLVM 10 binary format).
fn arg_offset(h: &mut dyn Host, st: &Stmt, i: usize) -> Option<u64> {
    if st.args[i].is_empty() {
        h.error_at(
            st.arg_range(i),
            "an argument without its offset (LLVM10 binary format) is not supported yet",
        );
        return None;
    }
    expr_value(h, &st.args[i]).map(|v| v as u64)
}

// ---- the end of the source ------------------------------------------------------------

/// The end of a ROCm source: each kernel's descriptor over the start of its code, then
/// the code and the global data at the places the binary gives them (the expressions
/// that need them get their values).
pub(crate) fn finish(asm: &mut Asm) {
    if asm.layout.format != BinaryFormat::Rocm {
        return;
    }
    // The binary's writer reads the format in force, whichever way it was asked for.
    asm.layout.config.rocm.new_bin_format = new_bin_format(asm);
    let text = asm
        .layout
        .sections
        .iter()
        .position(|s| s.kind == SectionKind::Code && s.kernel.is_none());
    let mut llvm10_descriptors = Vec::new();
    let metadata = if let Some(llvm10_at) = asm.layout.config.rocm.llvm10_bin_format {
        let Some(descriptors) = checked_llvm10_kernels(asm, llvm10_at, text) else {
            return;
        };
        llvm10_descriptors = descriptors;
        llvm10_metadata_text(asm, &llvm10_descriptors)
    } else {
        if !v3_metadata_supported(asm) {
            return;
        }
        let offsets = write_descriptors(asm, text);
        metadata_text(asm, text, &offsets)
    };
    match metadata {
        Ok(m) => asm.layout.config.rocm.metadata_text = m,
        Err(message) => {
            kernel_error(asm, None, message);
            return;
        }
    }
    let (data, extra) = selected_symbols(asm);
    if section_diffs(asm) || !llvm10_descriptors.is_empty() {
        let placed = places(asm, text, &data, &extra);
        write_llvm10_descriptors(asm, &llvm10_descriptors, &placed, text);
        if section_diffs(asm) {
            asm.place_sections(placed);
        }
    }
    binary_symbols(asm, &data, &extra);
}

/// Writes the descriptors made from the kernels' configurations at the start of the
/// global data (kernel `k`'s at `64 * k`), each with the distance from it to its code.
fn write_llvm10_descriptors(
    asm: &mut Asm,
    descriptors: &[Llvm10Kernel],
    placed: &[(u32, i64)],
    text: Option<usize>,
) {
    let (Some(rodata), Some(text)) = (global_data(asm), text) else {
        return;
    };
    let place_of = |section: usize| {
        placed
            .iter()
            .find(|(s, _)| *s as usize == section)
            .map(|&(_, at)| at)
    };
    let (Some(rodata_at), Some(text_at)) = (place_of(rodata), place_of(text)) else {
        return;
    };
    for (k, kernel) in descriptors.iter().enumerate() {
        if !kernel.from_config {
            continue;
        }
        let slot = KERNEL_DESCRIPTOR_SIZE as usize * k;
        let mut d = kernel.descriptor;
        d.kernel_code_entry_byte_offset =
            text_at + kernel.code_offset as i64 - (rodata_at + slot as i64);
        asm.layout.patch_bytes(rodata, slot, &d.to_bytes());
    }
}

/// Writes each kernel's descriptor over the first 256 bytes of its code; the kernels'
/// offsets in `.text`.
fn write_descriptors(asm: &mut Asm, text: Option<usize>) -> Vec<Option<usize>> {
    let kernel_count = asm.layout.kernels.len();
    for k in 0..kernel_count {
        let control = asm
            .layout
            .find_kind(SectionKind::ControlDirective, Owner::Kernel(k));
        if control.is_some_and(|s| asm.layout.sections[s].content.len() != 128) {
            let name = asm.layout.kernels[k].name.clone();
            kernel_error(
                asm,
                Some(k),
                format!("section `.control_directive` for kernel `{name}` has the wrong size"),
            );
        }
    }
    for k in 0..kernel_count {
        if let Some(at) = asm
            .layout
            .config
            .rocm
            .kernels
            .get(k)
            .and_then(|r| r.rsrc3_location)
        {
            let message = "ignored: COMPUTE_PGM_RSRC3 has a place only in the LLVM10 binary format's kernel descriptor";
            asm.diag_at(
                at,
                Default::default(),
                Severity::Warning,
                message.to_string(),
            );
        }
    }
    let offsets: Vec<Option<usize>> = (0..kernel_count)
        .map(|k| kernel_offset(asm, k, text, 256))
        .collect();
    for (k, offset) in offsets.iter().enumerate() {
        let (Some(offset), Some(text)) = (*offset, text) else {
            continue;
        };
        if asm.layout.config.kernels[k].kind != ConfigKind::Config {
            continue;
        }
        let code = descriptor(asm, k);
        asm.layout.patch_bytes(text, offset, &code.to_bytes());
    }
    offsets
}

fn error_at(asm: &mut Asm, location: Location, message: String) {
    asm.diag_at(location, Default::default(), Severity::Error, message);
}

/// Outside the LLVM 10 format, v3 metadata made from the pseudo-ops is refused (the
/// reference's `.arg` gives alignments there, which the v3 metadata has no place for);
/// raw v3 metadata needs global data, as the reference's writer requires.
fn v3_metadata_supported(asm: &mut Asm) -> bool {
    let Some(at) = asm.layout.config.rocm.metadata_v3 else {
        return true;
    };
    if use_metadata_info(asm) {
        let message = "v3 metadata made from the pseudo-ops outside the LLVM10 binary format (`.llvm10binfmt`) is not supported yet";
        error_at(asm, at, message.to_string());
        return false;
    }
    if global_data(asm).is_none() {
        error_at(
            asm,
            at,
            "the v3 metadata requires global data (`.globaldata`)".to_string(),
        );
        return false;
    }
    true
}

/// The `.rodata` section (the global data), if the source has one.
fn global_data(asm: &Asm) -> Option<usize> {
    asm.layout
        .find(".rodata", Owner::Global)
        .filter(|&s| asm.layout.sections[s].kind == SectionKind::Data)
}

/// A kernel's descriptor in the LLVM 10 format and where its code starts in `.text`.
struct Llvm10Kernel {
    /// Made from the kernel's configuration (its entry offset still to be set), or the
    /// bytes the source wrote in the global data.
    descriptor: KernelDescriptor,
    from_config: bool,
    code_offset: usize,
}

/// Checks an LLVM 10 format source (`.llvm10binfmt` at `llvm10_at`) and gives each
/// kernel's descriptor; `None` after reporting what is wrong or not supported yet. The
/// descriptors take the first 64 bytes a kernel of the global data, in kernel order: a
/// kernel with a configuration gets its descriptor written there, one without keeps the
/// bytes the source wrote. The metadata made from the pseudo-ops must be v3, with the
/// values [`metadata_v3::REQUIRED`] names.
fn checked_llvm10_kernels(
    asm: &mut Asm,
    llvm10_at: Location,
    text: Option<usize>,
) -> Option<Vec<Llvm10Kernel>> {
    let errors = |asm: &Asm| {
        asm.diags
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .count()
    };
    let errors_before = errors(asm);
    let code_offsets = refuse_llvm10_kernel_settings(asm, text);
    if let Some(at) = asm.layout.config.rocm.got_location {
        error_at(
            asm,
            at,
            "a global offset table (`.gotsym`) in the LLVM10 binary format is not supported yet"
                .to_string(),
        );
    }
    check_llvm10_descriptors_space(asm, llvm10_at);
    if use_metadata_info(asm) {
        if asm.layout.config.rocm.metadata_v3.is_none() {
            let message = "YAML metadata made from the pseudo-ops in the LLVM10 binary format is not supported yet (add `.metadatav3`)";
            error_at(asm, llvm10_at, message.to_string());
        } else {
            check_v3_values(asm);
        }
    }
    if errors(asm) != errors_before {
        return None;
    }
    let rodata = global_data(asm)?;
    let mut kernels = Vec::new();
    for (k, code_offset) in code_offsets.into_iter().enumerate() {
        let from_config = asm.layout.config.kernels[k].kind == ConfigKind::Config;
        let descriptor = if from_config {
            llvm10_descriptor(asm, k)
        } else {
            let slot = KERNEL_DESCRIPTOR_SIZE as usize * k;
            let bytes =
                &asm.layout.sections[rodata].content[slot..slot + KERNEL_DESCRIPTOR_SIZE as usize];
            KernelDescriptor::of_bytes(bytes.try_into().expect("64 bytes"))
        };
        kernels.push(Llvm10Kernel {
            descriptor,
            from_config,
            code_offset: code_offset?,
        });
    }
    Some(kernels)
}

/// Refuses, in the LLVM 10 format, `.control_directive` (the descriptor has no place for
/// it) and `.fkernel`; gives where each kernel's code starts in `.text`.
fn refuse_llvm10_kernel_settings(asm: &mut Asm, text: Option<usize>) -> Vec<Option<usize>> {
    let mut offsets = Vec::new();
    for k in 0..asm.layout.kernels.len() {
        let fkernel_at = asm
            .layout
            .config
            .rocm
            .kernels
            .get(k)
            .and_then(|r| r.fkernel_location);
        if let Some(at) = asm
            .layout
            .config
            .rocm
            .kernels
            .get(k)
            .and_then(|r| r.control_directive_location)
        {
            error_at(
                asm,
                at,
                "the LLVM10 binary format's kernel descriptor has no control directive".to_string(),
            );
        }
        if let Some(at) = fkernel_at {
            error_at(
                asm,
                at,
                "function kernels (`.fkernel`) in the LLVM10 binary format are not supported yet"
                    .to_string(),
            );
        }
        offsets.push(kernel_offset(asm, k, text, 0));
    }
    offsets
}

/// The global data must have room for the kernels' 64-byte descriptors.
fn check_llvm10_descriptors_space(asm: &mut Asm, llvm10_at: Location) {
    let kernel_count = asm.layout.kernels.len();
    let needed = 64 * kernel_count;
    match global_data(asm).map(|r| asm.layout.sections[r].content.len()) {
        None => error_at(
            asm,
            llvm10_at,
            "the LLVM10 binary format requires global data (`.globaldata`)".to_string(),
        ),
        Some(len) if len < needed => {
            let message = format!(
                "the LLVM10 binary format keeps the {kernel_count} kernels' 64-byte descriptors at the start of the global data: \
                 it needs {needed} bytes there (`.fill {needed}, 1, 0`), it has {len}"
            );
            error_at(asm, llvm10_at, message);
        }
        Some(_) => {}
    }
}

/// Each kernel's v3 metadata must have the values whose defaults are not known here.
fn check_v3_values(asm: &mut Asm) {
    for k in 0..asm.layout.kernels.len() {
        let missing = asm
            .layout
            .config
            .rocm
            .kernels
            .get(k)
            .map_or(metadata_v3::REQUIRED.to_vec(), |r| {
                metadata_v3::missing_values(&r.metadata)
            });
        if !missing.is_empty() {
            let name = asm.layout.kernels[k].name.clone();
            kernel_error(
                asm,
                Some(k),
                metadata_v3::missing_list_message(&name, &missing),
            );
        }
    }
}

/// The metadata note of an LLVM 10 format binary: the raw `.metadata`, or the v3 metadata
/// made from the pseudo-ops with the descriptors' values.
fn llvm10_metadata_text(asm: &Asm, descriptors: &[Llvm10Kernel]) -> Result<Vec<u8>, String> {
    if !use_metadata_info(asm) {
        return Ok(raw_metadata(asm));
    }
    let empty = KernelMetadata::default();
    let kernels: Vec<_> = asm
        .layout
        .kernels
        .iter()
        .zip(descriptors)
        .enumerate()
        .map(|(k, (kernel, d))| {
            let m = asm
                .layout
                .config
                .rocm
                .kernels
                .get(k)
                .map_or(&empty, |r| &r.metadata);
            (kernel.name.as_str(), m, d.descriptor)
        })
        .collect();
    metadata_v3::msgpack(&asm.layout.config.rocm.metadata, &kernels)
}

fn kernel_error(asm: &mut Asm, k: Option<usize>, message: String) {
    let location = k
        .and_then(|k| asm.layout.config.kernels.get(k))
        .and_then(|c| c.location)
        .or(asm.layout.config.device_location)
        .or(asm.layout.config.format_location)
        .unwrap_or(crate::source::Location {
            file: crate::source::FileId(0),
            offset: 0,
        });
    asm.diag_at(location, Default::default(), Severity::Error, message);
}

/// Where kernel `k`'s code starts in `.text` (with its descriptor of `descriptor_size`
/// bytes, if any); reports what is wrong.
fn kernel_offset(
    asm: &mut Asm,
    k: usize,
    text: Option<usize>,
    descriptor_size: usize,
) -> Option<usize> {
    let name = asm.layout.kernels[k].name.clone();
    let value = asm
        .symbols
        .find_existing(&name)
        .map(|id| (asm.symbols.get(id).value, asm.symbols.get(id).is_defined()));
    let message = match value {
        None | Some((None, false)) => format!("symbol for kernel `{name}` is undefined"),
        Some((None, true)) => format!("symbol for kernel `{name}` is not resolved"),
        Some((Some(Value::Rel { section, offset }), _)) if Some(section as usize) == text => {
            let len = asm.layout.sections[section as usize].content.len();
            if offset >= 0 && offset as usize + descriptor_size <= len {
                return Some(offset as usize);
            }
            format!("code for kernel `{name}` is too small for configuration")
        }
        Some((Some(_), _)) => {
            format!("symbol for kernel `{name}` is defined for a section other than `.text`")
        }
    };
    kernel_error(asm, Some(k), message);
    None
}

/// Registers kernel `k`'s code uses (numbered SGPRs, VGPRs, special registers).
fn code_regs(asm: &Asm, k: usize) -> super::build::CodeRegs {
    super::build::code_regs_in(
        asm.target.gen,
        &asm.layout.sections,
        &asm.reg_usage,
        &asm.layout.code_regions,
        k,
    )
}

/// The SGPR and VGPR counts of a ROCm kernel descriptor that the source leaves out:
/// what the code and the setup need, SGPRs with VCC, FLAT_SCRATCH and XNACK_MASK.
pub(crate) fn default_regs(
    h: &gcn_formats::hsa::HsaConfig,
    gen: gcn_isa::Generation,
    regs: super::build::CodeRegs,
) -> (u32, u32) {
    let d = h.default_registers(gen, regs.sgprs, regs.vgprs, regs.extra);
    (d.sgprs, d.vgprs)
}

/// A kernel's register counts and program resource registers.
struct Resources {
    sgprs: u32,
    vgprs: u32,
    pgm_rsrc1: u32,
    pgm_rsrc2: u32,
}

/// Kernel `k`'s register counts (given, or what the code and the setup need) and
/// program resource registers, the same in both descriptors.
fn resources(asm: &Asm, k: usize, h: &gcn_formats::hsa::HsaConfig) -> Resources {
    let gen = asm.target.gen;
    let private_size = h.workitem_private_segment_size.unwrap_or(0);
    let group_size = h.workgroup_group_segment_size.unwrap_or(0);
    let user_sgprs = h.user_data_num.unwrap_or_else(|| h.user_sgprs_from_flags());
    let (default_sgprs, default_vgprs) = default_regs(h, gen, code_regs(asm, k));
    let sgprs = h.used_sgprs.unwrap_or(default_sgprs).max(1);
    let vgprs = h.used_vgprs.unwrap_or(default_vgprs).max(1);
    let (pgm_rsrc1, pgm_rsrc2) = h.rsrc.program_resources(
        gen,
        &gpu::RsrcLayout {
            vgprs,
            sgprs,
            user_data: user_sgprs,
            scratch: private_size != 0,
            dim_mask: Some(h.dim_mask),
            default_dims: None,
            // The new binary format keeps the LDS size in the descriptor only.
            lds_size: if new_bin_format(asm) { 0 } else { group_size },
            wave32: gen >= gcn_isa::Generation::Gcn1_5
                && h.sgpr_flags & sgpr_flags::WAVEFRONT_SIZE32 != 0,
        },
    );
    Resources {
        sgprs,
        vgprs,
        pgm_rsrc1,
        pgm_rsrc2,
    }
}

/// Kernel `k`'s descriptor in the LLVM 10 format, made from its configuration (its entry
/// offset is set once the sections have their places).
fn llvm10_descriptor(asm: &Asm, k: usize) -> KernelDescriptor {
    let h = asm.layout.config.kernels[k].hsa.clone().unwrap_or_default();
    let r = resources(asm, k, &h);
    KernelDescriptor {
        group_segment_fixed_size: h.workgroup_group_segment_size.unwrap_or(0),
        private_segment_fixed_size: h.workitem_private_segment_size.unwrap_or(0),
        kernel_code_entry_byte_offset: 0,
        pgm_rsrc3: h.rsrc.pgm_rsrc3(),
        pgm_rsrc1: r.pgm_rsrc1,
        pgm_rsrc2: r.pgm_rsrc2,
        kernel_code_properties: h.sgpr_flags,
    }
}

/// Kernel `k`'s finished descriptor: what the source set, the rest as the reference
/// computes it (register counts from the code, program resource registers, defaults).
fn descriptor(asm: &Asm, k: usize) -> KernelCode {
    let h = asm.layout.config.kernels[k].hsa.clone().unwrap_or_default();
    let rocm = &asm.layout.config.rocm;
    let arch = gpu::arch_version(asm.opts.device, ArchTable::OpenSource);
    let minor = asm.layout.config.arch_minor.unwrap_or(arch.minor);
    let stepping = asm.layout.config.arch_stepping.unwrap_or(arch.stepping);
    let args: &[KernelArg] = rocm.kernels.get(k).map_or(&[], |r| &r.metadata.args);
    let use_metadata = use_metadata_info(asm);
    let kernarg_segment_size = h.kernarg_segment_size.unwrap_or_else(|| {
        if use_metadata {
            metadata::kernel_arg_size(args)
        } else {
            0
        }
    });
    let private_size = h.workitem_private_segment_size.unwrap_or(0);
    let group_size = h.workgroup_group_segment_size.unwrap_or(0);
    let Resources {
        sgprs,
        vgprs,
        pgm_rsrc1,
        pgm_rsrc2,
    } = resources(asm, k, &h);
    let (code_major, code_minor) = h
        .code_version
        .unwrap_or((1, u32::from(new_bin_format(asm))));
    let machine = h
        .machine
        .unwrap_or((1, arch.major as u16, minor as u16, stepping as u16));
    let mut control_directive = h.control_directive;
    if let Some(s) = asm
        .layout
        .find_kind(SectionKind::ControlDirective, Owner::Kernel(k))
    {
        if let Ok(cd) = <[u8; 128]>::try_from(asm.layout.sections[s].content.as_slice()) {
            control_directive = cd;
        }
    }
    KernelCode {
        code_version_major: code_major,
        code_version_minor: code_minor,
        machine_kind: machine.0,
        machine_major: machine.1,
        machine_minor: machine.2,
        machine_stepping: machine.3,
        kernel_code_entry_offset: h.kernel_code_entry_offset.unwrap_or(256),
        kernel_code_prefetch_offset: h.kernel_code_prefetch_offset.unwrap_or(0),
        kernel_code_prefetch_size: h.kernel_code_prefetch_size.unwrap_or(0),
        max_scratch_backing_memory: h.max_scratch_backing_memory.unwrap_or(0),
        pgm_rsrc1,
        pgm_rsrc2,
        sgpr_flags: h.sgpr_flags,
        feature_flags: h.feature_flags,
        workitem_private_segment_size: private_size,
        workgroup_group_segment_size: group_size,
        gds_segment_size: h.gds_segment_size.unwrap_or(0),
        kernarg_segment_size,
        workgroup_fbarrier_count: h.workgroup_fbarrier_count.unwrap_or(0),
        wavefront_sgpr_count: h.wavefront_sgpr_count.unwrap_or(sgprs as u16),
        workitem_vgpr_count: h.workitem_vgpr_count.unwrap_or(vgprs as u16),
        reserved_vgpr_first: h.reserved_vgprs.map_or(0, |r| r.0),
        reserved_vgpr_count: h.reserved_vgprs.map_or(0, |r| r.1),
        reserved_sgpr_first: h.reserved_sgprs.map_or(0, |r| r.0),
        reserved_sgpr_count: h.reserved_sgprs.map_or(0, |r| r.1),
        debug_wavefront_private_segment_offset_sgpr: h
            .debug_wavefront_private_segment_offset_sgpr
            .unwrap_or(0),
        debug_private_segment_buffer_sgpr: h.debug_private_segment_buffer_sgpr.unwrap_or(0),
        kernarg_segment_align: h.kernarg_segment_align.unwrap_or(4),
        group_segment_align: h.group_segment_align.unwrap_or(4),
        private_segment_align: h.private_segment_align.unwrap_or(4),
        wavefront_size: h.wavefront_size.unwrap_or(6),
        call_convention: h.call_convention,
        runtime_loader_kernel_symbol: h.runtime_loader_kernel_symbol.unwrap_or(0),
        control_directive,
    }
}

/// Whether the metadata is made from the pseudo-ops: asked for by one of them, or by
/// default in the new binary format when there is no raw `.metadata`.
fn use_metadata_info(asm: &Asm) -> bool {
    let rocm = &asm.layout.config.rocm;
    rocm.use_metadata_info
        || (new_bin_format(asm)
            && asm
                .layout
                .find_kind(SectionKind::Metadata, Owner::Global)
                .is_none())
}

/// The metadata note's text: the raw `.metadata`, or the one made from the pseudo-ops.
fn metadata_text(
    asm: &Asm,
    text: Option<usize>,
    offsets: &[Option<usize>],
) -> Result<Vec<u8>, String> {
    if !use_metadata_info(asm) {
        return Ok(raw_metadata(asm));
    }
    let empty = KernelMetadata::default();
    let mut kernels = Vec::new();
    for (k, kernel) in asm.layout.kernels.iter().enumerate() {
        let (Some(text), Some(offset)) = (text, offsets[k]) else {
            return Err(format!(
                "kernel `{}` in metadata doesn't exist in code",
                kernel.name
            ));
        };
        let d = DescriptorValues::of_descriptor(
            &asm.layout.sections[text].content[offset..offset + 256],
        );
        let m = asm
            .layout
            .config
            .rocm
            .kernels
            .get(k)
            .map_or(&empty, |r| &r.metadata);
        kernels.push((kernel.name.as_str(), m, d));
    }
    metadata::yaml(&asm.layout.config.rocm.metadata, &kernels).map(String::into_bytes)
}

/// The raw `.metadata` section's bytes (none: empty).
fn raw_metadata(asm: &Asm) -> Vec<u8> {
    let raw = asm.layout.find_kind(SectionKind::Metadata, Owner::Global);
    raw.map(|s| asm.layout.sections[s].content.clone())
        .unwrap_or_default()
}

/// The target note's text: `.target`, else `.tripple` with the device (`-gfxXYZ`).
fn target_text(rocm: &RocmConfig, arch: gpu::ArchVersion) -> String {
    match (&rocm.target, &rocm.triple) {
        (Some(t), _) if !t.is_empty() => t.clone(),
        (_, Some(t)) if !t.is_empty() => {
            format!("{t}-gfx{}{}{}", arch.major, arch.minor, arch.stepping)
        }
        _ => String::new(),
    }
}

/// The architecture version of the binary's notes: the device's in the reference's ROCm
/// table (its descriptors' machine fields take the open-source one, as the reference's
/// assembler does), with `.arch_minor` and `.arch_stepping` applied.
fn arch_of(device: gcn_isa::Device, config: &super::FormatConfig) -> gpu::ArchVersion {
    let mut arch = gpu::arch_version(device, ArchTable::Rocm);
    arch.minor = config.arch_minor.unwrap_or(arch.minor);
    arch.stepping = config.arch_stepping.unwrap_or(arch.stepping);
    arch
}

/// What the ROCm writer needs, from a finished assembly.
pub(crate) fn binary_input(a: &crate::Assembly) -> Result<gcn_formats::rocm::Input, String> {
    use gcn_formats::rocm::{CodeSymbol, ExtraSection, Input, RegionKind};
    let config = &a.config;
    let rocm = &config.rocm;
    let device = config.snapshot.device.unwrap_or(gcn_isa::Device::CapeVerde);
    let arch = arch_of(device, config);
    let text = a
        .sections
        .iter()
        .position(|s| s.kind == SectionKind::Code && s.kernel.is_none());
    let global = |kind: SectionKind| {
        a.sections
            .iter()
            .find(|s| s.kind == kind && s.kernel.is_none() && !s.inner)
    };
    let mut symbols = Vec::new();
    for (k, name) in a.kernels.iter().enumerate() {
        // A label, or any symbol with a place in `.text` (`k = .`).
        let label = a
            .code_labels
            .iter()
            .rev()
            .find(|(n, _, _)| n == name)
            .map(|&(_, s, o)| (Some(s), o as i64));
        let symbol = || {
            a.symbols
                .iter()
                .find(|s| s.name == *name)
                .and_then(|s| s.value.map(|v| (s.section, v)))
        };
        let offset = match label.or_else(symbol) {
            Some((section, offset)) if section == text && text.is_some() => offset as u64,
            _ => return Err(format!("symbol for kernel `{name}` is undefined")),
        };
        let fkernel = rocm.kernels.get(k).is_some_and(|r| r.fkernel);
        symbols.push(CodeSymbol {
            name: name.clone(),
            offset,
            size: 0,
            kind: if fkernel {
                RegionKind::FKernel
            } else {
                RegionKind::Kernel
            },
        });
    }
    let mut all = rocm.data_symbols.clone();
    all.extend(symbols);
    Ok(Input {
        arch,
        eflags: rocm.eflags,
        new_bin_format: rocm.new_bin_format,
        llvm10_bin_format: rocm.llvm10_bin_format.is_some(),
        metadata_v3: rocm.metadata_v3.is_some(),
        target: target_text(rocm, arch),
        metadata: rocm.metadata_text.clone(),
        code: text
            .map(|t| a.sections[t].content.clone())
            .unwrap_or_default(),
        global_data: a
            .sections
            .iter()
            .find(|s| s.kind == SectionKind::Data && s.kernel.is_none() && s.name == ".rodata")
            .map(|s| s.content.clone()),
        comment: global(SectionKind::Comment).map(|s| s.content.clone()),
        symbols: all,
        extra_symbols: rocm.extra_symbols.clone(),
        got_symbols: rocm.got_indices.clone(),
        extra_sections: a
            .sections
            .iter()
            .filter(|s| s.kind == SectionKind::Extra && s.kernel.is_none())
            .map(|s| ExtraSection {
                name: s.name.clone(),
                data: s.content.clone(),
            })
            .collect(),
    })
}

/// The global symbols the binary lists besides the kernels, as the reference picks them
/// (only when there is a global offset table, or with `--forceAddSymbols`): the symbols
/// of the global scope named by `.gotsym` (all of them when forced), global or weak, not
/// kernels, in the iteration order of the reference's
/// symbol map. Those in `.text` are data of the code (listed before the kernels), the
/// others follow the kernels.
fn selected_symbols(asm: &Asm) -> (Vec<crate::symbols::SymId>, Vec<crate::symbols::SymId>) {
    use crate::symbols::Binding;
    let rocm = &asm.layout.config.rocm;
    let force = asm.opts.force_add_symbols;
    if rocm.got_symbols.is_empty() && !force {
        return (Vec::new(), Vec::new());
    }
    let text = asm
        .layout
        .sections
        .iter()
        .position(|s| s.kind == SectionKind::Code && s.kernel.is_none());
    let (mut data, mut extra) = (Vec::new(), Vec::new());
    for id in super::symorder::global_scope_in_map_order(&asm.symbols) {
        let s = asm.symbols.get(id);
        if (!force && !rocm.got_symbols.contains(&s.name))
            || !matches!(s.binding, Binding::Global | Binding::Weak)
            || asm.layout.kernels.iter().any(|k| k.name == s.name)
        {
            continue;
        }
        match s.value {
            Some(Value::Rel { section, .. }) if Some(section as usize) == text => data.push(id),
            Some(Value::Rel { section, .. }) => {
                let sect = &asm.layout.sections[section as usize];
                let placed = sect.kernel.is_none()
                    && matches!(
                        sect.kind,
                        SectionKind::Code
                            | SectionKind::Data
                            | SectionKind::Got
                            | SectionKind::Comment
                            | SectionKind::Extra
                    );
                if placed {
                    extra.push(id);
                }
            }
            _ => extra.push(id),
        }
    }
    (data, extra)
}

/// The binary's symbols, with their values now: data of the code, other global symbols,
/// and the global offset table's entries (indices into the data, the kernels and the
/// others, in that order). Reports the entries that cannot be made.
fn binary_symbols(asm: &mut Asm, data: &[crate::symbols::SymId], extra: &[crate::symbols::SymId]) {
    use crate::symbols::Binding;
    use gcn_formats::rocm::{CodeSymbol, ExtraSymbol, RegionKind, SymbolPlace};
    let mut code_symbols = Vec::new();
    for &id in data {
        let s = asm.symbols.get(id);
        let offset = match s.value {
            Some(Value::Rel { offset, .. }) => offset as u64,
            _ => 0,
        };
        code_symbols.push(CodeSymbol {
            name: s.name.clone(),
            offset,
            size: s.size.unwrap_or(0),
            kind: RegionKind::Data,
        });
    }
    let mut extra_symbols = Vec::new();
    for &id in extra {
        let s = asm.symbols.get(id);
        let bind: u8 = if s.binding == Binding::Weak { 2 } else { 1 };
        let (section, value) = match s.value {
            Some(Value::Rel { section, offset }) => {
                let sect = &asm.layout.sections[section as usize];
                let which = match sect.kind {
                    SectionKind::Code => SymbolPlace::Text,
                    SectionKind::Data if sect.name == ".rodata" => SymbolPlace::Rodata,
                    SectionKind::Got => SymbolPlace::Got,
                    SectionKind::Comment => SymbolPlace::Comment,
                    _ => {
                        let n = asm.layout.sections[..section as usize]
                            .iter()
                            .filter(|x| x.kind == SectionKind::Extra && x.kernel.is_none())
                            .count();
                        SymbolPlace::Extra(n)
                    }
                };
                (which, offset as u64)
            }
            Some(Value::Abs(v)) => (SymbolPlace::Abs, v as u64),
            None => (SymbolPlace::Abs, 0),
        };
        let kind = if section == SymbolPlace::Rodata { 1 } else { 0 };
        extra_symbols.push(ExtraSymbol {
            name: s.name.clone(),
            value,
            size: s.size.unwrap_or(0),
            place: section,
            info: (bind << 4) | kind,
            other: 0,
        });
    }
    let kernels: Vec<String> = asm.layout.kernels.iter().map(|k| k.name.clone()).collect();
    let mut got = Vec::new();
    let got_names = asm.layout.config.rocm.got_symbols.clone();
    for name in &got_names {
        let Some(id) = asm.symbols.find_existing(name) else {
            continue;
        };
        let s = asm.symbols.get(id);
        if s.value.is_none() {
            kernel_error(asm, None, format!("GOT symbol `{name}` is unresolved"));
            continue;
        }
        if s.binding != Binding::Global {
            kernel_error(
                asm,
                None,
                format!("GOT symbol `{name}` is not a global symbol"),
            );
            continue;
        }
        let position = code_symbols
            .iter()
            .map(|c| c.name.as_str())
            .chain(kernels.iter().map(String::as_str))
            .chain(extra_symbols.iter().map(|e| e.name.as_str()))
            .position(|n| n == name);
        match position {
            Some(p) => got.push(p),
            None => kernel_error(asm, None, format!("GOT symbol `{name}` not found")),
        }
    }
    let rocm = &mut asm.layout.config.rocm;
    rocm.data_symbols = code_symbols;
    rocm.extra_symbols = extra_symbols;
    rocm.got_indices = got;
}

/// The places (file offsets, which are also the addresses) the binary gives `.rodata`,
/// `.text` and the global offset table, from the writer's own layout: they depend on
/// everything before the code (notes, global data, dynamic symbols).
fn places(
    asm: &Asm,
    text: Option<usize>,
    data: &[crate::symbols::SymId],
    extra: &[crate::symbols::SymId],
) -> Vec<(u32, i64)> {
    use gcn_formats::rocm::{CodeSymbol, ExtraSymbol, Input, RegionKind, SymbolPlace};
    let rocm = &asm.layout.config.rocm;
    let arch = arch_of(asm.opts.device, &asm.layout.config);
    let symbol = |id: &crate::symbols::SymId| asm.symbols.get(*id).name.clone();
    let mut symbols: Vec<CodeSymbol> = data
        .iter()
        .map(|id| CodeSymbol {
            name: symbol(id),
            offset: 0,
            size: 0,
            kind: RegionKind::Data,
        })
        .collect();
    symbols.extend(asm.layout.kernels.iter().enumerate().map(|(k, kernel)| {
        let fkernel = rocm.kernels.get(k).is_some_and(|r| r.fkernel);
        let kind = if fkernel {
            RegionKind::FKernel
        } else {
            RegionKind::Kernel
        };
        CodeSymbol {
            name: kernel.name.clone(),
            offset: 0,
            size: 0,
            kind,
        }
    }));
    let extra_symbols = extra
        .iter()
        .map(|id| ExtraSymbol {
            name: symbol(id),
            value: 0,
            size: 0,
            place: SymbolPlace::Abs,
            info: 0,
            other: 0,
        })
        .collect();
    let rodata = global_data(asm);
    let got = asm.layout.find_kind(SectionKind::Got, Owner::Global);
    let input = Input {
        arch,
        new_bin_format: new_bin_format(asm),
        llvm10_bin_format: rocm.llvm10_bin_format.is_some(),
        metadata_v3: rocm.metadata_v3.is_some(),
        target: target_text(rocm, arch),
        metadata: rocm.metadata_text.clone(),
        code: vec![0; text.map_or(0, |t| asm.layout.sections[t].content.len())],
        global_data: rodata.map(|r| asm.layout.sections[r].content.clone()),
        symbols,
        extra_symbols,
        got_symbols: vec![0; rocm.got_symbols.len()],
        ..Input::default()
    };
    let at = gcn_formats::rocm::layout(&input);
    let mut placed = Vec::new();
    if let (Some(r), Some(o)) = (rodata, at.rodata) {
        placed.push((r as u32, o as i64));
    }
    if let Some(t) = text {
        placed.push((t as u32, at.text as i64));
    }
    if let (Some(g), Some(o)) = (got, at.got) {
        placed.push((g as u32, o as i64));
    }
    placed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::Options;
    use crate::{assemble, Assembly, Input};

    fn rocm(text: &str) -> Assembly {
        let opts = Options {
            format: BinaryFormat::Rocm,
            llvm_version: Some(30900),
            ..Options::default()
        };
        assemble(
            vec![Input {
                name: "test.s".into(),
                text: text.into(),
            }],
            opts,
        )
    }

    fn errors(a: &Assembly) -> Vec<String> {
        a.diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .map(|d| d.message.clone())
            .collect()
    }

    fn symbol(a: &Assembly, name: &str) -> Option<i64> {
        a.symbols
            .iter()
            .find(|s| s.name == name)
            .and_then(|s| s.value)
    }

    /// The metadata note of a binary of the reference (a conformance case), if there.
    fn reference_note(case: &str) -> Option<(String, Vec<u8>)> {
        // The corpus beside the repository, else its sample in the repository.
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let full = root.join("../shared/conformance/binaries").join(case);
        let dir = match full.is_dir() && std::env::var_os("CONFORMANCE_SAMPLE").is_none() {
            true => full,
            false => root
                .join("tests/data/conformance-sample/binaries")
                .join(case),
        };
        let input = std::fs::read_to_string(dir.join("input.s")).ok()?;
        let b = std::fs::read(dir.join("expected.bin")).ok()?;
        let u16_at = |o: usize| u16::from_le_bytes([b[o], b[o + 1]]) as usize;
        let u32_at = |o: usize| u32::from_le_bytes(b[o..o + 4].try_into().unwrap()) as usize;
        let u64_at = |o: usize| u64::from_le_bytes(b[o..o + 8].try_into().unwrap()) as usize;
        let (shoff, shnum) = (u64_at(0x28), u16_at(0x3c));
        for i in 0..shnum {
            let h = shoff + i * 64;
            if u32_at(h + 4) != 7 {
                continue;
            }
            let (mut o, end) = (u64_at(h + 24), u64_at(h + 24) + u64_at(h + 32));
            while o < end {
                let (namesz, descsz, ty) = (u32_at(o), u32_at(o + 4), u32_at(o + 8));
                let desc = o + 12 + ((namesz + 3) & !3);
                if ty == 10 {
                    return Some((input, b[desc..desc + descsz].to_vec()));
                }
                o = desc + ((descsz + 3) & !3);
            }
        }
        None
    }

    #[test]
    fn metadata_text_as_the_reference_writes_it() {
        // Cases of the conformance corpus whose binaries hold metadata made from the
        // pseudo-ops.
        let mut checked = 0;
        for case in ["rocm-fmt06", "rocm-fmt07", "rocm-fmt09"] {
            let Some((input, want)) = reference_note(case) else {
                continue;
            };
            let a = rocm(&input);
            assert_eq!(errors(&a), Vec::<String>::new(), "{case}");
            assert_eq!(
                String::from_utf8_lossy(&a.config.rocm.metadata_text),
                String::from_utf8_lossy(&want),
                "{case}"
            );
            checked += 1;
        }
        eprintln!("{checked} reference notes checked");
        assert!(checked > 0, "rocm-fmt06 is in the sample of the corpus");
    }

    #[test]
    fn code_and_global_data_places() {
        // New binary format: notes (with 1810 bytes of metadata) put `.rodata` at 2460,
        // `.text` at 4096 (as the reference's binary of this kernel).
        let src = ".rocm\n.gpu Iceland\n.eflags 2\n.newbinfmt\n.target \"amdgcn-amd-amdhsa-amdgizcl-gfx800\"\n\
            .md_version 1, 0\n.globaldata\ng1: .int 1,2,3,4,6\ng2: .int 5\n.kernel vectorAdd\n  .config\n    .dims x\n\
            .use_private_segment_buffer\n .use_dispatch_ptr\n .use_kernarg_segment_ptr\n .private_elem_size 4\n .use_ptr64\n\
            .md_language \"OpenCL\", 1, 2\n .arg n, \"uint\", 4, 4, value, u32\n\
            .arg a, \"float*\", 8, 8, globalbuf, f32, global, default const\n\
            .arg b, \"float*\", 8, 8, globalbuf, f32, global, default const\n\
            .arg c, \"float*\", 8, 8, globalbuf, f32, global, default\n\
            .arg , \"\", 8, 8, gox, i64\n.arg , \"\", 8, 8, goy, i64\n.arg , \"\", 8, 8, goz, i64\n\
            .text\nvectorAdd: .skip 256\n  s_mov_b32 s1, .-g2\n  s_branch vectorAdd + (vectorAdd-g2)\n\
            d = vectorAdd - g1\ne = d*2 - (g2 < vectorAdd)\n  s_endpgm\n";
        let a = rocm(src);
        assert_eq!(errors(&a), Vec::<String>::new());
        assert_eq!(a.config.rocm.metadata_text.len(), 1810);
        assert_eq!(symbol(&a, "d"), Some(4096 - 2460));
        assert_eq!(symbol(&a, "e"), Some(2 * 1636 + 1));
        let text = &a.sections[0].content;
        // The descriptor: code version 1.1 (new format), kernarg segment of 64 bytes.
        assert_eq!(&text[0..8], &[1, 0, 0, 0, 1, 0, 0, 0]);
        assert_eq!(&text[72..80], &64u64.to_le_bytes());
        // `.` is the instruction's start (256): 256 + 1636 - 20.
        assert_eq!(&text[260..264], &(256u32 + 1636 - 20).to_le_bytes());
        // The branch to vectorAdd + 1616 from 264.
        assert_eq!(&text[264..268], &[0x51, 0x01, 0x82, 0xbf]);
    }

    #[test]
    fn without_the_new_format_text_follows_the_headers() {
        // 7 program headers, no notes first: `.rodata` at 456.
        let a = rocm(".rocm\n.gpu Fiji\n.globaldata\ng: .byte 1\n.text\nx: s_endpgm\ny = x - g\n");
        assert_eq!(errors(&a), Vec::<String>::new());
        assert_eq!(symbol(&a, "y"), Some(4096 - 456));
    }

    #[test]
    fn new_format_from_the_command_line() {
        // `--newROCmBinFormat`: notes first (version, ISA, 34 bytes of metadata), as
        // `.newbinfmt` would.
        let opts = Options {
            format: BinaryFormat::Rocm,
            device: gcn_isa::Device::from_name("Fiji").unwrap(),
            new_rocm_bin_format: true,
            ..Options::default()
        };
        let text = ".globaldata\ng: .byte 1\n.text\nx: s_endpgm\ny = x - g\n";
        let a = assemble(
            vec![Input {
                name: "test.s".into(),
                text: text.into(),
            }],
            opts,
        );
        assert_eq!(errors(&a), Vec::<String>::new());
        assert_eq!(
            a.config.rocm.metadata_text,
            b"---\nVersion:         [ 1, 0 ]\n...\n"
        );
        assert_eq!(symbol(&a, "y"), Some(4096 - (512 + 24 + 44 + 52)));
    }

    #[test]
    fn kernel_symbols_are_checked() {
        let a = rocm(".rocm\n.kernel k\n  .config\n.text\nk: s_endpgm\n");
        assert_eq!(
            errors(&a),
            ["code for kernel `k` is too small for configuration"]
        );
        let a = rocm(".rocm\n.kernel k\n  .config\n.text\n s_endpgm\n");
        assert_eq!(errors(&a), ["symbol for kernel `k` is undefined"]);
        let a = rocm(".rocm\n.kernel k\n .config\n .dims x\n.text\n .dims x\n");
        assert!(errors(&a)
            .iter()
            .any(|e| e.contains("illegal place of configuration pseudo-op")));
    }

    #[test]
    fn got_and_forced_symbols() {
        let src =
            ".rocm\n.gpu Fiji\n.globaldata\ng: .int 1\n.global g, d, x\nx = 5\n.gotsym g, g.got\n\
            .kernel k\n .config\n.text\nk: .skip 256\n s_endpgm\nd: .int g.got - g\nl: .int 0\n";
        let a = rocm(src);
        assert_eq!(errors(&a), Vec::<String>::new());
        let names = |a: &Assembly| -> (Vec<String>, Vec<String>) {
            let r = &a.config.rocm;
            (
                r.data_symbols.iter().map(|s| s.name.clone()).collect(),
                r.extra_symbols.iter().map(|s| s.name.clone()).collect(),
            )
        };
        // Only the GOT's symbol is listed; its entry points at it (index 1: after `k`).
        assert_eq!(names(&a), (vec![], vec!["g".to_string()]));
        assert_eq!(a.config.rocm.got_indices, [1]);
        // `g.got - g`: the GOT follows `.dynamic` (8192), `.rodata` follows the headers.
        let d = a.sections[0].content[260..264].to_vec();
        let rodata = 64 + 7 * 56;
        assert_eq!(
            u32::from_le_bytes(d.try_into().unwrap()),
            8192 + 0x60 - rodata
        );
        // `--forceAddSymbols`: every global symbol (not the local `l`).
        let opts = Options {
            format: BinaryFormat::Rocm,
            force_add_symbols: true,
            ..Options::default()
        };
        let a = assemble(
            vec![Input {
                name: "test.s".into(),
                text: src.into(),
            }],
            opts,
        );
        assert_eq!(errors(&a), Vec::<String>::new());
        let (data, mut extra) = names(&a);
        extra.sort();
        assert_eq!(
            (data, extra),
            (
                vec!["d".to_string()],
                vec!["g".to_string(), "x".to_string()]
            )
        );
        let e = ".rocm\n.gotsym u\n.gotsym v\n.global v\n";
        let a = rocm(e);
        assert_eq!(
            errors(&a),
            [
                "GOT symbol `u` is unresolved",
                "GOT symbol `v` is unresolved"
            ]
        );
    }

    #[test]
    fn isa_note_and_descriptor_take_their_own_arch_tables() {
        // Tonga: 8.0.2 in the reference's ROCm table (the ISA note), 8.0.0 in the
        // open-source one (the descriptor's machine fields).
        let a = rocm(".rocm\n.gpu Tonga\n.kernel k\n .config\n.text\nk: .skip 256\n");
        assert_eq!(errors(&a), Vec::<String>::new());
        let bytes = a
            .binary()
            .unwrap_or_else(|e| panic!("{:?}", e.iter().map(|d| &d.message).collect::<Vec<_>>()));
        let isa = bytes
            .windows(4)
            .position(|w| w == [4, 0, 7, 0])
            .expect("the ISA note");
        let word = |o: usize| u32::from_le_bytes(bytes[o..o + 4].try_into().unwrap());
        assert_eq!((word(isa + 4), word(isa + 8), word(isa + 12)), (8, 0, 2));
        let text = &a.sections[0].content;
        let half = |o: usize| u16::from_le_bytes([text[o], text[o + 1]]);
        assert_eq!((half(8), half(10), half(12), half(14)), (1, 8, 0, 0));
    }

    #[test]
    fn control_directive_of_128_bytes() {
        let src = ".rocm\n.kernel k\n .config\n .control_directive\n .fill 128, 1, 7\n.text\nk: .skip 256\n";
        let a = rocm(src);
        assert_eq!(errors(&a), Vec::<String>::new());
        assert_eq!(&a.sections[0].content[128..256], &[7u8; 128][..]);
        let a = rocm(".rocm\n.kernel k\n .control_directive\n .byte 1\n.text\nk: .skip 256\n");
        assert_eq!(
            errors(&a),
            ["section `.control_directive` for kernel `k` has the wrong size"]
        );
    }
}
