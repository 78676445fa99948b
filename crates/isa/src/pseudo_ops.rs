//! The pseudo-op table: every pseudo-op the assembler knows, with where it is valid,
//! its syntax, its default and a short description.
//!
//! Generated from `data/pseudo_ops.txt` (the source of truth) into
//! `src/generated/pseudo_ops.rs` by `tests/sourcegen.rs`. The assembler takes its list of
//! general pseudo-ops from here, and its dispatch of the binary formats' pseudo-ops (each
//! row's [`PseudoOpId`], and the formats that have it); the editor its hover texts,
//! completion items and the kernel-scope rules of the outline.

pub use crate::generated::pseudo_ops::PseudoOpId;
use crate::generated::pseudo_ops::PSEUDO_OPS;

/// Where a pseudo-op may stand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PseudoScope {
    /// Anywhere.
    Global,
    /// Inside a kernel (after `.kernel NAME`), outside its configuration.
    Kernel,
    /// Inside a kernel's configuration (`.config`, `.hsaconfig`).
    Config,
}

/// What a pseudo-op does to the structure of a source, as the editor needs to know.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PseudoRole {
    None,
    /// Opens a kernel's scope (`.kernel`).
    Kernel,
    /// Goes back to global content (`.main`, `.globaldata`).
    Leave,
    /// Switches sections (`.text`, `.data`, `.rodata`, `.section`).
    Section,
    /// Picks a binary format (`.amd`, `.rocm`, `.format`, …).
    Format,
    /// Defines a symbol (`.set`, `.equ`, `.equiv`, `.eqv`).
    Define,
    /// Opens a kernel configuration (`.config`, `.hsaconfig`).
    Config,
    /// Opens a macro, a repetition or a scope.
    Block,
    /// Part of a conditional (`.if…`, `.elseif…`, `.else`, `.endif`).
    Cond,
}

/// A set of binary formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Formats(pub u8);

impl Formats {
    pub const AMD: Formats = Formats(1);
    pub const AMDCL2: Formats = Formats(2);
    pub const GALLIUM: Formats = Formats(4);
    pub const ROCM: Formats = Formats(8);
    /// The general pseudo-ops: valid in every format (raw code included).
    pub const ALL: Formats = Formats(0x1f);

    pub const fn contains(self, other: Formats) -> bool {
        self.0 & other.0 == other.0
    }

    pub const fn union(self, other: Formats) -> Formats {
        Formats(self.0 | other.0)
    }

    /// The names of the formats, as the data file writes them (`all` for every one).
    pub fn names(self) -> Vec<&'static str> {
        if self == Formats::ALL {
            return vec!["all"];
        }
        [
            (Formats::AMD, "amd"),
            (Formats::AMDCL2, "amdcl2"),
            (Formats::GALLIUM, "gallium"),
            (Formats::ROCM, "rocm"),
        ]
        .into_iter()
        .filter(|(f, _)| self.contains(*f))
        .map(|(_, n)| n)
        .collect()
    }

    /// The format a pseudo-op of role `format` other than `.format` picks: `.rocm`,
    /// `.amd3` (ROCm's LLVM 10 layout), ….
    pub fn from_format_pseudo_op(name: &str) -> Option<Formats> {
        if name.eq_ignore_ascii_case(".amd3") {
            return Some(Formats::ROCM);
        }
        Formats::from_format_name(name)
    }

    /// A format by the name `.format` or `-b` takes (`amd`, `catalyst`, `amdcl2`,
    /// `gallium`, `rocm`; raw code has no format-specific pseudo-ops).
    pub fn from_format_name(name: &str) -> Option<Formats> {
        Some(match name.to_ascii_lowercase().trim_start_matches('.') {
            "amd" | "catalyst" => Formats::AMD,
            "amdcl2" => Formats::AMDCL2,
            "gallium" => Formats::GALLIUM,
            "rocm" => Formats::ROCM,
            "rawcode" => Formats(0x10),
            _ => return None,
        })
    }
}

/// One pseudo-op.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PseudoOp {
    /// What the assembler dispatches on (one variant per row of the table).
    pub id: PseudoOpId,
    /// Lowercase, with its dot.
    pub name: &'static str,
    pub formats: Formats,
    pub scope: PseudoScope,
    pub role: PseudoRole,
    /// How it is written, arguments in capitals (`.fill REPEAT[, SIZE[, VALUE]]`).
    pub syntax: &'static str,
    /// The most arguments it takes, read from `syntax` (none when the syntax has `...`):
    /// what follows them is an error (the reference's "Garbages at end of line").
    pub max_args: Option<u8>,
    /// Its value when it is not given, if it has one.
    pub default: Option<&'static str>,
    pub description: &'static str,
}

impl PseudoOp {
    /// Valid in every binary format (not specific to one).
    pub fn is_general(&self) -> bool {
        self.formats == Formats::ALL
    }
}

/// Every pseudo-op, sorted by name.
pub fn pseudo_ops() -> &'static [PseudoOp] {
    PSEUDO_OPS
}

/// A pseudo-op by name (case-insensitive, with its dot).
pub fn pseudo_op(name: &str) -> Option<&'static PseudoOp> {
    if name.bytes().any(|b| b.is_ascii_uppercase()) {
        let lower = name.to_ascii_lowercase();
        PSEUDO_OPS
            .binary_search_by(|p| p.name.cmp(lower.as_str()))
            .ok()
            .map(|i| &PSEUDO_OPS[i])
    } else {
        PSEUDO_OPS
            .binary_search_by(|p| p.name.cmp(name))
            .ok()
            .map(|i| &PSEUDO_OPS[i])
    }
}

/// Whether `name` (lowercase, with its dot) is a general pseudo-op: the assembler's list
/// of pseudo-ops that every format has.
pub fn is_general(name: &str) -> bool {
    pseudo_op(name).is_some_and(PseudoOp::is_general)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorted_and_found() {
        assert!(PSEUDO_OPS.windows(2).all(|w| w[0].name < w[1].name));
        for op in PSEUDO_OPS {
            assert_eq!(pseudo_op(op.name), Some(op));
            assert_eq!(pseudo_op(&op.name.to_ascii_uppercase()), Some(op));
        }
        assert_eq!(pseudo_op(".sgprsnum").unwrap().scope, PseudoScope::Config);
        assert_eq!(pseudo_op(".kernel").unwrap().role, PseudoRole::Kernel);
        assert!(is_general(".ifnb") && !is_general(".tgsize"));
        assert_eq!(
            pseudo_op(".get_driver_version").unwrap().id,
            PseudoOpId::GetDriverVersion
        );
        assert_eq!(pseudo_op(".32bit").unwrap().id, PseudoOpId::Dot32bit);
    }

    /// The general pseudo-ops are exactly the reference's (clrxasm 0.1.9) list, which the
    /// assembler dispatched on before it took them from this table.
    #[test]
    fn general_ones_are_the_references_list() {
        const REFERENCE: &[&str] = &[
            ".32bit",
            ".64bit",
            ".abort",
            ".align",
            ".altmacro",
            ".amd",
            ".amdcl2",
            ".arch",
            ".ascii",
            ".asciz",
            ".balign",
            ".balignl",
            ".balignw",
            ".buggyfplit",
            ".byte",
            ".cf_call",
            ".cf_cjump",
            ".cf_end",
            ".cf_jump",
            ".cf_ret",
            ".cf_start",
            ".data",
            ".double",
            ".else",
            ".elseif",
            ".elseif32",
            ".elseif64",
            ".elseifarch",
            ".elseifb",
            ".elseifc",
            ".elseifdef",
            ".elseifeq",
            ".elseifeqs",
            ".elseiffmt",
            ".elseifge",
            ".elseifgpu",
            ".elseifgt",
            ".elseifle",
            ".elseiflt",
            ".elseifnarch",
            ".elseifnb",
            ".elseifnc",
            ".elseifndef",
            ".elseifne",
            ".elseifnes",
            ".elseifnfmt",
            ".elseifngpu",
            ".elseifnotdef",
            ".end",
            ".endif",
            ".endm",
            ".endmacro",
            ".endr",
            ".endrept",
            ".ends",
            ".endscope",
            ".enum",
            ".equ",
            ".equiv",
            ".eqv",
            ".err",
            ".error",
            ".exitm",
            ".extern",
            ".fail",
            ".file",
            ".fill",
            ".fillq",
            ".float",
            ".for",
            ".format",
            ".gallium",
            ".get_64bit",
            ".get_arch",
            ".get_format",
            ".get_gpu",
            ".get_policy",
            ".get_version",
            ".global",
            ".globl",
            ".gpu",
            ".half",
            ".hword",
            ".if",
            ".if32",
            ".if64",
            ".ifarch",
            ".ifb",
            ".ifc",
            ".ifdef",
            ".ifeq",
            ".ifeqs",
            ".iffmt",
            ".ifge",
            ".ifgpu",
            ".ifgt",
            ".ifle",
            ".iflt",
            ".ifnarch",
            ".ifnb",
            ".ifnc",
            ".ifndef",
            ".ifne",
            ".ifnes",
            ".ifnfmt",
            ".ifngpu",
            ".ifnotdef",
            ".incbin",
            ".include",
            ".int",
            ".irp",
            ".irpc",
            ".kernel",
            ".lflags",
            ".line",
            ".ln",
            ".local",
            ".long",
            ".macro",
            ".macrocase",
            ".main",
            ".noaltmacro",
            ".nobuggyfplit",
            ".nomacrocase",
            ".nooldmodparam",
            ".nowave32",
            ".octa",
            ".offset",
            ".oldmodparam",
            ".org",
            ".p2align",
            ".policy",
            ".print",
            ".purgem",
            ".quad",
            ".rawcode",
            ".regvar",
            ".rept",
            ".rocm",
            ".rodata",
            ".rvlin",
            ".rvlin_once",
            ".sbttl",
            ".scope",
            ".section",
            ".set",
            ".short",
            ".single",
            ".size",
            ".skip",
            ".space",
            ".string",
            ".string16",
            ".string32",
            ".string64",
            ".struct",
            ".text",
            ".title",
            ".undef",
            ".unusing",
            ".usereg",
            ".using",
            ".version",
            ".warning",
            ".wave32",
            ".weak",
            ".while",
            ".word",
        ];
        // Documented by CLRX (ClrxAsmPseudoOps.md) after that version's list.
        const DOCUMENTED_SINCE: &[&str] = &[".amd3"];
        let general: Vec<&str> = PSEUDO_OPS
            .iter()
            .filter(|p| p.is_general() && !DOCUMENTED_SINCE.contains(&p.name))
            .map(|p| p.name)
            .collect();
        assert_eq!(general, REFERENCE);
        for name in DOCUMENTED_SINCE {
            assert!(PSEUDO_OPS.iter().any(|p| p.name == *name && p.is_general()));
        }
    }
}
