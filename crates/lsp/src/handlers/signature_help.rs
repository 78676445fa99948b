//! `textDocument/signatureHelp`: operands of instructions, parameters of macro calls.

use tower_lsp::lsp_types::*;

use crate::convert;
use crate::server::State;

pub fn signature_help(state: &State, params: SignatureHelpParams) -> Option<SignatureHelp> {
    let uri = &params.text_document_position_params.text_document.uri;
    let document = state.snapshot(uri)?;
    let offset = convert::offset(
        &document.rope,
        params.text_document_position_params.position,
        state.encoding(),
    );
    let (generation, _) = super::defaults::defaults(state, uri);
    let help = gcn_ide::signature_help(&document.parse, &document.index(), offset, generation)?;
    Some(convert::signature_help(&help))
}
