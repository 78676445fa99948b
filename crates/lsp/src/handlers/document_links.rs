//! `textDocument/documentLink`: the path of each `.include`/`.incbin` opens the file the
//! assembler reads for it (`gcn_ide::document_links`).

use tower_lsp::jsonrpc::Result;
use tower_lsp::lsp_types::*;

use crate::convert;
use crate::handlers::diagnostics::{self, document_path};
use crate::server::Server;

pub async fn document_links(
    server: &Server,
    params: DocumentLinkParams,
) -> Result<Option<Vec<DocumentLink>>> {
    let uri = params.text_document.uri;
    let Some(analysis) = diagnostics::current(&server.state, &uri).await else {
        return Ok(None);
    };
    let Some(document) = server.state.snapshot(&uri) else {
        return Ok(None);
    };
    let encoding = server.state.encoding();
    let links =
        gcn_ide::document_links::document_links(&analysis, &document_path(&uri), &analysis.parse)
            .into_iter()
            .filter_map(|link| {
                Some(DocumentLink {
                    range: convert::range(&document.rope, link.range, encoding),
                    target: Some(Url::from_file_path(&link.target).ok()?),
                    tooltip: Some(link.target.display().to_string()),
                    data: None,
                })
            })
            .collect();
    Ok(Some(links))
}
