//! What the assembler offers the format pseudo-ops: their one way to it, as
//! `gcn_isa::encode::Resolver` is the encoders'. A handler reports at a range, evaluates an
//! argument now, defines a symbol, reads the options, and changes the configuration
//! ([`FormatConfig`]) and the layout (sections, kernels) by the operations named here,
//! never by the fields of the assembler. The assembler's side is `crate::format_host`.

use gcn_isa::Generation;
use gcn_syntax::ast;
use gcn_syntax::TextRange;

use super::FormatConfig;
use crate::diag::Severity;
use crate::expr::Value;
use crate::layout::{Kernel, Owner, Section, SectionKind};
use crate::options::{BinaryFormat, Options};
use crate::source::Location;
use crate::symbols::{SymId, Symbol};

/// The assembler, as the format pseudo-ops see it: the statement's place and origin
/// chain are the host's, so that reports need only a range of the statement.
pub(crate) trait Host {
    // ---- diagnostics --------------------------------------------------------------------

    /// Reports `message` at `range` of the statement's text.
    fn report(&mut self, range: TextRange, severity: Severity, message: String);
    /// Where `range` starts in the sources (what kernels and the binary's errors keep).
    fn location(&self, range: TextRange) -> Location;
    /// Records a kernel's name at `range` for the editor's index (`.kernel NAME`).
    fn note_kernel_name(&mut self, name: &str, range: TextRange);

    // ---- expressions and symbols --------------------------------------------------------

    /// The value of an expression of the statement now; reports why there is none.
    fn eval_now(&mut self, expr: &ast::Expr) -> Option<Value>;
    /// The absolute value of an expression of the statement now; reports why there is none.
    fn eval_abs_now(&mut self, expr: &ast::Expr) -> Option<i64>;
    /// The absolute value now of an expression parsed apart from the source (from an
    /// argument's raw text): its own positions mean nothing, so reports go to `range`.
    fn eval_abs_detached(&mut self, expr: &ast::Expr, range: TextRange) -> Option<i64>;
    /// The symbol a definition of `name` names (its scope path, else the current scope),
    /// created if new.
    fn definition_target(&mut self, name: &str) -> SymId;
    /// The symbol a reference to `name` names (searched as references are), created
    /// undefined if new.
    fn reference_target(&mut self, name: &str) -> SymId;
    fn symbol(&self, id: SymId) -> &Symbol;
    /// Gives a symbol its value; what waited for it is completed.
    fn set_symbol(&mut self, id: SymId, value: Value);

    // ---- options and state --------------------------------------------------------------

    fn options(&self) -> &Options;
    /// The generation of the device chosen so far (`.gpu`, `.arch`, `-g`).
    fn generation(&self) -> Generation;
    fn format(&self) -> BinaryFormat;
    fn config(&self) -> &FormatConfig;
    fn config_mut(&mut self) -> &mut FormatConfig;
    /// Assembles the code that follows for 32 lanes (GCN 1.5), as `.wave32` does.
    fn set_wave32(&mut self);

    // ---- the layout ---------------------------------------------------------------------

    /// The kernel whose layout is current, if any.
    fn current_kernel(&self) -> Option<usize>;
    /// Whose sections are current (a kernel, the global layout, AMD OpenCL 2.0's inner one).
    fn owner(&self) -> Owner;
    fn current_section(&self) -> &Section;
    fn is_code_section(&self) -> bool;
    fn kernels(&self) -> &[Kernel];
    /// The first section of `kind` owned by `owner`.
    fn find_section(&self, kind: SectionKind, owner: Owner) -> Option<usize>;
    /// Adds a section without going to it.
    fn create_section(&mut self, name: &str, owner: Owner, kind: SectionKind) -> usize;
    /// A section, for what its pseudo-op sets in it (a CAL note's type, an alignment, the
    /// size of the global offset table).
    fn section_mut(&mut self, index: usize) -> &mut Section;
    /// Makes a section the current one.
    fn switch_to(&mut self, index: usize);
    /// Goes to `owner`'s section named `name`, created (of `kind`) if needed.
    fn go_to(&mut self, name: &str, owner: Owner, kind: SectionKind) -> usize;
    /// Writes bytes at the current place; reports (and is false) when it cannot.
    fn emit(&mut self, range: TextRange, bytes: &[u8]) -> bool;
    /// `.kernel NAME`: enters the kernel's layout (the index, and whether it is new).
    fn enter_kernel(&mut self, name: &str) -> Result<(usize, bool), String>;
    /// Enters the current kernel's configuration section.
    fn enter_config(&mut self) -> Result<usize, String>;
    /// `.inner` (AMD OpenCL 2.0): the inner binary's layout.
    fn enter_inner(&mut self);
    /// `.amd`, `.rocm`, …: the empty layout of a format (what the source set is dropped).
    fn start_layout(&mut self, format: BinaryFormat);
    /// The kernels the code belongs to from here on (`.kcode`), if a selection is open.
    fn kcode_selection(&self) -> Option<&[usize]>;
    /// `.kcode`: the code from the current place belongs to `kernels`.
    fn push_kcode(&mut self, kernels: Vec<usize>);
    /// `.kcodeend`: back to the enclosing selection.
    fn pop_kcode(&mut self);
}

impl dyn Host + '_ {
    pub(crate) fn error_at(&mut self, range: TextRange, message: impl Into<String>) {
        self.report(range, Severity::Error, message.into());
    }

    pub(crate) fn warn_at(&mut self, range: TextRange, message: impl Into<String>) {
        self.report(range, Severity::Warning, message.into());
    }
}
