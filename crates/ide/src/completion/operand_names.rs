//! Completion of the names operands take: the operand functions where an instruction's
//! operand is one (`hwreg(...)`, `sendmsg(...)`, the `s_waitcnt` counters), the names
//! inside them, SDWA selections and MTBUF formats. The names and the generations that
//! have them come from `gcn_isa::operand_names`, the encoders' tables.

use gcn_isa::operand_names;
use gcn_isa::{Generation, OperandKind};
use gcn_syntax::{SyntaxKind, SyntaxNode, SyntaxToken};

use super::{item, CompletionItem, CompletionKind};

/// The items after `before` (the token before the cursor's prefix), when it opens a
/// place for such a name; `prefix` is lower case.
pub(super) fn items(
    before: &SyntaxToken,
    gen: Generation,
    prefix: &str,
) -> Option<Vec<CompletionItem>> {
    let parent = before.parent()?;
    let names: Vec<(String, String)> = match (before.kind(), parent.kind()) {
        (SyntaxKind::L_PAREN | SyntaxKind::COMMA, SyntaxKind::CALL_EXPR) => {
            call_argument(&parent, before, gen)?
        }
        (SyntaxKind::COLON, SyntaxKind::MODIFIER) => modifier_values(&parent)?,
        (SyntaxKind::L_BRACK | SyntaxKind::COMMA, SyntaxKind::LIST_EXPR) if !gen.is_gfx10() => {
            format_names(&parent, before)?
        }
        _ => return operand_functions(before, gen, prefix),
    };
    Some(
        names
            .into_iter()
            .filter(|(n, _)| n.starts_with(prefix))
            .map(|(n, d)| item(&n, CompletionKind::Value, Some(d)))
            .collect(),
    )
}

fn name_of(node: &SyntaxNode) -> Option<String> {
    Some(crate::hover::first_name(node)?.text().to_ascii_lowercase())
}

/// The index of the argument or item that follows `token` (a `(`, `[` or comma).
fn commas_up_to(node: &SyntaxNode, token: &SyntaxToken) -> usize {
    crate::hover::commas_before(node, token.text_range().end())
}

fn named(table: &[operand_names::Named], gen: Generation, what: &str) -> Vec<(String, String)> {
    table
        .iter()
        .filter(|n| gen >= n.since)
        .map(|n| (n.name.to_string(), format!("{what} {}", n.value)))
        .collect()
}

fn call_argument(
    call: &SyntaxNode,
    before: &SyntaxToken,
    gen: Generation,
) -> Option<Vec<(String, String)>> {
    let index = commas_up_to(call, before);
    Some(match (name_of(call)?.as_str(), index) {
        ("hwreg", 0) => named(operand_names::HWREGS, gen, "hardware register"),
        ("sendmsg", 0) => named(operand_names::MESSAGES, gen, "message"),
        ("sendmsg", 1) => named(operand_names::GS_OPS, gen, "GS operation"),
        ("gpr_idx", _) => ["src0", "src1", "src2", "dst"]
            .iter()
            .map(|n| (n.to_string(), "indexed by M0".to_string()))
            .collect(),
        _ => return None,
    })
}

fn modifier_values(modifier: &SyntaxNode) -> Option<Vec<(String, String)>> {
    let names: &[(&str, &str)] = match name_of(modifier)?.as_str() {
        "dst_sel" | "src0_sel" | "src1_sel" => &[
            ("byte0", "bits 0-7"),
            ("byte1", "bits 8-15"),
            ("byte2", "bits 16-23"),
            ("byte3", "bits 24-31"),
            ("word0", "bits 0-15"),
            ("word1", "bits 16-31"),
            ("dword", "bits 0-31"),
        ],
        "dst_unused" => &[
            ("pad", "other bits zero"),
            ("sext", "other bits the sign"),
            ("preserve", "other bits kept"),
        ],
        _ => return None,
    };
    Some(
        names
            .iter()
            .map(|(n, d)| (n.to_string(), d.to_string()))
            .collect(),
    )
}

/// In `format:[DATA, NUMBER]` (before GCN 1.5, whose format is one number): data and
/// number formats first, number formats second.
fn format_names(list: &SyntaxNode, before: &SyntaxToken) -> Option<Vec<(String, String)>> {
    let modifier = list.parent().filter(|m| m.kind() == SyntaxKind::MODIFIER)?;
    if name_of(&modifier)? != "format" {
        return None;
    }
    let numbers = operand_names::NUMBER_FORMATS
        .iter()
        .enumerate()
        .map(|(i, n)| (n.to_string(), format!("number format {i}")));
    Some(match commas_up_to(list, before) {
        0 => operand_names::DATA_FORMATS
            .iter()
            .enumerate()
            .map(|(i, n)| (n.to_string(), format!("data format {}", i + 1)))
            .chain(numbers)
            .collect(),
        1 => numbers.collect(),
        _ => return None,
    })
}

/// `hwreg(...)`, `sendmsg(...)` or the counters, as snippets, where the instruction's
/// operand at the cursor takes one (`s_waitcnt` also after `&`).
fn operand_functions(
    before: &SyntaxToken,
    gen: Generation,
    prefix: &str,
) -> Option<Vec<CompletionItem>> {
    let instruction = before
        .parent_ancestors()
        .find(|n| n.kind() == SyntaxKind::INSTRUCTION)?;
    let mnemonic = crate::hover::first_name(&instruction)?;
    let index = match before.kind() {
        _ if before == &mnemonic => 0,
        SyntaxKind::COMMA
            if before
                .parent()
                .is_some_and(|p| p.kind() == SyntaxKind::OPERAND_LIST) =>
        {
            commas_up_to(&before.parent()?, before)
        }
        SyntaxKind::AMP => usize::MAX,
        _ => return None,
    };
    let row = gcn_isa::encode::row_of(mnemonic.text(), gen)?;
    let kind = if index == usize::MAX {
        OperandKind::WaitCnt
    } else {
        row.operands.get(index)?.kind
    };
    let snippets: Vec<(&str, &str, &str)> = match kind {
        OperandKind::HwReg => vec![(
            "hwreg",
            "hwreg(${1:mode}, ${2:0}, ${3:32})",
            "a hardware register's bit field",
        )],
        OperandKind::SendMsg => vec![("sendmsg", "sendmsg(${1:interrupt})", "the message to send")],
        OperandKind::WaitCnt if row.operands.iter().any(|o| o.kind == OperandKind::WaitCnt) => {
            operand_names::WAIT_COUNTERS
                .iter()
                .map(|c| (*c, "", "an s_waitcnt counter"))
                .collect()
        }
        _ => return None,
    };
    Some(
        snippets
            .into_iter()
            .filter(|(n, _, _)| n.starts_with(prefix))
            .map(|(name, snippet, detail)| {
                let mut it = item(name, CompletionKind::Value, Some(detail.to_string()));
                let text = if snippet.is_empty() {
                    format!("{name}(${{1:0}})")
                } else {
                    snippet.to_string()
                };
                it.insert_text = Some(text);
                it.is_snippet = true;
                it
            })
            .collect(),
    )
}
