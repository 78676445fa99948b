//! One module per protocol feature; each turns protocol parameters into calls to
//! `gcn-ide` and the answers back into protocol types through [`crate::convert`].

pub mod code_actions;
pub mod completion;
pub mod configuration;
pub mod defaults;
pub mod diagnostics;
pub mod document_links;
pub mod document_symbols;
pub mod expand_macro;
pub mod folding_ranges;
pub mod hover;
pub mod initialize;
pub mod listing;
pub mod navigation;
pub mod on_save;
pub mod register_usage;
pub mod rename;
pub mod selection_ranges;
pub mod semantic_tokens;
pub mod signature_help;
pub mod syntax_tree;
pub mod text_sync;
pub mod watched_files;
pub mod workspace_symbols;
