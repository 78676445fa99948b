//! `gcnasm`: an assembler for AMD GCN assembly in the CLRX dialect, with the command line
//! of CLRX's `clrxasm`, so that it can stand in for it.
//!
//! The assembler core does not exist yet. Today `gcnasm` parses its inputs, reports every
//! syntax error as `FILE:LINE:COLUMN: Error: MESSAGE` (exit status 1), and writes the
//! lossless syntax tree with `--emit syntax-tree`; asked for a binary, it says that it
//! cannot produce one yet and fails, without writing anything.
//!
//! - [`cli`]: the options, parsed with clap;
//! - [`input`]: reading files or standard input as UTF-8;
//! - [`diagnostics`]: several files as one source, offsets back to file, line and
//!   column, and the error formats;
//! - [`output`]: atomic writes, and the check that an output is not an input;
//! - [`run`]: one run, from options to exit status.
//!
//! Exit status: 0 on success, 1 when the source has errors or the run cannot do what
//! was asked, 2 for a malformed command line.

mod cli;
mod diagnostics;
mod input;
mod output;
mod run;

use clap::Parser;

fn main() -> std::process::ExitCode {
    run::run(&cli::Cli::parse())
}
