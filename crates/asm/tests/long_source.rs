//! A source longer than the part the core parses at once gives the result of a whole
//! parse: macros defined in an earlier part are called in later ones, blocks are never
//! split, and positions stay right.

use gcn_asm::{assemble, assemble_stream, Assembly, BinaryFormat, Input, Options, StreamInput};

fn rawcode() -> Options {
    Options {
        format: BinaryFormat::Rawcode,
        ..Options::default()
    }
}

fn streamed(name: &str, bytes: Vec<u8>) -> Assembly {
    let input = StreamInput {
        name: name.into(),
        reader: Box::new(std::io::Cursor::new(bytes)),
    };
    assemble_stream(input, rawcode())
}

fn messages(result: &Assembly) -> Vec<String> {
    result
        .diagnostics
        .iter()
        .map(|d| d.render(&result.sources))
        .collect()
}

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
    let result = assemble(
        vec![Input {
            name: "long.s".into(),
            text: text.clone(),
        }],
        rawcode(),
    );
    let mut expected = Vec::new();
    for i in 0..20_000u32 {
        expected.push((i % 200) as u8);
        if i % 5000 == 0 {
            expected.extend_from_slice(&[1, 2, 3, 3]);
        }
    }
    expected.extend_from_slice(&[7, 8]);
    assert_eq!(result.raw_code(), expected);
    let last_line = text.lines().count();
    assert_eq!(
        messages(&result),
        vec![format!(
            "long.s:{last_line}:8: Error: expected an expression"
        )]
    );

    let from_stream = streamed("long.s", text.into_bytes());
    assert_eq!(from_stream.raw_code(), expected);
    assert_eq!(messages(&from_stream), messages(&result));
}

#[test]
fn a_stream_gives_the_positions_of_a_text() {
    // Errors after non-ASCII text on their line count characters, as for a text.
    let mut text = String::new();
    for i in 0..30_000u32 {
        text.push_str(&format!(".byte {} # entr\u{e9}e\n", i % 7));
        if i % 9_000 == 0 {
            text.push_str("/* caf\u{e9} */ .byte 300\n.byte 1 // \u{20ac}\n  .bogus\n");
        }
    }
    let whole = assemble(
        vec![Input {
            name: "w.s".into(),
            text: text.clone(),
        }],
        rawcode(),
    );
    let from_stream = streamed("w.s", text.into_bytes());
    assert_eq!(from_stream.raw_code(), whole.raw_code());
    assert_eq!(messages(&from_stream), messages(&whole));
    assert_eq!(
        messages(&whole)[0],
        "w.s:2:18: Warning: value 0x12c truncated to 0x2c"
    );
    assert_eq!(messages(&whole).len(), 12, "{:?}", messages(&whole));
}

#[test]
fn a_stream_keeps_bytes_that_are_not_utf8_as_a_whole_text_does() {
    // Latin-1 comments and strings, across many blocks, after a byte-order mark.
    let mut bytes = b"\xEF\xBB\xBF".to_vec();
    for i in 0..10_000 {
        bytes.extend_from_slice(format!(".byte {} # caf\u{e9} / ", i % 200).as_bytes());
        bytes.extend_from_slice(b"caf\xe9\n.ascii \"\xff\"\n");
    }
    bytes.extend_from_slice(b".ascii \"\xe9\"; .byte 300 # \xc3\x28\n");
    let text = gcn_asm::encoding::decode(bytes.clone());
    let whole = assemble(
        vec![Input {
            name: "latin1.s".into(),
            text,
        }],
        rawcode(),
    );
    let from_stream = streamed("latin1.s", bytes);
    assert_eq!(from_stream.raw_code(), whole.raw_code());
    assert_eq!(messages(&from_stream), messages(&whole));
    assert_eq!(
        messages(&whole),
        vec!["latin1.s:20001:19: Warning: value 0x12c truncated to 0x2c"]
    );
    let code = whole.raw_code();
    assert_eq!(code.len(), 20_002);
    assert_eq!(&code[..2], &[0, 0xff]);
    assert_eq!(&code[20_000..], &[0xe9, 0x2c]);
}

#[test]
fn a_stream_ends_at_end() {
    let mut text = String::from(".byte 1\n.end\n");
    for _ in 0..50_000 {
        text.push_str(".bogus\n");
    }
    let result = streamed("end.s", text.into_bytes());
    assert_eq!(result.raw_code(), vec![1]);
    assert!(messages(&result).is_empty());
}
