//! "Did you mean": the known names nearest to one that is not known, for the errors of
//! an unknown instruction, macro or pseudo-op (and the editor's quick fixes, which
//! replace the name with one of them).

use crate::{lookup::instructions, Generation};

/// At most this many suggestions: more would be a list, not a hint.
pub const MAX_SUGGESTIONS: usize = 3;

/// The edits (insertions, deletions, substitutions, swaps of two neighbours) a name of
/// `len` characters may be away from a suggestion: a slip of the keyboard, not another
/// word. Names of two characters or fewer get none.
fn max_edits(len: usize) -> usize {
    match len {
        0..=2 => 0,
        3..=6 => 1,
        7..=12 => 2,
        _ => 3,
    }
}

/// The candidates nearest to `name` (letter case ignored: a candidate that differs only
/// in case is the nearest, for names that are case-sensitive), when near enough
/// ([`max_edits`]): all those at the least distance, sorted, when they are
/// [`MAX_SUGGESTIONS`] or fewer (more are no hint). A candidate equal to `name` is not a
/// suggestion.
pub fn nearest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Vec<&'a str> {
    let written = name;
    let name = name.to_ascii_lowercase();
    let limit = max_edits(name.chars().count());
    if limit == 0 {
        return Vec::new();
    }
    let mut best = limit + 1;
    let mut found: Vec<&'a str> = Vec::new();
    for candidate in candidates {
        // Cheap first: the length alone can rule a candidate out.
        if candidate.len().abs_diff(name.len()) > best.min(limit) {
            continue;
        }
        if candidate == written {
            continue;
        }
        let distance = strsim::osa_distance(&name, &candidate.to_ascii_lowercase());
        if distance > best || distance > limit {
            continue;
        }
        if distance < best {
            best = distance;
            found.clear();
        }
        found.push(candidate);
    }
    found.sort_unstable();
    found.dedup();
    // More at the same distance is no hint (`GCN1.3` is as near to five generations).
    if found.len() > MAX_SUGGESTIONS {
        found.clear();
    }
    found
}

/// `message` with the names it may be a slip for: ``message (did you mean `a` or `b`?)``.
pub fn did_you_mean(message: String, suggestions: &[String]) -> String {
    match suggestions {
        [] => message,
        [only] => format!("{message} (did you mean `{only}`?)"),
        [first @ .., last] => {
            let first: Vec<String> = first.iter().map(|s| format!("`{s}`")).collect();
            format!("{message} (did you mean {} or `{last}`?)", first.join(", "))
        }
    }
}

/// `found` in upper case when `name` is written in upper case (`V_ADD_F23`), those
/// whose case does not matter (`any_case`): a fix keeps the source's style.
pub fn in_case_of(name: &str, found: Vec<String>, any_case: impl Fn(&str) -> bool) -> Vec<String> {
    let upper = name.bytes().any(|b| b.is_ascii_uppercase())
        && !name.bytes().any(|b| b.is_ascii_lowercase());
    if !upper {
        return found;
    }
    found
        .into_iter()
        .map(|s| {
            if any_case(&s) {
                s.to_ascii_uppercase()
            } else {
                s
            }
        })
        .collect()
}

/// The mnemonics of `gen` nearest to `name` (see [`nearest`]).
pub fn mnemonics(name: &str, gen: Generation) -> Vec<&'static str> {
    let on_gen = instructions()
        .iter()
        .filter(|i| i.exists_on(gen))
        .map(|i| i.mnemonic);
    nearest(name, on_gen)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_swap_a_missing_or_an_extra_letter_is_suggested() {
        assert_eq!(mnemonics("v_add_f23", Generation::Gcn1_2), ["v_add_f32"]);
        assert_eq!(mnemonics("S_MOV_B33", Generation::Gcn1_0), ["s_mov_b32"]);
        assert_eq!(mnemonics("s_endpgmm", Generation::Gcn1_0), ["s_endpgm"]);
    }

    #[test]
    fn only_the_generation_s_mnemonics_are_suggested() {
        // v_add_co_u32 is GCN 1.4's name; on GCN 1.2 the nearest is v_add_u32's family.
        assert!(!mnemonics("v_add_co_u3", Generation::Gcn1_2).contains(&"v_add_co_u32"));
        assert_eq!(
            mnemonics("v_add_co_u3", Generation::Gcn1_4),
            ["v_add_co_u32"]
        );
    }

    #[test]
    fn ties_are_all_given_and_far_names_get_none() {
        assert_eq!(nearest("abd", ["abc", "abe", "xyz"]), ["abc", "abe"]);
        assert!(nearest("mov", ["v_mov_b32"]).is_empty());
        assert!(nearest("ab", ["ac"]).is_empty());
        assert!(nearest("same", ["same"]).is_empty());
        assert_eq!(nearest("Loop", ["loop", "Lop"]), ["loop"]);
        assert!(nearest("abcd", ["abca", "abcb", "abcc", "abce"]).is_empty());
    }

    #[test]
    fn one_edit_more_than_allowed_is_too_far() {
        // A four-letter name allows one edit; `glc` is two away from `dlcc`.
        assert!(nearest("dlcc", ["glc"]).is_empty());
        assert_eq!(nearest("dlcc", ["glc", "dlc"]), ["dlc"]);
        // Seven letters allow two.
        assert!(nearest("abcdefg", ["abxyzfg"]).is_empty());
    }
}
