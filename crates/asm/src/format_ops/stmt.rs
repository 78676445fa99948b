//! A format pseudo-op being handled ([`Stmt`]) and the reading of its arguments, with
//! the reference's messages.

use gcn_isa::PseudoOpId;
use gcn_syntax::ast::{self, AstNode};
use gcn_syntax::{SyntaxKind, TextRange};

use super::Host;
use crate::expr::Value;
use crate::layout::SectionKind;
use crate::literals;

/// A statement being handled.
pub(crate) struct Stmt<'a> {
    /// Its row of the pseudo-op table.
    pub id: PseudoOpId,
    pub args: &'a [ast::Arg],
    pub range: TextRange,
}

impl Stmt<'_> {
    /// Range of argument `i`, or of the end of the statement when missing.
    pub fn arg_range(&self, i: usize) -> TextRange {
        match self.args.get(i) {
            Some(a) => a.syntax().text_range(),
            None => TextRange::empty(self.range.end()),
        }
    }
}

/// Errors with "garbage" when a pseudo-op without arguments has some.
pub(crate) fn no_args(h: &mut dyn Host, st: &Stmt) -> bool {
    match st.args.iter().find(|a| !a.is_empty()) {
        Some(a) => {
            h.error_at(a.syntax().text_range(), "garbage at end of line");
            false
        }
        None => true,
    }
}

/// An absolute value argument; reports a missing or bad one.
pub(crate) fn value_arg(h: &mut dyn Host, st: &Stmt, i: usize) -> Option<i64> {
    let Some(arg) = st.args.get(i).filter(|a| !a.is_empty()) else {
        h.error_at(st.arg_range(i), "expected an expression");
        return None;
    };
    expr_value(h, arg)
}

/// An optional absolute value argument: `Some(None)` when absent.
pub(crate) fn opt_value_arg(h: &mut dyn Host, st: &Stmt, i: usize) -> Option<Option<i64>> {
    match st.args.get(i).filter(|a| !a.is_empty()) {
        None => Some(None),
        Some(arg) => expr_value(h, arg).map(Some),
    }
}

/// The value of an argument's expression, or of its raw tokens read as an expression.
pub(crate) fn expr_value(h: &mut dyn Host, arg: &ast::Arg) -> Option<i64> {
    let range = arg.syntax().text_range();
    if let Some(e) = arg.expr() {
        if arg.raw_tokens().count()
            == e.syntax()
                .descendants_with_tokens()
                .filter_map(|t| t.into_token())
                .filter(|t| !t.kind().is_trivia())
                .count()
        {
            return h.eval_abs_now(&e);
        }
    }
    // Raw arguments (`.arg`): parse the text as an expression.
    let text = arg.text();
    let parse = gcn_syntax::parse(&format!(".int {text}\n"));
    let expr = parse.tree().statements().next().and_then(|s| match s {
        ast::Statement::PseudoOp(op) => op.args().next().and_then(|a| a.expr()),
        _ => None,
    });
    let Some(expr) = expr.filter(|_| parse.errors().is_empty()) else {
        h.error_at(range, "expected an expression");
        return None;
    };
    h.eval_abs_detached(&expr, range)
}

/// A string argument.
pub(crate) fn string_arg(h: &mut dyn Host, st: &Stmt, i: usize) -> Option<String> {
    let Some(arg) = st.args.get(i).filter(|a| !a.is_empty()) else {
        h.error_at(st.arg_range(i), "expected a string");
        return None;
    };
    let mut tokens = arg.raw_tokens();
    let token = tokens.next().filter(|t| t.kind() == SyntaxKind::STRING);
    let Some(token) = token.filter(|_| tokens.next().is_none()) else {
        h.error_at(arg.syntax().text_range(), "expected a string");
        return None;
    };
    match literals::parse_string(token.text()) {
        Ok(bytes) => Some(crate::encoding::bytes_to_text(&bytes)),
        Err(m) => {
            h.error_at(token.text_range(), m);
            None
        }
    }
}

/// Errors when there are more than `n` arguments.
pub(crate) fn at_most(h: &mut dyn Host, st: &Stmt, n: usize) -> bool {
    if st.args.len() > n {
        let range = st.args[n].syntax().text_range();
        h.error_at(range, "garbage at end of line");
        return false;
    }
    true
}

/// Warns when a value does not fit in `bits` bits (unsigned).
pub(crate) fn warn_range(h: &mut dyn Host, range: TextRange, bits: u32, value: i64) {
    if bits < 64 && (value as u64) >> bits != 0 && (value >> (bits - 1)) != -1 {
        h.warn_at(
            range,
            format!("value {value:#x} is truncated to {bits} bits"),
        );
    }
}

/// The symbol named by the first argument (`.get_driver_version SYMBOL`,
/// `.scratchsym SYMBOL`), and the token of its name; reports a missing name and a symbol
/// that cannot be given a value (a label, `.equiv`).
pub(crate) fn symbol_to_define(h: &mut dyn Host, st: &Stmt) -> Option<crate::symbols::SymId> {
    let Some(arg) = st.args.first().filter(|a| !a.is_empty()) else {
        h.error_at(st.range, "expected a symbol name");
        return None;
    };
    let Some(token) = arg
        .raw_tokens()
        .next()
        .filter(|t| t.kind() == SyntaxKind::NAME)
    else {
        h.error_at(arg.syntax().text_range(), "expected a symbol name");
        return None;
    };
    let name = token.text();
    let id = h.definition_target(name);
    if h.symbol(id).once_defined {
        h.error_at(
            token.text_range(),
            format!("symbol `{name}` is already defined"),
        );
        return None;
    }
    Some(id)
}

/// Defines a symbol to a value (`.get_driver_version SYMBOL`).
pub(crate) fn set_symbol(h: &mut dyn Host, st: &Stmt, value: i64) {
    if let Some(id) = symbol_to_define(h, st) {
        h.set_symbol(id, Value::Abs(value));
    }
}

/// Dimensions (`.dims xyz` or `.dims GID, LID`) as a mask: bits 0-2 work-group ids,
/// 3-5 work-item ids.
pub(crate) fn dims(h: &mut dyn Host, st: &Stmt, two_fields: bool) -> Option<u32> {
    let one = |h: &mut dyn Host, i: usize| -> Option<u32> {
        let Some(arg) = st.args.get(i) else {
            return Some(0);
        };
        let text = arg.text().to_ascii_lowercase();
        let mut mask = 0;
        for c in text.chars() {
            match c {
                'x' => mask |= 1,
                'y' => mask |= 2,
                'z' => mask |= 4,
                _ => {
                    h.error_at(arg.syntax().text_range(), "unknown dimension type");
                    return None;
                }
            }
        }
        Some(mask)
    };
    // As in the reference, an empty field is no dimension (`.dims , x`).
    let first = one(h, 0)?;
    if !two_fields {
        return if at_most(h, st, 1) { Some(first) } else { None };
    }
    if !at_most(h, st, 2) {
        return None;
    }
    match st.args.get(1) {
        Some(_) => {
            let second = one(h, 1)?;
            Some(first | (second << 3) | gcn_formats::gpu::DIMS_SECOND_FIELD)
        }
        None => Some(first | (first << 3)),
    }
}

/// The kernel being configured, if the current section is its configuration.
pub(crate) fn config_kernel(h: &dyn Host) -> Option<usize> {
    let k = h.current_kernel()?;
    (h.current_section().kind == SectionKind::Config).then_some(k)
}

/// `.cws X[, Y[, Z]]` (and `.work_group_size_hint`): missing values are 1.
pub(crate) fn cws(h: &mut dyn Host, st: &Stmt) -> Option<[u32; 3]> {
    if !at_most(h, st, 3) {
        return None;
    }
    let mut out = [1u32; 3];
    let mut good = true;
    for (i, slot) in out.iter_mut().enumerate() {
        match opt_value_arg(h, st, i) {
            Some(Some(v)) => {
                warn_range(h, st.arg_range(i), 32, v);
                *slot = v as u32;
            }
            Some(None) => {}
            None => good = false,
        }
    }
    if !good {
        return None;
    }
    if out.iter().any(|&v| v != 0) {
        for (i, &v) in out.iter().enumerate() {
            if v == 0 {
                h.error_at(st.arg_range(i), "group size must not be zero");
                good = false;
            }
        }
    }
    good.then_some(out)
}
