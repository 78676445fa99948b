//! How many cycles an instruction takes to issue and run for one wave on GCN 1.0 to 1.4,
//! for the hover: the CLRX project's measurements. Instructions timed one by one (scalar
//! memory, VOP1, VOP3, LDS) are in `data/timings.txt`; whole classes take the same time
//! (SOP2, SOPC, VOP2, VOP3P: 4 cycles; VOPC: 4, or D×4 on 64-bit values). GCN 1.5 runs
//! waves differently (32 lanes, other pipelines): nothing is said about it.

use std::collections::HashMap;
use std::sync::OnceLock;

use gcn_isa::{Encoding, Generation};

/// The cycles an instruction takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cycles {
    Fixed(u32),
    /// Between the two, by the data loaded.
    Range(u32, u32),
    /// This many times the GPU's double-precision factor.
    DoublePrecision(u32),
    /// The first on GPUs with fast double precision, the second on the others.
    ByDoublePrecision(u32, u32),
    /// A branch: when not taken, and about when taken.
    Branch(u32, u32),
}

/// An instruction's timing: its cycles and, for LDS instructions, the most of it that
/// can issue per cycle (`1/4`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Timing {
    pub cycles: Cycles,
    pub throughput: Option<&'static str>,
}

const DATA: &str = include_str!("../data/timings.txt");

fn table() -> &'static HashMap<&'static str, Timing> {
    static TABLE: OnceLock<HashMap<&'static str, Timing>> = OnceLock::new();
    TABLE.get_or_init(|| {
        DATA.lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .map(|line| {
                let mut fields = line.split_whitespace();
                let (name, cycles) = (fields.next().unwrap(), fields.next().unwrap());
                let timing = Timing {
                    cycles: parse_cycles(cycles)
                        .unwrap_or_else(|| panic!("timings.txt: bad cycles in `{line}`")),
                    throughput: fields.next(),
                };
                (name, timing)
            })
            .collect()
    })
}

fn parse_cycles(text: &str) -> Option<Cycles> {
    let num = |s: &str| s.parse::<u32>().ok();
    Some(if let Some(n) = text.strip_prefix("D*") {
        Cycles::DoublePrecision(num(n)?)
    } else if let Some((a, b)) = text.split_once('|') {
        Cycles::ByDoublePrecision(num(a)?, num(b)?)
    } else if let Some((a, b)) = text.split_once('-') {
        Cycles::Range(num(a)?, num(b)?)
    } else {
        Cycles::Fixed(num(text)?)
    })
}

/// The timing of `mnemonic` (lower case, without a suffix) in `encoding` on `gen`;
/// `None` where it was not measured.
pub fn timing(mnemonic: &str, encoding: Encoding, gen: Generation) -> Option<Timing> {
    if gen >= Generation::Gcn1_5 {
        return None;
    }
    if let Some(t) = table().get(mnemonic) {
        return Some(*t);
    }
    let fixed = |n| {
        Some(Timing {
            cycles: Cycles::Fixed(n),
            throughput: None,
        })
    };
    match encoding {
        Encoding::Sop2 if mnemonic != "s_cbranch_g_fork" => fixed(4),
        Encoding::Sopk if mnemonic.starts_with("s_setreg") => fixed(8),
        Encoding::Sopk if mnemonic != "s_cbranch_i_fork" => fixed(4),
        Encoding::Sop1 if mnemonic.ends_with("_saveexec_b64") => fixed(8),
        Encoding::Sop1
            if !matches!(mnemonic, "s_mov_regrd_b32" | "s_cbranch_join" | "s_rfe_b64") =>
        {
            fixed(4)
        }
        Encoding::Sopc | Encoding::Vop2 | Encoding::Vop3p => fixed(4),
        Encoding::Sopp if mnemonic == "s_branch" || mnemonic.starts_with("s_cbranch_") => {
            Some(Timing {
                cycles: Cycles::Branch(4, 20),
                throughput: None,
            })
        }
        Encoding::Vopc if ["f64", "i64", "u64"].iter().any(|t| mnemonic.ends_with(t)) => {
            Some(Timing {
                cycles: Cycles::DoublePrecision(4),
                throughput: None,
            })
        }
        Encoding::Vopc => fixed(4),
        _ => None,
    }
}

/// The timing in words, for the hover.
pub fn describe(timing: &Timing) -> String {
    let mut text = match timing.cycles {
        Cycles::Fixed(4) => "4 cycles (the full rate)".to_string(),
        Cycles::Fixed(n) => format!("{n} cycles (the full rate is 4)"),
        Cycles::Range(a, b) => format!("{a} to {b} cycles"),
        Cycles::DoublePrecision(n) => format!(
            "{n} × D cycles, D the GPU's double-precision factor: 1 on professional \
             Hawaii, 2 on Tahiti, 4 on other Hawaii, 8 on other GPUs"
        ),
        Cycles::ByDoublePrecision(fast, slow) => format!(
            "{fast} cycles on GPUs with fast double precision (Tahiti, Hawaii), {slow} on others"
        ),
        Cycles::Branch(not_taken, taken) => {
            format!("{not_taken} cycles, about {taken} when it jumps")
        }
    };
    if let Some(t) = timing.throughput {
        text.push_str(&format!("; at most {t} instruction per cycle"));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_timed_instruction_is_one_of_the_instruction_set() {
        let unknown: Vec<&str> = table()
            .keys()
            .copied()
            .filter(|name| gcn_isa::lookup(name).is_empty())
            .collect();
        assert!(unknown.is_empty(), "not instructions: {unknown:?}");
    }

    #[test]
    fn timings_in_words() {
        use Generation::*;
        let words = |name: &str, gen| {
            let row = gcn_isa::lookup(name)[0];
            timing(name, row.encoding, gen).map(|t| describe(&t))
        };
        expect_test::expect![[r#"
            [
                Some(
                    "4 cycles (the full rate)",
                ),
                Some(
                    "16 cycles (the full rate is 4)",
                ),
                Some(
                    "8 × D cycles, D the GPU's double-precision factor: 1 on professional Hawaii, 2 on Tahiti, 4 on other Hawaii, 8 on other GPUs",
                ),
                Some(
                    "4 cycles on GPUs with fast double precision (Tahiti, Hawaii), 16 on others",
                ),
                Some(
                    "16 to 24 cycles",
                ),
                Some(
                    "12 cycles (the full rate is 4); at most 1/6 instruction per cycle",
                ),
                Some(
                    "4 cycles, about 20 when it jumps",
                ),
                Some(
                    "8 cycles (the full rate is 4)",
                ),
                Some(
                    "4 × D cycles, D the GPU's double-precision factor: 1 on professional Hawaii, 2 on Tahiti, 4 on other Hawaii, 8 on other GPUs",
                ),
                None,
                None,
            ]
        "#]]
        .assert_debug_eq(&[
            words("v_add_f32", Gcn1_2),
            words("v_rcp_f32", Gcn1_0),
            words("v_fma_f64", Gcn1_1),
            words("v_fma_f32", Gcn1_0),
            words("s_load_dwordx16", Gcn1_0),
            words("ds_write2_b32", Gcn1_2),
            words("s_cbranch_scc0", Gcn1_4),
            words("s_and_saveexec_b64", Gcn1_0),
            words("v_cmp_lt_f64", Gcn1_0),
            words("s_waitcnt", Gcn1_0),
            words("v_add_f32", Gcn1_5),
        ]);
    }
}
