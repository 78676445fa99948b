//! `textDocument/documentLink`: the files `.include` and `.incbin` name, resolved with
//! the document's include folders.

use tower_lsp::lsp_types::*;

use crate::convert;
use crate::handlers::diagnostics::document_path;
use crate::server::State;

pub fn document_link(state: &State, params: DocumentLinkParams) -> Option<Vec<DocumentLink>> {
    let uri = &params.text_document.uri;
    let document = state.snapshot(uri)?;
    let encoding = state.encoding();
    let path = document_path(uri);
    let settings = state.settings.lock().unwrap().clone();
    let include_dirs = gcn_ide::file_options(&path, &settings).asm_options().include_dirs;
    Some(
        gcn_ide::document_links(&document.parse, &path, &include_dirs)
            .into_iter()
            .filter_map(|link| {
                Some(DocumentLink {
                    range: convert::range(&document.rope, link.range, encoding),
                    target: Some(Url::from_file_path(&link.target).ok()?),
                    tooltip: Some(link.target.display().to_string()),
                    data: None,
                })
            })
            .collect(),
    )
}
