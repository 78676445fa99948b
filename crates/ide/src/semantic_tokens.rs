//! Semantic tokens: what each name, number, string and comment of a file is, from the
//! syntax tree (no assembling): instructions, pseudo-ops, registers, labels, symbols,
//! macros, numbers, strings, comments, modifiers and macro parameters.
//!
//! Macro and repetition bodies are raw lines until expanded; their tokens are classified
//! by their shape (a line's first name is an instruction when the table knows it, a
//! pseudo-op when it starts with `.`, else a macro; register names are registers).

use std::collections::HashSet;

use gcn_syntax::{Parse, SyntaxKind, SyntaxNode, SyntaxToken, TextRange};

/// The legend, in the order of [`SemanticTokenKind`]'s values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SemanticTokenKind {
    Instruction,
    PseudoOp,
    Register,
    Label,
    Symbol,
    Macro,
    Number,
    String,
    Comment,
    Modifier,
    /// A macro's parameter or a repetition's variable (`count` of `.macro m count`,
    /// `\count` in the body).
    Parameter,
}

impl SemanticTokenKind {
    pub const ALL: [SemanticTokenKind; 11] = [
        SemanticTokenKind::Instruction,
        SemanticTokenKind::PseudoOp,
        SemanticTokenKind::Register,
        SemanticTokenKind::Label,
        SemanticTokenKind::Symbol,
        SemanticTokenKind::Macro,
        SemanticTokenKind::Number,
        SemanticTokenKind::String,
        SemanticTokenKind::Comment,
        SemanticTokenKind::Modifier,
        SemanticTokenKind::Parameter,
    ];

    /// The name in the server's legend.
    pub const fn name(self) -> &'static str {
        match self {
            SemanticTokenKind::Instruction => "instruction",
            SemanticTokenKind::PseudoOp => "pseudoOp",
            SemanticTokenKind::Register => "register",
            SemanticTokenKind::Label => "label",
            SemanticTokenKind::Symbol => "symbol",
            SemanticTokenKind::Macro => "macro",
            SemanticTokenKind::Number => "number",
            SemanticTokenKind::String => "string",
            SemanticTokenKind::Comment => "comment",
            SemanticTokenKind::Modifier => "modifier",
            SemanticTokenKind::Parameter => "parameter",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SemanticToken {
    pub range: TextRange,
    pub kind: SemanticTokenKind,
}

/// The semantic tokens of the file, or of the part that `range` overlaps, in order.
pub fn semantic_tokens(parse: &Parse, range: Option<TextRange>) -> Vec<SemanticToken> {
    semantic_tokens_until(parse, range, &|| false).unwrap_or_default()
}

/// [`semantic_tokens`], given up (`None`) as soon as `cancelled` says so; it is asked
/// every few thousand tokens, so a request whose text has changed stops early.
///
/// One walk over the tree, in linear time: each token is classified from its parent and
/// its siblings, and whether it lies in a register (`s[4+1:7]`) is known from the walk,
/// not by climbing its ancestors (in `1 + 1 + … + 1` the first `1` is as deep as the
/// expression is long, so climbing made the whole walk quadratic).
pub fn semantic_tokens_until(
    parse: &Parse,
    range: Option<TextRange>,
    cancelled: &dyn Fn() -> bool,
) -> Option<Vec<SemanticToken>> {
    let root = parse.syntax_node();
    let range = range.unwrap_or(root.text_range());
    // The top-level elements the range overlaps, found by binary search (walking the
    // root's children from the start would cost milliseconds in a long file).
    let start =
        root.child_or_token_at_range(TextRange::empty(range.start()).cover_offset(range.start()));
    let first = start.or_else(|| root.first_child_or_token());
    let tops = std::iter::successors(first, |e| e.next_sibling_or_token()).take_while(|e| {
        range.is_empty() || e.text_range().start() < range.end() || e.text_range().is_empty()
    });
    let labels = label_names(parse);
    let mut out = Vec::new();
    let mut until_check = CANCEL_CHECK_EVERY;
    // How many `REGISTER` nodes the walk is in.
    let mut registers = 0u32;
    for event in tops.flat_map(|e| match e {
        rowan::NodeOrToken::Node(n) => Walk::Node(n.preorder_with_tokens()),
        t => Walk::Token(Some(rowan::WalkEvent::Enter(t))),
    }) {
        step();
        let token = match event {
            rowan::WalkEvent::Enter(rowan::NodeOrToken::Token(token)) => token,
            rowan::WalkEvent::Enter(rowan::NodeOrToken::Node(node)) => {
                registers += u32::from(node.kind() == SyntaxKind::REGISTER);
                continue;
            }
            rowan::WalkEvent::Leave(rowan::NodeOrToken::Node(node)) => {
                registers -= u32::from(node.kind() == SyntaxKind::REGISTER);
                continue;
            }
            rowan::WalkEvent::Leave(rowan::NodeOrToken::Token(_)) => continue,
        };
        until_check -= 1;
        if until_check == 0 {
            if cancelled() {
                return None;
            }
            until_check = CANCEL_CHECK_EVERY;
        }
        let token_range = token.text_range();
        if token_range.end() <= range.start()
            && !token_range.is_empty()
            && range.start() != token_range.start()
        {
            continue;
        }
        if token_range.start() >= range.end() && !range.is_empty() {
            break;
        }
        if let Some(kind) = classify(&token, registers > 0, &labels) {
            out.push(SemanticToken {
                range: token_range,
                kind,
            });
        }
    }
    Some(out)
}

/// Tokens walked between two questions to the `cancelled` of [`semantic_tokens_until`].
const CANCEL_CHECK_EVERY: u32 = 4096;

/// The walk of one top-level element: a node's preorder, or a lone token.
enum Walk {
    Node(rowan::api::PreorderWithTokens<gcn_syntax::ClrxLanguage>),
    Token(Option<rowan::WalkEvent<gcn_syntax::SyntaxElement>>),
}

impl Iterator for Walk {
    type Item = rowan::WalkEvent<gcn_syntax::SyntaxElement>;

    fn next(&mut self) -> Option<Self::Item> {
        match self {
            Walk::Node(walk) => walk.next(),
            Walk::Token(token) => token.take(),
        }
    }
}

#[cfg(test)]
thread_local! {
    /// Steps over the tree taken by this thread's semantic tokens (tests count them).
    static STEPS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// One step over the tree: an element walked or a sibling looked at.
#[inline(always)]
fn step() {
    #[cfg(test)]
    STEPS.with(|s| s.set(s.get() + 1));
}

fn is_head(token: &SyntaxToken, parent: &SyntaxNode) -> bool {
    parent
        .children_with_tokens()
        .inspect(|_| step())
        .filter_map(|e| e.into_token())
        .find(|t| !t.kind().is_trivia())
        .is_some_and(|t| &t == token)
}

/// The names the file defines as labels (`name:`, at top level or in a conditional's
/// branch, as [`crate::scan::definitions`] finds them on the green tree): a name used in
/// an operand is coloured as the label it names.
fn label_names(parse: &Parse) -> HashSet<String> {
    crate::scan::definitions(parse)
        .into_iter()
        .filter(|d| d.kind == crate::scan::DefinitionKind::Label)
        .map(|d| d.name)
        .collect()
}

/// Pseudo-ops whose arguments are names of their own (devices, architectures, formats,
/// dimensions, kernels, sections, argument kinds), not symbols: they get no semantic token, so the
/// editor keeps the colour its grammar gives them.
const NAME_ARGUMENT_PSEUDO_OPS: &[&str] = &[
    ".arch",
    ".arg",
    ".dims",
    ".fkernel",
    ".format",
    ".gpu",
    ".ifarch",
    ".iffmt",
    ".ifgpu",
    ".ifnarch",
    ".ifnfmt",
    ".ifngpu",
    ".kcode",
    ".kernel",
    ".section",
    ".use_grid_workgroup_count",
];

/// The name token of the pseudo-op whose argument `arg` (an `ARG` node) is.
fn pseudo_op_of(arg: &SyntaxNode) -> Option<SyntaxToken> {
    let op = arg.parent()?.parent()?;
    if op.kind() != SyntaxKind::PSEUDO_OP {
        return None;
    }
    op.children_with_tokens()
        .inspect(|_| step())
        .filter_map(|e| e.into_token())
        .find(|t| !t.kind().is_trivia())
}

/// Whether `arg` (an `ARG` node) is an argument of one of [`NAME_ARGUMENT_PSEUDO_OPS`].
fn is_name_argument(arg: &SyntaxNode) -> bool {
    pseudo_op_of(arg).is_some_and(|t| {
        NAME_ARGUMENT_PSEUDO_OPS
            .iter()
            .any(|n| t.text().eq_ignore_ascii_case(n))
    })
}

/// Whether `token`, a name in a `.macro` line past the macro's name, declares a
/// parameter rather than being a default or qualifier (`=value`, `:req`).
fn declares_a_parameter(token: &SyntaxToken) -> bool {
    let before = std::iter::successors(token.prev_token(), |t| t.prev_token())
        .inspect(|_| step())
        .find(|t| !t.kind().is_trivia());
    !before.is_some_and(|t| matches!(t.kind(), SyntaxKind::EQ | SyntaxKind::COLON))
}

/// Whether `arg`, the first argument of the pseudo-op `op`, names the variable of an
/// `.irp`/`.irpc` block.
fn is_repetition_variable(op: &SyntaxNode, arg: &SyntaxNode) -> bool {
    op.parent().is_some_and(|d| d.kind() == SyntaxKind::REPEAT)
        && pseudo_op_of(arg).is_some_and(|t| {
            t.text().eq_ignore_ascii_case(".irp") || t.text().eq_ignore_ascii_case(".irpc")
        })
}

/// `name` of `\name` in a body: a parameter's or variable's use.
fn is_parameter_use(token: &SyntaxToken) -> bool {
    token.prev_token().is_some_and(|t| {
        t.kind() == SyntaxKind::BACKSLASH && t.text_range().end() == token.text_range().start()
    })
}

/// What `token` is; `in_register` when it lies in a `REGISTER` node; `labels` are the
/// file's label names.
fn classify(
    token: &SyntaxToken,
    in_register: bool,
    labels: &HashSet<String>,
) -> Option<SemanticTokenKind> {
    use SemanticTokenKind as K;
    Some(match token.kind() {
        kind if kind.is_comment() => K::Comment,
        SyntaxKind::STRING | SyntaxKind::CHAR => K::String,
        SyntaxKind::INT_NUMBER | SyntaxKind::FLOAT_NUMBER | SyntaxKind::BAD_NUMBER => {
            if in_register {
                K::Register
            } else {
                K::Number
            }
        }
        SyntaxKind::LOCAL_LABEL_REF => K::Label,
        SyntaxKind::NAME => {
            let parent = token.parent()?;
            match parent.kind() {
                SyntaxKind::INSTRUCTION if is_head(token, &parent) => K::Instruction,
                SyntaxKind::PSEUDO_OP if is_head(token, &parent) => K::PseudoOp,
                SyntaxKind::LABEL => K::Label,
                SyntaxKind::ASSIGNMENT if is_head(token, &parent) => K::Symbol,
                SyntaxKind::REGISTER => K::Register,
                SyntaxKind::MODIFIER | SyntaxKind::KEY_VALUE => K::Modifier,
                SyntaxKind::CALL_EXPR => K::Modifier,
                SyntaxKind::MACRO_CALL if is_head(token, &parent) => K::Macro,
                SyntaxKind::NAME_REF => {
                    if parent
                        .parent()
                        .is_some_and(|arg| arg.kind() == SyntaxKind::ARG && is_name_argument(&arg))
                    {
                        return None;
                    }
                    // `hwreg(trapsts, …)`, `dst_sel:byte0`, `format:[32, float]`: no symbols.
                    if crate::hover::is_operand_name(token) {
                        return None;
                    }
                    if labels.contains(token.text()) {
                        K::Label
                    } else {
                        K::Symbol
                    }
                }
                SyntaxKind::ARG => {
                    // The name in `.macro NAME …`.
                    let op = parent.parent()?.parent()?;
                    let first_arg = is_head(token, &parent) && parent.prev_sibling().is_none();
                    let macro_def = op.kind() == SyntaxKind::PSEUDO_OP
                        && op
                            .parent()
                            .is_some_and(|d| d.kind() == SyntaxKind::MACRO_DEF);
                    let purgem = pseudo_op_of(&parent)
                        .is_some_and(|t| t.text().eq_ignore_ascii_case(".purgem"));
                    if first_arg && (macro_def || purgem) {
                        K::Macro
                    } else if (macro_def && declares_a_parameter(token))
                        || (first_arg && is_repetition_variable(&op, &parent))
                    {
                        K::Parameter
                    } else if is_name_argument(&parent) {
                        // `.arg NAME, "TYPE", …, globalbuf, f32`: names and kinds of a
                        // kernel argument, even `v30`.
                        return None;
                    } else if gcn_syntax::is_register_name(token.text(), false) {
                        K::Register
                    } else {
                        K::Symbol
                    }
                }
                SyntaxKind::LINE => {
                    if is_parameter_use(token) {
                        K::Parameter
                    } else if is_head(token, &parent) {
                        if token.text().starts_with('.') {
                            K::PseudoOp
                        } else if !gcn_isa::lookup(gcn_isa::split_suffix(token.text()).0).is_empty()
                        {
                            K::Instruction
                        } else {
                            K::Macro
                        }
                    } else if gcn_syntax::is_register_name(token.text(), false) {
                        K::Register
                    } else {
                        return None;
                    }
                }
                _ => return None,
            }
        }
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use std::fmt::Write;

    use super::*;
    use crate::test_util::check_dir;

    fn render(text: &str) -> String {
        let parse = gcn_syntax::parse(text);
        let mut out = String::new();
        for t in semantic_tokens(&parse, None) {
            writeln!(out, "{:?} {:?}", t.kind, &text[t.range]).unwrap();
        }
        out
    }

    #[test]
    fn snapshots() {
        check_dir("semantic_tokens", render);
    }

    /// The straightforward computation: every token of the tree, each classified on its
    /// own (climbing its ancestors for a register), kept when it overlaps `range` as
    /// [`semantic_tokens`] keeps it.
    fn reference(parse: &Parse, range: Option<TextRange>) -> Vec<SemanticToken> {
        let root = parse.syntax_node();
        let range = range.unwrap_or(root.text_range());
        let labels = label_names(parse);
        root.descendants_with_tokens()
            .filter_map(|e| e.into_token())
            .filter(|t| {
                let r = t.text_range();
                (r.end() > range.start() || r.is_empty() || r.start() == range.start())
                    && (range.is_empty() || r.start() < range.end())
            })
            .filter_map(|t| {
                let in_register = t
                    .parent_ancestors()
                    .any(|n| n.kind() == SyntaxKind::REGISTER);
                Some(SemanticToken {
                    range: t.text_range(),
                    kind: classify(&t, in_register, &labels)?,
                })
            })
            .collect()
    }

    fn steps_of(text: &str) -> usize {
        let parse = gcn_syntax::parse(text);
        STEPS.with(|s| s.set(0));
        semantic_tokens(&parse, None);
        STEPS.with(|s| s.get())
    }

    /// `x = 1 + 1 + … + 1` is a left-leaning tree as deep as the expression is long: the
    /// work must stay proportional to its length (it was quadratic: every number climbed
    /// to the root looking for a register).
    #[test]
    fn work_is_linear_in_a_long_expression() {
        let expr = |n: usize| format!("x = 1{}\n", " + 1".repeat(n - 1));
        let reg = |n: usize| format!("s_mov_b32 s[1{}:2], 0\n", " + 0".repeat(n - 1));
        for make in [expr, reg] {
            let (small, big) = (steps_of(&make(2_000)), steps_of(&make(8_000)));
            // Four times the terms: four times the steps (a quadratic walk makes it 16).
            assert!(
                big <= 4 * small + 100,
                "{small} steps for 2,000 terms, {big} for 8,000"
            );
            // And a few steps per term (each term is a number, an operator, two spaces and
            // its nodes).
            assert!(big <= 8_000 * 16, "{big} steps for 8,000 terms");
        }
    }

    /// The longest chain of operators the parser builds (10,000) is a tree as deep:
    /// parsing it, its tokens and freeing it fit a small stack (the labels' scan once
    /// collected an assignment's text recursively and overflowed the server's worker).
    #[test]
    fn the_deepest_expression_fits_a_small_stack() {
        let tokens = std::thread::Builder::new()
            .stack_size(1 << 20) // half a worker thread's
            .spawn(|| {
                let text = format!("x = 1{}\nl: s_branch l\n", " + 1".repeat(9_999));
                let parse = gcn_syntax::parse(&text);
                assert!(parse.errors().is_empty(), "{:?}", parse.errors().first());
                semantic_tokens(&parse, None).len()
            })
            .unwrap()
            .join()
            .expect("no stack overflow");
        assert_eq!(tokens, 1 + 10_000 + 3);
    }

    #[test]
    fn cancelled_gives_up() {
        let text = format!("x = 1{}\n", " + 1".repeat(20_000));
        let parse = gcn_syntax::parse(&text);
        let asked = std::cell::Cell::new(0);
        let result = semantic_tokens_until(&parse, None, &|| {
            asked.set(asked.get() + 1);
            asked.get() == 2
        });
        assert_eq!(result, None);
        assert_eq!(asked.get(), 2);
    }

    mod properties {
        use proptest::prelude::*;

        use super::*;

        /// Pieces of source with registers (expressions inside), long expressions,
        /// macros and their bodies, `.arg`, comments and strings.
        fn piece() -> impl Strategy<Value = &'static str> {
            prop::sample::select(vec![
                "\n",
                " ",
                ", ",
                "s_mov_b32 ",
                "v_add_f32 ",
                "v1",
                "s[2:3]",
                "s[1+x:4]",
                "v[(2*3)+1:9]",
                "x = ",
                "1",
                " + 1",
                " * (2",
                ")",
                "lbl:",
                "1b",
                "1f",
                ".int ",
                ".macro m, a\n",
                ".endm\n",
                ".rept 2\n",
                ".endr\n",
                "\\a",
                ".arg v30, \"uint\"",
                ".kernel k\n",
                ".config\n",
                "# c\n",
                "/* b */",
                "\"str\"",
                "'c'",
                "offset:4",
                "glc",
                "abs(v2)",
                "0x1f",
                "1.5",
                "vcc",
                "exec",
                "m ",
                "a::b",
            ])
        }

        proptest! {
            #[test]
            fn tokens_are_the_reference_ones(pieces in prop::collection::vec(piece(), 0..60), a in 0usize..400, b in 0usize..400) {
                let text: String = pieces.concat();
                let parse = gcn_syntax::parse(&text);
                prop_assert_eq!(semantic_tokens(&parse, None), reference(&parse, None));
                let len = text.len();
                let (a, b) = (a.min(len), b.min(len));
                let range = TextRange::new((a.min(b) as u32).into(), (a.max(b) as u32).into());
                if !range.is_empty() {
                    let part = semantic_tokens(&parse, Some(range));
                    let full = semantic_tokens(&parse, None);
                    let expected: Vec<_> = full.into_iter().filter(|t| t.range.end() > range.start() && t.range.start() < range.end()).collect();
                    prop_assert_eq!(part, expected);
                }
            }
        }
    }

    #[test]
    fn range_is_a_slice_of_full() {
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/test_data/semantic_tokens/kernel.s"
        ))
        .unwrap();
        let parse = gcn_syntax::parse(&text);
        let full = semantic_tokens(&parse, None);
        let range = TextRange::new(40.into(), 200.into());
        let part = semantic_tokens(&parse, Some(range));
        let expected: Vec<_> = full
            .into_iter()
            .filter(|t| t.range.end() > range.start() && t.range.start() < range.end())
            .collect();
        assert_eq!(part, expected);
    }
}
