//! The kinds of tokens and nodes of a CLRX syntax tree.

/// Every token and node kind. Tokens come first, then nodes; `__LAST` closes the list.
#[allow(non_camel_case_types)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u16)]
pub enum SyntaxKind {
    // Trivia.
    WHITESPACE = 0,
    /// `# …` up to the end of the line, and over the next one after a `\` right before
    /// the line break (as the reference's line reader goes on with a comment).
    COMMENT,
    /// `/* … */` on one line, or over lines joined by a `\` before each line break.
    BLOCK_COMMENT,
    /// A `\` right before a line break: joins two physical lines into one.
    LINE_CONTINUATION,

    // Separators.
    NEWLINE,
    SEMICOLON,
    /// `/* … */` over a line break that no `\` joins: it ends the statement before it as
    /// the line break does, and what follows its `*/` starts a new one.
    MULTILINE_COMMENT,

    // Atoms.
    /// Symbol, label, mnemonic, pseudo-op or register name, with `.`, `_` and `::` paths.
    NAME,
    INT_NUMBER,
    FLOAT_NUMBER,
    /// A digit run that is no valid number (`1d`, `08`); the parser reports it where it
    /// expects a value, but modifier values such as `dim:2d` accept it.
    BAD_NUMBER,
    /// `1f` / `1b`: the next or previous local label `1`.
    LOCAL_LABEL_REF,
    STRING,
    CHAR,

    // Punctuation and operators.
    COMMA,
    COLON,
    L_PAREN,
    R_PAREN,
    L_BRACK,
    R_BRACK,
    EQ,
    PLUS,
    MINUS,
    STAR,
    SLASH,
    /// `//`: unsigned division (not a comment in CLRX).
    SLASH2,
    PERCENT,
    /// `%%`: unsigned remainder.
    PERCENT2,
    SHL,
    SHR,
    /// `>>>`: signed right shift.
    ASHR,
    AMP,
    PIPE,
    CARET,
    BANG,
    TILDE,
    AMP2,
    PIPE2,
    EQ2,
    /// `!=` or `<>`.
    NEQ,
    LT,
    LE,
    GT,
    GE,
    /// `<@`: unsigned less-than; likewise the three below.
    LT_AT,
    LE_AT,
    GT_AT,
    GE_AT,
    QUESTION,
    AT,
    /// `\`: macro argument substitution (`\x`, `\()`, `\@`) in macro and repetition bodies.
    BACKSLASH,
    /// Any character the lexer does not know, or an unterminated literal or comment.
    ERROR_TOKEN,
    /// End of input: seen by the parser, never in a tree.
    EOF,

    // Nodes.
    SOURCE_FILE,
    /// Input the parser could not fit into the grammar.
    ERROR,
    /// `name:` or local label `1:`.
    LABEL,
    /// `name = expr`.
    ASSIGNMENT,
    /// `.name args`.
    PSEUDO_OP,
    /// `mnemonic operands modifiers`.
    INSTRUCTION,
    /// A statement naming a macro defined earlier in the file.
    MACRO_CALL,
    /// `.macro … .endm`: header, body, end.
    MACRO_DEF,
    /// Lines of a macro or repetition body, kept as tokens until expansion.
    BODY,
    /// One statement's worth of tokens inside a [`BODY`](SyntaxKind::BODY).
    LINE,
    /// `.rept/.irp/.irpc/.for/.while … .endr`.
    REPEAT,
    /// `.if* … [.elseif* …] [.else …] .endif`.
    CONDITIONAL,
    /// One arm of a conditional: its `.if`/`.elseif`/`.else` pseudo-op and its statements.
    COND_BRANCH,
    /// Arguments of a pseudo-op or macro call.
    ARG_LIST,
    /// One comma-separated argument; may be empty (`.cws 8,,`).
    ARG,
    /// Operands (expression nodes) and modifiers of an instruction.
    OPERAND_LIST,
    /// `glc`, `offset:16`, `op_sel:[0,1]`, `bound_ctrl:0:expr`.
    MODIFIER,
    /// `align=8` or `x=1` inside pseudo-op arguments.
    KEY_VALUE,

    // Expressions.
    LITERAL,
    NAME_REF,
    PAREN_EXPR,
    PREFIX_EXPR,
    BIN_EXPR,
    /// `cond ? a : b`.
    TERNARY_EXPR,
    /// `name(args)`: `lit()`, `abs()`, `hwreg()`, `vmcnt()` and the like.
    CALL_EXPR,
    /// `|x|`.
    ABS_EXPR,
    /// `[a, b, …]`: MIMG address lists and list-valued modifiers.
    LIST_EXPR,
    /// `@expr`: forced expression (a register-like name is a symbol).
    AT_EXPR,
    /// `%v[0:3]`, `%s5`, `%1`: a register or constant as a symbol value.
    PERCENT_EXPR,
    /// A register: `s5`, `v[4:7]`, `vcc`, `ttmp[0:1]`, `exec_lo`.
    REGISTER,
    /// `name[i]` / `name[a:b]`: a range of a symbolic register.
    REG_INDEX,
    /// `[first:last]` or `[index]` after a register or symbolic register.
    REG_RANGE,

    #[doc(hidden)]
    __LAST,
}

use SyntaxKind::*;

impl SyntaxKind {
    /// Tokens the parser skips: they live in the tree but carry no grammar.
    pub fn is_trivia(self) -> bool {
        matches!(
            self,
            WHITESPACE | COMMENT | BLOCK_COMMENT | LINE_CONTINUATION
        )
    }

    /// Tokens that end a statement.
    pub fn is_statement_end(self) -> bool {
        matches!(self, NEWLINE | SEMICOLON | MULTILINE_COMMENT)
    }

    /// `#` and `/* */` comments, whether trivia or separators.
    pub fn is_comment(self) -> bool {
        matches!(self, COMMENT | BLOCK_COMMENT | MULTILINE_COMMENT)
    }

    pub fn is_token(self) -> bool {
        (self as u16) < (SOURCE_FILE as u16)
    }
}

impl From<SyntaxKind> for rowan::SyntaxKind {
    fn from(kind: SyntaxKind) -> Self {
        Self(kind as u16)
    }
}

/// The rowan language tag of CLRX source.
#[derive(Debug, Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ClrxLanguage {}

impl rowan::Language for ClrxLanguage {
    type Kind = SyntaxKind;
    fn kind_from_raw(raw: rowan::SyntaxKind) -> Self::Kind {
        assert!(raw.0 < __LAST as u16);
        // SAFETY: `SyntaxKind` is `repr(u16)` and the value was checked to be in range.
        unsafe { std::mem::transmute::<u16, SyntaxKind>(raw.0) }
    }
    fn kind_to_raw(kind: Self::Kind) -> rowan::SyntaxKind {
        kind.into()
    }
}

pub type SyntaxNode = rowan::SyntaxNode<ClrxLanguage>;
pub type SyntaxToken = rowan::SyntaxToken<ClrxLanguage>;
pub type SyntaxElement = rowan::SyntaxElement<ClrxLanguage>;
