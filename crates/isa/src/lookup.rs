//! Queries over the instruction table, for the assembler and the language server.
//!
//! The generated table is sorted by mnemonic: completion is a binary search; a
//! mnemonic's rows come from a hash index built on first use.

use std::sync::OnceLock;

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

impl Suffix {
    /// The suffix whose text after `_` packs (see [`pack_lowercase`]) into `key`.
    fn from_packed(key: u64) -> Option<Suffix> {
        const E32: u64 = pack_lowercase(b"e32");
        const E64: u64 = pack_lowercase(b"e64");
        const SDWA: u64 = pack_lowercase(b"sdwa");
        const DPP8: u64 = pack_lowercase(b"dpp8");
        const DPP: u64 = pack_lowercase(b"dpp");
        Some(match key {
            E32 => Suffix::E32,
            E64 => Suffix::E64,
            SDWA => Suffix::Sdwa,
            DPP8 => Suffix::Dpp8,
            DPP => Suffix::Dpp,
            _ => return None,
        })
    }
}

/// Up to 7 bytes, ASCII-lowercased, in one number (after a 1 that keeps the length):
/// a suffix is matched with one comparison.
const fn pack_lowercase(text: &[u8]) -> u64 {
    let mut key = 1u64;
    let mut i = 0;
    while i < text.len() {
        key = key << 8 | text[i].to_ascii_lowercase() as u64;
        i += 1;
    }
    key
}

/// The length of the longest suffix, `_` included.
const LONGEST_SUFFIX: usize = "_sdwa".len();

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
    match Suffix::from_packed(pack_lowercase(&bytes[at + 1..])) {
        Some(suffix) => (&mnemonic[..at], Some(suffix)),
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
    let index = MNEMONIC_INDEX.get_or_init(MnemonicIndex::build);
    // Lowercased on the stack while hashing: this runs for every instruction assembled.
    let len = mnemonic.len();
    if len > MAX_MNEMONIC_LEN {
        return &[];
    }
    let mut key = [0u8; MAX_MNEMONIC_LEN];
    key[..len].copy_from_slice(mnemonic.as_bytes());
    let hash = lowercase_hash(&mut key, len);
    index.get(&key[..len], hash)
}

/// Longer than any mnemonic: longer names are no mnemonic.
const MAX_MNEMONIC_LEN: usize = 64;

/// Lowercases (ASCII) the first `len` bytes of `text`, zeros after them, in place and
/// returns their hash: eight bytes at a time, as FxHash does.
fn lowercase_hash(text: &mut [u8; MAX_MNEMONIC_LEN], len: usize) -> u64 {
    const K: u64 = 0x517c_c1b7_2722_0a95;
    let mut hash = len as u64;
    for chunk in text[..len.next_multiple_of(8)].chunks_exact_mut(8) {
        let bytes: &mut [u8; 8] = chunk.try_into().expect("chunks of 8");
        let word = ascii_lowercase_word(u64::from_le_bytes(*bytes));
        *bytes = word.to_le_bytes();
        hash = (hash.rotate_left(5) ^ word).wrapping_mul(K);
    }
    hash
}

/// Each byte of `word` ASCII-lowercased (`A`..=`Z` + 0x20; others unchanged).
fn ascii_lowercase_word(word: u64) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    // Per byte, the high bit of `low7 + (0x80 - b'A')` says `low7 >= b'A'` and of
    // `low7 + (0x7f - b'Z')` says `low7 > b'Z'` (no carries between bytes: low7 < 0x80).
    let low7 = word & !HIGH;
    let at_least_a = low7 + ONES * (0x80 - b'A' as u64);
    let above_z = low7 + ONES * (0x7f - b'Z' as u64);
    let upper = at_least_a & !above_z & !word & HIGH;
    word | (upper >> 2)
}

/// Mnemonic (lowercase) -> its rows in [`INSTRUCTIONS`]: an open-addressing table of
/// row ranges, probed linearly from the hash of [`lowercase_hash`].
struct MnemonicIndex {
    /// `(start, count)` in [`INSTRUCTIONS`]; `count` 0 is an empty slot.
    slots: Box<[(u32, u32)]>,
    mask: usize,
    /// 64 - log2(slots): a hash's top bits (the best mixed) pick its first slot.
    shift: u32,
}

static MNEMONIC_INDEX: OnceLock<MnemonicIndex> = OnceLock::new();

impl MnemonicIndex {
    fn build() -> MnemonicIndex {
        let mut ranges: Vec<(u32, u32)> = Vec::new();
        for (i, row) in INSTRUCTIONS.iter().enumerate() {
            debug_assert!(row.mnemonic.len() < MAX_MNEMONIC_LEN);
            // The table is sorted by mnemonic: a mnemonic's rows are adjacent.
            match ranges.last_mut() {
                Some((start, count)) if INSTRUCTIONS[*start as usize].mnemonic == row.mnemonic => {
                    *count += 1
                }
                _ => ranges.push((i as u32, 1)),
            }
        }
        // At most half full: probes stay short.
        let size = (ranges.len() * 2).next_power_of_two();
        let mut index = MnemonicIndex {
            slots: vec![(0, 0); size].into_boxed_slice(),
            mask: size - 1,
            shift: 64 - size.trailing_zeros(),
        };
        for (start, count) in ranges {
            let name = INSTRUCTIONS[start as usize].mnemonic.as_bytes();
            let mut key = [0u8; MAX_MNEMONIC_LEN];
            key[..name.len()].copy_from_slice(name);
            let mut slot = index.first_slot(lowercase_hash(&mut key, name.len()));
            while index.slots[slot].1 != 0 {
                slot = (slot + 1) & index.mask;
            }
            index.slots[slot] = (start, count);
        }
        index
    }

    fn first_slot(&self, hash: u64) -> usize {
        (hash >> self.shift) as usize
    }

    /// The rows of `key` (lowercase), whose hash is `hash`.
    fn get(&self, key: &[u8], hash: u64) -> &'static [Instruction] {
        let mut slot = self.first_slot(hash);
        loop {
            let (start, count) = self.slots[slot];
            if count == 0 {
                return &[];
            }
            let rows = &INSTRUCTIONS[start as usize..(start + count) as usize];
            if rows[0].mnemonic.as_bytes() == key {
                return rows;
            }
            slot = (slot + 1) & self.mask;
        }
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn word_lowercasing_is_ascii_lowercasing() {
        for byte in 0..=255u8 {
            for at in 0..8 {
                let mut bytes = *b"aZ_09@[`";
                bytes[at] = byte;
                let lowered = ascii_lowercase_word(u64::from_le_bytes(bytes)).to_le_bytes();
                assert_eq!(
                    lowered,
                    bytes.map(|b| b.to_ascii_lowercase()),
                    "{byte:#x} at {at}"
                );
            }
        }
    }

    #[test]
    fn every_mnemonic_is_found_in_any_case() {
        for row in INSTRUCTIONS {
            let rows = lookup(row.mnemonic);
            assert!(rows.iter().all(|r| r.mnemonic == row.mnemonic) && rows.contains(row));
            assert_eq!(lookup(&row.mnemonic.to_ascii_uppercase()).len(), rows.len());
        }
        assert!(lookup("").is_empty());
        // Probes stay short: on average well under two slots per mnemonic.
        let index = MNEMONIC_INDEX.get().unwrap();
        let (mut probes, mut names) = (0, 0);
        for (slot, &(start, count)) in index.slots.iter().enumerate() {
            if count != 0 {
                let name = INSTRUCTIONS[start as usize].mnemonic.as_bytes();
                let mut key = [0u8; MAX_MNEMONIC_LEN];
                key[..name.len()].copy_from_slice(name);
                let first = index.first_slot(lowercase_hash(&mut key, name.len()));
                probes += ((slot + index.slots.len() - first) & index.mask) + 1;
                names += 1;
            }
        }
        assert!(
            probes * 10 < names * 15,
            "{probes} probes for {names} mnemonics"
        );
        assert!(lookup(&"s".repeat(100)).is_empty());
    }
}
