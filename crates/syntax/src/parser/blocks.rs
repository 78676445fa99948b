//! Block structure: macro definitions, repetitions and conditionals.
//!
//! Macro and repetition bodies are kept as raw `LINE`s: their text is only meaningful
//! after substitution (`\x`, `\@`), so the assembler reparses each expansion.
//! Conditional branches hold ordinary statements.

use rowan::{TextRange, TextSize};

use super::statements::{directive_at, pseudo_op, statements_until};
use super::Parser;
use crate::SyntaxKind::*;

pub(crate) fn directive(p: &mut Parser, name: &str) {
    match name {
        ".macro" => macro_def(p),
        _ if is_repeat_open(name) => repeat(p, name),
        _ if name.starts_with(".if") => conditional(p, name),
        _ if is_else(name) || name == ".endif" => stray(p, name, "`.if`"),
        _ if is_macro_close(name) => stray(p, name, "`.macro`"),
        _ if is_repeat_close(name) => stray(p, name, "repetition (`.rept`, `.irp`, …)"),
        ".purgem" => {
            let purged = p.nth_text(1).to_ascii_lowercase();
            p.ctx.macros.remove(&purged);
            pseudo_op(p, name);
        }
        _ => pseudo_op(p, name),
    }
}

/// The error on a conditional's opener when no `.endif` closes it. The assembler knows it
/// by this text: unlike other syntax errors, it does not stop the conditional from running.
pub fn unclosed_conditional(name: &str) -> String {
    format!("`{name}` without a closing `.endif`")
}

/// The error on a macro definition's or repetition's opener when nothing closes it.
pub fn unclosed_block(name: &str) -> String {
    format!("`{name}` without its closing pseudo-op")
}

pub(crate) fn is_else(name: &str) -> bool {
    name == ".else" || name.starts_with(".elseif")
}

pub(crate) fn is_repeat_open(name: &str) -> bool {
    matches!(name, ".rept" | ".irp" | ".irpc" | ".for" | ".while")
}

pub(crate) fn is_repeat_close(name: &str) -> bool {
    matches!(name, ".endr" | ".endrept")
}

pub(crate) fn is_macro_close(name: &str) -> bool {
    matches!(name, ".endm" | ".endmacro")
}

/// Whether a pseudo-op opens, splits or closes a block: editing one reshapes the tree.
pub fn is_block_directive(name: &str) -> bool {
    name == ".macro"
        || name == ".purgem"
        || name.starts_with(".if")
        || is_else(name)
        || name == ".endif"
        || is_macro_close(name)
        || is_repeat_open(name)
        || is_repeat_close(name)
}

fn stray(p: &mut Parser, name: &str, opener: &str) {
    p.error(format!("`{name}` without an open {opener}"));
    pseudo_op(p, name);
}

fn opener_range(p: &Parser) -> TextRange {
    let text = p.nth_text(0);
    let start = p.range_since(p.token_pos()).start();
    TextRange::at(start, TextSize::of(text))
}

fn conditional(p: &mut Parser, name: &str) {
    if !p.enter() {
        pseudo_op(p, name);
        return;
    }
    let opener = opener_range(p);
    let m = p.start();
    let mut branch = p.start();
    pseudo_op(p, name);
    loop {
        statements_until(p, &|n| is_else(n) || n == ".endif");
        branch.complete(p, COND_BRANCH);
        match directive_at(p) {
            Some(n) if is_else(&n) => {
                branch = p.start();
                pseudo_op(p, &n);
            }
            Some(n) if n == ".endif" => {
                pseudo_op(p, &n);
                break;
            }
            _ => {
                p.push_error(opener, unclosed_conditional(name));
                break;
            }
        }
    }
    p.leave();
    m.complete(p, CONDITIONAL);
}

fn macro_def(p: &mut Parser) {
    let opener = opener_range(p);
    let m = p.start();
    if p.nth(1) == NAME {
        let name = p.nth_text(1).to_ascii_lowercase();
        p.ctx.macros.insert(name);
    }
    pseudo_op(p, ".macro");
    block_body(p, opener, ".macro", &|n| n == ".macro", &is_macro_close);
    m.complete(p, MACRO_DEF);
}

fn repeat(p: &mut Parser, name: &str) {
    let opener = opener_range(p);
    let m = p.start();
    pseudo_op(p, name);
    block_body(p, opener, name, &is_repeat_open, &is_repeat_close);
    m.complete(p, REPEAT);
}

/// A `BODY` of raw lines up to the matching close, then the close itself.
fn block_body(
    p: &mut Parser,
    opener: TextRange,
    name: &str,
    opens: &dyn Fn(&str) -> bool,
    closes: &dyn Fn(&str) -> bool,
) {
    let body = p.start();
    let mut depth = 0u32;
    loop {
        match p.current() {
            EOF => break,
            NEWLINE | SEMICOLON => p.bump_any(),
            _ => {
                let head = line_head(p);
                if closes(&head) {
                    if depth == 0 {
                        break;
                    }
                    depth -= 1;
                } else if opens(&head) {
                    depth += 1;
                }
                line(p);
            }
        }
    }
    body.complete(p, BODY);
    if p.at(EOF) {
        p.push_error(opener, unclosed_block(name));
        return;
    }
    // What stands before the closing pseudo-op: plain labels stay labels, labels built
    // by substitution (`\x\()l:`) stay raw.
    let head_at = line_head_index(p);
    let plain_labels = (0..head_at)
        .step_by(2)
        .all(|i| matches!(p.nth(i), NAME | INT_NUMBER) && p.nth(i + 1) == COLON);
    if plain_labels {
        for _ in 0..head_at / 2 {
            let m = p.start();
            p.bump_any();
            p.bump(COLON);
            m.complete(p, LABEL);
        }
    } else {
        let m = p.start();
        for _ in 0..head_at {
            p.bump_any();
        }
        m.complete(p, LINE);
    }
    let close = p.nth_text(0).to_ascii_lowercase();
    pseudo_op(p, &close);
}

/// The lowercase first word of a body line after its labels (`loop: .rept 10`), labels
/// built by substitution included (`\x\()loop:`).
fn line_head(p: &Parser) -> String {
    p.nth_text(line_head_index(p)).to_ascii_lowercase()
}

/// How many tokens of the current line stand before its first word (its labels).
fn line_head_index(p: &Parser) -> usize {
    let mut n = 0;
    loop {
        let mut end = n;
        while matches!(
            p.nth(end),
            NAME | INT_NUMBER | BACKSLASH | L_PAREN | R_PAREN | AT
        ) && (end == n || !p.nth_spaced(end))
        {
            end += 1;
        }
        if end > n && p.nth(end) == COLON && !p.nth_spaced(end) {
            n = end + 1;
        } else {
            return n;
        }
    }
}

/// One statement's tokens, unparsed.
fn line(p: &mut Parser) {
    let m = p.start();
    while !p.at_statement_end() {
        p.bump_any();
    }
    m.complete(p, LINE);
}

/// Entry point for reparsing a single body line.
pub(crate) fn body_line(p: &mut Parser) {
    line(p);
    while !p.at(EOF) {
        p.bump_any();
    }
}
