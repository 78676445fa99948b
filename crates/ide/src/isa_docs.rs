//! Texts about the instruction set for hover, completion and signature help: operand
//! names, encoding classes, short descriptions of instructions made from their family
//! (the mnemonic's prefix and operation) and their data type, and the meaning of
//! registers. Written in our own words from the facts of the CLRX ISA documentation.

use gcn_isa::{Encoding, Generation, Instruction, OperandKind, SpecialReg, Suffix};

/// What an operand takes, for signature help.
pub fn operand_doc(kind: OperandKind) -> &'static str {
    use OperandKind::*;
    match kind {
        SDst => "scalar destination: SGPRs or a special register (vcc, exec, m0, ttmp…)",
        SSrc => "scalar source: SGPRs, special registers, an inline constant or a 32-bit literal",
        SData => "SGPRs holding the data to store",
        SDataImm => "a 7-bit immediate",
        SImm16 => "a signed 16-bit immediate",
        Imm16 => "an unsigned 16-bit immediate",
        Imm32 => "a 32-bit immediate",
        RelAddr => "a branch target: a label or an expression",
        // clrxasm takes only the function here (no plain number).
        HwReg => "hwreg(REGISTER, OFFSET, SIZE): SIZE bits from bit OFFSET of a hardware register",
        SendMsg => "sendmsg(MESSAGE, OPERATION, STREAM)",
        WaitCnt => "vmcnt(N) & expcnt(N) & lgkmcnt(N) or a 16-bit value",
        GprIdxMode => "gpr_idx(SRC0, SRC1, SRC2, DST) or a 4-bit value",
        SBase => "SGPRs holding the base address (2) or a buffer resource (4)",
        SmemOffset => "an SGPR, m0 or an immediate byte offset",
        VDst => "vector destination: VGPRs",
        Src => "vector source: VGPRs, SGPRs, special registers, inline constants or a literal",
        VSrc => "vector source: VGPRs (any source in the VOP3 form)",
        VccDst => "lane mask written: vcc (an SGPR pair in the VOP3 form)",
        VccSrc => "lane mask read: vcc (an SGPR pair or constant in the VOP3 form)",
        KImm => "a 32-bit constant stored after the instruction",
        Attr => "an interpolation attribute: attrN.x/y/z/w",
        InterpParam => "an interpolation parameter: p10, p20 or p0",
        DsAddr => "the VGPR with the LDS address",
        VData => "VGPRs with the data (written by loads, read by stores)",
        VAddr => "VGPRs with the address or coordinates",
        SRsrc => "SGPRs with the resource descriptor",
        SOffset => "an SGPR or constant added to the offset",
        SSamp => "SGPRs with the sampler descriptor",
        SAddr => "SGPRs with the base address, or off",
        ExpTarget => "the export target: mrtN, mrtz, null, posN, paramN",
        ExpSrc => "a VGPR to export, or off",
    }
}

/// The encoding class in words.
pub fn encoding_doc(encoding: Encoding) -> &'static str {
    use Encoding::*;
    match encoding {
        Sop2 => "scalar ALU, two sources",
        Sopk => "scalar ALU with a 16-bit constant",
        Sop1 => "scalar ALU, one source",
        Sopc => "scalar comparison, sets SCC",
        Sopp => "scalar program control (branches, waits, messages)",
        Smrd => "scalar memory read (GCN 1.0/1.1)",
        Smem => "scalar memory (GCN 1.2 and later)",
        Vop2 => "vector ALU, two sources",
        Vop1 => "vector ALU, one source",
        Vopc => "vector comparison, writes a lane mask",
        Vop3 => "vector ALU, three-operand encoding",
        Vop3p => "packed vector ALU (two 16-bit halves)",
        Vintrp => "vector parameter interpolation",
        Ds => "local/global data share (LDS/GDS)",
        Mubuf => "untyped buffer memory",
        Mtbuf => "typed buffer memory",
        Mimg => "image memory",
        Exp => "export to render targets or positions",
        Flat => "flat (generic address) memory",
        Global => "global memory (GCN 1.4 and later)",
        Scratch => "scratch (private) memory (GCN 1.4 and later)",
    }
}

/// Encoded size in bytes of a row written with `suffix`, without a literal.
pub fn size(row: &Instruction, suffix: Option<Suffix>) -> u32 {
    use Encoding::*;
    match suffix {
        Some(Suffix::E64) => return 8,
        Some(Suffix::Sdwa) | Some(Suffix::Dpp) | Some(Suffix::Dpp8) => return 8,
        _ => {}
    }
    match row.encoding {
        Sop2 | Sopk | Sop1 | Sopc | Sopp | Smrd | Vop2 | Vop1 | Vopc | Vintrp => 4,
        Smem | Vop3 | Vop3p | Ds | Mubuf | Mtbuf | Mimg | Exp | Flat | Global | Scratch => 8,
    }
}

/// The encoding name as the ISA documentation writes it.
pub fn encoding_name(encoding: Encoding, suffix: Option<Suffix>) -> String {
    match suffix {
        Some(Suffix::E64) => "VOP3".to_string(),
        Some(Suffix::Sdwa) => format!("{} with SDWA", encoding.token().to_uppercase()),
        Some(Suffix::Dpp) => format!("{} with DPP", encoding.token().to_uppercase()),
        Some(Suffix::Dpp8) => format!("{} with DPP8", encoding.token().to_uppercase()),
        _ => encoding.token().to_uppercase(),
    }
}

/// Specific instructions and families, first match wins: (prefix of the mnemonic, text).
const FAMILIES: &[(&str, &str)] = &[
    ("s_endpgm", "Ends the wave's program"),
    ("s_nop", "Waits the given number (0-15, plus one) of cycles doing nothing"),
    ("s_waitcnt_decptr", "Waits until the dependency counters the immediate names drop to its values: bits 4:2 count vector memory instructions that have not yet read their SGPR sources (0xffe3 waits for them all), bit 0 scalar ALU writes of SGPRs not yet done (0xfffe waits for them)"),
    ("s_waitcnt_vscnt", "Waits until the count of outstanding vector memory stores drops to the given value"),
    ("s_waitcnt_vmcnt", "Waits until the count of outstanding vector memory loads (vmcnt) drops to the given value"),
    ("s_waitcnt_expcnt", "Waits until the count of outstanding exports and GDS operations (expcnt) drops to the given value"),
    ("s_waitcnt_lgkmcnt", "Waits until the count of outstanding LDS, GDS, scalar memory and message operations (lgkmcnt) drops to the given value"),
    ("s_waitcnt", "Waits until the counters of outstanding memory operations (vmcnt, expcnt, lgkmcnt) drop to the given values"),
    ("s_barrier", "Waits until every wave of the work-group reaches the barrier"),
    ("s_sendmsg", "Sends a message (interrupt, GS, system) to the hardware"),
    ("s_sleep", "Puts the wave to sleep for about 64 × N cycles"),
    ("s_setprio", "Sets the wave's priority"),
    ("s_trap", "Enters the trap handler"),
    ("s_rfe", "Returns from the trap handler"),
    ("s_branch", "Jumps to the target unconditionally"),
    ("s_cbranch_scc0", "Jumps to the target when SCC is 0"),
    ("s_cbranch_scc1", "Jumps to the target when SCC is 1"),
    (
        "s_cbranch_vccz",
        "Jumps to the target when VCC is all zeros; it reads VCCZ, which writes of VCC keep up to date, except, up to GCN 1.4, a write of only `vcc_lo` or `vcc_hi`, and on GCN 1.0 and 1.1 a scalar memory load that returns after the write may corrupt it",
    ),
    (
        "s_cbranch_vccnz",
        "Jumps to the target when VCC is not all zeros; it reads VCCZ, which writes of VCC keep up to date, except, up to GCN 1.4, a write of only `vcc_lo` or `vcc_hi`, and on GCN 1.0 and 1.1 a scalar memory load that returns after the write may corrupt it",
    ),
    ("s_cbranch_execz", "Jumps to the target when EXEC is all zeros (no lane active)"),
    ("s_cbranch_execnz", "Jumps to the target when some lane is active"),
    ("s_cbranch", "Conditional branch"),
    ("s_getpc", "Reads the address of the next instruction"),
    ("s_setpc", "Jumps to an address held in SGPRs"),
    ("s_swappc", "Jumps to an address held in SGPRs, saving the return address"),
    ("s_getreg", "Reads bits of a hardware register"),
    ("s_setreg", "Writes bits of a hardware register"),
    ("s_movk", "Moves a sign-extended 16-bit constant into an SGPR"),
    ("s_cmovk", "Moves a 16-bit constant into an SGPR when SCC is 1"),
    ("s_cmov", "Moves the source into the destination when SCC is 1"),
    ("s_mov", "Moves a scalar value"),
    ("s_cselect", "Selects the first source when SCC is 1, else the second"),
    ("s_and_saveexec", "Saves EXEC to the destination, then ANDs EXEC with the source"),
    ("s_or_saveexec", "Saves EXEC to the destination, then ORs EXEC with the source"),
    ("s_xor_saveexec", "Saves EXEC to the destination, then XORs EXEC with the source"),
    ("s_load", "Loads dwords from memory into SGPRs"),
    ("s_buffer_load", "Loads dwords from a buffer into SGPRs"),
    ("s_store", "Stores SGPRs to memory"),
    ("s_buffer_store", "Stores SGPRs to a buffer"),
    ("s_dcache", "Scalar data cache control"),
    ("s_memtime", "Reads the 64-bit shader clock"),
    ("s_memrealtime", "Reads the 64-bit real-time clock"),
    ("s_cmp", "Compares two scalar values and sets SCC"),
    ("s_bitcmp", "Tests a bit of a scalar value and sets SCC"),
    ("v_cmpx", "Compares per lane, writes the lane mask and EXEC"),
    ("v_cmp", "Compares per lane and writes a lane mask (VCC or SGPRs)"),
    ("v_cndmask", "Selects per lane the second source where the mask bit is set, else the first"),
    ("v_readfirstlane", "Copies a VGPR of the first active lane to an SGPR"),
    ("v_readlane", "Copies a VGPR of the given lane to an SGPR"),
    ("v_writelane", "Writes a scalar value to a VGPR of the given lane"),
    ("v_mov", "Moves a value per lane"),
    ("v_nop", "Does nothing"),
    ("v_cvt", "Converts a value per lane between data types"),
    ("v_interp", "Interpolates a pixel-shader attribute"),
    ("v_mac", "Multiplies and adds to the destination per lane"),
    ("v_mad", "Multiplies and adds per lane"),
    ("v_fma", "Fused multiply-add per lane"),
    ("v_pk_", "Packed operation on two 16-bit halves"),
    ("v_dot", "Dot product per lane"),
    ("ds_read", "Reads from LDS into VGPRs"),
    ("ds_write", "Writes VGPRs to LDS"),
    ("ds_", "Operation on the local data share (LDS) or GDS"),
    ("buffer_load", "Loads from a buffer into VGPRs"),
    ("buffer_store", "Stores VGPRs to a buffer"),
    ("buffer_atomic", "Atomic operation on buffer memory"),
    ("buffer_", "Buffer memory operation"),
    ("tbuffer_load", "Loads from a typed buffer (format given by the instruction) into VGPRs"),
    ("tbuffer_store", "Stores VGPRs to a typed buffer"),
    ("image_sample", "Samples an image through a sampler"),
    ("image_gather", "Gathers four texels of an image"),
    ("image_load", "Loads texels from an image"),
    ("image_store", "Stores texels to an image"),
    ("image_atomic", "Atomic operation on an image"),
    ("image_", "Image operation"),
    ("flat_load", "Loads from a generic (flat) address into VGPRs"),
    ("flat_store", "Stores VGPRs to a generic (flat) address"),
    ("flat_atomic", "Atomic operation at a generic (flat) address"),
    ("global_load", "Loads from global memory into VGPRs"),
    ("global_store", "Stores VGPRs to global memory"),
    ("global_atomic", "Atomic operation on global memory"),
    ("scratch_load", "Loads from private (scratch) memory into VGPRs"),
    ("scratch_store", "Stores VGPRs to private (scratch) memory"),
    ("exp", "Exports VGPRs to a render target, position or parameter"),
];

/// Operations by a word of the mnemonic (between `_`), first match wins.
const OPERATIONS: &[(&str, &str)] = &[
    ("add", "Adds"),
    ("addc", "Adds with carry-in"),
    ("sub", "Subtracts"),
    ("subb", "Subtracts with borrow"),
    ("subrev", "Subtracts in reverse order (second minus first)"),
    ("mul", "Multiplies"),
    ("mul_lo", "Multiplies, keeping the low half"),
    ("mul_hi", "Multiplies, keeping the high half"),
    ("min", "Takes the minimum of"),
    ("max", "Takes the maximum of"),
    ("and", "Bitwise AND of"),
    ("or", "Bitwise OR of"),
    ("xor", "Bitwise XOR of"),
    (
        "andn2",
        "Bitwise AND of the first and the inverted second of",
    ),
    ("orn2", "Bitwise OR of the first and the inverted second of"),
    ("nand", "Bitwise NAND of"),
    ("nor", "Bitwise NOR of"),
    ("xnor", "Bitwise XNOR of"),
    ("not", "Bitwise NOT of"),
    ("lshl", "Shifts left"),
    ("lshr", "Shifts right logically"),
    ("ashr", "Shifts right arithmetically"),
    ("lshlrev", "Shifts left (shift amount first)"),
    ("lshrrev", "Shifts right logically (shift amount first)"),
    (
        "ashrrev",
        "Shifts right arithmetically (shift amount first)",
    ),
    ("bfe", "Extracts a bit field of"),
    ("bfm", "Makes a bit mask from"),
    ("bfi", "Inserts a bit field into"),
    ("brev", "Reverses the bits of"),
    ("bcnt0", "Counts the zero bits of"),
    ("bcnt1", "Counts the one bits of"),
    ("ff0", "Finds the first zero bit of"),
    ("ff1", "Finds the first one bit of"),
    ("flbit", "Finds the first one bit from the top of"),
    ("abs", "Absolute value of"),
    ("absdiff", "Absolute difference of"),
    ("sqrt", "Square root of"),
    ("rsq", "Reciprocal square root of"),
    ("rcp", "Reciprocal of"),
    ("exp", "Base-2 exponential of"),
    ("log", "Base-2 logarithm of"),
    ("sin", "Sine of"),
    ("cos", "Cosine of"),
    ("floor", "Rounds down"),
    ("ceil", "Rounds up"),
    ("trunc", "Rounds toward zero"),
    ("rndne", "Rounds to the nearest even"),
    ("fract", "Fractional part of"),
    ("ldexp", "Multiplies by a power of two"),
    ("frexp_mant", "Mantissa of"),
    ("frexp_exp", "Exponent of"),
    ("sad", "Sum of absolute differences of"),
    ("med3", "Median of three"),
    ("min3", "Minimum of three"),
    ("max3", "Maximum of three"),
    ("div_scale", "Division step (scaling)"),
    (
        "div_fmas",
        "Division step (fused multiply-add with scaling)",
    ),
    ("div_fixup", "Division step (fix-up of special cases)"),
    ("alignbit", "Funnel-shifts a 64-bit pair right by bits"),
    ("alignbyte", "Funnel-shifts a 64-bit pair right by bytes"),
    ("lerp", "Averages bytes of"),
    ("perm", "Permutes bytes of"),
    ("sext", "Sign-extends"),
    ("swap", "Swaps"),
    ("inc", "Increments"),
    ("dec", "Decrements"),
];

/// Data types by the mnemonic's last word.
fn type_doc(word: &str) -> Option<&'static str> {
    Some(match word {
        "i32" => "signed 32-bit integers",
        "u32" => "unsigned 32-bit integers",
        "b32" => "32-bit values",
        "i64" => "signed 64-bit integers",
        "u64" => "unsigned 64-bit integers",
        "b64" => "64-bit values",
        "i16" => "signed 16-bit integers",
        "u16" => "unsigned 16-bit integers",
        "b16" => "16-bit values",
        "f16" => "16-bit floats",
        "f32" => "32-bit floats",
        "f64" => "64-bit floats",
        "i24" => "signed 24-bit integers",
        "u24" => "unsigned 24-bit integers",
        "u8" => "bytes",
        "i8" => "signed bytes",
        _ => return None,
    })
}

/// A one-line description of a mnemonic (suffix already stripped).
pub fn describe(mnemonic: &str) -> String {
    let lower = mnemonic.to_ascii_lowercase();
    let words: Vec<&str> = lower.split('_').collect();
    let ty = words.last().and_then(|w| type_doc(w));
    let with_type = |text: &str| match ty {
        Some(ty) => format!("{text} ({ty})."),
        None => format!("{text}."),
    };
    if let Some((_, text)) = FAMILIES
        .iter()
        .find(|(prefix, _)| lower.starts_with(prefix) && !is_vop_compare_prefix(prefix, &lower))
    {
        return with_type(text);
    }
    // The operation: the longest known word run after the unit prefix.
    let body = &words[1.min(words.len())..];
    let mut best: Option<&str> = None;
    for start in 0..body.len() {
        for end in (start + 1..=body.len()).rev() {
            let key = body[start..end].join("_");
            if let Some((_, text)) = OPERATIONS.iter().find(|(op, _)| *op == key) {
                if best.is_none() {
                    best = Some(text);
                }
                break;
            }
        }
        if best.is_some() {
            break;
        }
    }
    let unit = match words.first().copied() {
        Some("s") => "scalar",
        Some("v") => "per lane",
        _ => "",
    };
    match best {
        Some(op) if unit.is_empty() => with_type(op),
        Some(op) => with_type(&format!("{op}, {unit}")),
        None => with_type(match unit {
            "scalar" => "Scalar instruction",
            "per lane" => "Vector instruction, per lane",
            _ => "Instruction",
        }),
    }
}

/// `exp` as a family is the export instruction, not `v_exp_f32`.
fn is_vop_compare_prefix(prefix: &str, mnemonic: &str) -> bool {
    prefix == "exp" && mnemonic != "exp"
}

/// What a named register is: (canonical text, description), for a special register name.
pub fn special_register(name: &str, gen: Generation) -> Option<(String, String)> {
    let lower = name.to_ascii_lowercase();
    let (base, half) = match lower.strip_suffix("_lo") {
        Some(b) => (b.to_string(), Some("low")),
        None => match lower.strip_suffix("_hi") {
            Some(b) => (b.to_string(), Some("high")),
            None => (lower.clone(), None),
        },
    };
    let (text, reg): (&str, Option<SpecialReg>) = match base.as_str() {
        "vcc" => ("the vector condition code: a 64-bit lane mask (one bit per lane) that comparisons and carries write, an SGPR pair at the top of the SGPRs", Some(SpecialReg::Vcc)),
        "exec" => ("the execute mask: a 64-bit lane mask, one bit per lane; vector instructions only touch lanes whose bit is set", Some(SpecialReg::Exec)),
        "m0" => ("M0, a 32-bit scalar register used for LDS limits, GPR indexing, message data and interpolation", Some(SpecialReg::M0)),
        "flat_scratch" => ("the base and size of the wave's scratch memory for flat instructions (64 bits; GCN 1.1 to 1.4)", Some(SpecialReg::FlatScratch)),
        "xnack_mask" => ("the mask of lanes that must retry a memory access after a page fault (64 bits; GCN 1.2 to 1.4)", Some(SpecialReg::XnackMask)),
        "tba" => ("the trap handler's base address (64 bits; only the trap handler uses it; up to GCN 1.2)", Some(SpecialReg::Tba)),
        "tma" => ("the trap handler's memory address (64 bits; only the trap handler uses it; up to GCN 1.2)", Some(SpecialReg::Tma)),
        "scc" => ("the scalar condition code: one bit set by scalar comparisons and most scalar ALU instructions", Some(SpecialReg::Scc)),
        "vccz" => ("1 when VCC is all zeros (read-only source; see `s_cbranch_vccz` for when it is out of date)", Some(SpecialReg::Vccz)),
        "execz" => ("1 when EXEC is all zeros (read-only source)", Some(SpecialReg::Execz)),
        "src_vccz" => ("1 when VCC is all zeros (read-only source)", Some(SpecialReg::Vccz)),
        "src_execz" => ("1 when EXEC is all zeros (read-only source)", Some(SpecialReg::Execz)),
        "src_scc" => ("the scalar condition code as a source", Some(SpecialReg::Scc)),
        "lds" | "lds_direct" | "src_lds_direct" => ("a value read directly from LDS at the address in M0 (vector source)", Some(SpecialReg::LdsDirect)),
        "null" => ("reads as zero, and writes to it are discarded (GCN 1.5)", Some(SpecialReg::Null)),
        "src_shared_base" | "shared_base" => ("the base of the shared (LDS) aperture in the flat address space (GCN 1.4 and later)", Some(SpecialReg::SrcSharedBase)),
        "src_shared_limit" | "shared_limit" => ("the limit of the shared (LDS) aperture in the flat address space (GCN 1.4 and later)", Some(SpecialReg::SrcSharedLimit)),
        "src_private_base" | "private_base" => ("the base of the private (scratch) aperture in the flat address space (GCN 1.4 and later)", Some(SpecialReg::SrcPrivateBase)),
        "src_private_limit" | "private_limit" => ("the limit of the private (scratch) aperture in the flat address space (GCN 1.4 and later)", Some(SpecialReg::SrcPrivateLimit)),
        "pops_exiting_wave_id" | "src_pops_exiting_wave_id" => ("the id of the exiting wave for primitive-ordered pixel shading (GCN 1.4 and later)", Some(SpecialReg::PopsExitingWaveId)),
        _ => return None,
    };
    let mut out = text.to_string();
    if let Some(half) = half {
        out = format!("the {half} 32 bits of {}: {out}", base.to_uppercase());
    }
    if let Some(reg) = reg {
        if gen.special_reg_code(reg).is_none() {
            out.push_str(&format!(". Not an operand on {gen}"));
        }
    }
    Some((lower, out))
}
