//! The CLRX assembler core: from syntax trees to sections, symbols and kernels.
//!
//! [`assemble`] walks the statements of the inputs in order, in one pass: labels and
//! assignments define symbols ([`symbols`]), pseudo-ops emit data or change state,
//! instructions are encoded by `gcn-isa`, macros and repetitions are expanded as text and
//! parsed again by `gcn-syntax`. Values not known yet leave fixups that are completed
//! when their symbols are defined. The result is an [`Assembly`]: the module (sections,
//! kernels, symbols), the diagnostics with their positions and origin chains, the source
//! map to print them, and the registers each kernel uses.
//!
//! Limits ([`Limits`]) keep any input from hanging the assembler or exhausting memory:
//! nesting of macros and repetitions, statements produced by expansions, nesting of
//! includes, output size. The work runs on a thread with a stack large enough for the
//! deepest nesting the limits allow.

mod assembler;
pub mod diag;
pub mod encode_cache;
pub mod encoding;
pub mod expansion;
pub mod expr;
mod format_host;
mod format_ops;
pub mod index;
pub mod layout;
pub mod literals;
mod macros;
pub mod options;
mod output;
mod parts;
mod pseudo;
pub mod regusage;
pub mod source;
mod suggestions;
pub mod symbols;
mod text;
pub mod waits;

use gcn_isa::{Generation, SpecialRegUse};
use std::sync::Arc;

pub use crate::diag::{Diagnostic, Severity};
pub use crate::options::{BinaryFormat, Disk, FileLoader, Files, Limits, Options};
pub use crate::pseudo::{CLRX_VERSION, DEFAULT_POLICY};
pub use crate::source::{FileId, Location, SourceMap};

use crate::assembler::{Asm, Ctx, CtxKind};
use crate::expr::Value;
use crate::text::Mapper;

/// One input: its name (for messages) and text.
pub struct Input {
    pub name: String,
    pub text: String,
}

/// An input read while it is assembled and never held whole (a long file): its name
/// (for messages) and a reader of its bytes (read as [`encoding`] says).
pub struct StreamInput {
    pub name: String,
    pub reader: Box<dyn std::io::Read + Send>,
}

/// What is assembled: texts in memory, one text already parsed, or one stream.
enum Sources {
    Texts(Vec<Input>),
    Parsed(String, Arc<str>, gcn_syntax::Parse),
    Stream(StreamInput),
}

/// A symbol of the result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SymbolOut {
    /// The name with its scope path (`ala::x`).
    pub name: String,
    /// The value: absolute, the offset in its section, or for a register symbol the
    /// reference's encoding (first register | (last register + 1) << 32, VGPRs from 256).
    pub value: Option<i64>,
    pub section: Option<usize>,
    pub register: bool,
}

/// The registers a kernel uses, as the binary formats need them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KernelRegUsage {
    pub name: String,
    /// Highest SGPR used plus one (special registers excluded).
    pub sgprs: u32,
    /// Highest VGPR used plus one.
    pub vgprs: u32,
    /// Which special registers the code uses.
    pub special: SpecialRegUse,
    /// SGPRs the generation adds for VCC (always), FLAT_SCRATCH and XNACK_MASK.
    pub extra_sgprs: u32,
    /// The kernel configuration's `.sgprsnum`, in its format's terms (AMD OpenCL 1.2 and
    /// the AMD OpenCL 2.0 `.config` count SGPRs without VCC, FLAT_SCRATCH and XNACK_MASK;
    /// GalliumCompute, HSA configurations and ROCm with them): the value the source sets,
    /// else the one the binary writer puts in the binary (what the code and the kernel's
    /// setup need).
    pub sgprsnum: u32,
    /// The kernel configuration's `.vgprsnum`: the value the source sets, else the one
    /// the binary writer puts in the binary.
    pub vgprsnum: u32,
    /// Whether [`KernelRegUsage::sgprsnum`] counts VCC, FLAT_SCRATCH and XNACK_MASK.
    pub sgprsnum_with_extra: bool,
    /// Whether the source sets `sgprsnum` / `vgprsnum` (else the writer computes them).
    pub sgprsnum_given: bool,
    pub vgprsnum_given: bool,
    /// Waves per SIMD that `sgprsnum` and `vgprsnum` allow (1 to 10).
    pub waves: u32,
}

/// What an assembly produced.
pub struct Assembly {
    pub sections: Vec<layout::Section>,
    pub kernels: Vec<String>,
    pub symbols: Vec<SymbolOut>,
    pub diagnostics: Vec<Diagnostic>,
    pub sources: SourceMap,
    /// What `.print` wrote, in order.
    pub printed: String,
    pub format: BinaryFormat,
    pub generation: Generation,
    /// Whether the code runs in wave32 mode (GCN 1.5).
    pub wave32: bool,
    pub policy: u32,
    pub reg_usage: regusage::RegUsage,
    /// Labels of code sections: name, section, offset (for kernels found by label).
    pub code_labels: Vec<(String, usize, usize)>,
    /// What the binary-format pseudo-ops set, for [`Assembly::binary`].
    pub config: layout::FormatConfig,
    /// Whether the assembly was stopped early by [`Options::cancel`]: the result is
    /// then incomplete and only good to be thrown away.
    pub cancelled: bool,
    /// Where names are defined and used, if [`Options::record_symbols`] asked for it.
    pub index: Option<index::SymbolIndex>,
    /// Whether the source made an output at all: a label, an instruction, data, a
    /// section, a kernel or a pseudo-op of a binary format. As for the reference, a source
    /// with none of these (empty, or only definitions) has no binary to write.
    pub has_output: bool,
    /// The expansion [`Options::expand`] asked for.
    pub expansion: Option<expansion::Expansion>,
    /// The registers used while a load may still write them, if
    /// [`Options::check_waits`] asked: the first [`waits::MAX_HAZARDS`], and how many
    /// more there were.
    pub wait_hazards: Vec<waits::WaitHazard>,
    /// Registers a kernel reads before anything writes them, when
    /// [`Options::check_uninitialized`] asked: the first [`waits::MAX_HAZARDS`], and how
    /// many more.
    pub uninitialized_reads: Vec<Diagnostic>,
    pub more_uninitialized_reads: usize,
    /// The editor's checks were asked for, but the program has more instructions than
    /// they follow ([`waits::MAX_CHECKED`]): none of them ran.
    pub checks_skipped: bool,
    /// What each `s_waitcnt` waits for, when [`Options::check_waits`] asked.
    pub wait_effects: Vec<waits::WaitEffect>,
    /// Reads too soon after writes, when [`Options::check_nops`] asked: the first
    /// [`waits::MAX_HAZARDS`], and how many more.
    pub nop_hazards: Vec<waits::WaitHazard>,
    pub more_nop_hazards: usize,
    pub more_wait_hazards: usize,
}

impl Assembly {
    pub fn has_errors(&self) -> bool {
        self.diagnostics
            .iter()
            .any(|d| d.severity == Severity::Error)
    }

    /// The module as `--emit json` writes it.
    pub fn to_json(&self) -> String {
        output::json(self)
    }

    /// Register usage per kernel as `--emit reg-usage` writes it.
    pub fn reg_usage_json(&self) -> String {
        output::reg_usage_json(self)
    }

    /// Each instruction placed, as `--emit listing` writes it (empty unless
    /// [`Options::record_symbols`] recorded them).
    pub fn listing(&self) -> String {
        output::listing(self, &|name| name.to_string())
    }

    /// [`Assembly::listing`] with each file named as `name` says (the editor's are
    /// absolute paths, shown relative to the source's folder).
    pub fn listing_named(&self, name: &dyn Fn(&str) -> String) -> String {
        output::listing(self, name)
    }

    /// For each kernel, what its setup fills before its first instruction (from s0 and
    /// v0), as the binary gets it; `None` where the format or configuration does not
    /// tell (raw code, no configuration).
    pub fn kernel_setup(&self) -> Vec<Option<Vec<gcn_formats::gpu::SetupReg>>> {
        format_ops::config_setup(self)
    }

    /// The words of an instruction placed, as the finished section holds them.
    pub fn placed_words(&self, placed: &index::Placed) -> Option<Vec<u32>> {
        let section = self.sections.get(placed.section)?;
        let bytes = section
            .content
            .get(placed.offset..placed.offset + placed.size as usize)?;
        Some(
            bytes
                .chunks_exact(4)
                .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
                .collect(),
        )
    }

    /// Where an instruction placed is, in words: `` .text+0x1c ``, with ` (kernel k)`
    /// for a kernel's own section.
    pub fn placed_section(&self, placed: &index::Placed) -> String {
        let Some(section) = self.sections.get(placed.section) else {
            return String::new();
        };
        let kernel = section
            .kernel
            .and_then(|k| self.kernels.get(k))
            .map(|name| format!(" (kernel {name})"))
            .unwrap_or_default();
        format!("{}+0x{:x}{kernel}", section.name, placed.offset)
    }

    /// Raw code: the bytes of the `.text` section (the rawcode format's only section).
    pub fn raw_code(&self) -> Vec<u8> {
        self.sections
            .iter()
            .find(|s| s.name == ".text" && s.kernel.is_none())
            .map(|s| s.content.clone())
            .unwrap_or_default()
    }

    /// The registers each kernel's code uses, in kernel order: the stretches of code in
    /// the kernel's own sections, and in shared code sections those its labels and
    /// `.kcode` give it (the layout's code regions).
    pub fn kernel_reg_usage(&self) -> Vec<KernelRegUsage> {
        let mut counts = vec![regusage::Counts::default(); self.kernels.len()];
        let regions = &self.config.snapshot.code_regions;
        for seg in &self.reg_usage.segments {
            let own = self.sections.get(seg.section).and_then(|s| s.kernel);
            let shared = || {
                regions
                    .iter()
                    .rev()
                    .find(|r| r.section == seg.section && r.start <= seg.start && seg.start < r.end)
                    .map_or(&[][..], |r| r.kernels.as_slice())
            };
            for k in own.into_iter().chain(if own.is_none() {
                shared().to_vec()
            } else {
                Vec::new()
            }) {
                if let Some(c) = counts.get_mut(k) {
                    c.merge(&seg.counts);
                }
            }
        }
        let configured = format_ops::config_reg_counts(self);
        self.kernels
            .iter()
            .zip(counts)
            .zip(configured)
            .map(|((name, c), config)| {
                let extra = self.generation.extra_sgprs(SpecialRegUse {
                    vcc: true,
                    ..c.special
                });
                let (sgprsnum, with_extra) = match config.sgprs {
                    Some(n) => (n, config.sgprs_with_extra),
                    None => (c.sgprs + extra, true),
                };
                let vgprsnum = config.vgprs.unwrap_or(c.vgprs);
                let all_sgprs = if with_extra {
                    sgprsnum
                } else {
                    sgprsnum + extra
                };
                KernelRegUsage {
                    name: name.clone(),
                    sgprs: c.sgprs,
                    vgprs: c.vgprs,
                    special: c.special,
                    extra_sgprs: extra,
                    sgprsnum,
                    vgprsnum,
                    sgprsnum_with_extra: with_extra,
                    sgprsnum_given: config.sgprs_given,
                    vgprsnum_given: config.vgprs_given,
                    waves: gcn_formats::gpu::waves_per_simd(
                        self.generation,
                        self.wave32,
                        all_sgprs,
                        vgprsnum,
                    ),
                }
            })
            .collect()
    }
}

/// Assembles the inputs as one source, in order.
pub fn assemble(inputs: Vec<Input>, options: Options) -> Assembly {
    on_assembler_thread(Sources::Texts(inputs), options)
}

/// Assembles one input read as a stream: the same result as [`assemble`] with its text,
/// in memory that does not grow with the input's length (beyond a table of where its
/// lines start).
pub fn assemble_stream(input: StreamInput, options: Options) -> Assembly {
    on_assembler_thread(Sources::Stream(input), options)
}

fn on_assembler_thread(sources: Sources, options: Options) -> Assembly {
    let limits = options.limits;
    // Each nested macro, repetition or include costs a few stack frames.
    let levels = u64::from(limits.expansion_depth) + u64::from(limits.include_depth);
    let stack = (64 << 20) + levels.saturating_mul(96 << 10);
    let stack = usize::try_from(stack).unwrap_or(usize::MAX).min(4 << 30);
    std::thread::Builder::new()
        .name("gcn-asm".into())
        .stack_size(stack)
        .spawn(move || assemble_sources(sources, options))
        .expect("start the assembler thread")
        .join()
        .unwrap_or_else(|e| std::panic::resume_unwind(e))
}

/// Assembles one text (named `name` in messages) whose parse the caller already has
/// (an editor keeps it up to date as the text changes): the same result as
/// [`assemble`] with the text alone, without parsing or copying it. `parse` must be the
/// parse of `text`.
pub fn assemble_parsed(
    name: String,
    text: Arc<str>,
    parse: gcn_syntax::Parse,
    options: Options,
) -> Assembly {
    on_assembler_thread(Sources::Parsed(name, text, parse), options)
}

/// [`assemble`] on the calling thread (whose stack must be large enough).
pub fn assemble_here(inputs: Vec<Input>, options: Options) -> Assembly {
    assemble_sources(Sources::Texts(inputs), options)
}

fn assemble_sources(sources: Sources, options: Options) -> Assembly {
    let mut asm = Asm::new(options);
    define_command_line_symbols(&mut asm);
    match sources {
        Sources::Texts(inputs) => process_texts(&mut asm, inputs),
        Sources::Parsed(name, text, parse) => process_parsed(&mut asm, name, text, &parse),
        Sources::Stream(input) => process_stream(&mut asm, input),
    }
    format_ops::end_of_source(&mut asm);
    asm.finish_pending();
    finish(asm)
}

fn define_command_line_symbols(asm: &mut Asm) {
    for (name, value) in asm.opts.defsyms.clone() {
        if name == "." {
            asm.diags.push(Diagnostic {
                severity: Severity::Warning,
                location: None,
                len: 0,
                message: "a definition of `.` on the command line is ignored".into(),
                origin: Vec::new(),
                suggestions: Vec::new(),
                suggestion_at: None,
            });
            continue;
        }
        let id = asm.symbols.define_target(&name);
        asm.set_symbol(id, Value::Abs(value));
    }
}

fn process_texts(asm: &mut Asm, inputs: Vec<Input>) {
    // The inputs are one source: a block may open in one file and close in the next.
    let files: Vec<(FileId, Arc<str>)> = inputs
        .into_iter()
        .map(|input| {
            let text: Arc<str> = input.text.into();
            (asm.sources.add(input.name, text.clone()), text)
        })
        .collect();
    let (mapper, text): (Mapper, Arc<str>) = match files.as_slice() {
        [(file, text)] => (Mapper::File(*file), text.clone()),
        _ => {
            let mut joined = text::Text::default();
            for (file, text) in &files {
                joined.push(
                    text,
                    Location {
                        file: *file,
                        offset: 0,
                    },
                );
                let end = Location {
                    file: *file,
                    offset: text.len() as u32,
                };
                if !text.is_empty() && !text.ends_with('\n') {
                    joined.push_fixed("\n", end);
                }
                // The reference reads each file apart: a `\` at the end of one (outside
                // tokens, or in a `#` comment or a string) joins its last line to nothing.
                // An empty line after it keeps the next file's first line out.
                if joined.text.ends_with("\\\n") || joined.text.ends_with("\\\r\n") {
                    joined.push_fixed("\n", end);
                }
            }
            let fallback = files.first().map_or(
                Location {
                    file: FileId(0),
                    offset: 0,
                },
                |(f, _)| Location {
                    file: *f,
                    offset: 0,
                },
            );
            (joined.mapper(fallback), joined.text.into())
        }
    };
    if !files.is_empty() {
        let ctx = Ctx::new(mapper, Default::default(), 0, CtxKind::File);
        asm.process_text(ctx, &text);
    }
}

fn process_parsed(asm: &mut Asm, name: String, text: Arc<str>, parse: &gcn_syntax::Parse) {
    let file = asm.sources.add(name, text.clone());
    let ctx = Ctx::new(Mapper::File(file), Default::default(), 0, CtxKind::File);
    asm.process_parse(ctx, parse, text, true);
}

fn process_stream(asm: &mut Asm, input: StreamInput) {
    let file = asm.sources.add_streamed(input.name);
    let ctx = Ctx::new(Mapper::File(file), Default::default(), 0, CtxKind::File);
    let (_, end) = asm.process_lines(ctx, parts::Lines::Stream(input.reader));
    asm.sources.set_lines(file, end.lines);
    if let Some((offset, message)) = end.error {
        let location = Some(Location { file, offset });
        asm.diags.push(Diagnostic {
            severity: Severity::Error,
            location,
            len: 0,
            message,
            origin: Vec::new(),
            suggestions: Vec::new(),
            suggestion_at: None,
        });
    }
}

fn finish(mut asm: Asm) -> Assembly {
    if let (Some(cache), Some(shared)) = (asm.encode_cache.take(), asm.opts.encode_cache.as_ref()) {
        // A cancelled assembly saw only part of the source: its cache is still good.
        shared.put_back(cache);
    }
    let symbols = asm
        .symbols
        .iter()
        .filter(|(_, s)| s.visible && !s.name.is_empty())
        .map(|(_, s)| {
            if let Some(r) = s.register {
                let base: i64 = if r.file == gcn_isa::encode::RegFile::Vgpr {
                    256
                } else {
                    0
                };
                let first = base + i64::from(r.first);
                let value = first | ((first + i64::from(r.count)) << 32);
                return SymbolOut {
                    name: s.name.clone(),
                    value: Some(value),
                    section: None,
                    register: true,
                };
            }
            match s.value {
                Some(Value::Abs(v)) => SymbolOut {
                    name: s.name.clone(),
                    value: Some(v),
                    section: None,
                    register: false,
                },
                Some(Value::Rel { section, offset }) => SymbolOut {
                    name: s.name.clone(),
                    value: Some(offset),
                    section: Some(section as usize),
                    register: false,
                },
                None => SymbolOut {
                    name: s.name.clone(),
                    value: None,
                    section: None,
                    register: false,
                },
            }
        })
        .collect();
    // A cancelled assembly's result is thrown away: its waits are not followed.
    let waits = asm.waits.take().filter(|_| !asm.cancelled);
    let mut assembly = Assembly {
        config: format_ops::finish_config(&asm),
        kernels: asm.layout.kernels.iter().map(|k| k.name.clone()).collect(),
        format: asm.layout.format,
        generation: asm.target.gen,
        wave32: asm.target.wave32,
        policy: asm.opts.policy.unwrap_or(DEFAULT_POLICY),
        sections: asm.layout.sections,
        symbols,
        diagnostics: asm.diags,
        sources: asm.sources,
        printed: asm.printed,
        reg_usage: asm.reg_usage,
        code_labels: asm.code_labels,
        cancelled: asm.cancelled,
        index: asm.index,
        has_output: asm.format_fixed,
        expansion: asm.expansion.map(expansion::Recorder::finish),
        more_wait_hazards: 0,
        wait_hazards: Vec::new(),
        wait_effects: Vec::new(),
        nop_hazards: Vec::new(),
        more_nop_hazards: 0,
        uninitialized_reads: Vec::new(),
        more_uninitialized_reads: 0,
        checks_skipped: asm.checks_skipped,
    };
    if !assembly.cancelled {
        let warnings = format_ops::setting_warnings(&assembly);
        assembly.diagnostics.extend(warnings);
    }
    if let Some(waits) = waits {
        // Where the kernels start is known once the configuration is finished. With
        // errors, a line that did not assemble may be what writes a register: no
        // kernel is looked at.
        let entries = if assembly.has_errors() {
            Vec::new()
        } else {
            kernel_entries(&assembly)
        };
        let contents: Vec<&[u8]> = assembly.sections.iter().map(|s| &s.content[..]).collect();
        let xnack = format_ops::xnack_enabled(&assembly);
        let found = waits.finish(assembly.generation, &contents, &entries, xnack);
        assembly.more_wait_hazards = found.more;
        assembly.wait_hazards = found.hazards;
        assembly.wait_effects = found.waits;
        assembly.nop_hazards = found.nops;
        assembly.more_nop_hazards = found.more_nops;
        assembly.uninitialized_reads = found.uninitialized;
        assembly.more_uninitialized_reads = found.more_uninitialized;
    }
    assembly
}

/// Where each kernel whose setup the configuration tells starts: its own code section,
/// else its label in a shared one (the first instruction at or after it, past a
/// descriptor).
fn kernel_entries(a: &Assembly) -> Vec<waits::KernelEntry> {
    let setups = a.kernel_setup();
    a.kernels
        .iter()
        .enumerate()
        .filter_map(|(k, name)| {
            let setup = setups.get(k)?.as_ref()?;
            let (sgprs, vgprs) = gcn_formats::gpu::setup_counts(setup);
            let own = a
                .sections
                .iter()
                .position(|s| s.kind == layout::SectionKind::Code && s.kernel == Some(k));
            let (section, offset) = match own {
                Some(section) => (section, 0),
                None => a
                    .code_labels
                    .iter()
                    .find(|(label, _, _)| label == name)
                    .map(|&(_, section, offset)| (section, offset))?,
            };
            Some(waits::KernelEntry {
                kernel: name.clone(),
                section,
                offset,
                sgprs,
                // A compute wave always gets its work-item id x in v0.
                vgprs: vgprs.max(1),
            })
        })
        .collect()
}
