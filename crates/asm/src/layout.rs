//! Sections and kernels: where emitted bytes go, by the rules of each binary format.
//!
//! Each format starts in its global section (`.text` for rawcode, Gallium and ROCm, the
//! unnamed data section for AMD, `.rodata` for AMD OpenCL 2.0). `.kernel` switches to the
//! kernel's own layout; `.main` back to the global one. Each layout remembers its last
//! section, so switching back resumes where it left off.
//!
//! AMD OpenCL 2.0 has a third layout, the inner binary (`.inner`): its global data,
//! read-write data, bss, sampler initializers and extra sections. Kernel labels in a
//! global code section (GalliumCompute, the HSA layout of AMD OpenCL 2.0) and `.kcode`
//! decide which kernels own which code, for register counting.

use crate::expr::Value;
pub use crate::format_ops::added_symbols::AddedSymbol;
pub use crate::format_ops::build::Snapshot;
pub use crate::format_ops::FormatConfig;
use crate::options::BinaryFormat;

/// What a section holds. The first three have the reference's type numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SectionKind {
    Data = 0,
    Code = 1,
    /// Kernel configuration: pseudo-ops only, no bytes.
    Config = 2,
    Comment = 3,
    /// AMD OpenCL 1.2 kernel header (`.header`).
    AmdHeader = 4,
    /// Kernel metadata (`.metadata`).
    Metadata = 5,
    /// An ATI CAL note (`.proginfo`, `.uav`, …; its type in [`Section::note_type`]).
    CalNote = 6,
    /// AMD OpenCL 2.0 read-write global data (`.rwdata`).
    RwData = 7,
    /// AMD OpenCL 2.0 bss (`.bssdata`): sizes only.
    Bss = 8,
    /// AMD OpenCL 2.0 sampler initializers (`.samplerinit`).
    SamplerInit = 9,
    /// AMD OpenCL 2.0 kernel setup (`.setup`).
    Setup = 10,
    /// AMD OpenCL 2.0 kernel stub (`.stub`).
    Stub = 11,
    /// AMD OpenCL 2.0 ISA metadata (`.isametadata`).
    IsaMetadata = 12,
    /// The 128-byte control directive of an HSA descriptor (`.control_directive`).
    ControlDirective = 13,
    /// A kernel's section when its code is elsewhere (HSA layout).
    Dummy = 14,
    /// Gallium scratch buffer symbol section (`.scratchsym`).
    Scratch = 15,
    /// ROCm global offset table (`.gotsym`): 8 zero bytes an entry, addresses only.
    Got = 16,
    /// Any other named section.
    Extra = 255,
}

#[derive(Debug, Clone)]
pub struct Section {
    pub name: String,
    pub kernel: Option<usize>,
    pub kind: SectionKind,
    pub content: Vec<u8>,
    /// Part of AMD OpenCL 2.0's inner binary.
    pub inner: bool,
    /// CAL note type of a [`SectionKind::CalNote`].
    pub note_type: u32,
    /// Alignment asked for the section (`.bssdata align=N`), 0 if none.
    pub align: u64,
}

#[derive(Debug, Clone)]
pub struct Kernel {
    pub name: String,
    /// The kernel's last used section, if it has been entered.
    last: Option<usize>,
}

/// Which layout the output goes to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Owner {
    Global,
    /// AMD OpenCL 2.0 inner binary.
    Inner,
    Kernel(usize),
}

/// A range of a code section owned by kernels.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodeRegion {
    pub section: usize,
    pub start: usize,
    /// `usize::MAX` while open.
    pub end: usize,
    pub kernels: Vec<usize>,
}

#[derive(Debug)]
pub struct Layout {
    pub format: BinaryFormat,
    pub sections: Vec<Section>,
    pub kernels: Vec<Kernel>,
    current: usize,
    owner: Owner,
    global_last: usize,
    inner_last: usize,
    total: u64,
    /// Configuration the format pseudo-ops set, for the writers.
    pub config: FormatConfig,
    /// Code ownership by kernel labels and `.kcode` (global code sections).
    pub code_regions: Vec<CodeRegion>,
    /// Kernel whose label last opened a code region.
    label_kernel: Option<usize>,
    /// `.kcode` selections, innermost last.
    pub kcode_stack: Vec<Vec<usize>>,
}

impl Layout {
    pub fn new(format: BinaryFormat) -> Layout {
        let (name, kind) = match format {
            BinaryFormat::Rawcode | BinaryFormat::Gallium | BinaryFormat::Rocm => {
                (".text", SectionKind::Code)
            }
            BinaryFormat::Amd => ("", SectionKind::Data),
            BinaryFormat::AmdCl2 => (".rodata", SectionKind::Data),
        };
        let first = Section {
            name: name.into(),
            kernel: None,
            kind,
            content: Vec::new(),
            inner: format == BinaryFormat::AmdCl2,
            note_type: 0,
            align: 0,
        };
        Layout {
            format,
            sections: vec![first],
            kernels: Vec::new(),
            current: 0,
            owner: Owner::Global,
            global_last: 0,
            inner_last: 0,
            total: 0,
            config: FormatConfig::new(format),
            code_regions: Vec::new(),
            label_kernel: None,
            kcode_stack: Vec::new(),
        }
    }

    pub fn current(&self) -> usize {
        self.current
    }

    pub fn current_kernel(&self) -> Option<usize> {
        match self.owner {
            Owner::Kernel(k) => Some(k),
            _ => None,
        }
    }

    pub fn owner(&self) -> Owner {
        self.owner
    }

    pub fn current_section(&self) -> &Section {
        &self.sections[self.current]
    }

    pub fn offset(&self) -> usize {
        self.sections[self.current].content.len()
    }

    pub fn is_code_section(&self) -> bool {
        self.sections[self.current].kind == SectionKind::Code
    }

    /// Sections whose addresses are their offsets (no relocations): all but the
    /// relocatable data of AMD OpenCL 2.0 and Gallium's scratch symbol.
    pub fn is_absolute_section(&self, section: usize) -> bool {
        match self.format {
            BinaryFormat::Rawcode => true,
            BinaryFormat::AmdCl2 => !matches!(
                self.sections.get(section).map(|s| (s.kind, s.inner)),
                Some((
                    SectionKind::Data | SectionKind::RwData | SectionKind::Bss,
                    true
                ))
            ),
            BinaryFormat::Gallium => self
                .sections
                .get(section)
                .is_some_and(|s| s.kind != SectionKind::Scratch),
            _ => false,
        }
    }

    pub fn can_emit(&self, bytes: u64, limit: u64) -> Result<(), String> {
        match self.sections[self.current].kind {
            SectionKind::Config => {
                return Err("data cannot be written to a kernel configuration section".into())
            }
            SectionKind::Dummy => {
                return Err("the kernel's code belongs in the main `.text` (HSA layout)".into())
            }
            SectionKind::Bss if bytes != 0 => {}
            _ => {}
        }
        if self.total + bytes > limit {
            return Err(format!(
                "output would exceed {limit} bytes (raise the limit with --max-output-size)"
            ));
        }
        Ok(())
    }

    pub fn emit(&mut self, bytes: &[u8]) {
        self.total += bytes.len() as u64;
        self.sections[self.current].content.extend_from_slice(bytes);
    }

    pub fn emit_fill(&mut self, count: usize, byte: u8) {
        self.total += count as u64;
        let content = &mut self.sections[self.current].content;
        content.resize(content.len() + count, byte);
    }

    pub fn patch_bytes(&mut self, section: usize, offset: usize, bytes: &[u8]) {
        self.sections[section].content[offset..offset + bytes.len()].copy_from_slice(bytes);
    }

    /// Writes `value` into bits `shift..shift+bits` of the little-endian dword at `offset`.
    pub fn patch_field(
        &mut self,
        section: usize,
        offset: usize,
        shift: u8,
        bits: u8,
        signed: bool,
        value: i64,
    ) -> Result<(), String> {
        let bits = u32::from(bits);
        if bits < 64 {
            let fits = if signed {
                let min = -(1i64 << (bits - 1));
                let max = (1i64 << (bits - 1)) - 1;
                (min..=max).contains(&value)
            } else {
                // Like the reference, accept negatives that fit the field as two's complement.
                let max = (1i64 << bits) - 1;
                value <= max && value >= -(1i64 << (bits - 1))
            };
            if !fits && bits < 32 {
                return Err(format!("value {value} does not fit in {bits} bits"));
            }
        }
        let content = &mut self.sections[section].content;
        let mut word = u32::from_le_bytes(content[offset..offset + 4].try_into().unwrap());
        let mask: u32 = if bits >= 32 {
            u32::MAX
        } else {
            ((1u32 << bits) - 1) << shift
        };
        word = (word & !mask) | (((value as u32) << shift) & mask);
        content[offset..offset + 4].copy_from_slice(&word.to_le_bytes());
        Ok(())
    }

    /// The section of `owner` with this name and kind, if any.
    pub fn find(&self, name: &str, owner: Owner) -> Option<usize> {
        self.sections.iter().position(|s| {
            s.name == name && self.owner_of(s) == owner && s.kind != SectionKind::CalNote
        })
    }

    /// The first section of a kind owned by `owner`.
    pub fn find_kind(&self, kind: SectionKind, owner: Owner) -> Option<usize> {
        self.sections
            .iter()
            .position(|s| s.kind == kind && self.owner_of(s) == owner)
    }

    pub fn owner_of(&self, s: &Section) -> Owner {
        match (s.kernel, s.inner) {
            (Some(k), _) => Owner::Kernel(k),
            (None, true) => Owner::Inner,
            (None, false) => Owner::Global,
        }
    }

    /// Makes `index` the current section and its owner the current layout.
    pub fn switch_to(&mut self, index: usize) {
        self.config.inside = crate::format_ops::Inside::Main;
        let owner = self.owner_of(&self.sections[index]);
        self.owner = owner;
        self.current = index;
        match owner {
            Owner::Kernel(k) => self.kernels[k].last = Some(index),
            Owner::Global => self.global_last = index,
            Owner::Inner => self.inner_last = index,
        }
    }

    /// Adds a section (not switching to it).
    pub fn create(&mut self, name: &str, owner: Owner, kind: SectionKind) -> usize {
        let (kernel, inner) = match owner {
            Owner::Kernel(k) => (Some(k), false),
            Owner::Inner => (None, true),
            Owner::Global => (None, false),
        };
        self.sections.push(Section {
            name: name.into(),
            kernel,
            inner,
            kind,
            content: Vec::new(),
            note_type: 0,
            align: 0,
        });
        self.sections.len() - 1
    }

    /// Switches to the section, creating it first if needed.
    pub fn go_to(&mut self, name: &str, owner: Owner, kind: SectionKind) -> usize {
        let index = match self.find(name, owner) {
            Some(i) => i,
            None => self.create(name, owner, kind),
        };
        self.switch_to(index);
        index
    }

    /// `.text`, `.data`, `.rodata`, `.section NAME`: switches, creating it if needed.
    pub fn switch_section(&mut self, name: &str) -> Result<(), String> {
        use BinaryFormat::*;
        let kernel = self.current_kernel();
        let (owner, kind) = match (self.format, self.owner, name) {
            (Rawcode, _, ".text") => (Owner::Global, SectionKind::Code),
            (Rawcode, _, _) => return Err("the rawcode format has only the `.text` section".into()),
            (Amd, Owner::Kernel(k), ".text") => (Owner::Kernel(k), SectionKind::Code),
            (Amd, Owner::Kernel(k), ".data") => (Owner::Kernel(k), SectionKind::Data),
            (Amd, Owner::Kernel(k), _) => (Owner::Kernel(k), SectionKind::Extra),
            (Amd, _, ".data") => {
                return Err("section `.data` is allowed only inside a kernel".into())
            }
            (Amd, _, ".text") => {
                return Err("code belongs in a kernel: `.kernel NAME` first".into())
            }
            (Amd, _, _) => (Owner::Global, SectionKind::Extra),
            (AmdCl2, _, ".rodata") => (Owner::Inner, SectionKind::Data),
            (AmdCl2, _, ".data") => (Owner::Inner, SectionKind::RwData),
            (AmdCl2, _, ".bss") => (Owner::Inner, SectionKind::Bss),
            (AmdCl2, _, ".text") if self.config.hsa_layout => (Owner::Inner, SectionKind::Code),
            (AmdCl2, Owner::Kernel(k), ".text") => (Owner::Kernel(k), SectionKind::Code),
            (AmdCl2, Owner::Global, _) => (Owner::Global, SectionKind::Extra),
            (AmdCl2, Owner::Kernel(k), _) => {
                // As in the reference, a new inner section made inside a kernel leaves
                // the kernel current (`.text` still goes to the kernel's code); an
                // existing one is entered with the inner binary.
                match self.find(name, Owner::Inner) {
                    Some(i) => self.switch_to(i),
                    None => {
                        let i = self.create(name, Owner::Inner, SectionKind::Extra);
                        self.current = i;
                        self.kernels[k].last = Some(i);
                        self.config.inside = crate::format_ops::Inside::Main;
                    }
                }
                return Ok(());
            }
            (AmdCl2, _, _) => (Owner::Inner, SectionKind::Extra),
            (Gallium | Rocm, _, ".text") => (Owner::Global, SectionKind::Code),
            (Gallium | Rocm, _, ".rodata") => (Owner::Global, SectionKind::Data),
            (Gallium | Rocm, _, ".comment") => (Owner::Global, SectionKind::Comment),
            (Rocm, _, ".data") => (Owner::Global, SectionKind::Data),
            (Gallium | Rocm, _, _) => (Owner::Global, SectionKind::Extra),
        };
        let _ = kernel;
        self.go_to(name, owner, kind);
        Ok(())
    }

    /// `.kernel NAME`: enters the kernel's layout (creating the kernel if new); returns
    /// the kernel's index and whether it is new.
    pub fn enter_kernel(&mut self, name: &str) -> Result<(usize, bool), String> {
        if self.format == BinaryFormat::Rawcode {
            return Err("the rawcode format has no kernels".into());
        }
        let (k, new) = match self.kernels.iter().position(|k| k.name == name) {
            Some(k) => (k, false),
            None => {
                self.kernels.push(Kernel {
                    name: name.into(),
                    last: None,
                });
                (self.kernels.len() - 1, true)
            }
        };
        let section = match self.kernels[k].last {
            Some(s) => s,
            None => match self.format {
                BinaryFormat::Amd => self.create(".text", Owner::Kernel(k), SectionKind::Code),
                BinaryFormat::AmdCl2 if self.config.hsa_layout => {
                    self.create("", Owner::Kernel(k), SectionKind::Dummy)
                }
                BinaryFormat::AmdCl2 => self.create(".text", Owner::Kernel(k), SectionKind::Code),
                _ => self.create("", Owner::Kernel(k), SectionKind::Config),
            },
        };
        if self.sections[section].inner && self.format == BinaryFormat::AmdCl2 {
            // The kernel's last section was a new inner one (made inside it): as in the
            // reference, the kernel is current again, with that section.
            self.config.inside = crate::format_ops::Inside::Main;
            self.owner = Owner::Kernel(k);
            self.current = section;
        } else {
            self.switch_to(section);
        }
        Ok((k, new))
    }

    /// `.main`: back to the global layout.
    pub fn enter_main(&mut self) {
        self.config.inside = crate::format_ops::Inside::Main;
        self.owner = Owner::Global;
        self.current = self.global_last;
    }

    /// `.inner` (AMD OpenCL 2.0): the inner binary's layout.
    pub fn enter_inner(&mut self) {
        self.config.inside = crate::format_ops::Inside::Main;
        self.owner = Owner::Inner;
        self.current = self.inner_last;
    }

    /// `.config`: the current kernel's configuration section.
    pub fn enter_config(&mut self) -> Result<usize, String> {
        let k = self
            .current_kernel()
            .ok_or("`.config` belongs in a kernel")?;
        let index = match self.find_kind(SectionKind::Config, Owner::Kernel(k)) {
            Some(i) => i,
            None => self.create("", Owner::Kernel(k), SectionKind::Config),
        };
        self.switch_to(index);
        Ok(index)
    }

    /// A label: a kernel's label in a global code section starts the code it owns
    /// (Gallium, the HSA layout of AMD OpenCL 2.0), unless `.kcode` decides.
    pub fn note_label(&mut self, name: &str, value: Value) {
        // Labels of sections whose addresses are their offsets are absolute values.
        let (section, offset) = match value {
            Value::Rel { section, offset } => (section as usize, offset),
            Value::Abs(v)
                if self.is_absolute_section(self.current) && v == self.offset() as i64 =>
            {
                (self.current, v)
            }
            _ => return,
        };
        let Some(k) = self.kernels.iter().position(|k| k.name == name) else {
            return;
        };
        if !self.owns_by_labels(section) || !self.kcode_stack.is_empty() {
            return;
        }
        self.close_region(offset as usize);
        self.label_kernel = Some(k);
        self.code_regions.push(CodeRegion {
            section,
            start: offset as usize,
            end: usize::MAX,
            kernels: vec![k],
        });
    }

    fn owns_by_labels(&self, section: usize) -> bool {
        let s = &self.sections[section];
        s.kind == SectionKind::Code
            && s.kernel.is_none()
            && (self.format == BinaryFormat::Gallium
                || self.format == BinaryFormat::Rocm
                || (self.format == BinaryFormat::AmdCl2 && self.config.hsa_layout))
    }

    fn close_region(&mut self, at: usize) {
        if let Some(last) = self.code_regions.last_mut() {
            if last.end == usize::MAX {
                last.end = at;
            }
        }
    }

    /// `.kcode`: code from here belongs to `kernels` (until `.kcodeend`).
    pub fn push_kcode(&mut self, kernels: Vec<usize>) {
        let at = self.offset();
        let section = self.current;
        self.close_region(at);
        self.code_regions.push(CodeRegion {
            section,
            start: at,
            end: usize::MAX,
            kernels: kernels.clone(),
        });
        self.kcode_stack.push(kernels);
    }

    /// `.kcodeend`: back to the enclosing selection (or the last kernel label).
    pub fn pop_kcode(&mut self) -> bool {
        if self.kcode_stack.pop().is_none() {
            return false;
        }
        let at = self.offset();
        let section = self.current;
        self.close_region(at);
        let kernels = match self.kcode_stack.last() {
            Some(sel) => sel.clone(),
            None => self.label_kernel.into_iter().collect(),
        };
        if !kernels.is_empty() {
            self.code_regions.push(CodeRegion {
                section,
                start: at,
                end: usize::MAX,
                kernels,
            });
        }
        true
    }

    /// The current `.kcode` selection, if inside one.
    pub fn kcode_selection(&self) -> Option<&[usize]> {
        self.kcode_stack.last().map(|v| v.as_slice())
    }
}
