//! The binary written when a source is saved: byte for byte what `gcnasm` writes with
//! the same arguments (`gcn_driver::output_bytes`), written atomically
//! (`gcn_driver::output`), or nothing at all.
//!
//! Nothing is written for a source with errors (the previous binary stays), nor over
//! the source or a file it includes, nor outside the project's folder.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::analysis::{normalize, Analysis};
use crate::project::FileOptions;

/// Why [`NotWritten::Nothing`], in words.
pub use gcn_driver::NOTHING_TO_WRITE;

/// Why nothing was written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotWritten {
    /// No on-save output is configured.
    NoOutput,
    /// The source makes no binary ([`gcn_driver::NoOutput::Nothing`]): a file written to
    /// be included, say.
    Nothing,
    /// Anything else, in words for the user.
    Refused(String),
}

/// The text a saved source is assembled from: the editor's, unless the file on disk is
/// not UTF-8. Then the editor read it in another encoding (Latin-1, say) and shows other
/// text than `gcnasm` reads from its bytes (a string's `é` is E9 there, C3 A9 here): the
/// saved bytes are read as `gcnasm` reads them, so that the binary is `gcnasm`'s.
pub fn saved_text(path: &Path, editor_text: &Arc<str>) -> Arc<str> {
    match std::fs::read(path) {
        Ok(bytes) if std::str::from_utf8(&bytes).is_err() => {
            Arc::from(gcn_asm::encoding::decode(bytes))
        }
        _ => editor_text.clone(),
    }
}

/// Writes the binary of an analysis of the saved text to the on-save output of
/// `options`; the path written.
pub fn write_output(analysis: &Analysis, options: &FileOptions) -> Result<PathBuf, NotWritten> {
    let Some(output) = options.on_save_output.as_deref() else {
        return Err(NotWritten::NoOutput);
    };
    let refuse = |why: String| {
        Err(NotWritten::Refused(format!(
            "{} not written: {why}",
            output.display()
        )))
    };
    if analysis.cancelled {
        return refuse("the assembly was interrupted".into());
    }
    let errors = analysis
        .assembly
        .diagnostics
        .iter()
        .filter(|d| d.severity == gcn_asm::Severity::Error)
        .count();
    if errors > 0 {
        let plural = if errors == 1 { "" } else { "s" };
        return refuse(format!(
            "{} has {errors} error{plural} (the previous output is left as it was)",
            analysis.path.display()
        ));
    }
    if let Some(problem) = check_output_path(output, analysis, &options.root) {
        return refuse(problem);
    }
    let bytes = match gcn_driver::output_bytes(&analysis.assembly, options.emit()) {
        Ok(bytes) => bytes,
        Err(gcn_driver::NoOutput::Unsupported(message)) => return refuse(message),
        Err(gcn_driver::NoOutput::Nothing) => return Err(NotWritten::Nothing),
        Err(gcn_driver::NoOutput::Binary(errors)) => {
            let first = errors
                .first()
                .map(|e| e.render(&analysis.assembly.sources))
                .unwrap_or_default();
            return refuse(format!("the binary writer refused the program: {first}"));
        }
    };
    if let Some(dir) = output.parent() {
        if let Err(e) = std::fs::create_dir_all(dir) {
            return refuse(format!("cannot create {}: {e}", dir.display()));
        }
    }
    match gcn_driver::output::write_output(output, &bytes) {
        Ok(()) => Ok(output.to_path_buf()),
        Err(e) => refuse(e.to_string()),
    }
}

/// Why `output` may not be written for this source: it is the source or a file it
/// includes, or it lies outside the project's folder `root`.
fn check_output_path(output: &Path, analysis: &Analysis, root: &Path) -> Option<String> {
    let sources =
        std::iter::once(normalize(&analysis.path)).chain(analysis.included.iter().cloned());
    for source in sources {
        if normalize(output) == source || gcn_driver::output::same_file(output, &source) {
            return Some(format!("it is a source file ({})", source.display()));
        }
    }
    let inside = |path: &Path, root: &Path| normalize(path).starts_with(normalize(root));
    let resolved_root = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    let resolved = existing_prefix(output);
    if !inside(output, root) || !(inside(&resolved, &resolved_root) || inside(&resolved, root)) {
        return Some(format!(
            "it is outside the project folder {}",
            root.display()
        ));
    }
    None
}

/// `path` with its longest existing prefix resolved through links.
fn existing_prefix(path: &Path) -> PathBuf {
    let path = normalize(path);
    for ancestor in path.ancestors() {
        if let Ok(real) = ancestor.canonicalize() {
            let rest = path.strip_prefix(ancestor).unwrap_or(Path::new(""));
            return real.join(rest);
        }
    }
    path
}
