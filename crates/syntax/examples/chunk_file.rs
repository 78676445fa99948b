//! Parses a file chunk by chunk, as the assembler reads a long source (parts of about
//! 64 KiB of whole statements), N times, and prints the throughput. Each part's tree is
//! dropped before the next part is parsed, as in the assembler; both are timed.
//! `cargo run --release -p gcn-syntax --example chunk_file -- FILE [N]`
use gcn_syntax::{parse_chunk, parts, KnownMacros};

const PART: usize = 1 << 16;

fn parse_in_parts(text: &str) -> usize {
    let mut macros = KnownMacros::default();
    parts(text, PART)
        .map(|part| parse_chunk(part, &mut macros).errors().len())
        .sum()
}

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("usage: chunk_file FILE [N]");
    let n: usize = args.next().map_or(5, |s| s.parse().unwrap());
    let text = std::fs::read_to_string(&path).unwrap();
    let mut errors = 0;
    let start = std::time::Instant::now();
    for _ in 0..n {
        errors = parse_in_parts(&text);
    }
    let secs = start.elapsed().as_secs_f64();
    let mb = (text.len() * n) as f64 / (1 << 20) as f64;
    println!(
        "{} bytes x {n}: {:.1} MiB/s wall ({errors} errors)",
        text.len(),
        mb / secs
    );
}
