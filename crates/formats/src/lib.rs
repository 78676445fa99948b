//! `gcn-formats`: writers for the binary formats of AMD GPU programs, byte for byte as
//! CLRX's `clrxasm` writes them.
//!
//! - [`amd`]: AMD Catalyst OpenCL 1.2 (an ELF whose `.text` holds one inner ELF per
//!   kernel, with ATI CAL notes and the metadata string in `.rodata`);
//! - [`amdcl2`]: AMD OpenCL 2.0, old (before driver 1912.05) and new layouts, with the
//!   HSA layout of the new one;
//! - [`gallium`]: GalliumCompute (Mesa3D Clover), before and from LLVM 4.0;
//! - [`rocm`]: ROCm code objects, old and new layouts, with the global offset table, and
//!   the LLVM 10 layout; [`rocm_msgpack`] the MessagePack of its v3 metadata;
//! - [`elf`]: the ELF writer they share, [`hsa`] the AMD HSA kernel descriptor,
//!   [`gpu`] device facts (register limits, program resource registers).
//!
//! Each writer takes a plain input structure that an assembler fills from its
//! configuration and returns the bytes, or a [`FormatError`] naming what is wrong.
//!
//! # Default driver and compiler versions
//!
//! The formats change with the version of the driver (or of Mesa and LLVM) that will
//! load them. When a source gives none (no `-t`/`--driverVersion`, `--llvmVersion`,
//! `.driver_version` or `.llvm_version`), these documented defaults apply; nothing is
//! ever guessed from the machine:
//!
//! - AMD OpenCL 1.2: driver [`DEFAULT_AMD_DRIVER_VERSION`] (1912.05, Crimson 15.12);
//! - AMD OpenCL 2.0: driver [`DEFAULT_AMDCL2_DRIVER_VERSION`] (2348.00, AMDGPU-PRO 17;
//!   the new binary layout, and a device table that knows Vega);
//! - GalliumCompute: Mesa [`DEFAULT_MESA_VERSION`] (13.0.0, binaries before Mesa 17)
//!   and LLVM [`DEFAULT_LLVM_VERSION`] (3.9.0, five program-info entries, no HSA
//!   descriptor).
//!
//! Versions are written as `major*100 + minor` for AMD drivers and
//! `major*10000 + minor*100 + micro` for Mesa and LLVM.

pub mod amd;
pub mod amdcl2;
pub mod args;
pub mod elf;
pub mod gallium;
pub mod gpu;
pub mod hsa;
pub mod rocm;
pub mod rocm_msgpack;

use std::fmt;

/// AMD OpenCL 1.2 driver version when none is given: 1912.05.
pub const DEFAULT_AMD_DRIVER_VERSION: u32 = 191205;
/// AMD OpenCL 2.0 driver version when none is given: 2348.00.
pub const DEFAULT_AMDCL2_DRIVER_VERSION: u32 = 234800;
/// Mesa3D version for GalliumCompute when none is given: 13.0.0.
pub const DEFAULT_MESA_VERSION: u32 = 130000;
/// LLVM version for GalliumCompute when none is given: 3.9.0.
pub const DEFAULT_LLVM_VERSION: u32 = 30900;

/// Why a binary cannot be written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FormatError {
    /// The kernel concerned, if any.
    pub kernel: Option<String>,
    /// The symbol concerned (one the source adds with `-S`), if any.
    pub symbol: Option<String>,
    /// The argument concerned, by its index among the kernel's arguments, if any.
    pub argument: Option<usize>,
    pub message: String,
}

impl FormatError {
    pub fn new(message: impl Into<String>) -> FormatError {
        FormatError {
            kernel: None,
            symbol: None,
            argument: None,
            message: message.into(),
        }
    }

    pub fn kernel(name: &str, message: impl Into<String>) -> FormatError {
        FormatError {
            kernel: Some(name.to_string()),
            symbol: None,
            argument: None,
            message: message.into(),
        }
    }

    /// About argument `index` of kernel `name`.
    pub fn argument(name: &str, index: usize, message: impl Into<String>) -> FormatError {
        FormatError {
            kernel: Some(name.to_string()),
            symbol: None,
            argument: Some(index),
            message: message.into(),
        }
    }

    pub fn symbol(name: &str, message: impl Into<String>) -> FormatError {
        FormatError {
            kernel: None,
            symbol: Some(name.to_string()),
            argument: None,
            message: message.into(),
        }
    }
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kernel {
            Some(k) => write!(f, "kernel '{k}': {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for FormatError {}

/// A writer that tells every problem it finds returns them all; one found alone is one.
impl From<FormatError> for Vec<FormatError> {
    fn from(e: FormatError) -> Vec<FormatError> {
        vec![e]
    }
}
