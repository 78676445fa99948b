//! `gcn/syntaxTree`, a custom request for debugging: the server's syntax tree of a document
//! as `gcn_syntax::debug_tree` prints it, followed by the syntax errors. Tests use it to
//! check that incremental updates leave the same tree as parsing the text afresh.

use serde_json::Value;
use tower_lsp::jsonrpc::{Error, Result};
use tower_lsp::lsp_types::TextDocumentIdentifier;

use crate::server::State;

pub const METHOD: &str = "gcn/syntaxTree";

/// The request's parameters: `{ "textDocument": { "uri": … } }`.
pub fn syntax_tree(state: &State, params: Value) -> Result<String> {
    let document: TextDocumentIdentifier = params
        .get("textDocument")
        .cloned()
        .and_then(|d| serde_json::from_value(d).ok())
        .ok_or_else(|| Error::invalid_params("expected { textDocument: { uri } }"))?;
    let document = state
        .snapshot(&document.uri)
        .ok_or_else(|| Error::invalid_params(format!("{} is not open", document.uri)))?;
    Ok(dump(&document.parse))
}

/// The tree and errors of a parse, as the request answers them.
pub fn dump(parse: &gcn_syntax::Parse) -> String {
    let mut out = parse.debug_dump();
    for e in parse.errors() {
        out.push_str(&format!("error {:?}: {}\n", e.range, e.message));
    }
    out
}
