//! One run of the assembler, from parsed options to exit status.
//!
//! A run reads the inputs, then either writes the syntax tree (`--emit syntax-tree`) or
//! assembles ([`crate::assemble`]). It never writes a fake output.
//!
//! Options fall in two groups:
//! - those that affect assembling: `-D`, `-I`, `-a`, `-m`, `-b`, `-6`, `-g`, `-A`, `-t`,
//!   `--llvmVersion`, `--newROCmBinFormat`, `-S`, `--buggyFPLit`, `--oldModParam`, `-3`,
//!   `--policy`, the `--max-*` limits: handed to the core (formats whose writer does not exist yet are refused
//!   when the binary would be written);
//! - `-w`: silences warnings.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use gcn_syntax::{Parse, SyntaxError};

use crate::diagnostics::{located_error, tool_error, SourceMap};
use crate::input;
use gcn_driver::output;
use gcn_driver::{Cli, EmitKind};

/// Where clrxasm writes its binary when no `-o` is given.
const DEFAULT_OUTPUT: &str = "a.out";

pub fn run(cli: &Cli) -> ExitCode {
    if cli.usage {
        println!("{}", Cli::usage());
        return ExitCode::SUCCESS;
    }
    let output = match check_request(cli) {
        Ok(output) => output,
        Err(errors) => return fail(&errors),
    };
    if cli.emit == Some(EmitKind::SyntaxTree) {
        return match input::read_all(&cli.inputs) {
            Ok(files) => parse_and_emit(output.as_deref(), SourceMap::new(files)),
            Err(errors) => fail(&errors),
        };
    }
    // A listing shows the source's lines: it is read whole, not streamed.
    let inputs = match cli.emit {
        Some(EmitKind::Listing) => input::read_all(&cli.inputs).map(input::Inputs::Files),
        _ => input::open_all(&cli.inputs),
    };
    match inputs {
        Ok(inputs) => match crate::assemble::run(cli, inputs, output.as_deref()) {
            true => ExitCode::SUCCESS,
            false => ExitCode::FAILURE,
        },
        Err(errors) => fail(&errors),
    }
}

fn fail(errors: &[String]) -> ExitCode {
    errors.iter().for_each(|e| eprintln!("{e}"));
    ExitCode::FAILURE
}

/// What can be refused before reading any input; else the file the run would write.
fn check_request(cli: &Cli) -> Result<Option<PathBuf>, Vec<String>> {
    if cli.emit == Some(EmitKind::SyntaxTree) && cli.inputs.len() > 1 {
        Cli::usage_error("--emit syntax-tree takes one input file");
    }
    let output = output_path(cli);
    if let Some(input) = output
        .as_deref()
        .and_then(|out| overwritten_input(out, &cli.inputs))
    {
        let message = format!(
            "refusing to write the output over the input file {}",
            input.display()
        );
        return Err(vec![tool_error(&message)]);
    }
    Ok(output)
}

/// The file this run would write: `-o`, else `a.out` for a binary, else standard output.
fn output_path(cli: &Cli) -> Option<PathBuf> {
    match (&cli.output, cli.emit) {
        (Some(path), _) => Some(path.clone()),
        (None, Some(EmitKind::SyntaxTree)) => None,
        (None, _) => Some(PathBuf::from(DEFAULT_OUTPUT)),
    }
}

fn overwritten_input<'a>(output: &Path, inputs: &'a [PathBuf]) -> Option<&'a PathBuf> {
    if output::is_stdout(output) || !is_file_or_missing(output) {
        // Standard output, a device, a pipe: written in place, never replaced.
        return None;
    }
    inputs.iter().find(|input| output::same_file(output, input))
}

fn is_file_or_missing(path: &Path) -> bool {
    std::fs::metadata(path).map_or(true, |m| m.is_file())
}

fn parse_and_emit(output: Option<&Path>, sources: SourceMap) -> ExitCode {
    let parse = gcn_syntax::parse(sources.text());
    report_syntax_errors(&sources, parse.errors());
    let syntax_ok = parse.errors().is_empty();
    let emitted = emit_syntax_tree(&parse, output);
    if emitted && syntax_ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

fn report_syntax_errors(sources: &SourceMap, errors: &[SyntaxError]) {
    let stderr = std::io::stderr();
    let mut stderr = stderr.lock();
    for error in errors {
        let start = usize::from(error.range.start());
        if let Some(location) = sources.locate(start) {
            let _ = writeln!(stderr, "{}", located_error(&location, &error.message));
        }
    }
}

/// Writes the tree to `output`, or to standard output; false (reported) on failure.
fn emit_syntax_tree(parse: &Parse, output: Option<&Path>) -> bool {
    let tree = parse.debug_dump();
    let written = match output {
        Some(path) if !output::is_stdout(path) => output::write_output(path, tree.as_bytes())
            .map_err(|e| format!("cannot write {}: {e}", path.display())),
        _ => output::write_stdout(tree.as_bytes())
            .map_err(|e| format!("cannot write to standard output: {e}")),
    };
    written
        .map_err(|message| eprintln!("{}", tool_error(&message)))
        .is_ok()
}
