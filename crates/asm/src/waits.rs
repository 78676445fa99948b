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
//! An unconditional branch or the end of the program ends the straight line: nothing
//! is in flight after it (code there is reached by a jump, from paths not followed). A
//! label keeps what the line before it left in flight. So a loop's back edge and the
//! paths that join at a label are not followed: a hazard there is missed, never made up.

use std::collections::HashMap;

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
    writes: Vec<RegRange>,
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

/// A use found: the register (as the instruction names it, within the load's) and the
/// load.
#[derive(Debug, Clone)]
pub(crate) struct Found {
    pub message: String,
    pub load: Location,
    pub load_len: u32,
    pub wait: String,
}

/// The queues of every code section, as the assembler goes.
#[derive(Debug, Default)]
pub(crate) struct Waits {
    by_section: HashMap<usize, Vec<InFlight>>,
    pub hazards: Vec<WaitHazard>,
}

/// More operations than any counter holds: the oldest are done by then.
const MAX_IN_FLIGHT: usize = 64;

impl Waits {
    /// Follows an instruction of `section` (at `at`, `len` bytes of source) that
    /// encoded to `first_word` (`None` while an operand waits for a symbol) and uses
    /// `regs`; returns the uses of registers a load in flight writes.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn instruction(
        &mut self,
        gen: Generation,
        section: usize,
        row: &'static Instruction,
        first_word: Option<u32>,
        regs: &[RegUse],
        at: Location,
        len: u32,
    ) -> Vec<Found> {
        let queue = self.by_section.entry(section).or_default();
        if let Some(wait) = wait_of(gen, row, first_word) {
            retire(queue, wait);
            return Vec::new();
        }
        let kind = queue_of(gen, row, regs);
        let found = uses_in_flight(gen, queue, regs, kind);
        if let Some(kind) = kind {
            if queue.len() == MAX_IN_FLIGHT {
                queue.remove(0);
            }
            queue.push(InFlight {
                queue: kind,
                writes: regs.iter().filter(|r| r.write).map(|r| r.range).collect(),
                mnemonic: row.mnemonic,
                at,
                len,
            });
        }
        if ends_straight_line(row.mnemonic) {
            queue.clear();
        }
        found
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

/// Takes out of `queue` what `wait` guarantees done.
fn retire(queue: &mut Vec<InFlight>, wait: Wait) {
    let done: Vec<bool> = (0..queue.len())
        .map(|i| {
            let later = |of: &[Queue]| {
                queue[i + 1..]
                    .iter()
                    .filter(|op| of.contains(&op.queue))
                    .count() as u32
            };
            match queue[i].queue {
                Queue::Vm => later(&[Queue::Vm, Queue::Flat]) >= wait.vm,
                Queue::VmStore => later(&[Queue::VmStore]) >= wait.vs,
                Queue::LgkmOrdered => later(&[Queue::LgkmOrdered]) >= wait.lgkm,
                Queue::LgkmAnyOrder => wait.lgkm == 0,
                Queue::Flat => later(&[Queue::Vm, Queue::Flat]) >= wait.vm || wait.lgkm == 0,
            }
        })
        .collect();
    let mut done = done.into_iter();
    queue.retain(|_| !done.next().unwrap_or(false));
}

/// The uses among `regs` (of an instruction of `reader`'s queue) of registers a load
/// in `queue` writes. Each such load is reported once: its registers are forgotten (so
/// their later uses are not reported again), while it still counts in its queue until a
/// wait retires it. A vector memory instruction reads its registers before an earlier
/// vector memory load can return (they go in order): its reads are not reported.
fn uses_in_flight(
    gen: Generation,
    queue: &mut [InFlight],
    regs: &[RegUse],
    reader: Option<Queue>,
) -> Vec<Found> {
    let vector = |q: Option<Queue>| matches!(q, Some(Queue::Vm | Queue::VmStore | Queue::Flat));
    let mut found = Vec::new();
    for i in 0..queue.len() {
        let reads_in_order = vector(reader) && vector(Some(queue[i].queue));
        let hit = regs
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
        let wait = wait_for(queue, i);
        queue[i].writes.clear();
        let op = &queue[i];
        let register = register_text(gen, register);
        let message = if write {
            format!(
                "`{register}` is written while the `{}` that loads it may still be in flight, so the load may overwrite it afterwards (wait with `{wait}` first)",
                op.mnemonic
            )
        } else {
            format!(
                "`{register}` is read while the `{}` that loads it may still be in flight, so it may read the old value (to read the loaded one, wait with `{wait}` first)",
                op.mnemonic
            )
        };
        found.push(Found {
            message,
            load: op.at,
            load_len: op.len,
            wait,
        });
    }
    found
}

/// The least `s_waitcnt` that retires `queue[i]`.
fn wait_for(queue: &[InFlight], i: usize) -> String {
    let later = |of: &[Queue]| {
        queue[i + 1..]
            .iter()
            .filter(|op| of.contains(&op.queue))
            .count()
    };
    match queue[i].queue {
        Queue::Vm | Queue::Flat => format!("s_waitcnt vmcnt({})", later(&[Queue::Vm, Queue::Flat])),
        Queue::VmStore => format!("s_waitcnt_vscnt null, {}", later(&[Queue::VmStore])),
        Queue::LgkmOrdered => format!("s_waitcnt lgkmcnt({})", later(&[Queue::LgkmOrdered])),
        Queue::LgkmAnyOrder => "s_waitcnt lgkmcnt(0)".to_string(),
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
