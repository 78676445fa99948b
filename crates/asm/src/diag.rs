//! Diagnostics with a source position and the chain of expansions that led there.

use std::fmt::Write;

use crate::source::{Location, SourceMap};

/// The chain of expansions that led to a text ("in macro X called here"), shared: a
/// nested text adds its frame without copying its parents' (a recursion 1,000 deep
/// holds 1,000 frames, not half a million).
#[derive(Debug, Clone, Default)]
pub(crate) struct Origin(Option<std::rc::Rc<Frame>>);

#[derive(Debug)]
struct Frame {
    what: String,
    loc: Location,
    parent: Origin,
    /// Which frame this is, among all the thread made (a freed frame's address may be
    /// reused by the next).
    serial: u64,
}

thread_local! {
    static FRAMES_MADE: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

impl Origin {
    /// This chain with `frame` added inside it.
    pub(crate) fn push(&self, (what, loc): (String, Location)) -> Origin {
        let serial = FRAMES_MADE.with(|n| {
            n.set(n.get() + 1);
            n.get()
        });
        Origin(Some(std::rc::Rc::new(Frame {
            what,
            loc,
            parent: self.clone(),
            serial,
        })))
    }

    /// The outermost frame whose place satisfies `pred`: the frame's serial number
    /// (one run of a call or iteration of a repetition has one), what it is and where.
    pub(crate) fn outermost(
        &self,
        pred: impl Fn(&Location) -> bool,
    ) -> Option<(u64, &str, Location)> {
        let mut found = None;
        let mut at = &self.0;
        while let Some(frame) = at {
            if pred(&frame.loc) {
                found = Some((frame.serial, frame.what.as_str(), frame.loc));
            }
            at = &frame.parent.0;
        }
        found
    }

    /// The frames, outermost first (as [`Diagnostic::origin`] holds them).
    pub(crate) fn to_vec(&self) -> Vec<(String, Location)> {
        let mut frames = Vec::new();
        let mut at = &self.0;
        while let Some(frame) = at {
            frames.push((frame.what.clone(), frame.loc));
            at = &frame.parent.0;
        }
        frames.reverse();
        frames
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    Warning,
    Error,
}

/// A message about a place in the source. `origin` lists where it came from, innermost
/// first: "in macro X called at …", "in repetition 3/8", "in file included from …".
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    pub location: Option<Location>,
    /// Bytes the diagnostic covers from `location`, in the same file (0: a point).
    pub len: u32,
    pub message: String,
    pub origin: Vec<(String, Location)>,
    /// Names the text the diagnostic covers may be a slip for (an unknown instruction,
    /// macro or pseudo-op), nearest first; the message says them too ("did you mean").
    pub suggestions: Vec<String>,
    /// Where the suggestions go (offset and length in the diagnostic's file) when that
    /// is not all the diagnostic covers: a name inside the expression it is about.
    pub suggestion_at: Option<(u32, u32)>,
}

impl Diagnostic {
    /// `FILE:LINE:COLUMN: Error: MESSAGE`, after the lines of its origin chain.
    pub fn render(&self, sources: &SourceMap) -> String {
        let mut out = String::new();
        // Innermost first; a frame repeated (a macro calling itself) is printed once.
        let mut frames = self.origin.iter().rev().peekable();
        while let Some(frame @ (what, loc)) = frames.next() {
            let mut times = 1;
            while frames.peek() == Some(&frame) {
                frames.next();
                times += 1;
            }
            if times > 1 {
                let _ = writeln!(out, "{}: {what} ({times} times)", sources.describe(loc));
            } else {
                let _ = writeln!(out, "{}: {what}", sources.describe(loc));
            }
        }
        let kind = match self.severity {
            Severity::Error => "Error",
            Severity::Warning => "Warning",
        };
        match &self.location {
            Some(loc) => {
                let _ = write!(out, "{}: {kind}: {}", sources.describe(loc), self.message);
            }
            None => {
                let _ = write!(out, "{kind}: {}", self.message);
            }
        }
        out
    }
}
