//! `didOpen`, `didChange` and `didClose`: the open documents. A change also makes the
//! documents that include the changed one be analysed again.
//!
//! `did_open` and `did_change` are synchronous: they run to the end in the first poll of
//! their handler's future, which tower-lsp starts in arrival order, so changes are never
//! applied out of order.

use tower_lsp::lsp_types::*;

use crate::document::Document;
use crate::handlers::diagnostics;
use crate::server::Server;

pub fn did_open(server: &Server, params: DidOpenTextDocumentParams) {
    let doc = params.text_document;
    let revision = server.state.next_revision();
    let document = Document::new(&doc.text, doc.version, revision);
    if let Some(old) = server
        .state
        .with_documents(|docs| docs.insert(doc.uri.clone(), document))
    {
        old.mark_replaced();
    }
    diagnostics::schedule(server, doc.uri.clone(), revision, std::time::Duration::ZERO);
    diagnostics::reanalyse_includers(server, &diagnostics::document_path(&doc.uri));
}

pub fn did_change(server: &Server, params: DidChangeTextDocumentParams) {
    let uri = params.text_document.uri;
    let encoding = server.state.encoding();
    let revision = server.state.next_revision();
    let changed = server.state.with_documents(|docs| {
        let Some(document) = docs.get_mut(&uri) else {
            return false;
        };
        for change in params.content_changes {
            document.apply_change(change, encoding);
        }
        document.version = params.text_document.version;
        document.revision = revision;
        true
    });
    if changed {
        diagnostics::schedule(server, uri.clone(), revision, server.state.debounce());
        diagnostics::reanalyse_includers(server, &diagnostics::document_path(&uri));
    }
}

pub async fn did_close(server: &Server, params: DidCloseTextDocumentParams) {
    let uri = params.text_document.uri;
    if let Some(document) = server.state.with_documents(|docs| docs.remove(&uri)) {
        document.mark_replaced();
    }
    server.state.set_pending(uri.clone(), None);
    // The open files it included showed what it found in them: now their own.
    let included = server
        .state
        .analyses
        .lock()
        .unwrap()
        .get(&uri)
        .map(|(_, a)| a.included.clone())
        .unwrap_or_default();
    server.state.forget(&uri);
    diagnostics::reanalyse_includers(server, &diagnostics::document_path(&uri));
    diagnostics::reanalyse_open(server, &included);
    let _publishing = server.state.publish.lock().await;
    server
        .client
        .publish_diagnostics(uri, Vec::new(), None)
        .await;
}
