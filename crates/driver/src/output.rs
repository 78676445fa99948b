//! Writing an output: to standard output, a device or pipe, or a file replaced atomically;
//! and the check that an output is not an input.
//!
//! This module depends on nothing else of the crate. Its contract ([`write_output`]):
//!
//! - `-` is standard output;
//! - a symbolic link is followed (through every link) and its target is written; the link
//!   stays;
//! - a regular file, or a path that does not exist yet, is written atomically: the bytes
//!   go to a new temporary file beside it (in the target's directory), which is then
//!   renamed over it, keeping an existing file's permissions (and, where allowed, its
//!   owner). A reader sees the old file or the whole new one, and a failed write leaves
//!   neither a partial output nor the temporary file;
//! - anything else that exists (a character or block device such as `/dev/null`, a FIFO,
//!   a socket, `/dev/stdout`) is opened and written to directly, never replaced; a
//!   directory is an error;
//! - every byte must be written: a full disk or device, a closed pipe, any short write is
//!   an error (the caller exits non-zero).

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// The path that means standard output.
pub const STDOUT_PATH: &str = "-";

/// Whether `path` is `-`, standard output.
pub fn is_stdout(path: &Path) -> bool {
    path.as_os_str() == STDOUT_PATH
}

/// Writes `contents` to `path` as the module documentation says: `-` is standard output,
/// links are followed, regular files and new paths are replaced atomically, anything
/// else is written in place. On error nothing partial is left where a file was replaced.
pub fn write_output(path: &Path, contents: &[u8]) -> io::Result<()> {
    if is_stdout(path) {
        return write_stdout(contents);
    }
    match fs::metadata(path) {
        Ok(meta) if meta.is_dir() => Err(io::Error::other("it is a directory")),
        Ok(meta) if meta.is_file() => {
            let target = resolve_links(path)?;
            // `/dev/stdout` and `/proc/self/fd/N` are links that name no path of the
            // file they lead to: such a file is written in place, not replaced.
            match fs::metadata(&target) {
                Ok(target_meta) if same_inode(path, &meta, &target, &target_meta) => {
                    write_atomically(&target, contents, Some(&meta))
                }
                _ => write_in_place(path, contents, true),
            }
        }
        Ok(_) => write_in_place(path, contents, false),
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            // A new file, or the missing target of a dangling link.
            write_atomically(&resolve_links(path)?, contents, None)
        }
        Err(e) => Err(e),
    }
}

/// Writes `contents` to standard output, every byte, and flushes it.
pub fn write_stdout(contents: &[u8]) -> io::Result<()> {
    let mut stdout = io::stdout().lock();
    stdout.write_all(contents)?;
    stdout.flush()
}

/// Opens an existing file that is not replaced (a device, a FIFO) and writes to it.
fn write_in_place(path: &Path, contents: &[u8], truncate: bool) -> io::Result<()> {
    let mut file = OpenOptions::new()
        .write(true)
        .truncate(truncate)
        .open(path)?;
    file.write_all(contents)?;
    file.flush()
}

/// The path a chain of symbolic links ends at (which may not exist yet).
fn resolve_links(path: &Path) -> io::Result<PathBuf> {
    let mut path = path.to_path_buf();
    // As the kernel's own limit (ELOOP).
    for _ in 0..40 {
        match fs::symlink_metadata(&path) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let target = fs::read_link(&path)?;
                path = match path.parent() {
                    Some(dir) if target.is_relative() => dir.join(target),
                    _ => target,
                };
            }
            _ => return Ok(path),
        }
    }
    Err(io::Error::other("too many levels of symbolic links"))
}

/// Writes `contents` to `path` through a temporary file in the same directory, with the
/// permissions (and owner, where allowed) of `existing`, the file it replaces.
fn write_atomically(
    path: &Path,
    contents: &[u8],
    existing: Option<&fs::Metadata>,
) -> io::Result<()> {
    let (temp_path, file) = create_temp_beside(path)?;
    let written = fill(&file, contents)
        .and_then(|()| match existing {
            Some(meta) => keep_attributes(&file, meta),
            None => Ok(()),
        })
        .and_then(|()| fs::rename(&temp_path, path));
    if written.is_err() {
        let _ = fs::remove_file(&temp_path);
    }
    written
}

fn fill(mut file: &File, contents: &[u8]) -> io::Result<()> {
    file.write_all(contents)?;
    file.sync_all()
}

/// Gives the new file the permissions of the one it replaces, and its owner when the
/// process may (as root); a refused change of owner is not an error.
fn keep_attributes(file: &File, existing: &fs::Metadata) -> io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let _ = std::os::unix::fs::fchown(file, Some(existing.uid()), Some(existing.gid()));
    }
    // After the owner: changing it clears set-user-ID bits.
    file.set_permissions(existing.permissions())
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
        write_output(&out, b"one").unwrap();
        write_output(&out, b"two").unwrap();
        assert_eq!(fs::read(&out).unwrap(), b"two");
        assert_eq!(entries(&dir), ["out.bin"]);
        fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_failed_write_leaves_nothing() {
        let dir = scratch("fail");
        let out = dir.join("sub");
        fs::create_dir(&out).unwrap(); // renaming a file over a directory fails
        assert!(write_output(&out, b"x").is_err());
        assert_eq!(entries(&dir), ["sub"]);
        assert!(write_output(&dir.join("missing/out"), b"x").is_err());
        fs::remove_dir_all(dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn keeps_the_permissions_of_the_file_it_replaces() {
        use std::os::unix::fs::PermissionsExt;
        let dir = scratch("mode");
        let out = dir.join("out.bin");
        fs::write(&out, "old").unwrap();
        fs::set_permissions(&out, fs::Permissions::from_mode(0o640)).unwrap();
        write_output(&out, b"new").unwrap();
        assert_eq!(fs::read(&out).unwrap(), b"new");
        assert_eq!(
            fs::metadata(&out).unwrap().permissions().mode() & 0o7777,
            0o640
        );
        assert_eq!(entries(&dir), ["out.bin"]);
        fs::remove_dir_all(dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn follows_links_and_writes_their_targets() {
        let dir = scratch("follow");
        fs::create_dir(dir.join("real")).unwrap();
        fs::write(dir.join("real/target.bin"), "old").unwrap();
        // A chain of two links, one relative, one absolute.
        std::os::unix::fs::symlink("real/target.bin", dir.join("link1")).unwrap();
        std::os::unix::fs::symlink(dir.join("link1"), dir.join("link2")).unwrap();
        write_output(&dir.join("link2"), b"new").unwrap();
        assert!(fs::symlink_metadata(dir.join("link2"))
            .unwrap()
            .file_type()
            .is_symlink());
        assert!(fs::symlink_metadata(dir.join("link1"))
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(fs::read(dir.join("real/target.bin")).unwrap(), b"new");
        assert_eq!(entries(&dir.join("real")), ["target.bin"]);
        // A dangling link: its target is created.
        std::os::unix::fs::symlink("real/new.bin", dir.join("dangling")).unwrap();
        write_output(&dir.join("dangling"), b"x").unwrap();
        assert!(fs::symlink_metadata(dir.join("dangling"))
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(fs::read(dir.join("real/new.bin")).unwrap(), b"x");
        // A loop of links is an error, and nothing is written.
        std::os::unix::fs::symlink("loop2", dir.join("loop1")).unwrap();
        std::os::unix::fs::symlink("loop1", dir.join("loop2")).unwrap();
        assert!(write_output(&dir.join("loop1"), b"x").is_err());
        fs::remove_dir_all(dir).unwrap();
    }

    /// Makes a FIFO with `mkfifo`, or says why it cannot.
    #[cfg(unix)]
    fn mkfifo(path: &Path) -> bool {
        match std::process::Command::new("mkfifo").arg(path).status() {
            Ok(status) if status.success() => true,
            other => {
                eprintln!("SKIPPED: cannot make a FIFO with mkfifo ({other:?})");
                false
            }
        }
    }

    #[cfg(unix)]
    #[test]
    fn writes_into_a_fifo_without_replacing_it() {
        use std::os::unix::fs::FileTypeExt;
        let dir = scratch("fifo");
        let fifo = dir.join("fifo");
        if !mkfifo(&fifo) {
            return;
        }
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || fs::read(fifo).unwrap())
        };
        write_output(&fifo, b"through the pipe").unwrap();
        assert_eq!(reader.join().unwrap(), b"through the pipe");
        assert!(fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());
        assert_eq!(entries(&dir), ["fifo"]);
        fs::remove_dir_all(dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn writes_into_devices_without_replacing_them() {
        use std::os::unix::fs::FileTypeExt;
        let is_device = |p: &str| {
            fs::symlink_metadata(p)
                .map(|m| m.file_type().is_char_device())
                .unwrap_or(false)
        };
        if is_device("/dev/null") {
            write_output(Path::new("/dev/null"), b"nothing").unwrap();
            assert!(is_device("/dev/null"));
        } else {
            eprintln!("SKIPPED: no /dev/null character device to write to");
        }
        if is_device("/dev/full") {
            let e = write_output(Path::new("/dev/full"), b"too much").unwrap_err();
            assert_eq!(e.raw_os_error(), Some(28), "ENOSPC: {e}");
            assert!(is_device("/dev/full"));
        } else {
            eprintln!("SKIPPED: no /dev/full character device to fill");
        }
    }

    #[test]
    fn a_directory_is_refused() {
        let dir = scratch("dir");
        assert!(write_output(&dir, b"x").is_err());
        assert!(dir.is_dir());
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
