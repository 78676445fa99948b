//! Parses a file N times and prints the throughput (CPU time of this process).
//! `cargo run --release -p gcn-syntax --example parse_file -- FILE [N]`
fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("usage: parse_file FILE [N]");
    let n: usize = args.next().map_or(5, |s| s.parse().unwrap());
    let text = std::fs::read_to_string(&path).unwrap();
    let mut errors = 0;
    let mut secs = 0.0;
    for _ in 0..n {
        // Parsing only: dropping the tree is not timed.
        let start = std::time::Instant::now();
        let parse = gcn_syntax::parse(&text);
        secs += start.elapsed().as_secs_f64();
        errors = parse.errors().len();
        std::hint::black_box(&parse);
    }
    let mb = (text.len() * n) as f64 / (1 << 20) as f64;
    println!(
        "{} bytes x {n}: {:.1} MiB/s wall ({errors} errors)",
        text.len(),
        mb / secs
    );
}
