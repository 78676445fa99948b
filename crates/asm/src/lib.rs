//! The CLRX assembler core: from syntax trees to sections, symbols and kernels.
//!
//! [`assemble`] walks the statements of the inputs in order, in one pass: labels and
//! assignments define symbols ([`symbols`]), pseudo-ops emit data or change state,
//! instructions are encoded by `gcn-isa`, macros and repetitions are expanded as text and
//! parsed again by `gcn-syntax`. Values not known yet leave fixups that are patched when
//! their symbols are defined. The result is an [`Assembly`]: the module (sections,
//! kernels, symbols), the diagnostics with their positions and origin chains, and the
//! source map to print them.

mod assembler;
pub mod diag;
pub mod expr;
mod format_ops;
pub mod layout;
pub mod literals;
mod macros;
pub mod options;
mod output;
mod pseudo;
pub mod regusage;
pub mod source;
pub mod symbols;

use std::rc::Rc;

pub use crate::diag::{Diagnostic, Severity};
pub use crate::options::{BinaryFormat, Limits, Options};
pub use crate::source::{FileId, Location, SourceMap};

use crate::assembler::{Asm, Ctx, Flow, Mapper, Piece};
use crate::expr::Value;

/// One input: its name (for messages) and text.
pub struct Input {
    pub name: String,
    pub text: String,
}

/// A defined symbol of the result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SymbolOut {
    pub name: String,
    /// The value: absolute, or the offset in its section.
    pub value: Option<i64>,
    pub section: Option<usize>,
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
    pub reg_usage: regusage::RegUsage,
}

impl Assembly {
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(|d| d.severity == Severity::Error)
    }

    /// The module as `--emit json` writes it.
    pub fn to_json(&self) -> String {
        output::json(self)
    }

    /// Raw code: the bytes of the `.text` section (the rawcode format's only section).
    pub fn raw_code(&self) -> Vec<u8> {
        self.sections.iter().find(|s| s.name == ".text" && s.kernel.is_none()).map(|s| s.content.clone()).unwrap_or_default()
    }
}

/// Assembles the inputs as one source, in order.
pub fn assemble(inputs: Vec<Input>, options: Options) -> Assembly {
    let mut asm = Asm::new(options);
    for (name, value) in asm.opts.defsyms.clone() {
        let id = asm.symbols.define_target(&name);
        asm.set_symbol(id, Value::Abs(value));
    }
    // Several inputs are one program, as for clrxasm: a block may open in one file and
    // close in the next. Each file's text is one piece of the whole, for positions.
    let (text, ctx) = join_inputs(&mut asm, inputs);
    let _: Flow = asm.process_text(&ctx, &text);
    asm.finish_pending();
    finish(asm)
}

fn join_inputs(asm: &mut Asm, inputs: Vec<Input>) -> (String, Ctx) {
    let mut text = String::new();
    let mut pieces = Vec::new();
    let mut first = None;
    for input in inputs {
        let file = asm.sources.add(input.name, input.text.as_str());
        first.get_or_insert(file);
        pieces.push(Piece { start: text.len() as u32, len: input.text.len() as u32, loc: Location { file, offset: 0 } });
        text.push_str(&input.text);
        if !input.text.is_empty() && !input.text.ends_with('\n') {
            // A file's last line stays its own.
            text.push('\n');
        }
    }
    let mapper = match (pieces.len(), first) {
        (1, Some(file)) => Mapper::File(file),
        (_, Some(file)) => Mapper::Expansion { pieces: Rc::new(pieces), fallback: Location { file, offset: 0 } },
        (_, None) => Mapper::File(asm.sources.add("<empty>", "")),
    };
    (text, Ctx { mapper, origin: Rc::new(Vec::new()), depth: 0 })
}

fn finish(asm: Asm) -> Assembly {
    let symbols = asm
        .symbols
        .iter()
        .filter(|(_, s)| !s.name.is_empty() && !s.name.starts_with('\u{0}') && !s.name.contains("\u{0}"))
        .map(|(_, s)| match s.value {
            Some(Value::Abs(v)) => SymbolOut { name: s.name.clone(), value: Some(v), section: None },
            Some(Value::Rel { section, offset }) => {
                SymbolOut { name: s.name.clone(), value: Some(offset), section: Some(section as usize) }
            }
            None => SymbolOut { name: s.name.clone(), value: None, section: None },
        })
        .collect();
    Assembly {
        kernels: asm.layout.kernels.iter().map(|k| k.name.clone()).collect(),
        format: asm.layout.format,
        sections: asm.layout.sections,
        symbols,
        diagnostics: asm.diags,
        sources: asm.sources,
        printed: asm.printed,
        reg_usage: asm.reg_usage,
    }
}
