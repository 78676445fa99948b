//! Splitting a long source into chunks of whole top-level statements, so that it can be
//! read, parsed and assembled piece by piece in bounded memory.
//!
//! A chunk ends at a line break where no block (`.if … .endif`, `.macro … .endm`,
//! `.rept … .endr`), block comment or `\` continuation is open. The [`Chunker`] follows
//! the parser's block rules line by line (without parsing), and [`parse_chunk`] parses a
//! chunk knowing the macros defined by the chunks before it. **Parsing a file chunk by
//! chunk gives the same statements and errors as parsing it whole** (tested on the
//! corpus in `tests/chunks.rs`).

use std::collections::HashSet;

use crate::lexer::{self, Token};
use crate::parser::{self, is_block_directive, Entry, ParseContext};
use crate::{tree_builder, Parse, SyntaxKind::*};

/// The open blocks' kinds, innermost last.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Block {
    If,
    Macro,
    Repeat,
}

/// Deepest `.if` nesting the parser treats as blocks (see `parser::MAX_DEPTH`).
const MAX_IF_DEPTH: usize = 256;

/// Collects lines into chunks of whole statements.
#[derive(Debug)]
pub struct Chunker {
    chunk: String,
    blocks: Vec<Block>,
    if_depth: usize,
    /// Inside a `/* … */` that began on an earlier line.
    in_comment: bool,
    /// No statement is under way (its words would be in `words`).
    at_start: bool,
    /// The first words of the statement under way.
    words: Vec<Word>,
}

/// Words kept of a statement: enough to see past its labels to its head.
const MAX_HEAD_WORDS: usize = 64;

impl Default for Chunker {
    fn default() -> Chunker {
        Chunker { chunk: String::new(), blocks: Vec::new(), if_depth: 0, in_comment: false, at_start: true, words: Vec::new() }
    }
}

impl Chunker {
    pub fn new() -> Chunker {
        Chunker::default()
    }

    /// Adds one line, with its line break if it has one; returns a finished chunk when
    /// the line completes one.
    pub fn push_line(&mut self, line: &str) -> Option<String> {
        self.scan(line);
        self.chunk.push_str(line);
        let complete = line.ends_with('\n') && self.at_start && !self.in_comment && self.blocks.is_empty();
        complete.then(|| std::mem::take(&mut self.chunk))
    }

    /// What is left at the end of the input (an unfinished block or statement).
    pub fn finish(&mut self) -> Option<String> {
        *self = Chunker { chunk: std::mem::take(&mut self.chunk), ..Chunker::default() };
        (!self.chunk.is_empty()).then(|| std::mem::take(&mut self.chunk))
    }

    /// Updates the block stack with the statements that start on `line`.
    fn scan(&mut self, line: &str) {
        let mut text = line;
        if self.in_comment {
            match line.find("*/") {
                Some(end) => {
                    self.in_comment = false;
                    text = &line[end + 2..];
                }
                None => return,
            }
        }
        let (tokens, errors) = lexer::lex(text);
        let open_comment = tokens.last().is_some_and(|t| t.kind == BLOCK_COMMENT)
            && errors.iter().any(|e| e.token_index == tokens.len() - 1);
        self.in_comment = open_comment;
        // A statement's words are gathered up to its separator, across `\` continuations
        // (labels and the head may sit on different physical lines).
        for word in significant(text, &tokens) {
            if matches!(word.kind, NEWLINE | SEMICOLON) {
                let words = std::mem::take(&mut self.words);
                if !words.is_empty() {
                    self.statement(&words);
                }
                self.words = words;
                self.words.clear();
            } else if self.words.len() < MAX_HEAD_WORDS {
                self.words.push(word.to_owned());
            }
        }
        self.at_start = self.words.is_empty();
    }

    fn statement(&mut self, words: &[Word]) {
        let raw = matches!(self.blocks.last(), Some(Block::Macro | Block::Repeat));
        let head = if raw { body_head(words) } else { statement_head(words) };
        let Some(head) = head else { return };
        let head = head.to_ascii_lowercase();
        if !is_block_directive(&head) {
            return;
        }
        match self.blocks.last() {
            Some(Block::Macro) => match head.as_str() {
                ".macro" => self.blocks.push(Block::Macro),
                ".endm" | ".endmacro" => {
                    self.blocks.pop();
                }
                _ => {}
            },
            Some(Block::Repeat) => match head.as_str() {
                ".rept" | ".irp" | ".irpc" | ".for" | ".while" => self.blocks.push(Block::Repeat),
                ".endr" | ".endrept" => {
                    self.blocks.pop();
                }
                _ => {}
            },
            _ => match head.as_str() {
                ".macro" => self.blocks.push(Block::Macro),
                ".rept" | ".irp" | ".irpc" | ".for" | ".while" => self.blocks.push(Block::Repeat),
                ".endif" if self.blocks.last() == Some(&Block::If) => {
                    self.blocks.pop();
                    self.if_depth -= 1;
                }
                h if h.starts_with(".if") && self.if_depth < MAX_IF_DEPTH => {
                    self.blocks.push(Block::If);
                    self.if_depth += 1;
                }
                _ => {}
            },
        }
    }
}

#[derive(Debug, Clone, Copy)]
struct WordRef<'a> {
    kind: crate::SyntaxKind,
    text: &'a str,
    spaced: bool,
}

impl WordRef<'_> {
    fn to_owned(self) -> Word {
        Word { kind: self.kind, text: self.text.to_string(), spaced: self.spaced }
    }
}

#[derive(Debug, Clone)]
struct Word {
    kind: crate::SyntaxKind,
    text: String,
    spaced: bool,
}

fn significant<'a>(text: &'a str, tokens: &[Token]) -> Vec<WordRef<'a>> {
    let mut out = Vec::new();
    let mut pos = 0usize;
    let mut spaced = false;
    for t in tokens {
        let end = pos + t.len as usize;
        if t.kind.is_trivia() {
            spaced = true;
        } else {
            out.push(WordRef { kind: t.kind, text: &text[pos..end], spaced });
            spaced = false;
        }
        pos = end;
    }
    out
}

/// The directive a statement starts with, after its labels, as the parser sees it.
fn statement_head(words: &[Word]) -> Option<&str> {
    let mut i = 0;
    loop {
        let w = words.get(i)?;
        let next = words.get(i + 1);
        let glued_colon = next.is_some_and(|n| n.kind == COLON && !n.spaced);
        let dot_number = w.kind == FLOAT_NUMBER && w.text.starts_with('.');
        if matches!(w.kind, NAME | INT_NUMBER) && glued_colon || dot_number && glued_colon {
            i += 2;
            continue;
        }
        let is_directive = w.kind == NAME
            && w.text.starts_with('.')
            && w.text.len() > 1
            && next.is_none_or(|n| n.kind != EQ);
        return is_directive.then_some(w.text.as_str());
    }
}

/// The first word of a body line after its labels, labels built by substitution
/// included, as the parser's block bodies see it.
fn body_head(words: &[Word]) -> Option<&str> {
    let mut n = 0;
    loop {
        let mut end = n;
        while words.get(end).is_some_and(|w| {
            matches!(w.kind, NAME | INT_NUMBER | BACKSLASH | L_PAREN | R_PAREN | AT) && (end == n || !w.spaced)
        }) {
            end += 1;
        }
        let colon = words.get(end).is_some_and(|w| w.kind == COLON && !w.spaced);
        if end > n && colon {
            n = end + 1;
        } else {
            return words.get(n).map(|w| w.text.as_str());
        }
    }
}

/// Names of the macros defined so far, for parsing later chunks.
#[derive(Debug, Default, Clone)]
pub struct KnownMacros {
    names: HashSet<String>,
}

/// Parses one chunk, knowing the macros the chunks before it defined (a call of one is
/// a `MACRO_CALL`), and records the macros it defines or purges.
pub fn parse_chunk(text: &str, macros: &mut KnownMacros) -> Parse {
    let (tokens, lex_errors) = lexer::lex(text);
    let ctx = ParseContext { macros: std::mem::take(&mut macros.names) };
    let output = parser::parse_tokens(text, &tokens, Entry::SourceFile, ctx);
    macros.names = output.ctx.macros;
    let green = tree_builder::build_tree(text, &tokens, output.events);
    let errors = crate::merge_errors(crate::text_offsets(&tokens, lex_errors), output.errors);
    Parse { green, errors }
}
