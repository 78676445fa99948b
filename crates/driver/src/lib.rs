//! `gcnasm`'s command line and what it asks for, shared by `gcnasm` and the language
//! server, so that the same arguments mean the same thing in both:
//!
//! - [`cli`]: every option of `clrxasm`, parsed with clap ([`Cli`]);
//! - [`options`]: a command line to the core's [`Options`];
//! - [`output_bytes`]: an assembly to the bytes a run writes (the binary in the source's
//!   format, or what `--emit` asks for);
//! - [`output`]: writing an output safely (atomically, never over an input).

pub mod cli;
pub mod output;

use gcn_asm::{Assembly, BinaryFormat, Diagnostic, Options};

pub use crate::cli::{Cli, EmitKind};

/// The core's options for this command line.
pub fn options(cli: &Cli) -> Options {
    let mut opts = Options::default();
    if let Some(format) = cli.binary_format {
        opts.format = match format {
            cli::BinaryFormat::Amd => BinaryFormat::Amd,
            cli::BinaryFormat::AmdCl2 => BinaryFormat::AmdCl2,
            cli::BinaryFormat::Gallium => BinaryFormat::Gallium,
            cli::BinaryFormat::Rocm => BinaryFormat::Rocm,
            cli::BinaryFormat::RawCode => BinaryFormat::Rawcode,
        };
    }
    let device = match (cli.gpu, cli.arch) {
        (Some(gpu), _) => Some(gpu.0),
        (None, Some(arch)) => Some(arch.0.default_device()),
        (None, None) => None,
    };
    if let Some(device) = device {
        opts.device = device;
        opts.device_given = true;
    }
    opts.is64 = cli.is_64bit;
    opts.wave32 = cli.wave32;
    opts.defsyms = cli
        .defsyms
        .iter()
        .map(|d| (d.name.clone(), d.value as i64))
        .collect();
    opts.include_dirs = cli.include_paths.clone();
    opts.alt_macro = cli.alternate;
    opts.macro_case_insensitive = !cli.no_macro_case;
    opts.buggy_fp_lit = cli.buggy_fp_lit;
    opts.old_mod_param = cli.old_mod_param;
    opts.policy = cli.policy;
    opts.driver_version = cli.driver_version;
    opts.llvm_version = cli.llvm_version;
    opts.new_rocm_bin_format = cli.new_rocm_bin_format;
    opts.force_add_symbols = cli.force_add_symbols;
    // The module as the reference's test runs see it (its conformance corpus): symbols
    // left unresolved are not errors there. A binary is never written with them.
    opts.test_run = cli.emit == Some(EmitKind::Json);
    // Where each instruction was put, for the listing.
    opts.record_symbols = cli.emit == Some(EmitKind::Listing);
    let limits = &mut opts.limits;
    if let Some(n) = cli.max_expansion_depth {
        limits.expansion_depth = n;
    }
    if let Some(n) = cli.max_expanded_statements {
        limits.expanded_statements = n;
    }
    if let Some(n) = cli.max_include_depth {
        limits.include_depth = n;
    }
    if let Some(n) = cli.max_output_size {
        limits.output_size = n;
    }
    if let Some(n) = cli.max_errors {
        limits.errors = n;
    }
    opts
}

/// Why a run writes nothing although the source assembled.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NoOutput {
    /// What was asked is not done yet (or not here), in words.
    Unsupported(String),
    /// The binary writer refused the program: its errors, each with a place when it has one.
    Binary(Vec<Diagnostic>),
    /// The source made no output (see [`Assembly::has_output`]): it is empty, or only
    /// defines symbols and macros, as a file written to be included does. clrxasm refuses
    /// it too ("No output binary").
    Nothing,
}

/// Why [`NoOutput::Nothing`], in words.
pub const NOTHING_TO_WRITE: &str =
    "no output binary: the source has no label, instruction, data, section, kernel or binary format pseudo-op";

/// The bytes a run writes for an assembly without errors: what `--emit` asks for, else
/// the binary in the source's format.
pub fn output_bytes(result: &Assembly, emit: Option<EmitKind>) -> Result<Vec<u8>, NoOutput> {
    match emit {
        Some(EmitKind::Json) => Ok(result.to_json().into_bytes()),
        Some(EmitKind::RegUsage) => Ok(result.reg_usage_json().into_bytes()),
        Some(EmitKind::Listing) => Ok(result.listing().into_bytes()),
        Some(kind) => Err(NoOutput::Unsupported(format!(
            "--emit {} is not supported here",
            kind.name()
        ))),
        None if !result.has_output => Err(NoOutput::Nothing),
        None => result.binary().map_err(NoOutput::Binary),
    }
}
