//! One module per protocol feature; each turns protocol parameters into calls to
//! `gcn-ide` and the answers back into protocol types through [`crate::convert`].

pub mod diagnostics;
pub mod document_symbols;
pub mod initialize;
pub mod syntax_tree;
pub mod text_sync;
