//! Wait states a hand-written kernel forgot: an instruction that reads a register (or a
//! hardware register) too soon after another wrote it, where GCN 1.0 to 1.4 does not
//! stall and the program must put instructions or `s_nop` in between. GCN 1.5 checks
//! such dependencies in hardware: two of its own hazards are counted in wait states
//! here, the others, ended by what comes between, are in [`super::gfx10`].
//!
//! The rules, with the wait states needed between the write and the read (each
//! instruction in between is one, `s_nop N` is N+1):
//!
//! - GCN 1.0: a scalar memory instruction reading an SGPR a VALU instruction wrote: 4;
//!   `s_buffer_load*` reading one a SALU instruction wrote: 4 (LLVM's and Mesa's ACO);
//! - GCN 1.0: `v_readlane_b32`/`v_readfirstlane_b32` reading a VGPR `v_interp*` wrote:
//!   1 (ACO's);
//! - GCN 1.2 to 1.4: a vector memory instruction reading an SGPR a VALU wrote: 5;
//! - GCN 1.2 to 1.4: a DPP instruction reading a VGPR any instruction wrote: 2, or after
//!   a VALU wrote EXEC: 5;
//! - `v_div_fmas_*` after a VALU wrote VCC: 4;
//! - `v_readlane_b32`/`v_writelane_b32` whose lane select is an SGPR a VALU wrote: 4
//!   (any scalar register: VCC and the trap temporaries too);
//! - `s_getreg_b32` of a hardware register `s_setreg*` wrote: 2; `s_setreg*` of it
//!   again: 1 (GCN 1.0, 1.1), 2 (later);
//! - `s_getreg_b32` of MODE after `s_setvskip`: 2; a vector instruction after
//!   `s_setreg*` wrote MODE's VSKIP bit: 2 (AMD's ISA manuals);
//! - GCN 1.0 to 1.4: a VALU instruction reading VCCZ or EXECZ as data after a VALU
//!   wrote VCC or EXEC: 5 (AMD's ISA manuals);
//! - GCN 1.2 to 1.4: `s_sendmsg`, `s_sendmsghalt`, `s_ttracedata` and an LDS instruction
//!   that goes to GDS after a SALU wrote M0, and on GCN 1.4 `s_movrel*`, `v_interp*`,
//!   `ds_read_addtid_b32`, `ds_write_addtid_b32`, a load into LDS (`lds`),
//!   `buffer_store_lds_dword` and an operand `lds_direct` too: 1;
//! - GCN 1.2 to 1.4: `s_rfe_b64` after `s_setreg*` of TRAPSTS: 1;
//! - GCN 1.1 to 1.4: a VALU instruction writing a VGPR that holds the data of a store or
//!   atomic of more than 8 bytes (MUBUF and MTBUF with a constant SOFFSET, FLAT, global,
//!   scratch, an image instruction with a 128-bit resource): 1;
//! - GCN 1.5: a MUBUF or MTBUF instruction whose offset has bit 1 or 2 set after an
//!   image instruction in the NSA form of 16 bytes or more (six addresses or more): 1;
//! - GCN 1.5: an image instruction in the NSA form after `v_writelane_b32`: 1 (ACO's);
//! - GCN 1.5: `s_denorm_mode` after a floating-point atomic (buffer, image, FLAT or
//!   global `*_atomic_fcmpswap`, `fmin`, `fmax`): 3, unless a VALU instruction or a wait
//!   (`s_waitcnt*`) comes between.
//!
//! The instructions before a read are those on every path into it: those before it in
//! its block, then those at the end of each block that branches or falls through to it
//! (the blocks the wait check follows). Code no known branch or fall-through reaches
//! (after `s_endpgm`, a target of `s_setpc_b64`) has nothing before it. The search is
//! bounded ([`MAX_VISITS`] blocks per read): stopping early misses a hazard, never makes
//! one up.

use gcn_isa::encode::{RegFile, RegRange};
use gcn_isa::table::{Encoding, Flags};
use gcn_isa::{Generation, SpecialReg};

use super::{overlap, register_text, Block, Code, WaitHazard};

/// What a rule needs before a reader: the wait states, what writes, and why.
struct Need {
    states: u32,
    /// The register the writer writes (for `s_setreg`, the hardware register's id is
    /// matched instead).
    register: Target,
    writer: Writer,
    /// The rule in words: "…needs N wait states".
    what: &'static str,
}

#[derive(Clone, Copy)]
enum Target {
    Register(RegRange),
    HwReg(u32),
    /// No register: the writer's kind is the whole rule.
    Nothing,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Writer {
    Valu,
    Salu,
    Any,
    SetReg,
    /// A store or atomic whose data is more than 8 bytes (see [`Code::wide_data`]).
    WideStore,
    /// GCN 1.5: an image instruction in the NSA form of 16 bytes or more.
    NsaImage,
    /// GCN 1.5: `v_writelane_b32`.
    Writelane,
    /// `v_interp*`.
    Vintrp,
    /// GCN 1.5: a floating-point atomic; a VALU instruction or a wait ends its hazard.
    FpAtomic,
    /// `s_setvskip`.
    SetVskip,
    /// `s_setreg*` of MODE's VSKIP bit ([`Code::writes_vskip`]).
    SetRegVskip,
}

/// TRAPSTS's hardware register id, the one `s_rfe_b64` reads.
const HWREG_TRAPSTS: u32 = 3;

/// MODE's hardware register id, and its VSKIP bit.
const HWREG_MODE: u32 = 1;
const MODE_VSKIP_BIT: u32 = 28;

/// Source operand codes of GCN 1.0 to 1.4 read by rules: VCCZ, EXECZ, LDS_DIRECT.
pub(super) const VCCZ: u32 = 251;
const EXECZ: u32 = 252;
const LDS_DIRECT: u32 = 254;

/// The most wait states any rule needs: no need to look further back.
const MAX_STATES: u32 = 5;

/// The most blocks entered looking for one read's writer: a point many branches lead
/// to, behind others many lead to, would otherwise be searched for long.
const MAX_VISITS: usize = 64;

/// The most instructions any rule looks at before a read (GCN 1.5's, on all paths
/// together); those counting wait states stop within [`MAX_STATES`].
pub(super) const MAX_LOOK_BACK: usize = 64;

/// What the hazard rules of a section look at: the paths between its blocks, and
/// whether any instruction sets VSKIP (few do: only then does every vector instruction
/// look back for one).
pub(super) struct HazardRules<'a> {
    pub paths: Paths<'a>,
    pub vskip: bool,
    /// How many more reads [`Code::hazard_rules_need`] may look at in the section: a
    /// program with a great many needless waits is not searched for long.
    pub work: std::cell::Cell<usize>,
}

/// The reads [`Code::hazard_rules_need`] looks at in one section, at most.
const NEED_WORK: usize = 100_000;

/// Which blocks lead to which: a block's step (by the blocks' starts) and the blocks
/// that branch or fall through to each.
pub(super) struct Paths<'a> {
    pub blocks: &'a [Block],
    pub before: Vec<smallvec::SmallVec<[usize; 2]>>,
}

impl<'a> Paths<'a> {
    pub fn new(blocks: &'a [Block]) -> Paths<'a> {
        let mut before = vec![smallvec::SmallVec::new(); blocks.len()];
        for (b, block) in blocks.iter().enumerate() {
            for &next in &block.next {
                before[next].push(b);
            }
        }
        Paths { blocks, before }
    }

    pub fn block_of(&self, step: usize) -> usize {
        self.blocks.partition_point(|b| b.steps.start <= step) - 1
    }
}

/// One read's search for its writer: the closest write found (its step, the register
/// written and the wait states after it) and the blocks entered so far.
struct Search<'a> {
    need: &'a Need,
    paths: &'a Paths<'a>,
    visits: usize,
    closest: Option<(usize, Option<RegRange>, u32)>,
}

impl Code<'_> {
    /// The wait-state hazards of the section cut into `blocks`, in the order of their
    /// reads.
    pub(super) fn nop_hazards(&self, blocks: &[Block], hazards: &mut Vec<WaitHazard>) {
        let rules = self.hazard_rules(blocks);
        for step in 0..self.program.steps.len() {
            for need in self.needs(step, rules.vskip) {
                if let Some(hazard) = self.unmet(step, &need, &rules.paths) {
                    hazards.push(hazard);
                }
            }
        }
    }

    /// What the hazard rules of the section cut into `blocks` look at.
    pub(super) fn hazard_rules<'a>(&self, blocks: &'a [Block]) -> HazardRules<'a> {
        let steps = 0..self.program.steps.len();
        HazardRules {
            paths: Paths::new(blocks),
            vskip: !self.gen.is_gfx10() && steps.clone().any(|s| self.writes_vskip(s)),
            work: std::cell::Cell::new(NEED_WORK),
        }
    }

    /// Whether taking out the wait at `wait` would make a hazard of this module's or
    /// GCN 1.5's: it is one of the wait states a read needs, or what ends a hazard
    /// (`s_waitcnt_vscnt null, 0` between LDS and vector memory across a branch). A
    /// wait that never stops the wave is still needed then.
    pub(super) fn hazard_rules_need(&self, wait: usize, rules: &HazardRules) -> bool {
        if self.breaks_soft_clause(wait) {
            return true;
        }
        let hazards_at = |step: usize| {
            let nops = self
                .needs(step, rules.vskip)
                .iter()
                .filter(|need| self.unmet(step, need, &rules.paths).is_some())
                .count();
            nops + self.gfx10_rules_at(step, &rules.paths).count()
        };
        // A wait state matters to the reads a few instructions on; what ends a GCN 1.5
        // hazard, to those as far as its rules look back.
        let reach = if self.wait_ends_gfx10_hazards(wait) {
            MAX_LOOK_BACK
        } else {
            MAX_STATES as usize
        };
        let readers = self.steps_after(wait, &rules.paths, reach);
        readers.into_iter().any(|reader| {
            // Out of work: taken as needed (a needless wait missed, not made up).
            let Some(left) = rules.work.get().checked_sub(1) else {
                return true;
            };
            rules.work.set(left);
            self.skipped.set(Some(wait));
            let without = hazards_at(reader);
            self.skipped.set(None);
            without > 0 && without > hazards_at(reader)
        })
    }

    /// The instructions after `step` on the paths from it, at most `reach`, each once.
    fn steps_after(&self, step: usize, paths: &Paths, reach: usize) -> Vec<usize> {
        let mut found = Vec::new();
        let mut entered = vec![paths.block_of(step)];
        let mut todo = vec![(paths.block_of(step), step + 1)];
        while let Some((block, from)) = todo.pop() {
            for at in from..paths.blocks[block].steps.end {
                if found.len() >= reach {
                    return found;
                }
                if !found.contains(&at) {
                    found.push(at);
                }
            }
            for &next in &paths.blocks[block].next {
                if !entered.contains(&next) {
                    entered.push(next);
                    todo.push((next, paths.blocks[next].steps.start));
                }
            }
        }
        found
    }

    /// What the instruction at `step` needs of those before it.
    fn needs(&self, step: usize, vskip: bool) -> smallvec::SmallVec<[Need; 2]> {
        use Generation::*;
        let gen = self.gen;
        let row = self.program.steps[step].row;
        let mnemonic = row.mnemonic;
        if gen.is_gfx10() {
            return self.gfx10_needs(step);
        }
        let sgpr_reads = || {
            self.program
                .uses(step)
                .iter()
                .filter(|u| !u.write && u.range.file == RegFile::Sgpr)
                .map(|u| u.range)
        };
        let special = |reg| {
            let code = gen.special_reg_code(reg).unwrap_or(0);
            let count = if reg == SpecialReg::M0 { 1 } else { 2 };
            RegRange {
                file: RegFile::Sgpr,
                first: code,
                count,
            }
        };
        let mut needs = smallvec::SmallVec::new();
        let vector = row.encoding.is_valu()
            || is_vector_memory(row.encoding)
            || matches!(
                row.encoding,
                Encoding::Ds | Encoding::Exp | Encoding::Vintrp
            );
        if vskip && vector {
            needs.push(Need {
                states: 2,
                register: Target::Nothing,
                writer: Writer::SetRegVskip,
                what: "a vector instruction needs 2 after MODE's VSKIP bit is set",
            });
        }
        // Most instructions need nothing: those of the classes no rule reads.
        let may_need = match row.encoding {
            Encoding::Smrd => gen == Gcn1_0,
            Encoding::Sopc | Encoding::Sop2 | Encoding::Smem | Encoding::Exp => false,
            // An LDS instruction: only one that reads M0 late (GDS and the like).
            Encoding::Ds => matches!(gen, Gcn1_2 | Gcn1_4 | Gcn1_4_1),
            Encoding::Sopp => mnemonic.starts_with("s_sendmsg") || mnemonic == "s_ttracedata",
            Encoding::Sop1 if mnemonic == "s_rfe_b64" => true,
            Encoding::Sop1 => mnemonic.starts_with("s_movrel"),
            _ => true,
        };
        if !may_need {
            return needs;
        }
        let mut need = |states, register, writer, what| {
            needs.push(Need {
                states,
                register,
                writer,
                what,
            })
        };
        let vi_to_vega = matches!(gen, Gcn1_2 | Gcn1_4 | Gcn1_4_1);
        match row.encoding {
            Encoding::Smrd if gen == Gcn1_0 => {
                for r in sgpr_reads() {
                    need(4, Target::Register(r), Writer::Valu, "on GCN 1.0 a scalar memory read of an SGPR a vector ALU instruction wrote needs 4");
                    // Not in AMD's manual; LLVM and Mesa's ACO found it (a descriptor
                    // made in place by `s_mov`) and wait 4.
                    if mnemonic.starts_with("s_buffer_load") {
                        need(4, Target::Register(r), Writer::Salu, "on GCN 1.0 `s_buffer_load*` reading an SGPR a scalar ALU instruction wrote needs 4");
                    }
                }
            }
            encoding if vi_to_vega && is_vector_memory(encoding) => {
                for r in sgpr_reads() {
                    need(5, Target::Register(r), Writer::Valu, "a vector memory instruction's read of an SGPR a vector ALU instruction wrote needs 5");
                }
            }
            _ => {}
        }
        if vi_to_vega && self.is_dpp(step) {
            for u in self.program.uses(step) {
                if !u.write && u.range.file == RegFile::Vgpr {
                    need(
                        2,
                        Target::Register(u.range),
                        Writer::Any,
                        "a DPP instruction's read of a VGPR needs 2 after the write",
                    );
                }
            }
            need(
                5,
                Target::Register(special(SpecialReg::Exec)),
                Writer::Valu,
                "a DPP instruction needs 5 after a vector ALU instruction wrote EXEC",
            );
        }
        if mnemonic.starts_with("v_div_fmas_") {
            need(
                4,
                Target::Register(special(SpecialReg::Vcc)),
                Writer::Valu,
                "`v_div_fmas` needs 4 after a vector ALU instruction wrote VCC",
            );
        }
        if gen == Gcn1_0 && matches!(mnemonic, "v_readlane_b32" | "v_readfirstlane_b32") {
            // A hang AMD confirmed to Mesa's ACO: the lane read comes too soon.
            for u in self.program.uses(step) {
                if !u.write && u.range.file == RegFile::Vgpr {
                    need(
                        1,
                        Target::Register(u.range),
                        Writer::Vintrp,
                        "on GCN 1.0 `v_readlane_b32` or `v_readfirstlane_b32` reading a VGPR `v_interp*` wrote needs 1",
                    );
                }
            }
        }
        if matches!(mnemonic, "v_readlane_b32" | "v_writelane_b32") {
            if let Some(lane) = self.lane_select(step) {
                need(
                    4,
                    Target::Register(lane),
                    Writer::Valu,
                    "a lane select read needs 4 after a vector ALU instruction wrote the SGPR",
                );
            }
        }
        if let Some(hwreg) = self.hwreg(step) {
            if mnemonic == "s_getreg_b32" {
                need(
                    2,
                    Target::HwReg(hwreg),
                    Writer::SetReg,
                    "`s_getreg_b32` needs 2",
                );
                if hwreg == HWREG_MODE {
                    need(
                        2,
                        Target::Nothing,
                        Writer::SetVskip,
                        "`s_getreg_b32` of MODE needs 2 after `s_setvskip`",
                    );
                }
            } else if mnemonic.starts_with("s_setreg") {
                let (states, what) = if gen <= Gcn1_1 {
                    (1, "`s_setreg` needs 1 on GCN 1.0 and 1.1")
                } else {
                    (2, "`s_setreg` needs 2 from GCN 1.2")
                };
                need(states, Target::HwReg(hwreg), Writer::SetReg, what);
            }
        }
        let reads_m0 = vi_to_vega && self.reads_m0_late(step);
        if vi_to_vega && mnemonic == "s_rfe_b64" {
            need(
                1,
                Target::HwReg(HWREG_TRAPSTS),
                Writer::SetReg,
                "it needs 1",
            );
        }
        if matches!(gen, Gcn1_1 | Gcn1_2 | Gcn1_4 | Gcn1_4_1) && row.encoding.is_valu() {
            for u in self.program.uses(step) {
                if u.write && u.range.file == RegFile::Vgpr {
                    need(
                        1,
                        Target::Register(u.range),
                        Writer::WideStore,
                        "a vector ALU write of the data registers of a store or atomic of more than 8 bytes needs 1 after it",
                    );
                }
            }
        }
        if gen <= Gcn1_4_1 && row.encoding.is_valu() {
            for (code, reg, what) in [
                (VCCZ, SpecialReg::Vcc, "reading VCCZ (whether VCC is zero) as data needs 5 after a vector ALU instruction wrote VCC"),
                (EXECZ, SpecialReg::Exec, "reading EXECZ (whether EXEC is zero) as data needs 5 after a vector ALU instruction wrote EXEC"),
            ] {
                if self.vector_sources(step).contains(&code) {
                    need(5, Target::Register(special(reg)), Writer::Valu, what);
                }
            }
        }
        if reads_m0 {
            need(
                1,
                Target::Register(special(SpecialReg::M0)),
                Writer::Salu,
                "it needs 1 after a scalar ALU instruction wrote M0",
            );
        }
        needs
    }

    /// What the instruction at `step` needs on GCN 1.5, which checks the dependencies
    /// of registers itself.
    fn gfx10_needs(&self, step: usize) -> smallvec::SmallVec<[Need; 2]> {
        let row = self.program.steps[step].row;
        let mut needs = smallvec::SmallVec::new();
        let buffer = matches!(row.encoding, Encoding::Mubuf | Encoding::Mtbuf);
        // OFFSET, bits 0 to 11 of the first word.
        if buffer && self.first_word(step).is_some_and(|w| w & 6 != 0) {
            needs.push(Need {
                states: 1,
                register: Target::Nothing,
                writer: Writer::NsaImage,
                what: "on GCN 1.5 a buffer instruction whose offset has bit 1 or 2 set needs 1 after it",
            });
        }
        if self.is_nsa_image(step) {
            needs.push(Need {
                states: 1,
                register: Target::Nothing,
                writer: Writer::Writelane,
                what: "on GCN 1.5 an image instruction in the NSA form needs 1 after `v_writelane_b32`",
            });
        }
        if row.mnemonic == "s_denorm_mode" {
            needs.push(Need {
                states: 3,
                register: Target::Nothing,
                writer: Writer::FpAtomic,
                what: "on GCN 1.5 `s_denorm_mode` needs 3 after it, unless a vector ALU instruction or a wait comes between",
            });
        }
        needs
    }

    /// The hazard `need` of `step` makes, if the instructions before it on some path
    /// do not give the wait states: the one with the fewest.
    fn unmet(&self, step: usize, need: &Need, paths: &Paths) -> Option<WaitHazard> {
        let mut search = Search {
            need,
            paths,
            visits: 0,
            closest: None,
        };
        self.write_before(paths.block_of(step), step, 0, &mut search);
        let (writer, register, states) = search.closest?;
        let missing = need.states - states;
        Some(self.hazard(step, writer, need, register, states, missing))
    }

    /// Looks for the last write `search` needs before `step` in `block`, `states` wait
    /// states already given after `step`, then on every path into `block` (the blocks
    /// before it are entered at their ends).
    fn write_before(&self, block: usize, step: usize, mut states: u32, search: &mut Search) {
        let need = search.need.states.min(MAX_STATES);
        let mut at = step;
        while states < need {
            if at == search.paths.blocks[block].steps.start {
                for &before in &search.paths.before[block] {
                    if search.visits >= MAX_VISITS {
                        return;
                    }
                    search.visits += 1;
                    let end = search.paths.blocks[before].steps.end;
                    self.write_before(before, end, states, search);
                }
                return;
            }
            at -= 1;
            if self.skipped.get() == Some(at) {
                continue;
            }
            if let Some(register) = self.writes(at, search.need) {
                if search.closest.is_none_or(|(_, _, fewest)| states < fewest) {
                    search.closest = Some((at, register, states));
                }
                return;
            }
            states += self.wait_states(at);
            if search.need.writer == Writer::FpAtomic && self.ends_fp_atomic_hazard(at) {
                return;
            }
        }
    }

    /// Whether the instruction at `step` ends a floating-point atomic's hazard with a
    /// later `s_denorm_mode`: a VALU instruction or a wait.
    fn ends_fp_atomic_hazard(&self, step: usize) -> bool {
        let row = self.program.steps[step].row;
        row.encoding.is_valu() || row.mnemonic.starts_with("s_waitcnt")
    }

    /// What of `need`'s register the instruction at `step` writes, if it is a writer
    /// of the kind `need` looks for.
    fn writes(&self, step: usize, need: &Need) -> Option<Option<RegRange>> {
        let row = self.program.steps[step].row;
        let kind_matches = match need.writer {
            Writer::Valu => row.encoding.is_valu(),
            Writer::Salu => matches!(
                row.encoding,
                Encoding::Sop1 | Encoding::Sop2 | Encoding::Sopk | Encoding::Sopc
            ),
            Writer::Any => true,
            Writer::SetReg => row.mnemonic.starts_with("s_setreg"),
            Writer::SetVskip => row.mnemonic == "s_setvskip",
            Writer::SetRegVskip => row.mnemonic != "s_setvskip" && self.writes_vskip(step),
            Writer::NsaImage => return self.is_long_nsa_image(step).then_some(None),
            Writer::Writelane => return (row.mnemonic == "v_writelane_b32").then_some(None),
            Writer::Vintrp => {
                row.encoding == Encoding::Vintrp || row.mnemonic.starts_with("v_interp")
            }
            Writer::FpAtomic => {
                let fp_atomic = row.flags.contains(Flags::ATOMIC)
                    && ["_atomic_fcmpswap", "_atomic_fmin", "_atomic_fmax"]
                        .iter()
                        .any(|op| row.mnemonic.contains(op));
                return fp_atomic.then_some(None);
            }
            Writer::WideStore => {
                let Target::Register(written) = need.register else {
                    return None;
                };
                return self
                    .wide_data(step)
                    .and_then(|d| overlap(d, written))
                    .map(Some);
            }
        };
        if !kind_matches {
            return None;
        }
        match need.register {
            Target::Nothing => Some(None),
            Target::HwReg(id) => (self.hwreg(step) == Some(id)).then_some(None),
            Target::Register(read) => self
                .program
                .writes(step)
                .find_map(|w| overlap(w, read))
                .map(Some),
        }
    }

    fn hazard(
        &self,
        reader: usize,
        writer: usize,
        need: &Need,
        register: Option<RegRange>,
        states: u32,
        missing: u32,
    ) -> WaitHazard {
        let (read, wrote) = (&self.program.steps[reader], &self.program.steps[writer]);
        let plural = if states == 1 { "" } else { "s" };
        let nop = format!("s_nop {}", missing - 1);
        let (reader_name, writer_name) = (read.row.mnemonic, wrote.row.mnemonic);
        let what = need.what;
        let message = match (register, need.writer) {
            (Some(r), Writer::WideStore) => format!(
                "`{}` is written by `{reader_name}` {states} wait state{plural} after `{writer_name}` {}: {what} (insert `{nop}` before it)",
                register_text(self.gen, r),
                if wrote.row.flags.contains(Flags::ATOMIC) { "took it as data" } else { "stored it" },
            ),
            (Some(r), _) => format!(
                "`{}` is read by `{reader_name}` {states} wait state{plural} after `{writer_name}` wrote it: {what} (insert `{nop}` before it)",
                register_text(self.gen, r),
            ),
            (None, Writer::NsaImage) => format!(
                "`{reader_name}` comes {states} wait state{plural} after `{writer_name}`, an image instruction in the NSA form of 16 bytes or more: {what} (insert `{nop}` before it)"
            ),
            (None, Writer::FpAtomic) => format!(
                "`{reader_name}` comes {states} wait state{plural} after `{writer_name}`, a floating-point atomic: {what} (insert `{nop}` before it)"
            ),
            (None, Writer::SetVskip | Writer::Writelane) => format!(
                "`{reader_name}` comes {states} wait state{plural} after `{writer_name}`: {what} (insert `{nop}` before it)"
            ),
            (None, Writer::SetRegVskip) => format!(
                "`{reader_name}` comes {states} wait state{plural} after `{writer_name}` sets MODE's VSKIP bit: {what} (insert `{nop}` before it)"
            ),
            (None, _) if reader_name == "s_rfe_b64" => format!(
                "`{reader_name}` comes {states} wait state{plural} after `{writer_name}` of TRAPSTS: {what} (insert `{nop}` before it)"
            ),
            (None, _) => format!(
                "`{reader_name}` comes {states} wait state{plural} after `{writer_name}` of the same hardware register: {what} (insert `{nop}` before it)"
            ),
        };
        let operation = match need.writer {
            Writer::WideStore if wrote.row.flags.contains(Flags::ATOMIC) => "atomic",
            Writer::WideStore => "store",
            Writer::NsaImage => "image instruction",
            Writer::FpAtomic => "atomic",
            _ => "write",
        };
        self.hazard_at(reader, message, writer, operation, nop)
    }

    /// The wait states the instruction at `step` gives those after it.
    fn wait_states(&self, step: usize) -> u32 {
        if self.program.steps[step].row.mnemonic != "s_nop" {
            return 1;
        }
        let mask = if self.gen <= Generation::Gcn1_1 {
            7
        } else {
            15
        };
        self.first_word(step).map_or(1, |w| (w & mask) + 1)
    }

    /// The data VGPRs of the store or atomic at `step`, if they are more than 8 bytes and
    /// the hardware may read them after the next instruction: always for FLAT, global
    /// and scratch, for MUBUF and MTBUF when SOFFSET is a constant (as LLVM's hazard
    /// recognizer has it), for an image instruction with a 128-bit resource (AMD's ISA
    /// manuals; LLVM's image instructions all take 256-bit ones).
    fn wide_data(&self, step: usize) -> Option<RegRange> {
        let row = self.program.steps[step].row;
        if !(row.flags.contains(Flags::STORE) || row.flags.contains(Flags::ATOMIC)) {
            return None;
        }
        let second = self.word(step, 1)?;
        let buffer = matches!(row.encoding, Encoding::Mubuf | Encoding::Mtbuf);
        let flat = matches!(
            row.encoding,
            Encoding::Flat | Encoding::Global | Encoding::Scratch
        );
        // SOFFSET 128 and up is an inline constant (no literal there).
        let constant_soffset = second >> 24 >= 128;
        let image = row.encoding == Encoding::Mimg && self.has_128_bit_resource(step, second);
        if !(flat || buffer && constant_soffset || image) {
            return None;
        }
        let data = ((second >> 8) & 0xff) as u16;
        self.program
            .uses(step)
            .iter()
            .find(|u| !u.write && u.range.file == RegFile::Vgpr && u.range.first == data)
            .map(|u| u.range)
            .filter(|r| r.count > 2)
    }

    /// Whether the image instruction at `step`, whose second word is `second`, reads a
    /// 128-bit resource (`r128`: SRSRC names 4 SGPRs, not 8).
    fn has_128_bit_resource(&self, step: usize, second: u32) -> bool {
        let srsrc = ((second >> 16) & 0x1f) as u16 * 4;
        self.program.uses(step).iter().any(|u| {
            !u.write
                && u.range.file == RegFile::Sgpr
                && u.range.first == srsrc
                && u.range.count == 4
        })
    }

    /// Whether the instruction at `step` is an image instruction in GCN 1.5's NSA form
    /// (its addresses a list): NSA's dword count (bits 1 and 2) is not 0.
    fn is_nsa_image(&self, step: usize) -> bool {
        self.program.steps[step].row.encoding == Encoding::Mimg
            && self.first_word(step).is_some_and(|w| (w >> 1) & 3 >= 1)
    }

    /// Whether the instruction at `step` is an image instruction in GCN 1.5's NSA form
    /// of 16 bytes or more: NSA's dword count (bits 1 and 2) is 2 or more.
    fn is_long_nsa_image(&self, step: usize) -> bool {
        self.program.steps[step].row.encoding == Encoding::Mimg
            && self.first_word(step).is_some_and(|w| (w >> 1) & 3 >= 2)
    }

    /// Whether the instruction at `step` reads M0 where GCN 1.2 to 1.4 need a wait state
    /// after a scalar ALU instruction wrote it (LLVM's readers of M0 with a hazard):
    /// `s_sendmsg`, `s_sendmsghalt`, `s_ttracedata` and an LDS instruction that goes to
    /// GDS; on GCN 1.4 also `s_movrel*`, `v_interp*`, the `*_addtid_b32` LDS
    /// instructions, a load into LDS (`lds`) and an operand `lds_direct`.
    fn reads_m0_late(&self, step: usize) -> bool {
        let row = self.program.steps[step].row;
        let mnemonic = row.mnemonic;
        let vega = matches!(self.gen, Generation::Gcn1_4 | Generation::Gcn1_4_1);
        matches!(mnemonic, "s_sendmsg" | "s_sendmsghalt" | "s_ttracedata")
            || self.step_goes_to_gds(step)
            || vega
                && (mnemonic.starts_with("s_movrel")
                    || mnemonic.starts_with("v_interp")
                    || row.encoding == Encoding::Vintrp
                    || matches!(
                        mnemonic,
                        "ds_read_addtid_b32" | "ds_write_addtid_b32" | "buffer_store_lds_dword"
                    )
                    || self.loads_into_lds(step)
                    || self.vector_sources(step).contains(&LDS_DIRECT))
    }

    /// Whether the instruction at `step` loads into LDS: its `lds` bit (bit 16 of a
    /// MUBUF's first word, bit 13 of a global or scratch instruction's).
    pub(super) fn loads_into_lds(&self, step: usize) -> bool {
        let bit = match self.program.steps[step].row.encoding {
            Encoding::Mubuf => 16,
            Encoding::Global | Encoding::Scratch => 13,
            _ => return false,
        };
        self.first_word(step).is_some_and(|w| w >> bit & 1 == 1)
    }

    /// The 9-bit source codes of the GCN 1.0 to 1.4 vector ALU instruction at `step`:
    /// SRC0 of the 32-bit forms, SRC0 to SRC2 of VOP3 and VOP3P (whose first word's top
    /// six bits are 110100); none for DPP and SDWA, whose sources are VGPRs.
    pub(super) fn vector_sources(&self, step: usize) -> smallvec::SmallVec<[u32; 3]> {
        let mut sources = smallvec::SmallVec::new();
        if !self.program.steps[step].row.encoding.is_valu() {
            return sources;
        }
        let Some(first) = self.first_word(step) else {
            return sources;
        };
        if first >> 26 == 0b110100 {
            if let Some(second) = self.word(step, 1) {
                sources.extend([
                    second & 0x1ff,
                    (second >> 9) & 0x1ff,
                    (second >> 18) & 0x1ff,
                ]);
            }
        } else if !matches!(first & 0x1ff, 0xf9 | 0xfa) {
            sources.push(first & 0x1ff);
        }
        sources
    }

    /// Whether the instruction at `step` is a DPP form (SRC0 field 0xFA).
    fn is_dpp(&self, step: usize) -> bool {
        let row = self.program.steps[step].row;
        row.encoding.has_vop3_form() && self.first_word(step).is_some_and(|w| w & 0x1ff == 0xfa)
    }

    /// Whether the instruction at `step` may set VSKIP: `s_setvskip`, or an `s_setreg*`
    /// of MODE whose bit field holds bit 28 (SIMM16: the id, then the offset in bits
    /// 6 to 10 and the size less one in bits 11 to 15).
    fn writes_vskip(&self, step: usize) -> bool {
        let row = self.program.steps[step].row;
        if row.mnemonic == "s_setvskip" {
            return true;
        }
        if !row.mnemonic.starts_with("s_setreg") || self.hwreg(step) != Some(HWREG_MODE) {
            return false;
        }
        self.first_word(step).is_some_and(|w| {
            let (offset, size) = ((w >> 6) & 31, ((w >> 11) & 31) + 1);
            (offset..offset + size).contains(&MODE_VSKIP_BIT)
        })
    }

    /// The hardware register an `s_getreg`/`s_setreg` names (SIMM16's id field).
    fn hwreg(&self, step: usize) -> Option<u32> {
        let row = self.program.steps[step].row;
        let named = row.encoding == Encoding::Sopk
            && (row.mnemonic == "s_getreg_b32" || row.mnemonic.starts_with("s_setreg"));
        named.then(|| self.first_word(step).map(|w| w & 0x3f))?
    }

    /// The SGPR a `v_readlane_b32`/`v_writelane_b32` selects its lane with (its second
    /// source), if it is one.
    fn lane_select(&self, step: usize) -> Option<RegRange> {
        let first = self.word(step, 0)?;
        let code = if first >> 31 == 0 {
            // VOP2 (GCN 1.0, 1.1): VSRC1 holds the SGPR.
            (first >> 9) & 0xff
        } else {
            // VOP3: SRC1.
            (self.word(step, 1)? >> 9) & 0x1ff
        };
        // Any scalar register: VCC and the trap temporaries too (LLVM's
        // `checkRWLaneHazards` takes any SGPR class), not a constant.
        (code < 128).then_some(RegRange {
            file: RegFile::Sgpr,
            first: code as u16,
            count: 1,
        })
    }
}

/// Buffer, image, FLAT, global and scratch instructions: vector memory.
pub(super) fn is_vector_memory(encoding: Encoding) -> bool {
    matches!(
        encoding,
        Encoding::Mubuf
            | Encoding::Mtbuf
            | Encoding::Mimg
            | Encoding::Flat
            | Encoding::Global
            | Encoding::Scratch
    )
}
