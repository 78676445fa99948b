//! A long text read in parts of whole statements, split and parsed on a second thread.
//!
//! The assembler thread processes one part while the reader thread reads, splits
//! ([`gcn_syntax::Chunker`]) and parses ([`gcn_syntax::parse_chunk`]) the next ones:
//! the same statements and errors as one whole parse, in memory bounded by a few parts,
//! and on a machine with two cores the parsing overlaps the assembling. The work is
//! shared out as it goes: the reader always parses (the macros a part defines change
//! how the next one parses) and queues the parts unbuilt; the assembler builds the tree
//! of each part it takes, unless the reader, finding the queue full, has built it first
//! (it builds the queued parts from the back, the ones the assembler takes last). So
//! neither thread waits while the other has work to give. A text read
//! from a stream is never held whole: its reader records only where its lines start
//! ([`LineTable`]). When the assembler stops early (`.end`, a fatal error), the reader
//! stops at its next part.

use std::collections::VecDeque;
use std::io::Read;
use std::sync::{mpsc, Arc, Condvar, Mutex, MutexGuard};
use std::thread;

use gcn_syntax::{ChunkEvents, Chunker, KnownMacros, Parse};

use crate::source::LineTable;

/// A part ends at the first chunk boundary after this many bytes.
pub(crate) const PART_SIZE: usize = 1 << 16;

/// Parts parsed ahead of the assembler, at most.
const QUEUE: usize = 4;

/// Stack of the reader thread: parsing nests at most 256 levels deep.
const READER_STACK: usize = 16 << 20;

/// Where the lines come from.
pub(crate) enum Lines {
    Text(Arc<str>),
    /// A source's bytes, read as they are needed (never held whole) and decoded as [`crate::encoding`] says.
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
    /// Being built by the reader.
    Building,
}

/// The parts between the two threads, and how each side stands.
struct Queue {
    parts: VecDeque<Sent>,
    /// The reader has sent its last part (or has stopped).
    reader_done: bool,
    /// The assembler wants no more parts.
    assembler_done: bool,
}

/// The queue, and the signal that it changed.
struct Shared {
    queue: Mutex<Queue>,
    changed: Condvar,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Queue> {
        // A panic on the other side is re-raised by `PartReader::finish`; the queue
        // itself is never left half-changed.
        self.queue.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn wait<'a>(&self, queue: MutexGuard<'a, Queue>) -> MutexGuard<'a, Queue> {
        self.changed.wait(queue).unwrap_or_else(|e| e.into_inner())
    }
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
    shared: Arc<Shared>,
    /// Trees given back to be freed by the reader, off the assembler's path.
    used: mpsc::Sender<Parse>,
    reader: thread::JoinHandle<End>,
}

impl PartReader {
    pub(crate) fn start(lines: Lines) -> PartReader {
        let queue = Queue {
            parts: VecDeque::with_capacity(QUEUE),
            reader_done: false,
            assembler_done: false,
        };
        let shared = Arc::new(Shared {
            queue: Mutex::new(queue),
            changed: Condvar::new(),
        });
        let (used, to_free) = mpsc::channel();
        let outbox = Outbox {
            shared: shared.clone(),
            to_free,
        };
        let reader = thread::Builder::new()
            .name("gcn-asm-reader".into())
            .stack_size(READER_STACK)
            .spawn(move || read_parts(lines, outbox))
            .expect("start the reader thread");
        PartReader {
            shared,
            used,
            reader,
        }
    }

    /// The next part, its tree built; `None` at the end of the text.
    pub(crate) fn next(&mut self) -> Option<Part> {
        let Sent { start, text, tree } = self.take()?;
        let (parse, built_by_reader) = match tree {
            Tree::Built(parse) => (parse, true),
            // Built, read and freed here: it may share elements with the trees built
            // here before (the reader's trees share none, as they are read here).
            Tree::Events(events) => (events.build_for_this_thread(&text), false),
            Tree::Building => unreachable!("a part being built is not taken"),
        };
        Some(Part {
            start,
            text,
            parse,
            built_by_reader,
        })
    }

    /// The first part in the queue once it is not being built; `None` at the end.
    fn take(&self) -> Option<Sent> {
        let mut queue = self.shared.lock();
        loop {
            match queue.parts.front() {
                Some(part) if !matches!(part.tree, Tree::Building) => {
                    let part = queue.parts.pop_front();
                    drop(queue);
                    self.shared.changed.notify_all();
                    return part;
                }
                None if queue.reader_done => return None,
                _ => queue = self.shared.wait(queue),
            }
        }
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
        self.shared.lock().assembler_done = true;
        self.shared.changed.notify_all();
        drop(self.used);
        self.reader
            .join()
            .unwrap_or_else(|e| std::panic::resume_unwind(e))
    }
}

/// The reader's side: the queue, and the trees given back to be freed.
struct Outbox {
    shared: Arc<Shared>,
    to_free: mpsc::Receiver<Parse>,
}

impl Outbox {
    /// Queues a part, freeing the trees given back; while the queue is full, builds the
    /// queued parts' trees from the back. False if the assembler wants no more parts.
    fn send(&self, part: Sent) -> bool {
        while let Ok(parse) = self.to_free.try_recv() {
            drop(parse);
        }
        let mut queue = self.shared.lock();
        loop {
            if queue.assembler_done {
                return false;
            }
            if queue.parts.len() < QUEUE {
                queue.parts.push_back(part);
                drop(queue);
                self.shared.changed.notify_all();
                return true;
            }
            queue = match last_unbuilt(&queue) {
                Some(index) => self.build(queue, index),
                None => self.shared.wait(queue),
            };
        }
    }

    /// Builds the tree of the queued part at `index`, with the queue unlocked meanwhile.
    fn build<'a>(
        &'a self,
        mut queue: MutexGuard<'a, Queue>,
        index: usize,
    ) -> MutexGuard<'a, Queue> {
        let Tree::Events(events) = std::mem::replace(&mut queue.parts[index].tree, Tree::Building)
        else {
            unreachable!("only unbuilt parts are built");
        };
        // The assembler does not take a part being built (it waits for it), so the
        // text can leave its place meanwhile; the parts before it may be taken, so the
        // part is found again by its start.
        let (start, text) = (
            queue.parts[index].start,
            std::mem::take(&mut queue.parts[index].text),
        );
        drop(queue);
        let parse = events.build(&text);
        let mut queue = self.shared.lock();
        let part = queue
            .parts
            .iter_mut()
            .find(|p| p.start == start)
            .expect("a part being built stays queued");
        part.text = text;
        part.tree = Tree::Built(parse);
        drop(queue);
        self.shared.changed.notify_all();
        self.shared.lock()
    }
}

/// The last queued part (the one the assembler takes last) whose tree is left to build,
/// the first part excepted: the assembler is about to take it.
fn last_unbuilt(queue: &Queue) -> Option<usize> {
    (1..queue.parts.len())
        .rev()
        .find(|&i| matches!(queue.parts[i].tree, Tree::Events(_)))
}

/// Tells the assembler, however the reader ends (a panic included), that no more
/// parts come, so that it does not wait for ever.
struct ReaderDone(Arc<Shared>);

impl Drop for ReaderDone {
    fn drop(&mut self) {
        self.0.lock().reader_done = true;
        self.0.changed.notify_all();
    }
}

fn read_parts(lines: Lines, outbox: Outbox) -> End {
    let _done = ReaderDone(outbox.shared.clone());
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
    // Offset in the text of `buffer[0]`, the start of a line.
    let mut base: u64 = 0;
    let mut first = true;
    loop {
        let filled = buffer.len();
        buffer.resize(filled + BLOCK, 0);
        let read = match read_some(&mut stream, &mut buffer[filled..]) {
            Ok(read) => read,
            Err(e) => {
                end.error = Some((
                    offset(base + filled as u64),
                    format!("cannot read the input: {e}"),
                ));
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
            end.error = Some((
                offset(base),
                "an input larger than 4 GiB is not supported".into(),
            ));
            return end;
        }
        // A byte-order mark is not part of the text (as in editors).
        let skipped = if first {
            crate::encoding::byte_order_mark_len(&buffer[..whole])
        } else {
            0
        };
        first = false;
        let Some(taken) = take_lines(&buffer[skipped..whole], base, &mut end, splitter) else {
            return end;
        };
        if at_end {
            return end;
        }
        buffer.drain(..whole);
        base += taken;
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

/// Takes the whole lines in `bytes`, whose text starts at `base` (an offset in the text
/// read so far, where a byte that is not UTF-8 is one raw-byte character: see
/// [`crate::encoding`]); the length of their text, or `None` to stop reading (nobody
/// wants more parts).
fn take_lines(bytes: &[u8], base: u64, end: &mut End, splitter: &mut Splitter) -> Option<u64> {
    let text = crate::encoding::decode_part(bytes);
    let ascii = text.is_ascii();
    let mut pos = 0;
    while pos < text.len() {
        let (line, ends_chunk) = splitter.chunker.follow_line(&text[pos..]);
        end.lines.push(offset(base + pos as u64), line, ascii);
        pos += line.len();
        if !splitter.line(line, ends_chunk) {
            return None;
        }
    }
    Some(text.len() as u64)
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
            let part = std::mem::replace(
                &mut self.part,
                String::with_capacity(PART_SIZE + PART_SIZE / 4),
            );
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
        let tree = Tree::Events(gcn_syntax::parse_chunk_events(&text, &mut self.macros));
        let start = self.sent as u32;
        self.sent += text.len();
        self.outbox.send(Sent { start, text, tree })
    }
}

#[cfg(test)]
mod tests {
    use gcn_syntax::ast::AstNode;

    use super::*;

    /// A text of `parts` parts or more: lines of one instruction.
    fn long_text(parts: usize) -> String {
        let line = "v_add_f32 v1, v2, v3\n";
        line.repeat(parts * PART_SIZE / line.len() + 1)
    }

    /// Waits until the reader has filled the queue and built every part the assembler
    /// is not about to take.
    fn wait_for_full_built_queue(reader: &PartReader) {
        let mut queue = reader.shared.lock();
        while !(queue.parts.len() == QUEUE && last_unbuilt(&queue).is_none()) {
            queue = reader.shared.wait(queue);
        }
    }

    #[test]
    fn reader_builds_queued_parts_from_the_back_while_the_queue_is_full() {
        let text = long_text(QUEUE + 3);
        let mut reader = PartReader::start(Lines::Text(text.as_str().into()));
        wait_for_full_built_queue(&reader);
        let mut next_start = 0;
        let mut built_by = Vec::new();
        while let Some(part) = reader.next() {
            assert_eq!(part.start as usize, next_start, "parts come in order");
            assert_eq!(
                part.parse.tree().syntax().text().to_string(),
                part.text,
                "a part's tree is its text"
            );
            next_start += part.text.len();
            built_by.push(part.built_by_reader);
            reader.done(part);
        }
        assert_eq!(next_start, text.len(), "every part comes");
        // The first part was left to the assembler; the others queued with it were built
        // by the reader.
        assert_eq!(built_by[..QUEUE], [false, true, true, true][..QUEUE]);
        reader.finish();
    }

    #[test]
    fn the_reader_stops_when_the_assembler_finishes_early() {
        let mut reader = PartReader::start(Lines::Text(long_text(QUEUE * 4).as_str().into()));
        let first = reader.next().expect("a first part");
        reader.done(first);
        let end = reader.finish();
        assert!(end.error.is_none());
    }
}
