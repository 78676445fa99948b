//! The generation and binary format a document is assembled for by its options (editor
//! settings, `gcn.toml`), which hover, completion and signature help start from before
//! the document's own `.gpu`/`.arch`/format pseudo-ops.

use gcn_ide::{Formats, Generation};
use tower_lsp::lsp_types::Url;

use crate::handlers::diagnostics::document_path;
use crate::server::State;

pub fn defaults(state: &State, uri: &Url) -> (Generation, Formats) {
    let settings = state.settings.lock().unwrap().clone();
    let options = gcn_ide::file_options(&document_path(uri), &settings).asm_options();
    (
        options.device.generation(),
        gcn_ide::scan::formats_of(options.format),
    )
}
