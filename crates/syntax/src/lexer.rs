//! The lexer: splits text into tokens that cover every byte.
//!
//! It never fails: an unknown character becomes an `ERROR_TOKEN` and an unterminated
//! string, character or block comment runs to the end of the line (or file) with an
//! error attached. The lexer knows nothing of statements, so it can relex any slice.
//!
//! Line breaks follow the reference's line reader: a `\` right before a line break
//! (`\n` or `\r\n`) joins the lines, outside tokens (`LINE_CONTINUATION`) and inside a
//! `#` comment (which then goes on over the next line), a string or a character literal
//! (whose value leaves the two out). A line break inside a `/* */` comment that no `\`
//! joins ends the statement: such a comment is a `MULTILINE_COMMENT`, a separator.

use crate::SyntaxKind::{self, *};

/// One token: its kind and length in bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Token {
    pub kind: SyntaxKind,
    pub len: u32,
}

/// A lexical error: the token at `token_index` is malformed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LexError {
    pub token_index: usize,
    pub message: String,
}

/// Tokens of `text`, in order, with their errors. The lengths add up to `text.len()`.
pub fn lex(text: &str) -> (Vec<Token>, Vec<LexError>) {
    let bytes = text.as_bytes();
    // About one token per two bytes in dense code: growing the vector would copy it.
    let mut tokens = Vec::with_capacity(bytes.len() / 2 + 1);
    let mut errors = Vec::new();
    // Tokens gather in a small buffer on the stack and move to `tokens` a batch at a
    // time, so that the loop keeps no vector in registers: the position stays in one.
    let mut batch = [Token {
        kind: WHITESPACE,
        len: 0,
    }; 64];
    let mut batched = 0;
    let mut pos = 0;
    while let Some(&first) = bytes.get(pos) {
        let (kind, len) = match CLASSES[first as usize] {
            // The first byte is a name byte too.
            Class::NameStart => (NAME, name_rest_end(bytes, pos + 1) - pos),
            Class::Single => (SINGLE_KINDS[first as usize], 1),
            Class::Space => (WHITESPACE, space_end(bytes, pos) - pos),
            Class::Newline => (NEWLINE, 1),
            Class::Colon if bytes.get(pos + 1) != Some(&b':') => (COLON, 1),
            class => {
                let plain = if class == Class::Digit {
                    plain_decimal(bytes, pos)
                } else {
                    None
                };
                let (kind, end) = match plain {
                    Some(number) => number,
                    None => other_token(bytes, pos, first, &mut errors, tokens.len() + batched),
                };
                (kind, end - pos)
            }
        };
        batch[batched] = Token {
            kind,
            len: len as u32,
        };
        batched += 1;
        pos += len;
        if batched == batch.len() {
            tokens.extend_from_slice(&batch);
            batched = 0;
        }
    }
    tokens.extend_from_slice(&batch[..batched]);
    (tokens, errors)
}

/// The token at `pos` that `lex` does not lex itself, and where it ends; its error, if
/// any, goes to `errors` as that of token `index`.
#[inline(never)]
fn other_token(
    bytes: &[u8],
    pos: usize,
    first: u8,
    errors: &mut Vec<LexError>,
    index: usize,
) -> (SyntaxKind, usize) {
    let mut cursor = Cursor {
        bytes,
        pos,
        error: None,
    };
    let kind = cursor.next_token(first);
    if let Some(message) = cursor.error {
        errors.push(LexError {
            token_index: index,
            message: message.to_string(),
        });
    }
    (kind, cursor.pos)
}

/// The single token `text` lexes to, if it is exactly one token without error.
pub fn lex_single(text: &str) -> Option<SyntaxKind> {
    let mut cursor = Cursor::new(text);
    let &first = cursor.bytes.first()?;
    let kind = cursor.next_token(first);
    (cursor.at_end() && cursor.error.is_none()).then_some(kind)
}

pub(crate) fn is_name_start(b: u8) -> bool {
    matches!(CLASSES[b as usize], Class::NameStart | Class::Dot)
}

fn is_name_continue(b: u8) -> bool {
    NAME_CONTINUE[b as usize]
}

/// What a byte starts, so that `next_token` dispatches with one table lookup.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Class {
    /// Space, tab, vertical tab, form feed.
    Space,
    Cr,
    Newline,
    Hash,
    Slash,
    Backslash,
    Quote,
    Apostrophe,
    Digit,
    Dot,
    Colon,
    /// `[A-Za-z_$]`.
    NameStart,
    /// Punctuation that is always a token of its own (`,`, `[`, `+`, …): its kind is
    /// in `SINGLE_KINDS`.
    Single,
    /// Punctuation that may start a longer operator (`<`, `>>`, `!=`, …).
    Operator,
    /// Any other ASCII byte: an unknown character.
    Unknown,
    /// A byte of a multi-byte character.
    NonAscii,
}

static CLASSES: [Class; 256] = {
    let mut table = [Class::Unknown; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        table[b] = match c {
            b' ' | b'\t' | b'\x0b' | b'\x0c' => Class::Space,
            b'\r' => Class::Cr,
            b'\n' => Class::Newline,
            b'#' => Class::Hash,
            b'/' => Class::Slash,
            b'\\' => Class::Backslash,
            b'"' => Class::Quote,
            b'\'' => Class::Apostrophe,
            b'0'..=b'9' => Class::Digit,
            b'.' => Class::Dot,
            b':' => Class::Colon,
            b'a'..=b'z' | b'A'..=b'Z' | b'_' | b'$' => Class::NameStart,
            b'<' | b'>' | b'%' | b'&' | b'|' | b'=' | b'!' => Class::Operator,
            0x80..=0xff => Class::NonAscii,
            _ if single_kind(c).is_some() => Class::Single,
            _ => Class::Unknown,
        };
        b += 1;
    }
    table
};

/// The token of a punctuation byte that never starts a longer token.
const fn single_kind(b: u8) -> Option<SyntaxKind> {
    Some(match b {
        b';' => SEMICOLON,
        b',' => COMMA,
        b'(' => L_PAREN,
        b')' => R_PAREN,
        b'[' => L_BRACK,
        b']' => R_BRACK,
        b'+' => PLUS,
        b'-' => MINUS,
        b'*' => STAR,
        b'^' => CARET,
        b'~' => TILDE,
        b'?' => QUESTION,
        b'@' => AT,
        _ => return None,
    })
}

/// The kinds of the `Class::Single` bytes (`ERROR_TOKEN` elsewhere, never read).
static SINGLE_KINDS: [SyntaxKind; 256] = {
    let mut table = [ERROR_TOKEN; 256];
    let mut b = 0;
    while b < 256 {
        if let Some(kind) = single_kind(b as u8) {
            table[b] = kind;
        }
        b += 1;
    }
    table
};

/// `[A-Za-z0-9_.$]`: the bytes of a name after its first.
static NAME_CONTINUE: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = matches!(b as u8, b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'_' | b'.' | b'$');
        b += 1;
    }
    table
};

fn is_space(b: u8) -> bool {
    CLASSES[b as usize] == Class::Space
}

/// Where the first byte at or after `pos` for which `pred` is false stands (or the end).
#[inline]
fn skip_while(bytes: &[u8], pos: usize, pred: impl Fn(u8) -> bool) -> usize {
    match bytes[pos..].iter().position(|&b| !pred(b)) {
        Some(n) => pos + n,
        None => bytes.len(),
    }
}

/// Where the name bytes (see [`is_name_continue`]) from `pos` on end: the lexer's
/// hottest loop, so it looks at four bytes a step.
#[inline]
pub(crate) fn skip_name(bytes: &[u8], mut pos: usize) -> usize {
    while let Some(&[a, b, c, d]) = bytes.get(pos..pos + 4) {
        if !is_name_continue(a) {
            return pos;
        }
        if !is_name_continue(b) {
            return pos + 1;
        }
        if !is_name_continue(c) {
            return pos + 2;
        }
        if !is_name_continue(d) {
            return pos + 3;
        }
        pos += 4;
    }
    skip_while(bytes, pos, is_name_continue)
}

/// Where the name at `pos` ends: `[A-Za-z_.][A-Za-z0-9_.]*`, optionally in a scope path
/// `a::b::c` or `::a` (the caller has checked that a `:` at `pos` starts `::`).
#[inline(always)]
fn name_end(bytes: &[u8], pos: usize) -> usize {
    let after_scope = if bytes[pos] == b':' { pos + 2 } else { pos };
    name_rest_end(bytes, after_scope)
}

/// Where a name ends whose bytes from `pos` on continue it (name bytes, or a `::` path).
#[inline(always)]
fn name_rest_end(bytes: &[u8], mut pos: usize) -> usize {
    let at = |i: usize| bytes.get(i).copied().unwrap_or(0);
    loop {
        pos = skip_name(bytes, pos);
        if !(at(pos) == b':' && at(pos + 1) == b':' && is_name_start(at(pos + 2))) {
            return pos;
        }
        pos += 2;
    }
}

/// Where the whitespace at `pos` ends: mostly a single space, so that is tried first.
#[inline(always)]
fn space_end(bytes: &[u8], pos: usize) -> usize {
    match bytes.get(pos + 1) {
        Some(&b) if is_space(b) => skip_while(bytes, pos + 2, is_space),
        _ => pos + 1,
    }
}

/// The common number at `pos`, digits alone (`0`, `16`, `017`), and where it ends,
/// decided without the general rules: `None` if anything that could make it another
/// number follows (a name byte such as `.`, `e`, `x`, `f`).
#[inline(always)]
fn plain_decimal(bytes: &[u8], start: usize) -> Option<(SyntaxKind, usize)> {
    let end = skip_while(bytes, start, |b| b.is_ascii_digit());
    if end == start || bytes.get(end).is_some_and(|&b| is_name_continue(b)) {
        return None;
    }
    let digits = &bytes[start..end];
    let bad_octal =
        digits.len() > 1 && digits[0] == b'0' && digits.iter().any(|&b| b == b'8' || b == b'9');
    Some((if bad_octal { BAD_NUMBER } else { INT_NUMBER }, end))
}

struct Cursor<'a> {
    bytes: &'a [u8],
    pos: usize,
    /// The error of the token just lexed, if it is malformed: rare, so kept out of the
    /// return value that every token pays for.
    error: Option<&'static str>,
}

impl<'a> Cursor<'a> {
    fn new(text: &'a str) -> Cursor<'a> {
        Cursor {
            bytes: text.as_bytes(),
            pos: 0,
            error: None,
        }
    }

    fn at_end(&self) -> bool {
        self.pos >= self.bytes.len()
    }

    fn peek(&self, ahead: usize) -> u8 {
        self.bytes.get(self.pos + ahead).copied().unwrap_or(0)
    }

    /// Steps over one whole UTF-8 character, so tokens end on character boundaries.
    fn bump_char(&mut self) {
        self.pos += 1;
        while !self.at_end() && (self.bytes[self.pos] & 0xC0) == 0x80 {
            self.pos += 1;
        }
    }

    fn eat_while(&mut self, pred: impl Fn(u8) -> bool) {
        self.pos = skip_while(self.bytes, self.pos, pred);
    }

    /// Lexes the token that starts with `first`, the byte at the cursor. (`lex` handles
    /// the commonest tokens itself, before coming here.)
    #[inline(always)]
    fn next_token(&mut self, first: u8) -> SyntaxKind {
        match CLASSES[first as usize] {
            Class::NameStart => self.name(),
            Class::Single => {
                self.pos += 1;
                SINGLE_KINDS[first as usize]
            }
            Class::Space => {
                self.pos = space_end(self.bytes, self.pos);
                WHITESPACE
            }
            Class::Digit => self.number(),
            Class::Newline => {
                self.pos += 1;
                NEWLINE
            }
            Class::Cr if self.peek(1) == b'\n' => {
                self.pos += 2;
                NEWLINE
            }
            Class::Cr => {
                self.pos += 1;
                WHITESPACE
            }
            Class::Hash => self.line_comment(),
            Class::Slash if self.peek(1) == b'*' => self.block_comment(),
            Class::Backslash => self.backslash(),
            Class::Quote => self.string(),
            Class::Apostrophe => self.char_literal(),
            Class::Dot if self.peek(1).is_ascii_digit() => self.number(),
            Class::Colon if self.peek(1) == b':' && is_name_start(self.peek(2)) => self.name(),
            Class::Dot => self.name(),
            Class::Colon => {
                self.pos += 1;
                COLON
            }
            Class::Slash | Class::Operator => self.operator(first),
            Class::Unknown => {
                self.pos += 1;
                self.malformed(ERROR_TOKEN, "unexpected character")
            }
            Class::NonAscii => {
                self.bump_char();
                self.malformed(ERROR_TOKEN, "unexpected character")
            }
        }
    }

    /// A token of `kind` with an error.
    #[cold]
    fn malformed(&mut self, kind: SyntaxKind, message: &'static str) -> SyntaxKind {
        self.error = Some(message);
        kind
    }

    /// The length of the line break at the cursor that a `\` before it joins to the next
    /// line (`\n` or `\r\n`), or 0.
    fn joined_line_break(&self) -> usize {
        match (self.peek(0), self.peek(1)) {
            (b'\n', _) if self.pos > 0 && self.bytes[self.pos - 1] == b'\\' => 1,
            (b'\r', b'\n') if self.pos > 0 && self.bytes[self.pos - 1] == b'\\' => 2,
            _ => 0,
        }
    }

    /// `# …` up to the line break (or a lone `\r`); a `\` right before the line break
    /// carries the comment over the next line, as the reference's line reader does.
    #[inline(never)]
    fn line_comment(&mut self) -> SyntaxKind {
        loop {
            self.eat_while(|b| b != b'\n' && b != b'\r');
            match self.joined_line_break() {
                0 => return COMMENT,
                n => self.pos += n,
            }
        }
    }

    /// `/* … */`: a `MULTILINE_COMMENT` if a line break that no `\` joins stands inside.
    #[inline(never)]
    fn block_comment(&mut self) -> SyntaxKind {
        self.pos += 2;
        let mut kind = BLOCK_COMMENT;
        while !self.at_end() {
            match self.peek(0) {
                b'*' if self.peek(1) == b'/' => {
                    self.pos += 2;
                    return kind;
                }
                b'\n'
                    if self.bytes[self.pos - 1] != b'\\'
                        && !(self.bytes[self.pos - 1] == b'\r'
                            && self.bytes[self.pos - 2] == b'\\') =>
                {
                    kind = MULTILINE_COMMENT;
                }
                _ => {}
            }
            self.pos += 1;
        }
        self.malformed(kind, "unterminated block comment")
    }

    #[inline(never)]
    fn backslash(&mut self) -> SyntaxKind {
        match (self.peek(1), self.peek(2)) {
            (b'\n', _) => self.pos += 2,
            (b'\r', b'\n') => self.pos += 3,
            _ => {
                self.pos += 1;
                return BACKSLASH;
            }
        }
        LINE_CONTINUATION
    }

    #[inline(always)]
    fn name(&mut self) -> SyntaxKind {
        self.pos = name_end(self.bytes, self.pos);
        NAME
    }

    #[inline(never)]
    fn string(&mut self) -> SyntaxKind {
        self.pos += 1;
        while !self.at_end() {
            match self.peek(0) {
                b'"' => {
                    self.pos += 1;
                    return STRING;
                }
                b'\\' => match (self.peek(1), self.peek(2)) {
                    // Joined to the next line.
                    (b'\n', _) => self.pos += 2,
                    (b'\r', b'\n') => self.pos += 3,
                    (b'\r' | 0, _) => self.pos += 1,
                    _ => {
                        self.pos += 1;
                        self.bump_char();
                    }
                },
                b'\n' | b'\r' => break,
                _ => self.pos += 1,
            }
        }
        self.malformed(STRING, "unterminated string")
    }

    #[inline(never)]
    fn char_literal(&mut self) -> SyntaxKind {
        const UNTERMINATED: &str = "unterminated character literal";
        self.pos += 1;
        self.skip_joined_line_breaks();
        match self.peek(0) {
            b'\\' => {
                self.pos += 1;
                match self.peek(0) {
                    b'x' | b'X' => {
                        self.pos += 1;
                        self.eat_while(|b| b.is_ascii_hexdigit());
                    }
                    b'0'..=b'7' => self.eat_while(|b| (b'0'..=b'7').contains(&b)),
                    b'\n' | b'\r' | 0 => return self.malformed(CHAR, UNTERMINATED),
                    _ => self.bump_char(),
                }
            }
            b'\n' | b'\r' | 0 => return self.malformed(CHAR, UNTERMINATED),
            _ => self.bump_char(),
        }
        self.skip_joined_line_breaks();
        if self.peek(0) == b'\'' {
            self.pos += 1;
            CHAR
        } else {
            self.malformed(CHAR, UNTERMINATED)
        }
    }

    /// Steps over `\` line breaks (in a character literal, which they join).
    fn skip_joined_line_breaks(&mut self) {
        loop {
            match (self.peek(0), self.peek(1), self.peek(2)) {
                (b'\\', b'\n', _) => self.pos += 2,
                (b'\\', b'\r', b'\n') => self.pos += 3,
                _ => return,
            }
        }
    }

    /// Numbers: decimal, `0x` hex, `0b` binary, leading-`0` octal, floats with exponents,
    /// hex floats (`0x1.8p3`), float suffixes `s`/`h`/`l`, and local label refs `1f`/`1b`.
    #[inline]
    fn number(&mut self) -> SyntaxKind {
        match plain_decimal(self.bytes, self.pos) {
            Some((kind, end)) => {
                self.pos = end;
                kind
            }
            None => self.general_number(),
        }
    }

    #[inline(never)]
    fn general_number(&mut self) -> SyntaxKind {
        let start = self.pos;
        let kind = self.number_body(start);
        if is_name_continue(self.peek(0)) {
            // Glued letters make the whole run one malformed number (`1d`, `0x1g`),
            // except after a dot, where it is a name (`.64bit`).
            self.eat_while(is_name_continue);
            return if self.bytes[start] == b'.' {
                NAME
            } else {
                BAD_NUMBER
            };
        }
        let text = &self.bytes[start..self.pos];
        let bad_octal = kind == INT_NUMBER
            && text.len() > 1
            && text[0] == b'0'
            && text[1].is_ascii_digit()
            && text.iter().any(|&b| b == b'8' || b == b'9');
        if bad_octal {
            return BAD_NUMBER;
        }
        kind
    }

    fn number_body(&mut self, start: usize) -> SyntaxKind {
        let first = self.peek(0);
        let second = self.peek(1) | 0x20;
        if first == b'0' && second == b'x' && self.peek(2).is_ascii_hexdigit() {
            self.pos += 2;
            return self.hex_number();
        }
        if first == b'0' && second == b'b' && matches!(self.peek(2), b'0' | b'1') {
            self.pos += 2;
            self.eat_while(|b| b == b'0' || b == b'1');
            return INT_NUMBER;
        }
        self.eat_while(|b| b.is_ascii_digit());
        let mut is_float = false;
        if self.peek(0) == b'.' {
            is_float = true;
            self.pos += 1;
            self.eat_while(|b| b.is_ascii_digit());
        }
        if matches!(self.peek(0), b'e' | b'E') {
            let sign = usize::from(matches!(self.peek(1), b'+' | b'-'));
            if self.peek(1 + sign).is_ascii_digit() {
                self.pos += 1 + sign;
                self.eat_while(|b| b.is_ascii_digit());
                is_float = true;
            } else if !is_name_continue(self.peek(1)) {
                // `1.5e`: an exponent with no digits, which the reference accepts.
                self.pos += 1;
                is_float = true;
            }
        }
        let only_digits = !is_float && self.pos > start;
        if only_digits && matches!(self.peek(0), b'f' | b'b') && !is_name_continue(self.peek(1)) {
            self.pos += 1;
            return LOCAL_LABEL_REF;
        }
        if is_float {
            self.float_suffix();
            return FLOAT_NUMBER;
        }
        INT_NUMBER
    }

    fn hex_number(&mut self) -> SyntaxKind {
        self.eat_while(|b| b.is_ascii_hexdigit());
        let mut is_float = false;
        if self.peek(0) == b'.' {
            is_float = true;
            self.pos += 1;
            self.eat_while(|b| b.is_ascii_hexdigit());
        }
        if matches!(self.peek(0), b'p' | b'P') {
            let sign = usize::from(matches!(self.peek(1), b'+' | b'-'));
            if self.peek(1 + sign).is_ascii_digit() {
                self.pos += 1 + sign;
                self.eat_while(|b| b.is_ascii_digit());
                is_float = true;
            }
        }
        if is_float {
            self.float_suffix();
            FLOAT_NUMBER
        } else {
            INT_NUMBER
        }
    }

    fn float_suffix(&mut self) {
        if matches!(self.peek(0) | 0x20, b's' | b'h' | b'l') && !is_name_continue(self.peek(1)) {
            self.pos += 1;
        }
    }

    /// An operator that may be longer than its first byte `b` (`Class::Operator` and `/`).
    #[inline(never)]
    fn operator(&mut self, b: u8) -> SyntaxKind {
        let (kind, len) = match (b, self.peek(1), self.peek(2)) {
            (b'>', b'>', b'>') => (ASHR, 3),
            (b'<', b'=', b'@') => (LE_AT, 3),
            (b'>', b'=', b'@') => (GE_AT, 3),
            (b'/', b'/', _) => (SLASH2, 2),
            (b'%', b'%', _) => (PERCENT2, 2),
            (b'<', b'<', _) => (SHL, 2),
            (b'>', b'>', _) => (SHR, 2),
            (b'&', b'&', _) => (AMP2, 2),
            (b'|', b'|', _) => (PIPE2, 2),
            (b'=', b'=', _) => (EQ2, 2),
            (b'!', b'=', _) | (b'<', b'>', _) => (NEQ, 2),
            (b'<', b'=', _) => (LE, 2),
            (b'>', b'=', _) => (GE, 2),
            (b'<', b'@', _) => (LT_AT, 2),
            (b'>', b'@', _) => (GT_AT, 2),
            (b'=', _, _) => (EQ, 1),
            (b'/', _, _) => (SLASH, 1),
            (b'%', _, _) => (PERCENT, 1),
            (b'&', _, _) => (AMP, 1),
            (b'|', _, _) => (PIPE, 1),
            (b'!', _, _) => (BANG, 1),
            (b'<', _, _) => (LT, 1),
            (b'>', _, _) => (GT, 1),
            _ => unreachable!("`{}` is no operator byte", b as char),
        };
        self.pos += len;
        kind
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<(SyntaxKind, &str)> {
        let (tokens, _) = lex(text);
        let mut pos = 0;
        tokens
            .iter()
            .map(|t| {
                let s = &text[pos..pos + t.len as usize];
                pos += t.len as usize;
                (t.kind, s)
            })
            .filter(|(k, _)| *k != WHITESPACE)
            .collect()
    }

    #[test]
    fn numbers() {
        let got = kinds(
            "12 0x1F 0b101 017 018 1.5 .45 1e5 100e-6 0x1a2.4b5p5 1.0h 2.5s 3f 3b 0b 1d 1.5e",
        );
        let want = [
            (INT_NUMBER, "12"),
            (INT_NUMBER, "0x1F"),
            (INT_NUMBER, "0b101"),
            (INT_NUMBER, "017"),
            (BAD_NUMBER, "018"),
            (FLOAT_NUMBER, "1.5"),
            (FLOAT_NUMBER, ".45"),
            (FLOAT_NUMBER, "1e5"),
            (FLOAT_NUMBER, "100e-6"),
            (FLOAT_NUMBER, "0x1a2.4b5p5"),
            (FLOAT_NUMBER, "1.0h"),
            (FLOAT_NUMBER, "2.5s"),
            (LOCAL_LABEL_REF, "3f"),
            (LOCAL_LABEL_REF, "3b"),
            (LOCAL_LABEL_REF, "0b"),
            (BAD_NUMBER, "1d"),
            (FLOAT_NUMBER, "1.5e"),
        ];
        assert_eq!(got, want);
    }

    #[test]
    fn operators_and_names() {
        let got = kinds("a//b %% >>> <=@ <> ::x::y .text s[0:3] \\\n \\x");
        let want = [
            (NAME, "a"),
            (SLASH2, "//"),
            (NAME, "b"),
            (PERCENT2, "%%"),
            (ASHR, ">>>"),
            (LE_AT, "<=@"),
            (NEQ, "<>"),
            (NAME, "::x::y"),
            (NAME, ".text"),
            (NAME, "s"),
            (L_BRACK, "["),
            (INT_NUMBER, "0"),
            (COLON, ":"),
            (INT_NUMBER, "3"),
            (R_BRACK, "]"),
            (LINE_CONTINUATION, "\\\n"),
            (BACKSLASH, "\\"),
            (NAME, "x"),
        ];
        assert_eq!(got, want);
    }

    #[test]
    fn unknown_characters_are_error_tokens() {
        let (tokens, errors) = lex("a ` €/*");
        let kinds: Vec<_> = tokens.iter().map(|t| t.kind).collect();
        assert_eq!(
            kinds,
            [
                NAME,
                WHITESPACE,
                ERROR_TOKEN,
                WHITESPACE,
                ERROR_TOKEN,
                BLOCK_COMMENT
            ]
        );
        let at: Vec<_> = errors.iter().map(|e| e.token_index).collect();
        assert_eq!(at, [2, 4, 5]);
    }

    #[test]
    fn a_backslash_before_a_line_break_carries_comments_and_literals_over() {
        let got = kinds(
            "# a \\\nb \\\r\nc\nd \"x\\\ny\" '\\\na' /* e \\\n */ /* f\n */ # g \\\\\n# h\rz",
        );
        let want = [
            (COMMENT, "# a \\\nb \\\r\nc"),
            (NEWLINE, "\n"),
            (NAME, "d"),
            (STRING, "\"x\\\ny\""),
            (CHAR, "'\\\na'"),
            (BLOCK_COMMENT, "/* e \\\n */"),
            (MULTILINE_COMMENT, "/* f\n */"),
            (COMMENT, "# g \\\\\n# h"),
            (NAME, "z"),
        ];
        assert_eq!(got, want);
        // An even run of backslashes in a string escapes the last: the line break ends it.
        let (tokens, errors) = lex("\"a\\\\\nb");
        assert_eq!(
            tokens[0],
            Token {
                kind: STRING,
                len: 4
            }
        );
        assert_eq!(errors.len(), 1);
    }

    #[test]
    fn unterminated_literals_stop_at_line_end() {
        let (tokens, errors) = lex("\"abc\nx '");
        assert_eq!(
            tokens[0],
            Token {
                kind: STRING,
                len: 4
            }
        );
        assert_eq!(errors.len(), 2);
    }
}
