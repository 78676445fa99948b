//! Typed views over the untyped tree: `Instruction`, `PseudoOp`, `Expr`, …
//!
//! A wrapper is a [`SyntaxNode`] known to be of one kind; its accessors return `None`
//! where the source is incomplete, never panic.

use crate::{SyntaxKind, SyntaxKind::*, SyntaxNode, SyntaxToken};

pub trait AstNode: Sized {
    fn can_cast(kind: SyntaxKind) -> bool;
    fn cast(node: SyntaxNode) -> Option<Self>;
    fn syntax(&self) -> &SyntaxNode;
}

macro_rules! ast_node {
    ($(#[$doc:meta])* $name:ident, $kind:ident) => {
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash)]
        pub struct $name {
            pub(crate) syntax: SyntaxNode,
        }
        impl AstNode for $name {
            fn can_cast(kind: SyntaxKind) -> bool {
                kind == $kind
            }
            fn cast(node: SyntaxNode) -> Option<Self> {
                Self::can_cast(node.kind()).then(|| Self { syntax: node })
            }
            fn syntax(&self) -> &SyntaxNode {
                &self.syntax
            }
        }
    };
}

ast_node!(SourceFile, SOURCE_FILE);
ast_node!(/// `name:` or `1:`.
    Label, LABEL);
ast_node!(/// `name = expr`.
    Assignment, ASSIGNMENT);
ast_node!(PseudoOp, PSEUDO_OP);
ast_node!(Instruction, INSTRUCTION);
ast_node!(MacroCall, MACRO_CALL);
ast_node!(MacroDef, MACRO_DEF);
ast_node!(Repeat, REPEAT);
ast_node!(Conditional, CONDITIONAL);
ast_node!(CondBranch, COND_BRANCH);
ast_node!(Body, BODY);
ast_node!(Line, LINE);
ast_node!(ArgList, ARG_LIST);
ast_node!(Arg, ARG);
ast_node!(KeyValue, KEY_VALUE);
ast_node!(OperandList, OPERAND_LIST);
ast_node!(Modifier, MODIFIER);
ast_node!(Literal, LITERAL);
ast_node!(NameRef, NAME_REF);
ast_node!(ParenExpr, PAREN_EXPR);
ast_node!(PrefixExpr, PREFIX_EXPR);
ast_node!(BinExpr, BIN_EXPR);
ast_node!(TernaryExpr, TERNARY_EXPR);
ast_node!(CallExpr, CALL_EXPR);
ast_node!(AbsExpr, ABS_EXPR);
ast_node!(ListExpr, LIST_EXPR);
ast_node!(AtExpr, AT_EXPR);
ast_node!(PercentExpr, PERCENT_EXPR);
ast_node!(Register, REGISTER);
ast_node!(RegIndex, REG_INDEX);
ast_node!(RegRange, REG_RANGE);

// The helpers below look children up by kind in the green tree, so only the child
// returned gets a cursor node (each cursor node is an allocation): a lookup does not
// pay for the siblings it passes over.

/// Child nodes that cast to `N`, in order.
fn children<N: AstNode>(node: &SyntaxNode) -> impl Iterator<Item = N> {
    nodes_of_kind(node, N::can_cast).filter_map(N::cast)
}

/// Child nodes whose kind passes `matches`, in order.
fn nodes_of_kind(
    node: &SyntaxNode,
    matches: fn(SyntaxKind) -> bool,
) -> impl Iterator<Item = SyntaxNode> {
    let first = node.first_child_by_kind(&matches);
    std::iter::successors(first, move |n| n.next_sibling_by_kind(&matches))
}

/// The `n`th (from 0) child node whose kind passes `matches`.
fn nth_node_of_kind(
    node: &SyntaxNode,
    matches: fn(SyntaxKind) -> bool,
    n: usize,
) -> Option<SyntaxNode> {
    // The matcher sees the children in order, once each: it counts the matching ones
    // down, so the ones before the `n`th get no cursor node.
    let before = std::cell::Cell::new(n);
    node.first_child_by_kind(&|k| {
        if !matches(k) {
            return false;
        }
        let left = before.get();
        before.set(left.wrapping_sub(1));
        left == 0
    })
}

/// Whether `node` has a token of `kind` directly under it.
fn has_token(node: &SyntaxNode, kind: SyntaxKind) -> bool {
    let kind = rowan::SyntaxKind::from(kind);
    node.green().children().any(|c| c.kind() == kind)
}

fn child<N: AstNode>(node: &SyntaxNode) -> Option<N> {
    node.first_child_by_kind(&N::can_cast).and_then(N::cast)
}

fn first_token(node: &SyntaxNode, kind: SyntaxKind) -> Option<SyntaxToken> {
    // Node and token kinds differ, so the match is a token.
    node.first_child_or_token_by_kind(&|k| k == kind)?
        .into_token()
}

/// The first non-trivia token directly under `node`.
fn first_significant_token(node: &SyntaxNode) -> Option<SyntaxToken> {
    node.first_child_or_token_by_kind(&|k| k.is_token() && !k.is_trivia())?
        .into_token()
}

/// Any statement-level node.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Statement {
    Label(Label),
    Assignment(Assignment),
    PseudoOp(PseudoOp),
    Instruction(Instruction),
    MacroCall(MacroCall),
    MacroDef(MacroDef),
    Repeat(Repeat),
    Conditional(Conditional),
    /// A statement the parser could not make sense of.
    Error(SyntaxNode),
}

impl Statement {
    pub fn cast(node: SyntaxNode) -> Option<Self> {
        Some(match node.kind() {
            LABEL => Statement::Label(Label { syntax: node }),
            ASSIGNMENT => Statement::Assignment(Assignment { syntax: node }),
            PSEUDO_OP => Statement::PseudoOp(PseudoOp { syntax: node }),
            INSTRUCTION => Statement::Instruction(Instruction { syntax: node }),
            MACRO_CALL => Statement::MacroCall(MacroCall { syntax: node }),
            MACRO_DEF => Statement::MacroDef(MacroDef { syntax: node }),
            REPEAT => Statement::Repeat(Repeat { syntax: node }),
            CONDITIONAL => Statement::Conditional(Conditional { syntax: node }),
            ERROR => Statement::Error(node),
            _ => return None,
        })
    }

    pub fn syntax(&self) -> &SyntaxNode {
        match self {
            Statement::Label(n) => n.syntax(),
            Statement::Assignment(n) => n.syntax(),
            Statement::PseudoOp(n) => n.syntax(),
            Statement::Instruction(n) => n.syntax(),
            Statement::MacroCall(n) => n.syntax(),
            Statement::MacroDef(n) => n.syntax(),
            Statement::Repeat(n) => n.syntax(),
            Statement::Conditional(n) => n.syntax(),
            Statement::Error(n) => n,
        }
    }
}

impl SourceFile {
    /// Top-level statements, in order (blocks as single statements).
    pub fn statements(&self) -> impl Iterator<Item = Statement> {
        self.syntax.children().filter_map(Statement::cast)
    }

    /// The top-level instructions, in order.
    pub fn instructions(&self) -> impl Iterator<Item = Instruction> {
        self.statements().filter_map(|s| match s {
            Statement::Instruction(i) => Some(i),
            _ => None,
        })
    }
}

impl Label {
    pub fn name_token(&self) -> Option<SyntaxToken> {
        first_significant_token(&self.syntax)
    }
    pub fn name(&self) -> String {
        self.name_token()
            .map(|t| t.text().to_string())
            .unwrap_or_default()
    }
    /// A local label (`1:`), referenced as `1f` / `1b`.
    pub fn is_local(&self) -> bool {
        self.name_token().is_some_and(|t| t.kind() == INT_NUMBER)
    }
}

impl Assignment {
    pub fn name_token(&self) -> Option<SyntaxToken> {
        first_token(&self.syntax, NAME)
    }
    pub fn value(&self) -> Option<Expr> {
        sub_exprs(&self.syntax).next()
    }
}

impl PseudoOp {
    pub fn name_token(&self) -> Option<SyntaxToken> {
        first_token(&self.syntax, NAME)
    }
    /// The lowercase name, with its dot: `.int`.
    pub fn name(&self) -> String {
        self.name_token()
            .map(|t| t.text().to_ascii_lowercase())
            .unwrap_or_default()
    }
    pub fn args(&self) -> impl Iterator<Item = Arg> {
        child::<ArgList>(&self.syntax)
            .into_iter()
            .flat_map(|l| l.args())
    }
}

impl ArgList {
    pub fn args(&self) -> impl Iterator<Item = Arg> {
        children(&self.syntax)
    }
}

impl Arg {
    /// The argument's expression, when it has one (not for raw arguments).
    pub fn expr(&self) -> Option<Expr> {
        sub_exprs(&self.syntax).next()
    }
    pub fn key_values(&self) -> impl Iterator<Item = KeyValue> {
        children(&self.syntax)
    }
    /// The argument's text without surrounding trivia.
    pub fn text(&self) -> String {
        self.syntax.text().to_string().trim().to_string()
    }
    /// Non-trivia tokens of a raw argument, in order.
    pub fn raw_tokens(&self) -> impl Iterator<Item = SyntaxToken> {
        self.syntax
            .descendants_with_tokens()
            .filter_map(|e| e.into_token())
            .filter(|t| !t.kind().is_trivia())
    }
    pub fn is_empty(&self) -> bool {
        self.raw_tokens().next().is_none()
    }
}

impl KeyValue {
    pub fn key(&self) -> Option<SyntaxToken> {
        first_token(&self.syntax, NAME)
    }
    pub fn value(&self) -> Option<Expr> {
        sub_exprs(&self.syntax).next()
    }
}

impl Instruction {
    pub fn mnemonic_token(&self) -> Option<SyntaxToken> {
        first_token(&self.syntax, NAME)
    }
    /// The lowercase mnemonic.
    pub fn mnemonic(&self) -> String {
        self.mnemonic_token()
            .map(|t| t.text().to_ascii_lowercase())
            .unwrap_or_default()
    }
    pub fn operand_list(&self) -> Option<OperandList> {
        child(&self.syntax)
    }
    /// Operands and modifiers in source order.
    pub fn items(&self) -> impl Iterator<Item = OperandItem> {
        self.operand_list().into_iter().flat_map(|l| l.items())
    }
    pub fn operands(&self) -> impl Iterator<Item = Operand> {
        self.operand_list()
            .into_iter()
            .flat_map(|l| children(&l.syntax).collect::<Vec<_>>())
    }
    pub fn modifiers(&self) -> impl Iterator<Item = Modifier> {
        self.operand_list()
            .into_iter()
            .flat_map(|l| children(&l.syntax).collect::<Vec<_>>())
    }
}

/// An operand or a modifier of an instruction.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum OperandItem {
    Operand(Operand),
    Modifier(Modifier),
}

impl OperandList {
    pub fn items(&self) -> impl Iterator<Item = OperandItem> {
        self.syntax.children().filter_map(|n| match n.kind() {
            MODIFIER => Some(OperandItem::Modifier(Modifier { syntax: n })),
            _ => Operand::cast(n).map(OperandItem::Operand),
        })
    }
}

/// An instruction operand: an expression node directly under the operand list.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Operand {
    pub(crate) syntax: SyntaxNode,
}

impl AstNode for Operand {
    fn can_cast(kind: SyntaxKind) -> bool {
        is_expr_kind(kind)
    }
    fn cast(node: SyntaxNode) -> Option<Self> {
        Self::can_cast(node.kind()).then(|| Self { syntax: node })
    }
    fn syntax(&self) -> &SyntaxNode {
        &self.syntax
    }
}

impl Operand {
    pub fn expr(&self) -> Option<Expr> {
        Expr::cast(self.syntax.clone())
    }
}

fn is_expr_kind(kind: SyntaxKind) -> bool {
    matches!(
        kind,
        LITERAL
            | NAME_REF
            | PAREN_EXPR
            | PREFIX_EXPR
            | BIN_EXPR
            | TERNARY_EXPR
            | CALL_EXPR
            | ABS_EXPR
            | LIST_EXPR
            | AT_EXPR
            | PERCENT_EXPR
            | REGISTER
            | REG_INDEX
    )
}

impl Modifier {
    pub fn name_token(&self) -> Option<SyntaxToken> {
        first_token(&self.syntax, NAME)
    }
    /// The lowercase modifier name.
    pub fn name(&self) -> String {
        self.name_token()
            .map(|t| t.text().to_ascii_lowercase())
            .unwrap_or_default()
    }
    /// Values after each `:`; empty for a flag such as `glc`.
    pub fn values(&self) -> impl Iterator<Item = Expr> {
        sub_exprs(&self.syntax)
    }
}

impl MacroCall {
    pub fn name_token(&self) -> Option<SyntaxToken> {
        first_token(&self.syntax, NAME)
    }
    pub fn args(&self) -> impl Iterator<Item = Arg> {
        child::<ArgList>(&self.syntax)
            .into_iter()
            .flat_map(|l| l.args())
    }
}

impl MacroDef {
    pub fn header(&self) -> Option<PseudoOp> {
        child(&self.syntax)
    }
    /// The macro's name token, the first word after `.macro`.
    pub fn name_token(&self) -> Option<SyntaxToken> {
        self.header()?
            .args()
            .next()?
            .raw_tokens()
            .next()
            .filter(|t| t.kind() == NAME)
    }
    pub fn body(&self) -> Option<Body> {
        child(&self.syntax)
    }
    /// The closing `.endm`, if present.
    pub fn end(&self) -> Option<PseudoOp> {
        children(&self.syntax).nth(1)
    }
}

impl Repeat {
    pub fn header(&self) -> Option<PseudoOp> {
        child(&self.syntax)
    }
    pub fn body(&self) -> Option<Body> {
        child(&self.syntax)
    }
    pub fn end(&self) -> Option<PseudoOp> {
        children(&self.syntax).nth(1)
    }
}

impl Body {
    pub fn lines(&self) -> impl Iterator<Item = Line> {
        children(&self.syntax)
    }
}

impl Conditional {
    pub fn branches(&self) -> impl Iterator<Item = CondBranch> {
        children(&self.syntax)
    }
    pub fn end(&self) -> Option<PseudoOp> {
        child(&self.syntax)
    }
}

impl CondBranch {
    /// The `.if*`, `.elseif*` or `.else` that opens this branch.
    pub fn header(&self) -> Option<PseudoOp> {
        child(&self.syntax)
    }
    /// The branch's statements, after its header.
    pub fn statements(&self) -> impl Iterator<Item = Statement> {
        self.syntax.children().filter_map(Statement::cast).skip(1)
    }
}

/// Any expression (instruction operands included).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Expr {
    Literal(Literal),
    NameRef(NameRef),
    Paren(ParenExpr),
    Prefix(PrefixExpr),
    Bin(BinExpr),
    Ternary(TernaryExpr),
    Call(CallExpr),
    Abs(AbsExpr),
    List(ListExpr),
    At(AtExpr),
    Percent(PercentExpr),
    Register(Register),
    RegIndex(RegIndex),
}

impl Expr {
    pub fn cast(node: SyntaxNode) -> Option<Self> {
        Some(match node.kind() {
            LITERAL => Expr::Literal(Literal { syntax: node }),
            NAME_REF => Expr::NameRef(NameRef { syntax: node }),
            PAREN_EXPR => Expr::Paren(ParenExpr { syntax: node }),
            PREFIX_EXPR => Expr::Prefix(PrefixExpr { syntax: node }),
            BIN_EXPR => Expr::Bin(BinExpr { syntax: node }),
            TERNARY_EXPR => Expr::Ternary(TernaryExpr { syntax: node }),
            CALL_EXPR => Expr::Call(CallExpr { syntax: node }),
            ABS_EXPR => Expr::Abs(AbsExpr { syntax: node }),
            LIST_EXPR => Expr::List(ListExpr { syntax: node }),
            AT_EXPR => Expr::At(AtExpr { syntax: node }),
            PERCENT_EXPR => Expr::Percent(PercentExpr { syntax: node }),
            REGISTER => Expr::Register(Register { syntax: node }),
            REG_INDEX => Expr::RegIndex(RegIndex { syntax: node }),
            _ => return None,
        })
    }

    pub fn syntax(&self) -> &SyntaxNode {
        match self {
            Expr::Literal(n) => n.syntax(),
            Expr::NameRef(n) => n.syntax(),
            Expr::Paren(n) => n.syntax(),
            Expr::Prefix(n) => n.syntax(),
            Expr::Bin(n) => n.syntax(),
            Expr::Ternary(n) => n.syntax(),
            Expr::Call(n) => n.syntax(),
            Expr::Abs(n) => n.syntax(),
            Expr::List(n) => n.syntax(),
            Expr::At(n) => n.syntax(),
            Expr::Percent(n) => n.syntax(),
            Expr::Register(n) => n.syntax(),
            Expr::RegIndex(n) => n.syntax(),
        }
    }
}

fn sub_exprs(node: &SyntaxNode) -> impl Iterator<Item = Expr> {
    nodes_of_kind(node, is_expr_kind).filter_map(Expr::cast)
}

fn nth_sub_expr(node: &SyntaxNode, n: usize) -> Option<Expr> {
    nth_node_of_kind(node, is_expr_kind, n).and_then(Expr::cast)
}

/// The operator token of a prefix, binary or ternary expression.
fn operator(node: &SyntaxNode) -> Option<SyntaxToken> {
    first_significant_token(node)
}

impl Literal {
    pub fn token(&self) -> Option<SyntaxToken> {
        first_significant_token(&self.syntax)
    }
}

impl NameRef {
    pub fn name_token(&self) -> Option<SyntaxToken> {
        first_token(&self.syntax, NAME)
    }
}

impl ParenExpr {
    pub fn expr(&self) -> Option<Expr> {
        sub_exprs(&self.syntax).next()
    }
}

impl PrefixExpr {
    pub fn op(&self) -> Option<SyntaxToken> {
        operator(&self.syntax)
    }
    pub fn expr(&self) -> Option<Expr> {
        sub_exprs(&self.syntax).next()
    }
}

impl BinExpr {
    pub fn lhs(&self) -> Option<Expr> {
        sub_exprs(&self.syntax).next()
    }
    pub fn op(&self) -> Option<SyntaxToken> {
        operator(&self.syntax)
    }
    pub fn rhs(&self) -> Option<Expr> {
        nth_sub_expr(&self.syntax, 1)
    }
}

impl TernaryExpr {
    pub fn condition(&self) -> Option<Expr> {
        sub_exprs(&self.syntax).next()
    }
    pub fn then_expr(&self) -> Option<Expr> {
        nth_sub_expr(&self.syntax, 1)
    }
    pub fn else_expr(&self) -> Option<Expr> {
        nth_sub_expr(&self.syntax, 2)
    }
}

impl CallExpr {
    pub fn name_token(&self) -> Option<SyntaxToken> {
        first_token(&self.syntax, NAME)
    }
    pub fn args(&self) -> impl Iterator<Item = Expr> {
        sub_exprs(&self.syntax)
    }
}

impl AbsExpr {
    pub fn expr(&self) -> Option<Expr> {
        sub_exprs(&self.syntax).next()
    }
}

impl ListExpr {
    pub fn items(&self) -> impl Iterator<Item = Expr> {
        sub_exprs(&self.syntax)
    }
}

impl AtExpr {
    pub fn expr(&self) -> Option<Expr> {
        sub_exprs(&self.syntax).next()
    }
}

impl PercentExpr {
    pub fn expr(&self) -> Option<Expr> {
        sub_exprs(&self.syntax).next()
    }
}

impl Register {
    pub fn name_token(&self) -> Option<SyntaxToken> {
        first_token(&self.syntax, NAME)
    }
    pub fn range(&self) -> Option<RegRange> {
        child(&self.syntax)
    }
}

impl RegIndex {
    pub fn name_token(&self) -> Option<SyntaxToken> {
        first_token(&self.syntax, NAME)
    }
    pub fn range(&self) -> Option<RegRange> {
        child(&self.syntax)
    }
}

impl RegRange {
    pub fn first(&self) -> Option<Expr> {
        sub_exprs(&self.syntax).next()
    }
    /// The last register of `[first:last]`; `None` for `[index]`.
    pub fn last(&self) -> Option<Expr> {
        if !has_token(&self.syntax, COLON) {
            return None;
        }
        nth_sub_expr(&self.syntax, 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn first_expr(text: &str) -> Expr {
        let parse = crate::parse(text);
        parse
            .syntax_node()
            .descendants()
            .find_map(Expr::cast)
            .unwrap()
    }

    /// The lookups that count matching children down (`nth_sub_expr`) pick the right one.
    #[test]
    fn nth_sub_expressions() {
        let Expr::Ternary(t) = first_expr(".int 1 ? 2 : 3\n") else {
            panic!()
        };
        let texts: Vec<_> = [t.condition(), t.then_expr(), t.else_expr()]
            .map(|e| e.unwrap().syntax().to_string())
            .into();
        assert_eq!(texts, ["1", "2", "3"]);
        let Expr::Bin(b) = first_expr(".int 4 - 5\n") else {
            panic!()
        };
        assert_eq!(b.rhs().unwrap().syntax().to_string(), "5");
        let Expr::Register(r) = first_expr("s_mov_b64 s[6:7], 0\n") else {
            panic!()
        };
        let range = r.range().unwrap();
        assert_eq!(range.first().unwrap().syntax().to_string(), "6");
        assert_eq!(range.last().unwrap().syntax().to_string(), "7");
        let Expr::Register(r) = first_expr("s_mov_b32 s[6], 0\n") else {
            panic!()
        };
        assert!(r.range().unwrap().last().is_none());
        let Expr::Register(r) = first_expr("s_mov_b64 s[:7], 0\n") else {
            panic!()
        };
        assert!(
            r.range().unwrap().last().is_none(),
            "the second expression, as before: there is none"
        );
    }
}
