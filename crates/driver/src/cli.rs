//! The command line: every option of `clrxasm` (CLRX's `ClrxAsmInvoke` document), plus
//! our own `--emit`.
//!
//! clap gives the clrxasm spellings for free: combined short flags (`-63Sw`), values
//! attached to a short option (`-bamdcl2`, `-t240500`, `-DSYM=1`) or separated from it
//! (`-b amdcl2`), and long options with `=` or a space (`--output=FILE`, `--output FILE`).
//! An option given twice keeps its last value, as in clrxasm; `-D` and `-I` accumulate.
//!
//! Values are checked here, where clrxasm checks them: binary format, GPU and
//! architecture names (case-insensitive), unsigned versions, `-D` symbol names and
//! values. A bad value is a usage error (exit status 1, as clrxasm's). As in clrxasm, an
//! option's value is the next argument whatever it is (`-o -w` writes the file `-w`),
//! and may be empty (`-I ''`).

use std::ffi::OsString;
use std::path::PathBuf;

use clap::{ArgAction, CommandFactory, Parser, ValueEnum};

/// Assembler for AMD GCN assembly in the CLRX dialect, a drop-in for clrxasm.
///
/// Reads the FILEs in order as one source (standard input when there is none).
#[derive(Debug, Clone, Parser)]
#[command(
    name = "gcnasm",
    version,
    disable_help_flag = true,
    disable_version_flag = true,
    args_override_self = true
)]
pub struct Cli {
    /// Define a symbol (value 0 when not given); repeatable
    #[arg(allow_hyphen_values = true, short = 'D', long = "defsym", value_name = "SYM[=VALUE]", value_parser = parse_defsym)]
    pub defsyms: Vec<DefSym>,

    /// Add an include directory; repeatable
    #[arg(allow_hyphen_values = true, short = 'I', long = "includePath", value_name = "PATH", value_parser = any_path)]
    pub include_paths: Vec<PathBuf>,

    /// Output file (default: a.out, or stdout for a syntax tree)
    #[arg(
        allow_hyphen_values = true,
        short = 'o',
        long = "output",
        value_name = "FILE"
    )]
    pub output: Option<PathBuf>,

    /// Binary format: amd, amdcl2, gallium, rocm or rawcode
    #[arg(allow_hyphen_values = true, short = 'b', long = "binaryFormat", value_name = "FORMAT", value_parser = parse_binary_format)]
    pub binary_format: Option<BinaryFormat>,

    /// Generate 64-bit binaries (AMD Catalyst format)
    #[arg(short = '6', long = "64bit")]
    pub is_64bit: bool,

    /// GPU device type, e.g. CapeVerde, Tonga, GFX900
    #[arg(allow_hyphen_values = true, short = 'g', long = "gpuType", value_name = "GPU", value_parser = parse_gpu)]
    pub gpu: Option<Gpu>,

    /// GPU architecture, e.g. GCN1.0, VEGA, GFX10 (-g wins)
    #[arg(allow_hyphen_values = true, short = 'A', long = "arch", value_name = "ARCH", value_parser = parse_arch)]
    pub arch: Option<Arch>,

    /// AMD Catalyst / Mesa driver version (major*100+minor)
    #[arg(allow_hyphen_values = true, short = 't', long = "driverVersion", value_name = "VERSION", value_parser = parse_u32)]
    pub driver_version: Option<u32>,

    /// LLVM compiler version (major*100+minor)
    #[arg(allow_hyphen_values = true, long = "llvmVersion", value_name = "VERSION", value_parser = parse_u32)]
    pub llvm_version: Option<u32>,

    /// Generate the new ROCm binary format
    #[arg(long = "newROCmBinFormat")]
    pub new_rocm_bin_format: bool,

    /// Add all non-local symbols to binaries
    #[arg(short = 'S', long = "forceAddSymbols")]
    pub force_add_symbols: bool,

    /// Do not print warnings
    #[arg(short = 'w', long = "noWarnings")]
    pub no_warnings: bool,

    /// Alternate macro syntax
    #[arg(short = 'a', long = "alternate")]
    pub alternate: bool,

    /// Old and buggy floating-point literal rules (up to CLRX 0.1.2)
    #[arg(long = "buggyFPLit")]
    pub buggy_fp_lit: bool,

    /// Old modifier parametrization, only 0 and 1 (up to CLRX 0.1.5)
    #[arg(long = "oldModParam")]
    pub old_mod_param: bool,

    /// Macro names are case-sensitive
    #[arg(short = 'm', long = "noMacroCase")]
    pub no_macro_case: bool,

    /// Wavefront of 32 lanes (GFX10 devices)
    #[arg(short = '3', long = "wave32")]
    pub wave32: bool,

    /// CLRX policy version (major*100+minor)
    #[arg(allow_hyphen_values = true, long = "policy", value_name = "VERSION", value_parser = parse_u32)]
    pub policy: Option<u32>,

    /// Write KIND instead of a binary
    #[arg(
        allow_hyphen_values = true,
        long = "emit",
        value_name = "KIND",
        value_enum
    )]
    pub emit: Option<EmitKind>,

    /// Deepest nesting of macro expansions and repetitions [default: 1000]
    #[arg(allow_hyphen_values = true, long = "max-expansion-depth", value_name = "N", value_parser = parse_u32)]
    pub max_expansion_depth: Option<u32>,

    /// Most statements all macro expansions and repetitions may produce [default: 10000000]
    #[arg(allow_hyphen_values = true, long = "max-expanded-statements", value_name = "N", value_parser = parse_c_uint)]
    pub max_expanded_statements: Option<u64>,

    /// Most errors before the assembly stops [default: 100000]
    #[arg(allow_hyphen_values = true, long = "max-errors", value_name = "N", value_parser = parse_c_uint)]
    pub max_errors: Option<u64>,

    /// Deepest nesting of .include [default: 500]
    #[arg(allow_hyphen_values = true, long = "max-include-depth", value_name = "N", value_parser = parse_u32)]
    pub max_include_depth: Option<u32>,

    /// Most bytes of all sections together [default: 1073741824]
    #[arg(allow_hyphen_values = true, long = "max-output-size", value_name = "BYTES", value_parser = parse_c_uint)]
    pub max_output_size: Option<u64>,

    /// Print help
    #[arg(short = '?', long = "help", action = ArgAction::Help)]
    help: Option<bool>,

    /// Print usage
    #[arg(long = "usage")]
    pub usage: bool,

    /// Print version
    #[arg(long = "version", action = ArgAction::Version)]
    version: Option<bool>,

    /// Source files, read in order as one source (none: standard input)
    #[arg(value_name = "FILE")]
    pub inputs: Vec<PathBuf>,
}

impl Cli {
    /// Parses arguments (without the program's name) as `gcnasm` would; a malformed
    /// command line (or `--help`, `--version`) gives the first line of clap's message.
    pub fn try_parse_args<S: AsRef<str>>(args: &[S]) -> Result<Cli, String> {
        let args = args.iter().map(|a| OsString::from(a.as_ref()));
        Cli::try_parse_from(clrxasm_reading(
            std::iter::once(OsString::from("gcnasm")).chain(args),
        ))
        .map_err(|e| {
            let text = e.to_string();
            let first = text
                .lines()
                .find(|l| !l.trim().is_empty())
                .unwrap_or("malformed arguments");
            first.trim_start_matches("error: ").to_string()
        })
    }

    /// The one-line usage, for `--usage`.
    pub fn usage() -> String {
        Cli::command().render_usage().to_string()
    }

    /// The command line of this process; `--help` and `--version` print and exit, and a
    /// malformed command line exits with its error ([`Cli::exit_with`]).
    pub fn parse_or_exit() -> Cli {
        Cli::try_parse_from(clrxasm_reading(std::env::args_os()))
            .unwrap_or_else(|e| Cli::exit_with(e))
    }

    /// Exits with a usage error worded like clap's own.
    pub fn usage_error(message: &str) -> ! {
        Cli::exit_with(Cli::command().error(clap::error::ErrorKind::ArgumentConflict, message))
    }

    /// Prints clap's message and exits: with status 0 for `--help` and `--version`, else
    /// with status 1, which clrxasm gives for a bad command line (clap's own is 2).
    fn exit_with(error: clap::Error) -> ! {
        if !error.use_stderr() {
            error.exit();
        }
        let _ = error.print();
        std::process::exit(1)
    }
}

/// The command line (program name first) as clrxasm reads it where clap reads it
/// otherwise: `=VALUE` after a long flag that takes no value is dropped (`--64bit=1`),
/// and `--help` (`-?`), else `--usage`, else `--version`, is answered whatever else is
/// given, before any option's value is checked (`-b nothing --help` prints the help).
fn clrxasm_reading(args: impl IntoIterator<Item = OsString>) -> Vec<OsString> {
    let command = Cli::command();
    let long = |name: &str| command.get_arguments().find(|a| a.get_long() == Some(name));
    let short = |c: char| command.get_arguments().find(|a| a.get_short() == Some(c));
    let mut args = args.into_iter();
    let mut read: Vec<OsString> = args.next().into_iter().collect();
    // The answering options given, as written (`-?` is the short help, `--help` the long).
    let mut answered: Vec<(&str, String)> = Vec::new();
    let mut options_ended = false;
    while let Some(arg) = args.next() {
        let text = arg.to_str().unwrap_or("");
        if options_ended || text == "-" || !text.starts_with('-') {
            read.push(arg);
            continue;
        }
        if text == "--" {
            options_ended = true;
            read.push(arg);
            continue;
        }
        // Whether the next argument is this option's value.
        let mut value_follows = false;
        if let Some(body) = text.strip_prefix("--") {
            let (name, value) = body
                .split_once('=')
                .map_or((body, None), |(n, v)| (n, Some(v)));
            match long(name) {
                Some(a) if !a.get_action().takes_values() => {
                    answered.extend(
                        ["help", "usage", "version"]
                            .into_iter()
                            .filter(|&n| n == name)
                            .map(|n| (n, format!("--{n}"))),
                    );
                    read.push(format!("--{name}").into());
                    continue;
                }
                Some(_) => value_follows = value.is_none(),
                None => {}
            }
        } else {
            for (at, c) in text.char_indices().skip(1) {
                match short(c) {
                    Some(a) if a.get_action().takes_values() => {
                        value_follows = at + c.len_utf8() == text.len();
                        break;
                    }
                    Some(a) if a.get_long() == Some("help") => {
                        answered.push(("help", format!("-{c}")))
                    }
                    Some(_) => {}
                    None => break,
                }
            }
        }
        read.push(arg);
        if value_follows {
            read.extend(args.next());
        }
    }
    let first_answer = ["help", "usage", "version"]
        .into_iter()
        .find_map(|name| answered.iter().find(|(n, _)| *n == name));
    match first_answer {
        Some((_, written)) => read
            .into_iter()
            .take(1)
            .chain([OsString::from(written)])
            .collect(),
        None => read,
    }
}

/// What `--emit` writes instead of a binary.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum EmitKind {
    /// The lossless syntax tree of the one input file
    SyntaxTree,
    /// The assembled module as JSON (sections, kernels, symbols)
    Json,
    /// Registers used by each kernel, as JSON
    RegUsage,
    /// Each instruction's place, section offset and words, beside its source line
    Listing,
}

impl EmitKind {
    /// The spelling on the command line.
    pub fn name(self) -> &'static str {
        match self {
            EmitKind::SyntaxTree => "syntax-tree",
            EmitKind::Json => "json",
            EmitKind::RegUsage => "reg-usage",
            EmitKind::Listing => "listing",
        }
    }
}

/// `-b`: the output binary format. clrxasm also takes `raw` and `catalyst`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinaryFormat {
    Amd,
    AmdCl2,
    Gallium,
    Rocm,
    RawCode,
}

/// A path as given, the empty one too (clap's own path parser refuses it).
fn any_path(value: &str) -> Result<PathBuf, String> {
    Ok(PathBuf::from(value))
}

fn parse_binary_format(value: &str) -> Result<BinaryFormat, String> {
    match value.trim().to_ascii_lowercase().as_str() {
        "amd" | "catalyst" => Ok(BinaryFormat::Amd),
        "amdcl2" => Ok(BinaryFormat::AmdCl2),
        "gallium" => Ok(BinaryFormat::Gallium),
        "rocm" => Ok(BinaryFormat::Rocm),
        "rawcode" | "raw" => Ok(BinaryFormat::RawCode),
        _ => Err("unknown binary format (expected amd, amdcl2, gallium, rocm or rawcode)".into()),
    }
}

/// `-g`: a GPU device, as the instruction-set crate knows it (names are case-insensitive).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Gpu(pub gcn_isa::Device);

fn parse_gpu(value: &str) -> Result<Gpu, String> {
    gcn_isa::Device::from_name(value.trim())
        .map(Gpu)
        .ok_or_else(|| {
            let names = gcn_isa::Device::names().map(|(n, _)| n);
            format!(
                "unknown GPU device type{}",
                did_you_mean(value.trim(), names)
            )
        })
}

/// ` (did you mean `Fiji`?)` when `value` is a slip for one of `names`, else nothing.
fn did_you_mean<'a>(value: &str, names: impl IntoIterator<Item = &'a str>) -> String {
    let found: Vec<String> = gcn_isa::suggest::nearest(value, names)
        .iter()
        .map(|n| format!("`{n}`"))
        .collect();
    if found.is_empty() {
        String::new()
    } else {
        format!(" (did you mean {}?)", found.join(" or "))
    }
}

/// `-A`: a GPU architecture (generation), by any name clrxasm accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Arch(pub gcn_isa::Generation);

fn parse_arch(value: &str) -> Result<Arch, String> {
    gcn_isa::Generation::from_arch_name(value.trim())
        .map(Arch)
        .ok_or_else(|| {
            let names = gcn_isa::arch::arch_names().map(|(n, _)| n);
            format!(
                "unknown GPU architecture{}",
                did_you_mean(value.trim(), names)
            )
        })
}

/// `-D SYM[=VALUE]`: a symbol defined before the source is read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DefSym {
    pub name: String,
    pub value: u64,
}

fn parse_defsym(arg: &str) -> Result<DefSym, String> {
    let (name, value) = match arg.split_once('=') {
        Some((name, value)) => (name, parse_c_uint(value.trim())?),
        None => (arg, 0),
    };
    if !is_symbol_name(name) {
        return Err(format!("invalid symbol name '{name}'"));
    }
    Ok(DefSym {
        name: name.to_string(),
        value,
    })
}

/// A symbol name as clrxasm checks it: a letter, `.`, `_` or `$`, then also digits.
fn is_symbol_name(name: &str) -> bool {
    let mut chars = name.chars();
    let symbol_char = |c: char| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '$');
    match chars.next() {
        Some(c) if symbol_char(c) && !c.is_ascii_digit() => chars.all(symbol_char),
        _ => false,
    }
}

fn parse_u32(value: &str) -> Result<u32, String> {
    let n = parse_c_uint(value.trim())?;
    u32::try_from(n).map_err(|_| "number is too big".to_string())
}

/// An unsigned integer written as in C: decimal, `0x` hex, `0b` binary or `0` octal.
fn parse_c_uint(text: &str) -> Result<u64, String> {
    let lower = text.to_ascii_lowercase();
    let (digits, radix) = if let Some(hex) = lower.strip_prefix("0x") {
        (hex, 16)
    } else if let Some(bin) = lower.strip_prefix("0b") {
        (bin, 2)
    } else if lower.len() > 1 && lower.starts_with('0') {
        (&lower[1..], 8)
    } else {
        (lower.as_str(), 10)
    };
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return Err(format!("'{text}' is not an unsigned integer"));
    }
    u64::from_str_radix(digits, radix).map_err(|_| format!("'{text}' is too big"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Cli {
        Cli::try_parse_from(std::iter::once("gcnasm").chain(args.iter().copied())).unwrap()
    }

    #[test]
    fn clap_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn combined_flags_and_attached_values() {
        let cli = parse(&[
            "-63Sw", "-bamdcl2", "-t240500", "-gtonga", "-DX=0x10", "-DY", "a.s",
        ]);
        assert!(cli.is_64bit && cli.wave32 && cli.force_add_symbols && cli.no_warnings);
        assert_eq!(cli.binary_format, Some(BinaryFormat::AmdCl2));
        assert_eq!(cli.driver_version, Some(240500));
        assert_eq!(
            cli.gpu,
            Some(Gpu(gcn_isa::Device::from_name("Tonga").unwrap()))
        );
        let x = DefSym {
            name: "X".into(),
            value: 16,
        };
        assert_eq!(
            cli.defsyms,
            vec![
                x,
                DefSym {
                    name: "Y".into(),
                    value: 0
                }
            ]
        );
        assert_eq!(cli.inputs, vec![PathBuf::from("a.s")]);
    }

    #[test]
    fn long_options_and_last_value_wins() {
        let cli = parse(&[
            "--binaryFormat=RAW",
            "-b",
            "Gallium",
            "--output",
            "x",
            "--arch=gcn1.4.1",
        ]);
        assert_eq!(cli.binary_format, Some(BinaryFormat::Gallium));
        assert_eq!(cli.output, Some(PathBuf::from("x")));
        assert_eq!(cli.arch, Some(Arch(gcn_isa::Generation::Gcn1_4_1)));
    }

    #[test]
    fn c_style_numbers() {
        assert_eq!(parse_c_uint("0"), Ok(0));
        assert_eq!(parse_c_uint("017"), Ok(15));
        assert_eq!(parse_c_uint("0B101"), Ok(5));
        assert_eq!(parse_c_uint("0xfF"), Ok(255));
        assert!(parse_c_uint("12a").is_err());
        assert!(parse_c_uint("0x").is_err());
        assert!(parse_c_uint("").is_err());
        assert!(parse_c_uint("99999999999999999999").is_err());
    }

    #[test]
    fn symbol_names() {
        assert!(is_symbol_name("_a.b$1"));
        assert!(is_symbol_name(".L1"));
        assert!(!is_symbol_name("1a"));
        assert!(!is_symbol_name(""));
        assert!(!is_symbol_name("a-b"));
    }
}
