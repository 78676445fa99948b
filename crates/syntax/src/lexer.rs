//! The lexer: splits text into tokens that cover every byte.
//!
//! It never fails: an unknown character becomes an `ERROR_TOKEN` and an unterminated
//! string, character or block comment runs to the end of the line (or file) with an
//! error attached. The lexer knows nothing of statements, so it can relex any slice.

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
    // About one token per two bytes in dense code: growing the vector would copy it.
    let mut tokens = Vec::with_capacity(text.len() / 2 + 1);
    let mut errors = Vec::new();
    let mut cursor = Cursor { bytes: text.as_bytes(), pos: 0 };
    while !cursor.at_end() {
        let start = cursor.pos;
        let (kind, error) = cursor.next_token();
        if let Some(message) = error {
            errors.push(LexError { token_index: tokens.len(), message: message.to_string() });
        }
        tokens.push(Token { kind, len: (cursor.pos - start) as u32 });
    }
    (tokens, errors)
}

/// The single token `text` lexes to, if it is exactly one token without error.
pub fn lex_single(text: &str) -> Option<SyntaxKind> {
    let mut cursor = Cursor { bytes: text.as_bytes(), pos: 0 };
    if cursor.at_end() {
        return None;
    }
    let (kind, error) = cursor.next_token();
    (cursor.at_end() && error.is_none()).then_some(kind)
}

pub(crate) fn is_name_start(b: u8) -> bool {
    matches!(CLASSES[b as usize], Class::NameStart | Class::Dot)
}

pub(crate) fn is_name_continue(b: u8) -> bool {
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
    /// Any other ASCII byte: punctuation or an unknown character.
    Punct,
    /// A byte of a multi-byte character.
    NonAscii,
}

static CLASSES: [Class; 256] = {
    let mut table = [Class::Punct; 256];
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
            0x80..=0xff => Class::NonAscii,
            _ => Class::Punct,
        };
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

struct Cursor<'a> {
    bytes: &'a [u8],
    pos: usize,
}

type Lexed = (SyntaxKind, Option<&'static str>);

impl Cursor<'_> {
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
        while !self.at_end() && pred(self.bytes[self.pos]) {
            self.pos += 1;
        }
    }

    fn next_token(&mut self) -> Lexed {
        let b = self.peek(0);
        match CLASSES[b as usize] {
            Class::Space => {
                self.eat_while(is_space);
                (WHITESPACE, None)
            }
            Class::Cr if self.peek(1) == b'\n' => {
                self.pos += 2;
                (NEWLINE, None)
            }
            Class::Cr => {
                self.pos += 1;
                (WHITESPACE, None)
            }
            Class::Newline => {
                self.pos += 1;
                (NEWLINE, None)
            }
            Class::Hash => {
                self.eat_while(|b| b != b'\n' && b != b'\r');
                (COMMENT, None)
            }
            Class::Slash if self.peek(1) == b'*' => self.block_comment(),
            Class::Backslash => self.backslash(),
            Class::Quote => self.string(),
            Class::Apostrophe => self.char_literal(),
            Class::Digit => self.number(),
            Class::Dot if self.peek(1).is_ascii_digit() => self.number(),
            Class::Colon if self.peek(1) == b':' && is_name_start(self.peek(2)) => self.name(),
            Class::NameStart | Class::Dot => self.name(),
            Class::Slash | Class::Colon | Class::Punct => self.punct(b),
            Class::NonAscii => {
                self.bump_char();
                (ERROR_TOKEN, Some("unexpected character"))
            }
        }
    }

    fn block_comment(&mut self) -> Lexed {
        self.pos += 2;
        while !self.at_end() {
            if self.peek(0) == b'*' && self.peek(1) == b'/' {
                self.pos += 2;
                return (BLOCK_COMMENT, None);
            }
            self.pos += 1;
        }
        (BLOCK_COMMENT, Some("unterminated block comment"))
    }

    fn backslash(&mut self) -> Lexed {
        match (self.peek(1), self.peek(2)) {
            (b'\n', _) => self.pos += 2,
            (b'\r', b'\n') => self.pos += 3,
            _ => {
                self.pos += 1;
                return (BACKSLASH, None);
            }
        }
        (LINE_CONTINUATION, None)
    }

    /// A name: `[A-Za-z_.][A-Za-z0-9_.]*`, optionally in a scope path `a::b::c` or `::a`.
    fn name(&mut self) -> Lexed {
        loop {
            if self.peek(0) == b':' && self.peek(1) == b':' {
                self.pos += 2;
            }
            self.eat_while(is_name_continue);
            if !(self.peek(0) == b':' && self.peek(1) == b':' && is_name_start(self.peek(2))) {
                return (NAME, None);
            }
        }
    }

    fn string(&mut self) -> Lexed {
        self.pos += 1;
        while !self.at_end() {
            match self.peek(0) {
                b'"' => {
                    self.pos += 1;
                    return (STRING, None);
                }
                b'\\' if !matches!(self.peek(1), b'\n' | b'\r' | 0) => {
                    self.pos += 1;
                    self.bump_char();
                }
                b'\n' | b'\r' => break,
                _ => self.pos += 1,
            }
        }
        (STRING, Some("unterminated string"))
    }

    fn char_literal(&mut self) -> Lexed {
        self.pos += 1;
        match self.peek(0) {
            b'\\' => {
                self.pos += 1;
                match self.peek(0) {
                    b'x' | b'X' => {
                        self.pos += 1;
                        self.eat_while(|b| b.is_ascii_hexdigit());
                    }
                    b'0'..=b'7' => self.eat_while(|b| (b'0'..=b'7').contains(&b)),
                    b'\n' | b'\r' | 0 => return (CHAR, Some("unterminated character literal")),
                    _ => self.bump_char(),
                }
            }
            b'\n' | b'\r' | 0 => return (CHAR, Some("unterminated character literal")),
            _ => self.bump_char(),
        }
        if self.peek(0) == b'\'' {
            self.pos += 1;
            (CHAR, None)
        } else {
            (CHAR, Some("unterminated character literal"))
        }
    }

    /// Numbers: decimal, `0x` hex, `0b` binary, leading-`0` octal, floats with exponents,
    /// hex floats (`0x1.8p3`), float suffixes `s`/`h`/`l`, and local label refs `1f`/`1b`.
    fn number(&mut self) -> Lexed {
        let start = self.pos;
        if let Some(kind) = self.plain_decimal() {
            return (kind, None);
        }
        self.pos = start;
        let kind = self.number_body(start);
        if is_name_continue(self.peek(0)) {
            // Glued letters make the whole run one malformed number (`1d`, `0x1g`),
            // except after a dot, where it is a name (`.64bit`).
            self.eat_while(is_name_continue);
            let kind = if self.bytes[start] == b'.' { NAME } else { BAD_NUMBER };
            return (kind, None);
        }
        let text = &self.bytes[start..self.pos];
        let bad_octal = kind == INT_NUMBER
            && text.len() > 1
            && text[0] == b'0'
            && text[1].is_ascii_digit()
            && text.iter().any(|&b| b == b'8' || b == b'9');
        if bad_octal {
            return (BAD_NUMBER, None);
        }
        (kind, None)
    }

    /// The common case, digits alone (`0`, `16`, `017`), decided without the general
    /// rules: `None` if anything that could make it another number follows (a name byte
    /// such as `.`, `e`, `x`, `f`), leaving the cursor to be reset.
    fn plain_decimal(&mut self) -> Option<SyntaxKind> {
        let start = self.pos;
        self.eat_while(|b| b.is_ascii_digit());
        if self.pos == start || is_name_continue(self.peek(0)) {
            return None;
        }
        let digits = &self.bytes[start..self.pos];
        let bad_octal = digits.len() > 1 && digits[0] == b'0' && digits.iter().any(|&b| b == b'8' || b == b'9');
        Some(if bad_octal { BAD_NUMBER } else { INT_NUMBER })
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

    fn punct(&mut self, b: u8) -> Lexed {
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
            (b';', _, _) => (SEMICOLON, 1),
            (b',', _, _) => (COMMA, 1),
            (b':', _, _) => (COLON, 1),
            (b'(', _, _) => (L_PAREN, 1),
            (b')', _, _) => (R_PAREN, 1),
            (b'[', _, _) => (L_BRACK, 1),
            (b']', _, _) => (R_BRACK, 1),
            (b'=', _, _) => (EQ, 1),
            (b'+', _, _) => (PLUS, 1),
            (b'-', _, _) => (MINUS, 1),
            (b'*', _, _) => (STAR, 1),
            (b'/', _, _) => (SLASH, 1),
            (b'%', _, _) => (PERCENT, 1),
            (b'&', _, _) => (AMP, 1),
            (b'|', _, _) => (PIPE, 1),
            (b'^', _, _) => (CARET, 1),
            (b'!', _, _) => (BANG, 1),
            (b'~', _, _) => (TILDE, 1),
            (b'<', _, _) => (LT, 1),
            (b'>', _, _) => (GT, 1),
            (b'?', _, _) => (QUESTION, 1),
            (b'@', _, _) => (AT, 1),
            _ => {
                self.pos += 1;
                return (ERROR_TOKEN, Some("unexpected character"));
            }
        };
        self.pos += len;
        (kind, None)
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
        let got = kinds("12 0x1F 0b101 017 018 1.5 .45 1e5 100e-6 0x1a2.4b5p5 1.0h 2.5s 3f 3b 0b 1d 1.5e");
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
    fn unterminated_literals_stop_at_line_end() {
        let (tokens, errors) = lex("\"abc\nx '");
        assert_eq!(tokens[0], Token { kind: STRING, len: 4 });
        assert_eq!(errors.len(), 2);
    }
}
