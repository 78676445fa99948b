//! `-S` (`--forceAddSymbols`) for the AMD OpenCL 1.2 and 2.0 and GalliumCompute
//! binaries: the global and weak symbols of the global scope that have a value, in the
//! iteration order of the reference's symbol map ([`super::symorder`]), each put in the
//! ELF that holds its section (ROCm has its own rules, in [`super::rocm`]).
//!
//! The reference keeps, for every symbol, the section its value is relative to. A label
//! keeps the section it was defined in. A symbol assigned from an expression is
//! absolute where the reference reads the labels in it as absolute values: labels of
//! every section but code (and AMD OpenCL 2.0's relocatable data, and GalliumCompute's
//! scratch symbol).

use gcn_formats::elf::{ExtraSymbol, SymbolPlace};

use super::build::{owner_of, sections_of};
use super::ConfigKind;
use crate::assembler::Asm;
use crate::diag::{Diagnostic, Severity};
use crate::expr::Value;
use crate::layout::{Layout, Owner, SectionKind};
use crate::options::BinaryFormat;
use crate::source::Location;
use crate::symbols::{Binding, Symbol};
use crate::Assembly;

/// A symbol `-S` adds, as the end of the source leaves it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AddedSymbol {
    pub name: String,
    /// The offset in its section, or the absolute value.
    pub value: u64,
    pub size: u64,
    /// `.weak` (else `.global`).
    pub weak: bool,
    /// Index of its section in the assembly; `None`: absolute.
    pub section: Option<usize>,
    /// Where `.global` or `.weak` made it so.
    pub location: Option<Location>,
}

impl AddedSymbol {
    /// As the writers take it: `st_info` is the binding with no type, `st_other` 0.
    fn at(&self, place: SymbolPlace, value: u64) -> ExtraSymbol {
        let binding: u8 = if self.weak { 2 } else { 1 };
        ExtraSymbol {
            name: self.name.clone(),
            value,
            size: self.size,
            place,
            info: binding << 4,
            other: 0,
        }
    }
}

/// The symbols to add, when `-S` asks for them in a format these rules cover.
pub(crate) fn collect(asm: &Asm) -> Vec<AddedSymbol> {
    let covered = matches!(
        asm.layout.format,
        BinaryFormat::Amd | BinaryFormat::AmdCl2 | BinaryFormat::Gallium
    );
    if !asm.opts.force_add_symbols || !covered {
        return Vec::new();
    }
    super::symorder::global_scope_in_map_order(&asm.symbols)
        .into_iter()
        .filter_map(|id| added(&asm.layout, asm.symbols.get(id)))
        .collect()
}

fn added(layout: &Layout, s: &Symbol) -> Option<AddedSymbol> {
    let weak = match s.binding {
        Binding::Global => false,
        Binding::Weak => true,
        Binding::Default | Binding::Local => return None,
    };
    let (section, value) = match s.value? {
        Value::Abs(v) => (s.label_section.map(|l| l as usize), v as u64),
        Value::Rel { section, offset } => {
            let section = section as usize;
            let kept = s.label_section.is_some() || !labels_read_as_absolute(layout, section);
            (kept.then_some(section), offset as u64)
        }
    };
    Some(AddedSymbol {
        name: s.name.clone(),
        value,
        size: s.size.unwrap_or(0),
        weak,
        section,
        location: s.binding_location,
    })
}

/// Sections whose labels the reference reads as absolute values in expressions.
fn labels_read_as_absolute(layout: &Layout, section: usize) -> bool {
    let Some(s) = layout.sections.get(section) else {
        return false;
    };
    match layout.format {
        BinaryFormat::Amd => s.kind != SectionKind::Code,
        BinaryFormat::AmdCl2 => {
            let relocatable = s.inner
                && matches!(
                    s.kind,
                    SectionKind::Data | SectionKind::RwData | SectionKind::Bss
                );
            s.kind != SectionKind::Code && !relocatable
        }
        BinaryFormat::Gallium => !matches!(s.kind, SectionKind::Code | SectionKind::Scratch),
        _ => false,
    }
}

/// The place of section `i` among the extra sections of its owner.
fn extra_place(a: &Assembly, i: usize) -> SymbolPlace {
    let owner = owner_of(&a.sections[i]);
    SymbolPlace::Extra(
        a.sections[..i]
            .iter()
            .filter(|s| s.kind == SectionKind::Extra && owner_of(s) == owner)
            .count(),
    )
}

fn added_symbols(a: &Assembly) -> &[AddedSymbol] {
    &a.config.snapshot.added_symbols
}

/// AMD OpenCL 1.2: the main ELF's symbols (absolute, main extra sections) and each
/// kernel's (its `.text`, `.data` and extra sections). The global data has no symbols.
pub(crate) fn amd(a: &Assembly) -> (Vec<ExtraSymbol>, Vec<Vec<ExtraSymbol>>) {
    let mut main = Vec::new();
    let mut kernels = vec![Vec::new(); a.kernels.len()];
    for s in added_symbols(a) {
        let Some(i) = s.section else {
            main.push(s.at(SymbolPlace::Abs, s.value));
            continue;
        };
        let sect = &a.sections[i];
        let place = match sect.kind {
            SectionKind::Code => SymbolPlace::Text,
            SectionKind::Data => SymbolPlace::Data,
            SectionKind::Extra => extra_place(a, i),
            _ => continue,
        };
        match (owner_of(sect), place) {
            (Owner::Kernel(k), _) => kernels[k].push(s.at(place, s.value)),
            (Owner::Global, SymbolPlace::Extra(_)) => main.push(s.at(place, s.value)),
            _ => {}
        }
    }
    (main, kernels)
}

/// AMD OpenCL 2.0: the main ELF's symbols (absolute, main extra sections) and the inner
/// ELF's (global data, read-write data, bss, sampler initializers, code, inner extra
/// sections). A kernel's own code lies in the inner `.hsatext` at the offset
/// [`cl2_code_offsets`] gives; the kernels' other sections have no symbols.
pub(crate) fn amdcl2(a: &Assembly) -> (Vec<ExtraSymbol>, Vec<ExtraSymbol>) {
    let offsets = cl2_code_offsets(a);
    let (mut main, mut inner) = (Vec::new(), Vec::new());
    for s in added_symbols(a) {
        let Some(i) = s.section else {
            main.push(s.at(SymbolPlace::Abs, s.value));
            continue;
        };
        let sect = &a.sections[i];
        match (owner_of(sect), sect.kind) {
            (Owner::Global, SectionKind::Extra) => main.push(s.at(extra_place(a, i), s.value)),
            (Owner::Inner, SectionKind::Extra) => inner.push(s.at(extra_place(a, i), s.value)),
            (Owner::Inner, kind) => {
                let place = match kind {
                    SectionKind::Data => SymbolPlace::Rodata,
                    SectionKind::RwData => SymbolPlace::Data,
                    SectionKind::Bss => SymbolPlace::Bss,
                    SectionKind::Code => SymbolPlace::Text,
                    SectionKind::SamplerInit => SymbolPlace::SamplerInit,
                    _ => continue,
                };
                inner.push(s.at(place, s.value));
            }
            (Owner::Kernel(k), SectionKind::Code) => {
                inner.push(s.at(SymbolPlace::Text, s.value.wrapping_add(offsets[k])))
            }
            _ => {}
        }
    }
    (main, inner)
}

/// Where each kernel's code starts in the inner `.hsatext` (not the HSA layout), as the
/// reference counts it: each kernel's setup (256 bytes with a configuration), then its
/// code rounded up to 256 bytes.
fn cl2_code_offsets(a: &Assembly) -> Vec<u64> {
    let kernel_section = |k: usize, kind: SectionKind| {
        sections_of(a, Owner::Kernel(k), kind)
            .next()
            .map_or(0, |s| s.content.len() as u64)
    };
    let mut offset = 0u64;
    (0..a.kernels.len())
        .map(|k| {
            offset += match a.config.kernels[k].kind {
                ConfigKind::None => kernel_section(k, SectionKind::Setup),
                ConfigKind::Config | ConfigKind::Hsa => 256,
            };
            let start = offset;
            offset += kernel_section(k, SectionKind::Code).next_multiple_of(256);
            start
        })
        .collect()
}

/// GalliumCompute: the symbols of the ELF, or an error for each global one (the
/// reference adds only weak symbols, kernels aside).
pub(crate) fn gallium(
    a: &Assembly,
    fallback: Option<Location>,
) -> Result<Vec<ExtraSymbol>, Vec<Diagnostic>> {
    let mut symbols = Vec::new();
    let mut errors = Vec::new();
    for s in added_symbols(a) {
        if !s.weak {
            let message = format!(
                "symbol `{}` is global: -S adds only weak symbols to GalliumCompute binaries",
                s.name
            );
            let location = s.location.or(fallback);
            errors.push(Diagnostic {
                severity: Severity::Error,
                location,
                len: 0,
                message,
                origin: Vec::new(),
                suggestions: Vec::new(),
                suggestion_at: None,
            });
            continue;
        }
        if a.kernels.contains(&s.name) {
            continue;
        }
        let place = match s.section.map(|i| (i, &a.sections[i])) {
            None => SymbolPlace::Abs,
            Some((_, sect)) if sect.kernel.is_some() => continue,
            Some((i, sect)) => match sect.kind {
                SectionKind::Code => SymbolPlace::Text,
                SectionKind::Data => SymbolPlace::Rodata,
                SectionKind::Comment => SymbolPlace::Comment,
                SectionKind::Extra => extra_place(a, i),
                _ => continue,
            },
        };
        symbols.push(s.at(place, s.value));
    }
    if errors.is_empty() {
        Ok(symbols)
    } else {
        Err(errors)
    }
}
