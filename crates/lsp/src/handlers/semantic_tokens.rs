//! `textDocument/semanticTokens/full` and `/range`, with the legend of
//! `convert::semantic_tokens_legend`.

use tower_lsp::lsp_types::*;

use crate::convert;
use crate::server::State;

pub fn full(state: &State, params: SemanticTokensParams) -> Option<SemanticTokensResult> {
    let document = state.snapshot(&params.text_document.uri)?;
    let tokens = gcn_ide::semantic_tokens(&document.parse, None);
    let data = convert::semantic_tokens(&document.rope, &tokens, state.encoding());
    Some(SemanticTokensResult::Tokens(SemanticTokens { result_id: None, data }))
}

pub fn range(state: &State, params: SemanticTokensRangeParams) -> Option<SemanticTokensRangeResult> {
    let document = state.snapshot(&params.text_document.uri)?;
    let encoding = state.encoding();
    let range = convert::text_range(&document.rope, params.range, encoding);
    let tokens = gcn_ide::semantic_tokens(&document.parse, Some(range));
    let data = convert::semantic_tokens(&document.rope, &tokens, encoding);
    Some(SemanticTokensRangeResult::Tokens(SemanticTokens { result_id: None, data }))
}
