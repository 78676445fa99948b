//! Where the program's names are defined and used, and where its instructions were
//! put, recorded while it is assembled (when [`crate::Options::record_symbols`] asks
//! for it): what an editor needs for go-to-definition, references and rename across
//! included files and expansions, and to show what a line encodes to.
//!
//! Names are recorded as the assembler resolves them, so each entry names the symbol
//! it really is: a symbol by its full scope path (`outer::inner::x`), a local label by
//! its number and which of its definitions it is (`1#3`, the third `1:`), a macro,
//! kernel or scope by its name.

use crate::source::Location;

/// What kind of thing a name is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NameKind {
    /// A label (`name:`).
    Label,
    /// A symbol given a value (`=`, `.set`, `.equ`, `.equiv`, `.eqv`).
    Symbol,
    /// A register symbol (`name = %v[0:3]`).
    RegisterSymbol,
    /// A local label (`1:`), referred to as `1b` or `1f`.
    LocalLabel,
    Macro,
    Kernel,
    Scope,
}

/// One occurrence of a name in the source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Occurrence {
    pub kind: NameKind,
    /// The name as resolved (see the module's documentation).
    pub name: String,
    /// Where the occurrence is, and its length in bytes.
    pub location: Location,
    pub len: u32,
    /// A definition, or a use.
    pub definition: bool,
}

/// An instruction the assembler put in a section: where its statement is (a line of
/// a macro body once for each run), and where its words are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Placed {
    pub location: Location,
    pub section: usize,
    pub offset: usize,
    /// Its size in bytes.
    pub size: u32,
}

/// A branch of a conditional in a file's own text (not in a macro or repetition, which
/// may decide it differently on each run), as the assembler decided it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Branch {
    /// Where its header (`.if…`, `.elseif…`, `.else`) starts, and its length.
    pub header: Location,
    pub header_len: u32,
    /// From the header's start to the branch's end (where the next header or the
    /// `.endif` starts).
    pub len: u32,
    pub decision: Decision,
}

/// What the assembler did with a branch of a conditional.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    /// Its condition held: its statements were assembled.
    Taken,
    /// Its condition was false.
    False,
    /// An earlier branch was taken: its condition was not looked at.
    AfterTaken,
}

/// Every occurrence of every name, in the order the assembler met them, every
/// instruction placed, and every conditional's branches decided.
#[derive(Debug, Clone, Default)]
pub struct SymbolIndex {
    pub occurrences: Vec<Occurrence>,
    pub placed: Vec<Placed>,
    pub branches: Vec<Branch>,
    /// How many `N:` local labels have been defined so far, by `N`.
    local_counts: std::collections::HashMap<String, u32>,
}

/// The most occurrences and placed instructions recorded: a repetition that runs away
/// would otherwise fill the editor's memory with them (those past it are not found).
pub const MAX_RECORDED: usize = 2_000_000;

impl SymbolIndex {
    pub(crate) fn record(
        &mut self,
        kind: NameKind,
        name: String,
        location: Location,
        len: u32,
        definition: bool,
    ) {
        if self.occurrences.len() >= MAX_RECORDED {
            return;
        }
        self.occurrences.push(Occurrence {
            kind,
            name,
            location,
            len,
            definition,
        });
    }

    /// A `N:` local label defined: its indexed name (`N#k`).
    pub(crate) fn local_definition(&mut self, number: &str) -> String {
        let count = self.local_counts.entry(number.to_string()).or_insert(0);
        *count += 1;
        format!("{number}#{count}")
    }

    /// `Nb` or `Nf`: the indexed name of the `N:` it refers to.
    pub(crate) fn local_reference(&self, number: &str, forward: bool) -> String {
        let count = self.local_counts.get(number).copied().unwrap_or(0);
        format!("{number}#{}", if forward { count + 1 } else { count })
    }
}
