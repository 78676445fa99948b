//! Where each name of an analysed program is defined and used, across the source and
//! the files it includes: the assembler's own record (`gcn_asm::index`), kept where the
//! text really spells the name (not inside a macro body's substituted text), in file
//! ranges. The base of go-to-definition, references and rename.

use std::path::{Path, PathBuf};

use gcn_asm::index::NameKind;
use gcn_asm::Assembly;
use gcn_syntax::{TextRange, TextSize};

use crate::analysis::normalize;

/// One occurrence of a name in a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NameOccurrence {
    pub kind: NameKind,
    /// The resolved name: a symbol's full scope path, `N#k` for the k-th local label
    /// `N:`, a macro's name (lowercase unless macro names are case-sensitive).
    pub name: String,
    pub file: PathBuf,
    pub range: TextRange,
    pub definition: bool,
}

/// The occurrences of an analysis, in the order the assembler met them (an occurrence
/// inside a macro expanded twice is there once).
#[derive(Debug, Clone, Default)]
pub struct SymbolIndex {
    pub occurrences: Vec<NameOccurrence>,
}

impl SymbolIndex {
    pub fn new(assembly: &Assembly) -> SymbolIndex {
        let Some(index) = &assembly.index else { return SymbolIndex::default() };
        let mut occurrences: Vec<NameOccurrence> = Vec::new();
        for o in &index.occurrences {
            let file = assembly.sources.file(o.location.file);
            let start = o.location.offset as usize;
            let Some(text) = file.text.get(start..start + o.len as usize) else { continue };
            if o.len == 0 || !spells(o.kind, &o.name, text) {
                continue;
            }
            let occurrence = NameOccurrence {
                kind: o.kind,
                name: o.name.clone(),
                file: normalize(Path::new(&file.name)),
                range: TextRange::at(TextSize::from(o.location.offset), TextSize::from(o.len)),
                definition: o.definition,
            };
            if !occurrences.contains(&occurrence) {
                occurrences.push(occurrence);
            }
        }
        SymbolIndex { occurrences }
    }

    /// The occurrence at `offset` of `file` (touching it from either side).
    pub fn at(&self, file: &Path, offset: TextSize) -> Option<&NameOccurrence> {
        let file = normalize(file);
        self.occurrences.iter().find(|o| o.file == file && o.range.contains_inclusive(offset))
    }

    /// Every occurrence of the name `o` is (the same kind and resolved name).
    pub fn same_name<'a>(&'a self, o: &'a NameOccurrence) -> impl Iterator<Item = &'a NameOccurrence> + 'a {
        self.occurrences.iter().filter(move |x| same_kind(x.kind, o.kind) && x.name == o.name)
    }

    /// The definitions of the name `o` is.
    pub fn definitions<'a>(&'a self, o: &'a NameOccurrence) -> impl Iterator<Item = &'a NameOccurrence> + 'a {
        self.same_name(o).filter(|x| x.definition)
    }
}

/// Labels, symbols and register symbols share one namespace.
fn same_kind(a: NameKind, b: NameKind) -> bool {
    let symbol = |k| matches!(k, NameKind::Label | NameKind::Symbol | NameKind::RegisterSymbol);
    a == b || (symbol(a) && symbol(b))
}

/// Whether `text` spells the recorded name: the last part of a scoped name, a local
/// label's number (with `b`/`f` in a use), a macro's name in any case.
fn spells(kind: NameKind, name: &str, text: &str) -> bool {
    match kind {
        NameKind::LocalLabel => {
            let number = name.split('#').next().unwrap_or("");
            text == number || text.strip_suffix(['b', 'f', 'B', 'F']) == Some(number)
        }
        NameKind::Macro => text.eq_ignore_ascii_case(name),
        _ => {
            let last = name.rsplit("::").next().unwrap_or(name);
            text == name || text.rsplit("::").next() == Some(last)
        }
    }
}
