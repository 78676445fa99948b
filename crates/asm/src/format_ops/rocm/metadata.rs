//! ROCm kernel metadata (`.md_version`, `.arg`, `.md_language`, `.printf`, …) and the
//! YAML text the reference puts in the binary's metadata note for it.
//!
//! The text is generated as CLRX 0.1.9 writes it, byte for byte: its length decides where
//! the global data lies in the binary (the note comes first in the new binary format),
//! hence the values of expressions between code and global data.

use std::collections::HashSet;

/// What an argument holds (`ValueKind`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValueKind {
    ByValue,
    GlobalBuffer,
    DynSharedPtr,
    Sampler,
    Image,
    Pipe,
    Queue,
    HiddenGlobalOffsetX,
    HiddenGlobalOffsetY,
    HiddenGlobalOffsetZ,
    HiddenNone,
    HiddenPrintfBuffer,
    HiddenDefaultQueue,
    HiddenCompletionAction,
    HiddenMultiGridSyncArg,
}

impl ValueKind {
    /// The kind a `.arg` names. As in the reference, `globaloffsety` and `globaloffsetz`
    /// are the X offset.
    pub fn from_name(name: &str) -> Option<ValueKind> {
        use ValueKind::*;
        Some(match name {
            "complact" => HiddenCompletionAction,
            "defqueue" => HiddenDefaultQueue,
            "dynshptr" => DynSharedPtr,
            "globalbuf" => GlobalBuffer,
            "globaloffsetx" | "globaloffsety" | "globaloffsetz" | "gox" => HiddenGlobalOffsetX,
            "goy" => HiddenGlobalOffsetY,
            "goz" => HiddenGlobalOffsetZ,
            "image" => Image,
            "multigridsyncarg" => HiddenMultiGridSyncArg,
            "none" => HiddenNone,
            "pipe" => Pipe,
            "printfbuf" => HiddenPrintfBuffer,
            "queue" => Queue,
            "sampler" => Sampler,
            "value" => ByValue,
            _ => return None,
        })
    }

    fn yaml(self) -> &'static str {
        use ValueKind::*;
        match self {
            ByValue => "ByValue",
            GlobalBuffer => "GlobalBuffer",
            DynSharedPtr => "DynamicSharedPointer",
            Sampler => "Sampler",
            Image => "Image",
            Pipe => "Pipe",
            Queue => "Queue",
            HiddenGlobalOffsetX => "HiddenGlobalOffsetX",
            HiddenGlobalOffsetY => "HiddenGlobalOffsetY",
            HiddenGlobalOffsetZ => "HiddenGlobalOffsetZ",
            HiddenNone => "HiddenNone",
            HiddenPrintfBuffer => "HiddenPrintfBuffer",
            HiddenDefaultQueue => "HiddenDefaultQueue",
            HiddenCompletionAction => "HiddenCompletionAction",
            HiddenMultiGridSyncArg => "HiddenMultiGridSyncArg",
        }
    }

    /// The name in the v3 (MessagePack) metadata.
    pub fn v3(self) -> &'static str {
        use ValueKind::*;
        match self {
            ByValue => "by_value",
            GlobalBuffer => "global_buffer",
            DynSharedPtr => "dynamic_shared_pointer",
            Sampler => "sampler",
            Image => "image",
            Pipe => "pipe",
            Queue => "queue",
            HiddenGlobalOffsetX => "hidden_global_offset_x",
            HiddenGlobalOffsetY => "hidden_global_offset_y",
            HiddenGlobalOffsetZ => "hidden_global_offset_z",
            HiddenNone => "hidden_none",
            HiddenPrintfBuffer => "hidden_printf_buffer",
            HiddenDefaultQueue => "hidden_default_queue",
            HiddenCompletionAction => "hidden_completion_action",
            HiddenMultiGridSyncArg => "hidden_multigrid_sync_arg",
        }
    }
}

/// The type of an argument's value (`ValueType`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValueType {
    Struct,
    I8,
    U8,
    I16,
    U16,
    F16,
    I32,
    U32,
    F32,
    I64,
    U64,
    F64,
}

impl ValueType {
    /// The type a `.arg` names. As in the reference, `ushort` is `I16`.
    pub fn from_name(name: &str) -> Option<ValueType> {
        use ValueType::*;
        Some(match name {
            "char" | "i8" => I8,
            "double" | "f64" => F64,
            "f16" | "half" => F16,
            "f32" | "float" => F32,
            "i16" | "short" | "ushort" => I16,
            "i32" | "int" => I32,
            "i64" | "long" => I64,
            "struct" => Struct,
            "u16" => U16,
            "u32" | "uint" => U32,
            "u64" | "ulong" => U64,
            "u8" | "uchar" => U8,
            _ => return None,
        })
    }

    fn yaml(self) -> &'static str {
        use ValueType::*;
        match self {
            Struct => "Struct",
            I8 => "I8",
            U8 => "U8",
            I16 => "I16",
            U16 => "U16",
            F16 => "F16",
            I32 => "I32",
            U32 => "U32",
            F32 => "F32",
            I64 => "I64",
            U64 => "U64",
            F64 => "F64",
        }
    }

    /// The name in the v3 (MessagePack) metadata.
    pub fn v3(self) -> &'static str {
        use ValueType::*;
        match self {
            Struct => "struct",
            I8 => "i8",
            U8 => "u8",
            I16 => "i16",
            U16 => "u16",
            F16 => "f16",
            I32 => "i32",
            U32 => "u32",
            F32 => "f32",
            I64 => "i64",
            U64 => "u64",
            F64 => "f64",
        }
    }
}

/// The address space of a pointer argument.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AddressSpace {
    Private,
    Global,
    Constant,
    Local,
    Generic,
    Region,
}

impl AddressSpace {
    pub fn from_name(name: &str) -> Option<AddressSpace> {
        use AddressSpace::*;
        Some(match name {
            "constant" => Constant,
            "generic" => Generic,
            "global" => Global,
            "local" => Local,
            "private" => Private,
            "region" => Region,
            _ => return None,
        })
    }

    fn yaml(self) -> &'static str {
        use AddressSpace::*;
        match self {
            Private => "Private",
            Global => "Global",
            Constant => "Constant",
            Local => "Local",
            Generic => "Generic",
            Region => "Region",
        }
    }

    /// The name in the v3 (MessagePack) metadata.
    pub fn v3(self) -> &'static str {
        use AddressSpace::*;
        match self {
            Private => "private",
            Global => "global",
            Constant => "constant",
            Local => "local",
            Generic => "generic",
            Region => "region",
        }
    }
}

/// An access qualifier of an image, pipe or buffer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum AccessQual {
    #[default]
    Default,
    ReadOnly,
    WriteOnly,
    ReadWrite,
}

impl AccessQual {
    pub fn from_name(name: &str) -> Option<AccessQual> {
        use AccessQual::*;
        Some(match name {
            "default" => Default,
            "rdonly" | "read_only" => ReadOnly,
            "rdwr" | "read_write" => ReadWrite,
            "wronly" | "write_only" => WriteOnly,
            _ => return None,
        })
    }

    fn yaml(self) -> &'static str {
        use AccessQual::*;
        match self {
            Default => "Default",
            ReadOnly => "ReadOnly",
            WriteOnly => "WriteOnly",
            ReadWrite => "ReadWrite",
        }
    }

    /// The name in the v3 (MessagePack) metadata (none for the default).
    pub fn v3(self) -> Option<&'static str> {
        use AccessQual::*;
        match self {
            Default => None,
            ReadOnly => Some("read_only"),
            WriteOnly => Some("write_only"),
            ReadWrite => Some("read_write"),
        }
    }
}

/// A kernel argument (`.arg`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KernelArg {
    pub name: String,
    pub type_name: String,
    pub size: u64,
    /// The alignment (the YAML metadata's `Align`).
    pub align: u64,
    /// The offset in the argument segment (the v3 metadata's `.offset`; given in its
    /// place of `.arg` in the LLVM 10 binary format).
    pub offset: u64,
    pub pointee_align: u64,
    pub kind: ValueKind,
    pub value_type: ValueType,
    /// For global buffers and dynamic shared pointers.
    pub address_space: Option<AddressSpace>,
    pub access: AccessQual,
    pub actual_access: AccessQual,
    pub is_const: bool,
    pub is_restrict: bool,
    pub is_volatile: bool,
    pub is_pipe: bool,
}

#[cfg(test)]
impl KernelArg {
    /// An argument without address space, qualifiers, flags, alignment or offset.
    pub fn plain(
        name: &str,
        type_name: &str,
        size: u64,
        kind: ValueKind,
        value_type: ValueType,
    ) -> KernelArg {
        KernelArg {
            name: name.into(),
            type_name: type_name.into(),
            size,
            align: 0,
            offset: 0,
            pointee_align: 0,
            kind,
            value_type,
            address_space: None,
            access: AccessQual::Default,
            actual_access: AccessQual::Default,
            is_const: false,
            is_restrict: false,
            is_volatile: false,
            is_pipe: false,
        }
    }
}

/// A `.printf` entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PrintfInfo {
    /// `None`: the first id no other entry uses.
    pub id: Option<u32>,
    pub arg_sizes: Vec<u32>,
    pub format: Vec<u8>,
}

/// One kernel's metadata: what the pseudo-ops set (`None`: not given).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct KernelMetadata {
    pub symbol_name: Option<String>,
    pub language: String,
    pub language_version: Option<(u32, u32)>,
    /// Work group sizes: all zeros when not given.
    pub reqd_work_group_size: [u32; 3],
    pub work_group_size_hint: [u32; 3],
    pub fixed_work_group_size: [u32; 3],
    pub vec_type_hint: String,
    pub runtime_handle: String,
    pub args: Vec<KernelArg>,
    pub kernarg_segment_size: Option<u64>,
    pub kernarg_segment_align: Option<u64>,
    pub group_segment_fixed_size: Option<u64>,
    pub private_segment_fixed_size: Option<u64>,
    pub wavefront_size: Option<u32>,
    pub sgprs: Option<u32>,
    pub vgprs: Option<u32>,
    pub spilled_sgprs: Option<u32>,
    pub spilled_vgprs: Option<u32>,
    pub max_flat_work_group_size: Option<u64>,
}

/// The metadata of the binary.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Metadata {
    /// `.md_version`.
    pub version: Option<(u32, u32)>,
    pub printfs: Vec<PrintfInfo>,
}

/// The values of a kernel's descriptor the metadata repeats when not given.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DescriptorValues {
    pub kernarg_segment_size: u64,
    pub group_segment_size: u32,
    pub private_segment_size: u32,
    /// log2 of the alignment and of the wavefront size, as stored.
    pub kernarg_segment_align: u8,
    pub wavefront_size: u8,
    pub sgprs: u16,
    pub vgprs: u16,
}

impl DescriptorValues {
    /// The values of a 256-byte descriptor (`amd_kernel_code_t`).
    pub fn of_descriptor(d: &[u8]) -> DescriptorValues {
        let u16_at = |o: usize| u16::from_le_bytes([d[o], d[o + 1]]);
        let u32_at = |o: usize| u32::from_le_bytes(d[o..o + 4].try_into().unwrap());
        DescriptorValues {
            kernarg_segment_size: u64::from_le_bytes(d[72..80].try_into().unwrap()),
            group_segment_size: u32_at(64),
            private_segment_size: u32_at(60),
            kernarg_segment_align: d[100],
            wavefront_size: d[103],
            sgprs: u16_at(84),
            vgprs: u16_at(86),
        }
    }
}

/// The kernel argument segment's size for these arguments: each at its alignment, the
/// whole rounded up to 16 bytes.
pub fn kernel_arg_size(args: &[KernelArg]) -> u64 {
    let mut size = 0u64;
    for a in args {
        let align = a.align.max(1);
        size = (size + align - 1) & !(align - 1);
        size += a.size;
    }
    (size + 15) & !15
}

/// The reference's C-style escaping of a string (`\n`, `\\`, `\"`, octal codes).
fn escape_c(bytes: &[u8]) -> String {
    let mut out = String::new();
    for (i, &c) in bytes.iter().enumerate() {
        match c {
            b'\x07' => out.push_str("\\a"),
            b'\x08' => out.push_str("\\b"),
            b'\t' => out.push_str("\\t"),
            b'\n' => out.push_str("\\n"),
            b'\x0b' => out.push_str("\\v"),
            b'\x0c' => out.push_str("\\f"),
            b'\r' => out.push_str("\\r"),
            b'\\' => out.push_str("\\\\"),
            b'"' => out.push_str("\\\""),
            b'\'' => out.push_str("\\'"),
            0x20..=0x7e => out.push(c as char),
            _ => {
                // Three octal digits when a digit follows, as few as needed otherwise.
                let next_digit = bytes.get(i + 1).is_some_and(|n| n.is_ascii_digit());
                if next_digit || c >= 0o100 {
                    out.push_str(&format!("\\{c:03o}"));
                } else {
                    out.push_str(&format!("\\{c:o}"));
                }
            }
        }
    }
    out
}

/// A YAML scalar: quoted (and escaped) when it holds special characters, starts with a
/// space or a digit, or ends with a space.
fn yaml_string(s: &str) -> String {
    let b = s.as_bytes();
    let special = b
        .iter()
        .any(|&c| !(0x20..0x80).contains(&c) || b"*&!@'\"".contains(&c));
    let edges = b
        .first()
        .is_some_and(|c| c.is_ascii_whitespace() || c.is_ascii_digit())
        || b.last().is_some_and(|c| c.is_ascii_whitespace());
    if special || edges {
        format!("'{}'", escape_c(b))
    } else {
        s.to_string()
    }
}

fn array(values: &[u32]) -> String {
    let items: Vec<String> = values.iter().map(|v| v.to_string()).collect();
    format!("[ {} ]\n", items.join(", "))
}

/// The ids of the `.printf` entries: their own, or for those without one the smallest
/// id no entry uses and no earlier one took.
pub fn printf_ids(printfs: &[PrintfInfo]) -> Result<Vec<u32>, String> {
    let mut used = HashSet::new();
    for p in printfs {
        if let Some(id) = p.id {
            if !used.insert(id) {
                return Err(format!("printf id {id} is used twice"));
            }
        }
    }
    let mut free = 1u32;
    let mut ids = Vec::with_capacity(printfs.len());
    for p in printfs {
        ids.push(match p.id {
            Some(id) => id,
            None => {
                while used.contains(&free) {
                    free += 1;
                }
                free += 1;
                free - 1
            }
        });
    }
    Ok(ids)
}

/// The metadata YAML. `kernels`: each kernel's name, metadata and descriptor values.
pub fn yaml(
    md: &Metadata,
    kernels: &[(&str, &KernelMetadata, DescriptorValues)],
) -> Result<String, String> {
    let mut out = String::from("---\n");
    let (major, minor) = md.version.unwrap_or((1, 0));
    out += "Version:         ";
    out += &array(&[major, minor]);
    if !md.printfs.is_empty() {
        out += "Printf:          \n";
    }
    for (p, id) in md.printfs.iter().zip(printf_ids(&md.printfs)?) {
        out += &format!("  - '{id}:{}:", p.arg_sizes.len());
        for size in &p.arg_sizes {
            out += &format!("{size}:");
        }
        out += &escape_c(&p.format).replace(':', "\\72");
        out += "'\n";
    }
    if !kernels.is_empty() {
        out += "Kernels:         \n";
    }
    for &(name, k, d) in kernels {
        out += "  - Name:            ";
        out += name;
        out += "\n    SymbolName:      ";
        out += &yaml_string(
            &k.symbol_name
                .clone()
                .unwrap_or_else(|| format!("{name}@kd")),
        );
        out += "\n";
        if !k.language.is_empty() {
            out += "    Language:        ";
            out += &yaml_string(&k.language);
            out += "\n";
        }
        if let Some((major, minor)) = k.language_version {
            out += "    LanguageVersion: ";
            out += &array(&[major, minor]);
        }
        let set = |v: &[u32; 3]| v.iter().any(|&x| x != 0);
        if set(&k.reqd_work_group_size)
            || set(&k.work_group_size_hint)
            || !k.vec_type_hint.is_empty()
            || !k.runtime_handle.is_empty()
        {
            out += "    Attrs:           \n";
            if set(&k.work_group_size_hint) {
                out += "      WorkGroupSizeHint: ";
                out += &array(&k.work_group_size_hint);
            }
            if set(&k.reqd_work_group_size) {
                out += "      ReqdWorkGroupSize: ";
                out += &array(&k.reqd_work_group_size);
            }
            if !k.vec_type_hint.is_empty() {
                out += "      VecTypeHint:     ";
                out += &yaml_string(&k.vec_type_hint);
                out += "\n";
            }
            if !k.runtime_handle.is_empty() {
                out += "      RuntimeHandle:   ";
                out += &yaml_string(&k.runtime_handle);
                out += "\n";
            }
        }
        if !k.args.is_empty() {
            out += "    Args:            \n";
        }
        for a in &k.args {
            out += "      - ";
            if !a.name.is_empty() {
                out += "Name:            ";
                out += &yaml_string(&a.name);
                out += "\n        ";
            }
            if !a.type_name.is_empty() {
                out += "TypeName:        ";
                out += &yaml_string(&a.type_name);
                out += "\n        ";
            }
            out += &format!(
                "Size:            {}\n        Align:           {}\n",
                a.size, a.align
            );
            out += &format!("        ValueKind:       {}\n", a.kind.yaml());
            out += &format!("        ValueType:       {}\n", a.value_type.yaml());
            if a.kind == ValueKind::DynSharedPtr {
                out += &format!("        PointeeAlign:    {}\n", a.pointee_align);
            }
            if matches!(a.kind, ValueKind::DynSharedPtr | ValueKind::GlobalBuffer) {
                let space = a.address_space.ok_or("an argument has no address space")?;
                out += &format!("        AddrSpaceQual:   {}\n", space.yaml());
            }
            if matches!(a.kind, ValueKind::Image | ValueKind::Pipe) {
                out += &format!("        AccQual:         {}\n", a.access.yaml());
            }
            if matches!(
                a.kind,
                ValueKind::GlobalBuffer | ValueKind::Image | ValueKind::Pipe
            ) {
                out += &format!("        ActualAccQual:   {}\n", a.actual_access.yaml());
            }
            for (on, what) in [
                (a.is_const, "IsConst:         true\n"),
                (a.is_restrict, "IsRestrict:      true\n"),
                (a.is_volatile, "IsVolatile:      true\n"),
                (a.is_pipe, "IsPipe:          true\n"),
            ] {
                if on {
                    out += "        ";
                    out += what;
                }
            }
        }
        out += "    CodeProps:       \n";
        out += &format!(
            "      KernargSegmentSize: {}\n",
            k.kernarg_segment_size.unwrap_or(d.kernarg_segment_size)
        );
        out += &format!(
            "      GroupSegmentFixedSize: {}\n",
            k.group_segment_fixed_size
                .unwrap_or(u64::from(d.group_segment_size))
        );
        out += &format!(
            "      PrivateSegmentFixedSize: {}\n",
            k.private_segment_fixed_size
                .unwrap_or(u64::from(d.private_segment_size))
        );
        // As in the reference, the descriptor's alignment is written as stored (log2).
        out += &format!(
            "      KernargSegmentAlign: {}\n",
            k.kernarg_segment_align
                .unwrap_or(u64::from(d.kernarg_segment_align))
        );
        let wavefront = k
            .wavefront_size
            .unwrap_or_else(|| 1u32.checked_shl(u32::from(d.wavefront_size)).unwrap_or(0));
        out += &format!("      WavefrontSize:   {wavefront}\n");
        out += &format!(
            "      NumSGPRs:        {}\n",
            k.sgprs.unwrap_or(u32::from(d.sgprs))
        );
        out += &format!(
            "      NumVGPRs:        {}\n",
            k.vgprs.unwrap_or(u32::from(d.vgprs))
        );
        if let Some(n) = k.spilled_sgprs {
            out += &format!("      NumSpilledSGPRs: {n}\n");
        }
        if let Some(n) = k.spilled_vgprs {
            out += &format!("      NumSpilledVGPRs: {n}\n");
        }
        out += &format!(
            "      MaxFlatWorkGroupSize: {}\n",
            k.max_flat_work_group_size.unwrap_or(256)
        );
        if set(&k.fixed_work_group_size) {
            out += "      FixedWorkGroupSize:   ";
            out += &array(&k.fixed_work_group_size);
        }
    }
    out += "...\n";
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn arg(
        name: &str,
        type_name: &str,
        size: u64,
        align: u64,
        kind: ValueKind,
        value_type: ValueType,
    ) -> KernelArg {
        KernelArg {
            align,
            ..KernelArg::plain(name, type_name, size, kind, value_type)
        }
    }

    #[test]
    fn vector_add_metadata_as_the_reference_writes_it() {
        // The metadata note of the reference's binary for this kernel (conformance case
        // binaries/rocm-fmt09), byte for byte.
        let want = "---\nVersion:         [ 1, 0 ]\nKernels:         \n  - Name:            vectorAdd\n    SymbolName:      'vectorAdd@kd'\n    Language:        OpenCL\n    LanguageVersion: [ 1, 2 ]\n    Args:            \n      - Name:            n\n        TypeName:        uint\n        Size:            4\n        Align:           4\n        ValueKind:       ByValue\n        ValueType:       U32\n      - Name:            a\n        TypeName:        'float*'\n        Size:            8\n        Align:           8\n        ValueKind:       GlobalBuffer\n        ValueType:       F32\n        AddrSpaceQual:   Global\n        ActualAccQual:   Default\n        IsConst:         true\n      - Size:            8\n        Align:           8\n        ValueKind:       HiddenGlobalOffsetX\n        ValueType:       I64\n    CodeProps:       \n      KernargSegmentSize: 64\n      GroupSegmentFixedSize: 0\n      PrivateSegmentFixedSize: 0\n      KernargSegmentAlign: 4\n      WavefrontSize:   64\n      NumSGPRs:        11\n      NumVGPRs:        1\n      MaxFlatWorkGroupSize: 256\n...\n";
        let mut a = arg("a", "float*", 8, 8, ValueKind::GlobalBuffer, ValueType::F32);
        a.address_space = Some(AddressSpace::Global);
        a.is_const = true;
        let k = KernelMetadata {
            language: "OpenCL".into(),
            language_version: Some((1, 2)),
            args: vec![
                arg("n", "uint", 4, 4, ValueKind::ByValue, ValueType::U32),
                a,
                arg("", "", 8, 8, ValueKind::HiddenGlobalOffsetX, ValueType::I64),
            ],
            ..Default::default()
        };
        let d = DescriptorValues {
            kernarg_segment_size: 64,
            kernarg_segment_align: 4,
            wavefront_size: 6,
            sgprs: 11,
            vgprs: 1,
            ..Default::default()
        };
        let md = Metadata {
            version: Some((1, 0)),
            printfs: Vec::new(),
        };
        assert_eq!(yaml(&md, &[("vectorAdd", &k, d)]).unwrap(), want);
    }

    #[test]
    fn printf_ids_and_escapes() {
        let md = Metadata {
            version: Some((3, 5)),
            printfs: vec![
                PrintfInfo {
                    id: Some(1),
                    arg_sizes: vec![5, 7, 2, 11],
                    format: b"sometext %d %e %f".to_vec(),
                },
                PrintfInfo {
                    id: Some(2),
                    arg_sizes: vec![],
                    format: b"a:b\n".to_vec(),
                },
                PrintfInfo {
                    id: None,
                    arg_sizes: vec![16],
                    format: b"x".to_vec(),
                },
            ],
        };
        let text = yaml(&md, &[]).unwrap();
        assert_eq!(
            text,
            "---\nVersion:         [ 3, 5 ]\nPrintf:          \n  - '1:4:5:7:2:11:sometext %d %e %f'\n  - '2:0:a\\72b\\n'\n  - '3:1:16:x'\n...\n"
        );
    }

    #[test]
    fn argument_segment_size() {
        let args = [
            arg("n", "uint", 4, 4, ValueKind::ByValue, ValueType::U32),
            arg("a", "float*", 8, 8, ValueKind::GlobalBuffer, ValueType::F32),
            arg("", "", 8, 8, ValueKind::HiddenGlobalOffsetZ, ValueType::I64),
        ];
        // 4, padding to 8, 8, 8 = 24, rounded to 32.
        assert_eq!(kernel_arg_size(&args), 32);
    }
}
