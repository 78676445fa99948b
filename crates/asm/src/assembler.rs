//! The assembler's state and its walk over statements.
//!
//! Statements are handled in source order in one pass. A value that is not known yet
//! (a forward reference) leaves a placeholder and a [`Pending`] fixup; every symbol it
//! references lists it, and when a symbol gets its value the value is substituted into
//! the fixups that reference it. A fixup whose last reference is gone is evaluated and
//! written (data, an instruction field, or the value of a symbol, which may in turn
//! complete others). What is still unresolved at the end is reported.
//!
//! In ROCm binaries the code and the global data lie at places relative to each other
//! that are known only at the end ([`Sections::Space`]): an expression that needs them
//! (`code_label - data_label`) waits like a forward reference, for an internal symbol
//! ([`Asm::place_sections`] gives it its value once the places are known).

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use gcn_isa::encode::{self, RegRange, Target};
use gcn_syntax::ast::{self, AstNode, Statement};
use gcn_syntax::{SyntaxError, SyntaxKind, TextRange};

use crate::diag::{Diagnostic, Origin, Severity};
use crate::expr::{bin_op, un_op, EvalError, Ir, OpAt, Sections, Value};
use crate::index::{Decision, NameKind};
use crate::layout::{Layout, SectionKind};
use crate::literals;
use crate::options::{BinaryFormat, Options};
use crate::source::{Location, SourceMap};
use crate::symbols::{SymId, SymbolTable};
use crate::text::Mapper;

/// What kind of text is being processed (for `.exitm`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CtxKind {
    File,
    Macro,
    Repeat,
}

/// Where the statements being processed come from.
#[derive(Debug, Clone)]
pub(crate) struct Ctx {
    pub mapper: Mapper,
    /// "in macro X called from here" frames, outermost first.
    pub origin: Origin,
    /// Nesting of macro expansions and repetitions.
    pub depth: u32,
    pub kind: CtxKind,
    /// Syntax errors of the text, reported as its statements are reached (a statement
    /// that turns out to be a macro call, or lies in a false conditional, has none).
    pub errors: Rc<RefCell<ErrorCursor>>,
    /// The text being processed (offsets of its syntax tree index it).
    pub source: std::sync::Arc<str>,
    /// Whether a `\` ends a line of `source` (see [`Asm::joined_statement`]).
    pub continued_lines: bool,
}

impl Ctx {
    pub(crate) fn new(mapper: Mapper, origin: Origin, depth: u32, kind: CtxKind) -> Ctx {
        Ctx {
            mapper,
            origin,
            depth,
            kind,
            errors: Rc::default(),
            source: std::sync::Arc::from(""),
            continued_lines: false,
        }
    }

    /// A child context for a nested text: one more origin frame.
    pub(crate) fn nested(&self, mapper: Mapper, frame: (String, Location), kind: CtxKind) -> Ctx {
        self.nested_in(self.origin.push(frame), mapper, kind)
    }

    /// A child context for a nested text with `origin`, this context's with a frame
    /// added (one frame for several texts: a run of a macro given piece by piece).
    pub(crate) fn nested_in(&self, origin: Origin, mapper: Mapper, kind: CtxKind) -> Ctx {
        let depth = if kind == CtxKind::File {
            self.depth
        } else {
            self.depth + 1
        };
        Ctx::new(mapper, origin, depth, kind)
    }

    pub(crate) fn loc(&self, offset: impl Into<u32>) -> Location {
        self.mapper.map(offset.into())
    }
}

/// Syntax errors of one text, in order, with how far they have been consumed.
#[derive(Debug, Default)]
pub(crate) struct ErrorCursor {
    errors: Vec<SyntaxError>,
    next: usize,
    /// The errors were reported already (a repetition's later iterations): statements
    /// with errors are still skipped, silently.
    silent: bool,
}

/// Whether a `\` ends a line of `text` (rare: most texts are not read twice).
fn has_continued_lines(text: &str) -> bool {
    let bytes = text.as_bytes();
    // `\` is found with memchr; most texts have none.
    text.match_indices('\\')
        .any(|(at, _)| matches!(bytes.get(at + 1), Some(b'\n' | b'\r')))
}

/// What processing a statement tells its caller.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Flow {
    Continue,
    /// `.exitm`: leave the current macro expansion (or repetition).
    ExitMacro,
    /// `.end`, `.abort`, or a limit hit: stop everything.
    Stop,
}

/// Where a pending value goes once known.
#[derive(Debug, Clone)]
pub(crate) enum PendingTarget {
    /// The pending definition of a symbol.
    Symbol(SymId),
    Data {
        section: usize,
        offset: usize,
        size: usize,
    },
    Field {
        section: usize,
        offset: usize,
        shift: u8,
        bits: u8,
        signed: bool,
    },
    Branch {
        section: usize,
        offset: usize,
        instr_start: i64,
    },
}

#[derive(Debug, Clone)]
pub(crate) struct Pending {
    pub ir: Ir,
    pub target: PendingTarget,
    pub loc: Location,
    /// The expression's length in bytes from `loc` (0 when it spans texts).
    pub len: u32,
    pub origin: Origin,
    /// Symbols still referenced.
    pub remaining: u32,
    pub done: bool,
    /// For a symbol's definition in AMD OpenCL 2.0 and GalliumCompute: the expression as
    /// written, read again at the end with code positions kept
    /// ([`Asm::code_relative_value`]).
    pub original: Option<Box<Ir>>,
}

pub(crate) struct Asm {
    pub opts: Options,
    pub target: Target,
    pub sources: SourceMap,
    pub symbols: SymbolTable,
    pub layout: Layout,
    pub diags: Vec<Diagnostic>,
    pub pending: Vec<Pending>,
    pub macros: HashMap<String, Rc<crate::macros::Macro>>,
    /// Macro expansions so far (`\@`).
    pub macro_count: u64,
    /// `local` names so far (alternate macro syntax: `.LL0`, `.LL1`, …).
    pub local_count: u64,
    pub expanded_statements: u64,
    /// Errors reported so far (see [`crate::Limits::errors`]).
    error_count: u64,
    /// The editor's checks were asked for, but the program has more instructions than
    /// they follow ([`crate::waits::MAX_CHECKED`]).
    pub checks_skipped: bool,
    /// "Did you mean" for unknown names (`crate::suggestions`).
    pub suggestions: crate::suggestions::Suggestions,
    /// Whether the assembly stopped because [`crate::Options::cancel`] was set.
    pub cancelled: bool,
    /// Where names are defined and used, when [`crate::Options::record_symbols`].
    pub index: Option<crate::index::SymbolIndex>,
    /// Encodings kept from the last assembly of this source, when
    /// [`crate::Options::encode_cache`] is given.
    pub encode_cache: Option<crate::encode_cache::EncodeCache>,
    pub include_depth: u32,
    pub printed: String,
    pub reg_usage: crate::regusage::RegUsage,
    /// `.struct`/`.offset`: the output counter of the absolute section, when in it.
    pub abs_offset: Option<i64>,
    /// While set, positions in code sections stay section-relative where their sections'
    /// addresses would make them absolute ([`Asm::code_relative_value`]).
    keep_code_relative: bool,
    /// The format can no longer change (something was emitted or defined in a section).
    pub format_fixed: bool,
    pub dot: SymId,
    /// A register symbol has been defined (until then, no name is one: the encoder's
    /// question about each register name is answered without a lookup).
    any_register_symbol: bool,
    /// `.eqv` symbols being expanded (cycle guard).
    eqv_active: HashSet<SymId>,
    /// Expression nodes `.eqv` expansions may still produce for one reference (each
    /// expansion copies its expression: a chain of `.eqv x2, x1+x1` would grow without
    /// bound), and whether a reference ran out of them.
    bind_budget: u64,
    bind_exhausted: bool,
    /// Files read so far, by path, for repeated includes.
    pub file_cache: HashMap<std::path::PathBuf, crate::source::FileId>,
    /// Labels defined in code sections: name, section, offset.
    pub code_labels: Vec<(String, usize, usize)>,
    /// Parses of recent macro expansions, by text (a call repeated with the same
    /// arguments is not parsed again).
    pub parse_cache: HashMap<String, Rc<(gcn_syntax::Parse, std::sync::Arc<str>)>>,
    /// The internal symbol expressions that need the places of sections wait for.
    places_symbol: Option<SymId>,
    /// The places of the sections of the ROCm section space (section, address), the
    /// lowest first, once known ([`Asm::place_sections`]).
    placed_sections: Option<Vec<(u32, i64)>>,
    /// What the expansions [`Options::expand`] asks for ran, as they run.
    pub expansion: Option<crate::expansion::Recorder>,
    /// The instructions recorded for the editor's checks, when [`Options::check_waits`],
    /// [`Options::check_nops`] or [`Options::check_uninitialized`] asks.
    pub waits: Option<crate::waits::Waits>,
}

impl Asm {
    pub(crate) fn new(opts: Options) -> Asm {
        let target = Target {
            device: opts.device,
            gen: opts.device.generation(),
            wave32: opts.wave32,
            buggy_fp_lit: opts.buggy_fp_lit,
        };
        let layout = Layout::new(opts.format);
        let mut symbols = SymbolTable::default();
        let dot = symbols.global_symbol(".");
        symbols.get_mut(dot).value = Some(Value::Abs(0));
        let mut asm = Asm {
            target,
            layout,
            opts,
            sources: SourceMap::default(),
            symbols,
            diags: Vec::new(),
            pending: Vec::new(),
            macros: HashMap::new(),
            macro_count: 0,
            local_count: 0,
            expanded_statements: 0,
            error_count: 0,
            checks_skipped: false,
            suggestions: Default::default(),
            cancelled: false,
            index: None,
            include_depth: 0,
            printed: String::new(),
            reg_usage: Default::default(),
            abs_offset: None,
            keep_code_relative: false,
            format_fixed: false,
            dot,
            any_register_symbol: false,
            eqv_active: HashSet::new(),
            bind_budget: 0,
            bind_exhausted: false,
            file_cache: HashMap::new(),
            code_labels: Vec::new(),
            parse_cache: HashMap::new(),
            places_symbol: None,
            placed_sections: None,
            encode_cache: None,
            expansion: None,
            waits: None,
        };
        let checks = crate::waits::Checks {
            waits: asm.opts.check_waits,
            nops: asm.opts.check_nops,
            uninitialized: asm.opts.check_uninitialized,
        };
        let any = checks.waits || checks.nops || checks.uninitialized;
        asm.waits = any.then(|| crate::waits::Waits::new(checks));
        asm.expansion = asm.opts.expand.map(crate::expansion::Recorder::new);
        asm.index = asm.opts.record_symbols.then(Default::default);
        asm.encode_cache = asm.opts.encode_cache.as_ref().map(|c| c.take());
        asm
    }

    // ---- diagnostics -------------------------------------------------------------

    pub(crate) fn error_at(&mut self, ctx: &Ctx, range: TextRange, message: impl Into<String>) {
        self.report(ctx, range, Severity::Error, message.into());
    }

    pub(crate) fn warn_at(&mut self, ctx: &Ctx, range: TextRange, message: impl Into<String>) {
        self.report(ctx, range, Severity::Warning, message.into());
    }

    fn report(&mut self, ctx: &Ctx, range: TextRange, severity: Severity, message: String) {
        let location = ctx.loc(range.start());
        let end = ctx.loc(range.end());
        let len = if end.file == location.file {
            end.offset.saturating_sub(location.offset)
        } else {
            0
        };
        let message = crate::encoding::escape_raw_bytes(message);
        if severity == Severity::Error {
            self.error_count += 1;
        }
        self.diags.push(Diagnostic {
            severity,
            location: Some(location),
            len,
            message,
            origin: ctx.origin.to_vec(),
            suggestions: Vec::new(),
            suggestion_at: None,
        });
    }

    pub(crate) fn diag_at(
        &mut self,
        location: Location,
        origin: Origin,
        severity: Severity,
        message: String,
    ) {
        self.diag_span(location, 0, origin.to_vec(), severity, message);
    }

    fn diag_span(
        &mut self,
        location: Location,
        len: u32,
        origin: Vec<(String, Location)>,
        severity: Severity,
        message: String,
    ) {
        let message = crate::encoding::escape_raw_bytes(message);
        self.diags.push(Diagnostic {
            severity,
            location: Some(location),
            len,
            message,
            origin,
            suggestions: Vec::new(),
            suggestion_at: None,
        });
    }

    /// Reports why an expression has no value: at the operator the error belongs to (a
    /// division by zero), as the reference does, else at the expression (`start`, `len`
    /// bytes). An operator outside the expression (in an `.eqv` it uses) is reported
    /// with the expression as one more origin frame, "expression evaluated here".
    fn report_invalid(
        &mut self,
        start: Location,
        len: u32,
        origin: &Origin,
        message: String,
        at: Option<OpAt>,
    ) {
        let Some(op) = at else {
            return self.diag_span(start, len, origin.to_vec(), Severity::Error, message);
        };
        let inside = op.loc.file == start.file
            && (start.offset..start.offset + len.max(1)).contains(&op.loc.offset);
        let mut origin = origin.to_vec();
        if !inside {
            origin.push(("expression evaluated here".to_string(), start));
        }
        self.diag_span(op.loc, op.len, origin, Severity::Error, message);
    }

    /// [`report_invalid`](Self::report_invalid) for an expression at `range` of `ctx`.
    pub(crate) fn invalid_at(
        &mut self,
        ctx: &Ctx,
        range: TextRange,
        message: String,
        at: Option<OpAt>,
    ) {
        let (start, end) = (ctx.loc(range.start()), ctx.loc(range.end()));
        let len = if end.file == start.file {
            end.offset.saturating_sub(start.offset)
        } else {
            0
        };
        self.report_invalid(start, len, &ctx.origin, message, at);
    }

    /// Reports the syntax errors before `end` not reported yet; true if there were some.
    fn flush_errors(&mut self, ctx: &Ctx, end: u32) -> bool {
        let errors: Vec<SyntaxError> = {
            let mut cursor = ctx.errors.borrow_mut();
            let start = cursor.next;
            while cursor.next < cursor.errors.len()
                && u32::from(cursor.errors[cursor.next].range.start()) <= end
            {
                cursor.next += 1;
            }
            if cursor.silent && cursor.next > start {
                return true;
            }
            cursor.errors[start..cursor.next].to_vec()
        };
        let any = !errors.is_empty();
        for e in errors {
            self.error_at(ctx, e.range, e.message);
        }
        any
    }

    /// Drops the syntax errors before `end`.
    /// A statement in which a `\` at the end of a line joins two parts of one word
    /// (`v_add_\⏎f32`, `0x\⏎10`, `<\⏎<`): the reference's line reader joins the lines
    /// before it reads words, so the statement is assembled from its text with the lines
    /// joined, as a macro body is (a block, `.if` … `.endif`, is one statement, whole).
    /// `None` for the others (almost all: in a text where no `\` ends a line, none is
    /// looked at).
    fn joined_statement(&mut self, ctx: &Ctx, stmt: &Statement) -> Option<Flow> {
        if !ctx.continued_lines || matches!(stmt, Statement::MacroCall(_)) {
            return None;
        }
        let node = stmt.syntax();
        let range = node.text_range();
        let bytes = ctx.source.as_bytes();
        let word_byte = |at: Option<&u8>| at.is_some_and(|b| !b.is_ascii_whitespace());
        let joins_a_word = node
            .descendants_with_tokens()
            .filter_map(|e| e.into_token())
            .filter(|t| t.kind() == SyntaxKind::LINE_CONTINUATION)
            .any(|t| {
                let r = t.text_range();
                let before = usize::from(r.start()).checked_sub(1).map(|i| &bytes[i]);
                word_byte(before) && word_byte(bytes.get(usize::from(r.end())))
            });
        if !joins_a_word {
            return None;
        }
        let joined = crate::text::clean_text(node, range.start().into(), &ctx.mapper, &ctx.source);
        Self::skip_errors(ctx, range.end().into());
        let fallback = ctx.loc(range.start());
        let inner = Ctx::new(
            joined.mapper(fallback),
            ctx.origin.clone(),
            ctx.depth,
            ctx.kind,
        );
        Some(self.process_text(inner, &joined.text))
    }

    fn skip_errors(ctx: &Ctx, end: u32) {
        let mut cursor = ctx.errors.borrow_mut();
        while cursor.next < cursor.errors.len()
            && u32::from(cursor.errors[cursor.next].range.start()) <= end
        {
            cursor.next += 1;
        }
    }

    // ---- processing ---------------------------------------------------------------

    /// Parses `text` and processes its statements in `ctx`; a long text in parts of whole
    /// statements parsed on a second thread ([`crate::parts`]: the same result as a
    /// whole parse, with small trees).
    pub(crate) fn process_text(&mut self, ctx: Ctx, text: &str) -> Flow {
        if text.len() <= crate::parts::PART_SIZE {
            let parse = gcn_syntax::parse(text);
            return self.process_parse(ctx, &parse, std::sync::Arc::from(text), true);
        }
        self.process_lines(ctx, crate::parts::Lines::Text(text.into()))
            .0
    }

    /// Processes the statements of `lines` part by part, as they are read and parsed.
    pub(crate) fn process_lines(
        &mut self,
        ctx: Ctx,
        lines: crate::parts::Lines,
    ) -> (Flow, crate::parts::End) {
        let mut reader = crate::parts::PartReader::start(lines);
        let mut flow = Flow::Continue;
        while let Some(part) = reader.next() {
            let part_ctx = Ctx {
                mapper: ctx.mapper.shifted(part.start),
                ..ctx.clone()
            };
            flow = self.process_parse(
                part_ctx,
                &part.parse,
                std::sync::Arc::from(part.text.as_str()),
                true,
            );
            reader.done(part);
            if flow != Flow::Continue {
                break;
            }
        }
        (flow, reader.finish())
    }

    /// Processes a parsed text; `report_syntax` is false for the repeated iterations of
    /// a repetition (its syntax errors were reported with the first; the statements that
    /// have them are still skipped).
    pub(crate) fn process_parse(
        &mut self,
        mut ctx: Ctx,
        parse: &gcn_syntax::Parse,
        source: std::sync::Arc<str>,
        report_syntax: bool,
    ) -> Flow {
        ctx.continued_lines = has_continued_lines(&source);
        ctx.source = source;
        ctx.errors = Rc::new(RefCell::new(ErrorCursor {
            errors: parse.errors().to_vec(),
            next: 0,
            silent: !report_syntax,
        }));
        let flow = self.statements(&ctx, parse.tree().statements());
        if flow != Flow::Stop {
            self.flush_errors(&ctx, u32::MAX);
        }
        flow
    }

    pub(crate) fn statements(&mut self, ctx: &Ctx, stmts: impl Iterator<Item = Statement>) -> Flow {
        for stmt in stmts {
            if self.opts.cancel.is_some() && self.opts.is_cancelled() {
                self.cancelled = true;
                return Flow::Stop;
            }
            if ctx.depth > 0 {
                self.expanded_statements += 1;
                if self.expanded_statements > self.opts.limits.expanded_statements {
                    let limit = self.opts.limits.expanded_statements;
                    self.error_at(
                        ctx,
                        stmt.syntax().text_range(),
                        format!("macro and repetition expansions produced more than {limit} statements (raise the limit with --max-expanded-statements)"),
                    );
                    return Flow::Stop;
                }
            }
            let range = stmt.syntax().text_range();
            match self.statement(ctx, stmt) {
                Flow::Continue => {}
                other => return other,
            }
            if self.error_count > self.opts.limits.errors {
                let limit = self.opts.limits.errors;
                self.error_at(
                    ctx,
                    range,
                    format!("more than {limit} errors: the assembly stops here (raise the limit with --max-errors)"),
                );
                return Flow::Stop;
            }
        }
        Flow::Continue
    }

    fn statement(&mut self, ctx: &Ctx, stmt: Statement) -> Flow {
        let range = stmt.syntax().text_range();
        let end = u32::from(range.end());
        if let Some(flow) = self.joined_statement(ctx, &stmt) {
            return flow;
        }
        if self.expansion.is_some() && ctx.depth > 0 && self.runs_itself(&stmt) {
            self.record_expanded(ctx, &stmt);
        }
        match stmt {
            // A statement with syntax errors is not assembled (no cascade of errors).
            Statement::Label(label) => {
                if !self.flush_errors(ctx, end) {
                    self.label(ctx, &label);
                }
            }
            Statement::Assignment(a) => {
                if !self.flush_errors(ctx, end) {
                    self.assignment(ctx, &a);
                }
            }
            Statement::PseudoOp(op) => {
                // A macro may be named like a pseudo-op that is not one of ours.
                if let Some(token) = op.name_token() {
                    if !crate::pseudo::is_pseudo_op(&op.name()) {
                        if let Some(m) = self.find_macro(token.text()) {
                            Self::skip_errors(ctx, end);
                            return crate::macros::call(
                                self,
                                ctx,
                                &m,
                                op.syntax(),
                                u32::from(token.text_range().end()),
                            );
                        }
                    }
                }
                if self.flush_errors(ctx, end) {
                    return Flow::Continue;
                }
                return crate::pseudo::pseudo_op(self, ctx, &op);
            }
            Statement::Instruction(instr) => {
                // A macro may be named like an instruction; with none defined, the
                // mnemonic's token (a cursor allocation) is not even looked at.
                let called = if self.macros.is_empty() {
                    None
                } else {
                    instr
                        .mnemonic_token()
                        .and_then(|t| Some((self.find_macro(t.text())?, t)))
                };
                if let Some((m, mnemonic)) = called {
                    Self::skip_errors(ctx, end);
                    let from = u32::from(mnemonic.text_range().end());
                    return crate::macros::call(self, ctx, &m, instr.syntax(), from);
                }
                if !self.flush_errors(ctx, end) {
                    self.instruction(ctx, &instr);
                }
            }
            Statement::MacroCall(call) => {
                let Some(token) = call.name_token() else {
                    return Flow::Continue;
                };
                match self.find_macro(token.text()) {
                    Some(m) => {
                        Self::skip_errors(ctx, end);
                        return crate::macros::call(
                            self,
                            ctx,
                            &m,
                            call.syntax(),
                            u32::from(token.text_range().end()),
                        );
                    }
                    None => {
                        if self.flush_errors(ctx, end) {
                            return Flow::Continue;
                        }
                        if !gcn_isa::lookup(gcn_isa::split_suffix(token.text()).0).is_empty() {
                            return self.call_as_instruction(ctx, &call);
                        }
                        self.error_at(
                            ctx,
                            token.text_range(),
                            format!("`{}` is neither an instruction nor a macro", token.text()),
                        );
                    }
                }
            }
            Statement::MacroDef(def) => {
                let closed = def.end().is_some();
                if !closed {
                    let opener = def.header().and_then(|h| h.name_token());
                    self.report_unclosed(ctx, opener, gcn_syntax::unclosed_block);
                }
                if !self.flush_errors(ctx, end) {
                    // Without its end, only the header is checked: the macro is not defined.
                    crate::macros::define(self, ctx, &def, closed);
                    if let Some(end) = def.end() {
                        crate::pseudo::block_args_ok(self, ctx, &end);
                    }
                }
            }
            Statement::Repeat(rep) => {
                let closed = rep.end().is_some();
                if !closed {
                    let opener = rep.header().and_then(|h| h.name_token());
                    self.report_unclosed(ctx, opener, gcn_syntax::unclosed_block);
                }
                let header_end = rep
                    .header()
                    .map_or(end, |h| u32::from(h.syntax().text_range().end()));
                if self.flush_errors(ctx, header_end) {
                    Self::skip_errors(ctx, end);
                    return Flow::Continue;
                }
                let header_ok = rep
                    .header()
                    .is_none_or(|h| crate::pseudo::block_args_ok(self, ctx, &h));
                if let Some(end) = rep.end() {
                    crate::pseudo::block_args_ok(self, ctx, &end);
                }
                // Without its end, only the header is checked: nothing repeats.
                if !header_ok || !closed {
                    Self::skip_errors(ctx, end);
                    return Flow::Continue;
                }
                let flow = crate::macros::repeat(self, ctx, &rep);
                if flow != Flow::Stop {
                    self.flush_errors(ctx, end);
                }
                return flow;
            }
            Statement::Conditional(cond) => return self.conditional(ctx, &cond),
            Statement::Error(_) => {
                self.flush_errors(ctx, end);
            }
        }
        Flow::Continue
    }

    /// Whether `stmt` is run as it is written, rather than as the statements it stands
    /// for (a macro call, a repetition, a conditional): what an expansion shows.
    fn runs_itself(&self, stmt: &Statement) -> bool {
        let is_macro = |token: Option<gcn_syntax::SyntaxToken>| {
            token.is_some_and(|t| self.find_macro(t.text()).is_some())
        };
        match stmt {
            Statement::Label(_)
            | Statement::Assignment(_)
            | Statement::MacroDef(_)
            | Statement::Error(_) => true,
            Statement::PseudoOp(op) => {
                crate::pseudo::is_pseudo_op(&op.name()) || !is_macro(op.name_token())
            }
            Statement::Instruction(instr) => !is_macro(instr.mnemonic_token()),
            // Known as neither: refused, or run again as an instruction.
            Statement::MacroCall(call) => {
                !is_macro(call.name_token())
                    && call.name_token().is_none_or(|t| {
                        gcn_isa::lookup(gcn_isa::split_suffix(t.text()).0).is_empty()
                    })
            }
            Statement::Repeat(_) | Statement::Conditional(_) => false,
        }
    }

    fn record_expanded(&mut self, ctx: &Ctx, stmt: &Statement) {
        let text = stmt.syntax().text().to_string();
        if let Some(recorder) = self.expansion.as_mut() {
            recorder.statement(&ctx.origin, &text);
        }
    }

    /// A statement the parser read as a macro call, for a macro that does not exist (its
    /// definition was in a block that was skipped), named like an instruction: it is the
    /// instruction. Its text is parsed again, knowing no macro, where it stands.
    fn call_as_instruction(&mut self, ctx: &Ctx, call: &ast::MacroCall) -> Flow {
        let range = call.syntax().text_range();
        let text = &ctx.source[usize::from(range.start())..usize::from(range.end())];
        let parse = gcn_syntax::parse(text);
        let here = Ctx {
            mapper: ctx.mapper.shifted(u32::from(range.start())),
            ..ctx.clone()
        };
        // A repetition's later iterations report nothing again, as for any statement.
        let report = !ctx.errors.borrow().silent;
        self.process_parse(here, &parse, std::sync::Arc::from(text), report)
    }

    pub(crate) fn find_macro(&self, name: &str) -> Option<Rc<crate::macros::Macro>> {
        if self.macros.is_empty() {
            return None;
        }
        let lowercase = !name.bytes().any(|b| b.is_ascii_uppercase());
        if lowercase || !self.opts.macro_case_insensitive {
            // The key is the name itself: no copy.
            return self.macros.get(name).cloned();
        }
        self.macros.get(&self.macro_key(name)).cloned()
    }

    pub(crate) fn macro_key(&self, name: &str) -> String {
        if self.opts.macro_case_insensitive {
            name.to_ascii_lowercase()
        } else {
            name.to_string()
        }
    }

    fn conditional(&mut self, ctx: &Ctx, cond: &ast::Conditional) -> Flow {
        let cond_end = u32::from(cond.syntax().text_range().end());
        if cond.end().is_none() {
            let opener = cond
                .branches()
                .next()
                .and_then(|b| b.header())
                .and_then(|h| h.name_token());
            self.report_unclosed(ctx, opener, gcn_syntax::unclosed_conditional);
        }
        let mut taken = false;
        for branch in cond.branches() {
            let branch_end = u32::from(branch.syntax().text_range().end());
            let Some(header) = branch.header() else {
                continue;
            };
            if taken {
                self.record_branch(ctx, &branch, &header, Decision::AfterTaken);
                // The reference reads a skipped `.else` and `.endif` all the same, and
                // checks that nothing follows them.
                if header.name() == ".else" {
                    crate::pseudo::block_args_ok(self, ctx, &header);
                }
                self.check_skipped(ctx, branch.statements());
                Self::skip_errors(ctx, branch_end);
                continue;
            }
            if self.flush_errors(ctx, u32::from(header.syntax().text_range().end())) {
                Self::skip_errors(ctx, cond_end);
                return Flow::Continue;
            }
            match crate::pseudo::condition(self, ctx, &header) {
                Some(true) => {
                    taken = true;
                    self.record_branch(ctx, &branch, &header, Decision::Taken);
                    let flow = self.statements(ctx, branch.statements());
                    if flow != Flow::Continue {
                        return flow;
                    }
                }
                Some(false) => {
                    self.record_branch(ctx, &branch, &header, Decision::False);
                    self.check_skipped(ctx, branch.statements());
                    Self::skip_errors(ctx, branch_end);
                }
                // An error in the condition: skip the whole block.
                None => {
                    Self::skip_errors(ctx, cond_end);
                    return Flow::Continue;
                }
            }
        }
        if let Some(end) = cond.end() {
            crate::pseudo::block_args_ok(self, ctx, &end);
        }
        self.flush_errors(ctx, cond_end);
        Flow::Continue
    }

    /// Records what was decided for a branch written in a file's own text, for the
    /// editor (a macro's or repetition's may go another way on another run).
    fn record_branch(
        &mut self,
        ctx: &Ctx,
        branch: &ast::CondBranch,
        header: &ast::PseudoOp,
        decision: Decision,
    ) {
        if ctx.kind != CtxKind::File || ctx.depth != 0 {
            return;
        }
        let Some(index) = self.index.as_mut() else {
            return;
        };
        let (header_range, range) = (header.syntax().text_range(), branch.syntax().text_range());
        index.branches.push(crate::index::Branch {
            header: ctx.loc(header_range.start()),
            header_len: header_range.len().into(),
            len: u32::from(range.end()) - u32::from(header_range.start()),
            decision,
        });
    }

    /// Reports a block's missing end (the parser's error on its opener, `opener`) apart
    /// from the errors of its header, which are then checked as usual: a conditional
    /// still runs (the reference reports an unterminated `.if` at the end), a macro's
    /// header is still read; a missing end while one is being typed hides nothing.
    fn report_unclosed(
        &mut self,
        ctx: &Ctx,
        opener: Option<gcn_syntax::SyntaxToken>,
        message: impl Fn(&str) -> String,
    ) {
        let Some(opener) = opener else { return };
        let message = message(&opener.text().to_ascii_lowercase());
        let range = opener.text_range();
        let error = {
            let mut cursor = ctx.errors.borrow_mut();
            let next = cursor.next;
            let found = cursor.errors[next..]
                .iter()
                .take_while(|e| e.range.start() <= range.start())
                .position(|e| e.range == range && e.message == message);
            // Taken out even when silent (a repetition's later pass): never reported twice.
            found
                .map(|i| cursor.errors.remove(next + i))
                .filter(|_| !cursor.silent)
        };
        if let Some(error) = error {
            self.error_at(ctx, error.range, error.message);
        }
    }

    /// The `.else` and `.endif` of the conditionals in a skipped branch: text after them
    /// is an error there too, as the reference reads them to find the branch's end.
    fn check_skipped(&mut self, ctx: &Ctx, stmts: impl Iterator<Item = Statement>) {
        for stmt in stmts {
            let Statement::Conditional(cond) = stmt else {
                continue;
            };
            for branch in cond.branches() {
                if let Some(header) = branch.header().filter(|h| h.name() == ".else") {
                    crate::pseudo::block_args_ok(self, ctx, &header);
                }
                self.check_skipped(ctx, branch.statements());
            }
            if let Some(end) = cond.end() {
                crate::pseudo::block_args_ok(self, ctx, &end);
            }
        }
    }

    // ---- labels and symbols ---------------------------------------------------------

    /// Records an occurrence of a name at `range` (when an editor asked for the index).
    pub(crate) fn note_name(
        &mut self,
        ctx: &Ctx,
        kind: crate::index::NameKind,
        name: impl FnOnce(&mut crate::index::SymbolIndex) -> String,
        range: TextRange,
        definition: bool,
    ) {
        if let Some(index) = self.index.as_mut() {
            let name = name(index);
            // Where the user wrote it: a name passed to a macro is found at the call.
            let location = ctx.mapper.map_written(range.start().into());
            // The end from the last byte: the byte after a substituted name belongs to
            // the macro body, not to the call.
            let len = match u32::from(range.len()) {
                0 => 0,
                _ => {
                    let last = ctx.mapper.map_written(u32::from(range.end()) - 1);
                    let spans = last.file == location.file && last.offset + 1 >= location.offset;
                    if spans {
                        last.offset + 1 - location.offset
                    } else {
                        0
                    }
                }
            };
            let scope = match kind {
                NameKind::Label | NameKind::Symbol | NameKind::RegisterSymbol => {
                    name.rsplit_once("::").map(|(s, _)| s.to_string())
                }
                _ => None,
            };
            index.record(kind, name, location, len, definition);
            // The scopes of a path (`outer::inner::x`) are names too.
            let text = ctx
                .source
                .get(std::ops::Range::<usize>::from(range))
                .unwrap_or("");
            if let (Some(scope), Some(split)) = (scope, text.rfind("::")) {
                self.note_scope_parts(ctx, &text[..split], range.start(), &scope);
            }
        }
    }

    /// Records each scope of a written path (`a::b` of `a::b::x`, `::a`), starting at
    /// `start`, as a use; `full` is the full path of the last scope, and the written
    /// parts are its last parts.
    pub(crate) fn note_scope_parts(
        &mut self,
        ctx: &Ctx,
        written: &str,
        start: gcn_syntax::TextSize,
        full: &str,
    ) {
        let full_parts: Vec<&str> = full.split("::").collect();
        let mut parts = Vec::new();
        let mut offset = 0;
        for part in written.split("::") {
            if !part.is_empty() {
                parts.push((offset, part));
            }
            offset += part.len() + 2;
        }
        let Some(base) = full_parts.len().checked_sub(parts.len()) else {
            return;
        };
        for (i, &(offset, part)) in parts.iter().enumerate() {
            let path = &full_parts[..=base + i];
            if path.last() != Some(&part) || path.iter().any(|p| p.is_empty()) {
                return;
            }
            let name = path.join("::");
            let range = TextRange::at(
                start + gcn_syntax::TextSize::from(offset as u32),
                gcn_syntax::TextSize::from(part.len() as u32),
            );
            self.note_name(ctx, NameKind::Scope, |_| name, range, false);
        }
    }

    fn label(&mut self, ctx: &Ctx, label: &ast::Label) {
        let Some(token) = label.name_token() else {
            return;
        };
        let range = token.text_range();
        self.format_fixed = true;
        if !self.is_addressable() {
            self.error_at(
                ctx,
                range,
                "a label cannot be defined in a section without addresses",
            );
            return;
        }
        let here = self.here();
        if label.is_local() {
            let name = token.text();
            self.note_name(
                ctx,
                NameKind::LocalLabel,
                |i| i.local_definition(name),
                range,
                true,
            );
            // `b` before `f`: the reference's symbol map takes them in this order.
            let prev = self.symbols.global_symbol(&format!("{name}b"));
            let next = self.symbols.global_symbol(&format!("{name}f"));
            self.set_symbol(next, here);
            self.symbols.get_mut(next).value = None;
            self.symbols.get_mut(prev).value = Some(here);
            return;
        }
        let name = token.text().to_string();
        if name == "." {
            self.error_at(ctx, range, "`.` cannot be a label");
            return;
        }
        if name.ends_with("::.") {
            self.error_at(ctx, range, "symbol `.` exists only in the global scope");
            return;
        }
        let id = self.symbols.define_target(&name);
        let full = self.symbols.get(id).name.clone();
        self.note_name(ctx, NameKind::Label, |_| full, range, true);
        let sym = self.symbols.get(id);
        if sym.once_defined && sym.is_defined() {
            self.error_at(ctx, range, format!("symbol `{name}` is already defined"));
            return;
        }
        let label_section = self
            .abs_offset
            .is_none()
            .then(|| self.layout.current() as u32);
        self.set_symbol_of_label(id, here, label_section);
        let sym = self.symbols.get_mut(id);
        sym.once_defined = true;
        sym.is_label = true;
        if self.abs_offset.is_none() && self.layout.is_code_section() {
            let (section, offset) = (self.layout.current(), self.layout.offset());
            self.reg_usage.label(section, offset);
            self.code_labels.push((name.clone(), section, offset));
        }
        self.layout.note_label(&name, here);
    }

    fn assignment(&mut self, ctx: &Ctx, a: &ast::Assignment) {
        // The name is the first token: a NAME, or a FLOAT_NUMBER such as `.5`.
        let Some(name) = a
            .syntax()
            .children_with_tokens()
            .filter_map(|e| e.into_token())
            .find(|t| !t.kind().is_trivia())
        else {
            return;
        };
        let Some(value) = a.value() else { return };
        self.assign(ctx, name.text(), name.text_range(), &value, true, false);
    }

    /// `name = expr` and its pseudo-op forms: `reassign` is false for `.equiv` and
    /// `.eqv`, `base` true for `.eqv` (evaluated anew at each use).
    pub(crate) fn assign(
        &mut self,
        ctx: &Ctx,
        name: &str,
        range: TextRange,
        value: &ast::Expr,
        reassign: bool,
        base: bool,
    ) {
        if name.ends_with("::.") {
            self.error_at(ctx, range, "symbol `.` exists only in the global scope");
            return;
        }
        if name.bytes().next().is_some_and(|b| b.is_ascii_digit()) {
            self.error_at(ctx, range, "a local label cannot be assigned");
            return;
        }
        if let ast::Expr::Percent(p) = value {
            if name == "." {
                self.error_at(ctx, range, "`.` needs a value, not a register");
                return;
            }
            let Some(inner) = p.expr() else { return };
            let reg = match self.register_value(ctx, &inner) {
                Ok(reg) => reg,
                Err((r, message)) => {
                    self.error_at(ctx, r, message);
                    return;
                }
            };
            self.format_fixed = true;
            let id = self.symbols.define_target(name);
            let full = self.symbols.get(id).name.clone();
            self.note_name(ctx, NameKind::RegisterSymbol, |_| full, range, true);
            let sym = self.symbols.get(id);
            if (sym.once_defined || !reassign) && sym.is_defined() {
                self.error_at(ctx, range, format!("symbol `{name}` is already defined"));
                return;
            }
            let waiting = std::mem::take(&mut self.symbols.get_mut(id).occurrences);
            let waiting: Vec<u32> = waiting
                .into_iter()
                .filter(|&i| !self.pending[i as usize].done)
                .collect();
            if !waiting.is_empty() {
                for i in waiting {
                    let p = &mut self.pending[i as usize];
                    p.done = true;
                    let (loc, origin) = (p.loc, p.origin.clone());
                    self.diag_at(
                        loc,
                        origin,
                        Severity::Error,
                        "expression has a register symbol".into(),
                    );
                }
                self.error_at(
                    ctx,
                    range,
                    format!("register symbol `{name}` was used in expressions before"),
                );
                return;
            }
            self.any_register_symbol = true;
            let sym = self.symbols.get_mut(id);
            sym.register = Some(reg);
            sym.value = None;
            sym.def = None;
            sym.eqv = None;
            sym.once_defined = !reassign;
            return;
        }
        if name == "." {
            if let Some(v) = self.eval_now(ctx, value) {
                self.set_output_counter(ctx, range, v, 0);
            }
            return;
        }
        let ir = if base {
            match self.try_lower(ctx, value, true) {
                Ok(ir) => ir,
                Err((r, m)) => {
                    self.error_at(ctx, r, m);
                    return;
                }
            }
        } else {
            let Some(ir) = self.lower(ctx, value) else {
                return;
            };
            ir
        };
        let id = self.symbols.define_target(name);
        if name != "." {
            let full = self.symbols.get(id).name.clone();
            self.note_name(ctx, NameKind::Symbol, |_| full, range, true);
        }
        let sym = self.symbols.get(id);
        if (sym.once_defined || !reassign) && sym.is_defined() {
            self.error_at(ctx, range, format!("symbol `{name}` is already defined"));
            return;
        }
        let mut later = false;
        if ir.is_closed() {
            match self.eval_ir(ctx, value.syntax().text_range(), &ir) {
                Ok(v) => {
                    let v = self.code_relative_value(ctx, value, v);
                    self.set_symbol(id, v);
                    self.symbols.get_mut(id).once_defined = !reassign;
                    return;
                }
                Err(EvalError::Invalid(message, at)) => {
                    self.invalid_at(ctx, value.syntax().text_range(), message, at);
                    return;
                }
                Err(EvalError::Pending) => unreachable!("a closed expression is never pending"),
                // Known once the sections are placed: a pending definition until then (an
                // `.eqv` keeps its expression, evaluated at each use).
                Err(EvalError::Later) => later = true,
            }
        }
        let sym = self.symbols.get_mut(id);
        sym.value = None;
        sym.register = None;
        sym.eqv = None;
        sym.def = None;
        sym.once_defined = !reassign;
        if base {
            self.symbols.get_mut(id).eqv = Some(Rc::new(ir));
            self.bind_waiting(id);
            return;
        }
        // A pending definition: references from now on wait for it, and so do those
        // that waited for the symbol itself.
        let def = self.symbols.anonymous(name.to_string());
        self.symbols.get_mut(def).owner = Some(id);
        self.symbols.get_mut(id).def = Some(def);
        let waiting = std::mem::take(&mut self.symbols.get_mut(id).occurrences);
        for i in waiting {
            self.rewrite_pending(i as usize, id, &|| Ir::Sym(def));
        }
        self.add_pending(
            ir,
            PendingTarget::Symbol(def),
            ctx,
            value.syntax().text_range(),
        );
        if later {
            self.wait_for_places(self.pending.len() - 1);
        }
    }

    /// Gives the fixups waiting for an `.eqv` symbol its expression as it is now.
    fn bind_waiting(&mut self, id: SymId) {
        let waiting = std::mem::take(&mut self.symbols.get_mut(id).occurrences);
        if waiting.is_empty() {
            return;
        }
        let snapshot = self.bind_top(id);
        self.bind_exhausted = false;
        for i in waiting {
            let snapshot = snapshot.clone();
            if let Some((defined, value)) =
                self.rewrite_pending(i as usize, id, &move || snapshot.clone())
            {
                self.set_symbol(defined, value);
            }
        }
    }

    /// Gives a symbol its value and resolves what waited for it.
    pub(crate) fn set_symbol(&mut self, id: SymId, value: Value) {
        self.set_symbol_of_label(id, value, None);
    }

    /// [`set_symbol`](Self::set_symbol) for a label of `label_section` (known before
    /// what waited for it is resolved).
    fn set_symbol_of_label(&mut self, id: SymId, value: Value, label_section: Option<u32>) {
        let mut work = vec![(id, value)];
        let mut label_section = label_section;
        while let Some((id, value)) = work.pop() {
            let sym = self.symbols.get_mut(id);
            sym.value = Some(value);
            sym.label_section = label_section.take();
            sym.def = None;
            sym.register = None;
            sym.eqv = None;
            if let Some(owner) = sym.owner {
                // A pending definition resolved: its symbol gets the value, unless it
                // was redefined meanwhile.
                if self.symbols.get(owner).def == Some(id) {
                    work.push((owner, value));
                }
            }
            let waiting = std::mem::take(&mut self.symbols.get_mut(id).occurrences);
            for i in waiting {
                if let Some(defined) = self.rewrite_pending(i as usize, id, &|| Ir::Value(value)) {
                    work.push(defined);
                }
            }
        }
    }

    /// Replaces `id` in a pending expression; completes it when nothing is left to wait
    /// for. Returns the symbol value it defined, for the caller to propagate.
    fn rewrite_pending(
        &mut self,
        index: usize,
        id: SymId,
        with: &dyn Fn() -> Ir,
    ) -> Option<(SymId, Value)> {
        if self.pending[index].done {
            return None;
        }
        let mut before = Vec::new();
        self.pending[index].ir.symbols(&mut before);
        self.pending[index].ir.substitute(id, with);
        let mut after = Vec::new();
        self.pending[index].ir.symbols(&mut after);
        for &s in &after {
            if s == id || !before.contains(&s) {
                self.symbols.get_mut(s).occurrences.push(index as u32);
            }
        }
        self.pending[index].remaining = after.len() as u32;
        if !after.is_empty() {
            return None;
        }
        self.complete_pending(index)
    }

    fn complete_pending(&mut self, index: usize) -> Option<(SymId, Value)> {
        self.pending[index].done = true;
        let place = match self.pending[index].target {
            PendingTarget::Field {
                section,
                offset,
                shift,
                bits,
                ..
            } => Some((section, offset, shift == 0 && bits == 32)),
            PendingTarget::Data {
                section,
                offset,
                size,
            } => Some((section, offset, size == 4)),
            _ => None,
        };
        if let Some((section, offset, word)) = place {
            if self.wants_relocation(&self.pending[index].ir) {
                let ir = self.pending[index].ir.clone();
                match self.relocate(&ir, section, offset, word) {
                    Ok(()) => {}
                    Err(message) => self.pending_diag(index, Severity::Error, message),
                }
                return None;
            }
        }
        let mut warnings = Vec::new();
        let result = self.with_sections(|asm, sections| {
            let symbols = &asm.symbols;
            // One warning per cause: `t + t` with `.eqv t, x << 65` reads the shift twice.
            asm.pending[index].ir.eval_in(
                &|s| symbols.value(s),
                &mut |w| push_once(&mut warnings, w),
                sections,
            )
        });
        for w in warnings {
            self.pending_diag(index, Severity::Warning, w);
        }
        match result {
            Ok(v) => self.apply_pending(index, v),
            Err(EvalError::Invalid(message, at)) => {
                let p = &self.pending[index];
                let (loc, len, origin) = (p.loc, p.len, p.origin.clone());
                self.report_invalid(loc, len, &origin, message, at);
                None
            }
            Err(EvalError::Pending) => None,
            Err(EvalError::Later) => {
                self.wait_for_places(index);
                None
            }
        }
    }

    /// Makes a pending fixup wait for the places of the sections (see
    /// [`place_sections`](Self::place_sections)).
    fn wait_for_places(&mut self, index: usize) {
        let id = match self.places_symbol {
            Some(id) => id,
            None => {
                let id = self
                    .symbols
                    .anonymous("(places of the sections in the binary)".into());
                self.places_symbol = Some(id);
                id
            }
        };
        self.symbols.get_mut(id).occurrences.push(index as u32);
        let p = &mut self.pending[index];
        p.remaining = 1;
        p.done = false;
    }

    /// The end of a ROCm assembly: the sections of the section space are at these
    /// addresses (the lowest first); the expressions that waited for them are evaluated,
    /// in the order they began to wait.
    pub(crate) fn place_sections(&mut self, placed: Vec<(u32, i64)>) {
        let mut placed = placed;
        placed.sort_by_key(|p| p.1);
        self.placed_sections = Some(placed);
        if let Some(id) = self.places_symbol {
            self.set_symbol(id, Value::Abs(0));
        }
    }

    /// Runs `f` with the rule for positions in different sections in force now.
    fn with_sections<R>(&self, f: impl FnOnce(&Self, Sections) -> R) -> R {
        if let Some(placed) = &self.placed_sections {
            return f(self, Sections::Placed(placed));
        }
        if crate::format_ops::section_diffs(self) {
            let layout = &self.layout;
            let in_space = |s: u32| crate::format_ops::in_section_space(layout, s as usize);
            return f(self, Sections::Space(&in_space));
        }
        f(self, Sections::Single)
    }

    fn pending_diag(&mut self, index: usize, severity: Severity, message: String) {
        let p = &self.pending[index];
        let (loc, origin) = (p.loc, p.origin.clone());
        self.diag_at(loc, origin, severity, message);
    }

    /// Writes a resolved value; returns the symbol it defines, if any.
    fn apply_pending(&mut self, index: usize, value: Value) -> Option<(SymId, Value)> {
        match self.pending[index].target.clone() {
            PendingTarget::Symbol(id) => Some((id, self.code_relative_pending(index, value))),
            PendingTarget::Data {
                section,
                offset,
                size,
            } => {
                match self.data_value(value) {
                    Ok(v) => {
                        if size < 8 && !fits_unsigned_or_signed(v, size as u32 * 8) {
                            let message = truncation_message(v, size as u32 * 8);
                            self.pending_diag(index, Severity::Warning, message);
                        }
                        self.layout
                            .patch_bytes(section, offset, &v.to_le_bytes()[..size]);
                    }
                    Err(message) => self.pending_diag(index, Severity::Error, message),
                }
                None
            }
            PendingTarget::Field {
                section,
                offset,
                shift,
                bits,
                signed,
            } => {
                match self.data_value(value) {
                    Ok(v) => self.patch_field(index, section, offset, shift, bits, signed, v),
                    Err(message) => self.pending_diag(index, Severity::Error, message),
                }
                None
            }
            PendingTarget::Branch {
                section,
                offset,
                instr_start,
            } => {
                match branch_offset(value, section, instr_start, &self.layout) {
                    Ok(v) if fits_signed(v, 16) => {
                        self.patch_field(index, section, offset, 0, 16, false, v)
                    }
                    Ok(_) => self.pending_diag(
                        index,
                        Severity::Error,
                        "the branch target is out of range".into(),
                    ),
                    Err(message) => self.pending_diag(index, Severity::Error, message),
                }
                None
            }
        }
    }

    /// Writes `value` into bits `shift..shift+bits` of the dword at `offset`, truncating
    /// (with a warning) what does not fit, as the reference does: a signed field keeps
    /// the bits below its sign bit of a positive value, all its bits of a negative one.
    #[allow(clippy::too_many_arguments)]
    fn patch_field(
        &mut self,
        index: usize,
        section: usize,
        offset: usize,
        shift: u8,
        bits: u8,
        signed: bool,
        value: i64,
    ) {
        let (field, warning) = gcn_isa::encode::fit_field(value, bits, signed);
        if let Some(message) = warning {
            self.pending_diag(index, Severity::Warning, message);
        }
        let Some(content) = self.layout.sections.get(section).map(|s| &s.content) else {
            return;
        };
        if offset + 4 > content.len() {
            return;
        }
        let bits = u32::from(bits).min(32);
        let mut word = u32::from_le_bytes(content[offset..offset + 4].try_into().unwrap());
        let field_mask: u32 = if bits >= 32 {
            u32::MAX
        } else {
            (1u32 << bits) - 1
        };
        word = (word & !(field_mask << shift)) | (field << shift);
        self.layout
            .patch_bytes(section, offset, &word.to_le_bytes());
    }

    /// Whether a closed expression's value is a relocation: a position in a section
    /// whose addresses are only known when the binary is loaded (AMD OpenCL 2.0 global
    /// data, Gallium's scratch buffer), or an expression on one that only a relocation
    /// can express (`x >> 32`).
    pub(crate) fn wants_relocation(&self, ir: &Ir) -> bool {
        if !matches!(
            self.layout.format,
            BinaryFormat::AmdCl2 | BinaryFormat::Gallium
        ) || !self.is_relocatable(ir)
        {
            return false;
        }
        match ir.eval(&|s| self.symbols.value(s), &mut |_| {}) {
            Ok(Value::Abs(_)) | Err(EvalError::Pending | EvalError::Later) => false,
            Ok(Value::Rel { section, .. }) => !self.layout.is_absolute_section(section as usize),
            Err(EvalError::Invalid(..)) => true,
        }
    }

    /// Whether an expression involves a value in a section that is not at an absolute
    /// address.
    fn is_relocatable(&self, ir: &Ir) -> bool {
        match ir {
            Ir::Value(Value::Rel { section, .. }) => {
                !self.layout.is_absolute_section(*section as usize)
            }
            Ir::Value(_) | Ir::Sym(_) => false,
            Ir::Unary(_, e) => self.is_relocatable(e),
            Ir::Binary(_, a, b, _) => self.is_relocatable(a) || self.is_relocatable(b),
            Ir::Ternary(c, t, e) => {
                self.is_relocatable(c) || self.is_relocatable(t) || self.is_relocatable(e)
            }
        }
    }

    /// Makes a relocation of the 32-bit word at `offset` of `section` (an instruction's
    /// literal, or `.int` in code) for a closed expression: `X`, `X & 0xffffffff`,
    /// `X % 0x100000000` (low 32 bits) or `X >> 32`, `X / 0x100000000` (high 32 bits),
    /// where `X` is a position in a relocatable section. The word gets the format's
    /// placeholder.
    pub(crate) fn relocate(
        &mut self,
        ir: &Ir,
        section: usize,
        offset: usize,
        word: bool,
    ) -> Result<(), String> {
        use crate::expr::BinOp;
        if !word {
            return Err(
                "a relocation (a value in a relocatable section) fits only a 32-bit word".into(),
            );
        }
        if self
            .layout
            .sections
            .get(section)
            .is_none_or(|s| s.kind != SectionKind::Code)
        {
            return Err(
                "a relocation (a value in a relocatable section) can be only in code".into(),
            );
        }
        let mut high = false;
        let mut base = ir;
        if let Ir::Binary(op, lhs, rhs, _) = ir {
            let pattern = matches!(
                op,
                BinOp::And | BinOp::Rem | BinOp::URem | BinOp::Div | BinOp::UDiv | BinOp::Shr
            );
            if pattern && !self.is_relocatable(rhs) {
                let c = match rhs.eval(&|s| self.symbols.value(s), &mut |_| {}) {
                    Ok(Value::Abs(c)) => c as u64,
                    _ => return Err("the second operand of a relocation must be absolute".into()),
                };
                let good = match op {
                    BinOp::And => c & 0xffff_ffff == 0xffff_ffff,
                    BinOp::Rem | BinOp::URem => (c >> 32) != 0 && c & 0xffff_ffff == 0,
                    BinOp::Shr => {
                        high = true;
                        c == 32
                    }
                    _ => {
                        high = true;
                        c == 1 << 32
                    }
                };
                if !good {
                    return Err("this expression cannot be a relocation".into());
                }
                base = lhs;
            }
        }
        let value = base
            .eval(&|s| self.symbols.value(s), &mut |_| {})
            .map_err(|e| match e {
                EvalError::Invalid(m, _) => m,
                EvalError::Pending | EvalError::Later => {
                    "unresolved symbols in a relocation".into()
                }
            })?;
        let (target, addend) = match value {
            Value::Rel {
                section: t,
                offset: a,
            } if !self.layout.is_absolute_section(t as usize) => (t as usize, a),
            _ => return Err("this expression cannot be a relocation".into()),
        };
        let fill = match self.layout.format {
            // Gallium relocates the scratch buffer's address, with nothing added.
            crate::options::BinaryFormat::Gallium => {
                if addend != 0 {
                    return Err(
                        "the expression must point to the start of the scratch buffer".into(),
                    );
                }
                4u32
            }
            _ => 0x5555_5555,
        };
        self.layout
            .patch_bytes(section, offset, &fill.to_le_bytes());
        self.layout
            .config
            .relocations
            .push(crate::format_ops::Relocation {
                section,
                offset,
                high,
                target,
                addend,
            });
        Ok(())
    }

    /// `. = value` / `.org`: moves the output counter forward (anywhere in the absolute
    /// section), filling with `fill`.
    pub(crate) fn set_output_counter(
        &mut self,
        ctx: &Ctx,
        range: TextRange,
        value: Value,
        fill: u8,
    ) {
        self.format_fixed = true;
        if self.abs_offset.is_some() {
            let target = match value {
                Value::Abs(v) => v,
                Value::Rel { .. } => {
                    self.error_at(
                        ctx,
                        range,
                        "the output counter cannot move to another section",
                    );
                    return;
                }
            };
            if fill != 0 {
                self.warn_at(
                    ctx,
                    range,
                    "the fill value is ignored in the absolute section",
                );
            }
            self.abs_offset = Some(target);
            return;
        }
        let current = self.layout.current() as u32;
        let target = match value {
            Value::Abs(v) => v,
            Value::Rel { section, offset } if section == current => offset,
            Value::Rel { .. } => {
                self.error_at(
                    ctx,
                    range,
                    "the output counter cannot move to another section",
                );
                return;
            }
        };
        let here = self.layout.offset() as i64;
        if target < here {
            self.error_at(ctx, range, "the output counter cannot move backwards");
            return;
        }
        self.reserve(ctx, range, (target - here) as u64, fill);
    }

    // ---- expressions ------------------------------------------------------------------

    /// The output counter: a position in the current section (or an absolute value in
    /// the absolute section and in sections whose addresses are their offsets).
    pub(crate) fn here(&self) -> Value {
        if let Some(offset) = self.abs_offset {
            return Value::Abs(offset);
        }
        let section = self.layout.current();
        let offset = self.layout.offset() as i64;
        if self.layout.is_absolute_section(section) && !self.kept_relative(section) {
            Value::Abs(offset)
        } else {
            Value::Rel {
                section: section as u32,
                offset,
            }
        }
    }

    /// Whether labels can be defined and the counter moved here.
    pub(crate) fn is_addressable(&self) -> bool {
        self.abs_offset.is_some()
            || self.layout.sections[self.layout.current()].kind != SectionKind::Config
    }

    /// Lowers a syntax-tree expression; reports and returns `None` on error.
    pub(crate) fn lower(&mut self, ctx: &Ctx, expr: &ast::Expr) -> Option<Ir> {
        match self.try_lower(ctx, expr, false) {
            Ok(ir) => Some(ir),
            Err((range, message)) => {
                self.error_at(ctx, range, message);
                None
            }
        }
    }

    /// Lowers an expression. `base` (for `.eqv`, `.for`): symbols stay references even
    /// when they have a value, to be bound at each use.
    #[allow(clippy::only_used_in_recursion)] // the context is kept for the callers' sake
    pub(crate) fn try_lower(
        &mut self,
        ctx: &Ctx,
        expr: &ast::Expr,
        base: bool,
    ) -> Result<Ir, (TextRange, String)> {
        let range = expr.syntax().text_range();
        let missing = || (range, "incomplete expression".to_string());
        Ok(match expr {
            ast::Expr::Literal(lit) => {
                let token = lit.token().ok_or_else(missing)?;
                match token.kind() {
                    SyntaxKind::LOCAL_LABEL_REF => {
                        let text = token.text();
                        let (number, dir) = text.split_at(text.len() - 1);
                        let forward = dir.eq_ignore_ascii_case("f");
                        self.note_name(
                            ctx,
                            NameKind::LocalLabel,
                            |i| i.local_reference(number, forward),
                            token.text_range(),
                            false,
                        );
                        self.local_label_ref(text).map_err(|m| (range, m))?
                    }
                    // `.5` in an integer expression names a symbol, as in the reference.
                    SyntaxKind::FLOAT_NUMBER if token.text().starts_with('.') => {
                        self.name_ir_at(ctx, &token, base).map_err(|m| (range, m))?
                    }
                    _ => Ir::Value(Value::Abs(literal_value(&token).map_err(|m| (range, m))?)),
                }
            }
            ast::Expr::NameRef(n) => {
                let token = n.name_token().ok_or_else(missing)?;
                self.name_ir_at(ctx, &token, base).map_err(|m| (range, m))?
            }
            ast::Expr::Paren(p) => self.try_lower(ctx, &p.expr().ok_or_else(missing)?, base)?,
            ast::Expr::At(p) => self.try_lower(ctx, &p.expr().ok_or_else(missing)?, base)?,
            ast::Expr::Prefix(p) => {
                let op = p.op().and_then(|t| un_op(t.kind())).ok_or_else(missing)?;
                Ir::Unary(
                    op,
                    Box::new(self.try_lower(ctx, &p.expr().ok_or_else(missing)?, base)?),
                )
            }
            ast::Expr::Bin(b) => {
                let token = b.op().ok_or_else(missing)?;
                let op = bin_op(token.kind()).ok_or_else(missing)?;
                let at = OpAt {
                    loc: ctx.loc(token.text_range().start()),
                    len: u32::from(token.text_range().len()),
                };
                let lhs = self.try_lower(ctx, &b.lhs().ok_or_else(missing)?, base)?;
                let rhs = self.try_lower(ctx, &b.rhs().ok_or_else(missing)?, base)?;
                Ir::Binary(op, Box::new(lhs), Box::new(rhs), Some(at))
            }
            ast::Expr::Ternary(t) => {
                let c = self.try_lower(ctx, &t.condition().ok_or_else(missing)?, base)?;
                let a = self.try_lower(ctx, &t.then_expr().ok_or_else(missing)?, base)?;
                let b = self.try_lower(ctx, &t.else_expr().ok_or_else(missing)?, base)?;
                Ir::Ternary(Box::new(c), Box::new(a), Box::new(b))
            }
            // A register name alone where an instruction takes a value (the SMRD offset's
            // `vccz`, see `gcn_isa::encode::operands::is_bare_register_name`) is the symbol
            // of that name: clrxasm's expressions know no registers.
            ast::Expr::Register(r) if r.range().is_none() && r.name_token().is_some() => {
                let token = r.name_token().ok_or_else(missing)?;
                self.name_ir_at(ctx, &token, base).map_err(|m| (range, m))?
            }
            ast::Expr::Register(_) | ast::Expr::RegIndex(_) | ast::Expr::Percent(_) => {
                return Err((range, "a register is not allowed in an expression".into()))
            }
            ast::Expr::Call(_) | ast::Expr::Abs(_) | ast::Expr::List(_) => {
                return Err((range, "this is not an expression".into()))
            }
        })
    }

    /// `1b`: the last `1:` so far; `1f`: the next `1:`.
    fn local_label_ref(&mut self, text: &str) -> Result<Ir, String> {
        let (name, dir) = text.split_at(text.len() - 1);
        if dir.eq_ignore_ascii_case("f") {
            return Ok(Ir::Sym(self.symbols.global_symbol(&format!("{name}f"))));
        }
        let prev = self.symbols.global_symbol(&format!("{name}b"));
        match self.symbols.value(prev) {
            Some(v) => Ok(Ir::Value(self.value_in_expression(prev, v))),
            None => Err(format!("no local label `{name}` before this point")),
        }
    }

    /// [`name_ir`](Self::name_ir) of a name token, recorded in the index as a use.
    fn name_ir_at(
        &mut self,
        ctx: &Ctx,
        token: &gcn_syntax::SyntaxToken,
        base: bool,
    ) -> Result<Ir, String> {
        if self.index.is_some() && token.text() != "." {
            let id = self.symbols.lookup(token.text());
            let full = self.symbols.get(id).name.clone();
            self.note_name(ctx, NameKind::Symbol, |_| full, token.text_range(), false);
        }
        self.name_ir(token.text(), base)
    }

    fn name_ir(&mut self, name: &str, base: bool) -> Result<Ir, String> {
        let id = self.symbols.lookup(name);
        if self.symbols.get(id).register.is_some() {
            return Err(format!(
                "`{name}` is a register symbol, not allowed in an expression"
            ));
        }
        if base && id != self.dot {
            return Ok(Ir::Sym(id));
        }
        let ir = self.bind_top(id);
        if std::mem::take(&mut self.bind_exhausted) {
            return Err(format!("the `.eqv` expansion of `{name}` is too large"));
        }
        Ok(ir)
    }

    /// [`bind`](Self::bind) with a fresh budget for `.eqv` expansions.
    fn bind_top(&mut self, id: SymId) -> Ir {
        self.bind_budget = 1 << 20;
        self.bind(id)
    }

    /// A reference to a symbol as it stands now: its value, its pending definition, the
    /// current expansion of its `.eqv` expression, or the symbol itself.
    fn bind(&mut self, id: SymId) -> Ir {
        if id == self.dot {
            return Ir::Value(self.here());
        }
        let sym = self.symbols.get(id);
        if let Some(v) = sym.value {
            return Ir::Value(self.value_in_expression(id, v));
        }
        if let Some(def) = sym.def {
            return Ir::Sym(def);
        }
        if let Some(eqv) = sym.eqv.clone() {
            if self.eqv_active.len() >= 1000 || !self.eqv_active.insert(id) {
                // A cycle of `.eqv`s never gets a value.
                return Ir::Sym(id);
            }
            let cost = eqv.size();
            if self.bind_budget < cost {
                self.bind_exhausted = true;
                self.eqv_active.remove(&id);
                return Ir::Sym(id);
            }
            self.bind_budget -= cost;
            let mut ir = (*eqv).clone();
            self.bind_all(&mut ir);
            self.eqv_active.remove(&id);
            return ir;
        }
        Ir::Sym(id)
    }

    fn bind_all(&mut self, ir: &mut Ir) {
        match ir {
            Ir::Value(_) => {}
            Ir::Sym(id) => *ir = self.bind(*id),
            Ir::Unary(_, e) => self.bind_all(e),
            Ir::Binary(_, a, b, _) => {
                self.bind_all(a);
                self.bind_all(b);
            }
            Ir::Ternary(c, t, e) => {
                self.bind_all(c);
                self.bind_all(t);
                self.bind_all(e);
            }
        }
    }

    /// A base expression (`.for`'s condition) bound now.
    pub(crate) fn bind_base(&mut self, base: &Ir) -> Ir {
        let mut ir = base.clone();
        self.bind_budget = 1 << 20;
        self.bind_all(&mut ir);
        self.bind_exhausted = false;
        ir
    }

    /// Section offsets in sections whose addresses are their offsets are absolute.
    fn absolute_if_possible(&self, v: Value) -> Value {
        match v {
            Value::Rel { section, offset }
                if self.layout.is_absolute_section(section as usize)
                    && !self.kept_relative(section as usize) =>
            {
                Value::Abs(offset)
            }
            v => v,
        }
    }

    /// A symbol's value `v` as an expression sees it: absolute where its section's
    /// addresses are its offsets, except a code label's position while code positions
    /// are kept relative.
    fn value_in_expression(&self, id: SymId, v: Value) -> Value {
        match (v, self.symbols.get(id).label_section) {
            (Value::Abs(offset), Some(section)) if self.kept_relative(section as usize) => {
                Value::Rel { section, offset }
            }
            _ => self.absolute_if_possible(v),
        }
    }

    /// [`code_relative_value`](Self::code_relative_value) of a definition that waited
    /// for its symbols: its expression as written, with their values now.
    fn code_relative_pending(&mut self, index: usize, absolute: Value) -> Value {
        let Value::Abs(number) = absolute else {
            return absolute;
        };
        let Some(original) = self.pending[index].original.take() else {
            return absolute;
        };
        let mut ir = *original;
        let mut syms = Vec::new();
        ir.symbols(&mut syms);
        self.keep_code_relative = true;
        let mut closed = true;
        for s in syms {
            match self.symbols.value(s) {
                Some(v) => {
                    let v = self.value_in_expression(s, v);
                    ir.substitute(s, &|| Ir::Value(v));
                }
                None => closed = false,
            }
        }
        let relative = closed
            .then(|| {
                self.with_sections(|asm, sections| {
                    ir.eval_in(&|s| asm.symbols.value(s), &mut |_| {}, sections)
                })
                .ok()
            })
            .flatten();
        self.keep_code_relative = false;
        self.position_if_same(relative, number).unwrap_or(absolute)
    }

    /// The code-relative reading `relative` when it is a position in code with the same
    /// number as the absolute value.
    fn position_if_same(&self, relative: Option<Value>, number: i64) -> Option<Value> {
        match relative {
            Some(Value::Rel { section, offset })
                if offset == number && self.is_code_section(section as usize) =>
            {
                relative
            }
            _ => None,
        }
    }

    fn kept_relative(&self, section: usize) -> bool {
        self.keep_code_relative && self.is_code_section(section)
    }

    fn is_code_section(&self, section: usize) -> bool {
        self.layout
            .sections
            .get(section)
            .is_some_and(|s| s.kind == SectionKind::Code)
    }

    /// The value a symbol assigned `value` keeps: in AMD OpenCL 2.0 and GalliumCompute,
    /// code is addressable but its positions are not absolute in the reference (only the
    /// section's known address makes them usable as numbers), so `x = label + 4` is a
    /// position in the code, as the symbol table of `-S` writes it. `absolute` is the
    /// value as every use sees it; the position is kept when it is that same number.
    fn code_relative_value(&mut self, ctx: &Ctx, value: &ast::Expr, absolute: Value) -> Value {
        let Value::Abs(number) = absolute else {
            return absolute;
        };
        if !matches!(
            self.layout.format,
            BinaryFormat::AmdCl2 | BinaryFormat::Gallium
        ) || !names_a_position(value)
        {
            return absolute;
        }
        // Lowered again with code positions kept: quietly, the first lowering reported
        // and indexed what there was.
        let index = self.index.take();
        let diags = self.diags.len();
        self.keep_code_relative = true;
        let ir = self.try_lower(ctx, value, false).ok();
        let relative = ir
            .filter(Ir::is_closed)
            .and_then(|ir| self.eval_ir(ctx, value.syntax().text_range(), &ir).ok());
        self.keep_code_relative = false;
        self.diags.truncate(diags);
        self.index = index;
        self.position_if_same(relative, number).unwrap_or(absolute)
    }

    /// Evaluates, reporting warnings at `range`.
    pub(crate) fn eval_ir(
        &mut self,
        ctx: &Ctx,
        range: TextRange,
        ir: &Ir,
    ) -> Result<Value, EvalError> {
        let mut warnings = Vec::new();
        let result = self.with_sections(|asm, sections| {
            let symbols = &asm.symbols;
            ir.eval_in(
                &|s| symbols.value(s),
                &mut |w| push_once(&mut warnings, w),
                sections,
            )
        });
        for w in warnings {
            self.warn_at(ctx, range, w);
        }
        result
    }

    /// Evaluates an expression that must be known now (`.if`, `.rept`, sizes).
    pub(crate) fn eval_now(&mut self, ctx: &Ctx, expr: &ast::Expr) -> Option<Value> {
        let ir = self.lower(ctx, expr)?;
        self.eval_now_ir(ctx, expr.syntax().text_range(), &ir)
    }

    pub(crate) fn eval_now_ir(&mut self, ctx: &Ctx, range: TextRange, ir: &Ir) -> Option<Value> {
        match self.eval_ir(ctx, range, ir) {
            Ok(v) => Some(v),
            Err(EvalError::Pending) => {
                let mut syms = Vec::new();
                ir.symbols(&mut syms);
                let names: Vec<String> = syms
                    .iter()
                    .map(|&s| format!("`{}`", self.symbols.get(s).name))
                    .collect();
                self.error_at(
                    ctx,
                    range,
                    format!("expression has unresolved symbols: {}", names.join(", ")),
                );
                None
            }
            Err(EvalError::Invalid(message, at)) => {
                self.invalid_at(ctx, range, message, at);
                None
            }
            Err(EvalError::Later) => {
                self.error_at(ctx, range, PLACES_LATER);
                None
            }
        }
    }

    /// Like [`eval_now`](Self::eval_now), for an absolute value.
    pub(crate) fn eval_abs_now(&mut self, ctx: &Ctx, expr: &ast::Expr) -> Option<i64> {
        match self.eval_now(ctx, expr)? {
            Value::Abs(v) => Some(v),
            Value::Rel { .. } => {
                self.error_at(
                    ctx,
                    expr.syntax().text_range(),
                    "expression must be absolute",
                );
                None
            }
        }
    }

    // ---- pending fixups -----------------------------------------------------------------

    pub(crate) fn add_pending(
        &mut self,
        ir: Ir,
        target: PendingTarget,
        ctx: &Ctx,
        range: TextRange,
    ) {
        let (loc, end) = (ctx.loc(range.start()), ctx.loc(range.end()));
        let len = if end.file == loc.file {
            end.offset.saturating_sub(loc.offset)
        } else {
            0
        };
        let mut syms = Vec::new();
        ir.symbols(&mut syms);
        let index = self.pending.len();
        for &s in &syms {
            self.symbols.get_mut(s).occurrences.push(index as u32);
        }
        let keeps_code_positions = matches!(
            self.layout.format,
            BinaryFormat::AmdCl2 | BinaryFormat::Gallium
        );
        let original = (keeps_code_positions && matches!(target, PendingTarget::Symbol(_)))
            .then(|| Box::new(ir.clone()));
        self.pending.push(Pending {
            ir,
            target,
            loc,
            len,
            origin: ctx.origin.clone(),
            remaining: syms.len() as u32,
            done: false,
            original,
        });
    }

    /// A value to store in data or code: absolute, or a position in a section whose
    /// addresses are its offsets.
    pub(crate) fn data_value(&self, value: Value) -> Result<i64, String> {
        match value {
            Value::Abs(v) => Ok(v),
            Value::Rel { section, offset } if self.layout.is_absolute_section(section as usize) => {
                Ok(offset)
            }
            Value::Rel { .. } => Err("a section-relative value is not allowed in data".into()),
        }
    }

    /// Reports every fixup still waiting at the end of the source, as the reference does
    /// (`printUnresolvedSymbols`): an error `Unresolved symbol 'NAME'` at the expression,
    /// for each symbol it still waits for. That includes pending definitions (`a = b` with
    /// `b` never defined, or `a = b` / `b = a`, a cycle that can never resolve) and data
    /// (`.int a`): nothing unresolved is silently stored as 0. In a test run
    /// ([`Options::test_run`](crate::Options::test_run)) only code fields are errors, data
    /// keeps 0 with a warning and definitions stay undefined silently.
    pub(crate) fn finish_pending(&mut self) {
        for index in 0..self.pending.len() {
            let p = &self.pending[index];
            if p.done {
                continue;
            }
            let severity = match (&p.target, self.opts.test_run) {
                (_, false) => Severity::Error,
                (PendingTarget::Symbol(_), true) => continue,
                (PendingTarget::Data { .. }, true) => Severity::Warning,
                (_, true) => Severity::Error,
            };
            let mut syms = Vec::new();
            p.ir.symbols(&mut syms);
            let mut names: Vec<String> = Vec::new();
            for s in syms {
                let sym = self.symbols.get(s);
                // A pending definition is named by the symbol it defines.
                let name = match sym.owner {
                    Some(owner) => self.symbols.get(owner).name.clone(),
                    None => sym.name.clone(),
                };
                if !names.contains(&name) {
                    names.push(name);
                }
            }
            for name in names {
                match severity {
                    Severity::Warning => {
                        let message = format!("Unresolved symbol '{name}': 0 was stored");
                        self.pending_diag(index, severity, message);
                    }
                    _ => self.unresolved_error(index, &name, format!("Unresolved symbol '{name}'")),
                }
            }
        }
    }

    // ---- output -----------------------------------------------------------------------

    /// Puts bytes in the current section.
    pub(crate) fn emit(&mut self, ctx: &Ctx, range: TextRange, bytes: &[u8]) -> bool {
        self.format_fixed = true;
        if self.abs_offset.is_some() {
            self.error_at(
                ctx,
                range,
                "data cannot be written to the absolute section (`.struct`/`.offset`)",
            );
            return false;
        }
        if let Err(message) = self
            .layout
            .can_emit(bytes.len() as u64, self.opts.limits.output_size)
        {
            self.error_at(ctx, range, message);
            return false;
        }
        self.layout.emit(bytes);
        true
    }

    /// Moves the output counter forward by `count` bytes, filled with `fill`.
    pub(crate) fn reserve(&mut self, ctx: &Ctx, range: TextRange, count: u64, fill: u8) -> bool {
        self.format_fixed = true;
        if let Some(offset) = &mut self.abs_offset {
            *offset = offset.wrapping_add(count as i64);
            return true;
        }
        if !self.is_addressable() {
            self.error_at(
                ctx,
                range,
                "the output counter cannot move in a section without addresses",
            );
            return false;
        }
        if let Err(message) = self.layout.can_emit(count, self.opts.limits.output_size) {
            self.error_at(ctx, range, message);
            return false;
        }
        self.layout.emit_fill(count as usize, fill);
        true
    }

    /// Emits an integer of `size` bytes, or zeros and a fixup when not known yet.
    pub(crate) fn emit_value(&mut self, ctx: &Ctx, expr: &ast::Expr, size: usize) {
        let range = expr.syntax().text_range();
        let zeros = [0u8; 8];
        let Some(ir) = self.lower(ctx, expr) else {
            self.emit(ctx, range, &zeros[..size]);
            return;
        };
        if !ir.is_closed() {
            let (section, offset) = (self.layout.current(), self.layout.offset());
            if self.emit(ctx, range, &zeros[..size]) {
                self.add_pending(
                    ir,
                    PendingTarget::Data {
                        section,
                        offset,
                        size,
                    },
                    ctx,
                    range,
                );
            }
            return;
        }
        if self.wants_relocation(&ir) {
            let (section, offset) = (self.layout.current(), self.layout.offset());
            if self.emit(ctx, range, &zeros[..size]) {
                if let Err(message) = self.relocate(&ir, section, offset, size == 4) {
                    self.error_at(ctx, range, message);
                }
            }
            return;
        }
        let value = self.eval_ir(ctx, range, &ir);
        if let Err(EvalError::Later) = value {
            let (section, offset) = (self.layout.current(), self.layout.offset());
            if self.emit(ctx, range, &zeros[..size]) {
                self.add_pending(
                    ir,
                    PendingTarget::Data {
                        section,
                        offset,
                        size,
                    },
                    ctx,
                    range,
                );
                self.wait_for_places(self.pending.len() - 1);
            }
            return;
        }
        let bytes = match value {
            Ok(v) => match self.data_value(v) {
                Ok(v) => {
                    if size < 8 && !fits_unsigned_or_signed(v, size as u32 * 8) {
                        self.warn_at(ctx, range, truncation_message(v, size as u32 * 8));
                    }
                    v.to_le_bytes()
                }
                Err(message) => {
                    self.error_at(ctx, range, message);
                    [0; 8]
                }
            },
            Err(EvalError::Invalid(message, at)) => {
                self.invalid_at(ctx, range, message, at);
                [0; 8]
            }
            Err(EvalError::Pending | EvalError::Later) => [0; 8],
        };
        self.emit(ctx, range, &bytes[..size]);
    }

    // ---- instructions ---------------------------------------------------------------------

    fn instruction(&mut self, ctx: &Ctx, instr: &ast::Instruction) {
        let range = instr.syntax().text_range();
        self.format_fixed = true;
        if self.abs_offset.is_some() || !self.layout.is_code_section() {
            self.error_at(
                ctx,
                range,
                "instructions are allowed only in a code section",
            );
            return;
        }
        let start = self.layout.offset();
        let section = self.layout.current();
        if self.index.is_some() && self.any_register_symbol {
            self.note_register_symbol_operands(ctx, instr);
        }
        let target = self.target;
        let cached = self
            .encode_cache
            .as_mut()
            .and_then(|c| c.get(instr.syntax(), target));
        let result = match cached {
            Some(encoded) => Ok(encoded),
            None => {
                let mut resolver = Resolver {
                    asm: self,
                    ctx,
                    instr_start: start as i64,
                    section,
                    asked: Default::default(),
                    error_range: None,
                };
                let result = encode::encode_instruction(&target, instr, &mut resolver);
                let reusable = !resolver.asked.get();
                if let (Ok(encoded), Some(cache)) = (&result, self.encode_cache.as_mut()) {
                    if reusable && encoded.fixups.is_empty() && encoded.warnings.is_empty() {
                        cache.insert(instr.syntax(), target, encoded);
                    }
                }
                result
            }
        };
        match result {
            Ok(encoded) => {
                for w in &encoded.warnings {
                    self.warn_at(ctx, w.range, w.message.clone());
                }
                // The fixups' expressions are bound before the words are emitted: `.` in
                // them is the start of the instruction.
                let fixups: Vec<(Option<Ir>, encode::Fixup)> = if encoded.fixups.is_empty() {
                    Vec::new()
                } else {
                    encoded
                        .fixups
                        .into_iter()
                        .map(|f| (self.lower(ctx, &f.expr), f))
                        .collect()
                };
                let mut buffer = [0u8; 64];
                let emitted = match little_endian(&encoded.words, &mut buffer) {
                    Some(bytes) => self.emit(ctx, range, bytes),
                    None => {
                        let bytes: Vec<u8> =
                            encoded.words.iter().flat_map(|w| w.to_le_bytes()).collect();
                        self.emit(ctx, range, &bytes)
                    }
                };
                if !emitted {
                    return;
                }
                for (ir, fixup) in fixups {
                    if let Some(ir) = ir {
                        self.instruction_fixup(ctx, section, start, fixup, ir);
                    }
                }
                self.reg_usage
                    .record(self.target.gen, section, start, &encoded.regs);
                let index = self
                    .index
                    .as_mut()
                    .filter(|i| i.placed.len() < crate::index::MAX_RECORDED);
                if let Some(index) = index {
                    index.placed.push(crate::index::Placed {
                        location: ctx.loc(range.start()),
                        section,
                        offset: start,
                        size: 4 * encoded.words.len() as u32,
                    });
                }
                if let (Some(row), true) = (encoded.row, self.waits.is_some()) {
                    let (words, regs) = (&encoded.words[..], &encoded.regs[..]);
                    self.follow_waits(ctx, row, range, (section, start), words, regs);
                }
            }
            Err(errors) => {
                for e in errors {
                    let name = || ctx.source[std::ops::Range::<usize>::from(e.range)].to_string();
                    match e.kind {
                        encode::EncodeErrorKind::UnknownMnemonic => {
                            let suggestions = self.instruction_suggestions(&name());
                            self.error_suggesting(ctx, e.range, e.message, suggestions);
                        }
                        encode::EncodeErrorKind::NotARegister => {
                            let suggestions = self.register_suggestions(&name());
                            self.error_suggesting(ctx, e.range, e.message, suggestions);
                        }
                        encode::EncodeErrorKind::Literal => {
                            let message = self.literal_error(instr, e.range, e.message);
                            self.error_at(ctx, e.range, message);
                        }
                        _ if !e.suggestions.is_empty() => {
                            // Instruction and hardware register names: the letter case
                            // of the source is kept.
                            let suggestions =
                                gcn_isa::suggest::in_case_of(&name(), e.suggestions, |_| true);
                            self.error_at(ctx, e.range, e.message);
                            self.keep_suggestions(&name(), suggestions);
                        }
                        _ => self.error_at(ctx, e.range, e.message),
                    }
                }
            }
        }
    }

    /// An error about a literal at `range`, saying which names there are not defined
    /// yet: an operand whose value is not known is a literal, which a user who meant
    /// a register symbol, or a constant defined further on, does not expect.
    fn literal_error(
        &mut self,
        instr: &ast::Instruction,
        range: TextRange,
        message: String,
    ) -> String {
        let mut undefined: Vec<String> = Vec::new();
        let names = instr
            .syntax()
            .descendants()
            .filter(|n| range.contains_range(n.text_range()))
            .filter_map(ast::NameRef::cast)
            .filter_map(|n| n.name_token());
        for name in names {
            let name = name.text();
            let defined = self.symbols.find_existing(name).is_some_and(|id| {
                let symbol = self.symbols.get(id);
                symbol.value.is_some() || symbol.register.is_some() || symbol.eqv.is_some()
            });
            if !defined && !undefined.iter().any(|n| n == name) {
                undefined.push(name.to_string());
            }
        }
        let Some((last, first)) = undefined.split_last() else {
            return message;
        };
        let names = if first.is_empty() {
            format!("`{last}` is")
        } else {
            format!("`{}` and `{last}` are", first.join("`, `"))
        };
        format!(
            "{message} ({names} not defined before this line, so the operand is encoded \
             as a literal; a register symbol must be defined before its use)"
        )
    }

    /// Records an instruction that assembled for the check of loads in flight
    /// ([`crate::waits`]), made once the program is whole.
    fn follow_waits(
        &mut self,
        ctx: &Ctx,
        row: &'static gcn_isa::table::Instruction,
        range: TextRange,
        (section, offset): (usize, usize),
        words: &[u32],
        regs: &[encode::RegUse],
    ) {
        let (gen, wave32) = (self.target.gen, self.target.wave32);
        let Some(waits) = self.waits.as_mut() else {
            return;
        };
        if waits.instructions() >= crate::waits::MAX_CHECKED {
            // The checks' record of a program this long would take hundreds of MiB:
            // none is made, and the assembly says so.
            self.waits = None;
            self.checks_skipped = true;
            return;
        }
        let at = ctx.loc(range.start());
        let end = ctx.loc(range.end());
        let len = if end.file == at.file {
            end.offset.saturating_sub(at.offset)
        } else {
            0
        };
        let origin = ctx.origin.clone();
        let place = crate::waits::Place { at, len, origin };
        waits.instruction((gen, wave32), (section, offset), row, words, regs, place);
    }

    /// Records the register symbols an instruction's operands name (`x`, `x[1:2]`) as
    /// uses: the encoder asks for them by name alone.
    fn note_register_symbol_operands(&mut self, ctx: &Ctx, instr: &ast::Instruction) {
        let Some(operands) = instr.operand_list() else {
            return;
        };
        for node in operands.syntax().descendants() {
            if !matches!(node.kind(), SyntaxKind::NAME_REF | SyntaxKind::REG_INDEX) {
                continue;
            }
            let Some(token) = node.first_token().filter(|t| t.kind() == SyntaxKind::NAME) else {
                continue;
            };
            let Some(id) = self.symbols.find_existing(token.text()) else {
                continue;
            };
            if self.symbols.get(id).register.is_none() {
                continue;
            }
            let full = self.symbols.get(id).name.clone();
            self.note_name(
                ctx,
                NameKind::RegisterSymbol,
                |_| full,
                token.text_range(),
                false,
            );
        }
    }

    fn instruction_fixup(
        &mut self,
        ctx: &Ctx,
        section: usize,
        start: usize,
        fixup: encode::Fixup,
        ir: Ir,
    ) {
        let offset = start + fixup.word * 4;
        let target = match fixup.kind {
            encode::FixupKind::Value => PendingTarget::Field {
                section,
                offset,
                shift: fixup.shift,
                bits: fixup.bits,
                signed: fixup.signed,
            },
            encode::FixupKind::Branch => PendingTarget::Branch {
                section,
                offset,
                instr_start: start as i64,
            },
        };
        // Known by now (defined later in the same statement's expansion): patch at once.
        self.add_pending(ir, target, ctx, gcn_isa::encode::value_range(&fixup.expr));
        let index = self.pending.len() - 1;
        if self.pending[index].remaining == 0 {
            if let Some((id, v)) = self.complete_pending(index) {
                self.set_symbol(id, v);
            }
        }
    }

    /// The register range a `%…` value names.
    pub(crate) fn register_value(
        &mut self,
        ctx: &Ctx,
        expr: &ast::Expr,
    ) -> Result<RegRange, (TextRange, String)> {
        let target = self.target;
        let mut resolver = Resolver {
            asm: self,
            ctx,
            instr_start: 0,
            section: 0,
            asked: Default::default(),
            error_range: None,
        };
        let mut cx = encode::operands::Cx::new(&target, &mut resolver);
        cx.register_value(expr).map_err(|e| (e.range, e.message))
    }
}

/// The bytes of `words` in `buffer`, if they fit (they always do for today's encodings).
fn little_endian<'a>(words: &[u32], buffer: &'a mut [u8; 64]) -> Option<&'a [u8]> {
    let bytes = buffer.get_mut(..words.len() * 4)?;
    for (chunk, word) in bytes.chunks_exact_mut(4).zip(words) {
        chunk.copy_from_slice(&word.to_le_bytes());
    }
    Some(bytes)
}

/// Why a value that must be known now is not.
pub(crate) const PLACES_LATER: &str =
    "the value depends on the places of sections in the binary, known only at the end";

fn fits_signed(v: i64, bits: u32) -> bool {
    bits >= 64 || (-(1i64 << (bits - 1))..(1i64 << (bits - 1))).contains(&v)
}

/// Whether an expression names a symbol, `.` or a local label: only then can it be a
/// position (numbers and operators alone never are).
fn names_a_position(expr: &ast::Expr) -> bool {
    use gcn_syntax::SyntaxKind::{LOCAL_LABEL_REF, NAME};
    expr.syntax()
        .descendants_with_tokens()
        .any(|e| matches!(e.kind(), NAME | LOCAL_LABEL_REF))
}

/// Whether `v` fits in `bits` as an unsigned or a negative signed value.
fn fits_unsigned_or_signed(v: i64, bits: u32) -> bool {
    bits >= 64 || (-(1i64 << (bits - 1))..(1i64 << bits)).contains(&v)
}

use gcn_isa::encode::truncation_message;

/// Adds `message` unless it is there already.
fn push_once(messages: &mut Vec<String>, message: String) {
    if !messages.contains(&message) {
        messages.push(message);
    }
}

/// An integer or character literal.
pub(crate) fn literal_value(token: &gcn_syntax::SyntaxToken) -> Result<i64, String> {
    let text = token.text();
    match token.kind() {
        SyntaxKind::INT_NUMBER => literals::parse_int(text).map(|v| v as i64),
        SyntaxKind::CHAR => literals::parse_char(text).map(|v| v as i64),
        SyntaxKind::FLOAT_NUMBER => Err("a floating-point number is not allowed here".into()),
        SyntaxKind::STRING => Err("a string is not allowed here".into()),
        _ => Err(format!("`{text}` is not a valid number")),
    }
}

fn branch_offset(
    target: Value,
    section: usize,
    instr_start: i64,
    layout: &Layout,
) -> Result<i64, String> {
    let offset = match target {
        Value::Rel { section: s, offset } if s as usize == section => offset,
        Value::Rel { .. } => return Err("the branch target is in another section".into()),
        Value::Abs(a) if layout.is_absolute_section(section) => a,
        Value::Abs(_) => return Err("the branch target must be a label of this section".into()),
    };
    let delta = offset - (instr_start + 4);
    if delta % 4 != 0 {
        return Err("the branch target is not a multiple of 4 bytes away".into());
    }
    Ok(delta / 4)
}

/// The core's answers to the encoder's questions.
struct Resolver<'a> {
    asm: &'a mut Asm,
    ctx: &'a Ctx,
    instr_start: i64,
    section: usize,
    /// Whether the encoder asked anything that depends on the program (so that its
    /// result may not be reused for another occurrence of the same node).
    asked: std::cell::Cell<bool>,
    /// Where the last error belongs, when narrower than the expression.
    error_range: Option<TextRange>,
}

impl Resolver<'_> {
    fn value(&mut self, expr: &ast::Expr) -> Result<Option<Value>, String> {
        self.error_range = None;
        let ir = match self.asm.try_lower(self.ctx, expr, false) {
            Ok(ir) => ir,
            Err((range, m)) => {
                self.error_range = Some(range);
                return Err(m);
            }
        };
        if !ir.is_closed() || self.asm.wants_relocation(&ir) {
            return Ok(None);
        }
        match self.asm.eval_ir(self.ctx, expr.syntax().text_range(), &ir) {
            Ok(v) => Ok(Some(v)),
            // Both wait: a fixup completes them.
            Err(EvalError::Pending | EvalError::Later) => Ok(None),
            Err(EvalError::Invalid(m, at)) => {
                self.error_range = at.and_then(|at| self.operator_range(expr, at));
                Err(m)
            }
        }
    }

    /// The operator of `expr` written at `at`.
    fn operator_range(&self, expr: &ast::Expr, at: OpAt) -> Option<TextRange> {
        expr.syntax()
            .descendants_with_tokens()
            .filter_map(|e| e.into_token())
            .find(|t| {
                t.parent().is_some_and(|p| p.kind() == SyntaxKind::BIN_EXPR)
                    && self.ctx.loc(t.text_range().start()) == at.loc
            })
            .map(|t| t.text_range())
    }
}

impl encode::Resolver for Resolver<'_> {
    fn eval(&mut self, expr: &ast::Expr) -> Result<encode::Value, String> {
        self.asked.set(true);
        match self
            .value(expr)
            .and_then(|v| v.map(|v| self.asm.data_value(v)).transpose())
        {
            Ok(Some(v)) => Ok(encode::Value::Known(v)),
            Ok(None) => Ok(encode::Value::Pending),
            // Maybe a relocation: kept as a fixup (a literal), decided when completed.
            Err(_) if crate::format_ops::may_relocate(self.asm) => Ok(encode::Value::Pending),
            Err(message) => Err(message),
        }
    }

    fn eval_branch(&mut self, expr: &ast::Expr) -> Result<encode::Value, String> {
        self.asked.set(true);
        match self.value(expr)? {
            Some(v) => Ok(encode::Value::Known(branch_offset(
                v,
                self.section,
                self.instr_start,
                &self.asm.layout,
            )?)),
            None => Ok(encode::Value::Pending),
        }
    }

    fn error_range(&mut self) -> Option<TextRange> {
        self.error_range
    }

    fn register_symbol(&mut self, name: &str) -> Option<RegRange> {
        self.asked.set(true);
        let id = self.asm.symbols.find_existing(name)?;
        self.asm.symbols.get(id).register
    }

    fn has_register_symbols(&self) -> bool {
        let any = self.asm.any_register_symbol;
        self.asked.set(self.asked.get() | any);
        any
    }

    fn old_mod_param(&self) -> bool {
        let old = self.asm.opts.old_mod_param;
        self.asked.set(self.asked.get() | old);
        old
    }
}
