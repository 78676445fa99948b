//! `gcn/listing`: each instruction of a document's current version with its place and
//! words (`gcn_ide::listing`, what `gcnasm --emit listing` writes), for the editors'
//! "show listing" commands.

use serde_json::{json, Value};
use tower_lsp::jsonrpc::{Error, Result};

use crate::handlers::diagnostics;
use crate::server::Server;

pub const METHOD: &str = "gcn/listing";

/// `{"textDocument": {"uri"}}` → `{"version", "text", "errors"}`.
pub async fn listing(server: &Server, params: Value) -> Result<Value> {
    let (analysis, document) = diagnostics::requested_document(&server.state, &params).await?;
    let listing = gcn_ide::listing(&analysis).ok_or_else(Error::internal_error)?;
    Ok(json!({ "version": document.version, "text": listing.text, "errors": listing.errors }))
}
