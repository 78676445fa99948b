//! Registers per kernel, as the editor shows them: the core's counts
//! (`Assembly::kernel_reg_usage`, the numbers `gcnasm --emit reg-usage` prints), placed
//! at each kernel's label in the source, with the occupancy they allow, a short text for
//! inlay hints and status lines, and a warning where the source sets a count below what
//! the code uses.

use std::path::Path;

use gcn_asm::index::NameKind;
use gcn_asm::Assembly;
use gcn_isa::PseudoRole;
use gcn_syntax::{ast, ast::AstNode, Parse, SyntaxKind, TextRange};

use crate::analysis::normalize;
use crate::diagnostics::{Diagnostic, Fix, Severity};
use crate::symbol_index::SymbolIndex;

/// The registers of one kernel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KernelUsage {
    pub name: String,
    /// Where the kernel is in the source: its code's label (`NAME:`), else its
    /// `.kernel NAME`; empty at the start when neither is in the source.
    pub range: TextRange,
    /// Highest SGPR and VGPR the code writes, plus one.
    pub sgprs: u32,
    pub vgprs: u32,
    /// SGPRs that VCC, FLAT_SCRATCH and XNACK_MASK add.
    pub extra_sgprs: u32,
    /// The configuration's `.sgprsnum` / `.vgprsnum` in the format's terms.
    pub sgprsnum: u32,
    pub vgprsnum: u32,
    /// Whether `sgprsnum` counts VCC, FLAT_SCRATCH and XNACK_MASK.
    pub sgprsnum_with_extra: bool,
    /// Whether the source sets `.sgprsnum` / `.vgprsnum` itself.
    pub sgprsnum_given: bool,
    pub vgprsnum_given: bool,
    /// Waves per SIMD the counts allow.
    pub waves: u32,
}

impl KernelUsage {
    /// Every SGPR the kernel takes, VCC, FLAT_SCRATCH and XNACK_MASK included.
    pub fn total_sgprs(&self) -> u32 {
        if self.sgprsnum_with_extra {
            self.sgprsnum
        } else {
            self.sgprsnum + self.extra_sgprs
        }
    }

    /// `SGPR 16 · VGPR 24 · 10 waves`: the registers the kernel takes (every SGPR,
    /// special ones included) and its occupancy.
    pub fn label(&self) -> String {
        let waves = if self.waves == 1 { "wave" } else { "waves" };
        format!(
            "SGPR {} · VGPR {} · {} {waves}",
            self.total_sgprs(),
            self.vgprsnum,
            self.waves
        )
    }
}

/// The kernels of an assembly with their registers, placed in `source` by the names
/// the assembler recorded.
pub fn kernel_usage(assembly: &Assembly, names: &SymbolIndex, source: &Path) -> Vec<KernelUsage> {
    assembly
        .kernel_reg_usage()
        .into_iter()
        .map(|u| KernelUsage {
            range: kernel_range(names, source, &u.name).unwrap_or_default(),
            sgprs: u.sgprs,
            vgprs: u.vgprs,
            extra_sgprs: u.extra_sgprs,
            sgprsnum: u.sgprsnum,
            vgprsnum: u.vgprsnum,
            sgprsnum_with_extra: u.sgprsnum_with_extra,
            sgprsnum_given: u.sgprsnum_given,
            vgprsnum_given: u.vgprsnum_given,
            waves: u.waves,
            name: u.name,
        })
        .collect()
}

/// The name of the kernel's first code label in the source, else of its first
/// `.kernel` there.
fn kernel_range(names: &SymbolIndex, source: &Path, name: &str) -> Option<TextRange> {
    let source = normalize(source);
    let first = |kind: NameKind| {
        names
            .occurrences
            .iter()
            .find(|o| o.definition && o.kind == kind && o.name == name && *o.file == *source)
            .map(|o| o.range)
    };
    first(NameKind::Label).or_else(|| first(NameKind::Kernel))
}

/// A warning at the kernel for each count the source sets below what its code uses (an
/// editor's check: `gcnasm`, like the reference, writes the count it is given), and a
/// hint for each it sets so far above that it costs waves per SIMD (code
/// [`OCCUPANCY`](crate::diagnostics::OCCUPANCY)), with the fix that sets it to what
/// the code uses, where the source writes the count (`parse`). `waves` gives the waves
/// per SIMD that so many SGPRs (VCC, FLAT_SCRATCH and XNACK_MASK included) and VGPRs
/// allow on the source's GPU.
pub fn count_warnings(
    kernels: &[KernelUsage],
    parse: &Parse,
    waves: &dyn Fn(u32, u32) -> u32,
) -> Vec<Diagnostic> {
    // Read from the tree only when there is a warning: a walk of a long file's every node.
    let mut settings: Option<Vec<(String, String, TextRange)>> = None;
    let mut out = Vec::new();
    let mut warn = |k: &KernelUsage, pseudo_op: &str, used: u32, message: String, code| {
        let written = settings
            .get_or_insert_with(|| count_settings(parse))
            .iter()
            .rev()
            .find(|(kernel, op, _)| *kernel == k.name && op == pseudo_op);
        let fixes = written.map(|&(_, _, range)| Fix {
            title: format!("Set `{pseudo_op}` to {used}, what the code uses"),
            range,
            replacement: used.to_string(),
        });
        let severity = if code == crate::diagnostics::OCCUPANCY {
            Severity::Hint
        } else {
            Severity::Warning
        };
        out.push(Diagnostic {
            range: k.range,
            severity,
            message: format!("kernel `{}`: {message}", k.name),
            related: Vec::new(),
            code: Some(code),
            fixes: fixes.into_iter().collect(),
        })
    };
    let count = crate::diagnostics::REGISTER_COUNT;
    let occupancy = crate::diagnostics::OCCUPANCY;
    for k in kernels {
        let used_sgprs = if k.sgprsnum_with_extra {
            k.sgprs + k.extra_sgprs
        } else {
            k.sgprs
        };
        if k.sgprsnum_given && k.sgprsnum < used_sgprs {
            // This format's count includes VCC, FLAT_SCRATCH and XNACK_MASK: say so, as
            // the register usage shows them apart.
            let extra = if k.sgprsnum_with_extra && k.extra_sgprs > 0 {
                format!(
                    " ({} + {} for VCC, FLAT_SCRATCH, XNACK_MASK)",
                    k.sgprs, k.extra_sgprs
                )
            } else {
                String::new()
            };
            let message = format!(
                ".sgprsnum is {} but its code uses {used_sgprs} SGPRs{extra}",
                k.sgprsnum
            );
            warn(k, ".sgprsnum", used_sgprs, message, count);
        }
        if k.vgprsnum_given && k.vgprsnum < k.vgprs {
            let message = format!(
                ".vgprsnum is {} but its code uses {} VGPRs",
                k.vgprsnum, k.vgprs
            );
            warn(k, ".vgprsnum", k.vgprs, message, count);
        }
        // Each count alone: the waves it allows against those what the code uses allows.
        let sgprs_total = |n: u32| {
            if k.sgprsnum_with_extra {
                n
            } else {
                n + k.extra_sgprs
            }
        };
        let (by_sgprs, by_used_sgprs) = (
            waves(sgprs_total(k.sgprsnum), 0),
            waves(sgprs_total(used_sgprs), 0),
        );
        if k.sgprsnum_given && k.sgprsnum > used_sgprs && by_sgprs < by_used_sgprs {
            let message = format!(
                ".sgprsnum {} allows {by_sgprs} waves per SIMD, where the {used_sgprs} SGPRs its code uses would allow {by_used_sgprs}",
                k.sgprsnum
            );
            warn(k, ".sgprsnum", used_sgprs, message, occupancy);
        }
        let (by_vgprs, by_used_vgprs) = (waves(0, k.vgprsnum), waves(0, k.vgprs));
        if k.vgprsnum_given && k.vgprsnum > k.vgprs && by_vgprs < by_used_vgprs {
            let message = format!(
                ".vgprsnum {} allows {by_vgprs} waves per SIMD, where the {} VGPRs its code uses would allow {by_used_vgprs}",
                k.vgprsnum, k.vgprs
            );
            warn(k, ".vgprsnum", k.vgprs, message, occupancy);
        }
    }
    out
}

/// Where the file's own lines set a kernel's `.sgprsnum` or `.vgprsnum`: the kernel, the
/// pseudo-op (lower case) and its argument, in order. Statements in macro and repetition
/// bodies are left out (a fix there would change every expansion).
fn count_settings(parse: &Parse) -> Vec<(String, String, TextRange)> {
    let mut kernel: Option<String> = None;
    let mut out = Vec::new();
    let body = |op: &ast::PseudoOp| {
        op.syntax()
            .ancestors()
            .any(|n| matches!(n.kind(), SyntaxKind::MACRO_DEF | SyntaxKind::REPEAT))
    };
    for op in parse
        .syntax_node()
        .descendants()
        .filter_map(ast::PseudoOp::cast)
    {
        if body(&op) {
            continue;
        }
        let name = op.name().to_ascii_lowercase();
        let first_arg = op.args().next();
        match gcn_isa::pseudo_op(&name).map(|p| p.role) {
            Some(PseudoRole::Kernel) => {
                kernel = first_arg.map(|a| a.syntax().text().to_string().trim().to_string())
            }
            Some(PseudoRole::Leave) => kernel = None,
            _ if name == ".sgprsnum" || name == ".vgprsnum" => {
                if let (Some(k), Some(arg)) = (&kernel, first_arg) {
                    out.push((k.clone(), name, arg.syntax().text_range()));
                }
            }
            _ => {}
        }
    }
    out
}
