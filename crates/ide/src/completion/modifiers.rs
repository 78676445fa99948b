//! Completion of modifiers (`offset:`, `glc`, `row_mask:`, …) after an instruction's
//! operands: the ones the instruction takes on the generation, as its encoder lists them
//! (`gcn_isa::encode::modifiers_of`, the list its "did you mean" suggests from).

use gcn_isa::Generation;
use gcn_syntax::{SyntaxKind, SyntaxToken, TextSize};

use super::{item, CompletionItem, CompletionKind};

/// The items where a modifier may be written: in a modifier's name (`typed` is the
/// name token the cursor is in or just after), or after whitespace that follows a
/// complete operand or modifier (`before`, the token before the cursor's prefix).
/// `start` is where the prefix starts. `None` elsewhere, or when the instruction takes
/// no modifier (what else may come there is completed then).
pub(super) fn items(
    typed: Option<&SyntaxToken>,
    before: Option<&SyntaxToken>,
    start: TextSize,
    gen: Generation,
    prefix: &str,
) -> Option<Vec<CompletionItem>> {
    let anchor = match typed {
        Some(t) if !prefix.is_empty() => {
            let modifier = t.parent().filter(|p| p.kind() == SyntaxKind::MODIFIER)?;
            // Only the name: after `:` comes a value.
            if modifier.first_token().as_ref() != Some(t) {
                return None;
            }
            t.clone()
        }
        _ => {
            let before = before?;
            // `v3 |`, not `v3|` or `v[1:2]|`.
            if !ends_an_item(before) || before.text_range().end() >= start {
                return None;
            }
            before.clone()
        }
    };
    let instruction = anchor
        .parent_ancestors()
        .take_while(|n| n.kind() != SyntaxKind::SOURCE_FILE)
        .find(|n| n.kind() == SyntaxKind::INSTRUCTION)?;
    // In the operand list: after the mnemonic alone come operands.
    anchor
        .parent_ancestors()
        .find(|n| n.kind() == SyntaxKind::OPERAND_LIST)?;
    let mnemonic = crate::hover::first_name(&instruction)?;
    let taken = gcn_isa::encode::modifiers_of(mnemonic.text(), gen);
    if taken.is_empty() {
        return None;
    }
    // None may match the prefix: still no registers or labels here.
    Some(
        taken
            .into_iter()
            .filter(|m| m.starts_with(prefix))
            .map(modifier_item)
            .collect(),
    )
}

/// Whether `token` ends an operand or a modifier, so that after a space a modifier may
/// follow (not a comma, an operator or an opening bracket, after which an operand or
/// a value goes on).
fn ends_an_item(token: &SyntaxToken) -> bool {
    matches!(
        token.kind(),
        SyntaxKind::NAME
            | SyntaxKind::INT_NUMBER
            | SyntaxKind::FLOAT_NUMBER
            | SyntaxKind::R_BRACK
            | SyntaxKind::R_PAREN
    )
}

fn modifier_item(name: &'static str) -> CompletionItem {
    let mut it = item(name, CompletionKind::Modifier, None);
    it.documentation = crate::hover::modifier_hover(name);
    if takes_a_value(name) {
        // The value follows the colon (and its own completion, for SDWA selections).
        it.insert_text = Some(format!("{name}:"));
    }
    it
}

/// Modifiers written `name:value` (the others are flags, or take an optional value).
fn takes_a_value(name: &str) -> bool {
    matches!(
        name,
        "offset"
            | "offset0"
            | "offset1"
            | "inst_offset"
            | "format"
            | "dmask"
            | "dim"
            | "mul"
            | "div"
            | "omod"
            | "abs"
            | "neg"
            | "neg_lo"
            | "neg_hi"
            | "sext"
            | "op_sel"
            | "op_sel_hi"
            | "dst_sel"
            | "src0_sel"
            | "src1_sel"
            | "dst_unused"
            | "dst_un"
            | "quad_perm"
            | "row_shl"
            | "row_shr"
            | "row_ror"
            | "row_share"
            | "row_xmask"
            | "row_bcast"
            | "bank_mask"
            | "row_mask"
            | "dpp8"
    )
}
