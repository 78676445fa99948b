//! A register used while a memory load that writes it may still be in flight: the
//! `s_waitcnt` a hand-written kernel forgot. An editor's check (asked for with
//! [`crate::Options::check_waits`]); the reference assembler has none, so `gcnasm`
//! never reports it.
//!
//! The instructions of each code section are followed in the order they are written.
//! Every memory instruction joins the queue of the counter it counts in; a later
//! `s_waitcnt` retires what it guarantees done; an instruction that reads or writes a
//! register a queued load writes is reported (once per load). What the counters
//! guarantee:
//!
//! - vector memory (MUBUF, MTBUF, MIMG, global and scratch) returns in order: after
//!   `vmcnt(N)` all but the last N are done. From GCN 1.5 stores count in `vscnt`;
//! - LDS and GDS (DS) return in order among themselves: after `lgkmcnt(N)`, a DS
//!   operation followed by at least N other DS operations is done;
//! - scalar memory and messages return in any order: only `lgkmcnt(0)` guarantees them;
//! - FLAT counts in both counters: it is taken as done when `vmcnt` covers it as it
//!   covers the vector memory operations (what AMD's compiler relies on for global
//!   memory) or after `lgkmcnt(0)`.
//!
//! A vector memory instruction reads its operands before an earlier vector memory load
//! returns (AMD's compiler reuses an address register as the destination of a load
//! before the next access so): such reads are not reported.
//!
//! A counter holds so many operations (`vmcnt` 15 before GCN 1.4, 63 after; `lgkmcnt`
//! 31, 15 from GCN 1.2, 63 on GCN 1.5): a wave that would count one more waits, so the
//! oldest of a full counter is taken as done.
//!
//! An unconditional branch or the end of the program ends the straight line: nothing
//! is in flight after it (code there is reached by a jump, from paths not followed). A
//! label keeps what the line before it left in flight. So a loop's back edge and the
//! paths that join at a label are not followed: a hazard there is missed, never made up.

use gcn_isa::encode::{RegFile, RegRange, RegUse};
use gcn_isa::table::{Encoding, Instruction};
use gcn_isa::Generation;

use crate::diag::Diagnostic;
use crate::source::Location;

/// A register used while a load that writes it may still be in flight.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WaitHazard {
    /// A warning at the instruction that uses the register (with its origin chain).
    pub diagnostic: Diagnostic,
    /// Where the load is, and its length.
    pub load: Location,
    pub load_len: u32,
    /// The `s_waitcnt` that makes the use safe, written before it.
    pub wait: String,
}

/// The counter an operation counts in, and whether its results come back in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Queue {
    /// `vmcnt`, in order (before GCN 1.5, stores too).
    Vm,
    /// `vscnt` (GCN 1.5 stores), in order.
    VmStore,
    /// `lgkmcnt`, in order among themselves (LDS, GDS).
    LgkmOrdered,
    /// `lgkmcnt`, any order (scalar memory, messages).
    LgkmAnyOrder,
    /// `vmcnt` (in order) and `lgkmcnt` (FLAT).
    Flat,
}

/// A memory operation that may still be in flight.
#[derive(Debug, Clone)]
struct InFlight {
    queue: Queue,
    /// The registers it writes (none for a store).
    writes: smallvec::SmallVec<[RegRange; 2]>,
    mnemonic: &'static str,
    at: Location,
    len: u32,
}

/// What an `s_waitcnt` asks of each counter: at most this many left in flight
/// (`u32::MAX`: no wait on that counter).
#[derive(Debug, Clone, Copy)]
struct Wait {
    vm: u32,
    lgkm: u32,
    vs: u32,
}

impl Wait {
    const ALL: Wait = Wait {
        vm: 0,
        lgkm: 0,
        vs: 0,
    };
}

/// A use found: the register (those of the use the load writes), whether the use
/// writes it, the load and the wait that retires it. Put in words only when kept.
#[derive(Debug, Clone)]
pub(crate) struct Found {
    register: RegRange,
    write: bool,
    mnemonic: &'static str,
    pub load: Location,
    pub load_len: u32,
    /// The load's queue and how many operations of the queues it waits with came after.
    queue: Queue,
    later: usize,
}

impl Found {
    /// The least `s_waitcnt` that retires the load.
    pub(crate) fn wait(&self) -> String {
        let later = self.later;
        match self.queue {
            Queue::Vm | Queue::Flat => format!("s_waitcnt vmcnt({later})"),
            Queue::VmStore => format!("s_waitcnt_vscnt null, {later}"),
            Queue::LgkmOrdered => format!("s_waitcnt lgkmcnt({later})"),
            Queue::LgkmAnyOrder => "s_waitcnt lgkmcnt(0)".to_string(),
        }
    }

    pub(crate) fn message(&self, gen: Generation) -> String {
        let register = register_text(gen, self.register);
        let (load, wait) = (self.mnemonic, self.wait());
        if self.write {
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

/// The queues of every code section, as the assembler goes.
#[derive(Debug, Default)]
pub(crate) struct Waits {
    /// By section index.
    by_section: Vec<Line>,
    /// The first [`MAX_HAZARDS`] found.
    pub hazards: Vec<WaitHazard>,
    /// How many more there were.
    pub more: usize,
}

/// At most this many are kept: a source with more (generated, or never meant to run)
/// gets nothing from thousands of warnings but a slow editor.
pub const MAX_HAZARDS: usize = 100;

impl Waits {
    /// Whether a hazard found now is kept (else only counted: [`MAX_HAZARDS`]).
    pub(crate) fn keeps_more(&self) -> bool {
        self.hazards.len() < MAX_HAZARDS
    }

    /// Follows an instruction of `section` (whose place, and length in bytes of source,
    /// `place` gives) that encoded to `first_word` (`None` while an operand waits for a
    /// symbol) and uses `regs`; returns the uses of registers a load in flight writes.
    pub(crate) fn instruction(
        &mut self,
        gen: Generation,
        section: usize,
        row: &'static Instruction,
        first_word: Option<u32>,
        regs: &[RegUse],
        place: impl Fn() -> (Location, u32),
    ) -> Vec<Found> {
        if self.by_section.len() <= section {
            self.by_section.resize_with(section + 1, Line::default);
        }
        let line = &mut self.by_section[section];
        if let Some(wait) = wait_of(gen, row, first_word) {
            line.retire(wait);
            return Vec::new();
        }
        let kind = queue_of(gen, row, regs);
        let mut found = Vec::new();
        if regs.iter().any(|r| line.written.meets(r.range)) {
            found = line.uses_in_flight(regs, kind);
        }
        if let Some(kind) = kind {
            let (at, len) = place();
            line.make_room(gen, kind);
            let op = InFlight {
                queue: kind,
                writes: regs.iter().filter(|r| r.write).map(|r| r.range).collect(),
                mnemonic: row.mnemonic,
                at,
                len,
            };
            line.written.add(&op.writes);
            line.queue.push(op);
        }
        if ends_straight_line(row.mnemonic) {
            line.queue.clear();
            line.written = Written::default();
        }
        found
    }
}

/// The operations in flight in one code section, and the registers they write.
#[derive(Debug, Default)]
struct Line {
    queue: Vec<InFlight>,
    written: Written,
}

/// How many operations in flight write each register: most instructions use none of
/// them, which this tells without a look at the queue.
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

    fn add(&mut self, writes: &[RegRange]) {
        for &r in writes {
            for n in Self::slots(r) {
                self.counts[n] = self.counts[n].saturating_add(1);
            }
        }
    }

    fn remove(&mut self, writes: &[RegRange]) {
        for &r in writes {
            for n in Self::slots(r) {
                self.counts[n] = self.counts[n].saturating_sub(1);
            }
        }
    }

    fn meets(&self, r: RegRange) -> bool {
        Self::slots(r).any(|n| self.counts[n] > 0)
    }
}

/// The queue a memory instruction joins, `None` for the others.
fn queue_of(gen: Generation, row: &Instruction, regs: &[RegUse]) -> Option<Queue> {
    let writes_vgprs = regs
        .iter()
        .any(|r| r.write && r.range.file == RegFile::Vgpr);
    Some(match row.encoding {
        Encoding::Smrd | Encoding::Smem => Queue::LgkmAnyOrder,
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
    let none = u32::MAX;
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
                vs: none,
            }
        }
        "s_waitcnt_vmcnt" => Wait {
            vm: sopk_count().unwrap_or(0),
            lgkm: none,
            vs: none,
        },
        "s_waitcnt_lgkmcnt" => Wait {
            vm: none,
            lgkm: sopk_count().unwrap_or(0),
            vs: none,
        },
        "s_waitcnt_vscnt" => Wait {
            vm: none,
            lgkm: none,
            vs: sopk_count().unwrap_or(0),
        },
        _ => return None,
    };
    Some(wait)
}

/// The most operations a counter holds on `gen`: a wave that would count one more
/// waits until one is done.
fn capacity(gen: Generation, counter: Counter) -> usize {
    use Generation::*;
    match (counter, gen) {
        (Counter::Vm, Gcn1_0 | Gcn1_1 | Gcn1_2) => 15,
        (Counter::Vm | Counter::Vs, _) => 63,
        (Counter::Lgkm, Gcn1_0 | Gcn1_1) => 31,
        (Counter::Lgkm, Gcn1_2 | Gcn1_4 | Gcn1_4_1) => 15,
        (Counter::Lgkm, _) => 63,
    }
}

/// The hardware's counters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Counter {
    Vm,
    Vs,
    Lgkm,
}

impl Queue {
    fn counts_in(self, counter: Counter) -> bool {
        match counter {
            Counter::Vm => matches!(self, Queue::Vm | Queue::Flat),
            Counter::Vs => self == Queue::VmStore,
            Counter::Lgkm => matches!(self, Queue::LgkmOrdered | Queue::LgkmAnyOrder | Queue::Flat),
        }
    }
}

impl Line {
    /// Before an operation of `kind` joins: for each counter it counts in that is
    /// full, the oldest operation of that counter is taken as done (the wave waited
    /// for one; for those that return in any order, which one is not known: the oldest
    /// is taken, so that nothing is reported that may be done).
    fn make_room(&mut self, gen: Generation, kind: Queue) {
        for counter in [Counter::Vm, Counter::Vs, Counter::Lgkm] {
            if !kind.counts_in(counter) {
                continue;
            }
            let counted = self
                .queue
                .iter()
                .filter(|op| op.queue.counts_in(counter))
                .count();
            if counted < capacity(gen, counter) {
                continue;
            }
            if let Some(oldest) = self.queue.iter().position(|op| op.queue.counts_in(counter)) {
                let op = self.queue.remove(oldest);
                self.written.remove(&op.writes);
            }
        }
    }

    /// Takes out of the queue what `wait` guarantees done.
    fn retire(&mut self, wait: Wait) {
        let done = retired(&self.queue, wait);
        let mut done = done.into_iter();
        let written = &mut self.written;
        self.queue.retain(|op| {
            let gone = done.next().unwrap_or(false);
            if gone {
                written.remove(&op.writes);
            }
            !gone
        });
    }
}

/// Which operations of `queue` `wait` guarantees done.
fn retired(queue: &[InFlight], wait: Wait) -> Vec<bool> {
    // From the newest back, counting the operations that came after each one.
    let (mut vm, mut vs, mut lgkm) = (0u32, 0u32, 0u32);
    let mut done = vec![false; queue.len()];
    for (i, op) in queue.iter().enumerate().rev() {
        done[i] = match op.queue {
            Queue::Vm => vm >= wait.vm,
            Queue::VmStore => vs >= wait.vs,
            Queue::LgkmOrdered => lgkm >= wait.lgkm,
            Queue::LgkmAnyOrder => wait.lgkm == 0,
            Queue::Flat => vm >= wait.vm || wait.lgkm == 0,
        };
        match op.queue {
            Queue::Vm | Queue::Flat => vm += 1,
            Queue::VmStore => vs += 1,
            Queue::LgkmOrdered => lgkm += 1,
            Queue::LgkmAnyOrder => {}
        }
    }
    done
}

impl Line {
    /// The uses among `regs` (of an instruction of `reader`'s queue) of registers a
    /// load in flight writes. Each such load is reported once: its registers are
    /// forgotten (so their later uses are not reported again), while it still counts in
    /// its queue until a wait retires it. A vector memory instruction reads its
    /// registers before an earlier vector memory load can return (they go in order):
    /// its reads are not reported.
    fn uses_in_flight(&mut self, regs: &[RegUse], reader: Option<Queue>) -> Vec<Found> {
        let Line { queue, written } = self;
        let vector = |q: Option<Queue>| matches!(q, Some(Queue::Vm | Queue::VmStore | Queue::Flat));
        // Only the uses of registers some operation in flight writes.
        let uses: smallvec::SmallVec<[RegUse; 4]> = regs
            .iter()
            .filter(|u| written.meets(u.range))
            .copied()
            .collect();
        let mut found = Vec::new();
        for i in 0..queue.len() {
            if queue[i].writes.is_empty() {
                continue;
            }
            let reads_in_order = vector(reader) && vector(Some(queue[i].queue));
            let hit = uses
                .iter()
                .filter(|u| u.write || !reads_in_order)
                .find_map(|u| {
                    queue[i]
                        .writes
                        .iter()
                        .find_map(|w| overlap(*w, u.range))
                        .map(|r| (r, u.write))
                });
            let Some((register, write)) = hit else {
                continue;
            };
            written.remove(&queue[i].writes);
            queue[i].writes.clear();
            let op = &queue[i];
            let counted: &[Queue] = match op.queue {
                Queue::Vm | Queue::Flat => &[Queue::Vm, Queue::Flat],
                Queue::VmStore => &[Queue::VmStore],
                Queue::LgkmOrdered => &[Queue::LgkmOrdered],
                Queue::LgkmAnyOrder => &[],
            };
            let later = queue[i + 1..]
                .iter()
                .filter(|later| counted.contains(&later.queue))
                .count();
            found.push(Found {
                register,
                write,
                mnemonic: op.mnemonic,
                load: op.at,
                load_len: op.len,
                queue: op.queue,
                later,
            });
        }
        found
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

/// Whether nothing after `mnemonic` runs on from it: an unconditional branch, a jump
/// through a register, the end of the program.
fn ends_straight_line(mnemonic: &str) -> bool {
    matches!(
        mnemonic,
        "s_branch"
            | "s_setpc_b64"
            | "s_rfe_b64"
            | "s_endpgm"
            | "s_endpgm_saved"
            | "s_endpgm_ordered_ps_done"
    )
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
