//! The `LanguageServer` implementation: shared state and dispatch to [`crate::handlers`].

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use gcn_ide::PositionEncoding;
use tokio::task::AbortHandle;
use tower_lsp::jsonrpc::Result;
use tower_lsp::lsp_types::*;
use tower_lsp::{Client, LanguageServer};

use crate::document::Document;
use crate::handlers;

/// Server settings that are not negotiated with the client.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Config {
    /// How long a document must go without changes before its diagnostics are published
    /// (on open they are published at once).
    pub debounce: Duration,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            debounce: Duration::from_millis(150),
        }
    }
}

/// State shared by the handlers and the diagnostics tasks. Its locks are never held
/// across an `.await`, except `publish`, which orders publications.
#[derive(Debug)]
pub(crate) struct State {
    pub(crate) config: Config,
    encoding: Mutex<PositionEncoding>,
    documents: Mutex<HashMap<Url, Document>>,
    /// The debounced publication waiting for each document, aborted by the next change.
    pending: Mutex<HashMap<Url, AbortHandle>>,
    /// Held while checking that diagnostics are current and sending them, and while
    /// clearing a closed document's diagnostics, so a stale publication never goes out
    /// after a newer one or after the clearing.
    pub(crate) publish: tokio::sync::Mutex<()>,
    next_revision: AtomicU64,
}

impl State {
    fn new(config: Config) -> State {
        State {
            config,
            encoding: Mutex::new(PositionEncoding::Utf16),
            documents: Mutex::new(HashMap::new()),
            pending: Mutex::new(HashMap::new()),
            publish: tokio::sync::Mutex::new(()),
            next_revision: AtomicU64::new(1),
        }
    }

    pub fn encoding(&self) -> PositionEncoding {
        *self.encoding.lock().unwrap()
    }

    pub(crate) fn set_encoding(&self, encoding: PositionEncoding) {
        *self.encoding.lock().unwrap() = encoding;
    }

    pub(crate) fn next_revision(&self) -> u64 {
        self.next_revision.fetch_add(1, Ordering::Relaxed)
    }

    /// A cheap copy of an open document.
    pub fn snapshot(&self, uri: &Url) -> Option<Document> {
        self.documents.lock().unwrap().get(uri).cloned()
    }

    pub(crate) fn with_documents<T>(&self, f: impl FnOnce(&mut HashMap<Url, Document>) -> T) -> T {
        f(&mut self.documents.lock().unwrap())
    }

    /// Whether `revision` is still the latest of the open document `uri`.
    pub(crate) fn is_current(&self, uri: &Url, revision: u64) -> bool {
        self.documents
            .lock()
            .unwrap()
            .get(uri)
            .is_some_and(|d| d.revision == revision)
    }

    /// Records the pending publication of `uri`, aborting the one it replaces.
    pub(crate) fn set_pending(&self, uri: Url, task: Option<AbortHandle>) {
        let mut pending = self.pending.lock().unwrap();
        let old = match task {
            Some(task) => pending.insert(uri, task),
            None => pending.remove(&uri),
        };
        if let Some(old) = old {
            old.abort();
        }
    }
}

pub struct Server {
    pub(crate) client: Client,
    pub(crate) state: Arc<State>,
}

impl Server {
    pub fn new(client: Client, config: Config) -> Server {
        Server {
            client,
            state: Arc::new(State::new(config)),
        }
    }
}

#[tower_lsp::async_trait]
impl LanguageServer for Server {
    async fn initialize(&self, params: InitializeParams) -> Result<InitializeResult> {
        Ok(handlers::initialize::initialize(&self.state, params))
    }

    async fn initialized(&self, _: InitializedParams) {}

    async fn shutdown(&self) -> Result<()> {
        Ok(())
    }

    // Text synchronisation handlers do all their work before their first `.await`, so
    // changes are applied in the order they arrive even though tower-lsp runs handlers
    // concurrently.

    async fn did_open(&self, params: DidOpenTextDocumentParams) {
        handlers::text_sync::did_open(self, params);
    }

    async fn did_change(&self, params: DidChangeTextDocumentParams) {
        handlers::text_sync::did_change(self, params);
    }

    async fn did_close(&self, params: DidCloseTextDocumentParams) {
        handlers::text_sync::did_close(self, params).await;
    }

    async fn document_symbol(
        &self,
        params: DocumentSymbolParams,
    ) -> Result<Option<DocumentSymbolResponse>> {
        Ok(handlers::document_symbols::document_symbol(
            &self.state,
            params,
        ))
    }
}

impl Server {
    /// The `gcn/syntaxTree` custom request.
    pub async fn syntax_tree(&self, params: serde_json::Value) -> Result<String> {
        handlers::syntax_tree::syntax_tree(&self.state, params)
    }
}
