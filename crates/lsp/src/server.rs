//! The `LanguageServer` implementation: shared state and dispatch to [`crate::handlers`].

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use gcn_asm::encode_cache::SharedEncodeCache;
use gcn_ide::{Analysis, PositionEncoding, Settings};
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

/// State shared by the handlers and the analysis tasks. Its locks are never held
/// across an `.await`, except `publish`, which orders publications.
pub(crate) struct State {
    pub(crate) config: Config,
    encoding: Mutex<PositionEncoding>,
    documents: Mutex<HashMap<Url, Document>>,
    /// The editor's settings (`initializationOptions`, `didChangeConfiguration`).
    pub(crate) settings: Mutex<Settings>,
    /// The latest analysis of each open document, with the revision it is of.
    pub(crate) analyses: Mutex<HashMap<Url, (u64, Arc<Analysis>)>>,
    /// The cancel flag of the analysis running for each document.
    pub(crate) running: Mutex<HashMap<Url, Arc<AtomicBool>>>,
    /// Each open document's encodings, kept from one analysis to the next.
    encode_caches: Mutex<HashMap<Url, SharedEncodeCache>>,
    /// Project files with problems published, to clear them once fixed.
    pub(crate) config_files: Mutex<HashSet<Url>>,
    /// Whether the client refreshes inlay hints when asked to.
    pub(crate) inlay_refresh: AtomicBool,
    /// Whether the client registers file watching when asked to (`initialized` asks).
    pub(crate) watch_files: AtomicBool,
    /// The workspace folders (`initialize`), searched by `workspace/symbol`.
    pub(crate) workspace_folders: Mutex<Vec<std::path::PathBuf>>,
    /// The debounced analysis waiting for each document, aborted by the next change.
    pending: Mutex<HashMap<Url, AbortHandle>>,
    /// Held while checking that diagnostics are current and sending them, and while
    /// clearing a closed document's diagnostics, so a stale publication never goes out
    /// after a newer one or after the clearing.
    pub(crate) publish: tokio::sync::Mutex<()>,
    next_revision: AtomicU64,
    /// The semantic tokens last sent for each open document, with their `resultId`,
    /// what a `semanticTokens/full/delta` request is answered against.
    pub(crate) semantic_tokens: Mutex<HashMap<Url, handlers::semantic_tokens::Sent>>,
}

impl State {
    fn new(config: Config) -> State {
        State {
            config,
            encoding: Mutex::new(PositionEncoding::Utf16),
            documents: Mutex::new(HashMap::new()),
            settings: Mutex::new(Settings::default()),
            analyses: Mutex::new(HashMap::new()),
            running: Mutex::new(HashMap::new()),
            config_files: Mutex::new(HashSet::new()),
            encode_caches: Mutex::new(HashMap::new()),
            inlay_refresh: AtomicBool::new(false),
            watch_files: AtomicBool::new(false),
            workspace_folders: Mutex::new(Vec::new()),
            pending: Mutex::new(HashMap::new()),
            publish: tokio::sync::Mutex::new(()),
            next_revision: AtomicU64::new(1),
            semantic_tokens: Mutex::new(HashMap::new()),
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

    /// The encodings kept for the document `uri`.
    pub(crate) fn encode_cache(&self, uri: &Url) -> SharedEncodeCache {
        self.encode_caches
            .lock()
            .unwrap()
            .entry(uri.clone())
            .or_default()
            .clone()
    }

    /// Forgets what was kept for a closed document.
    pub(crate) fn forget(&self, uri: &Url) {
        self.cancel_running(uri);
        self.analyses.lock().unwrap().remove(uri);
        self.encode_caches.lock().unwrap().remove(uri);
        self.semantic_tokens.lock().unwrap().remove(uri);
    }

    /// The open documents' URIs.
    pub(crate) fn uris(&self) -> Vec<Url> {
        self.documents.lock().unwrap().keys().cloned().collect()
    }

    /// The delay between a change and its analysis: the settings', else the server's.
    pub(crate) fn debounce(&self) -> Duration {
        self.settings
            .lock()
            .unwrap()
            .diagnostics_delay
            .map_or(self.config.debounce, Duration::from_millis)
    }

    /// The analysis of `uri` if it is of the document's current revision.
    pub(crate) fn current_analysis(&self, uri: &Url, revision: u64) -> Option<Arc<Analysis>> {
        let analyses = self.analyses.lock().unwrap();
        analyses
            .get(uri)
            .filter(|(r, _)| *r == revision)
            .map(|(_, a)| a.clone())
    }

    /// Gives the document `uri` a new revision without changing its text (a file it
    /// includes changed, or the settings did); its new revision.
    pub(crate) fn touch(&self, uri: &Url) -> Option<u64> {
        let revision = self.next_revision();
        let mut documents = self.documents.lock().unwrap();
        let document = documents.get_mut(uri)?;
        document.revision = revision;
        Some(revision)
    }

    /// Stops the analysis running for `uri`, if any.
    pub(crate) fn cancel_running(&self, uri: &Url) {
        if let Some(flag) = self.running.lock().unwrap().remove(uri) {
            flag.store(true, Ordering::Relaxed);
        }
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

    async fn initialized(&self, _: InitializedParams) {
        if self
            .state
            .watch_files
            .load(std::sync::atomic::Ordering::Relaxed)
        {
            handlers::watched_files::register(self);
        }
    }

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

    async fn did_save(&self, params: DidSaveTextDocumentParams) {
        handlers::on_save::did_save(self, params.text_document.uri).await;
    }

    async fn did_change_watched_files(&self, params: DidChangeWatchedFilesParams) {
        handlers::watched_files::did_change_watched_files(self, params);
    }

    async fn did_change_configuration(&self, params: DidChangeConfigurationParams) {
        handlers::configuration::did_change_configuration(self, params.settings).await;
    }

    async fn execute_command(
        &self,
        params: ExecuteCommandParams,
    ) -> Result<Option<serde_json::Value>> {
        match params.command.as_str() {
            handlers::on_save::ASSEMBLE => {
                handlers::on_save::execute_assemble(self, params.arguments).await
            }
            other => Err(tower_lsp::jsonrpc::Error::invalid_params(format!(
                "unknown command {other}"
            ))),
        }
    }

    async fn code_action(&self, params: CodeActionParams) -> Result<Option<CodeActionResponse>> {
        Ok(handlers::code_actions::code_actions(&self.state, params).await)
    }

    async fn inlay_hint(&self, params: InlayHintParams) -> Result<Option<Vec<InlayHint>>> {
        handlers::register_usage::inlay_hints(self, params).await
    }

    async fn goto_definition(
        &self,
        params: GotoDefinitionParams,
    ) -> Result<Option<GotoDefinitionResponse>> {
        handlers::navigation::definition(self, params.text_document_position_params).await
    }

    async fn goto_declaration(
        &self,
        params: request::GotoDeclarationParams,
    ) -> Result<Option<request::GotoDeclarationResponse>> {
        handlers::navigation::definition(self, params.text_document_position_params).await
    }

    async fn references(&self, params: ReferenceParams) -> Result<Option<Vec<Location>>> {
        handlers::navigation::references(self, params).await
    }

    async fn document_highlight(
        &self,
        params: DocumentHighlightParams,
    ) -> Result<Option<Vec<DocumentHighlight>>> {
        handlers::navigation::highlight(self, params).await
    }

    async fn prepare_rename(
        &self,
        params: TextDocumentPositionParams,
    ) -> Result<Option<PrepareRenameResponse>> {
        handlers::rename::prepare_rename(self, params).await
    }

    async fn rename(&self, params: RenameParams) -> Result<Option<WorkspaceEdit>> {
        handlers::rename::rename(self, params).await
    }

    async fn document_link(&self, params: DocumentLinkParams) -> Result<Option<Vec<DocumentLink>>> {
        handlers::document_links::document_links(self, params).await
    }

    async fn symbol(
        &self,
        params: WorkspaceSymbolParams,
    ) -> Result<Option<Vec<SymbolInformation>>> {
        handlers::workspace_symbols::symbols(self, params).await
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

    async fn hover(&self, params: HoverParams) -> Result<Option<Hover>> {
        Ok(handlers::hover::hover(&self.state, params).await)
    }

    async fn completion(&self, params: CompletionParams) -> Result<Option<CompletionResponse>> {
        Ok(handlers::completion::completion(&self.state, params))
    }

    async fn completion_resolve(&self, item: CompletionItem) -> Result<CompletionItem> {
        Ok(crate::convert::resolve_completion(item))
    }

    async fn signature_help(&self, params: SignatureHelpParams) -> Result<Option<SignatureHelp>> {
        Ok(handlers::signature_help::signature_help(
            &self.state,
            params,
        ))
    }

    async fn semantic_tokens_full(
        &self,
        params: SemanticTokensParams,
    ) -> Result<Option<SemanticTokensResult>> {
        handlers::semantic_tokens::full(&self.state, params).await
    }

    async fn semantic_tokens_full_delta(
        &self,
        params: SemanticTokensDeltaParams,
    ) -> Result<Option<SemanticTokensFullDeltaResult>> {
        handlers::semantic_tokens::full_delta(&self.state, params).await
    }

    async fn semantic_tokens_range(
        &self,
        params: SemanticTokensRangeParams,
    ) -> Result<Option<SemanticTokensRangeResult>> {
        handlers::semantic_tokens::range(&self.state, params).await
    }

    async fn folding_range(&self, params: FoldingRangeParams) -> Result<Option<Vec<FoldingRange>>> {
        Ok(handlers::folding_ranges::folding_range(&self.state, params))
    }

    async fn selection_range(
        &self,
        params: SelectionRangeParams,
    ) -> Result<Option<Vec<SelectionRange>>> {
        Ok(handlers::selection_ranges::selection_range(
            &self.state,
            params,
        ))
    }
}

impl Server {
    /// The `gcn/registerUsage` custom request.
    pub async fn register_usage(&self, params: serde_json::Value) -> Result<serde_json::Value> {
        handlers::register_usage::register_usage(self, params).await
    }

    /// The `gcn/expandMacro` custom request.
    pub async fn expand_macro(&self, params: serde_json::Value) -> Result<serde_json::Value> {
        handlers::expand_macro::expand_macro(self, params).await
    }

    /// The `gcn/listing` custom request.
    pub async fn listing(&self, params: serde_json::Value) -> Result<serde_json::Value> {
        handlers::listing::listing(self, params).await
    }

    /// The `gcn/syntaxTree` custom request.
    pub async fn syntax_tree(&self, params: serde_json::Value) -> Result<String> {
        handlers::syntax_tree::syntax_tree(&self.state, params)
    }
}
