//! ROCm code objects (the `-b rocm` format): a 64-bit shared object for the AMD HSA
//! runtime, laid out as clrxasm 0.1.9 lays it out.
//!
//! The file, in order: the ELF header, the program headers, then
//! - in the new binary format (`.newbinfmt`, `--newROCmBinFormat`), the `.note` section
//!   first (the AMD notes: version, ISA, target, metadata);
//! - `.rodata` (the global data, if any), `.dynsym`, `.hash`, `.dynstr`, `.rela.dyn`
//!   (one relocation per global offset table entry, if any): the first loadable segment;
//! - `.text` at a 4096-byte boundary (each kernel's code starts with its 256-byte
//!   descriptor): the executable segment;
//! - `.dynamic` at the next 4096-byte boundary and `.got` (8 zero bytes an entry): the
//!   writable segment;
//! - in the old format, `.note` and an empty `.AMDGPU.config`;
//! - `.comment`, `.symtab`, `.shstrtab`, `.strtab`, the section header table, and the
//!   sections the source added (`.section NAME`).
//!
//! Addresses are file offsets. The dynamic symbols are the source's symbols (kernels,
//! functions, data); the symbol table has them too, after a hidden local `_DYNAMIC`.
//!
//! The LLVM 10 binary format (`.llvm10binfmt`, AMD OpenCL for Navi) changes, as the
//! reference's generator does: no AMD notes (version, ISA, target); `.rodata`, which it
//! requires, comes after `.dynstr` at a 64-byte boundary and starts with one 64-byte
//! kernel descriptor a kernel, each named by a `NAME.kd` symbol (a protected object,
//! after its kernel's symbol); kernels are protected functions; the ELF header's ABI
//! version is 1 and its flags 51 by default (in the new layout). The v3 metadata
//! (`.metadatav3`, MessagePack) goes in an `AMDGPU` note of type 32 (`NT_AMDGPU_METADATA`)
//! instead of an `AMD` note of type 10.
//! [`layout`] gives the places of `.rodata`, `.text` and `.got` before the code is final,
//! which the assembler needs to value differences between them.

use crate::elf::Bytes;
use crate::gpu::ArchVersion;
use crate::FormatError;

/// The `.comment` the reference writes when the source gives none.
pub const DEFAULT_COMMENT: &str = "CLRX ROCmBinGenerator 0.1.9";

/// What a symbol of the code is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RegionKind {
    /// A kernel (`STT_GNU_IFUNC`).
    Kernel,
    /// A function kernel (`.fkernel`: `STT_FUNC`).
    FKernel,
    /// Data in the code (`STT_OBJECT`).
    Data,
}

/// A symbol of `.text`: a kernel, a function kernel or data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodeSymbol {
    pub name: String,
    /// Offset in `.text`.
    pub offset: u64,
    pub size: u64,
    pub kind: RegionKind,
}

/// A global symbol besides the code's ([`crate::elf::ExtraSymbol`]): its value is an
/// offset in its place (or absolute).
pub use crate::elf::{ExtraSymbol, SymbolPlace};

/// A section the source added (`.section NAME`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExtraSection {
    pub name: String,
    pub data: Vec<u8>,
}

/// Everything a ROCm code object is made of.
#[derive(Debug, Clone, Default)]
pub struct Input {
    /// The architecture version the ISA note gives (`.arch_minor`, `.arch_stepping`
    /// applied).
    pub arch: ArchVersion,
    /// `.eflags`; by default 2 in the new binary format, else 0.
    pub eflags: Option<u32>,
    pub new_bin_format: bool,
    /// The LLVM 10 binary format (see the module's documentation).
    pub llvm10_bin_format: bool,
    /// The metadata is MessagePack (v3): an `AMDGPU` note of type 32.
    pub metadata_v3: bool,
    /// The target note's text (empty: no target note).
    pub target: String,
    /// The metadata note's text (empty: no metadata note).
    pub metadata: Vec<u8>,
    pub code: Vec<u8>,
    /// `.rodata`, if the source has global data.
    pub global_data: Option<Vec<u8>>,
    /// `.comment`; by default [`DEFAULT_COMMENT`].
    pub comment: Option<Vec<u8>>,
    /// Data symbols of the code, then the kernels, in the order the reference adds them.
    pub symbols: Vec<CodeSymbol>,
    /// The other global symbols.
    pub extra_symbols: Vec<ExtraSymbol>,
    /// The global offset table: per entry, the index of its symbol in `symbols` followed
    /// by `extra_symbols`.
    pub got_symbols: Vec<usize>,
    pub extra_sections: Vec<ExtraSection>,
}

const SHT_PROGBITS: u32 = 1;
const SHT_SYMTAB: u32 = 2;
const SHT_STRTAB: u32 = 3;
const SHT_RELA: u32 = 4;
const SHT_HASH: u32 = 5;
const SHT_DYNAMIC: u32 = 6;
const SHT_NOTE: u32 = 7;
const SHT_DYNSYM: u32 = 11;

const SHF_WRITE: u64 = 1;
const SHF_ALLOC: u64 = 2;
const SHF_EXECINSTR: u64 = 4;
const SHF_MERGE: u64 = 0x10;
const SHF_STRINGS: u64 = 0x20;

const PT_LOAD: u32 = 1;
const PT_DYNAMIC: u32 = 2;
const PT_NOTE: u32 = 4;
const PT_PHDR: u32 = 6;
const PT_GNU_STACK: u32 = 0x6474_e551;
const PT_GNU_RELRO: u32 = 0x6474_e552;
const PF_X: u32 = 1;
const PF_W: u32 = 2;
const PF_R: u32 = 4;

const SHN_ABS: u16 = 0xfff1;
const STT_FUNC: u8 = 2;
const STT_OBJECT: u8 = 1;
const STT_GNU_IFUNC: u8 = 10;
const STB_GLOBAL: u8 = 1;
const STV_HIDDEN: u8 = 2;
const STV_PROTECTED: u8 = 3;

/// The size of a kernel descriptor of the LLVM 10 format (in `.rodata`).
pub const KERNEL_DESCRIPTOR_SIZE: u64 = 64;

/// A kernel descriptor of the LLVM 10 format (code object v3, LLVM's AMDHSA
/// `kernel_descriptor_t`): 64 bytes in `.rodata`, named by a `NAME.kd` symbol. The
/// fields not here are reserved and zero.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct KernelDescriptor {
    pub group_segment_fixed_size: u32,
    pub private_segment_fixed_size: u32,
    /// From the descriptor's address to the kernel's first instruction.
    pub kernel_code_entry_byte_offset: i64,
    pub pgm_rsrc3: u32,
    pub pgm_rsrc1: u32,
    pub pgm_rsrc2: u32,
    /// The SGPRs the setup fills and the wave32 bit (as `sgpr_flags` of the v2 descriptor).
    pub kernel_code_properties: u16,
}

impl KernelDescriptor {
    const ENTRY_OFFSET_AT: usize = 16;
    const PGM_RSRC3_AT: usize = 44;
    const PGM_RSRC1_AT: usize = 48;
    const PGM_RSRC2_AT: usize = 52;
    const PROPERTIES_AT: usize = 56;

    pub fn to_bytes(&self) -> [u8; 64] {
        let mut d = [0u8; 64];
        d[0..4].copy_from_slice(&self.group_segment_fixed_size.to_le_bytes());
        d[4..8].copy_from_slice(&self.private_segment_fixed_size.to_le_bytes());
        d[Self::ENTRY_OFFSET_AT..Self::ENTRY_OFFSET_AT + 8]
            .copy_from_slice(&self.kernel_code_entry_byte_offset.to_le_bytes());
        d[Self::PGM_RSRC3_AT..Self::PGM_RSRC3_AT + 4]
            .copy_from_slice(&self.pgm_rsrc3.to_le_bytes());
        d[Self::PGM_RSRC1_AT..Self::PGM_RSRC1_AT + 4]
            .copy_from_slice(&self.pgm_rsrc1.to_le_bytes());
        d[Self::PGM_RSRC2_AT..Self::PGM_RSRC2_AT + 4]
            .copy_from_slice(&self.pgm_rsrc2.to_le_bytes());
        d[Self::PROPERTIES_AT..Self::PROPERTIES_AT + 2]
            .copy_from_slice(&self.kernel_code_properties.to_le_bytes());
        d
    }

    /// The fields of 64 descriptor bytes (the reserved ones are not kept).
    pub fn of_bytes(d: &[u8; 64]) -> KernelDescriptor {
        let u32_at = |o: usize| u32::from_le_bytes([d[o], d[o + 1], d[o + 2], d[o + 3]]);
        let mut entry = [0u8; 8];
        entry.copy_from_slice(&d[Self::ENTRY_OFFSET_AT..Self::ENTRY_OFFSET_AT + 8]);
        KernelDescriptor {
            group_segment_fixed_size: u32_at(0),
            private_segment_fixed_size: u32_at(4),
            kernel_code_entry_byte_offset: i64::from_le_bytes(entry),
            pgm_rsrc3: u32_at(Self::PGM_RSRC3_AT),
            pgm_rsrc1: u32_at(Self::PGM_RSRC1_AT),
            pgm_rsrc2: u32_at(Self::PGM_RSRC2_AT),
            kernel_code_properties: u16::from_le_bytes([
                d[Self::PROPERTIES_AT],
                d[Self::PROPERTIES_AT + 1],
            ]),
        }
    }
}
/// `NT_AMDGPU_METADATA`, the type of the v3 metadata note.
const NT_AMDGPU_METADATA: u32 = 32;

const DT_NULL: u64 = 0;
const DT_HASH: u64 = 4;
const DT_STRTAB: u64 = 5;
const DT_SYMTAB: u64 = 6;
const DT_STRSZ: u64 = 10;
const DT_SYMENT: u64 = 11;
/// `R_AMDGPU_ABS64`, the relocation of a global offset table entry.
const R_AMDGPU_ABS64: u64 = 3;

fn align(x: u64, a: u64) -> u64 {
    if a <= 1 {
        x
    } else {
        x.div_ceil(a) * a
    }
}

/// What a section of the file is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Id {
    Note,
    Rodata,
    DynSym,
    Hash,
    DynStr,
    RelaDyn,
    Text,
    Dynamic,
    Got,
    GpuConfig,
    Comment,
    SymTab,
    ShStrTab,
    StrTab,
    Extra(usize),
}

/// One section laid out.
#[derive(Debug, Clone)]
struct Placed {
    id: Id,
    name: String,
    offset: u64,
    size: u64,
}

/// The places of the sections an assembler values differences between: the file
/// offsets (which are also the addresses) of `.rodata`, `.text` and `.got`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Places {
    pub rodata: Option<u64>,
    pub text: u64,
    pub got: Option<u64>,
}

/// What a symbol of the binary stands for, in the order of the dynamic symbols.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum SymbolRef {
    /// `symbols[i]`.
    Code(usize),
    /// The descriptor of kernel `symbols[i]` (LLVM 10 format), at this offset of `.rodata`.
    Descriptor(usize, u64),
    /// `extra_symbols[i]`.
    Extra(usize),
}

/// The dynamic symbols in order: `symbols` (each kernel followed by its `NAME.kd`
/// descriptor in the LLVM 10 format), then `extra_symbols`.
fn symbol_refs(input: &Input) -> Vec<SymbolRef> {
    let mut refs = Vec::new();
    let mut descriptor_offset = 0;
    for (i, s) in input.symbols.iter().enumerate() {
        refs.push(SymbolRef::Code(i));
        if input.llvm10_bin_format && s.kind == RegionKind::Kernel {
            refs.push(SymbolRef::Descriptor(i, descriptor_offset));
            descriptor_offset += KERNEL_DESCRIPTOR_SIZE;
        }
    }
    refs.extend((0..input.extra_symbols.len()).map(SymbolRef::Extra));
    refs
}

/// Names of the dynamic symbols, in order (see [`symbol_refs`]).
fn dyn_names(input: &Input) -> Vec<String> {
    symbol_refs(input)
        .into_iter()
        .map(|r| match r {
            SymbolRef::Code(i) => input.symbols[i].name.clone(),
            SymbolRef::Descriptor(i, _) => format!("{}.kd", input.symbols[i].name),
            SymbolRef::Extra(i) => input.extra_symbols[i].name.clone(),
        })
        .collect()
}

/// A note of the `.note` section.
struct Note {
    owner: &'static str,
    ty: u32,
    desc: Vec<u8>,
}

/// The notes of the `.note` section: the AMD ones (version, ISA, target) but in the LLVM
/// 10 format, then the metadata.
fn notes(input: &Input) -> Vec<Note> {
    let mut notes = Vec::new();
    if !input.llvm10_bin_format {
        let mut isa = Bytes::default();
        isa.u16(4)
            .u16(7)
            .u32(input.arch.major)
            .u32(input.arch.minor)
            .u32(input.arch.stepping)
            .bytes(b"AMD\0AMDGPU\0");
        notes.push(Note {
            owner: "AMD",
            ty: 1,
            desc: vec![2, 0, 0, 0, 1, 0, 0, 0],
        });
        notes.push(Note {
            owner: "AMD",
            ty: 3,
            desc: isa.0,
        });
        if !input.target.is_empty() {
            notes.push(Note {
                owner: "AMD",
                ty: 0xb,
                desc: input.target.as_bytes().to_vec(),
            });
        }
    }
    if !input.metadata.is_empty() {
        let (owner, ty) = if input.metadata_v3 {
            ("AMDGPU", NT_AMDGPU_METADATA)
        } else {
            ("AMD", 0xa)
        };
        notes.push(Note {
            owner,
            ty,
            desc: input.metadata.clone(),
        });
    }
    notes
}

/// The `.note` section: each note's header, its owner's name (with its NUL) and its
/// description, both padded to 4 bytes.
fn note_bytes(input: &Input) -> Vec<u8> {
    let mut b = Bytes::default();
    for note in notes(input) {
        let name_size = note.owner.len() + 1;
        b.u32(name_size as u32)
            .u32(note.desc.len() as u32)
            .u32(note.ty);
        b.bytes(note.owner.as_bytes())
            .zeros(align(name_size as u64, 4) as usize - note.owner.len());
        b.bytes(&note.desc)
            .zeros((align(note.desc.len() as u64, 4) - note.desc.len() as u64) as usize);
    }
    b.0
}

fn comment(input: &Input) -> &[u8] {
    input
        .comment
        .as_deref()
        .unwrap_or(DEFAULT_COMMENT.as_bytes())
}

/// The ELF hash of a symbol name.
fn elf_hash(name: &str) -> u32 {
    let mut h: u32 = 0;
    for &b in name.as_bytes() {
        h = (h << 4).wrapping_add(u32::from(b));
        let g = h & 0xf000_0000;
        if g != 0 {
            h ^= g >> 24;
        }
        h &= !g;
    }
    h
}

/// The number of buckets the reference gives the hash table of these symbols (and the
/// null one): of the counts it tries, the one with the least `buckets + sum of chain
/// lengths²`.
pub fn hash_buckets(names: &[&str]) -> u32 {
    let codes: Vec<u32> = names.iter().map(|n| elf_hash(n)).collect();
    let count = codes.len() as u32 + 1;
    let first = (count >> 2).max(1);
    let max_steps = u64::from(count) * 2 - u64::from(first) + 1;
    let steps = max_steps.min(4000);
    let step = (max_steps / steps).max(1) as u32;
    let (mut best, mut best_value) = (0u32, u64::MAX);
    let mut buckets = first;
    while buckets <= count * 2 {
        let mut chains = vec![0u64; buckets as usize];
        for &c in &codes {
            chains[(c % buckets) as usize] += 1;
        }
        let value = u64::from(buckets) + chains.iter().map(|l| l * l).sum::<u64>();
        if value < best_value {
            best = buckets;
            best_value = value;
        }
        buckets += step;
    }
    best
}

fn hash_bytes(names: &[&str]) -> Vec<u8> {
    let buckets = hash_buckets(names);
    let chains = names.len() + 1;
    let mut bucket = vec![0u32; buckets as usize];
    let mut chain = vec![0u32; chains];
    // From the last symbol to the first, each at the head of its bucket's chain.
    for (i, name) in names.iter().enumerate().rev() {
        let b = (elf_hash(name) % buckets) as usize;
        chain[i + 1] = bucket[b];
        bucket[b] = (i + 1) as u32;
    }
    let mut out = Bytes::default();
    out.u32(buckets).u32(chains as u32);
    for v in bucket.iter().chain(chain.iter()) {
        out.u32(*v);
    }
    out.0
}

fn strtab(names: &[&str]) -> Vec<u8> {
    let mut out = vec![0];
    for n in names.iter().filter(|n| !n.is_empty()) {
        out.extend_from_slice(n.as_bytes());
        out.push(0);
    }
    out
}

const SECTION_HEADER: u64 = 64;
const PROGRAM_HEADER: u64 = 56;

/// The alignment of `.rodata`: 64 bytes in the LLVM 10 format (it holds the kernel
/// descriptors), else 4.
fn rodata_align(input: &Input) -> u64 {
    if input.llvm10_bin_format {
        64
    } else {
        4
    }
}

/// The sections in file order with their places; the section header table's offset.
fn place(input: &Input) -> (Vec<Placed>, u64) {
    let owned_names = dyn_names(input);
    let names: Vec<&str> = owned_names.iter().map(String::as_str).collect();
    let got = !input.got_symbols.is_empty();
    let program_headers = 7 + u64::from(input.new_bin_format);
    let mut offset = 64 + program_headers * PROGRAM_HEADER;
    let mut out = Vec::new();
    let add = |out: &mut Vec<Placed>, offset: &mut u64, id: Id, name: &str, al: u64, size: u64| {
        *offset = align(*offset, al);
        out.push(Placed {
            id,
            name: name.to_string(),
            offset: *offset,
            size,
        });
        *offset += size;
    };
    let note_size = note_bytes(input).len() as u64;
    if input.new_bin_format {
        add(&mut out, &mut offset, Id::Note, ".note", 4, note_size);
    }
    let add_rodata = |out: &mut Vec<Placed>, offset: &mut u64| {
        if let Some(d) = &input.global_data {
            add(
                out,
                offset,
                Id::Rodata,
                ".rodata",
                rodata_align(input),
                d.len() as u64,
            );
        }
    };
    if !input.llvm10_bin_format {
        add_rodata(&mut out, &mut offset);
    }
    add(
        &mut out,
        &mut offset,
        Id::DynSym,
        ".dynsym",
        8,
        24 * (names.len() as u64 + 1),
    );
    add(
        &mut out,
        &mut offset,
        Id::Hash,
        ".hash",
        4,
        hash_bytes(&names).len() as u64,
    );
    add(
        &mut out,
        &mut offset,
        Id::DynStr,
        ".dynstr",
        1,
        strtab(&names).len() as u64,
    );
    if input.llvm10_bin_format {
        add_rodata(&mut out, &mut offset);
    }
    if got {
        add(
            &mut out,
            &mut offset,
            Id::RelaDyn,
            ".rela.dyn",
            8,
            24 * input.got_symbols.len() as u64,
        );
    }
    add(
        &mut out,
        &mut offset,
        Id::Text,
        ".text",
        0x1000,
        input.code.len() as u64,
    );
    add(
        &mut out,
        &mut offset,
        Id::Dynamic,
        ".dynamic",
        0x1000,
        6 * 16,
    );
    if got {
        add(
            &mut out,
            &mut offset,
            Id::Got,
            ".got",
            8,
            8 * input.got_symbols.len() as u64,
        );
    }
    if !input.new_bin_format {
        add(&mut out, &mut offset, Id::Note, ".note", 4, note_size);
        add(&mut out, &mut offset, Id::GpuConfig, ".AMDGPU.config", 1, 0);
    }
    add(
        &mut out,
        &mut offset,
        Id::Comment,
        ".comment",
        1,
        comment(input).len() as u64,
    );
    add(
        &mut out,
        &mut offset,
        Id::SymTab,
        ".symtab",
        8,
        24 * (names.len() as u64 + 2),
    );
    let mut section_names: Vec<&str> = out.iter().map(|p| p.name.as_str()).collect();
    section_names.extend([".shstrtab", ".strtab"]);
    section_names.extend(input.extra_sections.iter().map(|s| s.name.as_str()));
    let shstrtab_size = strtab(&section_names).len() as u64;
    add(
        &mut out,
        &mut offset,
        Id::ShStrTab,
        ".shstrtab",
        1,
        shstrtab_size,
    );
    let mut sym_names = vec!["_DYNAMIC"];
    sym_names.extend(&names);
    add(
        &mut out,
        &mut offset,
        Id::StrTab,
        ".strtab",
        1,
        strtab(&sym_names).len() as u64,
    );
    let shoff = align(offset, 8);
    offset = shoff + SECTION_HEADER * (out.len() as u64 + 1 + input.extra_sections.len() as u64);
    for (i, s) in input.extra_sections.iter().enumerate() {
        add(
            &mut out,
            &mut offset,
            Id::Extra(i),
            &s.name,
            1,
            s.data.len() as u64,
        );
    }
    (out, shoff)
}

/// The places of `.rodata`, `.text` and `.got` in the binary of `input` (its code's
/// content does not matter, only its size).
pub fn layout(input: &Input) -> Places {
    let (placed, _) = place(input);
    let at = |id: Id| placed.iter().find(|p| p.id == id).map(|p| p.offset);
    Places {
        rodata: at(Id::Rodata),
        text: at(Id::Text).unwrap_or(0),
        got: at(Id::Got),
    }
}

/// A symbol table entry: name, `st_info`, `st_other`, section index, value, size.
type Sym<'a> = (&'a str, u8, u8, u16, u64, u64);

/// The entries of the dynamic symbol table (the symbol table has them too), in the order
/// of [`symbol_refs`].
fn elf_symbols<'a>(input: &Input, names: &[&'a str], placed: &[Placed]) -> Vec<Sym<'a>> {
    let index = |id: Id| {
        placed
            .iter()
            .position(|p| p.id == id)
            .map_or(0, |i| i as u16 + 1)
    };
    let addr = |id: Id| placed.iter().find(|p| p.id == id).map_or(0, |p| p.offset);
    // In the LLVM 10 format kernels are protected functions, no longer indirect ones.
    let (kernel_type, kernel_visibility) = if input.llvm10_bin_format {
        (STT_FUNC, STV_PROTECTED)
    } else {
        (STT_GNU_IFUNC, 0)
    };
    let refs = symbol_refs(input);
    let mut syms = Vec::with_capacity(refs.len());
    for (r, &name) in refs.iter().zip(names) {
        syms.push(match *r {
            SymbolRef::Code(i) => {
                let s = &input.symbols[i];
                let (kind, other) = match s.kind {
                    RegionKind::Kernel => (kernel_type, kernel_visibility),
                    RegionKind::FKernel => (STT_FUNC, 0),
                    RegionKind::Data => (STT_OBJECT, 0),
                };
                (
                    name,
                    (STB_GLOBAL << 4) | kind,
                    other,
                    index(Id::Text),
                    addr(Id::Text) + s.offset,
                    s.size,
                )
            }
            SymbolRef::Descriptor(i, offset) => {
                let info = (STB_GLOBAL << 4) | STT_OBJECT;
                (
                    name,
                    info,
                    STV_PROTECTED,
                    index(Id::Rodata),
                    addr(Id::Rodata) + offset,
                    input.symbols[i].size,
                )
            }
            SymbolRef::Extra(i) => {
                let s = &input.extra_symbols[i];
                let (shndx, base) = match s.place {
                    SymbolPlace::Abs => (SHN_ABS, 0),
                    SymbolPlace::Text => (index(Id::Text), addr(Id::Text)),
                    SymbolPlace::Rodata => (index(Id::Rodata), addr(Id::Rodata)),
                    SymbolPlace::Got => (index(Id::Got), addr(Id::Got)),
                    // Not loaded: no address.
                    SymbolPlace::Comment => (index(Id::Comment), 0),
                    SymbolPlace::Extra(i) => (index(Id::Extra(i)), 0),
                    // The AMD formats' places: not in a ROCm code object.
                    SymbolPlace::Data | SymbolPlace::Bss | SymbolPlace::SamplerInit => continue,
                };
                (
                    name,
                    s.info,
                    s.other,
                    shndx,
                    base.wrapping_add(s.value),
                    s.size,
                )
            }
        });
    }
    syms
}

/// What the format requires of the input.
fn check(input: &Input, names: &[&str]) -> Result<(), FormatError> {
    if input.global_data.is_none() && (input.llvm10_bin_format || input.metadata_v3) {
        return Err(FormatError::new(
            "the LLVM10 binary format and the v3 metadata require global data (`.globaldata`)",
        ));
    }
    for &g in &input.got_symbols {
        if g >= names.len() {
            return Err(FormatError::new(format!(
                "global offset table entry for symbol {g} out of range"
            )));
        }
    }
    Ok(())
}

/// Writes the ROCm code object.
pub fn write(input: &Input) -> Result<Vec<u8>, FormatError> {
    let owned_names = dyn_names(input);
    let names: Vec<&str> = owned_names.iter().map(String::as_str).collect();
    check(input, &names)?;
    let (placed, shoff) = place(input);
    let index = |id: Id| {
        placed
            .iter()
            .position(|p| p.id == id)
            .map_or(0, |i| i as u16 + 1)
    };
    let find = |id: Id| placed.iter().find(|p| p.id == id);
    let addr = |id: Id| find(id).map_or(0, |p| p.offset);
    let got = !input.got_symbols.is_empty();

    let syms = elf_symbols(input, &names, &placed);
    let sym_entry =
        |b: &mut Bytes, name: u32, info: u8, other: u8, shndx: u16, value: u64, size: u64| {
            b.u32(name)
                .u8(info)
                .u8(other)
                .u16(shndx)
                .u64(value)
                .u64(size);
        };
    let mut dynsym = Bytes::default();
    dynsym.zeros(24);
    let mut name_offset = 1u32;
    for &(name, info, other, shndx, value, size) in &syms {
        let n = if name.is_empty() { 0 } else { name_offset };
        sym_entry(&mut dynsym, n, info, other, shndx, value, size);
        if !name.is_empty() {
            name_offset += name.len() as u32 + 1;
        }
    }
    let mut symtab = Bytes::default();
    symtab.zeros(24);
    sym_entry(
        &mut symtab,
        1,
        0,
        STV_HIDDEN,
        index(Id::Dynamic),
        addr(Id::Dynamic),
        0,
    );
    let mut name_offset = 1 + "_DYNAMIC".len() as u32 + 1;
    for &(name, info, other, shndx, value, size) in &syms {
        let n = if name.is_empty() { 0 } else { name_offset };
        sym_entry(&mut symtab, n, info, other, shndx, value, size);
        if !name.is_empty() {
            name_offset += name.len() as u32 + 1;
        }
    }
    let dynstr = strtab(&names);
    let mut sym_names = vec!["_DYNAMIC"];
    sym_names.extend(&names);

    let mut dynamic = Bytes::default();
    for (tag, value) in [
        (DT_SYMTAB, addr(Id::DynSym)),
        (DT_SYMENT, 24),
        (DT_STRTAB, addr(Id::DynStr)),
        (DT_STRSZ, dynstr.len() as u64),
        (DT_HASH, addr(Id::Hash)),
        (DT_NULL, 0),
    ] {
        dynamic.u64(tag).u64(value);
    }
    let mut rela = Bytes::default();
    for (i, &s) in input.got_symbols.iter().enumerate() {
        rela.u64(addr(Id::Got) + 8 * i as u64)
            .u64(((s as u64 + 1) << 32) | R_AMDGPU_ABS64)
            .u64(0);
    }
    let mut section_names: Vec<&str> = placed
        .iter()
        .filter(|p| !matches!(p.id, Id::Extra(_)))
        .map(|p| p.name.as_str())
        .collect();
    section_names.extend(input.extra_sections.iter().map(|s| s.name.as_str()));

    let content = |id: Id| -> Vec<u8> {
        match id {
            Id::Note => note_bytes(input),
            Id::Rodata => input.global_data.clone().unwrap_or_default(),
            Id::DynSym => dynsym.0.clone(),
            Id::Hash => hash_bytes(&names),
            Id::DynStr => dynstr.clone(),
            Id::RelaDyn => rela.0.clone(),
            Id::Text => input.code.clone(),
            Id::Dynamic => dynamic.0.clone(),
            Id::Got => vec![0; 8 * input.got_symbols.len()],
            Id::GpuConfig => Vec::new(),
            Id::Comment => comment(input).to_vec(),
            Id::SymTab => symtab.0.clone(),
            Id::ShStrTab => strtab(&section_names),
            Id::StrTab => strtab(&sym_names),
            Id::Extra(i) => input.extra_sections[i].data.clone(),
        }
    };

    // Program headers: (type, flags, first section, last section, align).
    let first_loaded = Id::Text;
    let text_index = placed
        .iter()
        .position(|p| p.id == first_loaded)
        .unwrap_or(0);
    let last_read = &placed[text_index - 1];
    let dynamic_p = find(Id::Dynamic).expect("dynamic section");
    let writable_end =
        find(if got { Id::Got } else { Id::Dynamic }).map_or(0, |p| p.offset + p.size);
    let text_p = &placed[text_index];
    let program_headers = 7 + u64::from(input.new_bin_format);
    // (type, flags, offset, size, align)
    let mut phdrs: Vec<(u32, u32, u64, u64, u64)> = vec![
        (PT_PHDR, PF_R, 64, program_headers * PROGRAM_HEADER, 8),
        (PT_LOAD, PF_R, 0, last_read.offset + last_read.size, 0x1000),
        (PT_LOAD, PF_R | PF_X, text_p.offset, text_p.size, 0x1000),
        (
            PT_LOAD,
            PF_R | PF_W,
            dynamic_p.offset,
            writable_end - dynamic_p.offset,
            0x1000,
        ),
        (PT_DYNAMIC, PF_R | PF_W, dynamic_p.offset, dynamic_p.size, 8),
        (
            PT_GNU_RELRO,
            PF_R,
            dynamic_p.offset,
            writable_end - dynamic_p.offset,
            1,
        ),
        (PT_GNU_STACK, PF_R | PF_W, 0, 0, 0),
    ];
    if input.new_bin_format {
        let n = find(Id::Note).expect("note section");
        phdrs.push((PT_NOTE, PF_R, n.offset, n.size, 4));
    }

    let mut out = Bytes::default();
    // ELF header: OS ABI 0x40 (AMD HSA), ABI version 1 for the LLVM 10 format.
    let abi_version = u8::from(input.new_bin_format && input.llvm10_bin_format);
    out.bytes(&[0x7f, b'E', b'L', b'F', 2, 1, 1, 0x40, abi_version])
        .zeros(7);
    let entry = if input.new_bin_format {
        text_p.offset
    } else {
        0
    };
    let default_eflags = match (input.new_bin_format, input.llvm10_bin_format) {
        (false, _) => 0,
        (true, false) => 2,
        (true, true) => 51,
    };
    let eflags = input.eflags.unwrap_or(default_eflags);
    let section_count = placed.len() as u16 + 1;
    out.u16(3)
        .u16(0xe0)
        .u32(1)
        .u64(entry)
        .u64(64)
        .u64(shoff)
        .u32(eflags);
    out.u16(64)
        .u16(PROGRAM_HEADER as u16)
        .u16(phdrs.len() as u16)
        .u16(SECTION_HEADER as u16)
        .u16(section_count);
    out.u16(index(Id::ShStrTab));
    for &(ty, flags, offset, size, al) in &phdrs {
        out.u32(ty)
            .u32(flags)
            .u64(offset)
            .u64(offset)
            .u64(offset)
            .u64(size)
            .u64(size)
            .u64(al);
    }
    let write_section = |out: &mut Bytes, p: &Placed| {
        out.zeros((p.offset as usize).saturating_sub(out.len()));
        out.bytes(&content(p.id));
    };
    for p in placed.iter().filter(|p| !matches!(p.id, Id::Extra(_))) {
        write_section(&mut out, p);
    }
    // Section headers.
    out.zeros(shoff as usize - out.len());
    out.zeros(SECTION_HEADER as usize);
    let mut name_offset = 1u32;
    for p in &placed {
        let (ty, flags, link, info, al, entsize, address) = match p.id {
            Id::Note => (SHT_NOTE, 0, 0, 0, 4, 0, false),
            Id::Rodata => (SHT_PROGBITS, SHF_ALLOC, 0, 0, rodata_align(input), 0, true),
            Id::DynSym => (SHT_DYNSYM, SHF_ALLOC, index(Id::DynStr), 1, 8, 24, true),
            Id::Hash => (SHT_HASH, SHF_ALLOC, index(Id::DynSym), 0, 4, 0, true),
            Id::DynStr => (SHT_STRTAB, SHF_ALLOC, 0, 0, 1, 0, true),
            Id::RelaDyn => (SHT_RELA, SHF_ALLOC, index(Id::DynSym), 0, 8, 24, true),
            Id::Text => (SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, 0, 0, 256, 0, true),
            Id::Dynamic => (
                SHT_DYNAMIC,
                SHF_ALLOC | SHF_WRITE,
                index(Id::DynStr),
                0,
                8,
                16,
                true,
            ),
            Id::Got => (SHT_PROGBITS, SHF_ALLOC | SHF_WRITE, 0, 0, 8, 0, true),
            Id::GpuConfig => (SHT_PROGBITS, 0, 0, 0, 1, 0, false),
            Id::Comment => (SHT_PROGBITS, SHF_MERGE | SHF_STRINGS, 0, 0, 1, 1, false),
            Id::SymTab => (SHT_SYMTAB, 0, index(Id::StrTab), 2, 8, 24, false),
            Id::ShStrTab | Id::StrTab => (SHT_STRTAB, 0, 0, 0, 1, 0, false),
            Id::Extra(_) => (SHT_PROGBITS, 0, 0, 0, 1, 0, false),
        };
        let name = if p.name.is_empty() { 0 } else { name_offset };
        out.u32(name)
            .u32(ty)
            .u64(flags)
            .u64(if address { p.offset } else { 0 })
            .u64(p.offset)
            .u64(p.size);
        out.u32(u32::from(link)).u32(info).u64(al).u64(entsize);
        if !p.name.is_empty() {
            name_offset += p.name.len() as u32 + 1;
        }
    }
    for p in placed.iter().filter(|p| matches!(p.id, Id::Extra(_))) {
        write_section(&mut out, p);
    }
    Ok(out.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The descriptor of a kernel the reference assembled (RandomX's `randomx_run` for
    /// GFX1010: LDS 256 bytes, code 0x740 bytes after the descriptor, wave32).
    #[test]
    fn kernel_descriptor_bytes() {
        let d = KernelDescriptor {
            group_segment_fixed_size: 256,
            private_segment_fixed_size: 0,
            kernel_code_entry_byte_offset: 0x740,
            pgm_rsrc3: 0,
            pgm_rsrc1: 0x40af_03cf,
            pgm_rsrc2: 0x8c,
            kernel_code_properties: 0x409,
        };
        let mut want = [0u8; 64];
        want[1] = 1;
        want[16..18].copy_from_slice(&[0x40, 0x07]);
        want[48..52].copy_from_slice(&[0xcf, 0x03, 0xaf, 0x40]);
        want[52] = 0x8c;
        want[56..58].copy_from_slice(&[0x09, 0x04]);
        assert_eq!(d.to_bytes(), want);
        assert_eq!(KernelDescriptor::of_bytes(&want), d);
    }

    #[test]
    fn hash_buckets_as_the_reference() {
        // The reference's binaries: one kernel, 1 bucket; two kernels, 2 buckets; five
        // symbols, 3 buckets.
        assert_eq!(hash_buckets(&["kxx1"]), 1);
        assert_eq!(hash_buckets(&["kxx1", "kxx2"]), 2);
        assert_eq!(
            hash_buckets(&["datav", "vectorAdd", "globalValX", "gdata2", "gdata1"]),
            3
        );
    }

    #[test]
    fn hash_table_chains_as_the_reference() {
        let h = hash_bytes(&["datav", "vectorAdd", "globalValX", "gdata2", "gdata1"]);
        let words: Vec<u32> = h
            .chunks(4)
            .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
            .collect();
        assert_eq!(words, [3, 6, 1, 5, 2, 0, 3, 4, 0, 0, 0]);
    }
}
