//! The instructions the generations name differently: what a kernel ported from one
//! generation to another must be renamed to. GCN 1.4 renamed the adds and subtracts
//! with a carry (`v_add_u32` → `v_add_co_u32`) and gave the old names to ones without a
//! carry; GCN 1.5 renamed those again (`v_add_nc_u32`) and the carry-in ones
//! (`v_add_co_ci_u32`). From the opcode tables of the CLRX documentation
//! (`GcnInstrsVop2.md`, `GcnInstrsVop3.md`); `tests` checks them against the instruction
//! table.

use crate::Generation::{self, *};

/// A name and the generations on which it is this instruction.
type Member = (&'static str, Generation, Generation);

/// Each list is one instruction under its names; on a generation, the first member that
/// has it there is the generation's own name.
const COUNTERPARTS: &[&[Member]] = &[
    // Add, subtract and reverse subtract writing a carry-out.
    &[
        ("v_add_i32", Gcn1_0, Gcn1_1),
        ("v_add_u32", Gcn1_0, Gcn1_2),
        ("v_add_co_u32", Gcn1_4, Gcn1_5_1),
    ],
    &[
        ("v_sub_i32", Gcn1_0, Gcn1_1),
        ("v_sub_u32", Gcn1_0, Gcn1_2),
        ("v_sub_co_u32", Gcn1_4, Gcn1_5_1),
    ],
    &[
        ("v_subrev_i32", Gcn1_0, Gcn1_1),
        ("v_subrev_u32", Gcn1_0, Gcn1_2),
        ("v_subrev_co_u32", Gcn1_4, Gcn1_5_1),
    ],
    // With a carry-in too.
    &[
        ("v_addc_u32", Gcn1_0, Gcn1_2),
        ("v_addc_co_u32", Gcn1_4, Gcn1_4_1),
        ("v_add_co_ci_u32", Gcn1_5, Gcn1_5_1),
    ],
    &[
        ("v_subb_u32", Gcn1_0, Gcn1_2),
        ("v_subb_co_u32", Gcn1_4, Gcn1_4_1),
        ("v_sub_co_ci_u32", Gcn1_5, Gcn1_5_1),
    ],
    &[
        ("v_subbrev_u32", Gcn1_0, Gcn1_2),
        ("v_subbrev_co_u32", Gcn1_4, Gcn1_4_1),
        ("v_subrev_co_ci_u32", Gcn1_5, Gcn1_5_1),
    ],
    // Without a carry (GCN 1.4 and later; 16-bit ones from GCN 1.2).
    &[
        ("v_add_u32", Gcn1_4, Gcn1_4_1),
        ("v_add_nc_u32", Gcn1_5, Gcn1_5_1),
    ],
    &[
        ("v_sub_u32", Gcn1_4, Gcn1_4_1),
        ("v_sub_nc_u32", Gcn1_5, Gcn1_5_1),
    ],
    &[
        ("v_subrev_u32", Gcn1_4, Gcn1_4_1),
        ("v_subrev_nc_u32", Gcn1_5, Gcn1_5_1),
    ],
    &[
        ("v_add_i32", Gcn1_4, Gcn1_4_1),
        ("v_add_nc_i32", Gcn1_5, Gcn1_5_1),
    ],
    &[
        ("v_sub_i32", Gcn1_4, Gcn1_4_1),
        ("v_sub_nc_i32", Gcn1_5, Gcn1_5_1),
    ],
    &[
        ("v_add_u16", Gcn1_2, Gcn1_4_1),
        ("v_add_nc_u16", Gcn1_5, Gcn1_5_1),
    ],
    &[
        ("v_sub_u16", Gcn1_2, Gcn1_4_1),
        ("v_sub_nc_u16", Gcn1_5, Gcn1_5_1),
    ],
    &[
        ("v_add_i16", Gcn1_4, Gcn1_4_1),
        ("v_add_nc_i16", Gcn1_5, Gcn1_5_1),
    ],
    &[
        ("v_sub_i16", Gcn1_4, Gcn1_4_1),
        ("v_sub_nc_i16", Gcn1_5, Gcn1_5_1),
    ],
];

/// What `mnemonic` (lower case) is called on `gen`, for each instruction it names on
/// other generations: `(name on gen, the generations mnemonic means it on)`.
pub fn on_generation(
    mnemonic: &str,
    gen: Generation,
) -> Vec<(&'static str, Generation, Generation)> {
    let mut out = Vec::new();
    for members in COUNTERPARTS {
        let Some(&(_, from, to)) = members.iter().find(|(name, _, _)| *name == mnemonic) else {
            continue;
        };
        let own = members
            .iter()
            .find(|(_, first, last)| (*first..=*last).contains(&gen));
        if let Some(&(name, _, _)) = own.filter(|(name, _, _)| *name != mnemonic) {
            out.push((name, from, to));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lookup::lookup;

    #[test]
    fn every_name_is_an_instruction_of_its_generations_with_the_same_operands() {
        for members in COUNTERPARTS {
            let kinds = |name: &str, gen: Generation| -> Vec<_> {
                let row = lookup(name)
                    .iter()
                    .find(|r| r.exists_on(gen) && r.encoding != crate::Encoding::Vop3);
                let row = row.or_else(|| lookup(name).iter().find(|r| r.exists_on(gen)));
                let row = row.unwrap_or_else(|| panic!("{name} is not on {gen}"));
                // A VOP3-only form (GCN 1.5's v_add_co_u32) takes any source second.
                let vop3 = |k| {
                    if k == crate::OperandKind::VSrc {
                        crate::OperandKind::Src
                    } else {
                        k
                    }
                };
                row.operands.iter().map(|o| vop3(o.kind)).collect()
            };
            let (first, from, _) = members[0];
            let expected = kinds(first, from);
            for &(name, from, to) in members.iter() {
                for gen in Generation::ALL
                    .into_iter()
                    .filter(|g| (from..=to).contains(g))
                {
                    assert_eq!(kinds(name, gen), expected, "{name} on {gen}");
                }
            }
        }
    }

    #[test]
    fn the_generation_s_own_name_is_given() {
        assert_eq!(
            on_generation("v_add_co_u32", Gcn1_2),
            [("v_add_u32", Gcn1_4, Gcn1_5_1)]
        );
        assert_eq!(
            on_generation("v_add_co_u32", Gcn1_0),
            [("v_add_i32", Gcn1_4, Gcn1_5_1)]
        );
        assert_eq!(
            on_generation("v_addc_co_u32", Gcn1_5),
            [("v_add_co_ci_u32", Gcn1_4, Gcn1_4_1)]
        );
        // GCN 1.2's v_add_u32 and GCN 1.4's are two instructions: GCN 1.5 names both.
        assert_eq!(
            on_generation("v_add_u32", Gcn1_5),
            [
                ("v_add_co_u32", Gcn1_0, Gcn1_2),
                ("v_add_nc_u32", Gcn1_4, Gcn1_4_1)
            ]
        );
        assert!(on_generation("v_mov_b32", Gcn1_5).is_empty());
    }
}
