//! Sections and kernels: where emitted bytes go, by the rules of each binary format.
//!
//! Each format starts in its global section (`.text` for rawcode, Gallium and ROCm, the
//! unnamed data section for AMD, `.rodata` for AMD OpenCL 2.0). `.kernel` switches to the
//! kernel's own layout; `.main` back to the global one. Each layout remembers its last
//! section, so switching back resumes where it left off.

use crate::expr::Value;
use crate::options::BinaryFormat;

/// What a section holds, with the reference's type numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SectionKind {
    Data = 0,
    Code = 1,
    /// Kernel configuration: pseudo-ops only, no bytes.
    Config = 2,
    Comment = 3,
    /// Any other named section.
    Extra = 255,
}

#[derive(Debug, Clone)]
pub struct Section {
    pub name: String,
    pub kernel: Option<usize>,
    pub kind: SectionKind,
    pub content: Vec<u8>,
}

#[derive(Debug, Clone)]
pub struct Kernel {
    pub name: String,
    /// The kernel's last used section, if it has been entered.
    last: Option<usize>,
}

#[derive(Debug)]
pub struct Layout {
    pub format: BinaryFormat,
    pub sections: Vec<Section>,
    pub kernels: Vec<Kernel>,
    current: usize,
    current_kernel: Option<usize>,
    global_last: usize,
    total: u64,
}

impl Layout {
    pub fn new(format: BinaryFormat) -> Layout {
        let (name, kind) = match format {
            BinaryFormat::Rawcode | BinaryFormat::Gallium | BinaryFormat::Rocm => (".text", SectionKind::Code),
            BinaryFormat::Amd => ("", SectionKind::Data),
            BinaryFormat::AmdCl2 => (".rodata", SectionKind::Data),
        };
        let first = Section { name: name.into(), kernel: None, kind, content: Vec::new() };
        Layout { format, sections: vec![first], kernels: Vec::new(), current: 0, current_kernel: None, global_last: 0, total: 0 }
    }

    pub fn current(&self) -> usize {
        self.current
    }

    pub fn current_kernel(&self) -> Option<usize> {
        self.current_kernel
    }

    pub fn offset(&self) -> usize {
        self.sections[self.current].content.len()
    }

    pub fn is_code_section(&self) -> bool {
        self.sections[self.current].kind == SectionKind::Code
    }

    /// Sections whose addresses are their offsets (no relocations): rawcode's only.
    pub fn is_absolute_section(&self, _section: usize) -> bool {
        self.format == BinaryFormat::Rawcode
    }

    pub fn can_emit(&self, bytes: u64, limit: u64) -> Result<(), String> {
        if self.sections[self.current].kind == SectionKind::Config {
            return Err("data cannot be written to a kernel configuration section".into());
        }
        if self.total + bytes > limit {
            return Err(format!("output would exceed {limit} bytes (raise the limit with --max-output-size)"));
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
    pub fn patch_field(&mut self, section: usize, offset: usize, shift: u8, bits: u8, signed: bool, value: i64) -> Result<(), String> {
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
        let mask: u32 = if bits >= 32 { u32::MAX } else { ((1u32 << bits) - 1) << shift };
        word = (word & !mask) | (((value as u32) << shift) & mask);
        content[offset..offset + 4].copy_from_slice(&word.to_le_bytes());
        Ok(())
    }

    fn find(&self, name: &str, kernel: Option<usize>) -> Option<usize> {
        self.sections.iter().position(|s| s.name == name && s.kernel == kernel)
    }

    fn switch_to(&mut self, index: usize) {
        self.current = index;
        match self.current_kernel {
            Some(k) => self.kernels[k].last = Some(index),
            None => self.global_last = index,
        }
    }

    fn create(&mut self, name: &str, kernel: Option<usize>, kind: SectionKind) -> usize {
        self.sections.push(Section { name: name.into(), kernel, kind, content: Vec::new() });
        self.sections.len() - 1
    }

    /// `.text`, `.data`, `.rodata`, `.section NAME`: switches, creating it if needed.
    pub fn switch_section(&mut self, name: &str) -> Result<(), String> {
        use BinaryFormat::*;
        let in_kernel = self.current_kernel.filter(|_| matches!(self.format, Amd | AmdCl2));
        let kind = match (self.format, in_kernel, name) {
            (Rawcode, _, ".text") => SectionKind::Code,
            (Rawcode, _, _) => return Err("the rawcode format has only the `.text` section".into()),
            (Amd | AmdCl2, Some(_), ".text") => SectionKind::Code,
            (Amd, Some(_), ".data") => SectionKind::Data,
            (Amd, None, ".text") => return Err("code belongs in a kernel: `.kernel NAME` first".into()),
            (AmdCl2, None, ".text") => SectionKind::Code,
            (AmdCl2 | Gallium | Rocm, None, ".rodata" | ".data") => SectionKind::Data,
            (Gallium | Rocm, None, ".text") => SectionKind::Code,
            (Gallium, None, ".comment") => SectionKind::Comment,
            _ => SectionKind::Extra,
        };
        // Gallium and ROCm keep every section global; kernels only have configuration.
        let owner = in_kernel;
        let index = match self.find(name, owner) {
            Some(i) => i,
            None => self.create(name, owner, kind),
        };
        if owner.is_none() && self.current_kernel.is_some() {
            self.current_kernel = None;
        }
        self.switch_to(index);
        Ok(())
    }

    /// `.kernel NAME`: enters the kernel's layout (creating the kernel if new).
    pub fn enter_kernel(&mut self, name: &str) -> Result<(), String> {
        if self.format == BinaryFormat::Rawcode {
            return Err("the rawcode format has no kernels".into());
        }
        let k = match self.kernels.iter().position(|k| k.name == name) {
            Some(k) => k,
            None => {
                self.kernels.push(Kernel { name: name.into(), last: None });
                self.kernels.len() - 1
            }
        };
        self.current_kernel = Some(k);
        let section = match self.kernels[k].last {
            Some(s) => s,
            None => match self.format {
                BinaryFormat::Amd | BinaryFormat::AmdCl2 => self.create(".text", Some(k), SectionKind::Code),
                _ => self.create("", Some(k), SectionKind::Config),
            },
        };
        self.switch_to(section);
        Ok(())
    }

    /// `.main`: back to the global layout.
    pub fn enter_main(&mut self) {
        self.current_kernel = None;
        self.current = self.global_last;
    }

    /// `.config`: the current kernel's configuration section.
    pub fn enter_config(&mut self) -> Result<(), String> {
        let k = self.current_kernel.ok_or("`.config` belongs in a kernel")?;
        let index = match self.sections.iter().position(|s| s.kernel == Some(k) && s.kind == SectionKind::Config) {
            Some(i) => i,
            None => self.create("", Some(k), SectionKind::Config),
        };
        self.switch_to(index);
        Ok(())
    }

    /// A kernel label in formats where kernels are code offsets (Gallium, ROCm).
    pub fn note_label(&mut self, _name: &str, _value: Value) {}
}
