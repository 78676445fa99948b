//! What a macro call or a repetition expands to, statement by statement, as the
//! assembler ran it: for an editor's "expand macro". The statements are recorded as the
//! assembler reaches them, so a conditional inside the body shows only the branch it
//! took, a nested call its own expansion, and `\name`, `\@` and `local` names their
//! values. Asked for with [`crate::Options::expand`]; the result is
//! [`crate::Assembly::expansion`].

use crate::diag::Origin;
use crate::source::{FileId, Location};

/// The statements to expand: the calls and repetitions written in `file` between
/// `start` and `end` (offsets of the text the assembler reads for it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExpandRequest {
    pub file: FileId,
    pub start: u32,
    pub end: u32,
    /// At most this many statements are recorded (a call in a `.rept 100000` would
    /// otherwise record the whole program).
    pub max_statements: usize,
}

/// The expansions of the statements asked for, in the order the assembler ran them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Expansion {
    pub parts: Vec<ExpansionPart>,
    /// Whether recording stopped at [`ExpandRequest::max_statements`]: how many there
    /// were then.
    pub cut: Option<usize>,
}

/// One run of a call or one iteration of a repetition.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExpansionPart {
    /// What ran: "macro `name`", "repetition 2/4".
    pub what: String,
    /// Where the call or the repetition's header is.
    pub at: Location,
    /// The statements it ran, each as the assembler read it (whitespace trimmed).
    pub statements: Vec<String>,
}

impl Expansion {
    /// The statements as source text: a label at the start of its line, the others
    /// indented, each part after a comment naming it when there are several (and
    /// numbering them when their names repeat, as a call in a repetition's body does).
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        let n = self.parts.len();
        let names_repeat =
            (1..n).any(|i| self.parts[..i].iter().any(|p| p.what == self.parts[i].what));
        for (i, part) in self.parts.iter().enumerate() {
            if n > 1 {
                if i > 0 {
                    out.push('\n');
                }
                if names_repeat {
                    out.push_str(&format!("# {}, run {} of {n}\n", part.what, i + 1));
                } else {
                    out.push_str(&format!("# {}\n", part.what));
                }
            }
            for statement in &part.statements {
                if !is_label(statement) {
                    out.push_str("        ");
                }
                out.push_str(statement);
                out.push('\n');
            }
        }
        if let Some(shown) = self.cut {
            out.push_str(&format!(
                "# … cut here: only the first {shown} statements are shown\n"
            ));
        }
        out
    }
}

fn is_label(statement: &str) -> bool {
    statement.ends_with(':') && !statement.contains(char::is_whitespace)
}

/// What the assembler records while it runs, when asked.
#[derive(Debug)]
pub(crate) struct Recorder {
    request: ExpandRequest,
    expansion: Expansion,
    statements: usize,
    /// The frame of the part being recorded (one run of a call is one frame).
    current: Option<u64>,
}

impl Recorder {
    pub(crate) fn new(request: ExpandRequest) -> Recorder {
        Recorder {
            request,
            expansion: Expansion::default(),
            statements: 0,
            current: None,
        }
    }

    /// Records `text`, a statement the assembler runs with the chain `origin`, when it
    /// comes from an expansion asked for.
    pub(crate) fn statement(&mut self, origin: &Origin, text: &str) {
        let ExpandRequest {
            file,
            start,
            end,
            max_statements,
        } = self.request;
        let asked = |loc: &Location| loc.file == file && (start..end).contains(&loc.offset);
        let Some((id, what, at)) = origin.outermost(asked) else {
            return;
        };
        if self.statements >= max_statements {
            self.expansion.cut = Some(max_statements);
            return;
        }
        self.statements += 1;
        if self.current != Some(id) {
            self.current = Some(id);
            let what = what.strip_prefix("in ").unwrap_or(what);
            let what = what.strip_suffix(" called here").unwrap_or(what);
            self.expansion.parts.push(ExpansionPart {
                what: what.to_string(),
                at,
                statements: Vec::new(),
            });
        }
        let part = self.expansion.parts.last_mut().expect("pushed above");
        part.statements.push(text.trim().to_string());
    }

    pub(crate) fn finish(self) -> Expansion {
        self.expansion
    }
}
