//! Fast scans of a file's top-level statements on the green tree (no rowan cursors, which
//! allocate per node): what hover and completion need to know about the rest of the file
//! (the GPU and binary format in effect at a position, whether it is inside a kernel or
//! its configuration, and the names the file defines) without building a node per
//! statement. A 100,000-line file is scanned in well under a millisecond.

use gcn_isa::{Device, Formats, Generation, PseudoRole, PseudoScope};
use gcn_syntax::{ClrxLanguage, Parse, SyntaxKind, TextRange, TextSize};
use rowan::{GreenNodeData, GreenTokenData, Language, NodeOrToken};

type Green<'a> = NodeOrToken<&'a GreenNodeData, &'a GreenTokenData>;

fn len(element: Green<'_>) -> TextSize {
    match element {
        NodeOrToken::Node(n) => n.text_len(),
        NodeOrToken::Token(t) => t.text_len(),
    }
}

/// The first non-trivia token of a node, depth first.
fn first_token(node: &GreenNodeData) -> Option<&GreenTokenData> {
    for child in node.children() {
        match child {
            NodeOrToken::Token(t) => {
                if !ClrxLanguage::kind_from_raw(t.kind()).is_trivia() {
                    return Some(t);
                }
            }
            NodeOrToken::Node(n) => {
                if let Some(t) = first_token(n) {
                    return Some(t);
                }
            }
        }
    }
    None
}

/// The first child node of a kind.
fn child_node(node: &GreenNodeData, want: SyntaxKind) -> Option<&GreenNodeData> {
    node.children().find_map(|c| match c {
        NodeOrToken::Node(n) if ClrxLanguage::kind_from_raw(n.kind()) == want => Some(n),
        _ => None,
    })
}

/// The text of the first argument of a pseudo-op, when it is one token.
fn first_arg_word(op: &GreenNodeData) -> Option<&str> {
    let args = child_node(op, SyntaxKind::ARG_LIST)?;
    let arg = child_node(args, SyntaxKind::ARG)?;
    first_token(arg).map(|t| t.text())
}

/// What is in effect at a position of a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Context {
    /// The generation of the last `.gpu`/`.arch` before the position, if any.
    pub generation: Option<Generation>,
    /// The binary format picked by the last `.amd`, `.rocm`, `.format …`, if any.
    pub format: Option<Formats>,
    /// After a `.kernel NAME` (and not back to global content).
    pub in_kernel: bool,
    /// Inside the open kernel's `.config`/`.hsaconfig`.
    pub in_config: bool,
}

impl Context {
    /// Whether a pseudo-op is valid here (by scope and binary format).
    pub fn allows(&self, op: &gcn_isa::PseudoOp, default_format: Formats) -> bool {
        let format = self.format.unwrap_or(default_format);
        let format_ok = op.is_general() || op.formats.contains(format) || format == Formats::ALL;
        let scope_ok = match op.scope {
            PseudoScope::Global => true,
            PseudoScope::Kernel => self.in_kernel,
            PseudoScope::Config => self.in_config,
        };
        format_ok && scope_ok
    }
}

/// The context at `offset`: the top-level statements that end before it, in order.
/// Walks the file up to `offset`; [`FileIndex::context_at`] answers from an index.
pub fn context_at(parse: &Parse, offset: TextSize) -> Context {
    let mut context = Context::default();
    let mut pos = TextSize::from(0);
    for child in parse.green().children() {
        let end = pos + len(child);
        if end > offset {
            break;
        }
        pos = end;
        if let NodeOrToken::Node(node) = child {
            step(&mut context, node);
        }
    }
    context
}

/// How a top-level statement changes the context; whether it did.
fn step(context: &mut Context, node: &GreenNodeData) -> bool {
    if ClrxLanguage::kind_from_raw(node.kind()) != SyntaxKind::PSEUDO_OP {
        return false;
    }
    let Some(name) = first_token(node) else {
        return false;
    };
    let lower = name.text().to_ascii_lowercase();
    let before = *context;
    match lower.as_str() {
        ".gpu" => {
            if let Some(device) = first_arg_word(node).and_then(Device::from_name) {
                context.generation = Some(device.generation());
            }
            return *context != before;
        }
        ".arch" => {
            if let Some(gen) = first_arg_word(node).and_then(Generation::from_arch_name) {
                context.generation = Some(gen);
            }
            return *context != before;
        }
        _ => {}
    }
    let Some(op) = gcn_isa::pseudo_op(&lower) else {
        return false;
    };
    match op.role {
        PseudoRole::Kernel => {
            context.in_kernel = true;
            context.in_config = false;
        }
        PseudoRole::Config => context.in_config = context.in_kernel,
        PseudoRole::Leave => {
            context.in_kernel = false;
            context.in_config = false;
        }
        PseudoRole::Section => {
            context.in_config = false;
            if context.format.is_some_and(shared_code) {
                context.in_kernel = false;
            }
        }
        PseudoRole::Format => {
            let format = if lower == ".format" {
                Formats::from_format_name(first_arg_word(node).unwrap_or(""))
            } else {
                Formats::from_format_pseudo_op(&lower)
            };
            if let Some(format) = format {
                context.format = Some(format);
            }
        }
        _ => {
            // Any other statement outside the configuration ends it.
            if op.scope != PseudoScope::Config {
                context.in_config = false;
            }
        }
    }
    *context != before
}

/// What per-request features need from the whole file, made in one walk per version of
/// it (the server keeps one per document revision): the context after each top-level
/// statement that changes it, and the names the file defines.
#[derive(Debug, Clone, Default)]
pub struct FileIndex {
    /// (end of the statement, context after it), in order.
    changes: Vec<(TextSize, Context)>,
    pub definitions: Vec<Definition>,
}

impl FileIndex {
    pub fn new(parse: &Parse) -> FileIndex {
        let mut index = FileIndex::default();
        let mut context = Context::default();
        let mut pos = TextSize::from(0);
        for child in parse.green().children() {
            let start = pos;
            pos += len(child);
            if let NodeOrToken::Node(node) = child {
                if step(&mut context, node) {
                    index.changes.push((pos, context));
                }
                definition(node, start, pos, &mut index.definitions);
            }
        }
        index
    }

    /// The context at `offset` (as [`context_at`]), by binary search.
    pub fn context_at(&self, offset: TextSize) -> Context {
        let i = self.changes.partition_point(|(end, _)| *end <= offset);
        if i == 0 {
            Context::default()
        } else {
            self.changes[i - 1].1
        }
    }

    /// The definition of `name`, as [`find_definition`].
    pub fn find_definition(&self, name: &str) -> Option<Definition> {
        pick_definition(self.definitions.iter().cloned(), name)
    }
}

/// Whether a format's code is shared by all kernels (ROCm, Gallium, raw code).
pub fn shared_code(format: Formats) -> bool {
    format == Formats::ROCM || format == Formats::GALLIUM || format == Formats(0x10)
}

/// What a [`Definition`] names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DefinitionKind {
    Kernel,
    Label,
    Symbol,
    Macro,
}

/// A name the file defines at top level (or in a conditional branch).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Definition {
    pub name: String,
    pub kind: DefinitionKind,
    /// A symbol's value, a macro's parameters.
    pub detail: Option<String>,
    /// The defining statement.
    pub range: TextRange,
}

/// Every kernel, label (not local ones), symbol and macro the file defines, in source
/// order: the names of the outline ([`crate::document_symbols()`]), found without cursors.
pub fn definitions(parse: &Parse) -> Vec<Definition> {
    let mut out = Vec::new();
    walk_definitions(parse.green(), TextSize::from(0), &mut out);
    out
}

fn walk_definitions(node: &GreenNodeData, start: TextSize, out: &mut Vec<Definition>) {
    let mut pos = start;
    for child in node.children() {
        let child_start = pos;
        pos += len(child);
        if let NodeOrToken::Node(n) = child {
            definition(n, child_start, pos, out);
        }
    }
}

/// The definitions a statement makes (those in a conditional's branches included).
fn definition(n: &GreenNodeData, start: TextSize, end: TextSize, out: &mut Vec<Definition>) {
    let range = TextRange::new(start, end);
    match ClrxLanguage::kind_from_raw(n.kind()) {
        SyntaxKind::LABEL => {
            if let Some(t) = first_token(n) {
                if ClrxLanguage::kind_from_raw(t.kind()) == SyntaxKind::NAME {
                    out.push(def(t.text(), DefinitionKind::Label, None, range));
                }
            }
        }
        SyntaxKind::ASSIGNMENT => {
            if let Some(t) = first_token(n).filter(|t| t.text() != ".") {
                let detail = text_after_eq(n);
                out.push(def(t.text(), DefinitionKind::Symbol, detail, range));
            }
        }
        SyntaxKind::PSEUDO_OP => {
            let Some(name) = first_token(n) else { return };
            let lower = name.text().to_ascii_lowercase();
            let kind = match lower.as_str() {
                ".kernel" => DefinitionKind::Kernel,
                ".set" | ".equ" | ".equiv" | ".eqv" => DefinitionKind::Symbol,
                _ => return,
            };
            if let Some(arg) = first_arg_word(n) {
                out.push(def(arg, kind, None, range));
            }
        }
        SyntaxKind::MACRO_DEF => {
            let Some(header) = child_node(n, SyntaxKind::PSEUDO_OP) else {
                return;
            };
            let Some(args) = child_node(header, SyntaxKind::ARG_LIST) else {
                return;
            };
            let mut text = String::new();
            collect_text(args, &mut text);
            let text = text.trim();
            let (name, params) = text
                .split_once(|c: char| c == ',' || c.is_whitespace())
                .unwrap_or((text, ""));
            let params = params.trim().trim_start_matches(',').trim();
            let detail = (!params.is_empty()).then(|| params.to_string());
            out.push(def(name, DefinitionKind::Macro, detail, range));
        }
        SyntaxKind::CONDITIONAL | SyntaxKind::COND_BRANCH => walk_definitions(n, start, out),
        _ => {}
    }
}

fn def(name: &str, kind: DefinitionKind, detail: Option<String>, range: TextRange) -> Definition {
    Definition {
        name: name.to_string(),
        kind,
        detail,
        range,
    }
}

/// The text of `node`, gathered with a stack of its own, not by recursion: an expression
/// of a hundred thousand terms is a tree as deep, too deep for a worker thread's stack.
fn collect_text(node: &GreenNodeData, out: &mut String) {
    let mut stack = vec![node.children()];
    while let Some(children) = stack.last_mut() {
        match children.next() {
            Some(NodeOrToken::Token(t)) => out.push_str(t.text()),
            Some(NodeOrToken::Node(n)) => stack.push(n.children()),
            None => {
                stack.pop();
            }
        }
    }
}

/// The text of an assignment after its `=`.
fn text_after_eq(node: &GreenNodeData) -> Option<String> {
    let mut seen_eq = false;
    let mut out = String::new();
    for child in node.children() {
        match child {
            NodeOrToken::Token(t) if !seen_eq => {
                seen_eq = ClrxLanguage::kind_from_raw(t.kind()) == SyntaxKind::EQ
            }
            NodeOrToken::Token(t) => out.push_str(t.text()),
            NodeOrToken::Node(n) if seen_eq => collect_text(n, &mut out),
            NodeOrToken::Node(_) => {}
        }
    }
    let out = out.trim().to_string();
    (!out.is_empty()).then_some(out)
}

/// The definitions of `name` (case-sensitive), found as [`definitions`] does.
pub fn find_definition(parse: &Parse, name: &str) -> Option<Definition> {
    pick_definition(definitions(parse).into_iter(), name)
}

fn pick_definition(defs: impl Iterator<Item = Definition>, name: &str) -> Option<Definition> {
    // Macro names ignore case unless `.nomacrocase` (or `-m`) says otherwise. A kernel's
    // code usually starts at a label of its name: the label is the definition.
    let mut found: Option<Definition> = None;
    for d in defs {
        if d.name == name || (d.kind == DefinitionKind::Macro && d.name.eq_ignore_ascii_case(name))
        {
            if d.kind != DefinitionKind::Kernel {
                return Some(d);
            }
            found.get_or_insert(d);
        }
    }
    found
}

/// The token at `offset`, as rowan's `token_at_offset`, but finding the top-level
/// statement by binary search (rowan scans the root's children one by one, which costs
/// milliseconds in a long file).
pub fn token_at_offset(
    root: &gcn_syntax::SyntaxNode,
    offset: TextSize,
) -> rowan::TokenAtOffset<gcn_syntax::SyntaxToken> {
    use rowan::TokenAtOffset;
    let end = root.text_range().end();
    if offset > end || end == TextSize::from(0) {
        return TokenAtOffset::None;
    }
    let one = TextSize::from(1);
    let left = (offset > TextSize::from(0))
        .then(|| root.child_or_token_at_range(TextRange::new(offset - one, offset)))
        .flatten()
        .and_then(|e| element_token(e, offset, true));
    let right = (offset < end)
        .then(|| root.child_or_token_at_range(TextRange::new(offset, offset + one)))
        .flatten()
        .and_then(|e| element_token(e, offset, false));
    match (left, right) {
        (Some(l), Some(r)) if l == r => TokenAtOffset::Single(l),
        (Some(l), Some(r)) => TokenAtOffset::Between(l, r),
        (Some(t), None) | (None, Some(t)) => TokenAtOffset::Single(t),
        (None, None) => TokenAtOffset::None,
    }
}

fn element_token(
    element: gcn_syntax::SyntaxElement,
    offset: TextSize,
    left: bool,
) -> Option<gcn_syntax::SyntaxToken> {
    match element {
        NodeOrToken::Token(t) => Some(t),
        NodeOrToken::Node(n) => {
            let at = n.token_at_offset(offset);
            if left {
                at.left_biased()
            } else {
                at.right_biased()
            }
        }
    }
}

/// The pseudo-op formats of an assembler binary format (raw code: none of them).
pub fn formats_of(format: gcn_asm::BinaryFormat) -> Formats {
    match format {
        gcn_asm::BinaryFormat::Amd => Formats::AMD,
        gcn_asm::BinaryFormat::AmdCl2 => Formats::AMDCL2,
        gcn_asm::BinaryFormat::Gallium => Formats::GALLIUM,
        gcn_asm::BinaryFormat::Rocm => Formats::ROCM,
        gcn_asm::BinaryFormat::Rawcode => Formats(0x10),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXTS: &[&str] = &[
        "",
        ".gpu Tonga\n.rocm\n.kernel k\n  .config\n  .dims x\n.text\nk: s_endpgm\n",
        ".if 1\nlbl: .int 1\n.endif\n.arch GCN1.4\nx = 3 ; .set y, 4\n.macro m a\n.endm\n  \n",
        "a:b:  v_add_f32 v1, v2, v3 # c\r\n/* x\n y */ .amdcl2\n.kernel q\n.config\n.main\n",
    ];

    #[test]
    fn token_at_offset_is_rowans() {
        for text in TEXTS {
            let parse = gcn_syntax::parse(text);
            let root = parse.syntax_node();
            for offset in 0..=text.len() as u32 {
                let offset = TextSize::from(offset);
                let ours: Vec<_> = token_at_offset(&root, offset).collect();
                let theirs: Vec<_> = root.token_at_offset(offset).collect();
                assert_eq!(ours, theirs, "{text:?} @ {offset:?}");
            }
        }
    }

    #[test]
    fn index_answers_as_the_walk() {
        for text in TEXTS {
            let parse = gcn_syntax::parse(text);
            let index = FileIndex::new(&parse);
            assert_eq!(index.definitions, definitions(&parse));
            for offset in 0..=text.len() as u32 {
                let offset = TextSize::from(offset);
                assert_eq!(
                    index.context_at(offset),
                    context_at(&parse, offset),
                    "{text:?} @ {offset:?}"
                );
            }
        }
    }
}
