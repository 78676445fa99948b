//! General pseudo-ops: data, alignment, sections, symbols, scopes, conditions, messages,
//! switches and queries. Binary-format pseudo-ops (`.config`, `.arg`, …) belong to the
//! format writers and answer "not supported yet" until those exist.

use gcn_isa::{Device, Generation};
use gcn_syntax::ast::{self, AstNode};
use gcn_syntax::{SyntaxKind, TextRange};

use crate::assembler::{Asm, Ctx, Flow};
use crate::expr::Value;
use crate::literals;
use crate::options::BinaryFormat;

/// CLRX version reported by `.get_version`: 0.1.9, the reference's.
const CLRX_VERSION: i64 = 109;
/// Policy version by default (`.get_policy`): the reference's 0.2.0.
const DEFAULT_POLICY: i64 = 200;

pub(crate) fn pseudo_op(asm: &mut Asm, ctx: &Ctx, op: &ast::PseudoOp) -> Flow {
    let name = op.name();
    let args: Vec<ast::Arg> = op.args().collect();
    let range = op.syntax().text_range();
    match name.as_str() {
        ".byte" => data(asm, ctx, &args, 1),
        ".hword" | ".short" => data(asm, ctx, &args, 2),
        ".int" | ".long" | ".word" => data(asm, ctx, &args, 4),
        ".quad" => data(asm, ctx, &args, 8),
        ".octa" => octa(asm, ctx, &args),
        ".half" => floats(asm, ctx, &args, 2),
        ".float" | ".single" => floats(asm, ctx, &args, 4),
        ".double" => floats(asm, ctx, &args, 8),
        ".ascii" => strings(asm, ctx, &args, None),
        ".asciz" | ".string" => strings(asm, ctx, &args, Some(1)),
        ".string16" => strings(asm, ctx, &args, Some(2)),
        ".string32" => strings(asm, ctx, &args, Some(4)),
        ".string64" => strings(asm, ctx, &args, Some(8)),
        ".fill" => fill(asm, ctx, range, &args, false),
        ".fillq" => fill(asm, ctx, range, &args, true),
        ".skip" | ".space" => skip(asm, ctx, range, &args),
        ".align" | ".balign" => align(asm, ctx, range, &args, false, 1),
        ".balignw" => align(asm, ctx, range, &args, false, 2),
        ".balignl" => align(asm, ctx, range, &args, false, 4),
        ".p2align" => align(asm, ctx, range, &args, true, 1),
        ".org" => org(asm, ctx, range, &args),
        ".set" | ".equ" => set(asm, ctx, range, &args, false),
        ".equiv" => set(asm, ctx, range, &args, true),
        ".eqv" => eqv(asm, ctx, range, &args),
        ".undef" => undef(asm, ctx, &args),
        ".global" | ".globl" | ".local" | ".weak" | ".extern" => visibility(asm, ctx, &name, &args),
        ".size" => size(asm, ctx, range, &args),
        ".enum" => enumeration(asm, ctx, range, &args),
        ".scope" => asm.symbols.open_scope(word(&args, 0).as_deref()),
        ".ends" | ".endscope" => {
            if !asm.symbols.close_scope() {
                asm.error_at(ctx, range, "no scope is open");
            }
        }
        ".using" => match word(&args, 0) {
            Some(path) => asm.symbols.using(&path),
            None => asm.error_at(ctx, range, "`.using` needs a scope"),
        },
        ".unusing" => asm.symbols.unusing(word(&args, 0).as_deref()),
        ".text" | ".data" | ".rodata" => section(asm, ctx, range, &name),
        ".section" => match word(&args, 0) {
            Some(s) => section(asm, ctx, range, &s),
            None => asm.error_at(ctx, range, "`.section` needs a name"),
        },
        ".kernel" => match word(&args, 0) {
            Some(k) => {
                if let Err(m) = asm.layout.enter_kernel(&k) {
                    asm.error_at(ctx, range, m);
                }
            }
            None => asm.error_at(ctx, range, "`.kernel` needs a name"),
        },
        ".main" => asm.layout.enter_main(),
        ".amd" | ".amdcl2" | ".gallium" | ".rocm" | ".rawcode" => {
            set_format(asm, ctx, range, BinaryFormat::from_name(&name[1..]).unwrap())
        }
        ".format" => match word(&args, 0).and_then(|f| BinaryFormat::from_name(&f)) {
            Some(f) => set_format(asm, ctx, range, f),
            None => asm.error_at(ctx, range, "unknown binary format"),
        },
        ".gpu" => set_device(asm, ctx, range, &args, false),
        ".arch" => set_device(asm, ctx, range, &args, true),
        ".32bit" => asm.opts.is64 = false,
        ".64bit" => asm.opts.is64 = true,
        ".print" => message(asm, ctx, &args, None),
        ".warning" => message(asm, ctx, &args, Some(false)),
        ".error" => message(asm, ctx, &args, Some(true)),
        ".err" => asm.error_at(ctx, range, "`.err` reached"),
        ".fail" => fail(asm, ctx, range, &args),
        ".abort" => {
            asm.error_at(ctx, range, "assembly aborted by `.abort`");
            return Flow::Stop;
        }
        ".end" => return Flow::Stop,
        ".exitm" => {
            if ctx.origin.is_empty() {
                asm.error_at(ctx, range, "`.exitm` outside a macro");
            } else {
                return Flow::ExitMacro;
            }
        }
        ".purgem" => match word(&args, 0) {
            Some(m) => {
                let key = asm.macro_key(&m);
                if asm.macros.remove(&key).is_none() {
                    asm.error_at(ctx, range, format!("macro `{m}` is not defined"));
                }
            }
            None => asm.error_at(ctx, range, "`.purgem` needs a macro name"),
        },
        ".include" => match string_arg(asm, ctx, &args, 0) {
            Some(path) => return crate::macros::include(asm, ctx, op, &path),
            None => asm.error_at(ctx, range, "`.include` needs a file name in quotes"),
        },
        ".incbin" => incbin(asm, ctx, op, &args),
        ".altmacro" => asm.opts.alt_macro = true,
        ".noaltmacro" => asm.opts.alt_macro = false,
        ".macrocase" => asm.opts.macro_case_insensitive = true,
        ".nomacrocase" => asm.opts.macro_case_insensitive = false,
        ".buggyfplit" => asm.opts.buggy_fp_lit = true,
        ".nobuggyfplit" => asm.opts.buggy_fp_lit = false,
        ".oldmodparam" => asm.opts.old_mod_param = true,
        ".nooldmodparam" => asm.opts.old_mod_param = false,
        ".wave32" | ".nowave32" => {
            asm.opts.wave32 = name == ".wave32";
            asm.target.wave32 = asm.opts.wave32 && asm.target.gen.is_gfx10();
        }
        ".policy" => {
            if let Some(v) = args.first().and_then(|a| a.expr()).and_then(|e| asm.eval_abs_now(ctx, &e)) {
                asm.opts.policy = Some(v as u32);
            }
        }
        ".get_64bit" => query(asm, ctx, range, &args, i64::from(asm.opts.is64)),
        ".get_arch" => query(asm, ctx, range, &args, arch_id(asm.target.gen)),
        ".get_format" => query(asm, ctx, range, &args, format_id(asm.layout.format)),
        ".get_gpu" => query(asm, ctx, range, &args, gpu_id(asm.target.device)),
        ".get_version" => query(asm, ctx, range, &args, CLRX_VERSION),
        ".get_policy" => query(asm, ctx, range, &args, asm.opts.policy.map_or(DEFAULT_POLICY, i64::from)),
        ".file" | ".ln" | ".line" | ".sbttl" | ".title" | ".tittle" | ".version" | ".ident" | ".lflags" => {}
        _ if name.starts_with(".if") || name.starts_with(".else") || name == ".endif" => {}
        ".endm" | ".endmacro" | ".endr" | ".endrept" => {}
        _ => {
            if !crate::format_ops::pseudo_op(asm, ctx, op, &name, &args) {
                asm.error_at(ctx, range, format!("pseudo-op `{name}` is not supported yet"));
            }
        }
    }
    Flow::Continue
}

/// The first token of an argument as a word (a name, a number, a path).
fn word(args: &[ast::Arg], i: usize) -> Option<String> {
    args.get(i).map(|a| a.text()).filter(|t| !t.is_empty())
}

fn string_arg(asm: &mut Asm, ctx: &Ctx, args: &[ast::Arg], i: usize) -> Option<String> {
    let arg = args.get(i)?;
    let token = arg.raw_tokens().next().filter(|t| t.kind() == SyntaxKind::STRING)?;
    match literals::parse_string(token.text()) {
        Ok(bytes) => Some(String::from_utf8_lossy(&bytes).into_owned()),
        Err(m) => {
            asm.error_at(ctx, token.text_range(), m);
            None
        }
    }
}

fn data(asm: &mut Asm, ctx: &Ctx, args: &[ast::Arg], size: usize) {
    for arg in args {
        match arg.expr() {
            Some(e) => asm.emit_value(ctx, &e, size),
            None => {
                asm.warn_at(ctx, arg.syntax().text_range(), "empty value stored as 0");
                asm.emit(ctx, arg.syntax().text_range(), &[0; 8][..size]);
            }
        }
    }
}

/// `.octa`: 128-bit values, written as literals (or 64-bit expressions, sign-extended).
fn octa(asm: &mut Asm, ctx: &Ctx, args: &[ast::Arg]) {
    for arg in args {
        let range = arg.syntax().text_range();
        let big = arg
            .expr()
            .and_then(|e| match &e {
                ast::Expr::Literal(l) => l.token().filter(|t| t.kind() == SyntaxKind::INT_NUMBER),
                _ => None,
            })
            .and_then(|t| parse_u128(t.text()));
        let value = match big {
            Some(v) => v,
            None => match arg.expr().and_then(|e| asm.eval_abs_now(ctx, &e)) {
                Some(v) => v as i128 as u128,
                None => 0,
            },
        };
        asm.emit(ctx, range, &value.to_le_bytes());
    }
}

fn parse_u128(text: &str) -> Option<u128> {
    let lower = text.to_ascii_lowercase();
    if let Some(h) = lower.strip_prefix("0x") {
        return u128::from_str_radix(h, 16).ok();
    }
    if let Some(b) = lower.strip_prefix("0b") {
        return u128::from_str_radix(b, 2).ok();
    }
    if lower.len() > 1 && lower.starts_with('0') {
        return u128::from_str_radix(&lower[1..], 8).ok();
    }
    lower.parse().ok()
}

fn floats(asm: &mut Asm, ctx: &Ctx, args: &[ast::Arg], size: usize) {
    for arg in args {
        let range = arg.syntax().text_range();
        let value = match float_of(arg.expr()) {
            Ok(v) => v,
            Err(m) => {
                asm.error_at(ctx, range, m);
                0.0
            }
        };
        let bytes: Vec<u8> = match size {
            2 => half::f16::from_f64(value).to_bits().to_le_bytes().to_vec(),
            4 => (value as f32).to_bits().to_le_bytes().to_vec(),
            _ => value.to_bits().to_le_bytes().to_vec(),
        };
        asm.emit(ctx, range, &bytes);
    }
}

/// A float literal, possibly negated; integers are taken as floats too.
fn float_of(expr: Option<ast::Expr>) -> Result<f64, String> {
    match expr {
        Some(ast::Expr::Literal(l)) => {
            let t = l.token().ok_or("missing value")?;
            match t.kind() {
                SyntaxKind::FLOAT_NUMBER => literals::parse_float(t.text()),
                SyntaxKind::INT_NUMBER => literals::parse_int(t.text()).map(|v| v as f64),
                _ => Err("expected a floating-point number".into()),
            }
        }
        Some(ast::Expr::Prefix(p)) => {
            let v = float_of(p.expr())?;
            match p.op().map(|t| t.kind()) {
                Some(SyntaxKind::MINUS) => Ok(-v),
                Some(SyntaxKind::PLUS) => Ok(v),
                _ => Err("expected a floating-point number".into()),
            }
        }
        Some(ast::Expr::Paren(p)) => float_of(p.expr()),
        _ => Err("expected a floating-point number".into()),
    }
}

fn strings(asm: &mut Asm, ctx: &Ctx, args: &[ast::Arg], terminator: Option<usize>) {
    for arg in args {
        let range = arg.syntax().text_range();
        let Some(token) = arg.raw_tokens().next().filter(|t| t.kind() == SyntaxKind::STRING) else {
            asm.error_at(ctx, range, "expected a string");
            continue;
        };
        match literals::parse_string(token.text()) {
            Ok(bytes) => {
                let width = terminator.unwrap_or(1);
                let mut out = Vec::with_capacity(bytes.len() * width + width);
                for b in bytes {
                    out.push(b);
                    out.extend(std::iter::repeat_n(0, width - 1));
                }
                if terminator.is_some() {
                    out.extend(std::iter::repeat_n(0, width));
                }
                asm.emit(ctx, range, &out);
            }
            Err(m) => asm.error_at(ctx, range, m),
        }
    }
}

fn abs_arg(asm: &mut Asm, ctx: &Ctx, args: &[ast::Arg], i: usize) -> Option<Option<i64>> {
    match args.get(i).and_then(|a| a.expr()) {
        Some(e) => asm.eval_abs_now(ctx, &e).map(Some),
        None => Some(None),
    }
}

fn fill(asm: &mut Asm, ctx: &Ctx, range: TextRange, args: &[ast::Arg], quad: bool) {
    let Some(Some(count)) = abs_arg(asm, ctx, args, 0) else {
        if args.is_empty() {
            asm.error_at(ctx, range, "`.fill` needs a count");
        }
        return;
    };
    let Some(size) = abs_arg(asm, ctx, args, 1) else { return };
    let Some(value) = abs_arg(asm, ctx, args, 2) else { return };
    let size = size.unwrap_or(1);
    if count < 0 || !(0..=8).contains(&size) {
        asm.error_at(ctx, range, "`.fill` count must not be negative and size must be 0 to 8");
        return;
    }
    let value = value.unwrap_or(0);
    let value = if quad { value as u64 } else { value as u32 as u64 };
    let unit = &value.to_le_bytes()[..size as usize];
    let total = count as u64 * size as u64;
    if asm.layout.can_emit(total, asm.opts.limits.output_size).is_err() {
        asm.emit_fill(ctx, range, total, 0);
        return;
    }
    let bytes: Vec<u8> = unit.iter().copied().cycle().take(total as usize).collect();
    asm.emit(ctx, range, &bytes);
}

fn skip(asm: &mut Asm, ctx: &Ctx, range: TextRange, args: &[ast::Arg]) {
    let Some(Some(count)) = abs_arg(asm, ctx, args, 0) else { return };
    let Some(value) = abs_arg(asm, ctx, args, 1) else { return };
    if count < 0 {
        asm.error_at(ctx, range, "size must not be negative");
        return;
    }
    asm.emit_fill(ctx, range, count as u64, value.unwrap_or(0) as u8);
}

fn align(asm: &mut Asm, ctx: &Ctx, range: TextRange, args: &[ast::Arg], power: bool, unit: usize) {
    let Some(Some(n)) = abs_arg(asm, ctx, args, 0) else { return };
    let Some(value) = abs_arg(asm, ctx, args, 1) else { return };
    let Some(limit) = abs_arg(asm, ctx, args, 2) else { return };
    let alignment = if power {
        if !(0..63).contains(&n) {
            asm.error_at(ctx, range, "power of two alignment out of range");
            return;
        }
        1u64 << n
    } else {
        if n <= 0 || (n & (n - 1)) != 0 {
            asm.error_at(ctx, range, "alignment must be a power of two");
            return;
        }
        n as u64
    };
    let here = asm.layout.offset() as u64;
    let pad = (alignment - here % alignment) % alignment;
    if limit.is_some_and(|l| pad > l as u64) || pad == 0 {
        return;
    }
    if value.is_none() && asm.layout.is_code_section() && pad % 4 == 0 {
        // Code is padded with `s_nop 0`, whose encoding is the same on every generation.
        let nops: Vec<u8> = std::iter::repeat_n(0xBF80_0000u32.to_le_bytes(), (pad / 4) as usize).flatten().collect();
        asm.emit(ctx, range, &nops);
        return;
    }
    let v = value.unwrap_or(0) as u64;
    let pattern = &v.to_le_bytes()[..unit];
    let bytes: Vec<u8> = pattern.iter().copied().cycle().take(pad as usize).collect();
    asm.emit(ctx, range, &bytes);
}

fn org(asm: &mut Asm, ctx: &Ctx, range: TextRange, args: &[ast::Arg]) {
    let Some(e) = args.first().and_then(|a| a.expr()) else {
        asm.error_at(ctx, range, "`.org` needs a position");
        return;
    };
    let Some(v) = asm.eval_now(ctx, &e) else { return };
    let target = match v {
        Value::Abs(a) => a,
        Value::Rel { offset, .. } => offset,
    };
    let here = asm.layout.offset() as i64;
    if target < here {
        asm.error_at(ctx, range, "`.org` cannot move backwards");
        return;
    }
    asm.emit_fill(ctx, range, (target - here) as u64, 0);
}

fn symbol_name(asm: &mut Asm, ctx: &Ctx, range: TextRange, args: &[ast::Arg]) -> Option<(String, TextRange)> {
    let arg = args.first();
    let token = arg.and_then(|a| a.raw_tokens().next()).filter(|t| t.kind() == SyntaxKind::NAME);
    match token {
        Some(t) => Some((t.text().to_string(), t.text_range())),
        None => {
            asm.error_at(ctx, range, "expected a symbol name");
            None
        }
    }
}

fn set(asm: &mut Asm, ctx: &Ctx, range: TextRange, args: &[ast::Arg], once: bool) {
    let Some((name, name_range)) = symbol_name(asm, ctx, range, args) else { return };
    let Some(value) = args.get(1).and_then(|a| a.expr()) else {
        asm.error_at(ctx, range, "expected `SYMBOL, VALUE`");
        return;
    };
    asm.assign(ctx, &name, name_range, &value, once);
}

fn eqv(asm: &mut Asm, ctx: &Ctx, range: TextRange, args: &[ast::Arg]) {
    let Some((name, name_range)) = symbol_name(asm, ctx, range, args) else { return };
    let Some(value) = args.get(1).and_then(|a| a.expr()) else {
        asm.error_at(ctx, range, "expected `SYMBOL, VALUE`");
        return;
    };
    let id = asm.symbols.define_target(&name);
    if asm.symbols.get(id).is_defined() || asm.symbols.get(id).once_defined {
        asm.error_at(ctx, name_range, format!("symbol `{name}` is already defined"));
        return;
    }
    if matches!(value, ast::Expr::Percent(_)) {
        asm.assign(ctx, &name, name_range, &value, true);
        return;
    }
    let sym = asm.symbols.get_mut(id);
    sym.eqv = Some(value);
    sym.once_defined = true;
}

fn undef(asm: &mut Asm, ctx: &Ctx, args: &[ast::Arg]) {
    for arg in args {
        let name = arg.text();
        let id = asm.symbols.define_target(&name);
        if asm.symbols.get(id).is_label {
            asm.error_at(ctx, arg.syntax().text_range(), format!("label `{name}` cannot be undefined"));
            continue;
        }
        let sym = asm.symbols.get_mut(id);
        sym.value = None;
        sym.pending = None;
        sym.register = None;
        sym.eqv = None;
        sym.once_defined = false;
    }
}

fn visibility(asm: &mut Asm, _ctx: &Ctx, name: &str, args: &[ast::Arg]) {
    for arg in args {
        let id = asm.symbols.lookup(&arg.text());
        asm.symbols.get_mut(id).global = matches!(name, ".global" | ".globl" | ".weak");
    }
}

fn size(asm: &mut Asm, ctx: &Ctx, range: TextRange, args: &[ast::Arg]) {
    let Some((name, _)) = symbol_name(asm, ctx, range, args) else { return };
    let Some(Some(v)) = abs_arg(asm, ctx, args, 1) else { return };
    let id = asm.symbols.lookup(&name);
    asm.symbols.get_mut(id).size = Some(v);
}

fn enumeration(asm: &mut Asm, ctx: &Ctx, range: TextRange, args: &[ast::Arg]) {
    for arg in args {
        let text = arg.text();
        if let Some(start) = text.strip_prefix('>') {
            let start = start.trim();
            let value = if start.is_empty() {
                0
            } else {
                match literals::parse_int(start) {
                    Ok(v) => v as i64,
                    Err(m) => {
                        asm.error_at(ctx, arg.syntax().text_range(), m);
                        return;
                    }
                }
            };
            let counter = asm.symbols.lookup("\u{0}enum");
            asm.symbols.get_mut(counter).value = Some(Value::Abs(value));
            continue;
        }
        if text.is_empty() {
            asm.error_at(ctx, range, "expected a symbol name");
            continue;
        }
        let counter = asm.symbols.define_target("\u{0}enum");
        let n = asm.symbols.get(counter).value.and_then(|v| v.abs()).unwrap_or(0);
        let id = asm.symbols.define_target(&text);
        if asm.symbols.get(id).is_defined() {
            asm.error_at(ctx, arg.syntax().text_range(), format!("symbol `{text}` is already defined"));
            continue;
        }
        asm.symbols.get_mut(id).once_defined = true;
        asm.set_symbol(id, Value::Abs(n));
        asm.symbols.get_mut(counter).value = Some(Value::Abs(n + 1));
    }
}

fn section(asm: &mut Asm, ctx: &Ctx, range: TextRange, name: &str) {
    if let Err(m) = asm.layout.switch_section(name) {
        asm.error_at(ctx, range, m);
    }
}

fn set_format(asm: &mut Asm, ctx: &Ctx, range: TextRange, format: BinaryFormat) {
    if asm.layout.format == format {
        return;
    }
    let untouched = asm.layout.kernels.is_empty()
        && asm.layout.sections.len() == 1
        && asm.layout.sections[0].content.is_empty();
    if !untouched {
        asm.error_at(ctx, range, "the binary format must be chosen before any output");
        return;
    }
    asm.opts.format = format;
    asm.layout = crate::layout::Layout::new(format);
}

fn set_device(asm: &mut Asm, ctx: &Ctx, range: TextRange, args: &[ast::Arg], arch: bool) {
    let Some(name) = word(args, 0) else {
        asm.error_at(ctx, range, "expected a name");
        return;
    };
    let device = if arch {
        Generation::from_arch_name(&name).map(|g| g.default_device())
    } else {
        Device::from_name(&name)
    };
    match device {
        Some(d) => {
            asm.opts.device = d;
            asm.target.device = d;
            asm.target.gen = d.generation();
            asm.target.wave32 = asm.opts.wave32 && asm.target.gen.is_gfx10();
        }
        None => asm.error_at(ctx, range, format!("unknown {} `{name}`", if arch { "architecture" } else { "GPU device" })),
    }
}

fn message(asm: &mut Asm, ctx: &Ctx, args: &[ast::Arg], error: Option<bool>) {
    let range = args.first().map(|a| a.syntax().text_range()).unwrap_or_default();
    let text = string_arg(asm, ctx, args, 0).unwrap_or_default();
    match error {
        None => {
            asm.printed.push_str(&text);
            asm.printed.push('\n');
        }
        Some(true) => asm.error_at(ctx, range, text),
        Some(false) => asm.warn_at(ctx, range, text),
    }
}

fn fail(asm: &mut Asm, ctx: &Ctx, range: TextRange, args: &[ast::Arg]) {
    let Some(Some(v)) = abs_arg(asm, ctx, args, 0) else { return };
    if v >= 500 {
        asm.warn_at(ctx, range, format!("`.fail {v}` reached"));
    } else {
        asm.error_at(ctx, range, format!("`.fail {v}` reached"));
    }
}

fn incbin(asm: &mut Asm, ctx: &Ctx, op: &ast::PseudoOp, args: &[ast::Arg]) {
    let range = op.syntax().text_range();
    let Some(path) = string_arg(asm, ctx, args, 0) else {
        asm.error_at(ctx, range, "`.incbin` needs a file name in quotes");
        return;
    };
    let Some(offset) = abs_arg(asm, ctx, args, 1) else { return };
    let Some(count) = abs_arg(asm, ctx, args, 2) else { return };
    let including = asm.sources.file(ctx.mapper.map(range.start().into()).file).name.clone();
    let Some(found) = crate::macros::find_file(asm, &including, &path) else {
        asm.error_at(ctx, range, format!("cannot find file `{path}`"));
        return;
    };
    let bytes = match std::fs::read(&found) {
        Ok(b) => b,
        Err(e) => {
            asm.error_at(ctx, range, format!("cannot read `{path}`: {e}"));
            return;
        }
    };
    let start = offset.unwrap_or(0).clamp(0, bytes.len() as i64) as usize;
    let end = match count {
        Some(c) => (start as i64 + c.max(0)).min(bytes.len() as i64) as usize,
        None => bytes.len(),
    };
    asm.emit(ctx, range, &bytes[start..end]);
}

fn query(asm: &mut Asm, ctx: &Ctx, range: TextRange, args: &[ast::Arg], value: i64) {
    let Some((name, name_range)) = symbol_name(asm, ctx, range, args) else { return };
    let id = asm.symbols.define_target(&name);
    if asm.symbols.get(id).once_defined {
        asm.error_at(ctx, name_range, format!("symbol `{name}` is already defined"));
        return;
    }
    asm.set_symbol(id, Value::Abs(value));
}

fn arch_id(gen: Generation) -> i64 {
    gen.index() as i64
}

fn format_id(format: BinaryFormat) -> i64 {
    match format {
        BinaryFormat::Amd => 0,
        BinaryFormat::Gallium => 1,
        BinaryFormat::Rawcode => 2,
        BinaryFormat::AmdCl2 => 3,
        BinaryFormat::Rocm => 4,
    }
}

fn gpu_id(device: Device) -> i64 {
    const ORDER: &[&str] = &[
        "CapeVerde", "Pitcairn", "Tahiti", "Oland", "Bonaire", "Spectre", "Spooky", "Kalindi",
        "Hainan", "Hawaii", "Iceland", "Tonga", "Mullins", "Fiji", "Carrizo", "Dummy", "Goose",
        "Horse", "Stoney", "Ellesmere", "Baffin", "GFX804", "GFX900", "GFX901", "GFX902",
        "GFX903", "GFX904", "GFX905", "GFX906", "GFX907", "GFX1000", "GFX1010", "GFX1011",
    ];
    ORDER.iter().position(|n| n.eq_ignore_ascii_case(device.name())).map_or(-1, |i| i as i64)
}

/// Evaluates the condition of an `.if*`/`.elseif*`/`.else` header; `None` on error.
pub(crate) fn condition(asm: &mut Asm, ctx: &Ctx, header: &ast::PseudoOp) -> Option<bool> {
    let name = header.name();
    let range = header.syntax().text_range();
    if name == ".else" {
        return Some(true);
    }
    let kind = name.strip_prefix(".elseif").or_else(|| name.strip_prefix(".if"))?;
    let args: Vec<ast::Arg> = header.args().collect();
    let abs = |asm: &mut Asm| -> Option<i64> {
        match args.first().and_then(|a| a.expr()) {
            Some(e) => asm.eval_abs_now(ctx, &e),
            None => {
                asm.error_at(ctx, range, "missing expression");
                None
            }
        }
    };
    let text = |i: usize| args.get(i).map(|a| a.text()).unwrap_or_default();
    Some(match kind {
        "" | "ne" => abs(asm)? != 0,
        "eq" => abs(asm)? == 0,
        "gt" => abs(asm)? > 0,
        "ge" => abs(asm)? >= 0,
        "lt" => abs(asm)? < 0,
        "le" => abs(asm)? <= 0,
        "def" | "ndef" | "notdef" => {
            let id = asm.symbols.lookup(&text(0));
            let defined = asm.symbols.get(id).is_defined();
            if kind == "def" { defined } else { !defined }
        }
        "b" => text(0).is_empty(),
        "nb" => !text(0).is_empty(),
        "c" | "nc" => {
            let same = unquote(&text(0)) == unquote(&text(1));
            if kind == "c" { same } else { !same }
        }
        "eqs" | "nes" => {
            let a = string_arg(asm, ctx, &args, 0)?;
            let b = string_arg(asm, ctx, &args, 1)?;
            if kind == "eqs" { a == b } else { a != b }
        }
        "arch" | "narch" => {
            let Some(g) = Generation::from_arch_name(&text(0)) else {
                asm.error_at(ctx, range, format!("unknown architecture `{}`", text(0)));
                return None;
            };
            (g == asm.target.gen) == (kind == "arch")
        }
        "gpu" | "ngpu" => {
            let Some(d) = Device::from_name(&text(0)) else {
                asm.error_at(ctx, range, format!("unknown GPU device `{}`", text(0)));
                return None;
            };
            (d == asm.target.device) == (kind == "gpu")
        }
        "fmt" | "nfmt" => {
            let Some(f) = BinaryFormat::from_name(&text(0)) else {
                asm.error_at(ctx, range, format!("unknown binary format `{}`", text(0)));
                return None;
            };
            (f == asm.layout.format) == (kind == "fmt")
        }
        "32" => !asm.opts.is64,
        "64" => asm.opts.is64,
        _ => {
            asm.error_at(ctx, range, format!("unknown conditional `{name}`"));
            return None;
        }
    })
}

fn unquote(s: &str) -> String {
    let t = s.trim();
    t.strip_prefix('"').and_then(|t| t.strip_suffix('"')).unwrap_or(t).to_string()
}
