//! Latency of go-to-definition and references on a long source:
//! `cargo run --release -p gcn-ide --example nav_latency [LINES]` analyses a generated
//! source of LINES lines (default 100,000: labels, symbols, register symbols in
//! operands, local labels) and times both requests at 20,000 places of names, printing
//! the median, the 99th percentile and the worst.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use gcn_ide::navigation::{goto_definition, references};
use gcn_ide::project::{options_with_project, Settings};
use gcn_ide::{analyse, AnalysisInput, TextSize};

fn main() {
    let lines: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(100_000);
    let mut text = String::from(".gpu Tonga\nacc = %v[0:1]\nSTEP = 4\n");
    let mut i: usize = 0;
    while text.lines().count() < lines {
        text.push_str(&format!(
            "block{i}:\n        s_add_u32 s0, s1, STEP\n        v_mov_b32 acc[0], v1\n1:      s_nop 0\n        s_cbranch_scc0 1b\n        s_branch block{i}\n        s_branch block{}\n        s_endpgm\n",
            i.saturating_sub(3)
        ));
        i += 1;
    }
    let path = PathBuf::from("/nonexistent/long.s");
    let settings = Settings {
        args: vec!["-b".into(), "rawcode".into()],
        ..Settings::default()
    };
    let start = Instant::now();
    let analysis = analyse(AnalysisInput {
        path: path.clone(),
        text: text.as_str().into(),
        parse: gcn_syntax::parse(&text),
        options: options_with_project(&path, &settings, None),
        open_files: Arc::default(),
        cancel: None,
        encode_cache: None,
    });
    let errors = analysis
        .diagnostics
        .iter()
        .filter(|d| d.severity == gcn_ide::Severity::Error)
        .count();
    println!(
        "{} lines, {} occurrences, {errors} errors, analysed in {:?}",
        text.lines().count(),
        analysis.names.occurrences.len(),
        start.elapsed()
    );
    let places: Vec<TextSize> = analysis
        .names
        .occurrences
        .iter()
        .step_by((analysis.names.occurrences.len() / 20_000).max(1))
        .map(|o| o.range.start() + TextSize::from(1))
        .collect();
    let acc = analysis
        .names
        .occurrences
        .iter()
        .find(|o| o.name == "acc" && !o.definition)
        .unwrap();
    let t = Instant::now();
    let n = analysis.names.related(acc).count();
    println!("related(acc): {n} in {:?}", t.elapsed());
    let t = Instant::now();
    let n = references(&analysis, &path, acc.range.start(), true)
        .unwrap()
        .len();
    println!("references(acc): {n} in {:?}", t.elapsed());
    for (what, f) in [
        (
            "definition",
            &(|o| goto_definition(&analysis, &path, o).len()) as &dyn Fn(TextSize) -> usize,
        ),
        ("references", &|o| {
            references(&analysis, &path, o, true).map_or(0, |r| r.len())
        }),
    ] {
        let mut times: Vec<f64> = Vec::new();
        let mut found = 0;
        for &o in &places {
            let t = Instant::now();
            found += f(o);
            times.push(t.elapsed().as_secs_f64() * 1e3);
        }
        times.sort_by(|a, b| a.partial_cmp(b).unwrap());
        let p = |q: f64| times[((times.len() - 1) as f64 * q) as usize];
        println!(
            "{what}: {} requests, {found} results, median {:.4} ms, p99 {:.4} ms, max {:.4} ms",
            times.len(),
            p(0.5),
            p(0.99),
            p(1.0)
        );
    }
}
