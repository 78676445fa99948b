//! The assembler's side of the format pseudo-ops' interface ([`Host`]): an assembly and
//! the context of the statement being handled.

use gcn_isa::Generation;
use gcn_syntax::ast;
use gcn_syntax::TextRange;

use crate::assembler::{Asm, Ctx};
use crate::diag::Severity;
use crate::expr::{EvalError, Value};
use crate::format_ops::{FormatConfig, Host};
use crate::index::NameKind;
use crate::layout::{Kernel, Layout, Owner, Section, SectionKind};
use crate::options::{BinaryFormat, Options};
use crate::source::Location;
use crate::symbols::{SymId, Symbol};

/// An assembly as the format pseudo-ops see it, for one statement.
pub(crate) struct FormatHost<'a> {
    asm: &'a mut Asm,
    ctx: &'a Ctx,
}

impl Asm {
    /// The format pseudo-ops' view of this assembly, for a statement of `ctx`.
    pub(crate) fn format_host<'a>(&'a mut self, ctx: &'a Ctx) -> FormatHost<'a> {
        FormatHost { asm: self, ctx }
    }
}

impl Host for FormatHost<'_> {
    fn report(&mut self, range: TextRange, severity: Severity, message: String) {
        match severity {
            Severity::Error => self.asm.error_at(self.ctx, range, message),
            Severity::Warning => self.asm.warn_at(self.ctx, range, message),
        }
    }

    fn location(&self, range: TextRange) -> Location {
        self.ctx.loc(range.start())
    }

    fn note_kernel_name(&mut self, name: &str, range: TextRange) {
        self.asm.note_name(
            self.ctx,
            NameKind::Kernel,
            |_| name.to_string(),
            range,
            true,
        );
    }

    fn eval_now(&mut self, expr: &ast::Expr) -> Option<Value> {
        self.asm.eval_now(self.ctx, expr)
    }

    fn eval_abs_now(&mut self, expr: &ast::Expr) -> Option<i64> {
        self.asm.eval_abs_now(self.ctx, expr)
    }

    fn eval_abs_detached(&mut self, expr: &ast::Expr, range: TextRange) -> Option<i64> {
        let (asm, ctx) = (&mut *self.asm, self.ctx);
        let ir = match asm.try_lower(ctx, expr, false) {
            Ok(ir) => ir,
            Err((_, m)) => {
                asm.error_at(ctx, range, m);
                return None;
            }
        };
        match asm.eval_ir(ctx, range, &ir) {
            Ok(Value::Abs(v)) => Some(v),
            Ok(Value::Rel { .. }) => {
                asm.error_at(ctx, range, "expression must be absolute");
                None
            }
            Err(EvalError::Pending) => {
                let mut syms = Vec::new();
                ir.symbols(&mut syms);
                let names: Vec<String> = syms
                    .iter()
                    .map(|&s| format!("`{}`", asm.symbols.get(s).name))
                    .collect();
                asm.error_at(
                    ctx,
                    range,
                    format!(
                        "expression needs {} defined before this point",
                        names.join(", ")
                    ),
                );
                None
            }
            Err(EvalError::Invalid(m, at)) => {
                asm.invalid_at(ctx, range, m, at);
                None
            }
            Err(EvalError::Later) => {
                asm.error_at(ctx, range, crate::assembler::PLACES_LATER);
                None
            }
        }
    }

    fn definition_target(&mut self, name: &str) -> SymId {
        self.asm.symbols.define_target(name)
    }

    fn reference_target(&mut self, name: &str) -> SymId {
        self.asm.symbols.lookup(name)
    }

    fn symbol(&self, id: SymId) -> &Symbol {
        self.asm.symbols.get(id)
    }

    fn set_symbol(&mut self, id: SymId, value: Value) {
        self.asm.set_symbol(id, value);
    }

    fn options(&self) -> &Options {
        &self.asm.opts
    }

    fn generation(&self) -> Generation {
        self.asm.target.gen
    }

    fn format(&self) -> BinaryFormat {
        self.asm.layout.format
    }

    fn config(&self) -> &FormatConfig {
        &self.asm.layout.config
    }

    fn config_mut(&mut self) -> &mut FormatConfig {
        &mut self.asm.layout.config
    }

    fn set_wave32(&mut self) {
        self.asm.opts.wave32 = true;
        self.asm.target.wave32 = self.asm.target.gen.is_gfx10();
    }

    fn current_kernel(&self) -> Option<usize> {
        self.asm.layout.current_kernel()
    }

    fn owner(&self) -> Owner {
        self.asm.layout.owner()
    }

    fn current_section(&self) -> &Section {
        self.asm.layout.current_section()
    }

    fn is_code_section(&self) -> bool {
        self.asm.layout.is_code_section()
    }

    fn kernels(&self) -> &[Kernel] {
        &self.asm.layout.kernels
    }

    fn find_section(&self, kind: SectionKind, owner: Owner) -> Option<usize> {
        self.asm.layout.find_kind(kind, owner)
    }

    fn create_section(&mut self, name: &str, owner: Owner, kind: SectionKind) -> usize {
        self.asm.layout.create(name, owner, kind)
    }

    fn section_mut(&mut self, index: usize) -> &mut Section {
        &mut self.asm.layout.sections[index]
    }

    fn switch_to(&mut self, index: usize) {
        self.asm.layout.switch_to(index);
    }

    fn go_to(&mut self, name: &str, owner: Owner, kind: SectionKind) -> usize {
        self.asm.layout.go_to(name, owner, kind)
    }

    fn emit(&mut self, range: TextRange, bytes: &[u8]) -> bool {
        self.asm.emit(self.ctx, range, bytes)
    }

    fn enter_kernel(&mut self, name: &str) -> Result<(usize, bool), String> {
        self.asm.layout.enter_kernel(name)
    }

    fn enter_config(&mut self) -> Result<usize, String> {
        self.asm.layout.enter_config()
    }

    fn enter_inner(&mut self) {
        self.asm.layout.enter_inner();
    }

    fn start_layout(&mut self, format: BinaryFormat) {
        self.asm.layout = Layout::new(format);
    }

    fn kcode_selection(&self) -> Option<&[usize]> {
        self.asm.layout.kcode_selection()
    }

    fn push_kcode(&mut self, kernels: Vec<usize>) {
        self.asm.layout.push_kcode(kernels);
        self.label_register_usage();
    }

    fn pop_kcode(&mut self) {
        self.asm.layout.pop_kcode();
        self.label_register_usage();
    }
}

impl FormatHost<'_> {
    /// The register usage starts a new stretch here: the code from here on may belong to
    /// other kernels.
    fn label_register_usage(&mut self) {
        let (section, offset) = (self.asm.layout.current(), self.asm.layout.offset());
        self.asm.reg_usage.label(section, offset);
    }
}
