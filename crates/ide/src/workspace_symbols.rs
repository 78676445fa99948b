//! Symbols of the whole project for `workspace/symbol`: the definitions of an analysed
//! source (labels, symbols with their scope path, register symbols, macros, kernels,
//! across its includes; local labels are left out), and the outline of a file that is
//! only on disk ([`crate::document_symbols`], flattened).

use std::path::{Path, PathBuf};

use gcn_asm::index::NameKind;
use gcn_syntax::{Parse, TextRange};

use crate::analysis::Analysis;
use crate::document_symbols::{document_symbols, DocumentSymbol, SymbolKind};

/// One symbol of the workspace.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct WorkspaceSymbol {
    pub name: String,
    pub kind: SymbolKind,
    pub file: PathBuf,
    /// The name in its definition.
    pub range: TextRange,
    /// The scope or kernel it is in, if any.
    pub container: Option<String>,
}

/// The definitions of an analysis whose name matches `query`.
pub fn analysis_symbols(analysis: &Analysis, query: &str) -> Vec<WorkspaceSymbol> {
    let mut out = Vec::new();
    for o in analysis.names.occurrences.iter().filter(|o| o.definition) {
        let kind = match o.kind {
            NameKind::Label => SymbolKind::Label,
            NameKind::Symbol | NameKind::RegisterSymbol => SymbolKind::Symbol,
            NameKind::Macro => SymbolKind::Macro,
            NameKind::Kernel => SymbolKind::Kernel,
            NameKind::LocalLabel | NameKind::Scope => continue,
        };
        if !matches(query, &o.name) {
            continue;
        }
        let (container, name) = match o.name.rsplit_once("::") {
            Some((scope, name)) => (Some(scope.to_string()), name.to_string()),
            None => (None, o.name.clone()),
        };
        out.push(WorkspaceSymbol {
            name,
            kind,
            file: o.file.to_path_buf(),
            range: o.range,
            container,
        });
    }
    out
}

/// The outline of `file` whose names match `query`, flattened (a kernel's labels have
/// it as their container).
pub fn file_symbols(file: &Path, parse: &Parse, query: &str) -> Vec<WorkspaceSymbol> {
    fn go(
        file: &Path,
        symbols: &[DocumentSymbol],
        container: Option<&str>,
        query: &str,
        out: &mut Vec<WorkspaceSymbol>,
    ) {
        for s in symbols {
            if matches(query, &s.name) {
                out.push(WorkspaceSymbol {
                    name: s.name.clone(),
                    kind: s.kind,
                    file: file.to_path_buf(),
                    range: s.focus_range,
                    container: container.map(str::to_string),
                });
            }
            go(file, &s.children, Some(&s.name), query, out);
        }
    }
    let mut out = Vec::new();
    go(file, &document_symbols(parse), None, query, &mut out);
    out
}

/// Whether `name` matches `query`: its characters in order, ignoring case (an empty
/// query matches everything).
pub fn matches(query: &str, name: &str) -> bool {
    let mut chars = name.chars().map(|c| c.to_ascii_lowercase());
    query
        .chars()
        .map(|c| c.to_ascii_lowercase())
        .all(|q| chars.any(|c| c == q))
}
