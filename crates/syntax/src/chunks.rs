//! Splitting a long source into chunks of whole top-level statements, so that it can be
//! read, parsed and assembled piece by piece in bounded memory.
//!
//! A chunk ends at a line break where no block (`.if … .endif`, `.macro … .endm`,
//! `.rept … .endr`), block comment or `\` continuation is open. The [`Chunker`] follows
//! the parser's block rules line by line (without parsing; lines joined by a `\` before
//! their line break are lexed together, as a `#` comment, a string or a character may go
//! on over the next line), and [`parse_chunk`] parses a chunk knowing the macros defined
//! by the chunks before it. **Parsing a file chunk by
//! chunk gives the same statements and errors as parsing it whole** (tested on the
//! corpus in `tests/chunks.rs`).

use std::collections::HashSet;

use crate::lexer::{self, Token};
use crate::parser::{self, is_block_directive, Entry, ParseContext};
use crate::{tree_builder, Parse, SyntaxKind::*};

/// The open blocks' kinds, innermost last.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Block {
    If,
    Macro,
    Repeat,
}

/// Deepest `.if` nesting the parser treats as blocks (see `parser::MAX_DEPTH`).
const MAX_IF_DEPTH: usize = 256;

/// Collects lines into chunks of whole statements.
#[derive(Debug)]
pub struct Chunker {
    chunk: String,
    blocks: Vec<Block>,
    if_depth: usize,
    /// Inside a `/* … */` that began on an earlier line.
    in_comment: bool,
    /// Lines followed so far that end with a `\` before their line break: lexed with the
    /// line that ends them, since a token may go on over the break.
    joined: String,
    /// No statement is under way (its words would be in `words`).
    at_start: bool,
    /// The first words of the statement under way.
    words: Vec<Word>,
}

/// Words kept of a statement: enough to see past its labels to its head.
const MAX_HEAD_WORDS: usize = 64;

impl Default for Chunker {
    fn default() -> Chunker {
        Chunker {
            chunk: String::new(),
            blocks: Vec::new(),
            if_depth: 0,
            in_comment: false,
            joined: String::new(),
            at_start: true,
            words: Vec::new(),
        }
    }
}

impl Chunker {
    pub fn new() -> Chunker {
        Chunker::default()
    }

    /// Adds one line, with its line break if it has one; returns a finished chunk when
    /// the line completes one.
    pub fn push_line(&mut self, line: &str) -> Option<String> {
        let complete = self.ends_chunk(line);
        self.chunk.push_str(line);
        complete.then(|| std::mem::take(&mut self.chunk))
    }

    /// Follows one more line, with its line break if it has one, without keeping its
    /// text: true when the lines followed so far end a chunk. For a caller that slices
    /// the chunks out of its own text (see [`parts`]); don't mix with `push_line`.
    pub fn ends_chunk(&mut self, line: &str) -> bool {
        // Most lines of a long source are plain statements, which change nothing here:
        // recognizing them from their bytes spares lexing them twice.
        if !(self.follows_plain_statements() && is_plain_statement(line.as_bytes())) {
            self.scan(line);
        }
        self.at_chunk_end(line)
    }

    /// Follows the first line of `text` (up to and with its line break, or all of `text`
    /// if it has none): returns that line and whether the lines followed so far end a
    /// chunk. For a caller that cuts lines out of a larger text: a plain statement is
    /// found and measured in one pass over its bytes.
    pub fn follow_line<'t>(&mut self, text: &'t str) -> (&'t str, bool) {
        let plain = self
            .follows_plain_statements()
            .then(|| plain_statement_len(text.as_bytes()));
        let line = match plain.flatten() {
            Some(len) => &text[..len],
            None => {
                let line = text.split_inclusive('\n').next().unwrap_or(text);
                self.scan(line);
                line
            }
        };
        (line, self.at_chunk_end(line))
    }

    /// Whether a chunk ends with `line`, the line just followed.
    fn at_chunk_end(&self, line: &str) -> bool {
        line.ends_with('\n')
            && self.at_start
            && !self.in_comment
            && self.joined.is_empty()
            && self.blocks.is_empty()
    }

    /// In a state where a plain statement (see [`is_plain_statement`]) leaves everything
    /// as it is: between statements, outside block comments and raw block bodies (whose
    /// heads follow other rules).
    fn follows_plain_statements(&self) -> bool {
        self.at_start
            && !self.in_comment
            && self.joined.is_empty()
            && !matches!(self.blocks.last(), Some(Block::Macro | Block::Repeat))
    }

    /// What is left at the end of the input (an unfinished block or statement).
    pub fn finish(&mut self) -> Option<String> {
        *self = Chunker {
            chunk: std::mem::take(&mut self.chunk),
            ..Chunker::default()
        };
        (!self.chunk.is_empty()).then(|| std::mem::take(&mut self.chunk))
    }

    /// Updates the block stack with the statements that start on `line`, or keeps it for
    /// the next line when a `\` joins the two.
    fn scan(&mut self, line: &str) {
        if ends_joined(line) {
            self.joined.push_str(line);
        } else if self.joined.is_empty() {
            self.scan_lines(line);
        } else {
            let mut lines = std::mem::take(&mut self.joined);
            lines.push_str(line);
            self.scan_lines(&lines);
            lines.clear();
            self.joined = lines;
        }
    }

    /// Updates the block stack with the statements that start on `line`, lines joined by
    /// `\` (which starts where a token starts and ends where no `\` joins it to the next).
    fn scan_lines(&mut self, line: &str) {
        let mut text = line;
        if self.in_comment {
            match line.find("*/") {
                Some(end) => {
                    self.in_comment = false;
                    text = &line[end + 2..];
                }
                None => return,
            }
        }
        let (tokens, errors) = lexer::lex(text);
        let open_comment = tokens
            .last()
            .is_some_and(|t| matches!(t.kind, BLOCK_COMMENT | MULTILINE_COMMENT))
            && errors.iter().any(|e| e.token_index == tokens.len() - 1);
        self.in_comment = open_comment;
        // A statement's words are gathered up to its separator, across `\` continuations
        // (labels and the head may sit on different physical lines); a line break inside
        // a block comment ends the statement.
        for word in significant(text, &tokens) {
            if word.kind.is_statement_end() {
                let words = std::mem::take(&mut self.words);
                if !words.is_empty() {
                    self.statement(&words);
                }
                self.words = words;
                self.words.clear();
            } else if self.words.len() < MAX_HEAD_WORDS {
                self.words.push(word.to_owned());
            }
        }
        self.at_start = self.words.is_empty();
    }

    fn statement(&mut self, words: &[Word]) {
        let raw = matches!(self.blocks.last(), Some(Block::Macro | Block::Repeat));
        let head = if raw {
            body_head(words)
        } else {
            statement_head(words)
        };
        let Some(head) = head else { return };
        let head = head.to_ascii_lowercase();
        if !is_block_directive(&head) {
            return;
        }
        match self.blocks.last() {
            Some(Block::Macro) => match head.as_str() {
                ".macro" => self.blocks.push(Block::Macro),
                ".endm" | ".endmacro" => {
                    self.blocks.pop();
                }
                _ => {}
            },
            Some(Block::Repeat) => match head.as_str() {
                ".rept" | ".irp" | ".irpc" | ".for" | ".while" => self.blocks.push(Block::Repeat),
                ".endr" | ".endrept" => {
                    self.blocks.pop();
                }
                _ => {}
            },
            _ => match head.as_str() {
                ".macro" => self.blocks.push(Block::Macro),
                ".rept" | ".irp" | ".irpc" | ".for" | ".while" => self.blocks.push(Block::Repeat),
                ".endif" if self.blocks.last() == Some(&Block::If) => {
                    self.blocks.pop();
                    self.if_depth -= 1;
                }
                h if h.starts_with(".if") && self.if_depth < MAX_IF_DEPTH => {
                    self.blocks.push(Block::If);
                    self.if_depth += 1;
                }
                _ => {}
            },
        }
    }
}

/// Whether a `\` joins `line` to the next one: it ends with `\` and its line break.
fn ends_joined(line: &str) -> bool {
    line.ends_with("\\\n") || line.ends_with("\\\r\n")
}

/// Whether `line` is one whole statement, or none, that is no block directive (see
/// [`plain_statement_len`]).
fn is_plain_statement(line: &[u8]) -> bool {
    plain_statement_len(line) == Some(line.len())
}

/// The length of the first line of `text`, with its line break, if that line is one
/// whole statement, or none, that is no block directive, told from its bytes: it ends
/// with its line break; it holds nothing that could hide or add a separator or
/// continue it (strings, characters, `/* */`, `;`, `\`, a `\r` not before the line
/// break); its first word, if any, is a name not starting with `.` and not followed by
/// `:` (neither a directive nor a label, after which a directive could come), or a `#`
/// comment. `None` is always safe: such a line is lexed.
fn plain_statement_len(text: &[u8]) -> Option<usize> {
    let mut i = text.iter().position(|&b| b != b' ' && b != b'\t')?;
    match LINE_BYTES[text[i] as usize] {
        LineByte::Other if text[i] != b'.' && lexer::is_name_start(text[i]) => {
            i = lexer::skip_name(text, i);
            if *text.get(i)? == b':' {
                return None;
            }
        }
        LineByte::Other if text[i] == b'#' => {}
        LineByte::Other => return None,
        _ => {}
    }
    i = skip_other_bytes(text, i);
    match LINE_BYTES[*text.get(i)? as usize] {
        LineByte::Other => unreachable!("skipped"),
        LineByte::Newline => Some(i + 1),
        LineByte::Cr => (text.get(i + 1) == Some(&b'\n')).then_some(i + 2),
        LineByte::Special => None,
    }
}

/// Where the first byte from `i` on that is not `LineByte::Other` stands (or the end).
/// Most bytes of a line are, so they are looked at eight a step.
fn skip_other_bytes(text: &[u8], mut i: usize) -> usize {
    while let Some(eight) = text.get(i..).and_then(|rest| rest.first_chunk::<8>()) {
        // `Other` is zero: one test tells whether any of the eight is something else.
        if eight
            .iter()
            .fold(0, |any, &b| any | LINE_BYTES[b as usize] as u8)
            != 0
        {
            break;
        }
        i += 8;
    }
    match text[i..]
        .iter()
        .position(|&b| LINE_BYTES[b as usize] != LineByte::Other)
    {
        Some(n) => i + n,
        None => text.len(),
    }
}

/// What a byte means to [`plain_statement_len`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
enum LineByte {
    Other = 0,
    Newline,
    /// Only allowed right before the line break: a lone `\r` ends a `#` comment, which
    /// might hide the head of its statement.
    Cr,
    /// Starts or ends a string, character, block comment, statement or line.
    Special,
}

static LINE_BYTES: [LineByte; 256] = {
    let mut table = [LineByte::Other; 256];
    table[b'\n' as usize] = LineByte::Newline;
    table[b'\r' as usize] = LineByte::Cr;
    let special = b";\\/\"'";
    let mut i = 0;
    while i < special.len() {
        table[special[i] as usize] = LineByte::Special;
        i += 1;
    }
    table
};

/// Splits `text` into parts made of whole chunks (see [`Chunker`]), each at least
/// `min_len` bytes long except the last; the parts are slices of `text`, so nothing is
/// copied. Parsing the parts in order with [`parse_chunk`] gives the statements and
/// errors of a whole parse.
pub fn parts(text: &str, min_len: usize) -> Parts<'_> {
    Parts {
        text,
        pos: 0,
        min_len,
        chunker: Chunker::new(),
    }
}

/// The iterator of [`parts`].
#[derive(Debug)]
pub struct Parts<'a> {
    text: &'a str,
    pos: usize,
    min_len: usize,
    chunker: Chunker,
}

impl<'a> Iterator for Parts<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        let start = self.pos;
        if start == self.text.len() {
            return None;
        }
        while self.pos < self.text.len() {
            let (line, ends_chunk) = self.chunker.follow_line(&self.text[self.pos..]);
            self.pos += line.len();
            if ends_chunk && self.pos - start >= self.min_len {
                return Some(&self.text[start..self.pos]);
            }
        }
        // The last part, with what is left unfinished at the end of the text.
        Some(&self.text[start..])
    }
}

#[derive(Debug, Clone, Copy)]
struct WordRef<'a> {
    kind: crate::SyntaxKind,
    text: &'a str,
    spaced: bool,
}

impl WordRef<'_> {
    fn to_owned(self) -> Word {
        Word {
            kind: self.kind,
            text: self.text.to_string(),
            spaced: self.spaced,
        }
    }
}

#[derive(Debug, Clone)]
struct Word {
    kind: crate::SyntaxKind,
    text: String,
    spaced: bool,
}

fn significant<'a>(text: &'a str, tokens: &[Token]) -> Vec<WordRef<'a>> {
    let mut out = Vec::new();
    let mut pos = 0usize;
    let mut spaced = false;
    for t in tokens {
        let end = pos + t.len as usize;
        if t.kind.is_trivia() {
            spaced = true;
        } else {
            out.push(WordRef {
                kind: t.kind,
                text: &text[pos..end],
                spaced,
            });
            spaced = false;
        }
        pos = end;
    }
    out
}

/// The directive a statement starts with, after its labels, as the parser sees it.
fn statement_head(words: &[Word]) -> Option<&str> {
    let mut i = 0;
    loop {
        let w = words.get(i)?;
        let next = words.get(i + 1);
        let glued_colon = next.is_some_and(|n| n.kind == COLON && !n.spaced);
        let dot_number = w.kind == FLOAT_NUMBER && w.text.starts_with('.');
        if glued_colon && (matches!(w.kind, NAME | INT_NUMBER) || dot_number) {
            i += 2;
            continue;
        }
        let is_directive = w.kind == NAME
            && w.text.starts_with('.')
            && w.text.len() > 1
            && next.is_none_or(|n| n.kind != EQ);
        return is_directive.then_some(w.text.as_str());
    }
}

/// The first word of a body line after its labels, labels built by substitution
/// included, as the parser's block bodies see it.
fn body_head(words: &[Word]) -> Option<&str> {
    let mut n = 0;
    loop {
        let mut end = n;
        while words.get(end).is_some_and(|w| {
            matches!(
                w.kind,
                NAME | INT_NUMBER | BACKSLASH | L_PAREN | R_PAREN | AT
            ) && (end == n || !w.spaced)
        }) {
            end += 1;
        }
        let colon = words.get(end).is_some_and(|w| w.kind == COLON && !w.spaced);
        if end > n && colon {
            n = end + 1;
        } else {
            return words.get(n).map(|w| w.text.as_str());
        }
    }
}

/// Names of the macros defined so far, for parsing later chunks.
#[derive(Debug, Default, Clone)]
pub struct KnownMacros {
    names: HashSet<String>,
}

/// Parses one chunk, knowing the macros the chunks before it defined (a call of one is
/// a `MACRO_CALL`), and records the macros it defines or purges.
pub fn parse_chunk(text: &str, macros: &mut KnownMacros) -> Parse {
    parse_chunk_events(text, macros).build(text)
}

/// [`parse_chunk`] up to the parser's events: what depends on the chunks before (the
/// macros) is settled, and the tree can be built later, on another thread.
pub fn parse_chunk_events(text: &str, macros: &mut KnownMacros) -> ChunkEvents {
    let (tokens, lex_errors) = lexer::lex(text);
    let ctx = ParseContext {
        macros: std::mem::take(&mut macros.names),
    };
    let output = parser::parse_tokens(text, &tokens, Entry::SourceFile, ctx);
    macros.names = output.ctx.macros;
    let errors = crate::syntax_errors(&tokens, lex_errors, output.errors, &output.quiet);
    ChunkEvents {
        len: text.len(),
        tokens,
        events: output.events,
        errors,
    }
}

/// A chunk's tokens and the parser's events: its [`Parse`] but for building the tree.
pub struct ChunkEvents {
    /// The chunk's length, to check `build` is given the same text.
    len: usize,
    tokens: Vec<Token>,
    events: Vec<parser::Event>,
    errors: Vec<crate::SyntaxError>,
}

impl ChunkEvents {
    /// The tree of the chunk: `text` must be the chunk these events were parsed from.
    pub fn build(self, text: &str) -> Parse {
        assert_eq!(
            text.len(),
            self.len,
            "ChunkEvents::build takes the text the events were parsed from"
        );
        let green = tree_builder::build_tree(text, &self.tokens, self.events);
        Parse {
            green,
            errors: self.errors,
        }
    }

    /// As [`build`](Self::build), but the tree shares the elements it repeats with the
    /// trees built so before it on this thread, which spares making them again (the
    /// thread keeps a few thousand of them until it ends). For a tree read and dropped on
    /// this thread: read on another thread, it would be correct but slow, as its
    /// reference counts would be written here, by the next builds, while read there.
    pub fn build_for_this_thread(self, text: &str) -> Parse {
        assert_eq!(
            text.len(),
            self.len,
            "ChunkEvents::build takes the text the events were parsed from"
        );
        let sharing = crate::green_cache::Sharing::AcrossThreadBuilds;
        let green = tree_builder::build_tree_sharing(text, &self.tokens, self.events, sharing);
        Parse {
            green,
            errors: self.errors,
        }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// Whether each line ends a chunk, every line lexed (no plain-statement shortcut).
    fn chunk_ends_lexing_all(lines: &[&str]) -> Vec<bool> {
        let mut chunker = Chunker::new();
        lines
            .iter()
            .map(|line| {
                chunker.scan(line);
                chunker.at_chunk_end(line)
            })
            .collect()
    }

    /// Where `parts(text, 0)` ends each part.
    fn part_ends(text: &str) -> Vec<usize> {
        parts(text, 0)
            .map(|part| part.as_ptr() as usize - text.as_ptr() as usize + part.len())
            .collect()
    }

    fn part_ends_lexing_all(text: &str) -> Vec<usize> {
        let lines: Vec<&str> = text.split_inclusive('\n').collect();
        let mut ends = Vec::new();
        let mut pos = 0;
        for (line, ends_chunk) in lines.iter().zip(chunk_ends_lexing_all(&lines)) {
            pos += line.len();
            if ends_chunk {
                ends.push(pos);
            }
        }
        if ends.last() != Some(&text.len()) && !text.is_empty() {
            ends.push(text.len());
        }
        ends
    }

    fn chunk_ends(lines: &[&str]) -> Vec<bool> {
        let mut chunker = Chunker::new();
        lines.iter().map(|line| chunker.ends_chunk(line)).collect()
    }

    #[test]
    fn plain_statements() {
        for plain in [
            "\n",
            "  \t\n",
            "s_nop 0\n",
            " v_add_f32 v0, 1.5, v1 # sum\n",
            "x = 1\n",
            "# c\n",
            "_a.b$ : 1\n",
        ] {
            assert!(is_plain_statement(plain.as_bytes()), "{plain:?}");
        }
        let not_plain = [
            "s_nop 0",
            ".if 1\n",
            "l: .if 1\n",
            "1: s_nop 0\n",
            "a::b: .endm\n",
            "s_nop 0; .if 1\n",
            "s_nop 0 \\\n",
            "s_nop /* x\n",
            ".int \"a;b\"\n",
            "x = ';'\n",
            "a\nb\n",
            "\x0b.if 1\n",
        ];
        for line in not_plain {
            assert!(!is_plain_statement(line.as_bytes()), "{line:?}");
        }
    }

    const PIECES: &[&str] = &[
        "\n",
        ";",
        " ",
        "\t",
        "\\\n",
        "/*",
        "*/",
        "#",
        "\"",
        "'",
        ".if 1",
        ".else",
        ".endif",
        ".macro m a",
        ".endm",
        ".rept 2",
        ".irp x, 1",
        ".endr",
        "l:",
        "a::b",
        "\\x\\()l:",
        "s_nop 0",
        "x = 2",
        ".5: ",
        "1: ",
        "\r\n",
        "\r",
        "\x0b",
        "€",
        "$x:",
        "\\\r\n",
        "# c \\\n",
        "/* c\n",
        "\\",
        "'",
    ];

    proptest! {
        #![proptest_config(ProptestConfig { cases: 2048, ..ProptestConfig::default() })]
        #[test]
        fn plain_statements_end_chunks_as_lexed_ones(parts in prop::collection::vec(0usize..100, 0..40)) {
            let text: String = parts.iter().map(|&i| PIECES[i % PIECES.len()]).collect();
            let lines: Vec<&str> = text.split_inclusive('\n').collect();
            prop_assert_eq!(chunk_ends(&lines), chunk_ends_lexing_all(&lines));
            prop_assert_eq!(part_ends(&text), part_ends_lexing_all(&text));
        }
    }
}
