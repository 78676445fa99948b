//! Source files as bytes, read as text.
//!
//! CLRX reads its sources as bytes: a comment in Latin-1 or CP1251, or a string holding
//! bytes that are not UTF-8, assembles there. Here a source is a `str` (one syntax tree
//! for the editor and the command line), so [`decode`] keeps UTF-8 as it is and turns each
//! byte that is not part of UTF-8 into one character of a private-use range, a *raw
//! byte*. A string or character literal gives the byte back ([`raw_byte_at`]), a message
//! shows it as `\xNN` ([`escape_raw_bytes`]), and it counts as one column, as in the
//! reference. A leading byte-order mark is dropped, as editors drop it, so that the
//! command line and an editor see the same text.
//!
//! The range, U+10FF80 to U+10FFFF, ends the last private-use plane; a source that
//! writes those characters themselves in a string gets one byte each instead of four.

use std::borrow::Cow;

/// The character of raw byte 0 (only bytes 0x80 to 0xFF occur: ASCII is always UTF-8).
const RAW_BASE: u32 = 0x10_FF00;
const BYTE_ORDER_MARK: &[u8] = b"\xEF\xBB\xBF";

/// The text of a whole source file.
pub fn decode(bytes: Vec<u8>) -> String {
    let mut bytes = bytes;
    if bytes.starts_with(BYTE_ORDER_MARK) {
        bytes.drain(..BYTE_ORDER_MARK.len());
    }
    match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => decode_part(e.as_bytes()).into_owned(),
    }
}

/// The text of part of a source that starts and ends at a line break (or the start or
/// the end of the file); the byte-order mark is the caller's to drop.
pub fn decode_part(bytes: &[u8]) -> Cow<'_, str> {
    if let Ok(text) = std::str::from_utf8(bytes) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(bytes.len() + 16);
    let mut rest = bytes;
    while !rest.is_empty() {
        match std::str::from_utf8(rest) {
            Ok(text) => {
                out.push_str(text);
                break;
            }
            Err(e) => {
                let (valid, tail) = rest.split_at(e.valid_up_to());
                out.push_str(std::str::from_utf8(valid).expect("checked to be UTF-8"));
                let bad = e.error_len().unwrap_or(tail.len());
                out.extend(tail[..bad].iter().map(|&b| raw_char(b)));
                rest = &tail[bad..];
            }
        }
    }
    Cow::Owned(out)
}

/// The length of the byte-order mark `bytes` (a whole file) starts with: 3, or 0.
pub fn byte_order_mark_len(bytes: &[u8]) -> usize {
    if bytes.starts_with(BYTE_ORDER_MARK) {
        BYTE_ORDER_MARK.len()
    } else {
        0
    }
}

fn raw_char(byte: u8) -> char {
    char::from_u32(RAW_BASE + u32::from(byte)).expect("U+10FF80..U+10FFFF are characters")
}

/// The byte a raw-byte character stands for.
pub fn raw_byte(c: char) -> Option<u8> {
    let code = u32::from(c);
    (RAW_BASE + 0x80..=RAW_BASE + 0xFF)
        .contains(&code)
        .then(|| (code - RAW_BASE) as u8)
}

/// The raw byte whose UTF-8 starts `bytes`, and its length in `bytes` (4).
pub fn raw_byte_at(bytes: &[u8]) -> Option<(u8, usize)> {
    // U+10FF80..U+10FFFF is F4 8F BE|BF 80..BF in UTF-8.
    match bytes {
        [0xF4, 0x8F, third @ (0xBE | 0xBF), fourth @ 0x80..=0xBF, ..] => {
            Some((0x80 | (third & 1) << 6 | (fourth & 0x3F), 4))
        }
        _ => None,
    }
}

/// `text` with each raw byte written `\xNN` (for messages, which are UTF-8).
pub fn escape_raw_bytes(text: String) -> String {
    if !text.chars().any(|c| raw_byte(c).is_some()) {
        return text;
    }
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match raw_byte(c) {
            Some(b) => out.push_str(&format!("\\x{b:02x}")),
            None => out.push(c),
        }
    }
    out
}

/// The bytes `text` stands for: its raw bytes as themselves (what `.print` writes).
pub fn encode(text: &str) -> Cow<'_, [u8]> {
    if !text.chars().any(|c| raw_byte(c).is_some()) {
        return Cow::Borrowed(text.as_bytes());
    }
    let mut out = Vec::with_capacity(text.len());
    for c in text.chars() {
        match raw_byte(c) {
            Some(b) => out.push(b),
            None => out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes()),
        }
    }
    Cow::Owned(out)
}

/// `bytes` (a string literal's value, say) as text, its bytes that are not UTF-8 kept as
/// raw bytes.
pub fn bytes_to_text(bytes: &[u8]) -> String {
    decode_part(bytes).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf8_is_kept_and_other_bytes_are_raw_bytes() {
        let text = decode(b"; caf\xe9 \xc3\xa9\n.ascii \"\xff\"\n".to_vec());
        assert_eq!(
            text.chars().count(),
            "; cafX é\n.ascii \"X\"\n".chars().count()
        );
        let raw: Vec<u8> = text.chars().filter_map(raw_byte).collect();
        assert_eq!(raw, vec![0xe9, 0xff]);
        assert!(text.contains('é'));
    }

    #[test]
    fn every_raw_byte_reads_back() {
        for b in 0x80..=0xFFu8 {
            let c = raw_char(b);
            assert_eq!(raw_byte(c), Some(b));
            let mut utf8 = [0; 4];
            assert_eq!(
                raw_byte_at(c.encode_utf8(&mut utf8).as_bytes()),
                Some((b, 4))
            );
        }
        assert_eq!(raw_byte('é'), None);
        assert_eq!(raw_byte_at("é".as_bytes()), None);
    }

    #[test]
    fn a_cut_sequence_at_the_end_is_raw() {
        assert_eq!(
            decode(b"a\xc3".to_vec())
                .chars()
                .filter_map(raw_byte)
                .collect::<Vec<_>>(),
            vec![0xc3]
        );
    }

    #[test]
    fn the_byte_order_mark_is_dropped() {
        assert_eq!(decode(b"\xEF\xBB\xBFs_nop 0\n".to_vec()), "s_nop 0\n");
        assert_eq!(byte_order_mark_len(b"\xEF\xBB\xBFx"), 3);
    }

    #[test]
    fn text_gives_its_bytes_back() {
        let bytes = b"caf\xe9 \xc3\xa9 \xff".to_vec();
        assert_eq!(encode(&decode(bytes.clone())).into_owned(), bytes);
    }

    #[test]
    fn messages_show_raw_bytes_escaped() {
        let text = decode(b"x\xe9y".to_vec());
        assert_eq!(
            escape_raw_bytes(format!("unknown `{text}`")),
            "unknown `x\\xe9y`"
        );
    }
}
