//! GCN generations ("architectures" in clrxasm's `-A`) and GPU devices (`-g`).
//!
//! Names are looked up case-insensitively, as clrxasm does. Register limits and the
//! operand codes of special registers follow GcnOperands.md and clrxasm's behaviour
//! (checked against the conformance corpus where it says more than the docs).

use std::fmt;

/// A GCN instruction-set generation, in CLRX's numbering.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Generation {
    /// GCN 1.0 (GFX6, Southern Islands).
    Gcn1_0,
    /// GCN 1.1 (GFX7, Sea Islands).
    Gcn1_1,
    /// GCN 1.2 (GFX8, Volcanic Islands).
    Gcn1_2,
    /// GCN 1.4 (GFX9, Vega).
    Gcn1_4,
    /// GCN 1.4.1 (GFX906, Vega 20 with the deep-learning instructions).
    Gcn1_4_1,
    /// GCN 1.5 (GFX10, Navi).
    Gcn1_5,
    /// GCN 1.5.1 (GFX1011, Navi with the deep-learning instructions).
    Gcn1_5_1,
}

impl Generation {
    /// All generations, oldest first; `gen as usize` indexes this array.
    pub const ALL: [Generation; 7] = [
        Generation::Gcn1_0,
        Generation::Gcn1_1,
        Generation::Gcn1_2,
        Generation::Gcn1_4,
        Generation::Gcn1_4_1,
        Generation::Gcn1_5,
        Generation::Gcn1_5_1,
    ];

    /// Position in [`Generation::ALL`], used to index per-generation tables.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// CLRX's name: "GCN1.0" ... "GCN1.5.1".
    pub const fn name(self) -> &'static str {
        match self {
            Generation::Gcn1_0 => "GCN1.0",
            Generation::Gcn1_1 => "GCN1.1",
            Generation::Gcn1_2 => "GCN1.2",
            Generation::Gcn1_4 => "GCN1.4",
            Generation::Gcn1_4_1 => "GCN1.4.1",
            Generation::Gcn1_5 => "GCN1.5",
            Generation::Gcn1_5_1 => "GCN1.5.1",
        }
    }

    /// Short form used in the data file: "1.0" ... "1.5.1".
    pub const fn short_name(self) -> &'static str {
        match self {
            Generation::Gcn1_0 => "1.0",
            Generation::Gcn1_1 => "1.1",
            Generation::Gcn1_2 => "1.2",
            Generation::Gcn1_4 => "1.4",
            Generation::Gcn1_4_1 => "1.4.1",
            Generation::Gcn1_5 => "1.5",
            Generation::Gcn1_5_1 => "1.5.1",
        }
    }

    /// Parses a generation from its short form ("1.4.1").
    pub fn from_short_name(name: &str) -> Option<Generation> {
        Generation::ALL.into_iter().find(|g| g.short_name() == name)
    }

    /// Looks up an architecture name as clrxasm's `-A` takes it (case-insensitive).
    pub fn from_arch_name(name: &str) -> Option<Generation> {
        ARCH_NAMES
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|&(_, g)| g)
    }

    /// The device an assembler uses when only the architecture is given: the lowest
    /// device of that generation, as CLRX picks it (GCN1.0 -> CapeVerde, GCN1.2 ->
    /// Iceland). For GCN1.5 we take GFX1010 rather than the pre-release GFX1000.
    pub const fn default_device(self) -> Device {
        match self {
            Generation::Gcn1_0 => Device::CapeVerde,
            Generation::Gcn1_1 => Device::Bonaire,
            Generation::Gcn1_2 => Device::Iceland,
            Generation::Gcn1_4 => Device::Gfx900,
            Generation::Gcn1_4_1 => Device::Gfx906,
            Generation::Gcn1_5 => Device::Gfx1010,
            Generation::Gcn1_5_1 => Device::Gfx1011,
        }
    }

    /// True for GCN 1.5 and 1.5.1 (GFX10), which have wave32 and a new encoding layout.
    pub const fn is_gfx10(self) -> bool {
        matches!(self, Generation::Gcn1_5 | Generation::Gcn1_5_1)
    }

    /// Registers this generation has; see [`RegisterLimits`].
    pub const fn registers(self) -> RegisterLimits {
        match self {
            Generation::Gcn1_0 | Generation::Gcn1_1 => RegisterLimits {
                addressable_sgprs: 104,
                max_sgprs: 104,
                max_vgprs: 256,
            },
            Generation::Gcn1_2 => RegisterLimits {
                addressable_sgprs: 102,
                max_sgprs: 102,
                max_vgprs: 256,
            },
            // Vega addresses s0..s101 but allocates 104 SGPRs (VCC included).
            Generation::Gcn1_4 | Generation::Gcn1_4_1 => RegisterLimits {
                addressable_sgprs: 102,
                max_sgprs: 104,
                max_vgprs: 256,
            },
            Generation::Gcn1_5 | Generation::Gcn1_5_1 => RegisterLimits {
                addressable_sgprs: 106,
                max_sgprs: 106,
                max_vgprs: 256,
            },
        }
    }

    /// SGPRs a kernel must reserve at the top of its allocation for the special
    /// registers it uses: VCC takes 2; FLAT_SCRATCH takes VCC's 2 plus 2 on GCN 1.1
    /// and plus 4 (it sits below XNACK_MASK) on GCN 1.2 and later; XNACK_MASK takes
    /// VCC's 2 plus 2 from GCN 1.2 on. The largest need wins, as in CLRX.
    pub const fn extra_sgprs(self, uses: SpecialRegUse) -> u32 {
        let g = self as usize;
        if uses.flat_scratch && g > Generation::Gcn1_0 as usize {
            if g >= Generation::Gcn1_2 as usize {
                6
            } else {
                4
            }
        } else if uses.xnack_mask && g > Generation::Gcn1_1 as usize {
            4
        } else if uses.vcc {
            2
        } else {
            0
        }
    }

    /// Operand code of a named scalar special register on this generation, or `None`
    /// where the generation lacks it (e.g. FLAT_SCRATCH on GCN 1.0 or 1.5).
    pub const fn special_reg_code(self, reg: SpecialReg) -> Option<u16> {
        use Generation::*;
        use SpecialReg::*;
        let g = self as usize;
        let vega = g >= Gcn1_4 as usize;
        Some(match reg {
            FlatScratch => match self {
                Gcn1_1 => 104,
                Gcn1_2 | Gcn1_4 | Gcn1_4_1 => 102,
                _ => return None,
            },
            XnackMask => match self {
                Gcn1_2 | Gcn1_4 | Gcn1_4_1 => 104,
                _ => return None,
            },
            Vcc => 106,
            // TBA/TMA stop being operands when TTMP grows to 16 registers (GCN 1.4).
            Tba if !vega => 108,
            Tma if !vega => 110,
            Tba | Tma => return None,
            Ttmp => {
                if vega {
                    108
                } else {
                    112
                }
            }
            M0 => 124,
            Null if self.is_gfx10() => 125,
            Null => return None,
            Exec => 126,
            SrcSharedBase | SrcSharedLimit | SrcPrivateBase | SrcPrivateLimit
            | PopsExitingWaveId
                if !vega =>
            {
                return None
            }
            SrcSharedBase => 235,
            SrcSharedLimit => 236,
            SrcPrivateBase => 237,
            SrcPrivateLimit => 238,
            PopsExitingWaveId => 239,
            Vccz => 251,
            Execz => 252,
            Scc => 253,
            LdsDirect => 254,
        })
    }

    /// Number of TTMP registers (TTMP0..TTMPn-1).
    pub const fn ttmp_count(self) -> u16 {
        if (self as usize) >= Generation::Gcn1_4 as usize {
            16
        } else {
            12
        }
    }
}

impl fmt::Display for Generation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Register-file limits of a generation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RegisterLimits {
    /// SGPRs an instruction may name as `sN` (s0 .. s(N-1)).
    pub addressable_sgprs: u32,
    /// SGPRs a wave can allocate, special registers (VCC, ...) included.
    pub max_sgprs: u32,
    /// VGPRs a wave can address (v0 .. v255 on every generation).
    pub max_vgprs: u32,
}

/// Which special registers a kernel uses, for [`Generation::extra_sgprs`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SpecialRegUse {
    pub vcc: bool,
    pub flat_scratch: bool,
    pub xnack_mask: bool,
}

/// Named scalar registers and source-only codes whose operand code depends on the
/// generation or that a generation may lack. A 64-bit register's code is its low half.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SpecialReg {
    FlatScratch,
    XnackMask,
    Vcc,
    Tba,
    Tma,
    /// TTMP0; TTMPn is this code plus n.
    Ttmp,
    M0,
    /// GCN 1.5 `null`: reads zero, discards writes.
    Null,
    Exec,
    SrcSharedBase,
    SrcSharedLimit,
    SrcPrivateBase,
    SrcPrivateLimit,
    PopsExitingWaveId,
    Vccz,
    Execz,
    Scc,
    LdsDirect,
}

/// Architecture names clrxasm's `-A` accepts.
const ARCH_NAMES: &[(&str, Generation)] = &[
    ("GCN1.0", Generation::Gcn1_0),
    ("GFX6", Generation::Gcn1_0),
    ("SI", Generation::Gcn1_0),
    ("GCN1.1", Generation::Gcn1_1),
    ("GFX7", Generation::Gcn1_1),
    ("CI", Generation::Gcn1_1),
    ("GCN1.2", Generation::Gcn1_2),
    ("GFX8", Generation::Gcn1_2),
    ("VI", Generation::Gcn1_2),
    ("GCN1.4", Generation::Gcn1_4),
    ("GFX9", Generation::Gcn1_4),
    ("VEGA", Generation::Gcn1_4),
    ("GCN1.4.1", Generation::Gcn1_4_1),
    ("GFX906", Generation::Gcn1_4_1),
    ("VEGA20", Generation::Gcn1_4_1),
    ("GCN1.5", Generation::Gcn1_5),
    ("GFX10", Generation::Gcn1_5),
    ("Navi", Generation::Gcn1_5),
    ("GCN1.5.1", Generation::Gcn1_5_1),
    ("GFX1011", Generation::Gcn1_5_1),
    ("NaviDL", Generation::Gcn1_5_1),
];

/// Every architecture name `-A` accepts, in clrxasm's documentation spelling.
pub fn arch_names() -> impl Iterator<Item = (&'static str, Generation)> {
    ARCH_NAMES.iter().copied()
}

macro_rules! devices {
    ($($variant:ident = $name:literal, $gen:ident;)*) => {
        /// A GPU device type. Several `-g` names may select one device (Polaris10 is
        /// Ellesmere); [`Device::name`] is the canonical one.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Device { $($variant,)* }

        impl Device {
            /// All devices, in CLRX's device-type order.
            pub const ALL: &'static [Device] = &[$(Device::$variant,)*];

            /// Canonical name, as CLRX prints it.
            pub const fn name(self) -> &'static str {
                match self { $(Device::$variant => $name,)* }
            }

            /// Generation of the device's instruction set.
            pub const fn generation(self) -> Generation {
                match self { $(Device::$variant => Generation::$gen,)* }
            }
        }
    };
}

devices! {
    CapeVerde = "CapeVerde", Gcn1_0;
    Pitcairn = "Pitcairn", Gcn1_0;
    Tahiti = "Tahiti", Gcn1_0;
    Oland = "Oland", Gcn1_0;
    Bonaire = "Bonaire", Gcn1_1;
    Spectre = "Spectre", Gcn1_1;
    Spooky = "Spooky", Gcn1_1;
    Kalindi = "Kalindi", Gcn1_1;
    Hainan = "Hainan", Gcn1_0;
    Hawaii = "Hawaii", Gcn1_1;
    Iceland = "Iceland", Gcn1_2;
    Tonga = "Tonga", Gcn1_2;
    Mullins = "Mullins", Gcn1_1;
    Fiji = "Fiji", Gcn1_2;
    Carrizo = "Carrizo", Gcn1_2;
    Dummy = "Dummy", Gcn1_2;
    Goose = "Goose", Gcn1_2;
    Horse = "Horse", Gcn1_2;
    Stoney = "Stoney", Gcn1_2;
    Ellesmere = "Ellesmere", Gcn1_2;
    Baffin = "Baffin", Gcn1_2;
    Gfx804 = "GFX804", Gcn1_2;
    Gfx900 = "GFX900", Gcn1_4;
    Gfx901 = "GFX901", Gcn1_4;
    Gfx902 = "GFX902", Gcn1_4;
    Gfx903 = "GFX903", Gcn1_4;
    Gfx904 = "GFX904", Gcn1_4;
    Gfx905 = "GFX905", Gcn1_4;
    Gfx906 = "GFX906", Gcn1_4_1;
    Gfx907 = "GFX907", Gcn1_4_1;
    Gfx1000 = "GFX1000", Gcn1_5;
    Gfx1010 = "GFX1010", Gcn1_5;
    Gfx1011 = "GFX1011", Gcn1_5_1;
}

/// Names `-g` accepts besides the canonical device names. GFX1011 is the real GFX1011
/// (GCN 1.5.1), not clrxasm's slip that maps it to GFX1010.
const DEVICE_ALIASES: &[(&str, Device)] = &[
    ("GFX700", Device::Spectre),
    ("GFX701", Device::Hawaii),
    ("GFX801", Device::Carrizo),
    ("GFX802", Device::Tonga),
    ("GFX803", Device::Fiji),
    ("Polaris10", Device::Ellesmere),
    ("Polaris11", Device::Baffin),
    ("Polaris12", Device::Gfx804),
    ("Polaris20", Device::Ellesmere),
    ("Polaris21", Device::Baffin),
    ("Polaris22", Device::Gfx804),
    ("Raven", Device::Gfx903),
    ("Topaz", Device::Iceland),
    ("Vega10", Device::Gfx900),
    ("Vega11", Device::Gfx902),
    ("Vega12", Device::Gfx904),
    ("Vega20", Device::Gfx906),
    ("Navi10", Device::Gfx1010),
];

impl Device {
    /// Looks up a `-g` device name, case-insensitively, aliases included.
    pub fn from_name(name: &str) -> Option<Device> {
        let canonical = Device::ALL
            .iter()
            .copied()
            .find(|d| d.name().eq_ignore_ascii_case(name));
        canonical.or_else(|| {
            DEVICE_ALIASES
                .iter()
                .find(|(n, _)| n.eq_ignore_ascii_case(name))
                .map(|&(_, d)| d)
        })
    }

    /// Every name `-g` accepts with the device it selects, canonical names first.
    pub fn names() -> impl Iterator<Item = (&'static str, Device)> {
        Device::ALL
            .iter()
            .map(|&d| (d.name(), d))
            .chain(DEVICE_ALIASES.iter().copied())
    }
}

impl fmt::Display for Device {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
