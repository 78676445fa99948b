//! Text the assembler builds (macro bodies, expansions, macro arguments) with the source
//! location of every piece, so that a diagnostic in it points back at the source.

use std::rc::Rc;

use gcn_syntax::{SyntaxKind, SyntaxNode};

use crate::source::Location;

/// A run of built text copied from `loc` (or, if `fixed`, all of it mapped to `loc`:
/// text substituted for a macro parameter points at the parameter's use).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Piece {
    pub start: u32,
    pub len: u32,
    pub loc: Location,
    pub fixed: bool,
}

/// How offsets in the text being processed map back to source files.
#[derive(Debug, Clone)]
pub(crate) enum Mapper {
    File(crate::source::FileId),
    /// Built text: offsets inside a piece map into it; anything else to `fallback`.
    Built { pieces: Rc<[Piece]>, fallback: Location },
    /// A part of a text starting at byte `base` of it.
    Shifted { inner: Rc<Mapper>, base: u32 },
}

impl Mapper {
    pub(crate) fn map(&self, offset: u32) -> Location {
        match self {
            Mapper::File(file) => Location { file: *file, offset },
            Mapper::Built { pieces, fallback } => map_pieces(pieces, offset).unwrap_or(*fallback),
            Mapper::Shifted { inner, base } => inner.map(offset + base),
        }
    }

    /// The mapper of the part of the text that starts at `base`.
    pub(crate) fn shifted(&self, base: u32) -> Mapper {
        match self {
            Mapper::Shifted { inner, base: b } => Mapper::Shifted { inner: inner.clone(), base: b + base },
            other => Mapper::Shifted { inner: Rc::new(other.clone()), base },
        }
    }
}

fn map_pieces(pieces: &[Piece], offset: u32) -> Option<Location> {
    let i = pieces.partition_point(|p| p.start <= offset);
    let p = pieces[..i].last()?;
    if offset > p.start + p.len {
        return None;
    }
    Some(if p.fixed { p.loc } else { Location { file: p.loc.file, offset: p.loc.offset + (offset - p.start) } })
}

/// Text with the origin of its pieces.
#[derive(Debug, Clone, Default)]
pub(crate) struct Text {
    pub text: String,
    pub pieces: Vec<Piece>,
}

impl Text {
    /// Appends `s` copied from `loc` onwards.
    pub fn push(&mut self, s: &str, loc: Location) {
        self.push_piece(s, loc, false);
    }

    /// Appends `s`, every byte of which maps to `loc`.
    pub fn push_fixed(&mut self, s: &str, loc: Location) {
        self.push_piece(s, loc, true);
    }

    fn push_piece(&mut self, s: &str, loc: Location, fixed: bool) {
        if s.is_empty() {
            return;
        }
        let start = self.text.len() as u32;
        if let Some(last) = self.pieces.last_mut() {
            let contiguous = !fixed
                && !last.fixed
                && last.start + last.len == start
                && last.loc.file == loc.file
                && last.loc.offset + last.len == loc.offset;
            if contiguous {
                last.len += s.len() as u32;
                self.text.push_str(s);
                return;
            }
        }
        self.pieces.push(Piece { start, len: s.len() as u32, loc, fixed });
        self.text.push_str(s);
    }

    /// Where byte `offset` of the text came from.
    pub fn location(&self, offset: usize, fallback: Location) -> Location {
        map_pieces(&self.pieces, offset as u32).unwrap_or(fallback)
    }

    /// Appends `self.text[start..end]` with its origins.
    pub fn copy_range_to(&self, start: usize, end: usize, out: &mut Text) {
        if start >= end {
            return;
        }
        let mut pos = start;
        let mut i = self.pieces.partition_point(|p| (p.start + p.len) as usize <= pos);
        while pos < end {
            match self.pieces.get(i) {
                Some(p) if (p.start as usize) <= pos => {
                    let piece_end = ((p.start + p.len) as usize).min(end);
                    let loc = if p.fixed {
                        p.loc
                    } else {
                        Location { file: p.loc.file, offset: p.loc.offset + (pos as u32 - p.start) }
                    };
                    out.push_piece(&self.text[pos..piece_end], loc, p.fixed);
                    pos = piece_end;
                    i += 1;
                }
                next => {
                    // A gap without origin (never built that way, but stay total).
                    let gap_end = next.map_or(end, |p| (p.start as usize).min(end));
                    let loc = self.pieces.get(i.saturating_sub(1)).map(|p| p.loc).unwrap_or(Location {
                        file: crate::source::FileId(0),
                        offset: 0,
                    });
                    out.push_piece(&self.text[pos..gap_end], loc, true);
                    pos = gap_end;
                }
            }
        }
    }

    pub fn mapper(&self, fallback: Location) -> Mapper {
        Mapper::Built { pieces: self.pieces.clone().into(), fallback }
    }
}

/// The text of the tokens under `node` from byte offset `from` (relative to the tree)
/// on, as the reference's line reader sees it: comments become spaces (line breaks
/// kept), a `\` before a line break joins the lines. `source` is the parsed text.
pub(crate) fn clean_text(node: &SyntaxNode, from: u32, mapper: &Mapper, source: &str) -> Text {
    let mut out = Text::default();
    // The common case: no comments or continued lines, the text as it is.
    let range = node.text_range();
    let start = u32::from(range.start()).max(from);
    let end = u32::from(range.end());
    if start >= end {
        return out;
    }
    if let Some(sub) = source.get(start as usize..end as usize) {
        if !sub.contains('#') && !sub.contains("/*") && !sub.contains('\\') {
            push_mapped(&mut out, sub, start, mapper);
            return out;
        }
    }
    for token in node.descendants_with_tokens().filter_map(|e| e.into_token()) {
        let range = token.text_range();
        let start: u32 = range.start().into();
        let end: u32 = range.end().into();
        if end <= from {
            continue;
        }
        let skip = from.saturating_sub(start) as usize;
        let text = &token.text()[skip..];
        let at = start + skip as u32;
        match token.kind() {
            SyntaxKind::LINE_CONTINUATION => {}
            SyntaxKind::COMMENT | SyntaxKind::BLOCK_COMMENT => {
                let blank: String = text.chars().map(|c| if c == '\n' { '\n' } else { ' ' }).collect();
                out.push(&blank, mapper.map(at));
            }
            _ => {
                // Line continuations inside a token (strings) are joined as well.
                if text.contains("\\\n") || text.contains("\\\r\n") {
                    let mut rest = text;
                    let mut pos = at;
                    while let Some(i) = rest.find('\\').filter(|_| !rest.is_empty()) {
                        let after = &rest[i + 1..];
                        let nl = if after.starts_with('\n') {
                            1
                        } else if after.starts_with("\r\n") {
                            2
                        } else {
                            out.push(&rest[..=i], mapper.map(pos));
                            pos += (i + 1) as u32;
                            rest = after;
                            continue;
                        };
                        out.push(&rest[..i], mapper.map(pos));
                        pos += (i + 1 + nl) as u32;
                        rest = &after[nl..];
                    }
                    out.push(rest, mapper.map(pos));
                } else {
                    out.push(text, mapper.map(at));
                }
            }
        }
    }
    out
}

/// Appends `s`, the text at `start` of what `mapper` maps, with its origins.
fn push_mapped(out: &mut Text, s: &str, start: u32, mapper: &Mapper) {
    match mapper {
        Mapper::File(_) => out.push(s, mapper.map(start)),
        Mapper::Shifted { inner, base } => push_mapped(out, s, start + base, inner),
        Mapper::Built { pieces, fallback } => {
            let end = start + s.len() as u32;
            let mut pos = start;
            let mut i = pieces.partition_point(|p| p.start + p.len <= pos);
            while pos < end {
                let (piece_end, loc, fixed) = match pieces.get(i) {
                    Some(p) if p.start <= pos => {
                        let loc = if p.fixed { p.loc } else { Location { file: p.loc.file, offset: p.loc.offset + (pos - p.start) } };
                        ((p.start + p.len).min(end), loc, p.fixed)
                    }
                    next => (next.map_or(end, |p| p.start.min(end)), *fallback, true),
                };
                out.push_piece(&s[(pos - start) as usize..(piece_end - start) as usize], loc, fixed);
                pos = piece_end;
                i += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::FileId;

    fn loc(offset: u32) -> Location {
        Location { file: FileId(0), offset }
    }

    #[test]
    fn pieces_map_back() {
        let mut t = Text::default();
        t.push("abc", loc(10));
        t.push("def", loc(13)); // merged
        t.push_fixed("XYZ", loc(40));
        t.push("gh", loc(50));
        assert_eq!(t.pieces.len(), 3);
        assert_eq!(t.location(4, loc(0)), loc(14));
        assert_eq!(t.location(7, loc(0)), loc(40));
        assert_eq!(t.location(10, loc(0)), loc(51));
        let mut copy = Text::default();
        t.copy_range_to(2, 10, &mut copy);
        assert_eq!(copy.text, "cdefXYZg");
        assert_eq!(copy.location(0, loc(0)), loc(12));
        assert_eq!(copy.location(5, loc(0)), loc(40));
        assert_eq!(copy.location(7, loc(0)), loc(50));
    }

    #[test]
    fn comments_blank_and_continuations_join() {
        let text = ".byte 1 # c\n.byte $\\\n$c\n";
        let parse = gcn_syntax::parse(text);
        let t = clean_text(&parse.syntax_node(), 0, &Mapper::File(FileId(0)), text);
        assert_eq!(t.text, ".byte 1    \n.byte $$c\n");
        assert_eq!(t.location(19, loc(0)), loc(21));
    }
}
