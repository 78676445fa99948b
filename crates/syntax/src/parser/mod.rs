//! The parser: turns tokens into a flat list of events (start node, token, finish node).
//!
//! It never fails and never backtracks: every call consumes at least one token or
//! returns, so parsing is linear in the input. Errors go to a side list with their text
//! range; junk is wrapped in `ERROR` nodes. Nesting is capped so that no input can
//! exhaust the stack.

mod blocks;
mod expressions;
mod statements;

use std::collections::HashSet;
use std::num::NonZeroU32;

pub use blocks::{is_block_directive, unclosed_block, unclosed_conditional};
pub use expressions::{is_register_name, SPECIAL_REGISTERS};

use rowan::{TextRange, TextSize};

use crate::lexer::Token;
use crate::{SyntaxError, SyntaxKind, SyntaxKind::*};

/// What the parser tells the tree builder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Event {
    /// Open a node. `forward_parent` points (relatively) at a `Start` that must be opened
    /// around this one: how a finished `1` becomes the left side of `1 + 2`.
    Start {
        kind: SyntaxKind,
        forward_parent: Option<NonZeroU32>,
    },
    Finish,
    /// One non-trivia token.
    Token,
    /// A `Start` that was abandoned.
    Tombstone,
}

/// What the parser knows from outside the text it parses: the macros defined earlier.
#[derive(Debug, Default, Clone)]
pub(crate) struct ParseContext {
    /// Lowercase names of macros defined before the parsed text.
    pub macros: HashSet<String>,
}

/// Where a top-level parse starts, for reparsing a fragment of a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Entry {
    SourceFile,
    /// Statements only (no `SOURCE_FILE` root), for reparsing a statement in place.
    Statements,
    /// One raw `LINE` of a macro or repetition body.
    BodyLine,
}

pub(crate) struct ParseOutput {
    pub events: Vec<Event>,
    pub errors: Vec<SyntaxError>,
    /// Text whose lexer errors do not count: the raw text `.ifc` and `.ifb` compare or
    /// test, which is never read as tokens (`it's` holds no character literal there).
    pub quiet: Vec<TextRange>,
    /// The context after the text: the macros it defined or purged.
    pub ctx: ParseContext,
}

pub(crate) fn parse_tokens(
    text: &str,
    tokens: &[Token],
    entry: Entry,
    ctx: ParseContext,
) -> ParseOutput {
    let mut p = Parser::new(text, tokens, ctx);
    match entry {
        Entry::SourceFile => statements::source_file(&mut p),
        Entry::Statements => statements::statement_list(&mut p),
        Entry::BodyLine => blocks::body_line(&mut p),
    }
    ParseOutput {
        events: p.events,
        errors: p.errors,
        quiet: p.quiet,
        ctx: p.ctx,
    }
}

#[derive(Debug, Clone, Copy)]
struct Tok {
    kind: SyntaxKind,
    start: u32,
    len: u32,
    /// Whitespace or a comment stands between this token and the one before.
    spaced: bool,
}

/// How many copies of the final `EOF` follow it in `Parser::tokens`, so that looking
/// a few tokens ahead needs no clamping.
const EOF_PADDING: usize = 8;

/// Deepest nesting of expressions and blocks before the parser refuses to go deeper.
const MAX_DEPTH: u32 = 256;
/// The most operators an expression chains without parentheses (`1 + 1 + … + 1`): each
/// one nests the tree a level deeper, and a tree far deeper than any source needs would
/// overflow the stack of whatever walks or frees it recursively.
pub(crate) const MAX_CHAIN: u32 = 10_000;

pub(crate) struct Parser<'t> {
    text: &'t str,
    /// The non-trivia tokens, then `EOF` and `EOF_PADDING` copies of it.
    tokens: Vec<Tok>,
    pos: usize,
    events: Vec<Event>,
    errors: Vec<SyntaxError>,
    pub(crate) quiet: Vec<TextRange>,
    pub(crate) ctx: ParseContext,
    depth: u32,
    /// How deep the expression being parsed nests its operator nodes ([`MAX_CHAIN`]).
    pub(crate) chain: u32,
}

impl<'t> Parser<'t> {
    fn new(text: &'t str, raw: &[Token], ctx: ParseContext) -> Self {
        let eof = |start, spaced| Tok {
            kind: EOF,
            start,
            len: 0,
            spaced,
        };
        let mut tokens = vec![eof(0, false); raw.len() + 1 + EOF_PADDING];
        let mut count = 0;
        let mut offset = 0u32;
        let mut spaced = false;
        for t in raw {
            // Every token is written, but only a non-trivia one is kept (the next token
            // overwrites trivia): no branch to mispredict on the mix of the two.
            let trivia = t.kind.is_trivia();
            // A comment over a line break ends the statement: the grammar sees a line
            // break (the tree keeps the comment).
            let kind = if t.kind == MULTILINE_COMMENT {
                NEWLINE
            } else {
                t.kind
            };
            tokens[count] = Tok {
                kind,
                start: offset,
                len: t.len,
                spaced,
            };
            count += usize::from(!trivia);
            spaced = trivia;
            offset += t.len;
        }
        let end = count + 1 + EOF_PADDING;
        tokens[count..end].fill(eof(offset, spaced));
        tokens.truncate(end);
        // A token event and one or two node events per token (about 2.4 in dense
        // instructions, 2.7 in varied sources): growing the vector would copy it.
        let events = Vec::with_capacity((count + 1) * 3);
        Parser {
            text,
            tokens,
            pos: 0,
            events,
            errors: Vec::new(),
            quiet: Vec::new(),
            ctx,
            depth: 0,
            chain: 0,
        }
    }

    #[inline]
    fn tok(&self, n: usize) -> Tok {
        // `pos` never passes the first `EOF`, so a token a few ahead is in the padding
        // at worst, a copy of that `EOF`.
        if n <= EOF_PADDING {
            return self.tokens[self.pos + n];
        }
        let last = self.tokens.len() - 1;
        self.tokens[(self.pos + n).min(last)]
    }

    #[inline]
    pub(crate) fn current(&self) -> SyntaxKind {
        // `bump_any` never steps past the first `EOF`: no clamping needed.
        self.tokens[self.pos].kind
    }

    #[inline]
    pub(crate) fn nth(&self, n: usize) -> SyntaxKind {
        self.tok(n).kind
    }

    #[inline]
    pub(crate) fn at(&self, kind: SyntaxKind) -> bool {
        self.current() == kind
    }

    /// Text of the token `n` ahead.
    #[inline]
    pub(crate) fn nth_text(&self, n: usize) -> &'t str {
        let t = self.tok(n);
        &self.text[t.start as usize..(t.start + t.len) as usize]
    }

    /// Bytes of the current token: [`nth_text`](Self::nth_text) without the character
    /// boundary checks, for byte-wise tests.
    #[inline]
    pub(crate) fn current_bytes(&self) -> &'t [u8] {
        let t = self.tokens[self.pos];
        &self.text.as_bytes()[t.start as usize..(t.start + t.len) as usize]
    }

    /// Whether trivia separates token `n` ahead from the token before it.
    #[inline]
    pub(crate) fn nth_spaced(&self, n: usize) -> bool {
        self.tok(n).spaced
    }

    /// At the end of a statement: newline, `;` or end of input.
    #[inline]
    pub(crate) fn at_statement_end(&self) -> bool {
        matches!(self.current(), NEWLINE | SEMICOLON | EOF)
    }

    #[inline]
    pub(crate) fn bump(&mut self, kind: SyntaxKind) {
        if !self.eat(kind) {
            self.bump_mismatch(kind);
        }
    }

    /// A grammar bug: kept out of line so that `bump` stays small.
    #[cold]
    #[inline(never)]
    fn bump_mismatch(&self, kind: SyntaxKind) -> ! {
        panic!("expected {kind:?}, found {:?}", self.current());
    }

    #[inline]
    pub(crate) fn bump_any(&mut self) {
        if self.current() != EOF {
            self.pos += 1;
            self.events.push(Event::Token);
        }
    }

    #[inline]
    pub(crate) fn eat(&mut self, kind: SyntaxKind) -> bool {
        if !self.at(kind) {
            return false;
        }
        self.bump_any();
        true
    }

    #[inline]
    pub(crate) fn expect(&mut self, kind: SyntaxKind, what: &str) -> bool {
        self.eat(kind) || self.expected(what)
    }

    /// `expect`'s error, out of line: it is rare.
    #[cold]
    #[inline(never)]
    fn expected(&mut self, what: &str) -> bool {
        self.error(format!("expected {what}"));
        false
    }

    #[inline]
    pub(crate) fn start(&mut self) -> Marker {
        let pos = self.events.len() as u32;
        self.events.push(Event::Start {
            kind: EOF,
            forward_parent: None,
        });
        Marker { pos, done: false }
    }

    /// A node of `kind` holding the current token alone: `start`, `bump_any`, `complete`
    /// in one step. The current token must not be `EOF`.
    #[inline]
    pub(crate) fn leaf_node(&mut self, kind: SyntaxKind) -> CompletedMarker {
        debug_assert_ne!(self.current(), EOF);
        let pos = self.events.len() as u32;
        self.pos += 1;
        self.events.extend_from_slice(&[
            Event::Start {
                kind,
                forward_parent: None,
            },
            Event::Token,
            Event::Finish,
        ]);
        CompletedMarker { pos }
    }

    /// A node given whole as its `events`, which hold `tokens` token events: for the
    /// commonest fixed shapes, pushed in one step.
    #[inline]
    pub(crate) fn push_node(&mut self, events: &[Event], tokens: usize) -> CompletedMarker {
        debug_assert!(self.pos + tokens < self.tokens.len());
        let pos = self.events.len() as u32;
        self.pos += tokens;
        self.events.extend_from_slice(events);
        CompletedMarker { pos }
    }

    /// Reports an error at the current token (or just before the line end).
    pub(crate) fn error(&mut self, message: impl Into<String>) {
        let t = self.tok(0);
        // The lexer reported a character no token starts with; what the parser expected
        // there would be a second error for the same cause.
        if t.kind == ERROR_TOKEN {
            return;
        }
        // At a statement's end the error belongs to the statement: point just after its
        // last token, never at the separator (which a reparse of the statement won't see).
        let range = if matches!(t.kind, NEWLINE | SEMICOLON | EOF) {
            // Point at the end of what was written, not at the next line.
            let end = if self.pos > 0 {
                let prev = self.tokens[self.pos - 1];
                prev.start + prev.len
            } else {
                t.start
            };
            TextRange::empty(TextSize::from(end))
        } else {
            TextRange::at(TextSize::from(t.start), TextSize::from(t.len))
        };
        self.push_error(range, message.into());
    }

    pub(crate) fn push_error(&mut self, range: TextRange, message: String) {
        // One error per place is enough: recovery must not cascade.
        if self.errors.last().is_some_and(|e| e.range == range) {
            return;
        }
        self.errors.push(SyntaxError { range, message });
    }

    /// Range of the tokens from `from` (a token index) to the current position.
    pub(crate) fn range_since(&self, from: usize) -> TextRange {
        let start = self.tokens[from].start;
        let end = if self.pos > from {
            let last = self.tokens[self.pos - 1];
            last.start + last.len
        } else {
            start
        };
        TextRange::new(TextSize::from(start), TextSize::from(end))
    }

    pub(crate) fn token_pos(&self) -> usize {
        self.pos
    }

    /// Wraps everything up to the end of the statement in an `ERROR` node.
    pub(crate) fn skip_to_statement_end(&mut self) {
        if self.at_statement_end() {
            return;
        }
        let m = self.start();
        while !self.at_statement_end() {
            self.bump_any();
        }
        m.complete(self, ERROR);
    }

    /// Whether [`enter`](Self::enter) would succeed.
    #[inline]
    pub(crate) fn can_enter(&self) -> bool {
        self.can_enter_levels(1)
    }

    /// Whether `levels` nested calls of [`enter`](Self::enter) would succeed.
    #[inline]
    pub(crate) fn can_enter_levels(&self, levels: u32) -> bool {
        self.depth + levels <= MAX_DEPTH
    }

    /// Enters one level of nesting; false (with an error) when too deep.
    #[inline]
    pub(crate) fn enter(&mut self) -> bool {
        if !self.can_enter() {
            self.error("nesting is too deep");
            return false;
        }
        self.depth += 1;
        true
    }

    #[inline]
    pub(crate) fn leave(&mut self) {
        self.depth -= 1;
    }
}

/// An open node; must be completed or abandoned.
pub(crate) struct Marker {
    pos: u32,
    done: bool,
}

impl Marker {
    #[inline]
    pub(crate) fn complete(mut self, p: &mut Parser, kind: SyntaxKind) -> CompletedMarker {
        self.done = true;
        match &mut p.events[self.pos as usize] {
            Event::Start { kind: slot, .. } => *slot = kind,
            _ => unreachable!(),
        }
        p.events.push(Event::Finish);
        CompletedMarker { pos: self.pos }
    }
}

impl Drop for Marker {
    fn drop(&mut self) {
        if !self.done && !std::thread::panicking() {
            panic!("marker dropped without being completed or abandoned");
        }
    }
}

#[derive(Clone, Copy)]
pub(crate) struct CompletedMarker {
    pos: u32,
}

impl CompletedMarker {
    /// Opens a new node that will contain this completed one.
    pub(crate) fn precede(self, p: &mut Parser) -> Marker {
        let m = p.start();
        match &mut p.events[self.pos as usize] {
            Event::Start { forward_parent, .. } => {
                *forward_parent = NonZeroU32::new(m.pos - self.pos)
            }
            _ => unreachable!(),
        }
        m
    }
}

#[cfg(test)]
mod size_tests {
    /// Events are the parser's bulk output: keep them two words small.
    #[test]
    fn event_is_eight_bytes() {
        assert_eq!(std::mem::size_of::<super::Event>(), 8);
    }
}
