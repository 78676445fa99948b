//! VOP1, VOP2, VOPC, VOP3 (A/B), VOP3P, VINTRP, SDWA, DPP, DPP8.

use gcn_syntax::{ast, ast::AstNode};

use super::{EncodeError, Encoded, Resolver, Target};
use crate::lookup::Suffix;
use crate::table::Instruction;

/// Encodes a vector-ALU instruction (stub).
pub(super) fn encode(
    _target: &Target,
    instr: &ast::Instruction,
    _row: &'static Instruction,
    _suffix: Option<Suffix>,
    _resolver: &mut dyn Resolver,
) -> Result<Encoded, Vec<EncodeError>> {
    Err(vec![EncodeError::new(instr.syntax().text_range(), "vector-ALU encoding is not supported yet")])
}
