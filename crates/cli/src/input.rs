//! Reading the inputs: files in order, or standard input when there is none.
//!
//! Sources are read as bytes, as CLRX reads them: UTF-8 as it is, any other byte (a
//! Latin-1 comment, a byte in a string) kept as a raw byte ([`gcn_asm::encoding`]). A
//! file that cannot be read is reported with the operating system's message.

use std::fs::File;
use std::io::{self, Read};
use std::path::PathBuf;

use crate::diagnostics::{file_error, SourceFile};

/// The name errors in standard input are reported under.
pub const STDIN_NAME: &str = "<stdin>";

/// The inputs of an assembly.
pub enum Inputs {
    /// Read whole, in order.
    Files(Vec<SourceFile>),
    /// One regular file, read while it is assembled, so
    /// that a long source is never held in memory whole.
    Stream { name: String, file: File },
}

/// The inputs for assembling: one regular file as a stream, else every input read.
pub fn open_all(paths: &[PathBuf]) -> Result<Inputs, Vec<String>> {
    match paths {
        [path] if path.is_file() => open_stream(path).map_err(|e| vec![e]),
        _ => read_all(paths).map(Inputs::Files),
    }
}

fn open_stream(path: &PathBuf) -> Result<Inputs, String> {
    let name = path.display().to_string();
    let file =
        File::open(path).map_err(|e| file_error(&name, &format!("cannot read file: {e}")))?;
    Ok(Inputs::Stream { name, file })
}

/// Reads every input, in order. On failure, one message per input that failed.
pub fn read_all(paths: &[PathBuf]) -> Result<Vec<SourceFile>, Vec<String>> {
    let read: Vec<_> = if paths.is_empty() {
        vec![read_stdin()]
    } else {
        paths.iter().map(read_file).collect()
    };
    let errors: Vec<String> = read
        .iter()
        .filter_map(|r| r.as_ref().err().cloned())
        .collect();
    if errors.is_empty() {
        Ok(read.into_iter().flatten().collect())
    } else {
        Err(errors)
    }
}

fn read_file(path: &PathBuf) -> Result<SourceFile, String> {
    let name = path.display().to_string();
    match std::fs::read(path) {
        Ok(bytes) => Ok(decode(name, bytes)),
        Err(e) => Err(file_error(&name, &format!("cannot read file: {e}"))),
    }
}

fn read_stdin() -> Result<SourceFile, String> {
    let mut bytes = Vec::new();
    match io::stdin().lock().read_to_end(&mut bytes) {
        Ok(_) => Ok(decode(STDIN_NAME.to_string(), bytes)),
        Err(e) => Err(file_error(
            STDIN_NAME,
            &format!("cannot read standard input: {e}"),
        )),
    }
}

/// The text of a source.
pub fn decode(name: String, bytes: Vec<u8>) -> SourceFile {
    SourceFile {
        name,
        text: gcn_asm::encoding::decode(bytes),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_that_are_not_utf8_are_kept() {
        let file = decode("x.s".into(), b"s_nop 0\n# \xe9\n".to_vec());
        let raw: Vec<u8> = file
            .text
            .chars()
            .filter_map(gcn_asm::encoding::raw_byte)
            .collect();
        assert_eq!(raw, vec![0xe9]);
    }

    #[test]
    fn valid_utf8_is_kept() {
        let file = decode("x.s".into(), "# \u{e9}\n".as_bytes().to_vec());
        assert_eq!(file.text, "# \u{e9}\n");
    }
}
