//! Lossless syntax trees of CLRX GCN assembly source.
//!
//! Text goes through three steps: the [`lexer`] splits it into tokens covering every byte;
//! the parser turns the tokens into events (open node, token, close node) and a list of
//! errors, without ever failing; the tree builder turns the events into a rowan tree whose
//! text is exactly the input. [`ast`] puts typed wrappers over the untyped [`SyntaxNode`]s,
//! and [`Parse::reparse`] updates a tree after an editor change, reparsing as little as it
//! can.
//!
//! ```
//! let parse = gcn_syntax::parse("start: s_mov_b32 s0, 1+2 # comment\n");
//! assert!(parse.errors().is_empty());
//! assert_eq!(parse.syntax_node().to_string(), "start: s_mov_b32 s0, 1+2 # comment\n");
//! ```

pub mod ast;
pub mod chunks;
mod green_cache;
pub mod lexer;
mod parser;
mod reparsing;
mod syntax_kind;
mod tree_builder;

use std::fmt;

pub use rowan::{GreenNode, TextRange, TextSize};

pub use crate::chunks::{
    parse_chunk, parse_chunk_events, parts, ChunkEvents, Chunker, KnownMacros, Parts,
};
pub use crate::parser::{
    is_block_directive, is_register_name, unclosed_block, unclosed_conditional, SPECIAL_REGISTERS,
};
pub use crate::reparsing::TextEdit;
pub use crate::syntax_kind::{ClrxLanguage, SyntaxElement, SyntaxKind, SyntaxNode, SyntaxToken};
pub use crate::tree_builder::debug_tree;

/// An error found while parsing: where and what. Errors are data; the tree is still whole.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SyntaxError {
    pub range: TextRange,
    pub message: String,
}

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// The result of parsing: a green tree and the errors, sorted by position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Parse {
    green: rowan::GreenNode,
    errors: Vec<SyntaxError>,
}

impl Parse {
    pub fn syntax_node(&self) -> SyntaxNode {
        SyntaxNode::new_root(self.green.clone())
    }

    pub fn tree(&self) -> ast::SourceFile {
        ast::SourceFile {
            syntax: self.syntax_node(),
        }
    }

    pub fn green(&self) -> &rowan::GreenNode {
        &self.green
    }

    pub fn errors(&self) -> &[SyntaxError] {
        &self.errors
    }

    /// The tree as [`debug_tree`] prints it.
    pub fn debug_dump(&self) -> String {
        debug_tree(&self.syntax_node())
    }
}

/// Parses a whole file.
pub fn parse(text: &str) -> Parse {
    let (tokens, lex_errors) = lexer::lex(text);
    let output = parser::parse_tokens(text, &tokens, parser::Entry::SourceFile, Default::default());
    let green = tree_builder::build_tree(text, &tokens, output.events);
    let errors = syntax_errors(&tokens, lex_errors, output.errors, &output.quiet);
    Parse { green, errors }
}

/// The lexer's errors (but those in text the parser found quiet, see
/// `parser::ParseOutput::quiet`) and the parser's, in order.
pub(crate) fn syntax_errors(
    tokens: &[lexer::Token],
    lex_errors: Vec<lexer::LexError>,
    parse_errors: Vec<SyntaxError>,
    quiet: &[TextRange],
) -> Vec<SyntaxError> {
    let mut lexed = text_offsets(tokens, lex_errors);
    if !quiet.is_empty() {
        lexed.retain(|e| !quiet.iter().any(|q| q.contains_range(e.range)));
    }
    merge_errors(lexed, parse_errors)
}

/// Lexer errors as ranged syntax errors.
fn text_offsets(tokens: &[lexer::Token], errors: Vec<lexer::LexError>) -> Vec<SyntaxError> {
    if errors.is_empty() {
        return Vec::new();
    }
    let mut starts = Vec::with_capacity(tokens.len());
    let mut offset = 0u32;
    for t in tokens {
        starts.push(offset);
        offset += t.len;
    }
    errors
        .into_iter()
        .map(|e| {
            let start = TextSize::from(starts[e.token_index]);
            let len = TextSize::from(tokens[e.token_index].len);
            SyntaxError {
                range: TextRange::at(start, len),
                message: e.message,
            }
        })
        .collect()
}

fn merge_errors(mut a: Vec<SyntaxError>, b: Vec<SyntaxError>) -> Vec<SyntaxError> {
    a.extend(b);
    a.sort_by_key(|e| (e.range.start(), e.range.end()));
    a
}
