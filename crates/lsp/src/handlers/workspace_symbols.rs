//! `workspace/symbol`: the definitions in the open documents' analyses (their included
//! files too), then the outlines of the other `.s` files of the workspace folders,
//! read from disk: at most [`MAX_FILES`] files of at most [`MAX_FILE_SIZE`] bytes, and
//! [`MAX_RESULTS`] symbols in all.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use gcn_ide::workspace_symbols::{analysis_symbols, file_symbols, WorkspaceSymbol};
use gcn_ide::{LineIndex, PositionEncoding};
use tower_lsp::jsonrpc::Result;
use tower_lsp::lsp_types::*;

use crate::convert;
use crate::server::Server;

pub const MAX_FILES: usize = 2000;
pub const MAX_FILE_SIZE: u64 = 4 << 20;
pub const MAX_RESULTS: usize = 2000;

pub async fn symbols(
    server: &Server,
    params: WorkspaceSymbolParams,
) -> Result<Option<Vec<SymbolInformation>>> {
    let analyses: Vec<Arc<gcn_ide::Analysis>> = server
        .state
        .analyses
        .lock()
        .unwrap()
        .values()
        .map(|(_, a)| a.clone())
        .collect();
    let folders = server.state.workspace_folders.lock().unwrap().clone();
    let encoding = server.state.encoding();
    let query = params.query;
    let found = tokio::task::spawn_blocking(move || collect(&analyses, &folders, &query, encoding))
        .await
        .unwrap_or_default();
    Ok(Some(found))
}

fn collect(
    analyses: &[Arc<gcn_ide::Analysis>],
    folders: &[PathBuf],
    query: &str,
    encoding: PositionEncoding,
) -> Vec<SymbolInformation> {
    let mut out = Vec::new();
    let mut seen: HashSet<(PathBuf, gcn_ide::TextRange)> = HashSet::new();
    let mut covered: HashSet<PathBuf> = HashSet::new();
    for analysis in analyses {
        covered.insert(gcn_ide::analysis::normalize(&analysis.path));
        covered.extend(analysis.included.iter().cloned());
        let mut indexes: HashMap<PathBuf, Option<LineIndex>> = HashMap::new();
        for s in analysis_symbols(analysis, query) {
            if out.len() >= MAX_RESULTS {
                return out;
            }
            if !seen.insert((s.file.clone(), s.range)) {
                continue;
            }
            let index = indexes
                .entry(s.file.clone())
                .or_insert_with(|| analysis.file_text(&s.file).map(LineIndex::new));
            if let Some(info) = index
                .as_ref()
                .and_then(|index| information(&s, index, encoding))
            {
                out.push(info);
            }
        }
    }
    let mut files = Vec::new();
    for folder in folders {
        source_files(folder, &mut files);
    }
    for file in files {
        if out.len() >= MAX_RESULTS {
            break;
        }
        if covered.contains(&gcn_ide::analysis::normalize(&file)) {
            continue;
        }
        let Ok(text) = gcn_ide::read_source(&file) else {
            continue;
        };
        let index = LineIndex::new(&text);
        for s in file_symbols(&file, &gcn_syntax::parse(&text), query) {
            if out.len() >= MAX_RESULTS {
                break;
            }
            if let Some(info) = information(&s, &index, encoding) {
                out.push(info);
            }
        }
    }
    out
}

/// The `.s` files under `dir` (not in hidden folders or `target`), up to [`MAX_FILES`].
fn source_files(dir: &Path, files: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.flatten().collect();
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        if files.len() >= MAX_FILES {
            return;
        }
        let name = entry.file_name();
        let name = name.to_string_lossy();
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        if kind.is_dir() && !name.starts_with('.') && name != "target" && name != "node_modules" {
            source_files(&entry.path(), files);
        } else if kind.is_file()
            && name.ends_with(".s")
            && entry.metadata().is_ok_and(|m| m.len() <= MAX_FILE_SIZE)
        {
            files.push(entry.path());
        }
    }
}

fn information(
    s: &WorkspaceSymbol,
    index: &LineIndex,
    encoding: PositionEncoding,
) -> Option<SymbolInformation> {
    let (start, end) = index.range(s.range, encoding);
    #[allow(deprecated)] // `deprecated` has no default; `tags` replaces it.
    Some(SymbolInformation {
        name: s.name.clone(),
        kind: convert::symbol_kind(s.kind),
        tags: None,
        deprecated: None,
        location: Location::new(
            Url::from_file_path(&s.file).ok()?,
            convert::lsp_range(start, end),
        ),
        container_name: s.container.clone(),
    })
}
