//! GCN 1.5's own hazards: GFX10.1 checks most dependencies in hardware, yet a few
//! sequences need an instruction between them that the program must write. The rules
//! (as LLVM's hazard recognizer and Mesa's ACO apply them), each with what mitigates it
//! and the fix offered:
//!
//! - an SALU or SMEM instruction writing an SGPR a VMEM, FLAT or LDS instruction before
//!   it reads: a VALU instruction, a wait that says the reader is done (a counter it
//!   counts in at 0, as Mesa's ACO has it; LLVM takes `s_waitcnt 0` only) or a
//!   `s_waitcnt_decptr` whose VM_VSRC is 0 in between (fix: `s_waitcnt_decptr 0xffe3`);
//! - a VALU instruction writing an SGPR an SMEM instruction before it reads: an SALU
//!   instruction (not a program-control one, nor a wait on other counters) or a wait for
//!   `lgkmcnt(0)` in between (fix: `s_mov_b32 null, 0`);
//! - a VALU instruction writing EXEC after a non-VALU instruction read it: a VALU
//!   instruction writing an SGPR, or a `s_waitcnt_decptr` whose SA_SDST is 0, in
//!   between (fix: `s_waitcnt_decptr 0xfffe`);
//! - `v_permlane16_b32`/`v_permlanex16_b32` after `v_cmpx_*`: a VALU instruction other
//!   than `v_nop` in between (fix: `v_mov_b32` of the permute's source to itself);
//! - an LDS instruction after a branch (a call or `s_setpc_b64` too) that a vector
//!   memory instruction (not plain FLAT) came before, or the other way round:
//!   `s_waitcnt_vscnt null, 0` in between, or an
//!   instruction of the reader's kind (before the branch), of either kind (after it:
//!   the nearer one across the branch) (fix: `s_waitcnt_vscnt null, 0`).
//!
//! The instructions before a reader are those on every path into it (as for `s_nop`),
//! at most [`MAX_STEPS`] of them: a hazard further back is missed, never made up.
//! Registers are those the instructions name, and what a memory instruction reads
//! without naming it (EXEC; M0 for some LDS instructions), as LLVM counts them; a
//! write is its instruction's destination.

use gcn_isa::encode::{RegFile, RegRange};
use gcn_isa::table::Encoding;
use gcn_isa::SpecialReg;

use super::nops::Paths;
use super::{overlap, register_text, Block, Code, WaitHazard};

/// The most instructions looked at before one reader (on all paths together).
const MAX_STEPS: usize = super::nops::MAX_LOOK_BACK;

/// What a look at one instruction before the reader tells.
enum Seen {
    /// Not this one: look further back.
    Next,
    /// Mitigated on this path: look no further back on it.
    Stop,
    /// The hazard's first instruction.
    Found,
}

/// What a rule found: the earlier instruction, and the words of the warning.
pub(super) struct Found {
    earlier: usize,
    message: String,
    operation: &'static str,
    fix: String,
}

impl Code<'_> {
    /// GCN 1.5's hazards in the section cut into `blocks`, in the order of their second
    /// instructions.
    pub(super) fn gfx10_hazards(&self, blocks: &[Block], hazards: &mut Vec<WaitHazard>) {
        if !self.gen.is_gfx10() {
            return;
        }
        let paths = Paths::new(blocks);
        for step in 0..self.program.steps.len() {
            for f in self.gfx10_rules_at(step, &paths) {
                hazards.push(self.gfx10_hazard(step, f));
            }
        }
    }

    /// What GCN 1.5's rules find at `step` (none on other generations).
    pub(super) fn gfx10_rules_at(&self, step: usize, paths: &Paths) -> impl Iterator<Item = Found> {
        let found = if self.gen.is_gfx10() {
            [
                self.scalar_write_after_vmem(step, paths),
                self.vector_write_after_smem(step, paths),
                self.exec_write_after_read(step, paths),
                self.permlane_after_cmpx(step, paths),
                self.lds_vmem_across_branch(step, paths),
            ]
        } else {
            Default::default()
        };
        found.into_iter().flatten()
    }

    /// Walks the instructions before `step` on every path into it, most recent first,
    /// until `seen` stops each path; the first instruction `seen` finds.
    fn walk_back(
        &self,
        paths: &Paths,
        step: usize,
        seen: &mut impl FnMut(usize) -> Seen,
    ) -> Option<usize> {
        self.walk_back_with(paths, step, 0, &mut |at, _| seen(at))
    }

    /// [`Code::walk_back`] with a little state each path carries (what the
    /// instructions seen so far on it mitigate), which `seen` may change; a block is
    /// entered once for each state it is reached with.
    fn walk_back_with(
        &self,
        paths: &Paths,
        step: usize,
        state: u8,
        seen: &mut impl FnMut(usize, &mut u8) -> Seen,
    ) -> Option<usize> {
        let mut budget = MAX_STEPS;
        // Few blocks are entered (each gives a step or more): a short list, not a
        // flag for each block of the section.
        let mut entered: smallvec::SmallVec<[(usize, u8); 8]> = smallvec::SmallVec::new();
        let mut todo: smallvec::SmallVec<[(usize, usize, u8); 8]> =
            smallvec::smallvec![(paths.block_of(step), step, state)];
        while let Some((block, mut at, mut state)) = todo.pop() {
            loop {
                if at == paths.blocks[block].steps.start {
                    for &before in &paths.before[block] {
                        if !entered.contains(&(before, state)) {
                            entered.push((before, state));
                            todo.push((before, paths.blocks[before].steps.end, state));
                        }
                    }
                    break;
                }
                if budget == 0 {
                    return None;
                }
                budget -= 1;
                at -= 1;
                if self.skipped.get() == Some(at) {
                    continue;
                }
                match seen(at, &mut state) {
                    Seen::Next => {}
                    Seen::Stop => break,
                    Seen::Found => return Some(at),
                }
            }
        }
        None
    }

    fn row(&self, step: usize) -> &'static gcn_isa::table::Instruction {
        self.program.steps[step].row
    }

    fn sgpr_uses(&self, step: usize, write: bool) -> impl Iterator<Item = RegRange> + '_ {
        self.program
            .uses(step)
            .iter()
            .filter(move |u| u.write == write && u.range.file == RegFile::Sgpr)
            .map(|u| u.range)
    }

    fn exec(&self) -> RegRange {
        RegRange {
            file: RegFile::Sgpr,
            first: self.gen.special_reg_code(SpecialReg::Exec).unwrap_or(126),
            count: 2,
        }
    }

    /// EXEC as the instruction at `step` has it: `exec_lo` in wave32.
    fn exec_of(&self, step: usize) -> RegRange {
        let exec = self.exec();
        let count = if self.program.steps[step].wave32 {
            1
        } else {
            2
        };
        RegRange { count, ..exec }
    }

    /// The SIMM16 of a program-control instruction, as the section holds it.
    fn simm16(&self, step: usize) -> Option<u32> {
        self.first_word(step).map(|w| w & 0xffff)
    }

    /// An SALU or SMEM instruction writing an SGPR a VMEM, FLAT or LDS instruction read.
    fn scalar_write_after_vmem(&self, step: usize, paths: &Paths) -> Option<Found> {
        let encoding = self.row(step).encoding;
        if !(is_salu(encoding) || encoding == Encoding::Smem) {
            return None;
        }
        // What a memory instruction before it is done with, on this path: a wait for a
        // counter at 0 says so for those it counts (Mesa's ACO; LLVM takes only
        // `s_waitcnt 0`), a VALU instruction or `s_waitcnt_decptr` for all.
        let reader = |at: usize, done: u8| {
            let kinds = self.vmem_reader_kinds(at);
            kinds != 0 && kinds & !done != 0
        };
        let mitigates = |at: usize, done: &mut u8| {
            let row = self.row(at);
            if row.encoding.is_valu()
                || (row.mnemonic == "s_waitcnt_decptr"
                    && self.simm16(at).is_some_and(waits_vm_vsrc))
            {
                return true;
            }
            if let Some(wait) = self.known_wait(at) {
                for (count, kind) in [(wait.vm, LOADS), (wait.vs, STORES), (wait.lgkm, LDS)] {
                    if count == 0 {
                        *done |= kind;
                    }
                }
            }
            *done == LOADS | STORES | LDS
        };
        let (earlier, register) = self.sgpr_write_after_read(step, paths, reader, mitigates)?;
        let rule = "a VALU instruction, a wait for it to be done or `s_waitcnt_decptr 0xffe3`";
        Some(self.written_while_read(step, earlier, register, rule, "s_waitcnt_decptr 0xffe3"))
    }

    /// A VALU instruction writing an SGPR an SMEM instruction read.
    fn vector_write_after_smem(&self, step: usize, paths: &Paths) -> Option<Found> {
        if !self.row(step).encoding.is_valu() {
            return None;
        }
        let reader = |at: usize, _| self.row(at).encoding == Encoding::Smem;
        let mitigates = |at: usize, _: &mut u8| self.mitigates_smem_hazard(at);
        let (earlier, register) = self.sgpr_write_after_read(step, paths, reader, mitigates)?;
        let rule = "a scalar ALU instruction or a wait for `lgkmcnt(0)`";
        Some(self.written_while_read(step, earlier, register, rule, "s_mov_b32 null, 0"))
    }

    /// The last instruction before `step`, on some path, that `reader` takes (with what
    /// the path's state says is done) and that reads an SGPR `step` writes, with none
    /// that `mitigates` in between (which may mark some done instead); and the register.
    fn sgpr_write_after_read(
        &self,
        step: usize,
        paths: &Paths,
        reader: impl Fn(usize, u8) -> bool,
        mitigates: impl Fn(usize, &mut u8) -> bool,
    ) -> Option<(usize, RegRange)> {
        let written: smallvec::SmallVec<[RegRange; 2]> = self.sgpr_uses(step, true).collect();
        if written.is_empty() {
            return None;
        }
        let mut register = None;
        let earlier = self.walk_back_with(paths, step, 0, &mut |at, done| {
            if mitigates(at, done) {
                return Seen::Stop;
            }
            if !reader(at, *done) {
                return Seen::Next;
            }
            register = self
                .sgpr_uses(at, false)
                .chain(self.implicit_sgpr_reads(at))
                .find_map(|r| written.iter().find_map(|&w| overlap(r, w)));
            if register.is_some() {
                Seen::Found
            } else {
                Seen::Next
            }
        })?;
        Some((earlier, register?))
    }

    /// Which waits say the memory instruction at `step` is done ([`LOADS`], [`STORES`],
    /// [`LDS`]; FLAT both its own and LDS's); 0 for any other instruction.
    fn vmem_reader_kinds(&self, step: usize) -> u8 {
        let encoding = self.row(step).encoding;
        let mut kinds = 0;
        if is_vmem(encoding) || is_flat(encoding) {
            let loads = self.program.writes(step).next().is_some();
            kinds |= if loads { LOADS } else { STORES };
        }
        if matches!(encoding, Encoding::Flat | Encoding::Ds) {
            kinds |= LDS;
        }
        kinds
    }

    /// The SGPRs a memory instruction reads without naming them: EXEC (every vector
    /// memory, FLAT and LDS instruction), and M0 (an LDS instruction that goes to GDS,
    /// adds the lane's id or appends: those LLVM gives an M0 read on GCN 1.5).
    fn implicit_sgpr_reads(&self, step: usize) -> impl Iterator<Item = RegRange> {
        let row = self.row(step);
        let memory = is_vmem(row.encoding) || is_flat(row.encoding) || row.encoding == Encoding::Ds;
        let reads_m0 = row.encoding == Encoding::Ds
            && (self.step_goes_to_gds(step)
                || matches!(
                    row.mnemonic,
                    "ds_read_addtid_b32" | "ds_write_addtid_b32" | "ds_append" | "ds_consume"
                ));
        let m0 = RegRange {
            file: RegFile::Sgpr,
            first: self.gen.special_reg_code(SpecialReg::M0).unwrap_or(124),
            count: 1,
        };
        [memory.then(|| self.exec_of(step)), reads_m0.then_some(m0)]
            .into_iter()
            .flatten()
    }

    /// The warning that `step` writes `register` while `earlier` may still read it:
    /// `rule` says what must come between, `fix` is inserted.
    fn written_while_read(
        &self,
        step: usize,
        earlier: usize,
        register: RegRange,
        rule: &str,
        fix: &str,
    ) -> Found {
        Found {
            earlier,
            message: format!(
                "`{}` is written by `{}` while `{}` may still read it: on GCN 1.5 {rule} must come between (insert `{fix}` before it)",
                register_text(self.gen, register),
                self.row(step).mnemonic,
                self.row(earlier).mnemonic,
            ),
            operation: "read",
            fix: fix.to_string(),
        }
    }

    /// Whether the instruction at `step` ends an SMEM read's hazard with a later VALU
    /// write: an SALU instruction, except program control and waits on other counters;
    /// a wait for `lgkmcnt(0)`.
    fn mitigates_smem_hazard(&self, step: usize) -> bool {
        let row = self.row(step);
        match row.mnemonic {
            "s_waitcnt" => self.simm16(step).is_some_and(|w| (w >> 8) & 0x3f == 0),
            "s_waitcnt_lgkmcnt" => {
                // SOPK: SDST is the register (null, 125), SIMM16 the count.
                self.first_word(step)
                    .is_some_and(|w| (w >> 16) & 0x7f == 125 && w & 0xffff == 0)
            }
            "s_setvskip" | "s_version" | "s_waitcnt_vscnt" | "s_waitcnt_vmcnt"
            | "s_waitcnt_expcnt" => false,
            _ => is_salu(row.encoding) && row.encoding != Encoding::Sopp,
        }
    }

    /// A VALU instruction writing EXEC after another kind of instruction read it.
    fn exec_write_after_read(&self, step: usize, paths: &Paths) -> Option<Found> {
        if !self.row(step).encoding.is_valu() {
            return None;
        }
        let exec = self.exec();
        let written: smallvec::SmallVec<[RegRange; 1]> = self
            .sgpr_uses(step, true)
            .filter_map(|w| overlap(w, exec))
            .collect();
        if written.is_empty() {
            return None;
        }
        let earlier = self.walk_back(paths, step, &mut |at| {
            let row = self.row(at);
            if row.encoding.is_valu() {
                // One writing an SGPR mitigates; others are no readers of interest.
                return if self.sgpr_uses(at, true).next().is_some() {
                    Seen::Stop
                } else {
                    Seen::Next
                };
            }
            if row.mnemonic == "s_waitcnt_decptr" && self.simm16(at).is_some_and(waits_sa_sdst) {
                return Seen::Stop;
            }
            if self
                .sgpr_uses(at, false)
                .any(|r| written.iter().any(|&w| overlap(r, w).is_some()))
            {
                Seen::Found
            } else {
                Seen::Next
            }
        })?;
        let fix = "s_waitcnt_decptr 0xfffe".to_string();
        Some(Found {
            earlier,
            message: format!(
                "`{}` is written by `{}` after `{}` read it: on GCN 1.5 a VALU instruction writing an SGPR or `{fix}` must come between (insert `{fix}` before it)",
                register_text(self.gen, written[0]),
                self.row(step).mnemonic,
                self.row(earlier).mnemonic,
            ),
            operation: "read",
            fix,
        })
    }

    /// `v_permlane16_b32`/`v_permlanex16_b32` after `v_cmpx_*`.
    fn permlane_after_cmpx(&self, step: usize, paths: &Paths) -> Option<Found> {
        let mnemonic = self.row(step).mnemonic;
        if !matches!(mnemonic, "v_permlane16_b32" | "v_permlanex16_b32") {
            return None;
        }
        let earlier = self.walk_back(paths, step, &mut |at| {
            let row = self.row(at);
            if row.encoding == Encoding::Vopc && row.mnemonic.starts_with("v_cmpx") {
                Seen::Found
            } else if row.encoding.is_valu() && row.mnemonic != "v_nop" {
                Seen::Stop
            } else {
                Seen::Next
            }
        })?;
        // The permute's first source, a VGPR (VOP3's SRC0, 256 and up).
        let source = self
            .word(step, 1)
            .map(|w| w & 0x1ff)
            .filter(|&s| s >= 256)
            .map_or(0, |s| s - 256);
        let fix = format!("v_mov_b32 v{source}, v{source}");
        Some(Found {
            earlier,
            message: format!(
                "`{mnemonic}` after `{}`: on GCN 1.5 a VALU instruction other than `v_nop` must come between (insert `{fix}` before it)",
                self.row(earlier).mnemonic,
            ),
            operation: "compare",
            fix,
        })
    }

    /// An LDS instruction after a branch that a vector memory instruction came before,
    /// or the other way round.
    fn lds_vmem_across_branch(&self, step: usize, paths: &Paths) -> Option<Found> {
        let kind = lds_or_vmem(self.row(step).encoding)?;
        let ends = |at: usize| {
            lds_or_vmem(self.row(at).encoding) == Some(kind) || self.waits_vscnt_zero(at)
        };
        let mut other = None;
        self.walk_back(paths, step, &mut |at| {
            // Up to the branch, one of either kind ends the search (as LLVM has it):
            // of the other kind, it is the nearer one across the branch, the hazard
            // its own.
            if lds_or_vmem(self.row(at).encoding).is_some() || self.waits_vscnt_zero(at) {
                return Seen::Stop;
            }
            if !self.is_branch(at) {
                return Seen::Next;
            }
            // Before the branch: an instruction of the other kind, on some path.
            other = self.walk_back(paths, at, &mut |before| {
                if ends(before) {
                    Seen::Stop
                } else if lds_or_vmem(self.row(before).encoding).is_some() {
                    Seen::Found
                } else {
                    Seen::Next
                }
            });
            if other.is_some() {
                Seen::Found
            } else {
                Seen::Next
            }
        })?;
        let earlier = other?;
        let fix = "s_waitcnt_vscnt null, 0".to_string();
        let (this, that) = match kind {
            Kind::Lds => ("an LDS", "a vector memory"),
            Kind::Vmem => ("a vector memory", "an LDS"),
        };
        Some(Found {
            earlier,
            message: format!(
                "`{}` is {this} instruction after a branch that `{}`, {that} instruction, came before: on GCN 1.5 `{fix}` must come between (insert it before this one)",
                self.row(step).mnemonic,
                self.row(earlier).mnemonic,
            ),
            operation: "memory instruction",
            fix,
        })
    }

    /// Whether the wait at `step` ends a GCN 1.5 hazard that looks back across
    /// instructions: a wait for `vmcnt`, `lgkmcnt` or `vscnt` at 0 (the memory
    /// instructions it counts are done with their SGPRs; `lgkmcnt(0)` ends the SMEM
    /// hazard, `s_waitcnt_vscnt null, 0` the LDS and vector memory one across a branch).
    pub(super) fn wait_ends_gfx10_hazards(&self, step: usize) -> bool {
        let wait = self.known_wait(step);
        self.gen.is_gfx10() && wait.is_some_and(|w| w.vm == 0 || w.lgkm == 0 || w.vs == 0)
    }

    /// What the wait at `step` waits for, when that is known as the program is
    /// assembled: `s_waitcnt`, or a `s_waitcnt_*cnt` on `null` (on an SGPR, its count
    /// adds the SGPR's value).
    fn known_wait(&self, step: usize) -> Option<super::Wait> {
        let row = self.row(step);
        let wait = super::wait_of(self.gen, row, self.first_word(step))?;
        let null = self.gen.special_reg_code(SpecialReg::Null).map(u32::from);
        let on_null = self.first_word(step).map(|w| (w >> 16) & 0x7f) == null;
        (row.mnemonic == "s_waitcnt" || on_null).then_some(wait)
    }

    fn waits_vscnt_zero(&self, step: usize) -> bool {
        // SOPK: SDST null (125), SIMM16 0.
        self.row(step).mnemonic == "s_waitcnt_vscnt"
            && self
                .first_word(step)
                .is_some_and(|w| (w >> 16) & 0x7f == 125 && w & 0xffff == 0)
    }

    /// A jump: a branch, or a jump through a register or a call (which the hardware
    /// takes as one, Mesa's ACO counts them too).
    fn is_branch(&self, step: usize) -> bool {
        let row = self.row(step);
        let jump = matches!(row.mnemonic, "s_setpc_b64" | "s_swappc_b64" | "s_call_b64");
        jump || row.encoding == Encoding::Sopp
            && (row.mnemonic == "s_branch" || row.mnemonic.starts_with("s_cbranch_"))
    }

    /// GCN 1.5's branches whose offset is 0x3f, which the hardware mis-executes (LLVM's
    /// `Offset3fBug`; Mesa's ACO pads them too): an `s_nop 0` after one makes it 0x40.
    pub(super) fn branch_offset_hazards(&self, hazards: &mut Vec<WaitHazard>) {
        if !self.gen.is_gfx10() {
            return;
        }
        let steps = &self.program.steps;
        for step in 0..steps.len() {
            let row = self.row(step);
            let branch = row.encoding == Encoding::Sopp
                && (row.mnemonic == "s_branch" || row.mnemonic.starts_with("s_cbranch_"));
            if !branch || self.simm16(step) != Some(0x3f) {
                continue;
            }
            let target_offset = steps[step].offset + 4 + 0x3f * 4;
            let target = (0..steps.len())
                .find(|&s| steps[s].offset == target_offset)
                .unwrap_or(step);
            let message = format!(
                "`{}` has the offset 0x3f, which GCN 1.5 mis-executes (insert `s_nop 0` after it: its offset becomes 0x40)",
                row.mnemonic
            );
            let mut hazard = self.hazard_at(step, message, target, "target", "s_nop 0".into());
            hazard.after = true;
            hazards.push(hazard);
        }
    }

    fn gfx10_hazard(&self, step: usize, found: Found) -> WaitHazard {
        self.hazard_at(
            step,
            found.message,
            found.earlier,
            found.operation,
            found.fix,
        )
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Lds,
    Vmem,
}

/// LDS, or vector memory other than plain FLAT (which may go to either).
fn lds_or_vmem(encoding: Encoding) -> Option<Kind> {
    match encoding {
        Encoding::Ds => Some(Kind::Lds),
        Encoding::Mubuf
        | Encoding::Mtbuf
        | Encoding::Mimg
        | Encoding::Global
        | Encoding::Scratch => Some(Kind::Vmem),
        _ => None,
    }
}

/// What a wait may say is done: vector memory instructions that return data (`vmcnt`),
/// those that do not (`vscnt`), LDS instructions (`lgkmcnt`).
const LOADS: u8 = 1;
const STORES: u8 = 2;
const LDS: u8 = 4;

/// Whether a `s_waitcnt_decptr` SIMM16 waits for the vector memory reads of SGPRs to be
/// done: its VM_VSRC field (bits 2 to 4) is 0, as in 0xffe3.
fn waits_vm_vsrc(simm16: u32) -> bool {
    simm16 & 0x1c == 0
}

/// Whether a `s_waitcnt_decptr` SIMM16 waits for the scalar reads of SGPRs to be done:
/// its SA_SDST field (bit 0) is 0, as in 0xfffe.
fn waits_sa_sdst(simm16: u32) -> bool {
    simm16 & 1 == 0
}

fn is_salu(encoding: Encoding) -> bool {
    matches!(
        encoding,
        Encoding::Sop1 | Encoding::Sop2 | Encoding::Sopk | Encoding::Sopc | Encoding::Sopp
    )
}

fn is_vmem(encoding: Encoding) -> bool {
    matches!(encoding, Encoding::Mubuf | Encoding::Mtbuf | Encoding::Mimg)
}

fn is_flat(encoding: Encoding) -> bool {
    matches!(
        encoding,
        Encoding::Flat | Encoding::Global | Encoding::Scratch
    )
}
