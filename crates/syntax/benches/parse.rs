//! Parsing throughput into the tree (goal: at least 30 MB/s on the 2-core reference
//! machine). Two inputs of about 8 MiB each:
//! - `real_sources`: the conformance programs beside the repo (`../shared/conformance`,
//!   kernels recovered from compiler output and hand-written format tests), repeated;
//! - `dense_synthetic`: the snapshot inputs and a generated kernel body with short tokens,
//!   a worst case (about one token per three bytes).
//!
//! - `chunked_instructions`: `/work/bench100k.s` (100,000 lines of GCN 1.2 instructions),
//!   if present, parsed in 64 KiB parts (`parts` + `parse_chunk`) as the assembler reads
//!   a long source.
//!
//! Run: `cargo bench -p gcn-syntax --bench parse`. Dropping the trees is not timed.

use std::path::Path;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};

const SIZE: usize = 8 << 20;

fn repeat_to_size(unit: &str) -> String {
    let mut text = String::with_capacity(SIZE + unit.len());
    while text.len() < SIZE {
        text.push_str(unit);
    }
    text
}

fn read_sources(dir: &Path, name: &str) -> String {
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .map(|e| e.unwrap().path().join(name))
        .filter(|p| p.is_file())
        .collect();
    paths.sort();
    paths
        .iter()
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect()
}

fn dense_synthetic() -> String {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/test_data/ok");
    let mut unit = String::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "s") {
            unit.push_str(&std::fs::read_to_string(path).unwrap());
        }
    }
    for i in 0..200 {
        unit.push_str(&format!(
            "loop{i}: v_add_f32 v{}, v{}, s{} # accumulate\n  s_load_dwordx4 s[{}:{}], s[0:1], 0x{:x}\n  buffer_store_dword v1, v2, s[8:11], 0 offen offset:{} glc\n  s_waitcnt vmcnt(0) & lgkmcnt(0)\n  .int {i}*4+(1<<3), sym{i} // 2\n",
            i % 256, (i + 1) % 256, i % 100, (i * 4) % 96, (i * 4) % 96 + 3, i * 16, i * 4
        ));
    }
    repeat_to_size(&unit)
}

fn bench_parse(c: &mut Criterion) {
    let mut inputs = vec![("dense_synthetic", dense_synthetic())];
    let binaries =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/conformance/binaries");
    let real = read_sources(&binaries, "input.s");
    if !real.is_empty() {
        inputs.push(("real_sources", repeat_to_size(&real)));
    }
    let mut group = c.benchmark_group("parse");
    group.sample_size(10);
    for (name, text) in &inputs {
        group.throughput(Throughput::Bytes(text.len() as u64));
        group.bench_function(*name, |b| {
            b.iter_with_large_drop(|| gcn_syntax::parse(text))
        });
    }
    if let Ok(text) = std::fs::read_to_string("/work/bench100k.s") {
        group.throughput(Throughput::Bytes(text.len() as u64));
        group.bench_function("chunked_instructions", |b| {
            b.iter_with_large_drop(|| parse_in_parts(&text))
        });
    }
    group.finish();
}

/// The parts of `text` parsed one after the other, as the assembler does.
fn parse_in_parts(text: &str) -> Vec<gcn_syntax::Parse> {
    let mut macros = gcn_syntax::KnownMacros::default();
    gcn_syntax::parts(text, 1 << 16)
        .map(|part| gcn_syntax::parse_chunk(part, &mut macros))
        .collect()
}

criterion_group!(benches, bench_parse);
criterion_main!(benches);
