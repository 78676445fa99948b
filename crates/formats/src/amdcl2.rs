//! AMD OpenCL 2.0 binaries.
//!
//! The main ELF (`e_machine` 0xaf5a/0xaf5b, `e_flags` the device code of the driver
//! version) has `.shstrtab`, `.strtab`, `.symtab`, `.comment` (compile options and ACL
//! version), `.rodata` (each kernel's metadata) and `.text`.
//!
//! - Old layout (drivers before 1912.05): `.text` holds per kernel a stub, a 256-byte
//!   setup and the code; `.rodata` also the ISA metadata.
//! - New layout: `.text` holds an inner 64-bit ELF (`ET_REL`) with the kernels' code
//!   (each after its 256-byte setup, 256-byte aligned), global data, read-write data,
//!   bss, sampler initializers, their relocations, notes and symbols. From driver
//!   2004.06 the inner sections come in another order and the metadata grows.
//! - HSA layout (new layout only): the code of all kernels is one section and each
//!   kernel's setup sits in it, at the kernel's label.
//!
//! Symbols a source adds (`-S`) follow the format's own: the absolute ones and those of
//! the main extra sections in the main ELF; those of the code, global data, read-write
//! data, bss, sampler initializers and inner extra sections in the inner ELF (new
//! layout), where each one of the three kinds of data also gets a local copy named
//! `&input_bc::&NAME` before the format's symbols.

use gcn_isa::{Device, Generation};

use crate::args::{access, id_out_of_range, id_taken, no_id_left, ArgType, KernelArg, PtrSpace};
use crate::elf::{
    self, AddrBase, Bytes, Class, ElfBuilder, Header, LocalSymbols, Note, ProgramHeader, Region,
    Symbol,
};
pub use crate::elf::{ExtraSection, ExtraSymbol, SymbolPlace};
use crate::gpu::{self, ArchTable};
use crate::hsa::{HsaConfig, KernelCode, KernelCodeDefaults};
use crate::FormatError;

/// First driver version of the new layout (1912.05).
pub const NEW_BINARIES: u32 = 191205;
/// First driver version of the 2004.06 (Crimson 16.3) changes.
pub const VERSION_16_3: u32 = 200406;

/// A kernel's configuration (`.config`), register counts resolved.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct KernelConfig {
    pub args: Vec<KernelArg>,
    pub samplers: Vec<u32>,
    pub reqd_work_group_size: [u32; 3],
    pub work_group_size_hint: [u32; 3],
    pub vec_type_hint: String,
    pub used_sgprs: u32,
    pub used_vgprs: u32,
    /// `.pgmrsrc1`, `.pgmrsrc2`, the modes, priority, exceptions, TG_SIZE.
    pub rsrc: gpu::RsrcSettings,
    pub local_size: u32,
    pub gds_size: u32,
    pub scratch_buffer_size: u32,
    pub dim_mask: Option<u32>,
    pub use_args: bool,
    pub use_setup: bool,
    pub use_enqueue: bool,
    pub use_generic: bool,
}

/// A relocation in the code: `symbol` 0 global data, 1 read-write data, 2 bss.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reloc {
    pub offset: u64,
    pub high: bool,
    pub symbol: u8,
    pub addend: u64,
}

/// How a kernel's metadata and setup are given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KernelSetup {
    /// `.config`: metadata and setup generated.
    Config(KernelConfig),
    /// `.hsaconfig`: metadata generated from the configuration's arguments, the setup is
    /// the finished HSA descriptor.
    Hsa(KernelConfig, Box<[u8; 256]>),
    /// Given as is (`.metadata`, `.isametadata`, `.setup`, `.stub`). A `None` setup in
    /// the HSA layout keeps the code's first 256 bytes.
    Raw {
        metadata: Vec<u8>,
        isa_metadata: Option<Vec<u8>>,
        setup: Option<Vec<u8>>,
        stub: Vec<u8>,
    },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KernelInput {
    pub name: String,
    pub setup: KernelSetup,
    /// The kernel's code (not in the HSA layout).
    pub code: Vec<u8>,
    /// HSA layout: where the kernel (its setup) starts in the code.
    pub offset: u64,
    pub relocations: Vec<Reloc>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Input {
    pub is64: bool,
    pub device: Device,
    pub arch_minor: Option<u32>,
    pub arch_stepping: Option<u32>,
    pub driver_version: u32,
    pub compile_options: String,
    /// Empty: the default of the layout.
    pub acl_version: String,
    pub global_data: Vec<u8>,
    pub rw_data: Vec<u8>,
    pub bss_size: u64,
    pub bss_align: u64,
    /// `.samplerinit` content, or the samplers of `.sampler` (then `sampler_config`).
    pub sampler_init: Vec<u8>,
    pub samplers: Vec<u32>,
    pub sampler_config: bool,
    pub sampler_offsets: Vec<u64>,
    pub kernels: Vec<KernelInput>,
    /// HSA layout: the code of all kernels.
    pub code: Option<Vec<u8>>,
    /// HSA layout: relocations in `code`.
    pub relocations: Vec<Reloc>,
    pub extra_sections: Vec<ExtraSection>,
    pub inner_extra_sections: Vec<ExtraSection>,
    /// Absolute symbols and those of the main extra sections the source adds (`-S`).
    pub extra_symbols: Vec<ExtraSymbol>,
    /// Symbols of the inner ELF's sections the source adds (`-S`); code symbols have
    /// their offsets in the inner `.hsatext`.
    pub inner_extra_symbols: Vec<ExtraSymbol>,
}

/// Device codes (`e_flags`) per driver version range.
fn device_code(driver: u32, device: Device) -> Option<u32> {
    const X: u32 = u32::MAX;
    const T15_7: [u32; 30] = [
        X, X, X, X, 6, 1, 2, 3, X, 7, 8, 9, 4, 16, 15, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
    ];
    const T_BASE: [u32; 30] = [
        X, X, X, X, 6, 1, 2, 3, X, 7, 8, 9, 4, 17, 16, 15, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
    ];
    const T16_3: [u32; 30] = [
        X, X, X, X, 6, 1, 2, 3, X, 7, 8, 9, 4, 16, 15, 17, 13, 12, 17, 12, 13, X, X, X, X, X, X, X,
        X, X,
    ];
    const T_GPUPRO: [u32; 30] = [
        X, X, X, X, 6, 1, 2, 3, X, 7, 8, 9, 4, 14, 13, 15, 16, 17, 15, 17, 16, X, X, X, X, X, X, X,
        X, X,
    ];
    const T2236: [u32; 30] = [
        X, X, X, X, 6, 1, 2, 3, X, 7, 8, 9, 4, 13, 12, 14, 15, 16, 14, 16, 15, 18, 17, X, X, X, X,
        X, X, X,
    ];
    const T2264: [u32; 30] = [
        X, X, X, X, 6, 1, 2, 3, X, 7, 8, 9, 4, 14, 13, 15, 16, 17, 15, 17, 16, 18, 19, 20, X, X, X,
        X, X, X,
    ];
    const T2348: [u32; 30] = [
        X, X, X, X, 6, 1, 2, 3, X, 7, 8, 9, 4, 15, 14, 16, 17, 18, 16, 18, 17, 19, 20, 21, X, X, X,
        X, X, X,
    ];
    const T2442: [u32; 30] = [
        X, X, X, X, 6, 1, 2, 3, X, 7, 8, 9, 4, 13, 12, 14, 15, 16, 14, 16, 15, 18, 17, 19, X, X, X,
        X, X, X,
    ];
    const T2482: [u32; 30] = [
        X, X, X, X, 6, 1, 2, 3, X, 7, 8, 9, 4, 13, 12, 14, 16, 18, 14, 18, 16, 20, 19, 21, X, X, X,
        X, X, X,
    ];
    const T2527: [u32; 30] = [
        X, X, X, X, 6, 1, 2, 3, X, 7, 8, 9, 4, 13, 12, 14, 16, 18, 14, 18, 16, 21, 20, 23, 24, 25,
        26, 27, X, X,
    ];
    const T2580: [u32; 30] = [
        X, X, X, X, 6, 1, 2, 3, X, 7, 8, 9, 4, 13, 12, 14, 16, 18, 14, 18, 16, 21, 20, 23, 24, 25,
        26, 27, 28, 29,
    ];
    let tables: [(u32, &[u32; 30]); 11] = [
        (191205, &T15_7),
        (200406, &T_BASE),
        (203603, &T16_3),
        (223600, &T_GPUPRO),
        (226400, &T2236),
        (234800, &T2264),
        (244200, &T2348),
        (248200, &T2442),
        (252700, &T2482),
        (258000, &T2527),
        (u32::MAX, &T2580),
    ];
    let table = tables
        .iter()
        .find(|(to, _)| *to > driver)
        .map_or(&T2580, |(_, t)| *t);
    table
        .get(gpu::device_index(device))
        .copied()
        .filter(|&c| c != X)
}

/// Type code, element size, element count of an argument type in the metadata.
fn arg_type_sizes(t: ArgType) -> (u32, u32, u32) {
    use ArgType::*;
    match t {
        Void | UChar | Char => (6, 1, 1),
        UShort | Short => (7, 2, 1),
        UInt | Int => (8, 4, 1),
        ULong | Long => (9, 8, 1),
        Float => (11, 4, 1),
        Double => (12, 8, 1),
        Pointer => (7, 8, 1),
        Image | Image1d | Image1dArray | Image1dBuffer | Image2d | Image2dArray | Image3d => {
            (0, 32, 1)
        }
        Sampler => (0, 16, 1),
        Structure => (15, 0, 0),
        Counter32 | Counter64 => (0, 0, 0),
        Pipe => (7, 16, 1),
        CmdQueue => (18, 16, 1),
        ClkEvent => (7, 8, 1),
        _ => {
            let (elem, vec) = t.elem_and_vec();
            let code = match elem {
                1 => 6,
                2 => 7,
                4 if matches!(t, Float2 | Float3 | Float4 | Float8 | Float16) => 11,
                4 => 8,
                8 if matches!(t, Double2 | Double3 | Double4 | Double8 | Double16) => 12,
                _ => 9,
            };
            (code, elem, vec)
        }
    }
}

/// Size of the kernel argument segment the setup records.
pub fn kernel_arg_size(args: &[KernelArg], is64: bool, new_binaries: bool) -> u32 {
    let mut size = 0u32;
    for arg in args {
        use ArgType::*;
        if matches!(
            arg.arg_type,
            Pointer | Pipe | ClkEvent | Structure | CmdQueue | Sampler
        ) || arg.arg_type.is_image()
        {
            let s = if is64 { 8 } else { 4 };
            size = size.next_multiple_of(s) + s;
        } else {
            let (_, elem, vec) = arg_type_sizes(arg.arg_type);
            let vec = if new_binaries && vec == 3 { 4 } else { vec };
            if elem > 0 {
                size = size.next_multiple_of(elem);
            }
            size += vec * elem;
        }
    }
    if new_binaries {
        size = (size + 15) & !15;
    }
    size
}

/// The user SGPRs a non-HSA kernel's setup fills: 4; 6 with arguments (`.useargs`), 8
/// with the setup buffer (`.usesetup`), 10 with enqueue, 12 with generic pointers; from
/// GCN 1.4 two more, but with enqueue or generic pointers.
pub fn user_sgprs(gen: Generation, generic: bool, enqueue: bool, setup: bool, args: bool) -> u32 {
    let base = if generic {
        12
    } else if enqueue {
        10
    } else if setup {
        8
    } else if args {
        6
    } else {
        4
    };
    if gen >= Generation::Gcn1_4 && !generic && !enqueue {
        base + 2
    } else {
        base
    }
}

/// Work-item and group dimension bits and user SGPRs of a non-HSA configuration, as
/// PGM_RSRC2 gets them.
pub fn config_pgm_rsrc2(gen: Generation, config: &KernelConfig, store_local_size: bool) -> u32 {
    let mut dim_mask = config.dim_mask;
    let mut dim_values = 0;
    match config.dim_mask {
        Some(m) if m & gpu::DIMS_SECOND_FIELD == 0 => {
            // One field: the old-style setup, kept for compatibility.
            dim_mask = None;
            dim_values = (m & 7) << 7;
            dim_values |= if config.use_enqueue {
                2 << 11
            } else {
                (if m & 4 != 0 {
                    2
                } else if m & 2 != 0 {
                    1
                } else {
                    0
                }) << 11
            };
        }
        Some(_) => {}
        None => dim_values = config.rsrc.pgm_rsrc2 & 0x1b80,
    }
    let user_data = user_sgprs(
        gen,
        config.use_generic,
        config.use_enqueue,
        config.use_setup,
        config.use_args,
    );
    config.rsrc.pgm_rsrc2(
        gen,
        &gpu::RsrcLayout {
            user_data,
            scratch: config.scratch_buffer_size != 0,
            dim_mask,
            default_dims: Some(dim_values),
            lds_size: if store_local_size {
                config.local_size
            } else {
                0
            },
            ..gpu::RsrcLayout::default()
        },
    )
}

fn kernel_setup(
    input: &Input,
    config: &KernelConfig,
    new_binaries: bool,
    pipes_used: bool,
) -> Vec<u8> {
    let gen = input.device.generation();
    let mut b = Bytes::default();
    b.u64(if new_binaries { 0x1_0000_0001 } else { 1 });
    b.bytes(&[1, 0, 0, 0, 0, 0, 0, 0, 0, 1]).zeros(30);
    let needed_extra = if gen >= Generation::Gcn1_2 { 4 } else { 2 };
    let extra = if config.use_enqueue || config.use_generic {
        needed_extra
    } else {
        0
    };
    let sgprs = (config.used_sgprs + extra + 2).max(1);
    let vgprs = config.used_vgprs.max(1);
    // The new binaries always clamp (DX10_CLAMP).
    let rsrc = gpu::RsrcSettings {
        dx10_clamp: config.rsrc.dx10_clamp || new_binaries,
        ..config.rsrc
    };
    let rsrc1 = rsrc.pgm_rsrc1(&gpu::RsrcLayout {
        vgprs,
        sgprs,
        ..gpu::RsrcLayout::default()
    });
    let mut setup1: u16 = if config.use_generic {
        0x2f
    } else if config.use_enqueue {
        0x2b
    } else if config.use_setup {
        0xb
    } else if config.use_args {
        0x9
    } else {
        0x1
    };
    if gen == Generation::Gcn1_4 {
        setup1 |= 0x20;
    }
    let arch_ind: u16 = if input.is64 { 0xa } else { 0x2 };
    let arch_ind = if gen >= Generation::Gcn1_2 && new_binaries && input.driver_version <= 191205 {
        0x40 | arch_ind
    } else {
        arch_ind
    };
    let setup2 = if new_binaries {
        0x0604_0404
    } else {
        let mut extra_bits = if config.use_enqueue { 0x30000 } else { 0 };
        if !config.use_enqueue && config.scratch_buffer_size != 0 {
            extra_bits |= 0x40000;
        }
        if config.local_size != 0 {
            extra_bits |= 0x200;
        }
        if pipes_used && extra_bits & 0x40000 == 0 {
            extra_bits |= 0x30000;
        }
        0x0600_0003 | extra_bits
    };
    b.u32(rsrc1)
        .u32(config_pgm_rsrc2(gen, config, false))
        .u16(setup1)
        .u16(arch_ind)
        .u32(config.scratch_buffer_size)
        .u32(config.local_size)
        .u32(config.gds_size)
        .u32(kernel_arg_size(&config.args, input.is64, new_binaries))
        .u32(0)
        .u32(0)
        .u16(sgprs as u16)
        .u16(config.used_vgprs as u16)
        .u16(config.used_vgprs as u16)
        .u16(0)
        .u16(config.used_sgprs as u16)
        .u16(0)
        .u32(0)
        .u32(setup2);
    b.zeros(256 - b.len());
    b.0
}

/// Counts instructions and memory operations of code, for the old layout's stub.
fn analyze_code(gen: Generation, code: &[u8]) -> (u32, u32, u32) {
    const SIZE11: [bool; 16] = [
        false, false, false, false, true, false, true, true, true, false, true, false, true, false,
        true, false,
    ];
    const SIZE12: [bool; 16] = [
        true, true, false, false, true, false, true, true, true, false, true, false, true, false,
        false, false,
    ];
    // 0 other, 1 global, 2 local
    const KIND: [u8; 16] = [0, 0, 0, 0, 0, 0, 2, 1, 1, 0, 1, 0, 1, 0, 0, 0];
    let words: Vec<u32> = code
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    let gcn12 = gen >= Generation::Gcn1_2;
    let gcn11 = gen == Generation::Gcn1_1;
    let (mut instrs, mut global, mut local) = (0u32, 0u32, 0u32);
    let mut pos = 0;
    let n = words.len();
    while pos < n {
        instrs += 1;
        let insn = words[pos];
        pos += 1;
        let skip = |pos: &mut usize| {
            if *pos < n {
                *pos += 1;
            }
        };
        if insn & 0x8000_0000 != 0 {
            if insn & 0x4000_0000 == 0 {
                if insn & 0x3000_0000 == 0x3000_0000 {
                    let enc = insn & 0x0f80_0000;
                    if enc == 0x0e80_0000 {
                        if insn & 0xff == 0xff {
                            skip(&mut pos);
                        }
                    } else if enc == 0x0f00_0000 {
                        if insn & 0xff == 0xff || insn & 0xff00 == 0xff00 {
                            skip(&mut pos);
                        }
                    } else if enc != 0x0f80_0000 {
                        let opcode = (insn >> 23) & 0x1f;
                        if (!gcn12 && opcode == 21) || (gcn12 && opcode == 20) {
                            skip(&mut pos);
                        }
                    }
                } else if insn & 0xff == 0xff || insn & 0xff00 == 0xff00 {
                    skip(&mut pos);
                }
            } else {
                let enc = ((insn & 0x3c00_0000) >> 26) as usize;
                if (!gcn12 && SIZE11[enc] && (enc != 7 || gcn11)) || (gcn12 && SIZE12[enc]) {
                    skip(&mut pos);
                }
                match KIND[enc] {
                    1 => global += 1,
                    2 => local += 1,
                    _ => {}
                }
            }
        } else {
            let sdwa_dpp = |insn: u32| gcn12 && (insn & 0x1ff == 0xf9 || insn & 0x1ff == 0xfa);
            if insn & 0x7e00_0000 == 0x7c00_0000 || insn & 0x7e00_0000 == 0x7e00_0000 {
                if insn & 0x1ff == 0xff || sdwa_dpp(insn) {
                    skip(&mut pos);
                }
            } else {
                let opcode = (insn >> 25) & 0x3f;
                // VOP2 with a constant after the word (v_madmk/v_madak), or a literal
                // or SDWA/DPP word.
                let constant = (!gcn12 && (opcode == 32 || opcode == 33))
                    || (gcn12 && matches!(opcode, 23 | 24 | 36 | 37));
                if constant || insn & 0x1ff == 0xff || sdwa_dpp(insn) {
                    skip(&mut pos);
                }
            }
        }
    }
    (instrs, global, local)
}

fn kernel_stub(input: &Input, config: &KernelConfig, code: &[u8]) -> Vec<u8> {
    let gen = input.device.generation();
    let needed_extra = if gen >= Generation::Gcn1_2 { 4 } else { 2 };
    let extra = if config.use_enqueue { needed_extra } else { 0 };
    // Wrapping: an HSA configuration leaves the counts unset (u32::MAX), as the reference.
    let sgprs_all = config.used_sgprs.wrapping_add(2 + extra);
    let (instrs, global, local) = analyze_code(gen, code);
    let mut b = Bytes::default();
    b.u32(0xa60)
        .u32(instrs)
        .u32(config.used_vgprs)
        .zeros(24)
        .u32(instrs)
        .u32(global)
        .u32(local)
        .u32(0)
        .u32(config.used_sgprs.wrapping_add(config.used_vgprs))
        .u32(0)
        .u32(sgprs_all);
    b.zeros(0xb8 - b.len()).u32(0xa60);
    b.zeros(0x164 - b.len())
        .u32(3)
        .u32(if config.local_size != 0 { 13 } else { 12 });
    b.zeros(0x9a0 - b.len());
    let code_size = code.len() as u64;
    b.u64(0xa60)
        .u32(0x100)
        .u32((code_size + 0x100) as u32)
        .u32(0)
        .u32(0)
        .u32(0x200)
        .u32(0)
        .u64(code_size + 0xb60)
        .u32(0)
        .u32(0)
        .u64(code_size + 0xb60)
        .u32(config.used_vgprs)
        .u32(sgprs_all)
        .u32(0)
        .u32(0)
        .u32(config.used_vgprs)
        .u32(config.used_sgprs)
        .u32(config.rsrc.float_mode & 0xff)
        .u32(0)
        .u32(1)
        .zeros(12)
        .u32((config.scratch_buffer_size + 3) >> 2)
        .u32(config.local_size)
        .u32(0xffff_ffff)
        .u32(0);
    b.zeros(0x9a0 + 0xa8 - b.len())
        .u32(config_pgm_rsrc2(gen, config, true));
    b.zeros(0xa60 - b.len());
    b.0
}

struct KernelTemp {
    metadata: Vec<u8>,
    isa_metadata: Vec<u8>,
    setup_size: usize,
    stub: Vec<u8>,
    pipes_used: bool,
    res_ids: Vec<u32>,
}

const ISA_METADATA: [u8; 20] = [
    0, 0, 0x68, 0, 0, 0, 0, 0, 0, 0, 0, 8, 0x42, 9, 0, 0, 0, 0, 0, 0,
];

fn arch_word(gen: Generation) -> &'static str {
    match gen {
        Generation::Gcn1_0 => "GFX6",
        Generation::Gcn1_1 => "GFX7",
        Generation::Gcn1_2 => "GFX8",
        _ => "GFX9",
    }
}

fn config_of(setup: &KernelSetup) -> Option<&KernelConfig> {
    match setup {
        KernelSetup::Config(c) | KernelSetup::Hsa(c, _) => Some(c),
        KernelSetup::Raw { .. } => None,
    }
}

fn assign_res_ids(name: &str, config: &KernelConfig) -> Result<Vec<u32>, FormatError> {
    let mut res = vec![0u32; config.args.len()];
    let mut ro = vec![false; 128];
    let mut wo = vec![false; 64];
    let mut rw = vec![false; 64];
    let mut samp = [false; 16];
    for (k, arg) in config.args.iter().enumerate() {
        let Some(id) = arg.res_id else { continue };
        let (mask, limit, what): (&mut [bool], u32, &str) = if arg.arg_type == ArgType::Sampler {
            (&mut samp, 16, "sampler")
        } else if arg.arg_type.is_image() {
            match arg.ptr_access & access::MASK {
                access::READ_ONLY => (&mut ro, 128, "read-only image"),
                access::WRITE_ONLY => (&mut wo, 64, "write-only image"),
                _ => (&mut rw, 64, "read-write image"),
            }
        } else {
            continue;
        };
        if id >= limit {
            return Err(id_out_of_range(
                name,
                k,
                arg,
                what,
                id,
                &format!("0 to {}", limit - 1),
            ));
        }
        if mask[id as usize] {
            return Err(id_taken(name, k, arg, what, id));
        }
        mask[id as usize] = true;
        res[k] = id;
    }
    let mut next = [0usize; 4];
    for (k, arg) in config.args.iter().enumerate() {
        if arg.res_id.is_some() {
            continue;
        }
        let (mask, slot, limit, what): (&[bool], usize, usize, &str) =
            if arg.arg_type == ArgType::Sampler {
                (&samp, 0, 16, "sampler")
            } else if arg.arg_type.is_image() {
                match arg.ptr_access & access::MASK {
                    access::READ_ONLY => (&ro, 1, 128, "read-only image"),
                    access::WRITE_ONLY => (&wo, 2, 64, "write-only image"),
                    _ => (&rw, 3, 64, "read-write image"),
                }
            } else {
                continue;
            };
        while next[slot] < limit && mask[next[slot]] {
            next[slot] += 1;
        }
        if next[slot] >= limit {
            return Err(no_id_left(name, k, arg, what, limit as u32 - 1));
        }
        res[k] = next[slot] as u32;
        next[slot] += 1;
    }
    Ok(res)
}

fn write_metadata(
    input: &Input,
    kernel_id: usize,
    config: &KernelConfig,
    temp: &KernelTemp,
    size: usize,
) -> Vec<u8> {
    let driver = input.driver_version;
    let new_binaries = driver >= NEW_BINARIES;
    let v16_3 = driver >= VERSION_16_3;
    let gen = input.device.generation();
    let is64 = input.is64;
    let mut b = Bytes::default();
    let word = |b: &mut Bytes, v: u64| {
        if is64 {
            b.u64(v);
        } else {
            b.u32(v as u32);
        }
    };
    let header_size = match (is64, new_binaries, v16_3) {
        (true, _, true) => 0x110,
        (true, true, false) => 0xe0,
        (true, false, _) => 0xd8,
        (false, _, true) => 0xa4,
        (false, true, false) => 0x90,
        (false, false, _) => 0x88,
    };
    word(&mut b, header_size);
    word(&mut b, size as u64);
    b.u32(3).u32(1).u32(0x68);
    let mut options = if config.reqd_work_group_size[0] != 0 {
        4
    } else {
        0
    };
    if is64 {
        options |= 0x20;
    }
    if (config.use_enqueue
        || config.local_size != 0
        || temp.pipes_used
        || config.scratch_buffer_size != 0)
        && !new_binaries
    {
        options |= 0x100;
    }
    b.u32(options).u16((kernel_id + 1024) as u16).u16(0).u32(0);
    b.u64(0x01_0000_0008).u64(0x02_0000_0001);
    for v in config.reqd_work_group_size {
        word(&mut b, u64::from(v));
    }
    if is64 {
        b.zeros(16);
    } else {
        b.zeros(12);
    }
    word(&mut b, 0x15);
    let second = if driver < 223600 {
        "generic"
    } else {
        arch_word(gen)
    };
    word(&mut b, second.len() as u64);
    for _ in 0..3 {
        word(&mut b, 0);
    }
    let pipes_usage = if new_binaries {
        0
    } else if config.scratch_buffer_size != 0 {
        config.scratch_buffer_size
    } else {
        u32::from(temp.pipes_used) << 4
    };
    word(&mut b, u64::from(pipes_usage));
    word(&mut b, 0);
    word(&mut b, 0);
    b.u64(config.args.len() as u64);
    b.zeros(if is64 { 40 } else { 16 });
    b.u32(u32::from(config.use_enqueue)).u32(kernel_id as u32);
    if new_binaries {
        b.u32(6);
        if v16_3 && is64 {
            b.u32(0);
        }
        b.u32(if !temp.pipes_used && !config.use_enqueue {
            0xffff_ffff
        } else {
            0
        });
    }
    if v16_3 {
        if is64 {
            b.zeros(4);
        }
        for v in config.work_group_size_hint {
            word(&mut b, u64::from(v));
        }
        word(&mut b, config.vec_type_hint.len() as u64);
        word(&mut b, 0);
    }
    b.bytes(b"__OpenCL_dummy_kernel\0");
    b.bytes(second.as_bytes()).u8(0);
    if v16_3 {
        b.bytes(config.vec_type_hint.as_bytes()).u8(0);
    }
    let mut arg_offset = 0u32;
    for (i, arg) in config.args.iter().enumerate() {
        word(&mut b, if is64 { 88 } else { 64 });
        word(&mut b, arg.name.len() as u64);
        word(&mut b, arg.type_name.len() as u64);
        word(&mut b, 0);
        word(&mut b, 0);
        let image = arg.arg_type.is_image();
        let (mut type_code, mut elem, vec) = arg_type_sizes(arg.arg_type);
        if !is64 && arg.arg_type == ArgType::Pointer {
            elem = 4;
        }
        let vec = if new_binaries && vec == 3 { 4 } else { vec };
        let union = if image || arg.arg_type == ArgType::Sampler {
            temp.res_ids[i]
        } else if arg.arg_type == ArgType::Structure {
            arg.struct_size
        } else {
            vec
        };
        let arg_size = if arg.arg_type == ArgType::Structure {
            arg.struct_size
        } else {
            elem.max(4) * vec
        };
        b.u32(union)
            .u32(u32::from(arg.arg_type != ArgType::Sampler))
            .u32(arg_offset);
        arg_offset = arg_offset.wrapping_add(arg_size.wrapping_add(15) & !15);
        if image {
            type_code = match arg.ptr_access & access::MASK {
                access::READ_ONLY => 1,
                access::WRITE_ONLY => 2,
                _ => 3,
            };
        } else if v16_3
            && matches!(
                arg.arg_type,
                ArgType::Char | ArgType::Short | ArgType::Int | ArgType::Long
            )
        {
            type_code -= 4;
        }
        b.u32(type_code);
        let ptr_align = match arg.arg_type {
            ArgType::CmdQueue => {
                if new_binaries {
                    4
                } else {
                    2
                }
            }
            ArgType::Pipe => 256,
            ArgType::ClkEvent => 4,
            _ if image => 1,
            ArgType::Pointer => {
                let (_, pelem, pvec) = arg_type_sizes(arg.pointer_type);
                let pvec = if new_binaries && pvec == 3 { 4 } else { pvec };
                let size = if arg.pointer_type == ArgType::Structure {
                    arg.struct_size
                } else {
                    pelem * pvec
                };
                if size == 0 {
                    0
                } else {
                    let a = 1u32 << (31 - size.leading_zeros());
                    if a != size {
                        a << 1
                    } else {
                        a
                    }
                }
            }
            _ => 0,
        };
        b.u32(ptr_align);
        let (ptr_type, ptr_space) = match arg.arg_type {
            ArgType::ClkEvent => (18, 4),
            ArgType::Pointer => {
                let space = match arg.ptr_space {
                    PtrSpace::None => 0,
                    PtrSpace::Local => 3,
                    PtrSpace::Constant => 5,
                    PtrSpace::Global => 4,
                };
                (arg_type_sizes(arg.pointer_type).0, space)
            }
            ArgType::Pipe => (15, 4),
            _ => (0, 0),
        };
        b.u32(ptr_type).u32(ptr_space);
        let pointer_or_pipe = match arg.arg_type {
            ArgType::Pipe => {
                if arg.used != 0 {
                    3
                } else {
                    1
                }
            }
            ArgType::Pointer | ArgType::ClkEvent => {
                if new_binaries {
                    if arg.used != 0 {
                        u32::from(arg.used)
                    } else {
                        1
                    }
                } else {
                    3
                }
            }
            _ => 0,
        };
        b.u32(pointer_or_pipe);
        b.u8(u8::from(arg.ptr_access & access::VOLATILE != 0))
            .u8(u8::from(arg.ptr_access & access::RESTRICT != 0))
            .u8(u8::from(arg.arg_type == ArgType::Pipe))
            .u8(0);
        let kind = if arg.arg_type == ArgType::Sampler {
            1
        } else if image {
            2
        } else if pointer_or_pipe != 0 {
            5
        } else if arg.arg_type == ArgType::CmdQueue {
            7
        } else {
            4
        };
        b.u32(kind);
        word(&mut b, u64::from(arg.ptr_access & access::CONST != 0));
    }
    b.zeros(if is64 { 88 } else { 64 });
    for arg in &config.args {
        b.bytes(arg.name.as_bytes())
            .u8(0)
            .bytes(arg.type_name.as_bytes())
            .u8(0);
    }
    b.zeros(if is64 { 48 } else { 24 });
    debug_assert_eq!(b.len(), size);
    b.0
}

fn metadata_size(input: &Input, config: &KernelConfig) -> usize {
    let driver = input.driver_version;
    let new_binaries = driver >= NEW_BINARIES;
    let v16_3 = driver >= VERSION_16_3;
    let args = config.args.len();
    let mut out = if input.is64 {
        (if new_binaries {
            if v16_3 {
                303
            } else {
                254
            }
        } else {
            246
        }) + (args + 1) * 88
            + 48
    } else {
        (if new_binaries {
            if v16_3 {
                195
            } else {
                174
            }
        } else {
            166
        }) + (args + 1) * 64
            + 24
    };
    for arg in &config.args {
        out += arg.name.len() + arg.type_name.len() + 2;
    }
    if driver >= 223600 {
        out = out + arch_word(input.device.generation()).len() - 7;
    }
    if v16_3 {
        out += config.vec_type_hint.len();
    }
    out
}

/// Errors: each kernel's first refusal.
fn prepare_kernels(input: &Input) -> Result<Vec<KernelTemp>, Vec<FormatError>> {
    let new_binaries = input.driver_version >= NEW_BINARIES;
    let samplers_num = if input.sampler_config {
        input.samplers.len()
    } else {
        input.sampler_init.len() >> 3
    };
    let mut temps = Vec::new();
    let mut errors = Vec::new();
    for (i, kernel) in input.kernels.iter().enumerate() {
        match prepare_kernel(input, i, kernel, new_binaries, samplers_num) {
            Ok(temp) => temps.push(temp),
            Err(e) => errors.push(e),
        }
    }
    if errors.is_empty() {
        Ok(temps)
    } else {
        Err(errors)
    }
}

fn prepare_kernel(
    input: &Input,
    i: usize,
    kernel: &KernelInput,
    new_binaries: bool,
    samplers_num: usize,
) -> Result<KernelTemp, FormatError> {
    let err = |m: &str| FormatError::kernel(&kernel.name, m);
    if let KernelSetup::Raw {
        isa_metadata, stub, ..
    } = &kernel.setup
    {
        if new_binaries && isa_metadata.is_some() {
            return Err(err(&format!(
                "`.isametadata` has a place only in binaries of drivers before {NEW_BINARIES}"
            )));
        }
        if new_binaries && !stub.is_empty() {
            return Err(err(&format!(
                "`.stub` has a place only in binaries of drivers before {NEW_BINARIES}"
            )));
        }
    }
    if new_binaries {
        for rel in &kernel.relocations {
            if rel.offset + 4 > kernel.code.len() as u64 {
                return Err(err("a relocation lies past the end of its code"));
            }
        }
    }
    let temp = match &kernel.setup {
        KernelSetup::Raw {
            metadata,
            isa_metadata,
            setup,
            stub,
        } => KernelTemp {
            metadata: metadata.clone(),
            isa_metadata: isa_metadata
                .clone()
                .unwrap_or_else(|| ISA_METADATA.to_vec()),
            setup_size: setup.as_ref().map_or(256, |s| s.len()),
            stub: stub.clone(),
            pipes_used: false,
            res_ids: Vec::new(),
        },
        KernelSetup::Config(config) | KernelSetup::Hsa(config, _) => {
            let pipes = config
                .args
                .iter()
                .filter(|a| a.arg_type == ArgType::Pipe && a.used != 0)
                .count();
            let res_ids = assign_res_ids(&kernel.name, config)?;
            for &s in &config.samplers {
                if s as usize >= samplers_num {
                    return Err(err(&format!("sampler {s} (`.sampler`) out of range: {samplers_num} samplers are defined")));
                }
            }
            let mut temp = KernelTemp {
                metadata: Vec::new(),
                isa_metadata: if new_binaries {
                    Vec::new()
                } else {
                    ISA_METADATA.to_vec()
                },
                setup_size: 256,
                stub: Vec::new(),
                pipes_used: pipes != 0,
                res_ids,
            };
            let size = metadata_size(input, config);
            temp.metadata = write_metadata(input, i, config, &temp, size);
            if !new_binaries {
                temp.stub = match &kernel.setup {
                    // The reference makes the stub of an HSA kernel from its plain
                    // configuration, whose register counts are never set.
                    KernelSetup::Hsa(..) => {
                        let unset = KernelConfig {
                            used_sgprs: u32::MAX,
                            used_vgprs: u32::MAX,
                            ..config.clone()
                        };
                        kernel_stub(input, &unset, &kernel.code)
                    }
                    _ => kernel_stub(input, config, &kernel.code),
                };
            }
            temp
        }
    };
    Ok(temp)
}

fn kernel_setup_bytes(
    input: &Input,
    kernel: &KernelInput,
    temp: &KernelTemp,
    new_binaries: bool,
) -> Option<Vec<u8>> {
    match &kernel.setup {
        KernelSetup::Config(config) => {
            Some(kernel_setup(input, config, new_binaries, temp.pipes_used))
        }
        KernelSetup::Hsa(_, setup) => Some(setup.to_vec()),
        KernelSetup::Raw { setup, .. } => setup.clone(),
    }
}

fn inner_text(input: &Input, temps: &[KernelTemp]) -> Vec<u8> {
    let mut out = Vec::new();
    if let Some(code) = &input.code {
        let mut order: Vec<usize> = (0..input.kernels.len()).collect();
        order.sort_by_key(|&i| input.kernels[i].offset);
        let mut cur = 0usize;
        for i in order {
            let kernel = &input.kernels[i];
            let offset = kernel.offset as usize;
            out.extend_from_slice(&code[cur.min(code.len())..offset.min(code.len())]);
            let size = temps[i].setup_size;
            match kernel_setup_bytes(input, kernel, &temps[i], true) {
                Some(s) => out.extend_from_slice(&s[..size.min(s.len())]),
                None => out.extend_from_slice(&code[offset..(offset + size).min(code.len())]),
            }
            cur = offset + size;
        }
        if cur < code.len() {
            out.extend_from_slice(&code[cur..]);
        }
        return out;
    }
    for (kernel, temp) in input.kernels.iter().zip(temps) {
        let pad = out.len().next_multiple_of(256) - out.len();
        out.resize(out.len() + pad, 0);
        if let Some(s) = kernel_setup_bytes(input, kernel, temp, true) {
            out.extend_from_slice(&s);
        }
        out.extend_from_slice(&kernel.code);
    }
    out
}

fn rela(out: &mut Bytes, offset: u64, sym: u64, rtype: u64, addend: u64) {
    out.u64(offset).u64((sym << 32) | rtype).u64(addend);
}

/// Section index of a format section in the main ELF: `.comment` 4, `.rodata` 5, and
/// `.text` 6 when the binary has kernels or the new layout.
fn main_section(place: SymbolPlace, has_text: bool) -> Option<u16> {
    match place {
        SymbolPlace::Comment => Some(4),
        SymbolPlace::Rodata => Some(5),
        SymbolPlace::Text if has_text => Some(6),
        _ => None,
    }
}

/// Whether an added symbol of the inner ELF also gets a local `&input_bc::&` copy: those
/// of global data, read-write data and bss.
fn is_data_symbol(s: &ExtraSymbol) -> bool {
    matches!(
        s.place,
        SymbolPlace::Rodata | SymbolPlace::Data | SymbolPlace::Bss
    )
}

fn inner_binary(
    input: &Input,
    temps: &[KernelTemp],
    arch: gpu::ArchVersion,
) -> Result<Vec<u8>, FormatError> {
    let driver = input.driver_version;
    let v16_3 = driver >= VERSION_16_3;
    let has_global = !input.global_data.is_empty();
    let has_rw = !input.rw_data.is_empty();
    let has_bss = input.bss_size != 0;
    let samplers_num = if input.sampler_config {
        input.samplers.len()
    } else {
        input.sampler_init.len() >> 3
    };
    let has_samplers = has_samplers(input);
    let kernels = input.kernels.len();
    let gpu_pro = driver == 203603 || driver == 207903;
    let class = Class::Elf64;
    let header = Header {
        os_abi: 0x40,
        e_type: elf::ET_REL,
        machine: 0xe0,
        version: 1,
        ..Default::default()
    };
    let mut b = ElfBuilder::new(class, header);
    b.add_null_symbol = v16_3;
    b.addr_start_region = if v16_3 { 4 } else { 1 };

    let (symtab_id, global_id, text_id) = if !v16_3 {
        let n = |c: bool| u32::from(c);
        (
            4 + if has_samplers { 2 } else { 0 }
                + n(has_rw)
                + n(has_global)
                + n(has_bss)
                + n(has_rw || has_global || has_bss),
            1 + n(has_rw) + n(has_bss),
            1 + n(has_rw) + n(has_global) + n(has_bss),
        )
    } else {
        let n = |c: bool| u32::from(c);
        (
            5 + n(has_rw) + n(has_global) + n(has_bss),
            4 + n(has_rw) + n(has_bss),
            4 + n(has_rw) + n(has_global) + n(has_bss),
        )
    };

    let note1 = vec![1, 0, 0, 0, 0, 0, 0, 0];
    let note2 = if input.is64 {
        vec![1, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 0]
    } else {
        vec![1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0]
    };
    let mut note3 = vec![4, 0, 7, 0];
    note3.extend_from_slice(&arch.major.to_le_bytes());
    note3.extend_from_slice(&arch.minor.to_le_bytes());
    note3.extend_from_slice(&arch.stepping.to_le_bytes());
    note3.extend_from_slice(b"AMD\0AMDGPU\0\0\0\0");
    let amd_note = |n_type: u32, desc: Vec<u8>| Note {
        name: "AMD".into(),
        desc,
        n_type,
    };

    b.add(Region::program_headers(class));
    let mut section_ids = SectionIds::default();
    let mut next_id = 1u16;
    let mut take = || {
        let id = next_id;
        next_id += 1;
        id
    };
    if v16_3 {
        b.add(Region::generated(
            ".shstrtab",
            elf::SHT_STRTAB,
            elf::SHF_STRINGS,
            8,
        ));
        take();
        b.add(Region::generated(
            ".strtab",
            elf::SHT_STRTAB,
            elf::SHF_STRINGS,
            8,
        ));
        take();
        b.notes.push(amd_note(1, note1.clone()));
        b.notes.push(amd_note(2, note2.clone()));
        b.notes.push(amd_note(3, note3[..0x1a].to_vec()));
        let mut n4 = vec![0x19, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0];
        n4.extend_from_slice(b"AMD HSA Runtime Finalizer\0\0\0\0");
        b.notes.push(amd_note(4, n4));
        let n5: Vec<u8> = if gpu_pro {
            let mut v = vec![0x16, 0];
            v.extend_from_slice(b"-hsa_call_convention=0\0t");
            v
        } else if input.is64 {
            let mut v = vec![0x16, 0];
            v.extend_from_slice(b"-hsa_call_convention=0\0\0");
            v
        } else {
            let mut v = vec![0x32, 0];
            v.extend_from_slice(b"-hsa_call_convention=0 -use-buffer-for-hsa-global \0R");
            v
        };
        b.notes.push(amd_note(5, n5));
        b.add(Region::generated(".note", elf::SHT_NOTE, 0, 8));
        take();
    }
    let data_section = |name: &str, data: Vec<u8>, flags: u64| {
        let mut r = Region::section(name, elf::SHT_PROGBITS, flags, 8, data);
        r.info_mut().addr_base = AddrBase::Counted;
        r
    };
    if has_rw {
        b.add(data_section(
            ".hsadata_global_agent",
            input.rw_data.clone(),
            0x90_0003,
        ));
        section_ids.rw = take();
    }
    if has_bss {
        let align = if input.bss_align != 0 {
            input.bss_align
        } else {
            8
        };
        let mut r = Region::generated(".hsabss_global_agent", elf::SHT_NOBITS, 0x90_0003, align);
        r.size = Some(input.bss_size);
        let info = r.info_mut();
        info.addr_base = AddrBase::Counted;
        info.zero_offset = true;
        b.add(r);
        section_ids.bss = take();
    }
    if has_global {
        let mut data = input.global_data.clone();
        if !v16_3 {
            let all = (input.global_data.len() as u64
                + input.bss_size
                + input.rw_data.len() as u64
                + 255)
                & !255;
            let size = all - input.rw_data.len() as u64 - input.bss_size;
            data.resize(size as usize, 0);
        }
        b.add(data_section(".hsadata_readonly_agent", data, 0xa0_0003));
        section_ids.global = take();
    }
    if kernels != 0 {
        let mut r = Region::section(
            ".hsatext",
            elf::SHT_PROGBITS,
            0xc0_0007,
            256,
            inner_text(input, temps),
        );
        r.info_mut().addr_base = AddrBase::Counted;
        b.add(r);
        section_ids.text = take();
    }
    if v16_3 {
        b.add(Region::generated(".symtab", elf::SHT_SYMTAB, 0, 8));
        take();
    }
    let data_symbols = input
        .inner_extra_symbols
        .iter()
        .filter(|s| is_data_symbol(s))
        .count() as u64;
    if has_samplers {
        let init = if input.sampler_config {
            let mut v = Bytes::default();
            for &s in &input.samplers {
                v.u32(0x10008).u32(s);
            }
            v.0
        } else {
            input.sampler_init.clone()
        };
        let mut r = Region::section(
            ".hsaimage_samplerinit",
            elf::SHT_PROGBITS,
            elf::SHF_MERGE,
            if v16_3 { 8 } else { 1 },
            init,
        );
        r.info_mut().ent_size = 8;
        b.add(r);
        section_ids.sampler_init = take();
        let mut rel = Bytes::default();
        let first = kernels as u64
            + samplers_num as u64
            + data_symbols
            + 2
            + u64::from(has_rw)
            + u64::from(has_bss)
            + u64::from(v16_3);
        if !input.sampler_offsets.is_empty() {
            for (i, &off) in input.sampler_offsets.iter().enumerate() {
                rela(&mut rel, off, first + i as u64, 4, 0);
            }
        } else {
            let base =
                (input.global_data.len() as u64).wrapping_sub((samplers_num as u64) << 3) & !7;
            for i in 0..samplers_num as u64 {
                rela(&mut rel, base + 8 * i, first + i, 4, 0);
            }
        }
        let mut r = Region::section(".rela.hsadata_readonly_agent", elf::SHT_RELA, 0, 8, rel.0);
        let info = r.info_mut();
        info.link = symtab_id;
        info.info = Some(global_id);
        info.ent_size = 24;
        b.add(r);
        take();
    }
    // Text relocations.
    let mut rel = Bytes::default();
    {
        let mut gdata = kernels as u64 + samplers_num as u64 + data_symbols + u64::from(v16_3);
        let mut adata = 0;
        let mut bss = gdata;
        if has_rw {
            adata = gdata;
            gdata += 1;
        }
        if has_bss {
            bss = gdata;
            gdata += 1;
        }
        let sym_of = |r: &Reloc| match r.symbol {
            1 => adata,
            2 => bss,
            _ => gdata,
        };
        if input.code.is_some() {
            for r in &input.relocations {
                rela(
                    &mut rel,
                    r.offset,
                    sym_of(r),
                    if r.high { 2 } else { 1 },
                    r.addend,
                );
            }
        } else {
            let mut code_offset = 0u64;
            for (kernel, temp) in input.kernels.iter().zip(temps) {
                code_offset += temp.setup_size as u64;
                for r in &kernel.relocations {
                    rela(
                        &mut rel,
                        r.offset + code_offset,
                        sym_of(r),
                        if r.high { 2 } else { 1 },
                        r.addend,
                    );
                }
                code_offset += (kernel.code.len() as u64 + 255) & !255;
            }
        }
    }
    if !rel.is_empty() {
        let mut r = Region::section(".rela.hsatext", elf::SHT_RELA, 0, 8, rel.0);
        let info = r.info_mut();
        info.link = symtab_id;
        info.info = Some(text_id);
        info.ent_size = 24;
        b.add(r);
        take();
    }
    if !v16_3 {
        b.notes.push(amd_note(1, note1));
        b.notes.push(amd_note(2, note2));
        let n5 = if input.is64 {
            let mut v = vec![0x16, 0];
            v.extend_from_slice(b"-hsa_call_convention=\0\0");
            v
        } else {
            let mut v = vec![0x31, 0];
            v.extend_from_slice(b"-hsa_call_convention=0 -use-buffer-for-hsa-globa");
            v
        };
        b.notes.push(amd_note(5, n5));
        b.notes.push(amd_note(3, note3[..0x1e].to_vec()));
        b.notes.push(amd_note(
            4,
            if input.is64 {
                vec![0xf0, 0x83, 0x17, 0xfb, 0xfc, 0x7f, 0, 0]
            } else {
                vec![0xb0, 0xa6, 0xf2, 0]
            },
        ));
        b.add(Region::generated(".note", elf::SHT_NOTE, 0, 8));
        take();
        b.add(Region::generated(
            ".strtab",
            elf::SHT_STRTAB,
            elf::SHF_STRINGS,
            1,
        ));
        take();
        b.add(Region::generated(".symtab", elf::SHT_SYMTAB, 0, 8));
        take();
        b.add(Region::generated(
            ".shstrtab",
            elf::SHT_STRTAB,
            elf::SHF_STRINGS,
            1,
        ));
        take();
    }
    // Extra sections come after the format's sections.
    let first_extra = next_id;
    if kernels != 0 {
        inner_symbols(
            &mut b,
            input,
            temps,
            &section_ids,
            samplers_num,
            first_extra,
        )?;
    }
    b.add_extra_sections(&input.inner_extra_sections);
    b.add(Region::section_headers(class));
    if kernels != 0 {
        let mut reg = if v16_3 { 4 } else { 1 };
        let ph = |p_type: u32, flags: u32, start: usize, regions: usize, vaddr: AddrBase| {
            ProgramHeader {
                p_type,
                flags,
                region_start: start,
                regions,
                have_mem_size: true,
                paddr_base: AddrBase::Header,
                vaddr_base: vaddr,
                mem_size: 0,
                align: 0,
            }
        };
        let data_regions = usize::from(has_rw) + usize::from(has_bss);
        if data_regions != 0 {
            b.program_headers
                .push(ph(0x6000_0001, 6, reg, data_regions, AddrBase::Header));
            reg += data_regions;
        }
        if has_global {
            b.program_headers
                .push(ph(0x6000_0002, 6, reg, 1, AddrBase::Counted));
            reg += 1;
        }
        b.program_headers.push(ph(
            0x6000_0003,
            if v16_3 { 5 } else { 6 },
            reg,
            1,
            AddrBase::Counted,
        ));
    }
    Ok(b.build())
}

/// Section indices of the inner ELF's format sections (0: not in the binary).
#[derive(Default)]
struct SectionIds {
    rw: u16,
    bss: u16,
    global: u16,
    text: u16,
    sampler_init: u16,
}

impl SectionIds {
    fn of(&self, place: SymbolPlace) -> Option<u16> {
        let id = match place {
            SymbolPlace::Text => self.text,
            SymbolPlace::Rodata => self.global,
            SymbolPlace::Data => self.rw,
            SymbolPlace::Bss => self.bss,
            SymbolPlace::SamplerInit => self.sampler_init,
            _ => 0,
        };
        (id != 0).then_some(id)
    }
}

fn inner_symbols(
    b: &mut ElfBuilder,
    input: &Input,
    temps: &[KernelTemp],
    ids: &SectionIds,
    samplers_num: usize,
    first_extra: u16,
) -> Result<(), FormatError> {
    let added: Vec<Symbol> = input
        .inner_extra_symbols
        .iter()
        .map(|s| s.entry(|p| ids.of(p), first_extra))
        .collect::<Result<_, _>>()?;
    for (s, entry) in input.inner_extra_symbols.iter().zip(&added) {
        if is_data_symbol(s) {
            let info = elf::st_info(elf::STB_LOCAL, elf::STT_OBJECT);
            b.symbols.push(Symbol {
                name: format!("&input_bc::&{}", s.name),
                info,
                other: 0,
                ..entry.clone()
            });
        }
    }
    let mut sampler_done = vec![false; samplers_num];
    let sampler_base = (input.global_data.len() as u64).wrapping_sub(samplers_num as u64);
    let local = |kind| elf::st_info(elf::STB_LOCAL, kind);
    let sampler_value = |i: usize| {
        input
            .sampler_offsets
            .get(i)
            .copied()
            .unwrap_or_else(|| sampler_base.wrapping_add(i as u64 * 8))
    };
    let mut code_pos = 0u64;
    for (kernel, temp) in input.kernels.iter().zip(temps) {
        if input.code.is_none() {
            code_pos = code_pos.next_multiple_of(256);
        } else {
            code_pos = kernel.offset;
        }
        if let Some(config) = config_of(&kernel.setup) {
            for &s in &config.samplers {
                let s = s as usize;
                if s >= samplers_num || sampler_done[s] {
                    continue;
                }
                b.symbols.push(Symbol {
                    name: format!("&input_bc::&_.Samp{s}"),
                    shndx: ids.global,
                    info: local(elf::STT_OBJECT),
                    other: 0,
                    value: sampler_value(s),
                    size: 8,
                });
                sampler_done[s] = true;
            }
        }
        let code_size = match &input.code {
            None => kernel.code.len() as u64,
            Some(_) => kernel.code.len() as u64,
        };
        b.symbols.push(Symbol {
            name: format!("&__OpenCL_{}_kernel", kernel.name),
            shndx: ids.text,
            info: elf::st_info(elf::STB_GLOBAL, 10),
            other: 0,
            value: code_pos,
            size: code_size + temp.setup_size as u64,
        });
        if input.code.is_none() {
            code_pos += code_size + temp.setup_size as u64;
        }
    }
    for (i, done) in sampler_done.iter().enumerate() {
        if !done {
            b.symbols.push(Symbol {
                name: format!("&input_bc::&_.Samp{i}"),
                shndx: ids.global,
                info: local(elf::STT_OBJECT),
                other: 0,
                value: sampler_value(i),
                size: 8,
            });
        }
    }
    let section_sym = |name: &str, shndx: u16| Symbol {
        name: name.into(),
        shndx,
        info: local(elf::STT_SECTION),
        other: 0,
        value: 0,
        size: 0,
    };
    if !input.rw_data.is_empty() {
        b.symbols
            .push(section_sym("__hsa_section.hsadata_global_agent", ids.rw));
    }
    if input.bss_size != 0 {
        b.symbols
            .push(section_sym("__hsa_section.hsabss_global_agent", ids.bss));
    }
    if !input.global_data.is_empty() {
        b.symbols.push(section_sym(
            "__hsa_section.hsadata_readonly_agent",
            ids.global,
        ));
    }
    b.symbols
        .push(section_sym("__hsa_section.hsatext", ids.text));
    for i in 0..samplers_num {
        b.symbols.push(Symbol {
            name: String::new(),
            shndx: ids.sampler_init,
            info: local(12),
            other: 0,
            value: i as u64 * 8,
            size: 0,
        });
    }
    b.symbols.extend(added);
    Ok(())
}

fn has_samplers(input: &Input) -> bool {
    !input.sampler_offsets.is_empty()
        || (!input.sampler_config && !input.sampler_init.is_empty())
        || (input.sampler_config && !input.samplers.is_empty())
}

/// Writes the binary.
/// Errors: every kernel's first refusal, or the binary's.
pub fn write(input: &Input) -> Result<Vec<u8>, Vec<FormatError>> {
    let driver = input.driver_version;
    let new_binaries = driver >= NEW_BINARIES;
    let v16_3 = driver >= VERSION_16_3;
    let gen = input.device.generation();
    if gen == Generation::Gcn1_0 {
        return Err(FormatError::new(format!(
            "the AMD OpenCL 2.0 binary format needs GCN 1.1 or later, not {} (GCN 1.0)",
            input.device
        ))
        .into());
    }
    let has_global = !input.global_data.is_empty();
    let has_rw = !input.rw_data.is_empty();
    let samplers = has_samplers(input);
    if (has_global || has_rw || samplers) && !new_binaries {
        return Err(FormatError::new(format!("binaries of drivers before {NEW_BINARIES} (this one: {driver}) have no global data, read-write data or samplers")).into());
    }
    if new_binaries {
        if !has_global && samplers {
            return Err(FormatError::new("samplers need global data (`.globaldata`)").into());
        }
        if input
            .sampler_offsets
            .iter()
            .any(|&o| o + 8 > input.global_data.len() as u64)
        {
            return Err(FormatError::new(
                "a sampler offset (`.samplerreloc`) lies outside the global data",
            )
            .into());
        }
    }
    let samplers_num = if input.sampler_config {
        input.samplers.len()
    } else {
        input.sampler_init.len() >> 3
    };
    if !input.sampler_offsets.is_empty() && input.sampler_offsets.len() != samplers_num {
        return Err(FormatError::new(format!(
            "{} sampler offsets (`.samplerreloc`) for {samplers_num} samplers",
            input.sampler_offsets.len()
        ))
        .into());
    }
    let mut arch = gpu::arch_version(input.device, ArchTable::AmdCl2);
    if !v16_3 && input.device == Device::Fiji {
        arch.stepping = 1;
    }
    if let Some(m) = input.arch_minor {
        arch.minor = m;
    }
    if let Some(s) = input.arch_stepping {
        arch.stepping = s;
    }
    let Some(flags) = device_code(driver, input.device) else {
        return Err(FormatError::new(format!(
            "driver version {driver} has no device code for {}",
            input.device
        ))
        .into());
    };
    let acl_version = if !input.acl_version.is_empty() {
        input.acl_version.clone()
    } else if new_binaries {
        "AMD-COMP-LIB-v0.8 (0.0.SC_BUILD_NUMBER)".to_string()
    } else {
        "AMD-COMP-LIB-v0.8 (0.0.326)".to_string()
    };
    let temps = prepare_kernels(input)?;
    if new_binaries {
        if let Some(code) = &input.code {
            for k in &input.kernels {
                if k.offset >= code.len() as u64 {
                    return Err(FormatError::kernel(
                        &k.name,
                        "its code starts past the end of the code",
                    )
                    .into());
                }
            }
            for r in &input.relocations {
                if r.offset + 4 > code.len() as u64 {
                    return Err(
                        FormatError::new("a relocation lies past the end of the code").into(),
                    );
                }
            }
        }
    }

    let class = if input.is64 {
        Class::Elf64
    } else {
        Class::Elf32
    };
    let header = Header {
        e_type: elf::ET_EXEC,
        machine: if input.is64 { 0xaf5b } else { 0xaf5a },
        version: 1,
        flags,
        ..Default::default()
    };
    let mut b = ElfBuilder::new(class, header);
    let kernels = input.kernels.len();

    let mut syms = LocalSymbols::new(class);
    if !input.compile_options.is_empty() {
        syms.add(
            b"__OpenCL_compiler_options",
            4,
            0,
            input.compile_options.len() as u64,
            elf::STT_OBJECT,
        );
    }
    let mut rodata_pos = 0u64;
    for (kernel, temp) in input.kernels.iter().zip(&temps) {
        let name = format!("__OpenCL_&__OpenCL_{}_kernel_metadata", kernel.name);
        syms.add(
            name.as_bytes(),
            5,
            rodata_pos,
            temp.metadata.len() as u64,
            elf::STT_OBJECT,
        );
        rodata_pos += temp.metadata.len() as u64;
    }
    // A main extra section named `.brig` gets a `__BRIG__` symbol, numbered as if
    // `.rodata` and `.text` (sections 5 and 6) both came before the extra sections.
    if let Some(brig) = input.extra_sections.iter().position(|s| s.name == ".brig") {
        let size = input.extra_sections[brig].data.len() as u64;
        syms.add(b"__BRIG__", 7 + brig as u16, 0, size, elf::STT_OBJECT);
    }
    if !new_binaries {
        let mut text_pos = 0u64;
        for (kernel, temp) in input.kernels.iter().zip(&temps) {
            let size = (temp.stub.len() + temp.setup_size + kernel.code.len()) as u64;
            let name = format!("__ISA_&__OpenCL_{}_kernel_binary", kernel.name);
            syms.add(name.as_bytes(), 6, text_pos, size, elf::STT_FUNC);
            text_pos += size;
            let name = format!("__ISA_&__OpenCL_{}_kernel_metadata", kernel.name);
            syms.add(
                name.as_bytes(),
                5,
                rodata_pos,
                temp.isa_metadata.len() as u64,
                elf::STT_OBJECT,
            );
            rodata_pos += temp.isa_metadata.len() as u64;
        }
    }
    let acl_offset = input.compile_options.len() as u64;
    syms.add(
        b"acl_version_string",
        4,
        acl_offset,
        acl_version.len() as u64,
        elf::STT_OBJECT,
    );
    let has_text = kernels != 0 || new_binaries;
    let first_extra = if has_text { 7 } else { 6 };
    for s in &input.extra_symbols {
        syms.add_symbol(&s.entry(|p| main_section(p, has_text), first_extra)?);
    }
    syms.add_sections(&mut b);
    let mut comment = input.compile_options.clone().into_bytes();
    comment.extend_from_slice(acl_version.as_bytes());
    b.add(Region::section(
        ".comment",
        elf::SHT_PROGBITS,
        0,
        1,
        comment,
    ));
    if kernels != 0 {
        let mut rodata = Vec::new();
        for temp in &temps {
            rodata.extend_from_slice(&temp.metadata);
        }
        if !new_binaries {
            for temp in &temps {
                rodata.extend_from_slice(&temp.isa_metadata);
            }
        }
        b.add(Region::section(
            ".rodata",
            elf::SHT_PROGBITS,
            elf::SHF_ALLOC,
            1,
            rodata,
        ));
    }
    if kernels != 0 || new_binaries {
        let text = if new_binaries {
            inner_binary(input, &temps, arch)?
        } else {
            let mut text = Vec::new();
            for (kernel, temp) in input.kernels.iter().zip(&temps) {
                text.extend_from_slice(&temp.stub);
                if let Some(s) = kernel_setup_bytes(input, kernel, temp, false) {
                    text.extend_from_slice(&s);
                }
                text.extend_from_slice(&kernel.code);
            }
            text
        };
        b.add(Region::section(
            ".text",
            elf::SHT_PROGBITS,
            elf::SHF_ALLOC | elf::SHF_EXECINSTR,
            1,
            text,
        ));
    }
    b.add_extra_sections(&input.extra_sections);
    b.add(Region::section_headers(class));
    Ok(b.build())
}

/// Values an HSA descriptor of a `.hsaconfig` kernel is finished with.
pub struct HsaFinish {
    pub device: Device,
    pub is64: bool,
    pub driver_version: u32,
    /// Registers the code uses (numbered SGPRs, VGPRs) and its special registers.
    pub code_sgprs: u32,
    pub code_vgprs: u32,
    pub extra: gpu::ExtraRegs,
    pub args: Vec<KernelArg>,
}

/// Finishes an AMD OpenCL 2.0 HSA descriptor (`.hsaconfig`).
pub fn finish_hsa(config: &HsaConfig, f: &HsaFinish) -> KernelCode {
    let gen = f.device.generation();
    let user_sgprs = config
        .user_data_num
        .unwrap_or_else(|| config.user_sgprs_from_flags());
    let defaults = config.default_registers(gen, f.code_sgprs, f.code_vgprs, f.extra);
    let extra = defaults.extra;
    let extra_sgprs = gpu::extra_sgprs(gen, extra);
    let (used_sgprs, prog_sgprs) = match config.used_sgprs {
        Some(u) => (u, u.saturating_sub(extra_sgprs)),
        None => (defaults.sgprs, defaults.numbered_sgprs),
    };
    let used_vgprs = config.used_vgprs.unwrap_or(defaults.vgprs);
    let sgprs = used_sgprs.max(1);
    let vgprs = used_vgprs.max(1);
    let (rsrc1, rsrc2) = config.rsrc.program_resources(
        gen,
        &gpu::RsrcLayout {
            vgprs,
            sgprs,
            user_data: user_sgprs,
            scratch: config.workitem_private_segment_size.is_some_and(|s| s != 0),
            dim_mask: Some(config.dim_mask),
            default_dims: None,
            lds_size: 0,
            wave32: false,
        },
    );
    let arg_size = kernel_arg_size(&f.args, f.is64, f.driver_version >= NEW_BINARIES);
    config.kernel_code(KernelCodeDefaults {
        machine: (1, 0, 0, 0),
        pgm_rsrc1: rsrc1,
        pgm_rsrc2: rsrc2,
        private_segment_size: 0,
        group_segment_size: 0,
        kernarg_segment_size: u64::from(arg_size),
        wavefront_sgpr_count: sgprs as u16,
        workitem_vgpr_count: vgprs as u16,
        reserved_vgpr_first: vgprs as u16,
        reserved_sgpr_first: prog_sgprs as u16,
    })
}
