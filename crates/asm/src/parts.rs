//! A long text read in parts of whole statements, split and parsed on a second thread.
//!
//! The assembler thread processes one part while the reader thread reads, splits
//! ([`gcn_syntax::Chunker`]) and parses ([`gcn_syntax::parse_chunk`]) the next ones:
//! the same statements and errors as one whole parse, in memory bounded by a few parts,
//! and on a machine with two cores the parsing overlaps the assembling. The work is
//! shared out as it goes: the reader always parses (the macros a part defines change
//! how the next one parses), but it leaves building a part's tree to the assembler when
//! the assembler is waiting for parts, and builds it itself when parts are queued. A text read
//! from a stream is never held whole: its reader records only where its lines start
//! ([`LineTable`]). When the assembler stops early (`.end`, a fatal error), the reader
//! stops at its next part.

use std::io::Read;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::thread;

use gcn_syntax::{ChunkEvents, Chunker, KnownMacros, Parse};

use crate::source::LineTable;

/// A part ends at the first chunk boundary after this many bytes.
pub(crate) const PART_SIZE: usize = 1 << 16;

/// Parts parsed ahead of the assembler, at most.
const QUEUE: usize = 4;

/// With fewer parts than this waiting, the assembler is keeping up: the reader leaves
/// the next part's tree for it to build.
const BUILD_WHEN_QUEUED: usize = 2;

/// Stack of the reader thread: parsing nests at most 256 levels deep.
const READER_STACK: usize = 16 << 20;

/// Where the lines come from.
pub(crate) enum Lines {
    Text(Arc<str>),
    /// UTF-8 text read as it is needed, never held whole.
    Stream(Box<dyn Read + Send>),
}

/// Whole statements of the text and their parse.
pub(crate) struct Part {
    /// Byte offset of the part in the whole text.
    pub start: u32,
    pub text: String,
    pub parse: Parse,
    /// The reader built the tree (and frees it, [`PartReader::done`]).
    built_by_reader: bool,
}

/// A part as the reader sends it.
struct Sent {
    start: u32,
    text: String,
    tree: Tree,
}

enum Tree {
    Built(Parse),
    /// Parsed, the tree left to build.
    Events(ChunkEvents),
}

/// How the reading ended.
#[derive(Default)]
pub(crate) struct End {
    /// The lines of a stream (nothing for a text).
    pub lines: LineTable,
    /// Why the reading stopped before the end: the byte offset and the message.
    pub error: Option<(u32, String)>,
}

/// The receiving end: parts in order, then how the reading ended.
pub(crate) struct PartReader {
    parts: mpsc::Receiver<Sent>,
    /// Parts sent and not received yet.
    queued: Arc<AtomicUsize>,
    /// Trees given back to be freed by the reader, off the assembler's path.
    used: mpsc::Sender<Parse>,
    reader: thread::JoinHandle<End>,
}

impl PartReader {
    pub(crate) fn start(lines: Lines) -> PartReader {
        let (sender, parts) = mpsc::sync_channel(QUEUE);
        let (used, to_free) = mpsc::channel();
        let queued = Arc::new(AtomicUsize::new(0));
        let outbox = Outbox { sender, to_free, queued: queued.clone() };
        let reader = thread::Builder::new()
            .name("gcn-asm-reader".into())
            .stack_size(READER_STACK)
            .spawn(move || read_parts(lines, outbox))
            .expect("start the reader thread");
        PartReader { parts, queued, used, reader }
    }

    /// The next part, its tree built; `None` at the end of the text.
    pub(crate) fn next(&mut self) -> Option<Part> {
        let Sent { start, text, tree } = self.parts.recv().ok()?;
        self.queued.fetch_sub(1, Ordering::Relaxed);
        let (parse, built_by_reader) = match tree {
            Tree::Built(parse) => (parse, true),
            // Built, read and freed here: it may share elements with the trees built
            // here before (the reader's trees share none, as they are read here).
            Tree::Events(events) => (events.build_for_this_thread(&text), false),
        };
        Some(Part { start, text, parse, built_by_reader })
    }

    /// Done with a part's tree: the thread that built it frees it.
    pub(crate) fn done(&self, part: Part) {
        if part.built_by_reader {
            // If the reader has ended, the tree is freed here.
            let _ = self.used.send(part.parse);
        }
    }

    /// Stops reading (if it has not ended) and tells how it ended.
    pub(crate) fn finish(self) -> End {
        drop(self.parts);
        drop(self.used);
        self.reader.join().unwrap_or_else(|e| std::panic::resume_unwind(e))
    }
}

/// The reader's ends of the two channels.
struct Outbox {
    sender: mpsc::SyncSender<Sent>,
    to_free: mpsc::Receiver<Parse>,
    queued: Arc<AtomicUsize>,
}

impl Outbox {
    /// Whether the reader should build the next part's tree: the assembler is behind.
    fn builds_trees(&self) -> bool {
        self.queued.load(Ordering::Relaxed) >= BUILD_WHEN_QUEUED
    }

    /// Sends a part, first freeing the trees given back; false if nobody wants it.
    fn send(&self, part: Sent) -> bool {
        while let Ok(parse) = self.to_free.try_recv() {
            drop(parse);
        }
        self.queued.fetch_add(1, Ordering::Relaxed);
        self.sender.send(part).is_ok()
    }
}

fn read_parts(lines: Lines, outbox: Outbox) -> End {
    let mut splitter = Splitter::new(outbox);
    match lines {
        Lines::Text(text) => {
            for part in gcn_syntax::parts(&text, PART_SIZE) {
                if !splitter.send(part.to_string()) {
                    break;
                }
            }
            End::default()
        }
        Lines::Stream(stream) => {
            let end = read_stream(stream, &mut splitter);
            splitter.finish();
            end
        }
    }
}

/// Bytes read from a stream at a time.
const BLOCK: usize = 1 << 16;

/// Reads a stream in blocks, handing its whole lines to the splitter and recording them.
fn read_stream(mut stream: Box<dyn Read + Send>, splitter: &mut Splitter) -> End {
    let mut end = End::default();
    let mut buffer: Vec<u8> = Vec::with_capacity(2 * BLOCK);
    // Offset in the stream of `buffer[0]`, the start of a line.
    let mut base: u64 = 0;
    loop {
        let filled = buffer.len();
        buffer.resize(filled + BLOCK, 0);
        let read = match read_some(&mut stream, &mut buffer[filled..]) {
            Ok(read) => read,
            Err(e) => {
                end.error = Some((offset(base + filled as u64), format!("cannot read the input: {e}")));
                return end;
            }
        };
        buffer.truncate(filled + read);
        let at_end = read == 0;
        // Whole lines: up to the last line break, or all that is left at the end.
        let whole = match buffer[filled..].iter().rposition(|&b| b == b'\n') {
            _ if at_end => buffer.len(),
            Some(i) => filled + i + 1,
            None => continue,
        };
        if base + whole as u64 > u64::from(u32::MAX) {
            end.error = Some((offset(base), "an input larger than 4 GiB is not supported".into()));
            return end;
        }
        if !take_lines(&buffer[..whole], base, &mut end, splitter) || at_end {
            return end;
        }
        buffer.drain(..whole);
        base += whole as u64;
    }
}

fn read_some(stream: &mut dyn Read, buffer: &mut [u8]) -> std::io::Result<usize> {
    loop {
        match stream.read(buffer) {
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            result => return result,
        }
    }
}

/// Takes the whole lines in `bytes`, which start at `base` in the stream; false to stop
/// reading (invalid UTF-8, or nobody wants more parts).
fn take_lines(bytes: &[u8], base: u64, end: &mut End, splitter: &mut Splitter) -> bool {
    let (text, invalid_at) = match std::str::from_utf8(bytes) {
        Ok(text) => (text, None),
        Err(e) => {
            let valid = e.valid_up_to();
            (std::str::from_utf8(&bytes[..valid]).unwrap_or_default(), Some(base + valid as u64))
        }
    };
    let ascii = text.is_ascii();
    let mut pos = 0;
    while pos < text.len() {
        let rest = &text[pos..];
        if invalid_at.is_some() && !rest.contains('\n') {
            // The valid start of the line with the invalid byte: recorded, not assembled.
            end.lines.push(offset(base + pos as u64), rest, ascii);
            break;
        }
        let (line, ends_chunk) = splitter.chunker.follow_line(rest);
        end.lines.push(offset(base + pos as u64), line, ascii);
        pos += line.len();
        if !splitter.line(line, ends_chunk) {
            return false;
        }
    }
    match invalid_at {
        Some(at) => {
            end.error = Some((offset(at), format!("invalid UTF-8 at byte offset {at}")));
            false
        }
        None => true,
    }
}

fn offset(pos: u64) -> u32 {
    u32::try_from(pos).unwrap_or(u32::MAX)
}

/// Gathers lines into parts of whole statements and sends them parsed.
struct Splitter {
    chunker: Chunker,
    macros: KnownMacros,
    part: String,
    /// Bytes sent in parts so far: where the next part starts.
    sent: usize,
    outbox: Outbox,
}

impl Splitter {
    fn new(outbox: Outbox) -> Splitter {
        Splitter {
            chunker: Chunker::new(),
            macros: KnownMacros::default(),
            part: String::new(),
            sent: 0,
            outbox,
        }
    }

    /// Takes the next line, which `self.chunker` has followed; false when nobody wants
    /// more parts.
    fn line(&mut self, line: &str, ends_chunk: bool) -> bool {
        self.part.push_str(line);
        if ends_chunk && self.part.len() >= PART_SIZE {
            let part = std::mem::replace(&mut self.part, String::with_capacity(PART_SIZE + PART_SIZE / 4));
            return self.send(part);
        }
        true
    }

    /// Sends what is left (an unfinished block or statement included).
    fn finish(mut self) {
        if !self.part.is_empty() {
            let part = std::mem::take(&mut self.part);
            self.send(part);
        }
    }

    /// Parses and sends the part that follows the last one sent.
    fn send(&mut self, text: String) -> bool {
        let events = gcn_syntax::parse_chunk_events(&text, &mut self.macros);
        let tree = if self.outbox.builds_trees() { Tree::Built(events.build(&text)) } else { Tree::Events(events) };
        let start = self.sent as u32;
        self.sent += text.len();
        self.outbox.send(Sent { start, text, tree })
    }
}
