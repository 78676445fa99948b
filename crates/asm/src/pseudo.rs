//! General pseudo-ops: data, alignment, sections, symbols, scopes, conditions, messages,
//! switches and queries, with the reference's rules. Binary-format pseudo-ops (`.config`,
//! `.arg`, …) go to [`crate::format_ops`].

use gcn_isa::{Device, Generation, PseudoOpId as Id};
use gcn_syntax::ast::{self, AstNode};
use gcn_syntax::{SyntaxKind, TextRange};

use crate::assembler::{Asm, Ctx, CtxKind, Flow};
use crate::expr::Value;
use crate::literals;
use crate::macros::{eval_text_expr, name_len, token_class, TextCtx};
use crate::options::BinaryFormat;
use crate::suggestions::TargetName;
use crate::symbols::Binding;
use crate::text::{clean_text, Text};

/// CLRX version reported by `.get_version` (major*10000 + minor*100 + micro): 0.1.9.
pub const CLRX_VERSION: i64 = 109;
/// Policy version by default (`.get_policy`): the same as the version, as in the
/// reference.
pub const DEFAULT_POLICY: u32 = 109;

/// Whether `name` (lowercase) is a general pseudo-op.
/// The general pseudo-ops are the rows of `gcn-isa`'s pseudo-op table valid in every
/// format (`data/pseudo_ops.txt`, formats `all`).
pub(crate) fn is_pseudo_op(name: &str) -> bool {
    gcn_isa::pseudo_ops::is_general(name)
}

pub(crate) fn pseudo_op(asm: &mut Asm, ctx: &Ctx, op: &ast::PseudoOp) -> Flow {
    let name = op.name();
    let args: Vec<ast::Arg> = op.args().collect();
    let range = op.syntax().text_range();
    // Dispatched on the pseudo-op table's row: a general pseudo-op handled here is one the
    // table lists for every format; the others go to the format's handlers.
    let row = gcn_isa::pseudo_op(&name).filter(|p| p.is_general());
    let id = row.map(|p| p.id);
    // Blocks and conditions check their own headers and ends where they are read (a
    // stray one here was reported by the parser).
    if let Some(row) = row.filter(|p| {
        !matches!(
            p.role,
            gcn_isa::PseudoRole::Cond | gcn_isa::PseudoRole::Block
        ) || p.id == Id::Scope
    }) {
        if !no_extra_args(asm, ctx, op, row) {
            return Flow::Continue;
        }
    }
    match id {
        Some(Id::Byte) => data(asm, ctx, &args, 1),
        Some(Id::Hword) | Some(Id::Short) => data(asm, ctx, &args, 2),
        Some(Id::Int) | Some(Id::Long) | Some(Id::Word) => data(asm, ctx, &args, 4),
        Some(Id::Quad) => data(asm, ctx, &args, 8),
        Some(Id::Octa) => octa(asm, ctx, &args),
        Some(Id::Half) => floats(asm, ctx, &args, 2),
        Some(Id::Float) | Some(Id::Single) => floats(asm, ctx, &args, 4),
        Some(Id::Double) => floats(asm, ctx, &args, 8),
        Some(Id::Ascii) => strings(asm, ctx, &args, 1, false),
        Some(Id::Asciz) | Some(Id::String) => strings(asm, ctx, &args, 1, true),
        Some(Id::String16) => strings(asm, ctx, &args, 2, true),
        Some(Id::String32) => strings(asm, ctx, &args, 4, true),
        Some(Id::String64) => strings(asm, ctx, &args, 8, true),
        Some(Id::Fill) => fill(asm, ctx, range, &args, false),
        Some(Id::Fillq) => fill(asm, ctx, range, &args, true),
        Some(Id::Skip) | Some(Id::Space) => skip(asm, ctx, range, &args),
        Some(Id::Align) | Some(Id::Balign) => align(asm, ctx, range, &args, false),
        Some(Id::P2align) => align(asm, ctx, range, &args, true),
        Some(Id::Balignw) => align_word(asm, ctx, range, &args, 2),
        Some(Id::Balignl) => align_word(asm, ctx, range, &args, 4),
        Some(Id::Org) => org(asm, ctx, range, &args),
        Some(Id::Struct) | Some(Id::Offset) => {
            if let Some(v) = required_abs(asm, ctx, range, &args, 0) {
                asm.format_fixed = true;
                asm.abs_offset = Some(v);
            }
        }
        Some(Id::Set) | Some(Id::Equ) => set(asm, ctx, range, &args, true, false),
        Some(Id::Equiv) => set(asm, ctx, range, &args, false, false),
        Some(Id::Eqv) => set(asm, ctx, range, &args, false, true),
        Some(Id::Undef) => undef(asm, ctx, range, &args),
        Some(Id::Global) | Some(Id::Globl) => binding(asm, ctx, &args, Binding::Global),
        Some(Id::Local) => binding(asm, ctx, &args, Binding::Local),
        Some(Id::Weak) => binding(asm, ctx, &args, Binding::Weak),
        Some(Id::Extern) => {}
        Some(Id::Size) => size(asm, ctx, range, &args),
        Some(Id::Enum) => enumeration(asm, ctx, op),
        Some(Id::Scope) => match word(&args, 0) {
            Some(w) if name_len(w.as_bytes(), 0) != w.len() => {
                asm.error_at(ctx, range, "expected a scope name")
            }
            w => {
                if asm.symbols.depth() >= 1000 {
                    asm.error_at(ctx, range, "scopes nested deeper than 1000");
                } else {
                    asm.symbols.open_scope(w.as_deref());
                    if let Some(token) = args
                        .first()
                        .and_then(|a| a.raw_tokens().next())
                        .filter(|_| w.is_some())
                    {
                        let path = asm.symbols.current_path();
                        asm.note_name(
                            ctx,
                            crate::index::NameKind::Scope,
                            |_| path,
                            token.text_range(),
                            true,
                        );
                    }
                }
            }
        },
        Some(Id::Ends) | Some(Id::Endscope) => {
            if asm.symbols.close_scope().is_none() {
                asm.error_at(ctx, range, "the global scope cannot be closed");
            }
        }
        Some(Id::Using) => match word(&args, 0) {
            Some(path) if path != "::" => {
                let full = asm.symbols.using(&path);
                note_scope_path(asm, ctx, &args, &full);
            }
            _ => asm.error_at(ctx, range, "`.using` needs a scope path"),
        },
        Some(Id::Unusing) => match word(&args, 0) {
            Some(path) if path == "::" => asm.error_at(ctx, range, "expected a scope path"),
            path => {
                if let Some(full) = asm.symbols.unusing(path.as_deref()) {
                    note_scope_path(asm, ctx, &args, &full);
                }
            }
        },
        Some(Id::Text) | Some(Id::Data) | Some(Id::Rodata) => section(asm, ctx, range, &name),
        Some(Id::Section) => match section_name(&args) {
            Some(s) => section(asm, ctx, range, &s),
            None => asm.error_at(ctx, range, "`.section` needs a name"),
        },
        Some(Id::Kernel) => {
            asm.format_fixed = true;
            asm.abs_offset = None;
            crate::format_ops::kernel(&mut asm.format_host(ctx), range, &args);
        }
        Some(Id::Main) => {
            asm.format_fixed = true;
            asm.abs_offset = None;
            asm.layout.enter_main();
        }
        Some(Id::Amd) | Some(Id::Amdcl2) | Some(Id::Gallium) | Some(Id::Rocm)
        | Some(Id::Rawcode) => {
            let format = BinaryFormat::from_name(&name[1..]).unwrap();
            set_format(asm, ctx, range, format);
        }
        Some(Id::Amd3) => {
            if set_format(asm, ctx, range, BinaryFormat::Rocm) {
                crate::format_ops::choose_amd3(&mut asm.format_host(ctx), range);
            }
        }
        Some(Id::Format) => match word(&args, 0).and_then(|f| format_by_name(&f)) {
            Some(f) => {
                set_format(asm, ctx, range, f);
            }
            None => match args.first().filter(|a| !a.text().is_empty()) {
                Some(arg) => asm.unknown_target_name(ctx, arg, TargetName::Format),
                None => asm.error_at(ctx, range, "expected a binary format"),
            },
        },
        Some(Id::Gpu) => set_device(asm, ctx, range, &args, false),
        Some(Id::Arch) => set_device(asm, ctx, range, &args, true),
        Some(Id::Dot32bit) | Some(Id::Dot64bit) => {
            bitness(asm, ctx, range, id == Some(Id::Dot64bit))
        }
        Some(Id::Print) => {
            if let Some(text) = string_arg(asm, ctx, range, &args, 0) {
                asm.printed.push_str(&text);
                asm.printed.push('\n');
            }
        }
        Some(Id::Warning) => match args.first().filter(|a| !a.is_empty()) {
            None => asm.warn_at(ctx, range, "`.warning` reached"),
            Some(_) => {
                if let Some(text) = string_arg(asm, ctx, range, &args, 0) {
                    asm.warn_at(ctx, range, text);
                }
            }
        },
        Some(Id::Error) => match args.first().filter(|a| !a.is_empty()) {
            None => asm.error_at(ctx, range, "`.error` reached"),
            Some(_) => {
                if let Some(text) = string_arg(asm, ctx, range, &args, 0) {
                    asm.error_at(ctx, range, text);
                }
            }
        },
        Some(Id::Err) => asm.error_at(ctx, range, "`.err` reached"),
        Some(Id::Fail) => {
            if let Some(v) = required_abs(asm, ctx, range, &args, 0) {
                if v >= 500 {
                    asm.warn_at(ctx, range, format!("`.fail {v}` reached"));
                } else {
                    asm.error_at(ctx, range, format!("`.fail {v}` reached"));
                }
            }
        }
        Some(Id::Abort) => {
            asm.error_at(ctx, range, "assembly aborted by `.abort`");
            return Flow::Stop;
        }
        Some(Id::End) => return Flow::Stop,
        Some(Id::Exitm) => match ctx.kind {
            CtxKind::File => asm.warn_at(ctx, range, "`.exitm` outside a macro is ignored"),
            CtxKind::Repeat => {
                asm.warn_at(ctx, range, "`.exitm` in a repetition leaves the repetition");
                return Flow::ExitMacro;
            }
            CtxKind::Macro => return Flow::ExitMacro,
        },
        Some(Id::Purgem) => match word(&args, 0) {
            Some(m) => {
                let key = asm.macro_key(&m);
                if asm.macros.remove(&key).is_none() {
                    let at = args.first().map_or(range, |a| a.syntax().text_range());
                    asm.warn_at(ctx, at, format!("macro `{m}` does not exist"));
                }
            }
            None => asm.error_at(ctx, range, "`.purgem` needs a macro name"),
        },
        Some(Id::Include) => {
            let path_range = args.first().map_or(range, |a| a.syntax().text_range());
            if let Some(path) = string_arg(asm, ctx, range, &args, 0) {
                return crate::macros::include(asm, ctx, op, &path, path_range);
            }
        }
        Some(Id::Incbin) => incbin(asm, ctx, range, &args),
        Some(Id::Altmacro) => asm.opts.alt_macro = true,
        Some(Id::Noaltmacro) => asm.opts.alt_macro = false,
        Some(Id::Macrocase) => asm.opts.macro_case_insensitive = true,
        Some(Id::Nomacrocase) => asm.opts.macro_case_insensitive = false,
        // CLRX 0.1.2's float-literal rules, for the instructions that follow
        // (gcn_isa::encode::operands::FpRules).
        Some(Id::Buggyfplit) | Some(Id::Nobuggyfplit) => {
            asm.opts.buggy_fp_lit = id == Some(Id::Buggyfplit);
            asm.target.buggy_fp_lit = asm.opts.buggy_fp_lit;
        }
        Some(Id::Oldmodparam) => asm.opts.old_mod_param = true,
        Some(Id::Nooldmodparam) => asm.opts.old_mod_param = false,
        Some(Id::Wave32) | Some(Id::Nowave32) => {
            asm.opts.wave32 = id == Some(Id::Wave32);
            asm.target.wave32 = asm.opts.wave32 && asm.target.gen.is_gfx10();
            crate::format_ops::device_chosen(&mut asm.format_host(ctx), range);
        }
        Some(Id::Policy) => {
            if let Some(v) = required_abs(asm, ctx, range, &args, 0) {
                if !(0..=u32::MAX as i64).contains(&v) {
                    let r = args[0].syntax().text_range();
                    asm.warn_at(
                        ctx,
                        r,
                        format!("value {:#x} truncated to {:#x}", v as u64, v as u32),
                    );
                }
                asm.opts.policy = Some(v as u32);
            }
        }
        Some(Id::Get64bit) => query(asm, ctx, range, &args, i64::from(asm.opts.is64)),
        Some(Id::GetArch) => query(asm, ctx, range, &args, asm.target.gen.index() as i64),
        Some(Id::GetFormat) => query(asm, ctx, range, &args, format_id(asm.layout.format)),
        Some(Id::GetGpu) => query(asm, ctx, range, &args, gpu_id(asm.target.device)),
        Some(Id::GetVersion) => query(asm, ctx, range, &args, CLRX_VERSION),
        Some(Id::GetPolicy) => query(
            asm,
            ctx,
            range,
            &args,
            i64::from(asm.opts.policy.unwrap_or(DEFAULT_POLICY)),
        ),
        Some(Id::File) | Some(Id::Line) | Some(Id::Ln) | Some(Id::Lflags) => {
            asm.warn_at(ctx, range, format!("`{name}` is ignored by this assembler"))
        }
        Some(Id::Title) | Some(Id::Sbttl) | Some(Id::Version) => {
            string_arg(asm, ctx, range, &args, 0);
        }
        // Register variables, register-usage hints and code-flow hints serve the
        // reference's register allocator and wait-state analysis, which this assembler
        // does not have: accepted and ignored.
        Some(Id::Regvar) | Some(Id::Usereg) | Some(Id::Rvlin) | Some(Id::RvlinOnce)
        | Some(Id::CfCall) | Some(Id::CfCjump) | Some(Id::CfEnd) | Some(Id::CfJump)
        | Some(Id::CfRet) | Some(Id::CfStart) => {}
        // Block pseudo-ops outside their block: the parser reported them.
        _ if row.is_some_and(|p| p.role == gcn_isa::PseudoRole::Cond) => {}
        Some(Id::Endm) | Some(Id::Endmacro) | Some(Id::Endr) | Some(Id::Endrept)
        | Some(Id::Macro) | Some(Id::Rept) | Some(Id::Irp) | Some(Id::Irpc) | Some(Id::For)
        | Some(Id::While) => {}
        _ => {
            if crate::format_ops::pseudo_op(&mut asm.format_host(ctx), op, &name, &args) {
                // As in the reference, a pseudo-op of the binary format fixes the format.
                asm.format_fixed = true;
            } else {
                let message = match gcn_isa::pseudo_op(&name) {
                    Some(other) if !other.is_general() => {
                        let formats: Vec<String> = other
                            .formats
                            .names()
                            .iter()
                            .map(|f| format!("`{f}`"))
                            .collect();
                        let format = asm.layout.format.name();
                        let (list, plural) = match formats.as_slice() {
                            [only] => (only.clone(), ""),
                            [first @ .., last] => (format!("{} and {last}", first.join(", ")), "s"),
                            [] => (String::new(), ""),
                        };
                        format!("`{name}` is a pseudo-op of the {list} binary format{plural}; the format in use is `{format}`")
                    }
                    _ => {
                        let at = op.name_token().map_or(range, |t| t.text_range());
                        let message = format!("`{name}` is neither a pseudo-op nor a macro");
                        let suggestions = asm.pseudo_op_suggestions(&name);
                        return suggest_or_continue(asm, ctx, at, message, suggestions);
                    }
                };
                asm.error_at(ctx, range, message);
            }
        }
    }
    Flow::Continue
}

// ---- arguments ----------------------------------------------------------------------

/// [`no_extra_args`] for the header or end of a block or a conditional (`.rept`,
/// `.if`, `.else`, `.endif`, `.endr`, `.endm`, …), known by its name.
pub(crate) fn block_args_ok(asm: &mut Asm, ctx: &Ctx, op: &ast::PseudoOp) -> bool {
    match gcn_isa::pseudo_op(&op.name()).filter(|p| p.is_general()) {
        Some(row) => no_extra_args(asm, ctx, op, row),
        None => true,
    }
}

/// Reports text past the last argument a general pseudo-op takes (its row's `max_args`,
/// from the table's syntax), at its first character: the comma before the first extra
/// argument, or for a pseudo-op without arguments its first one. The reference ends each
/// handler with this check ("Garbages at end of line"; "… of expression" for `.equ`,
/// `.set`, `.equiv` and `.eqv`) and does nothing when it fails. True when there is none.
pub(crate) fn no_extra_args(
    asm: &mut Asm,
    ctx: &Ctx,
    op: &ast::PseudoOp,
    row: &gcn_isa::PseudoOp,
) -> bool {
    let Some(max) = row.max_args else { return true };
    let Some(list) = op
        .syntax()
        .children()
        .find(|n| n.kind() == SyntaxKind::ARG_LIST)
    else {
        return true;
    };
    let list_range = list.text_range();
    let start = if max == 0 {
        (!list_range.is_empty()).then_some(list_range.start())
    } else {
        list.children_with_tokens()
            .filter(|e| e.kind() == SyntaxKind::COMMA)
            .nth(usize::from(max) - 1)
            .map(|c| c.text_range().start())
    };
    let Some(start) = start else { return true };
    let name = row.name;
    let (what, takes) = match row.id {
        Id::Equ | Id::Set | Id::Equiv | Id::Eqv => (
            "garbage at end of expression",
            format!("`{name}` takes a symbol and a value"),
        ),
        _ => ("garbage at end of line", takes_args(name, max)),
    };
    asm.error_at(
        ctx,
        TextRange::new(start, list_range.end()),
        format!("{what}: {takes}"),
    );
    false
}

fn takes_args(name: &str, max: u8) -> String {
    match max {
        0 => format!("`{name}` takes no arguments"),
        1 => format!("`{name}` takes one argument"),
        n => format!("`{name}` takes at most {n} arguments"),
    }
}

/// The text of an argument (a name, a number, a path).
/// Records the scopes a `.using`/`.unusing` path names (its first token), `full`
/// being the full path of the last.
fn note_scope_path(asm: &mut Asm, ctx: &Ctx, args: &[ast::Arg], full: &str) {
    if let Some(token) = args.first().and_then(|a| a.raw_tokens().next()) {
        asm.note_scope_parts(ctx, token.text(), token.text_range().start(), full);
    }
}

fn word(args: &[ast::Arg], i: usize) -> Option<String> {
    args.get(i).map(|a| a.text()).filter(|t| !t.is_empty())
}

/// `.section NAME, …`: the name is the first token of the first argument.
fn section_name(args: &[ast::Arg]) -> Option<String> {
    let first = args.first()?;
    let token = first.raw_tokens().next()?;
    Some(token.text().to_string())
}

/// A string argument's bytes as text (`.include "file"`, `.print "text"`).
fn string_arg(
    asm: &mut Asm,
    ctx: &Ctx,
    range: TextRange,
    args: &[ast::Arg],
    i: usize,
) -> Option<String> {
    let Some(arg) = args.get(i) else {
        asm.error_at(ctx, range, "expected a string");
        return None;
    };
    let mut tokens = arg.raw_tokens();
    match (tokens.next(), tokens.next()) {
        (Some(t), None) if t.kind() == SyntaxKind::STRING => match literals::parse_string(t.text())
        {
            Ok(bytes) => Some(crate::encoding::bytes_to_text(&bytes)),
            Err(m) => {
                asm.error_at(ctx, t.text_range(), m);
                None
            }
        },
        _ => {
            asm.error_at(ctx, arg.syntax().text_range(), "expected a string");
            None
        }
    }
}

/// An argument that must have an absolute value now.
fn required_abs(
    asm: &mut Asm,
    ctx: &Ctx,
    range: TextRange,
    args: &[ast::Arg],
    i: usize,
) -> Option<i64> {
    match args.get(i).and_then(|a| a.expr()) {
        Some(e) => asm.eval_abs_now(ctx, &e),
        None => {
            asm.error_at(
                ctx,
                args.get(i).map_or(range, |a| a.syntax().text_range()),
                "expected an expression",
            );
            None
        }
    }
}

/// An optional argument: `Ok(None)` when absent or empty, `Err` on error.
fn optional_abs(asm: &mut Asm, ctx: &Ctx, args: &[ast::Arg], i: usize) -> Result<Option<i64>, ()> {
    match args.get(i).and_then(|a| a.expr()) {
        Some(e) => asm.eval_abs_now(ctx, &e).map(Some).ok_or(()),
        None => Ok(None),
    }
}

fn arg_range(args: &[ast::Arg], i: usize, fallback: TextRange) -> TextRange {
    args.get(i).map_or(fallback, |a| a.syntax().text_range())
}

/// Warns when `value` does not fit in `bits` (as a signed or unsigned number).
fn warn_range(asm: &mut Asm, ctx: &Ctx, range: TextRange, bits: u32, value: i64) {
    if bits >= 64 {
        return;
    }
    if value >= (1i64 << bits) || value < -(1i64 << (bits - 1)) {
        let truncated = (value as u64) & ((1u64 << bits) - 1);
        asm.warn_at(
            ctx,
            range,
            format!("value {:#x} truncated to {:#x}", value as u64, truncated),
        );
    }
}

// ---- data -----------------------------------------------------------------------------

fn data(asm: &mut Asm, ctx: &Ctx, args: &[ast::Arg], size: usize) {
    for arg in args {
        match arg.expr() {
            Some(e) => asm.emit_value(ctx, &e, size),
            _ => {
                asm.warn_at(
                    ctx,
                    arg.syntax().text_range(),
                    "no expression: 0 was stored",
                );
                asm.emit(ctx, arg.syntax().text_range(), &[0; 8][..size]);
            }
        }
    }
}

/// `.octa`: 128-bit literals, optionally signed.
fn octa(asm: &mut Asm, ctx: &Ctx, args: &[ast::Arg]) {
    for arg in args {
        let range = arg.syntax().text_range();
        let text = arg.text();
        let value = if text.is_empty() {
            asm.warn_at(ctx, range, "no 128-bit literal: 0 was stored");
            0
        } else {
            let (negative, digits) = match text.strip_prefix('-') {
                Some(rest) => (true, rest.trim_start()),
                None => (false, text.strip_prefix('+').unwrap_or(&text).trim_start()),
            };
            match parse_u128(digits) {
                Some(v) if negative => v.wrapping_neg(),
                Some(v) => v,
                None => {
                    asm.error_at(
                        ctx,
                        range,
                        format!("`{text}` is not a 128-bit integer literal"),
                    );
                    0
                }
            }
        };
        asm.emit(ctx, range, &value.to_le_bytes());
    }
}

fn parse_u128(text: &str) -> Option<u128> {
    let lower = text.to_ascii_lowercase();
    let (digits, radix) = if let Some(h) = lower.strip_prefix("0x") {
        (h, 16)
    } else if let Some(b) = lower.strip_prefix("0b") {
        (b, 2)
    } else if lower.len() > 1 && lower.starts_with('0') {
        (&lower[1..], 8)
    } else {
        (lower.as_str(), 10)
    };
    if digits.is_empty() {
        return None;
    }
    u128::from_str_radix(digits, radix).ok()
}

fn floats(asm: &mut Asm, ctx: &Ctx, args: &[ast::Arg], size: usize) {
    for arg in args {
        let range = arg.syntax().text_range();
        let text = arg.text();
        let bits = if text.is_empty() {
            asm.warn_at(ctx, range, "no floating-point literal: 0 was stored");
            0
        } else {
            match float_bits(&text, size) {
                Ok(bits) => bits,
                Err(m) => {
                    asm.error_at(ctx, range, m);
                    0
                }
            }
        };
        asm.emit(ctx, range, &bits.to_le_bytes()[..size]);
    }
}

/// The bits of a floating-point literal (optionally signed) of `size` bytes, as the
/// reference's `cstrtofXCStyle` reads it: `inf` and `nan` in any case (a sign is kept on
/// infinity, never on NaN, which is the quiet NaN), an exponent marker needs digits, and
/// a value that rounds past the largest finite number is an error.
fn float_bits(text: &str, size: usize) -> Result<u64, String> {
    let bad = || format!("`{text}` is not a floating-point literal");
    let (negative, body) = match text.strip_prefix('-') {
        Some(rest) => (true, rest.trim_start()),
        None => (false, text.strip_prefix('+').unwrap_or(text).trim_start()),
    };
    let lower = body.to_ascii_lowercase();
    // Exponent and mantissa bits of the width.
    let (exp_bits, mant_bits) = match size {
        2 => (5, 10),
        4 => (8, 23),
        _ => (11, 52),
    };
    let exp_all_ones = ((1u64 << exp_bits) - 1) << mant_bits;
    let sign_bit = 1u64 << (exp_bits + mant_bits);
    match lower.as_str() {
        "nan" => return Ok(exp_all_ones | 1 << (mant_bits - 1)),
        "inf" => return Ok(exp_all_ones | if negative { sign_bit } else { 0 }),
        _ => {}
    }
    let is_hex = lower.starts_with("0x");
    let valid = !lower.is_empty()
        && if is_hex {
            lower[2..]
                .chars()
                .all(|c| c.is_ascii_hexdigit() || matches!(c, '.' | 'p' | '+' | '-'))
        } else {
            lower
                .chars()
                .all(|c| c.is_ascii_digit() || matches!(c, '.' | 'e' | '+' | '-'))
        };
    if !valid {
        return Err(bad());
    }
    let v = if is_hex {
        literals::parse_float(&lower).map_err(|_| bad())?
    } else {
        if let Some((_, exponent)) = lower.split_once('e') {
            let digits = exponent.strip_prefix(['+', '-']).unwrap_or(exponent);
            if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                return Err(format!(
                    "`{text}`: garbage at the floating-point exponent (digits expected)"
                ));
            }
        }
        // Single precision is read from the text, to round once.
        if size == 4 {
            let f = lower.parse::<f32>().map_err(|_| bad())?;
            if f.is_infinite() {
                return Err(too_big(text));
            }
            let f = if negative { -f } else { f };
            return Ok(u64::from(f.to_bits()));
        }
        lower.parse::<f64>().map_err(|_| bad())?
    };
    let v = if negative { -v } else { v };
    let bits = match size {
        2 => u64::from(half::f16::from_f64(v).to_bits()),
        4 => u64::from((v as f32).to_bits()),
        _ => v.to_bits(),
    };
    if bits & exp_all_ones == exp_all_ones {
        return Err(too_big(text));
    }
    Ok(bits)
}

fn too_big(text: &str) -> String {
    format!("`{text}`: absolute value of the number is too big for its precision")
}

fn strings(asm: &mut Asm, ctx: &Ctx, args: &[ast::Arg], width: usize, terminate: bool) {
    for arg in args {
        if arg.is_empty() {
            continue;
        }
        let range = arg.syntax().text_range();
        let mut tokens = arg.raw_tokens();
        let token = match (tokens.next(), tokens.next()) {
            (Some(t), None) if t.kind() == SyntaxKind::STRING => t,
            _ => {
                asm.error_at(ctx, range, "expected a string");
                continue;
            }
        };
        match literals::parse_string(token.text()) {
            Ok(bytes) => {
                let mut out = Vec::with_capacity((bytes.len() + 1) * width);
                for b in bytes {
                    out.push(b);
                    out.extend(std::iter::repeat_n(0, width - 1));
                }
                if terminate {
                    out.extend(std::iter::repeat_n(0, width));
                }
                asm.emit(ctx, range, &out);
            }
            Err(m) => asm.error_at(ctx, range, m),
        }
    }
}

fn fill(asm: &mut Asm, ctx: &Ctx, range: TextRange, args: &[ast::Arg], quad: bool) {
    let Some(repeat) = required_abs(asm, ctx, range, args, 0) else {
        return;
    };
    if repeat < 0 {
        asm.warn_at(
            ctx,
            arg_range(args, 0, range),
            "a negative count has no effect",
        );
    }
    let Ok(size) = optional_abs(asm, ctx, args, 1) else {
        return;
    };
    let size = size.unwrap_or(1);
    if size < 0 {
        asm.warn_at(
            ctx,
            arg_range(args, 1, range),
            "a negative size has no effect",
        );
    }
    let Ok(value) = optional_abs(asm, ctx, args, 2) else {
        return;
    };
    let value = value.unwrap_or(0);
    let mut trunc_bits = (size.clamp(0, 8) as u32) * 8;
    if !quad {
        trunc_bits = trunc_bits.min(32);
    }
    if trunc_bits != 0 {
        warn_range(asm, ctx, arg_range(args, 2, range), trunc_bits, value);
    }
    if repeat <= 0 || size <= 0 {
        return;
    }
    let total = (repeat as u128) * (size as u128);
    if total > u128::from(asm.opts.limits.output_size) {
        let limit = asm.opts.limits.output_size;
        asm.error_at(
            ctx,
            range,
            format!("output would exceed {limit} bytes (raise the limit with --max-output-size)"),
        );
        return;
    }
    let value = if quad {
        value as u64
    } else {
        value as u64 & 0xffff_ffff
    };
    let unit_len = size.min(8) as usize;
    let mut unit = value.to_le_bytes()[..unit_len].to_vec();
    unit.resize(size as usize, 0);
    if unit.iter().all(|&b| b == 0) {
        asm.reserve(ctx, range, total as u64, 0);
        return;
    }
    let mut bytes = Vec::with_capacity(total as usize);
    for _ in 0..repeat {
        bytes.extend_from_slice(&unit);
    }
    asm.emit(ctx, range, &bytes);
}

fn skip(asm: &mut Asm, ctx: &Ctx, range: TextRange, args: &[ast::Arg]) {
    let Ok(size) = optional_abs(asm, ctx, args, 0) else {
        return;
    };
    let size = size.unwrap_or(1);
    if size < 0 {
        asm.warn_at(
            ctx,
            arg_range(args, 0, range),
            "a negative size has no effect",
        );
    }
    let Ok(value) = optional_abs(asm, ctx, args, 1) else {
        return;
    };
    let value = value.unwrap_or(0);
    warn_range(asm, ctx, arg_range(args, 1, range), 8, value);
    if size < 0 {
        return;
    }
    if asm.abs_offset.is_some() && value != 0 {
        asm.warn_at(
            ctx,
            arg_range(args, 1, range),
            "the fill value is ignored in the absolute section",
        );
    }
    asm.reserve(ctx, range, size as u64, value as u8);
}

/// Bytes of `s_nop 0` (and leading zeros to a 4-byte boundary) filling `count` bytes.
fn code_fill(count: u64) -> Vec<u8> {
    let mut out = vec![0u8; (count % 4) as usize];
    for _ in 0..count / 4 {
        out.extend_from_slice(&0xBF80_0000u32.to_le_bytes());
    }
    out
}

fn current_offset(asm: &Asm) -> u64 {
    asm.abs_offset
        .map_or(asm.layout.offset() as u64, |o| o as u64)
}

fn align(asm: &mut Asm, ctx: &Ctx, range: TextRange, args: &[ast::Arg], power: bool) {
    let Some(n) = required_abs(asm, ctx, range, args, 0) else {
        return;
    };
    let alignment = if power {
        if !(0..=63).contains(&n) {
            asm.error_at(
                ctx,
                arg_range(args, 0, range),
                "power of two of the alignment is greater than 63",
            );
            return;
        }
        1u64 << n
    } else {
        if n <= 0 || (n & (n - 1)) != 0 {
            asm.error_at(
                ctx,
                arg_range(args, 0, range),
                "the alignment is not a power of two",
            );
            return;
        }
        n as u64
    };
    let Ok(value) = optional_abs(asm, ctx, args, 1) else {
        return;
    };
    if let Some(v) = value {
        warn_range(asm, ctx, arg_range(args, 1, range), 8, v);
    }
    let Ok(limit) = optional_abs(asm, ctx, args, 2) else {
        return;
    };
    pad_to_alignment(
        asm,
        ctx,
        range,
        args,
        Padding {
            alignment,
            value,
            limit,
            unit: 1,
        },
    );
}

fn align_word(asm: &mut Asm, ctx: &Ctx, range: TextRange, args: &[ast::Arg], unit: u64) {
    let Some(n) = required_abs(asm, ctx, range, args, 0) else {
        return;
    };
    if n < 0 || (n != 0 && (n & (n - 1)) != 0) {
        asm.error_at(
            ctx,
            arg_range(args, 0, range),
            "the alignment is not a power of two",
        );
        return;
    }
    let Ok(value) = optional_abs(asm, ctx, args, 1) else {
        return;
    };
    if let Some(v) = value {
        warn_range(asm, ctx, arg_range(args, 1, range), unit as u32 * 8, v);
    }
    let Ok(limit) = optional_abs(asm, ctx, args, 2) else {
        return;
    };
    if n == 0 {
        return;
    }
    let here = current_offset(asm);
    if !here.is_multiple_of(unit) {
        asm.error_at(ctx, range, "the offset is not aligned to the fill word");
        return;
    }
    pad_to_alignment(
        asm,
        ctx,
        range,
        args,
        Padding {
            alignment: n as u64,
            value,
            limit,
            unit,
        },
    );
}

/// How an alignment pseudo-op pads: to `alignment`, skipping more than `limit` bytes
/// never, with `value` repeated in units of `unit` bytes (`s_nop` in code by default).
struct Padding {
    alignment: u64,
    value: Option<i64>,
    limit: Option<i64>,
    unit: u64,
}

fn pad_to_alignment(asm: &mut Asm, ctx: &Ctx, range: TextRange, args: &[ast::Arg], p: Padding) {
    let here = current_offset(asm);
    let pad = (p.alignment - here % p.alignment) % p.alignment;
    if p.limit.is_some_and(|l| l != 0 && pad > l as u64) || pad == 0 {
        return;
    }
    if asm.abs_offset.is_some() {
        if p.value.is_some_and(|v| v != 0) {
            asm.warn_at(
                ctx,
                arg_range(args, 1, range),
                "the fill value is ignored in the absolute section",
            );
        }
        asm.reserve(ctx, range, pad, 0);
        return;
    }
    match p.value {
        None if asm.layout.is_code_section() => {
            let bytes = code_fill(pad);
            asm.emit(ctx, range, &bytes);
        }
        Some(v) if p.unit > 1 => {
            let word = &(v as u64).to_le_bytes()[..p.unit as usize];
            let bytes: Vec<u8> = word.iter().copied().cycle().take(pad as usize).collect();
            asm.emit(ctx, range, &bytes);
        }
        None if p.unit > 1 => {
            asm.emit(ctx, range, &vec![0; pad as usize]);
        }
        v => {
            asm.reserve(ctx, range, pad, v.unwrap_or(0) as u8);
        }
    }
}

fn org(asm: &mut Asm, ctx: &Ctx, range: TextRange, args: &[ast::Arg]) {
    let Some(e) = args.first().and_then(|a| a.expr()) else {
        asm.error_at(ctx, range, "`.org` needs a position");
        return;
    };
    let Some(v) = asm.eval_now(ctx, &e) else {
        return;
    };
    let mut fill = 0;
    if args.len() > 1 {
        let Some(f) = required_abs(asm, ctx, range, args, 1) else {
            return;
        };
        warn_range(asm, ctx, arg_range(args, 1, range), 8, f);
        fill = f as u8;
    }
    asm.set_output_counter(ctx, e.syntax().text_range(), v, fill);
}

// ---- symbols --------------------------------------------------------------------------

/// The symbol name of the first argument (its first token: a name, or `.5`).
fn symbol_name(
    asm: &mut Asm,
    ctx: &Ctx,
    range: TextRange,
    args: &[ast::Arg],
) -> Option<(String, TextRange)> {
    let token = args.first().and_then(|a| a.raw_tokens().next());
    match token {
        Some(t) if matches!(t.kind(), SyntaxKind::NAME | SyntaxKind::FLOAT_NUMBER) => {
            Some((t.text().to_string(), t.text_range()))
        }
        _ => {
            asm.error_at(
                ctx,
                args.first().map_or(range, |a| a.syntax().text_range()),
                "expected a symbol name",
            );
            None
        }
    }
}

fn set(asm: &mut Asm, ctx: &Ctx, range: TextRange, args: &[ast::Arg], reassign: bool, base: bool) {
    let Some((name, name_range)) = symbol_name(asm, ctx, range, args) else {
        return;
    };
    let Some(value) = args.get(1).and_then(|a| a.expr()) else {
        asm.error_at(ctx, range, "expected `SYMBOL, VALUE`");
        return;
    };
    asm.assign(ctx, &name, name_range, &value, reassign, base);
}

fn undef(asm: &mut Asm, ctx: &Ctx, range: TextRange, args: &[ast::Arg]) {
    let Some((name, name_range)) = symbol_name(asm, ctx, range, args) else {
        return;
    };
    if name == "." {
        asm.error_at(ctx, name_range, "symbol `.` cannot be undefined");
        return;
    }
    match asm
        .symbols
        .find_existing(&name)
        .filter(|&id| asm.symbols.get(id).is_defined())
    {
        None => asm.warn_at(ctx, name_range, format!("symbol `{name}` does not exist")),
        Some(id) => {
            let sym = asm.symbols.get_mut(id);
            sym.value = None;
            sym.def = None;
            sym.register = None;
            sym.eqv = None;
            sym.once_defined = false;
            sym.is_label = false;
        }
    }
}

fn binding(asm: &mut Asm, ctx: &Ctx, args: &[ast::Arg], binding: Binding) {
    for arg in args {
        let range = arg.syntax().text_range();
        let text = arg.text();
        if text == "." {
            asm.warn_at(ctx, range, "symbol `.` is ignored");
            continue;
        }
        if text.is_empty()
            || !text
                .split("::")
                .all(|p| p.is_empty() || name_len(p.as_bytes(), 0) == p.len())
        {
            asm.error_at(ctx, range, "expected a symbol name");
            continue;
        }
        let id = asm.symbols.lookup(&text);
        let sym = asm.symbols.get_mut(id);
        if sym.register.is_some() {
            asm.error_at(
                ctx,
                range,
                "a register symbol cannot be global, local or weak",
            );
        } else if sym.eqv.is_some() {
            asm.error_at(
                ctx,
                range,
                "a symbol set by `.eqv` cannot be global, local or weak",
            );
        } else {
            sym.binding = binding;
            sym.binding_location = Some(ctx.loc(range.start()));
        }
    }
}

fn size(asm: &mut Asm, ctx: &Ctx, range: TextRange, args: &[ast::Arg]) {
    let Some((name, name_range)) = symbol_name(asm, ctx, range, args) else {
        return;
    };
    let Some(v) = required_abs(asm, ctx, range, args, 1) else {
        return;
    };
    if name == "." {
        asm.warn_at(ctx, name_range, "symbol `.` is ignored");
        return;
    }
    let id = asm.symbols.lookup(&name);
    let sym = asm.symbols.get_mut(id);
    if sym.eqv.is_some() {
        asm.error_at(ctx, name_range, "a symbol set by `.eqv` has no size");
    } else if sym.register.is_some() {
        asm.error_at(ctx, name_range, "a register symbol has no size");
    } else {
        sym.size = Some(v as u64);
    }
}

/// `.enum [>[START],] NAME, …`: each scope has its counter.
fn enumeration(asm: &mut Asm, ctx: &Ctx, op: &ast::PseudoOp) {
    let Some(name_token) = op.name_token() else {
        return;
    };
    let text = clean_text(
        op.syntax(),
        name_token.text_range().end().into(),
        &ctx.mapper,
        &ctx.source,
    );
    let tc = TextCtx {
        text: &text,
        fallback: ctx.loc(name_token.text_range().start()),
    };
    let bytes = text.text.as_bytes();
    let mut pos = skip_blank(bytes, 0);
    if pos < bytes.len() && bytes[pos] == b'>' {
        pos = skip_blank(bytes, pos + 1);
        let start = if pos < bytes.len() && bytes[pos] != b',' {
            match eval_text_expr(asm, ctx, &tc, &mut pos) {
                Some(Value::Abs(v)) => v as u64,
                Some(Value::Rel { .. }) => {
                    error_in(asm, ctx, &tc, pos, "expression must be absolute");
                    return;
                }
                None => return,
            }
        } else {
            0
        };
        *asm.symbols.enum_counter() = start;
        pos = skip_blank(bytes, pos);
        if pos >= bytes.len() || bytes[pos] != b',' {
            error_in(asm, ctx, &tc, pos, "expected `,` after the start value");
            return;
        }
        pos += 1;
    }
    loop {
        pos = skip_blank(bytes, pos);
        let start = pos;
        while pos < bytes.len() && (name_len(bytes, pos) > 0 || bytes[pos] == b':') {
            let n = name_len(bytes, pos);
            pos += if n > 0 { n } else { 1 };
        }
        let name = &text.text[start..pos];
        if name.is_empty() {
            error_in(asm, ctx, &tc, start, "expected a symbol name");
        } else {
            let id = asm.symbols.define_target(name);
            if asm.symbols.get(id).is_defined() {
                error_in(
                    asm,
                    ctx,
                    &tc,
                    start,
                    format!("symbol `{name}` is already defined"),
                );
            } else {
                let counter = asm.symbols.enum_counter();
                let value = *counter;
                *counter += 1;
                asm.set_symbol(id, Value::Abs(value as i64));
                asm.symbols.get_mut(id).once_defined = true;
            }
        }
        pos = skip_blank(bytes, pos);
        if pos >= bytes.len() {
            break;
        }
        if bytes[pos] != b',' {
            error_in(asm, ctx, &tc, pos, "expected `,` before the next name");
            break;
        }
        pos += 1;
    }
}

fn skip_blank(bytes: &[u8], mut pos: usize) -> usize {
    while pos < bytes.len() && bytes[pos].is_ascii_whitespace() {
        pos += 1;
    }
    pos
}

fn error_in(asm: &mut Asm, ctx: &Ctx, tc: &TextCtx, pos: usize, message: impl Into<String>) {
    asm.diag_at(
        tc.loc(pos),
        ctx.origin.clone(),
        crate::diag::Severity::Error,
        message.into(),
    );
}

fn query(asm: &mut Asm, ctx: &Ctx, range: TextRange, args: &[ast::Arg], value: i64) {
    asm.format_fixed = true;
    let Some((name, name_range)) = symbol_name(asm, ctx, range, args) else {
        return;
    };
    if name.ends_with("::.") {
        asm.error_at(
            ctx,
            name_range,
            "symbol `.` exists only in the global scope",
        );
        return;
    }
    let id = asm.symbols.define_target(&name);
    let sym = asm.symbols.get(id);
    if sym.once_defined && sym.is_defined() {
        asm.error_at(
            ctx,
            name_range,
            format!("symbol `{name}` is already defined"),
        );
        return;
    }
    asm.set_symbol(id, Value::Abs(value));
}

// ---- sections, formats, devices -----------------------------------------------------------

fn section(asm: &mut Asm, ctx: &Ctx, range: TextRange, name: &str) {
    asm.format_fixed = true;
    asm.abs_offset = None;
    if asm.layout.format == BinaryFormat::AmdCl2 {
        if let Some(m) = crate::format_ops::old_layout_section_error(asm, name) {
            asm.error_at(ctx, range, m);
            return;
        }
    }
    if let Err(m) = asm.layout.switch_section(name) {
        asm.error_at(ctx, range, m);
    }
}

/// `.format` names: `catalyst` is AMD, `raw` is rawcode.
fn format_by_name(name: &str) -> Option<BinaryFormat> {
    match name.to_ascii_lowercase().as_str() {
        "catalyst" => Some(BinaryFormat::Amd),
        "raw" => Some(BinaryFormat::Rawcode),
        other => BinaryFormat::from_name(other),
    }
}

/// Chooses `format`; false (with an error) when output came before, in another format.
fn set_format(asm: &mut Asm, ctx: &Ctx, range: TextRange, format: BinaryFormat) -> bool {
    if asm.format_fixed {
        if asm.layout.format != format {
            asm.error_at(
                ctx,
                range,
                "the binary format must be chosen before any output",
            );
            return false;
        }
        return true;
    }
    asm.opts.format = format;
    crate::format_ops::set_layout(&mut asm.format_host(ctx), range, format);
    true
}

fn bitness(asm: &mut Asm, ctx: &Ctx, range: TextRange, is64: bool) {
    if asm.format_fixed {
        asm.error_at(ctx, range, "the bitness must be chosen before any output");
        return;
    }
    match asm.layout.format {
        BinaryFormat::Rocm => {
            if !is64 {
                asm.warn_at(ctx, range, "ROCm binaries are always 64-bit");
            }
        }
        BinaryFormat::Rawcode => asm.warn_at(ctx, range, "the bitness is ignored for raw code"),
        _ => asm.opts.is64 = is64,
    }
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
            crate::format_ops::device_chosen(&mut asm.format_host(ctx), range);
        }
        None => {
            let what = if arch {
                TargetName::Arch
            } else {
                TargetName::Device
            };
            asm.unknown_target_name(ctx, &args[0], what);
        }
    }
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

/// The reference's device number: the order of [`Device::ALL`].
fn gpu_id(device: Device) -> i64 {
    Device::ALL
        .iter()
        .position(|&d| d == device)
        .map_or(-1, |i| i as i64)
}

fn incbin(asm: &mut Asm, ctx: &Ctx, range: TextRange, args: &[ast::Arg]) {
    let Some(path) = string_arg(asm, ctx, range, args, 0) else {
        return;
    };
    let Ok(offset) = optional_abs(asm, ctx, args, 1) else {
        return;
    };
    let Ok(count) = optional_abs(asm, ctx, args, 2) else {
        return;
    };
    let offset = offset.unwrap_or(0);
    if offset < 0 {
        asm.error_at(ctx, arg_range(args, 1, range), "the offset is negative");
        return;
    }
    if count.is_some_and(|c| c < 0) {
        asm.error_at(ctx, arg_range(args, 2, range), "the byte count is negative");
        return;
    }
    if count == Some(0) {
        asm.warn_at(ctx, range, "the byte count is zero: `.incbin` is ignored");
        return;
    }
    let including = asm.sources.file(ctx.loc(range.start()).file).name.clone();
    let found = match crate::macros::find_file(asm, &including, &path) {
        Ok(found) => found,
        Err(other) => {
            asm.error_at(
                ctx,
                arg_range(args, 0, range),
                crate::macros::not_found_message("binary file", &path, other),
            );
            return;
        }
    };
    // Only the bytes wanted are read, and never more than the output may hold.
    let bytes = match asm.opts.files.read_part(
        &found,
        offset as u64,
        count.map(|c| c as u64),
        asm.opts.limits.output_size,
    ) {
        Ok(b) => b,
        Err(e) => {
            asm.error_at(
                ctx,
                arg_range(args, 0, range),
                format!("cannot read `{path}`: {e}"),
            );
            return;
        }
    };
    asm.emit(ctx, range, &bytes);
}

// ---- conditions -----------------------------------------------------------------------

/// Evaluates the condition of an `.if*`/`.elseif*`/`.else` header; `None` on error.
pub(crate) fn condition(asm: &mut Asm, ctx: &Ctx, header: &ast::PseudoOp) -> Option<bool> {
    let name = header.name();
    let range = header.syntax().text_range();
    if !block_args_ok(asm, ctx, header) {
        return None;
    }
    if name == ".else" {
        return Some(true);
    }
    let kind = name
        .strip_prefix(".elseif")
        .or_else(|| name.strip_prefix(".if"))?;
    let args: Vec<ast::Arg> = header.args().collect();
    let raw = || -> Text {
        match header.name_token() {
            Some(t) => clean_text(
                header.syntax(),
                t.text_range().end().into(),
                &ctx.mapper,
                &ctx.source,
            ),
            None => Text::default(),
        }
    };
    let text = |i: usize| args.get(i).map(|a| a.text()).unwrap_or_default();
    Some(match kind {
        "" | "ne" | "eq" | "gt" | "ge" | "lt" | "le" => {
            let v = required_abs(asm, ctx, range, &args, 0)?;
            match kind {
                "" | "ne" => v != 0,
                "eq" => v == 0,
                "gt" => v > 0,
                "ge" => v >= 0,
                "lt" => v < 0,
                _ => v <= 0,
            }
        }
        "def" | "ndef" | "notdef" => {
            let name = text(0);
            if name.is_empty() {
                asm.error_at(ctx, range, "expected a symbol");
                return None;
            }
            let defined = asm
                .symbols
                .find_existing(&name)
                .is_some_and(|id| asm.symbols.get(id).is_defined());
            if kind == "def" {
                defined
            } else {
                !defined
            }
        }
        "b" | "nb" => {
            let blank = raw().text.trim().is_empty();
            if kind == "b" {
                blank
            } else {
                !blank
            }
        }
        "c" | "nc" => {
            let t = raw();
            let Some(comma) = t.text.find(',') else {
                asm.error_at(ctx, range, "missing the second string");
                return None;
            };
            let same = compare_text(&t.text[..comma]) == compare_text(&t.text[comma + 1..]);
            if kind == "c" {
                same
            } else {
                !same
            }
        }
        "eqs" | "nes" => {
            let a = string_arg(asm, ctx, range, &args, 0)?;
            let b = string_arg(asm, ctx, range, &args, 1)?;
            if kind == "eqs" {
                a == b
            } else {
                a != b
            }
        }
        "arch" | "narch" => {
            let Some(g) = Generation::from_arch_name(&text(0)) else {
                unknown_target(asm, ctx, range, &args, TargetName::Arch);
                return None;
            };
            let cur = asm.target.gen;
            // GCN 1.4.1 is a GCN 1.4, GCN 1.5.1 a GCN 1.5.
            let same = g == cur
                || (g == Generation::Gcn1_4 && cur == Generation::Gcn1_4_1)
                || (g == Generation::Gcn1_5 && cur == Generation::Gcn1_5_1);
            same == (kind == "arch")
        }
        "gpu" | "ngpu" => {
            let Some(d) = Device::from_name(&text(0)) else {
                unknown_target(asm, ctx, range, &args, TargetName::Device);
                return None;
            };
            (d == asm.target.device) == (kind == "gpu")
        }
        "fmt" | "nfmt" => {
            let Some(f) = format_by_name(&text(0)) else {
                unknown_target(asm, ctx, range, &args, TargetName::Format);
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

/// The error of a conditional's unknown device, architecture or format name (or of its
/// missing name, at the header).
fn unknown_target(asm: &mut Asm, ctx: &Ctx, range: TextRange, args: &[ast::Arg], what: TargetName) {
    match args.first().filter(|a| !a.text().is_empty()) {
        Some(arg) => asm.unknown_target_name(ctx, arg, what),
        None => asm.error_at(ctx, range, "expected a name"),
    }
}

/// A `.ifc` operand as the reference compares it: blanks between tokens of different
/// kinds (or of one kind that does not continue itself) dropped, quotes kept.
fn compare_text(s: &str) -> String {
    let mut out: Vec<u8> = Vec::new();
    let mut blank = true;
    let (mut single, mut double) = (false, false);
    let mut prev = 0u8;
    for &b in s.as_bytes() {
        if b.is_ascii_whitespace() {
            if !blank || double || single {
                out.push(b);
            }
            blank = true;
            continue;
        }
        blank = false;
        if b == b'"' && !single {
            double = !double;
        } else if b == b'\'' && !double {
            single = !single;
        }
        let this = token_class(b);
        if !single
            && !double
            && out.last().is_some_and(|c| c.is_ascii_whitespace())
            && (prev != this || prev & 0x80 == 0)
        {
            out.pop();
        }
        out.push(b);
        prev = this;
    }
    if out.last().is_some_and(|c| c.is_ascii_whitespace()) {
        out.pop();
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Reports an unknown pseudo-op with the names it may be a slip for.
fn suggest_or_continue(
    asm: &mut Asm,
    ctx: &Ctx,
    at: TextRange,
    message: String,
    suggestions: Vec<String>,
) -> Flow {
    asm.error_suggesting(ctx, at, message, suggestions);
    Flow::Continue
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ifc_compares_like_the_reference() {
        assert_eq!(compare_text(" ala ++ ala"), compare_text(" ala + +  ala"));
        assert_ne!(compare_text("ala -- ala"), compare_text("ala - -  ala"));
        assert_eq!(compare_text("ala << ala"), compare_text("ala < <  ala"));
        assert_ne!(compare_text("\"bu ru\""), compare_text("\"bu  ru\""));
    }

    /// Every general row of the pseudo-op table reaches an arm here: none is taken for
    /// an unknown name (the format handlers take none of them either).
    #[test]
    fn every_general_row_is_handled() {
        let mut unhandled = Vec::new();
        for row in gcn_isa::pseudo_ops().iter().filter(|p| p.is_general()) {
            let input = crate::Input {
                name: "t.s".into(),
                text: format!("{}\n", row.name),
            };
            let result = crate::assemble_here(vec![input], crate::Options::default());
            if result
                .diagnostics
                .iter()
                .any(|d| d.message.contains("neither a pseudo-op"))
            {
                unhandled.push(row.name);
            }
        }
        assert_eq!(unhandled, Vec::<&str>::new());
    }

    #[test]
    fn floats_round_directly() {
        assert_eq!(float_bits("-1.4", 4), Ok(u64::from((-1.4f32).to_bits())));
        assert!(float_bits("1.5e", 8).is_err());
        assert_eq!(float_bits("-nan", 4), Ok(0x7fc0_0000));
        assert_eq!(float_bits("-Inf", 2), Ok(0xfc00));
        assert_eq!(float_bits("nan", 8), Ok(0x7ff8_0000_0000_0000));
        assert!(float_bits("65520", 2).is_err());
        assert_eq!(float_bits("2.4", 2), Ok(0x40cd));
        assert!(float_bits("x", 4).is_err());
    }
}
