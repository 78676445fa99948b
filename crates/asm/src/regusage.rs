//! Registers used by the code of each kernel (and of the global layout).

use std::collections::HashMap;

use gcn_isa::encode::{RegFile, RegUse};

/// Highest SGPR and VGPR (plus one) each kernel's instructions touch.
#[derive(Debug, Default, Clone)]
pub struct RegUsage {
    pub kernels: HashMap<Option<usize>, Counts>,
}

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Counts {
    pub sgprs: u32,
    pub vgprs: u32,
}

impl RegUsage {
    pub fn record(&mut self, kernel: Option<usize>, regs: &[RegUse]) {
        let counts = self.kernels.entry(kernel).or_default();
        for r in regs {
            let end = u32::from(r.range.first) + u32::from(r.range.count);
            match r.range.file {
                RegFile::Sgpr => counts.sgprs = counts.sgprs.max(end),
                RegFile::Vgpr => counts.vgprs = counts.vgprs.max(end),
            }
        }
    }
}
