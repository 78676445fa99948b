//! Reading the inputs: files in order, or standard input when there is none.
//!
//! Sources must be UTF-8; the first byte that is not is reported by its offset, so the
//! user can find it (`cmp`, a hex editor). A file that cannot be read is reported with
//! the operating system's message.

use std::io::{self, Read};
use std::path::PathBuf;

use crate::diagnostics::{file_error, SourceFile};

/// The name errors in standard input are reported under.
pub const STDIN_NAME: &str = "<stdin>";

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
        Ok(bytes) => decode(name, bytes),
        Err(e) => Err(file_error(&name, &format!("cannot read file: {e}"))),
    }
}

fn read_stdin() -> Result<SourceFile, String> {
    let mut bytes = Vec::new();
    match io::stdin().lock().read_to_end(&mut bytes) {
        Ok(_) => decode(STDIN_NAME.to_string(), bytes),
        Err(e) => Err(file_error(
            STDIN_NAME,
            &format!("cannot read standard input: {e}"),
        )),
    }
}

/// The text of a source, or the error naming the offset of its first invalid byte.
pub fn decode(name: String, bytes: Vec<u8>) -> Result<SourceFile, String> {
    match String::from_utf8(bytes) {
        Ok(text) => Ok(SourceFile { name, text }),
        Err(e) => {
            let offset = e.utf8_error().valid_up_to();
            Err(file_error(
                &name,
                &format!("invalid UTF-8 at byte offset {offset}"),
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invalid_utf8_names_the_offset() {
        let err = decode("x.s".into(), b"s_nop 0\n\xc3\x28".to_vec()).unwrap_err();
        assert_eq!(err, "x.s: Error: invalid UTF-8 at byte offset 8");
    }

    #[test]
    fn valid_utf8_is_kept() {
        let file = decode("x.s".into(), "# \u{e9}\n".as_bytes().to_vec()).unwrap();
        assert_eq!(file.text, "# \u{e9}\n");
    }
}
