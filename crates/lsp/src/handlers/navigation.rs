//! `textDocument/definition`, `textDocument/declaration` (the same: a name's
//! declaration is its definition), `textDocument/references` and
//! `textDocument/documentHighlight`, from `gcn_ide::navigation` over the document's
//! current analysis, or that of an open source that includes it.

use tower_lsp::jsonrpc::Result;
use tower_lsp::lsp_types::*;

use crate::convert::{self, Locations};
use crate::document::Document;
use crate::handlers::diagnostics::{self, document_path};
use crate::server::Server;

/// The document, the analysis its names are resolved in and the byte offset of
/// `position`. That analysis is the one of an open source that includes the document
/// (and read its current text), so that a name the source defines before its
/// `.include` is found; else the document's own.
pub(crate) async fn at(
    server: &Server,
    uri: &Url,
    position: Position,
) -> Option<(
    Document,
    std::sync::Arc<gcn_ide::Analysis>,
    gcn_ide::TextSize,
)> {
    let own = diagnostics::current(&server.state, uri).await?;
    let document = server.state.snapshot(uri)?;
    let analysis = diagnostics::includer_of(&server.state, uri, &document).unwrap_or(own);
    let offset = convert::offset(&document.rope, position, server.state.encoding());
    Some((document, analysis, offset))
}

pub async fn definition(
    server: &Server,
    params: TextDocumentPositionParams,
) -> Result<Option<GotoDefinitionResponse>> {
    let uri = params.text_document.uri;
    let Some((document, analysis, offset)) = at(server, &uri, params.position).await else {
        return Ok(None);
    };
    let path = document_path(&uri);
    let targets = gcn_ide::navigation::goto_definition(&analysis, &path, offset);
    let mut locations = Locations::new(
        &uri,
        &document.rope,
        &path,
        &analysis,
        server.state.encoding(),
    );
    let found: Vec<Location> = targets
        .iter()
        .filter_map(|t| locations.location(&t.file, t.range))
        .collect();
    Ok((!found.is_empty()).then_some(GotoDefinitionResponse::Array(found)))
}

pub async fn references(server: &Server, params: ReferenceParams) -> Result<Option<Vec<Location>>> {
    let position = params.text_document_position;
    let uri = position.text_document.uri;
    let Some((document, analysis, offset)) = at(server, &uri, position.position).await else {
        return Ok(None);
    };
    let path = document_path(&uri);
    let Some(found) = gcn_ide::navigation::references(
        &analysis,
        &path,
        offset,
        params.context.include_declaration,
    ) else {
        return Ok(None);
    };
    let mut locations = Locations::new(
        &uri,
        &document.rope,
        &path,
        &analysis,
        server.state.encoding(),
    );
    Ok(Some(
        found
            .iter()
            .filter_map(|r| locations.location(&r.file, r.range))
            .collect(),
    ))
}

pub async fn highlight(
    server: &Server,
    params: DocumentHighlightParams,
) -> Result<Option<Vec<DocumentHighlight>>> {
    let position = params.text_document_position_params;
    let uri = position.text_document.uri;
    let Some((document, analysis, offset)) = at(server, &uri, position.position).await else {
        return Ok(None);
    };
    // A name's occurrences, else a register operand's (in the same kernel).
    let found =
        gcn_ide::navigation::highlights(&analysis, &document_path(&uri), offset).or_else(|| {
            let (generation, _) = super::defaults::defaults(&server.state, &uri);
            let index = document.index();
            gcn_ide::register_highlights::register_highlights(
                &document.parse,
                &index,
                offset,
                generation,
            )
        });
    let Some(found) = found else {
        return Ok(None);
    };
    let encoding = server.state.encoding();
    Ok(Some(
        found
            .iter()
            .map(|h| DocumentHighlight {
                range: convert::range(&document.rope, h.range, encoding),
                kind: Some(if h.write {
                    DocumentHighlightKind::WRITE
                } else {
                    DocumentHighlightKind::READ
                }),
            })
            .collect(),
    ))
}
