//! `textDocument/prepareRename` and `textDocument/rename` (`gcn_ide::rename`): a
//! workspace edit over every file the analysis read; a refusal is an error reply whose
//! message says what cannot be renamed.

use std::collections::HashMap;

use tower_lsp::jsonrpc::{Error, Result};
use tower_lsp::lsp_types::*;

use crate::convert::{self, Locations};
use crate::handlers::diagnostics::document_path;
use crate::handlers::navigation::at;
use crate::server::Server;

pub async fn prepare_rename(
    server: &Server,
    params: TextDocumentPositionParams,
) -> Result<Option<PrepareRenameResponse>> {
    let uri = params.text_document.uri;
    let Some((document, analysis, offset)) = at(server, &uri, params.position).await else {
        return Ok(None);
    };
    let (range, placeholder) =
        gcn_ide::rename::prepare_rename(&analysis, &document_path(&uri), offset)
            .map_err(Error::invalid_params)?;
    let range = convert::range(&document.rope, range, server.state.encoding());
    Ok(Some(PrepareRenameResponse::RangeWithPlaceholder {
        range,
        placeholder,
    }))
}

pub async fn rename(server: &Server, params: RenameParams) -> Result<Option<WorkspaceEdit>> {
    let position = params.text_document_position;
    let uri = position.text_document.uri;
    let Some((document, analysis, offset)) = at(server, &uri, position.position).await else {
        return Ok(None);
    };
    let path = document_path(&uri);
    let files = gcn_ide::rename::rename(&analysis, &path, offset, &params.new_name)
        .map_err(Error::invalid_params)?;
    let mut locations = Locations::new(
        &uri,
        &document.rope,
        &path,
        &analysis,
        server.state.encoding(),
    );
    let mut changes: HashMap<Url, Vec<TextEdit>> = HashMap::new();
    for file in files {
        let Some(file_uri) = locations.uri(&file.file) else {
            continue;
        };
        let edits: Vec<TextEdit> = file
            .edits
            .iter()
            .filter_map(|(range, new_text)| {
                Some(TextEdit::new(
                    locations.range(&file.file, *range)?,
                    new_text.clone(),
                ))
            })
            .collect();
        changes.insert(file_uri, edits);
    }
    Ok(Some(WorkspaceEdit {
        changes: Some(changes),
        ..Default::default()
    }))
}
