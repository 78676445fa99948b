//! Statements: labels, assignments, pseudo-ops, instructions and macro calls.

use super::blocks;
use super::expressions::{expr, modifier_expr, operand_expr, ExprMode};
use super::Parser;
use crate::SyntaxKind::*;

pub(crate) fn source_file(p: &mut Parser) {
    let m = p.start();
    statements_until(p, &|_| false);
    while !p.at(EOF) {
        // Only reachable through a stray block end at top level; keep every token.
        p.bump_any();
    }
    m.complete(p, SOURCE_FILE);
}

/// Statements with no root node, for reparsing a fragment.
pub(crate) fn statement_list(p: &mut Parser) {
    statements_until(p, &|_| false);
    while !p.at(EOF) {
        p.bump_any();
    }
}

/// Parses statements until the end of input or a statement starting with a pseudo-op
/// for which `stop` is true (a block's `.endif`, `.else`, …), which is left unconsumed.
pub(crate) fn statements_until(p: &mut Parser, stop: &dyn Fn(&str) -> bool) {
    loop {
        match p.current() {
            EOF => return,
            NEWLINE | SEMICOLON => p.bump_any(),
            _ => {
                let directive = directive_at(p);
                if directive.as_deref().is_some_and(stop) {
                    return;
                }
                statement(p, directive);
            }
        }
    }
}

/// The lowercase pseudo-op name if the current statement is a pseudo-op.
#[inline(always)]
pub(crate) fn directive_at(p: &Parser) -> Option<String> {
    // Most statements are instructions: turned away before any call.
    if !p.at(NAME) || p.current_bytes()[0] != b'.' {
        return None;
    }
    dotted_directive(p)
}

/// [`directive_at`] for a statement starting with a dotted name.
#[inline(never)]
fn dotted_directive(p: &Parser) -> Option<String> {
    let is_directive =
        p.current_bytes().len() > 1 && p.nth(1) != EQ && (p.nth(1) != COLON || p.nth_spaced(1));
    is_directive.then(|| p.nth_text(0).to_ascii_lowercase())
}

/// A statement; `directive` is what [`directive_at`] says of it.
fn statement(p: &mut Parser, directive: Option<String>) {
    let head = p.current();
    let glued_colon = p.nth(1) == COLON && !p.nth_spaced(1);
    // `.5` lexes as a float, but at the head of a statement it is a symbol name.
    let dot_name = head == FLOAT_NUMBER && p.nth_text(0).starts_with('.');
    match head {
        NAME | INT_NUMBER if glued_colon => label(p),
        FLOAT_NUMBER if dot_name && glued_colon => label(p),
        NAME if p.nth(1) == EQ => assignment(p),
        FLOAT_NUMBER if dot_name && p.nth(1) == EQ => assignment(p),
        NAME => match directive {
            Some(name) => blocks::directive(p, &name),
            None if is_macro(p) => macro_call(p),
            None => instruction(p),
        },
        _ => {
            p.error("expected a label, assignment, pseudo-op or instruction");
            p.skip_to_statement_end();
        }
    }
}

fn is_macro(p: &Parser) -> bool {
    !p.ctx.macros.is_empty() && p.ctx.macros.contains(&p.nth_text(0).to_ascii_lowercase())
}

fn label(p: &mut Parser) {
    let m = p.start();
    p.bump_any();
    p.bump(COLON);
    m.complete(p, LABEL);
}

fn assignment(p: &mut Parser) {
    let m = p.start();
    p.bump_any();
    p.bump(EQ);
    if p.at_statement_end() {
        p.error("expected an expression after `=`");
    } else {
        expr(p, ExprMode::Value);
    }
    end_of_statement(p);
    m.complete(p, ASSIGNMENT);
}

/// Reports and skips anything left before the end of the statement.
pub(crate) fn end_of_statement(p: &mut Parser) {
    if !p.at_statement_end() {
        p.error("expected end of statement");
        p.skip_to_statement_end();
    }
}

/// A pseudo-op that is not a block: `.name args`.
pub(crate) fn pseudo_op(p: &mut Parser, name: &str) {
    let m = p.start();
    p.bump(NAME);
    if !p.at_statement_end() {
        if takes_raw_args(name) {
            let from = p.token_pos();
            raw_arg_list(p);
            if compares_raw_text(name) {
                let range = p.range_since(from);
                p.quiet.push(range);
            }
        } else {
            arg_list(p);
        }
    }
    m.complete(p, PSEUDO_OP);
}

/// Pseudo-ops whose arguments are not expressions: type names (`.arg x, uint*`), macro
/// parameter lists, strings compared as text, register declarations.
fn takes_raw_args(name: &str) -> bool {
    const RAW: &[&str] = &[
        ".arg",
        ".macro",
        ".irp",
        ".irpc",
        ".regvar",
        ".enum",
        ".kcode",
        ".printf",
        ".purgem",
        ".ifc",
        ".ifnc",
        ".ifb",
        ".ifnb",
        ".ifeqs",
        ".ifnes",
        ".elseifc",
        ".elseifnc",
        ".elseifb",
        ".elseifnb",
        ".elseifeqs",
        ".elseifnes",
    ];
    RAW.contains(&name)
}

/// Conditions on the raw text of their arguments (the reference's `getStringToCompare`
/// and blank test): their text is not tokens, and its lexer errors do not count.
fn compares_raw_text(name: &str) -> bool {
    matches!(
        name,
        ".ifc" | ".ifnc" | ".elseifc" | ".elseifnc" | ".ifb" | ".ifnb" | ".elseifb" | ".elseifnb"
    )
}

/// Comma-separated expression arguments; an argument may be empty (`.cws 8,,`).
fn arg_list(p: &mut Parser) {
    let m = p.start();
    loop {
        arg(p);
        if !p.eat(COMMA) {
            break;
        }
    }
    end_of_statement(p);
    m.complete(p, ARG_LIST);
}

fn arg(p: &mut Parser) {
    let m = p.start();
    if !p.at(COMMA) && !p.at_statement_end() {
        arg_item(p);
        // `align=8` may follow another item without a comma (`.section .x, "a" align=8`).
        while p.at(NAME) && p.nth(1) == EQ {
            arg_item(p);
        }
        if !p.at(COMMA) && !p.at_statement_end() {
            p.error("expected `,` or end of statement");
            let junk = p.start();
            while !p.at(COMMA) && !p.at_statement_end() {
                p.bump_any();
            }
            junk.complete(p, ERROR);
        }
    }
    m.complete(p, ARG);
}

fn arg_item(p: &mut Parser) {
    if p.at(NAME) && p.nth(1) == EQ {
        let m = p.start();
        p.bump(NAME);
        p.bump(EQ);
        expr(p, ExprMode::Value);
        m.complete(p, KEY_VALUE);
    } else {
        modifier_expr(p);
    }
}

/// Arguments kept as tokens, split at commas outside brackets.
pub(crate) fn raw_arg_list(p: &mut Parser) {
    let m = p.start();
    loop {
        let arg = p.start();
        let mut depth = 0u32;
        while !p.at_statement_end() && (depth != 0 || !p.at(COMMA)) {
            match p.current() {
                L_PAREN | L_BRACK => depth += 1,
                R_PAREN | R_BRACK => depth = depth.saturating_sub(1),
                _ => {}
            }
            p.bump_any();
        }
        arg.complete(p, ARG);
        if !p.eat(COMMA) {
            break;
        }
    }
    m.complete(p, ARG_LIST);
}

fn macro_call(p: &mut Parser) {
    let m = p.start();
    p.bump(NAME);
    if !p.at_statement_end() {
        raw_arg_list(p);
    }
    m.complete(p, MACRO_CALL);
}

fn instruction(p: &mut Parser) {
    let m = p.start();
    p.bump(NAME);
    if !p.at_statement_end() {
        operand_list(p);
    }
    m.complete(p, INSTRUCTION);
}

/// Operands separated by commas, then modifiers separated by spaces (`offen glc
/// offset:16`). An item glued to the one before without a comma is a new item.
fn operand_list(p: &mut Parser) {
    let m = p.start();
    let mut after_comma = true;
    loop {
        if p.at_statement_end() {
            if after_comma {
                p.error("expected an operand");
            }
            break;
        }
        if p.at(COMMA) {
            if after_comma {
                p.error("expected an operand before `,`");
            }
            p.bump(COMMA);
            after_comma = true;
            continue;
        }
        let before = p.token_pos();
        operand_item(p, !after_comma);
        if p.token_pos() == before {
            // Nothing could start an operand here: keep the token and move on.
            p.skip_to_statement_end();
        }
        after_comma = false;
    }
    m.complete(p, OPERAND_LIST);
}

fn operand_item(p: &mut Parser, juxtaposed: bool) {
    if p.at(NAME) && p.nth(1) == COLON {
        modifier_with_value(p);
    } else if p.at(NAME) && juxtaposed && is_flag_position(p) {
        let m = p.start();
        p.bump(NAME);
        m.complete(p, MODIFIER);
    } else {
        // The operand is its expression: no wrapper node (it would be one node in
        // three of a typical instruction's tree).
        operand_expr(p);
    }
}

/// A bare name after an operand without a comma is a flag modifier (`glc`, `offen`),
/// unless it is followed by something that makes it an operand (`exp mrt0 v0, …`).
fn is_flag_position(p: &Parser) -> bool {
    let next = p.nth(1);
    matches!(next, NEWLINE | SEMICOLON | EOF | NAME) || (next == L_PAREN && p.nth_spaced(1))
}

/// `name:value[:value…]`: `offset:16`, `op_sel:[0,1]`, `dim:2d`, `bound_ctrl:0:expr`.
fn modifier_with_value(p: &mut Parser) {
    let m = p.start();
    p.bump(NAME);
    while p.eat(COLON) {
        modifier_value(p);
    }
    m.complete(p, MODIFIER);
}

fn modifier_value(p: &mut Parser) {
    if p.at_statement_end() || p.at(COMMA) {
        p.error("expected a modifier value");
    } else {
        modifier_expr(p);
    }
}
