//! Kernel arguments of the AMD OpenCL formats (1.2 and 2.0).

/// An argument's type, in CLRX's numbering (the tables below are indexed by it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum ArgType {
    Void = 0,
    UChar,
    Char,
    UShort,
    Short,
    UInt,
    Int,
    ULong,
    Long,
    Float,
    Double,
    Pointer,
    Image,
    Image1d,
    Image1dArray,
    Image1dBuffer,
    Image2d,
    Image2dArray,
    Image3d,
    UChar2,
    UChar3,
    UChar4,
    UChar8,
    UChar16,
    Char2,
    Char3,
    Char4,
    Char8,
    Char16,
    UShort2,
    UShort3,
    UShort4,
    UShort8,
    UShort16,
    Short2,
    Short3,
    Short4,
    Short8,
    Short16,
    UInt2,
    UInt3,
    UInt4,
    UInt8,
    UInt16,
    Int2,
    Int3,
    Int4,
    Int8,
    Int16,
    ULong2,
    ULong3,
    ULong4,
    ULong8,
    ULong16,
    Long2,
    Long3,
    Long4,
    Long8,
    Long16,
    Float2,
    Float3,
    Float4,
    Float8,
    Float16,
    Double2,
    Double3,
    Double4,
    Double8,
    Double16,
    Sampler,
    Structure,
    Counter32,
    Counter64,
    // OpenCL 2.0 only.
    Pipe,
    CmdQueue,
    ClkEvent,
}

use crate::FormatError;
use ArgType::*;

const ALL: [ArgType; 76] = [
    Void,
    UChar,
    Char,
    UShort,
    Short,
    UInt,
    Int,
    ULong,
    Long,
    Float,
    Double,
    Pointer,
    Image,
    Image1d,
    Image1dArray,
    Image1dBuffer,
    Image2d,
    Image2dArray,
    Image3d,
    UChar2,
    UChar3,
    UChar4,
    UChar8,
    UChar16,
    Char2,
    Char3,
    Char4,
    Char8,
    Char16,
    UShort2,
    UShort3,
    UShort4,
    UShort8,
    UShort16,
    Short2,
    Short3,
    Short4,
    Short8,
    Short16,
    UInt2,
    UInt3,
    UInt4,
    UInt8,
    UInt16,
    Int2,
    Int3,
    Int4,
    Int8,
    Int16,
    ULong2,
    ULong3,
    ULong4,
    ULong8,
    ULong16,
    Long2,
    Long3,
    Long4,
    Long8,
    Long16,
    Float2,
    Float3,
    Float4,
    Float8,
    Float16,
    Double2,
    Double3,
    Double4,
    Double8,
    Double16,
    Sampler,
    Structure,
    Counter32,
    Counter64,
    Pipe,
    CmdQueue,
    ClkEvent,
];

/// Source names of the types (`.arg NAME, TYPE`), OpenCL 2.0 ones included.
const NAMES: &[(&str, ArgType)] = &[
    ("char", Char),
    ("char16", Char16),
    ("char2", Char2),
    ("char3", Char3),
    ("char4", Char4),
    ("char8", Char8),
    ("clkevent", ClkEvent),
    ("counter32", Counter32),
    ("counter64", Counter64),
    ("double", Double),
    ("double16", Double16),
    ("double2", Double2),
    ("double3", Double3),
    ("double4", Double4),
    ("double8", Double8),
    ("float", Float),
    ("float16", Float16),
    ("float2", Float2),
    ("float3", Float3),
    ("float4", Float4),
    ("float8", Float8),
    ("image", Image),
    ("image1d", Image1d),
    ("image1d_array", Image1dArray),
    ("image1d_buffer", Image1dBuffer),
    ("image2d", Image2d),
    ("image2d_array", Image2dArray),
    ("image3d", Image3d),
    ("int", Int),
    ("int16", Int16),
    ("int2", Int2),
    ("int3", Int3),
    ("int4", Int4),
    ("int8", Int8),
    ("long", Long),
    ("long16", Long16),
    ("long2", Long2),
    ("long3", Long3),
    ("long4", Long4),
    ("long8", Long8),
    ("pipe", Pipe),
    ("queue", CmdQueue),
    ("sampler", Sampler),
    ("short", Short),
    ("short16", Short16),
    ("short2", Short2),
    ("short3", Short3),
    ("short4", Short4),
    ("short8", Short8),
    ("structure", Structure),
    ("uchar", UChar),
    ("uchar16", UChar16),
    ("uchar2", UChar2),
    ("uchar3", UChar3),
    ("uchar4", UChar4),
    ("uchar8", UChar8),
    ("uint", UInt),
    ("uint16", UInt16),
    ("uint2", UInt2),
    ("uint3", UInt3),
    ("uint4", UInt4),
    ("uint8", UInt8),
    ("ulong", ULong),
    ("ulong16", ULong16),
    ("ulong2", ULong2),
    ("ulong3", ULong3),
    ("ulong4", ULong4),
    ("ulong8", ULong8),
    ("ushort", UShort),
    ("ushort16", UShort16),
    ("ushort2", UShort2),
    ("ushort3", UShort3),
    ("ushort4", UShort4),
    ("ushort8", UShort8),
    ("void", Void),
];

/// Type names written when the source gives none.
const DEFAULT_TYPE_NAMES: [&str; 76] = [
    "void",
    "uchar",
    "char",
    "ushort",
    "short",
    "uint",
    "int",
    "ulong",
    "long",
    "float",
    "double",
    "pointer",
    "image2d_t",
    "image1d_t",
    "image1d_array_t",
    "image1d_buffer_t",
    "image2d_t",
    "image2d_array_t",
    "image3d_t",
    "uchar2",
    "uchar3",
    "uchar4",
    "uchar8",
    "uchar16",
    "char2",
    "char3",
    "char4",
    "char8",
    "char16",
    "ushort2",
    "ushort3",
    "ushort4",
    "ushort8",
    "ushort16",
    "short2",
    "short3",
    "short4",
    "short8",
    "short16",
    "uint2",
    "uint3",
    "uint4",
    "uint8",
    "uint16",
    "int2",
    "int3",
    "int4",
    "int8",
    "int16",
    "ulong2",
    "ulong3",
    "ulong4",
    "ulong8",
    "ulong16",
    "long2",
    "long3",
    "long4",
    "long8",
    "long16",
    "float2",
    "float3",
    "float4",
    "float8",
    "float16",
    "double2",
    "double3",
    "double4",
    "double8",
    "double16",
    "sampler_t",
    "structure",
    "counter32_t",
    "counter64_t",
    "pipe",
    "queue_t",
    "clk_event_t",
];

impl ArgType {
    /// The type a source name (lower case) names.
    pub fn from_name(name: &str) -> Option<ArgType> {
        NAMES.iter().find(|(n, _)| *n == name).map(|&(_, t)| t)
    }

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn from_index(i: usize) -> Option<ArgType> {
        ALL.get(i).copied()
    }

    pub fn default_type_name(self) -> &'static str {
        DEFAULT_TYPE_NAMES[self.index()]
    }

    pub fn is_image(self) -> bool {
        (Image..=Image3d).contains(&self)
    }

    /// Types of OpenCL 2.0 only.
    pub fn is_cl2_only(self) -> bool {
        self > Counter64
    }

    /// Element size in bytes and number of elements of a scalar or vector type.
    pub fn elem_and_vec(self) -> (u32, u32) {
        let i = self.index();
        if (UChar2.index()..=Double16.index()).contains(&i) {
            let group = (i - UChar2.index()) / 5;
            let vec = [2, 3, 4, 8, 16][(i - UChar2.index()) % 5];
            let elem = [1, 1, 2, 2, 4, 4, 8, 8, 4, 8][group];
            return (elem, vec);
        }
        match self {
            Void | UChar | Char => (1, 1),
            UShort | Short => (2, 1),
            UInt | Int | Float => (4, 1),
            ULong | Long | Double => (8, 1),
            _ => (1, 1),
        }
    }
}

/// Pointer address space.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PtrSpace {
    None = 0,
    Local = 1,
    Constant = 2,
    Global = 3,
}

/// Access flags (`ptr_access`).
pub mod access {
    pub const READ_ONLY: u8 = 1;
    pub const WRITE_ONLY: u8 = 2;
    pub const READ_WRITE: u8 = 3;
    pub const MASK: u8 = 3;
    pub const CONST: u8 = 4;
    pub const RESTRICT: u8 = 8;
    pub const VOLATILE: u8 = 16;
}

/// A kernel argument (`.arg`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KernelArg {
    pub name: String,
    pub type_name: String,
    pub arg_type: ArgType,
    /// For a pointer: the pointed type.
    pub pointer_type: ArgType,
    pub ptr_space: PtrSpace,
    pub ptr_access: u8,
    pub struct_size: u32,
    pub const_space_size: u64,
    /// Resource id (UAV, constant buffer, image, counter, sampler); `None`: assigned.
    pub res_id: Option<u32>,
    /// Usage: 0 unused; OpenCL 1.2: 1 used; OpenCL 2.0: 1 read, 2 write, 3 both.
    pub used: u8,
}

/// Argument `index` of kernel `kernel`: its resource id (`.arg …, ID`) is out of `range`.
pub(crate) fn id_out_of_range(
    kernel: &str,
    index: usize,
    arg: &KernelArg,
    kind: &str,
    id: u32,
    range: &str,
) -> FormatError {
    FormatError::argument(
        kernel,
        index,
        format!(
            "argument `{}`: {kind} id {id} out of range ({range})",
            arg.name
        ),
    )
}

/// Argument `index` of kernel `kernel`: another argument has its resource id.
pub(crate) fn id_taken(
    kernel: &str,
    index: usize,
    arg: &KernelArg,
    kind: &str,
    id: u32,
) -> FormatError {
    FormatError::argument(
        kernel,
        index,
        format!(
            "argument `{}`: {kind} id {id} is already another argument's",
            arg.name
        ),
    )
}

/// Argument `index` of kernel `kernel` gets no resource id: every one up to `last` is taken.
pub(crate) fn no_id_left(
    kernel: &str,
    index: usize,
    arg: &KernelArg,
    kind: &str,
    last: u32,
) -> FormatError {
    FormatError::argument(
        kernel,
        index,
        format!(
            "argument `{}`: no {kind} id left (all up to {last} are taken)",
            arg.name
        ),
    )
}
