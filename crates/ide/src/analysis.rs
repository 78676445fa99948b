//! The analysis of one open source: the assembler core run on the editor's text, with
//! the editor's open buffers before the disk, turned into what the editor shows:
//! diagnostics on the source's own lines, the registers each kernel uses, and the files
//! the source read.
//!
//! [`analyse`] is a plain function of its input, so an editor may run it anywhere (off
//! its message loop) and stop it early through [`AnalysisInput::cancel`] when a newer
//! edit makes it pointless.

use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use gcn_asm::{Assembly, FileLoader, Files, Location};
use gcn_syntax::{Parse, TextRange, TextSize};

use crate::diagnostics::{Diagnostic, Fix, Related, Severity};
use crate::project::{ConfigProblem, FileOptions};
use crate::reg_usage::{kernel_usage, KernelUsage};
use crate::symbol_index::SymbolIndex;

/// The texts of the editor's open documents, by path: what the assembler reads for
/// an `.include`/`.incbin` of an open file, instead of the disk.
#[derive(Debug, Clone, Default)]
pub struct OpenFiles {
    texts: HashMap<PathBuf, Arc<str>>,
}

impl OpenFiles {
    pub fn insert(&mut self, path: &Path, text: Arc<str>) {
        self.texts.insert(normalize(path), text);
    }

    pub fn remove(&mut self, path: &Path) {
        self.texts.remove(&normalize(path));
    }

    pub fn get(&self, path: &Path) -> Option<&Arc<str>> {
        self.texts.get(&normalize(path))
    }
}

impl FileLoader for OpenFiles {
    fn is_file(&self, path: &Path) -> bool {
        self.get(path).is_some() || path.is_file()
    }

    fn read(&self, path: &Path) -> std::io::Result<Vec<u8>> {
        match self.get(path) {
            Some(text) => Ok(text.as_bytes().to_vec()),
            None => std::fs::read(path),
        }
    }
}

/// The text of a source file on disk, read as the assembler reads its includes (bytes
/// that are not UTF-8 kept, see [`gcn_asm::encoding`]), so that positions in it agree.
pub fn read_source(path: &Path) -> std::io::Result<String> {
    std::fs::read(path).map(gcn_asm::encoding::decode)
}

/// `path` with `.` and `a/..` removed, without asking the file system (the open
/// buffers are known by such paths; a link is not followed).
pub fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir if out.file_name().is_some() => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// What one analysis works on.
pub struct AnalysisInput {
    /// The source's path: its name in messages, and where relative includes start.
    pub path: PathBuf,
    pub text: Arc<str>,
    /// The parse of `text`, reused by the assembler.
    pub parse: Parse,
    pub options: FileOptions,
    pub open_files: Arc<OpenFiles>,
    /// Set to stop the analysis early (its result is then [`Analysis::cancelled`]).
    pub cancel: Option<Arc<AtomicBool>>,
    /// Encodings kept from the last analysis of the same source, to reuse.
    pub encode_cache: Option<gcn_asm::encode_cache::SharedEncodeCache>,
}

/// What the editor shows of one source.
pub struct Analysis {
    pub path: PathBuf,
    /// Every diagnostic, placed on the source's own lines (those from included files
    /// and expansions on the line that led there, with the chain as related places).
    pub diagnostics: Vec<Diagnostic>,
    pub kernels: Vec<KernelUsage>,
    /// Every file the assembly read besides the source (includes), normalized.
    pub included: Vec<PathBuf>,
    /// Whether the analysis was stopped before its end: its results are incomplete.
    pub cancelled: bool,
    /// Whether warnings are shown (`-w` not given).
    pub warnings: bool,
    /// Problems of the settings or the project file (also among `diagnostics`, at
    /// the start of the source).
    pub config_problems: Vec<ConfigProblem>,
    /// The project file whose options were used.
    pub project_file: Option<PathBuf>,
    /// Where each name is defined and used.
    pub names: SymbolIndex,
    /// The source's syntax tree (the one analysed).
    pub parse: Parse,
    /// The assembler's options (with the editor's open buffers as files): what finds
    /// an `.include`d file.
    pub asm_options: gcn_asm::Options,
    pub assembly: Assembly,
}

impl Analysis {
    /// The parse of `path`: the source's own, else the text the assembly read for it
    /// parsed anew.
    pub fn parse_of(&self, path: &Path) -> Option<Parse> {
        if normalize(path) == normalize(&self.path) {
            return Some(self.parse.clone());
        }
        self.file_text(path).map(gcn_syntax::parse)
    }

    /// The file `.include`/`.incbin` of `path` written in `including` reads, found as
    /// the assembler finds it.
    pub fn find_include(&self, including: &Path, path: &str) -> Option<PathBuf> {
        self.asm_options
            .find_file(&including.display().to_string(), path)
            .ok()
            .map(|p| normalize(&p))
    }

    /// The diagnostics the assembly made in `path`, a file the source includes, on
    /// that file's own lines (the chain of expansions and includes as related places):
    /// what the included file shows while a source that includes it is open, rather
    /// than its errors assembled alone (a symbol the source defines before the
    /// `.include` is unresolved there).
    pub fn diagnostics_in(&self, path: &Path) -> Vec<Diagnostic> {
        let Some(file) = self.file_id(path).filter(|f| f.0 > 0) else {
            return Vec::new();
        };
        let path = normalize(path);
        let text = &self.assembly.sources.file(file).text;
        let mut out: Vec<Diagnostic> = self
            .assembly
            .diagnostics
            .iter()
            .filter(|d| self.warnings || d.severity != gcn_asm::Severity::Warning)
            .filter(|d| d.location.is_some_and(|l| l.file == file))
            .map(|d| {
                let at = d.location.expect("filtered on its location");
                let related = d
                    .origin
                    .iter()
                    .rev()
                    .map(|(what, loc)| related_at(&self.assembly, loc, what))
                    .collect();
                let range = widen(text, TextRange::at(at.offset.into(), d.len.into()));
                Diagnostic {
                    range,
                    severity: severity_of(d),
                    message: d.message.clone(),
                    related,
                    code: None,
                    fixes: Fix::renames(fix_range(d, range), &d.suggestions),
                }
            })
            .collect();
        out.sort_by_key(|d| (d.range.start(), d.range.end()));
        merge_repeated(out, &path)
    }

    /// The text the assembly read for `path` (the source or an included file).
    pub fn file_text(&self, path: &Path) -> Option<&str> {
        let file = self.file_id(path)?;
        Some(&self.assembly.sources.file(file).text)
    }

    /// The assembler's id of `path`: the source's, or a file it includes.
    pub fn file_id(&self, path: &Path) -> Option<gcn_asm::FileId> {
        let sources = &self.assembly.sources;
        let path = normalize(path);
        (0..sources.len())
            .map(|i| gcn_asm::FileId(i as u32))
            .find(|&f| normalize(Path::new(&sources.file(f).name)) == path)
    }
}

/// Assembles the source as `gcnasm` would with the same arguments, and keeps what the
/// editor shows.
pub fn analyse(input: AnalysisInput) -> Analysis {
    let mut options = input.options.asm_options();
    options.files = Files(input.open_files.clone());
    options.cancel = input.cancel.clone();
    options.record_symbols = true;
    options.check_waits = input.options.check_waits;
    options.check_nops = input.options.check_nops;
    options.check_uninitialized = input.options.check_uninitialized;
    options.encode_cache = input.encode_cache.clone();
    let asm_options = options.clone();
    let name = input.path.display().to_string();
    let assembly = gcn_asm::assemble_parsed(name, input.text.clone(), input.parse.clone(), options);
    let mut diagnostics = Vec::new();
    let warnings = input.options.warnings();
    for d in &assembly.diagnostics {
        if d.severity == gcn_asm::Severity::Warning && !warnings {
            continue;
        }
        diagnostics.push(place(&assembly, d));
    }
    if !assembly.has_errors() && !assembly.cancelled {
        if let Err(gcn_driver::NoOutput::Binary(errors)) =
            gcn_driver::output_bytes(&assembly, input.options.emit())
        {
            diagnostics.extend(errors.iter().map(|d| place(&assembly, d)));
        }
    }
    diagnostics.extend(input.options.problems.iter().map(config_warning));
    for d in &mut diagnostics {
        d.range = widen(&input.text, d.range);
    }
    let names = SymbolIndex::new(&assembly);
    let kernels = kernel_usage(&assembly, &names, &input.path);
    let waves = |sgprs, vgprs| {
        gcn_formats::gpu::waves_per_simd(assembly.generation, assembly.wave32, sgprs, vgprs)
    };
    diagnostics.extend(crate::reg_usage::count_warnings(
        &kernels,
        &input.parse,
        &waves,
    ));
    let checks = [
        (
            &assembly.wait_hazards,
            assembly.more_wait_hazards,
            crate::diagnostics::MISSING_WAITCNT,
            "uses",
        ),
        (
            &assembly.nop_hazards,
            assembly.more_nop_hazards,
            crate::diagnostics::MISSING_NOP,
            "reads",
        ),
    ];
    for (hazards, more, code, what) in checks {
        let mut warnings: Vec<Diagnostic> = hazards
            .iter()
            .map(|h| wait_warning(&assembly, &input.text, h, code))
            .collect();
        if let Some(last) = warnings.last_mut().filter(|_| more > 0) {
            last.message.push_str(&format!(
                " ({more} more such {what} in this source are not shown)"
            ));
        }
        diagnostics.extend(warnings);
    }
    diagnostics.extend(uninitialized_reads(&assembly));
    if assembly.checks_skipped {
        diagnostics.push(Diagnostic {
            range: TextRange::empty(TextSize::from(0)),
            severity: Severity::Information,
            message: format!(
                "the editor's checks (s_waitcnt, s_nop, registers read before a write) are off for this source: it assembles to more than {} instructions",
                gcn_asm::waits::MAX_CHECKED
            ),
            related: Vec::new(),
            code: Some(crate::diagnostics::CHECKS_SKIPPED),
            fixes: Vec::new(),
        });
    }
    diagnostics.extend(needless_waits(&assembly, &input.text));
    diagnostics.extend(crate::inactive_branches::inactive_branches(
        &assembly,
        &input.text,
    ));
    diagnostics.sort_by_key(|d| (d.range.start(), d.range.end()));
    let diagnostics = merge_repeated(diagnostics, &input.path);
    let included = (1..assembly.sources.len())
        .map(|i| {
            normalize(Path::new(
                &assembly.sources.file(gcn_asm::FileId(i as u32)).name,
            ))
        })
        .collect();
    Analysis {
        path: input.path,
        diagnostics,
        kernels,
        included,
        cancelled: assembly.cancelled,
        warnings,
        config_problems: input.options.problems.clone(),
        project_file: input.options.project_file.clone(),
        names,
        parse: input.parse.clone(),
        asm_options,
        assembly,
    }
}

/// A register used while a load may still write it (or written while a store or export
/// may still read it, or read too soon after a write): the use's warning (with `code`),
/// the memory operation (or the write) as a related place, and where the use is a line of the source itself, a quick fix that
/// writes the wait before it.
fn wait_warning(
    assembly: &Assembly,
    text: &str,
    hazard: &gcn_asm::waits::WaitHazard,
    code: &'static str,
) -> Diagnostic {
    let mut d = place(assembly, &hazard.diagnostic);
    d.code = Some(code);
    let what = format!("the {}", hazard.operation);
    let mut load = related_at(assembly, &hazard.load, &what);
    load.range = TextRange::at(hazard.load.offset.into(), hazard.load_len.into());
    d.related.insert(0, load);
    let use_at = hazard.diagnostic.location.filter(|l| l.file == SOURCE);
    if let Some(at) = use_at.filter(|_| hazard.diagnostic.origin.is_empty()) {
        let offset = (at.offset as usize).min(text.len());
        let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
        let line = &text[line_start..];
        let indent = &line[..line.len() - line.trim_start_matches([' ', '\t']).len()];
        // One line or more (a wait, then VCC written again).
        let lines: Vec<&str> = hazard.wait.lines().collect();
        let mut replacement: String = lines.iter().map(|l| format!("{indent}{l}\n")).collect();
        let (place, at) = if hazard.after {
            // After the line's end; a last line without one gets it first.
            match line.find('\n') {
                Some(end) => ("after", line_start + end + 1),
                None => {
                    replacement.insert(0, '\n');
                    replacement.pop();
                    ("after", text.len())
                }
            }
        } else {
            ("before", line_start)
        };
        d.fixes.push(Fix {
            title: format!("Insert `{}` {place} this line", lines.join("`, `")),
            range: TextRange::empty(TextSize::from(at as u32)),
            replacement,
        });
    }
    d
}

/// The registers read before anything writes them (code
/// [`crate::diagnostics::UNINITIALIZED_REGISTER`]), the last saying how many more there
/// are.
fn uninitialized_reads(assembly: &Assembly) -> Vec<Diagnostic> {
    let mut found: Vec<Diagnostic> = assembly
        .uninitialized_reads
        .iter()
        .map(|d| {
            let mut d = place(assembly, d);
            d.code = Some(crate::diagnostics::UNINITIALIZED_REGISTER);
            d
        })
        .collect();
    let more = assembly.more_uninitialized_reads;
    if let Some(last) = found.last_mut().filter(|_| more > 0) {
        last.message.push_str(&format!(
            " ({more} more such reads in this source are not shown)"
        ));
    }
    found
}

/// The `s_waitcnt` lines of the source that never wait, on every run (code
/// [`crate::diagnostics::NEEDLESS_WAITCNT`]), the first [`gcn_asm::waits::MAX_HAZARDS`],
/// each with a quick fix that takes the line out when the wait is all it holds; none
/// while the source has errors.
fn needless_waits(assembly: &Assembly, text: &str) -> Vec<Diagnostic> {
    // An instruction that did not assemble may be a memory operation.
    if assembly.has_errors() {
        return Vec::new();
    }
    // A line of a macro or repetition runs several times: it is needless if it is on each.
    let mut waits: std::collections::BTreeMap<u32, (u32, bool)> = Default::default();
    for effect in assembly.wait_effects.iter().filter(|e| e.at.file == SOURCE) {
        let entry = waits.entry(effect.at.offset).or_insert((effect.len, true));
        entry.1 &= effect.needless;
    }
    waits
        .into_iter()
        .filter(|&(_, (_, needless))| needless)
        .take(gcn_asm::waits::MAX_HAZARDS)
        .map(|(offset, (len, _))| {
            let range = TextRange::at(offset.into(), len.into());
            Diagnostic {
                range,
                severity: Severity::Hint,
                message: "this wait never waits: no more memory operations than its counts \
                          allow can be in flight here, on any path the wait check follows"
                    .to_string(),
                related: Vec::new(),
                code: Some(crate::diagnostics::NEEDLESS_WAITCNT),
                fixes: remove_line(text, range).into_iter().collect(),
            }
        })
        .collect()
}

/// The fix that takes out the line of the statement at `range`, if the line holds
/// nothing else (a label or comment on it stays where it is).
fn remove_line(text: &str, range: TextRange) -> Option<Fix> {
    let (start, end) = (usize::from(range.start()), usize::from(range.end()));
    let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[end..].find('\n').map_or(text.len(), |i| end + i + 1);
    let blank = |s: &str| s.trim_matches([' ', '\t', '\r', '\n']).is_empty();
    if !blank(&text[line_start..start]) || !blank(&text[end..line_end]) {
        return None;
    }
    Some(Fix {
        title: "Remove this wait".to_string(),
        range: TextRange::new((line_start as u32).into(), (line_end as u32).into()),
        replacement: String::new(),
    })
}

/// A problem of the settings or project file, shown at the start of the source too
/// (the project file itself is not a document the editor asked about).
fn config_warning(problem: &ConfigProblem) -> Diagnostic {
    let (what, related) = match &problem.file {
        Some(file) => {
            let range = problem.range.unwrap_or_default();
            let related = Related {
                file: file.clone(),
                range,
                message: problem.message.clone(),
            };
            (
                format!("{} (its options are not used)", file.display()),
                vec![related],
            )
        }
        None => (
            "the editor's gcn settings (their args are not used)".to_string(),
            Vec::new(),
        ),
    };
    Diagnostic {
        range: TextRange::default(),
        severity: Severity::Warning,
        message: format!("{what}: {}", problem.message),
        related,
        code: Some(crate::diagnostics::PROJECT_OPTIONS),
        fixes: Vec::new(),
    }
}

/// An empty range made to cover the word at its start (a name, a number), else the
/// character there, so that an editor has something to underline; a range that is not
/// empty, or at the end of a line, is kept.
fn widen(text: &str, range: TextRange) -> TextRange {
    let start = usize::from(range.start());
    if !range.is_empty() || start >= text.len() || !text.is_char_boundary(start) {
        return range;
    }
    let rest = &text[start..];
    let word = |c: char| c.is_alphanumeric() || matches!(c, '_' | '.' | '$' | ':');
    let len = match rest.find(|c: char| !word(c)) {
        Some(0) => rest
            .chars()
            .next()
            .filter(|&c| c != '\n' && c != '\r')
            .map_or(0, char::len_utf8),
        Some(n) => n,
        None => rest.len(),
    };
    TextRange::at(range.start(), TextSize::from(len as u32))
}

/// One diagnostic for each place and message: a line in a `.rept` of 100,000 gives the
/// same error 100,000 times (as many lines of `gcnasm`'s output), which would flood the
/// editor. The first is kept, its message unchanged; a related place says how many there
/// were, and the chains of the first [`CHAINS_SHOWN`] follow (the macro calls that led to
/// one line of the macro, say). `diagnostics` (of the source at `path`) is sorted by range.
fn merge_repeated(diagnostics: Vec<Diagnostic>, path: &Path) -> Vec<Diagnostic> {
    let mut out: Vec<Diagnostic> = Vec::with_capacity(diagnostics.len());
    let mut counts: Vec<usize> = Vec::with_capacity(diagnostics.len());
    // The diagnostics of one range are adjacent: the same ones are found among them.
    let mut range_start = 0;
    for d in diagnostics {
        if out.last().is_some_and(|last| last.range != d.range) {
            range_start = out.len();
        }
        let same =
            |o: &Diagnostic| o.severity == d.severity && o.message == d.message && o.code == d.code;
        match out[range_start..].iter().position(same) {
            Some(i) => {
                let (first, n) = (&mut out[range_start + i], &mut counts[range_start + i]);
                *n += 1;
                if *n <= CHAINS_SHOWN {
                    first.related.extend(d.related);
                }
            }
            None => {
                out.push(d);
                counts.push(1);
            }
        }
    }
    for (d, n) in out.iter_mut().zip(counts) {
        if n > 1 {
            let which = if n > CHAINS_SHOWN {
                format!(", the first {CHAINS_SHOWN}")
            } else {
                String::new()
            };
            let message =
                format!("reported {n} times at this place (how each came about follows{which})");
            d.related.insert(
                0,
                Related {
                    file: path.to_path_buf(),
                    range: d.range,
                    message,
                },
            );
        }
    }
    out
}

/// How many of a repeated diagnostic's chains of expansions are listed.
const CHAINS_SHOWN: usize = 10;

/// A place of the chain that led to a diagnostic.
fn related_at(assembly: &Assembly, loc: &Location, message: &str) -> Related {
    Related {
        file: PathBuf::from(&assembly.sources.file(loc.file).name),
        range: TextRange::empty(TextSize::from(loc.offset)),
        message: message.to_string(),
    }
}

/// What the quick fixes of `d` (shown at `range`) replace: the name its suggestions are
/// for, which may be part of the range.
fn fix_range(d: &gcn_asm::Diagnostic, range: TextRange) -> TextRange {
    d.suggestion_at.map_or(range, |(offset, len)| {
        TextRange::at(offset.into(), len.into())
    })
}

/// The file of the source itself in an assembly.
pub(crate) const SOURCE: gcn_asm::FileId = gcn_asm::FileId(0);

/// A core diagnostic on the source's lines: where it is when that is in the source,
/// else where the source led to it (the outermost call site or include in the
/// source); the place itself and the chain of expansions become related places.
fn place(assembly: &Assembly, d: &gcn_asm::Diagnostic) -> Diagnostic {
    let related_at = |loc: &Location, message: &str| related_at(assembly, loc, message);
    let mut related: Vec<Related> = Vec::new();
    let mut fixes = Vec::new();
    let range = match d.location {
        Some(loc) if loc.file == SOURCE => {
            let range = TextRange::at(loc.offset.into(), d.len.into());
            // The quick fixes replace the name at its own place, not at a line leading there.
            fixes = Fix::renames(fix_range(d, range), &d.suggestions);
            range
        }
        Some(loc) => {
            let mut place = related_at(&loc, "the error is here");
            place.range = TextRange::at(loc.offset.into(), d.len.into());
            related.push(place);
            // The outermost frame in the source is where the user's line led here.
            d.origin
                .iter()
                .find(|(_, l)| l.file == SOURCE)
                .map_or(TextRange::default(), |(_, l)| {
                    TextRange::empty(l.offset.into())
                })
        }
        None => TextRange::default(),
    };
    related.extend(
        d.origin
            .iter()
            .rev()
            .map(|(what, loc)| related_at(loc, what)),
    );
    Diagnostic {
        range,
        severity: severity_of(d),
        message: d.message.clone(),
        related,
        code: None,
        fixes,
    }
}

fn severity_of(d: &gcn_asm::Diagnostic) -> Severity {
    match d.severity {
        gcn_asm::Severity::Error => Severity::Error,
        gcn_asm::Severity::Warning => Severity::Warning,
    }
}

#[cfg(test)]
mod tests {
    use std::fmt::Write;

    use super::*;
    use crate::project::{options_with_project, Settings};
    use crate::test_util::{analyse_case, check_dir_files, range_text};

    /// Analyses `test_data/analysis/NAME.s` from disk (its includes too), with the
    /// arguments of its first line (`# args: ...`).
    fn render(path: &Path, text: &str) -> String {
        let analysis = analyse_case(path, text);
        let dir = path.parent().unwrap();
        let mut out = String::new();
        for d in &analysis.diagnostics {
            let code = d.code.map(|c| format!(" [{c}]")).unwrap_or_default();
            writeln!(
                out,
                "{:?}{code} {}: {}",
                d.severity,
                range_text(text, d.range),
                d.message
            )
            .unwrap();
            for r in &d.related {
                let file = r.file.strip_prefix(dir).unwrap_or(&r.file);
                writeln!(
                    out,
                    "    related {}@{}: {}",
                    file.display(),
                    u32::from(r.range.start()),
                    r.message
                )
                .unwrap();
            }
        }
        for k in &analysis.kernels {
            writeln!(
                out,
                "kernel {} at {}: {} ({k:?})",
                k.name,
                range_text(text, k.range),
                k.label()
            )
            .unwrap();
        }
        for f in &analysis.included {
            writeln!(
                out,
                "included {}",
                f.strip_prefix(dir).unwrap_or(f).display()
            )
            .unwrap();
        }
        for o in &analysis.names.occurrences {
            let what = if o.definition { "def" } else { "use" };
            let place = if *o.file == *path {
                range_text(text, o.range)
            } else {
                format!(
                    "{}@{:?}",
                    o.file.strip_prefix(dir).unwrap_or(&o.file).display(),
                    o.range
                )
            };
            writeln!(out, "{what} {:?} {} at {place}", o.kind, o.name).unwrap();
        }
        if out.is_empty() {
            out.push_str("nothing to show\n");
        }
        out
    }

    #[test]
    fn analysis_snapshots() {
        check_dir_files("analysis", render);
    }

    /// The warnings about registers used while a load may still write them, with the
    /// load and the quick fix.
    fn render_waits(path: &Path, text: &str) -> String {
        use crate::diagnostics::{MISSING_WAITCNT, NEEDLESS_WAITCNT};
        render_code(path, text, &[MISSING_WAITCNT, NEEDLESS_WAITCNT])
    }

    /// The diagnostics with one of `codes`, with their related places and quick fixes,
    /// and the errors.
    fn render_code(path: &Path, text: &str, codes: &[&str]) -> String {
        let analysis = analyse_case(path, text);
        let mut out = String::new();
        for d in &analysis.diagnostics {
            if !d.code.is_some_and(|c| codes.contains(&c)) {
                if d.severity == Severity::Error {
                    writeln!(out, "error {}: {}", range_text(text, d.range), d.message).unwrap();
                }
                continue;
            }
            writeln!(out, "{}: {}", range_text(text, d.range), d.message).unwrap();
            for r in &d.related {
                writeln!(out, "    {}: {}", r.message, range_text(text, r.range)).unwrap();
            }
            for f in &d.fixes {
                writeln!(out, "    fix {}: {:?}", f.title, f.replacement).unwrap();
            }
        }
        out
    }

    #[test]
    fn wait_snapshots() {
        check_dir_files("waitcnt", render_waits);
    }

    #[test]
    fn uninitialized_register_snapshots() {
        check_dir_files("uninitialized", |path, text| {
            render_code(path, text, &[crate::diagnostics::UNINITIALIZED_REGISTER])
        });
    }

    #[test]
    fn inactive_branch_snapshots() {
        check_dir_files("inactive", |path, text| {
            render_code(path, text, &[crate::diagnostics::INACTIVE_BRANCH])
        });
    }

    /// What LLVM 14 compiled (scripts/llvm-codegen): its waits and nops are where the
    /// hardware needs them, so no `missing-*` warning is expected there (the snapshots
    /// hold the waits LLVM writes more than needed, and at -O0 a spill of a VGPR
    /// nothing wrote).
    #[test]
    fn llvm_codegen_snapshots() {
        use crate::diagnostics::UNINITIALIZED_REGISTER;
        use crate::diagnostics::{MISSING_NOP, MISSING_WAITCNT, NEEDLESS_WAITCNT};
        check_dir_files("llvm_codegen", |path, text| {
            let codes = [
                MISSING_WAITCNT,
                MISSING_NOP,
                UNINITIALIZED_REGISTER,
                NEEDLESS_WAITCNT,
            ];
            render_code(path, text, &codes)
        });
    }

    #[test]
    fn nop_snapshots() {
        check_dir_files("nops", |path, text| {
            render_code(path, text, &[crate::diagnostics::MISSING_NOP])
        });
    }

    /// 105 repetitions of `pair` give the first 100 warnings with `code`, the last
    /// saying how many more there are.
    fn check_a_hundred_shown(pair: &str, code: &str, more: &str) {
        let text: String = (0..105).map(|_| pair).collect();
        let path = PathBuf::from("/nonexistent/many.s");
        let analysis = analyse_case(&path, &format!("# args: -b rawcode -g Tonga\n{text}"));
        let shown: Vec<_> = analysis
            .diagnostics
            .iter()
            .filter(|d| d.code == Some(code))
            .collect();
        assert_eq!(shown.len(), gcn_asm::waits::MAX_HAZARDS);
        let last = &shown[99].message;
        assert!(last.ends_with(more), "{last}");
    }

    #[test]
    fn at_most_a_hundred_missing_nops_are_shown() {
        check_a_hundred_shown(
            "v_readfirstlane_b32 s4, v1\nbuffer_store_dword v1, v0, s[8:11], s4 offen\n",
            crate::diagnostics::MISSING_NOP,
            "(5 more such reads in this source are not shown)",
        );
    }

    #[test]
    fn at_most_a_hundred_waits_are_shown() {
        check_a_hundred_shown(
            "s_load_dword s4, s[0:1], 0\ns_add_u32 s5, s4, 1\n",
            crate::diagnostics::MISSING_WAITCNT,
            "(5 more such uses in this source are not shown)",
        );
    }

    #[test]
    fn the_wait_check_can_be_turned_off() {
        let text = "s_load_dword s4, s[0:1], 0\ns_add_u32 s5, s4, 1\n";
        let path = PathBuf::from("/nonexistent/w.s");
        let analysed = |waitcnt: bool| {
            let settings = Settings {
                args: vec!["-brawcode".into(), "-gTonga".into()],
                checks: crate::project::Checks {
                    waitcnt,
                    ..Default::default()
                },
                ..Settings::default()
            };
            let analysis = analyse(AnalysisInput {
                path: path.clone(),
                text: text.into(),
                parse: gcn_syntax::parse(text),
                options: options_with_project(&path, &settings, None),
                open_files: Arc::default(),
                cancel: None,
                encode_cache: None,
            });
            analysis
                .diagnostics
                .iter()
                .filter(|d| d.code == Some(crate::diagnostics::MISSING_WAITCNT))
                .count()
        };
        assert_eq!(analysed(true), 1);
        assert_eq!(analysed(false), 0);
    }

    #[test]
    fn open_buffers_win_over_the_disk() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data/analysis");
        let mut open = OpenFiles::default();
        open.insert(
            &dir.join("include/./helpers.s"),
            ".macro bump reg\n        s_frobnicate\n.endm\n.macro broken r\n.endm\n".into(),
        );
        let text = ".include \"include/helpers.s\"\nbump v1\n";
        let path = dir.join("buffer.s");
        let analysis = analyse(AnalysisInput {
            path: path.clone(),
            text: text.into(),
            parse: gcn_syntax::parse(text),
            options: options_with_project(
                &path,
                &Settings {
                    args: vec!["-brawcode".into()],
                    ..Settings::default()
                },
                None,
            ),
            open_files: Arc::new(open),
            cancel: None,
            encode_cache: None,
        });
        let messages: Vec<_> = analysis
            .diagnostics
            .iter()
            .map(|d| (range_text(text, d.range), d.message.clone()))
            .collect();
        assert_eq!(messages.len(), 1, "{messages:?}");
        assert!(messages[0].0.starts_with("2:0"), "{messages:?}");
        assert!(messages[0].1.contains("s_frobnicate"), "{messages:?}");
    }

    #[test]
    fn a_cancelled_analysis_says_so() {
        let text = ".rept 100000\ns_nop 0\n.endr\n";
        let path = PathBuf::from("/nonexistent/c.s");
        let analysis = analyse(AnalysisInput {
            path: path.clone(),
            text: text.into(),
            parse: gcn_syntax::parse(text),
            options: options_with_project(&path, &Settings::default(), None),
            open_files: Arc::default(),
            cancel: Some(Arc::new(AtomicBool::new(true))),
            encode_cache: None,
        });
        assert!(analysis.cancelled);
    }
}
