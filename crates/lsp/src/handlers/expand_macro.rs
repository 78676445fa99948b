//! `gcn/expandMacro`: what the macro calls and repetitions on the cursor's line expand
//! to (`gcn_ide::expand_macro`), for the editors' "expand macro" commands.

use serde_json::{json, Value};
use tower_lsp::jsonrpc::{Error, Result};
use tower_lsp::lsp_types::TextDocumentPositionParams;

use crate::convert;
use crate::handlers::diagnostics::document_path;
use crate::handlers::navigation;
use crate::server::Server;

pub const METHOD: &str = "gcn/expandMacro";

/// `{"textDocument": {"uri"}, "position"}` → `{"range", "parts", "text"}`, or null
/// when the assembler ran no call or repetition on that line.
pub async fn expand_macro(server: &Server, params: Value) -> Result<Value> {
    let params: TextDocumentPositionParams = serde_json::from_value(params)
        .map_err(|_| Error::invalid_params("expected { textDocument: { uri }, position }"))?;
    let uri = params.text_document.uri;
    let Some((document, analysis, offset)) = navigation::at(server, &uri, params.position).await
    else {
        return Err(Error::invalid_params(format!("{uri} is not open")));
    };
    let path = document_path(&uri);
    // The source is assembled again: off the message loop.
    let expansion =
        tokio::task::spawn_blocking(move || gcn_ide::expand_macro(&analysis, &path, offset))
            .await
            .map_err(|_| Error::internal_error())?;
    let Some(expansion) = expansion else {
        return Ok(Value::Null);
    };
    let range = convert::range(&document.rope, expansion.range, server.state.encoding());
    Ok(json!({
        "range": range,
        "parts": expansion.parts,
        "text": expansion.text,
    }))
}
