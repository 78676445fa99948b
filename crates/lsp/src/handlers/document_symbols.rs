//! `textDocument/documentSymbol`: the outline, as a hierarchy.

use tower_lsp::lsp_types::*;

use crate::convert;
use crate::server::State;

pub fn document_symbol(
    state: &State,
    params: DocumentSymbolParams,
) -> Option<DocumentSymbolResponse> {
    let document = state.snapshot(&params.text_document.uri)?;
    let encoding = state.encoding();
    let symbols = gcn_ide::document_symbols(&document.parse)
        .iter()
        .map(|s| convert::document_symbol(&document.rope, s, encoding))
        .collect();
    Some(DocumentSymbolResponse::Nested(symbols))
}
