//! Turns parser events plus the raw tokens (with trivia) into a rowan green tree.
//!
//! Trivia before a node goes outside it, so a statement starts at its first real token
//! and a comment after it belongs to the enclosing node.

use rowan::{GreenNode, GreenToken, NodeOrToken};

use crate::green_cache::{GreenBuilder, Sharing};
use crate::lexer::Token;
use crate::parser::Event;
use crate::{SyntaxKind, SyntaxKind::*};

/// The tree of the events, sharing nothing with other trees.
pub(crate) fn build_tree(text: &str, tokens: &[Token], events: Vec<Event>) -> GreenNode {
    build_tree_sharing(text, tokens, events, Sharing::WithinBuild)
}

pub(crate) fn build_tree_sharing(
    text: &str,
    tokens: &[Token],
    mut events: Vec<Event>,
    sharing: Sharing,
) -> GreenNode {
    let builder = GreenBuilder::new(tokens.len(), sharing);
    let mut sink = Sink {
        text,
        tokens,
        next: 0,
        offset: 0,
        depth: 0,
        builder,
    };
    let mut chain = Vec::new();
    let mut i = 0;
    while i < events.len() {
        // Events are read in place: only forward parents, opened early, are tombstoned.
        match events[i] {
            Event::Start {
                kind,
                forward_parent: None,
            } => {
                if sink.depth > 0 && is_token_node(&events[i + 1..]) && sink.token_node(kind) {
                    i += 3;
                    continue;
                }
                if kind == REGISTER
                    && sink.depth > 0
                    && is_range_register(&events[i + 1..])
                    && sink.range_register()
                {
                    i += 1 + RANGE_REGISTER_EVENTS.len();
                    continue;
                }
                sink.start(kind);
            }
            Event::Start {
                kind,
                forward_parent: Some(first),
            } => {
                chain.push(kind);
                take_forward_parents(&mut events, i + first.get() as usize, &mut chain);
                while let Some(kind) = chain.pop() {
                    sink.start(kind);
                }
            }
            Event::Finish => sink.finish(),
            Event::Token => sink.token(),
            Event::Tombstone => {}
        }
        i += 1;
    }
    sink.builder.finish()
}

/// Whether the events after a `Start` make a node of one token (`s0`, `1`), as about half
/// of all nodes are: the builder finds those whole, without opening them.
#[inline]
fn is_token_node(after_start: &[Event]) -> bool {
    matches!(after_start, [Event::Token, Event::Finish, ..])
}

/// The events of a register range after its `Start`: `s[4:7]` (with numbers as bounds).
const RANGE_REGISTER_EVENTS: [Event; 13] = {
    const fn start(kind: SyntaxKind) -> Event {
        Event::Start {
            kind,
            forward_parent: None,
        }
    }
    use Event::{Finish, Token};
    [
        Token,
        start(REG_RANGE),
        Token,
        start(LITERAL),
        Token,
        Finish,
        Token,
        start(LITERAL),
        Token,
        Finish,
        Token,
        Finish,
        Finish,
    ]
};

/// The tokens of a register range written without trivia, as its events take them.
const RANGE_REGISTER_TOKENS: [SyntaxKind; 6] =
    [NAME, L_BRACK, INT_NUMBER, COLON, INT_NUMBER, R_BRACK];

/// Whether the events after a `Start` of a register make a register range with numbers
/// as bounds (`v[4:7]`), about one operand in three: with its tokens, such a subtree is
/// the same wherever its text is, and the builder finds it by its text.
#[inline]
fn is_range_register(after_start: &[Event]) -> bool {
    after_start.starts_with(&RANGE_REGISTER_EVENTS)
}

/// Pushes the kinds of the forward parents starting at `events[idx]`, innermost first,
/// and tombstones them so that they are not opened again in their place.
fn take_forward_parents(events: &mut [Event], mut idx: usize, chain: &mut Vec<SyntaxKind>) {
    loop {
        match std::mem::replace(&mut events[idx], Event::Tombstone) {
            Event::Start {
                kind,
                forward_parent,
            } => {
                chain.push(kind);
                match forward_parent {
                    Some(offset) => idx += offset.get() as usize,
                    None => return,
                }
            }
            _ => unreachable!("forward parent is not a Start"),
        }
    }
}

/// Builds a fragment: the events have no root, so one is added and then peeled off.
pub(crate) fn build_fragment(
    text: &str,
    tokens: &[Token],
    mut events: Vec<Event>,
) -> Vec<NodeOrToken<GreenNode, GreenToken>> {
    events.insert(
        0,
        Event::Start {
            kind: SOURCE_FILE,
            forward_parent: None,
        },
    );
    events.push(Event::Finish);
    let root = build_tree(text, tokens, events);
    root.children().map(|c| c.to_owned()).collect()
}

struct Sink<'a> {
    text: &'a str,
    tokens: &'a [Token],
    /// The next raw token to emit, and where its text starts.
    next: usize,
    offset: usize,
    /// Open nodes.
    depth: usize,
    builder: GreenBuilder,
}

impl Sink<'_> {
    #[inline]
    fn emit(&mut self, t: Token) {
        let end = self.offset + t.len as usize;
        self.builder.token(t.kind, self.text, self.offset..end);
        self.offset = end;
        self.next += 1;
    }

    #[inline]
    fn start(&mut self, kind: SyntaxKind) {
        // Trivia before a node goes outside it; but a node that starts at a statement's
        // end is empty (`.x ,# c`), and trivia there belongs after the statement, as it
        // would if the statement were parsed alone.
        if self.depth > 0 {
            self.leading_trivia();
        }
        self.builder.start_node(kind);
        self.depth += 1;
    }

    /// The trivia before a node that starts inside another: outside the node, unless the
    /// statement ends there (see [`start`](Self::start)).
    #[inline(always)]
    fn leading_trivia(&mut self) {
        if self.at_trivia() {
            self.trivia_before_node();
        }
    }

    #[inline(never)]
    fn trivia_before_node(&mut self) {
        match self.tokens.get(self.next..self.next + 2) {
            // Most often one space, before an operand.
            Some(&[space, t]) if !t.kind.is_trivia() => {
                if !t.kind.is_statement_end() {
                    self.emit(space);
                }
            }
            _ => self.trivia_unless_statement_ends(),
        }
    }

    /// One scan finds the trivia run and what follows it; the run is emitted unless the
    /// statement (or the input) ends after it.
    #[inline(never)]
    fn trivia_unless_statement_ends(&mut self) {
        let ahead = &self.tokens[self.next..];
        let run = ahead.iter().take_while(|t| t.kind.is_trivia()).count();
        if ahead.get(run).is_none_or(|t| t.kind.is_statement_end()) {
            return;
        }
        for &t in &ahead[..run] {
            self.emit(t);
        }
    }

    /// A node of `kind` around the next token, if no trivia comes before that token
    /// (trivia that [`start`](Self::start) leaves outside the node is emitted first).
    #[inline]
    fn token_node(&mut self, kind: SyntaxKind) -> bool {
        self.leading_trivia();
        match self.tokens.get(self.next) {
            Some(&t) if !t.kind.is_trivia() => {
                let end = self.offset + t.len as usize;
                self.builder
                    .token_node(kind, t.kind, self.text, self.offset..end);
                self.offset = end;
                self.next += 1;
                true
            }
            _ => false,
        }
    }

    /// The register range whose events [`is_range_register`] matched, if its tokens have
    /// no trivia between them: found by its text, or built and remembered by it.
    #[inline(never)]
    fn range_register(&mut self) -> bool {
        self.leading_trivia();
        let Some(tokens) = self
            .tokens
            .get(self.next..self.next + RANGE_REGISTER_TOKENS.len())
        else {
            return false;
        };
        if !tokens
            .iter()
            .zip(RANGE_REGISTER_TOKENS)
            .all(|(t, kind)| t.kind == kind)
        {
            return false;
        }
        let span = self.offset..self.offset + tokens.iter().map(|t| t.len as usize).sum::<usize>();
        if self.builder.subtree(REGISTER, self.text, span.clone()) {
            self.offset = span.end;
            self.next += RANGE_REGISTER_TOKENS.len();
            return true;
        }
        self.builder.start_node(REGISTER);
        self.emit(tokens[0]);
        self.builder.start_node(REG_RANGE);
        self.emit(tokens[1]);
        self.emit_token_node(LITERAL, tokens[2]);
        self.emit(tokens[3]);
        self.emit_token_node(LITERAL, tokens[4]);
        self.emit(tokens[5]);
        self.builder.finish_node();
        self.builder.finish_node();
        self.builder.remember_subtree(REGISTER, self.text, span);
        true
    }

    /// A node of `kind` around the token `t`, the next one.
    #[inline]
    fn emit_token_node(&mut self, kind: SyntaxKind, t: Token) {
        let end = self.offset + t.len as usize;
        self.builder
            .token_node(kind, t.kind, self.text, self.offset..end);
        self.offset = end;
        self.next += 1;
    }

    #[inline]
    fn finish(&mut self) {
        if self.depth == 1 {
            self.rest();
        }
        self.builder.finish_node();
        self.depth -= 1;
    }

    #[inline]
    fn at_trivia(&self) -> bool {
        self.tokens
            .get(self.next)
            .is_some_and(|t| t.kind.is_trivia())
    }

    /// The trivia before the parser's next token, then that token.
    #[inline]
    fn token(&mut self) {
        loop {
            let t = self.tokens[self.next];
            self.emit(t);
            if !t.kind.is_trivia() {
                break;
            }
        }
    }

    fn rest(&mut self) {
        while let Some(&t) = self.tokens.get(self.next) {
            self.emit(t);
        }
    }
}

/// Prints a tree one node or token per line, two spaces of indent per level:
/// `KIND@START..END` for a node, `KIND@START..END "TEXT"` for a token (the full text).
pub fn debug_tree(node: &crate::SyntaxNode) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let mut indent = 0usize;
    for event in node.preorder_with_tokens() {
        match event {
            rowan::WalkEvent::Enter(element) => {
                let kind: SyntaxKind = element.kind();
                let _ = write!(
                    out,
                    "{:indent$}{:?}@{:?}",
                    "",
                    kind,
                    element.text_range(),
                    indent = indent * 2
                );
                match element {
                    NodeOrToken::Node(_) => indent += 1,
                    NodeOrToken::Token(token) => {
                        let _ = write!(out, " {:?}", token.text());
                    }
                }
                out.push('\n');
            }
            rowan::WalkEvent::Leave(NodeOrToken::Node(_)) => indent -= 1,
            rowan::WalkEvent::Leave(NodeOrToken::Token(_)) => {}
        }
    }
    out
}
