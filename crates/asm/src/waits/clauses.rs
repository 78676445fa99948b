//! Soft clauses under XNACK: with XNACK on (GCN 1.2 and later; a kernel's
//! `.use_xnack_enabled`, or a ROCm target's `+xnack`), a page fault replays a run of
//! memory instructions of one kind issued one after another (a soft clause: scalar
//! memory, or vector memory and FLAT), so none may overwrite a register one of them
//! reads, its own address included, nor may a store or atomic join one that loads: a
//! replayed member would read it overwritten, or load what the store wrote. LLVM
//! breaks such a clause with `s_nop 0` before the instruction that would join it
//! (`checkSoftClauseHazards`); here that instruction gets the warning.
//!
//! A clause is followed in the order the instructions issue: through a label code
//! falls into, not across a jump; any other instruction (`s_nop` included) ends it.
//! Each warning is taken as fixed when looking further, as the fix starts a clause.

use gcn_isa::encode::RegRange;
use gcn_isa::table::{Encoding, Flags};

use super::nops::{is_vector_memory, Paths};
use super::{overlap, register_text, Block, Code, WaitHazard};

#[derive(Clone, Copy, PartialEq, Eq)]
enum ClauseKind {
    Scalar,
    Vector,
}

impl Code<'_> {
    /// The soft clause hazards of the section cut into `blocks`, with XNACK on.
    pub(super) fn soft_clause_hazards(&self, blocks: &[Block], hazards: &mut Vec<WaitHazard>) {
        if !self.xnack || self.gen < gcn_isa::Generation::Gcn1_2 {
            return;
        }
        let paths = Paths::new(blocks);
        let mut clause: Vec<usize> = Vec::new();
        for (b, block) in blocks.iter().enumerate() {
            // Code only falls into a block from the one before it.
            let falls_in = b > 0 && paths.before[b].contains(&(b - 1));
            if !falls_in {
                clause.clear();
            }
            for step in block.steps.clone() {
                let Some(kind) = self.clause_kind(step) else {
                    clause.clear();
                    continue;
                };
                if clause
                    .first()
                    .is_some_and(|&s| self.clause_kind(s) != Some(kind))
                {
                    clause.clear();
                }
                if let Some(hazard) = self.joins_badly(&clause, step, kind) {
                    hazards.push(hazard);
                    // The fix, `s_nop 0` before it, starts a new clause here.
                    clause.clear();
                }
                clause.push(step);
            }
        }
    }

    /// Whether the instruction at `step`, with XNACK on, stands between two memory
    /// instructions of one kind: taken out, it would join them in a clause.
    pub(super) fn breaks_soft_clause(&self, step: usize) -> bool {
        let kind = |s: Option<usize>| s.and_then(|s| self.clause_kind(s));
        let steps = self.program.steps.len();
        self.xnack
            && kind(step.checked_sub(1)).is_some()
            && kind(step.checked_sub(1)) == kind(Some(step + 1).filter(|&s| s < steps))
    }

    fn clause_kind(&self, step: usize) -> Option<ClauseKind> {
        match self.program.steps[step].row.encoding {
            Encoding::Smrd | Encoding::Smem => Some(ClauseKind::Scalar),
            e if is_vector_memory(e) => Some(ClauseKind::Vector),
            _ => None,
        }
    }

    /// The warning for `step` joining `clause` (whose members write registers), if it
    /// may not: a store or atomic, or a member (`step` included) writing a register a
    /// member reads.
    fn joins_badly(&self, clause: &[usize], step: usize, kind: ClauseKind) -> Option<WaitHazard> {
        let writes_any = clause
            .iter()
            .any(|&s| self.program.writes(s).next().is_some());
        if !writes_any {
            return None;
        }
        let row = self.program.steps[step].row;
        let mnemonic = row.mnemonic;
        let what = match kind {
            ClauseKind::Scalar => "scalar memory",
            ClauseKind::Vector => "vector memory",
        };
        if row.flags.contains(Flags::STORE) || row.flags.contains(Flags::ATOMIC) {
            let member = *clause.last()?;
            let message = format!(
                "`{mnemonic}` writes memory right after `{}`: with XNACK a store or atomic may not join a clause of {what} instructions that load, which a page fault replays (insert `s_nop 0` before it)",
                self.program.steps[member].row.mnemonic
            );
            return Some(self.hazard_at(step, message, member, "clause", "s_nop 0".into()));
        }
        let members = || clause.iter().copied().chain(std::iter::once(step));
        let (writer, reader, register) = members().find_map(|w| {
            self.program.writes(w).find_map(|written| {
                members().find_map(|r| self.read_of(r, written).map(|reg| (w, r, reg)))
            })
        })?;
        let name = |s: usize| self.program.steps[s].row.mnemonic;
        let register = register_text(self.gen, register);
        let why = "with XNACK a page fault replays the clause, and the replay reads it overwritten (insert `s_nop 0` before it)";
        let (message, culprit) = if writer == step && reader == step {
            let message = format!(
                "`{mnemonic}` overwrites its own address `{register}` in a clause of {what} instructions: {why}"
            );
            (message, *clause.last()?)
        } else if writer == step {
            let message = format!(
                "`{mnemonic}` writes `{register}`, which `{}` before it in the same clause of {what} instructions reads: {why}",
                name(reader)
            );
            (message, reader)
        } else {
            let message = format!(
                "`{mnemonic}` joins a clause of {what} instructions where `{}` writes `{register}`, which {} reads: {why}",
                name(writer),
                if reader == writer { "it also" } else { "one of them" },
            );
            (message, writer)
        };
        Some(self.hazard_at(step, message, culprit, "clause", "s_nop 0".into()))
    }

    /// What of `written` the instruction at `step` reads.
    fn read_of(&self, step: usize, written: RegRange) -> Option<RegRange> {
        self.program
            .uses(step)
            .iter()
            .filter(|u| !u.write)
            .find_map(|u| overlap(u.range, written))
    }
}
