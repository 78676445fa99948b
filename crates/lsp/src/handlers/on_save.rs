//! The binary on save (`didSave`) and on demand (`workspace/executeCommand`
//! `gcn.assemble`): the saved text analysed afresh and written by `gcn_ide::on_save`,
//! with the outcome told to the user (`window/showMessage`) and the log.

use std::path::PathBuf;
use std::sync::Arc;

use serde_json::{json, Value};
use tower_lsp::jsonrpc::{Error, Result};
use tower_lsp::lsp_types::{MessageType, Url};

use crate::handlers::diagnostics;
use crate::server::Server;

/// The command that assembles a document on demand.
pub const ASSEMBLE: &str = "gcn.assemble";

pub async fn did_save(server: &Server, uri: Url) {
    match assemble(server, &uri, Saved::Yes).await {
        Ok(Some(path)) => {
            let message = format!("gcn: wrote {}", path.display());
            server.client.log_message(MessageType::INFO, &message).await;
            server.client.show_message(MessageType::INFO, message).await;
        }
        Ok(None) => {}
        Err(message) => {
            server
                .client
                .log_message(MessageType::ERROR, &message)
                .await;
            server
                .client
                .show_message(MessageType::ERROR, message)
                .await;
        }
    }
}

/// `gcn.assemble` with arguments `[uri]`: `{"output": PATH}` or an error.
pub async fn execute_assemble(server: &Server, arguments: Vec<Value>) -> Result<Option<Value>> {
    let uri = arguments
        .first()
        .and_then(|a| a.as_str())
        .and_then(|a| Url::parse(a).ok())
        .ok_or_else(|| Error::invalid_params("gcn.assemble takes [uri]"))?;
    match assemble(server, &uri, Saved::No).await {
        Ok(Some(path)) => {
            server.client.log_message(MessageType::INFO, format!("gcn: wrote {}", path.display())).await;
            Ok(Some(json!({ "output": path })))
        }
        Ok(None) => Err(Error::invalid_params(
            "no output is set: give one in gcn.toml ([on-save] output = \"...\") or in the onSave.output setting",
        )),
        Err(message) => {
            server.client.log_message(MessageType::ERROR, &message).await;
            let mut error = Error::internal_error();
            error.message = message.into();
            Err(error)
        }
    }
}

/// Whether the document was just saved (its file holds the buffer, maybe in another
/// encoding), or is assembled on demand (the buffer, saved or not).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Saved {
    Yes,
    No,
}

/// Assembles the open document `uri` and writes its on-save output: the path written,
/// `None` when no output is set, or why nothing was written.
async fn assemble(
    server: &Server,
    uri: &Url,
    saved: Saved,
) -> std::result::Result<Option<PathBuf>, String> {
    let state = server.state.clone();
    let document = state
        .snapshot(uri)
        .ok_or_else(|| format!("gcn: {uri} is not open"))?;
    let path = diagnostics::document_path(uri);
    let options = gcn_ide::file_options(&path, &state.settings.lock().unwrap());
    if options.on_save_output.is_none() {
        return Ok(None);
    }
    let buffer = document.shared_text();
    let text = if saved == Saved::Yes {
        gcn_ide::on_save::saved_text(&path, &buffer)
    } else {
        buffer.clone()
    };
    let parse = if Arc::ptr_eq(&text, &buffer) {
        document.parse.clone()
    } else {
        gcn_syntax::parse(&text)
    };
    let input = gcn_ide::AnalysisInput {
        path,
        text,
        parse,
        options: options.clone(),
        open_files: Arc::new(diagnostics::open_files(&state, uri)),
        cancel: None,
        encode_cache: None,
    };
    let written = tokio::task::spawn_blocking(move || {
        let analysis = gcn_ide::analyse(input);
        gcn_ide::on_save::write_output(&analysis, &options)
    })
    .await
    .map_err(|e| format!("gcn: assembling failed: {e}"))?;
    match written {
        Ok(path) => Ok(Some(path)),
        Err(gcn_ide::on_save::NotWritten::NoOutput) => Ok(None),
        // Saving a file that only defines things (written to be included) is no failure.
        Err(gcn_ide::on_save::NotWritten::Nothing) if saved == Saved::Yes => {
            let message = format!(
                "gcn: nothing written for {}: {}",
                uri,
                gcn_ide::on_save::NOTHING_TO_WRITE
            );
            server.client.log_message(MessageType::INFO, message).await;
            Ok(None)
        }
        Err(gcn_ide::on_save::NotWritten::Nothing) => {
            Err(format!("gcn: {}", gcn_ide::on_save::NOTHING_TO_WRITE))
        }
        Err(gcn_ide::on_save::NotWritten::Refused(why)) => Err(format!("gcn: {why}")),
    }
}
