//! Registers used by the code of each kernel, counted as the reference counts them.
//!
//! Every instruction reports the register ranges it reads and writes
//! ([`gcn_isa::encode::RegUse`]). What counts:
//!
//! - the SGPRs and VGPRs an instruction *writes*: the highest register plus one. A scalar
//!   range counts only when its last register is below the generation's addressable SGPR
//!   count, and the count stops two below it (the last two are VCC's);
//! - any use, read or write, of VCC, FLAT_SCRATCH or XNACK_MASK (a range starting at the
//!   register pair's code) marks the special register used; the extra SGPRs a kernel needs
//!   for them are [`gcn_isa::Generation::extra_sgprs`], VCC always included as in the
//!   reference's format writers. TTMP, EXEC, M0 and the source-only codes add nothing.
//!
//! Code is attributed to kernels by where it is: in the formats where each kernel has
//! its own code section (AMD, AMD OpenCL 2.0 with `.kernel`), by section; in the formats
//! with one code section (GalliumCompute, ROCm, the HSA layout), by the layout's code
//! regions: the code from a label named like a kernel up to the next kernel label, and
//! `.kcode` blocks ([`crate::Assembly::kernel_reg_usage`]).

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
        self.segments.push(Segment {
            section,
            start: offset,
            counts: Counts::default(),
        });
    }

    /// Records the registers of the instruction at `offset` of `section`.
    pub fn record(&mut self, gen: Generation, section: usize, offset: usize, regs: &[RegUse]) {
        if self.segments.last().is_none_or(|s| s.section != section) {
            self.segments.push(Segment {
                section,
                start: offset,
                counts: Counts::default(),
            });
        }
        let counts = &mut self.segments.last_mut().unwrap().counts;
        let addressable = gen.registers().addressable_sgprs;
        let code_of = |r: SpecialReg| gen.special_reg_code(r).map(u32::from);
        let (vcc, flat, xnack) = (
            code_of(SpecialReg::Vcc),
            code_of(SpecialReg::FlatScratch),
            code_of(SpecialReg::XnackMask),
        );
        for r in regs {
            let first = u32::from(r.range.first);
            let end = first + u32::from(r.range.count);
            match r.range.file {
                RegFile::Vgpr if r.write => counts.vgprs = counts.vgprs.max(end.min(256)),
                RegFile::Vgpr => {}
                RegFile::Sgpr => {
                    if r.write && end > 0 && end - 1 < addressable {
                        counts.sgprs = counts.sgprs.max(end.min(addressable - 2));
                    }
                    let pair = Some(first & !1);
                    counts.special.vcc |= pair == vcc;
                    counts.special.flat_scratch |= pair == flat;
                    counts.special.xnack_mask |= pair == xnack;
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
        RegUse {
            range: RegRange {
                file: RegFile::Sgpr,
                first,
                count,
            },
            write: true,
        }
    }

    #[test]
    fn special_registers_are_flags_not_sgprs() {
        let mut u = RegUsage::default();
        u.record(
            Generation::Gcn1_2,
            0,
            0,
            &[sgpr(4, 2), sgpr(106, 2), sgpr(126, 2)],
        );
        let vgprs = |first, write| RegUse {
            range: RegRange {
                file: RegFile::Vgpr,
                first,
                count: 2,
            },
            write,
        };
        u.record(
            Generation::Gcn1_2,
            0,
            4,
            &[vgprs(7, true), vgprs(20, false)],
        );
        u.record(
            Generation::Gcn1_2,
            0,
            8,
            &[RegUse {
                range: RegRange {
                    file: RegFile::Sgpr,
                    first: 30,
                    count: 1,
                },
                write: false,
            }],
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
