//! The outline of a file: kernels, labels, macros and symbols.
//!
//! What is listed:
//! - a **kernel** for each `.kernel NAME`;
//! - a **label** for each `name:` (local labels such as `1:` are not listed);
//! - a **macro** for each `.macro NAME …` (`.endm`), with its parameters as detail;
//! - a **symbol** for each `name = expr` and `.set/.equ/.equiv/.eqv NAME, expr`, with its
//!   value as detail (`. = expr`, which moves the output counter, defines nothing).
//!
//! Statements inside `.if`/`.elseif`/`.else` branches are walked as if the branches were
//! not there (every branch is listed: which one the assembler takes is not known before
//! assembling). Macro and repetition bodies are raw text until expanded and are not
//! walked.
//!
//! **Hierarchy.** A `.kernel NAME` opens the kernel's scope: labels and symbols that follow
//! it are listed as the kernel's children, until the next `.kernel` or a pseudo-op that
//! goes back to global content. Which pseudo-ops do depends on the binary format:
//! (the pseudo-ops' roles come from gcn-isa's pseudo-op table, `data/pseudo_ops.txt`)
//! - always `.main` (the main binary) and `.globaldata` (AMD OpenCL 2.0 global data);
//! - in the formats whose code is shared by all kernels (ROCm, Gallium, raw code: after
//!   `.rocm`, `.gallium`, `.rawcode` or `.format rocm|gallium|rawcode`), also the section
//!   pseudo-ops `.text`, `.data`, `.rodata` and `.section`: there a kernel's
//!   scope is its configuration, and its code (usually starting at a label of the
//!   kernel's name) is global;
//! - in the AMD formats (the default, `.amd`, `.amdcl2`), `.text` after `.kernel` is the
//!   kernel's own code and stays in its scope.
//!
//! Everything else, macros included (they are always global), is listed at the top level.
//!
//! **Ranges.** A symbol's `focus_range` is its name; its `full_range` is the statement that
//! defines it (the label itself, the whole `.macro … .endm`), and for a kernel, from its
//! `.kernel` to the end of the last statement in its scope, so that every child is inside
//! its parent.

use gcn_isa::PseudoRole;
use gcn_syntax::ast::{AstNode, CondBranch, Label, MacroDef, PseudoOp, Statement};
use gcn_syntax::{Parse, SyntaxKind, SyntaxNode, SyntaxToken, TextRange};

/// What a [`DocumentSymbol`] names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SymbolKind {
    Kernel,
    Label,
    Macro,
    Symbol,
}

/// One entry of the outline.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct DocumentSymbol {
    pub name: String,
    pub kind: SymbolKind,
    /// Extra text to show beside the name: a symbol's value, a macro's parameters.
    pub detail: Option<String>,
    /// The whole definition; contains `focus_range` and every child's `full_range`.
    pub full_range: TextRange,
    /// The name in the definition.
    pub focus_range: TextRange,
    pub children: Vec<DocumentSymbol>,
}

/// The outline of a parsed file, in source order.
pub fn document_symbols(parse: &Parse) -> Vec<DocumentSymbol> {
    let mut outline = Outline::default();
    for statement in parse.tree().statements() {
        outline.statement(statement);
    }
    outline.finish()
}

#[derive(Default)]
struct Outline {
    top: Vec<DocumentSymbol>,
    /// The kernel whose scope we are in.
    kernel: Option<DocumentSymbol>,
    /// Whether the binary format's code sections are shared by all kernels.
    shared_code: bool,
}

/// Whether a format's code is shared by all kernels (`None`: not a format name).
fn has_shared_code(format: &str) -> Option<bool> {
    match format.to_ascii_lowercase().trim_start_matches('.') {
        "amd" | "catalyst" | "amdcl2" => Some(false),
        "rocm" | "amd3" | "gallium" | "rawcode" => Some(true),
        _ => None,
    }
}

impl Outline {
    fn statement(&mut self, statement: Statement) {
        match &statement {
            Statement::Label(label) => {
                if let Some(symbol) = label_symbol(label) {
                    self.push_scoped(symbol);
                }
            }
            Statement::Assignment(assignment) => {
                let node = assignment.syntax();
                let name = first_token(node).filter(|t| {
                    matches!(t.kind(), SyntaxKind::NAME | SyntaxKind::FLOAT_NUMBER)
                        && t.text() != "."
                });
                if let Some(name) = name {
                    let detail = assignment.value().map(|v| v.syntax().text().to_string());
                    self.push_scoped(symbol(SymbolKind::Symbol, &name, node, detail));
                }
            }
            Statement::PseudoOp(op) => {
                // What each pseudo-op does to the outline comes from gcn-isa's pseudo-op
                // table (its role), the one list the assembler and the editor share.
                let name = op.name().to_ascii_lowercase();
                let role = gcn_isa::pseudo_op(&name).map_or(PseudoRole::None, |p| p.role);
                match role {
                    PseudoRole::Kernel => {
                        self.close_kernel();
                        self.kernel = pseudo_op_name(op)
                            .map(|name| symbol(SymbolKind::Kernel, &name, op.syntax(), None));
                    }
                    PseudoRole::Leave => {
                        self.close_kernel();
                        return;
                    }
                    PseudoRole::Section if self.shared_code => {
                        self.close_kernel();
                        return;
                    }
                    PseudoRole::Format if name == ".format" => {
                        let format = op.args().next().map(|a| a.text()).unwrap_or_default();
                        self.shared_code = has_shared_code(&format).unwrap_or(self.shared_code);
                    }
                    PseudoRole::Format => {
                        self.shared_code = has_shared_code(&name).unwrap_or(self.shared_code);
                    }
                    PseudoRole::Define => {
                        if let Some(name) = pseudo_op_name(op) {
                            let detail =
                                op.args().nth(1).map(|a| a.text()).filter(|t| !t.is_empty());
                            self.push_scoped(symbol(
                                SymbolKind::Symbol,
                                &name,
                                op.syntax(),
                                detail,
                            ));
                        }
                    }
                    _ => {}
                }
            }
            Statement::MacroDef(def) => {
                if let Some(symbol) = macro_symbol(def) {
                    self.top.push(symbol);
                }
            }
            Statement::Conditional(conditional) => {
                for branch in conditional.branches() {
                    self.branch(&branch);
                }
            }
            Statement::Instruction(_)
            | Statement::MacroCall(_)
            | Statement::Repeat(_)
            | Statement::Error(_) => {}
        }
        if let Some(kernel) = &mut self.kernel {
            let end = statement.syntax().text_range().end();
            if end > kernel.full_range.end() {
                kernel.full_range = TextRange::new(kernel.full_range.start(), end);
            }
        }
    }

    fn branch(&mut self, branch: &CondBranch) {
        for statement in branch.statements() {
            self.statement(statement);
        }
    }

    /// A label or symbol: under the open kernel if there is one.
    fn push_scoped(&mut self, symbol: DocumentSymbol) {
        match &mut self.kernel {
            Some(kernel) => kernel.children.push(symbol),
            None => self.top.push(symbol),
        }
    }

    fn close_kernel(&mut self) {
        if let Some(kernel) = self.kernel.take() {
            self.top.push(kernel);
        }
    }

    fn finish(mut self) -> Vec<DocumentSymbol> {
        self.close_kernel();
        // Macros are pushed to the top level while a kernel is still open: restore order.
        self.top.sort_by_key(|s| s.full_range.start());
        self.top
    }
}

fn symbol(
    kind: SymbolKind,
    name: &SyntaxToken,
    node: &SyntaxNode,
    detail: Option<String>,
) -> DocumentSymbol {
    DocumentSymbol {
        name: name.text().to_string(),
        kind,
        detail,
        full_range: node.text_range(),
        focus_range: name.text_range(),
        children: Vec::new(),
    }
}

fn label_symbol(label: &Label) -> Option<DocumentSymbol> {
    if label.is_local() {
        return None;
    }
    let name = label.name_token()?;
    Some(symbol(SymbolKind::Label, &name, label.syntax(), None))
}

fn macro_symbol(def: &MacroDef) -> Option<DocumentSymbol> {
    let name = def.name_token()?;
    let header = def.header()?;
    let params_start = name.text_range().end();
    let params_end = header.syntax().text_range().end();
    let header_start = header.syntax().text_range().start();
    let header_text = header.syntax().text().to_string();
    let params = &header_text
        [usize::from(params_start - header_start)..usize::from(params_end - header_start)];
    let params = params.trim().trim_start_matches(',').trim();
    let detail = (!params.is_empty()).then(|| params.to_string());
    Some(symbol(SymbolKind::Macro, &name, def.syntax(), detail))
}

/// The name a pseudo-op defines: its first argument, when that is a single name.
fn pseudo_op_name(op: &PseudoOp) -> Option<SyntaxToken> {
    let arg = op.args().next()?;
    let mut tokens = arg.raw_tokens();
    let name = tokens.next()?;
    (name.kind() == SyntaxKind::NAME && tokens.next().is_none()).then_some(name)
}

fn first_token(node: &SyntaxNode) -> Option<SyntaxToken> {
    node.children_with_tokens()
        .filter_map(|e| e.into_token())
        .find(|t| !t.kind().is_trivia())
}

#[cfg(test)]
mod tests {
    use std::fmt::Write;

    use super::*;
    use crate::test_util::{check_dir, range_text};

    fn render(text: &str) -> String {
        fn go(text: &str, symbols: &[DocumentSymbol], depth: usize, out: &mut String) {
            for s in symbols {
                let indent = "  ".repeat(depth);
                let full = range_text(text, s.full_range);
                let full = full.split(' ').next().unwrap();
                write!(
                    out,
                    "{indent}{:?} {:?} {} focus {}",
                    s.kind,
                    s.name,
                    full,
                    range_text(text, s.focus_range)
                )
                .unwrap();
                if let Some(detail) = &s.detail {
                    write!(out, " detail {detail:?}").unwrap();
                }
                out.push('\n');
                assert!(
                    s.full_range.contains_range(s.focus_range),
                    "focus outside: {s:?}"
                );
                for child in &s.children {
                    assert!(
                        s.full_range.contains_range(child.full_range),
                        "child outside: {child:?}"
                    );
                }
                go(text, &s.children, depth + 1, out);
            }
        }
        let parse = gcn_syntax::parse(text);
        let mut out = String::new();
        go(text, &document_symbols(&parse), 0, &mut out);
        if out.is_empty() {
            out.push_str("no symbols\n");
        }
        out
    }

    #[test]
    fn snapshots() {
        check_dir("symbols", render);
    }
}
