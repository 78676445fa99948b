//! Macros, repetitions and includes: text expanded, then parsed by the same parser.
//!
//! An expansion's text is built piece by piece, remembering where each piece came from,
//! so a diagnostic inside it points at the macro body (or the argument) in its file, with
//! the chain of calls in front.

use std::rc::Rc;

use gcn_syntax::ast::{self, AstNode};
use gcn_syntax::{SyntaxKind, SyntaxNode, TextRange};

use crate::assembler::{Asm, Ctx, Flow, Mapper, Piece};
use crate::source::Location;

#[derive(Debug)]
pub(crate) struct Param {
    name: String,
    default: Option<String>,
    required: bool,
    vararg: bool,
}

#[derive(Debug)]
pub(crate) struct Macro {
    name: String,
    params: Vec<Param>,
    body: String,
    /// Where the body's first byte is in the source.
    body_loc: Location,
}

/// Text being built for an expansion, with the origin of each piece.
struct Expansion {
    text: String,
    pieces: Vec<Piece>,
}

impl Expansion {
    fn new() -> Self {
        Expansion { text: String::new(), pieces: Vec::new() }
    }

    fn push(&mut self, text: &str, loc: Location) {
        if text.is_empty() {
            return;
        }
        self.pieces.push(Piece { start: self.text.len() as u32, len: text.len() as u32, loc });
        self.text.push_str(text);
    }

    fn ctx(self, parent: &Ctx, frame: (String, Location), fallback: Location) -> (String, Ctx) {
        let mut origin = parent.origin.as_ref().clone();
        origin.push(frame);
        let ctx = Ctx {
            mapper: Mapper::Expansion { pieces: Rc::new(self.pieces), fallback },
            origin: Rc::new(origin),
            depth: parent.depth + 1,
        };
        (self.text, ctx)
    }
}

fn loc_of(ctx: &Ctx, node: &SyntaxNode) -> Location {
    ctx.mapper.map(node.text_range().start().into())
}

fn body_of(node: &SyntaxNode) -> Option<ast::Body> {
    node.children().find_map(ast::Body::cast)
}

/// The raw words of a pseudo-op's arguments, split at commas and blanks.
fn header_words(op: &ast::PseudoOp) -> Vec<String> {
    let text = op.syntax().children().find(|n| n.kind() == SyntaxKind::ARG_LIST).map(|n| n.text().to_string()).unwrap_or_default();
    split_args(&text, true)
}

/// Splits macro arguments: commas separate; blanks separate too, except around an
/// operator (`a + b` stays one argument). Quotes and brackets group.
pub(crate) fn split_args(text: &str, blanks_split: bool) -> Vec<String> {
    let mut args = Vec::new();
    let mut cur = String::new();
    let mut depth = 0i32;
    let mut chars = text.chars().peekable();
    let mut in_string = false;
    let mut saw_comma = false;
    while let Some(c) = chars.next() {
        if in_string {
            cur.push(c);
            if c == '\\' {
                if let Some(n) = chars.next() {
                    cur.push(n);
                }
            } else if c == '"' {
                in_string = false;
            }
            continue;
        }
        match c {
            '"' => {
                in_string = true;
                cur.push(c);
            }
            '(' | '[' => {
                depth += 1;
                cur.push(c);
            }
            ')' | ']' => {
                depth -= 1;
                cur.push(c);
            }
            ',' if depth <= 0 => {
                args.push(cur.trim().to_string());
                cur.clear();
                saw_comma = true;
            }
            c if c.is_whitespace() && depth <= 0 && blanks_split => {
                while chars.peek().is_some_and(|c| c.is_whitespace()) {
                    chars.next();
                }
                let prev_op = cur.trim_end().ends_with(|c: char| "+-*/%&|^<>=!~".contains(c));
                let next = chars.peek().copied();
                let next_op = next.is_some_and(|n| "+*/%&|^<>=!".contains(n)) || next == Some(',');
                if cur.trim().is_empty() || prev_op || next_op {
                    cur.push(' ');
                } else {
                    args.push(cur.trim().to_string());
                    cur.clear();
                }
            }
            _ => cur.push(c),
        }
    }
    if !cur.trim().is_empty() || saw_comma {
        args.push(cur.trim().to_string());
    }
    args
}

pub(crate) fn define(asm: &mut Asm, ctx: &Ctx, def: &ast::MacroDef) {
    let Some(header) = def.header() else { return };
    let mut words = header_words(&header).into_iter();
    let Some(name) = words.next().filter(|n| !n.is_empty()) else {
        asm.error_at(ctx, header.syntax().text_range(), "`.macro` needs a name");
        return;
    };
    let mut params: Vec<Param> = Vec::new();
    for word in words.filter(|w| !w.is_empty()) {
        let (spec, default) = match word.split_once('=') {
            Some((s, d)) => (s.trim().to_string(), Some(d.trim().to_string())),
            None => (word.clone(), None),
        };
        let (pname, qualifier) = match spec.split_once(':') {
            Some((n, q)) => (n.to_string(), q.to_ascii_lowercase()),
            None => (spec, String::new()),
        };
        if !matches!(qualifier.as_str(), "" | "req" | "vararg") {
            asm.error_at(ctx, header.syntax().text_range(), format!("unknown parameter qualifier `:{qualifier}`"));
        }
        if params.iter().any(|p| p.name == pname) {
            asm.error_at(ctx, header.syntax().text_range(), format!("parameter `{pname}` is given twice"));
        }
        params.push(Param { name: pname, default, required: qualifier == "req", vararg: qualifier == "vararg" });
    }
    if params.iter().rev().skip(1).any(|p| p.vararg) {
        asm.error_at(ctx, header.syntax().text_range(), "only the last parameter can be `:vararg`");
    }
    let body = body_of(def.syntax());
    let (text, loc) = match &body {
        Some(b) => (b.syntax().text().to_string(), loc_of(ctx, b.syntax())),
        None => (String::new(), loc_of(ctx, def.syntax())),
    };
    let key = asm.macro_key(&name);
    asm.macros.insert(key, Rc::new(Macro { name, params, body: text, body_loc: loc }));
}

/// Expands a macro call; `call` is the whole statement (its first word is the name).
pub(crate) fn call(asm: &mut Asm, ctx: &Ctx, m: &Rc<Macro>, call: &SyntaxNode) -> Flow {
    if ctx.depth >= asm.opts.limits.expansion_depth {
        let limit = asm.opts.limits.expansion_depth;
        asm.error_at(ctx, call.text_range(), format!("macro calls nested deeper than {limit} (raise the limit with --max-expansion-depth)"));
        return Flow::Stop;
    }
    let text = call.text().to_string();
    let name_len = call.first_token().map_or(0, |t| t.text().len());
    let args = split_args(&text[name_len..], true);
    let Some(values) = bind_args(asm, ctx, m, args, call.text_range()) else { return Flow::Continue };
    asm.macro_count += 1;
    let count = asm.macro_count.to_string();
    let mut exp = Expansion::new();
    substitute(&mut exp, &m.body, m.body_loc, &|name| {
        if name == "@" {
            return Some(count.clone());
        }
        m.params.iter().position(|p| p.name == name).map(|i| values[i].clone())
    }, asm.opts.alt_macro);
    let call_loc = loc_of(ctx, call);
    let (text, inner) = exp.ctx(ctx, (format!("in macro `{}` called from here", m.name), call_loc), m.body_loc);
    match asm.process_text(&inner, &text) {
        Flow::Stop => Flow::Stop,
        _ => Flow::Continue,
    }
}

fn bind_args(asm: &mut Asm, ctx: &Ctx, m: &Macro, args: Vec<String>, range: TextRange) -> Option<Vec<String>> {
    let mut values: Vec<Option<String>> = vec![None; m.params.len()];
    let mut positional = 0usize;
    for (i, arg) in args.iter().enumerate() {
        // `name=value` binds by name.
        if let Some((key, value)) = arg.split_once('=') {
            if let Some(p) = m.params.iter().position(|p| p.name == key.trim()) {
                values[p] = Some(value.trim().to_string());
                continue;
            }
        }
        if positional >= m.params.len() {
            asm.error_at(ctx, range, format!("too many arguments for macro `{}`", m.name));
            return None;
        }
        if m.params[positional].vararg {
            values[positional] = Some(args[i..].join(", "));
            break;
        }
        values[positional] = Some(arg.clone());
        positional += 1;
    }
    let mut out = Vec::with_capacity(values.len());
    for (p, v) in m.params.iter().zip(values) {
        match v.filter(|v| !v.is_empty()) {
            Some(v) => out.push(v),
            None if p.required => {
                asm.error_at(ctx, range, format!("macro `{}` needs argument `{}`", m.name, p.name));
                return None;
            }
            None => out.push(p.default.clone().unwrap_or_default()),
        }
    }
    Some(out)
}

/// Copies `body` into `exp`, replacing `\name` by `lookup(name)`, `\@` by the count and
/// `\()` by nothing. With alternate syntax, bare parameter names are replaced too.
fn substitute(exp: &mut Expansion, body: &str, base: Location, lookup: &dyn Fn(&str) -> Option<String>, alt: bool) {
    let bytes = body.as_bytes();
    let mut copied = 0usize;
    let mut i = 0usize;
    let at = |offset: usize| Location { file: base.file, offset: base.offset + offset as u32 };
    while i < bytes.len() {
        let b = bytes[i];
        if b == b'\\' && i + 1 < bytes.len() {
            let rest = &body[i + 1..];
            let (name, len) = if rest.starts_with("()") {
                ("", 2)
            } else if rest.starts_with('@') {
                ("@", 1)
            } else {
                let n = rest.bytes().take_while(|&c| c.is_ascii_alphanumeric() || c == b'_' || c == b'$').count();
                (&rest[..n], n)
            };
            let value = if name.is_empty() && len == 2 { Some(String::new()) } else if len > 0 { lookup(name) } else { None };
            if let Some(value) = value {
                exp.push(&body[copied..i], at(copied));
                exp.push(&value, at(i));
                i += 1 + len;
                copied = i;
                continue;
            }
        } else if alt && (b.is_ascii_alphabetic() || b == b'_') && (i == 0 || !is_word(bytes[i - 1])) {
            let n = bytes[i..].iter().take_while(|&&c| is_word(c)).count();
            if let Some(value) = lookup(&body[i..i + n]) {
                exp.push(&body[copied..i], at(copied));
                exp.push(&value, at(i));
                i += n;
                copied = i;
                continue;
            }
            i += n;
            continue;
        }
        i += 1;
    }
    exp.push(&body[copied..], at(copied));
}

fn is_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'.' || b == b'$'
}

/// `.rept`, `.irp`, `.irpc`, `.for`, `.while`.
pub(crate) fn repeat(asm: &mut Asm, ctx: &Ctx, rep: &ast::Repeat) -> Flow {
    let Some(header) = rep.header() else { return Flow::Continue };
    if ctx.depth >= asm.opts.limits.expansion_depth {
        asm.error_at(ctx, header.syntax().text_range(), "repetitions nested too deeply");
        return Flow::Stop;
    }
    let (body, body_loc) = match body_of(rep.syntax()) {
        Some(b) => (b.syntax().text().to_string(), loc_of(ctx, b.syntax())),
        None => (String::new(), loc_of(ctx, rep.syntax())),
    };
    let header_loc = loc_of(ctx, header.syntax());
    let name = header.name();
    let run = |asm: &mut Asm, lookup: &dyn Fn(&str) -> Option<String>, what: String| -> Flow {
        let mut exp = Expansion::new();
        substitute(&mut exp, &body, body_loc, lookup, asm.opts.alt_macro);
        let (text, inner) = exp.ctx(ctx, (what, header_loc), body_loc);
        asm.expanded_statements += 1;
        if asm.expanded_statements > asm.opts.limits.expanded_statements {
            asm.error_at(ctx, header.syntax().text_range(), "expansions produced too many statements (raise the limit with --max-expanded-statements)");
            return Flow::Stop;
        }
        asm.process_text(&inner, &text)
    };
    match name.as_str() {
        ".rept" => {
            let Some(count) = header.args().next().and_then(|a| a.expr()) else {
                asm.error_at(ctx, header.syntax().text_range(), "`.rept` needs a count");
                return Flow::Continue;
            };
            let Some(n) = asm.eval_abs_now(ctx, &count) else { return Flow::Continue };
            for i in 0..n.max(0) {
                if run(asm, &|_| None, format!("in repetition {}/{n}", i + 1)) == Flow::Stop {
                    return Flow::Stop;
                }
            }
        }
        ".irp" | ".irpc" => {
            let words = header_words(&header);
            let Some((var, values)) = words.split_first() else {
                asm.error_at(ctx, header.syntax().text_range(), format!("`{name}` needs a name"));
                return Flow::Continue;
            };
            let values: Vec<String> = if name == ".irpc" {
                values.join("").chars().map(String::from).collect()
            } else {
                values.to_vec()
            };
            let total = values.len();
            for (i, value) in values.iter().enumerate() {
                let lookup = |n: &str| (n == var).then(|| value.clone());
                if run(asm, &lookup, format!("in repetition {}/{total}", i + 1)) == Flow::Stop {
                    return Flow::Stop;
                }
            }
        }
        ".for" | ".while" => return loop_repeat(asm, ctx, &header, &run),
        _ => {}
    }
    Flow::Continue
}

type Runner<'a> = dyn Fn(&mut Asm, &dyn Fn(&str) -> Option<String>, String) -> Flow + 'a;

fn loop_repeat(asm: &mut Asm, ctx: &Ctx, header: &ast::PseudoOp, run: &Runner) -> Flow {
    let args: Vec<ast::Arg> = header.args().collect();
    let is_for = header.name() == ".for";
    let (cond, next) = if is_for {
        let Some(init) = args.first().and_then(|a| a.key_values().next()) else {
            asm.error_at(ctx, header.syntax().text_range(), "`.for` needs `SYMBOL=VALUE, CONDITION, NEXT`");
            return Flow::Continue;
        };
        let (Some(key), Some(value)) = (init.key(), init.value()) else { return Flow::Continue };
        asm.assign(ctx, key.text(), key.text_range(), &value, false);
        let next = args.get(2).and_then(|a| a.expr()).map(|e| (key.text().to_string(), key.text_range(), e));
        (args.get(1).and_then(|a| a.expr()), next)
    } else {
        (args.first().and_then(|a| a.expr()), None)
    };
    let Some(cond) = cond else {
        asm.error_at(ctx, header.syntax().text_range(), "missing condition");
        return Flow::Continue;
    };
    let mut i = 0u64;
    loop {
        let Some(value) = asm.eval_abs_now(ctx, &cond) else { return Flow::Continue };
        if value == 0 {
            return Flow::Continue;
        }
        i += 1;
        if run(asm, &|_| None, format!("in repetition {i}")) == Flow::Stop {
            return Flow::Stop;
        }
        if let Some((name, range, expr)) = &next {
            asm.assign(ctx, name, *range, expr, false);
        }
    }
}

/// `.include "file"`: the file is found beside the including one, then in `-I` paths.
pub(crate) fn include(asm: &mut Asm, ctx: &Ctx, op: &ast::PseudoOp, path: &str) -> Flow {
    let range = op.syntax().text_range();
    if asm.include_depth >= asm.opts.limits.include_depth {
        let limit = asm.opts.limits.include_depth;
        asm.error_at(ctx, range, format!("includes nested deeper than {limit} (an include cycle?)"));
        return Flow::Continue;
    }
    let including = asm.sources.file(ctx.mapper.map(range.start().into()).file).name.clone();
    let Some(found) = find_file(asm, &including, path) else {
        asm.error_at(ctx, range, format!("cannot find include file `{path}`"));
        return Flow::Continue;
    };
    let text = match std::fs::read(&found) {
        Ok(bytes) => match String::from_utf8(bytes) {
            Ok(t) => t,
            Err(e) => {
                asm.error_at(ctx, range, format!("`{path}` is not valid UTF-8 at byte offset {}", e.utf8_error().valid_up_to()));
                return Flow::Continue;
            }
        },
        Err(e) => {
            asm.error_at(ctx, range, format!("cannot read `{path}`: {e}"));
            return Flow::Continue;
        }
    };
    let file = asm.sources.add(found.display().to_string(), text.as_str());
    let mut origin = ctx.origin.as_ref().clone();
    origin.push(("in file included from here".to_string(), loc_of(ctx, op.syntax())));
    let inner = Ctx { mapper: Mapper::File(file), origin: Rc::new(origin), depth: ctx.depth };
    asm.include_depth += 1;
    let flow = asm.process_text(&inner, &text);
    asm.include_depth -= 1;
    if flow == Flow::ExitMacro { Flow::Continue } else { flow }
}

pub(crate) fn find_file(asm: &Asm, including: &str, path: &str) -> Option<std::path::PathBuf> {
    let p = std::path::Path::new(path);
    if p.is_absolute() {
        return p.is_file().then(|| p.to_path_buf());
    }
    let beside = std::path::Path::new(including).parent().map(|d| d.join(p));
    let candidates = std::iter::once(p.to_path_buf())
        .chain(beside)
        .chain(asm.opts.include_dirs.iter().map(|d| d.join(p)));
    candidates.into_iter().find(|c| c.is_file())
}
