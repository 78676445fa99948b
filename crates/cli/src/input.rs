//! Reading the inputs: files in order, or standard input when there is none.
//!
//! Sources must be UTF-8; the first byte that is not is reported by its offset, so the
//! user can find it (`cmp`, a hex editor). A file that cannot be read is reported with
//! the operating system's message.

use std::fs::File;
use std::io::{self, Read, Seek};
use std::path::PathBuf;

use crate::diagnostics::{file_error, SourceFile};

/// The name errors in standard input are reported under.
pub const STDIN_NAME: &str = "<stdin>";

/// The inputs of an assembly.
pub enum Inputs {
    /// Read whole, in order.
    Files(Vec<SourceFile>),
    /// One regular file, checked to be UTF-8 and then read while it is assembled, so
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
    let cannot_read = |e: io::Error| file_error(&name, &format!("cannot read file: {e}"));
    let mut file = File::open(path).map_err(cannot_read)?;
    if let Some(offset) = first_invalid_utf8(&mut file).map_err(cannot_read)? {
        return Err(file_error(&name, &format!("invalid UTF-8 at byte offset {offset}")));
    }
    file.rewind().map_err(cannot_read)?;
    Ok(Inputs::Stream { name, file })
}

/// The offset of the first byte of `input` that is not UTF-8, reading it in blocks.
fn first_invalid_utf8(input: &mut impl Read) -> io::Result<Option<u64>> {
    let mut block = vec![0u8; 1 << 16];
    // A character cut by the end of a block is carried to the next (at most 3 bytes).
    let mut carried = 0;
    let mut base: u64 = 0;
    loop {
        let read = input.read(&mut block[carried..])?;
        let len = carried + read;
        match std::str::from_utf8(&block[..len]) {
            Ok(_) if read == 0 => return Ok(None),
            Ok(_) => carried = 0,
            Err(e) if e.error_len().is_none() && read > 0 => {
                let valid = e.valid_up_to();
                block.copy_within(valid..len, 0);
                carried = len - valid;
                base += valid as u64;
                continue;
            }
            Err(e) => return Ok(Some(base + e.valid_up_to() as u64)),
        }
        base += len as u64;
    }
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
    fn invalid_utf8_is_found_across_blocks() {
        let check = |bytes: &[u8]| first_invalid_utf8(&mut &bytes[..]).unwrap();
        let mut text = vec![b'a'; (1 << 16) - 1];
        text.extend("\u{e9}\u{20ac}x".as_bytes());
        assert_eq!(check(&text), None);
        let cut = text.len() - 2;
        text.truncate(cut);
        assert_eq!(check(&text), Some((1 << 16) + 1), "a character cut by the end of the file");
        text.push(b'\xff');
        assert_eq!(check(&text), Some((1 << 16) + 1));
        assert_eq!(check(b"s_nop 0\n\xc3\x28"), Some(8));
    }

    #[test]
    fn valid_utf8_is_kept() {
        let file = decode("x.s".into(), "# \u{e9}\n".as_bytes().to_vec()).unwrap();
        assert_eq!(file.text, "# \u{e9}\n");
    }
}
