//! What an assembly is asked to do: format, device, switches and limits.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use gcn_isa::Device;

/// The binary format the source is assembled for (`-b`, `.amd`, `.gallium`, …).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinaryFormat {
    Amd,
    AmdCl2,
    Gallium,
    Rocm,
    Rawcode,
}

impl BinaryFormat {
    pub fn from_name(name: &str) -> Option<BinaryFormat> {
        Some(match name.to_ascii_lowercase().as_str() {
            "amd" => BinaryFormat::Amd,
            "amdcl2" => BinaryFormat::AmdCl2,
            "gallium" => BinaryFormat::Gallium,
            "rocm" => BinaryFormat::Rocm,
            "rawcode" => BinaryFormat::Rawcode,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            BinaryFormat::Amd => "amd",
            BinaryFormat::AmdCl2 => "amdcl2",
            BinaryFormat::Gallium => "gallium",
            BinaryFormat::Rocm => "rocm",
            BinaryFormat::Rawcode => "rawcode",
        }
    }
}

/// Caps that keep a runaway source from hanging the assembler or exhausting memory.
/// Defaults: 1000 nested macro expansions and repetitions and 500 nested includes (the
/// reference's limits), 10,000,000 statements produced by expansions, 1 GiB of output.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Nested macro calls and repetitions.
    pub expansion_depth: u32,
    /// Statements produced by all macro and repetition expansions together.
    pub expanded_statements: u64,
    /// Nested `.include`s (a file including itself stops here).
    pub include_depth: u32,
    /// Bytes of all sections together.
    pub output_size: u64,
    /// Errors: past this many the assembly stops (a runaway repetition with an error
    /// in its body would otherwise fill the memory with millions of them).
    pub errors: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            expansion_depth: 1000,
            expanded_statements: 10_000_000,
            include_depth: 500,
            output_size: 1 << 30,
            errors: 100_000,
        }
    }
}

#[derive(Debug, Clone)]
pub struct Options {
    pub format: BinaryFormat,
    pub device: Device,
    /// Whether the device was given (`-g`/`-A`) rather than defaulted.
    pub device_given: bool,
    pub is64: bool,
    pub wave32: bool,
    /// `-D name[=value]`.
    pub defsyms: Vec<(String, i64)>,
    pub include_dirs: Vec<PathBuf>,
    pub alt_macro: bool,
    /// Macro names are case-insensitive unless `-m` / `.nomacrocase`.
    pub macro_case_insensitive: bool,
    pub buggy_fp_lit: bool,
    pub old_mod_param: bool,
    pub policy: Option<u32>,
    pub driver_version: Option<u32>,
    pub llvm_version: Option<u32>,
    /// `--newROCmBinFormat`: ROCm's new binary format without `.newbinfmt`.
    pub new_rocm_bin_format: bool,
    /// `-S`, `--forceAddSymbols`: every global symbol goes to the binary's symbols
    /// (ROCm: its dynamic symbols, as the reference does).
    pub force_add_symbols: bool,
    /// The reference's test run (`ASM_TESTRUN`, how its conformance corpus was made):
    /// symbols still unresolved at the end are not errors; data waiting for one keeps
    /// 0 with a warning. `gcnasm --emit json` assembles so; a binary never does.
    pub test_run: bool,
    pub limits: Limits,
    /// Where `.include`d and `.incbin`ed files are read: the disk, unless an editor puts
    /// its open buffers first.
    pub files: Files,
    /// The directory relative paths (`.include`, `.incbin`, `-I`) start from, as the
    /// current directory does for `gcnasm`; `None`: the process's current directory.
    pub work_dir: Option<PathBuf>,
    /// Set by another thread to stop the assembly early (an editor's newer edit): the
    /// assembler then stops at the next statement, and the result says it was cancelled.
    pub cancel: Option<Arc<AtomicBool>>,
    /// Whether to record where names are defined and used ([`crate::index`]), for an
    /// editor.
    pub record_symbols: bool,
    /// Encodings to reuse from the last assembly of the same source, and to keep for
    /// the next (an editor's).
    pub encode_cache: Option<crate::encode_cache::SharedEncodeCache>,
    /// Record what the calls and repetitions written there expand to
    /// ([`crate::Assembly::expansion`]), for an editor.
    pub expand: Option<crate::expansion::ExpandRequest>,
    /// Look for registers used while a memory load may still write them
    /// ([`crate::waits`]), for an editor.
    pub check_waits: bool,
    /// Report reads too soon after writes, where the program must give wait states
    /// ([`crate::waits`]), for an editor.
    pub check_nops: bool,
    /// Report registers a kernel reads before its setup or any instruction on the way
    /// writes them ([`crate::waits`]), for an editor.
    pub check_uninitialized: bool,
}

impl Options {
    /// `path` as the assembler reads it: relative paths start from [`Options::work_dir`].
    pub fn resolve(&self, path: &Path) -> PathBuf {
        match &self.work_dir {
            Some(dir) if path.is_relative() => dir.join(path),
            _ => path.to_path_buf(),
        }
    }

    /// The file `.include`/`.incbin` of `path` in the file named `including` reads: as
    /// given (from [`Options::work_dir`]), then in each of the `-I` directories, then
    /// beside the including file; an absolute path as it is. Only a file the loader can
    /// include is found (a regular file, links followed, or an editor's open buffer);
    /// `Err(Some(path))` when no candidate is one but one exists as something else (a
    /// directory, a device, a FIFO: never read, as `/dev/zero` would never end),
    /// `Err(None)` when none exists.
    pub fn find_file(&self, including: &str, path: &str) -> Result<PathBuf, Option<PathBuf>> {
        let normalized = path.replace('\\', "/");
        let p = Path::new(&normalized);
        let candidates: Vec<PathBuf> = if p.is_absolute() {
            vec![p.to_path_buf()]
        } else {
            let beside = Path::new(including).parent().map(|d| d.join(p));
            std::iter::once(p.to_path_buf())
                .chain(self.include_dirs.iter().map(|d| d.join(p)))
                .chain(beside)
                .map(|c| self.resolve(&c))
                .collect()
        };
        let mut not_regular = None;
        for c in candidates {
            if self.files.is_file(&c) {
                return Ok(c);
            }
            if not_regular.is_none() && std::fs::metadata(&c).is_ok() {
                not_regular = Some(c);
            }
        }
        Err(not_regular)
    }

    pub(crate) fn is_cancelled(&self) -> bool {
        self.cancel
            .as_ref()
            .is_some_and(|c| c.load(Ordering::Relaxed))
    }
}

/// Reads the files a source includes.
pub trait FileLoader: Send + Sync {
    /// Whether `path` names a file that can be included (an open buffer, or a regular
    /// file on disk).
    fn is_file(&self, path: &Path) -> bool;
    fn read(&self, path: &Path) -> std::io::Result<Vec<u8>>;

    /// Up to `count` bytes of a file from `offset` (to its end without a count); at
    /// most `limit + 1` bytes, so that a file larger than the output limit is refused
    /// by the assembler without being read whole.
    fn read_part(
        &self,
        path: &Path,
        offset: u64,
        count: Option<u64>,
        limit: u64,
    ) -> std::io::Result<Vec<u8>> {
        let bytes = self.read(path)?;
        let start = usize::try_from(offset)
            .unwrap_or(usize::MAX)
            .min(bytes.len());
        let wanted = count.unwrap_or(u64::MAX).min(limit.saturating_add(1));
        let end = start
            .saturating_add(usize::try_from(wanted).unwrap_or(usize::MAX))
            .min(bytes.len());
        Ok(bytes[start..end].to_vec())
    }
}

/// The disk, through `std::fs`.
pub struct Disk;

impl FileLoader for Disk {
    fn is_file(&self, path: &Path) -> bool {
        path.is_file()
    }

    fn read(&self, path: &Path) -> std::io::Result<Vec<u8>> {
        std::fs::read(path)
    }

    fn read_part(
        &self,
        path: &Path,
        offset: u64,
        count: Option<u64>,
        limit: u64,
    ) -> std::io::Result<Vec<u8>> {
        use std::io::{Read, Seek, SeekFrom};
        let mut file = std::fs::File::open(path)?;
        file.seek(SeekFrom::Start(offset))?;
        let wanted = count.unwrap_or(u64::MAX).min(limit.saturating_add(1));
        let mut bytes = Vec::new();
        file.take(wanted).read_to_end(&mut bytes)?;
        Ok(bytes)
    }
}

/// The [`FileLoader`] of an assembly (the disk by default).
#[derive(Clone)]
pub struct Files(pub Arc<dyn FileLoader>);

impl Default for Files {
    fn default() -> Files {
        Files(Arc::new(Disk))
    }
}

impl std::fmt::Debug for Files {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Files")
    }
}

impl std::ops::Deref for Files {
    type Target = dyn FileLoader;
    fn deref(&self) -> &Self::Target {
        &*self.0
    }
}

impl Default for Options {
    fn default() -> Self {
        Options {
            format: BinaryFormat::Amd,
            device: Device::from_name("CapeVerde").expect("CapeVerde is a device"),
            device_given: false,
            is64: false,
            wave32: false,
            defsyms: Vec::new(),
            include_dirs: Vec::new(),
            alt_macro: false,
            macro_case_insensitive: true,
            buggy_fp_lit: false,
            old_mod_param: false,
            policy: None,
            driver_version: None,
            llvm_version: None,
            new_rocm_bin_format: false,
            force_add_symbols: false,
            test_run: false,
            limits: Limits::default(),
            files: Files::default(),
            work_dir: None,
            cancel: None,
            record_symbols: false,
            encode_cache: None,
            expand: None,
            check_waits: false,
            check_nops: false,
            check_uninitialized: false,
        }
    }
}
