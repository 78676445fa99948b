//! The options of a source: what the editor's settings say, then the project file
//! `gcn.toml` in the source's folder or the nearest parent, then (inside the assembly)
//! what the source itself says (`.gpu`, `.amdcl2`, …). Later wins.
//!
//! Arguments are `gcnasm`'s own, parsed by the same code (`gcn_driver::Cli`), so they
//! mean exactly what they mean on the command line. The effective command line is the
//! settings' `args`, then the project's `args`, then the `args` of the first `[[files]]`
//! entry whose `match` the source matches: an option given twice keeps its last value,
//! `-D` and `-I` accumulate, as in `gcnasm`.
//!
//! ```toml
//! args = ["-g", "Tonga", "-b", "amdcl2", "-I", "include"]
//! [on-save]
//! output = "build/{stem}.bin"      # relative to the folder of gcn.toml
//! [[files]]
//! match = "gallium/*.s"            # relative to the folder of gcn.toml
//! args = ["-b", "gallium", "-g", "Pitcairn"]
//! ```
//!
//! A project file that cannot be read or understood is reported ([`ConfigProblem`]) and
//! left out: the source gets the editor's settings alone.

use std::path::{Path, PathBuf};

use gcn_driver::{Cli, EmitKind};
use gcn_syntax::TextRange;
use serde::Deserialize;

/// The name of the project file.
pub const PROJECT_FILE: &str = "gcn.toml";

/// What the editor's settings say (LSP `initializationOptions` and
/// `workspace/didChangeConfiguration`): `{"args": [...], "onSave": {"output": "..."},
/// "diagnosticsDelay": MS, "checks": {"waitcnt": BOOL, "nops": BOOL, "uninitialized": BOOL}}`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Settings {
    pub args: Vec<String>,
    pub on_save: OnSave,
    /// Milliseconds without changes before diagnostics are computed; `None`: the
    /// server's default.
    pub diagnostics_delay: Option<u64>,
    pub checks: Checks,
}

/// The editor's own checks, beyond what `gcnasm` reports.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(default)]
pub struct Checks {
    /// A register used while a memory load may still write it (`missing-waitcnt`).
    pub waitcnt: bool,
    /// A register read too soon after a write, without the wait states the hardware
    /// needs (`missing-nop`).
    pub nops: bool,
    /// A register a kernel reads before its setup or any instruction on the way
    /// writes it (`uninitialized-register`).
    pub uninitialized: bool,
}

impl Default for Checks {
    fn default() -> Checks {
        Checks {
            waitcnt: true,
            nops: true,
            uninitialized: true,
        }
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(default)]
pub struct OnSave {
    /// Where the binary goes on save; `{stem}` is the source's name without its
    /// extension, `{name}` its whole name. Relative to the project's folder.
    pub output: Option<String>,
}

/// The project file, as written.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct ProjectFile {
    #[serde(default)]
    args: Vec<String>,
    #[serde(rename = "on-save", default)]
    on_save: OnSave,
    #[serde(default)]
    files: Vec<FilesEntry>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct FilesEntry {
    #[serde(rename = "match")]
    pattern: String,
    #[serde(default)]
    args: Vec<String>,
}

/// Something wrong with the settings or a project file: where (the project file, with
/// a range of its text when known; `None` for the editor's settings) and what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigProblem {
    pub file: Option<PathBuf>,
    pub range: Option<TextRange>,
    pub message: String,
}

/// Everything that decides how one source is assembled and saved.
#[derive(Debug, Clone)]
pub struct FileOptions {
    /// The command line in effect (without input files).
    pub args: Vec<String>,
    pub cli: Cli,
    /// The folder relative paths start from: the project file's, else the source's.
    pub root: PathBuf,
    /// The project file used, if any.
    pub project_file: Option<PathBuf>,
    /// Where to write the binary on save, resolved.
    pub on_save_output: Option<PathBuf>,
    pub problems: Vec<ConfigProblem>,
    /// Whether the editor looks for registers used while a load may still write them.
    pub check_waits: bool,
    /// Whether it looks for reads too soon after writes.
    pub check_nops: bool,
    /// Whether it looks for registers read before anything writes them.
    pub check_uninitialized: bool,
}

impl FileOptions {
    /// The assembler core's options (files from disk; the caller sets a loader).
    pub fn asm_options(&self) -> gcn_asm::Options {
        let mut options = gcn_driver::options(&self.cli);
        options.work_dir = Some(self.root.clone());
        options
    }

    /// Whether warnings are shown (`-w` silences them).
    pub fn warnings(&self) -> bool {
        !self.cli.no_warnings
    }

    pub fn emit(&self) -> Option<EmitKind> {
        self.cli.emit
    }
}

/// The project file that applies to `source`: `gcn.toml` in its folder or the nearest
/// parent.
pub fn find_project_file(source: &Path) -> Option<PathBuf> {
    source
        .ancestors()
        .skip(1)
        .map(|dir| dir.join(PROJECT_FILE))
        .find(|p| p.is_file())
}

/// The options of `source` under `settings`, reading its project file from disk.
pub fn file_options(source: &Path, settings: &Settings) -> FileOptions {
    let project_file = find_project_file(source);
    let project = project_file
        .as_ref()
        .map(|path| (path.clone(), std::fs::read_to_string(path)));
    match project {
        Some((path, Ok(text))) => options_with_project(source, settings, Some((&path, &text))),
        Some((path, Err(e))) => {
            let mut options = options_with_project(source, settings, None);
            options.problems.push(ConfigProblem {
                file: Some(path),
                range: None,
                message: format!("cannot read: {e}"),
            });
            options
        }
        None => options_with_project(source, settings, None),
    }
}

/// The options of `source` under `settings` and a project file (its path and text).
pub fn options_with_project(
    source: &Path,
    settings: &Settings,
    project: Option<(&Path, &str)>,
) -> FileOptions {
    let source_dir = source.parent().unwrap_or(Path::new(".")).to_path_buf();
    let mut problems = Vec::new();
    let base =
        command_line(&settings.args, None, &mut problems).map(|cli| (settings.args.clone(), cli));
    let (mut args, mut cli) = base.unwrap_or_else(|| (Vec::new(), default_cli()));
    let mut root = source_dir.clone();
    let mut on_save = settings.on_save.output.clone();
    let mut used_project = None;
    if let Some((path, text)) = project {
        let dir = path.parent().unwrap_or(Path::new(".")).to_path_buf();
        match parse_project(path, text, source, &dir) {
            Ok((extra, output)) => {
                let combined: Vec<String> = args.iter().chain(&extra).cloned().collect();
                if let Some(parsed) = command_line(&combined, Some((path, text)), &mut problems) {
                    args = combined;
                    cli = parsed;
                    root = dir;
                    on_save = output.or(on_save);
                    used_project = Some(path.to_path_buf());
                }
            }
            Err(problem) => problems.push(problem),
        }
    }
    let on_save_output = on_save.map(|template| root.join(expand_output(&template, source)));
    FileOptions {
        args,
        cli,
        root,
        project_file: used_project,
        on_save_output,
        problems,
        check_waits: settings.checks.waitcnt,
        check_nops: settings.checks.nops,
        check_uninitialized: settings.checks.uninitialized,
    }
}

/// The project file's arguments for `source` (its own, then those of the first
/// `[[files]]` entry that matches) and its on-save output.
fn parse_project(
    path: &Path,
    text: &str,
    source: &Path,
    dir: &Path,
) -> Result<(Vec<String>, Option<String>), ConfigProblem> {
    let project: ProjectFile = toml::from_str(text).map_err(|e| ConfigProblem {
        file: Some(path.to_path_buf()),
        range: e
            .span()
            .map(|s| TextRange::new((s.start as u32).into(), (s.end as u32).into())),
        message: e.message().to_string(),
    })?;
    let mut args = project.args;
    let relative = source.strip_prefix(dir).unwrap_or(source);
    for entry in &project.files {
        let glob = globset::GlobBuilder::new(&entry.pattern)
            .literal_separator(true)
            .build()
            .map_err(|e| ConfigProblem {
                file: Some(path.to_path_buf()),
                range: find_text(text, &entry.pattern),
                message: format!("bad `match` pattern: {e}"),
            })?;
        if glob.compile_matcher().is_match(relative) {
            args.extend(entry.args.iter().cloned());
            break;
        }
    }
    Ok((args, project.on_save.output))
}

/// Parses `args` as `gcnasm`'s command line; input files and `-o` have no place in
/// the settings (the editor assembles the open source, and writes on save where
/// `on-save.output` says), so they are reported and the arguments refused.
fn command_line(
    args: &[String],
    project: Option<(&Path, &str)>,
    problems: &mut Vec<ConfigProblem>,
) -> Option<Cli> {
    let mut problem = |message: String| {
        problems.push(ConfigProblem {
            file: project.map(|(p, _)| p.to_path_buf()),
            range: project.and_then(|(_, text)| find_text(text, "args")),
            message,
        })
    };
    match Cli::try_parse_args(args) {
        Ok(cli) if !cli.inputs.is_empty() => {
            let files: Vec<String> = cli.inputs.iter().map(|p| p.display().to_string()).collect();
            problem(format!(
                "`args` name input files ({}): the editor assembles each source by itself",
                files.join(", ")
            ));
            None
        }
        Ok(cli) if cli.output.is_some() => {
            problem("`args` give `-o`: set the output with `on-save.output` instead".into());
            None
        }
        Ok(cli) => Some(cli),
        Err(message) => {
            problem(format!("bad gcnasm arguments: {message}"));
            None
        }
    }
}

fn default_cli() -> Cli {
    Cli::try_parse_args::<&str>(&[]).expect("no arguments parse")
}

/// `{stem}` and `{name}` of `template` replaced by the source's.
fn expand_output(template: &str, source: &Path) -> String {
    let stem = source
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let name = source
        .file_name()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    template.replace("{stem}", &stem).replace("{name}", &name)
}

fn find_text(text: &str, needle: &str) -> Option<TextRange> {
    let start = text.find(needle)?;
    Some(TextRange::at(
        (start as u32).into(),
        (needle.len() as u32).into(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(args: &[&str]) -> Settings {
        Settings {
            args: args.iter().map(|s| s.to_string()).collect(),
            ..Settings::default()
        }
    }

    #[test]
    fn project_args_follow_settings_and_files_entries_follow_both() {
        let project = r#"
args = ["-g", "Tonga", "-I", "include"]
[on-save]
output = "build/{stem}.bin"
[[files]]
match = "gallium/*.s"
args = ["-b", "gallium", "-g", "Pitcairn"]
"#;
        let path = Path::new("/p/gcn.toml");
        let o = options_with_project(
            Path::new("/p/gallium/k.s"),
            &settings(&["-b", "amdcl2", "-g", "Hawaii"]),
            Some((path, project)),
        );
        assert!(o.problems.is_empty(), "{:?}", o.problems);
        assert_eq!(
            o.args,
            [
                "-b", "amdcl2", "-g", "Hawaii", "-g", "Tonga", "-I", "include", "-b", "gallium",
                "-g", "Pitcairn"
            ]
        );
        let opts = o.asm_options();
        assert_eq!(opts.format, gcn_asm::BinaryFormat::Gallium);
        assert_eq!(opts.device.name(), "Pitcairn");
        assert_eq!(opts.work_dir.as_deref(), Some(Path::new("/p")));
        assert_eq!(
            o.on_save_output.as_deref(),
            Some(Path::new("/p/build/k.bin"))
        );
        let other = options_with_project(
            Path::new("/p/amd/k.s"),
            &Settings::default(),
            Some((path, project)),
        );
        assert_eq!(other.asm_options().format, gcn_asm::BinaryFormat::Amd);
        assert_eq!(other.asm_options().device.name(), "Tonga");
    }

    #[test]
    fn a_bad_project_file_is_reported_and_left_out() {
        let path = Path::new("/p/gcn.toml");
        let o = options_with_project(
            Path::new("/p/k.s"),
            &settings(&["-g", "Tonga"]),
            Some((path, "args = [\"-g\", \"Nonsense\"]\n")),
        );
        assert_eq!(o.args, ["-g", "Tonga"]);
        assert_eq!(o.project_file, None);
        assert_eq!(o.problems.len(), 1);
        assert!(
            o.problems[0].message.contains("Nonsense"),
            "{}",
            o.problems[0].message
        );
        let o = options_with_project(
            Path::new("/p/k.s"),
            &Settings::default(),
            Some((path, "args = [\n")),
        );
        assert_eq!(o.problems[0].file.as_deref(), Some(path));
        assert!(o.problems[0].range.is_some());
        let o = options_with_project(
            Path::new("/p/k.s"),
            &Settings::default(),
            Some((path, "argz = []\n")),
        );
        assert!(
            o.problems[0].message.contains("argz"),
            "{}",
            o.problems[0].message
        );
        let o = options_with_project(
            Path::new("/p/k.s"),
            &Settings::default(),
            Some((path, "args = [\"k.s\"]\n")),
        );
        assert!(
            o.problems[0].message.contains("input files"),
            "{}",
            o.problems[0].message
        );
    }

    #[test]
    fn settings_alone_resolve_from_the_source_folder() {
        let mut s = settings(&["-w"]);
        s.on_save.output = Some("{name}.bin".into());
        let o = options_with_project(Path::new("/q/k.s"), &s, None);
        assert!(!o.warnings());
        assert_eq!(o.on_save_output.as_deref(), Some(Path::new("/q/k.s.bin")));
        assert_eq!(o.root, Path::new("/q"));
    }
}
