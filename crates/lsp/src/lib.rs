//! The language server for CLRX GCN assembly: the only crate that knows the Language
//! Server Protocol.
//!
//! Editor features come from `gcn-ide` as plain data over byte ranges; this crate keeps
//! the open documents ([`document`]), maps between byte offsets and LSP positions
//! ([`convert`], in UTF-16 or UTF-8 code units as negotiated at `initialize`), and speaks
//! the protocol through `tower-lsp` (module `server`, with one module per feature under
//! `handlers`).
//!
//! Features: incremental text synchronisation (each change applied to a rope and to the
//! syntax tree by incremental reparsing), syntax diagnostics (published on open, and after
//! a quiet period following changes, never for a stale version), hierarchical document
//! symbols, hover, completion, signature help, semantic tokens (full, delta and
//! range, made off the message loop), folding
//! and selection ranges. Custom requests: `gcn/registerUsage` (each kernel's registers),
//! `gcn/expandMacro` (what the calls on a line expand to), `gcn/listing` (each
//! instruction's place and words) and `gcn/syntaxTree` (the
//! server's syntax tree of a document, for debugging).

pub mod convert;
pub mod document;
mod handlers;
mod server;
pub mod transport;

pub use crate::handlers::syntax_tree::dump as dump_syntax_tree;
pub use crate::server::{Config, Server};

/// The server as a tower service, and the socket of its messages to the client.
pub fn service(config: Config) -> (tower_lsp::LspService<Server>, tower_lsp::ClientSocket) {
    tower_lsp::LspService::build(move |client| Server::new(client, config))
        .custom_method(handlers::syntax_tree::METHOD, Server::syntax_tree)
        .custom_method(handlers::register_usage::METHOD, Server::register_usage)
        .custom_method(handlers::expand_macro::METHOD, Server::expand_macro)
        .custom_method(handlers::listing::METHOD, Server::listing)
        .finish()
}

/// Serves one client over `input` and `output` until the client exits (or the input
/// ends); returns the exit status the process should end with: 0 when `shutdown` came
/// before, 1 otherwise. Malformed messages are answered and skipped, handler panics
/// become error replies (see [`transport`]).
pub async fn serve<I, O>(config: Config, input: I, output: O) -> i32
where
    I: tokio::io::AsyncRead + Unpin,
    O: tokio::io::AsyncWrite + Unpin,
{
    let (service, socket) = service(config);
    transport::serve(service, socket, input, output).await
}

/// Serves one client over standard input and output; returns the exit status.
pub async fn run_stdio(config: Config) -> i32 {
    serve(config, tokio::io::stdin(), tokio::io::stdout()).await
}
