//! `-S` (`--forceAddSymbols`) for the AMD OpenCL 1.2 and 2.0 and GalliumCompute
//! binaries, as data: every `data/added_symbols/NAME.s` is assembled with `-S` and
//! compared with `NAME.txt` (`UPDATE_EXPECT=1 cargo test -p gcn-formats` refreshes
//! them): the diagnostics, then for each ELF of the binary (the main one and the inner
//! ones) its sections and its symbol table read back with the `object` crate, field by
//! field, then every byte of the binary.
//!
//! The binaries of the reference (clrxasm) for these inputs are not at hand: the bytes
//! are those this writer made when the case was written, each checked against the
//! reference's rules (see `docs/architecture.md`); the snapshot keeps them from changing
//! unnoticed.

use std::fmt::Write;
use std::path::{Path, PathBuf};

use expect_test::expect_file;
use gcn_asm::{assemble, BinaryFormat, Input, Options};
use object::read::elf::{ElfFile, FileHeader, SectionHeader, Sym};
use object::{elf, Endianness, FileKind, Object, ObjectSymbol};

/// `st_shndx` and the name of the section it points to.
fn section_name<E: FileHeader<Endian = Endianness>>(file: &ElfFile<E>, shndx: u16) -> String {
    let endian = file.endian();
    match shndx {
        elf::SHN_UNDEF => "UND".into(),
        elf::SHN_ABS => "ABS".into(),
        i => {
            let table = file.elf_section_table();
            let name = table
                .section(object::SectionIndex(usize::from(i)))
                .ok()
                .and_then(|s| table.section_name(endian, s).ok())
                .map_or("?".into(), |n| String::from_utf8_lossy(n).into_owned());
            format!("{i} {name}")
        }
    }
}

/// An ELF's sections and symbols, one a line.
fn describe<E: FileHeader<Endian = Endianness>>(title: &str, data: &[u8]) -> String {
    let file = ElfFile::<E>::parse(data).unwrap_or_else(|e| panic!("{title}: {e}"));
    let endian = file.endian();
    let mut out = format!(
        "== {title}: ELF{}\n",
        if E::is_type_64_sized() { 64 } else { 32 }
    );
    let table = file.elf_section_table();
    for (i, s) in table.iter().enumerate().skip(1) {
        let name = table
            .section_name(endian, s)
            .map(|n| String::from_utf8_lossy(n).into_owned())
            .unwrap_or_default();
        let _ = writeln!(out, "section {i} {name}");
    }
    let symbols = file.elf_symbol_table();
    for s in symbols.symbols() {
        let name = symbols
            .symbol_name(endian, s)
            .map(|n| String::from_utf8_lossy(n).into_owned())
            .unwrap_or_default();
        let value: u64 = s.st_value(endian).into();
        let size: u64 = s.st_size(endian).into();
        let _ = writeln!(
            out,
            "symbol {name:?} value={value:#x} size={size} bind={} type={} other={} section={}",
            s.st_bind(),
            s.st_type(),
            s.st_other(),
            section_name(&file, s.st_shndx(endian)),
        );
    }
    out
}

/// A copy of `data` that `object` can read in place (an embedded ELF may be unaligned).
fn aligned(data: &[u8]) -> AlignedCopy {
    let mut buffer = vec![0u8; data.len() + 8];
    let at = buffer.as_ptr().align_offset(8);
    buffer[at..at + data.len()].copy_from_slice(data);
    AlignedCopy {
        buffer,
        at,
        len: data.len(),
    }
}

struct AlignedCopy {
    buffer: Vec<u8>,
    at: usize,
    len: usize,
}

impl AlignedCopy {
    fn as_slice(&self) -> &[u8] {
        &self.buffer[self.at..self.at + self.len]
    }
}

fn describe_any(title: &str, data: &[u8]) -> String {
    let copy = aligned(data);
    let data = copy.as_slice();
    match FileKind::parse(data) {
        Ok(FileKind::Elf32) => describe::<elf::FileHeader32<Endianness>>(title, data),
        Ok(FileKind::Elf64) => describe::<elf::FileHeader64<Endianness>>(title, data),
        k => panic!("{title}: not an ELF ({k:?})"),
    }
}

/// The offset and size of each section of an ELF, by name.
fn sections_of(data: &[u8]) -> Vec<(String, usize, usize)> {
    let copy = aligned(data);
    let data = copy.as_slice();
    fn of<E: FileHeader<Endian = Endianness>>(data: &[u8]) -> Vec<(String, usize, usize)> {
        let file = ElfFile::<E>::parse(data).expect("an ELF");
        let endian = file.endian();
        let table = file.elf_section_table();
        table
            .iter()
            .map(|s| {
                let name = table
                    .section_name(endian, s)
                    .map(|n| String::from_utf8_lossy(n).into_owned())
                    .unwrap_or_default();
                let offset: u64 = s.sh_offset(endian).into();
                let size: u64 = s.sh_size(endian).into();
                (name, offset as usize, size as usize)
            })
            .collect()
    }
    match FileKind::parse(data) {
        Ok(FileKind::Elf64) => of::<elf::FileHeader64<Endianness>>(data),
        _ => of::<elf::FileHeader32<Endianness>>(data),
    }
}

/// The main ELF's `.text`.
fn main_text(bytes: &[u8]) -> &[u8] {
    let (_, offset, size) = sections_of(bytes)
        .into_iter()
        .find(|s| s.0 == ".text")
        .expect("a .text");
    &bytes[offset..offset + size]
}

/// The ELFs of the binary: (title, bytes).
fn elfs(format: BinaryFormat, bytes: &[u8]) -> Vec<(String, Vec<u8>)> {
    match format {
        BinaryFormat::Amd => {
            let mut out = vec![("main".to_string(), bytes.to_vec())];
            // Each kernel's inner ELF is where its `__OpenCL_NAME_kernel` symbol says.
            let copy = aligned(bytes);
            let file = object::File::parse(copy.as_slice()).expect("an ELF");
            for s in file.symbols() {
                let name = s.name().unwrap_or_default();
                if let Some(kernel) = name
                    .strip_prefix("__OpenCL_")
                    .and_then(|n| n.strip_suffix("_kernel"))
                {
                    let (start, size) = (s.address() as usize, s.size() as usize);
                    out.push((
                        format!("inner {kernel}"),
                        main_text(bytes)[start..start + size].to_vec(),
                    ));
                }
            }
            out
        }
        BinaryFormat::AmdCl2 => {
            let mut out = vec![("main".to_string(), bytes.to_vec())];
            let has_text = sections_of(bytes).iter().any(|s| s.0 == ".text");
            if has_text && main_text(bytes).starts_with(b"\x7fELF") {
                out.push(("inner".to_string(), main_text(bytes).to_vec()));
            }
            out
        }
        BinaryFormat::Gallium => {
            let start = bytes
                .windows(4)
                .position(|w| w == b"\x7fELF")
                .expect("an embedded ELF");
            vec![("ELF".to_string(), bytes[start..].to_vec())]
        }
        f => panic!("format {f:?} has no added-symbol rules here"),
    }
}

/// `hexdump -C`: 16 bytes a line, a run of lines equal to the one before as `*`.
fn hex_dump(bytes: &[u8]) -> String {
    let mut out = String::new();
    let mut previous: Option<&[u8]> = None;
    let mut starred = false;
    for (i, line) in bytes.chunks(16).enumerate() {
        if previous == Some(line) && line.len() == 16 {
            if !starred {
                out.push_str("*\n");
                starred = true;
            }
            continue;
        }
        starred = false;
        previous = Some(line);
        let hex: Vec<String> = line.iter().map(|b| format!("{b:02x}")).collect();
        let text: String = line
            .iter()
            .map(|&b| {
                if (0x20..0x7f).contains(&b) {
                    b as char
                } else {
                    '.'
                }
            })
            .collect();
        let _ = writeln!(out, "{:08x}  {:<47}  |{text}|", i * 16, hex.join(" "));
    }
    let _ = writeln!(out, "{:08x}", bytes.len());
    out
}

fn render(path: &Path, text: String) -> String {
    let name = path.to_string_lossy().replace('\\', "/");
    let opts = Options {
        force_add_symbols: true,
        ..Options::default()
    };
    let result = assemble(vec![Input { name, text }], opts);
    let mut out = String::from("== diagnostics\n");
    for d in &result.diagnostics {
        let _ = writeln!(out, "{}", d.render(&result.sources));
    }
    if result.has_errors() {
        return out;
    }
    match result.binary() {
        Err(errors) => {
            for d in errors {
                let _ = writeln!(out, "{}", d.render(&result.sources));
            }
        }
        Ok(bytes) => {
            for (title, elf) in elfs(result.format, &bytes) {
                out.push_str(&describe_any(&title, &elf));
            }
            let _ = writeln!(out, "== bytes");
            out.push_str(&hex_dump(&bytes));
        }
    }
    out
}

#[test]
fn added_symbols_test_data() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/added_symbols");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "s"))
        .collect();
    files.sort();
    assert!(!files.is_empty());
    for file in files {
        let relative = Path::new("added_symbols").join(file.file_name().unwrap());
        let text = std::fs::read_to_string(&file).unwrap();
        expect_file![file.with_extension("txt")].assert_eq(&render(&relative, text));
    }
}

#[test]
fn hex_dump_collapses_repeated_lines() {
    let mut bytes = vec![0u8; 40];
    bytes.extend_from_slice(b"ELF");
    let dump = hex_dump(&bytes);
    assert_eq!(dump.lines().count(), 4, "{dump}");
    assert!(dump.contains("*\n00000020"), "{dump}");
    assert!(dump.ends_with("0000002b\n"), "{dump}");
}
