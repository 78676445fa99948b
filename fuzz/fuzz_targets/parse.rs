//! Any bytes that are UTF-8 parse without panicking into a tree that is the input, and
//! an incremental reparse of an edit equals a full parse.
#![no_main]

use gcn_syntax::{parse, TextEdit, TextRange, TextSize};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let parsed = parse(text);
    assert_eq!(parsed.syntax_node().to_string(), text);
    // Use the first line as an insertion into the rest, at the middle.
    let Some((insert, rest)) = text.split_once('\n') else { return };
    let mut at = rest.len() / 2;
    while !rest.is_char_boundary(at) {
        at -= 1;
    }
    let edit = TextEdit { delete: TextRange::empty(TextSize::from(at as u32)), insert: insert.to_string() };
    let incremental = parse(rest).reparse(&edit);
    let full = parse(&edit.apply(rest));
    assert_eq!(incremental, full);
});
