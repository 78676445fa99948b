//! A source longer than the part the core parses at once gives the result of a whole
//! parse: macros defined in an earlier part are called in later ones, blocks are never
//! split, and positions stay right.

use gcn_asm::{assemble, BinaryFormat, Input, Options};

#[test]
fn long_sources_are_assembled_in_parts_like_whole_ones() {
    let mut text = String::from(".rawcode\n.macro pair a, b\n    .byte \\a, \\b\n.endm\n");
    for i in 0..20_000u32 {
        // About 150 KiB: several parts.
        text.push_str(&format!(".byte {}\n", i % 200));
        if i % 5000 == 0 {
            text.push_str(".if 1\n    pair 1, 2\n.else\n    .byte 0xff\n.endif\n");
            text.push_str(".rept 2\n    .byte 3\n.endr\n");
        }
    }
    text.push_str("pair 7, 8\n.byte (\n");
    let opts = Options { format: BinaryFormat::Rawcode, ..Options::default() };
    let result = assemble(vec![Input { name: "long.s".into(), text: text.clone() }], opts);
    let mut expected = Vec::new();
    for i in 0..20_000u32 {
        expected.push((i % 200) as u8);
        if i % 5000 == 0 {
            expected.extend_from_slice(&[1, 2, 3, 3]);
        }
    }
    expected.extend_from_slice(&[7, 8]);
    assert_eq!(result.raw_code(), expected);
    let messages: Vec<String> = result.diagnostics.iter().map(|d| d.render(&result.sources)).collect();
    let last_line = text.lines().count();
    assert_eq!(messages, vec![format!("long.s:{last_line}:8: Error: expected an expression")]);
}
