//! Registers a kernel reads before anything writes them: a typo in a register number
//! (`v_add_f32 v5, v3, v7` where nothing ever set `v7`) computes with garbage. The
//! setup fills s0 and v0 up before a kernel's first instruction (its user SGPRs,
//! work-group ids and the rest, work-item ids: [`KernelEntry`]), and the wave starts
//! with EXEC set; from each kernel's
//! start the instructions are followed through the same blocks the wait check follows,
//! and a read of a numbered SGPR or a VGPR that no path from a start writes before it
//! is reported, once per register and section.
//!
//! Only what is certain is reported (a register written on some path may be written):
//! code no kernel's start is known to reach (a target of `s_setpc_b64`, a function)
//! takes every register as written, and so does code after an instruction that writes
//! registers through M0 or the GPR index (`s_movreld`, `v_movreld`, `s_set_gpr_idx_on`)
//! or calls a function (`s_swappc_b64`, `s_call_b64`). M0 is checked where an LDS
//! instruction reads it without naming it (GCN 1.0 to 1.2: the LDS size limit, which no
//! setup fills; GDS and `*_addtid_b32`: a size and base; a load into LDS: its LDS
//! address); reads through M0 are not checked, nor the VADDR of a buffer
//! instruction without `offen`, `idxen` or `addr64`,
//! which the hardware does not read. A move whose source nothing wrote is not reported
//! either, and leaves its destination as unwritten as it was: compilers copy undefined
//! values (a `phi` of `undef`), and a typo's garbage is reported where it is used.

use gcn_isa::encode::{RegFile, RegRange};
use gcn_isa::table::Encoding;
use gcn_isa::SpecialReg;

use super::{register_text, Block, Code, KernelEntry};
use crate::diag::{Diagnostic, Severity};

/// Numbered SGPRs (codes below 128) and VGPRs, one bit each.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Regs([u64; 6]);

impl Regs {
    const NONE: Regs = Regs([0; 6]);
    const ALL: Regs = Regs([u64::MAX; 6]);

    fn bit(file: RegFile, reg: u32) -> Option<usize> {
        match file {
            RegFile::Sgpr if reg < 128 => Some(reg as usize),
            RegFile::Vgpr if reg < 256 => Some(128 + reg as usize),
            _ => None,
        }
    }

    /// s0 up to `sgprs` and v0 up to `vgprs`, not included.
    fn first(sgprs: u32, vgprs: u32) -> Regs {
        let mut regs = Regs::NONE;
        for s in 0..sgprs.min(128) {
            regs.set(RegFile::Sgpr, s);
        }
        for v in 0..vgprs.min(256) {
            regs.set(RegFile::Vgpr, v);
        }
        regs
    }

    fn set(&mut self, file: RegFile, reg: u32) {
        if let Some(b) = Regs::bit(file, reg) {
            self.0[b / 64] |= 1 << (b % 64);
        }
    }

    fn has(&self, file: RegFile, reg: u32) -> bool {
        Regs::bit(file, reg).is_none_or(|b| self.0[b / 64] & (1 << (b % 64)) != 0)
    }

    fn add(&mut self, range: RegRange) {
        for r in range.first..range.first + range.count {
            self.set(range.file, u32::from(r));
        }
    }

    /// Grows to take `other` in; whether it grew.
    fn union(&mut self, other: &Regs) -> bool {
        let before = *self;
        for (a, b) in self.0.iter_mut().zip(other.0) {
            *a |= b;
        }
        *self != before
    }
}

impl Code<'_> {
    /// The reads in this section, cut into `blocks`, of registers that no path from
    /// one of `entries` writes before them.
    pub(super) fn uninitialized_reads(
        &self,
        blocks: &[Block],
        entries: &[KernelEntry],
        found: &mut Vec<Diagnostic>,
    ) {
        let starts = self.entry_blocks(blocks, entries);
        // A kernel whose first instruction starts no block (the code before it runs on
        // into it, or it has none) would be followed with another's setup: the section
        // is left alone.
        if starts.is_empty() || starts.iter().any(|&(b, _)| b == usize::MAX) {
            return;
        }
        let mut reached = vec![false; blocks.len()];
        for block in blocks {
            for &n in &block.next {
                reached[n] = true;
            }
        }
        // At each block's start: the registers some path there may have written. A
        // kernel's start has what its setup fills; other code no known path reaches
        // may be entered from anywhere.
        let mut ins: Vec<Option<Regs>> = vec![None; blocks.len()];
        // And which kernels' starts lead to each block (entries past 64 are not named).
        let mut kernels = vec![0u64; blocks.len()];
        for (i, &(block, regs)) in starts.iter().enumerate() {
            ins[block].get_or_insert(Regs::NONE).union(&regs);
            kernels[block] |= 1u64.checked_shl(i as u32).unwrap_or(0);
        }
        for (b, regs) in ins.iter_mut().enumerate() {
            if !reached[b] && regs.is_none() {
                *regs = Some(Regs::ALL);
            }
        }
        let mut queued: Vec<bool> = ins.iter().map(Option::is_some).collect();
        let mut work: Vec<usize> = (0..blocks.len()).filter(|&b| queued[b]).collect();
        while let Some(b) = work.pop() {
            queued[b] = false;
            let Some(mut regs) = ins[b] else { continue };
            // Which registers only copies filled is asked once the states settled.
            let mut copied = Regs::NONE;
            for step in blocks[b].steps.clone() {
                self.step_writes(step, &mut regs, &mut copied);
            }
            for &n in &blocks[b].next {
                let more_kernels = kernels[b] & !kernels[n] != 0;
                kernels[n] |= kernels[b];
                let grew = more_kernels
                    | match &mut ins[n] {
                        Some(into) => into.union(&regs),
                        slot => {
                            *slot = Some(regs);
                            true
                        }
                    };
                if grew && !queued[n] {
                    queued[n] = true;
                    work.push(n);
                }
            }
        }
        let copied_in = self.copied(blocks, &ins);
        let mut reported = Regs::NONE;
        for (b, block) in blocks.iter().enumerate() {
            let Some(mut regs) = ins[b] else { continue };
            let mut copied = copied_in[b];
            for step in block.steps.clone() {
                let missing = self
                    .unwritten_read(step, &regs)
                    .filter(|_| !self.copies_nothing(step, &regs));
                if let Some(missing) = missing {
                    if !reported.has(missing.file, u32::from(missing.first)) {
                        reported.add(missing);
                        let from = entries
                            .iter()
                            .enumerate()
                            .filter(|&(i, _)| i < 64 && kernels[b] & (1 << i) != 0)
                            .map(|(_, e)| e);
                        let only_copies = copied.has(missing.file, u32::from(missing.first));
                        found.push(self.uninitialized(step, missing, from, only_copies));
                    }
                }
                self.step_writes(step, &mut regs, &mut copied);
            }
        }
    }

    /// At each block's start, from the settled states `ins`: the registers a move of
    /// registers nothing wrote may have put a value in, on some path there.
    fn copied(&self, blocks: &[Block], ins: &[Option<Regs>]) -> Vec<Regs> {
        let mut copied_in = vec![Regs::NONE; blocks.len()];
        let mut queued: Vec<bool> = ins.iter().map(Option::is_some).collect();
        let mut work: Vec<usize> = (0..blocks.len()).filter(|&b| queued[b]).collect();
        while let Some(b) = work.pop() {
            queued[b] = false;
            let Some(mut regs) = ins[b] else { continue };
            let mut copied = copied_in[b];
            for step in blocks[b].steps.clone() {
                self.step_writes(step, &mut regs, &mut copied);
            }
            for &n in &blocks[b].next {
                if copied_in[n].union(&copied) && !queued[n] {
                    queued[n] = true;
                    work.push(n);
                }
            }
        }
        copied_in
    }

    /// The block each kernel starting here starts (its first instruction at or after
    /// the entry's offset, when a block starts there), with what its setup fills and
    /// EXEC.
    fn entry_blocks(&self, blocks: &[Block], entries: &[KernelEntry]) -> Vec<(usize, Regs)> {
        entries
            .iter()
            .map(|e| {
                let block = self.entry_block(blocks, e.offset);
                let mut regs = Regs::first(e.sgprs, e.vgprs);
                // The wave starts with EXEC set to its lanes: a copy of it holds a value.
                let exec = self.gen.special_reg_code(SpecialReg::Exec).unwrap_or(126);
                regs.add(RegRange {
                    file: RegFile::Sgpr,
                    first: exec,
                    count: 2,
                });
                (block.unwrap_or(usize::MAX), regs)
            })
            .collect()
    }

    /// What the instruction at `step` writes, added to `regs`; the destination of a
    /// move of registers nothing wrote is added to `copied` instead.
    fn step_writes(&self, step: usize, regs: &mut Regs, copied: &mut Regs) {
        if self.writes_unknown(step) {
            *regs = Regs::ALL;
            return;
        }
        let into = if self.copies_nothing(step, regs) {
            copied
        } else {
            regs
        };
        for r in self.program.writes(step) {
            into.add(r);
        }
    }

    /// Whether the instruction at `step` is a move whose source registers, numbered
    /// ones all, none of them in `regs`, hold nothing written.
    fn copies_nothing(&self, step: usize, regs: &Regs) -> bool {
        let row = self.program.steps[step].row;
        if !matches!(row.mnemonic, "v_mov_b32" | "s_mov_b32" | "s_mov_b64") {
            return false;
        }
        let mut reads = self
            .program
            .uses(step)
            .iter()
            .filter(|u| !u.write)
            .peekable();
        reads.peek().is_some()
            && reads.all(|u| {
                let r = u.range;
                (r.first..r.first + r.count).all(|x| {
                    Regs::bit(r.file, u32::from(x)).is_some() && !regs.has(r.file, u32::from(x))
                })
            })
    }

    /// Whether the instruction at `step` writes registers it does not name: through M0
    /// or the GPR index, or in a function it calls.
    fn writes_unknown(&self, step: usize) -> bool {
        let mnemonic = self.program.steps[step].row.mnemonic;
        mnemonic.starts_with("s_movrel")
            || mnemonic.starts_with("v_movrel")
            || mnemonic.starts_with("s_set_gpr_idx")
            || matches!(mnemonic, "s_swappc_b64" | "s_call_b64")
    }

    /// The first registers the instruction at `step` reads that `regs` does not hold.
    fn unwritten_read(&self, step: usize, regs: &Regs) -> Option<RegRange> {
        let row = self.program.steps[step].row;
        if row.mnemonic.starts_with("s_movrel") || row.mnemonic.starts_with("v_movrel") {
            return None;
        }
        let unread_vaddr = self.unread_vaddr(step);
        let m0 = self.m0_limit_read(step).map(|_| RegRange {
            file: RegFile::Sgpr,
            first: self.gen.special_reg_code(SpecialReg::M0).unwrap_or(124),
            count: 1,
        });
        let explicit = self
            .program
            .uses(step)
            .iter()
            .filter(|u| !u.write && Some(u.range) != unread_vaddr)
            .map(|u| u.range)
            .find_map(|r| {
                let sgprs = self.gen.registers().addressable_sgprs;
                if r.file == RegFile::Sgpr && u32::from(r.first) >= sgprs {
                    return None;
                }
                let missing =
                    (r.first..r.first + r.count).find(|&x| !regs.has(r.file, u32::from(x)))?;
                let end = (missing..r.first + r.count)
                    .find(|&x| regs.has(r.file, u32::from(x)))
                    .unwrap_or(r.first + r.count);
                Some(RegRange {
                    file: r.file,
                    first: missing,
                    count: end - missing,
                })
            });
        explicit.or_else(|| m0.filter(|m| !regs.has(m.file, u32::from(m.first))))
    }

    /// What M0 holds for the instruction at `step`, when it reads it without naming it:
    /// a vector memory load into LDS and `buffer_store_lds_dword` the LDS address; for
    /// an LDS instruction on GCN 1.0 to 1.2 every one that goes to memory keeps its addresses below
    /// M0 (the CLRX manual: set M0 to -1 for no limit; LLVM writes it before each);
    /// on every generation one that goes to GDS reads the GDS size and base from it
    /// (`ds_gws_*` the base of its resource), and from GCN 1.4 those that add the lane's
    /// id (`*_addtid_b32`) their base.
    fn m0_limit_read(&self, step: usize) -> Option<&'static str> {
        use gcn_isa::Generation::*;
        let row = self.program.steps[step].row;
        if self.loads_into_lds(step) || row.mnemonic == "buffer_store_lds_dword" {
            return Some("the LDS address");
        }
        if row.encoding != Encoding::Ds {
            return None;
        }
        match self.gen {
            _ if row.mnemonic.starts_with("ds_gws_") => Some("the base of its GWS resource"),
            _ if self.step_goes_to_gds(step) => Some("the GDS size and base"),
            Gcn1_0 | Gcn1_1 | Gcn1_2 => (!matches!(
                row.mnemonic,
                "ds_nop" | "ds_permute_b32" | "ds_bpermute_b32" | "ds_swizzle_b32"
            ))
            .then_some("the LDS size limit: `s_mov_b32 m0, -1` sets none"),
            _ => matches!(row.mnemonic, "ds_read_addtid_b32" | "ds_write_addtid_b32")
                .then_some("the base address"),
        }
    }

    /// The VADDR a buffer instruction names but does not read (no `offen`, `idxen` or
    /// `addr64`).
    fn unread_vaddr(&self, step: usize) -> Option<RegRange> {
        let row = self.program.steps[step].row;
        if !matches!(row.encoding, Encoding::Mubuf | Encoding::Mtbuf) {
            return None;
        }
        let (first, second) = (self.word(step, 0)?, self.word(step, 1)?);
        // OFFEN (12), IDXEN (13), ADDR64 (15, GCN 1.0 and 1.1).
        let addr64 = self.gen <= gcn_isa::Generation::Gcn1_1 && first & (1 << 15) != 0;
        if first & (3 << 12) != 0 || addr64 {
            return None;
        }
        let vaddr = (second & 0xff) as u16;
        self.program
            .uses(step)
            .iter()
            .find(|u| !u.write && u.range.file == RegFile::Vgpr && u.range.first == vaddr)
            .map(|u| u.range)
    }

    /// The warning on the read at `step` of `missing`, reached from the starts of the
    /// kernels `from`.
    fn uninitialized<'e>(
        &self,
        step: usize,
        missing: RegRange,
        from: impl Iterator<Item = &'e KernelEntry>,
        only_copies: bool,
    ) -> Diagnostic {
        let at = &self.program.steps[step];
        let from: Vec<&KernelEntry> = from.collect();
        let whose = match from[..] {
            [one] => format!(
                "kernel `{}`'s start writes it (its setup fills {})",
                one.kernel,
                setup_text(one)
            ),
            _ => "a kernel's start writes it".to_string(),
        };
        Diagnostic {
            severity: Severity::Warning,
            location: Some(at.at),
            len: at.len,
            message: format!(
                "`{}` is read by `{}`{} before anything writes it: no path from {whose}{}",
                register_text(self.gen, missing),
                at.row.mnemonic,
                self.m0_limit_read(step)
                    .filter(|_| missing.first
                        == self.gen.special_reg_code(SpecialReg::M0).unwrap_or(124))
                    .map(|what| format!(" (as {what})"))
                    .unwrap_or_default(),
                if only_copies {
                    "; only moves of registers nothing wrote put a value in it"
                } else {
                    ""
                },
            ),
            origin: at.origin.to_vec(),
            suggestions: Vec::new(),
            suggestion_at: None,
        }
    }
}

/// `s0–s9 and v0–v1`, `no register`, ….
fn setup_text(entry: &KernelEntry) -> String {
    let range = |prefix: &str, n: u32| match n {
        0 => None,
        1 => Some(format!("{prefix}0")),
        n => Some(format!("{prefix}0–{prefix}{}", n - 1)),
    };
    match (range("s", entry.sgprs), range("v", entry.vgprs)) {
        (Some(s), Some(v)) => format!("{s} and {v}"),
        (Some(one), None) | (None, Some(one)) => one,
        (None, None) => "no register".to_string(),
    }
}
