//! Diagnostics with a source position and the chain of expansions that led there.

use std::fmt::Write;

use crate::source::{Location, SourceMap};

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
    pub message: String,
    pub origin: Vec<(String, Location)>,
}

impl Diagnostic {
    /// `FILE:LINE:COLUMN: Error: MESSAGE`, after the lines of its origin chain.
    pub fn render(&self, sources: &SourceMap) -> String {
        let mut out = String::new();
        for (what, loc) in self.origin.iter().rev() {
            let _ = writeln!(out, "{}: {what}", sources.describe(loc));
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
