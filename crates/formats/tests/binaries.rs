//! Checks beyond bytes: every ELF the writers produce (outer and inner) parses with the
//! `object` crate and holds what was assembled; the code of a GalliumCompute binary and
//! of a ROCm code object disassembles (llvm-objdump from LLVM 14, fixtures made once by
//! `scripts/gallium-disasm-fixture.sh` and `scripts/rocm-disasm-fixture.sh`) to the
//! instructions written.
//!
//! Byte-exactness with the reference is checked by the conformance suite.

use gcn_asm::layout::SectionKind;
use gcn_asm::{assemble_here, Assembly, Input, Options, Severity};
use object::read::elf::{ElfFile32, ElfFile64};
use object::{Endianness, Object, ObjectSection, ObjectSymbol};

/// What `object` reads from an ELF.
#[derive(Debug)]
struct Parsed {
    /// Name, contents, number of relocations.
    sections: Vec<(String, Vec<u8>, usize)>,
    /// Name, address, size.
    symbols: Vec<(String, u64, u64)>,
    /// Name, and the name of the section the symbol is in (`ABS` if absolute).
    symbol_sections: Vec<(String, String)>,
    /// Names of the dynamic symbols.
    dynamic_symbols: Vec<String>,
    /// Dynamic relocations: (offset, symbol index).
    dynamic_relocations: Vec<(u64, usize)>,
}

impl Parsed {
    fn section(&self, name: &str) -> &[u8] {
        match self.sections.iter().find(|s| s.0 == name) {
            Some(s) => &s.1,
            None => panic!(
                "no section {name} in {:?}",
                self.sections.iter().map(|s| &s.0).collect::<Vec<_>>()
            ),
        }
    }

    fn relocations(&self, name: &str) -> usize {
        self.sections
            .iter()
            .find(|s| s.0 == name)
            .map_or(0, |s| s.2)
    }

    fn symbol_section(&self, name: &str) -> &str {
        match self.symbol_sections.iter().find(|s| s.0 == name) {
            Some(s) => &s.1,
            None => panic!(
                "no symbol {name} in {:?}",
                self.symbols.iter().map(|s| &s.0).collect::<Vec<_>>()
            ),
        }
    }

    fn symbol(&self, name: &str) -> (u64, u64) {
        match self.symbols.iter().find(|s| s.0 == name) {
            Some(s) => (s.1, s.2),
            None => panic!(
                "no symbol {name} in {:?}",
                self.symbols.iter().map(|s| &s.0).collect::<Vec<_>>()
            ),
        }
    }
}

fn describe<'d, O: Object<'d>>(file: &O) -> Parsed {
    Parsed {
        sections: file
            .sections()
            .map(|s| {
                let name = s.name().expect("section name").to_string();
                let data = s.data().expect("section data").to_vec();
                (name, data, s.relocations().count())
            })
            .collect(),
        symbols: file
            .symbols()
            .map(|s| {
                (
                    s.name().expect("symbol name").to_string(),
                    s.address(),
                    s.size(),
                )
            })
            .collect(),
        symbol_sections: file
            .symbols()
            .map(|s| {
                let section = match s.section() {
                    object::SymbolSection::Section(i) => file
                        .section_by_index(i)
                        .and_then(|x| x.name().map(str::to_string))
                        .expect("a section"),
                    object::SymbolSection::Absolute => "ABS".to_string(),
                    other => format!("{other:?}"),
                };
                (s.name().expect("symbol name").to_string(), section)
            })
            .collect(),
        dynamic_symbols: file
            .dynamic_symbols()
            .map(|s| s.name().expect("dynamic symbol name").to_string())
            .collect(),
        dynamic_relocations: file
            .dynamic_relocations()
            .into_iter()
            .flatten()
            .map(|(offset, r)| {
                let index = match r.target() {
                    object::RelocationTarget::Symbol(i) => i.0,
                    t => panic!("relocation target {t:?}"),
                };
                (offset, index)
            })
            .collect(),
    }
}

/// Parses an ELF of either class with `object`, failing the test if it cannot.
fn parse(data: &[u8]) -> Parsed {
    assert_eq!(&data[..4], b"\x7fELF", "not an ELF");
    // `object` reads the headers in place: give an embedded ELF an aligned copy.
    let mut buffer = vec![0u8; data.len() + 8];
    let at = buffer.as_ptr().align_offset(8);
    buffer[at..at + data.len()].copy_from_slice(data);
    let data = &buffer[at..at + data.len()];
    match data[4] {
        1 => describe(&ElfFile32::<Endianness>::parse(data).expect("a valid 32-bit ELF")),
        2 => describe(&ElfFile64::<Endianness>::parse(data).expect("a valid 64-bit ELF")),
        c => panic!("ELF class {c}"),
    }
}

fn assemble(source: &str) -> (Assembly, Vec<u8>) {
    assemble_with(source, Options::default())
}

fn assemble_with(source: &str, options: Options) -> (Assembly, Vec<u8>) {
    let a = assemble_here(
        vec![Input {
            name: "test.s".into(),
            text: source.into(),
        }],
        options,
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
    (a, bytes)
}

/// The code assembled for kernel `k` (its own code section), or of the shared `.text`.
fn code(a: &Assembly, kernel: Option<usize>) -> Vec<u8> {
    a.sections
        .iter()
        .find(|s| s.kind == SectionKind::Code && s.kernel == kernel)
        .map(|s| s.content.clone())
        .unwrap_or_default()
}

const AMD: &str = "
.amd
.gpu Pitcairn
BITS
.globaldata
    .int 1, 2, 3
.kernel add
    .config
        .dims x
        .arg n, uint
        .arg a, float*, global
    .text
        s_mov_b32 s0, 1
        v_mov_b32 v0, s0
        s_endpgm
.kernel sub
    .config
        .dims xy
        .arg b, float*, global, const
        .arg s, sampler
    .text
        v_mov_b32 v1, v0
        s_endpgm
";

#[test]
fn amd_opencl_1_2_elfs_parse() {
    for bits in [".32bit", ".64bit"] {
        let (a, bytes) = assemble(&AMD.replace("BITS", bits));
        assert_eq!(bytes[4], if bits == ".32bit" { 1 } else { 2 });
        let outer = parse(&bytes);
        let text = outer.section(".text");
        outer.symbol("__OpenCL_0_global");
        for (k, name) in a.kernels.iter().enumerate() {
            outer.symbol(&format!("__OpenCL_{name}_metadata"));
            outer.symbol(&format!("__OpenCL_{name}_header"));
            let (start, size) = outer.symbol(&format!("__OpenCL_{name}_kernel"));
            let inner = parse(&text[start as usize..(start + size) as usize]);
            assert_eq!(
                inner.section(".text"),
                code(&a, Some(k)).as_slice(),
                "kernel {name}"
            );
            inner.section(".data");
        }
    }
}

const AMDCL2: &str = "
.amdcl2
.gpu Bonaire
.64bit
.driver_version DRIVER
GLOBAL
.kernel add
    .config
        .dims x
        .setupargs
        .arg n, uint
        .arg a, float*, global
    .text
        s_mov_b32 s0, VALUE
        v_mov_b32 v0, s0
        s_endpgm
.kernel sub
    .config
        .dims xy
        .setupargs
        .arg b, float*, global, const
    .text
        s_endpgm
";

#[test]
fn amd_opencl_2_0_old_layout_elf_parses() {
    let (a, bytes) = assemble(
        &AMDCL2
            .replace("DRIVER", "180005")
            .replace("GLOBAL", "")
            .replace("VALUE", "4"),
    );
    let outer = parse(&bytes);
    let text = outer.section(".text");
    for (k, name) in a.kernels.iter().enumerate() {
        outer.symbol(&format!("__OpenCL_&__OpenCL_{name}_kernel_metadata"));
        outer.symbol(&format!("__ISA_&__OpenCL_{name}_kernel_metadata"));
        // Stub, setup, then the code.
        let (start, size) = outer.symbol(&format!("__ISA_&__OpenCL_{name}_kernel_binary"));
        let binary = &text[start as usize..(start + size) as usize];
        let code = code(&a, Some(k));
        assert!(binary.ends_with(&code), "kernel {name}");
    }
}

#[test]
fn amd_opencl_2_0_new_layout_elfs_parse() {
    for driver in ["191205", "234800"] {
        let global =
            ".globaldata\ngdata:\n    .int 1, 2, 3\n.rwdata\n    .int 4\n.bssdata\n    .skip 8\n";
        let (a, bytes) = assemble(
            &AMDCL2
                .replace("DRIVER", driver)
                .replace("GLOBAL", global)
                .replace("VALUE", "gdata+4"),
        );
        let outer = parse(&bytes);
        outer.symbol("acl_version_string");
        let inner = parse(outer.section(".text"));
        let hsatext = inner.section(".hsatext");
        assert!(inner
            .section(".hsadata_readonly_agent")
            .starts_with(&[1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0]));
        assert!(inner
            .section(".hsadata_global_agent")
            .starts_with(&[4, 0, 0, 0]));
        for (k, name) in a.kernels.iter().enumerate() {
            outer.symbol(&format!("__OpenCL_&__OpenCL_{name}_kernel_metadata"));
            // As the reference, driver 1912.05's inner symbol table has no null symbol
            // first, so readers take the first kernel's symbol for it.
            let (start, size) = if driver == "191205" && k == 0 {
                (0, 256 + code(&a, Some(0)).len() as u64)
            } else {
                inner.symbol(&format!("&__OpenCL_{name}_kernel"))
            };
            // The 256-byte setup, then the code.
            let code = code(&a, Some(k));
            assert_eq!(size as usize, 256 + code.len(), "kernel {name}");
            assert_eq!(
                &hsatext[start as usize + 256..(start + size) as usize],
                code.as_slice(),
                "kernel {name}"
            );
        }
        // `gdata+4` in `add` is relocated.
        assert_eq!(inner.relocations(".hsatext"), 1, "driver {driver}");
    }
}

#[test]
fn amd_opencl_2_0_hsa_layout_elfs_parse() {
    let source = "
.amdcl2
.gpu Bonaire
.64bit
.driver_version 234800
.hsalayout
.globaldata
gdata:
    .int 1, 2, 3
.kernel add
    .config
        .dims x
        .setupargs
        .arg n, uint
.kernel sub
    .config
        .dims xy
        .setupargs
.text
add:
    .skip 256
    s_mov_b32 s0, gdata&0xffffffff
    s_mov_b32 s1, gdata>>32
    s_endpgm
.p2align 8
sub:
    .skip 256
    s_endpgm
";
    let (a, bytes) = assemble(source);
    let inner = parse(parse(&bytes).section(".text"));
    let hsatext = inner.section(".hsatext");
    let code = code(&a, None);
    // The code as written, each kernel's setup filled in at its label.
    assert_eq!(hsatext.len(), code.len());
    assert_eq!(&hsatext[256..268], &code[256..268]);
    assert_eq!(inner.symbol("&__OpenCL_add_kernel").0, 0);
    assert_eq!(inner.symbol("&__OpenCL_sub_kernel").0, 512);
    assert_eq!(inner.relocations(".hsatext"), 2);
}

const GALLIUM: &str = "
.gallium
.gpu Tonga
BITS
LLVM
.kernel first
    .args
        .arg scalar, 4
        .arg global, 8
        .arg griddim, 4
        .arg gridoffset, 4
    .config
        .dims x
        .scratchbuffer 16
        SCRATCH
.kernel second
    .args
        .arg griddim, 4
        .arg gridoffset, 4
    .config
        .dims xy
.rodata
    .int 7, 8
.text
first:
    SKIP
    s_mov_b32 s0, VALUE
    s_endpgm
second:
    SKIP
    v_mov_b32 v0, 1.0
    s_endpgm
";

#[test]
fn gallium_elfs_parse() {
    let variants = [
        (".32bit", "", "", "1"),
        (".64bit", ".scratchsym scratch", "", "scratch"),
        (
            ".64bit",
            ".llvm_version 40000\n.driver_version 170000",
            ".skip 256",
            "2",
        ),
    ];
    for (bits, llvm, skip, value) in variants {
        let scratch = if value == "scratch" {
            ".scratchsym scratch"
        } else {
            ""
        };
        let llvm = if value == "scratch" { "" } else { llvm };
        let source = GALLIUM
            .replace("BITS", bits)
            .replace("LLVM", llvm)
            .replace("SKIP", skip)
            .replace("VALUE", value)
            .replace("SCRATCH", scratch);
        let (a, bytes) = assemble(&source);
        let start = bytes
            .windows(4)
            .position(|w| w == b"\x7fELF")
            .expect("an embedded ELF");
        let elf = parse(&bytes[start..]);
        assert_eq!(bytes[start + 4], if bits == ".32bit" { 1 } else { 2 });
        let text = elf.section(".text");
        let code = code(&a, None);
        if skip.is_empty() {
            assert_eq!(text, code.as_slice());
        } else {
            // The HSA descriptor (LLVM 4.0) is filled in where the code skipped it.
            assert_eq!(text.len(), code.len());
            assert_eq!(&text[256..264], &code[256..264]);
        }
        assert_eq!(elf.section(".rodata"), &[7, 0, 0, 0, 8, 0, 0, 0]);
        assert!(!elf.section(".AMDGPU.config").is_empty());
        assert_eq!(elf.symbol("first").0, 0);
        let second = a
            .symbols
            .iter()
            .find(|s| s.name == "second")
            .and_then(|s| s.value)
            .unwrap();
        assert_eq!(elf.symbol("second").0, second as u64);
        assert_eq!(elf.relocations(".text"), usize::from(value == "scratch"));
    }
}

/// One instruction of the fixture: its text and words.
struct Disassembled {
    text: String,
    words: Vec<u32>,
    /// A branch's target as `symbol+offset`, if any.
    target: Option<(String, u64)>,
}

fn read_fixture() -> Vec<Disassembled> {
    let fixture = include_str!("data/gallium_disasm.objdump");
    let mut out = Vec::new();
    for line in fixture.lines().filter(|l| l.starts_with('\t')) {
        let (text, comment) = line.split_once("//").expect("an encoding comment");
        let (_, rest) = comment.split_once(": ").expect("an address");
        let (hex, target) = match rest.split_once('<') {
            Some((hex, target)) => (hex, Some(target.trim_end_matches('>'))),
            None => (rest, None),
        };
        let words = hex
            .split_whitespace()
            .map(|w| u32::from_str_radix(w, 16).expect("a hex word"))
            .collect();
        let target = target.map(|t| {
            let (sym, off) = t.split_once("+0x").unwrap_or((t, "0"));
            (
                sym.to_string(),
                u64::from_str_radix(off, 16).expect("an offset"),
            )
        });
        out.push(Disassembled {
            text: text.trim().to_string(),
            words,
            target,
        });
    }
    out
}

/// LLVM's spelling of an instruction written in CLRX syntax: VOP1/VOP2/VOPC get `_e32`.
fn llvm_spelling(line: &str, vop32: &[&str]) -> String {
    let line = line.split_whitespace().collect::<Vec<_>>().join(" ");
    let (mnemonic, operands) = line.split_once(' ').unwrap_or((&line, ""));
    let mnemonic = if vop32.contains(&mnemonic) {
        format!("{mnemonic}_e32")
    } else {
        mnemonic.to_string()
    };
    if operands.is_empty() {
        mnemonic
    } else {
        format!("{mnemonic} {operands}")
    }
}

#[test]
fn gallium_code_disassembles_to_the_instructions_written() {
    let source = include_str!("data/gallium_disasm.s");
    let (a, bytes) = assemble(source);
    let start = bytes
        .windows(4)
        .position(|w| w == b"\x7fELF")
        .expect("an embedded ELF");
    let elf = parse(&bytes[start..]);
    let text = elf.section(".text");
    let fixture = read_fixture();

    // The words llvm-objdump decoded are the code written now.
    let words: Vec<u32> = fixture
        .iter()
        .flat_map(|d| d.words.iter().copied())
        .collect();
    let code: Vec<u32> = text
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    assert_eq!(words, code);

    // And they are the instructions of the source.
    let written: Vec<&str> = source
        .lines()
        .map(|l| l.split('#').next().unwrap().trim())
        .filter(|l| !l.is_empty() && !l.starts_with('.') && !l.ends_with(':'))
        .collect();
    assert_eq!(written.len(), fixture.len());
    let vop32 = [
        "v_mov_b32",
        "v_add_u32",
        "v_add_f32",
        "v_mul_f32",
        "v_cmp_gt_f32",
    ];
    for (line, d) in written.iter().zip(&fixture) {
        let expected = llvm_spelling(line, &vop32);
        match &d.target {
            // A branch: LLVM shows the offset in words and the target address.
            Some((sym, off)) => {
                let (mnemonic, label) = expected.split_once(' ').unwrap();
                assert!(d.text.starts_with(mnemonic), "{} / {}", d.text, expected);
                let label_at = a
                    .symbols
                    .iter()
                    .find(|s| s.name == label)
                    .and_then(|s| s.value)
                    .expect("a label");
                assert_eq!(elf.symbol(sym).0 + off, label_at as u64, "{line}");
            }
            None => assert_eq!(d.text, expected),
        }
    }
}

// ---- -S (--forceAddSymbols) ---------------------------------------------------------------

fn with_added_symbols(source: &str) -> (Assembly, Vec<u8>) {
    assemble_with(
        source,
        Options {
            force_add_symbols: true,
            ..Options::default()
        },
    )
}

/// The value `gcn-asm` gives a symbol (its offset in its section, or absolute).
fn value_of(a: &Assembly, name: &str) -> u64 {
    a.symbols
        .iter()
        .find(|s| s.name == name)
        .and_then(|s| s.value)
        .unwrap_or_else(|| panic!("no value for {name}")) as u64
}

#[test]
fn added_symbols_are_in_the_amd_opencl_1_2_elf_of_their_section() {
    let source = AMD.replace("BITS", ".64bit").replace("s_mov_b32 s0, 1", "s_mov_b32 s0, 1\nin_add:")
        + ".global in_add, abs, extra_sym, hidden\nabs = 5\n.main\n.section .x\n.byte 0\nextra_sym: .byte 1\n";
    let (a, bytes) = with_added_symbols(&source);
    let outer = parse(&bytes);
    assert_eq!(outer.symbol("abs").0, 5);
    assert_eq!(outer.symbol_section("abs"), "ABS");
    assert_eq!(outer.symbol("extra_sym").0, 1);
    assert_eq!(outer.symbol_section("extra_sym"), ".x");
    // A label of `add`'s code is a symbol of `add`'s inner ELF, not of the main one.
    assert!(!outer.symbols.iter().any(|s| s.0 == "in_add"));
    let (start, size) = outer.symbol("__OpenCL_add_kernel");
    let inner = parse(&outer.section(".text")[start as usize..(start + size) as usize]);
    assert_eq!(inner.symbol("in_add").0, value_of(&a, "in_add"));
    assert_eq!(inner.symbol_section("in_add"), ".text");
    // Declared global but never defined: left out.
    assert!(!inner
        .symbols
        .iter()
        .chain(&outer.symbols)
        .any(|s| s.0 == "hidden"));
}

#[test]
fn added_symbols_are_in_the_amd_opencl_2_0_elf_of_their_section() {
    let global =
        ".globaldata\n.int 0\ngdata:\n    .int 1, 2, 3\n.global gdata, code_sym, ver\nver = 2\n";
    let source = AMDCL2
        .replace("DRIVER", "234800")
        .replace("GLOBAL", global)
        .replace("VALUE", "gdata+4")
        .replace("v_mov_b32 v0, s0", "code_sym: v_mov_b32 v0, s0");
    let (a, bytes) = with_added_symbols(&source);
    let outer = parse(&bytes);
    assert_eq!(outer.symbol_section("ver"), "ABS");
    let inner = parse(outer.section(".text"));
    assert_eq!(inner.symbol("gdata").0, 4);
    assert_eq!(inner.symbol_section("gdata"), ".hsadata_readonly_agent");
    assert_eq!(inner.symbol("&input_bc::&gdata").0, 4);
    // `add`'s code follows its 256-byte setup at the start of `.hsatext`.
    assert_eq!(inner.symbol("code_sym").0, 256 + value_of(&a, "code_sym"));
    assert_eq!(inner.symbol_section("code_sym"), ".hsatext");
}

#[test]
fn added_symbols_of_a_gallium_binary_follow_the_kernels() {
    let source = GALLIUM
        .replace("BITS", ".32bit")
        .replace("LLVM", "")
        .replace("SKIP", "")
        .replace("VALUE", "1")
        .replace("SCRATCH", "")
        + ".weak mid, data_sym, first\nmid = second - 4\n.rodata\ndata_sym: .int 9\n";
    let (_, bytes) = with_added_symbols(&source);
    let start = bytes
        .windows(4)
        .position(|w| w == b"\x7fELF")
        .expect("an embedded ELF");
    let elf = parse(&bytes[start..]);
    let names: Vec<&str> = elf.symbols.iter().map(|s| s.0.as_str()).collect();
    let second = names.iter().position(|&n| n == "second").unwrap();
    // The added ones come after the kernels; `first` is a kernel, not added again.
    assert_eq!(names.iter().filter(|&&n| n == "first").count(), 1);
    assert!(names[second + 1..].contains(&"mid") && names[second + 1..].contains(&"data_sym"));
    // A position in the code, as the reference keeps it (not an absolute number).
    assert_eq!(elf.symbol_section("mid"), ".text");
    assert_eq!(elf.symbol("data_sym").0, 8);
    assert_eq!(elf.symbol_section("data_sym"), ".rodata");
}

// ---- ROCm -------------------------------------------------------------------------------

const ROCM: &str = "
.rocm
.gpu Fiji
FORMAT
.globaldata
gdata:
.global gdata
    .int 1, 2, 3, 4
GOT
.kernel first
    .config
        .dims x
        .use_kernarg_segment_ptr
.kernel second
    .fkernel
    .config
        .dims xy
.text
first:
    .skip 256
    s_mov_b32 s0, 1
    s_endpgm
.p2align 8
second:
    .skip 256
    v_mov_b32 v0, 0
    s_endpgm
.global datav
datav:
    .int 7
.section .comment
    .ascii \"made by the tests\"
.section .extra
    .byte 1, 2, 3
";

#[test]
fn rocm_elfs_parse() {
    let variants = [
        ("", ""),
        (".newbinfmt", ""),
        (
            ".newbinfmt",
            ".gotsym gdata\n.gotsym datav, datav.got\n.gotsym first\n.global first",
        ),
    ];
    for (format, got) in variants {
        let source = ROCM.replace("FORMAT", format).replace("GOT", got);
        let (a, bytes) = assemble(&source);
        assert_eq!(bytes[4], 2, "a 64-bit ELF");
        let elf = parse(&bytes);
        let code = code(&a, None);
        let text = elf.section(".text");
        assert_eq!(text, code.as_slice());
        // Each kernel's code starts with its descriptor: code version 1.0 or 1.1.
        assert_eq!(
            &text[0..8],
            &[1, 0, 0, 0, u8::from(!format.is_empty()), 0, 0, 0]
        );
        assert_eq!(
            elf.section(".rodata"),
            &[1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0]
        );
        assert_eq!(elf.section(".comment"), b"made by the tests");
        assert_eq!(elf.section(".extra"), &[1, 2, 3]);
        // The old format has an empty `.AMDGPU.config` (and its notes after the code).
        let config = elf.sections.iter().find(|s| s.0 == ".AMDGPU.config");
        assert_eq!(config.map(|s| s.1.len()), format.is_empty().then_some(0));
        assert!(!elf.section(".note").is_empty());
        // Symbols are addresses: `.text` starts at 4096, `second` at 512 in it.
        assert_eq!(elf.symbol("first").0, 4096);
        assert_eq!(elf.symbol("second").0, 4096 + 512);
        assert_eq!(elf.symbol("_DYNAMIC").0, 8192);
        if got.is_empty() {
            assert_eq!(elf.dynamic_symbols, ["first", "second"]);
            assert!(elf.dynamic_relocations.is_empty());
        } else {
            // Data of the code first, the kernels, then the other symbols.
            assert_eq!(elf.dynamic_symbols, ["datav", "first", "second", "gdata"]);
            let datav = a
                .symbols
                .iter()
                .find(|s| s.name == "datav")
                .and_then(|s| s.value)
                .unwrap() as u64;
            assert_eq!(elf.symbol("datav").0, 4096 + datav);
            let rodata = elf.symbol("gdata").0;
            assert!(rodata > 0 && rodata < 4096);
            // One relocation a GOT entry, at the entry, against its symbol (index in
            // `.dynsym`, the null symbol first).
            assert_eq!(elf.section(".got"), &[0; 24]);
            let got_at = 8192 + 0x60;
            assert_eq!(
                elf.dynamic_relocations,
                [(got_at, 4), (got_at + 8, 1), (got_at + 16, 2)]
            );
        }
    }
}

#[test]
fn rocm_code_disassembles_to_the_instructions_written() {
    let source = include_str!("data/rocm_disasm.s");
    let (a, bytes) = assemble(source);
    let elf = parse(&bytes);
    let text = elf.section(".text");
    let text_at = elf.symbol("vectorAdd").0;
    let fixture = include_str!("data/rocm_disasm.objdump");
    // The instructions llvm-objdump decoded after each descriptor, without the padding
    // (`s_nop 0`) that aligns the next kernel.
    let mut decoded = Vec::new();
    for line in fixture
        .lines()
        .filter(|l| l.starts_with('\t') && !l.contains("s_nop 0"))
    {
        let (text, comment) = line.split_once("//").expect("an encoding comment");
        let (address, rest) = comment.trim().split_once(": ").expect("an address");
        let address = u64::from_str_radix(address, 16).expect("a hex address");
        let hex = rest.split('<').next().unwrap();
        let words: Vec<u32> = hex
            .split_whitespace()
            .map(|w| u32::from_str_radix(w, 16).expect("a hex word"))
            .collect();
        decoded.push((text.trim().to_string(), address, words));
    }
    // The words are the code written now, where llvm-objdump found them.
    for (line, address, words) in &decoded {
        let at = (address - text_at) as usize;
        let code: Vec<u32> = text[at..at + 4 * words.len()]
            .chunks(4)
            .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
            .collect();
        assert_eq!(&code, words, "{line}");
    }
    // And they are the instructions of the source.
    let written: Vec<String> = source
        .lines()
        .map(|l| l.split('#').next().unwrap().trim())
        .filter(|l| !l.is_empty() && !l.starts_with('.') && !l.ends_with(':'))
        .map(|l| l.replace(" & ", " "))
        .collect();
    assert_eq!(written.len(), decoded.len());
    let vop32 = [
        "v_cmp_gt_u32",
        "v_lshlrev_b32",
        "v_mov_b32",
        "v_add_u32",
        "v_addc_u32",
        "v_mul_f32",
    ];
    for (line, (text, address, _)) in written.iter().zip(&decoded) {
        let expected = llvm_spelling(line, &vop32);
        if let Some(target) = line.strip_prefix("s_cbranch_scc0 ") {
            // A branch: LLVM shows the offset in words; the source names the target.
            assert!(text.starts_with("s_cbranch_scc0"), "{text}");
            let offset: i64 = text.split_whitespace().nth(1).unwrap().parse().unwrap();
            let second = elf.symbol("second").0;
            assert_eq!(target, "second + 256 + 12");
            assert_eq!((*address as i64 + 4 + 4 * offset) as u64, second + 256 + 12);
        } else {
            assert_eq!(text, &expected);
        }
    }
    let _ = a;
}

#[test]
fn rocm_new_format_from_the_command_line_is_the_pseudo_op() {
    // `--newROCmBinFormat` writes the file `.newbinfmt` writes.
    let source = ROCM.replace("GOT", ".gotsym gdata");
    let (_, with_pseudo_op) = assemble(&source.replace("FORMAT", ".newbinfmt"));
    let opts = Options {
        new_rocm_bin_format: true,
        ..Options::default()
    };
    let a = assemble_here(
        vec![Input {
            name: "test.s".into(),
            text: source.replace("FORMAT", ""),
        }],
        opts,
    );
    assert!(!a.has_errors());
    let with_option = a
        .binary()
        .unwrap_or_else(|e| panic!("{:?}", e.iter().map(|d| &d.message).collect::<Vec<_>>()));
    assert_eq!(with_option, with_pseudo_op);
    // And the old format differs: notes after the code, code version 1.0.
    let (_, old) = assemble(&source.replace("FORMAT", ""));
    assert_ne!(old, with_pseudo_op);
}
