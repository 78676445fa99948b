//! Incremental reparsing after an editor change.
//!
//! Three tries, cheapest first: relex the one token the edit falls in; reparse the
//! smallest statement (or macro-body line) around the edit; reparse the smallest block
//! (`.if … .endif`, `.macro … .endm`, `.rept … .endr`). Each try checks that the
//! result is exactly what a full parse would give (same token boundaries at its edges,
//! one node of a fitting kind, same macro definitions); otherwise the whole file is
//! parsed again. **Incremental and full parses always give the same tree and errors.**

use rowan::{GreenNode, GreenToken, NodeOrToken, TextRange, TextSize};

use crate::ast::{AstNode, MacroDef, PseudoOp};
use crate::lexer::{self, lex};
use crate::parser::{self, is_block_directive, Entry, ParseContext};
use crate::{tree_builder, Parse, SyntaxError, SyntaxKind, SyntaxKind::*, SyntaxNode, SyntaxToken};

/// Replace `delete` with `insert`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextEdit {
    pub delete: TextRange,
    pub insert: String,
}

impl TextEdit {
    pub fn apply(&self, text: &str) -> String {
        let start = usize::from(self.delete.start());
        let end = usize::from(self.delete.end());
        let mut out = String::with_capacity(text.len() + self.insert.len());
        out.push_str(&text[..start]);
        out.push_str(&self.insert);
        out.push_str(&text[end..]);
        out
    }
}

/// Which try produced a reparse.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Path {
    Token,
    Statement,
    Block,
    Full,
}

impl Parse {
    /// The parse of the text after `edit`, reusing what the edit leaves alone.
    pub fn reparse(&self, edit: &TextEdit) -> Parse {
        self.reparse_with_path(edit).0
    }

    pub(crate) fn reparse_with_path(&self, edit: &TextEdit) -> (Parse, Path) {
        let root = self.syntax_node();
        if let Some(p) = relex_token(self, &root, edit) {
            return (p, Path::Token);
        }
        if let Some(p) = reparse_statement(self, &root, edit) {
            return (p, Path::Statement);
        }
        if let Some(p) = reparse_block(self, &root, edit) {
            return (p, Path::Block);
        }
        (crate::parse(&edit.apply(&root.to_string())), Path::Full)
    }
}

fn relex_token(parse: &Parse, root: &SyntaxNode, edit: &TextEdit) -> Option<Parse> {
    let token = root.covering_element(edit.delete).into_token()?;
    let kind = token.kind();
    if !matches!(
        kind,
        WHITESPACE | COMMENT | INT_NUMBER | FLOAT_NUMBER | STRING | CHAR
    ) {
        return None;
    }
    if parse
        .errors
        .iter()
        .any(|e| touches(e.range, token.text_range()))
    {
        return None;
    }
    let new_text = splice(token.text(), token.text_range(), edit);
    if lexer::lex_single(&new_text) != Some(kind) {
        return None;
    }
    let range = token.text_range();
    if !boundaries_hold(token.prev_token(), token.next_token(), &new_text) {
        return None;
    }
    let green = token.replace_with(GreenToken::new(kind.into(), &new_text));
    let errors = shifted_errors(&parse.errors, range, new_len(range, edit), Vec::new());
    Some(Parse { green, errors })
}

fn reparse_statement(parse: &Parse, root: &SyntaxNode, edit: &TextEdit) -> Option<Parse> {
    let node = covering_ancestor(root, edit.delete, |n| is_statement_kind(n.kind()))?;
    if !stands_alone(&node) {
        return None;
    }
    let old_directive = directive_name(&node);
    if old_directive.as_deref().is_some_and(is_block_directive) {
        return None;
    }
    let new_text = splice(&node.to_string(), node.text_range(), edit);
    let entry = if node.kind() == LINE {
        Entry::BodyLine
    } else {
        Entry::Statements
    };
    if entry == Entry::BodyLine && line_affects_nesting(&new_text, &node) {
        return None;
    }
    let (children, errors) = parse_fragment(root, &node, &new_text, entry)?;
    let [NodeOrToken::Node(new)] = children.as_slice() else {
        return None;
    };
    let kind = SyntaxKind::from_raw(new.kind());
    let fits = if node.kind() == LINE {
        kind == LINE
    } else {
        is_statement_kind(kind) && kind != LINE
    };
    if !fits {
        return None;
    }
    let new_node = SyntaxNode::new_root(new.clone());
    if directive_name(&new_node)
        .as_deref()
        .is_some_and(is_block_directive)
    {
        return None;
    }
    Some(replace_node(parse, &node, new.clone(), errors))
}

fn reparse_block(parse: &Parse, root: &SyntaxNode, edit: &TextEdit) -> Option<Parse> {
    let is_block = |n: &SyntaxNode| matches!(n.kind(), CONDITIONAL | MACRO_DEF | REPEAT);
    let node = covering_ancestor(root, edit.delete, is_block)?;
    if !block_is_closed(&node) {
        return None;
    }
    let new_text = splice(&node.to_string(), node.text_range(), edit);
    let (children, errors) = parse_fragment(root, &node, &new_text, Entry::Statements)?;
    let [NodeOrToken::Node(new)] = children.as_slice() else {
        return None;
    };
    let new_node = SyntaxNode::new_root(new.clone());
    if new_node.kind() != node.kind() || !block_is_closed(&new_node) {
        return None;
    }
    if macro_effects(&node) != macro_effects(&new_node) {
        return None;
    }
    Some(replace_node(parse, &node, new.clone(), errors))
}

/// Whether separators (or the file's edges) stand on both sides of a statement, so that
/// reparsing it alone cannot change how its neighbours parse (`a: s_nop` is two
/// statements with none between them).
fn stands_alone(node: &SyntaxNode) -> bool {
    let at_file_level = node.parent().is_some_and(|p| p.kind() == SOURCE_FILE);
    let is_separator = |e: Option<crate::SyntaxElement>| match e {
        None => at_file_level,
        Some(e) => e.kind().is_statement_end(),
    };
    let mut prev = node.prev_sibling_or_token();
    while prev.as_ref().is_some_and(|e| e.kind().is_trivia()) {
        prev = prev.and_then(|e| e.prev_sibling_or_token());
    }
    let mut next = node.next_sibling_or_token();
    while next.as_ref().is_some_and(|e| e.kind().is_trivia()) {
        next = next.and_then(|e| e.next_sibling_or_token());
    }
    is_separator(prev) && is_separator(next)
}

fn is_statement_kind(kind: SyntaxKind) -> bool {
    matches!(
        kind,
        LABEL | ASSIGNMENT | PSEUDO_OP | INSTRUCTION | MACRO_CALL | LINE
    )
}

/// The smallest ancestor of the edited range that satisfies `pred`.
fn covering_ancestor(
    root: &SyntaxNode,
    range: TextRange,
    pred: impl Fn(&SyntaxNode) -> bool,
) -> Option<SyntaxNode> {
    let element = root.covering_element(range);
    let start = match element {
        NodeOrToken::Node(n) => n,
        NodeOrToken::Token(t) => t.parent()?,
    };
    start
        .ancestors()
        .find(|n| pred(n) && n.text_range().contains_range(range))
}

fn directive_name(node: &SyntaxNode) -> Option<String> {
    PseudoOp::cast(node.clone()).map(|p| p.name())
}

/// A body line that opens or closes a nested block changes where the body ends. Any
/// block word anywhere in the line counts: labels built by substitution hide the head.
fn line_affects_nesting(new_text: &str, old: &SyntaxNode) -> bool {
    let has_block_word = |text: &str| {
        let (tokens, _) = lex(text);
        let mut pos = 0usize;
        tokens.iter().any(|t| {
            let word = &text[pos..pos + t.len as usize];
            pos += t.len as usize;
            t.kind == NAME && is_block_directive(&word.to_ascii_lowercase())
        })
    };
    has_block_word(new_text) || has_block_word(&old.to_string())
}

fn block_is_closed(node: &SyntaxNode) -> bool {
    match node.kind() {
        CONDITIONAL => crate::ast::Conditional::cast(node.clone())
            .and_then(|c| c.end())
            .is_some(),
        MACRO_DEF => MacroDef::cast(node.clone()).and_then(|m| m.end()).is_some(),
        REPEAT => crate::ast::Repeat::cast(node.clone())
            .and_then(|r| r.end())
            .is_some(),
        _ => false,
    }
}

/// Macro definitions and purges inside `node`, in order: what later statements see.
fn macro_effects(node: &SyntaxNode) -> Vec<(bool, String)> {
    let mut effects = Vec::new();
    collect_macro_effects(node, node.text_range().end(), &mut effects);
    effects
}

/// Macro definitions and purges in `node` that start before `before`, in order.
///
/// It walks the green tree, without making a cursor per node, and looks only where a
/// definition or purge can stand: statements, and the nodes that hold statements
/// (conditionals and their branches). Most statements (instructions, labels,
/// assignments, macro calls) are skipped by their kind alone, so a long file costs a
/// look at each of its statements, not at each of its nodes.
fn collect_macro_effects(node: &SyntaxNode, before: TextSize, out: &mut Vec<(bool, String)>) {
    if node.text_range().start() >= before {
        return;
    }
    if let Some(def) = MacroDef::cast(node.clone()) {
        // Its body is raw lines: nothing inside defines or purges.
        if let Some(name) = def.name_token() {
            out.push((true, name.text().to_ascii_lowercase()));
        }
        return;
    }
    green_macro_effects(
        node.green().as_ref(),
        node.text_range().start(),
        before,
        out,
    );
}

fn green_macro_effects(
    green: &rowan::GreenNodeData,
    start: TextSize,
    before: TextSize,
    out: &mut Vec<(bool, String)>,
) {
    let mut offset = start;
    for child in green.children() {
        if offset >= before {
            break;
        }
        let child_start = offset;
        offset += child.text_len();
        let NodeOrToken::Node(child) = child else {
            continue;
        };
        match SyntaxKind::from_raw(child.kind()) {
            INSTRUCTION | LABEL | ASSIGNMENT | MACRO_CALL | LINE => {}
            MACRO_DEF => {
                let def = MacroDef::cast(SyntaxNode::new_root(child.to_owned()))
                    .expect("a MACRO_DEF node");
                if let Some(name) = def.name_token() {
                    out.push((true, name.text().to_ascii_lowercase()));
                }
            }
            PSEUDO_OP => {
                if !starts_with_purgem(child) {
                    continue;
                }
                let op = PseudoOp::cast(SyntaxNode::new_root(child.to_owned()))
                    .expect("a PSEUDO_OP node");
                if op.name() == ".purgem" {
                    if let Some(arg) = op.args().next().and_then(|a| a.raw_tokens().next()) {
                        out.push((false, arg.text().to_ascii_lowercase()));
                    }
                }
            }
            _ => green_macro_effects(child, child_start, before, out),
        }
    }
}

/// Whether a pseudo-op node's first token could be `.purgem` (any case).
fn starts_with_purgem(node: &rowan::GreenNodeData) -> bool {
    let mut node = node;
    loop {
        match node.children().next() {
            Some(NodeOrToken::Token(t)) => {
                return t.text().eq_ignore_ascii_case(".purgem") || t.kind() == WHITESPACE.into()
            }
            Some(NodeOrToken::Node(n)) => node = n,
            None => return false,
        }
    }
}

/// Macros known at `offset`, as the full parse would know them.
fn context_at(root: &SyntaxNode, offset: TextSize) -> ParseContext {
    let mut effects = Vec::new();
    collect_macro_effects(root, offset, &mut effects);
    let mut ctx = ParseContext::default();
    for (define, name) in effects {
        if define {
            ctx.macros.insert(name);
        } else {
            ctx.macros.remove(&name);
        }
    }
    ctx
}

type Fragment = (Vec<NodeOrToken<GreenNode, GreenToken>>, Vec<SyntaxError>);

/// Parses `new_text` standing where `node` stood; `None` if its edges would lex
/// differently in place (a token merging across the edge, a comment left open).
fn parse_fragment(
    root: &SyntaxNode,
    node: &SyntaxNode,
    new_text: &str,
    entry: Entry,
) -> Option<Fragment> {
    let (Some(first), Some(last)) = (node.first_token(), node.last_token()) else {
        return None;
    };
    if !boundaries_hold(first.prev_token(), last.next_token(), new_text) {
        return None;
    }
    let (tokens, lex_errors) = lex(new_text);
    let ctx = context_at(root, node.text_range().start());
    let output = parser::parse_tokens(new_text, &tokens, entry, ctx);
    let children = tree_builder::build_fragment(new_text, &tokens, output.events);
    let offset = node.text_range().start();
    let errors = crate::syntax_errors(&tokens, lex_errors, output.errors, &output.quiet)
        .into_iter()
        .map(|e| SyntaxError {
            range: e.range + offset,
            message: e.message,
        })
        .collect();
    Some((children, errors))
}

/// Whether `new_text` in place of what stands between the tokens `before` and `after`
/// keeps token boundaries at both of its edges when lexed together with them. (The
/// neighbours are found from the replaced element, not by a search from the root,
/// whose children a long file has by the hundred thousand.)
fn boundaries_hold(
    before: Option<SyntaxToken>,
    after: Option<SyntaxToken>,
    new_text: &str,
) -> bool {
    let prefix = before.map(|t| t.text().to_string()).unwrap_or_default();
    let suffix = after.map(|t| t.text().to_string()).unwrap_or_default();
    let window = format!("{prefix}{new_text}{suffix}");
    let (tokens, _) = lex(&window);
    let mut offsets = Vec::with_capacity(tokens.len() + 1);
    let mut pos = 0usize;
    offsets.push(0);
    for t in &tokens {
        pos += t.len as usize;
        offsets.push(pos);
    }
    let start = prefix.len();
    let end = prefix.len() + new_text.len();
    offsets.contains(&start) && offsets.contains(&end)
}

fn splice(text: &str, range: TextRange, edit: &TextEdit) -> String {
    let local = TextEdit {
        delete: edit.delete - range.start(),
        insert: edit.insert.clone(),
    };
    local.apply(text)
}

fn new_len(range: TextRange, edit: &TextEdit) -> TextSize {
    range.len() - edit.delete.len() + TextSize::of(edit.insert.as_str())
}

fn touches(error: TextRange, range: TextRange) -> bool {
    error.start() <= range.end() && range.start() <= error.end()
}

fn replace_node(
    parse: &Parse,
    node: &SyntaxNode,
    new: GreenNode,
    new_errors: Vec<SyntaxError>,
) -> Parse {
    let range = node.text_range();
    let len = new.text_len();
    // rowan replaces a node in place only with one of the same kind: go through the parent.
    let green = match node.parent() {
        Some(parent) => {
            let new_parent = parent.green().replace_child(node.index(), new.into());
            parent.replace_with(new_parent)
        }
        None => new,
    };
    let errors = shifted_errors(&parse.errors, range, len, new_errors);
    Parse { green, errors }
}

/// Errors outside `old` kept (shifted past it), those inside replaced by `new_errors`.
fn shifted_errors(
    errors: &[SyntaxError],
    old: TextRange,
    new_len: TextSize,
    new_errors: Vec<SyntaxError>,
) -> Vec<SyntaxError> {
    let mut out: Vec<SyntaxError> = errors
        .iter()
        .filter(|e| !(e.range.start() >= old.start() && e.range.end() <= old.end()))
        .map(|e| {
            if e.range.start() >= old.end() {
                let start = e.range.start() - old.end() + old.start() + new_len;
                SyntaxError {
                    range: TextRange::at(start, e.range.len()),
                    message: e.message.clone(),
                }
            } else {
                e.clone()
            }
        })
        .collect();
    out.extend(new_errors);
    out.sort_by_key(|e| (e.range.start(), e.range.end()));
    out
}

impl SyntaxKind {
    fn from_raw(raw: rowan::SyntaxKind) -> SyntaxKind {
        <crate::ClrxLanguage as rowan::Language>::kind_from_raw(raw)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path_of(text: &str, offset: u32, delete: u32, insert: &str) -> Path {
        let at = TextSize::from(offset);
        let edit = TextEdit {
            delete: TextRange::at(at, TextSize::from(delete)),
            insert: insert.into(),
        };
        let (incremental, path) = crate::parse(text).reparse_with_path(&edit);
        let full = crate::parse(&edit.apply(text));
        assert_eq!(incremental, full);
        path
    }

    #[test]
    fn each_edit_takes_the_cheapest_path() {
        let text = "s_add_u32 s1, s2, 3 # c\n.if 1\n  v_nop\n.endif\n.macro m\n  s_nop 0\n.endm\n";
        assert_eq!(path_of(text, 18, 1, "42"), Path::Token);
        assert_eq!(path_of(text, 22, 0, "x"), Path::Token);
        assert_eq!(path_of(text, 0, 0, "x"), Path::Statement);
        assert_eq!(path_of(text, 14, 0, "+"), Path::Statement);
        assert_eq!(path_of(text, 36, 0, "\n s_nop 0"), Path::Block);
        assert_eq!(path_of(text, 59, 0, " 1"), Path::Statement);
        assert_eq!(path_of(text, 28, 1, "2"), Path::Token);
        assert_eq!(path_of(text, 27, 1, "2"), Path::Block);
        assert_eq!(path_of(text, 30, 0, ".endif\n"), Path::Full);
    }

    #[test]
    fn a_comment_whose_extent_changes_is_not_relexed_alone() {
        let text = ".byte 1 # c\n.byte 2\n.byte 3 # d \\\n.byte 4\n.byte 5, /* e */ 6\n";
        // A `\` at the end of the comment carries it over the next line.
        assert_ne!(path_of(text, 11, 0, " \\"), Path::Token);
        // Without its `\`, the comment ends on its own line.
        assert_ne!(path_of(text, 32, 1, ""), Path::Token);
        // An edit inside a continued comment keeps its extent.
        assert_eq!(path_of(text, 36, 0, "x"), Path::Token);
        // A line break in a block comment ends the statement.
        assert_eq!(path_of(text, 55, 0, "\n"), Path::Full);
        assert_eq!(path_of(text, 55, 0, "\\\n"), Path::Statement);
    }
}
