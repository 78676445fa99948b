//! GalliumCompute (Mesa3D Clover) binaries.
//!
//! The file is a kernel table (name, offset in the code, argument descriptions) followed
//! by one section holding an ELF object (32- or 64-bit, `ET_REL`): `.text` with the code
//! of every kernel, `.rel.text` for scratch-buffer relocations, `.data`, `.bss`,
//! `.AMDGPU.config` (three or, from LLVM 3.9, five program-info entries per kernel, in
//! kernel-name order), `.rodata` when there is global data, `.comment`,
//! `.note.GNU-stack`, `.shstrtab`, the section header table, `.symtab` and `.strtab`.
//! From Mesa 17.0 the section type and the ELF header change (`ELFOSABI` 0x40, machine
//! 0xe0). With LLVM 4.0 each kernel's code starts with an AMD HSA descriptor, which the
//! caller has already put into the code.
//!
//! Symbols a source adds (`-S`) follow the kernels' symbols in the ELF.

use gcn_isa::Device;

use crate::elf::{self, Bytes, Class, ElfBuilder, Header, Region, Symbol};
pub use crate::elf::{ExtraSection, ExtraSymbol, SymbolPlace};
use crate::gpu;
use crate::FormatError;

/// Argument types of the kernel table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArgType {
    Scalar = 0,
    Constant = 1,
    Global = 2,
    Local = 3,
    Image2dRdonly = 4,
    Image2dWronly = 5,
    Image3dRdonly = 6,
    Image3dWronly = 7,
    Sampler = 8,
}

/// Argument semantics of the kernel table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArgSemantic {
    General = 0,
    GridDimension = 1,
    GridOffset = 2,
    ImageSize = 3,
    ImageFormat = 4,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArgInfo {
    pub arg_type: ArgType,
    pub sign_extended: bool,
    pub semantic: ArgSemantic,
    pub size: u32,
    pub target_size: u32,
    pub target_align: u32,
}

/// Kernel configuration given with `.config`; `None` fields are computed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KernelConfig {
    pub dim_mask: Option<u32>,
    pub used_sgprs: u32,
    pub used_vgprs: u32,
    /// `.pgmrsrc1`, `.pgmrsrc2`, the modes, priority, exceptions, TG_SIZE.
    pub rsrc: gpu::RsrcSettings,
    pub local_size: u32,
    pub scratch_buffer_size: u32,
    pub user_data_num: u32,
    pub spilled_sgprs: u32,
    pub spilled_vgprs: u32,
}

/// How a kernel's program info is given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProgInfo {
    /// Raw `.proginfo` entries (address, value); missing ones are zero.
    Raw(Vec<(u32, u32)>),
    Config(KernelConfig),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KernelInput {
    pub name: String,
    pub offset: u32,
    pub args: Vec<ArgInfo>,
    pub prog_info: ProgInfo,
}

/// Relocation of a scratch-buffer symbol in the code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScratchReloc {
    pub offset: u64,
    /// High 32 bits of the address (else low).
    pub high: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Input {
    pub is64: bool,
    pub device: Device,
    pub code: Vec<u8>,
    pub global_data: Option<Vec<u8>>,
    pub comment: Option<Vec<u8>>,
    pub kernels: Vec<KernelInput>,
    pub scratch_relocs: Vec<ScratchReloc>,
    pub extra_sections: Vec<ExtraSection>,
    /// Symbols the source adds (`-S`).
    pub extra_symbols: Vec<ExtraSymbol>,
    /// Mesa 17.0 or later.
    pub mesa170: bool,
    /// LLVM 3.9 or later: five program-info entries per kernel.
    pub llvm390: bool,
}

const DEFAULT_COMMENT: &str = "CLRX GalliumBinGenerator 0.1.9";

/// The program-info entries of a kernel with a configuration.
pub fn config_prog_info(device: Device, config: &KernelConfig) -> [(u32, u32); 5] {
    let gen = device.generation();
    let scratch_blocks = ((config.scratch_buffer_size << 6) + 1023) >> 10;
    let (rsrc1, rsrc2) = config.rsrc.program_resources(
        gen,
        &gpu::RsrcLayout {
            vgprs: config.used_vgprs.max(1),
            sgprs: config.used_sgprs.max(1),
            user_data: config.user_data_num,
            scratch: config.scratch_buffer_size != 0,
            dim_mask: config.dim_mask,
            default_dims: None,
            lds_size: config.local_size,
            wave32: false,
        },
    );
    [
        (0xb848, rsrc1),
        (0xb84c, rsrc2),
        (0xb860, scratch_blocks << 12),
        (4, config.spilled_sgprs),
        (8, config.spilled_vgprs),
    ]
}

/// A kernel's settings that the binary cannot hold.
fn check_kernel(input: &Input, k: &KernelInput) -> Result<(), FormatError> {
    let gen = input.device.generation();
    if let ProgInfo::Config(c) = &k.prog_info {
        if c.used_vgprs > gpu::MAX_VGPRS {
            return Err(FormatError::kernel(
                &k.name,
                format!(
                    "{} VGPRs (`.vgprsnum`), more than {}",
                    c.used_vgprs,
                    gpu::MAX_VGPRS
                ),
            ));
        }
        if c.used_sgprs > gpu::max_sgprs(gen) {
            return Err(FormatError::kernel(
                &k.name,
                format!(
                    "{} SGPRs (`.sgprsnum`), more than {} on {gen}",
                    c.used_sgprs,
                    gpu::max_sgprs(gen)
                ),
            ));
        }
        if u64::from(c.local_size) > gpu::MAX_LOCAL_SIZE {
            return Err(FormatError::kernel(
                &k.name,
                format!(
                    "local memory size {} (`.localsize`), more than {}",
                    c.local_size,
                    gpu::MAX_LOCAL_SIZE
                ),
            ));
        }
        if c.rsrc.priority >= 4 {
            return Err(FormatError::kernel(
                &k.name,
                format!(
                    "priority {} (`.priority`) out of range (0 to 3)",
                    c.rsrc.priority
                ),
            ));
        }
        if c.user_data_num > 16 {
            return Err(FormatError::kernel(
                &k.name,
                format!(
                    "{} user data registers (`.userdatanum`), more than 16",
                    c.user_data_num
                ),
            ));
        }
    }
    if k.offset as usize >= input.code.len() {
        return Err(FormatError::kernel(
            &k.name,
            "its code starts past the end of the code",
        ));
    }
    Ok(())
}

/// Writes the binary.
/// Errors: every kernel's first refusal, or the binary's.
pub fn write(input: &Input) -> Result<Vec<u8>, Vec<FormatError>> {
    let errors: Vec<FormatError> = input
        .kernels
        .iter()
        .filter_map(|k| check_kernel(input, k).err())
        .collect();
    if !errors.is_empty() {
        return Err(errors);
    }
    let mut order: Vec<usize> = (0..input.kernels.len()).collect();
    order.sort_by(|&a, &b| {
        input.kernels[a]
            .name
            .as_bytes()
            .cmp(input.kernels[b].name.as_bytes())
    });

    let elf = inner_elf(input, &order)?;
    let mut out = Bytes::default();
    out.u32(input.kernels.len() as u32);
    for &i in &order {
        let k = &input.kernels[i];
        out.u32(k.name.len() as u32).bytes(k.name.as_bytes());
        out.u32(0).u32(k.offset).u32(k.args.len() as u32);
        for a in &k.args {
            out.u32(a.arg_type as u32)
                .u32(a.size)
                .u32(a.target_size)
                .u32(a.target_align)
                .u32(u32::from(a.sign_extended))
                .u32(a.semantic as u32);
        }
    }
    // TEXT_EXECUTABLE from Mesa 17.0, TEXT before.
    let section_type = if input.mesa170 { 2 } else { 0 };
    let size = elf.len() as u32;
    out.u32(1)
        .u32(0)
        .u32(section_type)
        .u32(size)
        .u32(size + 4)
        .u32(size);
    out.bytes(&elf);
    Ok(out.0)
}

/// Section index of a format section in the ELF: `.text` 1, `.rel.text` 2 with
/// relocations, then `.data`, `.bss`, `.AMDGPU.config`, `.rodata` with global data,
/// `.comment`; extra sections come after the 10 to 12 sections.
fn section_index(place: SymbolPlace, has_data: bool, has_relocs: bool) -> Option<u16> {
    let after_text = u16::from(has_relocs);
    let after_config = after_text + u16::from(has_data);
    match place {
        SymbolPlace::Text => Some(1),
        SymbolPlace::Data => Some(2 + after_text),
        SymbolPlace::Bss => Some(3 + after_text),
        SymbolPlace::Rodata if has_data => Some(5 + after_text),
        SymbolPlace::Comment => Some(5 + after_config),
        _ => None,
    }
}

fn inner_elf(input: &Input, order: &[usize]) -> Result<Vec<u8>, FormatError> {
    let class = if input.is64 {
        Class::Elf64
    } else {
        Class::Elf32
    };
    let header = if input.mesa170 {
        Header {
            os_abi: 0x40,
            e_type: elf::ET_REL,
            machine: 0xe0,
            version: 1,
            ..Default::default()
        }
    } else {
        Header {
            os_abi: 0,
            e_type: elf::ET_REL,
            machine: 0,
            version: 1,
            ..Default::default()
        }
    };
    let mut b = ElfBuilder::new(class, header);
    let has_data = input.global_data.is_some();
    let has_relocs = !input.scratch_relocs.is_empty();
    b.add(Region::section(
        ".text",
        elf::SHT_PROGBITS,
        elf::SHF_ALLOC | elf::SHF_EXECINSTR,
        256,
        input.code.clone(),
    ));
    // Section indices of .symtab, needed by .rel.text before it exists.
    let symtab_index = 8 + u32::from(has_data) + u32::from(has_relocs);
    if has_relocs {
        let first_sym = 8 + u64::from(has_data) + 1;
        let mut rel = Bytes::default();
        for r in &input.scratch_relocs {
            let sym = first_sym + u64::from(r.high);
            match class {
                Class::Elf32 => {
                    rel.u32(r.offset as u32).u32(((sym as u32) << 8) | 0x81);
                }
                Class::Elf64 => {
                    rel.u64(r.offset).u64((sym << 32) | 0x81);
                }
            }
        }
        let mut region = Region::section(".rel.text", elf::SHT_REL, 0, class.word(), rel.0);
        let info = region.info_mut();
        info.link = symtab_index;
        info.info = Some(1);
        info.ent_size = if input.is64 { 16 } else { 8 };
        info.align = class.word();
        b.add(region);
    }
    b.add(Region::generated(
        ".data",
        elf::SHT_PROGBITS,
        elf::SHF_ALLOC | elf::SHF_WRITE,
        4,
    ));
    b.add(Region::generated(
        ".bss",
        elf::SHT_NOBITS,
        elf::SHF_ALLOC | elf::SHF_WRITE,
        4,
    ));
    let entries = if input.llvm390 { 5 } else { 3 };
    let mut config = Bytes::default();
    for &i in order {
        let k = &input.kernels[i];
        let values: Vec<(u32, u32)> = match &k.prog_info {
            ProgInfo::Config(c) => config_prog_info(input.device, c).to_vec(),
            ProgInfo::Raw(e) => e.clone(),
        };
        for n in 0..entries {
            let (addr, value) = values.get(n).copied().unwrap_or((0, 0));
            config.u32(addr).u32(value);
        }
    }
    b.add(Region::section(
        ".AMDGPU.config",
        elf::SHT_PROGBITS,
        0,
        1,
        config.0,
    ));
    if let Some(data) = &input.global_data {
        b.add(Region::section(
            ".rodata",
            elf::SHT_PROGBITS,
            elf::SHF_ALLOC,
            4,
            data.clone(),
        ));
    }
    let comment = input
        .comment
        .clone()
        .unwrap_or_else(|| DEFAULT_COMMENT.as_bytes().to_vec());
    let mut comment_region = Region::section(
        ".comment",
        elf::SHT_PROGBITS,
        elf::SHF_STRINGS | elf::SHF_MERGE,
        1,
        comment,
    );
    comment_region.info_mut().ent_size = 1;
    b.add(comment_region);
    b.add(Region::generated(
        ".note.GNU-stack",
        elf::SHT_PROGBITS,
        0,
        1,
    ));
    b.add(Region::generated(".shstrtab", elf::SHT_STRTAB, 0, 1));
    b.add(Region::section_headers(class));
    b.add(Region::generated(
        ".symtab",
        elf::SHT_SYMTAB,
        0,
        class.word(),
    ));
    b.add(Region::generated(".strtab", elf::SHT_STRTAB, 0, 1));
    b.add_extra_sections(&input.extra_sections);
    b.symbols.push(Symbol {
        name: "EndOfTextLabel".into(),
        shndx: 1,
        info: elf::st_info(elf::STB_LOCAL, elf::STT_NOTYPE),
        other: 0,
        value: input.code.len() as u64,
        size: 0,
    });
    let section_symbols = 6 + u16::from(has_data) + u16::from(has_relocs);
    for i in 0..section_symbols {
        b.symbols.push(Symbol {
            name: String::new(),
            shndx: i + 1,
            info: elf::st_info(elf::STB_LOCAL, elf::STT_SECTION),
            other: 0,
            value: 0,
            size: 0,
        });
    }
    if has_relocs {
        for name in ["SCRATCH_RSRC_DWORD0", "SCRATCH_RSRC_DWORD1"] {
            b.symbols.push(Symbol {
                name: name.into(),
                shndx: 0,
                info: elf::st_info(elf::STB_GLOBAL, elf::STT_NOTYPE),
                other: 0,
                value: 0,
                size: 0,
            });
        }
    }
    for &i in order {
        let k = &input.kernels[i];
        b.symbols.push(Symbol {
            name: k.name.clone(),
            shndx: 1,
            info: elf::st_info(elf::STB_GLOBAL, elf::STT_NOTYPE),
            other: 0,
            value: u64::from(k.offset),
            size: 0,
        });
    }
    let first_extra = 10 + u16::from(has_data) + u16::from(has_relocs);
    for s in &input.extra_symbols {
        b.symbols
            .push(s.entry(|p| section_index(p, has_data, has_relocs), first_extra)?);
    }
    Ok(b.build())
}

/// Values a GalliumCompute HSA descriptor (LLVM 4.0) is finished with.
pub struct HsaFinish<'a> {
    pub device: Device,
    pub arch_minor: Option<u32>,
    pub arch_stepping: Option<u32>,
    pub args: &'a [ArgInfo],
}

/// Merges the HSA settings into the kernel's configuration (register counts already
/// resolved) and finishes the descriptor put before the kernel's code.
pub fn finish_hsa(
    hsa: Option<&crate::hsa::HsaConfig>,
    config: &KernelConfig,
    f: &HsaFinish,
) -> crate::hsa::KernelCode {
    let mut config = config.clone();
    let default = crate::hsa::HsaConfig::default();
    let h = hsa.unwrap_or(&default);
    if hsa.is_some() {
        if let Some(v) = h.used_sgprs {
            config.used_sgprs = v;
        }
        if let Some(v) = h.used_vgprs {
            config.used_vgprs = v;
        }
        if let Some(v) = h.user_data_num {
            config.user_data_num = v;
        }
        config.dim_mask = config.dim_mask.map(|m| m | h.dim_mask);
        config.rsrc.merge(&h.rsrc);
        if let Some(v) = h.workgroup_group_segment_size {
            config.local_size = v;
        }
        if let Some(v) = h.workitem_private_segment_size {
            config.scratch_buffer_size = v;
        }
    }
    let entries = config_prog_info(f.device, &config);
    let mut arg_size = 0u64;
    for a in f.args {
        let mut target_size = u64::from(a.size.max(a.target_size));
        if a.semantic == ArgSemantic::GridOffset {
            target_size = 12;
        }
        if a.target_align != 0 {
            arg_size = arg_size.next_multiple_of(u64::from(a.target_align));
        }
        arg_size += target_size;
    }
    let mut arch = gpu::arch_version(f.device, gpu::ArchTable::OpenSource);
    if let Some(m) = f.arch_minor {
        arch.minor = m;
    }
    if let Some(s) = f.arch_stepping {
        arch.stepping = s;
    }
    h.kernel_code(crate::hsa::KernelCodeDefaults {
        machine: (
            1,
            arch.major as u16,
            arch.minor as u16,
            arch.stepping as u16,
        ),
        pgm_rsrc1: entries[0].1,
        pgm_rsrc2: entries[1].1,
        private_segment_size: config.scratch_buffer_size,
        group_segment_size: config.local_size,
        kernarg_segment_size: arg_size,
        wavefront_sgpr_count: config.used_sgprs as u16,
        workitem_vgpr_count: config.used_vgprs as u16,
        reserved_vgpr_first: 0,
        reserved_sgpr_first: 0,
    })
}
