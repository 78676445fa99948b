//! The assembler's state and its walk over statements.
//!
//! Statements are handled in source order in one pass. A value that is not known yet
//! (a forward reference) leaves a placeholder and a [`Pending`] fixup, resolved the
//! moment the symbols it waits for are defined; what is still unresolved at the end is
//! an error.

use std::collections::HashMap;
use std::rc::Rc;

use gcn_isa::encode::{self, RegRange, Target};
use gcn_syntax::ast::{self, AstNode, Statement};
use gcn_syntax::{SyntaxKind, TextRange};

use crate::diag::{Diagnostic, Severity};
use crate::expr::{bin_op, un_op, EvalError, Ir, Value};
use crate::layout::Layout;
use crate::literals;
use crate::options::Options;
use crate::source::{FileId, Location, SourceMap};
use crate::symbols::{SymId, SymbolTable};

/// How offsets in the text being processed map back to source files.
#[derive(Debug, Clone)]
pub(crate) enum Mapper {
    File(FileId),
    /// Text built by an expansion: pieces of it copied from a source (`loc` is where the
    /// piece's first byte came from); anything else maps to `fallback`.
    Expansion { pieces: Rc<Vec<Piece>>, fallback: Location },
}

#[derive(Debug, Clone, Copy)]
pub(crate) struct Piece {
    pub start: u32,
    pub len: u32,
    pub loc: Location,
}

impl Mapper {
    pub(crate) fn map(&self, offset: u32) -> Location {
        match self {
            Mapper::File(file) => Location { file: *file, offset },
            Mapper::Expansion { pieces, fallback } => {
                let i = pieces.partition_point(|p| p.start <= offset);
                match i.checked_sub(1).map(|i| pieces[i]) {
                    Some(p) if offset <= p.start + p.len => {
                        Location { file: p.loc.file, offset: p.loc.offset + (offset - p.start) }
                    }
                    _ => *fallback,
                }
            }
        }
    }
}

/// Where the statements being processed come from.
#[derive(Debug, Clone)]
pub(crate) struct Ctx {
    pub mapper: Mapper,
    /// "in macro X called at …" frames, innermost last.
    pub origin: Rc<Vec<(String, Location)>>,
    pub depth: u32,
}

/// What processing a statement tells its caller.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Flow {
    Continue,
    /// `.exitm`: leave the current macro expansion.
    ExitMacro,
    /// `.end`, `.abort`, or a limit hit: stop everything.
    Stop,
}

/// Where a pending value goes once known.
#[derive(Debug, Clone)]
pub(crate) enum PendingTarget {
    Symbol { id: SymId, version: u32 },
    Data { section: usize, offset: usize, size: usize },
    Field { section: usize, offset: usize, shift: u8, bits: u8, signed: bool },
    Branch { section: usize, offset: usize, instr_start: i64 },
}

#[derive(Debug, Clone)]
pub(crate) struct Pending {
    pub ir: Ir,
    pub target: PendingTarget,
    pub loc: Location,
    pub origin: Rc<Vec<(String, Location)>>,
    pub done: bool,
}

#[derive(Debug, Default)]
pub(crate) struct LocalLabel {
    last: Option<Value>,
    forward: Option<SymId>,
}

pub(crate) struct Asm {
    pub opts: Options,
    pub target: Target,
    pub sources: SourceMap,
    pub symbols: SymbolTable,
    pub layout: Layout,
    pub diags: Vec<Diagnostic>,
    pub pending: Vec<Pending>,
    /// Pending fixups waiting on each undefined symbol.
    pub waiting: HashMap<SymId, Vec<usize>>,
    pub versions: HashMap<SymId, u32>,
    pub locals: HashMap<String, LocalLabel>,
    pub macros: HashMap<String, Rc<crate::macros::Macro>>,
    pub macro_count: u64,
    pub expanded_statements: u64,
    pub include_depth: u32,
    pub printed: String,
    pub eqv_depth: u32,
    pub reg_usage: crate::regusage::RegUsage,
}

impl Asm {
    pub(crate) fn new(opts: Options) -> Asm {
        let target = Target { device: opts.device, gen: opts.device.generation(), wave32: opts.wave32 };
        let layout = Layout::new(opts.format);
        Asm {
            target,
            layout,
            opts,
            sources: SourceMap::default(),
            symbols: SymbolTable::default(),
            diags: Vec::new(),
            pending: Vec::new(),
            waiting: HashMap::new(),
            versions: HashMap::new(),
            locals: HashMap::new(),
            macros: HashMap::new(),
            macro_count: 0,
            expanded_statements: 0,
            include_depth: 0,
            printed: String::new(),
            eqv_depth: 0,
            reg_usage: Default::default(),
        }
    }

    // ---- diagnostics -------------------------------------------------------------

    pub(crate) fn error_at(&mut self, ctx: &Ctx, range: TextRange, message: impl Into<String>) {
        self.report(ctx, range, Severity::Error, message.into());
    }

    pub(crate) fn warn_at(&mut self, ctx: &Ctx, range: TextRange, message: impl Into<String>) {
        self.report(ctx, range, Severity::Warning, message.into());
    }

    fn report(&mut self, ctx: &Ctx, range: TextRange, severity: Severity, message: String) {
        let location = ctx.mapper.map(range.start().into());
        self.diags.push(Diagnostic {
            severity,
            location: Some(location),
            message,
            origin: ctx.origin.as_ref().clone(),
        });
    }

    // ---- processing ---------------------------------------------------------------

    /// Parses `text` (already in the source map or an expansion) and processes it.
    pub(crate) fn process_text(&mut self, ctx: &Ctx, text: &str) -> Flow {
        let parse = gcn_syntax::parse(text);
        for e in parse.errors() {
            self.error_at(ctx, e.range, e.message.clone());
        }
        let file = parse.tree();
        self.statements(ctx, file.statements())
    }

    pub(crate) fn statements(&mut self, ctx: &Ctx, stmts: impl Iterator<Item = Statement>) -> Flow {
        for stmt in stmts {
            if ctx.depth > 0 {
                self.expanded_statements += 1;
                if self.expanded_statements > self.opts.limits.expanded_statements {
                    let limit = self.opts.limits.expanded_statements;
                    self.error_at(ctx, stmt.syntax().text_range(), format!(
                        "expansions produced more than {limit} statements (raise the limit with --max-expanded-statements)"
                    ));
                    return Flow::Stop;
                }
            }
            match self.statement(ctx, stmt) {
                Flow::Continue => {}
                other => return other,
            }
        }
        Flow::Continue
    }

    fn statement(&mut self, ctx: &Ctx, stmt: Statement) -> Flow {
        match stmt {
            Statement::Label(label) => self.label(ctx, &label),
            Statement::Assignment(a) => self.assignment(ctx, &a),
            Statement::PseudoOp(op) => return crate::pseudo::pseudo_op(self, ctx, &op),
            Statement::Instruction(instr) => {
                let name = instr.mnemonic_token().map(|t| t.text().to_string()).unwrap_or_default();
                if let Some(m) = self.find_macro(&name) {
                    return crate::macros::call(self, ctx, &m, instr.syntax());
                }
                self.instruction(ctx, &instr);
            }
            Statement::MacroCall(call) => {
                let name = call.name_token().map(|t| t.text().to_string()).unwrap_or_default();
                match self.find_macro(&name) {
                    Some(m) => return crate::macros::call(self, ctx, &m, call.syntax()),
                    None => self.error_at(ctx, call.syntax().text_range(), format!("unknown macro `{name}`")),
                }
            }
            Statement::MacroDef(def) => crate::macros::define(self, ctx, &def),
            Statement::Repeat(rep) => return crate::macros::repeat(self, ctx, &rep),
            Statement::Conditional(cond) => return self.conditional(ctx, &cond),
            Statement::Error(_) => {}
        }
        Flow::Continue
    }

    pub(crate) fn find_macro(&self, name: &str) -> Option<Rc<crate::macros::Macro>> {
        if self.macros.is_empty() {
            return None;
        }
        self.macros.get(&self.macro_key(name)).cloned()
    }

    pub(crate) fn macro_key(&self, name: &str) -> String {
        if self.opts.macro_case_insensitive { name.to_ascii_lowercase() } else { name.to_string() }
    }

    fn conditional(&mut self, ctx: &Ctx, cond: &ast::Conditional) -> Flow {
        for branch in cond.branches() {
            let Some(header) = branch.header() else { continue };
            match crate::pseudo::condition(self, ctx, &header) {
                Some(true) => return self.statements(ctx, branch.statements()),
                Some(false) => {}
                // An error in the condition: skip the whole block, as the reference does.
                None => return Flow::Continue,
            }
        }
        Flow::Continue
    }

    // ---- labels and symbols ---------------------------------------------------------

    fn label(&mut self, ctx: &Ctx, label: &ast::Label) {
        let Some(token) = label.name_token() else { return };
        let here = self.here();
        if label.is_local() {
            self.define_local_label(token.text(), here);
            return;
        }
        let id = self.symbols.define_target(token.text());
        let sym = self.symbols.get(id);
        if sym.is_defined() || sym.once_defined {
            self.error_at(ctx, token.text_range(), format!("symbol `{}` is already defined", token.text()));
            return;
        }
        self.symbols.get_mut(id).once_defined = true;
        self.symbols.get_mut(id).is_label = true;
        self.set_symbol(id, here);
        self.layout.note_label(token.text(), here);
    }

    fn define_local_label(&mut self, name: &str, here: Value) {
        let entry = self.locals.entry(name.to_string()).or_default();
        entry.last = Some(here);
        if let Some(forward) = entry.forward.take() {
            self.set_symbol(forward, here);
        }
    }

    fn assignment(&mut self, ctx: &Ctx, a: &ast::Assignment) {
        let (Some(name), Some(value)) = (a.name_token(), a.value()) else { return };
        self.assign(ctx, name.text(), name.text_range(), &value, false);
    }

    /// `name = expr` and its pseudo-op forms; `once` for `.equiv`.
    pub(crate) fn assign(&mut self, ctx: &Ctx, name: &str, range: TextRange, value: &ast::Expr, once: bool) {
        if name.bytes().all(|b| b.is_ascii_digit()) {
            self.error_at(ctx, range, "a local label cannot be assigned");
            return;
        }
        let id = self.symbols.define_target(name);
        let sym = self.symbols.get(id);
        if sym.once_defined || (once && sym.is_defined()) {
            self.error_at(ctx, range, format!("symbol `{name}` is already defined"));
            return;
        }
        if let ast::Expr::Percent(p) = value {
            let Some(inner) = p.expr() else { return };
            match self.register_value(ctx, &inner) {
                Ok(reg) => {
                    let sym = self.symbols.get_mut(id);
                    sym.register = Some(reg);
                    sym.value = None;
                    sym.pending = None;
                    sym.once_defined |= once;
                }
                Err(message) => self.error_at(ctx, inner.syntax().text_range(), message),
            }
            return;
        }
        if name == "." {
            self.move_counter(ctx, range, value);
            return;
        }
        let Some(ir) = self.lower(ctx, value) else { return };
        self.symbols.get_mut(id).once_defined |= once;
        self.symbols.get_mut(id).register = None;
        match self.eval_ir(&ir) {
            Ok(v) => self.set_symbol(id, v),
            Err(EvalError::Pending) => {
                let version = self.bump_version(id);
                let sym = self.symbols.get_mut(id);
                sym.value = None;
                sym.pending = Some(ir.clone());
                let loc = ctx.mapper.map(value.syntax().text_range().start().into());
                self.add_pending(ir, PendingTarget::Symbol { id, version }, loc, ctx);
            }
            Err(EvalError::Invalid(message)) => self.error_at(ctx, value.syntax().text_range(), message),
        }
    }

    fn bump_version(&mut self, id: SymId) -> u32 {
        let v = self.versions.entry(id).or_insert(0);
        *v += 1;
        *v
    }

    /// Gives a symbol its value and resolves what waited for it.
    pub(crate) fn set_symbol(&mut self, id: SymId, value: Value) {
        self.bump_version(id);
        let sym = self.symbols.get_mut(id);
        sym.value = Some(value);
        sym.pending = None;
        self.resolve_waiting(id);
    }

    /// `. = expr`: moves the output counter forward (or anywhere in an absolute section).
    fn move_counter(&mut self, ctx: &Ctx, range: TextRange, value: &ast::Expr) {
        let Some(v) = self.eval_now(ctx, value) else { return };
        let here = self.layout.offset() as i64;
        let target = match v {
            Value::Rel { offset, .. } => offset,
            Value::Abs(a) => a,
        };
        if target < here {
            self.error_at(ctx, range, "the output counter cannot move backwards");
            return;
        }
        self.emit_fill(ctx, range, (target - here) as u64, 0);
    }

    // ---- expressions ------------------------------------------------------------------

    /// The output counter: a position in the current section.
    pub(crate) fn here(&self) -> Value {
        Value::Rel { section: self.layout.current() as u32, offset: self.layout.offset() as i64 }
    }

    /// Lowers a syntax-tree expression; reports and returns `None` on error.
    pub(crate) fn lower(&mut self, ctx: &Ctx, expr: &ast::Expr) -> Option<Ir> {
        match self.try_lower(expr) {
            Ok(ir) => Some(ir),
            Err((range, message)) => {
                self.error_at(ctx, range, message);
                None
            }
        }
    }

    pub(crate) fn try_lower(&mut self, expr: &ast::Expr) -> Result<Ir, (TextRange, String)> {
        let range = expr.syntax().text_range();
        let missing = || (range, "incomplete expression".to_string());
        Ok(match expr {
            ast::Expr::Literal(lit) => {
                let token = lit.token().ok_or_else(missing)?;
                match token.kind() {
                    SyntaxKind::LOCAL_LABEL_REF => self.local_label_ref(token.text()).map_err(|m| (range, m))?,
                    // `.5` in an integer expression names a symbol, as in the reference.
                    SyntaxKind::FLOAT_NUMBER if token.text().starts_with('.') => self.name_value(token.text()),
                    _ => Ir::Value(Value::Abs(self.literal_value(&token).map_err(|m| (range, m))?)),
                }
            }
            ast::Expr::NameRef(n) => {
                let token = n.name_token().ok_or_else(missing)?;
                self.name_value(token.text())
            }
            ast::Expr::Paren(p) => self.try_lower(&p.expr().ok_or_else(missing)?)?,
            ast::Expr::At(p) => self.try_lower(&p.expr().ok_or_else(missing)?)?,
            ast::Expr::Prefix(p) => {
                let op = p.op().and_then(|t| un_op(t.kind())).ok_or_else(missing)?;
                Ir::Unary(op, Box::new(self.try_lower(&p.expr().ok_or_else(missing)?)?))
            }
            ast::Expr::Bin(b) => {
                let op = b.op().and_then(|t| bin_op(t.kind())).ok_or_else(missing)?;
                let lhs = self.try_lower(&b.lhs().ok_or_else(missing)?)?;
                let rhs = self.try_lower(&b.rhs().ok_or_else(missing)?)?;
                Ir::Binary(op, Box::new(lhs), Box::new(rhs))
            }
            ast::Expr::Ternary(t) => {
                let c = self.try_lower(&t.condition().ok_or_else(missing)?)?;
                let a = self.try_lower(&t.then_expr().ok_or_else(missing)?)?;
                let b = self.try_lower(&t.else_expr().ok_or_else(missing)?)?;
                Ir::Ternary(Box::new(c), Box::new(a), Box::new(b))
            }
            ast::Expr::Register(_) | ast::Expr::RegIndex(_) | ast::Expr::Percent(_) => {
                return Err((range, "a register is not allowed in an expression".into()))
            }
            ast::Expr::Call(_) | ast::Expr::Abs(_) | ast::Expr::List(_) => {
                return Err((range, "this is not an expression".into()))
            }
        })
    }

    fn literal_value(&mut self, token: &gcn_syntax::SyntaxToken) -> Result<i64, String> {
        let text = token.text();
        match token.kind() {
            SyntaxKind::INT_NUMBER => literals::parse_int(text).map(|v| v as i64),
            SyntaxKind::CHAR => literals::parse_char(text).map(|v| v as i64),
            SyntaxKind::FLOAT_NUMBER => Err("a floating-point number is not allowed here".into()),
            SyntaxKind::STRING => Err("a string is not allowed here".into()),
            _ => Err(format!("`{text}` is not a valid number")),
        }
    }

    /// `1b`: the last `1:` so far; `1f`: the next `1:`, a symbol defined when it comes.
    fn local_label_ref(&mut self, text: &str) -> Result<Ir, String> {
        let (name, dir) = text.split_at(text.len() - 1);
        let forward = dir.eq_ignore_ascii_case("f");
        let entry = self.locals.entry(name.to_string()).or_default();
        if !forward {
            return entry.last.map(Ir::Value).ok_or_else(|| format!("no local label `{name}` before this point"));
        }
        if let Some(id) = entry.forward {
            return Ok(Ir::Sym(id));
        }
        let id = self.symbols.anonymous(format!("{name}f"));
        self.locals.get_mut(name).unwrap().forward = Some(id);
        Ok(Ir::Sym(id))
    }

    fn name_value(&mut self, name: &str) -> Ir {
        if name == "." {
            return Ir::Value(self.here());
        }
        let id = self.symbols.lookup(name);
        let sym = self.symbols.get(id);
        if let Some(eqv) = sym.eqv.clone() {
            // `.eqv`: evaluated anew at each use; a self-reference stays unresolved.
            if self.eqv_depth < 64 {
                self.eqv_depth += 1;
                let ir = self.try_lower(&eqv);
                self.eqv_depth -= 1;
                if let Ok(ir) = ir {
                    return ir;
                }
            }
            return Ir::Sym(id);
        }
        match sym.value {
            Some(v) => Ir::Value(v),
            None => Ir::Sym(id),
        }
    }

    pub(crate) fn eval_ir(&self, ir: &Ir) -> Result<Value, EvalError> {
        ir.eval(&|id| self.symbols.value(id))
    }

    /// Evaluates an expression that must be known now (`.if`, `.rept`, sizes).
    pub(crate) fn eval_now(&mut self, ctx: &Ctx, expr: &ast::Expr) -> Option<Value> {
        let ir = self.lower(ctx, expr)?;
        match self.eval_ir(&ir) {
            Ok(v) => Some(v),
            Err(EvalError::Pending) => {
                let mut syms = Vec::new();
                ir.symbols(&mut syms);
                let names: Vec<String> = syms.iter().map(|&s| format!("`{}`", self.symbols.get(s).name)).collect();
                self.error_at(ctx, expr.syntax().text_range(), format!("expression needs {} defined before this point", names.join(", ")));
                None
            }
            Err(EvalError::Invalid(message)) => {
                self.error_at(ctx, expr.syntax().text_range(), message);
                None
            }
        }
    }

    /// Like [`eval_now`](Self::eval_now), for an absolute value.
    pub(crate) fn eval_abs_now(&mut self, ctx: &Ctx, expr: &ast::Expr) -> Option<i64> {
        match self.eval_now(ctx, expr)? {
            Value::Abs(v) => Some(v),
            Value::Rel { .. } => {
                self.error_at(ctx, expr.syntax().text_range(), "expression must be absolute");
                None
            }
        }
    }

    // ---- pending fixups -----------------------------------------------------------------

    pub(crate) fn add_pending(&mut self, ir: Ir, target: PendingTarget, loc: Location, ctx: &Ctx) {
        let mut syms = Vec::new();
        ir.symbols(&mut syms);
        let index = self.pending.len();
        self.pending.push(Pending { ir, target, loc, origin: ctx.origin.clone(), done: false });
        for s in syms {
            self.waiting.entry(s).or_default().push(index);
        }
    }

    fn resolve_waiting(&mut self, id: SymId) {
        let mut work = vec![id];
        while let Some(sym) = work.pop() {
            let Some(list) = self.waiting.remove(&sym) else { continue };
            for index in list {
                if self.pending[index].done {
                    continue;
                }
                match self.eval_ir(&self.pending[index].ir) {
                    Ok(v) => {
                        self.pending[index].done = true;
                        if let Some(defined) = self.apply_pending(index, v) {
                            work.push(defined);
                        }
                    }
                    Err(EvalError::Pending) => {
                        let mut syms = Vec::new();
                        self.pending[index].ir.symbols(&mut syms);
                        if let Some(&next) = syms.iter().find(|&&s| self.symbols.value(s).is_none()) {
                            self.waiting.entry(next).or_default().push(index);
                        }
                    }
                    Err(EvalError::Invalid(message)) => {
                        self.pending[index].done = true;
                        self.pending_error(index, message);
                    }
                }
            }
        }
    }

    fn pending_error(&mut self, index: usize, message: String) {
        let p = &self.pending[index];
        self.diags.push(Diagnostic {
            severity: Severity::Error,
            location: Some(p.loc),
            message,
            origin: p.origin.as_ref().clone(),
        });
    }

    /// Writes a resolved value; returns the symbol it defined, if any.
    fn apply_pending(&mut self, index: usize, value: Value) -> Option<SymId> {
        match self.pending[index].target.clone() {
            PendingTarget::Symbol { id, version } => {
                if self.versions.get(&id).copied() != Some(version) {
                    return None; // redefined since
                }
                let sym = self.symbols.get_mut(id);
                sym.value = Some(value);
                sym.pending = None;
                Some(id)
            }
            PendingTarget::Data { section, offset, size } => {
                match self.data_value(value) {
                    Ok(v) => self.layout.patch_bytes(section, offset, &v.to_le_bytes()[..size]),
                    Err(message) => self.pending_error(index, message),
                }
                None
            }
            PendingTarget::Field { section, offset, shift, bits, signed } => {
                match self.data_value(value) {
                    Ok(v) => {
                        if let Err(message) = self.layout.patch_field(section, offset, shift, bits, signed, v) {
                            self.pending_error(index, message);
                        }
                    }
                    Err(message) => self.pending_error(index, message),
                }
                None
            }
            PendingTarget::Branch { section, offset, instr_start } => {
                match branch_offset(value, section, instr_start) {
                    Ok(v) => {
                        if let Err(message) = self.layout.patch_field(section, offset, 0, 16, true, v) {
                            self.pending_error(index, message);
                        }
                    }
                    Err(message) => self.pending_error(index, message),
                }
                None
            }
        }
    }

    /// A value to store in data or code: absolute, or a position in a section when the
    /// format has no relocations and sections start at address 0.
    pub(crate) fn data_value(&self, value: Value) -> Result<i64, String> {
        match value {
            Value::Abs(v) => Ok(v),
            Value::Rel { section, offset } if self.layout.is_absolute_section(section as usize) => Ok(offset),
            Value::Rel { .. } => Err("a section-relative value (relocation) is not supported here yet".into()),
        }
    }

    /// Reports every fixup still waiting at the end of the source.
    pub(crate) fn finish_pending(&mut self) {
        for index in 0..self.pending.len() {
            let p = &self.pending[index];
            if p.done || matches!(p.target, PendingTarget::Symbol { .. }) {
                continue;
            }
            let mut syms = Vec::new();
            p.ir.symbols(&mut syms);
            let names: Vec<String> = syms
                .iter()
                .filter(|&&s| self.symbols.value(s).is_none())
                .map(|&s| format!("`{}`", self.symbols.get(s).name))
                .collect();
            let message = format!("undefined symbol {}", names.join(", "));
            self.pending_error(index, message);
        }
    }

    // ---- output -----------------------------------------------------------------------

    pub(crate) fn emit(&mut self, ctx: &Ctx, range: TextRange, bytes: &[u8]) -> bool {
        if let Err(message) = self.layout.can_emit(bytes.len() as u64, self.opts.limits.output_size) {
            self.error_at(ctx, range, message);
            return false;
        }
        self.layout.emit(bytes);
        true
    }

    pub(crate) fn emit_fill(&mut self, ctx: &Ctx, range: TextRange, count: u64, byte: u8) -> bool {
        if let Err(message) = self.layout.can_emit(count, self.opts.limits.output_size) {
            self.error_at(ctx, range, message);
            return false;
        }
        self.layout.emit_fill(count as usize, byte);
        true
    }

    /// Emits an integer of `size` bytes, or zeros and a fixup when not known yet.
    pub(crate) fn emit_value(&mut self, ctx: &Ctx, expr: &ast::Expr, size: usize) {
        let range = expr.syntax().text_range();
        let Some(ir) = self.lower(ctx, expr) else {
            self.emit(ctx, range, &[0; 16][..size]);
            return;
        };
        let offset = self.layout.offset();
        match self.eval_ir(&ir) {
            Ok(v) => match self.data_value(v) {
                Ok(v) => {
                    if size < 8 && !fits(v, size * 8) {
                        self.warn_at(ctx, range, format!("value {v:#x} is truncated to {} bits", size * 8));
                    }
                    self.emit(ctx, range, &v.to_le_bytes()[..size]);
                }
                Err(message) => {
                    self.error_at(ctx, range, message);
                    self.emit(ctx, range, &[0; 16][..size]);
                }
            },
            Err(EvalError::Pending) => {
                if self.emit(ctx, range, &[0; 16][..size]) {
                    let section = self.layout.current();
                    let loc = ctx.mapper.map(range.start().into());
                    self.add_pending(ir, PendingTarget::Data { section, offset, size }, loc, ctx);
                }
            }
            Err(EvalError::Invalid(message)) => {
                self.error_at(ctx, range, message);
                self.emit(ctx, range, &[0; 16][..size]);
            }
        }
    }

    // ---- instructions ---------------------------------------------------------------------

    fn instruction(&mut self, ctx: &Ctx, instr: &ast::Instruction) {
        let range = instr.syntax().text_range();
        if !self.layout.is_code_section() {
            self.error_at(ctx, range, "instructions are allowed only in a code section");
            return;
        }
        let start = self.layout.offset();
        let section = self.layout.current();
        let result = {
            let target = self.target;
            let mut resolver = Resolver { asm: self, ctx, instr_start: start as i64, section };
            encode::encode_instruction(&target, instr, &mut resolver)
        };
        match result {
            Ok(encoded) => {
                let bytes: Vec<u8> = encoded.words.iter().flat_map(|w| w.to_le_bytes()).collect();
                if !self.emit(ctx, range, &bytes) {
                    return;
                }
                for fixup in encoded.fixups {
                    self.instruction_fixup(ctx, section, start, fixup);
                }
                self.reg_usage.record(self.layout.current_kernel(), &encoded.regs);
            }
            Err(errors) => {
                for e in errors {
                    self.error_at(ctx, e.range, e.message);
                }
            }
        }
    }

    fn instruction_fixup(&mut self, ctx: &Ctx, section: usize, start: usize, fixup: encode::Fixup) {
        let Some(ir) = self.lower(ctx, &fixup.expr) else { return };
        let offset = start + fixup.word * 4;
        let target = match fixup.kind {
            encode::FixupKind::Value => PendingTarget::Field { section, offset, shift: fixup.shift, bits: fixup.bits, signed: fixup.signed },
            encode::FixupKind::Branch => PendingTarget::Branch { section, offset, instr_start: start as i64 },
        };
        let loc = ctx.mapper.map(fixup.expr.syntax().text_range().start().into());
        match self.eval_ir(&ir) {
            // Known by now (defined later in the same statement's expansion): patch at once.
            Ok(v) => {
                let index = self.pending.len();
                self.pending.push(Pending { ir, target, loc, origin: ctx.origin.clone(), done: true });
                self.apply_pending(index, v);
            }
            Err(EvalError::Pending) => self.add_pending(ir, target, loc, ctx),
            Err(EvalError::Invalid(message)) => self.error_at(ctx, fixup.expr.syntax().text_range(), message),
        }
    }

    /// The register range a `%…` value names.
    pub(crate) fn register_value(&mut self, ctx: &Ctx, expr: &ast::Expr) -> Result<RegRange, String> {
        let target = self.target;
        let mut resolver = Resolver { asm: self, ctx, instr_start: 0, section: 0 };
        let mut cx = encode::operands::Cx::new(&target, &mut resolver);
        match cx.reg(expr) {
            Ok(Some(reg)) => reg.reg_range().ok_or_else(|| "this register cannot be a symbol's value".to_string()),
            Ok(None) => Err("a constant as a register symbol is not supported yet".to_string()),
            Err(e) => Err(e.message),
        }
    }
}

fn fits(v: i64, bits: usize) -> bool {
    let min = -(1i64 << (bits - 1));
    let max = (1i64 << bits) - 1;
    (min..=max).contains(&v)
}

fn branch_offset(target: Value, section: usize, instr_start: i64) -> Result<i64, String> {
    match target {
        Value::Rel { section: s, offset } if s as usize == section => {
            let delta = offset - (instr_start + 4);
            if delta % 4 != 0 {
                return Err("branch target is not a multiple of 4 bytes away".into());
            }
            Ok(delta / 4)
        }
        Value::Rel { .. } => Err("branch target is in another section".into()),
        Value::Abs(a) => {
            let delta = a - (instr_start + 4);
            if delta % 4 != 0 {
                return Err("branch target is not a multiple of 4 bytes away".into());
            }
            Ok(delta / 4)
        }
    }
}

/// The core's answers to the encoder's questions.
struct Resolver<'a> {
    asm: &'a mut Asm,
    ctx: &'a Ctx,
    instr_start: i64,
    section: usize,
}

impl Resolver<'_> {
    fn value(&mut self, expr: &ast::Expr) -> Result<Option<Value>, String> {
        let ir = self.asm.try_lower(expr).map_err(|(_, m)| m)?;
        match self.asm.eval_ir(&ir) {
            Ok(v) => Ok(Some(v)),
            Err(EvalError::Pending) => Ok(None),
            Err(EvalError::Invalid(m)) => Err(m),
        }
    }
}

impl encode::Resolver for Resolver<'_> {
    fn eval(&mut self, expr: &ast::Expr) -> Result<encode::Value, String> {
        match self.value(expr)? {
            Some(v) => Ok(encode::Value::Known(self.asm.data_value(v)?)),
            None => Ok(encode::Value::Pending),
        }
    }

    fn eval_branch(&mut self, expr: &ast::Expr) -> Result<encode::Value, String> {
        match self.value(expr)? {
            Some(v) => Ok(encode::Value::Known(branch_offset(v, self.section, self.instr_start)?)),
            None => Ok(encode::Value::Pending),
        }
    }

    fn register_symbol(&mut self, name: &str) -> Option<RegRange> {
        let _ = self.ctx;
        let id = self.asm.symbols.lookup(name);
        self.asm.symbols.get(id).register
    }
}
