//! Assembling: the command line to the core (through `gcn-driver`, which the language
//! server shares), the core's diagnostics to standard error, and its result to the
//! output the run asked for.

use std::path::Path;

use gcn_asm::{assemble, assemble_stream, Assembly, Input, Severity, StreamInput};
use gcn_driver::{options, output_bytes, Cli, NoOutput};

use crate::diagnostics::tool_error;
use crate::input::Inputs;
use gcn_driver::output;

/// Assembles the inputs, reports diagnostics, writes the output; true on success.
pub fn run(cli: &Cli, inputs: Inputs, output: Option<&Path>) -> bool {
    let result = match inputs {
        Inputs::Files(files) => {
            let inputs = files
                .into_iter()
                .map(|f| Input {
                    name: f.name,
                    text: f.text,
                })
                .collect();
            assemble(inputs, options(cli))
        }
        Inputs::Stream { name, file } => assemble_stream(
            StreamInput {
                name,
                reader: Box::new(file),
            },
            options(cli),
        ),
    };
    report(cli, &result);
    if let Err(e) = output::write_stdout(&gcn_asm::encoding::encode(&result.printed)) {
        return refuse(&format!("cannot write to standard output: {e}"));
    }
    if result.has_errors() {
        return false;
    }
    let bytes = match output_bytes(&result, cli.emit) {
        Ok(bytes) => bytes,
        Err(NoOutput::Unsupported(message)) => return refuse(&message),
        Err(NoOutput::Nothing) => return refuse(gcn_driver::NOTHING_TO_WRITE),
        Err(NoOutput::Binary(errors)) => {
            for e in &errors {
                eprintln!("{}", e.render(&result.sources));
            }
            eprintln!("{}", tool_error("no output was written"));
            return false;
        }
    };
    let Some(path) = output else {
        return refuse("no output file");
    };
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
