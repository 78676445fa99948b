//! `textDocument/selectionRange`: from the token at each position out through the tree.

use tower_lsp::lsp_types::*;

use crate::convert;
use crate::server::State;

pub fn selection_range(state: &State, params: SelectionRangeParams) -> Option<Vec<SelectionRange>> {
    let document = state.snapshot(&params.text_document.uri)?;
    let encoding = state.encoding();
    let offsets: Vec<_> = params
        .positions
        .iter()
        .map(|p| convert::offset(&document.rope, *p, encoding))
        .collect();
    Some(
        gcn_ide::selection_ranges(&document.parse, &offsets)
            .iter()
            .map(|ranges| convert::selection_range(&document.rope, ranges, encoding))
            .collect(),
    )
}
