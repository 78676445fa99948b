//! Encoding: one syntax-tree instruction to machine words.
//!
//! The assembler core hands an [`ast::Instruction`] and a [`Resolver`] that evaluates
//! expressions and symbolic registers; the encoder picks the table row, checks the
//! operands, and returns the words, the fixups for values not known yet (always encoded
//! as literals or zeroed fields, patched by the core once known) and the registers the
//! instruction touches (for register usage). Each encoding class has its own module.
//!
//! Ownership while the encoders are being written: `operands`, `scalar`, `memory` are
//! one engineer's; `vector` is another's. Keep edits to this file small.

mod memory;
pub mod operands;
mod scalar;
mod tree;
mod vector;

use gcn_syntax::{ast, TextRange};
use smallvec::SmallVec;

use crate::arch::{Device, Generation};

/// What the code is assembled for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Target {
    pub device: Device,
    pub gen: Generation,
    /// Wavefront of 32 lanes (GCN 1.5 with `-3` / `.wave32`): lane masks are one SGPR.
    pub wave32: bool,
    /// CLRX 0.1.2's float-literal rules (`--buggyFPLit`, `.buggyfplit`): see
    /// [`operands::FpRules`].
    pub buggy_fp_lit: bool,
}

impl Target {
    /// `device` with its generation, 64 lanes, the current float-literal rules.
    pub fn of_device(device: Device) -> Target {
        Target {
            device,
            gen: device.generation(),
            wave32: false,
            buggy_fp_lit: false,
        }
    }
}

/// A register file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RegFile {
    Sgpr,
    Vgpr,
}

/// A range of registers: `first..first+count` of one file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RegRange {
    pub file: RegFile,
    pub first: u16,
    pub count: u16,
}

/// The value of an expression, as far as the core knows it now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Value {
    /// Known and absolute.
    Known(i64),
    /// Depends on something not defined yet: encode a placeholder and add a [`Fixup`].
    Pending,
}

/// How the core evaluates what the encoder cannot: symbols, labels, register symbols.
pub trait Resolver {
    /// An absolute value, or `Pending`. `Err` is a message about `expr` (undefined
    /// forever, relative where absolute needed, …).
    fn eval(&mut self, expr: &ast::Expr) -> Result<Value, String>;
    /// A branch offset in dwords: `(target - (start of this instruction + 4)) / 4`.
    fn eval_branch(&mut self, expr: &ast::Expr) -> Result<Value, String>;
    /// The register range a symbol stands for (`x = %v[4:7]`, `.regvar`), if any.
    fn register_symbol(&mut self, name: &str) -> Option<RegRange>;
    /// Whether any symbol may stand for registers now. The encoder asks
    /// [`Resolver::register_symbol`] for every `s[…]`, `v[…]` and name operand (a
    /// symbol `s` wins over the register file); a resolver that knows cheaply that no
    /// register symbol exists answers `false` to spare those lookups.
    fn has_register_symbols(&self) -> bool {
        true
    }
    /// Where the error of the last [`eval`](Self::eval) or
    /// [`eval_branch`](Self::eval_branch) belongs when that is narrower than the
    /// expression (the operator of a division by zero); `None`: the whole expression.
    fn error_range(&mut self) -> Option<TextRange> {
        None
    }
    /// `.oldmodparam` / `--oldModParam`: a flag modifier's value (`glc:5`) is its lowest
    /// bit, as up to CLRX 0.1.5; otherwise any non-zero value sets the flag.
    fn old_mod_param(&self) -> bool {
        false
    }
}

/// A field to patch once `expr` is known: bits `shift..shift+bits` of word `word`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fixup {
    pub word: usize,
    pub shift: u8,
    pub bits: u8,
    /// Whether the field holds a signed value: the core keeps the bits below the sign
    /// bit of a positive value and all bits of a negative one, as clrxasm does (with a
    /// warning when the value does not fit); an unsigned field keeps its low `bits`.
    pub signed: bool,
    pub kind: FixupKind,
    pub expr: ast::Expr,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FixupKind {
    /// The expression's absolute value.
    Value,
    /// A branch offset, as [`Resolver::eval_branch`] computes it.
    Branch,
}

/// A value stored in a field of `bits` bits (at most 32), as clrxasm stores it: a signed
/// field keeps the bits below its sign bit of a positive value and all its bits of a
/// negative one; an unsigned field keeps its low bits (a negative value that fits as a
/// signed one is taken too). Returns the field's bits and, when the value does not fit,
/// the warning clrxasm gives. The encoder stores known values so, and the core patches
/// a [`Fixup`] so once its value is known.
pub fn fit_field(value: i64, bits: u8, signed: bool) -> (u32, Option<String>) {
    let bits = u32::from(bits).min(32);
    let (keep, fits) = if signed {
        let keep = if value >= 0 { bits - 1 } else { bits };
        (
            keep,
            bits >= 64 || (-(1i64 << (bits - 1))..(1i64 << (bits - 1))).contains(&value),
        )
    } else {
        (
            bits,
            (-(1i64 << (bits - 1))..(1i64 << bits)).contains(&value),
        )
    };
    let mask = if keep >= 32 {
        u32::MAX
    } else {
        (1u32 << keep) - 1
    };
    let warning = (!fits).then(|| truncation_message(value, keep));
    (value as u32 & mask, warning)
}

/// The part of an operand a message about its value points at: the expression after the
/// `@` of `@expr`, as clrxasm points, or the whole expression.
pub fn value_range(expr: &ast::Expr) -> TextRange {
    let node = expr.syntax();
    match node.kind() {
        gcn_syntax::SyntaxKind::AT_EXPR => node
            .children()
            .last()
            .map_or(node.text_range(), |inner| inner.text_range()),
        _ => node.text_range(),
    }
}

/// clrxasm's warning for a value cut to its low `bits` bits.
pub fn truncation_message(value: i64, bits: u32) -> String {
    let mask = if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    };
    format!(
        "value {:#x} truncated to {:#x}",
        value as u64,
        value as u64 & mask
    )
}

/// A register read or written by an instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RegUse {
    pub range: RegRange,
    pub write: bool,
}

/// An encoded instruction.
///
/// Words and register uses are stored inline (no allocation for the usual sizes: this
/// is built for every instruction assembled); both deref to slices.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Encoded {
    pub words: Words,
    pub fixups: Vec<Fixup>,
    pub regs: RegUses,
    /// What clrxasm warns about while it encodes (a value truncated to its field, a
    /// modifier given twice, …): the instruction is still encoded.
    pub warnings: Vec<EncodeWarning>,
    /// The table row the encoder used.
    pub row: Option<&'static crate::table::Instruction>,
}

/// An instruction's words: 1 or 2, and a literal.
pub type Words = SmallVec<[u32; 4]>;

/// The registers an instruction reads and writes.
pub type RegUses = SmallVec<[RegUse; 8]>;

/// An error about part of the instruction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EncodeError {
    pub range: TextRange,
    pub message: String,
    pub kind: EncodeErrorKind,
    /// Names to write instead of the text at `range` (the message says them too).
    pub suggestions: Vec<String>,
}

/// What the assembler may add to an [`EncodeError`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EncodeErrorKind {
    Other,
    /// The mnemonic (the error's range) is no instruction of any generation: the
    /// assembler looks for the names it may be a slip for (`crate::suggest`), macros
    /// included.
    UnknownMnemonic,
    /// Too few or too many operands: the message gets the instruction's syntax.
    OperandCount,
    /// A name (the error's range) where a scalar register must be: the assembler looks
    /// for the special registers and register symbols it may be a slip for.
    NotARegister,
    /// A literal (the error's range) where none can be: the assembler says so when its
    /// value was not known yet (a symbol defined later, or never), the reason the
    /// operand became a literal.
    Literal,
}

impl EncodeError {
    pub fn new(range: TextRange, message: impl Into<String>) -> Self {
        EncodeError {
            range,
            message: message.into(),
            kind: EncodeErrorKind::Other,
            suggestions: Vec::new(),
        }
    }

    /// An error about the literal at `range`.
    pub fn literal(range: TextRange, message: impl Into<String>) -> Self {
        EncodeError {
            kind: EncodeErrorKind::Literal,
            ..EncodeError::new(range, message)
        }
    }
}

/// A warning about part of an encoded instruction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EncodeWarning {
    pub range: TextRange,
    pub message: String,
}

/// Encodes `instr` for `target`.
/// The modifiers the instruction `mnemonic` (as written, a suffix included) takes on
/// `gen` (`offset`, `glc`, `row_mask`, …): those its encoder accepts after the
/// operands, and suggests among for an unknown one. For a VOP1, VOP2 or VOPC row these
/// include the SDWA and DPP ones where the generation has them. Empty for a mnemonic
/// the generation does not have.
pub fn modifiers_of(mnemonic: &str, gen: Generation) -> Vec<&'static str> {
    let Some(row) = row_of(mnemonic, gen) else {
        return Vec::new();
    };
    let mut names = modifiers_taken(row, gen);
    // A vector mnemonic's suffix fixes the encoding: the names of the others would be
    // refused (or, after `_sdwa`, ignored), so they are not offered.
    let lowercase = mnemonic.to_ascii_lowercase();
    if let (_, Some(suffix)) = crate::lookup::split_suffix(&lowercase) {
        if row.encoding.is_valu() {
            names.retain(|name| vector::fits_suffix(name, suffix, row, gen));
        }
    }
    names
}

/// The table row the encoder uses for `mnemonic` as written (any case, a suffix such
/// as `_e64` included) on `gen`: of a VOP1/VOP2/VOPC instruction that also has a
/// VOP3-only row, that row only with `_e64`. `None` when `gen` has no such instruction.
pub fn row_of(mnemonic: &str, gen: Generation) -> Option<&'static crate::table::Instruction> {
    scalar::row_of(&mnemonic.to_ascii_lowercase(), gen)
}

fn modifiers_taken(row: &crate::table::Instruction, gen: Generation) -> Vec<&'static str> {
    use crate::table::Encoding;
    match row.encoding {
        Encoding::Vop1
        | Encoding::Vop2
        | Encoding::Vopc
        | Encoding::Vop3
        | Encoding::Vop3p
        | Encoding::Vintrp => vector::modifiers_taken(row, gen),
        Encoding::Smem
        | Encoding::Smrd
        | Encoding::Sop1
        | Encoding::Sop2
        | Encoding::Sopc
        | Encoding::Sopk
        | Encoding::Sopp => scalar::modifiers_taken(row, gen),
        _ => memory::modifiers_taken(row, gen),
    }
}

pub fn encode_instruction(
    target: &Target,
    instr: &ast::Instruction,
    resolver: &mut dyn Resolver,
) -> Result<Encoded, Vec<EncodeError>> {
    scalar::dispatch(target, instr, resolver)
}
