//! Editor features for CLRX GCN assembly, computed from a [`gcn_syntax::Parse`] and free of
//! any LSP type.
//!
//! Each feature lives in its own module and works on plain data: byte ranges
//! ([`TextRange`]) in, plain structs out. The language server (`gcn-lsp`) is the only
//! place that turns them into protocol types; other front ends (the command line, tests)
//! can use them as they are.
//!
//! - [`diagnostics`](mod@diagnostics): problems to show in the editor (today, syntax errors).
//! - [`document_symbols`](mod@document_symbols): the outline of a file: kernels, labels, macros and symbols.
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

pub mod diagnostics;
pub mod document_symbols;
pub mod line_index;

pub use gcn_syntax::{TextRange, TextSize};

pub use crate::diagnostics::{diagnostics, Diagnostic, Severity};
pub use crate::document_symbols::{document_symbols, DocumentSymbol, SymbolKind};
pub use crate::line_index::{LineIndex, Position, PositionEncoding};

#[cfg(test)]
mod test_util;
