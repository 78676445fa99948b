//! The v3 ROCm metadata (`.metadatav3`): the MessagePack map the reference puts in the
//! `NT_AMDGPU_METADATA` note of the LLVM 10 binary format, made from the same pseudo-ops
//! as the YAML one ([`super::metadata`]).
//!
//! Keys, their order and which of them appear follow the reference's generator
//! (`generateROCmMetadataMsgPack`): the top map holds `amdhsa.kernels`, `amdhsa.printf`
//! (when there are `.printf` entries) and `amdhsa.version`; each kernel map its keys in
//! alphabetical order, the optional ones only when set; each argument map likewise, with
//! `.offset` where the YAML has `Align`. The group and private segment sizes, when not
//! given, are those of the kernel's 64-byte descriptor.
//!
//! The reference's generator writes the other values as the assembler hands them over;
//! what its assembler puts there when the source leaves them out is not known here, so
//! they must be given (see [`REQUIRED`]).

use gcn_formats::rocm_msgpack::{encode, Value};

use super::metadata::{printf_ids, KernelArg, KernelMetadata, Metadata};
use gcn_formats::rocm::KernelDescriptor;

/// The pseudo-ops whose values a kernel's v3 metadata needs from the source, in the order
/// they are checked.
pub const REQUIRED: [&str; 9] = [
    ".md_symname",
    ".md_kernarg_segment_size",
    ".md_kernarg_segment_align",
    ".max_flat_work_group_size",
    ".md_sgprsnum",
    ".spilledsgprs",
    ".md_vgprsnum",
    ".spilledvgprs",
    ".md_wavefront_size",
];

/// The pseudo-ops of [`REQUIRED`] the kernel's metadata lacks, in order.
pub fn missing_values(k: &KernelMetadata) -> Vec<&'static str> {
    let given = [
        k.symbol_name.is_some(),
        k.kernarg_segment_size.is_some(),
        k.kernarg_segment_align.is_some(),
        k.max_flat_work_group_size.is_some(),
        k.sgprs.is_some(),
        k.spilled_sgprs.is_some(),
        k.vgprs.is_some(),
        k.spilled_vgprs.is_some(),
        k.wavefront_size.is_some(),
    ];
    REQUIRED
        .iter()
        .zip(given)
        .filter(|(_, g)| !g)
        .map(|(name, _)| *name)
        .collect()
}

/// The v3 metadata. `kernels`: each kernel's name, metadata and descriptor values; each
/// must have the values of [`REQUIRED`].
pub fn msgpack(
    md: &Metadata,
    kernels: &[(&str, &KernelMetadata, KernelDescriptor)],
) -> Result<Vec<u8>, String> {
    let mut kernel_maps = Vec::with_capacity(kernels.len());
    for &(name, k, d) in kernels {
        kernel_maps.push(kernel(name, k, d)?);
    }
    let mut top = vec![("amdhsa.kernels".to_string(), Value::Array(kernel_maps))];
    if !md.printfs.is_empty() {
        let ids = printf_ids(&md.printfs)?;
        let printfs = md
            .printfs
            .iter()
            .zip(ids)
            .map(|(p, id)| Value::Str(printf_string(id, &p.arg_sizes, &p.format)))
            .collect();
        top.push(("amdhsa.printf".to_string(), Value::Array(printfs)));
    }
    let (major, minor) = md.version.unwrap_or((1, 0));
    top.push(("amdhsa.version".to_string(), uints(&[major, minor])));
    Ok(encode(&Value::Map(top)))
}

/// `ID:COUNT:SIZE:…:FORMAT`, the format's colons written `\72` (and nothing else
/// escaped, unlike the YAML).
fn printf_string(id: u32, arg_sizes: &[u32], format: &[u8]) -> Vec<u8> {
    let mut out = format!("{id}:{}:", arg_sizes.len()).into_bytes();
    for size in arg_sizes {
        out.extend_from_slice(format!("{size}:").as_bytes());
    }
    for &c in format {
        if c == b':' {
            out.extend_from_slice(b"\\72");
        } else {
            out.push(c);
        }
    }
    out
}

fn uints(values: &[u32]) -> Value {
    Value::Array(values.iter().map(|&v| Value::UInt(u64::from(v))).collect())
}

/// Why a kernel's v3 metadata cannot be made: a value of [`REQUIRED`] is missing.
pub fn missing_message(kernel: &str, pseudo_op: &str) -> String {
    missing_list_message(kernel, &[pseudo_op])
}

/// [`missing_message`] for all the values missing at once.
pub fn missing_list_message(kernel: &str, pseudo_ops: &[&str]) -> String {
    let list = pseudo_ops
        .iter()
        .map(|op| format!("`{op}`"))
        .collect::<Vec<_>>()
        .join(", ");
    let defaults = if pseudo_ops.len() == 1 {
        "its default is"
    } else {
        "their defaults are"
    };
    format!("kernel `{kernel}`: the v3 metadata needs {list} ({defaults} not supported yet)")
}

fn required<T>(value: Option<T>, name: &str, pseudo_op: &str) -> Result<T, String> {
    value.ok_or_else(|| missing_message(name, pseudo_op))
}

/// One kernel's map.
fn kernel(name: &str, k: &KernelMetadata, d: KernelDescriptor) -> Result<Value, String> {
    let symbol = required(k.symbol_name.as_deref(), name, ".md_symname")?;
    let set = |v: &[u32; 3]| v.iter().any(|&x| x != 0);
    let mut m: Vec<(&str, Value)> =
        vec![(".args", Value::Array(k.args.iter().map(argument).collect()))];
    let group = k
        .group_segment_fixed_size
        .unwrap_or(u64::from(d.group_segment_fixed_size));
    m.push((".group_segment_fixed_size", Value::UInt(group)));
    m.push((
        ".kernarg_segment_align",
        Value::UInt(required(
            k.kernarg_segment_align,
            name,
            ".md_kernarg_segment_align",
        )?),
    ));
    m.push((
        ".kernarg_segment_size",
        Value::UInt(required(
            k.kernarg_segment_size,
            name,
            ".md_kernarg_segment_size",
        )?),
    ));
    if !k.language.is_empty() {
        m.push((".language", Value::str(&k.language)));
    }
    if let Some((major, minor)) = k.language_version {
        m.push((".language_version", uints(&[major, minor])));
    }
    let max_flat = required(
        k.max_flat_work_group_size,
        name,
        ".max_flat_work_group_size",
    )?;
    m.push((".max_flat_workgroup_size", Value::UInt(max_flat)));
    m.push((".name", Value::str(name)));
    let private = k
        .private_segment_fixed_size
        .unwrap_or(u64::from(d.private_segment_fixed_size));
    m.push((".private_segment_fixed_size", Value::UInt(private)));
    if set(&k.reqd_work_group_size) {
        m.push((".reqd_workgroup_size", uints(&k.reqd_work_group_size)));
    }
    m.push((
        ".sgpr_count",
        Value::UInt(u64::from(required(k.sgprs, name, ".md_sgprsnum")?)),
    ));
    m.push((
        ".sgpr_spill_count",
        Value::UInt(u64::from(required(k.spilled_sgprs, name, ".spilledsgprs")?)),
    ));
    m.push((".symbol", Value::str(symbol)));
    if !k.vec_type_hint.is_empty() {
        m.push((".vec_type_hint", Value::str(&k.vec_type_hint)));
    }
    m.push((
        ".vgpr_count",
        Value::UInt(u64::from(required(k.vgprs, name, ".md_vgprsnum")?)),
    ));
    m.push((
        ".vgpr_spill_count",
        Value::UInt(u64::from(required(k.spilled_vgprs, name, ".spilledvgprs")?)),
    ));
    m.push((
        ".wavefront_size",
        Value::UInt(u64::from(required(
            k.wavefront_size,
            name,
            ".md_wavefront_size",
        )?)),
    ));
    if set(&k.work_group_size_hint) {
        m.push((".workgroup_size_hint", uints(&k.work_group_size_hint)));
    }
    Ok(map(m))
}

fn map(entries: Vec<(&str, Value)>) -> Value {
    Value::Map(
        entries
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect(),
    )
}

/// One argument's map. The access qualifier is written for images and pipes, the actual
/// one also for global buffers, each only when not the default; the address space for
/// global buffers and dynamic shared pointers.
fn argument(a: &KernelArg) -> Value {
    use super::metadata::ValueKind::*;
    let mut m: Vec<(&str, Value)> = Vec::new();
    if matches!(a.kind, Image | Pipe) {
        if let Some(q) = a.access.v3() {
            m.push((".access", Value::str(q)));
        }
    }
    if matches!(a.kind, GlobalBuffer | Image | Pipe) {
        if let Some(q) = a.actual_access.v3() {
            m.push((".actual_access", Value::str(q)));
        }
    }
    if let (Some(space), GlobalBuffer | DynSharedPtr) = (a.address_space, a.kind) {
        m.push((".address_space", Value::str(space.v3())));
    }
    for (on, key) in [
        (a.is_const, ".is_const"),
        (a.is_pipe, ".is_pipe"),
        (a.is_restrict, ".is_restrict"),
        (a.is_volatile, ".is_volatile"),
    ] {
        if on {
            m.push((key, Value::Bool(true)));
        }
    }
    if !a.name.is_empty() {
        m.push((".name", Value::str(&a.name)));
    }
    m.push((".offset", Value::UInt(a.offset)));
    m.push((".size", Value::UInt(a.size)));
    if a.pointee_align != 0 {
        m.push((".pointee_align", Value::UInt(a.pointee_align)));
    }
    if !a.type_name.is_empty() {
        m.push((".type_name", Value::str(&a.type_name)));
    }
    m.push((".value_kind", Value::str(a.kind.v3())));
    m.push((".value_type", Value::str(a.value_type.v3())));
    map(m)
}

#[cfg(test)]
mod tests {
    use super::super::metadata::{AccessQual, AddressSpace, PrintfInfo, ValueKind, ValueType};
    use super::*;

    /// The bytes of a hex fixture (`#` lines are comments).
    fn hex_fixture(text: &str) -> Vec<u8> {
        let digits: String = text.lines().filter(|l| !l.starts_with('#')).collect();
        (0..digits.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&digits[i..i + 2], 16).unwrap())
            .collect()
    }

    /// The reference's expected bytes without the kernel's `.device_enqueue_symbol`
    /// entry, which no pseudo-op sets: the entry goes and the kernel map (19 entries, a
    /// `map 16`) counts one fewer.
    fn without_device_enqueue_symbol(mut bytes: Vec<u8>) -> Vec<u8> {
        let entry = [b"\xb6.device_enqueue_symbol".as_slice(), b"\xa4abcd"].concat();
        let at = bytes
            .windows(entry.len())
            .position(|w| w == entry.as_slice())
            .expect("the entry");
        bytes.drain(at..at + entry.len());
        let header = bytes
            .windows(3)
            .position(|w| w == [0xde, 0x00, 0x13])
            .expect("the kernel map");
        bytes[header + 2] = 0x12;
        bytes
    }

    struct ArgSpec(&'static str, &'static str, u64, u64, ValueKind, ValueType);

    fn arg(spec: ArgSpec) -> KernelArg {
        let ArgSpec(name, type_name, size, offset, kind, value_type) = spec;
        KernelArg {
            offset,
            ..KernelArg::plain(name, type_name, size, kind, value_type)
        }
    }

    fn buffer(
        name: &'static str,
        type_name: &'static str,
        offset: u64,
        value_type: ValueType,
        space: AddressSpace,
    ) -> KernelArg {
        let mut a = arg(ArgSpec(
            name,
            type_name,
            8,
            offset,
            ValueKind::GlobalBuffer,
            value_type,
        ));
        a.address_space = Some(space);
        a
    }

    fn hidden(offset: u64, kind: ValueKind) -> KernelArg {
        arg(ArgSpec("", "", 8, offset, kind, ValueType::I64))
    }

    /// The kernel values of the reference's two test cases (`None`: from the descriptor).
    fn test_kernel(
        name: &str,
        args: Vec<KernelArg>,
        group: Option<u64>,
        private: Option<u64>,
    ) -> KernelMetadata {
        KernelMetadata {
            symbol_name: Some(format!("{name}.kd")),
            language: "OpenCL C".into(),
            language_version: Some((3, 2)),
            reqd_work_group_size: [6, 9, 17],
            work_group_size_hint: [4, 11, 5],
            vec_type_hint: "int16".into(),
            args,
            kernarg_segment_size: Some(192),
            group_segment_fixed_size: group,
            private_segment_fixed_size: private,
            kernarg_segment_align: Some(16),
            wavefront_size: Some(64),
            sgprs: Some(43),
            vgprs: Some(9),
            max_flat_work_group_size: Some(396),
            spilled_sgprs: Some(5),
            spilled_vgprs: Some(8),
            ..Default::default()
        }
    }

    #[test]
    fn every_argument_kind_as_the_reference_writes_it() {
        use AddressSpace::*;
        use ValueKind::*;
        use ValueType::*;
        let mut args = vec![
            buffer("in0", "int8_t*", 0, I8, Global),
            buffer("in1", "uchar*", 8, U8, Constant),
            buffer("in2", "int16*", 16, I16, Private),
            buffer("in3", "uint16_t*", 24, U16, Local),
            buffer("in3x", "half*", 32, F16, Local),
            buffer("in4", "int32*", 40, I32, Generic),
            buffer("in5", "uint32*", 48, U32, Region),
            arg(ArgSpec("in6", "float*", 8, 56, Queue, F32)),
            arg(ArgSpec("in7", "long*", 8, 64, Pipe, I64)),
            arg(ArgSpec("in8", "image2d_t", 8, 72, Image, U64)),
            arg(ArgSpec("in9", "sampler_t", 8, 80, Sampler, F64)),
            arg(ArgSpec("in10", "struc*", 8, 88, DynSharedPtr, Struct)),
            arg(ArgSpec("n", "int", 4, 96, ByValue, I32)),
            hidden(112, HiddenGlobalOffsetX),
            hidden(120, HiddenGlobalOffsetY),
            hidden(128, HiddenGlobalOffsetZ),
            hidden(136, HiddenPrintfBuffer),
            hidden(144, HiddenDefaultQueue),
            hidden(152, HiddenCompletionAction),
            hidden(160, HiddenMultiGridSyncArg),
            buffer("ix0", "int8_t*", 168, I8, Global),
            buffer("ix1", "int8_t*", 176, I8, Global),
        ];
        for i in [0, 3, 4, 5, 6, 7] {
            args[i].is_const = true;
        }
        args[1].is_volatile = true;
        args[2].is_restrict = true;
        args[4].pointee_align = 8;
        args[8].access = AccessQual::ReadOnly;
        args[8].is_pipe = true;
        args[9].access = AccessQual::ReadWrite;
        // The address space is written only for buffers and dynamic shared pointers.
        for a in &mut args[7..12] {
            a.address_space = Some(Global);
        }
        args[20].access = AccessQual::ReadOnly;
        args[20].actual_access = AccessQual::WriteOnly;
        args[21].access = AccessQual::WriteOnly;
        args[21].actual_access = AccessQual::ReadWrite;
        let k = test_kernel("testerek", args, Some(72), Some(32));
        let md = Metadata {
            version: Some((39, 52)),
            printfs: vec![
                PrintfInfo {
                    id: Some(2),
                    arg_sizes: vec![4, 4, 4, 4],
                    format: b"i=%d,a=%f,b=%f,c=%f\n".to_vec(),
                },
                PrintfInfo {
                    id: Some(1),
                    arg_sizes: vec![4],
                    format: b"indexa%d\n".to_vec(),
                },
            ],
        };
        let want = without_device_enqueue_symbol(hex_fixture(include_str!(
            "../../../test_data/rocm_v3/reference_case0.hex"
        )));
        assert_eq!(
            msgpack(&md, &[("testerek", &k, KernelDescriptor::default())]).unwrap(),
            want
        );
    }

    #[test]
    fn segment_sizes_from_the_descriptor() {
        use ValueType::*;
        let args = vec![
            buffer("in0", "float*", 0, F32, AddressSpace::Global),
            buffer("out0", "float*", 0, F32, AddressSpace::Global),
            hidden(112, ValueKind::HiddenGlobalOffsetX),
            hidden(120, ValueKind::HiddenGlobalOffsetY),
            hidden(128, ValueKind::HiddenGlobalOffsetZ),
        ];
        let mut k = test_kernel("vectors", args, None, None);
        for a in &mut k.args[..2] {
            a.is_const = true;
        }
        let md = Metadata {
            version: Some((39, 52)),
            printfs: Vec::new(),
        };
        let d = KernelDescriptor {
            group_segment_fixed_size: 231,
            private_segment_fixed_size: 5422,
            ..KernelDescriptor::default()
        };
        let want = without_device_enqueue_symbol(hex_fixture(include_str!(
            "../../../test_data/rocm_v3/reference_case1.hex"
        )));
        assert_eq!(msgpack(&md, &[("vectors", &k, d)]).unwrap(), want);
    }

    #[test]
    fn printf_colons_are_escaped_and_nothing_else() {
        let md = Metadata {
            version: None,
            printfs: vec![
                PrintfInfo {
                    id: None,
                    arg_sizes: vec![],
                    format: b"a:b\n".to_vec(),
                },
                PrintfInfo {
                    id: Some(1),
                    arg_sizes: vec![8],
                    format: b"%s\"".to_vec(),
                },
            ],
        };
        let want = Value::Map(vec![
            ("amdhsa.kernels".into(), Value::Array(Vec::new())),
            (
                "amdhsa.printf".into(),
                Value::Array(vec![Value::str("2:0:a\\72b\n"), Value::str("1:1:8:%s\"")]),
            ),
            (
                "amdhsa.version".into(),
                Value::Array(vec![Value::UInt(1), Value::UInt(0)]),
            ),
        ]);
        assert_eq!(msgpack(&md, &[]).unwrap(), encode(&want));
        let twice = Metadata {
            version: None,
            printfs: vec![md.printfs[1].clone(), md.printfs[1].clone()],
        };
        assert_eq!(
            msgpack(&twice, &[]).unwrap_err(),
            "printf id 1 is used twice"
        );
    }

    #[test]
    fn missing_values_are_named() {
        let mut k = test_kernel("k", Vec::new(), None, None);
        assert!(missing_values(&k).is_empty());
        k.sgprs = None;
        assert_eq!(missing_values(&k), [".md_sgprsnum"]);
        let md = Metadata::default();
        let e = msgpack(&md, &[("k", &k, KernelDescriptor::default())]).unwrap_err();
        assert_eq!(e, missing_message("k", ".md_sgprsnum"));
        k.symbol_name = None;
        assert_eq!(missing_values(&k), [".md_symname", ".md_sgprsnum"]);
    }
}
