//! A small ELF writer that lays files out the way CLRX's binary generators do.
//!
//! The layouts these formats need are unusual for a general ELF writer: the section
//! header table sits between sections, sections may be padded to the next region's
//! alignment, addresses count only some regions, program headers cover region ranges.
//! So the file is described as an ordered list of [`Region`]s (the ELF header comes
//! first, implicitly) and written in one pass, in that order.
//!
//! The rules, which the writers depend on byte for byte:
//! - each region starts at the next multiple of its alignment (the larger of the
//!   region's and, for a section, the section's own alignment); the gap is zeroes;
//! - a section with no explicit size gets one from its type: the symbol table from the
//!   symbols, `.strtab` from the symbol names, `.shstrtab` from the section names, a
//!   note section from the notes;
//! - a section's `sh_size` is its size, except that a section with no region alignment
//!   that is followed by an alignment gap includes the gap;
//! - addresses start at zero and only sections from [`ElfBuilder::addr_start_region`] on
//!   advance them.

/// ELF class.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    Elf32,
    Elf64,
}

impl Class {
    fn ehdr_size(self) -> u64 {
        match self {
            Class::Elf32 => 52,
            Class::Elf64 => 64,
        }
    }
    fn phdr_size(self) -> u64 {
        match self {
            Class::Elf32 => 32,
            Class::Elf64 => 56,
        }
    }
    fn shdr_size(self) -> u64 {
        match self {
            Class::Elf32 => 40,
            Class::Elf64 => 64,
        }
    }
    /// Size of a symbol table entry.
    pub fn sym_size(self) -> u64 {
        match self {
            Class::Elf32 => 16,
            Class::Elf64 => 24,
        }
    }
    /// Size of an address-sized word (the default alignment of tables).
    pub fn word(self) -> u64 {
        match self {
            Class::Elf32 => 4,
            Class::Elf64 => 8,
        }
    }
}

pub const SHT_PROGBITS: u32 = 1;
pub const SHT_SYMTAB: u32 = 2;
pub const SHT_STRTAB: u32 = 3;
pub const SHT_RELA: u32 = 4;
pub const SHT_NOTE: u32 = 7;
pub const SHT_NOBITS: u32 = 8;
pub const SHT_REL: u32 = 9;

pub const SHF_WRITE: u64 = 1;
pub const SHF_ALLOC: u64 = 2;
pub const SHF_EXECINSTR: u64 = 4;
pub const SHF_MERGE: u64 = 0x10;
pub const SHF_STRINGS: u64 = 0x20;

pub const ET_REL: u16 = 1;
pub const ET_EXEC: u16 = 2;

pub const STB_LOCAL: u8 = 0;
pub const STB_GLOBAL: u8 = 1;
pub const STT_NOTYPE: u8 = 0;
pub const STT_OBJECT: u8 = 1;
pub const STT_FUNC: u8 = 2;
pub const STT_SECTION: u8 = 3;

/// `st_info` from a binding and a type.
pub const fn st_info(bind: u8, kind: u8) -> u8 {
    (bind << 4) | (kind & 0xf)
}

/// How a section's (or program header's) address is formed from its counted address.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum AddrBase {
    /// The ELF header's base if it has one, else zero.
    #[default]
    Header,
    /// The counted address as is.
    Counted,
    /// This base plus the counted address.
    Base(u64),
}

/// The ELF header's fields that vary.
#[derive(Debug, Clone, Default)]
pub struct Header {
    pub os_abi: u8,
    pub abi_version: u8,
    pub e_type: u16,
    pub machine: u16,
    pub version: u32,
    pub flags: u32,
    pub paddr_base: u64,
    pub vaddr_base: u64,
}

/// A section's header fields.
#[derive(Debug, Clone, Default)]
pub struct SectionInfo {
    pub name: String,
    pub sh_type: u32,
    pub flags: u64,
    pub link: u32,
    /// `None` for a symbol table: the number of local symbols.
    pub info: Option<u32>,
    pub addr_base: AddrBase,
    pub ent_size: u64,
    /// Write zero as the section's file offset.
    pub zero_offset: bool,
    /// The section's own alignment (0: the region's).
    pub align: u64,
}

#[derive(Debug, Clone)]
pub enum RegionKind {
    ProgramHeaders,
    SectionHeaders,
    /// Bytes outside any section.
    User,
    Section(SectionInfo),
}

/// A piece of the file, in order.
#[derive(Debug, Clone)]
pub struct Region {
    pub kind: RegionKind,
    pub align: u64,
    /// Explicit size; `None` lets the type decide (see the module docs).
    pub size: Option<u64>,
    pub data: Vec<u8>,
}

impl Region {
    pub fn program_headers(class: Class) -> Region {
        Region {
            kind: RegionKind::ProgramHeaders,
            align: class.word(),
            size: None,
            data: Vec::new(),
        }
    }

    pub fn section_headers(class: Class) -> Region {
        Region {
            kind: RegionKind::SectionHeaders,
            align: class.word(),
            size: None,
            data: Vec::new(),
        }
    }

    pub fn user(data: Vec<u8>, align: u64) -> Region {
        Region {
            kind: RegionKind::User,
            align,
            size: Some(data.len() as u64),
            data,
        }
    }

    /// A section with content.
    pub fn section(name: &str, sh_type: u32, flags: u64, align: u64, data: Vec<u8>) -> Region {
        let info = SectionInfo {
            name: name.into(),
            sh_type,
            flags,
            info: Some(0),
            ..Default::default()
        };
        Region {
            kind: RegionKind::Section(info),
            align,
            size: Some(data.len() as u64),
            data,
        }
    }

    /// A section whose size and content come from its type (`.symtab`, `.strtab`, ...).
    pub fn generated(name: &str, sh_type: u32, flags: u64, align: u64) -> Region {
        let info = SectionInfo {
            name: name.into(),
            sh_type,
            flags,
            info: Some(0),
            ..Default::default()
        };
        Region {
            kind: RegionKind::Section(info),
            align,
            size: None,
            data: Vec::new(),
        }
    }

    /// A symbol table counting its local symbols in `sh_info`.
    pub fn symtab(class: Class) -> Region {
        let mut r = Region::generated(".symtab", SHT_SYMTAB, 0, class.word());
        r.info_mut().info = None;
        r
    }

    pub fn info_mut(&mut self) -> &mut SectionInfo {
        match &mut self.kind {
            RegionKind::Section(s) => s,
            _ => panic!("not a section region"),
        }
    }

    fn section_info(&self) -> Option<&SectionInfo> {
        match &self.kind {
            RegionKind::Section(s) => Some(s),
            _ => None,
        }
    }

    fn effective_align(&self) -> u64 {
        let sect = self.section_info().map_or(0, |s| s.align);
        self.align.max(sect)
    }
}

#[derive(Debug, Clone)]
pub struct Symbol {
    pub name: String,
    pub shndx: u16,
    pub info: u8,
    pub other: u8,
    pub value: u64,
    pub size: u64,
}

#[derive(Debug, Clone)]
pub struct ProgramHeader {
    pub p_type: u32,
    pub flags: u32,
    pub region_start: usize,
    pub regions: usize,
    pub have_mem_size: bool,
    pub paddr_base: AddrBase,
    pub vaddr_base: AddrBase,
    /// Memory size (0: from the regions).
    pub mem_size: u64,
    /// Alignment (0: the first region's).
    pub align: u64,
}

#[derive(Debug, Clone)]
pub struct Note {
    pub name: String,
    pub desc: Vec<u8>,
    pub n_type: u32,
}

/// An ELF file being described.
#[derive(Debug, Clone)]
pub struct ElfBuilder {
    pub class: Class,
    pub header: Header,
    pub add_null_symbol: bool,
    pub add_null_section: bool,
    /// First region whose sections advance addresses.
    pub addr_start_region: usize,
    pub regions: Vec<Region>,
    pub program_headers: Vec<ProgramHeader>,
    pub symbols: Vec<Symbol>,
    pub notes: Vec<Note>,
}

struct Layout {
    offsets: Vec<u64>,
    addresses: Vec<u64>,
    sizes: Vec<u64>,
    total: u64,
    sections: usize,
    shstrtab: usize,
    strtab: usize,
}

fn align_up(v: u64, a: u64) -> u64 {
    if a > 1 && !v.is_multiple_of(a) {
        v + a - v % a
    } else {
        v
    }
}

fn note_size(notes: &[Note]) -> u64 {
    notes
        .iter()
        .map(|n| 12 + align_up(n.name.len() as u64 + 1, 4) + align_up(n.desc.len() as u64, 4))
        .sum()
}

impl ElfBuilder {
    pub fn new(class: Class, header: Header) -> ElfBuilder {
        ElfBuilder {
            class,
            header,
            add_null_symbol: true,
            add_null_section: true,
            addr_start_region: 0,
            regions: Vec::new(),
            program_headers: Vec::new(),
            symbols: Vec::new(),
            notes: Vec::new(),
        }
    }

    pub fn add(&mut self, region: Region) -> usize {
        self.regions.push(region);
        self.regions.len() - 1
    }

    /// ELF section index the next section region will get.
    pub fn next_section_index(&self) -> u16 {
        (usize::from(self.add_null_section)
            + self
                .regions
                .iter()
                .filter(|r| r.section_info().is_some())
                .count()) as u16
    }

    fn strtab_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        if self.add_null_symbol {
            out.push(0);
        }
        for s in self.symbols.iter().filter(|s| !s.name.is_empty()) {
            out.extend_from_slice(s.name.as_bytes());
            out.push(0);
        }
        out
    }

    fn shstrtab_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        if self.add_null_section {
            out.push(0);
        }
        for s in self
            .regions
            .iter()
            .filter_map(|r| r.section_info())
            .filter(|s| !s.name.is_empty())
        {
            out.extend_from_slice(s.name.as_bytes());
            out.push(0);
        }
        out
    }

    fn default_size(&self, info: &SectionInfo) -> u64 {
        match info.sh_type {
            SHT_SYMTAB => {
                (self.symbols.len() as u64 + u64::from(self.add_null_symbol))
                    * self.class.sym_size()
            }
            SHT_NOTE => note_size(&self.notes),
            SHT_STRTAB if info.name == ".strtab" => self.strtab_bytes().len() as u64,
            SHT_STRTAB if info.name == ".shstrtab" => self.shstrtab_bytes().len() as u64,
            _ => 0,
        }
    }

    fn layout(&self) -> Layout {
        let n = self.regions.len();
        let mut offsets = vec![0; n];
        let mut addresses = vec![0; n];
        let mut sizes = vec![0; n];
        let mut size = self.class.ehdr_size();
        let mut address = 0u64;
        let sections = usize::from(self.add_null_section)
            + self
                .regions
                .iter()
                .filter(|r| r.section_info().is_some())
                .count();
        let mut section_index = usize::from(self.add_null_section);
        let (mut shstrtab, mut strtab) = (0, 0);
        for (i, region) in self.regions.iter().enumerate() {
            let align = region.effective_align();
            size = align_up(size, align);
            address = align_up(address, align);
            offsets[i] = size;
            addresses[i] = address;
            match &region.kind {
                RegionKind::ProgramHeaders => {
                    sizes[i] = self.program_headers.len() as u64 * self.class.phdr_size();
                    size += sizes[i];
                }
                RegionKind::SectionHeaders => {
                    sizes[i] = sections as u64 * self.class.shdr_size();
                    size += sizes[i];
                }
                RegionKind::User => {
                    sizes[i] = region.size.unwrap_or(region.data.len() as u64);
                    size += sizes[i];
                }
                RegionKind::Section(info) => {
                    let explicit = region.size.filter(|&s| s != 0);
                    match explicit {
                        Some(s) => {
                            sizes[i] = s;
                            if info.sh_type != SHT_NOBITS {
                                size += s;
                            }
                        }
                        None => {
                            sizes[i] = if info.sh_type == SHT_NOBITS {
                                0
                            } else {
                                self.default_size(info)
                            };
                            size += sizes[i];
                        }
                    }
                    if i >= self.addr_start_region {
                        address += sizes[i];
                    }
                    match info.name.as_str() {
                        ".strtab" => strtab = section_index,
                        ".shstrtab" => shstrtab = section_index,
                        _ => {}
                    }
                    section_index += 1;
                }
            }
        }
        Layout {
            offsets,
            addresses,
            sizes,
            total: size,
            sections,
            shstrtab,
            strtab,
        }
    }

    /// The whole file.
    pub fn build(&self) -> Vec<u8> {
        let lay = self.layout();
        let mut out = W {
            buf: Vec::with_capacity(lay.total as usize),
            class: self.class,
        };
        self.write_header(&mut out, &lay);
        for (i, region) in self.regions.iter().enumerate() {
            out.pad_to(lay.offsets[i]);
            match &region.kind {
                RegionKind::ProgramHeaders => self.write_program_headers(&mut out, &lay),
                RegionKind::SectionHeaders => self.write_section_headers(&mut out, &lay),
                RegionKind::User => out.bytes(&region.data),
                RegionKind::Section(info) => {
                    if region.size.filter(|&s| s != 0).is_some() {
                        if info.sh_type != SHT_NOBITS {
                            out.bytes(&region.data);
                        }
                    } else if info.sh_type != SHT_NOBITS {
                        self.write_generated(&mut out, info);
                    }
                }
            }
        }
        debug_assert_eq!(out.buf.len() as u64, lay.total);
        out.buf
    }

    fn write_header(&self, out: &mut W, lay: &Layout) {
        let h = &self.header;
        out.bytes(&[0x7f, b'E', b'L', b'F']);
        out.u8(if self.class == Class::Elf32 { 1 } else { 2 });
        out.u8(1); // little-endian
        out.u8(1); // EV_CURRENT
        out.u8(h.os_abi);
        out.u8(h.abi_version);
        out.bytes(&[0; 7]);
        out.u16(h.e_type);
        out.u16(h.machine);
        out.u32(h.version);
        out.word(0); // entry
        let phdrs = self
            .regions
            .iter()
            .position(|r| matches!(r.kind, RegionKind::ProgramHeaders));
        let shdrs = self
            .regions
            .iter()
            .position(|r| matches!(r.kind, RegionKind::SectionHeaders));
        let phoff = if self.program_headers.is_empty() {
            0
        } else {
            phdrs.map_or(0, |i| lay.offsets[i])
        };
        out.word(phoff);
        out.word(shdrs.map_or(0, |i| lay.offsets[i]));
        out.u32(h.flags);
        out.u16(self.class.ehdr_size() as u16);
        out.u16(if self.program_headers.is_empty() {
            0
        } else {
            self.class.phdr_size() as u16
        });
        out.u16(self.program_headers.len() as u16);
        out.u16(self.class.shdr_size() as u16);
        out.u16(lay.sections as u16);
        out.u16(lay.shstrtab as u16);
    }

    fn resolve_addr(&self, base: AddrBase, header_base: u64, addr: u64) -> u64 {
        match base {
            AddrBase::Counted => addr,
            AddrBase::Base(b) if b != 0 => b + addr,
            _ if header_base != 0 => header_base + addr,
            _ => 0,
        }
    }

    fn write_program_headers(&self, out: &mut W, lay: &Layout) {
        for ph in &self.program_headers {
            let start = ph.region_start;
            let sregion = &self.regions[start];
            let zero_offset = sregion.section_info().is_some_and(|s| s.zero_offset);
            let offset = if zero_offset { 0 } else { lay.offsets[start] };
            let align = if ph.align != 0 {
                ph.align
            } else if ph.regions == 0 {
                0
            } else {
                sregion.effective_align()
            };
            let paddr =
                self.resolve_addr(ph.paddr_base, self.header.paddr_base, lay.addresses[start]);
            let vaddr =
                self.resolve_addr(ph.vaddr_base, self.header.vaddr_base, lay.addresses[start]);
            let (filesz, memsz) = if ph.regions != 0 {
                let last = start + ph.regions - 1;
                let nobits = self.regions[last]
                    .section_info()
                    .is_some_and(|s| s.sh_type == SHT_NOBITS);
                let last_file = if nobits { 0 } else { lay.sizes[last] };
                let filesz = lay.offsets[last] + last_file - lay.offsets[start];
                let span = lay.addresses[last] + lay.sizes[last] - lay.addresses[start];
                let memsz = if !ph.have_mem_size {
                    0
                } else if ph.mem_size != 0 {
                    ph.mem_size
                } else {
                    span
                };
                (filesz, memsz)
            } else {
                (0, 0)
            };
            out.u32(ph.p_type);
            match self.class {
                Class::Elf32 => {
                    out.u32(offset as u32);
                    out.u32(vaddr as u32);
                    out.u32(paddr as u32);
                    out.u32(filesz as u32);
                    out.u32(memsz as u32);
                    out.u32(ph.flags);
                    out.u32(align as u32);
                }
                Class::Elf64 => {
                    out.u32(ph.flags);
                    out.u64(offset);
                    out.u64(vaddr);
                    out.u64(paddr);
                    out.u64(filesz);
                    out.u64(memsz);
                    out.u64(align);
                }
            }
        }
    }

    fn write_section_headers(&self, out: &mut W, lay: &Layout) {
        if self.add_null_section {
            out.bytes(&vec![0; self.class.shdr_size() as usize]);
        }
        let null_name = if self.add_null_section {
            0
        } else {
            self.regions
                .iter()
                .find_map(|r| r.section_info())
                .map_or(0, |s| s.name.len() as u32)
        };
        let mut name_offset = u32::from(self.add_null_section);
        let n = self.regions.len();
        for (j, region) in self.regions.iter().enumerate() {
            let Some(info) = region.section_info() else {
                continue;
            };
            let sh_name = if info.name.is_empty() {
                null_name
            } else {
                name_offset
            };
            let sh_offset = if info.zero_offset { 0 } else { lay.offsets[j] };
            let sh_addr =
                self.resolve_addr(info.addr_base, self.header.vaddr_base, lay.addresses[j]);
            let sh_size = if region.align != 0
                || j + 1 >= n
                || lay.offsets[j] + lay.sizes[j] == lay.offsets[j + 1]
            {
                lay.sizes[j]
            } else {
                lay.offsets[j + 1] - lay.offsets[j]
            };
            let sh_info = match (info.sh_type, info.info) {
                (_, Some(v)) => v,
                (SHT_SYMTAB, None) => {
                    let last_local = self
                        .symbols
                        .iter()
                        .rposition(|s| s.info >> 4 == STB_LOCAL)
                        .map_or(0, |p| p + 1);
                    (last_local + usize::from(self.add_null_symbol)) as u32
                }
                (_, None) => 0,
            };
            let sh_align = if info.align == 0 {
                region.align
            } else {
                info.align
            };
            let sh_link = if info.link == 0 && info.name == ".symtab" {
                lay.strtab as u32
            } else {
                info.link
            };
            let sh_entsize = if info.sh_type == SHT_SYMTAB {
                self.class.sym_size()
            } else {
                info.ent_size
            };
            out.u32(sh_name);
            out.u32(info.sh_type);
            out.word(info.flags);
            out.word(sh_addr);
            out.word(sh_offset);
            out.word(sh_size);
            out.u32(sh_link);
            out.u32(sh_info);
            out.word(sh_align);
            out.word(sh_entsize);
            if !info.name.is_empty() {
                name_offset += info.name.len() as u32 + 1;
            }
        }
    }

    fn write_generated(&self, out: &mut W, info: &SectionInfo) {
        match info.sh_type {
            SHT_SYMTAB => {
                let mut name_offset = 0u32;
                if self.add_null_symbol {
                    out.bytes(&vec![0; self.class.sym_size() as usize]);
                    name_offset = 1;
                }
                let null_name = if !self.add_null_symbol && !self.symbols.is_empty() {
                    self.symbols[0].name.len() as u32
                } else {
                    0
                };
                for s in &self.symbols {
                    let st_name = if s.name.is_empty() {
                        null_name
                    } else {
                        name_offset
                    };
                    match self.class {
                        Class::Elf32 => {
                            out.u32(st_name);
                            out.u32(s.value as u32);
                            out.u32(s.size as u32);
                            out.u8(s.info);
                            out.u8(s.other);
                            out.u16(s.shndx);
                        }
                        Class::Elf64 => {
                            out.u32(st_name);
                            out.u8(s.info);
                            out.u8(s.other);
                            out.u16(s.shndx);
                            out.u64(s.value);
                            out.u64(s.size);
                        }
                    }
                    if !s.name.is_empty() {
                        name_offset += s.name.len() as u32 + 1;
                    }
                }
            }
            SHT_NOTE => {
                for note in &self.notes {
                    let name_len = note.name.len() as u64 + 1;
                    out.u32(name_len as u32);
                    out.u32(note.desc.len() as u32);
                    out.u32(note.n_type);
                    out.bytes(note.name.as_bytes());
                    out.bytes(&vec![0; (align_up(name_len, 4) - name_len + 1) as usize]);
                    out.bytes(&note.desc);
                    let d = note.desc.len() as u64;
                    out.bytes(&vec![0; (align_up(d, 4) - d) as usize]);
                }
            }
            SHT_STRTAB if info.name == ".strtab" => out.bytes(&self.strtab_bytes()),
            SHT_STRTAB if info.name == ".shstrtab" => out.bytes(&self.shstrtab_bytes()),
            _ => {}
        }
    }
}

/// Little-endian output with class-sized words.
struct W {
    buf: Vec<u8>,
    class: Class,
}

impl W {
    fn bytes(&mut self, b: &[u8]) {
        self.buf.extend_from_slice(b);
    }
    fn u8(&mut self, v: u8) {
        self.buf.push(v);
    }
    fn u16(&mut self, v: u16) {
        self.bytes(&v.to_le_bytes());
    }
    fn u32(&mut self, v: u32) {
        self.bytes(&v.to_le_bytes());
    }
    fn u64(&mut self, v: u64) {
        self.bytes(&v.to_le_bytes());
    }
    fn word(&mut self, v: u64) {
        match self.class {
            Class::Elf32 => self.u32(v as u32),
            Class::Elf64 => self.u64(v),
        }
    }
    fn pad_to(&mut self, offset: u64) {
        let offset = offset as usize;
        if self.buf.len() < offset {
            self.buf.resize(offset, 0);
        }
    }
}

/// A section of a binary besides the format's own (`.section NAME`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExtraSection {
    pub name: String,
    pub data: Vec<u8>,
}

impl ElfBuilder {
    /// Adds user sections (`.section NAME`) as they are: `PROGBITS`, no flags.
    pub(crate) fn add_extra_sections(&mut self, sections: &[ExtraSection]) {
        for s in sections {
            self.add(Region::section(&s.name, SHT_PROGBITS, 0, 1, s.data.clone()));
        }
    }
}

/// `st_shndx` of an absolute symbol.
pub const SHN_ABS: u16 = 0xfff1;

/// Where a symbol the source adds to a binary (`-S`, `--forceAddSymbols`) lies: a
/// section the format writes itself, one of the binary's extra sections (`.section
/// NAME`, in the order they were made), or none (absolute). Each writer turns it into a
/// section index of the ELF the symbol goes to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SymbolPlace {
    Abs,
    Text,
    Rodata,
    Data,
    Bss,
    Comment,
    /// AMD OpenCL 2.0 sampler initializers (`.samplerinit`).
    SamplerInit,
    /// ROCm's global offset table.
    Got,
    Extra(usize),
}

/// A symbol the source adds to a binary (`-S`): written after the format's own, with
/// its value, size, `st_info` and `st_other` as they are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExtraSymbol {
    pub name: String,
    pub value: u64,
    pub size: u64,
    pub place: SymbolPlace,
    pub info: u8,
    pub other: u8,
}

impl ExtraSymbol {
    /// The symbol table entry, given the section index of each format section the
    /// binary has (`builtin`) and that of its first extra section. A section the binary
    /// does not have is an error, as in the reference (which refuses the section id).
    pub(crate) fn entry(
        &self,
        builtin: impl Fn(SymbolPlace) -> Option<u16>,
        first_extra: u16,
    ) -> Result<Symbol, crate::FormatError> {
        let shndx = match self.place {
            SymbolPlace::Abs => Some(SHN_ABS),
            SymbolPlace::Extra(i) => u16::try_from(i)
                .ok()
                .and_then(|i| first_extra.checked_add(i)),
            place => builtin(place),
        };
        let Some(shndx) = shndx else {
            return Err(crate::FormatError::symbol(
                &self.name,
                format!(
                    "symbol `{}` is in a section the binary does not have",
                    self.name
                ),
            ));
        };
        Ok(Symbol {
            name: self.name.clone(),
            shndx,
            info: self.info,
            other: self.other,
            value: self.value,
            size: self.size,
        })
    }
}

/// Local symbols written by hand (`.strtab` and `.symtab`, the null symbol first), as
/// the AMD writers lay them out.
pub(crate) struct LocalSymbols {
    class: Class,
    strtab: Vec<u8>,
    syms: Bytes,
}

impl LocalSymbols {
    pub(crate) fn new(class: Class) -> LocalSymbols {
        let mut syms = Bytes::default();
        syms.zeros(class.sym_size() as usize);
        LocalSymbols {
            class,
            strtab: vec![0],
            syms,
        }
    }

    /// Adds a local symbol named `name` (without its NUL).
    pub(crate) fn add(&mut self, name: &[u8], shndx: u16, value: u64, size: u64, kind: u8) {
        self.add_entry(name, shndx, value, size, st_info(STB_LOCAL, kind), 0);
    }

    /// Adds a symbol as it is (the symbols a source adds, after the format's own).
    pub(crate) fn add_symbol(&mut self, s: &Symbol) {
        self.add_entry(s.name.as_bytes(), s.shndx, s.value, s.size, s.info, s.other);
    }

    fn add_entry(&mut self, name: &[u8], shndx: u16, value: u64, size: u64, info: u8, other: u8) {
        let name_offset = self.strtab.len() as u32;
        self.strtab.extend_from_slice(name);
        self.strtab.push(0);
        match self.class {
            Class::Elf32 => self
                .syms
                .u32(name_offset)
                .u32(value as u32)
                .u32(size as u32)
                .u8(info)
                .u8(other)
                .u16(shndx),
            Class::Elf64 => self
                .syms
                .u32(name_offset)
                .u8(info)
                .u8(other)
                .u16(shndx)
                .u64(value)
                .u64(size),
        };
    }

    /// Adds `.shstrtab`, `.strtab` and `.symtab` to `b`.
    pub(crate) fn add_sections(self, b: &mut ElfBuilder) {
        b.add(Region::generated(".shstrtab", SHT_STRTAB, SHF_STRINGS, 1));
        b.add(Region::section(
            ".strtab",
            SHT_STRTAB,
            SHF_STRINGS,
            1,
            self.strtab,
        ));
        b.add(Region::section(".symtab", SHT_SYMTAB, 0, 8, self.syms.0));
    }
}

/// Little-endian byte buffer for format structures.
#[derive(Debug, Default, Clone)]
pub struct Bytes(pub Vec<u8>);

impl Bytes {
    pub fn u8(&mut self, v: u8) -> &mut Self {
        self.0.push(v);
        self
    }
    pub fn u16(&mut self, v: u16) -> &mut Self {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    pub fn u32(&mut self, v: u32) -> &mut Self {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    pub fn u64(&mut self, v: u64) -> &mut Self {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    pub fn bytes(&mut self, b: &[u8]) -> &mut Self {
        self.0.extend_from_slice(b);
        self
    }
    pub fn zeros(&mut self, n: usize) -> &mut Self {
        self.0.resize(self.0.len() + n, 0);
        self
    }
    pub fn len(&self) -> usize {
        self.0.len()
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}
