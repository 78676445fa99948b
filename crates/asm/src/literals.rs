//! Values of literal tokens: integers, characters, strings, floats.

/// An integer literal: decimal, `0x` hex, `0b` binary, leading-zero octal.
pub fn parse_int(text: &str) -> Result<u64, String> {
    let lower = text.to_ascii_lowercase();
    let (digits, radix) = if let Some(rest) = lower.strip_prefix("0x") {
        (rest, 16)
    } else if let Some(rest) = lower.strip_prefix("0b") {
        (rest, 2)
    } else if lower.len() > 1 && lower.starts_with('0') {
        (&lower[1..], 8)
    } else {
        (lower.as_str(), 10)
    };
    u64::from_str_radix(digits, radix)
        .map_err(|_| format!("number `{text}` is out of range or malformed"))
}

/// Decodes one escape or character at the start of `s`; returns it and the rest.
fn unescape_one(s: &[u8]) -> Result<(u8, &[u8]), String> {
    let Some((&first, rest)) = s.split_first() else {
        return Err("empty character".into());
    };
    // A byte of the source that is not UTF-8 stands for itself.
    if let Some((byte, len)) = crate::encoding::raw_byte_at(s) {
        return Ok((byte, &s[len..]));
    }
    if first != b'\\' {
        return Ok((first, rest));
    }
    let Some((&c, rest)) = rest.split_first() else {
        return Err("unfinished escape".into());
    };
    let simple = match c {
        b'a' => Some(7),
        b'b' => Some(8),
        b't' => Some(9),
        b'n' => Some(10),
        b'v' => Some(11),
        b'f' => Some(12),
        b'r' => Some(13),
        b'\\' | b'"' | b'\'' => Some(c),
        _ => None,
    };
    if let Some(v) = simple {
        return Ok((v, rest));
    }
    if c == b'x' || c == b'X' {
        let n = rest.iter().take_while(|b| b.is_ascii_hexdigit()).count();
        if n == 0 {
            return Err("`\\x` needs hexadecimal digits".into());
        }
        let value = rest[..n].iter().fold(0u32, |v, &d| {
            (v << 4 | (d as char).to_digit(16).unwrap()) & 0xff
        });
        return Ok((value as u8, &rest[n..]));
    }
    if (b'0'..=b'7').contains(&c) {
        let digits: Vec<u8> = std::iter::once(c)
            .chain(
                rest.iter()
                    .copied()
                    .take_while(|b| (b'0'..=b'7').contains(b))
                    .take(2),
            )
            .collect();
        let value = digits
            .iter()
            .fold(0u32, |v, &d| v * 8 + u32::from(d - b'0'));
        // As the reference: `\400` and above are refused, not wrapped.
        let value = u8::try_from(value).map_err(|_| {
            format!(
                "octal code `\\{}` out of range (above `\\377`)",
                String::from_utf8_lossy(&digits)
            )
        })?;
        return Ok((value, &rest[digits.len() - 1..]));
    }
    Ok((c, rest))
}

/// `s` after the `\` line breaks it starts with, which join a string or character
/// literal's lines and are no part of its value.
fn skip_joined_line_breaks(mut s: &[u8]) -> &[u8] {
    loop {
        s = match s {
            [b'\\', b'\n', rest @ ..] | [b'\\', b'\r', b'\n', rest @ ..] => rest,
            _ => return s,
        }
    }
}

/// A character literal `'a'`, `'\n'`, `'\x41'`.
pub fn parse_char(text: &str) -> Result<u64, String> {
    let inner = text
        .strip_prefix('\'')
        .and_then(|t| t.strip_suffix('\''))
        .ok_or_else(|| "unterminated character literal".to_string())?;
    let (c, rest) = unescape_one(skip_joined_line_breaks(inner.as_bytes()))?;
    if !skip_joined_line_breaks(rest).is_empty() {
        return Err("character literal holds more than one character".into());
    }
    Ok(u64::from(c))
}

/// A string literal's bytes.
pub fn parse_string(text: &str) -> Result<Vec<u8>, String> {
    let inner = text
        .strip_prefix('"')
        .and_then(|t| t.strip_suffix('"'))
        .ok_or_else(|| "unterminated string".to_string())?;
    let mut out = Vec::with_capacity(inner.len());
    let mut rest = skip_joined_line_breaks(inner.as_bytes());
    while !rest.is_empty() {
        let (c, tail) = unescape_one(rest)?;
        let tail = skip_joined_line_breaks(tail);
        out.push(c);
        rest = tail;
    }
    Ok(out)
}

/// A float literal without its `s`/`h`/`l` suffix: decimal (`1.5e-3`, `.5`, `1.5e`) or
/// hexadecimal (`0x1.8p3`).
pub fn parse_float(text: &str) -> Result<f64, String> {
    let bad = || format!("malformed floating-point number `{text}`");
    let t = text.trim_end_matches(|c: char| {
        matches!(c, 's' | 'S' | 'h' | 'H' | 'l' | 'L') && !text.starts_with("0x")
    });
    let lower = t.to_ascii_lowercase();
    if let Some(hex) = lower.strip_prefix("0x") {
        return parse_hex_float(hex).ok_or_else(bad);
    }
    let fixed = lower.strip_suffix('e').unwrap_or(&lower);
    fixed.parse::<f64>().map_err(|_| bad())
}

fn parse_hex_float(hex: &str) -> Option<f64> {
    let (mantissa, exponent) = match hex.split_once('p') {
        Some((m, e)) => (m, e.parse::<i32>().ok()?),
        None => (hex, 0),
    };
    let (int_part, frac_part) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let mut value = 0f64;
    for d in int_part.chars() {
        value = value * 16.0 + f64::from(d.to_digit(16)?);
    }
    let mut scale = 1.0 / 16.0;
    for d in frac_part.chars() {
        value += f64::from(d.to_digit(16)?) * scale;
        scale /= 16.0;
    }
    Some(value * 2f64.powi(exponent))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers() {
        assert_eq!(parse_int("0x1F"), Ok(31));
        assert_eq!(parse_int("017"), Ok(15));
        assert_eq!(parse_int("0b101"), Ok(5));
        assert_eq!(parse_int("0"), Ok(0));
        assert!(parse_int("99999999999999999999999").is_err());
    }

    #[test]
    fn chars_and_strings() {
        assert_eq!(parse_char("'a'"), Ok(97));
        assert_eq!(parse_char("'\\n'"), Ok(10));
        assert_eq!(parse_char("'\\x41'"), Ok(65));
        assert_eq!(parse_char("'\\101'"), Ok(65));
        assert_eq!(parse_string("\"a\\tb\\\"\""), Ok(b"a\tb\"".to_vec()));
    }

    #[test]
    fn floats() {
        assert_eq!(parse_float("1.5e3"), Ok(1500.0));
        assert_eq!(parse_float(".5"), Ok(0.5));
        assert_eq!(parse_float("0x1.8p1"), Ok(3.0));
        assert_eq!(parse_float("2.5h"), Ok(2.5));
        assert_eq!(parse_float("1.5e"), Ok(1.5));
    }
}
