//! `textDocument/completion`: `gcn_ide::completions`, each item replacing the prefix typed;
//! `completionItem/resolve` adds the documentation of instructions and pseudo-ops
//! (`convert::resolve_completion`).

use tower_lsp::lsp_types::*;

use crate::convert;
use crate::server::State;

pub fn completion(state: &State, params: CompletionParams) -> Option<CompletionResponse> {
    let uri = &params.text_document_position.text_document.uri;
    let document = state.snapshot(uri)?;
    let encoding = state.encoding();
    let offset = convert::offset(
        &document.rope,
        params.text_document_position.position,
        encoding,
    );
    let (generation, format) = super::defaults::defaults(state, uri);
    let completions = gcn_ide::completions(
        &document.parse,
        &document.index(),
        offset,
        generation,
        format,
    );
    Some(CompletionResponse::List(convert::completions(
        &document.rope,
        &completions,
        encoding,
    )))
}
