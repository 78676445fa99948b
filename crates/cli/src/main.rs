//! `gcnasm`: an assembler for AMD GCN assembly in the CLRX dialect, with the command line
//! of CLRX's `clrxasm`, so that it can stand in for it.
//!
//! `gcnasm` assembles its inputs with the core (`gcn-asm`), reports every error as
//! `FILE:LINE:COLUMN: Error: MESSAGE` (exit status 1) and writes raw code (`-b rawcode`)
//! or the assembled module as JSON (`--emit json`); `--emit syntax-tree` writes the
//! lossless syntax tree. Binary formats not written yet are refused with a clear message,
//! never with a fake output.
//!
//! - [`assemble`]: the command line to the core's options, and the result to the output;
//! - `gcn_driver::cli`: the options, parsed with clap (shared with the language server);
//! - [`input`]: reading files or standard input (bytes, decoded by `gcn_asm::encoding`);
//! - [`diagnostics`]: several files as one source, offsets back to file, line and
//!   column, and the error formats;
//! - `gcn_driver::output`: atomic writes, and the check that an output is not an input;
//! - [`run`]: one run, from options to exit status.
//!
//! Exit status: 0 on success, 1 when the source has errors, the run cannot do what was
//! asked or the command line is malformed (as clrxasm's).

mod assemble;

mod diagnostics;
mod input;

mod run;

use gcn_driver::cli;

fn main() -> std::process::ExitCode {
    run::run(&cli::Cli::parse_or_exit())
}
