//! `textDocument/foldingRange`: blocks, kernel configurations and comments, as lines.

use tower_lsp::lsp_types::*;

use crate::convert;
use crate::server::State;

pub fn folding_range(state: &State, params: FoldingRangeParams) -> Option<Vec<FoldingRange>> {
    let document = state.snapshot(&params.text_document.uri)?;
    let encoding = state.encoding();
    Some(
        gcn_ide::folding_ranges(&document.parse)
            .iter()
            .filter_map(|f| convert::folding_range(&document.rope, f, encoding))
            .collect(),
    )
}
