//! The per-request editor features on any text: hover, completion, signature help,
//! register highlights and macro parameters (with a rename) at
//! every character boundary of the first 160 bytes and at the end, semantic tokens
//! (whole and of a range), folding ranges, selection ranges and the outline. None may
//! panic; the semantic tokens must lie inside the text, in order, without overlap.
#![no_main]

use gcn_ide::scan::FileIndex;
use gcn_ide::{Formats, Generation, TextRange, TextSize};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let parse = gcn_syntax::parse(&text);
    let index = FileIndex::new(&parse);
    let len = TextSize::of(text.as_ref());
    let offsets: Vec<TextSize> = text
        .char_indices()
        .map(|(i, _)| i)
        .take_while(|&i| i <= 160)
        .chain(std::iter::once(text.len()))
        .map(|i| TextSize::from(i as u32))
        .collect();
    let generation = Generation::ALL[data.first().map_or(0, |b| usize::from(*b) % Generation::ALL.len())];
    for &offset in &offsets {
        let _ = gcn_ide::hover(&parse, &index, offset, generation, None);
        let _ = gcn_ide::completions(&parse, &index, offset, generation, Formats::AMD);
        let _ = gcn_ide::signature_help(&parse, &index, offset, generation);
        let _ = gcn_ide::register_highlights::register_highlights(&parse, &index, offset, generation);
        if let Some(p) = gcn_ide::macro_params::parameter_at(&parse, offset) {
            let _ = gcn_ide::macro_params::rename(&p, "renamed");
        }
    }
    let tokens = gcn_ide::semantic_tokens(&parse, None);
    let mut end = TextSize::from(0);
    for t in &tokens {
        assert!(t.range.start() >= end && t.range.end() <= len, "token {t:?} overlaps or lies outside");
        end = t.range.end();
    }
    let half = TextSize::from(u32::from(len) / 2);
    let _ = gcn_ide::semantic_tokens(&parse, Some(TextRange::new(half, len)));
    let _ = gcn_ide::folding_ranges(&parse);
    let _ = gcn_ide::selection_ranges(&parse, &offsets);
    let _ = gcn_ide::document_symbols(&parse);
});
