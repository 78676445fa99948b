//! "Did you mean": the names an unknown instruction, macro, pseudo-op or symbol may be a
//! slip for, in its error message and kept on the diagnostic for the editor's quick fix.
//!
//! Each unknown name is looked up once (the answer is kept), against the generation's
//! mnemonics and the macros, the format's pseudo-ops, or the symbols defined in the
//! name's scope. The comparisons of a program are limited
//! ([`SUGGESTION_COMPARISONS`]), so that a source of some other language, or one with
//! thousands of unresolved names among a hundred thousand labels, stays quick to
//! assemble: past the limit, errors come without suggestions.

use std::collections::HashMap;

use gcn_syntax::{ast, ast::AstNode, TextRange};

use crate::assembler::{Asm, Ctx, PendingTarget};
use crate::diag::{Diagnostic, Severity};

/// Names compared with unknown names in one program, at most (about a second).
pub(crate) const SUGGESTION_COMPARISONS: usize = 5_000_000;

/// What was found for each unknown name, and the comparisons left.
#[derive(Debug)]
pub(crate) struct Suggestions {
    found: HashMap<String, Vec<String>>,
    comparisons_left: usize,
}

impl Default for Suggestions {
    fn default() -> Self {
        Suggestions {
            found: HashMap::new(),
            comparisons_left: SUGGESTION_COMPARISONS,
        }
    }
}

impl Asm {
    /// An error about the unknown name written at `range`, with the `suggestions` of
    /// names it may be a slip for.
    pub(crate) fn error_suggesting(
        &mut self,
        ctx: &Ctx,
        range: TextRange,
        message: String,
        suggestions: Vec<String>,
    ) {
        let name = ctx.source[std::ops::Range::<usize>::from(range)].to_string();
        self.error_at(
            ctx,
            range,
            gcn_isa::suggest::did_you_mean(message, &suggestions),
        );
        self.keep_suggestions(&name, suggestions);
    }

    /// Keeps `suggestions` on the last diagnostic when it covers `name` as written: a
    /// quick fix replaces that text, so not where the name came from a macro parameter
    /// (the diagnostic is then on the parameter in the body).
    pub(crate) fn keep_suggestions(&mut self, name: &str, suggestions: Vec<String>) {
        let Some(d) = self.diags.last_mut() else {
            return;
        };
        let Some(at) = d.location else {
            return;
        };
        let start = at.offset as usize;
        let file = &self.sources.file(at.file).text;
        let Some(covered) = file.get(start..start + d.len as usize) else {
            return;
        };
        if covered == name {
            d.suggestions = suggestions;
        } else if let Some(within) = only_word(covered, name) {
            // An unresolved symbol in an expression: the fix replaces the name alone.
            d.suggestion_at = Some(((start + within) as u32, name.len() as u32));
            d.suggestions = suggestions;
        }
    }

    /// Looks `name` up once among what `candidates` gives, within the comparisons left.
    /// `key` names the lookup: what is looked for, the name and the state the candidates
    /// depend on (the generation, the macros defined so far).
    fn suggest(
        &mut self,
        key: String,
        name: &str,
        candidates: impl FnOnce(&Asm) -> Vec<&str>,
    ) -> Vec<String> {
        if let Some(found) = self.suggestions.found.get(&key) {
            return found.clone();
        }
        if self.suggestions.comparisons_left == 0 {
            return Vec::new();
        }
        let (found, compared) = {
            let candidates = candidates(self);
            let compared = candidates.len();
            let found: Vec<String> = gcn_isa::suggest::nearest(name, candidates)
                .into_iter()
                .map(str::to_string)
                .collect();
            (found, compared)
        };
        let left = &mut self.suggestions.comparisons_left;
        *left = left.saturating_sub(compared);
        self.suggestions.found.insert(key, found.clone());
        found
    }

    /// The mnemonics of the generation and the macros nearest to `name`.
    pub(crate) fn instruction_suggestions(&mut self, name: &str) -> Vec<String> {
        let gen = self.target.gen;
        // The candidates change with the generation and the macros defined so far.
        let key = format!(
            "instruction {} {} {}",
            name.to_ascii_lowercase(),
            gen.name(),
            self.macros.len()
        );
        let found = self.suggest(key, name, |asm| {
            let mnemonics = gcn_isa::instructions()
                .iter()
                .filter(|i| i.exists_on(gen))
                .map(|i| i.mnemonic);
            mnemonics
                .chain(asm.macros.values().map(|m| m.name()))
                .collect()
        });
        let macros_any_case = self.opts.macro_case_insensitive;
        gcn_isa::suggest::in_case_of(name, found, |s| {
            macros_any_case || !gcn_isa::lookup(s).is_empty()
        })
    }

    /// The pseudo-ops of the binary format in use nearest to `name` (with its dot).
    pub(crate) fn pseudo_op_suggestions(&mut self, name: &str) -> Vec<String> {
        let format = gcn_isa::Formats::from_format_name(self.layout.format.name());
        let key = format!(
            "pseudo-op {} {}",
            name.to_ascii_lowercase(),
            self.layout.format.name()
        );
        let found = self.suggest(key, name, |_| {
            let valid = gcn_isa::pseudo_ops()
                .iter()
                .filter(|p| format.is_some_and(|f| p.formats.contains(f)));
            valid.map(|p| p.name).collect()
        });
        gcn_isa::suggest::in_case_of(name, found, |_| true)
    }

    /// An error about the unknown device, architecture or format name written as
    /// argument `arg`, with the names `what` it may be a slip for.
    pub(crate) fn unknown_target_name(&mut self, ctx: &Ctx, arg: &ast::Arg, what: TargetName) {
        let name = arg.text();
        let noun = match what {
            TargetName::Device => "GPU device",
            TargetName::Arch => "architecture",
            TargetName::Format => "binary format",
        };
        let key = format!("{noun} {}", name.to_ascii_lowercase());
        let suggestions = self.suggest(key, &name, |_| match what {
            TargetName::Device => gcn_isa::Device::names().map(|(n, _)| n).collect(),
            TargetName::Arch => gcn_isa::arch::arch_names().map(|(n, _)| n).collect(),
            TargetName::Format => FORMAT_NAMES.to_vec(),
        });
        let message = format!("unknown {noun} `{name}`");
        self.error_suggesting(ctx, arg_word_range(arg), message, suggestions);
    }

    /// The special registers and register symbols nearest to `name`, written where a
    /// scalar register must be.
    pub(crate) fn register_suggestions(&mut self, name: &str) -> Vec<String> {
        let key = format!("register {name}");
        let found = self.suggest(key, name, |asm| {
            let symbols = asm
                .symbols
                .iter()
                .map(|(_, s)| s)
                .filter(|s| s.register.is_some());
            let symbols = symbols.map(|s| split_scope(&s.name).1);
            gcn_syntax::SPECIAL_REGISTERS
                .iter()
                .copied()
                .chain(symbols)
                .collect()
        });
        gcn_isa::suggest::in_case_of(name, found, |s| gcn_syntax::SPECIAL_REGISTERS.contains(&s))
    }

    /// The defined symbols and labels nearest to the unresolved `full_name` (its scope
    /// path first: `a::b::x`), by their names in its scope or the global one, as a use
    /// there writes them; with the special registers (`vcc_lo`, `exec`) where the name
    /// is an instruction's operand.
    pub(crate) fn symbol_suggestions(&mut self, full_name: &str, operand: bool) -> Vec<String> {
        let (scope, name) = split_scope(full_name);
        let key = format!("symbol {full_name} {operand}");
        self.suggest(key, name, |asm| {
            let defined = asm
                .symbols
                .iter()
                .map(|(_, s)| s)
                .filter(|s| s.is_defined() && s.register.is_none());
            let symbols = defined
                .map(|s| split_scope(&s.name))
                .filter(|(s, n)| {
                    (s.is_empty() || *s == scope)
                        && n.starts_with(|c: char| !c.is_ascii_digit() && c != '.')
                })
                .map(|(_, n)| n);
            let registers = gcn_syntax::SPECIAL_REGISTERS
                .iter()
                .copied()
                .filter(|_| operand);
            symbols.chain(registers).collect()
        })
    }

    /// The unresolved-symbol error of pending fixup `index`: at its expression, with the
    /// symbols `name` may be a slip for.
    pub(crate) fn unresolved_error(&mut self, index: usize, full_name: &str, message: String) {
        let operand = matches!(self.pending[index].target, PendingTarget::Field { .. });
        let suggestions = self.symbol_suggestions(full_name, operand);
        let p = &self.pending[index];
        let (loc, len, origin) = (p.loc, p.len, p.origin.to_vec());
        self.diags.push(Diagnostic {
            severity: Severity::Error,
            location: Some(loc),
            len,
            message: crate::encoding::escape_raw_bytes(gcn_isa::suggest::did_you_mean(
                message,
                &suggestions,
            )),
            origin,
            suggestions: Vec::new(),
            suggestion_at: None,
        });
        self.keep_suggestions(split_scope(full_name).1, suggestions);
    }
}

/// Where `name` is written in `text` as a whole name (not part of a longer one), when it
/// is written there once.
fn only_word(text: &str, name: &str) -> Option<usize> {
    if name.is_empty() {
        return None;
    }
    let is_name_byte = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'$');
    let bytes = text.as_bytes();
    let mut found = text.match_indices(name).map(|(at, _)| at).filter(|&at| {
        let before = at.checked_sub(1).map(|i| bytes[i]);
        let after = bytes.get(at + name.len()).copied();
        !before.is_some_and(is_name_byte) && !after.is_some_and(is_name_byte)
    });
    let first = found.next()?;
    found.next().is_none().then_some(first)
}

/// What a name after `.gpu`, `.arch`, `.format` (and their conditionals) names.
#[derive(Debug, Clone, Copy)]
pub(crate) enum TargetName {
    Device,
    Arch,
    Format,
}

/// The names `.format` and `.iffmt` take.
const FORMAT_NAMES: [&str; 7] = [
    "amd", "amdcl2", "catalyst", "gallium", "raw", "rawcode", "rocm",
];

/// The range of an argument's one word, else of the whole argument.
fn arg_word_range(arg: &ast::Arg) -> TextRange {
    let mut tokens = arg.raw_tokens().filter(|t| !t.kind().is_trivia());
    match (tokens.next(), tokens.next()) {
        (Some(only), None) => only.text_range(),
        _ => arg.syntax().text_range(),
    }
}

/// `("a::b", "x")` for `a::b::x`, `("", "x")` for `x`.
fn split_scope(full_name: &str) -> (&str, &str) {
    full_name.rsplit_once("::").unwrap_or(("", full_name))
}
