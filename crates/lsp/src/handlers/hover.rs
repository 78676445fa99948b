//! `textDocument/hover`: `gcn_ide::hover` as markdown, with the document's current
//! analysis when it is of the very text hovered (what the assembler resolved: values,
//! places, kernels' counts), or that of an open source that includes it.

use std::sync::Arc;

use tower_lsp::lsp_types::*;

use crate::convert;
use crate::handlers::diagnostics::{self, document_path};
use crate::server::State;

pub async fn hover(state: &Arc<State>, params: HoverParams) -> Option<Hover> {
    let uri = &params.text_document_position_params.text_document.uri;
    // Waits for the analysis of the current text when one is running (as navigation does).
    diagnostics::current(state, uri).await;
    let document = state.snapshot(uri)?;
    // In a file an open source includes, names are what that source's assembly made.
    let analysis = diagnostics::includer_of(state, uri, &document)
        .or_else(|| state.current_analysis(uri, document.revision));
    let encoding = state.encoding();
    let offset = convert::offset(
        &document.rope,
        params.text_document_position_params.position,
        encoding,
    );
    let (generation, _) = super::defaults::defaults(state, uri);
    let path = document_path(uri);
    let program = analysis.as_deref().map(|analysis| gcn_ide::hover::Program {
        analysis,
        file: &path,
    });
    let result = gcn_ide::hover(
        &document.parse,
        &document.index(),
        offset,
        generation,
        program,
    )?;
    Some(convert::hover(&document.rope, &result, encoding))
}
