//! `workspace/didChangeWatchedFiles`: files changed on disk by another program (a
//! checkout, a generator). An open document that includes a changed file is analysed
//! again; a changed project file (`gcn.toml`), or a file created or deleted (an
//! `.include` that failed may find it now), has every open document analysed again. A
//! file open in the editor is left alone: its buffer is what the analyses read.
//!
//! The server asks for the notifications (`client/registerCapability`, every file of
//! the workspace) when the client can register them dynamically.

use serde_json::json;
use tower_lsp::lsp_types::*;

use crate::handlers::diagnostics;
use crate::server::Server;

/// The id of the registration, should it be withdrawn.
const REGISTRATION: &str = "gcn-watched-files";

/// Whether the client registers file watching when the server asks.
pub fn client_can_register(capabilities: &ClientCapabilities) -> bool {
    capabilities
        .workspace
        .as_ref()
        .and_then(|w| w.did_change_watched_files.as_ref())
        .and_then(|w| w.dynamic_registration)
        .unwrap_or(false)
}

/// Asks the client to tell about every file of the workspace (included files and
/// `.incbin` data can have any name). Not awaited by `initialized`: the answer may come
/// late, and nothing waits for it.
pub fn register(server: &Server) {
    let client = server.client.clone();
    tokio::spawn(async move {
        let options = json!({ "watchers": [{ "globPattern": "**/*" }] });
        let registration = Registration {
            id: REGISTRATION.into(),
            method: "workspace/didChangeWatchedFiles".into(),
            register_options: Some(options),
        };
        if let Err(e) = client.register_capability(vec![registration]).await {
            client
                .log_message(
                    MessageType::WARNING,
                    format!("gcn: file watching not registered: {e}"),
                )
                .await;
        }
    });
}

pub fn did_change_watched_files(server: &Server, params: DidChangeWatchedFilesParams) {
    let open = server.state.uris();
    let mut everything = false;
    for change in params.changes {
        if open.contains(&change.uri) {
            continue;
        }
        let Ok(path) = change.uri.to_file_path() else {
            continue;
        };
        let project_file = path.file_name().is_some_and(|n| n == "gcn.toml");
        if project_file || change.typ != FileChangeType::CHANGED {
            everything = true;
        } else {
            diagnostics::reanalyse_includers(server, &path);
        }
    }
    if everything {
        diagnostics::reanalyse_all(server);
    }
}
