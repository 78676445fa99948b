//! Relocations: a 32-bit word of code (an instruction's literal or a `.int`) whose value
//! points into a section placed by the loader — AMD OpenCL 2.0's global data, read-write
//! data and bss, GalliumCompute's scratch buffer.
//!
//! As in the reference, the value is an expression that evaluates to one such section
//! with coefficient 1 (`gdata+8`, `(gdata+21)*2-gdata`), optionally under a top-level
//! operator that selects a half: `&0xffffffff` or `%0x100000000` (low 32 bits, the
//! default), `>>32` or `/0x100000000` (high 32 bits). The word gets a placeholder
//! (0x55555555 for AMD OpenCL 2.0, 4 for GalliumCompute) and the writer emits the
//! relocation.

use gcn_syntax::TextRange;

use super::Relocation;
use crate::assembler::{Asm, Ctx, PendingTarget};
use crate::expr::{BinOp, Ir, Value};
use crate::layout::SectionKind;
use crate::options::BinaryFormat;

/// Whether values of this format can be relocated (an expression the core cannot give
/// a value to may still be a relocation: the encoder keeps a literal for it).
pub(crate) fn may_relocate(asm: &Asm) -> bool {
    matches!(asm.layout.format, BinaryFormat::AmdCl2 | BinaryFormat::Gallium)
}

/// Tries `ir` as a relocation of the 32-bit word (when `width32`) at `offset` of
/// `section`: `None` if it is not one (the caller reports its own error), the
/// placeholder to store once the relocation is recorded, or the reason it cannot be.
pub(crate) fn relocation(asm: &mut Asm, ir: &Ir, section: usize, offset: usize, width32: bool) -> Option<Result<i64, String>> {
    if !may_relocate(asm) {
        return None;
    }
    let eval = |asm: &Asm, ir: &Ir| {
        let symbols = &asm.symbols;
        ir.eval(&|s| symbols.value(s), &mut |_| {})
    };
    let relocatable = |asm: &Asm, v: &Value| match v {
        Value::Rel { section, .. } => !asm.layout.is_absolute_section(*section as usize),
        Value::Abs(_) => false,
    };
    let (value, high) = match ir {
        Ir::Binary(op @ (BinOp::And | BinOp::Rem | BinOp::URem | BinOp::Div | BinOp::UDiv | BinOp::Shr), a, b) => {
            let v = eval(asm, a).ok().filter(|v| relocatable(asm, v))?;
            let second = match eval(asm, b) {
                Ok(Value::Abs(x)) => x as u64,
                Ok(Value::Rel { .. }) => return Some(Err("the second argument of a relocation must be absolute".into())),
                Err(_) => return None,
            };
            let (high, good) = match op {
                BinOp::And => (false, second & 0xffff_ffff == 0xffff_ffff),
                BinOp::Rem | BinOp::URem => (false, second >> 32 != 0 && second & 0xffff_ffff == 0),
                BinOp::Div | BinOp::UDiv => (true, second == 1 << 32),
                _ => (true, second == 32),
            };
            if !good {
                return Some(Err("this expression cannot be a relocation".into()));
            }
            (v, high)
        }
        _ => (eval(asm, ir).ok().filter(|v| relocatable(asm, v))?, false),
    };
    let Value::Rel { section: target, offset: addend } = value else { return None };
    let target = target as usize;
    if !width32 {
        return Some(Err("a relocation needs a 32-bit value".into()));
    }
    if asm.layout.sections[section].kind != SectionKind::Code {
        return Some(Err("a relocation is possible only in code".into()));
    }
    let placeholder = match asm.layout.format {
        BinaryFormat::Gallium => {
            if asm.layout.sections[target].kind != SectionKind::Scratch {
                return Some(Err("the section of this expression must be the scratch buffer".into()));
            }
            if addend != 0 {
                return Some(Err("the expression must point to the start of the scratch buffer".into()));
            }
            4
        }
        _ => {
            if !matches!(asm.layout.sections[target].kind, SectionKind::Data | SectionKind::RwData | SectionKind::Bss) {
                return Some(Err("the section of this expression must be global data, read-write data or bss".into()));
            }
            0x5555_5555
        }
    };
    asm.layout.config.relocations.push(Relocation { section, offset, high, target, addend });
    Some(Ok(placeholder))
}

/// [`relocation`] for a fixup that could not be given a value.
pub(crate) fn pending_relocation(asm: &mut Asm, index: usize) -> Option<Result<i64, String>> {
    let p = &asm.pending[index];
    let (section, offset, width32) = match p.target {
        PendingTarget::Data { section, offset, size } => (section, offset, size == 4),
        PendingTarget::Field { section, offset, shift, bits, .. } => (section, offset, shift == 0 && bits == 32),
        _ => return None,
    };
    let ir = p.ir.clone();
    relocation(asm, &ir, section, offset, width32)
}

/// [`relocation`] for data written now (`.int` in code): the bytes to store, after
/// reporting why it cannot be a relocation if so; `None` if it is not one.
pub(crate) fn data_relocation(asm: &mut Asm, ctx: &Ctx, range: TextRange, ir: &Ir, size: usize) -> Option<[u8; 8]> {
    let (section, offset) = (asm.layout.current(), asm.layout.offset());
    match relocation(asm, ir, section, offset, size == 4)? {
        Ok(v) => Some(v.to_le_bytes()),
        Err(message) => {
            asm.error_at(ctx, range, message);
            Some([0; 8])
        }
    }
}
