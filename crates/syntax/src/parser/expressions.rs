//! Expressions, with CLRX's operator precedence, and instruction operands.
//!
//! Binding power, tightest first: unary `- + ~ !`; `* / // % %% << >> >>>`;
//! `& | ^ !` (binary `!` is or-not); `+ -`; comparisons; `&& ||`; `?:` (right to left).
//! The reference binds the bitwise group tighter than `+ -`, whatever its syntax
//! document's table says.

use super::{CompletedMarker, Event, Parser, MAX_CHAIN};
use crate::SyntaxKind::{self, *};

/// Whether register names are registers (instruction operands, `%` values) or symbols.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ExprMode {
    Value,
    Operand,
}

#[derive(Clone, Copy)]
struct Restrictions {
    mode: ExprMode,
    /// Inside `|x|`, where `|` closes instead of or-ing.
    no_pipe: bool,
    /// In a modifier value, where a word may start with a digit (`format:[8_8]`).
    words: bool,
}

const TERNARY_BP: u8 = 1;
const PREFIX_BP: u8 = 7;

/// Parses one expression; false (with an error) when nothing could start one.
pub(crate) fn expr(p: &mut Parser, mode: ExprMode) -> bool {
    expr_with(
        p,
        Restrictions {
            mode,
            no_pipe: false,
            words: false,
        },
    )
}

/// A modifier's value: an expression, or a word such as `2d` or `8_8`.
pub(crate) fn modifier_expr(p: &mut Parser) -> bool {
    expr_with(
        p,
        Restrictions {
            mode: ExprMode::Value,
            no_pipe: false,
            words: true,
        },
    )
}

fn expr_with(p: &mut Parser, r: Restrictions) -> bool {
    // `expr_bp` tries a lone atom first too, but checking here spares most operands the
    // call of the recursive function.
    if lone_atom(p, r).is_some() || expr_bp(p, r, TERNARY_BP).is_some() {
        return true;
    }
    p.error("expected an expression");
    false
}

/// An instruction operand: an expression in which register names are registers.
pub(crate) fn operand_expr(p: &mut Parser) {
    expr(p, ExprMode::Operand);
}

fn infix_bp(op: SyntaxKind, r: Restrictions) -> Option<u8> {
    Some(match op {
        PIPE2 | AMP2 => 2,
        EQ2 | NEQ | LT | LE | GT | GE | LT_AT | LE_AT | GT_AT | GE_AT => 3,
        PLUS | MINUS => 4,
        PIPE if r.no_pipe => return None,
        AMP | PIPE | CARET | BANG => 5,
        STAR | SLASH | SLASH2 | PERCENT | PERCENT2 | SHL | SHR | ASHR => 6,
        _ => return None,
    })
}

fn expr_bp(p: &mut Parser, r: Restrictions, min_bp: u8) -> Option<CompletedMarker> {
    if let Some(atom) = lone_atom(p, r) {
        return Some(atom);
    }
    if !p.enter() {
        p.skip_to_statement_end();
        return None;
    }
    let result = expr_bp_inner(p, r, min_bp);
    p.leave();
    result
}

fn expr_bp_inner(p: &mut Parser, r: Restrictions, min_bp: u8) -> Option<CompletedMarker> {
    let lhs = unary(p, r)?;
    let chain = p.chain;
    let result = operator_chain(p, r, min_bp, lhs);
    p.chain = chain;
    Some(result)
}

/// The operators after `lhs`, each nesting the tree a level deeper, up to [`MAX_CHAIN`]
/// levels: the rest of a longer statement is an error.
fn operator_chain(
    p: &mut Parser,
    r: Restrictions,
    min_bp: u8,
    mut lhs: CompletedMarker,
) -> CompletedMarker {
    loop {
        let op = p.current();
        let binary = infix_bp(op, r).is_some_and(|bp| bp >= min_bp);
        if (binary || (op == QUESTION && min_bp <= TERNARY_BP)) && p.chain >= MAX_CHAIN {
            p.error(format!("the expression is too long: more than {MAX_CHAIN} operators in a row (use parentheses or symbols)"));
            p.skip_to_statement_end();
            break;
        }
        p.chain += 1;
        if op == QUESTION {
            if min_bp > TERNARY_BP {
                break;
            }
            let m = lhs.precede(p);
            p.bump(QUESTION);
            operand_or_error(p, r, TERNARY_BP);
            p.expect(COLON, "`:` in `?:`");
            operand_or_error(p, r, TERNARY_BP);
            lhs = m.complete(p, TERNARY_EXPR);
            continue;
        }
        let Some(bp) = infix_bp(op, r) else { break };
        if bp < min_bp {
            break;
        }
        let m = lhs.precede(p);
        p.bump_any();
        operand_or_error(p, r, bp + 1);
        lhs = m.complete(p, BIN_EXPR);
    }
    lhs
}

/// The most common expressions, a single number or name (`s4`, `vcc`, `16`, `label`)
/// or a register range (`s[4:7]`) that ends where it stands, parsed straight to the
/// node the general path would give; `None` (nothing consumed) for anything else.
#[inline]
fn lone_atom(p: &mut Parser, r: Restrictions) -> Option<CompletedMarker> {
    // At the nesting limit the general path reports it.
    if !p.can_enter() {
        return None;
    }
    // No operator, call, index or `?:` can follow.
    if !ends_expression(p.nth(1)) {
        return lone_number_range(p, r);
    }
    let kind = match p.current() {
        INT_NUMBER | FLOAT_NUMBER | LOCAL_LABEL_REF | STRING | CHAR => LITERAL,
        NAME if r.mode == ExprMode::Operand && is_register_bytes(p.current_bytes(), false) => {
            REGISTER
        }
        NAME => NAME_REF,
        _ => return None,
    };
    Some(p.leaf_node(kind))
}

/// An operand `name[number:number]` that ends where it stands, as [`number_range`].
#[inline]
fn lone_number_range(p: &mut Parser, r: Restrictions) -> Option<CompletedMarker> {
    let range = r.mode == ExprMode::Operand
        && p.at(NAME)
        && p.nth(1) == L_BRACK
        && !p.nth_spaced(1)
        && p.nth(2) == INT_NUMBER
        && p.nth(3) == COLON
        && p.nth(4) == INT_NUMBER
        && p.nth(5) == R_BRACK
        && ends_expression(p.nth(6))
        // The general path enters `expr_bp` once more before it reaches the numbers.
        && p.can_enter_levels(2);
    if !range {
        return None;
    }
    let kind = if is_register_bytes(p.current_bytes(), true) {
        REGISTER
    } else {
        REG_INDEX
    };
    Some(number_range(p, kind))
}

/// Tokens that neither an operator (for any `Restrictions`) nor an atom's suffix can be.
fn ends_expression(kind: SyntaxKind) -> bool {
    matches!(
        kind,
        COMMA | NEWLINE | SEMICOLON | EOF | R_BRACK | R_PAREN | COLON
    )
}

fn operand_or_error(p: &mut Parser, r: Restrictions, min_bp: u8) {
    if expr_bp(p, r, min_bp).is_none() {
        p.error("expected an expression");
    }
}

fn unary(p: &mut Parser, r: Restrictions) -> Option<CompletedMarker> {
    match p.current() {
        MINUS | PLUS | TILDE | BANG => {
            let m = p.start();
            p.bump_any();
            operand_or_error(p, r, PREFIX_BP);
            Some(m.complete(p, PREFIX_EXPR))
        }
        PIPE if r.mode == ExprMode::Operand && !r.no_pipe => {
            let m = p.start();
            p.bump(PIPE);
            operand_or_error(p, Restrictions { no_pipe: true, ..r }, TERNARY_BP);
            p.expect(PIPE, "closing `|`");
            Some(m.complete(p, ABS_EXPR))
        }
        AT => {
            let m = p.start();
            p.bump(AT);
            let value = Restrictions {
                mode: ExprMode::Value,
                ..r
            };
            operand_or_error(p, value, PREFIX_BP);
            Some(m.complete(p, AT_EXPR))
        }
        PERCENT => {
            let m = p.start();
            p.bump(PERCENT);
            let operand = Restrictions {
                mode: ExprMode::Operand,
                ..r
            };
            operand_or_error(p, operand, PREFIX_BP);
            Some(m.complete(p, PERCENT_EXPR))
        }
        _ => atom(p, r),
    }
}

fn atom(p: &mut Parser, r: Restrictions) -> Option<CompletedMarker> {
    let inner = Restrictions {
        no_pipe: false,
        ..r
    };
    match p.current() {
        INT_NUMBER | FLOAT_NUMBER | LOCAL_LABEL_REF | STRING | CHAR => Some(p.leaf_node(LITERAL)),
        BAD_NUMBER => {
            if !r.words {
                p.error("invalid number");
            }
            Some(p.leaf_node(LITERAL))
        }
        NAME => Some(name_atom(p, r)),
        L_PAREN => {
            let m = p.start();
            p.bump(L_PAREN);
            operand_or_error(p, inner, TERNARY_BP);
            p.expect(R_PAREN, "`)`");
            Some(m.complete(p, PAREN_EXPR))
        }
        L_BRACK => {
            let m = p.start();
            p.bump(L_BRACK);
            comma_separated(p, inner, R_BRACK);
            p.expect(R_BRACK, "`]`");
            Some(m.complete(p, LIST_EXPR))
        }
        _ => None,
    }
}

/// `a, b, c` up to (not including) `close`; may be empty.
fn comma_separated(p: &mut Parser, r: Restrictions, close: SyntaxKind) {
    if p.at(close) {
        return;
    }
    loop {
        operand_or_error(p, r, TERNARY_BP);
        if !p.eat(COMMA) {
            break;
        }
    }
}

fn name_atom(p: &mut Parser, r: Restrictions) -> CompletedMarker {
    let operand = r.mode == ExprMode::Operand;
    let next = p.nth(1);
    let glued = !p.nth_spaced(1);
    let call = next == L_PAREN && (glued || operand);
    let bracket = next == L_BRACK && glued;
    let register = operand && !call && is_register_bytes(p.current_bytes(), bracket);
    if !call && !bracket {
        return p.leaf_node(if register { REGISTER } else { NAME_REF });
    }
    let m = p.start();
    if call {
        p.bump(NAME);
        p.bump(L_PAREN);
        let args = Restrictions {
            no_pipe: false,
            mode: ExprMode::Operand,
            words: r.words,
        };
        comma_separated(p, args, R_PAREN);
        p.expect(R_PAREN, "`)`");
        return m.complete(p, CALL_EXPR);
    }
    // A name glued to `[`: a register range, or an indexed symbol in an operand.
    p.bump(NAME);
    if operand {
        reg_range(p);
        return m.complete(p, if register { REGISTER } else { REG_INDEX });
    }
    m.complete(p, NAME_REF)
}

/// The commonest register operand, `s[4:7]`, in one step: the node of `kind` that
/// the general route (`expr_bp`, `name_atom`, `reg_range`) gives, with its `REG_RANGE`
/// of two `LITERAL`s.
fn number_range(p: &mut Parser, kind: SyntaxKind) -> CompletedMarker {
    use Event::{Finish, Token};
    let start = |kind| Event::Start {
        kind,
        forward_parent: None,
    };
    let (number, colon, bracket) = (start(LITERAL), Token, Token);
    #[rustfmt::skip]
    let events = [
        start(kind), Token,
            start(REG_RANGE), bracket,
                number, Token, Finish,
                colon,
                number, Token, Finish,
                bracket,
            Finish,
        Finish,
    ];
    p.push_node(&events, 6)
}

/// `[first:last]`, `[index]`; also a list `[a, b]` for modifiers written `format[@1,@4]`.
fn reg_range(p: &mut Parser) {
    let m = p.start();
    p.bump(L_BRACK);
    let r = Restrictions {
        mode: ExprMode::Value,
        no_pipe: false,
        words: false,
    };
    operand_or_error(p, r, TERNARY_BP + 1);
    if p.eat(COLON) {
        operand_or_error(p, r, TERNARY_BP + 1);
    } else {
        while p.eat(COMMA) {
            operand_or_error(p, r, TERNARY_BP + 1);
        }
    }
    p.expect(R_BRACK, "`]`");
    m.complete(p, REG_RANGE);
}

/// Names of registers: `s7`, `v0`, `ttmp3`, `s[…]`, and the special registers.
pub fn is_register_name(name: &str, followed_by_bracket: bool) -> bool {
    is_register_bytes(name.as_bytes(), followed_by_bracket)
}

fn is_register_bytes(bytes: &[u8], followed_by_bracket: bool) -> bool {
    let number = match bytes.first().map(u8::to_ascii_lowercase) {
        Some(b's' | b'v') => &bytes[1..],
        Some(b't') if bytes.len() >= 4 && bytes[..4].eq_ignore_ascii_case(b"ttmp") => &bytes[4..],
        _ => return is_special_register(bytes),
    };
    if number.is_empty() {
        return followed_by_bracket;
    }
    number.iter().all(u8::is_ascii_digit) || is_special_register(bytes)
}

/// Whether `name` is one of the [`SPECIAL_REGISTERS`], in any case: a probe of
/// [`SPECIAL_REGISTER_SLOTS`] rather than a scan of the list.
fn is_special_register(name: &[u8]) -> bool {
    let mut slot = special_register_slot(name);
    loop {
        match SPECIAL_REGISTER_SLOTS[slot] {
            0 => return false,
            index
                if SPECIAL_REGISTERS[index as usize - 1]
                    .as_bytes()
                    .eq_ignore_ascii_case(name) =>
            {
                return true
            }
            _ => slot = (slot + 1) % SPECIAL_REGISTER_SLOTS.len(),
        }
    }
}

/// An open-addressing hash table of [`SPECIAL_REGISTERS`]: each slot holds an index
/// into the list plus one, or 0 when empty. Mostly empty, so that a probe ends soon.
static SPECIAL_REGISTER_SLOTS: [u8; 128] = {
    let mut slots = [0u8; 128];
    let mut i = 0;
    while i < SPECIAL_REGISTERS.len() {
        let mut slot = special_register_slot(SPECIAL_REGISTERS[i].as_bytes());
        while slots[slot] != 0 {
            slot = (slot + 1) % slots.len();
        }
        slots[slot] = i as u8 + 1;
        i += 1;
    }
    slots
};

/// Where a probe for `name` starts: a hash of its length and some of its bytes, the
/// same for any case (`| 0x20` lowercases letters and keeps digits and `_` apart).
const fn special_register_slot(name: &[u8]) -> usize {
    let len = name.len();
    if len == 0 {
        return 0;
    }
    (len * 31 + folded(name, 0) * 5 + folded(name, len - 1) * 3 + folded(name, len / 2)) % 128
}

const fn folded(name: &[u8], i: usize) -> usize {
    (name[i] | 0x20) as usize
}

/// Named registers of every generation (which exist where is the ISA's business).
pub const SPECIAL_REGISTERS: &[&str] = &[
    "vcc",
    "vcc_lo",
    "vcc_hi",
    "exec",
    "exec_lo",
    "exec_hi",
    "m0",
    "scc",
    "vccz",
    "execz",
    "tba",
    "tba_lo",
    "tba_hi",
    "tma",
    "tma_lo",
    "tma_hi",
    "flat_scratch",
    "flat_scratch_lo",
    "flat_scratch_hi",
    "xnack_mask",
    "xnack_mask_lo",
    "xnack_mask_hi",
    "lds",
    "lds_direct",
    "src_lds_direct",
    "src_shared_base",
    "src_shared_limit",
    "src_private_base",
    "src_private_limit",
    "pops_exiting_wave_id",
    "src_pops_exiting_wave_id",
    "null",
    "src_vccz",
    "src_execz",
    "src_scc",
    "shared_base",
    "shared_limit",
    "private_base",
    "private_limit",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn special_registers_are_found_in_any_case() {
        for name in SPECIAL_REGISTERS {
            assert!(is_register_name(name, false), "{name}");
            assert!(
                is_register_name(&name.to_ascii_uppercase(), false),
                "{name}"
            );
        }
        for name in [
            "vcc_l",
            "vccx",
            "exec_lo1",
            "m1",
            "",
            "flat_scratch_lox",
            "src",
            "label",
            "_",
        ] {
            assert!(!is_register_name(name, false), "{name}");
        }
    }

    #[test]
    fn numbered_registers() {
        for name in ["s0", "S17", "v255", "ttmp3", "TTMP11", "s007"] {
            assert!(is_register_name(name, false), "{name}");
        }
        for name in ["s", "v", "ttmp"] {
            assert!(
                is_register_name(name, true) && !is_register_name(name, false),
                "{name}"
            );
        }
        for name in ["s1x", "sx", "v1.5", "ttm1", "t1", "x1"] {
            assert!(!is_register_name(name, false), "{name}");
        }
    }
}
