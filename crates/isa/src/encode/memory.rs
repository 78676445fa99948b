//! DS, MUBUF, MTBUF, MIMG, EXP, FLAT, GLOBAL, SCRATCH.

use gcn_syntax::{ast, ast::AstNode};

use super::operands::Cx;
use super::EncodeError;
use crate::table::Instruction;

/// Encodes a memory instruction (`row` exists on `cx.gen()`): its words.
pub(super) fn encode(_cx: &mut Cx<'_>, _row: &'static Instruction, instr: &ast::Instruction) -> Result<Vec<u32>, EncodeError> {
    Err(EncodeError::new(instr.syntax().text_range(), "memory encoding is not supported yet"))
}
