//! Assembling: options from the command line to the core, the core's diagnostics to
//! standard error, and its result to the output the run asked for.

use std::path::Path;

use gcn_asm::{assemble, assemble_stream, Assembly, BinaryFormat, Input, Options, Severity, StreamInput};

use crate::cli::{self, Cli, EmitKind};
use crate::diagnostics::tool_error;
use crate::input::Inputs;
use crate::output;

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
    opts.defsyms = cli.defsyms.iter().map(|d| (d.name.clone(), d.value as i64)).collect();
    opts.include_dirs = cli.include_paths.clone();
    opts.alt_macro = cli.alternate;
    opts.macro_case_insensitive = !cli.no_macro_case;
    opts.buggy_fp_lit = cli.buggy_fp_lit;
    opts.old_mod_param = cli.old_mod_param;
    opts.policy = cli.policy;
    opts.driver_version = cli.driver_version;
    opts.llvm_version = cli.llvm_version;
    opts.new_rocm_bin_format = cli.new_rocm_bin_format;
    // The module as the reference's test runs see it (its conformance corpus): symbols
    // left unresolved are not errors there. A binary is never written with them.
    opts.test_run = cli.emit == Some(EmitKind::Json);
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
    opts
}

/// Assembles the inputs, reports diagnostics, writes the output; true on success.
pub fn run(cli: &Cli, inputs: Inputs, output: Option<&Path>) -> bool {
    let result = match inputs {
        Inputs::Files(files) => {
            let inputs = files.into_iter().map(|f| Input { name: f.name, text: f.text }).collect();
            assemble(inputs, options(cli))
        }
        Inputs::Stream { name, file } => assemble_stream(StreamInput { name, reader: Box::new(file) }, options(cli)),
    };
    report(cli, &result);
    if let Err(e) = output::write_stdout(result.printed.as_bytes()) {
        return refuse(&format!("cannot write to standard output: {e}"));
    }
    if result.has_errors() {
        return false;
    }
    let bytes = match cli.emit {
        Some(EmitKind::Json) => result.to_json().into_bytes(),
        Some(EmitKind::RegUsage) => result.reg_usage_json().into_bytes(),
        Some(kind) => return refuse(&format!("--emit {} is not supported here", kind.name())),
        None => match binary(&result) {
            Some(bytes) => bytes,
            None => return false,
        },
    };
    let Some(path) = output else { return refuse("no output file") };
    match output::write_output(path, &bytes) {
        Ok(()) => true,
        Err(e) => {
            let name = match output::is_stdout(path) {
                true => "to standard output".to_string(),
                false => path.display().to_string(),
            };
            eprintln!("{}", tool_error(&format!("cannot write {name}: {e}")));
            false
        }
    }
}

/// The binary in the source's format (AMD OpenCL 1.2 and 2.0, GalliumCompute, raw
/// code); its errors are reported, each `FILE:LINE:COLUMN` where it has a place.
fn binary(result: &Assembly) -> Option<Vec<u8>> {
    if result.format == BinaryFormat::Rocm {
        refuse("writing the rocm binary format is not supported yet");
        return None;
    }
    match result.binary() {
        Ok(bytes) => Some(bytes),
        Err(errors) => {
            for e in &errors {
                eprintln!("{}", e.render(&result.sources));
            }
            eprintln!("{}", tool_error("no output was written"));
            None
        }
    }
}

fn report(cli: &Cli, result: &Assembly) {
    for d in &result.diagnostics {
        if d.severity == Severity::Warning && cli.no_warnings {
            continue;
        }
        eprintln!("{}", d.render(&result.sources));
    }
}

fn refuse(message: &str) -> bool {
    eprintln!("{}; no output was written", tool_error(message));
    false
}
