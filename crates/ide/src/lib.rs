//! Editor features for CLRX GCN assembly, computed from a [`gcn_syntax::Parse`] and the
//! assembler core, and free of any LSP type.
//!
//! Each feature lives in its own module and works on plain data: byte ranges
//! ([`TextRange`]) in, plain structs out. The language server (`gcn-lsp`) is the only
//! place that turns them into protocol types; other front ends (the command line, tests)
//! can use them as they are.
//!
//! - [`project`]: the options of a source (editor settings, `gcn.toml`, `gcnasm`'s own
//!   arguments).
//! - [`analysis`]: a source assembled as `gcnasm` would, off the editor's loop and
//!   cancellable: its diagnostics, register usage and included files.
//! - [`diagnostics`](mod@diagnostics): problems to show in the editor.
//! - [`code_actions`]: quick fixes of those problems (a misspelled name).
//! - [`reg_usage`]: the registers and occupancy of each kernel.
//! - [`symbol_index`]: where each name is defined and used, across included files.
//! - [`navigation`]: go to definition, references and highlights of a name.
//! - [`rename`]: renaming a name in every file, or why it cannot be.
//! - [`document_links`](mod@document_links): the files `.include` and `.incbin` open.
//! - [`workspace_symbols`]: the symbols of the project, for a search.
//! - [`inactive_branches`]: the branches of conditionals the assembler did not take.
//! - [`on_save`]: the binary written when a source is saved.
//! - [`listing`](mod@listing): each instruction placed, with its words and source line.
//! - [`document_symbols`](mod@document_symbols): the outline of a file: kernels, labels, macros and symbols.
//! - [`hover`](mod@hover): what the thing under the cursor is (instruction, pseudo-op,
//!   register, number, name), as markdown.
//! - [`completion`](mod@completion): mnemonics, pseudo-ops, registers, names and macros
//!   that may be written at the cursor.
//! - [`signature_help`](mod@signature_help): the operands of an instruction or the
//!   parameters of a macro call being written.
//! - [`semantic_tokens`](mod@semantic_tokens), [`folding_ranges`](mod@folding_ranges),
//!   [`selection_ranges`](mod@selection_ranges): from the syntax tree alone.
//! - [`scan`]: fast scans of the top-level statements (the GPU, format and kernel scope
//!   at a position; the names the file defines).
//! - [`line_index`]: byte offsets to and from line/column positions, with columns counted
//!   in UTF-8 or UTF-16 code units.
//!
//! ```
//! let parse = gcn_syntax::parse(".kernel foo\nfoo: s_endpgm\n");
//! assert!(gcn_ide::diagnostics(&parse).is_empty());
//! let symbols = gcn_ide::document_symbols(&parse);
//! assert_eq!(symbols[0].name, "foo");
//! assert_eq!(symbols[0].children[0].name, "foo");
//! ```

pub mod analysis;
pub mod code_actions;
pub mod completion;
pub mod diagnostics;
pub mod document_links;
pub mod document_symbols;
pub mod expand_macro;
pub mod folding_ranges;
pub mod hover;
pub mod inactive_branches;
mod isa_docs;
pub mod line_index;
pub mod listing;
pub mod macro_params;
pub mod navigation;
pub mod on_save;
pub mod project;
pub mod reg_usage;
pub mod register_highlights;
pub mod rename;
pub mod scan;
pub mod selection_ranges;
pub mod semantic_tokens;
pub mod signature_help;
pub mod symbol_index;
mod timings;
pub mod workspace_symbols;

pub use gcn_isa::{Formats, Generation};
pub use gcn_syntax::{TextRange, TextSize};

pub use crate::analysis::{analyse, read_source, Analysis, AnalysisInput, OpenFiles};
pub use crate::code_actions::{quick_fixes, QuickFix};
pub use crate::completion::{completions, CompletionItem, CompletionKind, Completions};
pub use crate::diagnostics::{diagnostics, Diagnostic, Fix, Related, Severity};
pub use crate::document_links::{document_links, DocumentLink};
pub use crate::document_symbols::{document_symbols, DocumentSymbol, SymbolKind};
pub use crate::expand_macro::{expand_macro, MacroExpansion};
pub use crate::folding_ranges::{folding_ranges, Fold, FoldKind};
pub use crate::hover::{hover, HoverResult};
pub use crate::line_index::{LineIndex, Position, PositionEncoding};
pub use crate::listing::{listing, Listing};
pub use crate::project::{file_options, FileOptions, Settings};
pub use crate::reg_usage::KernelUsage;
pub use crate::selection_ranges::selection_ranges;
pub use crate::semantic_tokens::{
    semantic_tokens, semantic_tokens_until, SemanticToken, SemanticTokenKind,
};
pub use crate::signature_help::{signature_help, Signature, SignatureHelp};

#[cfg(test)]
mod test_util;
