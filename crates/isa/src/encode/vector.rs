//! VOP1, VOP2, VOPC, VOP3 (A/B), VOP3P, VINTRP, SDWA, DPP, DPP8.

use gcn_syntax::{ast, ast::AstNode};

use super::{EncodeError, Encoded, Resolver, Target};
use crate::table::Instruction;

/// Encodes a vector-ALU instruction. `rows` are the table rows of the mnemonic (suffix
/// stripped) that exist on `target.gen`, all of a vector-ALU class (VOP1, VOP2, VOPC,
/// VOP3, VOP3P, VINTRP); at least one. The suffix (`_e32`, `_e64`, `_sdwa`, `_dpp`,
/// `_dpp8`) is still on `instr.mnemonic()` (see `lookup::split_suffix`).
///
/// Stub written by the scalar/memory engineer to fix the signature `scalar::dispatch`
/// calls; the vector engineer owns this file.
pub(super) fn encode(
    _target: &Target,
    _rows: &[&'static Instruction],
    instr: &ast::Instruction,
    _resolver: &mut dyn Resolver,
) -> Result<Encoded, Vec<EncodeError>> {
    Err(vec![EncodeError::new(
        instr.syntax().text_range(),
        "vector-ALU encoding is not supported yet",
    )])
}
