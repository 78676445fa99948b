//! Writing the output file: atomically, and never over an input.
//!
//! The bytes go to a new temporary file beside the output, which is then renamed over
//! it: a reader sees the old file or the whole new one, and a run that fails leaves
//! neither a partial output nor the temporary file behind.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Writes `contents` to `path` through a temporary file in the same directory.
pub fn write_atomically(path: &Path, contents: &[u8]) -> io::Result<()> {
    let (temp_path, file) = create_temp_beside(path)?;
    let written = fill(file, contents).and_then(|()| fs::rename(&temp_path, path));
    if written.is_err() {
        let _ = fs::remove_file(&temp_path);
    }
    written
}

fn fill(mut file: File, contents: &[u8]) -> io::Result<()> {
    file.write_all(contents)?;
    file.sync_all()
}

/// A new file named `.NAME.gcnasm-PID-N.tmp` in the directory of `path`.
fn create_temp_beside(path: &Path) -> io::Result<(PathBuf, File)> {
    let name = path.file_name().ok_or_else(|| {
        io::Error::new(io::ErrorKind::InvalidInput, "the output path names no file")
    })?;
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    let mut attempt = 0u32;
    loop {
        let mut temp_name = std::ffi::OsString::from(".");
        temp_name.push(name);
        temp_name.push(format!(".gcnasm-{}-{attempt}.tmp", std::process::id()));
        let temp_path = dir.join(temp_name);
        match OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&temp_path)
        {
            Ok(file) => return Ok((temp_path, file)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists && attempt < 100 => attempt += 1,
            Err(e) => return Err(e),
        }
    }
}

/// Whether two paths name the same file: the same inode when both exist (so links and
/// `./x` versus `x` are seen through), the same text otherwise.
pub fn same_file(a: &Path, b: &Path) -> bool {
    match (fs::metadata(a), fs::metadata(b)) {
        (Ok(ma), Ok(mb)) => same_inode(a, &ma, b, &mb),
        _ => a == b,
    }
}

#[cfg(unix)]
fn same_inode(_: &Path, a: &fs::Metadata, _: &Path, b: &fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    a.dev() == b.dev() && a.ino() == b.ino()
}

#[cfg(not(unix))]
fn same_inode(a: &Path, _: &fs::Metadata, b: &Path, _: &fs::Metadata) -> bool {
    match (fs::canonicalize(a), fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("gcnasm-output-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn entries(dir: &Path) -> Vec<String> {
        let mut names: Vec<_> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn writes_and_replaces_leaving_no_temporary_file() {
        let dir = scratch("replace");
        let out = dir.join("out.bin");
        write_atomically(&out, b"one").unwrap();
        write_atomically(&out, b"two").unwrap();
        assert_eq!(fs::read(&out).unwrap(), b"two");
        assert_eq!(entries(&dir), ["out.bin"]);
        fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_failed_write_leaves_nothing() {
        let dir = scratch("fail");
        let out = dir.join("sub");
        fs::create_dir(&out).unwrap(); // renaming a file over a directory fails
        assert!(write_atomically(&out, b"x").is_err());
        assert_eq!(entries(&dir), ["sub"]);
        assert!(write_atomically(&dir.join("missing/out"), b"x").is_err());
        fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn same_file_sees_through_spellings() {
        let dir = scratch("same");
        let a = dir.join("a.s");
        fs::write(&a, "x").unwrap();
        assert!(same_file(&a, &dir.join(".").join("a.s")));
        assert!(!same_file(&a, &dir.join("b.s")));
        assert!(same_file(Path::new("nope.s"), Path::new("nope.s")));
        fs::remove_dir_all(dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn same_file_sees_through_links() {
        let dir = scratch("links");
        let a = dir.join("a.s");
        fs::write(&a, "x").unwrap();
        std::os::unix::fs::symlink(&a, dir.join("soft.s")).unwrap();
        fs::hard_link(&a, dir.join("hard.s")).unwrap();
        assert!(same_file(&dir.join("soft.s"), &a));
        assert!(same_file(&dir.join("hard.s"), &a));
        fs::remove_dir_all(dir).unwrap();
    }
}
