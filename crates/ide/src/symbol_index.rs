//! Where each name of an analysed program is defined and used, across the source and
//! the files it includes: the assembler's own record (`gcn_asm::index`), kept where the
//! text really spells the name (a name passed to a macro: at the call), in file ranges.
//! The base of go-to-definition, references and rename.

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::Arc;

use gcn_asm::index::NameKind;
use gcn_asm::Assembly;
use gcn_syntax::{TextRange, TextSize};

use crate::analysis::normalize;

/// One occurrence of a name in a file.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct NameOccurrence {
    pub kind: NameKind,
    /// The resolved name: a symbol's full scope path, `N#k` for the k-th local label
    /// `N:`, a macro's name (lowercase unless macro names are case-sensitive).
    pub name: String,
    /// The file, normalized (shared by its occurrences: cheap to copy).
    pub file: Arc<Path>,
    pub range: TextRange,
    pub definition: bool,
}

/// The namespaces of names: labels, symbols and register symbols share one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Namespace {
    Symbol,
    LocalLabel,
    Macro,
    Kernel,
    Scope,
}

fn namespace(kind: NameKind) -> Namespace {
    match kind {
        NameKind::Label | NameKind::Symbol | NameKind::RegisterSymbol => Namespace::Symbol,
        NameKind::LocalLabel => Namespace::LocalLabel,
        NameKind::Macro => Namespace::Macro,
        NameKind::Kernel => Namespace::Kernel,
        NameKind::Scope => Namespace::Scope,
    }
}

/// The occurrences of an analysis, in the order the assembler met them (an occurrence
/// inside a macro expanded twice is there once), with maps built once so that a lookup
/// by place or by name does not scan them all.
#[derive(Debug, Clone, Default)]
pub struct SymbolIndex {
    pub occurrences: Vec<NameOccurrence>,
    /// Per file, the occurrences' indices by start.
    by_file: HashMap<Arc<Path>, Vec<u32>>,
    /// Per namespace and resolved name, the occurrences' indices by file and place.
    by_name: HashMap<(Namespace, String), Vec<u32>>,
}

impl SymbolIndex {
    pub fn new(assembly: &Assembly) -> SymbolIndex {
        let Some(index) = &assembly.index else {
            return SymbolIndex::default();
        };
        let mut paths: HashMap<gcn_asm::FileId, Arc<Path>> = HashMap::new();
        let mut seen: HashSet<(gcn_asm::FileId, u32, u32, NameKind, &str, bool)> = HashSet::new();
        let mut occurrences: Vec<NameOccurrence> = Vec::new();
        for o in &index.occurrences {
            let file = assembly.sources.file(o.location.file);
            let start = o.location.offset as usize;
            let Some(text) = file.text.get(start..start + o.len as usize) else {
                continue;
            };
            if o.len == 0 || !spells(o.kind, &o.name, text) {
                continue;
            }
            if !seen.insert((
                o.location.file,
                o.location.offset,
                o.len,
                o.kind,
                &o.name,
                o.definition,
            )) {
                continue;
            }
            let path = paths
                .entry(o.location.file)
                .or_insert_with(|| Arc::from(normalize(Path::new(&file.name))));
            occurrences.push(NameOccurrence {
                kind: o.kind,
                name: o.name.clone(),
                file: path.clone(),
                range: TextRange::at(TextSize::from(o.location.offset), TextSize::from(o.len)),
                definition: o.definition,
            });
        }
        SymbolIndex::from_occurrences(occurrences)
    }

    /// An index of these occurrences.
    pub fn from_occurrences(occurrences: Vec<NameOccurrence>) -> SymbolIndex {
        let mut by_file: HashMap<Arc<Path>, Vec<u32>> = HashMap::new();
        let mut by_name: HashMap<(Namespace, String), Vec<u32>> = HashMap::new();
        for (i, o) in occurrences.iter().enumerate() {
            match by_file.get_mut(&o.file) {
                Some(list) => list.push(i as u32),
                None => {
                    by_file.insert(o.file.clone(), vec![i as u32]);
                }
            }
            by_name
                .entry((namespace(o.kind), o.name.clone()))
                .or_default()
                .push(i as u32);
        }
        for list in by_file.values_mut() {
            list.sort_by_key(|&i| {
                let r = occurrences[i as usize].range;
                (r.start(), r.end())
            });
        }
        // By file and place, so that references come in order without sorting.
        for list in by_name.values_mut() {
            list.sort_by(|&a, &b| {
                let (a, b) = (&occurrences[a as usize], &occurrences[b as usize]);
                (a.file.as_os_str(), a.range.start(), a.range.end()).cmp(&(
                    b.file.as_os_str(),
                    b.range.start(),
                    b.range.end(),
                ))
            });
        }
        SymbolIndex {
            occurrences,
            by_file,
            by_name,
        }
    }

    /// The occurrence at `offset` of `file` (touching it from either side; one that
    /// contains it wins over one that ends there).
    pub fn at(&self, file: &Path, offset: TextSize) -> Option<&NameOccurrence> {
        let list = match self.by_file.get(file) {
            Some(list) => list,
            None => self.by_file.get(normalize(file).as_path())?,
        };
        // The first occurrence starting after `offset`; candidates are just before it.
        // Occurrences nest only as a path and its scopes (`a::b::x` holds `a` and `b`):
        // the innermost one holding `offset` wins, then one it touches.
        let after = list.partition_point(|&i| self.occurrences[i as usize].range.start() <= offset);
        let mut inside: Option<&NameOccurrence> = None;
        let mut touching: Option<&NameOccurrence> = None;
        for &i in list[..after].iter().rev().take(8) {
            let o = &self.occurrences[i as usize];
            let shorter =
                |best: Option<&NameOccurrence>| best.is_none_or(|b| o.range.len() < b.range.len());
            if o.range.contains(offset) {
                if shorter(inside) {
                    inside = Some(o);
                }
            } else if o.range.contains_inclusive(offset) && shorter(touching) {
                touching = Some(o);
            }
        }
        inside.or(touching)
    }

    /// Every occurrence of the name `o` is (the same namespace and resolved name).
    pub fn same_name<'a>(
        &'a self,
        o: &NameOccurrence,
    ) -> impl Iterator<Item = &'a NameOccurrence> + 'a {
        self.named(namespace(o.kind), &o.name)
    }

    /// The definitions of the name `o` is.
    pub fn definitions<'a>(
        &'a self,
        o: &NameOccurrence,
    ) -> impl Iterator<Item = &'a NameOccurrence> + 'a {
        self.same_name(o).filter(|x| x.definition)
    }

    /// The occurrences of the name `o` is and of what goes with it: a kernel
    /// (`.kernel NAME`) and the global label or symbol of its name (`NAME:`).
    pub fn related<'a>(
        &'a self,
        o: &NameOccurrence,
    ) -> impl Iterator<Item = &'a NameOccurrence> + 'a {
        let partner = match namespace(o.kind) {
            Namespace::Kernel => Some(Namespace::Symbol),
            Namespace::Symbol
                if !o.name.contains("::")
                    && self
                        .by_name
                        .contains_key(&(Namespace::Kernel, o.name.clone())) =>
            {
                Some(Namespace::Kernel)
            }
            _ => None,
        };
        let partner = partner.map_or(&[][..], |ns| self.list(ns, &o.name));
        let own = self.list(namespace(o.kind), &o.name);
        own.iter()
            .chain(partner)
            .map(|&i| &self.occurrences[i as usize])
    }

    /// An occurrence of another name that `new_name` would collide with if `o`'s name
    /// (and what goes with it, see [`SymbolIndex::related`]) were renamed to it: a name of
    /// the same namespace spelled `new_name` (its last part, for a scoped name; in any
    /// case, for a macro; its number, for a local label), in any scope. Its definition
    /// when it has one.
    pub fn collision<'a>(
        &'a self,
        o: &NameOccurrence,
        new_name: &str,
    ) -> Option<&'a NameOccurrence> {
        let namespaces: &[Namespace] = match namespace(o.kind) {
            Namespace::Symbol | Namespace::Kernel => &[Namespace::Symbol, Namespace::Kernel],
            Namespace::LocalLabel => &[Namespace::LocalLabel],
            Namespace::Macro => &[Namespace::Macro],
            Namespace::Scope => &[Namespace::Scope],
        };
        let spelled = |ns: Namespace, name: &str| match ns {
            Namespace::LocalLabel => name.split('#').next() == Some(new_name),
            Namespace::Macro => name.eq_ignore_ascii_case(new_name),
            _ => name.rsplit("::").next() == Some(new_name),
        };
        let mut found: Vec<&NameOccurrence> = self
            .by_name
            .iter()
            .filter(|((ns, name), _)| {
                namespaces.contains(ns) && spelled(*ns, name) && *name != o.name
            })
            .flat_map(|(_, list)| list.iter().map(|&i| &self.occurrences[i as usize]))
            .collect();
        found.sort_by_key(|x| (!x.definition, x.file.clone(), x.range.start()));
        found.first().copied()
    }

    fn named<'a>(
        &'a self,
        namespace: Namespace,
        name: &str,
    ) -> impl Iterator<Item = &'a NameOccurrence> + 'a {
        self.list(namespace, name)
            .iter()
            .map(|&i| &self.occurrences[i as usize])
    }

    fn list(&self, namespace: Namespace, name: &str) -> &[u32] {
        // Keyed by an owned name: one allocation per lookup, not per occurrence.
        self.by_name
            .get(&(namespace, name.to_string()))
            .map(Vec::as_slice)
            .unwrap_or(&[])
    }

    /// The occurrences of `file`, by start.
    pub fn in_file<'a>(&'a self, file: &Path) -> impl Iterator<Item = &'a NameOccurrence> + 'a {
        let list = self
            .by_file
            .get(normalize(file).as_path())
            .map(Vec::as_slice)
            .unwrap_or(&[]);
        list.iter().map(|&i| &self.occurrences[i as usize])
    }
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
