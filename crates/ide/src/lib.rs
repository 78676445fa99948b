//! Editor features over the syntax tree, with no LSP types.
