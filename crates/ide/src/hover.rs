//! Hover: what the thing under the cursor is, as markdown.
//!
//! - an **instruction** mnemonic: its syntax with operand kinds, encoding class and size,
//!   opcode on the file's generation, the generations that have it (with a note when the
//!   file's does not), and a short description of its family;
//! - a **pseudo-op**: its syntax, what it does, where it is valid (anywhere, in a kernel,
//!   in a kernel configuration; which binary formats), its default;
//! - a **register** operand: which registers it covers (`s[4:7]` is s4–s7, four SGPRs)
//!   and what a special register (`exec`, `vcc`, `m0`, `ttmp*`, …) is;
//! - a **number**: its value in decimal and hexadecimal, and as a float where it is one;
//! - a **name**: the label, symbol, kernel or macro it refers to, where the file defines it;
//!   a device or architecture name after `.gpu`, `.arch` and their conditionals: the
//!   instruction set and the other names of the same thing;
//! - an **operand name** ([`operand_names`]): `hwreg(...)`, `sendmsg(...)`, the
//!   `s_waitcnt` counters, `lit(...)`, `gpr_idx(...)`, the hardware registers, messages
//!   and GS operations in them, SDWA selections, MTBUF formats.
//!
//! With the program's analysis ([`Program`]), hover also says what the assembler found:
//! for a name, what it resolved to (across includes and macro arguments), its value or
//! section and offset, where it is defined, how often it is used, a macro's first lines,
//! a kernel's register counts; for a register operand, the counts of the kernel its line
//! belongs to.
//!
//! The generation is the last `.gpu`/`.arch` before the cursor, else the caller's default
//! (the file's options). Only the cursor's token and its ancestors are looked at, plus one
//! scan of the top-level statements' green nodes for `.gpu` and names.

mod encoding;
mod operand_names;
mod rsrc;
mod waits;

pub(crate) use operand_names::{commas_before, first_name, is_operand_name};

use std::fmt::Write;
use std::path::Path;

use gcn_isa::{Generation, PseudoOp, PseudoScope};
use gcn_syntax::{Parse, SyntaxKind, SyntaxNode, SyntaxToken, TextRange, TextSize};

use crate::analysis::Analysis;
use crate::isa_docs;
use crate::reg_usage::KernelUsage;
use crate::scan::{self, DefinitionKind, FileIndex};
use crate::symbol_index::NameOccurrence;

/// A hover's text and the range it is about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HoverResult {
    pub range: TextRange,
    pub markdown: String,
}

/// The program a hovered file belongs to: the analysis of the same text, and the
/// file's path in it.
#[derive(Clone, Copy)]
pub struct Program<'a> {
    pub analysis: &'a Analysis,
    pub file: &'a Path,
}

/// The hover at `offset`; `default` is the generation of the file's options; `program`,
/// when the analysis of this very text is at hand, adds what the assembler found.
pub fn hover(
    parse: &Parse,
    index: &FileIndex,
    offset: TextSize,
    default: Generation,
    program: Option<Program>,
) -> Option<HoverResult> {
    if let Some(range) = crate::macro_params::expansion_number_at(parse, offset) {
        return Some(HoverResult {
            range,
            markdown: "**\\@** — the number of this macro expansion: every macro call counts, \
                       from 0, so `name\\@:` makes a label of its own in each expansion"
                .to_string(),
        });
    }
    // A macro's parameter or a repetition's variable, also as `\name` in a string.
    if let Some(p) = crate::macro_params::parameter_at(parse, offset) {
        return Some(HoverResult {
            range: crate::macro_params::range_at(&p, offset),
            markdown: crate::macro_params::hover_text(&p),
        });
    }
    let token = pick_token(parse, offset)?;
    let generation = || index.context_at(offset).generation.unwrap_or(default);
    if let Some(reg) = token
        .parent_ancestors()
        .find(|n| n.kind() == SyntaxKind::REGISTER)
    {
        let text = register_text(&reg);
        let mut markdown = register_hover(&text, generation())?;
        if let Some((program, kernel)) = program.and_then(|p| kernel_at(p, offset).map(|k| (p, k)))
        {
            write!(
                markdown,
                "\n\nKernel `{}`: {}.",
                kernel.name,
                kernel.label()
            )
            .unwrap();
            let filled = setup_contents(program, &kernel.name, &text);
            if !filled.is_empty() {
                write!(
                    markdown,
                    "\n\n**At the kernel's start** its setup puts there: {}.",
                    filled.join("; ")
                )
                .unwrap();
            }
        }
        return Some(HoverResult {
            range: reg.text_range(),
            markdown,
        });
    }
    if let Some(found) = operand_names::hover(&token, generation()) {
        return Some(found);
    }
    if let Some((range, negated)) = number_at(&token) {
        let number = if token.kind() == SyntaxKind::MINUS {
            negated_literal(&token)?
        } else {
            token.clone()
        };
        return Some(HoverResult {
            range,
            markdown: number_hover(&number, negated)?,
        });
    }
    let range = token.text_range();
    if let Some(found) = program.and_then(|p| program_name_hover(p, &token, offset)) {
        return Some(found);
    }
    let parent = token.parent()?;
    let markdown = match token.kind() {
        SyntaxKind::INT_NUMBER | SyntaxKind::FLOAT_NUMBER | SyntaxKind::CHAR => {
            let fields = rsrc::fields(&token, generation()).unwrap_or_default();
            number_hover(&token, false)? + &fields
        }
        SyntaxKind::LOCAL_LABEL_REF => format!(
            "local label reference `{}`: the nearest `{}:` {}",
            token.text(),
            &token.text()[..token.text().len() - 1],
            if token.text().ends_with('b') {
                "before this line"
            } else {
                "after this line"
            }
        ),
        SyntaxKind::NAME => {
            let is_head = first_token(&parent).as_ref() == Some(&token);
            match parent.kind() {
                SyntaxKind::INSTRUCTION if is_head => {
                    let markdown = instruction_hover(token.text(), generation())?;
                    with_program_facts(markdown, program, &token, parent.text_range())
                }
                SyntaxKind::PSEUDO_OP if is_head => {
                    let mut markdown = pseudo_op_hover(token.text())?;
                    if let Some(decided) = program.and_then(|p| branch_decision(p, &parent)) {
                        write!(markdown, "\n\n{decided}").unwrap();
                    }
                    markdown
                }
                SyntaxKind::LINE if is_head => {
                    // A line of a macro or repetition body.
                    if token.text().starts_with('.') {
                        pseudo_op_hover(token.text())?
                    } else {
                        let markdown = instruction_hover(token.text(), generation())
                            .or_else(|| name_hover(parse, index, token.text()))?;
                        with_program_facts(markdown, program, &token, parent.text_range())
                    }
                }
                SyntaxKind::LINE if gcn_syntax::is_register_name(token.text(), false) => {
                    register_hover(token.text(), generation())?
                }
                // A macro call's arguments are kept as text: a register name there is one.
                SyntaxKind::ARG
                    if parent
                        .ancestors()
                        .any(|n| n.kind() == SyntaxKind::MACRO_CALL)
                        && gcn_syntax::is_register_name(token.text(), false) =>
                {
                    register_hover(token.text(), generation())?
                }
                SyntaxKind::MODIFIER => modifier_hover(token.text())?,
                // Read as a macro call, yet the assembler called no macro here (the
                // definition was in a skipped block): the statement is the instruction.
                SyntaxKind::MACRO_CALL if is_head && program.is_some() => {
                    instruction_hover(token.text(), generation())
                        .or_else(|| name_hover(parse, index, token.text()))?
                }
                SyntaxKind::NAME_REF if target_name_argument(&parent).is_some() => {
                    target_name_hover(token.text(), target_name_argument(&parent)?)?
                }
                _ => name_hover(parse, index, token.text())?,
            }
        }
        _ => return None,
    };
    Some(HoverResult { range, markdown })
}

/// An instruction's hover with what the assembler made of its statement after its
/// description: the words it encodes to ([`encoding`]) and, for an `s_waitcnt`, what it
/// waits for ([`waits`]).
fn with_program_facts(
    mut markdown: String,
    program: Option<Program>,
    mnemonic: &SyntaxToken,
    statement: TextRange,
) -> String {
    let Some(program) = program else {
        return markdown;
    };
    let is_wait = mnemonic
        .text()
        .to_ascii_lowercase()
        .starts_with("s_waitcnt");
    let wait = || {
        is_wait
            .then(|| waits::wait_effect(program, statement))
            .flatten()
    };
    for fact in [encoding::encoded(program, statement), wait()]
        .into_iter()
        .flatten()
    {
        markdown.truncate(markdown.trim_end().len());
        write!(markdown, "\n\n{fact}").unwrap();
    }
    markdown
}

/// What the assembler decided for the branch whose header is `header` (`.if…`,
/// `.elseif…`, `.else` in the source's own text), on every run that reached it.
fn branch_decision(program: Program, header: &SyntaxNode) -> Option<&'static str> {
    use gcn_asm::index::Decision;
    let is_header = header
        .parent()
        .is_some_and(|p| p.kind() == SyntaxKind::COND_BRANCH);
    let analysis = program.analysis;
    let file = analysis.file_id(program.file)?;
    if !is_header || file != gcn_asm::FileId(0) {
        return None;
    }
    let offset = u32::from(header.text_range().start());
    let mut decisions = analysis
        .assembly
        .index
        .as_ref()?
        .branches
        .iter()
        .filter(|b| b.header.file == file && b.header.offset == offset)
        .map(|b| b.decision);
    let first = decisions.next()?;
    let taken = |d: Decision| d == Decision::Taken;
    if decisions.any(|d| taken(d) != taken(first)) {
        return Some("**Assembled** on some runs of this file, not on others.");
    }
    Some(match first {
        Decision::Taken => "**Taken**: its condition holds, and its statements are assembled.",
        Decision::False => {
            "**Not taken**: its condition is false, and its statements are not assembled."
        }
        Decision::AfterTaken => "**Not taken**: an earlier branch of this conditional was taken.",
    })
}

/// The token under the cursor: a name, number or local label reference on either side.
pub(crate) fn pick_token(parse: &Parse, offset: TextSize) -> Option<SyntaxToken> {
    let root = parse.syntax_node();
    if offset > root.text_range().end() {
        return None;
    }
    let interesting = |t: &SyntaxToken| {
        matches!(
            t.kind(),
            SyntaxKind::NAME
                | SyntaxKind::INT_NUMBER
                | SyntaxKind::FLOAT_NUMBER
                | SyntaxKind::CHAR
                | SyntaxKind::LOCAL_LABEL_REF
        ) || (t.kind() == SyntaxKind::MINUS && negated_literal(t).is_some())
    };
    let at = scan::token_at_offset(&root, offset);
    let (left, right) = match at {
        rowan::TokenAtOffset::None => return None,
        rowan::TokenAtOffset::Single(t) => (None, Some(t)),
        rowan::TokenAtOffset::Between(l, r) => (Some(l), Some(r)),
    };
    right
        .filter(interesting)
        .or(left.filter(interesting))
        .or_else(|| {
            scan::token_at_offset(&root, offset)
                .right_biased()
                .filter(|t| {
                    t.parent_ancestors()
                        .any(|n| n.kind() == SyntaxKind::REGISTER)
                })
        })
}

/// The token that ends where `token` starts (rowan's `prev_token` stops at an empty node).
pub(crate) fn token_before(token: &SyntaxToken) -> Option<SyntaxToken> {
    let start = token.text_range().start();
    if start == TextSize::from(0) {
        return None;
    }
    let root = token.parent_ancestors().last()?;
    scan::token_at_offset(&root, start).left_biased()
}

fn first_token(node: &SyntaxNode) -> Option<SyntaxToken> {
    node.children_with_tokens()
        .filter_map(|e| e.into_token())
        .find(|t| !t.kind().is_trivia())
}

fn register_text(node: &SyntaxNode) -> String {
    node.text()
        .to_string()
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect()
}

/// Markdown for an instruction mnemonic (with or without an encoding suffix).
pub fn instruction_hover(mnemonic: &str, gen: Generation) -> Option<String> {
    let (base, suffix) = gcn_isa::split_suffix(mnemonic);
    let rows = gcn_isa::lookup(base);
    if rows.is_empty() {
        return None;
    }
    let lower = base.to_ascii_lowercase();
    let on_gen: Vec<_> = rows.iter().filter(|r| r.exists_on(gen)).collect();
    let mut out = String::new();
    writeln!(
        out,
        "**{}** — {}",
        mnemonic.to_ascii_lowercase(),
        isa_docs::describe(&lower)
    )
    .unwrap();
    out.push('\n');
    let shown: Vec<_> = if on_gen.is_empty() {
        rows.iter().collect()
    } else {
        on_gen.clone()
    };
    out.push_str("```gcn\n");
    let mut seen = Vec::new();
    for row in &shown {
        let s = row.syntax(&mnemonic.to_ascii_lowercase());
        if !seen.contains(&s) {
            writeln!(out, "{s}").unwrap();
            seen.push(s);
        }
    }
    out.push_str("```\n\n");
    for row in &shown {
        let size = isa_docs::size(row, suffix);
        write!(
            out,
            "- encoding **{}** ({}), {} bytes{}",
            isa_docs::encoding_name(row.encoding, suffix),
            match suffix {
                Some(gcn_isa::Suffix::E64) if row.encoding.has_vop3_form() => format!(
                    "the VOP3 form of a {} instruction",
                    row.encoding.token().to_uppercase()
                ),
                _ => isa_docs::encoding_doc(row.encoding).to_string(),
            },
            size,
            if size == 4
                && row.operands.iter().any(|o| matches!(
                    o.kind,
                    gcn_isa::OperandKind::SSrc | gcn_isa::OperandKind::Src
                ))
            {
                " (+4 with a 32-bit literal)"
            } else {
                ""
            }
        )
        .unwrap();
        let opcode = match suffix {
            Some(gcn_isa::Suffix::E64) if row.encoding.has_vop3_form() => row.vop3_opcode(gen),
            _ => row.opcode(gen),
        };
        if let Some(op) = opcode {
            write!(out, "; opcode on {gen}: {op} (0x{op:x})").unwrap();
        }
        out.push('\n');
    }
    let gens = gcn_isa::generations_of(base);
    let names: Vec<&str> = gens.iter().map(|g| g.name()).collect();
    writeln!(out, "- generations: {}", names.join(", ")).unwrap();
    if let Some(t) = on_gen
        .first()
        .and_then(|row| crate::timings::timing(&lower, row.encoding, gen))
    {
        let timing = crate::timings::describe(&t);
        writeln!(
            out,
            "- timing on GCN 1.0 to 1.4, one wave (CLRX's measurements): {timing}"
        )
        .unwrap();
    }
    if on_gen.is_empty() {
        writeln!(
            out,
            "\n**Not available on {gen}**, the generation of this file."
        )
        .unwrap();
    }
    Some(out)
}

/// Markdown for a pseudo-op.
pub fn pseudo_op_hover(name: &str) -> Option<String> {
    let op = gcn_isa::pseudo_op(name)?;
    Some(pseudo_op_markdown(op))
}

pub(crate) fn pseudo_op_markdown(op: &PseudoOp) -> String {
    let mut out = String::new();
    writeln!(
        out,
        "**{}** — pseudo-op\n\n```gcn\n{}\n```\n\n{}\n",
        op.name, op.syntax, op.description
    )
    .unwrap();
    writeln!(out, "- valid: {}", scope_text(op)).unwrap();
    if let Some(default) = op.default {
        writeln!(out, "- default: {default}").unwrap();
    }
    out
}

pub(crate) fn scope_text(op: &PseudoOp) -> String {
    let place = match op.scope {
        PseudoScope::Global => "anywhere",
        PseudoScope::Kernel => "inside a kernel (after `.kernel NAME`)",
        PseudoScope::Config => "inside a kernel configuration (`.config`)",
    };
    if op.is_general() {
        format!("{place}, in every binary format")
    } else {
        let names: Vec<&str> = op
            .formats
            .names()
            .into_iter()
            .map(|n| match n {
                "amd" => "AMD Catalyst (`.amd`)",
                "amdcl2" => "AMD OpenCL 2.0 (`.amdcl2`)",
                "gallium" => "GalliumCompute (`.gallium`)",
                "rocm" => "ROCm (`.rocm`)",
                other => other,
            })
            .collect();
        format!("{place}; formats: {}", names.join(", "))
    }
}

pub(crate) fn modifier_hover(name: &str) -> Option<String> {
    let text = match name.to_ascii_lowercase().as_str() {
        "clamp" => "clamps the result to the range 0..1 (floats) or saturates (integers)",
        "mul" => "multiplies the result by 2 or 4 (`mul:2`, `mul:4`)",
        "div" => "divides the result by 2 (`div:2`)",
        "offset" => "a byte offset added to the address",
        "glc" => "globally coherent: for loads, bypass the first-level cache; for atomics, return the old value",
        "slc" => "system level coherent: stream the data (hardly cached)",
        "dlc" => "device level coherent (GCN 1.5)",
        "tfe" => "texture fail enable: also return a status dword",
        "lds" => "load the data into LDS instead of VGPRs",
        "addr64" => "the address VGPRs hold a 64-bit address (GCN 1.0/1.1)",
        "offen" => "a VGPR holds an offset",
        "idxen" => "a VGPR holds an index",
        "gds" => "use the global data share instead of LDS",
        "vm" => "export valid mask",
        "done" => "this is the last export",
        "compr" => "export compressed 16-bit data",
        "dmask" => "which components to read or write",
        "unorm" => "unnormalized coordinates",
        "da" => "declared array",
        "r128" => "128-bit resource",
        "lwe" => "LOD warning enable",
        "a16" => "16-bit addresses",
        "d16" => "16-bit data",
        "nv" => "non-volatile",
        "row_mask" | "bank_mask" | "bound_ctrl" | "quad_perm" | "row_shl" | "row_shr" | "row_ror" | "wave_shl" | "wave_rol"
        | "wave_shr" | "wave_ror" | "row_mirror" | "row_half_mirror" | "row_bcast" => "a DPP (data parallel primitives) control",
        "dst_sel" | "dst_unused" | "src0_sel" | "src1_sel" => "an SDWA (sub-dword addressing) selection",
        "op_sel" | "op_sel_hi" | "neg_lo" | "neg_hi" => "a packed (VOP3P) operand modifier",
        "format" => "the format of a typed buffer access: `format:[DATA, NUMBER]` before GCN 1.5, one unified format number (`format:22`) on GCN 1.5",
        "dfmt" | "nfmt" => "the data and number format of a typed buffer access",
        "vop3" => "forces the VOP3 encoding",
        "sdwa" => "forces the SDWA encoding (GCN 1.2 and later)",
        "dpp" => "forces the DPP encoding (GCN 1.2 and later)",
        "abs" => "the absolute value of the sources marked with 1 (`abs:[1,0]`)",
        "neg" => "negates the sources marked with 1 (`neg:[0,1]`); in packed instructions, their low halves",
        "sext" => "SDWA: sign-extends the selected bits of the sources marked with 1 (`sext:[1,0]`)",
        "omod" => "the output modifier as a number: 0 none, 1 times 2, 2 times 4, 3 divided by 2",
        "inst_offset" => "a byte offset added to the address (as `offset`)",
        "offset0" | "offset1" => "the offset of the first (`offset0`) or second (`offset1`) address, counted in elements of the data's size (64 of them in the `_st64` forms)",
        "dim" => "the image's dimensions (`dim:1d`, `2d`, `3d`, `cube`, `1d_array`, `2d_array`, `2d_msaa`, `2d_msaa_array`): GCN 1.5's image instructions need it",
        "high" => "16-bit interpolation: the attribute's high half",
        "fi" => "DPP on GCN 1.5: lanes also read the lanes EXEC disables",
        "dpp8" => "DPP8 (GCN 1.5): the lane each of 8 lanes reads (`dpp8:[7,6,5,4,3,2,1,0]`)",
        "row_share" => "DPP on GCN 1.5: every lane reads lane N of its row (`row_share:N`)",
        "row_xmask" => "DPP on GCN 1.5: every lane reads the lane of its row whose number is its own XOR N (`row_xmask:N`)",
        "row_bcast15" | "row_bcast31" => "a DPP (data parallel primitives) control: broadcasts lane 15 of each row to the next row, or lane 31 to the upper rows",
        "row_hmirror" => "a DPP (data parallel primitives) control (`row_half_mirror`)",
        "dst_un" => "an SDWA (sub-dword addressing) selection (`dst_unused`)",
        _ => return None,
    };
    Some(format!("**{name}** — modifier: {text}"))
}

/// Whether `name_ref` is the argument of a pseudo-op that names a device (`.gpu`,
/// `.ifgpu`, …: `Some(true)`) or an architecture (`.arch`, `.ifarch`, …: `Some(false)`).
fn target_name_argument(name_ref: &SyntaxNode) -> Option<bool> {
    let op = name_ref
        .ancestors()
        .find(|n| n.kind() == SyntaxKind::PSEUDO_OP)?;
    let name = first_token(&op)?.text().to_ascii_lowercase();
    match name.as_str() {
        ".gpu" | ".ifgpu" | ".ifngpu" | ".elseifgpu" | ".elseifngpu" => Some(true),
        ".arch" | ".ifarch" | ".ifnarch" | ".elseifarch" | ".elseifnarch" => Some(false),
        _ => None,
    }
}

/// A device name (`Tonga`, `gfx802`) or an architecture name (`GCN1.4`, `VEGA`): the
/// generation it means and the other names of the same thing.
fn target_name_hover(name: &str, device: bool) -> Option<String> {
    if device {
        let d = gcn_isa::Device::from_name(name)?;
        let others: Vec<&str> = gcn_isa::Device::names()
            .filter(|(n, x)| *x == d && !n.eq_ignore_ascii_case(name))
            .map(|(n, _)| n)
            .collect();
        let also = if others.is_empty() {
            String::new()
        } else {
            format!("; also named {}", others.join(", "))
        };
        return Some(format!(
            "**{name}** — GPU device {}: instruction set {}{also}",
            d.name(),
            d.generation()
        ));
    }
    let gen = gcn_isa::Generation::from_arch_name(name)?;
    let others: Vec<&str> = gcn_isa::arch::arch_names()
        .filter(|(n, g)| *g == gen && !n.eq_ignore_ascii_case(name))
        .map(|(n, _)| n)
        .collect();
    let devices: Vec<&str> = gcn_isa::Device::ALL
        .iter()
        .filter(|d| d.generation() == gen)
        .map(|d| d.name())
        .collect();
    Some(format!(
        "**{name}** — architecture {gen}; also named {}\n\n- devices: {}",
        others.join(", "),
        devices.join(", ")
    ))
}

/// A register operand: `s[4:7]`, `v2`, `ttmp[2:3]`, `vcc`, `exec_lo`.
pub fn register_hover(text: &str, gen: Generation) -> Option<String> {
    let lower = text.to_ascii_lowercase();
    if let Some((name, doc)) = isa_docs::special_register(&lower, gen) {
        return Some(format!("**{name}** — {doc}."));
    }
    let (prefix, first, last) = register_parts(&lower)?;
    let (unit, plural, what, limit) = match prefix.as_str() {
        "s" => (
            "SGPR",
            "SGPRs",
            "scalar registers: one 32-bit value each, shared by all lanes of the wave",
            gen.registers().addressable_sgprs as u64,
        ),
        "v" => (
            "VGPR",
            "VGPRs",
            "vector registers: one 32-bit value per lane each",
            gen.registers().max_vgprs as u64,
        ),
        "ttmp" => (
            "TTMP",
            "TTMPs",
            "trap temporary SGPRs, for the trap handler",
            gen.ttmp_count() as u64,
        ),
        _ => return None,
    };
    let (Some(first), Some(last)) = (first, last) else {
        return Some(format!("**{text}** — {plural}: {what}."));
    };
    let mut out = if first == last {
        format!("**{text}** — {unit} {prefix}{first}: one of the {what}.")
    } else if last > first {
        let n = last - first + 1;
        format!(
            "**{text}** — {plural} {prefix}{first}–{prefix}{last} ({n} registers, {} bits: {}): {what}.",
            n * 32,
            (first..=last).map(|i| format!("{prefix}{i}")).collect::<Vec<_>>().join(", ")
        )
    } else {
        format!("**{text}** — an empty register range (its last index is below its first).")
    };
    if last >= limit {
        write!(
            out,
            "\n\n**Beyond the last {unit}** on {gen}: {prefix}{}.",
            limit - 1
        )
        .unwrap();
    }
    Some(out)
}

/// A register operand's prefix (`s`, `v`, `ttmp`, …) and first and last indexes (`s5`,
/// `v[0:3]`), in lower case; an index that is no number is `None`.
fn register_parts(lower: &str) -> Option<(String, Option<u64>, Option<u64>)> {
    Some(if let Some((prefix, rest)) = lower.split_once('[') {
        let inner = rest.strip_suffix(']')?;
        let (a, b) = inner.split_once(':').unwrap_or((inner, inner));
        (prefix.to_string(), parse_index(a), parse_index(b))
    } else {
        let digits = lower.trim_start_matches(|c: char| c.is_ascii_alphabetic() || c == '_');
        let prefix = &lower[..lower.len() - digits.len()];
        let n = parse_index(digits);
        (prefix.to_string(), n, n)
    })
}

/// What the setup of `kernel` puts in the registers `text` names, before the kernel's
/// first instruction: `` `s[4:5]` the kernel argument pointer``, ….
fn setup_contents(program: Program, kernel: &str, text: &str) -> Vec<String> {
    let Some((prefix, Some(first), Some(last))) = register_parts(&text.to_ascii_lowercase()) else {
        return Vec::new();
    };
    let vgpr = match prefix.as_str() {
        "s" => false,
        "v" => true,
        _ => return Vec::new(),
    };
    let assembly = &program.analysis.assembly;
    let Some(k) = assembly.kernels.iter().position(|n| n == kernel) else {
        return Vec::new();
    };
    let setups = assembly.kernel_setup();
    let Some(Some(setup)) = setups.get(k) else {
        return Vec::new();
    };
    setup
        .iter()
        .filter(|r| r.vgpr == vgpr)
        .filter(|r| u64::from(r.first) <= last && first < u64::from(r.first + r.count))
        .map(|r| {
            let name = match r.count {
                1 => format!("{prefix}{}", r.first),
                n => format!("{prefix}[{}:{}]", r.first, r.first + n - 1),
            };
            format!("`{name}` {}", r.what)
        })
        .collect()
}

fn parse_index(text: &str) -> Option<u64> {
    gcn_asm::literals::parse_int(text.trim()).ok()
}

/// A negative number the hovered token is part of: a literal right after a unary minus,
/// or that minus (`-1` is the inline constant -1, not 1): its range.
fn number_at(token: &SyntaxToken) -> Option<(TextRange, bool)> {
    let minus_of = |literal: &SyntaxNode| {
        literal.parent().filter(|p| {
            p.kind() == SyntaxKind::PREFIX_EXPR
                && p.first_token()
                    .is_some_and(|t| t.kind() == SyntaxKind::MINUS)
        })
    };
    match token.kind() {
        SyntaxKind::INT_NUMBER | SyntaxKind::FLOAT_NUMBER | SyntaxKind::CHAR => {
            let literal = token.parent().filter(|p| p.kind() == SyntaxKind::LITERAL)?;
            minus_of(&literal).map(|prefix| (prefix.text_range(), true))
        }
        SyntaxKind::MINUS => {
            negated_literal(token)?;
            Some((token.parent()?.text_range(), true))
        }
        _ => None,
    }
}

/// The literal a unary minus negates (`1` of `-1`).
fn negated_literal(minus: &SyntaxToken) -> Option<SyntaxToken> {
    let prefix = minus
        .parent()
        .filter(|p| p.kind() == SyntaxKind::PREFIX_EXPR)?;
    let literal = prefix
        .children()
        .next()
        .filter(|c| c.kind() == SyntaxKind::LITERAL)?;
    literal.first_token().filter(|t| {
        matches!(
            t.kind(),
            SyntaxKind::INT_NUMBER | SyntaxKind::FLOAT_NUMBER | SyntaxKind::CHAR
        )
    })
}

/// A numeric literal's value, negated when a minus comes before it.
fn number_hover(token: &SyntaxToken, negated: bool) -> Option<String> {
    let text = token.text();
    let sign = if negated { "-" } else { "" };
    let mut out = format!("**{sign}{text}**\n\n");
    match token.kind() {
        SyntaxKind::INT_NUMBER | SyntaxKind::CHAR => {
            let value = if token.kind() == SyntaxKind::CHAR {
                gcn_asm::literals::parse_char(text).ok()?
            } else {
                gcn_asm::literals::parse_int(text).ok()?
            };
            let value = if negated { value.wrapping_neg() } else { value };
            let signed = value as i64;
            if negated {
                writeln!(out, "- decimal: {signed}").unwrap();
                writeln!(
                    out,
                    "- hexadecimal: 0x{value:x} (as 32 bits: 0x{:x})",
                    value as u32
                )
                .unwrap();
            } else {
                writeln!(out, "- decimal: {value}").unwrap();
                if signed < 0 {
                    writeln!(out, "- signed: {signed}").unwrap();
                }
                writeln!(out, "- hexadecimal: 0x{value:x}").unwrap();
            }
            if (-16..=64).contains(&signed) {
                writeln!(
                    out,
                    "- an inline constant in instruction operands (no literal needed)"
                )
                .unwrap();
            }
        }
        _ => {
            let value = gcn_asm::literals::parse_float(text).ok()?;
            let value = if negated { -value } else { value };
            writeln!(out, "- float: {value}").unwrap();
            writeln!(
                out,
                "- as a 32-bit float: 0x{:08x}",
                (value as f32).to_bits()
            )
            .unwrap();
            writeln!(out, "- as a 64-bit float: 0x{:016x}", value.to_bits()).unwrap();
            if value.fract() == 0.0 && value.abs() < 1e18 {
                writeln!(
                    out,
                    "- integer value: {} (0x{:x})",
                    value as i64, value as i64
                )
                .unwrap();
            }
        }
    }
    Some(out)
}

/// A name the file defines.
fn name_hover(parse: &Parse, index: &FileIndex, name: &str) -> Option<String> {
    let def = index.find_definition(name)?;
    let what = match def.kind {
        DefinitionKind::Kernel => "kernel",
        DefinitionKind::Label => "label",
        DefinitionKind::Symbol => "symbol",
        DefinitionKind::Macro => "macro",
    };
    let text = parse.syntax_node().text().slice(def.range).to_string();
    let first_line = text.lines().next().unwrap_or("").trim();
    let mut out = format!("**{name}** — {what}\n\n```gcn\n{first_line}\n```\n");
    if let Some(detail) = def.detail {
        let label = if def.kind == DefinitionKind::Macro {
            "parameters"
        } else {
            "value"
        };
        write!(out, "\n{label}: `{detail}`\n").unwrap();
    }
    Some(out)
}

// ---- what the program's analysis adds ------------------------------------------------

/// The kernel whose code the line at `offset` belongs to: the last kernel label of the
/// file at or before it.
fn kernel_at<'a>(program: Program<'a>, offset: TextSize) -> Option<&'a KernelUsage> {
    let source = crate::analysis::normalize(program.file)
        == crate::analysis::normalize(&program.analysis.path);
    if !source {
        return None;
    }
    program
        .analysis
        .kernels
        .iter()
        .filter(|k| !k.range.is_empty() && k.range.start() <= offset)
        .max_by_key(|k| k.range.start())
}

/// A name the assembler resolved at `offset` (a register symbol, a name defined in an
/// include or passed to a macro, a scope, a local label), with what the assembly knows
/// of it. `None` where the assembler recorded no name (instruction names, pseudo-ops, …).
fn program_name_hover(
    program: Program,
    token: &SyntaxToken,
    offset: TextSize,
) -> Option<HoverResult> {
    if !matches!(
        token.kind(),
        SyntaxKind::NAME | SyntaxKind::LOCAL_LABEL_REF | SyntaxKind::INT_NUMBER
    ) {
        return None;
    }
    let analysis = program.analysis;
    let o = analysis.names.at(program.file, offset)?;
    let range = o.range;
    let mut out = String::new();
    let shown = if o.kind == gcn_asm::index::NameKind::LocalLabel {
        o.name.split('#').next().unwrap_or(&o.name)
    } else {
        &o.name
    };
    let definitions: Vec<&NameOccurrence> = analysis.names.definitions(o).collect();
    // A use of a label is recorded as a symbol: the definition tells what it is.
    let o = definitions.first().copied().unwrap_or(o);
    writeln!(out, "**{shown}** — {}", kind_word(o.kind)).unwrap();
    if let Some(first) = definitions.first() {
        let lines = if o.kind == gcn_asm::index::NameKind::Macro {
            6
        } else {
            1
        };
        if let Some(text) = definition_text(analysis, first, lines) {
            write!(out, "\n```gcn\n{text}\n```\n").unwrap();
        }
    }
    out.push('\n');
    if let Some(value) = symbol_value(analysis, o) {
        writeln!(out, "- {value}").unwrap();
    }
    if o.kind == gcn_asm::index::NameKind::Kernel || o.kind == gcn_asm::index::NameKind::Label {
        if let Some(k) = analysis.kernels.iter().find(|k| k.name == o.name) {
            writeln!(out, "- kernel registers: {}", k.label()).unwrap();
        }
    }
    match definitions.len() {
        0 => writeln!(out, "- not defined anywhere the assembler read").unwrap(),
        1 => writeln!(
            out,
            "- defined at {}",
            place(analysis, program.file, definitions[0])
        )
        .unwrap(),
        n => {
            let places: Vec<String> = definitions
                .iter()
                .take(4)
                .map(|d| place(analysis, program.file, d))
                .collect();
            let more = if n > 4 { ", …" } else { "" };
            writeln!(out, "- defined {n} times: {}{more}", places.join(", ")).unwrap();
        }
    }
    let uses = analysis
        .names
        .same_name(o)
        .filter(|x| !x.definition)
        .count();
    writeln!(
        out,
        "- used {uses} time{}",
        if uses == 1 { "" } else { "s" }
    )
    .unwrap();
    Some(HoverResult {
        range,
        markdown: out,
    })
}

fn kind_word(kind: gcn_asm::index::NameKind) -> &'static str {
    use gcn_asm::index::NameKind;
    match kind {
        NameKind::Label => "label",
        NameKind::Symbol => "symbol",
        NameKind::RegisterSymbol => "register symbol",
        NameKind::LocalLabel => "local label",
        NameKind::Macro => "macro",
        NameKind::Kernel => "kernel",
        NameKind::Scope => "scope",
    }
}

/// The first `lines` lines of a definition, from its line on (a macro: up to its end).
fn definition_text(analysis: &Analysis, d: &NameOccurrence, lines: usize) -> Option<String> {
    let text = analysis.file_text(&d.file)?;
    let start = usize::from(d.range.start());
    let line_start = text.get(..start)?.rfind('\n').map_or(0, |i| i + 1);
    let mut out = Vec::new();
    for line in text[line_start..].lines().take(lines) {
        out.push(line.trim_end());
        if line.trim_start().to_ascii_lowercase().starts_with(".endm") {
            break;
        }
    }
    if lines > 1 && out.len() == lines {
        out.push("…");
    }
    Some(out.join("\n"))
}

/// What the assembly gave the name: a value, a place in a section, registers.
fn symbol_value(analysis: &Analysis, o: &NameOccurrence) -> Option<String> {
    use gcn_asm::index::NameKind;
    if !matches!(
        o.kind,
        NameKind::Label | NameKind::Symbol | NameKind::RegisterSymbol | NameKind::Kernel
    ) {
        return None;
    }
    let symbol = analysis
        .assembly
        .symbols
        .iter()
        .rev()
        .find(|s| s.name == o.name)?;
    let value = symbol.value?;
    if symbol.register {
        return Some(format!("registers: `{}`", register_range(value)));
    }
    match symbol
        .section
        .and_then(|i| analysis.assembly.sections.get(i))
    {
        Some(section) => Some(format!("at `{}` + 0x{value:x} ({value})", section.name)),
        // Code whose place is fixed gives its labels absolute values.
        None if o.kind == NameKind::Label => Some(format!("address: 0x{value:x} ({value})")),
        None => Some(format!("value: {value} (0x{value:x})")),
    }
}

/// A register symbol's value (first register, and last + 1 above bit 32; VGPRs from
/// 256) as the registers it names.
fn register_range(value: i64) -> String {
    let first = (value & 0xffff_ffff) as u32;
    let last = ((value >> 32) as u32).saturating_sub(1).max(first);
    let (prefix, first, last) = if first >= 256 {
        ("v", first - 256, last - 256)
    } else {
        ("s", first, last)
    };
    if first == last {
        format!("{prefix}{first}")
    } else {
        format!("{prefix}[{first}:{last}]")
    }
}

/// `line N` in the hovered file, else `FILE:N` relative to the source's folder.
fn place(analysis: &Analysis, file: &Path, d: &NameOccurrence) -> String {
    // A byte count the compiler vectorizes: a long file's line is counted in well under a
    // millisecond.
    let line_of = |t: &str| {
        t.as_bytes()[..usize::from(d.range.start()).min(t.len())]
            .iter()
            .filter(|&&b| b == b'\n')
            .count()
    };
    let line = analysis.file_text(&d.file).map_or(0, line_of) + 1;
    if crate::analysis::normalize(file) == *d.file {
        return format!("line {line}");
    }
    let dir = analysis
        .path
        .parent()
        .map(crate::analysis::normalize)
        .unwrap_or_default();
    let shown = d.file.strip_prefix(&dir).unwrap_or(&d.file);
    format!("`{}:{line}`", shown.display())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::{check_dir, cursors};

    fn render(text: &str) -> String {
        let (text, offsets) = cursors(text);
        let parse = gcn_syntax::parse(&text);
        let mut out = String::new();
        write_hovers(&mut out, &text, &parse, &offsets, Generation::Gcn1_0, None);
        out
    }

    /// The hover at each cursor, or that there is none, with the cursor's line.
    fn write_hovers(
        out: &mut String,
        text: &str,
        parse: &Parse,
        offsets: &[TextSize],
        default: Generation,
        program: Option<Program>,
    ) {
        let index = FileIndex::new(parse);
        for &offset in offsets {
            let line = crate::test_util::line_of(text, offset);
            match hover(parse, &index, offset, default, program) {
                Some(h) => writeln!(
                    out,
                    "== line {line} {:?}\n{}",
                    &text[h.range],
                    h.markdown.trim_end()
                )
                .unwrap(),
                None => writeln!(out, "== line {line}: no hover").unwrap(),
            }
        }
    }

    #[test]
    fn snapshots() {
        check_dir("hover", render);
    }

    /// Completion shows a modifier's hover as its documentation: every modifier some
    /// instruction takes on some generation has one.
    #[test]
    fn every_modifier_taken_has_a_hover() {
        let mut missing = std::collections::BTreeSet::new();
        for row in gcn_isa::instructions() {
            for gen in Generation::ALL {
                for name in gcn_isa::encode::modifiers_of(row.mnemonic, gen) {
                    if modifier_hover(name).is_none() {
                        missing.insert(name);
                    }
                }
            }
        }
        assert!(missing.is_empty(), "no hover for {missing:?}");
    }

    /// Cases with the program's analysis (read from disk with their includes and the
    /// arguments of their first line).
    fn render_program(path: &Path, marked: &str) -> String {
        let (text, offsets) = cursors(marked);
        let analysis = crate::test_util::analyse_case(path, &text);
        let program = Program {
            analysis: &analysis,
            file: path,
        };
        let parse = &analysis.parse;
        let mut out = String::new();
        for d in analysis
            .diagnostics
            .iter()
            .filter(|d| d.severity == crate::Severity::Error)
        {
            writeln!(
                out,
                "error {}: {}",
                crate::test_util::range_text(&text, d.range),
                d.message
            )
            .unwrap();
        }
        write_hovers(
            &mut out,
            &text,
            parse,
            &offsets,
            Generation::Gcn1_2,
            Some(program),
        );
        out
    }

    #[test]
    fn program_snapshots() {
        crate::test_util::check_dir_files("hover_program", render_program);
    }
}
