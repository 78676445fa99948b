//! A register used while a memory load that writes it may still be in flight: the
//! `s_waitcnt` a hand-written kernel forgot. An editor's check (asked for with
//! [`crate::Options::check_waits`]); the reference assembler has none, so `gcnasm`
//! never reports it.
//!
//! The instructions of each code section are followed along every path the program can
//! take: to the next instruction, and through branches to their targets, loops and
//! joins included. Every memory instruction joins the queue of the counter it counts
//! in; a later `s_waitcnt` retires what it guarantees done; an instruction that reads or
//! writes a register a queued load writes on some path to it is reported (once per load
//! and path). What the counters guarantee:
//!
//! - vector memory (MUBUF, MTBUF, MIMG, global and scratch) returns in order: after
//!   `vmcnt(N)` all but the last N are done. From GCN 1.5 stores count in `vscnt`;
//! - LDS instructions return in order among themselves, and GDS ones among
//!   themselves, one of each in either order: after `lgkmcnt(N)`, an LDS (GDS)
//!   operation followed by at least N other LDS (GDS) operations is done;
//! - scalar memory and messages return in any order: only `lgkmcnt(0)` guarantees them;
//! - FLAT counts in both counters: its registers are taken as safe when `vmcnt` covers
//!   it as it covers the vector memory operations (what AMD's compiler relies on for
//!   global memory), not after `lgkmcnt(0)` alone (it may have gone to global memory);
//!   it is done when both did.
//! - an export, and on GCN 1.0 a vector memory store or atomic, reads its data
//!   registers after it issues, counted in order in `expcnt`: writing one of them before
//!   the wait is reported (reading them is harmless). A store or atomic its other
//!   counter says is done has read them too. From GCN 1.1 a store reads its data when
//!   it issues.
//!
//! A memory instruction reads its operands when it issues, before an earlier load can
//! return. Two such reads are not reported: a vector memory instruction's of an address
//! after a vector memory load (AMD's compiler reuses an address register as the
//! destination of a load before the next access so; data it stores is reported, as
//! LLVM waits for it), and any memory instruction's, as an address, of registers the
//! load itself read as one (`s_load_dwordx2 s[0:1], s[0:1], 0` then
//! `s_load_dword s2, s[0:1], 8`, as CLRX's sample kernels do: both loads mean the old
//! address; a store of the loaded value, or an atomic's data, is reported).
//!
//! A counter holds so many operations (`vmcnt` 15 before GCN 1.4, 63 after; `lgkmcnt`
//! 31, 15 from GCN 1.2, 63 on GCN 1.5; `expcnt` 7): a wave that would count one more waits, so the
//! oldest of a full counter is taken as done.
//!
//! Where paths join (a label a branch goes to, a loop's start), an operation is in
//! flight if it is on one of them, with the fewest operations after it of all (so the
//! wait suggested holds on every path). A branch's target and a wait's counts are
//! read from the finished section, so labels and counts defined further on are known.
//! Code that no branch or fall-through is known to reach (after `s_endpgm`, reached by
//! `s_setpc_b64` or as another kernel's entry) starts with nothing in flight: a hazard
//! on a path not followed is missed, never made up. For the other question, whether a
//! wait may block at all, what was not followed counts as anything: after a call or a
//! trap, and at such code in a section with a jump through a register (but its first
//! instruction, a kernel's start), a counter may hold operations not followed until a
//! wait for 0 on it. So is one the check has no time
//! for: the states at the joins grow from nothing until they settle, bounded in size
//! ([`MAX_OPS`]) and in work ([`FOLLOW_BUDGET`]) for a program tangled enough to need
//! more, and what they hold when stopped is in flight still.

use gcn_isa::encode::{RegFile, RegRange, RegUse};
use gcn_isa::table::{Encoding, Flags, Instruction};
use gcn_isa::Generation;

use crate::diag::{Diagnostic, Origin};

mod clauses;
mod gfx10;
mod nops;
mod uninit;
use crate::source::Location;
use nops::HazardRules;

/// A register used while a load that writes it may still be in flight.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WaitHazard {
    /// A warning at the instruction that uses the register (with its origin chain).
    pub diagnostic: Diagnostic,
    /// Where the memory operation is (a load, or a store or export still reading the
    /// register), its length, and what it is: `load`, `store`, `atomic` or `export`.
    pub load: Location,
    pub load_len: u32,
    pub operation: &'static str,
    /// The `s_waitcnt` that makes the use safe, written before it (or the `s_nop`).
    pub wait: String,
    /// The fix goes after the instruction, not before it (an `s_nop` padding a branch).
    pub after: bool,
}

/// The counter an operation counts in, and whether its results come back in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Queue {
    /// `vmcnt`, in order (before GCN 1.5, stores too).
    Vm,
    /// `vscnt` (GCN 1.5 stores), in order.
    VmStore,
    /// `lgkmcnt`, in order among themselves (LDS).
    LgkmOrdered,
    /// `lgkmcnt`, in order among themselves (GDS), in either order with LDS (LLVM and
    /// Mesa's ACO wait for 0 where both are in flight).
    GdsOrdered,
    /// `lgkmcnt`, any order (scalar memory, messages).
    LgkmAnyOrder,
    /// `vmcnt` (in order) and `lgkmcnt` (FLAT).
    Flat,
    /// `expcnt`, in order: the data registers of an export, or of a GCN 1.0 store or
    /// atomic, still to be read.
    Exp,
}

/// What an `s_waitcnt` asks of each counter: at most this many left in flight
/// (`u32::MAX`: no wait on that counter).
#[derive(Debug, Clone, Copy)]
struct Wait {
    vm: u32,
    lgkm: u32,
    vs: u32,
    exp: u32,
}

impl Wait {
    const ALL: Wait = Wait {
        vm: 0,
        lgkm: 0,
        vs: 0,
        exp: 0,
    };

    const NONE: Wait = Wait {
        vm: u32::MAX,
        lgkm: u32::MAX,
        vs: u32::MAX,
        exp: u32::MAX,
    };
}

/// A use found: the register (those of the use the load writes), whether the use
/// writes it, the load and the wait that retires it. Put in words only when kept.
#[derive(Debug, Clone)]
struct Found {
    register: RegRange,
    write: bool,
    /// The operation reads the register (a store's data), rather than loads it.
    lock: bool,
    /// The step of the load.
    load: usize,
    /// The load's queue and how many operations of the queues it waits with came after
    /// (on the path with fewest).
    queue: Queue,
    later: u8,
}

impl Found {
    /// The least `s_waitcnt` that retires the load.
    fn wait(&self) -> String {
        let later = self.later;
        match self.queue {
            Queue::Vm | Queue::Flat => format!("s_waitcnt vmcnt({later})"),
            Queue::VmStore => format!("s_waitcnt_vscnt null, {later}"),
            Queue::LgkmOrdered | Queue::GdsOrdered => format!("s_waitcnt lgkmcnt({later})"),
            Queue::LgkmAnyOrder => "s_waitcnt lgkmcnt(0)".to_string(),
            Queue::Exp => format!("s_waitcnt expcnt({later})"),
        }
    }

    fn message(&self, gen: Generation, load: &str) -> String {
        let register = register_text(gen, self.register);
        let wait = self.wait();
        if self.lock {
            format!(
                "`{register}` is written while the `{load}` that reads it may not have read it yet, so it may take the new value (wait with `{wait}` first)"
            )
        } else if self.write {
            format!(
                "`{register}` is written while the `{load}` that loads it may still be in flight, so the load may overwrite it afterwards (wait with `{wait}` first)"
            )
        } else {
            format!(
                "`{register}` is read while the `{load}` that loads it may still be in flight, so it may read the old value (to read the loaded one, wait with `{wait}` first)"
            )
        }
    }
}

/// The instructions of every section, recorded as the assembler goes, then followed
/// along their branches once the program is whole ([`Waits::finish`]): a branch's
/// target and an `s_waitcnt`'s counts are read from the final bytes, so a label or a
/// count defined later is known.
#[derive(Default)]
pub(crate) struct Waits {
    /// By section index.
    by_section: Vec<Program>,
    checks: Checks,
}

/// Which checks the recorded instructions are for.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct Checks {
    /// Loads in flight ([`crate::Options::check_waits`]).
    pub waits: bool,
    /// Wait states ([`crate::Options::check_nops`]).
    pub nops: bool,
    /// Registers read before anything writes them
    /// ([`crate::Options::check_uninitialized`]).
    pub uninitialized: bool,
}

/// Where a kernel's code starts (the first instruction at or after this offset of the
/// section), and the SGPRs and VGPRs its setup fills before (s0 and v0 up).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct KernelEntry {
    pub kernel: String,
    pub section: usize,
    pub offset: usize,
    pub sgprs: u32,
    pub vgprs: u32,
}

impl std::fmt::Debug for Waits {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let steps: usize = self.by_section.iter().map(|p| p.steps.len()).sum();
        write!(f, "Waits {{ {steps} instructions }}")
    }
}

/// The most instructions the checks follow: past it, none is checked (their record
/// takes some 200 bytes an instruction).
pub const MAX_CHECKED: usize = 1_000_000;

/// At most this many are kept: a source with more (generated, or never meant to run)
/// gets nothing from thousands of warnings but a slow editor.
pub const MAX_HAZARDS: usize = 100;

/// The instructions of one section, in the order they were assembled.
#[derive(Default)]
struct Program {
    steps: Vec<Step>,
    /// The register uses of all steps, one after another.
    uses: Vec<RegUse>,
    /// The registers each step reads after it is issued ([`locks_of`]), one after another.
    locks: Vec<RegRange>,
}

/// An instruction: where it is in its section and in the source, what it is and uses.
struct Step {
    offset: usize,
    row: &'static Instruction,
    /// Its slices of [`Program::uses`] and [`Program::locks`].
    uses: std::ops::Range<u32>,
    locks: std::ops::Range<u32>,
    /// The queue it joins, if it is a memory instruction ([`queue_of`]); whether it is
    /// an `s_waitcnt` (its counts are read from the finished bytes).
    queue: Option<Queue>,
    waits: bool,
    /// What is in flight after it is not all followed ([`leaves_unfollowed`]).
    leaves_unfollowed: bool,
    /// How it changes EXEC ([`exec_write_of`]).
    exec_write: ExecWrite,
    /// It runs in wave32 (GCN 1.5): EXEC is `exec_lo`.
    wave32: bool,
    at: Location,
    len: u32,
    origin: Origin,
}

impl Program {
    fn uses(&self, step: usize) -> &[RegUse] {
        let range = &self.steps[step].uses;
        &self.uses[range.start as usize..range.end as usize]
    }

    /// The registers `step` writes.
    fn writes(&self, step: usize) -> impl Iterator<Item = RegRange> + '_ {
        self.uses(step).iter().filter(|u| u.write).map(|u| u.range)
    }

    /// The registers `step` reads after it is issued.
    fn locks(&self, step: usize) -> &[RegRange] {
        let range = &self.steps[step].locks;
        &self.locks[range.start as usize..range.end as usize]
    }

    /// The registers an operation of `step` holds: those it writes, or with `lock`
    /// those it reads after it is issued.
    fn held(&self, step: usize, lock: bool) -> impl Iterator<Item = RegRange> + '_ {
        let (writes, locks) = if lock {
            (None, Some(self.locks(step).iter().copied()))
        } else {
            (Some(self.writes(step)), None)
        };
        writes
            .into_iter()
            .flatten()
            .chain(locks.into_iter().flatten())
    }
}

/// Where an instruction is in the source: its place, length and macro chain.
pub(crate) struct Place {
    pub at: Location,
    pub len: u32,
    pub origin: Origin,
}

/// What the check found: the first [`MAX_HAZARDS`] hazards, and how many more; what
/// each wait waits for.
#[derive(Default)]
pub(crate) struct Findings {
    pub hazards: Vec<WaitHazard>,
    pub more: usize,
    pub waits: Vec<WaitEffect>,
    /// Reads too soon after a write ([`nops`]), the first [`MAX_HAZARDS`], and how many
    /// more.
    pub nops: Vec<WaitHazard>,
    pub more_nops: usize,
    /// Registers read before anything writes them ([`uninit`]), the first
    /// [`MAX_HAZARDS`], and how many more.
    pub uninitialized: Vec<Diagnostic>,
    pub more_uninitialized: usize,
}

/// What an `s_waitcnt` waits for: the memory operations that may be in flight when it
/// runs (on the paths followed), those it guarantees done and those it leaves. A wait
/// in a macro or repetition has one for each time it runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WaitEffect {
    /// Where the wait is (its first line, in its own file), and its length.
    pub at: Location,
    pub len: u32,
    pub retired: Vec<Operation>,
    pub left: Vec<Operation>,
    /// Operations the check does not follow may be in flight too, in a counter it
    /// waits on: after a call or a trap, or where a jump through a register may land.
    pub unfollowed: bool,
    /// It never stops the wave: on every path, no more operations of each counter
    /// than its count for it can be in flight there, none of them not followed (and
    /// the check settled without dropping operations).
    pub needless: bool,
}

/// A memory operation: where its instruction is, its length and mnemonic.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Operation {
    pub at: Location,
    pub len: u32,
    pub mnemonic: &'static str,
}

/// Why VCCZ may be wrong where it is read.
#[derive(Debug, Clone, Copy)]
enum VcczCause {
    /// GCN 1.0 and 1.1: the scalar memory load at `load` may have corrupted it
    /// ([`State::vccz_clobber`]); `in_flight` when one may still be in flight.
    Load { load: usize, in_flight: bool },
    /// The last write of VCC, at `write`, wrote only half of it
    /// ([`State::vccz_half_write`]).
    HalfWrite { write: usize },
}

/// What following a block tells: a use found at a step, or what the wait at a step
/// retires and leaves (by the steps that issued them).
#[derive(Debug, Clone)]
enum Event {
    Hazard(usize, Found),
    /// GCN 1.0 to 1.4: the instruction at `step` reads VCCZ, which may be wrong.
    Vccz {
        step: usize,
        cause: VcczCause,
    },
    Wait {
        step: usize,
        retired: Vec<usize>,
        left: Vec<usize>,
        /// Whether it may stop the wave: more operations of a counter than its count
        /// allows may be in flight.
        may_block: bool,
        /// Whether operations not followed may be in flight in a counter it waits on.
        unfollowed: bool,
    },
}

impl Waits {
    /// How many instructions are recorded, in all sections.
    pub(crate) fn instructions(&self) -> usize {
        self.by_section.iter().map(|p| p.steps.len()).sum()
    }

    pub(crate) fn new(checks: Checks) -> Waits {
        Waits {
            by_section: Vec::new(),
            checks,
        }
    }

    /// Records an instruction assembled in a section at an offset (to `words`, whose
    /// register fields are final), which uses `regs`.
    pub(crate) fn instruction(
        &mut self,
        (gen, wave32): (Generation, bool),
        (section, offset): (usize, usize),
        row: &'static Instruction,
        words: &[u32],
        regs: &[RegUse],
        place: Place,
    ) {
        if self.by_section.len() <= section {
            self.by_section.resize_with(section + 1, Program::default);
        }
        let program = &mut self.by_section[section];
        let first = program.uses.len() as u32;
        program.uses.extend_from_slice(regs);
        let first_lock = program.locks.len() as u32;
        program.locks.extend(locks_of(gen, row, words, regs));
        program.steps.push(Step {
            offset,
            row,
            uses: first..program.uses.len() as u32,
            locks: first_lock..program.locks.len() as u32,
            queue: queue_of(gen, row, words, regs),
            waits: wait_of(gen, row, None).is_some(),
            leaves_unfollowed: leaves_unfollowed(row),
            exec_write: exec_write_of((gen, wave32), row, words, regs),
            wave32: wave32 && gen.is_gfx10(),
            at: place.at,
            len: place.len,
            origin: place.origin,
        });
    }

    /// Follows every section's instructions along their branches, with `contents` the
    /// sections' final bytes and `entries` where the kernels start.
    pub(crate) fn finish(
        self,
        gen: Generation,
        contents: &[&[u8]],
        entries: &[KernelEntry],
        xnack: bool,
    ) -> Findings {
        let mut findings = Findings::default();
        for (section, program) in self.by_section.iter().enumerate() {
            let content = contents.get(section).copied().unwrap_or_default();
            let code = Code {
                gen,
                program,
                content,
                limits: limits(),
                skipped: Default::default(),
                xnack,
            };
            if program.steps.is_empty() {
                continue;
            }
            let blocks = code.blocks();
            let here: Vec<KernelEntry> = entries
                .iter()
                .filter(|e| e.section == section)
                .cloned()
                .collect();
            if self.checks.waits {
                code.check(&blocks, &here, &mut findings);
            }
            if self.checks.nops {
                code.nop_hazards(&blocks, &mut findings.nops);
                code.gfx10_hazards(&blocks, &mut findings.nops);
                code.branch_offset_hazards(&mut findings.nops);
                code.soft_clause_hazards(&blocks, &mut findings.nops);
            }
            if self.checks.uninitialized {
                code.uninitialized_reads(&blocks, &here, &mut findings.uninitialized);
            }
        }
        if findings.uninitialized.len() > MAX_HAZARDS {
            findings.more_uninitialized = findings.uninitialized.len() - MAX_HAZARDS;
            findings.uninitialized.truncate(MAX_HAZARDS);
        }
        if findings.nops.len() > MAX_HAZARDS {
            findings.more_nops = findings.nops.len() - MAX_HAZARDS;
            findings.nops.truncate(MAX_HAZARDS);
        }
        findings
    }
}

/// A section's instructions with its bytes, on a generation.
struct Code<'a> {
    gen: Generation,
    program: &'a Program,
    content: &'a [u8],
    limits: Limits,
    /// A wait the hazard rules take as not there, while asking whether they need it
    /// ([`Code::hazard_rules_need`]).
    skipped: std::cell::Cell<Option<usize>>,
    /// XNACK is on (`format_ops::xnack_enabled`): soft clauses are checked.
    xnack: bool,
}

/// Where control goes after an instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Flow {
    /// To the next instruction.
    Next,
    /// To the instruction at this offset (an unconditional branch).
    Jump(i64),
    /// To the next instruction or the one at this offset.
    Branch(i64),
    /// Nowhere known: the end of the program, a jump through a register.
    End,
}

/// A run of instructions entered only at its first and left only after its last.
#[derive(Debug)]
struct Block {
    steps: std::ops::Range<usize>,
    next: smallvec::SmallVec<[usize; 2]>,
}

/// How much following (instructions times operations in flight) the states may take to
/// settle. They grow from nothing towards what they settle to, so where a program
/// tangled enough to need more stops them early, what they hold then is in flight
/// still: hazards are missed, never made up. A program as an editor holds one needs a
/// small part of it.
const FOLLOW_BUDGET: usize = 10_000_000;

/// The most operations a state keeps: one path holds at most what the counters hold
/// (under 200), the paths that join at a point may bring many more. Those with most
/// operations after them are dropped first (missed, never made up).
const MAX_OPS: usize = 256;

/// How far the check goes: [`FOLLOW_BUDGET`] and [`MAX_OPS`] (a test tries others).
#[derive(Debug, Clone, Copy)]
struct Limits {
    budget: usize,
    max_ops: usize,
}

const LIMITS: Limits = Limits {
    budget: FOLLOW_BUDGET,
    max_ops: MAX_OPS,
};

#[cfg(test)]
thread_local! {
    static TEST_LIMITS: std::cell::Cell<Limits> = const { std::cell::Cell::new(LIMITS) };
}

fn limits() -> Limits {
    #[cfg(test)]
    return TEST_LIMITS.get();
    #[cfg(not(test))]
    LIMITS
}

impl Code<'_> {
    /// The first word of `step`, as the finished section holds it.
    fn first_word(&self, step: usize) -> Option<u32> {
        self.word(step, 0)
    }

    /// The `i`th word of the instruction at `step`, as the finished section holds it.
    fn word(&self, step: usize, i: usize) -> Option<u32> {
        let offset = self.program.steps[step].offset + 4 * i;
        let bytes = self.content.get(offset..offset + 4)?;
        Some(u32::from_le_bytes(bytes.try_into().ok()?))
    }

    fn flow(&self, step: usize) -> Flow {
        let row = self.program.steps[step].row;
        let mnemonic = row.mnemonic;
        let branch = row.encoding == Encoding::Sopp
            && (mnemonic == "s_branch" || mnemonic.starts_with("s_cbranch_"));
        if branch {
            let Some(word) = self.first_word(step) else {
                return Flow::Next;
            };
            let after = self.program.steps[step].offset as i64 + 4;
            let target = after + i64::from(word as u16 as i16) * 4;
            return if mnemonic == "s_branch" {
                Flow::Jump(target)
            } else {
                Flow::Branch(target)
            };
        }
        match mnemonic {
            "s_setpc_b64"
            | "s_rfe_b64"
            | "s_endpgm"
            | "s_endpgm_saved"
            | "s_endpgm_ordered_ps_done" => Flow::End,
            _ => Flow::Next,
        }
    }

    /// The instruction at `offset`, if one starts there.
    fn step_at(&self, offset: i64, by_offset: &[(usize, usize)]) -> Option<usize> {
        let offset = usize::try_from(offset).ok()?;
        let found = by_offset.binary_search_by_key(&offset, |&(o, _)| o).ok()?;
        Some(by_offset[found].1)
    }

    /// The blocks, cut at every branch and every branch's target.
    fn blocks(&self) -> Vec<Block> {
        let steps = self.program.steps.len();
        let flows: Vec<Flow> = (0..steps).map(|i| self.flow(i)).collect();
        let mut by_offset: Vec<(usize, usize)> = Vec::new();
        if flows
            .iter()
            .any(|f| matches!(f, Flow::Jump(_) | Flow::Branch(_)))
        {
            by_offset = self
                .program
                .steps
                .iter()
                .map(|s| s.offset)
                .zip(0..)
                .collect();
            // The first instruction at an offset (one assembled over another by `.org`
            // is not followed as a target).
            by_offset.sort_by_key(|&(offset, _)| offset);
            by_offset.dedup_by_key(|&mut (offset, _)| offset);
        }
        let target = |flow: Flow| match flow {
            Flow::Jump(t) | Flow::Branch(t) => self.step_at(t, &by_offset),
            _ => None,
        };
        let mut starts = vec![false; steps + 1];
        starts[0] = true;
        starts[steps] = true;
        for (i, &flow) in flows.iter().enumerate() {
            if flow != Flow::Next {
                starts[i + 1] = true;
            }
            if let Some(t) = target(flow) {
                starts[t] = true;
            }
        }
        let firsts: Vec<usize> = (0..steps).filter(|&i| starts[i]).collect();
        let block_of = |step: usize| firsts.partition_point(|&first| first <= step) - 1;
        let mut blocks = Vec::with_capacity(firsts.len());
        for (b, &first) in firsts.iter().enumerate() {
            let end = firsts.get(b + 1).copied().unwrap_or(steps);
            let last = flows[end - 1];
            let mut next = smallvec::SmallVec::new();
            if matches!(last, Flow::Next | Flow::Branch(_)) && end < steps {
                next.push(b + 1);
            }
            if let Some(t) = target(last) {
                next.push(block_of(t));
            }
            blocks.push(Block {
                steps: first..end,
                next,
            });
        }
        blocks
    }

    /// Finds the hazards of the section: the states at the blocks' starts are grown
    /// until they settle (a block no branch or fall-through reaches starts with nothing
    /// in flight: it is reached by a jump not followed). What a block's last visit
    /// found is reported; a block not visited since its state last grew is followed
    /// once more from it.
    fn check(&self, blocks: &[Block], entries: &[KernelEntry], findings: &mut Findings) {
        let mut reached = vec![false; blocks.len()];
        for block in blocks {
            for &n in &block.next {
                reached[n] = true;
            }
        }
        let indirect = self.has_indirect_jumps();
        // A kernel's start has nothing in flight; where no kernel is known to start in
        // the section, its first instruction is taken as one.
        let starts: Vec<usize> = entries
            .iter()
            .filter_map(|e| self.entry_block(blocks, e.offset))
            .collect();
        let kernel_start = |b: usize| starts.contains(&b) || (entries.is_empty() && b == 0);
        let entry = |b: usize| State::entered(indirect && !kernel_start(b));
        let mut states: Vec<Option<State>> = (0..blocks.len())
            .map(|b| (!reached[b]).then(|| entry(b)))
            .collect();
        // The lowest block first: a loop's start is followed again before what comes
        // after the loop, so states settle in few visits.
        let mut work = std::collections::BinaryHeap::new();
        let mut queued = vec![false; blocks.len()];
        for (b, state) in states.iter().enumerate() {
            if state.is_some() {
                queued[b] = true;
                work.push(std::cmp::Reverse(b));
            }
        }
        let mut budget = self.limits.budget;
        // What each block's last visit found, while its state has not grown since.
        let mut found: Vec<Option<Vec<Event>>> = vec![None; blocks.len()];
        let mut unreached = 0;
        let mut settled = true;
        'settle: loop {
            while let Some(std::cmp::Reverse(b)) = work.pop() {
                queued[b] = false;
                let block = &blocks[b];
                // A block that leads nowhere is followed only to report.
                let Some(state) = states[b].as_ref().filter(|_| !block.next.is_empty()) else {
                    continue;
                };
                let cost = block.steps.len() * (state.ops.len() + 1);
                let Some(left) = budget.checked_sub(cost) else {
                    settled = false;
                    break 'settle;
                };
                budget = left;
                let mut state = state.clone();
                let mut here = Vec::new();
                self.follow(block.steps.clone(), &mut state, &mut |event| {
                    here.push(event)
                });
                found[b] = Some(here);
                for &n in &block.next {
                    if merge(&mut states[n], &state, self.limits.max_ops) {
                        found[n] = None;
                        if !queued[n] {
                            queued[n] = true;
                            work.push(std::cmp::Reverse(n));
                        }
                    }
                }
            }
            // A loop that nothing enters: from nothing in flight, as any unreached code.
            while states.get(unreached).is_some_and(Option::is_some) {
                unreached += 1;
            }
            if unreached == states.len() {
                break;
            }
            states[unreached] = Some(entry(unreached));
            queued[unreached] = true;
            work.push(std::cmp::Reverse(unreached));
        }
        // A state as full as a state may be may have dropped operations.
        let full = |s: &Option<State>| {
            s.as_ref()
                .is_some_and(|s| s.ops.len() >= self.limits.max_ops)
        };
        let complete = settled && !states.iter().any(full);
        // Made when a wait that never stops the wave asks for it.
        let rules = std::cell::OnceCell::new();
        let hazard_rules = || rules.get_or_init(|| self.hazard_rules(blocks));
        // The blocks not followed from their settled state: those that lead nowhere,
        // and those the budget left.
        for ((block, state), found) in blocks.iter().zip(states).zip(found) {
            match found {
                Some(found) => {
                    for event in found {
                        self.report(event, complete, &hazard_rules, findings);
                    }
                }
                None => {
                    let mut state = state.unwrap_or_default();
                    self.follow(block.steps.clone(), &mut state, &mut |event| {
                        self.report(event, complete, &hazard_rules, findings)
                    });
                }
            }
        }
    }

    /// Whether the section jumps through a register somewhere (a return from a call
    /// or a trap among them): code no branch or fall-through is known to reach may
    /// then be entered with anything in flight.
    fn has_indirect_jumps(&self) -> bool {
        self.program.steps.iter().any(|s| {
            matches!(
                s.row.mnemonic,
                "s_setpc_b64"
                    | "s_cbranch_g_fork"
                    | "s_cbranch_i_fork"
                    | "s_cbranch_join"
                    | "s_rfe_b64"
                    | "s_rfe_restore_b64"
            )
        })
    }

    /// Puts what a block's following found in words: a use found, if fewer than
    /// [`MAX_HAZARDS`] are kept, or a wait's effect.
    /// `complete` when the states the events came from hold every operation that may
    /// be in flight. A wait that never stops the wave is needless unless a hazard rule
    /// needs it (`rules`: those of the section).
    fn report<'r>(
        &self,
        event: Event,
        complete: bool,
        rules: &dyn Fn() -> &'r HazardRules<'r>,
        findings: &mut Findings,
    ) {
        let (step, found) = match event {
            Event::Hazard(step, found) => (step, found),
            Event::Vccz { step, cause } => return self.report_vccz(step, cause, findings),
            Event::Wait {
                step,
                retired,
                left,
                may_block,
                unfollowed,
            } => {
                let operation = |step: usize| {
                    let at = &self.program.steps[step];
                    Operation {
                        at: at.at,
                        len: at.len,
                        mnemonic: at.row.mnemonic,
                    }
                };
                let at = &self.program.steps[step];
                findings.waits.push(WaitEffect {
                    at: at.at,
                    len: at.len,
                    retired: retired.into_iter().map(operation).collect(),
                    left: left.into_iter().map(operation).collect(),
                    unfollowed,
                    needless: complete && !may_block && !self.hazard_rules_need(step, rules()),
                });
                return;
            }
        };
        if findings.hazards.len() >= MAX_HAZARDS {
            findings.more += 1;
            return;
        }
        let load = &self.program.steps[found.load];
        findings.hazards.push(self.hazard_at(
            step,
            found.message(self.gen, load.row.mnemonic),
            found.load,
            operation_of(load.row, found.lock),
            found.wait(),
        ));
    }

    /// The warning at `step` saying `message`, with the instruction at `culprit` (an
    /// `operation`) as its related place and `wait` as what its fix inserts.
    fn hazard_at(
        &self,
        step: usize,
        message: String,
        culprit: usize,
        operation: &'static str,
        wait: String,
    ) -> WaitHazard {
        let (at, made) = (&self.program.steps[step], &self.program.steps[culprit]);
        WaitHazard {
            diagnostic: Diagnostic {
                severity: crate::diag::Severity::Warning,
                location: Some(at.at),
                len: at.len,
                message,
                origin: at.origin.to_vec(),
                suggestions: Vec::new(),
                suggestion_at: None,
            },
            load: made.at,
            load_len: made.len,
            operation,
            wait,
            after: false,
        }
    }
}

impl Code<'_> {
    /// A read of VCCZ that may be wrong, as a warning with what made it wrong as its
    /// related place and the fix LLVM writes: VCC written again, after the wait for a
    /// scalar memory load that may still be in flight.
    fn report_vccz(&self, step: usize, cause: VcczCause, findings: &mut Findings) {
        if findings.hazards.len() >= MAX_HAZARDS {
            findings.more += 1;
            return;
        }
        let at = &self.program.steps[step];
        let rewrite = "s_mov_b64 vcc, vcc";
        let (culprit, operation, wait, fix, why) = match cause {
            VcczCause::Load { load, in_flight } => {
                let (wait, fix) = if in_flight {
                    (
                        format!("s_waitcnt lgkmcnt(0)\n{rewrite}"),
                        format!("`s_waitcnt lgkmcnt(0)`, then `{rewrite}`"),
                    )
                } else {
                    (rewrite.to_string(), format!("`{rewrite}`"))
                };
                let why = "on GCN 1.0 and 1.1 a scalar memory load that returns after VCC was written may corrupt VCCZ (a hardware bug), until VCC is written again with no such load in flight";
                (load, "load", wait, fix, why)
            }
            VcczCause::HalfWrite { write } => {
                let why = "up to GCN 1.4 a write of only half of VCC (`vcc_lo` or `vcc_hi`) leaves VCCZ as it was";
                (
                    write,
                    "write",
                    rewrite.to_string(),
                    format!("`{rewrite}`"),
                    why,
                )
            }
        };
        let message = format!(
            "`{}` reads VCCZ, which `{}` may have made wrong: {why} (write {fix} before it)",
            at.row.mnemonic, self.program.steps[culprit].row.mnemonic
        );
        findings
            .hazards
            .push(self.hazard_at(step, message, culprit, operation, wait));
    }
}

impl Code<'_> {
    /// Whether the LDS instruction at `step` goes to GDS: always (`ds_gws_*`,
    /// `ds_ordered_count`), or by its `gds` bit, which the few that cannot use GDS
    /// ignore.
    fn step_goes_to_gds(&self, step: usize) -> bool {
        let row = self.program.steps[step].row;
        row.encoding == Encoding::Ds
            && !matches!(
                row.mnemonic,
                "ds_nop" | "ds_permute_b32" | "ds_bpermute_b32"
            )
            && (row.flags.contains(Flags::GDS)
                || self
                    .first_word(step)
                    .is_some_and(|w| goes_to_gds(self.gen, w)))
    }

    /// The block a kernel starting at `offset` of the section starts: the one whose
    /// first instruction is the first at or after it (past a descriptor), if a block
    /// starts there.
    fn entry_block(&self, blocks: &[Block], offset: usize) -> Option<usize> {
        let steps = &self.program.steps;
        // Steps are in the order assembled, which `.org` may make other than offsets'.
        let first = (0..steps.len())
            .filter(|&s| steps[s].offset >= offset)
            .min_by_key(|&s| steps[s].offset)?;
        blocks.iter().position(|b| b.steps.start == first)
    }
}

/// What the wait at `step` does to `state`: the operations it retires and those it
/// leaves, by the steps that issued them (a store's two halves once).
fn waited(step: usize, state: &State, wait: &Wait, capacities: &Later) -> Event {
    let (mut retired, mut left) = (Vec::new(), Vec::new());
    let done = done_with_locks(&state.ops, |op| wait.retires(op));
    for (op, done) in state.ops.iter().zip(done) {
        let list = if done { &mut retired } else { &mut left };
        if list.last() != Some(&op.step) {
            list.push(op.step);
        }
    }
    retired.retain(|s| !left.contains(s));
    Event::Wait {
        step,
        retired,
        left,
        may_block: wait.may_block(state, capacities),
        unfollowed: wait.may_wait_for_unfollowed(state, capacities),
    }
}

/// The operations that may be in flight at a point of the program, by the instruction
/// that issued them: on some path to the point, each is in flight with at least
/// `later` operations after it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct State {
    /// Sorted by step.
    ops: Vec<Op>,
    /// The counters ([`Counter::bit`]) that operations not followed may count in: a
    /// callee's or a trap handler's, or those in flight where a jump through a
    /// register lands. They hold no register the check knows of, so they make no
    /// hazard; a wait on such a counter is never needless, until one for 0 on it.
    unfollowed: u8,
    /// What is known of EXEC here.
    lanes: Lanes,
    /// GCN 1.0 and 1.1: a scalar memory load (its step) that, on some path here, may
    /// return after VCC was last written. Its return may corrupt VCCZ (a hardware bug
    /// LLVM works around), until VCC is written with no such load in flight.
    vccz_clobber: Option<u32>,
    /// GCN 1.0 to 1.4: a write of only half of VCC (its step) that, on some path here,
    /// came last: it leaves VCCZ as it was (LLVM: up to GFX9, writes of `vcc_lo` or
    /// `vcc_hi` do not update VCCZ).
    vccz_half_write: Option<u32>,
}

impl State {
    /// The state at code no branch or fall-through is known to reach: nothing in
    /// flight, or with `unfollowed` anything.
    fn entered(unfollowed: bool) -> State {
        State {
            ops: Vec::new(),
            unfollowed: if unfollowed { Counter::ALL } else { 0 },
            lanes: Lanes {
                last: ExecId::Unknown,
                disjoint_from: ExecId::Unknown,
            },
            vccz_clobber: None,
            vccz_half_write: None,
        }
    }
}

/// What is known of EXEC at a point: the EXEC it holds, and one whose lanes it has
/// none of. A load writes only the lanes EXEC had when it issued, so a VALU write of
/// its registers under an EXEC without them does not race it: the `else` half of a
/// branch on lanes (`s_andn2_b64 exec, s[6:7], exec`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Lanes {
    last: ExecId,
    disjoint_from: ExecId,
}

/// An EXEC, in the order states grow (a block's state starts at `Bottom`, knowing
/// nothing yet, and goes up as paths join there).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
enum ExecId {
    /// No path followed here yet: a state that has not settled, which then misses
    /// hazards rather than make them up.
    #[default]
    Bottom,
    /// What the instruction (step) that wrote it last gave it.
    Step(u32),
    /// Not the same on every path, or not known.
    Unknown,
}

impl ExecId {
    fn join(self, other: ExecId) -> ExecId {
        match (self, other) {
            (ExecId::Bottom, x) | (x, ExecId::Bottom) => x,
            (x, y) if x == y => x,
            _ => ExecId::Unknown,
        }
    }

    /// Whether an EXEC of `self` has none of the lanes of one of `other`, as far as a
    /// state not settled yet tells: it is taken to (a hazard is missed, not made up).
    fn disjoint(self, other: ExecId) -> bool {
        match (self, other) {
            (ExecId::Bottom, _) | (_, ExecId::Bottom) => true,
            (ExecId::Step(a), ExecId::Step(b)) => a == b,
            _ => false,
        }
    }
}

impl Lanes {
    /// After `step` wrote EXEC as `write` says.
    fn after(self, step: u32, write: ExecWrite) -> Lanes {
        let disjoint_from = match write {
            // The same instruction again (a loop): the EXEC it names is the new one.
            ExecWrite::Complement if self.last == ExecId::Step(step) => ExecId::Unknown,
            ExecWrite::Complement => self.last,
            _ => ExecId::Unknown,
        };
        Lanes {
            last: ExecId::Step(step),
            disjoint_from,
        }
    }

    fn join(self, other: Lanes) -> Lanes {
        Lanes {
            last: self.last.join(other.last),
            disjoint_from: self.disjoint_from.join(other.disjoint_from),
        }
    }
}

/// How an instruction writes VCC ([`Code::vcc_write`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum VccWrite {
    Whole,
    Half,
}

/// How an instruction changes EXEC.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ExecWrite {
    None,
    /// To a value whose lanes are not known.
    Other,
    /// To `S & ~EXEC`: none of the lanes it had (`s_andn2_b64 exec, sX, exec`,
    /// `s_andn2_saveexec_b64`, `s_andn2_wrexec_b64`; the 32-bit forms in wave32).
    Complement,
}

/// How `row`, encoded to `words` with the register uses `regs`, changes EXEC.
fn exec_write_of(
    (gen, wave32): (Generation, bool),
    row: &Instruction,
    words: &[u32],
    regs: &[RegUse],
) -> ExecWrite {
    let exec = u32::from(
        gen.special_reg_code(gcn_isa::SpecialReg::Exec)
            .unwrap_or(126),
    );
    let writes_exec = regs.iter().any(|u| {
        u.write
            && u.range.file == RegFile::Sgpr
            && (u32::from(u.range.first)..u32::from(u.range.first) + u32::from(u.range.count))
                .any(|r| r == exec || r == exec + 1)
    });
    let implicit = row.mnemonic.contains("saveexec")
        || row.mnemonic.contains("wrexec")
        || matches!(
            row.mnemonic,
            "s_cbranch_join" | "s_cbranch_g_fork" | "s_cbranch_i_fork"
        );
    if !writes_exec && !implicit {
        return ExecWrite::None;
    }
    let (base, width) = match row.mnemonic.rsplit_once('_') {
        Some((base, width @ ("b64" | "b32"))) => (base, width),
        _ => return ExecWrite::Other,
    };
    // A 32-bit write of EXEC's low half leaves the high half, in wave64.
    if width == "b32" && !(wave32 && gen.is_gfx10()) {
        return ExecWrite::Other;
    }
    let complement = match base {
        "s_andn2_saveexec" | "s_andn2_wrexec" => true,
        // SOP2: SSRC1 in bits 8-15, SDST in bits 16-22.
        "s_andn2" => words
            .first()
            .is_some_and(|&w| (w >> 16) & 0x7f == exec && (w >> 8) & 0xff == exec),
        _ => false,
    };
    if complement {
        ExecWrite::Complement
    } else {
        ExecWrite::Other
    }
}

/// Whether what is in flight after `row` runs is not all followed: a call's (the
/// callee's operations), a trap's (the handler's), a fork's or join's (another
/// path's).
fn leaves_unfollowed(row: &Instruction) -> bool {
    matches!(
        row.mnemonic,
        "s_swappc_b64"
            | "s_call_b64"
            | "s_trap"
            | "s_cbranch_g_fork"
            | "s_cbranch_i_fork"
            | "s_cbranch_join"
    )
}

/// The kinds of vector memory instruction whose loads may come back out of order with
/// one another (LLVM's `VmemType`): image sampling, ray intersection, the others.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum VmemKind {
    Sampler,
    Bvh,
    Other,
}

impl VmemKind {
    fn of(row: &Instruction) -> VmemKind {
        let m = row.mnemonic;
        if row.encoding != Encoding::Mimg {
            VmemKind::Other
        } else if m.starts_with("image_sample")
            || m.starts_with("image_gather")
            || m.starts_with("image_get_lod")
        {
            VmemKind::Sampler
        } else if m.starts_with("image_bvh") {
            VmemKind::Bvh
        } else {
            VmemKind::Other
        }
    }
}

/// Whether `row` calls a function, which returns to the instruction after it.
fn is_call(row: &Instruction) -> bool {
    matches!(row.mnemonic, "s_swappc_b64" | "s_call_b64")
}

/// Keeps at most `max_ops` operations: those with fewest operations after them.
fn trim(ops: &mut Vec<Op>, max_ops: usize) {
    if ops.len() <= max_ops {
        return;
    }
    let after = |op: &Op| match op.queue {
        Queue::Vm | Queue::Flat => op.later.vm,
        Queue::VmStore => op.later.vs,
        Queue::LgkmOrdered | Queue::GdsOrdered | Queue::LgkmAnyOrder => op.later.lgkm,
        Queue::Exp => op.later.exp,
    };
    ops.select_nth_unstable_by_key(max_ops, |op| (after(op), op.key()));
    // A lock goes with its step's other operation: a wait that retires that one
    // retires it ([`done_with_locks`]), which a lock left alone would miss.
    let dropped: Vec<usize> = ops[max_ops..]
        .iter()
        .filter(|op| !op.lock)
        .map(|op| op.step)
        .collect();
    ops.truncate(max_ops);
    ops.retain(|op| !(op.lock && dropped.contains(&op.step)));
    ops.sort_unstable_by_key(Op::key);
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Op {
    step: usize,
    /// It reads registers after it is issued (the `expcnt` half of a store or export)
    /// rather than writes them: a step may issue one of each.
    lock: bool,
    queue: Queue,
    later: Later,
    /// Whether a use of the registers it writes is still reported (it writes some,
    /// and none of them was reported on some path here).
    watched: bool,
    /// The first registers it holds (writes, or reads with `lock`), and whether it
    /// holds others.
    first_held: RegRange,
    holds_more: bool,
    /// The EXEC it issued with ([`Lanes::last`]).
    exec: ExecId,
}

impl Op {
    /// Its place in a [`State`]'s order.
    fn key(&self) -> (usize, bool) {
        (self.step, self.lock)
    }
}

/// How many operations came after one, in the counts that retire it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Later {
    /// Counting in `vmcnt` (vector memory and FLAT).
    vm: u8,
    /// Counting in `vscnt`.
    vs: u8,
    /// LDS.
    ds: u8,
    /// GDS.
    gds: u8,
    /// Counting in `lgkmcnt`.
    lgkm: u8,
    /// Counting in `expcnt`.
    exp: u8,
}

/// Merges `from` into the state at a block's start; whether that grew.
fn merge(into: &mut Option<State>, from: &State, max_ops: usize) -> bool {
    let Some(into) = into else {
        *into = Some(from.clone());
        return true;
    };
    let mut merged = Vec::with_capacity(into.ops.len().max(from.ops.len()));
    let (mut a, mut b) = (into.ops.iter().peekable(), from.ops.iter().peekable());
    loop {
        let op = match (a.peek(), b.peek()) {
            (Some(x), Some(y)) if x.key() == y.key() => {
                let (x, y) = (a.next().unwrap(), b.next().unwrap());
                Op {
                    watched: x.watched || y.watched,
                    exec: x.exec.join(y.exec),
                    // A FLAT operation one counter retired on one path only: both pend.
                    queue: if x.queue == y.queue {
                        x.queue
                    } else {
                        Queue::Flat
                    },
                    later: Later {
                        vm: x.later.vm.min(y.later.vm),
                        vs: x.later.vs.min(y.later.vs),
                        ds: x.later.ds.min(y.later.ds),
                        gds: x.later.gds.min(y.later.gds),
                        lgkm: x.later.lgkm.min(y.later.lgkm),
                        exp: x.later.exp.min(y.later.exp),
                    },
                    ..*x
                }
            }
            (Some(x), Some(y)) if x.key() < y.key() => *a.next().unwrap(),
            (Some(_), Some(_)) => *b.next().unwrap(),
            (Some(_), None) => *a.next().unwrap(),
            (None, Some(_)) => *b.next().unwrap(),
            (None, None) => break,
        };
        merged.push(op);
    }
    trim(&mut merged, max_ops);
    let unfollowed = into.unfollowed | from.unfollowed;
    let lanes = into.lanes.join(from.lanes);
    // What may make VCCZ wrong on some path: the first such instruction, to be told
    // alike whatever order paths join in.
    let first = |a: Option<u32>, b: Option<u32>| match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    };
    let vccz_clobber = first(into.vccz_clobber, from.vccz_clobber);
    let vccz_half_write = first(into.vccz_half_write, from.vccz_half_write);
    let grew = merged != into.ops
        || unfollowed != into.unfollowed
        || lanes != into.lanes
        || vccz_clobber != into.vccz_clobber
        || vccz_half_write != into.vccz_half_write;
    into.ops = merged;
    into.unfollowed = unfollowed;
    into.lanes = lanes;
    into.vccz_clobber = vccz_clobber;
    into.vccz_half_write = vccz_half_write;
    grew
}
/// How many watched operations in flight write each register: most instructions use
/// none of them, which this tells without a look at the operations.
#[derive(Debug, Clone)]
struct Written {
    /// SGPR codes 0..128 (loads write no higher code), then VGPRs 0..256.
    counts: [u8; 384],
}

impl Default for Written {
    fn default() -> Written {
        Written { counts: [0; 384] }
    }
}

impl Written {
    fn slots(r: RegRange) -> std::ops::Range<usize> {
        let (base, limit) = match r.file {
            RegFile::Sgpr => (0, 128),
            RegFile::Vgpr => (128, 256),
        };
        let first = usize::from(r.first).min(limit);
        let end = (usize::from(r.first) + usize::from(r.count)).min(limit);
        base + first..base + end
    }

    fn add(&mut self, writes: impl IntoIterator<Item = RegRange>) {
        for r in writes {
            for n in Self::slots(r) {
                self.counts[n] = self.counts[n].saturating_add(1);
            }
        }
    }

    fn remove(&mut self, writes: impl IntoIterator<Item = RegRange>) {
        for r in writes {
            for n in Self::slots(r) {
                self.counts[n] = self.counts[n].saturating_sub(1);
            }
        }
    }

    fn meets(&self, r: RegRange) -> bool {
        Self::slots(r).any(|n| self.counts[n] > 0)
    }
}

/// Which of `ops` are done: those `done` says are, and the reading of registers after
/// it issued (a lock) of a step whose other operation is: a store or a GDS operation
/// that has completed has read its data (on GCN 1.0, `vmcnt` covers a store too).
fn done_with_locks(ops: &[Op], done: impl Fn(&Op) -> bool) -> Vec<bool> {
    let mut gone: Vec<bool> = ops.iter().map(done).collect();
    // Sorted by (step, lock): a step's lock comes right after its other operation.
    for i in 1..ops.len() {
        let (before, op) = (&ops[i - 1], &ops[i]);
        if op.lock && !before.lock && before.step == op.step && gone[i - 1] {
            gone[i] = true;
        }
    }
    gone
}

/// The registers an instruction reads after it is issued, counted in `expcnt`: the
/// sources of an export, those of an LDS instruction that goes to GDS (its `gds` bit:
/// address and data, as exports), and on GCN 1.0 the data of a vector memory store or
/// atomic, one that returns the old value too (its VDATA field, in the second word;
/// later generations read it at issue).
fn locks_of(
    gen: Generation,
    row: &Instruction,
    words: &[u32],
    regs: &[RegUse],
) -> smallvec::SmallVec<[RegRange; 4]> {
    let vgpr_reads = regs
        .iter()
        .filter(|u| !u.write && u.range.file == RegFile::Vgpr)
        .map(|u| u.range);
    match row.encoding {
        Encoding::Exp => vgpr_reads.collect(),
        Encoding::Ds if words.first().is_some_and(|&w| goes_to_gds(gen, w)) => vgpr_reads.collect(),
        Encoding::Mubuf | Encoding::Mtbuf | Encoding::Mimg
            if gen == Generation::Gcn1_0
                && (row.flags.contains(Flags::STORE) || row.flags.contains(Flags::ATOMIC)) =>
        {
            let Some(vdata) = words.get(1).map(|w| ((w >> 8) & 0xff) as u16) else {
                return Default::default();
            };
            // An atomic that returns (`glc`) writes its data registers too: the use
            // names them as written.
            regs.iter()
                .map(|u| u.range)
                .filter(|r| r.file == RegFile::Vgpr && r.first == vdata)
                .take(1)
                .collect()
        }
        _ => Default::default(),
    }
}

/// Whether a DS instruction's first word has its `gds` bit set (bit 17 on GCN 1.0, 1.1
/// and 1.5, bit 16 on GCN 1.2 to 1.4).
fn goes_to_gds(gen: Generation, first: u32) -> bool {
    let bit = if gen <= Generation::Gcn1_1 || gen.is_gfx10() {
        17
    } else {
        16
    };
    first >> bit & 1 == 1
}

/// What a memory instruction is, in a word; `lock` when it is its reading of
/// registers after it issued.
fn operation_of(row: &Instruction, lock: bool) -> &'static str {
    if row.encoding == Encoding::Exp {
        "export"
    } else if lock && row.encoding == Encoding::Ds {
        "GDS operation"
    } else if row.flags.contains(Flags::ATOMIC) {
        "atomic"
    } else if row.flags.contains(Flags::STORE) {
        "store"
    } else {
        "load"
    }
}

/// The queue a memory instruction joins, `None` for the others.
fn queue_of(gen: Generation, row: &Instruction, words: &[u32], regs: &[RegUse]) -> Option<Queue> {
    let writes_vgprs = regs
        .iter()
        .any(|r| r.write && r.range.file == RegFile::Vgpr);
    Some(match row.encoding {
        Encoding::Smrd | Encoding::Smem => Queue::LgkmAnyOrder,
        Encoding::Ds if row.flags.contains(Flags::GDS) => Queue::GdsOrdered,
        Encoding::Ds if words.first().is_some_and(|&w| goes_to_gds(gen, w)) => Queue::GdsOrdered,
        Encoding::Ds => Queue::LgkmOrdered,
        Encoding::Flat => Queue::Flat,
        Encoding::Mubuf
        | Encoding::Mtbuf
        | Encoding::Mimg
        | Encoding::Global
        | Encoding::Scratch => {
            if gen.is_gfx10() && !writes_vgprs {
                Queue::VmStore
            } else {
                Queue::Vm
            }
        }
        Encoding::Sopp if row.mnemonic.starts_with("s_sendmsg") => Queue::LgkmAnyOrder,
        _ => return None,
    })
}

/// What an `s_waitcnt` (or a GCN 1.5 `s_waitcnt_*cnt`) waits for; `None` for any other
/// instruction. A count not known yet (a symbol defined later) waits for everything.
fn wait_of(gen: Generation, row: &Instruction, first_word: Option<u32>) -> Option<Wait> {
    let simm = first_word.map(|w| w & 0xffff);
    // The SOPK forms count on top of an SGPR's value, unless it is `null`.
    let sopk_count = || {
        let sdst = first_word.map(|w| (w >> 16) & 0x7f);
        let null = gen
            .special_reg_code(gcn_isa::SpecialReg::Null)
            .map(u32::from);
        if sdst.is_some() && sdst == null {
            simm
        } else {
            None
        }
    };
    let wait = match row.mnemonic {
        "s_waitcnt" => {
            let Some(simm) = simm else {
                return Some(Wait::ALL);
            };
            let vm_high = if gen >= Generation::Gcn1_4 {
                (simm >> 10) & 0x30
            } else {
                0
            };
            let lgkm_mask = match gen {
                Generation::Gcn1_0 | Generation::Gcn1_1 => 0x1f,
                _ if gen.is_gfx10() => 0x3f,
                _ => 0xf,
            };
            Wait {
                vm: (simm & 0xf) | vm_high,
                lgkm: (simm >> 8) & lgkm_mask,
                exp: (simm >> 4) & 7,
                ..Wait::NONE
            }
        }
        "s_waitcnt_vmcnt" => Wait {
            vm: sopk_count().unwrap_or(0),
            ..Wait::NONE
        },
        "s_waitcnt_lgkmcnt" => Wait {
            lgkm: sopk_count().unwrap_or(0),
            ..Wait::NONE
        },
        "s_waitcnt_vscnt" => Wait {
            vs: sopk_count().unwrap_or(0),
            ..Wait::NONE
        },
        "s_waitcnt_expcnt" => Wait {
            exp: sopk_count().unwrap_or(0),
            ..Wait::NONE
        },
        _ => return None,
    };
    Some(wait)
}

/// The most operations each counter holds on `gen`: a wave that would count one more
/// waits until one is done.
fn capacities(gen: Generation) -> Later {
    use Generation::*;
    let (vm, lgkm) = match gen {
        Gcn1_0 | Gcn1_1 => (15, 31),
        Gcn1_2 => (15, 15),
        Gcn1_4 | Gcn1_4_1 => (63, 15),
        _ => (63, 63),
    };
    Later {
        vm,
        vs: 63,
        ds: u8::MAX,
        gds: u8::MAX,
        lgkm,
        exp: 7,
    }
}

/// The hardware's counters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Counter {
    Vm,
    Vs,
    Lgkm,
    Exp,
}

impl Counter {
    const ALL: u8 = 0b1111;

    /// Its bit in a set of counters.
    fn bit(self) -> u8 {
        1 << self as u8
    }
}

impl Queue {
    fn counts_in(self, counter: Counter) -> bool {
        match counter {
            Counter::Vm => matches!(self, Queue::Vm | Queue::Flat),
            Counter::Vs => self == Queue::VmStore,
            Counter::Lgkm => matches!(
                self,
                Queue::LgkmOrdered | Queue::GdsOrdered | Queue::LgkmAnyOrder | Queue::Flat
            ),
            Counter::Exp => self == Queue::Exp,
        }
    }
}

impl Code<'_> {
    /// The registers `op` holds: the first are kept in it (most hold one range), to
    /// be told without a look at the program.
    fn held<'a>(&'a self, op: &Op) -> impl Iterator<Item = RegRange> + 'a {
        let more = op
            .holds_more
            .then(|| self.program.held(op.step, op.lock).skip(1));
        std::iter::once(op.first_held).chain(more.into_iter().flatten())
    }

    /// Follows the instructions `steps` from `state`, giving each use found (with the
    /// instruction it is at) to `found`.
    fn follow(
        &self,
        steps: std::ops::Range<usize>,
        state: &mut State,
        event: &mut dyn FnMut(Event),
    ) {
        let mut written = Written::default();
        for op in state.ops.iter().filter(|op| op.watched) {
            written.add(self.held(op));
        }
        for step in steps {
            let Step {
                row, queue: kind, ..
            } = self.program.steps[step];
            if self.program.steps[step].waits {
                if let Some(wait) = wait_of(self.gen, row, self.first_word(step)) {
                    event(waited(step, state, &wait, &capacities(self.gen)));
                    self.keep_flat_halves(state, &mut written, &wait);
                    self.retire(state, &mut written, |op| wait.retires(op));
                    state.unfollowed &= !wait.all_done();
                }
                continue;
            }
            if self.program.steps[step].leaves_unfollowed {
                state.unfollowed = Counter::ALL;
            }
            if self.gen <= Generation::Gcn1_4_1 {
                self.follow_vccz(step, state, event);
            }
            let regs = self.program.uses(step);
            if regs.iter().any(|r| written.meets(r.range)) {
                self.uses_in_flight(state, &mut written, step, kind, &mut |f| {
                    event(Event::Hazard(step, f))
                });
            }
            if let Some(kind) = kind {
                self.issue(state, &mut written, step, kind, false);
            }
            // An export counts in `expcnt` even when it reads no register (`off`).
            if !self.program.locks(step).is_empty() || row.encoding == Encoding::Exp {
                self.issue(state, &mut written, step, Queue::Exp, true);
            }
            let exec_write = self.program.steps[step].exec_write;
            if exec_write != ExecWrite::None {
                let step = step as u32;
                // Operations that issued with an older EXEC of this instruction.
                for op in state
                    .ops
                    .iter_mut()
                    .filter(|op| op.exec == ExecId::Step(step))
                {
                    op.exec = ExecId::Unknown;
                }
                state.lanes = state.lanes.after(step, exec_write);
            }
            if is_call(row) {
                // A function waits for every load before it returns (LLVM's calling
                // convention, `callWaitsOnFunctionReturn`): what the caller had in
                // flight is done, bar the stores `vscnt` counts.
                self.retire(state, &mut written, |op| op.queue != Queue::VmStore);
                // What the callee left of VCCZ is not known: taken as right (a hazard
                // missed, not made up).
                state.vccz_clobber = None;
                state.vccz_half_write = None;
            }
        }
    }

    /// VCCZ at `step` (GCN 1.0 to 1.4): a read of it when it may be wrong, then what
    /// the step does to it. A write of the whole VCC makes it right, but on GCN 1.0 and
    /// 1.1 not while a scalar memory load is in flight: such a load may corrupt it
    /// whenever it returns (a hardware bug). A write of half of VCC leaves it as it was.
    fn follow_vccz(&self, step: usize, state: &mut State, event: &mut dyn FnMut(Event)) {
        let smem_bug = self.gen <= Generation::Gcn1_1;
        let is_smem = |s: usize| self.program.steps[s].row.encoding == Encoding::Smrd;
        let smem_in_flight = || {
            state
                .ops
                .iter()
                .find(|op| is_smem(op.step))
                .map(|op| op.step as u32)
        };
        let wrong = state.vccz_clobber.is_some() || state.vccz_half_write.is_some();
        if wrong && self.reads_vccz(step) {
            // A load's corruption first: its fix (a wait, then VCC written) mends both.
            let cause = match (state.vccz_clobber, state.vccz_half_write) {
                (Some(load), _) => Some(VcczCause::Load {
                    load: load as usize,
                    in_flight: smem_in_flight().is_some(),
                }),
                (None, Some(write)) => Some(VcczCause::HalfWrite {
                    write: write as usize,
                }),
                (None, None) => None,
            };
            if let Some(cause) = cause {
                event(Event::Vccz { step, cause });
            }
        }
        match self.vcc_write(step) {
            Some(VccWrite::Whole) => {
                state.vccz_half_write = None;
                state.vccz_clobber = if smem_bug { smem_in_flight() } else { None };
            }
            Some(VccWrite::Half) => state.vccz_half_write = Some(step as u32),
            None => {}
        }
        if smem_bug && is_smem(step) {
            state.vccz_clobber = Some(step as u32);
        }
    }

    /// Whether the instruction at `step` reads VCCZ: a branch on it, or a source
    /// operand VCCZ.
    fn reads_vccz(&self, step: usize) -> bool {
        let row = self.program.steps[step].row;
        if matches!(row.mnemonic, "s_cbranch_vccz" | "s_cbranch_vccnz") {
            return true;
        }
        let ssrcs = match row.encoding {
            Encoding::Sop1 => 1,
            Encoding::Sop2 | Encoding::Sopc => 2,
            _ => return self.vector_sources(step).contains(&nops::VCCZ),
        };
        let first = self.first_word(step).unwrap_or(0);
        (0..ssrcs).any(|i| (first >> (8 * i)) & 0xff == nops::VCCZ)
    }

    /// How the instruction at `step` writes VCC: both halves, or one only.
    fn vcc_write(&self, step: usize) -> Option<VccWrite> {
        let vcc = self.gen.special_reg_code(gcn_isa::SpecialReg::Vcc)?;
        let mut half = false;
        for r in self
            .program
            .writes(step)
            .filter(|r| r.file == RegFile::Sgpr)
        {
            let covers = |x: u16| r.first <= x && x < r.first + r.count;
            let (has_low, has_high) = (covers(vcc), covers(vcc + 1));
            if has_low && has_high {
                return Some(VccWrite::Whole);
            }
            half |= has_low || has_high;
        }
        half.then_some(VccWrite::Half)
    }

    /// A FLAT operation counts in `vmcnt` and `lgkmcnt` until both are done (it may go to
    /// LDS or to memory). A wait on one of them is taken to make its registers safe
    /// (as when it goes to memory), yet the other counter still holds it: it stays,
    /// unwatched, in that counter's queue, so that a later wait on it is not called
    /// needless.
    fn keep_flat_halves(&self, state: &mut State, written: &mut Written, wait: &Wait) {
        for op in state.ops.iter_mut().filter(|op| op.queue == Queue::Flat) {
            let by_vm = u32::from(op.later.vm) >= wait.vm;
            let by_lgkm = wait.lgkm == 0;
            match (by_vm, by_lgkm) {
                // Done as vector memory: its registers are safe (what AMD's compiler
                // relies on for global memory); `lgkmcnt` may still count it.
                (true, false) => {
                    if op.watched {
                        written.remove(self.held(op));
                    }
                    op.watched = false;
                    op.queue = Queue::LgkmAnyOrder;
                }
                // Done as LDS: it may have gone to global memory, whose data only
                // `vmcnt` says has come (LLVM waits for both).
                (false, true) => op.queue = Queue::Vm,
                _ => {}
            }
        }
    }

    /// Whether `u` is the data a vector memory store or atomic at `step` writes to
    /// memory (its DATA/VDATA field: bits 8 to 15 of the second word in every vector
    /// memory encoding).
    fn is_stored_data(&self, step: usize, u: &RegUse) -> bool {
        let row = self.program.steps[step].row;
        let stores = row.flags.contains(Flags::STORE) || row.flags.contains(Flags::ATOMIC);
        stores
            && !u.write
            && u.range.file == RegFile::Vgpr
            && self
                .word(step, 1)
                .is_some_and(|w| (w >> 8) & 0xff == u32::from(u.range.first))
    }

    /// Whether the memory instruction at `step` reads `range` other than as the data it
    /// stores: as an address, which a later access reading it too reads as it did.
    fn reads_as_address(&self, step: usize, range: RegRange) -> bool {
        self.program
            .uses(step)
            .iter()
            .any(|u| !u.write && overlap(u.range, range).is_some() && !self.is_stored_data(step, u))
    }

    /// Takes out of `state` the operations `done` says are done, with the reading of
    /// registers of the steps whose other operation is ([`done_with_locks`]).
    fn retire(&self, state: &mut State, written: &mut Written, done: impl Fn(&Op) -> bool) {
        let mut done = done_with_locks(&state.ops, done).into_iter();
        state.ops.retain(|op| {
            let gone = done.next().unwrap_or(false);
            if gone && op.watched {
                written.remove(self.held(op));
            }
            !gone
        });
    }

    /// `step` issues an operation of `kind`: it comes after those in flight, and one a
    /// full counter cannot hold any more is done (the wave waited for it).
    fn issue(
        &self,
        state: &mut State,
        written: &mut Written,
        step: usize,
        kind: Queue,
        lock: bool,
    ) {
        let (capacities, after) = (capacities(self.gen), Later::of(kind));
        let mut full = false;
        for op in &mut state.ops {
            op.later.add(after);
            full |= op.overflows(&capacities);
        }
        if full {
            self.retire(state, written, |op| op.overflows(&capacities));
        }
        let mut held = self.program.held(step, lock);
        let first = held.next();
        let op = Op {
            step,
            lock,
            queue: kind,
            later: Later::default(),
            watched: first.is_some(),
            first_held: first.unwrap_or(RegRange {
                file: RegFile::Sgpr,
                first: 0,
                count: 0,
            }),
            holds_more: held.next().is_some(),
            exec: state.lanes.last,
        };
        // The same instruction again (a loop): the new operation is the later one.
        match state.ops.binary_search_by_key(&op.key(), Op::key) {
            Ok(at) => {
                if state.ops[at].watched {
                    written.remove(self.held(&state.ops[at]));
                }
                state.ops[at] = op;
            }
            Err(at) => state.ops.insert(at, op),
        }
        if op.watched {
            written.add(self.held(&op));
        }
    }

    /// The uses among `regs` (of an instruction of `reader`'s queue) of registers an
    /// operation in flight writes. Each such operation is reported once: it is no
    /// longer watched (so later uses of its registers are not reported again), while
    /// it still counts in its queue until a wait retires it. A memory instruction's
    /// reads are not reported when they read registers before the load can have
    /// written them: all of a vector memory instruction's after a vector memory load
    /// (they go in order), and any memory instruction's reads of the registers the
    /// load itself read (an address used again, whose old value both want).
    fn uses_in_flight(
        &self,
        state: &mut State,
        written: &mut Written,
        step: usize,
        reader: Option<Queue>,
        found: &mut dyn FnMut(Found),
    ) {
        let (regs, row) = (self.program.uses(step), self.program.steps[step].row);
        let by_lane = !row.mnemonic.starts_with("v_writelane");
        let vector = |q: Option<Queue>| matches!(q, Some(Queue::Vm | Queue::VmStore | Queue::Flat));
        // Only the uses of registers some operation in flight writes.
        let uses: smallvec::SmallVec<[RegUse; 4]> = regs
            .iter()
            .filter(|u| written.meets(u.range))
            .copied()
            .collect();
        let lanes = state.lanes;
        // The step whose load (not its lock) was last reported here.
        let mut load_reported = None;
        for op in state.ops.iter_mut().filter(|op| op.watched) {
            // What an operation still reads may be read; what it writes, only read
            // when it is done, but by a vector memory instruction after a vector load,
            // which reads its operands at issue: an address it reads then is the old
            // one (as AMD's compiler reuses address registers), data it stores would
            // be the old value.
            let reads_harmless = |u: &RegUse| {
                op.lock
                    || (vector(reader) && vector(Some(op.queue)) && !self.is_stored_data(step, u))
            };
            // Vector memory loads of one kind write their registers in order (LLVM
            // waits for none between them either).
            let writes_in_order = !op.lock
                && reader == Some(Queue::Vm)
                && op.queue == Queue::Vm
                && VmemKind::of(row) == VmemKind::of(self.program.steps[op.step].row);
            // A write of VGPRs by lane, none of which the operation's EXEC had.
            let other_lanes = |u: &RegUse| {
                u.write
                    && by_lane
                    && u.range.file == RegFile::Vgpr
                    && lanes.disjoint_from.disjoint(op.exec)
            };
            // A read first: reading the old value is what a user looks for.
            let (reads, writes) = (
                uses.iter().filter(|u| !u.write),
                uses.iter().filter(|u| u.write),
            );
            let hit = reads
                .chain(writes)
                .filter(|u| {
                    if u.write {
                        !writes_in_order
                    } else {
                        !reads_harmless(u)
                    }
                })
                .find_map(|u| {
                    self.held(op)
                        .find_map(|w| overlap(w, u.range))
                        .filter(|&r| {
                            u.write
                                || reader.is_none()
                                || self.is_stored_data(step, u)
                                || !self.reads_as_address(op.step, r)
                        })
                        .map(|r| (r, u))
                });
            let Some((register, using)) = hit else {
                continue;
            };
            op.watched = false;
            written.remove(self.held(op));
            // Not reported, and no longer watched as a reported one is: which lanes a
            // later use reads is not known (so a state not settled, taking more lanes
            // apart, finds no hazard the settled one does not).
            if other_lanes(using) {
                continue;
            }
            // An atomic that returns: the wait for its load is the wait for its reading
            // of the data too ([`done_with_locks`]), one warning says both.
            if op.lock && load_reported == Some(op.step) {
                continue;
            }
            if !op.lock {
                load_reported = Some(op.step);
            }
            let write = using.write;
            let later = match op.queue {
                Queue::Vm | Queue::Flat => op.later.vm,
                Queue::VmStore => op.later.vs,
                Queue::LgkmOrdered => op.later.ds,
                Queue::GdsOrdered => op.later.gds,
                Queue::LgkmAnyOrder => 0,
                Queue::Exp => op.later.exp,
            };
            found(Found {
                register,
                write,
                lock: op.lock,
                load: op.step,
                queue: op.queue,
                later,
            });
        }
    }
}

impl Later {
    /// What one operation of `kind` adds to those before it.
    fn of(kind: Queue) -> Later {
        Later {
            vm: kind.counts_in(Counter::Vm).into(),
            vs: kind.counts_in(Counter::Vs).into(),
            ds: (kind == Queue::LgkmOrdered).into(),
            gds: (kind == Queue::GdsOrdered).into(),
            lgkm: kind.counts_in(Counter::Lgkm).into(),
            exp: kind.counts_in(Counter::Exp).into(),
        }
    }

    fn add(&mut self, more: Later) {
        self.vm = self.vm.saturating_add(more.vm);
        self.vs = self.vs.saturating_add(more.vs);
        self.ds = self.ds.saturating_add(more.ds);
        self.gds = self.gds.saturating_add(more.gds);
        self.lgkm = self.lgkm.saturating_add(more.lgkm);
        self.exp = self.exp.saturating_add(more.exp);
    }
}

impl Op {
    /// Whether a counter it counts in holds as many operations after it as it can
    /// (`capacities`).
    fn overflows(&self, capacities: &Later) -> bool {
        let (later, cap) = (&self.later, capacities);
        match self.queue {
            Queue::Vm => later.vm >= cap.vm,
            Queue::VmStore => later.vs >= cap.vs,
            Queue::LgkmOrdered | Queue::GdsOrdered | Queue::LgkmAnyOrder => later.lgkm >= cap.lgkm,
            Queue::Flat => later.vm >= cap.vm || later.lgkm >= cap.lgkm,
            Queue::Exp => later.exp >= cap.exp,
        }
    }
}

impl Wait {
    /// Whether the wait guarantees `op` done: in order, at most N operations after it
    /// are left; in any order, only a wait for all.
    /// Whether the wait may stop the wave in `state`: more operations counting in one of
    /// its counters than its count for it may be in flight (on one path, or on paths
    /// that join: the union may hold more than any one, so a wait is called needless
    /// only when it is on each).
    fn may_block(&self, state: &State, capacities: &Later) -> bool {
        let limits = self.counts(capacities);
        self.may_wait_for_unfollowed(state, capacities)
            || limits.into_iter().any(|(counter, count, _)| {
                let in_flight = state.ops.iter().filter(|op| op.queue.counts_in(counter));
                in_flight.count() > count as usize
            })
    }

    /// Whether it waits on a counter that operations not followed may count in (as
    /// many as the counter holds).
    fn may_wait_for_unfollowed(&self, state: &State, capacities: &Later) -> bool {
        self.counts(capacities)
            .into_iter()
            .any(|(counter, count, capacity)| {
                state.unfollowed & counter.bit() != 0 && count < u32::from(capacity)
            })
    }

    /// Each counter with its count and what it holds.
    fn counts(&self, capacities: &Later) -> [(Counter, u32, u8); 4] {
        [
            (Counter::Vm, self.vm, capacities.vm),
            (Counter::Vs, self.vs, capacities.vs),
            (Counter::Lgkm, self.lgkm, capacities.lgkm),
            (Counter::Exp, self.exp, capacities.exp),
        ]
    }

    /// The counters it waits on until nothing is left.
    fn all_done(&self) -> u8 {
        self.counts(&Later::default())
            .into_iter()
            .filter(|&(_, count, _)| count == 0)
            .fold(0, |set, (counter, _, _)| set | counter.bit())
    }

    fn retires(&self, op: &Op) -> bool {
        let later = op.later;
        match op.queue {
            Queue::Vm => u32::from(later.vm) >= self.vm,
            Queue::VmStore => u32::from(later.vs) >= self.vs,
            Queue::LgkmOrdered => u32::from(later.ds) >= self.lgkm,
            Queue::GdsOrdered => u32::from(later.gds) >= self.lgkm,
            Queue::LgkmAnyOrder => self.lgkm == 0,
            Queue::Flat => u32::from(later.vm) >= self.vm || self.lgkm == 0,
            Queue::Exp => u32::from(later.exp) >= self.exp,
        }
    }
}

fn overlap(a: RegRange, b: RegRange) -> Option<RegRange> {
    if a.file != b.file {
        return None;
    }
    let first = a.first.max(b.first);
    let end = (a.first + a.count).min(b.first + b.count);
    (first < end).then(|| RegRange {
        file: a.file,
        first,
        count: end - first,
    })
}

/// A register range as the source writes it: `v3`, `s[4:5]`, `vcc`, `exec_lo`, `m0`.
fn register_text(gen: Generation, r: RegRange) -> String {
    let last = r.first + r.count.max(1) - 1;
    let range = |prefix: &str, first: u16, last: u16| {
        if first == last {
            format!("{prefix}{first}")
        } else {
            format!("{prefix}[{first}:{last}]")
        }
    };
    if r.file == RegFile::Vgpr {
        return range("v", r.first, last);
    }
    if u32::from(last) < gen.registers().addressable_sgprs {
        return range("s", r.first, last);
    }
    use gcn_isa::SpecialReg::*;
    for (reg, name) in [
        (Vcc, "vcc"),
        (Exec, "exec"),
        (FlatScratch, "flat_scratch"),
        (XnackMask, "xnack_mask"),
    ] {
        if gen.special_reg_code(reg) == Some(r.first) {
            return match r.count {
                1 => format!("{name}_lo"),
                _ => name.to_string(),
            };
        }
        if gen.special_reg_code(reg) == Some(r.first - 1) && r.count == 1 {
            return format!("{name}_hi");
        }
    }
    if gen.special_reg_code(M0) == Some(r.first) && r.count == 1 {
        return "m0".to_string();
    }
    if let Some(ttmp) = gen.special_reg_code(Ttmp) {
        if r.first >= ttmp && last < ttmp + 16 {
            return range("ttmp", r.first - ttmp, last - ttmp);
        }
    }
    range("s", r.first, last)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const LABELS: usize = 6;

    /// One instruction of a random program: loads, stores, exports, uses, waits and
    /// branches among few registers and labels, so that hazards, loops and joins are
    /// common.
    fn instruction() -> impl Strategy<Value = String> {
        prop_oneof![
            (2u8..8, 0u8..4).prop_map(|(s, o)| format!("s_load_dword s{s}, s[0:1], {o}")),
            (1u8..6).prop_map(|v| format!("buffer_load_dword v{v}, v0, s[8:11], 0 offen")),
            (1u8..6).prop_map(|v| format!("ds_read_b32 v{v}, v0")),
            (1u8..6).prop_map(|v| format!("ds_read_b32 v{v}, v0 gds")),
            (1u8..6).prop_map(|v| format!("buffer_store_dword v{v}, v0, s[8:11], 0 offen")),
            (1u8..3).prop_map(|v| format!("exp mrt0, v{v}, v{v}, v3, v4")),
            (2u8..8, 2u8..8).prop_map(|(a, b)| format!("s_add_u32 s{a}, s{b}, 1")),
            (1u8..6, 1u8..6).prop_map(|(a, b)| format!("v_mov_b32 v{a}, v{b}")),
            (0u8..3, 0u8..3, 0u8..3)
                .prop_map(|(v, e, l)| format!("s_waitcnt vmcnt({v}) expcnt({e}) lgkmcnt({l})")),
            Just("s_andn2_b64 exec, s[6:7], exec".to_string()),
            Just("s_andn2_saveexec_b64 s[6:7], s[2:3]".to_string()),
            Just("s_mov_b64 exec, s[6:7]".to_string()),
            Just("v_cmp_gt_u32 vcc, s0, v0".to_string()),
            Just("s_mov_b64 vcc, vcc".to_string()),
            (0..LABELS).prop_map(|l| format!("s_cbranch_vccz L{l}")),
            (0..LABELS).prop_map(|l| format!("s_cbranch_scc0 L{l}")),
            (0..LABELS).prop_map(|l| format!("s_branch L{l}")),
            Just("s_endpgm".to_string()),
        ]
    }

    /// Instructions with each label put before the one at its place.
    fn program() -> impl Strategy<Value = String> {
        let lines = proptest::collection::vec(instruction(), 1..40);
        let places = proptest::collection::vec(0usize..40, LABELS);
        (lines, places).prop_map(|(lines, places)| {
            let mut text = String::new();
            for (i, line) in lines.iter().enumerate() {
                for (l, _) in places.iter().enumerate().filter(|(_, &p)| p == i) {
                    text.push_str(&format!("L{l}:\n"));
                }
                text.push_str(line);
                text.push('\n');
            }
            for (l, _) in places.iter().enumerate().filter(|(_, &p)| p >= lines.len()) {
                text.push_str(&format!("L{l}:\n"));
            }
            text
        })
    }

    /// The hazards found (where the use is, where the load is) with `limits`. A read of
    /// VCCZ is one hazard whichever load on some path may have corrupted it (the
    /// first the state holds is named): its load is left out.
    fn hazards(text: &str, limits: Limits) -> Vec<(u32, u32)> {
        let mut options = crate::Options::default();
        options.check_waits = true;
        options.format = crate::options::BinaryFormat::Rawcode;
        // GCN 1.0: stores hold their data registers too.
        options.device = gcn_isa::Device::from_name("capeverde").unwrap();
        options.device_given = true;
        let text = text.to_string();
        std::thread::Builder::new()
            .stack_size(64 << 20)
            .spawn(move || {
                TEST_LIMITS.set(limits);
                let input = crate::Input {
                    name: "random.s".into(),
                    text,
                };
                let assembly = crate::assemble_here(vec![input], options);
                let errors: Vec<_> = assembly
                    .diagnostics
                    .iter()
                    .filter(|d| d.severity == crate::diag::Severity::Error)
                    .collect();
                assert!(errors.is_empty(), "{errors:?}");
                let mut found: Vec<(u32, u32)> = assembly
                    .wait_hazards
                    .iter()
                    .map(|h| {
                        let vccz = h.diagnostic.message.contains("VCCZ");
                        let load = if vccz { 0 } else { h.load.offset };
                        (h.diagnostic.location.unwrap().offset, load)
                    })
                    .collect();
                found.sort_unstable();
                found
            })
            .unwrap()
            .join()
            .unwrap()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// Stopped early, the states are smaller than settled ones: what the check
        /// finds then, it finds with all the room it needs; it never makes one up.
        #[test]
        fn stopped_early_it_misses_and_never_makes_up(text in program()) {
            let all = hazards(&text, LIMITS);
            for limits in [
                Limits { budget: 0, max_ops: MAX_OPS },
                Limits { budget: 30, max_ops: MAX_OPS },
                Limits { budget: FOLLOW_BUDGET, max_ops: 1 },
            ] {
                let some = hazards(&text, limits);
                for hazard in &some {
                    prop_assert!(all.contains(hazard), "{hazard:?} with {limits:?} in\n{text}");
                }
            }
        }
    }
}
