//! Pseudo-ops of the binary formats (`.config`, `.arg`, `.hsaconfig`, `.globaldata`, …):
//! the kernel configuration they set is kept here for the format writers.

use gcn_syntax::ast;

use crate::assembler::{Asm, Ctx};

/// Handles a format pseudo-op; false when `name` is not one (the caller reports it).
pub(crate) fn pseudo_op(_asm: &mut Asm, _ctx: &Ctx, _op: &ast::PseudoOp, _name: &str, _args: &[ast::Arg]) -> bool {
    false
}
