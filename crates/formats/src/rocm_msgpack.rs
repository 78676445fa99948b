//! MessagePack, as the reference writes ROCm's v3 metadata (the `NT_AMDGPU_METADATA` note
//! of the LLVM 10 binary format).
//!
//! Every length and number takes the shortest form MessagePack has for it: positive
//! fixint, then `uint 8/16/32/64`; fixstr, then `str 8/16/32`; fixarray and fixmap (up to
//! 15 items), then the 16- and 32-bit forms. Strings end at their first NUL byte, as the
//! reference's C strings do. Only what the metadata needs exists: unsigned integers,
//! strings, booleans, arrays and maps with string keys.
//!
//! A small encoder of our own rather than a crate: the choices above are the whole of
//! what must match, and each is pinned by the tests below (vectors of the reference's
//! own MessagePack writer tests).

/// A MessagePack value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    UInt(u64),
    /// Bytes of a string (MessagePack strings are not checked for UTF-8 here).
    Str(Vec<u8>),
    Bool(bool),
    Array(Vec<Value>),
    /// Keys in the order they are written.
    Map(Vec<(String, Value)>),
}

impl Value {
    /// A string value from text.
    pub fn str(s: &str) -> Value {
        Value::Str(s.as_bytes().to_vec())
    }
}

/// The encoding of `value`.
pub fn encode(value: &Value) -> Vec<u8> {
    let mut out = Vec::new();
    write(value, &mut out);
    out
}

fn write(value: &Value, out: &mut Vec<u8>) {
    match value {
        Value::UInt(v) => write_uint(*v, out),
        Value::Str(s) => write_str(s, out),
        Value::Bool(b) => out.push(if *b { 0xc3 } else { 0xc2 }),
        Value::Array(items) => {
            write_len(items.len(), [0x90, 0xdc, 0xdd], out);
            for item in items {
                write(item, out);
            }
        }
        Value::Map(entries) => {
            write_len(entries.len(), [0x80, 0xde, 0xdf], out);
            for (key, item) in entries {
                write_str(key.as_bytes(), out);
                write(item, out);
            }
        }
    }
}

fn write_uint(v: u64, out: &mut Vec<u8>) {
    if v < 0x80 {
        out.push(v as u8);
    } else if v <= 0xff {
        out.extend_from_slice(&[0xcc, v as u8]);
    } else if v <= 0xffff {
        out.push(0xcd);
        out.extend_from_slice(&(v as u16).to_be_bytes());
    } else if v <= 0xffff_ffff {
        out.push(0xce);
        out.extend_from_slice(&(v as u32).to_be_bytes());
    } else {
        out.push(0xcf);
        out.extend_from_slice(&v.to_be_bytes());
    }
}

fn write_str(s: &[u8], out: &mut Vec<u8>) {
    let s = &s[..s.iter().position(|&b| b == 0).unwrap_or(s.len())];
    let len = s.len();
    if len < 32 {
        out.push(0xa0 | len as u8);
    } else if len <= 0xff {
        out.extend_from_slice(&[0xd9, len as u8]);
    } else if len <= 0xffff {
        out.push(0xda);
        out.extend_from_slice(&(len as u16).to_be_bytes());
    } else {
        out.push(0xdb);
        out.extend_from_slice(&(len as u32).to_be_bytes());
    }
    out.extend_from_slice(s);
}

/// The header of an array or a map of `len` items: `forms` are the fix, 16-bit and
/// 32-bit markers.
fn write_len(len: usize, forms: [u8; 3], out: &mut Vec<u8>) {
    if len < 16 {
        out.push(forms[0] | len as u8);
    } else if len <= 0xffff {
        out.push(forms[1]);
        out.extend_from_slice(&(len as u16).to_be_bytes());
    } else {
        out.push(forms[2]);
        out.extend_from_slice(&(len as u32).to_be_bytes());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn uints(values: impl IntoIterator<Item = u64>) -> Value {
        Value::Array(values.into_iter().map(Value::UInt).collect())
    }

    #[test]
    fn booleans() {
        assert_eq!(
            encode(&Value::Array(vec![Value::Bool(true), Value::Bool(false)])),
            [0x92, 0xc3, 0xc2]
        );
    }

    #[test]
    fn array_headers_take_the_shortest_form() {
        let mut expected = vec![0x9f];
        expected.extend(0..15u8);
        assert_eq!(encode(&uints(0..15)), expected);
        let mut expected = vec![0xdc, 0x00, 0x12];
        expected.extend(0..18u8);
        assert_eq!(encode(&uints(0..18)), expected);
        assert_eq!(
            encode(&uints((0..12222).map(|i| i & 0x7f)))[..3],
            [0xdc, 0x2f, 0xbe]
        );
        assert_eq!(
            encode(&uints(std::iter::repeat_n(0, 0xffff)))[..3],
            [0xdc, 0xff, 0xff]
        );
        assert_eq!(
            encode(&uints(std::iter::repeat_n(0, 0x10000)))[..5],
            [0xdd, 0, 1, 0, 0]
        );
    }

    #[test]
    fn unsigned_integers_take_the_shortest_form() {
        let out = encode(&uints([
            0x12,
            0xd1,
            0xab73,
            0xa118_b931,
            0x1188_99a1_b6a1_9e1a,
        ]));
        assert_eq!(
            out,
            [
                0x95, 0x12, 0xcc, 0xd1, 0xcd, 0xab, 0x73, 0xce, 0xa1, 0x18, 0xb9, 0x31, 0xcf, 0x11,
                0x88, 0x99, 0xa1, 0xb6, 0xa1, 0x9e, 0x1a
            ]
        );
        for (v, len) in [
            (0x7f, 1),
            (0x80, 2),
            (0xff, 2),
            (0x100, 3),
            (0xffff, 3),
            (0x10000, 5),
            (0xffff_ffff, 5),
            (1 << 32, 9),
        ] {
            assert_eq!(encode(&Value::UInt(v)).len(), len, "{v:#x}");
        }
    }

    #[test]
    fn strings_take_the_shortest_form() {
        assert_eq!(
            encode(&Value::Array(vec![Value::Str(
                b"\x4a\x5b\x31\x28\x44".to_vec()
            )])),
            [0x91, 0xa5, 0x4a, 0x5b, 0x31, 0x28, 0x44]
        );
        for (len, header) in [
            (31, vec![0xbf]),
            (32, vec![0xd9, 32]),
            (187, vec![0xd9, 187]),
            (256, vec![0xda, 1, 0]),
            (18529, vec![0xda, 0x48, 0x61]),
            (0x10000, vec![0xdb, 0, 1, 0, 0]),
        ] {
            let text: Vec<u8> = (0..len).map(|i| (i & 0x7f) as u8 + 10).collect();
            let out = encode(&Value::Str(text.clone()));
            assert_eq!(out[..header.len()], header[..], "length {len}");
            assert_eq!(out[header.len()..], text[..], "length {len}");
        }
    }

    #[test]
    fn a_string_ends_at_its_first_nul() {
        assert_eq!(encode(&Value::Str(b"ab\0cd".to_vec())), [0xa2, b'a', b'b']);
    }

    #[test]
    fn maps_write_keys_in_order() {
        let map = Value::Map(vec![
            ("abab".into(), Value::UInt(15)),
            ("cob".into(), Value::UInt(0xe911)),
            ("extra".into(), Value::UInt(11)),
        ]);
        assert_eq!(
            encode(&map),
            [
                0x83, 0xa4, b'a', b'b', b'a', b'b', 15, 0xa3, b'c', b'o', b'b', 0xcd, 0xe9, 0x11,
                0xa5, b'e', b'x', b't', b'r', b'a', 11
            ]
        );
        let long: Vec<(String, Value)> = (0..14821)
            .map(|i| {
                (
                    format!("{i:04x}"),
                    Value::str(&format!("{:04x}", i ^ 0xdca1)),
                )
            })
            .collect();
        let out = encode(&Value::Map(long));
        assert_eq!(out[..3], [0xde, 0x39, 0xe5]);
        assert_eq!(out[3..13], *b"\xa40000\xa4dca1");
        assert_eq!(out.len(), 3 + 14821 * 10);
        let longer: Vec<(String, Value)> = (0..0x10000)
            .map(|i| (String::new(), Value::UInt(i & 1)))
            .collect();
        assert_eq!(encode(&Value::Map(longer))[..5], [0xdf, 0, 1, 0, 0]);
    }
}
