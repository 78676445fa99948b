//! Parsing throughput on a large CLRX source (goal: at least 30 MB/s on the 2-core
//! reference machine). The source repeats the snapshot inputs and a synthetic kernel
//! body until it is about 8 MiB. Run: `cargo bench -p gcn-syntax --bench parse`.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};

fn large_source() -> String {
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
    let mut text = String::new();
    while text.len() < 8 << 20 {
        text.push_str(&unit);
    }
    text
}

fn bench_parse(c: &mut Criterion) {
    let text = large_source();
    let mut group = c.benchmark_group("parse");
    group.throughput(Throughput::Bytes(text.len() as u64));
    group.sample_size(10);
    group.bench_function("large_source", |b| b.iter_with_large_drop(|| gcn_syntax::parse(&text)));
    group.finish();
}

criterion_group!(benches, bench_parse);
criterion_main!(benches);
