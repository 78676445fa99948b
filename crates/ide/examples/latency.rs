//! Per-request cost of hover and completion on a 100,000-line source, in process:
//! `cargo run --release -p gcn-ide --example latency`. (Performance targets live in
//! benchmarks and tools like this one, never in timed tests.) The file index is built once
//! per document version by the server; hover and completion then look at the cursor's
//! token, its ancestors and the index only.
use std::time::Instant;
fn main() {
    let mut text =
        String::from(".gallium\n.gpu Tonga\n.kernel k\n    .config\n        .dims x\n.text\nk:\n");
    let body = [
        "        v_add_f32 v1, v2, v3",
        "        s_mov_b32 s4, 0x1234",
        "        v_mul_lo_u32 v3, v2, 3",
        "        s_load_dwordx2 s[4:5], s[0:1], 0x8",
    ];
    for i in 0..100000 {
        text.push_str(body[i % 4]);
        text.push('\n');
    }
    let parse = gcn_syntax::parse(&text);
    let offset = gcn_ide::TextSize::from((text.len() - 20) as u32);
    let t = Instant::now();
    for _ in 0..20 {
        std::hint::black_box(gcn_ide::scan::context_at(&parse, offset));
    }
    println!("context_at {:?}", t.elapsed() / 20);
    let t = Instant::now();
    for _ in 0..20 {
        std::hint::black_box(gcn_ide::scan::definitions(&parse));
    }
    println!("definitions {:?}", t.elapsed() / 20);
    let index = gcn_ide::scan::FileIndex::new(&parse);
    let t = Instant::now();
    for _ in 0..20 {
        std::hint::black_box(gcn_ide::scan::FileIndex::new(&parse));
    }
    println!("index {:?}", t.elapsed() / 20);
    let t = Instant::now();
    for _ in 0..20 {
        std::hint::black_box(gcn_ide::hover(
            &parse,
            &index,
            offset,
            gcn_ide::Generation::Gcn1_0,
            None,
        ));
    }
    println!("hover {:?}", t.elapsed() / 20);
    let t = Instant::now();
    for _ in 0..20 {
        let root = parse.syntax_node();
        std::hint::black_box(gcn_ide::scan::token_at_offset(&root, offset).right_biased());
    }
    println!("token_at_offset {:?}", t.elapsed() / 20);
    let t = Instant::now();
    for _ in 0..20 {
        let root = parse.syntax_node();
        let tok = gcn_ide::scan::token_at_offset(&root, offset)
            .right_biased()
            .unwrap();
        std::hint::black_box(tok.parent_ancestors().count());
    }
    println!("ancestors {:?}", t.elapsed() / 20);
    let t = Instant::now();
    for _ in 0..20 {
        std::hint::black_box(gcn_ide::completions(
            &parse,
            &index,
            offset,
            gcn_ide::Generation::Gcn1_0,
            gcn_ide::Formats::AMD,
        ));
    }
    println!("completions {:?}", t.elapsed() / 20);
    let t = Instant::now();
    let settings = gcn_ide::Settings::default();
    for _ in 0..20 {
        std::hint::black_box(
            gcn_ide::file_options(std::path::Path::new("/tmp/x/big.s"), &settings).asm_options(),
        );
    }
    println!("file_options {:?}", t.elapsed() / 20);
}
