//! Queries over the instruction table, for the assembler and the language server.
//!
//! The generated table is sorted by mnemonic: completion is a binary search; a
//! mnemonic's rows come from a hash index built on first use.

use std::collections::HashMap;
use std::hash::BuildHasherDefault;
use std::sync::OnceLock;

use rustc_hash::FxHasher;

use crate::arch::Generation;
use crate::generated::instructions::INSTRUCTIONS;
use crate::table::Instruction;

/// Encoding-size suffix of a mnemonic as written in source.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Suffix {
    /// `_e32`: the 32-bit VOP1/VOP2/VOPC (or SOP) form.
    E32,
    /// `_e64`: the VOP3 form (or the 64-bit form of a scalar instruction).
    E64,
    /// `_sdwa`: SDWA (GCN 1.2+).
    Sdwa,
    /// `_dpp`: DPP (GCN 1.2+).
    Dpp,
    /// `_dpp8`: DPP8 (GCN 1.5).
    Dpp8,
}

const SUFFIXES: &[(&str, Suffix)] = &[
    ("_e32", Suffix::E32),
    ("_e64", Suffix::E64),
    ("_sdwa", Suffix::Sdwa),
    ("_dpp8", Suffix::Dpp8),
    ("_dpp", Suffix::Dpp),
];

/// The length of the longest of [`SUFFIXES`].
const LONGEST_SUFFIX: usize = {
    let (mut i, mut longest) = (0, 0);
    while i < SUFFIXES.len() {
        if SUFFIXES[i].0.len() > longest {
            longest = SUFFIXES[i].0.len();
        }
        i += 1;
    }
    longest
};

/// Splits an encoding suffix off a mnemonic: `v_add_f32_e64` -> (`v_add_f32`, E64).
/// Case-insensitive; the returned base keeps the input's case.
pub fn split_suffix(mnemonic: &str) -> (&str, Option<Suffix>) {
    // Every suffix is `_` and a word without `_`: only the text after the last `_` can
    // be one (and something must come before it), and only if that `_` is among the
    // last LONGEST_SUFFIX bytes.
    let bytes = mnemonic.as_bytes();
    let window = bytes.len().saturating_sub(LONGEST_SUFFIX);
    let last_underscore = bytes[window..].iter().rposition(|&b| b == b'_');
    let Some(at) = last_underscore.map(|i| window + i).filter(|&at| at > 0) else {
        return (mnemonic, None);
    };
    let tail = &mnemonic[at..];
    match SUFFIXES
        .iter()
        .find(|(text, _)| text.eq_ignore_ascii_case(tail))
    {
        Some(&(_, suffix)) => (&mnemonic[..at], Some(suffix)),
        None => (mnemonic, None),
    }
}

/// Every row of the table, sorted by mnemonic.
pub fn instructions() -> &'static [Instruction] {
    INSTRUCTIONS
}

/// All rows of a mnemonic, on any generation and in any encoding (case-insensitive;
/// no suffix stripping: see [`split_suffix`]).
pub fn lookup(mnemonic: &str) -> &'static [Instruction] {
    let index = MNEMONIC_INDEX.get_or_init(index_mnemonics);
    let mut buf = [0u8; MAX_MNEMONIC_LEN];
    let key = if mnemonic.bytes().any(|b| b.is_ascii_uppercase()) {
        // Lowercased on the stack: this runs for every instruction assembled.
        let Some(key) = buf.get_mut(..mnemonic.len()) else {
            return &[];
        };
        key.copy_from_slice(mnemonic.as_bytes());
        key.make_ascii_lowercase();
        key
    } else {
        mnemonic.as_bytes()
    };
    match index.get(key) {
        Some(&(start, len)) => &INSTRUCTIONS[start as usize..(start + len) as usize],
        None => &[],
    }
}

/// Longer than any mnemonic: longer names are no mnemonic.
const MAX_MNEMONIC_LEN: usize = 64;

/// Mnemonic (lowercase bytes) -> its rows, as (start, count) in [`INSTRUCTIONS`].
type MnemonicIndex = HashMap<&'static [u8], (u32, u32), BuildHasherDefault<FxHasher>>;

static MNEMONIC_INDEX: OnceLock<MnemonicIndex> = OnceLock::new();

fn index_mnemonics() -> MnemonicIndex {
    let mut index = MnemonicIndex::default();
    for (i, row) in INSTRUCTIONS.iter().enumerate() {
        debug_assert!(row.mnemonic.len() < MAX_MNEMONIC_LEN);
        // The table is sorted by mnemonic: a mnemonic's rows are adjacent.
        index
            .entry(row.mnemonic.as_bytes())
            .or_insert((i as u32, 0))
            .1 += 1;
    }
    index
}

/// The rows of a mnemonic that exist on `gen`. Usually one; two where a mnemonic has
/// two encodings on one generation (e.g. a VOP2 and a VOP3-only form).
pub fn lookup_on(mnemonic: &str, gen: Generation) -> impl Iterator<Item = &'static Instruction> {
    lookup(mnemonic).iter().filter(move |i| i.exists_on(gen))
}

/// Generations on which a mnemonic exists in some encoding, oldest first.
pub fn generations_of(mnemonic: &str) -> Vec<Generation> {
    let rows = lookup(mnemonic);
    Generation::ALL
        .into_iter()
        .filter(|&g| rows.iter().any(|i| i.exists_on(g)))
        .collect()
}

/// Distinct mnemonics starting with `prefix` (case-insensitive) that exist on `gen`,
/// in sorted order: completion candidates.
pub fn complete(prefix: &str, gen: Generation) -> Vec<&'static str> {
    let key = prefix.to_ascii_lowercase();
    let start = INSTRUCTIONS.partition_point(|i| i.mnemonic < key.as_str());
    let mut out: Vec<&'static str> = Vec::new();
    for i in INSTRUCTIONS[start..]
        .iter()
        .take_while(|i| i.mnemonic.starts_with(&key))
    {
        if i.exists_on(gen) && out.last() != Some(&i.mnemonic) {
            out.push(i.mnemonic);
        }
    }
    out
}
