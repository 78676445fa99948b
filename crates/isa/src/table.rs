//! Types of the instruction table: encodings, operand kinds, flags, rows.
//!
//! A row ([`Instruction`]) is one mnemonic in one encoding with one operand form; it
//! carries the opcode for each generation that has it. The operand list describes the
//! assembler syntax, in source order, for every encoding of the row: a VOP2 row's
//! operands are written the same way in its 32-bit (`_e32`) and VOP3 (`_e64`) forms,
//! and kinds like [`OperandKind::VccDst`] say how each form encodes that operand.

use crate::arch::Generation;

macro_rules! token_enum {
    ($(#[$m:meta])* $name:ident { $($(#[$vm:meta])* $variant:ident = $token:literal,)* }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum $name { $($(#[$vm])* $variant,)* }

        impl $name {
            /// Every value, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$variant,)*];

            /// The word the data file (data/instructions.txt) uses for this value.
            pub const fn token(self) -> &'static str {
                match self { $($name::$variant => $token,)* }
            }

            /// Parses a data-file word.
            pub fn from_token(token: &str) -> Option<$name> {
                $name::ALL.iter().copied().find(|v| v.token() == token)
            }
        }
    };
}

token_enum! {
    /// Instruction encoding class. VOP3A and VOP3B are one class: rows whose VOP3 form
    /// has an SDST field carry [`Flags::VOP3B`].
    Encoding {
        Sop2 = "sop2", Sopk = "sopk", Sop1 = "sop1", Sopc = "sopc", Sopp = "sopp",
        /// Scalar memory, GCN 1.0/1.1 (one dword).
        Smrd = "smrd",
        /// Scalar memory, GCN 1.2 and later (two dwords).
        Smem = "smem",
        Vop2 = "vop2", Vop1 = "vop1", Vopc = "vopc",
        /// VOP3-only instructions (VOP1/VOP2/VOPC rows have their own VOP3 opcode).
        Vop3 = "vop3",
        Vop3p = "vop3p", Vintrp = "vintrp", Ds = "ds", Mubuf = "mubuf", Mtbuf = "mtbuf",
        Mimg = "mimg", Exp = "exp", Flat = "flat", Global = "global", Scratch = "scratch",
    }
}

impl Encoding {
    /// The vector ALU classes: VOP1, VOP2, VOPC, VOP3, VOP3P and VINTRP (`v_interp_*`
    /// runs on the vector ALU too).
    pub const fn is_valu(self) -> bool {
        matches!(
            self,
            Encoding::Vop1
                | Encoding::Vop2
                | Encoding::Vopc
                | Encoding::Vop3
                | Encoding::Vop3p
                | Encoding::Vintrp
        )
    }

    /// VOP1, VOP2 and VOPC: the classes with a 32-bit form and a VOP3 form.
    pub const fn has_vop3_form(self) -> bool {
        matches!(self, Encoding::Vop1 | Encoding::Vop2 | Encoding::Vopc)
    }
}

token_enum! {
    /// What an operand accepts and which encoding field takes it. REGS of an
    /// [`Operand`] is the register count for register kinds.
    OperandKind {
        /// Scalar destination (SDST / SDATA-as-destination field): SGPRs, VCC, EXEC,
        /// M0, TTMP, ... but no constants.
        SDst = "sdst",
        /// Scalar source (SSRC0/SSRC1, also the lane select of V_READLANE and the
        /// value of V_WRITELANE): SGPRs, special registers, inline constants, literal.
        SSrc = "ssrc",
        /// Scalar data read by a store or atomic (SMEM SDATA field): SGPRs only.
        SData = "sdata",
        /// 7-bit immediate in the SDATA field (S_ATC_PROBE).
        SDataImm = "sdataimm",
        /// Signed 16-bit immediate (SIMM16 field).
        SImm16 = "simm16",
        /// Unsigned 16-bit immediate (SIMM16 field).
        Imm16 = "imm16",
        /// 32-bit literal following the instruction (S_SETREG_IMM32_B32).
        Imm32 = "imm32",
        /// Branch target: label or expression; SIMM16 = (target - next PC) / 4.
        RelAddr = "reladdr",
        /// `hwreg(name, offset, size)` or a 16-bit value.
        HwReg = "hwreg",
        /// `sendmsg(msg, op, stream)` or a 16-bit value.
        SendMsg = "sendmsg",
        /// `vmcnt(n) & expcnt(n) & lgkmcnt(n)` (and `vscnt` on GCN 1.5) or a 16-bit value.
        WaitCnt = "waitcnt",
        /// GPR-index mode bits of S_SET_GPR_IDX_ON: `gpr_idx(SRC0,DST,...)` or a 4-bit value.
        GprIdxMode = "gpridx",
        /// Scalar memory base: 2 SGPRs (address) or 4 (buffer resource).
        SBase = "sbase",
        /// Scalar memory offset: an SGPR/M0 or an immediate byte offset (SMRD: dword
        /// offset, 8 bits, or a 32-bit literal on GCN 1.1).
        SmemOffset = "smoff",
        /// Vector destination (VDST field): VGPRs.
        VDst = "vdst",
        /// Vector-ALU source (SRC0 of VOP1/VOP2/VOPC, SRC0..2 of VOP3/VOP3P): VGPRs,
        /// SGPRs, special registers, inline constants, a literal (not in VOP3 before
        /// GCN 1.5), LDS_DIRECT.
        Src = "src",
        /// VGPR-only source (VSRC1 of VOP2/VOPC, VINTRP VSRC). In a VOP3 form it widens
        /// to any source like [`OperandKind::Src`].
        VSrc = "vsrc",
        /// Lane-mask destination: must be `vcc` in the 32-bit form (implicit), an SGPR
        /// pair (one SGPR in wave32) in the VOP3 SDST field.
        VccDst = "vccdst",
        /// Lane-mask source (carry-in, V_CNDMASK mask): `vcc` in the 32-bit form, an
        /// SGPR pair (wave32: one SGPR) or constant in the VOP3 SRC2 field.
        VccSrc = "vccsrc",
        /// 32-bit literal constant of V_MADMK/V_MADAK/V_FMAMK/V_FMAAK.
        KImm = "kimm",
        /// Interpolation attribute and channel: `attrN.x|y|z|w`.
        Attr = "attr",
        /// V_INTERP_MOV parameter: `p10`, `p20`, `p0`.
        InterpParam = "interp",
        /// DS address VGPR (ADDR field).
        DsAddr = "addr",
        /// Vector data read by a store or atomic (VDATA / DATA0 / DATA1 field).
        VData = "vdata",
        /// Vector memory address VGPRs (VADDR). MUBUF/MTBUF: 1 or 2 per idxen/offen/addr64;
        /// MIMG: as many as the image needs; GLOBAL/SCRATCH: may be `off`.
        VAddr = "vaddr",
        /// Buffer or image resource: 4 SGPRs (8 for images with r128 off).
        SRsrc = "srsrc",
        /// MUBUF/MTBUF SOFFSET: an SGPR, M0 or an inline constant.
        SOffset = "soffset",
        /// MIMG sampler: 4 SGPRs.
        SSamp = "ssamp",
        /// GLOBAL/SCRATCH scalar address (SADDR field): an SGPR pair (one SGPR for
        /// scratch) or `off`.
        SAddr = "saddr",
        /// EXP target: `mrt0..7`, `mrtz`, `null`, `pos0..3`, `param0..31`.
        ExpTarget = "exptgt",
        /// EXP source: a VGPR or `off`.
        ExpSrc = "expsrc",
    }
}

token_enum! {
    /// How an immediate or inline constant given to an operand is read.
    ValueType {
        /// Integer (32 or 64 bits by the operand's register count).
        Int = "int",
        /// 16-bit integer.
        B16 = "b16",
        /// Half-precision float.
        F16 = "f16",
        /// Single-precision float.
        F32 = "f32",
        /// Double-precision float: a literal holds the high 32 bits.
        F64 = "f64",
    }
}

/// One operand of an instruction's syntax.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Operand {
    pub kind: OperandKind,
    /// Fewest registers the operand takes (1 for non-register kinds).
    pub min_regs: u8,
    /// Most registers; differs from `min_regs` where the count depends on modifiers
    /// (MIMG dmask, MUBUF addressing).
    pub max_regs: u8,
    pub ty: ValueType,
}

impl Operand {
    pub const fn new(kind: OperandKind, min_regs: u8, max_regs: u8, ty: ValueType) -> Operand {
        Operand {
            kind,
            min_regs,
            max_regs,
            ty,
        }
    }
}

/// Row properties the operand list doesn't show. A set of bits; see the constants.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Flags(pub u16);

macro_rules! flags {
    ($($(#[$m:meta])* $name:ident = $bit:literal, $token:literal;)*) => {
        impl Flags {
            pub const NONE: Flags = Flags(0);
            $($(#[$m])* pub const $name: Flags = Flags(1 << $bit);)*
            /// Every flag with its data-file word.
            pub const NAMED: &'static [(&'static str, Flags)] = &[$(($token, Flags::$name),)*];
        }
    };
}

flags! {
    /// The VOP3 form is VOP3B: it has an SDST field (carry-out, V_DIV_SCALE).
    VOP3B = 0, "vop3b";
    /// Multiply-accumulate: the destination is also read (SRC2 of the VOP3 form).
    MAC = 1, "mac";
    /// A VOP1/VOP2/VOPC row without a VOP3 form (V_MADMK/V_MADAK).
    NO_E64 = 2, "noe64";
    /// VOP3 instruction written like VINTRP (`attrN.c` operands, `high` modifier).
    INTERP = 3, "interp";
    /// Memory read: the destination receives data.
    LOAD = 4, "load";
    /// Memory write.
    STORE = 5, "store";
    /// Atomic: with `glc` the first operand receives the pre-op value.
    ATOMIC = 6, "atomic";
    /// Compare-and-swap: data is twice the returned size.
    CMPSWAP = 7, "cmpswap";
    /// MIMG instruction that takes a sampler (SSAMP).
    SAMPLE = 8, "sample";
    /// MIMG gather: dmask picks the component, 4 registers are returned.
    GATHER4 = 9, "gather4";
    /// DS instruction with two 8-bit offsets (`offset0:`/`offset1:`).
    OFFSET2 = 10, "offset2";
    /// DS instruction that always runs on GDS.
    GDS = 11, "gds";
}

impl Flags {
    pub const fn contains(self, other: Flags) -> bool {
        self.0 & other.0 == other.0
    }

    pub const fn union(self, other: Flags) -> Flags {
        Flags(self.0 | other.0)
    }

    pub fn from_token(token: &str) -> Option<Flags> {
        Flags::NAMED
            .iter()
            .find(|(t, _)| *t == token)
            .map(|&(_, f)| f)
    }

    /// Data-file words of the flags set, in declaration order.
    pub fn tokens(self) -> impl Iterator<Item = &'static str> {
        Flags::NAMED
            .iter()
            .filter(move |(_, f)| self.contains(*f))
            .map(|&(t, _)| t)
    }
}

/// Marks a generation without the row in the opcode arrays.
const ABSENT: u16 = u16::MAX;

impl OperandKind {
    /// How the syntax of an instruction names an operand of this kind (`SDST`, `VSRC`).
    pub fn label(self) -> &'static str {
        use OperandKind::*;
        match self {
            SDst => "SDST",
            SSrc => "SSRC",
            SData => "SDATA",
            SDataImm => "IMM7",
            SImm16 => "SIMM16",
            Imm16 => "IMM16",
            Imm32 => "IMM32",
            RelAddr => "TARGET",
            HwReg => "HWREG",
            SendMsg => "SENDMSG",
            WaitCnt => "WAITCNT",
            GprIdxMode => "GPRIDXMODE",
            SBase => "SBASE",
            SmemOffset => "OFFSET",
            VDst => "VDST",
            Src => "SRC",
            VSrc => "VSRC",
            VccDst => "VCC",
            VccSrc => "VCC",
            KImm => "K",
            Attr => "ATTR",
            InterpParam => "PARAM",
            DsAddr => "VADDR",
            VData => "VDATA",
            VAddr => "VADDR",
            SRsrc => "SRSRC",
            SOffset => "SOFFSET",
            SSamp => "SSAMP",
            SAddr => "SADDR|off",
            ExpTarget => "TARGET",
            ExpSrc => "VSRC",
        }
    }
}

impl Operand {
    /// `[2]` or `[1-4]` for a register range, then `:f32` for a value type other than
    /// integer.
    fn label_suffix(&self) -> String {
        let mut out = String::new();
        if self.max_regs > 1 {
            if self.min_regs == self.max_regs {
                out.push_str(&format!("[{}]", self.max_regs));
            } else {
                out.push_str(&format!("[{}-{}]", self.min_regs, self.max_regs));
            }
        }
        if self.ty != ValueType::Int {
            out.push(':');
            out.push_str(self.ty.token());
        }
        out
    }
}

/// One row of the instruction table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Instruction {
    /// Lowercase mnemonic, without `_e32`/`_e64`/`_sdwa`/`_dpp` suffixes.
    pub mnemonic: &'static str,
    pub encoding: Encoding,
    /// Operands in source order.
    pub operands: &'static [Operand],
    pub flags: Flags,
    opcodes: [u16; 7],
    vop3_opcodes: [u16; 7],
}

impl Instruction {
    /// Used by the generated table: `opcodes`/`vop3_opcodes` hold `u16::MAX` for
    /// generations without the row / without a VOP3 form.
    pub(crate) const fn new(
        mnemonic: &'static str,
        encoding: Encoding,
        operands: &'static [Operand],
        flags: Flags,
        opcodes: [u16; 7],
        vop3_opcodes: [u16; 7],
    ) -> Instruction {
        Instruction {
            mnemonic,
            encoding,
            operands,
            flags,
            opcodes,
            vop3_opcodes,
        }
    }

    /// The operands as the syntax writes them: `SDST[2], SSRC0[2], SSRC1[2]` (sources
    /// numbered in order).
    pub fn operand_labels(&self) -> Vec<String> {
        let mut src = 0;
        self.operands
            .iter()
            .map(|op| {
                let numbered = matches!(
                    op.kind,
                    OperandKind::Src | OperandKind::SSrc | OperandKind::VSrc | OperandKind::ExpSrc
                );
                let mut label = op.kind.label().to_string();
                if numbered {
                    label.push_str(&src.to_string());
                    src += 1;
                }
                label.push_str(&op.label_suffix());
                label
            })
            .collect()
    }

    /// The syntax of the row, under the name `mnemonic`: `v_add_f32 VDST, SRC0:f32,
    /// VSRC1:f32`.
    pub fn syntax(&self, mnemonic: &str) -> String {
        let ops = self.operand_labels();
        if ops.is_empty() {
            mnemonic.to_string()
        } else {
            format!("{mnemonic} {}", ops.join(", "))
        }
    }

    /// Opcode in the row's own encoding on `gen`; `None` if `gen` lacks the row.
    pub fn opcode(&self, gen: Generation) -> Option<u16> {
        Some(self.opcodes[gen.index()]).filter(|&o| o != ABSENT)
    }

    /// Opcode of the VOP3 form (VOP1/VOP2/VOPC rows; VINTRP rows on GCN 1.2/1.4).
    pub fn vop3_opcode(&self, gen: Generation) -> Option<u16> {
        Some(self.vop3_opcodes[gen.index()]).filter(|&o| o != ABSENT)
    }

    pub fn exists_on(&self, gen: Generation) -> bool {
        self.opcode(gen).is_some()
    }

    /// Generations that have the row, oldest first.
    pub fn generations(&self) -> impl Iterator<Item = Generation> + '_ {
        Generation::ALL.into_iter().filter(|&g| self.exists_on(g))
    }
}
