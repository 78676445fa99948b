//! Allocation-free reads of the syntax tree, through its green (immutable) nodes.
//!
//! The typed AST (`gcn_syntax::ast`) walks rowan cursors, and every node or token a
//! cursor visits is a heap allocation: reading `s[4:5]` through the AST allocates about
//! ten times. The hot shapes — the mnemonic, register names, `[a:b]` with integer
//! literals, integer literals — are read here from the green node under a cursor
//! instead: the same children, kinds and texts, without allocating. Callers fall back
//! to the AST for anything else, so the AST stays the reference for every shape.

use gcn_syntax::{ClrxLanguage, SyntaxKind, TextSize};
use rowan::{GreenNodeData, GreenTokenData, Language, NodeOrToken};

use super::operands::parse_int;

/// A child of a green node.
pub(crate) type Element<'g> = NodeOrToken<&'g GreenNodeData, &'g GreenTokenData>;

fn kind_of(element: Element<'_>) -> SyntaxKind {
    ClrxLanguage::kind_from_raw(element.kind())
}

/// `kind` as green nodes store it (`ClrxLanguage::kind_to_raw`, for a `repr(u16)`
/// kind): comparing raw kinds spares a checked conversion of every child visited.
pub(crate) const fn raw(kind: SyntaxKind) -> rowan::SyntaxKind {
    rowan::SyntaxKind(kind as u16)
}

/// The first token of `kind` directly under `node` (as `ast`'s `first_token`), with its
/// offset from the start of `node`.
pub(crate) fn first_token(
    node: &GreenNodeData,
    kind: SyntaxKind,
) -> Option<(&GreenTokenData, TextSize)> {
    let mut offset = TextSize::from(0);
    for child in node.children() {
        if let NodeOrToken::Token(t) = child {
            if t.kind() == raw(kind) {
                return Some((t, offset));
            }
        }
        offset += child.text_len();
    }
    None
}

/// The first child node of `kind` directly under `node`.
pub(crate) fn child_node(node: &GreenNodeData, kind: SyntaxKind) -> Option<&GreenNodeData> {
    node.children()
        .filter_map(NodeOrToken::into_node)
        .find(|n| n.kind() == raw(kind))
}

/// A `REGISTER` node's parts: its name token (the first `NAME`) and its `[…]` (the first
/// `REG_RANGE` node), read in one pass.
pub(crate) fn register_parts(
    node: &GreenNodeData,
) -> (Option<&GreenTokenData>, Option<&GreenNodeData>) {
    let (mut name, mut index) = (None, None);
    for child in node.children() {
        match child {
            NodeOrToken::Token(t) if name.is_none() && t.kind() == raw(SyntaxKind::NAME) => {
                name = Some(t)
            }
            NodeOrToken::Node(n) if index.is_none() && n.kind() == raw(SyntaxKind::REG_RANGE) => {
                index = Some(n)
            }
            _ => {}
        }
    }
    (name, index)
}

/// A `REGISTER` node written as a name alone (`s5`, `vcc`) or a name and `[…]`
/// (`s[4:7]`), nothing else between or around: the name's bytes and the `REG_RANGE`.
/// `None` for any other shape.
pub(crate) fn plain_register(node: &GreenNodeData) -> Option<(&[u8], Option<&GreenNodeData>)> {
    let mut children = node.children();
    let name = children
        .next()?
        .into_token()
        .filter(|t| t.kind() == raw(SyntaxKind::NAME))?;
    let index = match children.next() {
        None => None,
        Some(NodeOrToken::Node(n)) if n.kind() == raw(SyntaxKind::REG_RANGE) => Some(n),
        Some(_) => return None,
    };
    if children.next().is_some() {
        return None;
    }
    Some((name.text().as_bytes(), index))
}

/// Up to 9 decimal digits (a register number, as `sN`, `vN` spell it): their value.
pub(crate) fn short_decimal(digits: &[u8]) -> Option<i64> {
    if digits.is_empty() || digits.len() > 9 {
        return None;
    }
    digits.iter().try_fold(0i64, |n, &d| {
        d.is_ascii_digit().then(|| n * 10 + (d - b'0') as i64)
    })
}

/// `[a:b]` or `[a]` (a `REG_RANGE` node) written with plain decimal numbers and nothing
/// else (no spaces, comments, expressions): `(a, b)` as [`literal_index`] reads it, in
/// one pass. `None` for any other shape.
pub(crate) fn plain_index(range: &GreenNodeData) -> Option<(i64, i64)> {
    let mut children = range.children();
    let is = |child: Option<Element<'_>>, kind| child.is_some_and(|c| c.kind() == raw(kind));
    if !is(children.next(), SyntaxKind::L_BRACK) {
        return None;
    }
    let first = plain_int(children.next()?)?;
    let last = match children.next()?.into_token()? {
        t if t.kind() == raw(SyntaxKind::R_BRACK) => first,
        t if t.kind() == raw(SyntaxKind::COLON) => {
            let last = plain_int(children.next()?)?;
            if !is(children.next(), SyntaxKind::R_BRACK) {
                return None;
            }
            last
        }
        _ => return None,
    };
    children.next().is_none().then_some((first, last))
}

/// A `LITERAL` node holding only a decimal `INT_NUMBER` without leading zeros (`0`,
/// `17`; `017` is octal): its value.
fn plain_int(element: Element<'_>) -> Option<i64> {
    let node = element
        .into_node()
        .filter(|n| n.kind() == raw(SyntaxKind::LITERAL))?;
    let mut children = node.children();
    let token = children
        .next()?
        .into_token()
        .filter(|t| t.kind() == raw(SyntaxKind::INT_NUMBER))?;
    let digits = token.text().as_bytes();
    if children.next().is_some() || (digits.len() > 1 && digits[0] == b'0') {
        return None;
    }
    short_decimal(digits)
}

/// The token of a `LITERAL` node and its kind (`INT_NUMBER`, `FLOAT_NUMBER`, …), as
/// `ast::Literal::token` finds it: the first non-trivia token.
pub(crate) fn literal_token(node: &GreenNodeData) -> Option<(&GreenTokenData, SyntaxKind)> {
    if node.kind() != raw(SyntaxKind::LITERAL) {
        return None;
    }
    node.children()
        .filter_map(NodeOrToken::into_token)
        .map(|t| (t, kind_of(NodeOrToken::Token(t))))
        .find(|(_, kind)| !kind.is_trivia())
}

/// The value of a `LITERAL` node whose token is an integer (`12`, `0x1f`), as
/// [`Cx::eval`](super::operands::Cx::eval) reads it without the resolver.
pub(crate) fn int_literal(node: &GreenNodeData) -> Option<i64> {
    if node.kind() != raw(SyntaxKind::LITERAL) {
        return None;
    }
    // `literal_token`, comparing raw kinds: only a token that is not the integer needs
    // its kind converted (to skip it if trivia).
    for token in node.children().filter_map(NodeOrToken::into_token) {
        if token.kind() == raw(SyntaxKind::INT_NUMBER) {
            return parse_int(token.text());
        }
        if !kind_of(NodeOrToken::Token(token)).is_trivia() {
            return None;
        }
    }
    None
}

/// `[a:b]` or `[a]` (a `REG_RANGE` node) whose indexes are integer literals: `(a, b)`,
/// `b` being `a` for `[a]`. `None` for any other shape (expressions, symbols, parts
/// missing): the caller reads those through the AST.
pub(crate) fn literal_index(range: &GreenNodeData) -> Option<(i64, i64)> {
    // As `ast::RegRange`: the expressions are the child nodes, `last` needs a colon.
    let (mut first, mut last, mut colon) = (None, None, false);
    for child in range.children() {
        match child {
            NodeOrToken::Token(t) => colon |= t.kind() == raw(SyntaxKind::COLON),
            NodeOrToken::Node(node) if first.is_none() => first = Some(int_literal(node)?),
            NodeOrToken::Node(node) if last.is_none() => last = Some(int_literal(node)?),
            NodeOrToken::Node(_) => {}
        }
    }
    let first = first?;
    Some((first, if colon { last.unwrap_or(first) } else { first }))
}

#[cfg(test)]
mod tests {
    use gcn_syntax::{ClrxLanguage, SyntaxKind};
    use rowan::Language;

    #[test]
    fn raw_kinds_are_the_languages() {
        for n in 0..SyntaxKind::__LAST as u16 {
            let kind = ClrxLanguage::kind_from_raw(rowan::SyntaxKind(n));
            assert_eq!(super::raw(kind), ClrxLanguage::kind_to_raw(kind));
        }
    }
}
