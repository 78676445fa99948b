//! Turns parser events plus the raw tokens (with trivia) into a rowan green tree.
//!
//! Trivia before a node goes outside it, so a statement starts at its first real token
//! and a comment after it belongs to the enclosing node.

use rowan::{GreenNode, GreenToken, NodeOrToken};

use crate::green_cache::GreenBuilder;
use crate::lexer::Token;
use crate::parser::Event;
use crate::{SyntaxKind, SyntaxKind::*};

pub(crate) fn build_tree(text: &str, tokens: &[Token], mut events: Vec<Event>) -> GreenNode {
    let builder = GreenBuilder::new(tokens.len());
    let mut sink = Sink { text, tokens, next: 0, offset: 0, builder };
    let mut depth = 0usize;
    let mut chain = Vec::new();
    for i in 0..events.len() {
        match std::mem::replace(&mut events[i], Event::Tombstone) {
            Event::Start { kind, forward_parent: None } => sink.start(kind, &mut depth),
            Event::Start { kind, forward_parent: Some(first) } => {
                // A node that was preceded: open its forward parents first, outermost first.
                chain.push(kind);
                let mut idx = i;
                let mut parent = Some(first);
                while let Some(offset) = parent {
                    idx += offset.get() as usize;
                    match std::mem::replace(&mut events[idx], Event::Tombstone) {
                        Event::Start { kind, forward_parent } => {
                            chain.push(kind);
                            parent = forward_parent;
                        }
                        _ => unreachable!("forward parent is not a Start"),
                    }
                }
                while let Some(kind) = chain.pop() {
                    sink.start(kind, &mut depth);
                }
            }
            Event::Finish => {
                if depth == 1 {
                    sink.rest();
                }
                sink.builder.finish_node();
                depth -= 1;
            }
            Event::Token => {
                sink.trivia();
                sink.token();
            }
            Event::Tombstone => {}
        }
    }
    sink.builder.finish()
}

/// Builds a fragment: the events have no root, so one is added and then peeled off.
pub(crate) fn build_fragment(
    text: &str,
    tokens: &[Token],
    mut events: Vec<Event>,
) -> Vec<NodeOrToken<GreenNode, GreenToken>> {
    events.insert(0, Event::Start { kind: SOURCE_FILE, forward_parent: None });
    events.push(Event::Finish);
    let root = build_tree(text, tokens, events);
    root.children().map(|c| c.to_owned()).collect()
}

struct Sink<'a> {
    text: &'a str,
    tokens: &'a [Token],
    next: usize,
    offset: usize,
    builder: GreenBuilder,
}

impl Sink<'_> {
    #[inline]
    fn emit(&mut self) {
        let t = self.tokens[self.next];
        let end = self.offset + t.len as usize;
        self.builder.token(t.kind, &self.text[self.offset..end]);
        self.offset = end;
        self.next += 1;
    }

    fn start(&mut self, kind: SyntaxKind, depth: &mut usize) {
        // Trivia before a node goes outside it; but a node that starts at a statement's
        // end is empty (`.x ,# c`), and trivia there belongs after the statement, as it
        // would if the statement were parsed alone.
        if *depth > 0 && !self.at_statement_end() {
            self.trivia();
        }
        self.builder.start_node(kind);
        *depth += 1;
    }

    fn at_statement_end(&self) -> bool {
        let next = self.tokens[self.next..].iter().find(|t| !t.kind.is_trivia());
        next.is_none_or(|t| t.kind.is_statement_end())
    }

    fn trivia(&mut self) {
        while self.next < self.tokens.len() && self.tokens[self.next].kind.is_trivia() {
            self.emit();
        }
    }

    fn token(&mut self) {
        debug_assert!(!self.tokens[self.next].kind.is_trivia());
        self.emit();
    }

    fn rest(&mut self) {
        while self.next < self.tokens.len() {
            self.emit();
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
                let _ = write!(out, "{:indent$}{:?}@{:?}", "", kind, element.text_range(), indent = indent * 2);
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
