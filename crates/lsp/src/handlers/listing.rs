//! `gcn/listing`: each instruction of a document's current version with its place and
//! words (`gcn_ide::listing`, what `gcnasm --emit listing` writes), for the editors'
//! "show listing" commands.

use serde_json::{json, Value};
use tower_lsp::jsonrpc::{Error, Result};
use tower_lsp::lsp_types::TextDocumentIdentifier;

use crate::handlers::diagnostics;
use crate::server::Server;

pub const METHOD: &str = "gcn/listing";

/// `{"textDocument": {"uri"}}` → `{"version", "text", "errors"}`.
pub async fn listing(server: &Server, params: Value) -> Result<Value> {
    let document: TextDocumentIdentifier = params
        .get("textDocument")
        .cloned()
        .and_then(|d| serde_json::from_value(d).ok())
        .ok_or_else(|| Error::invalid_params("expected { textDocument: { uri } }"))?;
    let uri = document.uri;
    let not_open = || Error::invalid_params(format!("{uri} is not open"));
    let analysis = diagnostics::current(&server.state, &uri)
        .await
        .ok_or_else(not_open)?;
    let version = server.state.snapshot(&uri).ok_or_else(not_open)?.version;
    let listing = gcn_ide::listing(&analysis).ok_or_else(Error::internal_error)?;
    Ok(json!({ "version": version, "text": listing.text, "errors": listing.errors }))
}
