//! What an assembly is asked to do: format, device, switches and limits.

use std::path::PathBuf;

use gcn_isa::Device;

/// The binary format the source is assembled for (`-b`, `.amd`, `.gallium`, …).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinaryFormat {
    Amd,
    AmdCl2,
    Gallium,
    Rocm,
    Rawcode,
}

impl BinaryFormat {
    pub fn from_name(name: &str) -> Option<BinaryFormat> {
        Some(match name.to_ascii_lowercase().as_str() {
            "amd" => BinaryFormat::Amd,
            "amdcl2" => BinaryFormat::AmdCl2,
            "gallium" => BinaryFormat::Gallium,
            "rocm" => BinaryFormat::Rocm,
            "rawcode" => BinaryFormat::Rawcode,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            BinaryFormat::Amd => "amd",
            BinaryFormat::AmdCl2 => "amdcl2",
            BinaryFormat::Gallium => "gallium",
            BinaryFormat::Rocm => "rocm",
            BinaryFormat::Rawcode => "rawcode",
        }
    }
}

/// Caps that keep a runaway source from hanging the assembler or exhausting memory.
/// Defaults: 1000 nested macro expansions and repetitions and 500 nested includes (the
/// reference's limits), 10,000,000 statements produced by expansions, 1 GiB of output.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Nested macro calls and repetitions.
    pub expansion_depth: u32,
    /// Statements produced by all macro and repetition expansions together.
    pub expanded_statements: u64,
    /// Nested `.include`s (a file including itself stops here).
    pub include_depth: u32,
    /// Bytes of all sections together.
    pub output_size: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            expansion_depth: 1000,
            expanded_statements: 10_000_000,
            include_depth: 500,
            output_size: 1 << 30,
        }
    }
}

#[derive(Debug, Clone)]
pub struct Options {
    pub format: BinaryFormat,
    pub device: Device,
    /// Whether the device was given (`-g`/`-A`) rather than defaulted.
    pub device_given: bool,
    pub is64: bool,
    pub wave32: bool,
    /// `-D name[=value]`.
    pub defsyms: Vec<(String, i64)>,
    pub include_dirs: Vec<PathBuf>,
    pub alt_macro: bool,
    /// Macro names are case-insensitive unless `-m` / `.nomacrocase`.
    pub macro_case_insensitive: bool,
    pub buggy_fp_lit: bool,
    pub old_mod_param: bool,
    pub policy: Option<u32>,
    pub driver_version: Option<u32>,
    pub llvm_version: Option<u32>,
    /// `--newROCmBinFormat`: ROCm's new binary format without `.newbinfmt`.
    pub new_rocm_bin_format: bool,
    /// The reference's test run (`ASM_TESTRUN`, how its conformance corpus was made):
    /// symbols still unresolved at the end are not errors; data waiting for one keeps
    /// 0 with a warning. `gcnasm --emit json` assembles so; a binary never does.
    pub test_run: bool,
    pub limits: Limits,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            format: BinaryFormat::Amd,
            device: Device::from_name("CapeVerde").expect("CapeVerde is a device"),
            device_given: false,
            is64: false,
            wave32: false,
            defsyms: Vec::new(),
            include_dirs: Vec::new(),
            alt_macro: false,
            macro_case_insensitive: true,
            buggy_fp_lit: false,
            old_mod_param: false,
            policy: None,
            driver_version: None,
            llvm_version: None,
            new_rocm_bin_format: false,
            test_run: false,
            limits: Limits::default(),
        }
    }
}
