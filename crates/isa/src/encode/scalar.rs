//! SOP2, SOPK, SOP1, SOPC, SOPP, SMRD, SMEM; and the dispatch to every class.

use gcn_syntax::{ast, ast::AstNode};

use super::{EncodeError, Encoded, Resolver, Target};

pub(super) fn dispatch(
    _target: &Target,
    instr: &ast::Instruction,
    _resolver: &mut dyn Resolver,
) -> Result<Encoded, Vec<EncodeError>> {
    let range = instr.syntax().text_range();
    Err(vec![EncodeError::new(range, "instruction encoding is not supported yet")])
}
