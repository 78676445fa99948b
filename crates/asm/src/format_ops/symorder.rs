//! The order in which the reference visits its symbol table.
//!
//! clrxasm resolves values that point into relocatable sections (AMD OpenCL 2.0 global
//! data) only at the end of the source, symbol by symbol, in the iteration order of its
//! symbol map: a libstdc++ `std::unordered_map` keyed by name with CLRX's string hash.
//! The relocations of the AMD OpenCL 2.0 HSA layout are written in the order they were
//! made then, so reproducing the file needs that order. It depends only on the names and
//! the order they were first seen, and is emulated here: buckets by hash modulo the
//! bucket count, a node entering an empty bucket goes to the front of the list, one
//! entering a used bucket to the front of that bucket's run, and a rehash (at the sizes
//! below) re-inserts every node in list order under the same rules.

use crate::symbols::{SymId, SymbolTable};

/// CLRX's `std::hash<CString>`.
fn hash(name: &str) -> u64 {
    name.bytes().fold(0u64, |h, c| {
        ((h << 8) ^ u64::from(c)).wrapping_mul(0xbf14_6a3d)
    })
}

/// Bucket counts of libstdc++'s prime rehash policy (maximum load factor 1) as a map
/// grows one insertion at a time: (size that triggers it, new bucket count).
const GROWTH: &[(usize, u64)] = &[
    (1, 13),
    (14, 29),
    (30, 59),
    (60, 127),
    (128, 257),
    (258, 541),
    (542, 1109),
    (1110, 2357),
    (2358, 5087),
    (5088, 10273),
    (10274, 20753),
    (20754, 42043),
    (42044, 85229),
    (85230, 172933),
    (172934, 351061),
    (351062, 712697),
    (712698, 1447153),
    (1447154, 2938679),
];

/// Inserts `node` into `list` (iteration order) under the bucket rules.
fn insert(list: &mut Vec<(u64, usize)>, buckets: u64, node: (u64, usize)) {
    let bucket = node.0 % buckets;
    match list.iter().position(|n| n.0 % buckets == bucket) {
        Some(i) => list.insert(i, node),
        None => list.insert(0, node),
    }
}

/// The iteration order of a map into which `names` were inserted in this order
/// (duplicates ignored): indices into `names`.
pub(crate) fn iteration_order(names: &[&str]) -> Vec<usize> {
    let mut seen = std::collections::HashSet::new();
    let mut list: Vec<(u64, usize)> = Vec::new();
    let mut buckets = 1u64;
    for (i, name) in names.iter().enumerate() {
        if !seen.insert(*name) {
            continue;
        }
        let size = list.len() + 1;
        if let Some(&(_, count)) = GROWTH.iter().find(|g| g.0 == size) {
            buckets = count;
            let old = std::mem::take(&mut list);
            for node in old {
                insert(&mut list, buckets, node);
            }
        }
        insert(&mut list, buckets, (hash(name), i));
    }
    list.into_iter().map(|n| n.1).collect()
}

/// The symbols of the global scope (without `.`, which the reference inserts first) in
/// the iteration order of the reference's symbol map. Names with a scope path belong to
/// other scopes' maps.
pub(crate) fn global_scope_in_map_order(symbols: &SymbolTable) -> Vec<SymId> {
    let mut names: Vec<&str> = vec!["."];
    let mut ids = vec![None];
    for (id, s) in symbols.iter() {
        if s.name.is_empty() || s.name == "." || s.name.contains("::") {
            continue;
        }
        names.push(&s.name);
        ids.push(Some(id));
    }
    iteration_order(&names)
        .into_iter()
        .filter_map(|i| ids[i])
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_libstdcxx() {
        // Checked against g++ 12 (libstdc++) with CLRX's hash.
        let names = [".", "dat0", "dat1", "aaa2", "aaa1"];
        let order: Vec<&str> = iteration_order(&names)
            .into_iter()
            .map(|i| names[i])
            .collect();
        assert_eq!(order, ["aaa1", "aaa2", "dat1", "dat0", "."]);
    }

    #[test]
    fn matches_libstdcxx_after_rehashes() {
        // 43 names: two rehashes (13 and 29 buckets) and shared buckets; order from g++ 12.
        let names = [
            ".", "aa_32", "kern88", "aa_3", "L99", "x83", "dat20", "dat47", "L31", "L69", "dat73",
            "x1", "x52", "kern23", "L20", "dat17", "aa_79", "L16", "x0", "dat26", "x21", "x37",
            "kern25", "aa_86", "x23", "x49", "kern2", "kern53", "x18", "kern8", "kern38", "aa_75",
            "dat76", "kern45", "kern61", "L60", "x7", "kern51", "dat70", "L46", "L74", "dat57",
            "dat90",
        ];
        let order: Vec<&str> = iteration_order(&names)
            .into_iter()
            .map(|i| names[i])
            .collect();
        assert_eq!(
            order,
            [
                "dat57", "L46", "dat70", "kern51", "x7", "L60", "dat76", "aa_75", "kern38", "x52",
                "x1", "L16", "kern25", "dat73", "dat90", "dat47", "L31", ".", "kern45", "dat20",
                "kern8", "x83", "L99", "aa_86", "kern88", "L69", "aa_32", "aa_3", "x0", "x23",
                "kern23", "kern53", "L74", "kern61", "x18", "L20", "kern2", "dat17", "aa_79",
                "x49", "dat26", "x21", "x37"
            ]
        );
    }
}
