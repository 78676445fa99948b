//! ROCm's LLVM 10 binary format (`.llvm10binfmt`) and its v3 metadata (`.metadatav3`).
//!
//! Every `data/rocm_llvm10/NAME.s` is assembled and the result compared with `NAME.dump`
//! (`UPDATE_EXPECT=1 cargo test -p gcn-formats --test rocm_llvm10` refreshes them): the
//! errors, or the ELF as the `object` crate reads it — header, program headers, sections,
//! both symbol tables, the notes (a MessagePack note decoded) and the bytes of `.rodata`
//! and `.text`.
//!
//! The metadata note of `vector_add.s` was also decoded once by LLVM
//! (`scripts/rocm-llvm10-notes-fixture.sh`, `llvm-readelf-14 --notes`): the fixture
//! `data/rocm_llvm10_notes.readelf` proves that MessagePack well-formed, and holds what
//! the source says.

use std::fmt::Write;
use std::path::{Path, PathBuf};

use expect_test::expect_file;
use gcn_asm::{assemble_here, Assembly, Input, Options, Severity};
use object::elf;
use object::read::elf::{FileHeader, ProgramHeader, SectionHeader, Sym};
use object::LittleEndian;

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data")
}

fn assemble(path: &Path) -> Assembly {
    let text = std::fs::read_to_string(path).expect("the source");
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    assemble_here(vec![Input { name, text }], Options::default())
}

/// The binary of a source that must assemble.
fn binary(path: &Path) -> Vec<u8> {
    let a = assemble(path);
    let errors: Vec<String> = a.diagnostics.iter().map(|d| d.render(&a.sources)).collect();
    assert!(!a.has_errors(), "{errors:?}");
    a.binary()
        .unwrap_or_else(|e| panic!("{:?}", e.iter().map(|d| &d.message).collect::<Vec<_>>()))
}

// ---- MessagePack, read back -------------------------------------------------------------

/// A MessagePack value, as read by the tests (independently of the writer).
#[derive(Debug, Clone, PartialEq)]
enum Mp {
    UInt(u64),
    Str(String),
    Bool(bool),
    Array(Vec<Mp>),
    Map(Vec<(String, Mp)>),
}

fn be(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0, |v, &b| (v << 8) | u64::from(b))
}

/// The value at `*at`, which moves past it. Panics on what the metadata never holds.
fn read_mp(b: &[u8], at: &mut usize) -> Mp {
    let t = b[*at];
    *at += 1;
    let mut take = |n: usize| {
        let s = &b[*at..*at + n];
        *at += n;
        s
    };
    match t {
        0x00..=0x7f => Mp::UInt(u64::from(t)),
        0x80..=0x8f => read_map(b, at, usize::from(t & 15)),
        0x90..=0x9f => read_array(b, at, usize::from(t & 15)),
        0xa0..=0xbf => Mp::Str(String::from_utf8_lossy(take(usize::from(t & 31))).into_owned()),
        0xc2 | 0xc3 => Mp::Bool(t == 0xc3),
        0xcc => Mp::UInt(be(take(1))),
        0xcd => Mp::UInt(be(take(2))),
        0xce => Mp::UInt(be(take(4))),
        0xcf => Mp::UInt(be(take(8))),
        0xd9..=0xdb => {
            let len = be(take(1 << (t - 0xd9))) as usize;
            Mp::Str(String::from_utf8_lossy(take(len)).into_owned())
        }
        0xdc | 0xdd => {
            let len = be(take(2 << (t - 0xdc))) as usize;
            read_array(b, at, len)
        }
        0xde | 0xdf => {
            let len = be(take(2 << (t - 0xde))) as usize;
            read_map(b, at, len)
        }
        _ => panic!("MessagePack type {t:#x} at {}", *at - 1),
    }
}

fn read_array(b: &[u8], at: &mut usize, len: usize) -> Mp {
    Mp::Array((0..len).map(|_| read_mp(b, at)).collect())
}

fn read_map(b: &[u8], at: &mut usize, len: usize) -> Mp {
    let mut entries = Vec::new();
    for _ in 0..len {
        let Mp::Str(key) = read_mp(b, at) else {
            panic!("a map key that is not a string")
        };
        entries.push((key, read_mp(b, at)));
    }
    Mp::Map(entries)
}

/// The whole of `bytes` as one MessagePack value.
fn decode_mp(bytes: &[u8]) -> Mp {
    let mut at = 0;
    let v = read_mp(bytes, &mut at);
    assert_eq!(at, bytes.len(), "bytes after the MessagePack value");
    v
}

/// `path = value` a leaf: map keys joined by `/`, array items `[i]`.
fn flatten_mp(v: &Mp, path: &str, out: &mut Vec<(String, String)>) {
    match v {
        Mp::UInt(n) => out.push((path.to_string(), n.to_string())),
        Mp::Str(s) => out.push((path.to_string(), s.clone())),
        Mp::Bool(b) => out.push((path.to_string(), b.to_string())),
        Mp::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                flatten_mp(item, &format!("{path}[{i}]"), out);
            }
        }
        Mp::Map(entries) => {
            for (key, item) in entries {
                flatten_mp(item, &format!("{path}/{key}"), out);
            }
        }
    }
}

// ---- the dump ---------------------------------------------------------------------------

/// Runs `f` on an 8-byte-aligned copy of `data`: `object` reads the headers in place.
fn with_aligned<R>(data: &[u8], f: impl FnOnce(&[u8]) -> R) -> R {
    let mut buffer = vec![0u8; data.len() + 8];
    let at = buffer.as_ptr().align_offset(8);
    buffer[at..at + data.len()].copy_from_slice(data);
    f(&buffer[at..at + data.len()])
}

fn hex_lines(out: &mut String, bytes: &[u8]) {
    for chunk in bytes.chunks(32) {
        let _ = writeln!(
            out,
            "  {}",
            chunk.iter().map(|b| format!("{b:02x}")).collect::<String>()
        );
    }
}

fn phdr_type(t: u32) -> String {
    match t {
        elf::PT_LOAD => "LOAD".into(),
        elf::PT_DYNAMIC => "DYNAMIC".into(),
        elf::PT_NOTE => "NOTE".into(),
        elf::PT_PHDR => "PHDR".into(),
        elf::PT_GNU_STACK => "GNU_STACK".into(),
        elf::PT_GNU_RELRO => "GNU_RELRO".into(),
        t => format!("{t:#x}"),
    }
}

fn dump_elf(data: &[u8]) -> String {
    let e = LittleEndian;
    let h = elf::FileHeader64::<LittleEndian>::parse(data).expect("a 64-bit ELF header");
    let id = h.e_ident();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "== header\nos abi {:#x}, abi version {}, type {}, machine {:#x}, flags {:#x}, entry {:#x}",
        id.os_abi,
        id.abi_version,
        h.e_type(e),
        h.e_machine(e),
        h.e_flags(e),
        h.e_entry(e)
    );
    out.push_str("== program headers\n");
    for p in h.program_headers(e, data).expect("program headers") {
        let _ = writeln!(
            out,
            "{} flags={} offset={:#x} size={:#x} align={:#x}",
            phdr_type(p.p_type(e)),
            p.p_flags(e),
            p.p_offset(e),
            p.p_filesz(e),
            p.p_align(e)
        );
    }
    let sections = h.sections(e, data).expect("section headers");
    out.push_str("== sections\n");
    for s in sections.iter().skip(1) {
        let name = String::from_utf8_lossy(sections.section_name(e, s).expect("a section name"));
        let _ = writeln!(
            out,
            "{name} type={} flags={:#x} addr={:#x} offset={:#x} size={:#x} link={} info={} align={} entsize={}",
            s.sh_type(e),
            s.sh_flags(e),
            s.sh_addr(e),
            s.sh_offset(e),
            s.sh_size(e),
            s.sh_link(e),
            s.sh_info(e),
            s.sh_addralign(e),
            s.sh_entsize(e)
        );
    }
    for (title, kind) in [
        ("symbols", elf::SHT_SYMTAB),
        ("dynamic symbols", elf::SHT_DYNSYM),
    ] {
        let _ = writeln!(out, "== {title}");
        let table = sections.symbols(e, data, kind).expect("a symbol table");
        for sym in table.iter().skip(1) {
            let name = String::from_utf8_lossy(table.symbol_name(e, sym).expect("a symbol name"));
            let _ = writeln!(
                out,
                "{name} bind={} type={} visibility={} section={} value={:#x} size={}",
                sym.st_bind(),
                sym.st_type(),
                sym.st_visibility(),
                sym.st_shndx(e),
                sym.st_value(e),
                sym.st_size(e)
            );
        }
    }
    out.push_str("== notes\n");
    for s in sections.iter() {
        let Some(mut notes) = s.notes(e, data).expect("notes") else {
            continue;
        };
        while let Some(note) = notes.next().expect("a note") {
            let owner = String::from_utf8_lossy(note.name());
            let _ = writeln!(
                out,
                "{owner} type={} size={}",
                note.n_type(e),
                note.desc().len()
            );
            if owner == "AMDGPU" && note.n_type(e) == 32 {
                let mut leaves = Vec::new();
                flatten_mp(&decode_mp(note.desc()), "", &mut leaves);
                for (path, value) in leaves {
                    let _ = writeln!(out, "  {path} = {value:?}");
                }
            } else {
                hex_lines(&mut out, note.desc());
            }
        }
    }
    for name in [".rodata", ".text"] {
        let Some((_, s)) = sections.section_by_name(e, name.as_bytes()) else {
            continue;
        };
        let _ = writeln!(out, "== {name}");
        hex_lines(&mut out, s.data(e, data).expect("section data"));
    }
    out
}

fn dump(path: &Path) -> String {
    let a = assemble(path);
    let mut out = String::new();
    let errors: Vec<String> = a
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| d.render(&a.sources))
        .collect();
    if !errors.is_empty() {
        out.push_str("== errors\n");
        for e in errors {
            out.push_str(&e);
            out.push('\n');
        }
        return out;
    }
    match a.binary() {
        Ok(bytes) => out + &with_aligned(&bytes, dump_elf),
        Err(errors) => {
            out.push_str("== binary refused\n");
            for e in errors {
                let _ = writeln!(out, "{}", e.message);
            }
            out
        }
    }
}

#[test]
fn llvm10_cases_as_snapshots() {
    let dir = data_dir().join("rocm_llvm10");
    let mut cases: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "s"))
        .collect();
    cases.sort();
    assert!(cases.len() >= 8, "the cases of {}", dir.display());
    for path in cases {
        expect_file![path.with_extension("dump")].assert_eq(&dump(&path));
    }
}

// ---- the metadata as LLVM reads it ------------------------------------------------------

/// `path = value` a leaf of llvm-readelf's YAML rendering of a metadata note (block
/// style only, as it writes it): map keys joined by `/`, sequence items `[i]`.
fn flatten_llvm_yaml(text: &str) -> Vec<(String, String)> {
    struct Frame {
        column: usize,
        path: String,
        /// For a sequence, the index of its next item.
        next: Option<usize>,
    }
    let mut out = Vec::new();
    let mut stack = vec![Frame {
        column: 0,
        path: String::new(),
        next: None,
    }];
    let mut pending: Option<String> = None;
    for line in text.lines() {
        let trimmed = line.trim_start();
        if trimmed.is_empty() || trimmed == "---" || trimmed == "..." {
            continue;
        }
        let mut column = line.len() - trimmed.len();
        let mut rest = trimmed;
        if let Some(path) = pending.take() {
            stack.push(Frame {
                column,
                path,
                next: rest.starts_with("- ").then_some(0),
            });
        }
        while stack.len() > 1 && stack.last().unwrap().column > column {
            stack.pop();
        }
        while let Some(after) = rest.strip_prefix("- ") {
            let top = stack.last_mut().unwrap();
            assert_eq!(top.column, column, "a sequence item out of place: {line}");
            let index = top.next.expect("a sequence");
            top.next = Some(index + 1);
            let path = format!("{}[{index}]", top.path);
            column += 2;
            stack.push(Frame {
                column,
                path,
                next: None,
            });
            rest = after;
        }
        let top = &stack.last().unwrap().path;
        let key_value = rest.split_once(':').filter(|(k, v)| {
            !k.contains(' ') && !k.starts_with('\'') && (v.is_empty() || v.starts_with(' '))
        });
        match key_value {
            Some((key, "")) => pending = Some(format!("{top}/{key}")),
            Some((key, value)) => out.push((format!("{top}/{key}"), yaml_scalar(value.trim()))),
            None => out.push((top.clone(), yaml_scalar(rest))),
        }
    }
    out
}

/// A YAML scalar as LLVM writes it: maybe tagged `!str`, maybe single-quoted.
fn yaml_scalar(s: &str) -> String {
    let s = s.strip_prefix("!str ").unwrap_or(s);
    match s.strip_prefix('\'').and_then(|s| s.strip_suffix('\'')) {
        Some(quoted) => quoted.replace("''", "'"),
        None => s.to_string(),
    }
}

/// The description of the binary's one note, which must be the v3 metadata.
fn metadata_note(data: &[u8]) -> Vec<u8> {
    let e = LittleEndian;
    let h = elf::FileHeader64::<LittleEndian>::parse(data).expect("a 64-bit ELF header");
    let sections = h.sections(e, data).expect("section headers");
    let (_, note_section) = sections
        .section_by_name(e, b".note")
        .expect("a .note section");
    let mut notes = note_section
        .notes(e, data)
        .expect("notes")
        .expect("a note section");
    let note = notes.next().expect("a note").expect("the metadata note");
    assert_eq!((note.name(), note.n_type(e)), (&b"AMDGPU"[..], 32));
    assert!(
        notes.next().expect("a note").is_none(),
        "the metadata note is the only one"
    );
    note.desc().to_vec()
}

#[test]
fn llvm10_metadata_as_llvm_reads_it() {
    let fixture =
        std::fs::read_to_string(data_dir().join("rocm_llvm10_notes.readelf")).expect("the fixture");
    let bytes = binary(&data_dir().join("rocm_llvm10/vector_add.s"));
    let note = with_aligned(&bytes, metadata_note);

    // The fixture decoded these very bytes.
    let recorded = fixture
        .lines()
        .find_map(|l| l.strip_prefix("# note: "))
        .expect("the note's bytes in the fixture");
    let hex: String = note.iter().map(|b| format!("{b:02x}")).collect();
    assert_eq!(
        hex, recorded,
        "the metadata changed: remake the fixture (scripts/rocm-llvm10-notes-fixture.sh)"
    );

    // LLVM reads what the tests' own reader reads (LLVM lists a map's keys sorted; the
    // reference writes `.size` before `.pointee_align`).
    let yaml = fixture
        .split_once("AMDGPU Metadata:\n")
        .expect("llvm-readelf's metadata")
        .1;
    let llvm = flatten_llvm_yaml(yaml);
    let mut ours = Vec::new();
    flatten_mp(&decode_mp(&note), "", &mut ours);
    let sorted = |mut v: Vec<(String, String)>| {
        v.sort();
        v
    };
    assert_eq!(sorted(llvm.clone()), sorted(ours));

    // And it holds what the source says.
    let value = |path: &str| {
        llvm.iter()
            .find(|(p, _)| p == path)
            .map(|(_, v)| v.as_str())
    };
    let kernel = "/amdhsa.kernels[0]";
    for (path, want) in [
        ("/amdhsa.version[0]", "1"),
        ("/amdhsa.version[1]", "0"),
        ("/amdhsa.printf[0]", "1:2:4:4:n=%d\\72 %f"),
        (&format!("{kernel}/.name"), "vectorAdd"),
        (&format!("{kernel}/.symbol"), "vectorAdd.kd"),
        (&format!("{kernel}/.language"), "OpenCL C"),
        (&format!("{kernel}/.language_version[1]"), "2"),
        (&format!("{kernel}/.reqd_workgroup_size[0]"), "32"),
        (&format!("{kernel}/.vec_type_hint"), "float4"),
        (&format!("{kernel}/.kernarg_segment_size"), "72"),
        (&format!("{kernel}/.kernarg_segment_align"), "8"),
        // Given, then from the descriptor (0).
        (&format!("{kernel}/.group_segment_fixed_size"), "16"),
        (&format!("{kernel}/.private_segment_fixed_size"), "0"),
        (&format!("{kernel}/.wavefront_size"), "32"),
        (&format!("{kernel}/.sgpr_count"), "10"),
        (&format!("{kernel}/.vgpr_count"), "4"),
        (&format!("{kernel}/.max_flat_workgroup_size"), "32"),
        (&format!("{kernel}/.args[1]/.name"), "a"),
        (&format!("{kernel}/.args[1]/.offset"), "8"),
        (&format!("{kernel}/.args[1]/.address_space"), "global"),
        (&format!("{kernel}/.args[1]/.is_restrict"), "true"),
        (&format!("{kernel}/.args[2]/.actual_access"), "read_only"),
        (&format!("{kernel}/.args[4]/.pointee_align"), "16"),
        (&format!("{kernel}/.args[4]/.address_space"), "local"),
        (&format!("{kernel}/.args[5]/.access"), "write_only"),
        (
            &format!("{kernel}/.args[6]/.value_kind"),
            "hidden_global_offset_x",
        ),
        (
            &format!("{kernel}/.args[8]/.value_kind"),
            "hidden_printf_buffer",
        ),
    ] {
        assert_eq!(value(path), Some(want), "{path}");
    }
    // Unset keys are left out: no access qualifier for the default, no type name for
    // hidden arguments.
    assert_eq!(value(&format!("{kernel}/.args[3]/.actual_access")), None);
    assert_eq!(value(&format!("{kernel}/.args[6]/.type_name")), None);
}

/// `.amd3` is `.rocm`, `.llvm10binfmt` and `.metadatav3` in one (ClrxAsmPseudoOps.md):
/// the example written either way gives the same bytes.
#[test]
fn amd3_is_the_llvm10_format_with_v3_metadata() {
    let path = data_dir().join("rocm_llvm10/vector_add.s");
    let text = std::fs::read_to_string(&path).expect("the source");
    let spelled_out = ".rocm\n.gpu GFX1010\n";
    assert!(text.contains(spelled_out) && text.contains(".llvm10binfmt\n.metadatav3\n"));
    let amd3 = text
        .replace(spelled_out, ".amd3\n.gpu GFX1010\n")
        .replace(".llvm10binfmt\n.metadatav3\n", "");
    let a = assemble_here(
        vec![Input {
            name: "amd3.s".into(),
            text: amd3,
        }],
        Options::default(),
    );
    let errors: Vec<String> = a.diagnostics.iter().map(|d| d.render(&a.sources)).collect();
    assert!(!a.has_errors(), "{errors:?}");
    assert_eq!(a.binary().ok(), Some(binary(&path)));
}
