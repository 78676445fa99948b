//! The fields of a `.pgmrsrc1`, `.pgmrsrc2` or `.pgmrsrc3` value, on the hover over it:
//! a raw register value is hard to read, and which of its fields the writer replaces
//! is what a user who copied one from a disassembly needs to know.

use std::fmt::Write as _;

use gcn_isa::Generation;
use gcn_syntax::ast::{self, AstNode};
use gcn_syntax::{SyntaxKind, SyntaxToken};

/// A field: its name, first bit and width, and from which generation it is there.
struct Field {
    name: &'static str,
    lo: u32,
    width: u32,
    since: Generation,
}

const fn field(name: &'static str, lo: u32, width: u32) -> Field {
    Field {
        name,
        lo,
        width,
        since: Generation::Gcn1_0,
    }
}

const fn field_since(name: &'static str, lo: u32, width: u32, since: Generation) -> Field {
    Field {
        name,
        lo,
        width,
        since,
    }
}

const RSRC1: &[Field] = &[
    field("VGPRS", 0, 6),
    field("SGPRS", 6, 4),
    field("PRIORITY", 10, 2),
    field("FLOAT_MODE", 12, 8),
    field("PRIV", 20, 1),
    field("DX10_CLAMP", 21, 1),
    field("DEBUG_MODE", 22, 1),
    field("IEEE_MODE", 23, 1),
    field("BULKY", 24, 1),
    field("CDBG_USER", 25, 1),
    field_since("FP16_OVFL", 26, 1, Generation::Gcn1_4),
    field_since("WGP_MODE", 29, 1, Generation::Gcn1_5),
    field_since("MEM_ORDERED", 30, 1, Generation::Gcn1_5),
    field_since("FWD_PROGRESS", 31, 1, Generation::Gcn1_5),
];

const RSRC2: &[Field] = &[
    field("SCRATCH_EN", 0, 1),
    field("USER_SGPR", 1, 5),
    field("TRAP_PRESENT", 6, 1),
    field("TGID_X_EN", 7, 1),
    field("TGID_Y_EN", 8, 1),
    field("TGID_Z_EN", 9, 1),
    field("TG_SIZE_EN", 10, 1),
    field("TIDIG_COMP_CNT", 11, 2),
    field("EXCP_EN_MSB", 13, 2),
    field("LDS_SIZE", 15, 9),
    field("EXCP_EN", 24, 7),
];

const RSRC3: &[Field] = &[field_since("SHARED_VGPR_COUNT", 0, 4, Generation::Gcn1_5)];

/// The fields of the value `token` (a number) gives a `.pgmrsrc*` pseudo-op, as a
/// markdown list to add to the number's hover; `None` elsewhere.
pub(super) fn fields(token: &SyntaxToken, gen: Generation) -> Option<String> {
    if token.kind() != SyntaxKind::INT_NUMBER {
        return None;
    }
    let pseudo_op = token.parent_ancestors().find_map(ast::PseudoOp::cast)?;
    let (register, table) = match pseudo_op.name().as_str() {
        ".pgmrsrc1" => ("COMPUTE_PGM_RSRC1", RSRC1),
        ".pgmrsrc2" => ("COMPUTE_PGM_RSRC2", RSRC2),
        ".pgmrsrc3" => ("COMPUTE_PGM_RSRC3", RSRC3),
        _ => return None,
    };
    let value = gcn_asm::literals::parse_int(token.text()).ok()? as u32;
    let mut out = format!("\n**{register}** fields set here:\n\n");
    let mut any = false;
    for f in table.iter().filter(|f| gen >= f.since) {
        let bits = (value >> f.lo) & ((1u32 << f.width) - 1);
        if bits == 0 {
            continue;
        }
        any = true;
        let place = match f.width {
            1 => format!("bit {}", f.lo),
            w => format!("bits {}–{}", f.lo, f.lo + w - 1),
        };
        writeln!(
            out,
            "- `{}` ({place}): {bits}{}",
            f.name,
            meaning(f.name, bits, gen)
        )
        .unwrap();
    }
    if !any {
        out.push_str("- none (0)\n");
    }
    if register == "COMPUTE_PGM_RSRC2" {
        out.push_str(
            "\nIn AMD, AMD OpenCL 2.0 and GalliumCompute configurations the writer sets \
             `SCRATCH_EN` and `USER_SGPR` itself (from the scratch size and the format's \
             user data settings), and the id fields when `.dims` is given; the other \
             fields are or-ed with its own.\n",
        );
    }
    Some(out)
}

/// What a field's value stands for, where a number alone does not say.
fn meaning(name: &str, bits: u32, gen: Generation) -> String {
    match name {
        "VGPRS" => {
            let blocks = bits + 1;
            if gen.is_gfx10() {
                format!(
                    " ({} VGPRs in wave64, {} in wave32)",
                    blocks * 4,
                    blocks * 8
                )
            } else {
                format!(" ({} VGPRs)", blocks * 4)
            }
        }
        "SGPRS" if gen.is_gfx10() => " (not used on GCN 1.5)".to_string(),
        "SGPRS" => format!(" ({} SGPRs)", (bits + 1) * 8),
        "USER_SGPR" => format!(" (s0–s{} hold user data)", bits - 1),
        "TIDIG_COMP_CNT" => match bits {
            1 => " (work-item ids x, y in v0, v1)".to_string(),
            _ => " (work-item ids x, y, z in v0–v2)".to_string(),
        },
        "SHARED_VGPR_COUNT" => format!(" ({} shared VGPRs)", bits * 8),
        _ => String::new(),
    }
}
