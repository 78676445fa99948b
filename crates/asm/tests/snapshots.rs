//! Every `test_data/NAME.s` is assembled and the result compared with `NAME.txt`
//! (`UPDATE_EXPECT=1 cargo test -p gcn-asm` refreshes them): diagnostics with their
//! positions and origin chains, what `.print` wrote, the sections, the symbols, and the
//! registers each kernel uses.
//!
//! The first lines may set options, one `#! key[=value]` a line: `format=amd`,
//! `gpu=Tonga`, `arch=GCN1.4`, `64bit`, `wave32`, `alt`, `macro-case-sensitive`,
//! `old-mod-param`, `buggy-fp-lit`, `test-run`, `policy=N`, `define=SYM=VALUE`, `include=DIR` (relative to
//! `test_data`), `max-expansion-depth=N`, `max-expanded-statements=N`,
//! `max-include-depth=N`, `max-output-size=N`.

use std::fmt::Write;
use std::path::{Path, PathBuf};

use expect_test::expect_file;
use gcn_asm::{assemble, BinaryFormat, Input, Options};
use gcn_isa::{Device, Generation};

fn options_of(text: &str) -> Options {
    let mut opts = Options {
        format: BinaryFormat::Rawcode,
        ..Options::default()
    };
    for line in text.lines().take_while(|l| l.starts_with("#!")) {
        for item in line[2..].split_whitespace() {
            let (key, value) = item.split_once('=').unwrap_or((item, ""));
            let number = || {
                value
                    .parse::<u64>()
                    .unwrap_or_else(|_| panic!("bad number in {item}"))
            };
            match key {
                "format" => opts.format = BinaryFormat::from_name(value).expect("format"),
                "gpu" => opts.device = Device::from_name(value).expect("gpu"),
                "arch" => {
                    opts.device = Generation::from_arch_name(value)
                        .expect("arch")
                        .default_device()
                }
                "64bit" => opts.is64 = true,
                "wave32" => opts.wave32 = true,
                "alt" => opts.alt_macro = true,
                "macro-case-sensitive" => opts.macro_case_insensitive = false,
                "old-mod-param" => opts.old_mod_param = true,
                "buggy-fp-lit" => opts.buggy_fp_lit = true,
                "test-run" => opts.test_run = true,
                "policy" => opts.policy = Some(number() as u32),
                "define" => {
                    let (sym, v) = value.split_once('=').unwrap_or((value, "0"));
                    opts.defsyms
                        .push((sym.to_string(), v.parse().expect("define value")));
                }
                "include" => opts.include_dirs.push(Path::new("test_data").join(value)),
                "max-expansion-depth" => opts.limits.expansion_depth = number() as u32,
                "max-expanded-statements" => opts.limits.expanded_statements = number(),
                "max-include-depth" => opts.limits.include_depth = number() as u32,
                "max-output-size" => opts.limits.output_size = number(),
                _ => panic!("unknown option {key}"),
            }
        }
    }
    opts
}

fn render(path: &Path, text: String) -> String {
    let name = path.to_string_lossy().replace('\\', "/");
    let opts = options_of(&text);
    let result = assemble(vec![Input { name, text }], opts);
    let mut out = String::new();
    out.push_str("== diagnostics\n");
    for d in &result.diagnostics {
        let _ = writeln!(out, "{}", d.render(&result.sources));
    }
    if !result.printed.is_empty() {
        out.push_str("== printed\n");
        out.push_str(&result.printed);
    }
    out.push_str("== sections\n");
    for s in &result.sections {
        let kernel = s
            .kernel
            .map_or("-".to_string(), |k| result.kernels[k].clone());
        let hex: String = s.content.iter().map(|b| format!("{b:02x}")).collect();
        let _ = writeln!(
            out,
            "{:?} kernel={kernel} [{}] {hex}",
            s.name,
            s.content.len()
        );
    }
    out.push_str("== symbols\n");
    for s in &result.symbols {
        if s.name == "." {
            continue;
        }
        let value = match (s.value, s.section, s.register) {
            (None, _, _) => "undefined".to_string(),
            (Some(v), _, true) => format!("register {v:#x}"),
            (Some(v), Some(sec), _) => format!("section {sec} + {v}"),
            (Some(v), None, _) => format!("{v} ({:#x})", v as u64),
        };
        let _ = writeln!(out, "{} = {value}", s.name);
    }
    let usage = result.kernel_reg_usage();
    if !usage.is_empty() {
        out.push_str("== registers\n");
        for k in usage {
            let _ = writeln!(
                out,
                "{}: sgprs={} vgprs={} extra={} sgprsnum={} vgprsnum={} vcc={} flat_scratch={} xnack={}",
                k.name, k.sgprs, k.vgprs, k.extra_sgprs, k.sgprsnum, k.vgprsnum, k.special.vcc, k.special.flat_scratch, k.special.xnack_mask
            );
        }
    }
    out
}

#[test]
fn assemble_test_data() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "s"))
        .collect();
    files.sort();
    assert!(!files.is_empty());
    // Relative paths keep the snapshots independent of the checkout's place.
    std::env::set_current_dir(env!("CARGO_MANIFEST_DIR")).unwrap();
    for file in files {
        let relative = Path::new("test_data").join(file.file_name().unwrap());
        let text = std::fs::read_to_string(&file).unwrap();
        let actual = render(&relative, text);
        expect_file![file.with_extension("txt")].assert_eq(&actual);
    }
}
