//! SOP2, SOPK, SOP1, SOPC, SOPP, SMRD, SMEM; and the dispatch to every class.

use gcn_syntax::{ast, ast::AstNode};

use super::operands::Cx;
use super::{memory, vector, EncodeError, Encoded, Resolver, Target};
use crate::lookup::{lookup, split_suffix, Suffix};
use crate::table::{Encoding, Instruction};

/// Finds the rows of the instruction's mnemonic on the target's generation and calls
/// the class encoder.
pub(super) fn dispatch(
    target: &Target,
    instr: &ast::Instruction,
    resolver: &mut dyn Resolver,
) -> Result<Encoded, Vec<EncodeError>> {
    let Some(tok) = instr.mnemonic_token() else {
        return Err(vec![EncodeError::new(instr.syntax().text_range(), "expected an instruction")]);
    };
    let text = tok.text();
    let mrange = tok.text_range();
    let (mut base, mut suffix) = split_suffix(text);
    let mut all = lookup(base);
    if all.is_empty() && suffix.is_some() {
        base = text;
        suffix = None;
        all = lookup(base);
    }
    if all.is_empty() {
        return Err(vec![EncodeError::new(mrange, format!("unknown instruction `{text}`"))]);
    }
    let gen = target.gen;
    let mut rows: [Option<&'static Instruction>; 4] = [None; 4];
    let mut n = 0;
    for row in all.iter().filter(|r| r.exists_on(gen)) {
        if n < rows.len() {
            rows[n] = Some(row);
            n += 1;
        }
    }
    if n == 0 {
        let gens: Vec<&str> = crate::lookup::generations_of(base).iter().map(|g| g.name()).collect();
        return Err(vec![EncodeError::new(
            mrange,
            format!("`{base}` is not available on {gen} (only on {})", gens.join(", ")),
        )]);
    }
    let first = rows[0].unwrap();
    if matches!(
        first.encoding,
        Encoding::Vop1 | Encoding::Vop2 | Encoding::Vopc | Encoding::Vop3 | Encoding::Vop3p | Encoding::Vintrp
    ) {
        let list: Vec<&'static Instruction> = rows[..n].iter().map(|r| r.unwrap()).collect();
        return vector::encode(target, &list, instr, resolver);
    }
    let scalar = matches!(
        first.encoding,
        Encoding::Sop2 | Encoding::Sopk | Encoding::Sop1 | Encoding::Sopc | Encoding::Sopp | Encoding::Smrd | Encoding::Smem
    );
    let force_literal = match suffix {
        None => false,
        Some(Suffix::E32) if scalar => false,
        Some(Suffix::E64) if scalar => true,
        Some(_) => {
            return Err(vec![EncodeError::new(
                mrange,
                format!("unknown instruction `{text}`: `{base}` has no such encoding"),
            )])
        }
    };
    let cx = Cx::new(target, resolver);
    let result = match first.encoding {
        Encoding::Sop2 | Encoding::Sopk | Encoding::Sop1 | Encoding::Sopc | Encoding::Sopp | Encoding::Smrd | Encoding::Smem => {
            encode_scalar(cx, first, instr, force_literal)
        }
        _ => memory::encode(cx, first, instr),
    };
    result.map_err(|e| vec![e])
}

fn encode_scalar(
    _cx: Cx<'_>,
    _row: &'static Instruction,
    instr: &ast::Instruction,
    _force_literal: bool,
) -> Result<Encoded, EncodeError> {
    Err(EncodeError::new(instr.syntax().text_range(), "scalar encoding is not supported yet"))
}
