//! Text the assembler builds (macro bodies, expansions, macro arguments) with the source
//! location of every piece, so that a diagnostic in it points back at the source.

use std::rc::Rc;

use gcn_syntax::{SyntaxKind, SyntaxNode};

use crate::source::Location;

/// A run of built text copied from `loc` (or, if `fixed`, all of it mapped to `loc`:
/// text substituted for a macro parameter points at the parameter's use).
///
/// A fixed piece may also know where its text was written (`origin`, mapped byte for
/// byte): a macro argument's value, at the call. Diagnostics keep pointing at the
/// parameter's use, as the reference's do; the name index follows `origin`, so that a
/// name passed as an argument is found where the user wrote it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Piece {
    pub start: u32,
    pub len: u32,
    pub loc: Location,
    pub fixed: bool,
    pub origin: Option<Location>,
}

impl Piece {
    /// Where byte `offset` (inside the piece) is reported.
    fn location(&self, offset: u32) -> Location {
        if self.fixed {
            self.loc
        } else {
            Location {
                file: self.loc.file,
                offset: self.loc.offset + (offset - self.start),
            }
        }
    }

    /// Where byte `offset` (inside the piece) was written, if known.
    fn written_at(&self, offset: u32) -> Option<Location> {
        let delta = offset - self.start;
        match self.origin {
            Some(o) => Some(Location {
                file: o.file,
                offset: o.offset + delta,
            }),
            None => (!self.fixed).then(|| self.location(offset)),
        }
    }

    /// The origin of the part of the piece from `offset` on.
    fn origin_from(&self, offset: u32) -> Option<Location> {
        self.origin.map(|o| Location {
            file: o.file,
            offset: o.offset + (offset - self.start),
        })
    }
}

/// How offsets in the text being processed map back to source files.
#[derive(Debug, Clone)]
pub(crate) enum Mapper {
    File(crate::source::FileId),
    /// Built text: offsets inside a piece map into it; anything else to `fallback`.
    Built {
        pieces: Rc<[Piece]>,
        fallback: Location,
    },
    /// A part of a text starting at byte `base` of it.
    Shifted {
        inner: Rc<Mapper>,
        base: u32,
    },
}

impl Mapper {
    pub(crate) fn map(&self, offset: u32) -> Location {
        match self {
            Mapper::File(file) => Location {
                file: *file,
                offset,
            },
            Mapper::Built { pieces, fallback } => map_pieces(pieces, offset).unwrap_or(*fallback),
            Mapper::Shifted { inner, base } => inner.map(offset + base),
        }
    }

    /// Where byte `offset` was written: as [`map`](Self::map), except in text
    /// substituted for a macro parameter, which was written at the call.
    pub(crate) fn map_written(&self, offset: u32) -> Location {
        match self {
            Mapper::File(file) => Location {
                file: *file,
                offset,
            },
            Mapper::Built { pieces, fallback } => find_piece(pieces, offset)
                .map_or(*fallback, |p| p.written_at(offset).unwrap_or(p.loc)),
            Mapper::Shifted { inner, base } => inner.map_written(offset + base),
        }
    }

    /// The mapper of the part of the text that starts at `base`.
    pub(crate) fn shifted(&self, base: u32) -> Mapper {
        match self {
            Mapper::Shifted { inner, base: b } => Mapper::Shifted {
                inner: inner.clone(),
                base: b + base,
            },
            other => Mapper::Shifted {
                inner: Rc::new(other.clone()),
                base,
            },
        }
    }
}

/// The piece holding byte `offset` (or ending just at it).
fn find_piece(pieces: &[Piece], offset: u32) -> Option<&Piece> {
    let i = pieces.partition_point(|p| p.start <= offset);
    let p = pieces[..i].last()?;
    (offset <= p.start + p.len).then_some(p)
}

fn map_pieces(pieces: &[Piece], offset: u32) -> Option<Location> {
    find_piece(pieces, offset).map(|p| p.location(offset))
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
        self.push_piece(s, loc, false, None);
    }

    /// Appends `s`, every byte of which maps to `loc`.
    pub fn push_fixed(&mut self, s: &str, loc: Location) {
        self.push_piece(s, loc, true, None);
    }

    /// Appends `value`, substituted for a parameter written at `at`: reported at `at`,
    /// written where the value's own text was.
    pub fn push_substituted(&mut self, value: &Text, at: Location) {
        if value.pieces.is_empty() {
            self.push_fixed(&value.text, at);
            return;
        }
        let mut pos = 0;
        for p in &value.pieces {
            if p.start > pos {
                self.push_fixed(&value.text[pos as usize..p.start as usize], at);
            }
            let end = p.start + p.len;
            self.push_piece(
                &value.text[p.start as usize..end as usize],
                at,
                true,
                p.written_at(p.start),
            );
            pos = end;
        }
        self.push_fixed(&value.text[pos as usize..], at);
    }

    fn push_piece(&mut self, s: &str, loc: Location, fixed: bool, origin: Option<Location>) {
        if s.is_empty() {
            return;
        }
        let start = self.text.len() as u32;
        if let Some(last) = self.pieces.last_mut() {
            let follows = |a: Option<Location>, b: Option<Location>, len: u32| match (a, b) {
                (None, None) => true,
                (Some(a), Some(b)) => a.file == b.file && a.offset + len == b.offset,
                _ => false,
            };
            if fixed
                && last.fixed
                && last.start + last.len == start
                && last.loc == loc
                && last.origin.is_some()
                && follows(last.origin, origin, last.len)
            {
                last.len += s.len() as u32;
                self.text.push_str(s);
                return;
            }
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
        self.pieces.push(Piece {
            start,
            len: s.len() as u32,
            loc,
            fixed,
            origin,
        });
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
        let mut i = self
            .pieces
            .partition_point(|p| (p.start + p.len) as usize <= pos);
        while pos < end {
            match self.pieces.get(i) {
                Some(p) if (p.start as usize) <= pos => {
                    let piece_end = ((p.start + p.len) as usize).min(end);
                    let loc = if p.fixed {
                        p.loc
                    } else {
                        Location {
                            file: p.loc.file,
                            offset: p.loc.offset + (pos as u32 - p.start),
                        }
                    };
                    out.push_piece(
                        &self.text[pos..piece_end],
                        loc,
                        p.fixed,
                        p.origin_from(pos as u32),
                    );
                    pos = piece_end;
                    i += 1;
                }
                next => {
                    // A gap without origin (never built that way, but stay total).
                    let gap_end = next.map_or(end, |p| (p.start as usize).min(end));
                    let loc = self
                        .pieces
                        .get(i.saturating_sub(1))
                        .map(|p| p.loc)
                        .unwrap_or(Location {
                            file: crate::source::FileId(0),
                            offset: 0,
                        });
                    out.push_piece(&self.text[pos..gap_end], loc, true, None);
                    pos = gap_end;
                }
            }
        }
    }

    pub fn mapper(&self, fallback: Location) -> Mapper {
        Mapper::Built {
            pieces: self.pieces.clone().into(),
            fallback,
        }
    }

    /// [`mapper`](Self::mapper) made from the text's own pieces, and the text.
    pub fn into_mapper(self, fallback: Location) -> (Mapper, String) {
        let mapper = Mapper::Built {
            pieces: self.pieces.into(),
            fallback,
        };
        (mapper, self.text)
    }
}

/// The text of the tokens under `node` from byte offset `from` (relative to the tree)
/// on, as the reference's line reader sees it: comments become spaces (line breaks
/// kept, but for those a `\` joins), a `\` before a line break joins the lines.
/// `source` is the parsed text.
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
    for token in node
        .descendants_with_tokens()
        .filter_map(|e| e.into_token())
    {
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
            kind if kind.is_comment() => out.push(&blank_comment(text), mapper.map(at)),
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
                            push_mapped(&mut out, &rest[..=i], pos, mapper);
                            pos += (i + 1) as u32;
                            rest = after;
                            continue;
                        };
                        push_mapped(&mut out, &rest[..i], pos, mapper);
                        pos += (i + 1 + nl) as u32;
                        rest = &after[nl..];
                    }
                    push_mapped(&mut out, rest, pos, mapper);
                } else {
                    push_mapped(&mut out, text, at, mapper);
                }
            }
        }
    }
    out
}

/// A comment's text as spaces, one per character, but for its line breaks: kept, except
/// those a `\` joins to the next line, which go with their `\`. (A joined line break
/// kept would end the statement when the text is parsed again.)
fn blank_comment(text: &str) -> String {
    let mut blank = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if let Some(after) = rest
            .strip_prefix("\\\n")
            .or_else(|| rest.strip_prefix("\\\r\n"))
        {
            rest = after;
            continue;
        }
        blank.push(if c == '\n' { '\n' } else { ' ' });
        rest = &rest[c.len_utf8()..];
    }
    blank
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
                let (piece_end, loc, fixed, origin) = match pieces.get(i) {
                    Some(p) if p.start <= pos => (
                        (p.start + p.len).min(end),
                        p.location(pos),
                        p.fixed,
                        p.origin_from(pos),
                    ),
                    next => (
                        next.map_or(end, |p| p.start.min(end)),
                        *fallback,
                        true,
                        None,
                    ),
                };
                out.push_piece(
                    &s[(pos - start) as usize..(piece_end - start) as usize],
                    loc,
                    fixed,
                    origin,
                );
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
        Location {
            file: FileId(0),
            offset,
        }
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
    fn substituted_values_are_reported_at_the_parameter_and_written_at_the_call() {
        // A call's argument `x y` at 100, the value kept without its space.
        let mut call = Text::default();
        call.push("x y", loc(100));
        let mut value = Text::default();
        call.copy_range_to(0, 1, &mut value);
        call.copy_range_to(2, 3, &mut value);
        let mut body = Text::default();
        body.push("a ", loc(10));
        body.push_substituted(&value, loc(12));
        body.push(" b", loc(14));
        assert_eq!(body.text, "a xy b");
        let mapper = body.mapper(loc(0));
        assert_eq!((mapper.map(2), mapper.map(3)), (loc(12), loc(12)));
        assert_eq!(
            (mapper.map_written(2), mapper.map_written(3)),
            (loc(100), loc(102))
        );
        assert_eq!(mapper.map_written(5), loc(15));
        // Passed on to another macro, the value keeps where it was written.
        let mut again = Text::default();
        body.copy_range_to(2, 4, &mut again);
        let mut inner = Text::default();
        inner.push_substituted(&again, loc(50));
        let mapper = inner.mapper(loc(0));
        assert_eq!(
            (mapper.map(1), mapper.map_written(0), mapper.map_written(1)),
            (loc(50), loc(100), loc(102))
        );
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
