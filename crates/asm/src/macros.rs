//! Macros, repetitions and includes: text expanded, then parsed by the same parser.
//!
//! A body is kept as cleaned text (comments blanked, continued lines joined) with the
//! source location of every piece; an expansion is built from it piece by piece, so a
//! diagnostic inside it points at the body (or at the argument's use), with the chain of
//! calls in front. Arguments, substitution and `local` names follow the reference:
//!
//! - arguments are separated by commas, or by blanks between tokens of the same kind
//!   (`a b` is two arguments, `a + b` one); `"…"` quotes; with the alternate syntax
//!   `<…>`, `'…'` and `"…"` quote with `!` escaping, and `%expr` passes the value;
//!   without it `\%expr` does;
//! - in a macro body `\name` is replaced by the argument, `\@` by the number of the
//!   expansion, `\()` by nothing; with the alternate syntax bare names are replaced too,
//!   and `local a, b` gives `a`, `b` unique names `.LL0`, `.LL1`, … in later lines;
//! - in an `.irp`/`.irpc` body only `\name` and `\()`; `.rept`, `.for` and `.while`
//!   bodies are repeated unchanged (and parsed once).

use std::rc::Rc;

use gcn_syntax::ast::{self, AstNode};
use gcn_syntax::{SyntaxNode, TextRange};

use crate::assembler::{Asm, Ctx, CtxKind, Flow};
use crate::diag::Severity;
use crate::expr::{Ir, Value};
use crate::source::Location;
use crate::text::{clean_text, Mapper, Text};

#[derive(Debug)]
pub(crate) struct Param {
    name: String,
    default: String,
    required: bool,
    vararg: bool,
}

#[derive(Debug)]
pub(crate) struct Macro {
    name: String,
    params: Vec<Param>,
    body: Rc<Text>,
    /// Ends of the body's statements (line breaks and `;` outside quotes).
    ends: Vec<usize>,
    /// Whether some statement of the body is a `local` statement.
    has_locals: bool,
    /// Where the definition is (for bodies that are empty).
    loc: Location,
}

impl Macro {
    /// The name as its `.macro` writes it.
    pub(crate) fn name(&self) -> &str {
        &self.name
    }
}

// ---- character classes ---------------------------------------------------------------

/// The reference's token classes of ASCII characters (from 0x20): a character continues
/// a token of the same class when bit 7 is set.
const TOKEN_CLASS: [u8; 96] = [
    0x00, 0x01, 0x02, 0x03, 0x90, 0x85, 0x06, 0x07, // space ! " # $ % & '
    0x88, 0x88, 0x8a, 0x0b, 0x0c, 0x8d, 0x90, 0x0f, // ( ) * + , - . /
    0x90, 0x90, 0x90, 0x90, 0x90, 0x90, 0x90, 0x90, // 0-7
    0x90, 0x90, 0x20, 0x21, 0x22, 0x23, 0x24, 0x25, // 8 9 : ; < = > ?
    0x26, 0x90, 0x90, 0x90, 0x90, 0x90, 0x90, 0x90, // @ A-G
    0x90, 0x90, 0x90, 0x90, 0x90, 0x90, 0x90, 0x90, // H-O
    0x90, 0x90, 0x90, 0x90, 0x90, 0x90, 0x90, 0x90, // P-W
    0x90, 0x90, 0x90, 0x91, 0x92, 0x93, 0x14, 0x90, // X Y Z [ \ ] ^ _
    0x16, 0x90, 0x90, 0x90, 0x90, 0x90, 0x90, 0x90, // ` a-g
    0x90, 0x90, 0x90, 0x90, 0x90, 0x90, 0x90, 0x90, // h-o
    0x90, 0x90, 0x90, 0x90, 0x90, 0x90, 0x90, 0x90, // p-w
    0x90, 0x90, 0x90, 0x97, 0x18, 0x99, 0x1a, 0x1b, // x y z { | } ~ DEL
];

pub(crate) fn token_class(b: u8) -> u8 {
    if (0x20..0x80).contains(&b) {
        TOKEN_CLASS[(b - 0x20) as usize]
    } else {
        0
    }
}

fn is_space(b: u8) -> bool {
    b == b' ' || b == b'\t' || b == b'\r' || b == b'\n' || b == 0x0b || b == 0x0c
}

fn is_name_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || matches!(b, b'_' | b'.' | b'$')
}

fn is_name_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'$')
}

/// Length of the name at `pos` (0 if none).
pub(crate) fn name_len(bytes: &[u8], pos: usize) -> usize {
    if pos >= bytes.len() || !is_name_start(bytes[pos]) {
        return 0;
    }
    1 + bytes[pos + 1..]
        .iter()
        .take_while(|&&b| is_name_char(b))
        .count()
}

fn skip_spaces(bytes: &[u8], pos: &mut usize) {
    while *pos < bytes.len() && is_space(bytes[*pos]) {
        *pos += 1;
    }
}

/// A range of the built text for a diagnostic: its start maps back through the text.
pub(crate) struct TextCtx<'a> {
    pub text: &'a Text,
    pub fallback: Location,
}

impl TextCtx<'_> {
    pub fn loc(&self, pos: usize) -> Location {
        self.text.location(pos, self.fallback)
    }
}

fn text_error(asm: &mut Asm, ctx: &Ctx, tc: &TextCtx, pos: usize, message: impl Into<String>) {
    asm.diag_at(
        tc.loc(pos),
        ctx.origin.clone(),
        Severity::Error,
        message.into(),
    );
}

fn text_warning(asm: &mut Asm, ctx: &Ctx, tc: &TextCtx, pos: usize, message: impl Into<String>) {
    asm.diag_at(
        tc.loc(pos),
        ctx.origin.clone(),
        Severity::Warning,
        message.into(),
    );
}

// ---- expressions inside raw text -------------------------------------------------------

/// Parses the expression at `pos` of a built text (as far as it goes) and evaluates it
/// now. Returns the value and moves `pos` past the expression.
pub(crate) fn eval_text_expr(
    asm: &mut Asm,
    ctx: &Ctx,
    tc: &TextCtx,
    pos: &mut usize,
) -> Option<Value> {
    let start = *pos;
    let mut snippet = Text::default();
    snippet.push_fixed("x=", tc.loc(start));
    tc.text
        .copy_range_to(start, tc.text.text.len(), &mut snippet);
    let parse = gcn_syntax::parse(&snippet.text);
    let first = parse.tree().statements().next();
    let Some(ast::Statement::Assignment(a)) = first else {
        text_error(asm, ctx, tc, start, "expected an expression");
        return None;
    };
    let Some(value) = a.value() else {
        text_error(asm, ctx, tc, start, "expected an expression");
        return None;
    };
    let end: u32 = value.syntax().text_range().end().into();
    *pos = start + (end as usize).saturating_sub(2);
    let inner = Ctx::new(
        snippet.mapper(tc.loc(start)),
        ctx.origin.clone(),
        ctx.depth,
        ctx.kind,
    );
    for e in parse.errors() {
        if u32::from(e.range.start()) < end {
            asm.error_at(&inner, e.range, e.message.clone());
            return None;
        }
    }
    asm.eval_now(&inner, &value)
}

// ---- macro arguments -------------------------------------------------------------------

/// One argument value at `pos` (the reference's rules; see the module docs), with the
/// places of its bytes at the call (see [`Text::push_substituted`]). `None` after
/// reporting an error.
fn macro_arg_value(
    asm: &mut Asm,
    ctx: &Ctx,
    tc: &TextCtx,
    pos: &mut usize,
    alt: bool,
) -> Option<Text> {
    let bytes = tc.text.text.as_bytes();
    let end = bytes.len();
    // The positions of the value's bytes in the call's text.
    let mut kept = Vec::new();
    if *pos < end
        && ((alt && bytes[*pos] == b'%')
            || (!alt && bytes[*pos] == b'\\' && bytes.get(*pos + 1) == Some(&b'%')))
    {
        *pos += if alt { 1 } else { 2 };
        let value = eval_text_expr(asm, ctx, tc, pos)?;
        return match value {
            Value::Abs(v) => Some(Text {
                text: v.to_string(),
                pieces: Vec::new(),
            }),
            Value::Rel { .. } => {
                text_error(asm, ctx, tc, *pos, "expression must be absolute");
                None
            }
        };
    }
    if alt && *pos < end && matches!(bytes[*pos], b'<' | b'\'' | b'"') {
        let start = *pos;
        let term = if bytes[*pos] == b'<' {
            b'>'
        } else {
            bytes[*pos]
        };
        *pos += 1;
        let mut escape = false;
        while *pos < end && (bytes[*pos] != term || escape) {
            if !escape && bytes[*pos] == b'!' {
                escape = true;
            } else {
                escape = false;
                kept.push(*pos);
            }
            *pos += 1;
        }
        if *pos == end {
            text_error(asm, ctx, tc, start, "unterminated quoted string");
            return None;
        }
        *pos += 1;
        return Some(bytes_of(tc.text, &kept));
    }
    if *pos < end && bytes[*pos] == b'"' {
        let start = *pos;
        *pos += 1;
        let mut backslashes = 0;
        while *pos < end && (bytes[*pos] != b'"' || backslashes % 2 == 1) {
            if bytes[*pos] == b'\\' {
                backslashes += 1;
            } else {
                backslashes = 0;
            }
            kept.push(*pos);
            *pos += 1;
        }
        if *pos == end {
            text_error(asm, ctx, tc, start, "unterminated quoted string");
            return None;
        }
        *pos += 1;
        return Some(bytes_of(tc.text, &kept));
    }
    let mut after_space = false;
    let mut prev = 0u8;
    while *pos < end && bytes[*pos] != b',' {
        let b = bytes[*pos];
        if b == b'"' {
            break; // a quoted string starts the next argument
        }
        if is_space(b) {
            after_space = true;
            *pos += 1;
            continue;
        }
        let this = token_class(b);
        let (prev_cont, this_cont) = (prev & 0x80 != 0, this & 0x80 != 0);
        if after_space && ((prev != this && prev_cont == this_cont) || (prev == this && this_cont))
        {
            break;
        }
        kept.push(*pos);
        after_space = false;
        prev = this;
        *pos += 1;
    }
    Some(bytes_of(tc.text, &kept))
}

/// The bytes of `from` at `positions` (increasing), with their origins. The bytes left
/// out are ASCII (spaces, quotes, `!`), so every run is whole characters.
fn bytes_of(from: &Text, positions: &[usize]) -> Text {
    let mut out = Text::default();
    let mut i = 0;
    while i < positions.len() {
        let start = positions[i];
        let mut end = start + 1;
        i += 1;
        while i < positions.len() && positions[i] == end {
            end += 1;
            i += 1;
        }
        from.copy_range_to(start, end, &mut out);
    }
    out
}

// ---- definitions -----------------------------------------------------------------------

/// Defines the macro of `def`, or with `complete` false (no end) only checks its header.
pub(crate) fn define(asm: &mut Asm, ctx: &Ctx, def: &ast::MacroDef, complete: bool) {
    let Some(header) = def.header() else { return };
    let Some(op) = header.name_token() else {
        return;
    };
    let args = clean_text(
        header.syntax(),
        op.text_range().end().into(),
        &ctx.mapper,
        &ctx.source,
    );
    let tc = TextCtx {
        text: &args,
        fallback: ctx.loc(op.text_range().start()),
    };
    let bytes = args.text.as_bytes();
    let mut pos = 0;
    skip_spaces(bytes, &mut pos);
    let n = name_len(bytes, pos);
    if n == 0 {
        text_error(asm, ctx, &tc, pos, "expected a macro name");
        return;
    }
    let name = args.text[pos..pos + n].to_string();
    let name_pos = pos;
    pos += n;
    let key = asm.macro_key(&name);
    if let Some(index) = asm.index.as_mut() {
        index.record(
            crate::index::NameKind::Macro,
            key.clone(),
            tc.loc(name_pos),
            n as u32,
            true,
        );
    }
    let mut good = true;
    if asm.macros.contains_key(&key) {
        text_error(
            asm,
            ctx,
            &tc,
            name_pos,
            format!("macro `{name}` is already defined"),
        );
        good = false;
    }
    let mut params: Vec<Param> = Vec::new();
    loop {
        skip_spaces(bytes, &mut pos);
        if pos < bytes.len() && bytes[pos] == b',' {
            pos += 1;
            skip_spaces(bytes, &mut pos);
        }
        if pos >= bytes.len() {
            break;
        }
        let param_pos = pos;
        let n = name_len(bytes, pos);
        if n == 0 {
            text_error(asm, ctx, &tc, pos, "expected a macro parameter name");
            return;
        }
        let pname = args.text[pos..pos + n].to_string();
        pos += n;
        let mut param_good = true;
        if params.iter().any(|p| p.name == pname) {
            text_error(
                asm,
                ctx,
                &tc,
                param_pos,
                format!("parameter `{pname}` is given twice"),
            );
            param_good = false;
        }
        let (mut required, mut vararg) = (false, false);
        skip_spaces(bytes, &mut pos);
        if pos < bytes.len() && bytes[pos] == b':' {
            pos += 1;
            skip_spaces(bytes, &mut pos);
            if args.text[pos..].starts_with("req") {
                required = true;
                pos += 3;
            } else if args.text[pos..].starts_with("vararg") {
                vararg = true;
                pos += 6;
            } else {
                text_error(
                    asm,
                    ctx,
                    &tc,
                    pos,
                    "expected the qualifier `req` or `vararg`",
                );
                param_good = false;
            }
        }
        skip_spaces(bytes, &mut pos);
        let mut default = String::new();
        if pos < bytes.len() && bytes[pos] == b'=' {
            pos += 1;
            skip_spaces(bytes, &mut pos);
            let value_pos = pos;
            match macro_arg_value(asm, ctx, &tc, &mut pos, asm.opts.alt_macro) {
                Some(v) => default = v.text,
                None => {
                    good = false;
                    continue;
                }
            }
            if required {
                text_warning(
                    asm,
                    ctx,
                    &tc,
                    value_pos,
                    format!("pointless default value for the required parameter `{pname}`"),
                );
            }
        }
        if param_good {
            if params.last().is_some_and(|p| p.vararg) {
                text_error(
                    asm,
                    ctx,
                    &tc,
                    param_pos,
                    "only the last parameter can be `:vararg`",
                );
                good = false;
            }
            params.push(Param {
                name: pname,
                default,
                required,
                vararg,
            });
        } else {
            good = false;
        }
    }
    if !good || !complete {
        return;
    }
    if crate::pseudo::is_pseudo_op(&name.to_ascii_lowercase()) {
        text_warning(
            asm,
            ctx,
            &tc,
            name_pos,
            format!("`{name}` is a pseudo-op: the macro is ignored"),
        );
        return;
    }
    let body = match def.body() {
        Some(b) => clean_text(b.syntax(), 0, &ctx.mapper, &ctx.source),
        None => Text::default(),
    };
    let loc = ctx.loc(def.syntax().text_range().start());
    let ends = statement_ends(body.text.as_bytes());
    let mut start = 0;
    let has_locals = ends.iter().any(|&end| {
        let found = local_statement(body.text.as_bytes(), start, end).is_some();
        start = end + 1;
        found
    });
    asm.macros.insert(
        key,
        Rc::new(Macro {
            name,
            params,
            body: Rc::new(body),
            ends,
            has_locals,
            loc,
        }),
    );
}

// ---- calls -----------------------------------------------------------------------------

/// Expands a macro call; `node` is the statement, its arguments start at offset `from`.
pub(crate) fn call(asm: &mut Asm, ctx: &Ctx, m: &Rc<Macro>, node: &SyntaxNode, from: u32) -> Flow {
    let call_loc = ctx.loc(node.text_range().start());
    if asm.index.is_some() {
        if let Some(name) = node
            .children_with_tokens()
            .filter_map(|e| e.into_token())
            .find(|t| !t.kind().is_trivia())
        {
            let key = asm.macro_key(name.text());
            asm.note_name(
                ctx,
                crate::index::NameKind::Macro,
                |_| key,
                name.text_range(),
                false,
            );
        }
    }
    if ctx.depth >= asm.opts.limits.expansion_depth {
        let limit = asm.opts.limits.expansion_depth;
        asm.error_at(
            ctx,
            node.text_range(),
            format!("macro expansions and repetitions nested deeper than {limit} (raise the limit with --max-expansion-depth)"),
        );
        return Flow::Stop;
    }
    let args = clean_text(node, from, &ctx.mapper, &ctx.source);
    let alt = asm.opts.alt_macro;
    let tc = TextCtx {
        text: &args,
        fallback: call_loc,
    };
    let Some(values) = bind_args(asm, ctx, m, &tc, alt) else {
        return Flow::Continue;
    };
    let count = asm.macro_count;
    asm.macro_count += 1;
    let fallback = m.body.pieces.first().map_or(m.loc, |p| p.loc);
    let frame = (format!("in macro `{}` called here", m.name), call_loc);
    let mut expander = Expander::new(m, &values, count, alt);
    if !expander.has_locals() {
        let mut expansion = Text::default();
        while let Some(line) = expander.next_statement(asm, ctx) {
            line.copy_range_to(0, line.text.len(), &mut expansion);
        }
        // What the expansion was made from is not needed while it runs (a recursive
        // macro runs its whole depth inside this call).
        drop(expander);
        drop(values);
        drop(args);
        let (mapper, text) = expansion.into_mapper(fallback);
        let inner = ctx.nested(mapper, frame, CtxKind::Macro);
        // The same call gives the same text: its parse is kept for a while.
        let parsed = match asm.parse_cache.get(text.as_str()) {
            Some(p) => p.clone(),
            None => {
                let cached = (text.len() <= 4096).then(|| text.clone());
                let p = Rc::new((gcn_syntax::parse(&text), std::sync::Arc::<str>::from(text)));
                if let Some(key) = cached {
                    if asm.parse_cache.len() >= 4096 {
                        asm.parse_cache.clear();
                    }
                    asm.parse_cache.insert(key, p.clone());
                }
                p
            }
        };
        return match asm.process_parse(inner, &parsed.0, parsed.1.clone(), true) {
            Flow::Stop => Flow::Stop,
            _ => Flow::Continue,
        };
    }
    // Statement by statement (whole blocks at once), so that `local` names are numbered
    // in the reference's order; one frame for the whole run.
    let origin = ctx.origin.push(frame);
    let mut chunk = Text::default();
    let mut depth = 0i32;
    loop {
        let line = expander.next_statement(asm, ctx);
        let done = line.is_none();
        if let Some(line) = line {
            depth = (depth + block_delta(&line.text)).max(0);
            line.copy_range_to(0, line.text.len(), &mut chunk);
            if depth > 0 {
                continue;
            }
        }
        if !chunk.text.trim().is_empty() {
            let inner = ctx.nested_in(origin.clone(), chunk.mapper(fallback), CtxKind::Macro);
            match asm.process_text(inner, &chunk.text) {
                Flow::Continue => {}
                Flow::ExitMacro => return Flow::Continue,
                Flow::Stop => return Flow::Stop,
            }
        }
        chunk = Text::default();
        if done {
            return Flow::Continue;
        }
    }
}

fn bind_args(asm: &mut Asm, ctx: &Ctx, m: &Macro, tc: &TextCtx, alt: bool) -> Option<Vec<Text>> {
    let bytes = tc.text.text.as_bytes();
    let end = bytes.len();
    let mut pos = 0;
    let mut values = Vec::with_capacity(m.params.len());
    let mut good = true;
    for (i, p) in m.params.iter().enumerate() {
        skip_spaces(bytes, &mut pos);
        if i != 0 && pos < end && bytes[pos] == b',' {
            pos += 1;
            skip_spaces(bytes, &mut pos);
        }
        let arg_pos = pos;
        let mut value = Text::default();
        if !p.vararg {
            match macro_arg_value(asm, ctx, tc, &mut pos, alt) {
                Some(v) => value = v,
                None => {
                    good = false;
                    values.push(Text::default());
                    continue;
                }
            }
        } else {
            while pos < end {
                match macro_arg_value(asm, ctx, tc, &mut pos, alt) {
                    Some(v) => v.copy_range_to(0, v.text.len(), &mut value),
                    None => {
                        good = false;
                        break;
                    }
                }
                skip_spaces(bytes, &mut pos);
                if pos < end {
                    if bytes[pos] == b',' {
                        tc.text.copy_range_to(pos, pos + 1, &mut value);
                        pos += 1;
                        skip_spaces(bytes, &mut pos);
                    } else {
                        text_error(asm, ctx, tc, pos, "unexpected text after the arguments");
                        good = false;
                        break;
                    }
                }
            }
        }
        if value.text.is_empty() {
            if p.required {
                text_error(
                    asm,
                    ctx,
                    tc,
                    arg_pos,
                    format!("macro `{}` needs a value for `{}`", m.name, p.name),
                );
                good = false;
            }
            value = Text {
                text: p.default.clone(),
                pieces: Vec::new(),
            };
        }
        values.push(value);
    }
    skip_spaces(bytes, &mut pos);
    if good && pos < end {
        text_error(
            asm,
            ctx,
            tc,
            pos,
            format!("too many arguments for macro `{}`", m.name),
        );
        return None;
    }
    good.then_some(values)
}

/// Skips spaces and labels (`a: b\(): `) at the start of a body line; the position of
/// the statement after them.
fn skip_labels(bytes: &[u8], mut pos: usize, end: usize) -> usize {
    loop {
        while pos < end && is_space(bytes[pos]) {
            pos += 1;
        }
        let stmt = pos;
        while pos < end && (is_name_char(bytes[pos]) || bytes[pos] == b'\\') {
            if bytes[pos] != b'\\' {
                pos += 1;
            } else {
                pos += 1;
                if pos < end && bytes[pos] == b'@' {
                    pos += 1;
                } else if pos < end && bytes[pos] == b'(' {
                    pos += 1;
                    if pos < end && bytes[pos] == b')' {
                        pos += 1;
                    }
                }
            }
        }
        while pos < end && is_space(bytes[pos]) {
            pos += 1;
        }
        if pos >= end || bytes[pos] != b':' {
            return stmt;
        }
        pos += 1;
    }
}

/// Ends of the body's statements: line breaks and `;` outside quotes.
fn statement_ends(bytes: &[u8]) -> Vec<usize> {
    let mut ends = Vec::new();
    let mut quote = 0u8;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if quote != 0 {
            if b == b'\\' {
                i += 1;
            } else if b == quote || b == b'\n' {
                quote = 0;
                if b == b'\n' {
                    ends.push(i);
                }
            }
        } else if b == b'"' || b == b'\'' {
            quote = b;
        } else if b == b'\n' || b == b';' {
            ends.push(i);
        }
        i += 1;
    }
    ends.push(bytes.len());
    ends
}

/// A `local` statement (alternate syntax): the names, or `None` when it is not one.
fn local_statement(
    bytes: &[u8],
    start: usize,
    end: usize,
) -> Option<(usize, Vec<(String, usize)>)> {
    let stmt = skip_labels(bytes, start, end);
    if !(stmt + 6 < end
        && bytes[stmt..stmt + 5].eq_ignore_ascii_case(b"local")
        && bytes[stmt + 5] == b' ')
    {
        return None;
    }
    let mut pos = stmt + 5;
    let mut names = Vec::new();
    loop {
        while pos < end && is_space(bytes[pos]) {
            pos += 1;
        }
        if pos >= end {
            break;
        }
        let n = name_len(&bytes[..end], pos);
        if n == 0 {
            break;
        }
        names.push((
            String::from_utf8_lossy(&bytes[pos..pos + n]).into_owned(),
            pos,
        ));
        pos += n;
        while pos < end && is_space(bytes[pos]) {
            pos += 1;
        }
        if pos < end && bytes[pos] == b',' {
            pos += 1;
        }
    }
    while pos < end && is_space(bytes[pos]) {
        pos += 1;
    }
    (pos >= end).then_some((stmt, names))
}

/// Expands a macro body statement by statement (the reference reads an expansion line
/// by line: a `local` name is numbered when its line is read, after the lines before it
/// have been assembled).
struct Expander<'m> {
    m: &'m Macro,
    values: &'m [Text],
    count: u64,
    alt: bool,
    locals: Vec<(String, u64)>,
    ends: &'m [usize],
    next: usize,
    line_start: usize,
}

impl<'m> Expander<'m> {
    fn new(m: &'m Macro, values: &'m [Text], count: u64, alt: bool) -> Self {
        Expander {
            m,
            values,
            count,
            alt,
            locals: Vec::new(),
            ends: &m.ends,
            next: 0,
            line_start: 0,
        }
    }

    /// Whether the body has `local` statements (alternate syntax only).
    fn has_locals(&self) -> bool {
        self.alt && self.m.has_locals
    }

    fn lookup(&self, name: &str) -> Option<std::borrow::Cow<'m, Text>> {
        if let Some(i) = self.m.params.iter().position(|p| p.name == name) {
            return Some(std::borrow::Cow::Borrowed(&self.values[i]));
        }
        let (_, i) = self.locals.iter().rev().find(|(n, _)| n == name)?;
        Some(std::borrow::Cow::Owned(Text {
            text: format!(".LL{i}"),
            pieces: Vec::new(),
        }))
    }

    /// The next statement of the expansion, with its separator.
    fn next_statement(&mut self, asm: &mut Asm, ctx: &Ctx) -> Option<Text> {
        let line_end = *self.ends.get(self.next)?;
        self.next += 1;
        let body = &self.m.body;
        let bytes = body.text.as_bytes();
        let tc = TextCtx {
            text: body,
            fallback: self.m.loc,
        };
        let line_start = self.line_start;
        self.line_start = line_end + 1;
        let mut out = Text::default();
        let local = if self.alt {
            local_statement(bytes, line_start, line_end)
        } else {
            None
        };
        let mut copied = line_start;
        let mut pos = line_start;
        let mut word_skip = 0usize;
        while pos < line_end {
            if let Some((stmt, _)) = &local {
                if pos == *stmt {
                    // The `local` statement itself disappears.
                    body.copy_range_to(copied, pos, &mut out);
                    out.push_fixed(&" ".repeat(line_end - pos), tc.loc(pos));
                    copied = line_end;
                    break;
                }
            }
            let b = bytes[pos];
            if b != b'\\' {
                if self.alt && word_skip == 0 && is_name_start(b) {
                    let n = name_len(&bytes[..line_end], pos);
                    match self.lookup(&body.text[pos..pos + n]) {
                        Some(value) => {
                            body.copy_range_to(copied, pos, &mut out);
                            out.push_substituted(&value, tc.loc(pos));
                            pos += n;
                            copied = pos;
                        }
                        None => word_skip = n,
                    }
                    continue;
                }
                word_skip = word_skip.saturating_sub(1);
                pos += 1;
                continue;
            }
            // A backslash.
            body.copy_range_to(copied, pos, &mut out);
            let at = pos;
            pos += 1;
            if pos < line_end {
                if bytes[pos] == b'(' && bytes.get(pos + 1) == Some(&b')') {
                    pos += 2;
                } else {
                    let n = name_len(&bytes[..line_end], pos);
                    let found = if n > 0 {
                        self.lookup(&body.text[pos..pos + n])
                    } else {
                        None
                    };
                    if let Some(value) = found {
                        out.push_substituted(&value, tc.loc(at));
                        pos += n;
                    } else if bytes[pos] == b'@' {
                        out.push_fixed(&self.count.to_string(), tc.loc(at));
                        pos += 1;
                    } else {
                        body.copy_range_to(at, at + 1, &mut out);
                    }
                }
            } else {
                body.copy_range_to(at, at + 1, &mut out);
            }
            copied = pos;
        }
        body.copy_range_to(copied, (line_end + 1).min(bytes.len()), &mut out);
        if let Some((_, names)) = local {
            for (name, at) in names {
                if self.m.params.iter().any(|p| p.name == name)
                    || self.locals.iter().any(|(n, _)| *n == name)
                {
                    text_error(
                        asm,
                        ctx,
                        &tc,
                        at,
                        format!("`{name}` is already a local name or a macro parameter"),
                    );
                } else {
                    self.locals.push((name, asm.local_count));
                    asm.local_count += 1;
                }
            }
        }
        Some(out)
    }
}

/// How a statement changes the nesting of blocks (`.if`/`.macro`/`.rept`… and their ends).
pub(crate) fn block_delta(text: &str) -> i32 {
    let bytes = text.as_bytes();
    let head = skip_labels(bytes, 0, bytes.len());
    let n = name_len(bytes, head);
    if n < 2 || bytes[head] != b'.' {
        return 0;
    }
    let name = text[head..head + n].to_ascii_lowercase();
    match name.as_str() {
        ".macro" | ".rept" | ".irp" | ".irpc" | ".for" | ".while" => 1,
        ".endif" | ".endm" | ".endmacro" | ".endr" | ".endrept" => -1,
        _ if name.starts_with(".if") => 1,
        _ => 0,
    }
}

/// An `.irp`/`.irpc` body with `\name` replaced by `value`.
fn substitute_irp(body: &Text, name: &str, value: &Text, fallback: Location) -> Text {
    let bytes = body.text.as_bytes();
    let mut out = Text::default();
    let mut copied = 0;
    let mut pos = 0;
    while pos < bytes.len() {
        if bytes[pos] != b'\\' {
            pos += 1;
            continue;
        }
        body.copy_range_to(copied, pos, &mut out);
        let at = pos;
        pos += 1;
        if pos < bytes.len() && bytes[pos] == b'(' && bytes.get(pos + 1) == Some(&b')') {
            pos += 2;
        } else {
            let n = name_len(bytes, pos);
            if n > 0 && &body.text[pos..pos + n] == name {
                out.push_substituted(value, body.location(at, fallback));
                pos += n;
            } else {
                body.copy_range_to(at, at + 1, &mut out);
            }
        }
        copied = pos;
    }
    body.copy_range_to(copied, bytes.len(), &mut out);
    out
}

// ---- repetitions -----------------------------------------------------------------------

/// `.rept`, `.irp`, `.irpc`, `.for`, `.while`.
pub(crate) fn repeat(asm: &mut Asm, ctx: &Ctx, rep: &ast::Repeat) -> Flow {
    let Some(header) = rep.header() else {
        return Flow::Continue;
    };
    let header_range = header.syntax().text_range();
    let header_loc = ctx.loc(header_range.start());
    if ctx.depth >= asm.opts.limits.expansion_depth {
        let limit = asm.opts.limits.expansion_depth;
        asm.error_at(
            ctx,
            header_range,
            format!("macro expansions and repetitions nested deeper than {limit} (raise the limit with --max-expansion-depth)"),
        );
        return Flow::Stop;
    }
    let body = match rep.body() {
        Some(b) => clean_text(b.syntax(), 0, &ctx.mapper, &ctx.source),
        None => Text::default(),
    };
    let fallback = body.pieces.first().map_or(header_loc, |p| p.loc);
    let name = header.name();
    match name.as_str() {
        ".rept" => {
            let Some(count) = header.args().next().and_then(|a| a.expr()) else {
                asm.error_at(ctx, header_range, "`.rept` needs a count");
                return Flow::Continue;
            };
            let Some(n) = asm.eval_abs_now(ctx, &count) else {
                return Flow::Continue;
            };
            if n <= 0 || body.text.trim().is_empty() {
                return Flow::Continue;
            }
            let parse = (
                gcn_syntax::parse(&body.text),
                std::sync::Arc::from(body.text.as_str()),
            );
            let mapper = body.mapper(fallback);
            for i in 0..n as u64 {
                let frame = (format!("in repetition {}/{n}", i + 1), header_loc);
                match run_iteration(asm, ctx, &header, mapper.clone(), frame, &parse, i == 0) {
                    Flow::Continue => {}
                    Flow::ExitMacro => return Flow::Continue,
                    Flow::Stop => return Flow::Stop,
                }
            }
            Flow::Continue
        }
        ".irp" | ".irpc" => irp(asm, ctx, &header, &body, fallback, name == ".irpc"),
        ".for" | ".while" => loop_repeat(asm, ctx, &header, &body, fallback),
        _ => Flow::Continue,
    }
}

/// One iteration: counts toward the statement limit, then runs the body.
fn run_iteration(
    asm: &mut Asm,
    ctx: &Ctx,
    header: &ast::PseudoOp,
    mapper: Mapper,
    frame: (String, Location),
    parse: &(gcn_syntax::Parse, std::sync::Arc<str>),
    first: bool,
) -> Flow {
    let (parse, source) = (&parse.0, parse.1.clone());
    asm.expanded_statements += 1;
    if asm.expanded_statements > asm.opts.limits.expanded_statements {
        let limit = asm.opts.limits.expanded_statements;
        asm.error_at(
            ctx,
            header.syntax().text_range(),
            format!("macro and repetition expansions produced more than {limit} statements (raise the limit with --max-expanded-statements)"),
        );
        return Flow::Stop;
    }
    let inner = ctx.nested(mapper, frame, CtxKind::Repeat);
    asm.process_parse(inner, parse, source, first)
}

fn irp(
    asm: &mut Asm,
    ctx: &Ctx,
    header: &ast::PseudoOp,
    body: &Text,
    fallback: Location,
    per_char: bool,
) -> Flow {
    let header_range = header.syntax().text_range();
    let header_loc = ctx.loc(header_range.start());
    let Some(op) = header.name_token() else {
        return Flow::Continue;
    };
    let args = clean_text(
        header.syntax(),
        op.text_range().end().into(),
        &ctx.mapper,
        &ctx.source,
    );
    let tc = TextCtx {
        text: &args,
        fallback: header_loc,
    };
    let bytes = args.text.as_bytes();
    let mut pos = 0;
    skip_spaces(bytes, &mut pos);
    let n = name_len(bytes, pos);
    if n == 0 {
        text_error(asm, ctx, &tc, pos, "expected a parameter name");
        return Flow::Continue;
    }
    let var = args.text[pos..pos + n].to_string();
    pos += n;
    skip_spaces(bytes, &mut pos);
    if pos < bytes.len() && bytes[pos] == b',' {
        pos += 1;
        skip_spaces(bytes, &mut pos);
    }
    let mut values = Vec::new();
    let mut chars = Text::default();
    let mut good = true;
    let alt = asm.opts.alt_macro;
    while pos < bytes.len() {
        if bytes[pos] == b',' {
            if per_char {
                args.copy_range_to(pos, pos + 1, &mut chars);
            }
            pos += 1;
            skip_spaces(bytes, &mut pos);
        }
        match macro_arg_value(asm, ctx, &tc, &mut pos, alt) {
            Some(v) if per_char => v.copy_range_to(0, v.text.len(), &mut chars),
            Some(v) => values.push(v),
            None => {
                good = false;
                break;
            }
        }
        skip_spaces(bytes, &mut pos);
    }
    if !good {
        return Flow::Continue;
    }
    if per_char {
        values = chars
            .text
            .char_indices()
            .map(|(i, c)| {
                let mut one = Text::default();
                chars.copy_range_to(i, i + c.len_utf8(), &mut one);
                one
            })
            .collect();
    }
    if values.is_empty() {
        values.push(Text::default());
    }
    let total = values.len();
    for (i, value) in values.iter().enumerate() {
        let expansion = substitute_irp(body, &var, value, fallback);
        let parse = (
            gcn_syntax::parse(&expansion.text),
            std::sync::Arc::from(expansion.text.as_str()),
        );
        let frame = (format!("in repetition {}/{total}", i + 1), header_loc);
        match run_iteration(
            asm,
            ctx,
            header,
            expansion.mapper(fallback),
            frame,
            &parse,
            true,
        ) {
            Flow::Continue => {}
            Flow::ExitMacro => return Flow::Continue,
            Flow::Stop => return Flow::Stop,
        }
    }
    Flow::Continue
}

/// `.for SYMBOL=INIT, COND, NEXT` and `.while COND`. As in the reference, `.for` runs its
/// body before testing the condition for the first time; `.while` tests first.
fn loop_repeat(
    asm: &mut Asm,
    ctx: &Ctx,
    header: &ast::PseudoOp,
    body: &Text,
    fallback: Location,
) -> Flow {
    let header_range = header.syntax().text_range();
    let header_loc = ctx.loc(header_range.start());
    let args: Vec<ast::Arg> = header.args().collect();
    let is_for = header.name() == ".for";
    let base = |asm: &mut Asm, e: &ast::Expr| -> Option<Ir> {
        match asm.try_lower(ctx, e, true) {
            Ok(ir) => Some(ir),
            Err((r, m)) => {
                asm.error_at(ctx, r, m);
                None
            }
        }
    };
    let (iter, cond, next) = if is_for {
        let Some(init) = args.first().and_then(|a| a.key_values().next()) else {
            asm.error_at(
                ctx,
                header_range,
                "`.for` needs `SYMBOL=VALUE, CONDITION, NEXT`",
            );
            return Flow::Continue;
        };
        let (Some(key), Some(value)) = (init.key(), init.value()) else {
            asm.error_at(
                ctx,
                header_range,
                "`.for` needs `SYMBOL=VALUE, CONDITION, NEXT`",
            );
            return Flow::Continue;
        };
        let (Some(cond), Some(next)) = (
            args.get(1).and_then(|a| a.expr()),
            args.get(2).and_then(|a| a.expr()),
        ) else {
            asm.error_at(
                ctx,
                header_range,
                "`.for` needs `SYMBOL=VALUE, CONDITION, NEXT`",
            );
            return Flow::Continue;
        };
        let Some(v) = asm.eval_now(ctx, &value) else {
            return Flow::Continue;
        };
        let id = asm.symbols.define_target(key.text());
        let sym = asm.symbols.get(id);
        if sym.once_defined && sym.is_defined() {
            asm.error_at(
                ctx,
                key.text_range(),
                format!("symbol `{}` is already defined", key.text()),
            );
            return Flow::Continue;
        }
        asm.set_symbol(id, v);
        let (Some(c), Some(n)) = (base(asm, &cond), base(asm, &next)) else {
            return Flow::Continue;
        };
        (
            Some(id),
            (c, cond.syntax().text_range()),
            Some((n, next.syntax().text_range())),
        )
    } else {
        let Some(cond) = args.first().and_then(|a| a.expr()) else {
            asm.error_at(ctx, header_range, "`.while` needs a condition");
            return Flow::Continue;
        };
        let Some(c) = base(asm, &cond) else {
            return Flow::Continue;
        };
        (None, (c, cond.syntax().text_range()), None)
    };
    let test = |asm: &mut Asm| -> Option<bool> {
        let ir = asm.bind_base(&cond.0);
        match asm.eval_now_ir(ctx, cond.1, &ir)? {
            Value::Abs(v) => Some(v != 0),
            Value::Rel { .. } => {
                asm.error_at(ctx, cond.1, "the condition's value is not absolute");
                None
            }
        }
    };
    if !is_for && test(asm) != Some(true) {
        return Flow::Continue;
    }
    let parse = (
        gcn_syntax::parse(&body.text),
        std::sync::Arc::from(body.text.as_str()),
    );
    let mapper = body.mapper(fallback);
    let mut i = 0u64;
    loop {
        i += 1;
        let frame = (format!("in repetition {i}"), header_loc);
        match run_iteration(asm, ctx, header, mapper.clone(), frame, &parse, i == 1) {
            Flow::Continue => {}
            Flow::ExitMacro => return Flow::Continue,
            Flow::Stop => return Flow::Stop,
        }
        if let (Some(id), Some((next, range))) = (iter, &next) {
            let ir = asm.bind_base(next);
            match asm.eval_now_ir(ctx, *range, &ir) {
                Some(Value::Abs(v)) => asm.set_symbol(id, Value::Abs(v)),
                Some(Value::Rel { .. }) => {
                    asm.error_at(ctx, *range, "the next value is not absolute");
                    return Flow::Continue;
                }
                None => return Flow::Continue,
            }
        }
        if test(asm) != Some(true) {
            return Flow::Continue;
        }
    }
}

// ---- includes ------------------------------------------------------------------------

/// `.include "file"`: the file is searched as given (from the current directory), then
/// in the `-I` directories, then beside the including file.
pub(crate) fn include(
    asm: &mut Asm,
    ctx: &Ctx,
    op: &ast::PseudoOp,
    path: &str,
    path_range: TextRange,
) -> Flow {
    let range = op.syntax().text_range();
    if asm.include_depth >= asm.opts.limits.include_depth {
        let limit = asm.opts.limits.include_depth;
        asm.error_at(
            ctx,
            range,
            format!("includes nested deeper than {limit} (an include cycle?; raise the limit with --max-include-depth)"),
        );
        return Flow::Stop;
    }
    let including = asm.sources.file(ctx.loc(range.start()).file).name.clone();
    let found = match find_file(asm, &including, path) {
        Ok(found) => found,
        Err(other) => {
            asm.error_at(
                ctx,
                path_range,
                not_found_message("include file", path, other),
            );
            return Flow::Continue;
        }
    };
    let key = std::fs::canonicalize(&found).unwrap_or_else(|_| found.clone());
    let file = match asm.file_cache.get(&key) {
        Some(&f) => f,
        None => {
            let text = match asm.opts.files.read(&found) {
                Ok(bytes) => crate::encoding::decode(bytes),
                Err(e) => {
                    asm.error_at(ctx, path_range, format!("cannot read `{path}`: {e}"));
                    return Flow::Continue;
                }
            };
            let f = asm.sources.add(found.display().to_string(), text.as_str());
            asm.file_cache.insert(key, f);
            f
        }
    };
    let text = asm.sources.file(file).text.clone();
    let inner = ctx.nested(
        Mapper::File(file),
        (
            "in file included from here".to_string(),
            ctx.loc(range.start()),
        ),
        CtxKind::File,
    );
    asm.include_depth += 1;
    let flow = asm.process_text(inner, &text);
    asm.include_depth -= 1;
    if flow == Flow::Stop {
        Flow::Stop
    } else {
        Flow::Continue
    }
}

/// Finds a file for `.include`/`.incbin`; `\` separators are taken as `/`. Relative
/// paths start from the working directory ([`crate::Options::work_dir`]); see
/// [`crate::Options::find_file`].
pub(crate) fn find_file(
    asm: &Asm,
    including: &str,
    path: &str,
) -> Result<std::path::PathBuf, Option<std::path::PathBuf>> {
    asm.opts.find_file(including, path)
}

/// The message for a file `.include`/`.incbin` did not find.
pub(crate) fn not_found_message(
    what: &str,
    path: &str,
    found: Option<std::path::PathBuf>,
) -> String {
    match found {
        Some(other) => format!(
            "{what} `{path}` is not a regular file ({})",
            other.display()
        ),
        None => {
            format!("{what} `{path}` not found in the current directory or any include directory")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn local_statements_are_recognized() {
        let line = b"x\\():    local ad, b2";
        let (stmt, names) = local_statement(line, 0, line.len()).unwrap();
        assert_eq!(stmt, 9);
        assert_eq!(
            names.iter().map(|n| n.0.as_str()).collect::<Vec<_>>(),
            ["ad", "b2"]
        );
        assert!(local_statement(b"local", 0, 5).is_none());
        assert!(local_statement(b"localx a", 0, 8).is_none());
    }

    #[test]
    fn statements_split_outside_quotes() {
        assert_eq!(statement_ends(b"a; b \"c;d\"\ne"), vec![1, 10, 12]);
    }
}
