//! Parameters of macros and repetitions: `\name` in the body of a `.macro` is its
//! parameter `name`, in the body of an `.irp`/`.irpc` its variable. The assembler
//! substitutes them as text before it reads the body, so they are found here from the
//! syntax tree alone: for go to definition, references, highlights, rename and hover.
//!
//! A body is kept as raw lines; a `.macro`, `.irp` or `.irpc` written inside one opens
//! a scope of its own for the names its enclosing block does not have (the enclosing
//! block substitutes its own parameters first, in the inner body too).

use gcn_syntax::{Parse, SyntaxKind, SyntaxNode, SyntaxToken, TextRange, TextSize};

/// A parameter and where the body uses it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Parameter {
    pub name: String,
    /// Its name in the `.macro`/`.irp`/`.irpc` line.
    pub declaration: TextRange,
    /// The names after `\` that mean it (the `\` excluded), by place.
    pub uses: Vec<TextRange>,
    /// `.macro`, `.irp` or `.irpc`.
    pub owner_kind: &'static str,
    /// The macro's name (none for a repetition).
    pub owner_name: Option<String>,
    /// What follows the name in its declaration (`=1`, `:req`), or a repetition's values.
    pub detail: String,
    /// The other parameters declared with it.
    pub siblings: Vec<String>,
}

/// The parameter whose declaration or use is at `offset`.
pub fn parameter_at(parse: &Parse, offset: TextSize) -> Option<Parameter> {
    let root = parse.syntax_node();
    let at = crate::scan::token_at_offset(&root, offset);
    // A name, or a string or character literal with `\name` inside.
    let may_hold = |t: &SyntaxToken| {
        matches!(
            t.kind(),
            SyntaxKind::NAME | SyntaxKind::STRING | SyntaxKind::CHAR
        )
    };
    let token = at
        .clone()
        .right_biased()
        .filter(may_hold)
        .or_else(|| at.left_biased().filter(may_hold))?;
    let block = token
        .parent_ancestors()
        .find(|n| matches!(n.kind(), SyntaxKind::MACRO_DEF | SyntaxKind::REPEAT))?;
    let at_offset = |r: &TextRange| r.contains_inclusive(offset);
    scopes_of(&block)
        .into_iter()
        .find(|p| at_offset(&p.declaration) || p.uses.iter().any(at_offset))
}

/// Where `\@` is written, in a macro's body, when `offset` is on it.
pub fn expansion_number_at(parse: &Parse, offset: TextSize) -> Option<TextRange> {
    let root = parse.syntax_node();
    let at = crate::scan::token_at_offset(&root, offset);
    [at.clone().right_biased(), at.left_biased()]
        .into_iter()
        .flatten()
        .find_map(|t| {
            let (backslash, sign) = match t.kind() {
                SyntaxKind::BACKSLASH => (t.clone(), t.next_token()?),
                SyntaxKind::AT => (t.prev_token()?, t.clone()),
                _ => return None,
            };
            let glued = backslash.kind() == SyntaxKind::BACKSLASH
                && sign.kind() == SyntaxKind::AT
                && backslash.text_range().end() == sign.text_range().start();
            let in_macro = backslash
                .parent_ancestors()
                .any(|n| n.kind() == SyntaxKind::MACRO_DEF);
            (glued && in_macro).then(|| backslash.text_range().cover(sign.text_range()))
        })
}

/// The parameters a `\name` written at `offset` may name: those of the enclosing
/// `.macro`/`.irp`/`.irpc` and of the blocks opened in its body before `offset` and
/// still open there, the enclosing block's first.
pub fn visible_at(parse: &Parse, offset: TextSize) -> Vec<Parameter> {
    let root = parse.syntax_node();
    let Some(token) = crate::scan::token_at_offset(&root, offset).left_biased() else {
        return Vec::new();
    };
    let Some(block) = token
        .parent_ancestors()
        .find(|n| matches!(n.kind(), SyntaxKind::MACRO_DEF | SyntaxKind::REPEAT))
    else {
        return Vec::new();
    };
    let (all, outer, open) = scan(&block, Some(offset));
    let mut visible: Vec<usize> = (0..outer).collect();
    for (_, params) in &open {
        for &i in params {
            if !visible.iter().any(|&v| all[v].name == all[i].name) {
                visible.push(i);
            }
        }
    }
    visible.into_iter().map(|i| all[i].clone()).collect()
}

/// The parameters of `block` (a `MACRO_DEF` or `REPEAT`) and of the blocks written in
/// its body, each with its uses.
fn scopes_of(block: &SyntaxNode) -> Vec<Parameter> {
    scan(block, None).0
}

/// The blocks opened in a body and not closed yet: whether each is a macro, and the
/// indices of its parameters.
type OpenBlocks = Vec<(bool, Vec<usize>)>;

/// The parameters of `block` and of the blocks in its body, with their uses (up to
/// `until`, if given); how many of them are `block`'s own (they come first); the
/// blocks open at `until` (or at the end).
fn scan(block: &SyntaxNode, until: Option<TextSize>) -> (Vec<Parameter>, usize, OpenBlocks) {
    let Some(head) = block.children().find(|n| n.kind() == SyntaxKind::PSEUDO_OP) else {
        return (Vec::new(), 0, Vec::new());
    };
    let mut out: Vec<Parameter> = Vec::new();
    let outer = declared(&significant_tokens(&head));
    let outer_count = outer.len();
    out.extend(outer);
    let Some(body) = block.children().find(|n| n.kind() == SyntaxKind::BODY) else {
        return (out, outer_count, Vec::new());
    };
    // Blocks opened in the body: (is a macro, indices in `out` of their parameters).
    let mut open: OpenBlocks = Vec::new();
    for line in body.children().filter(|n| n.kind() == SyntaxKind::LINE) {
        if until.is_some_and(|u| line.text_range().end() >= u) {
            break;
        }
        let tokens = significant_tokens(&line);
        // Uses first: a `.macro` line's defaults may use the enclosing parameters.
        for (name, range) in uses_in(&tokens) {
            let inner = open.iter().rev().flat_map(|(_, ps)| ps.iter().rev());
            let found = (0..outer_count)
                .find(|&i| out[i].name == name)
                .or_else(|| inner.copied().find(|&i| out[i].name == name));
            if let Some(i) = found {
                out[i].uses.push(range);
            }
        }
        let head = tokens.first().map(|t| t.text().to_ascii_lowercase());
        match head.as_deref() {
            Some(".macro" | ".irp" | ".irpc") => {
                let is_macro = head.as_deref() == Some(".macro");
                let first = out.len();
                out.extend(declared(&tokens));
                open.push((is_macro, (first..out.len()).collect()));
            }
            Some(".rept" | ".for" | ".while") => open.push((false, Vec::new())),
            Some(".endm" | ".endmacro") => {
                if let Some(i) = open.iter().rposition(|(m, _)| *m) {
                    open.truncate(i);
                }
            }
            Some(".endr" | ".endrept") => {
                if let Some(i) = open.iter().rposition(|(m, _)| !*m) {
                    open.truncate(i);
                }
            }
            _ => {}
        }
    }
    (out, outer_count, open)
}

/// The `\name`s of a line's tokens, each with where its name is: a `\` token right
/// before a name, and inside strings and character literals, where the reference
/// substitutes parameters too (the text is read before its escapes: `"\\x"` is a `\`
/// and `\x`).
fn uses_in(tokens: &[SyntaxToken]) -> Vec<(String, TextRange)> {
    let mut out = Vec::new();
    for (i, t) in tokens.iter().enumerate() {
        match t.kind() {
            SyntaxKind::BACKSLASH => {
                let Some(next) = tokens.get(i + 1) else {
                    continue;
                };
                if next.kind() == SyntaxKind::NAME
                    && t.text_range().end() == next.text_range().start()
                {
                    out.push((next.text().to_string(), next.text_range()));
                }
            }
            SyntaxKind::STRING | SyntaxKind::CHAR => {
                let start = t.text_range().start();
                for (at, name) in backslash_names(t.text()) {
                    let range =
                        TextRange::at(start + TextSize::from(at as u32), TextSize::of(name));
                    out.push((name.to_string(), range));
                }
            }
            _ => {}
        }
    }
    out
}

/// The names after each `\` in `text` (`\()` separates, `\` before anything else is
/// kept), with where each name starts.
fn backslash_names(text: &str) -> Vec<(usize, &str)> {
    let bytes = text.as_bytes();
    let is_name_byte = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'$');
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'\\' {
            i += 1;
            continue;
        }
        let start = i + 1;
        let starts_a_name = bytes
            .get(start)
            .is_some_and(|b| b.is_ascii_alphabetic() || matches!(b, b'_' | b'.' | b'$'));
        if !starts_a_name {
            i = start;
            continue;
        }
        let end = (start..bytes.len())
            .find(|&j| !is_name_byte(bytes[j]))
            .unwrap_or(bytes.len());
        out.push((start, &text[start..end]));
        i = end;
    }
    out
}

fn significant_tokens(node: &SyntaxNode) -> Vec<SyntaxToken> {
    node.descendants_with_tokens()
        .filter_map(|e| e.into_token())
        .filter(|t| !t.kind().is_trivia())
        .collect()
}

/// The parameters a `.macro NAME a, b=1`, `.irp x, …` or `.irpc x, …` line declares
/// (its tokens, the pseudo-op first).
fn declared(tokens: &[SyntaxToken]) -> Vec<Parameter> {
    let Some(op) = tokens.first() else {
        return Vec::new();
    };
    let op_name = op.text().to_ascii_lowercase();
    let mut out = match op_name.as_str() {
        ".macro" => macro_parameters(&tokens[1..]),
        ".irp" => repetition_variable(&tokens[1..], ".irp"),
        ".irpc" => repetition_variable(&tokens[1..], ".irpc"),
        _ => Vec::new(),
    };
    let names: Vec<String> = out.iter().map(|p| p.name.clone()).collect();
    for p in &mut out {
        p.siblings = names.iter().filter(|n| **n != p.name).cloned().collect();
    }
    out
}

/// `NAME a, b=1, c:req d`: parameters follow the macro's name, separated by commas
/// or blanks; after a parameter, `:` brings its qualifier and `=` its default. A name
/// right after `:` or `=` is part of those; after a blank, it is the next parameter.
fn macro_parameters(tokens: &[SyntaxToken]) -> Vec<Parameter> {
    let Some((name, rest)) = tokens.split_first() else {
        return Vec::new();
    };
    let mut out: Vec<Parameter> = Vec::new();
    let mut previous = name;
    // Right after the macro's name or a comma.
    let mut at_start = true;
    for t in rest {
        let blank_before = t.text_range().start() > previous.text_range().end();
        let after_sign = matches!(previous.kind(), SyntaxKind::EQ | SyntaxKind::COLON);
        let starts = t.kind() == SyntaxKind::NAME && (at_start || (blank_before && !after_sign));
        if starts {
            out.push(Parameter {
                name: t.text().to_string(),
                declaration: t.text_range(),
                uses: Vec::new(),
                owner_kind: ".macro",
                owner_name: Some(name.text().to_string()),
                detail: String::new(),
                siblings: Vec::new(),
            });
        } else if t.kind() != SyntaxKind::COMMA {
            if let Some(p) = out.last_mut() {
                p.detail.push_str(t.text());
            }
        }
        at_start = t.kind() == SyntaxKind::COMMA;
        previous = t;
    }
    out
}

/// `x, v1, v2`: the variable and its values.
fn repetition_variable(tokens: &[SyntaxToken], kind: &'static str) -> Vec<Parameter> {
    let Some(name) = tokens.first().filter(|t| t.kind() == SyntaxKind::NAME) else {
        return Vec::new();
    };
    let values = tokens
        .iter()
        .skip_while(|t| t.kind() != SyntaxKind::COMMA)
        .skip(1)
        .map(|t| t.text())
        .collect::<Vec<_>>()
        .join(" ")
        .replace(" ,", ",");
    vec![Parameter {
        name: name.text().to_string(),
        declaration: name.text_range(),
        uses: Vec::new(),
        owner_kind: kind,
        owner_name: None,
        detail: values,
        siblings: Vec::new(),
    }]
}

/// The edits that rename `p` to `new_name` (its declaration and uses), or why not.
pub fn rename(p: &Parameter, new_name: &str) -> Result<Vec<(TextRange, String)>, String> {
    let mut chars = new_name.chars();
    let valid = chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !valid {
        return Err(format!(
            "`{new_name}` is not a parameter name (a letter or `_`, then letters, digits or `_`)"
        ));
    }
    if p.siblings.iter().any(|s| s == new_name) {
        return Err(format!(
            "`{new_name}` already names another parameter of this `{}`",
            p.owner_kind
        ));
    }
    let mut edits: Vec<(TextRange, String)> = std::iter::once(p.declaration)
        .chain(p.uses.iter().copied())
        .map(|r| (r, new_name.to_string()))
        .collect();
    edits.sort_by_key(|(r, _)| (r.start(), r.end()));
    Ok(edits)
}

/// Of `p`'s declaration and uses, the one at `offset`.
pub fn range_at(p: &Parameter, offset: TextSize) -> TextRange {
    std::iter::once(p.declaration)
        .chain(p.uses.iter().copied())
        .find(|r| r.contains_inclusive(offset))
        .unwrap_or(p.declaration)
}

/// The hover of a parameter.
pub fn hover_text(p: &Parameter) -> String {
    let written = format!("`\\{}`", p.name);
    let uses = match p.uses.len() {
        0 => format!("{written} does not occur in its body"),
        1 => format!("used once as {written} in its body"),
        n => format!("used {n} times as {written} in its body"),
    };
    match (&p.owner_name, p.owner_kind) {
        (Some(m), _) => {
            let detail = if p.detail.is_empty() {
                String::new()
            } else {
                format!(" (`{}{}`)", p.name, p.detail)
            };
            format!("**{}** — parameter of macro `{m}`{detail}; {uses}", p.name)
        }
        (None, kind) => format!(
            "**{}** — the variable of this `{kind}` (values: {}); {uses}",
            p.name, p.detail
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Completion after `\\` offers the enclosing macro's parameters, then the variables
    /// of the blocks open in its body.
    #[test]
    fn a_block_opened_in_the_body_adds_its_variable() {
        let text = ".macro jump target, count=1\n    .irp reg, v1, v2\n        v_mov_b32 \\, 0\n    .endr\n.endm\n";
        let parse = gcn_syntax::parse(text);
        let offset = TextSize::from(text.find("\\,").unwrap() as u32 + 1);
        let v: Vec<String> = visible_at(&parse, offset)
            .into_iter()
            .map(|p| p.name)
            .collect();
        assert_eq!(v, ["target", "count", "reg"]);
    }
}
