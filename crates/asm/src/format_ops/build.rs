//! From an assembly to the bytes of a binary: the sections and the configuration the
//! format pseudo-ops kept become a `gcn-formats` input; register counts the source
//! leaves out come from the code.

use gcn_formats::gpu::{self, ExtraRegs};
use gcn_formats::{amd, amdcl2, gallium, rocm, FormatError};
use gcn_isa::{Device, Generation};

use super::{ConfigKind, FormatConfig, KernelConfig};
use crate::diag::{Diagnostic, Severity};
use crate::layout::{CodeRegion, Owner, Section, SectionKind};
use crate::options::BinaryFormat;
use crate::source::Location;
use crate::Assembly;

/// Reference policy by default (CLRX 0.1.9): `.sgprsnum` without VCC.
use crate::DEFAULT_POLICY;
/// Policy from which `.sgprsnum` counts every SGPR.
const POLICY_UNIFIED_SGPR_COUNT: u32 = 200;

/// What the binary writers need besides the sections: the state at the end of the
/// source, the versions and the code's registers per kernel.
#[derive(Debug, Clone, Default)]
pub struct Snapshot {
    pub device: Option<Device>,
    pub is64: bool,
    pub policy: Option<u32>,
    /// Driver (or Mesa) version in force at the end, defaults applied.
    pub driver_version: u32,
    pub llvm_version: u32,
    /// Code ownership by kernel labels and `.kcode`.
    pub code_regions: Vec<CodeRegion>,
    /// The symbols `-S` (`--forceAddSymbols`) adds (AMD OpenCL 1.2 and 2.0,
    /// GalliumCompute), in the reference's order.
    pub added_symbols: Vec<super::added_symbols::AddedSymbol>,
}

/// Registers the code of a kernel uses.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CodeRegs {
    pub sgprs: u32,
    pub vgprs: u32,
    pub extra: ExtraRegs,
}

/// Registers used by a kernel's code, from the core's register usage: the stretches
/// of code in the kernel's own sections, and in shared code sections those its labels
/// and `.kcode` give it.
fn code_regs(a: &Assembly, k: usize) -> CodeRegs {
    let gen = a
        .config
        .snapshot
        .device
        .map_or(Generation::Gcn1_0, |d| d.generation());
    code_regs_in(
        gen,
        &a.sections,
        &a.reg_usage,
        &a.config.snapshot.code_regions,
        k,
    )
}

/// [`code_regs`] from the parts of an assembly (also while it is being made).
pub(crate) fn code_regs_in(
    gen: Generation,
    sections: &[Section],
    reg_usage: &crate::regusage::RegUsage,
    regions: &[CodeRegion],
    k: usize,
) -> CodeRegs {
    let mut counts = crate::regusage::Counts::default();
    for seg in &reg_usage.segments {
        let owned = match sections.get(seg.section).and_then(|s| s.kernel) {
            Some(owner) => owner == k,
            None => regions
                .iter()
                .rev()
                .find(|r| r.section == seg.section && r.start <= seg.start && seg.start < r.end)
                .is_some_and(|r| r.kernels.contains(&k)),
        };
        if owned {
            counts.merge(&seg.counts);
        }
    }
    let addressable = gpu::max_sgprs(gen);
    let special = counts.special;
    CodeRegs {
        sgprs: counts.sgprs.min(addressable),
        vgprs: counts.vgprs,
        extra: ExtraRegs {
            vcc: special.vcc,
            flat_scratch: special.flat_scratch,
            xnack_mask: special.xnack_mask,
        },
    }
}

fn error(a: &Assembly, location: Option<Location>, message: impl Into<String>) -> Diagnostic {
    let _ = a;
    Diagnostic {
        severity: Severity::Error,
        location,
        len: 0,
        message: message.into(),
        origin: Vec::new(),
        suggestions: Vec::new(),
        suggestion_at: None,
    }
}

/// Warnings about what a kernel's `.pgmrsrc2` asks for and its binary does not get:
/// every non-HSA writer computes the USER_SGPR field (bits 1–5) from its own settings,
/// so a count written there that differs is lost, and the code reads its user data
/// and work-group ids from other SGPRs than the hardware fills.
pub(crate) fn setting_warnings(a: &Assembly) -> Vec<Diagnostic> {
    let mut out = user_sgpr_warnings(a);
    out.extend(wavefront_size_warnings(a));
    out
}

/// A `.pgmrsrc2` whose user SGPR count the writer replaces with another.
fn user_sgpr_warnings(a: &Assembly) -> Vec<Diagnostic> {
    let gen = device(a).generation();
    let llvm = a.config.snapshot.llvm_version;
    let mut out = Vec::new();
    for kc in &a.config.kernels {
        let Some(at) = kc.pgm_rsrc2_location else {
            continue;
        };
        let mut given_rsrc2 = kc.rsrc.pgm_rsrc2;
        let (computed, from) = match a.format {
            BinaryFormat::Rocm => {
                let Some(h) = &kc.hsa else { continue };
                given_rsrc2 = h.rsrc.pgm_rsrc2;
                let computed = h.user_data_num.unwrap_or_else(|| h.user_sgprs_from_flags());
                (
                    computed,
                    "`.userdatanum` or the HSA flags (`.use_kernarg_segment_ptr`, …) give",
                )
            }
            _ if kc.kind != ConfigKind::Config => continue,
            BinaryFormat::Amd => (
                gcn_formats::amd::user_sgprs(&kc.user_datas),
                "its `.userdata` declare them (2 when none does)",
            ),
            BinaryFormat::AmdCl2 => (
                amdcl2::user_sgprs(
                    gen,
                    kc.use_generic,
                    kc.use_enqueue,
                    kc.use_setup,
                    kc.use_args,
                ),
                "`.useargs`, `.usesetup`, `.useenqueue` and `.usegeneric` ask",
            ),
            BinaryFormat::Gallium => (
                gallium_user_data(kc, llvm),
                match kc.user_data_num {
                    Some(_) => "`.userdatanum` gives",
                    None if llvm >= 40000 => "its HSA flags (`.use_kernarg_segment_ptr`, …) ask",
                    None => "without `.userdatanum` before LLVM 4.0",
                },
            ),
            _ => continue,
        };
        let given = (given_rsrc2 >> 1) & 0x1f;
        if given != 0 && given != computed {
            out.push(Diagnostic {
                severity: Severity::Warning,
                ..error(
                    a,
                    Some(at),
                    format!(
                        "`.pgmrsrc2` asks for {given} user SGPRs (USER_SGPR, bits 1-5), but \
                         the writer sets that field itself: the binary gets {computed}, as \
                         {from}"
                    ),
                )
            });
        }
    }
    out
}

/// A ROCm `.wavefront_size` that is not the lanes the kernel runs: runtimes take them
/// from the wave32 bit of its code properties (`.use_wave32`, GCN 1.5 only), as LLVM
/// writes it beside the field. A disassembly by a CLRX that did not know the bit keeps
/// `.wavefront_size 32` alone, and reassembled, the kernel runs 64-lane waves.
fn wavefront_size_warnings(a: &Assembly) -> Vec<Diagnostic> {
    if a.format != BinaryFormat::Rocm {
        return Vec::new();
    }
    let gen = device(a).generation();
    let mut out = Vec::new();
    for kc in &a.config.kernels {
        let (Some(at), Some(h)) = (kc.wavefront_size_location, &kc.hsa) else {
            continue;
        };
        let Some(given) = h.wavefront_size else {
            continue;
        };
        let wave32 = h.sgpr_flags & gcn_formats::hsa::sgpr_flags::WAVEFRONT_SIZE32 != 0;
        let lanes_log2 = if wave32 && gen.is_gfx10() { 5 } else { 6 };
        if given == lanes_log2 {
            continue;
        }
        let size = 1u64.checked_shl(u32::from(given)).unwrap_or(0);
        let why = if wave32 && gen.is_gfx10() {
            "`.use_wave32` makes it run 32-lane waves".to_string()
        } else if !gen.is_gfx10() {
            format!("{} runs 64-lane waves only", gen.name())
        } else {
            let code = if a.wave32 {
                ""
            } else {
                ", and its code is assembled for 64 lanes"
            };
            format!(
                "without `.use_wave32` (the wave32 bit of its code properties, which \
                 runtimes read) it runs 64-lane waves{code}"
            )
        };
        out.push(Diagnostic {
            severity: Severity::Warning,
            ..error(
                a,
                Some(at),
                format!("`.wavefront_size {size}` is not what the kernel runs: {why}"),
            )
        });
    }
    out
}

/// Where an error about the binary as a whole is reported: where the device was chosen,
/// else where the format was, else the start of the first input.
fn binary_location(a: &Assembly) -> Option<Location> {
    a.config
        .device_location
        .or(a.config.format_location)
        .or(Some(Location {
            file: crate::source::FileId(0),
            offset: 0,
        }))
}

fn kernel_error(a: &Assembly, e: FormatError) -> Diagnostic {
    let location = match (&e.kernel, &e.symbol) {
        (Some(name), _) => a
            .kernels
            .iter()
            .position(|k| k == name)
            .and_then(|k| a.config.kernels.get(k))
            .and_then(|c| {
                // An error about one argument is at its `.arg`.
                e.argument
                    .and_then(|i| c.arg_locations.get(i).copied())
                    .or(c.location)
            }),
        (None, Some(name)) => a
            .config
            .snapshot
            .added_symbols
            .iter()
            .find(|s| &s.name == name)
            .and_then(|s| s.location),
        (None, None) => None,
    }
    .or_else(|| binary_location(a));
    let message = match &e.kernel {
        Some(k) => format!("kernel `{k}`: {}", e.message),
        None => e.message.clone(),
    };
    error(a, location, message)
}

pub(super) fn sections_of(
    a: &Assembly,
    owner: Owner,
    kind: SectionKind,
) -> impl Iterator<Item = &Section> {
    a.sections
        .iter()
        .filter(move |s| s.kind == kind && owner_of(s) == owner)
}

pub(super) fn owner_of(s: &Section) -> Owner {
    match (s.kernel, s.inner) {
        (Some(k), _) => Owner::Kernel(k),
        (None, true) => Owner::Inner,
        (None, false) => Owner::Global,
    }
}

fn content(a: &Assembly, owner: Owner, kind: SectionKind) -> Option<Vec<u8>> {
    sections_of(a, owner, kind)
        .next()
        .map(|s| s.content.clone())
}

/// Writes the binary of the assembly's format; errors are diagnostics.
pub(crate) fn binary(a: &Assembly) -> Result<Vec<u8>, Vec<Diagnostic>> {
    match a.format {
        BinaryFormat::Rawcode => Ok(a.raw_code()),
        BinaryFormat::Amd => build_amd(a),
        BinaryFormat::AmdCl2 => build_amdcl2(a),
        BinaryFormat::Gallium => build_gallium(a),
        BinaryFormat::Rocm => build_rocm(a),
    }
}

fn device(a: &Assembly) -> Device {
    a.config.snapshot.device.unwrap_or(Device::CapeVerde)
}

fn extra_sections(a: &Assembly, owner: Owner) -> Vec<(String, Vec<u8>)> {
    sections_of(a, owner, SectionKind::Extra)
        .map(|s| (s.name.clone(), s.content.clone()))
        .collect()
}

// ---- AMD OpenCL 1.2 ---------------------------------------------------------------------

fn build_amd(a: &Assembly) -> Result<Vec<u8>, Vec<Diagnostic>> {
    let device = device(a);
    let gen = device.generation();
    let snap = &a.config.snapshot;
    let config = &a.config;
    let global = a
        .sections
        .first()
        .map(|s| s.content.clone())
        .filter(|c| !c.is_empty());
    let (extra_symbols, mut kernel_symbols) = super::added_symbols::amd(a);
    let mut kernels = Vec::new();
    for (k, name) in a.kernels.iter().enumerate() {
        let kc = &config.kernels[k];
        let owner = Owner::Kernel(k);
        let setup = if kc.kind == ConfigKind::Config {
            amd::KernelSetup::Config(amd_config(kc, gen, code_regs(a, k)))
        } else {
            amd::KernelSetup::Raw {
                metadata: content(a, owner, SectionKind::Metadata).unwrap_or_default(),
                header: content(a, owner, SectionKind::AmdHeader).unwrap_or_default(),
                cal_notes: sections_of(a, owner, SectionKind::CalNote)
                    .map(|s| amd::CalNote {
                        note_type: s.note_type,
                        data: s.content.clone(),
                    })
                    .collect(),
            }
        };
        kernels.push(amd::KernelInput {
            name: name.clone(),
            setup,
            code: content(a, owner, SectionKind::Code).unwrap_or_default(),
            data: content(a, owner, SectionKind::Data),
            extra_sections: extra_sections(a, owner)
                .into_iter()
                .map(|(name, data)| amd::ExtraSection { name, data })
                .collect(),
            extra_symbols: std::mem::take(&mut kernel_symbols[k]),
        });
    }
    let input = amd::Input {
        is64: snap.is64,
        device,
        global_data: global,
        driver_version: snap.driver_version,
        driver_info: config.driver_info.clone().unwrap_or_default(),
        compile_options: config.compile_options.clone(),
        kernels,
        extra_sections: extra_sections(a, Owner::Global)
            .into_iter()
            .map(|(name, data)| amd::ExtraSection { name, data })
            .collect(),
        extra_symbols,
    };
    amd::write(&input).map_err(|errors| errors.into_iter().map(|e| kernel_error(a, e)).collect())
}

/// The SGPR and VGPR counts an AMD OpenCL 1.2 configuration gets when the source sets
/// none: what the code and the kernel's setup need (SGPRs without VCC).
/// The SGPRs and VGPRs an AMD OpenCL 1.2 kernel's setup fills with `user_sgprs` user
/// SGPRs: those, then work-group ids and the rest.
fn amd_setup(kc: &KernelConfig, user: &[(u32, Option<String>)]) -> Vec<gpu::SetupReg> {
    let dim_mask = kc.dim_mask.unwrap_or((kc.rsrc.pgm_rsrc2 >> 7) & 7);
    gpu::setup_layout(user, dim_mask, kc.rsrc.tg_size, kc.scratch_buffer != 0)
}

/// The user SGPRs an AMD OpenCL 1.2 kernel's setup fills, by its user data: each run
/// named by its data class and API slot, gaps unnamed (2 unnamed when none is
/// declared).
fn amd_user_runs(kc: &KernelConfig) -> Vec<(u32, Option<String>)> {
    let mut declared = kc.user_datas.clone();
    declared.sort_by_key(|u| u.reg_start);
    let mut runs = Vec::new();
    let mut next = 0;
    for u in &declared {
        if u.reg_start < next {
            // Overlapping user data: counted, not named.
            return vec![(gcn_formats::amd::user_sgprs(&kc.user_datas), None)];
        }
        runs.push((u.reg_start - next, None));
        let class = super::amd::data_class_name(u.data_class).unwrap_or("?");
        let what = format!("the user data `{class}` (API slot {})", u.api_slot);
        runs.push((u.reg_size, Some(what)));
        next = u.reg_start + u.reg_size;
    }
    if runs.is_empty() {
        runs.push((gcn_formats::amd::user_sgprs(&kc.user_datas), None));
    }
    runs
}

fn amd_default_regs(kc: &KernelConfig, gen: Generation, regs: CodeRegs) -> (u32, u32) {
    // The reference's default counts take the user data declared, none when there is
    // none (the binary then gets 2).
    let declared = gcn_formats::amd::declared_user_sgprs(&kc.user_datas);
    let (min_sgprs, min_vgprs) = gpu::setup_counts(&amd_setup(kc, &[(declared, None)]));
    (
        gpu::max_sgprs_without_vcc(gen).min(min_sgprs.max(regs.sgprs)),
        min_vgprs.max(regs.vgprs),
    )
}

fn amd_config(kc: &KernelConfig, gen: Generation, regs: CodeRegs) -> amd::KernelConfig {
    let (default_sgprs, default_vgprs) = amd_default_regs(kc, gen, regs);
    let used_sgprs = kc.sgprs.unwrap_or(default_sgprs);
    let used_vgprs = kc.vgprs.unwrap_or(default_vgprs);
    amd::KernelConfig {
        args: kc.args.clone(),
        samplers: kc.samplers.clone(),
        reqd_work_group_size: kc.cws,
        used_vgprs,
        used_sgprs,
        rsrc: kc.rsrc,
        hw_local_size: kc.local_size,
        hw_region: kc.hw_region,
        scratch_buffer_size: kc.scratch_buffer,
        uav_private: kc.uav_private,
        uav_id: kc.uav_id,
        const_buffer_id: kc.const_buffer_id,
        printf_id: kc.printf_id,
        private_id: kc.private_id,
        early_exit: kc.early_exit,
        cond_out: kc.cond_out,
        use_printf: kc.use_printf,
        use_const_data: kc.use_const_data,
        user_datas: kc.user_datas.clone(),
        dim_mask: kc.dim_mask,
    }
}

// ---- AMD OpenCL 2.0 ---------------------------------------------------------------------

fn cl2_config(kc: &KernelConfig) -> amdcl2::KernelConfig {
    amdcl2::KernelConfig {
        args: kc.args.clone(),
        samplers: kc.samplers.clone(),
        reqd_work_group_size: kc.cws,
        work_group_size_hint: kc.work_group_size_hint,
        vec_type_hint: kc.vec_type_hint.clone(),
        used_sgprs: kc.sgprs.unwrap_or(0),
        used_vgprs: kc.vgprs.unwrap_or(0),
        rsrc: kc.rsrc,
        local_size: kc.local_size as u32,
        gds_size: kc.gds_size,
        scratch_buffer_size: kc.scratch_buffer,
        dim_mask: kc.dim_mask,
        use_args: kc.use_args,
        use_setup: kc.use_setup,
        use_enqueue: kc.use_enqueue,
        use_generic: kc.use_generic,
    }
}

/// Where a kernel's symbol is: its section (`None` if absolute) and offset. Labels of
/// code sections are found by the labels the core kept (their symbols are absolute
/// where the section's addresses are its offsets).
fn symbol_in(a: &Assembly, name: &str) -> Option<(Option<usize>, i64)> {
    if let Some((_, section, offset)) = a.code_labels.iter().rev().find(|(n, _, _)| n == name) {
        return Some((Some(*section), *offset as i64));
    }
    a.symbols
        .iter()
        .find(|s| s.name == name)
        .and_then(|s| s.value.map(|v| (s.section, v)))
}

/// SGPRs an AMD OpenCL 2.0 configuration reserves beyond its count: VCC, and
/// FLAT_SCRATCH (and XNACK_MASK from GCN 1.2) for kernels that enqueue.
fn cl2_extra_sgprs(kc: &KernelConfig, gen: Generation) -> u32 {
    let needed_extra = if gen >= Generation::Gcn1_2 { 6 } else { 4 };
    if kc.use_enqueue || kc.use_generic {
        needed_extra
    } else {
        2
    }
}

/// The SGPR and VGPR counts an AMD OpenCL 2.0 configuration (`.config`) gets when the
/// source sets none: what the code and the setup need, SGPRs without the extra ones.
/// The SGPRs and VGPRs an AMD OpenCL 2.0 kernel's setup fills on `gen` (`.config`):
/// the user SGPRs its setup flags ask for (as the binary's PGM_RSRC2 counts them), then
/// work-group ids and the rest.
fn cl2_setup(kc: &KernelConfig, gen: Generation) -> Vec<gpu::SetupReg> {
    let user_sgprs = gcn_formats::amdcl2::user_sgprs(
        gen,
        kc.use_generic,
        kc.use_enqueue,
        kc.use_setup,
        kc.use_args,
    );
    let dim_mask = kc
        .dim_mask
        .unwrap_or_else(|| gpu::default_dim_mask(kc.rsrc.pgm_rsrc2));
    gpu::setup_layout(
        &cl2_user_runs(kc, gen, user_sgprs),
        dim_mask,
        kc.rsrc.tg_size,
        kc.scratch_buffer != 0,
    )
}

/// The user SGPRs of an AMD OpenCL 2.0 kernel, the pointers its ABI documents named:
/// the setup buffer's at s[4:5], the arguments' after it (at s[8:9] with generic
/// pointers), or at s[4:5] with arguments alone (before GCN 1.4).
fn cl2_user_runs(kc: &KernelConfig, gen: Generation, total: u32) -> Vec<(u32, Option<String>)> {
    let setup = || Some("the kernel setup buffer pointer".to_string());
    let args = || Some("the kernel argument pointer".to_string());
    let mut runs = if kc.use_generic {
        vec![(4, None), (2, setup()), (2, None), (2, args())]
    } else if kc.use_enqueue || kc.use_setup {
        vec![(4, None), (2, setup()), (2, args())]
    } else if kc.use_args && gen < Generation::Gcn1_4 {
        vec![(4, None), (2, args())]
    } else {
        Vec::new()
    };
    let named: u32 = runs.iter().map(|&(n, _)| n).sum();
    runs.push((total.saturating_sub(named), None));
    runs
}

fn cl2_default_regs(kc: &KernelConfig, gen: Generation, regs: CodeRegs) -> (u32, u32) {
    // The reference's default counts take the user SGPRs as before GCN 1.4 (two fewer
    // than the binary gets there).
    let (min_sgprs, min_vgprs) = gpu::setup_counts(&cl2_setup(kc, Generation::Gcn1_2));
    let max_total = gpu::max_sgprs(gen);
    (
        (max_total - cl2_extra_sgprs(kc, gen)).min(min_sgprs.max(regs.sgprs)),
        min_vgprs.max(regs.vgprs),
    )
}

fn build_amdcl2(a: &Assembly) -> Result<Vec<u8>, Vec<Diagnostic>> {
    let device = device(a);
    let gen = device.generation();
    let snap = &a.config.snapshot;
    let config = &a.config;
    let driver = snap.driver_version;
    let policy = snap.policy.unwrap_or(DEFAULT_POLICY);
    let max_total = gpu::max_sgprs(gen);
    let mut errors = Vec::new();
    let code_section = if config.hsa_layout {
        a.sections
            .iter()
            .position(|s| s.kind == SectionKind::Code && owner_of(s) == Owner::Inner)
    } else {
        None
    };
    let code = code_section.map(|i| a.sections[i].content.clone());
    let mut kernels = Vec::new();
    for (k, name) in a.kernels.iter().enumerate() {
        let kc = &config.kernels[k];
        let owner = Owner::Kernel(k);
        let regs = code_regs(a, k);
        let setup = match kc.kind {
            ConfigKind::None => amdcl2::KernelSetup::Raw {
                metadata: content(a, owner, SectionKind::Metadata).unwrap_or_default(),
                isa_metadata: content(a, owner, SectionKind::IsaMetadata),
                setup: content(a, owner, SectionKind::Setup)
                    .or_else(|| (!config.hsa_layout).then(Vec::new)),
                stub: content(a, owner, SectionKind::Stub).unwrap_or_default(),
            },
            ConfigKind::Config => {
                let mut c = cl2_config(kc);
                let (default_sgprs, default_vgprs) = cl2_default_regs(kc, gen, regs);
                let extra = cl2_extra_sgprs(kc, gen);
                c.used_sgprs = match kc.sgprs {
                    Some(s) => {
                        let s = if policy >= POLICY_UNIFIED_SGPR_COUNT {
                            s.max(extra) - extra
                        } else {
                            s
                        };
                        if max_total - extra < s {
                            errors.push(error(
                                a,
                                kc.location,
                                format!("number of total SGPRs for kernel `{name}` is too high (max {max_total})"),
                            ));
                        }
                        s
                    }
                    None => default_sgprs,
                };
                c.used_vgprs = kc.vgprs.unwrap_or(default_vgprs);
                amdcl2::KernelSetup::Config(c)
            }
            ConfigKind::Hsa => {
                let h = kc.hsa.clone().unwrap_or_default();
                if let Some(s) = h.used_sgprs {
                    if s > max_total {
                        errors.push(error(
                            a,
                            kc.location,
                            format!("number of total SGPRs for kernel `{name}` is too high (max {max_total})"),
                        ));
                    }
                }
                let mut h = h;
                if let Some(cd) = control_directive(a, k, &mut errors) {
                    h.control_directive = cd;
                }
                let finish = amdcl2::HsaFinish {
                    device,
                    is64: snap.is64,
                    driver_version: driver,
                    code_sgprs: regs.sgprs,
                    code_vgprs: regs.vgprs,
                    extra: regs.extra,
                    args: kc.args.clone(),
                };
                let code = amdcl2::finish_hsa(&h, &finish);
                amdcl2::KernelSetup::Hsa(cl2_config(kc), Box::new(code.to_bytes()))
            }
        };
        let mut input = amdcl2::KernelInput {
            name: name.clone(),
            setup,
            code: content(a, owner, SectionKind::Code).unwrap_or_default(),
            offset: 0,
            relocations: Vec::new(),
        };
        if let (Some(cs), Some(code)) = (code_section, &code) {
            match symbol_in(a, name) {
                Some((Some(s), v)) if s == cs => input.offset = v as u64,
                Some((_, _)) => errors.push(error(
                    a,
                    kc.location,
                    format!(
                        "symbol for kernel `{name}` is defined for a section other than `.text`"
                    ),
                )),
                None => errors.push(error(
                    a,
                    kc.location,
                    format!("symbol for kernel `{name}` is undefined"),
                )),
            }
            let _ = code;
        }
        kernels.push(input);
    }
    // Kernel code sizes in the HSA layout: up to the next kernel.
    if let Some(code) = &code {
        let mut order: Vec<usize> = (0..kernels.len()).collect();
        order.sort_by_key(|&i| kernels[i].offset);
        for (n, &i) in order.iter().enumerate() {
            let end = order
                .get(n + 1)
                .map_or(code.len() as u64, |&j| kernels[j].offset);
            let setup = match &kernels[i].setup {
                amdcl2::KernelSetup::Raw { setup: Some(s), .. } => s.len() as u64,
                _ => 256,
            };
            let start = kernels[i].offset + setup;
            if end < start {
                let kc = &config.kernels[i];
                errors.push(error(
                    a,
                    kc.location,
                    format!("kernel `{}` size is too small", kernels[i].name),
                ));
                continue;
            }
            kernels[i].code = code[start as usize..end as usize].to_vec();
        }
    }
    // Relocations.
    let mut relocations = Vec::new();
    for r in &config.relocations {
        let symbol = match a.sections[r.target].kind {
            SectionKind::RwData => 1,
            SectionKind::Bss => 2,
            _ => 0,
        };
        let rel = amdcl2::Reloc {
            offset: r.offset as u64,
            high: r.high,
            symbol,
            addend: r.addend as u64,
        };
        match a.sections[r.section].kernel {
            Some(k) if !config.hsa_layout => kernels[k].relocations.push(rel),
            _ => relocations.push(rel),
        }
    }
    for k in &mut kernels {
        k.relocations.sort_by_key(|r| r.offset);
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let (extra_symbols, inner_extra_symbols) = super::added_symbols::amdcl2(a);
    let input = amdcl2::Input {
        is64: snap.is64,
        device,
        arch_minor: config.arch_minor,
        arch_stepping: config.arch_stepping,
        driver_version: driver,
        compile_options: config.compile_options.clone(),
        acl_version: config.acl_version.clone(),
        global_data: content(a, Owner::Inner, SectionKind::Data).unwrap_or_default(),
        rw_data: content(a, Owner::Inner, SectionKind::RwData).unwrap_or_default(),
        bss_size: sections_of(a, Owner::Inner, SectionKind::Bss)
            .next()
            .map_or(0, |s| s.content.len() as u64),
        bss_align: sections_of(a, Owner::Inner, SectionKind::Bss)
            .next()
            .map_or(0, |s| s.align),
        sampler_init: content(a, Owner::Inner, SectionKind::SamplerInit).unwrap_or_default(),
        samplers: config.samplers.clone().unwrap_or_default(),
        sampler_config: config.samplers.is_some(),
        sampler_offsets: config
            .sampler_offsets
            .iter()
            .map(|o| o.unwrap_or(0))
            .collect(),
        kernels,
        code,
        relocations,
        extra_sections: extra_sections(a, Owner::Global)
            .into_iter()
            .map(|(name, data)| amdcl2::ExtraSection { name, data })
            .collect(),
        inner_extra_sections: extra_sections(a, Owner::Inner)
            .into_iter()
            .map(|(name, data)| amdcl2::ExtraSection { name, data })
            .collect(),
        extra_symbols,
        inner_extra_symbols,
    };
    amdcl2::write(&input).map_err(|errors| errors.into_iter().map(|e| kernel_error(a, e)).collect())
}

/// A kernel's `.control_directive` content; reported unless it is 128 bytes.
fn control_directive(a: &Assembly, k: usize, errors: &mut Vec<Diagnostic>) -> Option<[u8; 128]> {
    let s = sections_of(a, Owner::Kernel(k), SectionKind::ControlDirective).next()?;
    match <[u8; 128]>::try_from(s.content.as_slice()) {
        Ok(cd) => Some(cd),
        Err(_) => {
            errors.push(error(
                a,
                a.config.kernels[k].location,
                format!(
                    "section `.control_directive` for kernel `{}` has the wrong size",
                    a.kernels[k]
                ),
            ));
            None
        }
    }
}

// ---- GalliumCompute ------------------------------------------------------------------------

/// The user SGPRs of a GalliumCompute configuration: `.userdatanum`, else 4 (from LLVM
/// 4.0, those the HSA flags enable).
fn gallium_user_data(kc: &KernelConfig, llvm: u32) -> u32 {
    match kc.user_data_num {
        Some(n) => n,
        None if llvm >= 40000 => kc.hsa.as_ref().map_or(0, |h| h.user_sgprs_from_flags()),
        None => 4,
    }
}

/// The SGPR and VGPR counts a GalliumCompute configuration gets when the source sets
/// none: what the code and the setup need, SGPRs with VCC, FLAT_SCRATCH and XNACK_MASK.
/// The SGPRs and VGPRs a GalliumCompute kernel's setup fills.
fn gallium_setup(kc: &KernelConfig, llvm: u32) -> Vec<gpu::SetupReg> {
    let dim_mask = kc
        .dim_mask
        .unwrap_or_else(|| gpu::default_dim_mask(kc.rsrc.pgm_rsrc2));
    gpu::setup_layout(
        &gallium_user_runs(kc, llvm),
        dim_mask,
        kc.rsrc.tg_size,
        kc.scratch_buffer != 0,
    )
}

/// The user SGPRs of a GalliumCompute kernel: from LLVM 4.0 those its HSA flags enable,
/// before it the argument list's and the scratch addresses (the 4 of the default).
fn gallium_user_runs(kc: &KernelConfig, llvm: u32) -> Vec<(u32, Option<String>)> {
    let total = gallium_user_data(kc, llvm);
    if kc.user_data_num.is_none() && llvm >= 40000 {
        if let Some(h) = &kc.hsa {
            return h
                .user_sgprs_by_flags()
                .into_iter()
                .map(|(n, what)| (n, what.map(str::to_string)))
                .collect();
        }
    }
    if total == 4 {
        return vec![
            (
                2,
                Some("the argument list and kernel setup address".to_string()),
            ),
            (2, Some("the scratch address".to_string())),
        ];
    }
    vec![(total, None)]
}

fn gallium_default_regs(
    kc: &KernelConfig,
    gen: Generation,
    llvm: u32,
    regs: CodeRegs,
) -> (u32, u32) {
    let (min_sgprs, min_vgprs) = gpu::setup_counts(&gallium_setup(kc, llvm));
    let mut extra = regs.extra;
    extra.vcc = true;
    if llvm >= 40000 {
        if let Some(h) = &kc.hsa {
            extra.flat_scratch |=
                h.sgpr_flags & gcn_formats::hsa::sgpr_flags::FLAT_SCRATCH_INIT != 0;
            extra.xnack_mask |=
                h.feature_flags & gcn_formats::hsa::feature_flags::XNACK_ENABLED != 0;
        }
    }
    let sgprs = (min_sgprs.max(regs.sgprs) + gpu::extra_sgprs(gen, extra)).min(gpu::max_sgprs(gen));
    (sgprs, min_vgprs.max(regs.vgprs))
}

/// Whether the program runs with XNACK on, page faults replayed, which its soft
/// clauses must allow for: a kernel's configuration says so (`.use_xnack_enabled`), or
/// a ROCm target names the feature (`.target "amdgcn-amd-amdhsa--gfx902+xnack"`, or
/// `gfx902:xnack+` as later LLVM writes it).
pub(crate) fn xnack_enabled(a: &Assembly) -> bool {
    let configured = a.config.kernels.iter().any(|kc| {
        kc.hsa
            .as_ref()
            .is_some_and(|h| h.feature_flags & gcn_formats::hsa::feature_flags::XNACK_ENABLED != 0)
    });
    let target = a.format == BinaryFormat::Rocm
        && a.config
            .rocm
            .target
            .as_deref()
            .is_some_and(|t| t.contains("+xnack") || t.contains("xnack+"));
    configured || target
}

/// For each kernel, what its setup fills before its code starts (from s0 and v0), as
/// the binary gets it; `None` for a kernel with no configuration, or one these do not
/// cover.
pub(crate) fn config_setup(a: &Assembly) -> Vec<Option<Vec<gpu::SetupReg>>> {
    let llvm = a.config.snapshot.llvm_version;
    let gen = device(a).generation();
    (0..a.kernels.len())
        .map(|k| {
            let kc = a.config.kernels.get(k)?;
            if a.format == BinaryFormat::Rocm || kc.kind == ConfigKind::Hsa {
                return Some(kc.hsa.clone().unwrap_or_default().setup_layout());
            }
            match (a.format, kc.kind) {
                (BinaryFormat::Amd, ConfigKind::Config) => Some(amd_setup(kc, &amd_user_runs(kc))),
                (BinaryFormat::AmdCl2, ConfigKind::Config) => {
                    let mut setup = cl2_setup(kc, gen);
                    if kc.use_enqueue {
                        // With enqueue the binary asks for all three work-item ids.
                        setup.retain(|r| !r.vgpr);
                        for (v, axis) in ["x", "y", "z"].into_iter().enumerate() {
                            setup.push(gpu::SetupReg {
                                vgpr: true,
                                first: v as u32,
                                count: 1,
                                what: format!("the work-item id {axis}"),
                            });
                        }
                    }
                    Some(setup)
                }
                (BinaryFormat::Gallium, ConfigKind::Config) => Some(gallium_setup(kc, llvm)),
                _ => None,
            }
        })
        .collect()
}

/// The register counts of a kernel's configuration.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ConfigRegs {
    pub sgprs: Option<u32>,
    pub vgprs: Option<u32>,
    /// Whether `sgprs` counts VCC, FLAT_SCRATCH and XNACK_MASK.
    pub sgprs_with_extra: bool,
    /// Whether the source set `.sgprsnum` / `.vgprsnum` (else they are the writer's).
    pub sgprs_given: bool,
    pub vgprs_given: bool,
}

/// For each kernel, the `.sgprsnum` and `.vgprsnum` of its configuration in the terms of
/// its format (AMD OpenCL 1.2 and 2.0 `.config` count SGPRs without VCC, FLAT_SCRATCH and
/// XNACK_MASK; GalliumCompute with them): what the source sets, else the value the
/// binary writer puts in the binary. `None` for a kernel the writer sets no count for
/// here (no configuration, or one these defaults do not cover).
pub(crate) fn config_reg_counts(a: &Assembly) -> Vec<ConfigRegs> {
    let gen = device(a).generation();
    let llvm = a.config.snapshot.llvm_version;
    (0..a.kernels.len())
        .map(|k| {
            let Some(kc) = a.config.kernels.get(k) else {
                return ConfigRegs {
                    sgprs: None,
                    vgprs: None,
                    sgprs_with_extra: true,
                    sgprs_given: false,
                    vgprs_given: false,
                };
            };
            let defaults = match (a.format, kc.kind) {
                (BinaryFormat::Amd, ConfigKind::Config) => {
                    Some(amd_default_regs(kc, gen, code_regs(a, k)))
                }
                (BinaryFormat::AmdCl2, ConfigKind::Config) => {
                    Some(cl2_default_regs(kc, gen, code_regs(a, k)))
                }
                (BinaryFormat::Gallium, ConfigKind::Config) => {
                    Some(gallium_default_regs(kc, gen, llvm, code_regs(a, k)))
                }
                _ => None,
            };
            // ROCm's kernel configuration and AMD OpenCL 2.0's `.hsaconfig` are HSA
            // kernel descriptors, whose SGPR count includes the extra SGPRs.
            if a.format == BinaryFormat::Rocm || kc.kind == ConfigKind::Hsa {
                let h = kc.hsa.clone().unwrap_or_default();
                let (sgprs, vgprs) = super::rocm::default_regs(&h, gen, code_regs(a, k));
                return ConfigRegs {
                    sgprs: Some(h.used_sgprs.unwrap_or(sgprs)),
                    vgprs: Some(h.used_vgprs.unwrap_or(vgprs)),
                    sgprs_with_extra: true,
                    sgprs_given: h.used_sgprs.is_some(),
                    vgprs_given: h.used_vgprs.is_some(),
                };
            }
            let old_config = matches!(a.format, BinaryFormat::Amd | BinaryFormat::AmdCl2)
                && kc.kind == ConfigKind::Config;
            ConfigRegs {
                sgprs: kc.sgprs.or(defaults.map(|d| d.0)),
                vgprs: kc.vgprs.or(defaults.map(|d| d.1)),
                sgprs_with_extra: !old_config,
                sgprs_given: kc.sgprs.is_some(),
                vgprs_given: kc.vgprs.is_some(),
            }
        })
        .collect()
}

fn build_gallium(a: &Assembly) -> Result<Vec<u8>, Vec<Diagnostic>> {
    let device = device(a);
    let gen = device.generation();
    let snap = &a.config.snapshot;
    let config = &a.config;
    let llvm = snap.llvm_version;
    let max_sgprs = gpu::max_sgprs(gen);
    let mut errors = Vec::new();
    let code_section = a
        .sections
        .iter()
        .position(|s| s.kind == SectionKind::Code && s.kernel.is_none());
    let mut code = code_section
        .map(|i| a.sections[i].content.clone())
        .unwrap_or_default();
    let mut kernels = Vec::new();
    for (k, name) in a.kernels.iter().enumerate() {
        let kc = &config.kernels[k];
        let mut resolved = None;
        let prog_info = if kc.kind == ConfigKind::Config {
            let user_data = gallium_user_data(kc, llvm);
            if let Some(s) = kc.sgprs {
                if s > max_sgprs {
                    errors.push(error(
                        a,
                        kc.location,
                        format!("number of total SGPRs for kernel `{name}` is too high (max {max_sgprs})"),
                    ));
                }
            }
            let (default_sgprs, default_vgprs) =
                gallium_default_regs(kc, gen, llvm, code_regs(a, k));
            let used_sgprs = kc.sgprs.unwrap_or(default_sgprs);
            let used_vgprs = kc.vgprs.unwrap_or(default_vgprs);
            let c = gallium::KernelConfig {
                dim_mask: kc.dim_mask,
                used_sgprs,
                used_vgprs,
                rsrc: kc.rsrc,
                local_size: kc.local_size as u32,
                scratch_buffer_size: kc.scratch_buffer,
                user_data_num: user_data,
                spilled_sgprs: kc.spilled_sgprs,
                spilled_vgprs: kc.spilled_vgprs,
            };
            resolved = Some(c.clone());
            gallium::ProgInfo::Config(c)
        } else {
            let mut entries = vec![
                (0xb848, 0x000c_0000),
                (0xb84c, 0x0000_1788),
                (0xb860, 0),
                (0, 0),
                (0, 0),
            ];
            for (i, &e) in kc.prog_info.iter().enumerate() {
                entries[i] = e;
            }
            gallium::ProgInfo::Raw(entries)
        };
        let mut offset = 0u32;
        match symbol_in(a, name) {
            Some((Some(s), v)) if Some(s) == code_section => offset = v as u32,
            Some((_, _)) => errors.push(error(
                a,
                kc.location,
                format!("symbol for kernel `{name}` is defined for a section other than `.text`"),
            )),
            None => errors.push(error(
                a,
                kc.location,
                format!("symbol for kernel `{name}` is undefined"),
            )),
        }
        if let (Some(c), true) = (&resolved, llvm >= 40000) {
            let mut h = kc.hsa.clone();
            if let Some(cd) = control_directive(a, k, &mut errors) {
                h.get_or_insert_with(Default::default).control_directive = cd;
            }
            let finish = gallium::HsaFinish {
                device,
                arch_minor: config.arch_minor,
                arch_stepping: config.arch_stepping,
                args: &kc.gallium_args,
            };
            let kernel_code = gallium::finish_hsa(h.as_ref(), c, &finish).to_bytes();
            let at = offset as usize;
            if code.len() >= at + 256 {
                code[at..at + 256].copy_from_slice(&kernel_code);
            } else {
                errors.push(error(
                    a,
                    kc.location,
                    format!("HSA configuration for kernel `{name}` out of content"),
                ));
            }
        }
        kernels.push(gallium::KernelInput {
            name: name.clone(),
            offset,
            args: kc.gallium_args.clone(),
            prog_info,
        });
    }
    let mut scratch_relocs = Vec::new();
    for r in &config.relocations {
        scratch_relocs.push(gallium::ScratchReloc {
            offset: r.offset as u64,
            high: r.high,
        });
    }
    let extra_symbols = super::added_symbols::gallium(a, binary_location(a)).unwrap_or_else(|e| {
        errors.extend(e);
        Vec::new()
    });
    if !errors.is_empty() {
        return Err(errors);
    }
    let input = gallium::Input {
        is64: snap.is64,
        device,
        code,
        global_data: content(a, Owner::Global, SectionKind::Data),
        comment: content(a, Owner::Global, SectionKind::Comment),
        kernels,
        scratch_relocs,
        extra_sections: extra_sections(a, Owner::Global)
            .into_iter()
            .map(|(name, data)| gallium::ExtraSection { name, data })
            .collect(),
        extra_symbols,
        mesa170: snap.driver_version >= 170000,
        llvm390: llvm >= 30900,
    };
    gallium::write(&input)
        .map_err(|errors| errors.into_iter().map(|e| kernel_error(a, e)).collect())
}

// ---- ROCm -------------------------------------------------------------------------------

/// The ROCm code object. The descriptors are already in the code (written at the end of
/// the source, see `format_ops::rocm::finish`), and so is the metadata text.
fn build_rocm(a: &Assembly) -> Result<Vec<u8>, Vec<Diagnostic>> {
    let input = super::rocm::binary_input(a).map_err(|m| vec![error(a, binary_location(a), m)])?;
    rocm::write(&input).map_err(|e| vec![kernel_error(a, e)])
}

impl Assembly {
    /// The binary in the assembly's format, or the errors that prevent it.
    pub fn binary(&self) -> Result<Vec<u8>, Vec<Diagnostic>> {
        binary(self)
    }
}

/// The configuration carried to the assembly.
pub(crate) fn snapshot(asm: &crate::assembler::Asm) -> Snapshot {
    Snapshot {
        device: Some(asm.opts.device),
        is64: asm.opts.is64,
        policy: asm.opts.policy,
        driver_version: super::driver_version(asm),
        llvm_version: super::llvm_version(asm),
        code_regions: asm.layout.code_regions.clone(),
        added_symbols: super::added_symbols::collect(asm),
    }
}

/// The configuration as the assembly keeps it, with the state at the end of the source.
pub(crate) fn finish_config(asm: &crate::assembler::Asm) -> FormatConfig {
    let mut config = asm.layout.config.clone();
    config.snapshot = snapshot(asm);
    if asm.layout.format == BinaryFormat::AmdCl2 && config.hsa_layout {
        reference_relocation_order(asm, &mut config.relocations);
    }
    config
}

/// Puts the relocations of the HSA layout's shared code in the reference's order: it
/// makes them at the end, label by label in its symbol map's order (see
/// [`super::symorder`]), each label's in source order. A relocation belongs to the
/// label of its section at or below the place it points to.
fn reference_relocation_order(asm: &crate::assembler::Asm, relocations: &mut [super::Relocation]) {
    use crate::expr::Value;
    // The labels with their rank in the map's order.
    let mut labels: Vec<(usize, usize, i64)> = Vec::new();
    for (rank, id) in super::symorder::global_scope_in_map_order(&asm.symbols)
        .into_iter()
        .enumerate()
    {
        let s = asm.symbols.get(id);
        if let (true, Some(Value::Rel { section, offset })) = (s.is_label, s.value) {
            labels.push((rank, section as usize, offset));
        }
    }
    let key = |r: &super::Relocation| {
        labels
            .iter()
            .filter(|l| l.1 == r.target && l.2 <= r.addend)
            .max_by_key(|l| (l.2, std::cmp::Reverse(l.0)))
            .map_or(usize::MAX, |l| l.0)
    };
    relocations.sort_by_cached_key(key);
}
