//! Registers used by the code of each kernel.
//!
//! Every instruction reports the register ranges it reads and writes
//! ([`gcn_isa::encode::RegUse`]). What counts, as in the reference:
//!
//! - SGPRs and VGPRs an instruction *writes*, and those it reads (a register read but
//!   never written is still part of the kernel's register file: the hardware loads
//!   kernel arguments into it), as the highest register number plus one;
//! - scalar ranges are operand codes: only codes below the generation's addressable
//!   SGPR count are SGPRs; VCC (106–107), FLAT_SCRATCH and XNACK_MASK (by generation)
//!   are recorded as used special registers, which add the generation's extra SGPRs
//!   ([`gcn_isa::Generation::extra_sgprs`]); TTMP, EXEC, M0 and the rest add nothing.
//!
//! Code is attributed to kernels by where it is: in the formats where each kernel has
//! its own code section (AMD, AMD OpenCL 2.0 with `.kernel`), by section; in the formats
//! with one code section (GalliumCompute, ROCm), by the kernel labels: the code from a
//! label named like a kernel up to the next kernel label belongs to that kernel.

use gcn_isa::encode::{RegFile, RegUse};
use gcn_isa::{Generation, SpecialReg, SpecialRegUse};

/// Registers used by a stretch of code.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Counts {
    /// Highest SGPR used plus one.
    pub sgprs: u32,
    /// Highest VGPR used plus one.
    pub vgprs: u32,
    pub special: SpecialRegUse,
}

impl Counts {
    pub fn merge(&mut self, other: &Counts) {
        self.sgprs = self.sgprs.max(other.sgprs);
        self.vgprs = self.vgprs.max(other.vgprs);
        self.special.vcc |= other.special.vcc;
        self.special.flat_scratch |= other.special.flat_scratch;
        self.special.xnack_mask |= other.special.xnack_mask;
    }
}

/// A stretch of code: from a label (or the start of a section) to the next one.
#[derive(Debug, Clone)]
pub struct Segment {
    pub section: usize,
    pub start: usize,
    pub counts: Counts,
}

/// Register usage of all code, by stretches between labels.
#[derive(Debug, Default, Clone)]
pub struct RegUsage {
    pub segments: Vec<Segment>,
}

impl RegUsage {
    /// Starts a new stretch of code (at a label in a code section).
    pub fn label(&mut self, section: usize, offset: usize) {
        if let Some(last) = self.segments.last() {
            if last.section == section && last.start == offset {
                return;
            }
        }
        self.segments.push(Segment { section, start: offset, counts: Counts::default() });
    }

    /// Records the registers of the instruction at `offset` of `section`.
    pub fn record(&mut self, gen: Generation, section: usize, offset: usize, regs: &[RegUse]) {
        if self.segments.last().is_none_or(|s| s.section != section) {
            self.segments.push(Segment { section, start: offset, counts: Counts::default() });
        }
        let counts = &mut self.segments.last_mut().unwrap().counts;
        let addressable = gen.registers().addressable_sgprs;
        let code_of = |r: SpecialReg| gen.special_reg_code(r).map(u32::from);
        let (vcc, flat, xnack) = (code_of(SpecialReg::Vcc), code_of(SpecialReg::FlatScratch), code_of(SpecialReg::XnackMask));
        for r in regs {
            let first = u32::from(r.range.first);
            let end = first + u32::from(r.range.count);
            match r.range.file {
                RegFile::Vgpr => counts.vgprs = counts.vgprs.max(end),
                RegFile::Sgpr => {
                    if first < addressable {
                        counts.sgprs = counts.sgprs.max(end.min(addressable));
                    }
                    let touches = |code: Option<u32>| code.is_some_and(|c| first < c + 2 && c < end);
                    counts.special.vcc |= touches(vcc);
                    counts.special.flat_scratch |= touches(flat);
                    counts.special.xnack_mask |= touches(xnack);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gcn_isa::encode::RegRange;

    fn sgpr(first: u16, count: u16) -> RegUse {
        RegUse { range: RegRange { file: RegFile::Sgpr, first, count }, write: true }
    }

    #[test]
    fn special_registers_are_flags_not_sgprs() {
        let mut u = RegUsage::default();
        u.record(Generation::Gcn1_2, 0, 0, &[sgpr(4, 2), sgpr(106, 2), sgpr(126, 2)]);
        u.record(
            Generation::Gcn1_2,
            0,
            4,
            &[RegUse { range: RegRange { file: RegFile::Vgpr, first: 7, count: 2 }, write: false }],
        );
        let c = u.segments[0].counts;
        assert_eq!((c.sgprs, c.vgprs), (6, 9));
        assert!(c.special.vcc && !c.special.flat_scratch);
        u.label(0, 8);
        u.record(Generation::Gcn1_2, 0, 8, &[sgpr(102, 2)]);
        assert!(u.segments[1].counts.special.flat_scratch);
        assert_eq!(u.segments[1].counts.sgprs, 0);
    }
}
