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
//! symbols, hover, completion, signature help, semantic tokens (full and range), folding
//! and selection ranges. A custom request, `gcn/syntaxTree`, shows the server's syntax tree of a
//! document, for debugging.

pub mod convert;
pub mod document;
mod handlers;
mod server;

pub use crate::handlers::syntax_tree::dump as dump_syntax_tree;
pub use crate::server::{Config, Server};

/// The server as a tower service, and the socket of its messages to the client.
pub fn service(config: Config) -> (tower_lsp::LspService<Server>, tower_lsp::ClientSocket) {
    tower_lsp::LspService::build(move |client| Server::new(client, config))
        .custom_method(handlers::syntax_tree::METHOD, Server::syntax_tree)
        .custom_method(handlers::register_usage::METHOD, Server::register_usage)
        .finish()
}

/// Serves one client over `input` and `output` until the client exits.
pub async fn serve<I, O>(config: Config, input: I, output: O)
where
    I: tokio::io::AsyncRead + Unpin,
    O: tokio::io::AsyncWrite,
{
    let (service, socket) = service(config);
    tower_lsp::Server::new(input, output, socket)
        .serve(service)
        .await;
}

/// Serves one client over standard input and output.
pub async fn run_stdio(config: Config) {
    serve(config, tokio::io::stdin(), tokio::io::stdout()).await;
}
