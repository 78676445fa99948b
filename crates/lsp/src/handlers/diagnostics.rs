//! Analyses and `textDocument/publishDiagnostics`.
//!
//! Each change schedules an analysis of its document after the debounce delay (none on
//! open), aborting the one scheduled before it and stopping the one running (its cancel
//! flag). An analysis runs on a blocking thread, off the message loop; its result is
//! kept, and its diagnostics sent, only if the document's revision is still the one it
//! was made for, checked under the publication lock right before sending. A document
//! whose included file changes, and every document when the settings change, gets a new
//! revision and is analysed again.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use gcn_ide::{Analysis, AnalysisInput, LineIndex, OpenFiles, PositionEncoding};
use tower_lsp::lsp_types::{self as lsp, Diagnostic, Url};

use crate::convert;
use crate::document::Document;
use crate::server::{Server, State};

/// The path a document is analysed under: its file, or for another scheme (an unsaved
/// buffer) its URI's path, which names no file.
pub fn document_path(uri: &Url) -> PathBuf {
    uri.to_file_path()
        .unwrap_or_else(|_| PathBuf::from(uri.path()))
}

/// The diagnostics a document shows, and the analysis they come from.
pub(crate) enum Shown {
    /// Its own analysis's.
    Own(Arc<Analysis>),
    /// An included file's: what the open source that includes it gets there.
    Included(Arc<Analysis>, Vec<gcn_ide::Diagnostic>),
}

impl Shown {
    pub(crate) fn analysis(&self) -> &Analysis {
        match self {
            Shown::Own(analysis) | Shown::Included(analysis, _) => analysis,
        }
    }

    pub(crate) fn diagnostics(&self) -> &[gcn_ide::Diagnostic] {
        match self {
            Shown::Own(analysis) => &analysis.diagnostics,
            Shown::Included(_, diagnostics) => diagnostics,
        }
    }
}

/// What `document`, whose own analysis is `analysis`, shows.
pub(crate) fn shown(
    state: &State,
    uri: &Url,
    document: &Document,
    analysis: Arc<Analysis>,
) -> Shown {
    match includer_view(state, uri, document) {
        Some((includer, diagnostics)) => Shown::Included(includer, diagnostics),
        None => Shown::Own(analysis),
    }
}

/// `diags`, of `document` (at `uri`), in LSP terms; the places in the document itself
/// are converted on its rope, those in other files as `analysis` read them.
fn to_lsp(
    uri: &Url,
    document: &Document,
    diags: &[gcn_ide::Diagnostic],
    analysis: &Analysis,
    encoding: PositionEncoding,
) -> Vec<Diagnostic> {
    let path = document_path(uri);
    let mut places = convert::Locations::new(uri, &document.rope, &path, analysis, encoding);
    diags
        .iter()
        .map(|d| {
            let mut out = convert::diagnostic(&document.rope, d, encoding);
            let related: Vec<lsp::DiagnosticRelatedInformation> = d
                .related
                .iter()
                .filter_map(|r| {
                    Some(lsp::DiagnosticRelatedInformation {
                        location: places.location(&r.file, r.range)?,
                        message: r.message.clone(),
                    })
                })
                .collect();
            if !related.is_empty() {
                out.related_information = Some(related);
            }
            out
        })
        .collect()
}

/// Analyses `uri` after `delay` and publishes its diagnostics, unless it changes first.
pub fn schedule(server: &Server, uri: Url, revision: u64, delay: Duration) {
    server.state.cancel_running(&uri);
    let state = server.state.clone();
    let client = server.client.clone();
    let task_uri = uri.clone();
    let task = tokio::spawn(async move {
        if !delay.is_zero() {
            tokio::time::sleep(delay).await;
        }
        let uri = task_uri;
        let Some(analysis) = analyse(&state, &uri, revision).await else {
            return;
        };
        let _publishing = state.publish.lock().await;
        let Some(document) = state.snapshot(&uri).filter(|d| d.revision == revision) else {
            return;
        };
        let shown = shown(&state, &uri, &document, analysis.clone());
        let diagnostics = to_lsp(
            &uri,
            &document,
            shown.diagnostics(),
            shown.analysis(),
            state.encoding(),
        );
        if state.is_current(&uri, revision) {
            client
                .publish_diagnostics(uri.clone(), diagnostics, Some(document.version))
                .await;
            publish_included(&state, &client, &uri, &analysis).await;
            publish_config_problems(&state, &client, &analysis).await;
            if state
                .inlay_refresh
                .load(std::sync::atomic::Ordering::Relaxed)
            {
                // Not awaited here: this task is aborted by the next change, and
                // tower-lsp must not see the wait for the client's answer dropped.
                let client = client.clone();
                tokio::spawn(async move { client.inlay_hint_refresh().await });
            }
        }
    });
    server.state.set_pending(uri, Some(task.abort_handle()));
}

/// The document `{"textDocument": {"uri"}}` names in a custom request's `params`, with
/// its current analysis and the snapshot it belongs to; an "invalid params" error when
/// the parameters are malformed or the document is not open.
pub async fn requested_document(
    state: &Arc<State>,
    params: &serde_json::Value,
) -> tower_lsp::jsonrpc::Result<(Arc<Analysis>, crate::document::Document)> {
    use tower_lsp::jsonrpc::Error;
    let document: tower_lsp::lsp_types::TextDocumentIdentifier = params
        .get("textDocument")
        .cloned()
        .and_then(|d| serde_json::from_value(d).ok())
        .ok_or_else(|| Error::invalid_params("expected { textDocument: { uri } }"))?;
    let uri = document.uri;
    let not_open = || Error::invalid_params(format!("{uri} is not open"));
    let analysis = current(state, &uri).await.ok_or_else(not_open)?;
    let snapshot = state.snapshot(&uri).ok_or_else(not_open)?;
    Ok((analysis, snapshot))
}

/// The analysis of `uri` at its current revision: the one kept, else a new one (which
/// is kept if the document has not changed meanwhile). `None` when the document is
/// closed or changes while it is analysed.
pub async fn current(state: &Arc<State>, uri: &Url) -> Option<Arc<Analysis>> {
    loop {
        let document = state.snapshot(uri)?;
        if let Some(analysis) = state.current_analysis(uri, document.revision) {
            return Some(analysis);
        }
        if let Some(analysis) = analyse(state, uri, document.revision).await {
            return Some(analysis);
        }
        // It changed while it was analysed: try the newer revision.
        tokio::task::yield_now().await;
    }
}

/// Analyses revision `revision` of `uri` off the message loop and keeps the result;
/// `None` if the document changed (or closed) before the analysis ended.
async fn analyse(state: &Arc<State>, uri: &Url, revision: u64) -> Option<Arc<Analysis>> {
    let document = state.snapshot(uri).filter(|d| d.revision == revision)?;
    if let Some(analysis) = state.current_analysis(uri, revision) {
        return Some(analysis);
    }
    let cancel = Arc::new(AtomicBool::new(false));
    state
        .running
        .lock()
        .unwrap()
        .insert(uri.clone(), cancel.clone());
    let input = AnalysisInput {
        path: document_path(uri),
        text: document.shared_text(),
        parse: document.parse.clone(),
        options: gcn_ide::file_options(&document_path(uri), &state.settings.lock().unwrap()),
        open_files: Arc::new(open_files(state, uri)),
        cancel: Some(cancel),
        encode_cache: Some(state.encode_cache(uri)),
    };
    let analysis = tokio::task::spawn_blocking(move || gcn_ide::analyse(input))
        .await
        .ok()?;
    if analysis.cancelled || !state.is_current(uri, revision) {
        return None;
    }
    let analysis = Arc::new(analysis);
    state
        .analyses
        .lock()
        .unwrap()
        .insert(uri.clone(), (revision, analysis.clone()));
    Some(analysis)
}

/// The texts of the open documents other than `uri`.
pub(crate) fn open_files(state: &State, uri: &Url) -> OpenFiles {
    let mut files = OpenFiles::default();
    state.with_documents(|docs| {
        for (other, document) in docs.iter().filter(|(u, _)| *u != uri) {
            if let Ok(path) = other.to_file_path() {
                files.insert(&path, document.shared_text());
            }
        }
    });
    files
}

/// The diagnostics an open document shows as a file that another open document
/// includes: those that source's latest analysis made in it, if it read the document's
/// current text (else that source is being analysed again, and publishes them then).
fn includer_view(
    state: &State,
    uri: &Url,
    document: &Document,
) -> Option<(Arc<Analysis>, Vec<gcn_ide::Diagnostic>)> {
    let includer = includer_of(state, uri, document)?;
    let diagnostics = includer.diagnostics_in(&gcn_ide::analysis::normalize(&document_path(uri)));
    Some((includer, diagnostics))
}

/// The latest analysis of another open document that includes `document` and read its
/// current text: the program the document is part of.
pub(crate) fn includer_of(state: &State, uri: &Url, document: &Document) -> Option<Arc<Analysis>> {
    let path = gcn_ide::analysis::normalize(&document_path(uri));
    let text = document.shared_text();
    let analyses = state.analyses.lock().unwrap();
    let (_, (_, includer)) = analyses
        .iter()
        .filter(|(other, (_, a))| *other != uri && a.included.contains(&path))
        .find(|(_, (_, a))| a.file_text(&path) == Some(&*text))?;
    Some(includer.clone())
}

/// After the diagnostics of `uri` (analysed as `analysis`) are published: those of
/// the open documents it includes, as this analysis found them there.
async fn publish_included(
    state: &State,
    client: &tower_lsp::Client,
    uri: &Url,
    analysis: &Analysis,
) {
    for path in &analysis.included {
        let Ok(included) = Url::from_file_path(path) else {
            continue;
        };
        if included == *uri {
            continue;
        }
        let Some(document) = state.snapshot(&included) else {
            continue;
        };
        if analysis.file_text(path) != Some(&*document.shared_text()) {
            continue;
        }
        let diagnostics = to_lsp(
            &included,
            &document,
            &analysis.diagnostics_in(path),
            analysis,
            state.encoding(),
        );
        client
            .publish_diagnostics(included, diagnostics, Some(document.version))
            .await;
    }
}

/// Analyses again every open document that includes `path` (an open document that
/// changed).
pub fn reanalyse_includers(server: &Server, path: &Path) {
    let path = gcn_ide::analysis::normalize(path);
    let includers: Vec<Url> = {
        let analyses = server.state.analyses.lock().unwrap();
        analyses
            .iter()
            .filter(|(_, (_, a))| a.included.contains(&path))
            .map(|(u, _)| u.clone())
            .collect()
    };
    for uri in includers {
        if let Some(revision) = server.state.touch(&uri) {
            schedule(server, uri, revision, server.state.debounce());
        }
    }
}

/// Analyses again the open documents among `paths`.
pub fn reanalyse_open(server: &Server, paths: &[PathBuf]) {
    for path in paths {
        let Ok(uri) = Url::from_file_path(path) else {
            continue;
        };
        if let Some(revision) = server.state.touch(&uri) {
            schedule(server, uri, revision, server.state.debounce());
        }
    }
}

/// Analyses every open document again (the settings changed).
pub fn reanalyse_all(server: &Server) {
    for uri in server.state.uris() {
        if let Some(revision) = server.state.touch(&uri) {
            schedule(server, uri, revision, Duration::ZERO);
        }
    }
}

/// Diagnostics on the project file an analysis used or tried, for its problems; a
/// project file fixed since gets its diagnostics cleared.
async fn publish_config_problems(state: &State, client: &tower_lsp::Client, analysis: &Analysis) {
    let mut by_file: HashMap<Url, Vec<Diagnostic>> = HashMap::new();
    for problem in &analysis.config_problems {
        let Some(file) = &problem.file else { continue };
        let Ok(uri) = Url::from_file_path(file) else {
            continue;
        };
        let text = gcn_ide::read_source(file).unwrap_or_default();
        let index = LineIndex::new(&text);
        let range = problem
            .range
            .filter(|r| usize::from(r.end()) <= text.len())
            .unwrap_or_default();
        let (start, end) = index.range(range, state.encoding());
        by_file.entry(uri).or_default().push(Diagnostic {
            range: convert::lsp_range(start, end),
            severity: Some(lsp::DiagnosticSeverity::ERROR),
            source: Some("gcn".into()),
            message: problem.message.clone(),
            ..Default::default()
        });
    }
    if let Some(project) = &analysis.project_file {
        if let Ok(uri) = Url::from_file_path(project) {
            by_file.entry(uri).or_default();
        }
    }
    let cleared: Vec<Url> = {
        let mut known = state.config_files.lock().unwrap();
        let cleared = known
            .iter()
            .filter(|u| by_file.get(*u).is_some_and(|d| d.is_empty()))
            .cloned()
            .collect();
        known.extend(
            by_file
                .iter()
                .filter(|(_, d)| !d.is_empty())
                .map(|(u, _)| u.clone()),
        );
        cleared
    };
    for (uri, diagnostics) in by_file {
        if !diagnostics.is_empty() || cleared.contains(&uri) {
            client.publish_diagnostics(uri, diagnostics, None).await;
        }
    }
}
