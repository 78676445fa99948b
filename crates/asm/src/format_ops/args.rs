//! `.arg` of the AMD OpenCL formats (1.2 and 2.0).

use gcn_formats::args::{access, ArgType, KernelArg, PtrSpace};
use gcn_syntax::ast::{self, AstNode};
use gcn_syntax::{SyntaxKind, SyntaxToken, TextRange};

use super::stmt::expr_value;
use super::{Host, Stmt};

fn tokens(arg: &ast::Arg) -> Vec<SyntaxToken> {
    arg.raw_tokens().collect()
}

/// The value of `arg`, an id at most `max` (`what` names it); `None` after an error.
fn bounded_id(
    h: &mut dyn Host,
    arg: &ast::Arg,
    range: TextRange,
    what: &str,
    max: u64,
) -> Option<u64> {
    let v = expr_value(h, arg)? as u64;
    if v > max {
        h.error_at(range, format!("{what} out of range (0-{max})"));
        return None;
    }
    Some(v)
}

/// Parses `.arg NAME[, "TYPENAME"], TYPE[*] …`; reports errors and returns `None` on
/// one. `cl20` selects AMD OpenCL 2.0's variant.
pub(crate) fn parse_arg(
    h: &mut dyn Host,
    st: &Stmt,
    names: &std::collections::HashSet<String>,
    cl20: bool,
) -> Option<KernelArg> {
    let args = st.args;
    let mut good = true;
    let err = |h: &mut dyn Host, range, m: &str| h.error_at(range, m.to_string());
    // Name.
    let name = match args.first().map(tokens).as_deref() {
        Some([t]) if t.kind() == SyntaxKind::NAME => t.text().to_string(),
        _ => {
            err(h, st.arg_range(0), "expected argument name");
            return None;
        }
    };
    if names.contains(&name) {
        err(
            h,
            st.arg_range(0),
            &format!("kernel argument `{name}` is already defined"),
        );
        good = false;
    }
    let mut i = 1;
    if args.len() <= i {
        err(h, st.arg_range(i), "expected `,` before argument");
        return None;
    }
    // Type name.
    let mut type_name = None;
    if let [t] = tokens(&args[i]).as_slice() {
        if t.kind() == SyntaxKind::STRING {
            match crate::literals::parse_string(t.text()) {
                Ok(b) => type_name = Some(crate::encoding::bytes_to_text(&b)),
                Err(m) => {
                    err(h, t.text_range(), &m);
                    good = false;
                }
            }
            i += 1;
            if args.len() <= i {
                err(h, st.arg_range(i), "expected `,` before argument");
                return None;
            }
        }
    }
    // Type.
    let type_range = args[i].syntax().text_range();
    let toks = tokens(&args[i]);
    let (arg_type, pointer) = match toks.as_slice() {
        [t] if t.kind() == SyntaxKind::NAME => {
            (ArgType::from_name(&t.text().to_ascii_lowercase()), false)
        }
        [t, s] if t.kind() == SyntaxKind::NAME && s.kind() == SyntaxKind::STAR => {
            (ArgType::from_name(&t.text().to_ascii_lowercase()), true)
        }
        _ => (None, false),
    };
    let Some(arg_type) = arg_type.filter(|t| cl20 || !t.is_cl2_only()) else {
        err(h, type_range, "unknown argument type");
        return None;
    };
    if !pointer && arg_type == ArgType::Counter64 {
        err(h, type_range, "unsupported counter64 type");
        good = false;
    }
    if pointer
        && (arg_type.is_image()
            || matches!(
                arg_type,
                ArgType::Sampler | ArgType::Pointer | ArgType::Counter32 | ArgType::Counter64
            ))
    {
        err(h, type_range, "illegal pointer type");
        good = false;
    }
    let type_name = type_name.unwrap_or_else(|| {
        let mut n = arg_type.default_type_name().to_string();
        if pointer {
            n.push('*');
        }
        n
    });
    i += 1;
    let mut ptr_space = PtrSpace::None;
    let mut ptr_access = 0u8;
    let mut struct_size = 0u64;
    let mut const_space_size = 0u64;
    let mut res_id: Option<u64> = None;
    let mut used: u8 = if cl20 { 3 } else { 1 };
    let mut have_last = false;
    let value = |h: &mut dyn Host, arg: &ast::Arg| -> Option<i64> { expr_value(h, arg) };
    let present = |i: usize| args.get(i).is_some_and(|a| !a.is_empty());

    if pointer {
        if arg_type == ArgType::Structure {
            if args.len() <= i || !present(i) {
                err(h, st.arg_range(i), "expected structure size");
                return None;
            }
            match value(h, &args[i]) {
                Some(v) => struct_size = v as u64,
                None => good = false,
            }
            i += 1;
        }
        // Pointer space.
        let space_range = st.arg_range(i);
        match args.get(i).map(tokens).as_deref() {
            Some([t]) if t.kind() == SyntaxKind::NAME => {
                match t.text().to_ascii_lowercase().as_str() {
                    "local" => ptr_space = PtrSpace::Local,
                    "global" => ptr_space = PtrSpace::Global,
                    "constant" => ptr_space = PtrSpace::Constant,
                    _ => {
                        err(h, space_range, "unknown pointer space");
                        good = false;
                    }
                }
            }
            Some(_) => {
                err(h, space_range, "unknown pointer space");
                good = false;
            }
            None => {
                err(h, space_range, "expected pointer space");
                return None;
            }
        }
        i += 1;
        if i < args.len() {
            for t in tokens(&args[i]) {
                let q = if t.kind() == SyntaxKind::NAME {
                    t.text().to_ascii_lowercase()
                } else {
                    String::new()
                };
                match q.as_str() {
                    "const" => ptr_access |= access::CONST,
                    "restrict" => ptr_access |= access::RESTRICT,
                    "volatile" => ptr_access |= access::VOLATILE,
                    _ => {
                        err(h, t.text_range(), "unknown access qualifier");
                        good = false;
                    }
                }
            }
            i += 1;
            let mut have_prev = false;
            if ptr_space == PtrSpace::Constant && !cl20 {
                if i < args.len() {
                    if present(i) {
                        match value(h, &args[i]) {
                            Some(v) => const_space_size = v as u64,
                            None => good = false,
                        }
                    }
                    i += 1;
                    have_prev = true;
                }
            } else {
                have_prev = true;
            }
            if have_prev && ptr_space != PtrSpace::Local && !cl20 {
                if i < args.len() {
                    have_last = true;
                    if present(i) {
                        let max = if ptr_space == PtrSpace::Constant {
                            159
                        } else {
                            1023
                        };
                        let range = args[i].syntax().text_range();
                        res_id = bounded_id(h, &args[i], range, "UAV id", max);
                        good &= res_id.is_some();
                    }
                    i += 1;
                }
            } else {
                have_last = have_prev;
            }
        }
    } else if arg_type.is_image() {
        ptr_space = PtrSpace::Global;
        ptr_access = access::READ_ONLY;
        if i < args.len() {
            let range = args[i].syntax().text_range();
            match tokens(&args[i]).as_slice() {
                [] => {}
                [t] if t.kind() == SyntaxKind::NAME => match t.text() {
                    "read_only" | "rdonly" => ptr_access = access::READ_ONLY,
                    "write_only" | "wronly" => ptr_access = access::WRITE_ONLY,
                    "read_write" | "rdwr" if cl20 => ptr_access = access::READ_WRITE,
                    _ => {
                        err(h, range, "unknown access qualifier");
                        good = false;
                    }
                },
                _ => {
                    err(h, range, "unknown access qualifier");
                    good = false;
                }
            }
            i += 1;
            if i < args.len() {
                have_last = true;
                if present(i) {
                    let max = if ptr_access == access::READ_ONLY {
                        127
                    } else if cl20 {
                        63
                    } else {
                        7
                    };
                    let range = args[i].syntax().text_range();
                    res_id = bounded_id(h, &args[i], range, "resource id", max);
                    good &= res_id.is_some();
                }
                i += 1;
            }
        }
    } else if (!cl20 && arg_type == ArgType::Counter32) || (cl20 && arg_type == ArgType::Sampler) {
        if i < args.len() {
            have_last = true;
            let range = st.arg_range(i);
            if !present(i) {
                err(h, range, "expected an expression");
                good = false;
            } else {
                let (what, max) = if cl20 {
                    ("sampler id", 15)
                } else {
                    ("resource id", 7)
                };
                res_id = bounded_id(h, &args[i], range, what, max);
                good &= res_id.is_some();
            }
            i += 1;
        }
    } else if arg_type == ArgType::Structure {
        if i >= args.len() || !present(i) {
            err(h, st.arg_range(i), "expected structure size");
            return None;
        }
        match value(h, &args[i]) {
            Some(v) => struct_size = v as u64,
            None => good = false,
        }
        i += 1;
        have_last = true;
    } else {
        have_last = true;
    }
    if have_last && i < args.len() {
        let range = args[i].syntax().text_range();
        match tokens(&args[i]).as_slice() {
            [t] if t.kind() == SyntaxKind::NAME => match t.text().to_ascii_lowercase().as_str() {
                "unused" => used = 0,
                "rdonly" if cl20 => used = 1,
                "wronly" if cl20 => used = 2,
                _ => {
                    err(h, range, "this is not the `unused` specifier");
                    good = false;
                }
            },
            _ => {
                err(h, range, "expected the `unused` specifier");
                good = false;
            }
        }
        i += 1;
    }
    if i < args.len() {
        err(h, args[i].syntax().text_range(), "garbage at end of line");
        good = false;
    }
    if !good {
        return None;
    }
    let (arg_type, pointer_type) = if pointer {
        (ArgType::Pointer, arg_type)
    } else {
        (arg_type, ArgType::Void)
    };
    Some(KernelArg {
        name,
        type_name,
        arg_type,
        pointer_type,
        ptr_space,
        ptr_access,
        struct_size: struct_size as u32,
        const_space_size,
        res_id: res_id.map(|v| v as u32),
        used,
    })
}
