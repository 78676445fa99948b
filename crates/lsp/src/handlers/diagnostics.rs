//! `textDocument/publishDiagnostics`, debounced.
//!
//! Each change schedules a publication after [`Config::debounce`](crate::Config) and aborts
//! the one scheduled before it. A publication is sent only if the document's revision is
//! still the one it was scheduled for, checked under the publication lock right before
//! sending; it carries the document's version.

use std::time::Duration;

use gcn_ide::PositionEncoding;
use tower_lsp::lsp_types::{Diagnostic, Url};

use crate::convert;
use crate::document::Document;
use crate::server::Server;

/// The LSP diagnostics of a document.
pub fn diagnostics(document: &Document, encoding: PositionEncoding) -> Vec<Diagnostic> {
    gcn_ide::diagnostics(&document.parse)
        .iter()
        .map(|d| convert::diagnostic(&document.rope, d, encoding))
        .collect()
}

/// Publishes the diagnostics of `uri` after `delay`, unless it changes again first.
pub fn schedule(server: &Server, uri: Url, revision: u64, delay: Duration) {
    let state = server.state.clone();
    let client = server.client.clone();
    let task_uri = uri.clone();
    let task = tokio::spawn(async move {
        if !delay.is_zero() {
            tokio::time::sleep(delay).await;
        }
        let uri = task_uri;
        let _publishing = state.publish.lock().await;
        let Some(document) = state.snapshot(&uri).filter(|d| d.revision == revision) else {
            return;
        };
        let diagnostics = diagnostics(&document, state.encoding());
        if state.is_current(&uri, revision) {
            client
                .publish_diagnostics(uri, diagnostics, Some(document.version))
                .await;
        }
    });
    server.state.set_pending(uri, Some(task.abort_handle()));
}
