//! `gcn-isa`: what the AMD GCN instruction set is, as the CLRX assembler (`clrxasm`)
//! knows it, for an assembler and a language server.
//!
//! - [`arch`]: the generations ([`Generation`]: GCN 1.0 ... 1.5.1), the GPU devices
//!   ([`Device`]) and the names `-A`/`-g` accept, register limits and the operand codes
//!   of special registers per generation.
//! - [`table`]: the instruction table's types: a row ([`Instruction`]) is a mnemonic in
//!   one [`Encoding`] with its [`Operand`]s (an [`OperandKind`], a register count and a
//!   [`ValueType`]), its [`Flags`] and an opcode per generation.
//! - [`lookup`]: queries — rows of a mnemonic ([`lookup()`], [`lookup_on`]),
//!   completion ([`complete`]), encoding suffixes ([`split_suffix`]).
//!
//! - [`pseudo_ops`](mod@pseudo_ops): the pseudo-op table (generated from
//!   `data/pseudo_ops.txt`): formats, scope, syntax, default, description.
//!
//! - [`operand_names`]: the names operands take besides registers (`hwreg(trapsts, …)`,
//!   `sendmsg(gs, emit, …)`, the `s_waitcnt` counters, SDWA selections, MTBUF formats).
//!
//! - [`counterparts`]: the instructions generations name differently (`v_add_u32` →
//!   `v_add_co_u32`), for porting a kernel.
//! - [`suggest`]: "did you mean": the known names nearest to a misspelled one.
//!
//! - [`encode`]: from a syntax-tree instruction to machine words, per encoding class.
//!
//! The table is generated from `data/instructions.txt`, the source of truth, into
//! `src/generated/instructions.rs` by `tests/sourcegen.rs` (run `cargo test -p gcn-isa`;
//! the test rewrites a stale file and fails once).

pub mod arch;
pub mod counterparts;
pub mod encode;
pub mod lookup;
pub mod operand_names;
pub mod pseudo_ops;
pub mod suggest;
pub mod table;

#[rustfmt::skip]
mod generated {
    pub(crate) mod instructions;
    pub(crate) mod pseudo_ops;
}

pub use arch::{Device, Generation, RegisterLimits, SpecialReg, SpecialRegUse};
pub use lookup::{complete, generations_of, instructions, lookup, lookup_on, split_suffix, Suffix};
pub use pseudo_ops::{
    pseudo_op, pseudo_ops, Formats, PseudoOp, PseudoOpId, PseudoRole, PseudoScope,
};
pub use table::{Encoding, Flags, Instruction, Operand, OperandKind, ValueType};
