//! The built `gcnasm`, run on the data under `tests/data`; `UPDATE_EXPECT=1 cargo test`
//! refreshes the snapshots.
//!
//! - `source/NAME.s`: `gcnasm NAME.s` gives `NAME.stderr` (standard error and exit
//!   status), `gcnasm --emit syntax-tree NAME.s` gives `NAME.tree`; the tree run must
//!   report the same syntax errors, fail exactly when there are some, and print a tree
//!   whose tokens spell the input.
//! - `cmdline/NAME.args`: one argument a line (`#` lines are comments, `$EXAMPLES` is the
//!   repository's `examples` folder), run in a scratch folder holding copies of
//!   `inputs/`, with `NAME.stdin` (or nothing) on standard input, gives `NAME.expected`:
//!   exit status, standard output, standard error, and every file the run created or
//!   changed in the scratch folder (with its content).
//! - every `input.s` of the conformance corpus (`shared/conformance/binaries`, beside
//!   the repository, else its sample in `tests/data/conformance-sample`) must come back
//!   whole from its syntax tree.

use std::collections::BTreeMap;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use expect_test::expect_file;

const GCNASM: &str = env!("CARGO_BIN_EXE_gcnasm");

fn manifest_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn data_dir(name: &str) -> PathBuf {
    manifest_dir().join("tests/data").join(name)
}

fn examples_dir() -> PathBuf {
    manifest_dir()
        .join("../../examples")
        .canonicalize()
        .expect("examples folder")
}

/// The files of `dir` whose name ends with `.EXT`, sorted.
fn files_with_extension(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut files: Vec<_> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == ext))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no .{ext} file in {}", dir.display());
    files
}

fn file_name(path: &Path) -> String {
    path.file_name().unwrap().to_string_lossy().into_owned()
}

fn gcnasm(args: &[String], cwd: &Path, stdin: &[u8]) -> Output {
    let mut child = Command::new(GCNASM)
        .args(args)
        .current_dir(cwd)
        .env_remove("CLICOLOR_FORCE")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run gcnasm");
    // A run that does not read its input closes the pipe early: that is not an error.
    let _ = child.stdin.take().unwrap().write_all(stdin);
    child.wait_with_output().expect("wait for gcnasm")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn status(output: &Output) -> String {
    output
        .status
        .code()
        .map_or("killed by a signal".to_string(), |c| c.to_string())
}

fn strings(args: &[&str]) -> Vec<String> {
    args.iter().map(|s| s.to_string()).collect()
}

#[test]
fn source_files() {
    let dir = data_dir("source");
    for path in files_with_extension(&dir, "s") {
        let name = file_name(&path);
        let assembled = gcnasm(std::slice::from_ref(&name), &dir, b"");
        let report = format!(
            "{}exit status: {}\n",
            stderr(&assembled),
            status(&assembled)
        );
        expect_file![path.with_extension("stderr")].assert_eq(&report);

        let tree = gcnasm(&strings(&["--emit", "syntax-tree", &name]), &dir, b"");
        expect_file![path.with_extension("tree")].assert_eq(&stdout(&tree));
        // Syntax errors are the tree run's only errors; assembling reports them too.
        let assembled_errors = stderr(&assembled);
        let syntax_errors = stderr(&tree);
        for line in syntax_errors.lines() {
            assert!(
                assembled_errors.contains(line),
                "{name}: assembling misses {line:?}"
            );
        }
        assert_eq!(
            tree.status.code(),
            Some(if syntax_errors.is_empty() { 0 } else { 1 }),
            "{name}"
        );
        let text = fs::read_to_string(&path).unwrap();
        assert_eq!(
            tree_text(&stdout(&tree)),
            text,
            "{name}: the tree is lossless"
        );
    }
}

#[test]
fn command_lines() {
    let examples = examples_dir();
    let scratch_root = Path::new(env!("CARGO_TARGET_TMPDIR")).join("gcnasm-cmdline");
    for path in files_with_extension(&data_dir("cmdline"), "args") {
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        let scratch = fresh_scratch(&scratch_root.join(&name));
        let args = read_args(&path, &examples);
        let stdin = fs::read(path.with_extension("stdin")).unwrap_or_default();
        let before = folder_contents(&scratch);
        let output = gcnasm(&args, &scratch, &stdin);
        let command: String = args.iter().map(|arg| format!(" {arg}")).collect();
        let mut report = format!("$ gcnasm{command}\nexit status: {}\n", status(&output));
        report += &section("stdout", &stdout(&output));
        report += &section("stderr", &stderr(&output));
        report += &changed_files(&before, &folder_contents(&scratch));
        let report = report
            .replace(&scratch.display().to_string(), "$TMP")
            .replace(&examples.display().to_string(), "$EXAMPLES");
        expect_file![path.with_extension("expected")].assert_eq(&report);
    }
}

/// An empty folder holding a copy of every file of `inputs/`.
fn fresh_scratch(dir: &Path) -> PathBuf {
    let _ = fs::remove_dir_all(dir);
    fs::create_dir_all(dir).unwrap();
    for input in fs::read_dir(data_dir("inputs")).unwrap() {
        let input = input.unwrap().path();
        fs::copy(&input, dir.join(input.file_name().unwrap())).unwrap();
    }
    dir.canonicalize().unwrap()
}

fn read_args(path: &Path, examples: &Path) -> Vec<String> {
    let text = fs::read_to_string(path).unwrap();
    let examples = examples.display().to_string();
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.replace("$EXAMPLES", &examples))
        .collect()
}

fn section(title: &str, text: &str) -> String {
    if text.is_empty() {
        return format!("--- {title}: nothing\n");
    }
    let newline = if text.ends_with('\n') {
        ""
    } else {
        "\n(no line break at the end)\n"
    };
    format!("--- {title}\n{text}{newline}")
}

fn folder_contents(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut contents = BTreeMap::new();
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let bytes = if path.is_dir() {
            b"(a folder)\n".to_vec()
        } else {
            fs::read(&path).unwrap()
        };
        contents.insert(file_name(&path), bytes);
    }
    contents
}

fn changed_files(before: &BTreeMap<String, Vec<u8>>, after: &BTreeMap<String, Vec<u8>>) -> String {
    let mut report = String::new();
    for (name, bytes) in after {
        let kind = match before.get(name) {
            None => "new file",
            Some(old) if old != bytes => "changed file",
            Some(_) => continue,
        };
        report += &section(&format!("{kind} {name}"), &String::from_utf8_lossy(bytes));
    }
    for name in before.keys().filter(|name| !after.contains_key(*name)) {
        report += &format!("--- removed file {name}\n");
    }
    if report.is_empty() {
        report = "--- files: none created or changed\n".to_string();
    }
    report
}

#[test]
fn conformance_inputs_come_back_whole_from_the_tree() {
    let corpus = conformance_dir().0.join("binaries");
    let mut cases: Vec<_> = fs::read_dir(&corpus)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    cases.sort();
    let mut checked = 0;
    for case in cases.iter().filter(|case| case.join("input.s").is_file()) {
        let text = fs::read_to_string(case.join("input.s")).unwrap();
        let output = gcnasm(&strings(&["--emit", "syntax-tree", "input.s"]), case, b"");
        assert!(
            matches!(output.status.code(), Some(0 | 1)),
            "{}: {}",
            case.display(),
            stderr(&output)
        );
        assert_eq!(tree_text(&stdout(&output)), text, "{}", case.display());
        checked += 1;
    }
    assert!(checked > 0, "no input.s in {}", corpus.display());
}

/// The text the tokens of a tree dump spell, checking that their ranges follow each other.
fn tree_text(dump: &str) -> String {
    let mut text = String::new();
    for line in dump.lines() {
        let line = line.trim_start_matches(' ');
        let Some((head, quoted)) = line.split_once(' ') else {
            continue;
        };
        let token = unescape(quoted);
        let range = head.split_once('@').expect("KIND@START..END").1;
        let (start, end) = range.split_once("..").expect("START..END");
        assert_eq!(
            start.parse::<usize>().unwrap(),
            text.len(),
            "token starts where the last ended: {line}"
        );
        assert_eq!(
            end.parse::<usize>().unwrap(),
            text.len() + token.len(),
            "token length: {line}"
        );
        text += &token;
    }
    text
}

/// The string a Rust `{:?}` of a `str` printed.
fn unescape(quoted: &str) -> String {
    let inner = quoted
        .strip_prefix('"')
        .and_then(|q| q.strip_suffix('"'))
        .expect("a quoted token text");
    let mut out = String::new();
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some('t') => out.push('\t'),
            Some('0') => out.push('\0'),
            Some('u') => {
                let hex: String = chars.by_ref().skip(1).take_while(|&c| c != '}').collect();
                out.push(char::from_u32(u32::from_str_radix(&hex, 16).unwrap()).unwrap());
            }
            Some(other) => out.push(other), // \\ \" \'
            None => panic!("a lone backslash ends {quoted}"),
        }
    }
    out
}

#[test]
fn unescape_reverses_debug() {
    let text = "a\"b\\c\n\r\t\0'\u{7f}\u{301}é";
    assert_eq!(unescape(&format!("{text:?}")), text);
}

/// An empty scratch folder of its own for a test.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("gcnasm-{name}"));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir.canonicalize().unwrap()
}

#[test]
fn dash_writes_standard_output_and_no_file() {
    let dir = scratch("dash");
    let run = gcnasm(&strings(&["-b", "rawcode", "-o", "-"]), &dir, b"s_endpgm\n");
    assert_eq!(status(&run), "0", "{}", stderr(&run));
    assert_eq!(run.stdout, [0x00, 0x00, 0x81, 0xbf]);
    assert!(folder_contents(&dir).is_empty(), "no file is written");
    let tree = gcnasm(
        &strings(&["--emit", "syntax-tree", "-o", "-"]),
        &dir,
        b"s_endpgm\n",
    );
    assert_eq!(status(&tree), "0");
    assert!(
        stdout(&tree).starts_with("SOURCE_FILE@0..9"),
        "{}",
        stdout(&tree)
    );
    assert!(folder_contents(&dir).is_empty(), "no file is written");
}

/// Standard output is a pipe whose reader has gone: the write fails (EPIPE, SIGPIPE is
/// ignored by Rust programs) and the run exits with 1 and says so.
#[test]
fn a_closed_pipe_is_an_error() {
    let dir = scratch("closed-pipe");
    let mut runs = vec![
        &["-b", "rawcode", "-o", "-"][..],
        &["-b", "rawcode", "--emit", "json", "-o", "-"],
    ];
    // Only where /dev/stdout is what it should be (a link to the process's fd 1); an
    // old assembler run as root may have replaced it with a regular file.
    if fs::symlink_metadata("/dev/stdout").is_ok_and(|m| m.file_type().is_symlink()) {
        runs.push(&["-b", "rawcode", "-o", "/dev/stdout"]);
    } else {
        eprintln!("SKIPPED: -o /dev/stdout, which is not a symbolic link here");
    }
    for args in runs {
        let mut child = Command::new(GCNASM)
            .args(args)
            .current_dir(&dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("run gcnasm");
        // The reader closes before the source is complete, so before any output.
        drop(child.stdout.take());
        child
            .stdin
            .take()
            .unwrap()
            .write_all(b"s_endpgm\n")
            .unwrap();
        let run = child.wait_with_output().unwrap();
        assert_eq!(status(&run), "1", "{args:?}: {}", stderr(&run));
        assert!(
            stderr(&run).contains("cannot write"),
            "{args:?}: {}",
            stderr(&run)
        );
        assert!(
            folder_contents(&dir).is_empty(),
            "{args:?}: no file is written"
        );
    }
}

#[cfg(unix)]
#[test]
fn devices_are_written_not_replaced() {
    use std::os::unix::fs::FileTypeExt;
    let dir = scratch("devices");
    let is_device = |p: &str| fs::symlink_metadata(p).is_ok_and(|m| m.file_type().is_char_device());
    if !is_device("/dev/null") || !is_device("/dev/full") {
        eprintln!("SKIPPED: /dev/null or /dev/full is not a character device here");
        return;
    }
    let null = gcnasm(
        &strings(&["-b", "rawcode", "-o", "/dev/null"]),
        &dir,
        b"s_endpgm\n",
    );
    assert_eq!(status(&null), "0", "{}", stderr(&null));
    assert!(is_device("/dev/null"));
    let full = gcnasm(
        &strings(&["-b", "rawcode", "-o", "/dev/full"]),
        &dir,
        b"s_endpgm\n",
    );
    assert_eq!(status(&full), "1");
    assert!(
        stderr(&full).contains("cannot write /dev/full"),
        "{}",
        stderr(&full)
    );
    assert!(is_device("/dev/full"));
}

#[cfg(unix)]
#[test]
fn a_symlinked_output_writes_its_target() {
    let dir = scratch("symlink");
    fs::write(dir.join("target.bin"), "old").unwrap();
    std::os::unix::fs::symlink("target.bin", dir.join("link.bin")).unwrap();
    let run = gcnasm(
        &strings(&["-b", "rawcode", "-o", "link.bin"]),
        &dir,
        b"s_endpgm\n",
    );
    assert_eq!(status(&run), "0", "{}", stderr(&run));
    assert!(fs::symlink_metadata(dir.join("link.bin"))
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(
        fs::read(dir.join("target.bin")).unwrap(),
        [0x00, 0x00, 0x81, 0xbf]
    );
}

/// The conformance corpus beside the repository (`../shared/conformance`), else the
/// sample of it kept in the repository (`tests/data/conformance-sample`), so that these
/// checks always run; and whether it is the whole corpus. `CONFORMANCE_SAMPLE=1` takes
/// the sample even when the corpus is there.
fn conformance_dir() -> (PathBuf, bool) {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let full = root.join("../shared/conformance");
    if full.join("instructions.jsonl").is_file() && std::env::var_os("CONFORMANCE_SAMPLE").is_none()
    {
        return (full, true);
    }
    eprintln!(
        "../shared/conformance not found: checking its sample, tests/data/conformance-sample"
    );
    (root.join("tests/data/conformance-sample"), false)
}
