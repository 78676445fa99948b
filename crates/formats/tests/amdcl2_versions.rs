//! AMD OpenCL 2.0 binaries across driver versions, GPUs and bitness: every field that
//! depends on them, checked against `data/amdcl2_versions.txt` (values derived from the
//! reference generator's rules; see the comments there).

use gcn_asm::{assemble_here, Input, Options, Severity};

const SOURCE: &str = "
.amdcl2
.gpu GPU
.BITSbit
.driver_version DRIVER
.kernel k
    .config
        .dims x
        .useargs
        .arg n, char
        .arg v, int3
        .arg p, float*, global
    .text
        s_endpgm
";

/// A minimal ELF reader: what the checks need, nothing the writer could share.
struct Elf<'a> {
    data: &'a [u8],
    is64: bool,
    flags: u32,
    /// Name, offset, size.
    sections: Vec<(String, usize, usize)>,
    /// Program header type and flags.
    program_headers: Vec<(u32, u32)>,
}

fn u16_at(d: &[u8], o: usize) -> u16 {
    u16::from_le_bytes(d[o..o + 2].try_into().unwrap())
}
fn u32_at(d: &[u8], o: usize) -> u32 {
    u32::from_le_bytes(d[o..o + 4].try_into().unwrap())
}
fn u64_at(d: &[u8], o: usize) -> u64 {
    u64::from_le_bytes(d[o..o + 8].try_into().unwrap())
}

impl<'a> Elf<'a> {
    fn parse(data: &'a [u8]) -> Elf<'a> {
        assert_eq!(&data[..4], b"\x7fELF");
        let is64 = data[4] == 2;
        let word = |o: usize| {
            if is64 {
                u64_at(data, o) as usize
            } else {
                u32_at(data, o) as usize
            }
        };
        let (phoff, shoff, flags, phnum, shentsize, shnum, shstrndx) = if is64 {
            (
                word(0x20),
                word(0x28),
                u32_at(data, 0x30),
                u16_at(data, 0x38),
                u16_at(data, 0x3a),
                u16_at(data, 0x3c),
                u16_at(data, 0x3e),
            )
        } else {
            (
                word(0x1c),
                word(0x20),
                u32_at(data, 0x24),
                u16_at(data, 0x2c),
                u16_at(data, 0x2e),
                u16_at(data, 0x30),
                u16_at(data, 0x32),
            )
        };
        let header = |i: usize| shoff + i * shentsize as usize;
        let (off_at, size_at) = if is64 { (0x18, 0x20) } else { (0x10, 0x14) };
        let raw: Vec<(u32, usize, usize)> = (0..shnum as usize)
            .map(|i| {
                (
                    u32_at(data, header(i)),
                    word(header(i) + off_at),
                    word(header(i) + size_at),
                )
            })
            .collect();
        let strtab = raw[shstrndx as usize].1;
        let name = |at: u32| {
            let s = &data[strtab + at as usize..];
            String::from_utf8(s[..s.iter().position(|&c| c == 0).unwrap()].to_vec()).unwrap()
        };
        let sections = raw
            .iter()
            .skip(1)
            .map(|&(n, o, s)| (name(n), o, s))
            .collect();
        let phentsize = if is64 { 56 } else { 32 };
        let program_headers = (0..phnum as usize)
            .map(|i| {
                let at = phoff + i * phentsize;
                (
                    u32_at(data, at),
                    if is64 {
                        u32_at(data, at + 4)
                    } else {
                        u32_at(data, at + 24)
                    },
                )
            })
            .collect();
        Elf {
            data,
            is64,
            flags,
            sections,
            program_headers,
        }
    }

    fn names(&self) -> Vec<&str> {
        self.sections.iter().map(|s| s.0.as_str()).collect()
    }

    fn section(&self, name: &str) -> &'a [u8] {
        let s = self
            .sections
            .iter()
            .find(|s| s.0 == name)
            .unwrap_or_else(|| panic!("no section {name} in {:?}", self.names()));
        &self.data[s.1..s.1 + s.2]
    }
}

/// Notes of a note section: type and description.
fn notes(data: &[u8]) -> Vec<(u32, Vec<u8>)> {
    let mut out = Vec::new();
    let mut at = 0;
    while at + 12 <= data.len() {
        let (namesz, descsz, ntype) = (
            u32_at(data, at) as usize,
            u32_at(data, at + 4) as usize,
            u32_at(data, at + 8),
        );
        at += 12 + namesz.next_multiple_of(4);
        out.push((ntype, data[at..at + descsz].to_vec()));
        at += descsz.next_multiple_of(4);
    }
    out
}

fn number(s: &str) -> u64 {
    match s.strip_prefix("0x") {
        Some(h) => u64::from_str_radix(h, 16).unwrap(),
        None => s.parse().unwrap(),
    }
}

fn check(line: &str) -> Result<(), String> {
    let (head, fields) = line.split_once(':').unwrap();
    let head: Vec<&str> = head.split_whitespace().collect();
    let (driver, gpu, bits) = (head[0], head[1], head[2]);
    let source = SOURCE
        .replace("DRIVER", driver)
        .replace("GPU", gpu)
        .replace("BITS", bits);
    let a = assemble_here(
        vec![Input {
            name: "test.s".into(),
            text: source,
        }],
        Options::default(),
    );
    let errors: Vec<_> = a
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| d.message.clone())
        .collect();
    // `error=` takes the rest of the line.
    let fields: Vec<(&str, &str)> = match fields.trim().strip_prefix("error=") {
        Some(e) => vec![("error", e)],
        None => fields
            .split_whitespace()
            .map(|f| f.split_once('=').unwrap())
            .collect(),
    };
    let field = |k: &str| fields.iter().find(|f| f.0 == k).map(|f| f.1);
    if !errors.is_empty() {
        return Err(format!("assembly errors {errors:?}"));
    }
    let bytes = match (a.binary(), field("error")) {
        (Ok(_), Some(e)) => return Err(format!("written, expected the error `{e}`")),
        (Err(d), Some(e)) => {
            let messages: Vec<_> = d.iter().map(|d| d.message.clone()).collect();
            return if messages.iter().any(|m| m.contains(e)) {
                Ok(())
            } else {
                Err(format!("errors {messages:?}, expected `{e}`"))
            };
        }
        (Err(d), None) => {
            return Err(format!(
                "errors {:?}",
                d.iter().map(|d| &d.message).collect::<Vec<_>>()
            ))
        }
        (Ok(b), None) => b,
    };
    let mut wrong = Vec::new();
    let mut expect = |what: &str, got: String, want: String| {
        if got != want {
            wrong.push(format!("{what}: got {got}, expected {want}"));
        }
    };
    let outer = Elf::parse(&bytes);
    expect(
        "class",
        (if outer.is64 { "64" } else { "32" }).into(),
        bits.into(),
    );
    expect(
        "flags",
        outer.flags.to_string(),
        field("flags").unwrap().into(),
    );
    let layout = field("layout").unwrap();
    // The setup: after the 0xa60-byte stub (old), else first in the inner .hsatext.
    let setup: &[u8] = if layout == "old" {
        expect(
            "acl",
            String::from_utf8_lossy(outer.section(".comment")).into(),
            "AMD-COMP-LIB-v0.8 (0.0.326)".into(),
        );
        // Metadata, then the 20-byte ISA metadata.
        let meta_size = number(field("meta").unwrap().split(',').nth(1).unwrap()) as usize;
        expect(
            "rodata size",
            outer.section(".rodata").len().to_string(),
            (meta_size + 20).to_string(),
        );
        &outer.section(".text")[0xa60..0xa60 + 256]
    } else {
        expect(
            "acl",
            String::from_utf8_lossy(outer.section(".comment")).into(),
            "AMD-COMP-LIB-v0.8 (0.0.SC_BUILD_NUMBER)".into(),
        );
        let inner = Elf::parse(outer.section(".text"));
        let sections = if layout == "1912" {
            vec![".hsatext", ".note", ".strtab", ".symtab", ".shstrtab"]
        } else {
            vec![".shstrtab", ".strtab", ".note", ".hsatext", ".symtab"]
        };
        expect(
            "inner sections",
            format!("{:?}", inner.names()),
            format!("{sections:?}"),
        );
        let notes = notes(inner.section(".note"));
        let types: Vec<u32> = notes.iter().map(|n| n.0).collect();
        expect(
            "note types",
            format!("{types:?}"),
            (if layout == "1912" {
                "[1, 2, 5, 3, 4]"
            } else {
                "[1, 2, 3, 4, 5]"
            })
            .into(),
        );
        let desc = |t: u32| {
            notes
                .iter()
                .find(|n| n.0 == t)
                .map(|n| n.1.clone())
                .unwrap_or_default()
        };
        let is64 = bits == "64";
        expect(
            "note 1",
            format!("{:?}", desc(1)),
            format!("{:?}", [1u8, 0, 0, 0, 0, 0, 0, 0]),
        );
        expect(
            "note 2",
            format!("{:?}", desc(2)),
            format!("{:?}", [1u8, 0, 0, 0, 0, 0, 0, 0, 1, u8::from(is64), 1, 0]),
        );
        let n3 = desc(3);
        expect(
            "note 3 size",
            n3.len().to_string(),
            (if layout == "1912" { 0x1e } else { 0x1a }).to_string(),
        );
        let isa = format!("{}.{}.{}", u32_at(&n3, 4), u32_at(&n3, 8), u32_at(&n3, 12));
        expect("isa version", isa, field("isa").unwrap().into());
        expect(
            "note 3 head",
            format!("{:?}", &n3[..4]),
            format!("{:?}", [4u8, 0, 7, 0]),
        );
        expect(
            "note 3 vendor",
            String::from_utf8_lossy(&n3[16..26]).into(),
            "AMD\0AMDGPU".into(),
        );
        let n4 = desc(4);
        let n4_want: Vec<u8> = match (layout, is64) {
            ("1912", true) => vec![0xf0, 0x83, 0x17, 0xfb, 0xfc, 0x7f, 0, 0],
            ("1912", false) => vec![0xb0, 0xa6, 0xf2, 0],
            _ => [
                &[0x19u8, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0][..],
                b"AMD HSA Runtime Finalizer\0\0\0\0",
            ]
            .concat(),
        };
        expect("note 4", format!("{n4:?}"), format!("{n4_want:?}"));
        let n5_want: Vec<u8> = match (layout, field("note5").unwrap()) {
            ("1912", "64") => b"\x16\0-hsa_call_convention=\0\0".to_vec(),
            ("1912", _) => b"\x31\0-hsa_call_convention=0 -use-buffer-for-hsa-globa".to_vec(),
            (_, "64") => b"\x16\0-hsa_call_convention=0\0\0".to_vec(),
            (_, "gpupro") => b"\x16\0-hsa_call_convention=0\0t".to_vec(),
            _ => b"\x32\0-hsa_call_convention=0 -use-buffer-for-hsa-global \0R".to_vec(),
        };
        expect(
            "note 5",
            String::from_utf8_lossy(&desc(5)).into(),
            String::from_utf8_lossy(&n5_want).into(),
        );
        let code_ph = inner
            .program_headers
            .iter()
            .find(|p| p.0 == 0x6000_0003)
            .map_or(0, |p| p.1);
        expect(
            "code program header flags",
            code_ph.to_string(),
            field("ph").unwrap().into(),
        );
        &inner.section(".hsatext")[..256]
    };
    // Metadata.
    let meta: Vec<&str> = field("meta").unwrap().split(',').collect();
    let rodata = outer.section(".rodata");
    let is64 = bits == "64";
    let word = |o: usize| {
        if is64 {
            u64_at(rodata, o)
        } else {
            u64::from(u32_at(rodata, o))
        }
    };
    let w = if is64 { 8 } else { 4 };
    expect(
        "metadata header size",
        word(0).to_string(),
        number(meta[0]).to_string(),
    );
    expect("metadata size", word(w).to_string(), meta[1].into());
    let dummy = rodata
        .windows(22)
        .position(|s| s == b"__OpenCL_dummy_kernel\0")
        .unwrap()
        + 22;
    let arch_word_len = rodata[dummy..].iter().position(|&c| c == 0).unwrap();
    expect(
        "arch word",
        String::from_utf8_lossy(&rodata[dummy..dummy + arch_word_len]).into(),
        meta[2].into(),
    );
    // The first argument entry follows the strings (and, from 2004.06, the empty vector
    // type hint).
    let entry = dummy + arch_word_len + 1 + usize::from(layout == "16.3");
    expect(
        "first argument entry size",
        word(entry).to_string(),
        (if is64 { 88 } else { 64 }).to_string(),
    );
    let type_at = entry + if is64 { 52 } else { 32 };
    expect(
        "char type code",
        u32_at(rodata, type_at).to_string(),
        field("chartype").unwrap().into(),
    );
    // Setup.
    let s: Vec<u64> = field("setup").unwrap().split(',').map(number).collect();
    expect(
        "setup word",
        format!("{:#x}", u64_at(setup, 0)),
        format!("{:#x}", s[0]),
    );
    expect(
        "arch indicator",
        format!("{:#x}", u16_at(setup, 58)),
        format!("{:#x}", s[1]),
    );
    expect(
        "setup1",
        format!("{:#x}", u16_at(setup, 56)),
        format!("{:#x}", s[2]),
    );
    expect(
        "kernel argument size",
        u32_at(setup, 72).to_string(),
        s[3].to_string(),
    );
    expect(
        "setup2",
        format!("{:#x}", u32_at(setup, 100)),
        format!("{:#x}", s[4]),
    );
    expect(
        "PGM_RSRC2",
        format!("{:#x}", u32_at(setup, 52)),
        format!("{:#x}", s[5]),
    );
    if wrong.is_empty() {
        Ok(())
    } else {
        Err(wrong.join("; "))
    }
}

#[test]
fn version_dependent_fields_follow_the_reference_rules() {
    let data = include_str!("data/amdcl2_versions.txt");
    let mut failures = Vec::new();
    let mut cases = 0;
    for line in data
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
    {
        cases += 1;
        if let Err(e) = check(line) {
            failures.push(format!("{line}\n    {e}"));
        }
    }
    assert!(cases > 20);
    assert!(
        failures.is_empty(),
        "{} of {cases} cases differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Symbols of an ELF's `.symtab`: name, section index, value, size.
fn symbols(elf: &Elf) -> Vec<(String, u16, u64, u64)> {
    let (symtab, strtab) = (elf.section(".symtab"), elf.section(".strtab"));
    let size = if elf.is64 { 24 } else { 16 };
    symtab
        .chunks_exact(size)
        .map(|s| {
            let name = &strtab[u32_at(s, 0) as usize..];
            let name =
                String::from_utf8(name[..name.iter().position(|&c| c == 0).unwrap()].to_vec())
                    .unwrap();
            if elf.is64 {
                (name, u16_at(s, 6), u64_at(s, 8), u64_at(s, 16))
            } else {
                (
                    name,
                    u16_at(s, 14),
                    u64::from(u32_at(s, 4)),
                    u64::from(u32_at(s, 8)),
                )
            }
        })
        .collect()
}

#[test]
fn a_brig_section_gets_its_symbol_in_every_layout() {
    for driver in ["180005", "191205", "234800"] {
        let source = format!(
            ".amdcl2\n.gpu Bonaire\n.64bit\n.driver_version {driver}\n.compile_options \"-O\"\n\
             .section .other\n.byte 1\n.section .brig\n.byte 1, 2, 3\n\
             .kernel k\n    .config\n        .dims x\n    .text\n        s_endpgm\n"
        );
        let a = assemble_here(
            vec![Input {
                name: "test.s".into(),
                text: source,
            }],
            Options::default(),
        );
        let bytes = a
            .binary()
            .unwrap_or_else(|e| panic!("{:?}", e.iter().map(|d| &d.message).collect::<Vec<_>>()));
        let outer = Elf::parse(&bytes);
        let names: Vec<String> = symbols(&outer).into_iter().map(|s| s.0).collect();
        // After the kernels' metadata symbols, before the old layout's ISA symbols.
        let mut want = vec![
            "",
            "__OpenCL_compiler_options",
            "__OpenCL_&__OpenCL_k_kernel_metadata",
            "__BRIG__",
        ];
        if driver == "180005" {
            want.extend([
                "__ISA_&__OpenCL_k_kernel_binary",
                "__ISA_&__OpenCL_k_kernel_metadata",
            ]);
        }
        want.push("acl_version_string");
        assert_eq!(names, want, "driver {driver}");
        // The second extra section: index 7 + 1 (after .rodata 5 and .text 6), 3 bytes.
        let brig = symbols(&outer)
            .into_iter()
            .find(|s| s.0 == "__BRIG__")
            .unwrap();
        assert_eq!((brig.1, brig.2, brig.3), (8, 0, 3), "driver {driver}");
        assert_eq!(outer.names()[7], ".brig", "driver {driver}");
    }
}

/// Section header fields: type, flags, link, info, alignment, entry size.
fn section_header(elf: &Elf, name: &str) -> (u32, u64, u32, u32, u64, u64) {
    let d = elf.data;
    let (shoff, shentsize) = if elf.is64 {
        (u64_at(d, 0x28) as usize, u16_at(d, 0x3a))
    } else {
        (u32_at(d, 0x20) as usize, u16_at(d, 0x2e))
    };
    let i = 1 + elf.sections.iter().position(|s| s.0 == name).unwrap();
    let h = shoff + i * shentsize as usize;
    if elf.is64 {
        (
            u32_at(d, h + 4),
            u64_at(d, h + 8),
            u32_at(d, h + 40),
            u32_at(d, h + 44),
            u64_at(d, h + 48),
            u64_at(d, h + 56),
        )
    } else {
        let w = |o| u64::from(u32_at(d, h + o));
        (
            u32_at(d, h + 4),
            w(8),
            u32_at(d, h + 24),
            u32_at(d, h + 28),
            w(32),
            w(36),
        )
    }
}

/// Relocations with addends (64-bit): offset, symbol, type, addend.
fn relas(data: &[u8]) -> Vec<(u64, u64, u64, u64)> {
    data.chunks_exact(24)
        .map(|r| {
            (
                u64_at(r, 0),
                u64_at(r, 8) >> 32,
                u64_at(r, 8) & 0xffff_ffff,
                u64_at(r, 16),
            )
        })
        .collect()
}

/// Global data, read-write data, bss and samplers in the inner binary, with
/// relocations to each: section order, symbol order and indices, relocation symbols,
/// the global data padding before 2004.06, program headers (rules of the reference's
/// `generateInternal`, `putInnerSymbols`, `CL2InnerTextRelsGen`, `CL2InnerGlobalDataRelsGen`).
#[test]
fn inner_data_samplers_and_relocations_in_both_new_layouts() {
    for driver in ["191205", "200406"] {
        let v16_3 = driver == "200406";
        let source = format!(
            ".amdcl2\n.gpu Bonaire\n.64bit\n.driver_version {driver}\n\
             .globaldata\ng: .int 1, 2, 3, 4\n    .quad 0, 0\n\
             .rwdata\nrw: .int 5\n\
             .bssdata align=16\nb: .skip 12\n\
             .sampler 0x11, 0x22\n\
             .kernel k\n    .config\n        .dims x\n        .sampler 1\n    .text\n\
             s_mov_b32 s0, g+4\n s_mov_b32 s1, (rw+2)>>32\n s_mov_b32 s2, b+1\n s_endpgm\n"
        );
        let a = assemble_here(
            vec![Input {
                name: "test.s".into(),
                text: source,
            }],
            Options::default(),
        );
        let errors: Vec<_> = a
            .diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .map(|d| d.message.clone())
            .collect();
        assert!(errors.is_empty(), "{errors:?}");
        let bytes = a
            .binary()
            .unwrap_or_else(|e| panic!("{:?}", e.iter().map(|d| &d.message).collect::<Vec<_>>()));
        let outer = Elf::parse(&bytes);
        let inner = Elf::parse(outer.section(".text"));
        let data = [
            ".hsadata_global_agent",
            ".hsabss_global_agent",
            ".hsadata_readonly_agent",
            ".hsatext",
        ];
        let rest = [
            ".hsaimage_samplerinit",
            ".rela.hsadata_readonly_agent",
            ".rela.hsatext",
        ];
        let sections: Vec<&str> = if v16_3 {
            [
                &[".shstrtab", ".strtab", ".note"][..],
                &data,
                &[".symtab"],
                &rest,
            ]
            .concat()
        } else {
            [
                &data[..],
                &rest,
                &[".note", ".strtab", ".symtab", ".shstrtab"],
            ]
            .concat()
        };
        assert_eq!(inner.names(), sections, "driver {driver}");
        let index = |name: &str| 1 + inner.names().iter().position(|n| *n == name).unwrap() as u16;
        let (ro, text, si) = (
            index(".hsadata_readonly_agent"),
            index(".hsatext"),
            index(".hsaimage_samplerinit"),
        );
        // Global data: padded (with read-write data and bss) to 256 bytes before 2004.06.
        assert_eq!(
            inner.section(".hsadata_readonly_agent").len(),
            if v16_3 { 32 } else { 256 - 4 - 12 },
            "driver {driver}"
        );
        // The kernel's sampler first, then the kernel, the other samplers, the section
        // symbols, one symbol per sampler initializer. Sampler values: global data size
        // minus the sampler count, plus 8 per sampler (as the reference counts them).
        let code_size = 256 + 3 * 8 + 4;
        let mut want: Vec<(String, u16, u64, u64)> = vec![
            ("&input_bc::&_.Samp1".into(), ro, 30 + 8, 8),
            ("&__OpenCL_k_kernel".into(), text, 0, code_size),
            ("&input_bc::&_.Samp0".into(), ro, 30, 8),
            (
                "__hsa_section.hsadata_global_agent".into(),
                index(".hsadata_global_agent"),
                0,
                0,
            ),
            (
                "__hsa_section.hsabss_global_agent".into(),
                index(".hsabss_global_agent"),
                0,
                0,
            ),
            ("__hsa_section.hsadata_readonly_agent".into(), ro, 0, 0),
            ("__hsa_section.hsatext".into(), text, 0, 0),
            (String::new(), si, 0, 0),
            (String::new(), si, 8, 0),
        ];
        if v16_3 {
            want.insert(0, (String::new(), 0, 0, 0));
        }
        assert_eq!(symbols(&inner), want, "driver {driver}");
        let first = u64::from(v16_3);
        // Sampler relocations: the last 16 bytes of the global data, to the sampler
        // initializer symbols.
        assert_eq!(
            relas(inner.section(".rela.hsadata_readonly_agent")),
            vec![(16, first + 7, 4, 0), (24, first + 8, 4, 0)]
        );
        // Code relocations: after the 256-byte setup; low 32 bits type 1, high type 2;
        // read-write data, bss, global data section symbols in that order.
        assert_eq!(
            relas(inner.section(".rela.hsatext")),
            vec![
                (260, first + 5, 1, 4),
                (268, first + 3, 2, 2),
                (276, first + 4, 1, 1)
            ],
            "driver {driver}"
        );
        let symtab = index(".symtab") as u32;
        assert_eq!(
            section_header(&inner, ".rela.hsatext"),
            (4, 0, symtab, text as u32, 8, 24)
        );
        assert_eq!(
            section_header(&inner, ".rela.hsadata_readonly_agent"),
            (4, 0, symtab, ro as u32, 8, 24)
        );
        // Sampler initializers: flags SHF_MERGE, entry size 8, aligned to 8 from 2004.06.
        assert_eq!(
            section_header(&inner, ".hsaimage_samplerinit"),
            (1, 0x10, 0, 0, if v16_3 { 8 } else { 1 }, 8)
        );
        assert_eq!(
            inner.section(".hsaimage_samplerinit"),
            [8, 0, 1, 0, 0x11, 0, 0, 0, 8, 0, 1, 0, 0x22, 0, 0, 0]
        );
        assert_eq!(section_header(&inner, ".hsabss_global_agent").4, 16);
        // Program headers: data (read-write and bss), global data, code.
        let ph: Vec<(u32, u32)> = inner
            .program_headers
            .iter()
            .copied()
            .filter(|p| p.0 >= 0x6000_0000)
            .collect();
        assert_eq!(
            ph,
            vec![
                (0x6000_0001, 6),
                (0x6000_0002, 6),
                (0x6000_0003, if v16_3 { 5 } else { 6 })
            ],
            "driver {driver}"
        );
    }
}

/// The old layout (drivers before 1912.05) from `.config`: the generated 0xa60-byte
/// stub, the setup and the metadata's fields that only it has (rules of the reference's
/// `generateKernelStub`, `analyzeCode`, `generateKernelSetup` with old binaries and
/// `writeMetadata`).
#[test]
fn old_layout_stub_setup_and_metadata_from_config() {
    let code = "s_mov_b32 s0, 1\n v_mov_b32 v0, 0x1234\n buffer_load_dword v1, v0, s[0:3], 0 offen\n ds_read_b32 v2, v0\n s_endpgm\n";
    // (gpu, config, stub words at their offsets, setup words, metadata options and
    // pipes/scratch field)
    struct Case {
        gpu: &'static str,
        config: &'static str,
        stub: Vec<(usize, u32)>,
        setup: Vec<(usize, u32)>,
        options: u32,
        pipes_usage: u64,
        enqueue: u32,
    }
    let cases = [
        Case {
            gpu: "Bonaire",
            config: ".dims x\n .localsize 1000\n .sgprsnum 10\n .vgprsnum 7\n .arg n, uint\n",
            stub: vec![
                // header: text offset, instructions, VGPRs, size (instructions), global and
                // local memory operations, SGPRs+VGPRs, SGPRs with VCC
                (0, 0xa60),
                (4, 5),
                (8, 7),
                (36, 5),
                (40, 1),
                (44, 1),
                (52, 17),
                (60, 12),
                (0xb8, 0xa60),
                (0x164, 3),
                (0x168, 13),
                // end: text offset, 0x100, code+0x100, 0x200, code+0xb60 twice, VGPRs, all
                // SGPRs, VGPRs, SGPRs, float mode, 1, scratch dwords, local size, all ones
                (0x9a0, 0xa60),
                (0x9a8, 0x100),
                (0x9ac, 32 + 0x100),
                (0x9b8, 0x200),
                (0x9c0, 32 + 0xb60),
                (0x9d0, 32 + 0xb60),
                (0x9d8, 7),
                (0x9dc, 12),
                (0x9e8, 7),
                (0x9ec, 10),
                (0x9f0, 0xc0),
                (0x9f8, 1),
                (0xa08, 0),
                (0xa0c, 1000),
                (0xa10, 0xffff_ffff),
                // PGM_RSRC2 with the LDS size: 4 user SGPRs, TGID_X, 2 LDS blocks
                (0xa48, 0x1_0088),
            ],
            setup: vec![
                (0, 1),
                (4, 0),
                (48, 0xc_0041),
                (52, 0x88),
                (56, 0x000a_0001),
                (60, 0),
                (64, 1000),
                (72, 4),
                (84, 0x0007_000c),
                (88, 7),
                (92, 10),
                (100, 0x0600_0203),
            ],
            options: 0x120,
            pipes_usage: 0,
            enqueue: 0,
        },
        Case {
            gpu: "Tonga",
            config: ".dims xyz\n .scratchbuffer 40\n .useenqueue\n .sgprsnum 20\n .vgprsnum 9\n",
            stub: vec![
                (0, 0xa60),
                (4, 5),
                (8, 9),
                (36, 5),
                (40, 1),
                (44, 1),
                (52, 29),
                (60, 26),
                (0x164, 3),
                (0x168, 12),
                (0x9d8, 9),
                (0x9dc, 26),
                (0x9e8, 9),
                (0x9ec, 20),
                (0xa08, 10),
                (0xa0c, 0),
                // scratch, 10 user SGPRs, TGID_X/Y/Z, TIDIG_COMP_CNT 2 (enqueue)
                (0xa48, 0x1395),
            ],
            setup: vec![
                (0, 1),
                (48, 0xc_00c2),
                (52, 0x1395),
                (56, 0x000a_002b),
                (60, 40),
                (64, 0),
                (72, 0),
                (84, 0x0009_001a),
                (100, 0x0603_0003),
            ],
            options: 0x120,
            pipes_usage: 40,
            enqueue: 1,
        },
    ];
    for c in cases {
        let source = format!(".amdcl2\n.gpu {}\n.64bit\n.driver_version 180005\n.kernel k\n    .config\n {}\n    .text\n {code}", c.gpu, c.config);
        let a = assemble_here(
            vec![Input {
                name: "test.s".into(),
                text: source,
            }],
            Options::default(),
        );
        let errors: Vec<_> = a
            .diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .map(|d| d.message.clone())
            .collect();
        assert!(errors.is_empty(), "{errors:?}");
        let bytes = a
            .binary()
            .unwrap_or_else(|e| panic!("{:?}", e.iter().map(|d| &d.message).collect::<Vec<_>>()));
        let outer = Elf::parse(&bytes);
        let text = outer.section(".text");
        assert_eq!(text.len(), 0xa60 + 256 + 32, "{}", c.gpu);
        for (at, want) in c.stub {
            assert_eq!(u32_at(text, at), want, "{}: stub word at {at:#x}", c.gpu);
        }
        for (at, want) in c.setup {
            assert_eq!(
                u32_at(text, 0xa60 + at),
                want,
                "{}: setup word at {at}",
                c.gpu
            );
        }
        let rodata = outer.section(".rodata");
        assert_eq!(u32_at(rodata, 0x1c), c.options, "{}: options", c.gpu);
        // pipes usage (or the scratch size): after the name lengths and three zero words
        assert_eq!(
            u64_at(rodata, 0x88),
            c.pipes_usage,
            "{}: pipes usage",
            c.gpu
        );
        // use of enqueue, after the argument count and 40 zero bytes
        assert_eq!(u32_at(rodata, 0xa8 + 40), c.enqueue, "{}: enqueue", c.gpu);
        // The 20-byte ISA metadata after the metadata.
        assert_eq!(
            &rodata[rodata.len() - 20..],
            &[0, 0, 0x68, 0, 0, 0, 0, 0, 0, 0, 0, 8, 0x42, 9, 0, 0, 0, 0, 0, 0]
        );
    }
}

/// As the reference, a driver version 0 (`.driver_version 0`, `-t 0`) is no version:
/// the next source of the version applies.
#[test]
fn driver_version_zero_is_not_given() {
    let run = |t: Option<u32>| {
        let source = ".amdcl2\n.gpu Bonaire\n.64bit\n.driver_version 0\n.get_driver_version v\n.kernel k\n    .config\n    .text\n        s_endpgm\n";
        let opts = Options {
            driver_version: t,
            ..Options::default()
        };
        let a = assemble_here(
            vec![Input {
                name: "test.s".into(),
                text: source.into(),
            }],
            opts,
        );
        let v = a
            .symbols
            .iter()
            .find(|s| s.name == "v")
            .and_then(|s| s.value)
            .unwrap() as u64;
        let bytes = a
            .binary()
            .unwrap_or_else(|e| panic!("{:?}", e.iter().map(|d| &d.message).collect::<Vec<_>>()));
        let outer = Elf::parse(&bytes);
        // The old layout has a stub (0xa60 bytes) and no inner ELF in .text.
        (v, outer.section(".text").starts_with(b"\x7fELF"))
    };
    assert_eq!(run(Some(180005)), (180005, false));
    assert_eq!(
        run(Some(0)),
        (u64::from(gcn_formats::DEFAULT_AMDCL2_DRIVER_VERSION), true)
    );
    assert_eq!(
        run(None),
        (u64::from(gcn_formats::DEFAULT_AMDCL2_DRIVER_VERSION), true)
    );
}

/// An `.hsaconfig` kernel in the old layout: the reference makes its stub from the plain
/// configuration, whose register counts stay unset (all ones), and writes the HSA
/// descriptor as the setup.
#[test]
fn old_layout_stub_of_an_hsa_kernel() {
    let source = ".amdcl2\n.gpu Bonaire\n.64bit\n.driver_version 180005\n.kernel k\n    .hsaconfig\n        .dims x\n        .arg n, uint\n    .text\n        s_endpgm\n";
    let a = assemble_here(
        vec![Input {
            name: "test.s".into(),
            text: source.into(),
        }],
        Options::default(),
    );
    let bytes = a
        .binary()
        .unwrap_or_else(|e| panic!("{:?}", e.iter().map(|d| &d.message).collect::<Vec<_>>()));
    let outer = Elf::parse(&bytes);
    let text = outer.section(".text");
    let want = [
        (4, 1),
        (8, u32::MAX),
        (52, u32::MAX - 1),
        (60, 1),
        (0x9d8, u32::MAX),
        (0x9dc, 1),
        (0x9e8, u32::MAX),
        (0x9ec, u32::MAX),
        (0x9f0, 0xc0),
        // 4 user SGPRs, no dimensions (the plain configuration has none)
        (0xa48, 8),
    ];
    for (at, w) in want {
        assert_eq!(u32_at(text, at), w, "stub word at {at:#x}");
    }
    // The setup is the HSA descriptor: version 1.0, machine kind 1.
    assert_eq!(&text[0xa60..0xa60 + 10], &[1, 0, 0, 0, 0, 0, 0, 0, 1, 0]);
}
