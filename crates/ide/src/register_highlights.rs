//! Highlights of a register: with the cursor on a register operand (`v3`, `s[4:7]`,
//! `vcc_lo`), every register operand of the same kernel that names one of its
//! registers (`s[4:5]` and `s5` for `s[4:7]`; `vcc` for `vcc_lo`), as a write where the
//! instruction writes that operand (its destination), else as a read. Registers given by
//! expressions (`s[x:x+1]`) and those in macro bodies (text until expanded) are not
//! matched.

use gcn_isa::{Generation, OperandKind};
use gcn_syntax::{Parse, SyntaxKind, SyntaxNode, TextRange, TextSize};

use crate::document_symbols::{document_symbols, DocumentSymbol, SymbolKind};
use crate::navigation::Highlight;
use crate::scan::FileIndex;

/// Registers of one file: `first..=last` of `file` (`s`, `v`, `ttmp`, or a special
/// register's family, `vcc`, `exec`, … with `_lo` 0 and `_hi` 1).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Span {
    file: String,
    first: u64,
    last: u64,
}

impl Span {
    fn overlaps(&self, other: &Span) -> bool {
        self.file == other.file && self.first <= other.last && other.first <= self.last
    }
}

/// The highlights of the register operand at `offset`; `None` when there is none there.
pub fn register_highlights(
    parse: &Parse,
    index: &FileIndex,
    offset: TextSize,
    default_generation: Generation,
) -> Option<Vec<Highlight>> {
    let root = parse.syntax_node();
    let at = crate::scan::token_at_offset(&root, offset);
    let register = [at.clone().right_biased(), at.left_biased()]
        .into_iter()
        .flatten()
        .find_map(|t| {
            t.parent_ancestors()
                .take_while(|n| n.kind() != SyntaxKind::INSTRUCTION)
                .find(|n| n.kind() == SyntaxKind::REGISTER)
        })?;
    let target = span_of(&register)?;
    let scope = kernel_range(parse, offset).unwrap_or(root.text_range());
    let generation = index
        .context_at(offset)
        .generation
        .unwrap_or(default_generation);
    let mut out = Vec::new();
    for top in root.children() {
        let range = top.text_range();
        if range.end() <= scope.start() || range.start() >= scope.end() {
            continue;
        }
        for node in top
            .descendants()
            .filter(|n| n.kind() == SyntaxKind::REGISTER)
        {
            if !scope.contains_range(node.text_range()) {
                continue;
            }
            if span_of(&node).is_some_and(|s| s.overlaps(&target)) {
                out.push(Highlight {
                    range: node.text_range(),
                    write: is_written(&node, generation),
                });
            }
        }
    }
    Some(out)
}

/// The code of the kernel that holds `offset`: the kernel's scope in the outline (AMD
/// formats, where `.text` after `.kernel` is the kernel's own code), else, where all
/// kernels share the code (ROCm, Gallium), from the label of a kernel's name to the next
/// such label.
fn kernel_range(parse: &Parse, offset: TextSize) -> Option<TextRange> {
    let outline = document_symbols(parse);
    let kernels: Vec<&DocumentSymbol> = outline
        .iter()
        .filter(|s| s.kind == SymbolKind::Kernel)
        .collect();
    if let Some(k) = kernels
        .iter()
        .find(|k| k.full_range.contains_inclusive(offset))
    {
        return Some(k.full_range);
    }
    let mut starts: Vec<TextSize> = Vec::new();
    let mut pending: Vec<&DocumentSymbol> = outline.iter().collect();
    while let Some(s) = pending.pop() {
        if s.kind == SymbolKind::Label && kernels.iter().any(|k| k.name == s.name) {
            starts.push(s.full_range.start());
        }
        pending.extend(s.children.iter());
    }
    starts.sort_unstable();
    let i = starts.iter().rposition(|&start| start <= offset)?;
    let end = starts
        .get(i + 1)
        .copied()
        .unwrap_or(parse.syntax_node().text_range().end());
    Some(TextRange::new(starts[i], end))
}

/// The registers a `REGISTER` node names, when its indices are numbers.
fn span_of(register: &SyntaxNode) -> Option<Span> {
    let text: String = register
        .descendants_with_tokens()
        .filter_map(|e| e.into_token())
        .filter(|t| !t.kind().is_trivia())
        .map(|t| t.text().to_ascii_lowercase())
        .collect();
    if let Some((family, half)) = special_family(&text) {
        let (first, last) = match half {
            Some(h) => (h, h),
            None => (0, 1),
        };
        return Some(Span {
            file: family.to_string(),
            first,
            last,
        });
    }
    let (prefix, first, last) = match text.split_once('[') {
        Some((prefix, rest)) => {
            let inner = rest.strip_suffix(']')?;
            let (a, b) = inner.split_once(':').unwrap_or((inner, inner));
            (prefix.to_string(), index(a)?, index(b)?)
        }
        None => {
            let digits = text.trim_start_matches(|c: char| c.is_ascii_alphabetic());
            let prefix = &text[..text.len() - digits.len()];
            let n = index(digits)?;
            (prefix.to_string(), n, n)
        }
    };
    matches!(prefix.as_str(), "s" | "v" | "ttmp").then_some(Span {
        file: prefix,
        first,
        last,
    })
}

fn index(text: &str) -> Option<u64> {
    gcn_asm::literals::parse_int(text.trim()).ok()
}

/// A special register's family and which half it is (`vcc_hi`: `("vcc", Some(1))`;
/// `m0`: `("m0", Some(0))`).
fn special_family(name: &str) -> Option<(&str, Option<u64>)> {
    const PAIRS: [&str; 6] = ["vcc", "exec", "flat_scratch", "xnack_mask", "tba", "tma"];
    for family in PAIRS {
        if name == family {
            return Some((family, None));
        }
        if let Some(half) = name.strip_prefix(family) {
            match half {
                "_lo" => return Some((family, Some(0))),
                "_hi" => return Some((family, Some(1))),
                _ => {}
            }
        }
    }
    const SINGLE: [&str; 5] = ["m0", "scc", "vccz", "execz", "lds_direct"];
    SINGLE.iter().find(|s| **s == name).map(|s| (*s, Some(0)))
}

/// Whether the instruction writes the operand `register` is (or lies in): its
/// destination by the instruction table.
fn is_written(register: &SyntaxNode, generation: Generation) -> bool {
    let Some(list) = register
        .ancestors()
        .find(|n| n.kind() == SyntaxKind::OPERAND_LIST)
    else {
        return false;
    };
    let Some(instruction) = list
        .parent()
        .filter(|n| n.kind() == SyntaxKind::INSTRUCTION)
    else {
        return false;
    };
    let Some(mnemonic) = crate::hover::first_name(&instruction) else {
        return false;
    };
    let operand = crate::hover::commas_before(&list, register.text_range().start());
    let name = gcn_isa::split_suffix(&mnemonic.text().to_ascii_lowercase())
        .0
        .to_string();
    let Some(row) = gcn_isa::lookup_on(&name, generation).next() else {
        return false;
    };
    row.operands.get(operand).is_some_and(|o| {
        matches!(
            o.kind,
            OperandKind::SDst | OperandKind::VDst | OperandKind::VccDst
        )
    })
}

#[cfg(test)]
mod tests {
    use std::fmt::Write;

    use super::*;
    use crate::test_util::{check_dir, cursors, range_text};

    fn render(text: &str) -> String {
        let (text, offsets) = cursors(text);
        let parse = gcn_syntax::parse(&text);
        let index = FileIndex::new(&parse);
        let mut out = String::new();
        for offset in offsets {
            let line = crate::test_util::line_of(&text, offset);
            match register_highlights(&parse, &index, offset, Generation::Gcn1_2) {
                None => writeln!(out, "== line {line}: none").unwrap(),
                Some(found) => {
                    writeln!(out, "== line {line}").unwrap();
                    for h in found {
                        let kind = if h.write { "write" } else { "read" };
                        writeln!(out, "  {kind} {}", range_text(&text, h.range)).unwrap();
                    }
                }
            }
        }
        out
    }

    #[test]
    fn snapshots() {
        check_dir("register_highlights", render);
    }
}
