//! `textDocument/hover`: `gcn_ide::hover` as markdown.

use tower_lsp::lsp_types::*;

use crate::convert;
use crate::server::State;

pub fn hover(state: &State, params: HoverParams) -> Option<Hover> {
    let uri = &params.text_document_position_params.text_document.uri;
    let document = state.snapshot(uri)?;
    let encoding = state.encoding();
    let offset = convert::offset(&document.rope, params.text_document_position_params.position, encoding);
    let (generation, _) = super::defaults::defaults(state, uri);
    let result = gcn_ide::hover(&document.parse, &document.index(), offset, generation)?;
    Some(convert::hover(&document.rope, &result, encoding))
}
