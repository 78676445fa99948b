//! AMD Catalyst OpenCL 1.2 binaries.
//!
//! The main ELF (32- or 64-bit, `e_machine` the device code) has `.shstrtab`,
//! `.strtab`, `.symtab`, `.rodata` (global data, then per kernel the metadata string and
//! a 32-byte header), `.text` (one inner 32-bit ELF per kernel) and `.comment` (compile
//! options and driver info). Each inner ELF holds a CAL encoding entry, the ATI CAL
//! notes (PROGINFO with the program resource registers, UAVs, constant buffers, ...),
//! `.text` with the kernel's code and `.data`. With a configuration (`.config`) the
//! metadata, header and notes are generated; else they are taken as given (`.metadata`,
//! `.header`, `.proginfo`, ...).
//!
//! Symbols a source adds (`-S`) follow the format's own: those of a kernel's `.text`,
//! `.data` or extra sections in that kernel's inner ELF, the absolute ones and those of
//! the main extra sections in the main ELF.

use std::collections::BTreeSet;

use gcn_isa::Device;

use crate::args::{access, id_out_of_range, id_taken, no_id_left, ArgType, KernelArg, PtrSpace};
use crate::elf::{self, Bytes, Class, ElfBuilder, Header, LocalSymbols, ProgramHeader, Region};
pub use crate::elf::{ExtraSection, ExtraSymbol, SymbolPlace};
use crate::gpu;
use crate::FormatError;

/// CAL note types.
pub mod calnote {
    pub const PROGINFO: u32 = 1;
    pub const INPUTS: u32 = 2;
    pub const OUTPUTS: u32 = 3;
    pub const CONDOUT: u32 = 4;
    pub const FLOAT32CONSTS: u32 = 5;
    pub const INT32CONSTS: u32 = 6;
    pub const BOOL32CONSTS: u32 = 7;
    pub const EARLYEXIT: u32 = 8;
    pub const GLOBAL_BUFFERS: u32 = 9;
    pub const CONSTANT_BUFFERS: u32 = 10;
    pub const INPUT_SAMPLERS: u32 = 11;
    pub const PERSISTENT_BUFFERS: u32 = 12;
    pub const SCRATCH_BUFFERS: u32 = 13;
    pub const SUB_CONSTANT_BUFFERS: u32 = 14;
    pub const UAV_MAILBOX_SIZE: u32 = 15;
    pub const UAV: u32 = 16;
    pub const UAV_OP_MASK: u32 = 17;
}

/// A resource id setting: computed, left out, or given.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ResId {
    #[default]
    Default,
    Omitted,
    Id(u32),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UserData {
    pub data_class: u32,
    pub api_slot: u32,
    pub reg_start: u32,
    pub reg_size: u32,
}

/// The SGPRs the user data declared takes: up to its last register.
pub fn declared_user_sgprs(user_datas: &[UserData]) -> u32 {
    user_datas
        .iter()
        .map(|u| u.reg_start + u.reg_size)
        .max()
        .unwrap_or(0)
}

/// The user SGPRs the setup fills, as PGM_RSRC2 counts them: up to the last register
/// of the user data, 2 when the configuration declares none.
pub fn user_sgprs(user_datas: &[UserData]) -> u32 {
    let declared = declared_user_sgprs(user_datas);
    if declared != 0 {
        declared
    } else {
        2
    }
}

/// A kernel's configuration (`.config`), register counts resolved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KernelConfig {
    pub args: Vec<KernelArg>,
    pub samplers: Vec<u32>,
    pub reqd_work_group_size: [u32; 3],
    pub used_vgprs: u32,
    pub used_sgprs: u32,
    /// `.pgmrsrc2`, the float and IEEE modes, exceptions, TG_SIZE (the rest is unused:
    /// this format has no COMPUTE_PGM_RSRC1).
    pub rsrc: gpu::RsrcSettings,
    pub hw_local_size: u64,
    pub hw_region: Option<u32>,
    pub scratch_buffer_size: u32,
    pub uav_private: Option<u32>,
    pub uav_id: ResId,
    pub const_buffer_id: ResId,
    pub printf_id: ResId,
    pub private_id: ResId,
    pub early_exit: u32,
    pub cond_out: u32,
    pub use_printf: bool,
    pub use_const_data: bool,
    pub user_datas: Vec<UserData>,
    pub dim_mask: Option<u32>,
}

impl Default for KernelConfig {
    fn default() -> Self {
        KernelConfig {
            args: Vec::new(),
            samplers: Vec::new(),
            reqd_work_group_size: [0; 3],
            used_vgprs: 0,
            used_sgprs: 0,
            rsrc: gpu::RsrcSettings::default(),
            hw_local_size: 0,
            hw_region: None,
            scratch_buffer_size: 0,
            uav_private: None,
            uav_id: ResId::Default,
            const_buffer_id: ResId::Default,
            printf_id: ResId::Default,
            private_id: ResId::Default,
            early_exit: 0,
            cond_out: 0,
            use_printf: false,
            use_const_data: false,
            user_datas: Vec::new(),
            dim_mask: None,
        }
    }
}

/// A CAL note given as is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CalNote {
    pub note_type: u32,
    pub data: Vec<u8>,
}

/// How a kernel's metadata, header and CAL notes are given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KernelSetup {
    Config(KernelConfig),
    Raw {
        metadata: Vec<u8>,
        header: Vec<u8>,
        cal_notes: Vec<CalNote>,
    },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KernelInput {
    pub name: String,
    pub setup: KernelSetup,
    pub code: Vec<u8>,
    /// The kernel's `.data`; `None`: 4736 zero bytes.
    pub data: Option<Vec<u8>>,
    pub extra_sections: Vec<ExtraSection>,
    /// Symbols of the kernel's sections the source adds (`-S`), in its inner ELF.
    pub extra_symbols: Vec<ExtraSymbol>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Input {
    pub is64: bool,
    pub device: Device,
    pub global_data: Option<Vec<u8>>,
    /// `major*100 + minor`; 0 with a driver info string: taken from it.
    pub driver_version: u32,
    pub driver_info: String,
    pub compile_options: String,
    pub kernels: Vec<KernelInput>,
    pub extra_sections: Vec<ExtraSection>,
    /// Absolute symbols and those of the main extra sections the source adds (`-S`).
    pub extra_symbols: Vec<ExtraSymbol>,
}

/// `e_machine` of the main ELF per device (0xffff: no OpenCL 1.2 support).
const DEVICE_CODES: [u16; 30] = [
    0x3ff, 0x3fe, 0x3fd, 0x402, 0x403, 0x404, 0x405, 0x406, 0x407, 0x408, 0x409, 0x40a, 0x40b,
    0x40c, 0x40d, 0x411, 0x40f, 0x40e, 0x411, 0x40e, 0x40f, 0x412, 0xffff, 0xffff, 0xffff, 0xffff,
    0xffff, 0xffff, 0xffff, 0xffff,
];

/// Machine of the CAL encoding entry per device.
const INNER_DEVICE_CODES: [u32; 22] = [
    0x1c, 0x1b, 0x1a, 0x20, 0x21, 0x22, 0x23, 0x24, 0x25, 0x27, 0x29, 0x2a, 0x2b, 0x2d, 0x2e, 0x31,
    0x2c, 0x2f, 0x31, 0x2f, 0x2c, 0x32,
];

/// The device code of the main ELF, if the device has OpenCL 1.2 binaries.
pub fn device_code(device: Device) -> Option<u16> {
    DEVICE_CODES
        .get(gpu::device_index(device))
        .copied()
        .filter(|&c| c != 0xffff)
}

const NEWEST_DRIVER: u32 = 99999909;

/// The driver info string and the driver version the layout follows.
pub fn resolve_driver(input: &Input) -> (String, u32) {
    if input.driver_info.is_empty() {
        let v = input.driver_version;
        let info = format!(
            "@(#) OpenCL 1.2 AMD-APP ({}.{}).  Driver version: {}.{} (VM)",
            v / 100,
            v % 100,
            v / 100,
            v % 100
        );
        (info, v)
    } else if input.driver_version == 0 {
        (
            input.driver_info.clone(),
            version_from_info(&input.driver_info),
        )
    } else {
        (input.driver_info.clone(), NEWEST_DRIVER)
    }
}

/// The version in "AMD-APP (MAJOR.MINOR)" of a driver info string.
pub fn version_from_info(info: &str) -> u32 {
    let Some(pos) = info.find("AMD-APP") else {
        return NEWEST_DRIVER;
    };
    let rest = info.as_bytes().get(pos + 9..).unwrap_or(&[]);
    let Some((major, used)) = parse_c_number(rest) else {
        return NEWEST_DRIVER;
    };
    let rest = rest.get(used + 1..).unwrap_or(&[]);
    let Some((minor, _)) = parse_c_number(rest) else {
        return NEWEST_DRIVER;
    };
    major.wrapping_mul(100).wrapping_add(minor)
}

/// A C-style unsigned number at the start of `s` (decimal, `0x` hex, `0b` binary,
/// leading-zero octal) and the bytes it took.
fn parse_c_number(s: &[u8]) -> Option<(u32, usize)> {
    let (radix, start) = if s.len() >= 2 && s[0] == b'0' && (s[1] | 0x20) == b'x' {
        (16, 2)
    } else if s.len() >= 2 && s[0] == b'0' && (s[1] | 0x20) == b'b' {
        (2, 2)
    } else if s.first() == Some(&b'0') {
        (8, 0)
    } else {
        (10, 0)
    };
    let digits = s[start..]
        .iter()
        .take_while(|c| (**c as char).is_digit(radix))
        .count();
    if digits == 0 && radix != 8 {
        return None;
    }
    let text = std::str::from_utf8(&s[start..start + digits]).ok()?;
    let value = if text.is_empty() {
        0
    } else {
        u64::from_str_radix(text, radix).ok()?
    };
    if value > u64::from(u32::MAX) {
        return None;
    }
    Some((value as u32, start + digits))
}

/// Type names and sizes in the metadata string.
#[derive(Clone, Copy)]
struct TypeInfo {
    name: Option<&'static str>,
    kind: Kind,
    elem: u32,
    vec: u32,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Unsigned,
    Signed,
    Float,
    Double,
    Struct,
    Unknown,
}

fn type_info(t: ArgType) -> TypeInfo {
    use ArgType::*;
    let (elem, vec) = t.elem_and_vec();
    let (name, kind) = match t {
        Void | UChar | UChar2 | UChar3 | UChar4 | UChar8 | UChar16 => ("u8", Kind::Unsigned),
        Char | Char2 | Char3 | Char4 | Char8 | Char16 => ("i8", Kind::Signed),
        UShort | UShort2 | UShort3 | UShort4 | UShort8 | UShort16 => ("u16", Kind::Unsigned),
        Short | Short2 | Short3 | Short4 | Short8 | Short16 => ("i16", Kind::Signed),
        UInt | UInt2 | UInt3 | UInt4 | UInt8 | UInt16 => ("u32", Kind::Unsigned),
        Int | Int2 | Int3 | Int4 | Int8 | Int16 => ("i32", Kind::Signed),
        ULong | ULong2 | ULong3 | ULong4 | ULong8 | ULong16 => ("u64", Kind::Unsigned),
        Long | Long2 | Long3 | Long4 | Long8 | Long16 => ("i64", Kind::Signed),
        Float | Float2 | Float3 | Float4 | Float8 | Float16 => ("float", Kind::Float),
        Double | Double2 | Double3 | Double4 | Double8 | Double16 => ("double", Kind::Double),
        Sampler => {
            return TypeInfo {
                name: Some("u32"),
                kind: Kind::Unsigned,
                elem: 4,
                vec: 1,
            }
        }
        Structure => {
            return TypeInfo {
                name: Some("struct"),
                kind: Kind::Struct,
                elem: 0,
                vec: 1,
            }
        }
        _ => {
            return TypeInfo {
                name: None,
                kind: Kind::Unknown,
                elem: 1,
                vec: 1,
            }
        }
    };
    TypeInfo {
        name: Some(name),
        kind,
        elem,
        vec,
    }
}

const IMAGE_TYPE_NAMES: [&str; 7] = ["2D", "1D", "1DA", "1DB", "2D", "2DA", "3D"];

/// Resource ids of a kernel with a configuration, after assignment.
struct Resolved {
    hw_region: u32,
    uav_private: u32,
    uav_id: Option<u32>,
    const_buffer_id: Option<u32>,
    printf_id: Option<u32>,
    private_id: Option<u32>,
    arg_res_ids: Vec<u32>,
    uavs: u32,
    args_space: u32,
}

fn is_global_or_new_const(arg: &KernelArg, older1348: bool) -> bool {
    arg.arg_type == ArgType::Pointer
        && (arg.ptr_space == PtrSpace::Global
            || (arg.ptr_space == PtrSpace::Constant && !older1348))
}

fn resolve_config(
    driver: u32,
    input: &Input,
    name: &str,
    config: &KernelConfig,
) -> Result<Resolved, FormatError> {
    let err = |m: &str| FormatError::kernel(name, m);
    let older1348 = driver < 134805;
    let older1598 = driver < 159805;
    let gen = input.device.generation();
    if config.user_datas.len() > 16 {
        return Err(err(&format!(
            "{} user data entries (`.userdata`), more than 16",
            config.user_datas.len()
        )));
    }
    if config.used_vgprs > gpu::MAX_VGPRS {
        return Err(err(&format!(
            "{} VGPRs (`.vgprsnum`), more than {}",
            config.used_vgprs,
            gpu::MAX_VGPRS
        )));
    }
    if config.used_sgprs > gpu::max_sgprs_without_vcc(gen) {
        return Err(err(&format!(
            "{} SGPRs (`.sgprsnum`), more than {} on {gen}",
            config.used_sgprs,
            gpu::max_sgprs_without_vcc(gen)
        )));
    }
    if config.hw_local_size > gpu::MAX_LOCAL_SIZE {
        return Err(err(&format!(
            "local memory size {} (`.hwlocal`), more than {}",
            config.hw_local_size,
            gpu::MAX_LOCAL_SIZE
        )));
    }
    if config.rsrc.float_mode >= 256 {
        return Err(err(&format!(
            "float mode {:#x} (`.floatmode`) does not fit in 8 bits",
            config.rsrc.float_mode
        )));
    }
    for (k, arg) in config.args.iter().enumerate() {
        if arg.arg_type.is_image() && arg.ptr_access & access::MASK == 0 {
            return Err(FormatError::argument(
                name,
                k,
                format!(
                    "image argument `{}` needs an access qualifier (read_only or write_only)",
                    arg.name
                ),
            ));
        }
    }
    let uav_private = match config.uav_private {
        Some(v) => v,
        None => {
            let mut structures = false;
            let mut amount = 0u32;
            for arg in &config.args {
                if matches!(arg.arg_type, ArgType::Structure | ArgType::Counter32) {
                    structures = true;
                }
                if !older1598 && arg.arg_type != ArgType::Structure {
                    continue;
                }
                amount = amount.wrapping_add(match arg.arg_type {
                    ArgType::Pointer => 32,
                    ArgType::Structure if !older1598 => (arg.struct_size.wrapping_add(15)) & !15,
                    ArgType::Structure => 32,
                    t => {
                        let tp = type_info(t);
                        let size = (if tp.vec == 3 { 4 } else { tp.vec }) * tp.elem;
                        ((size + 15) >> 4) << 5
                    }
                });
            }
            let v = if structures { amount } else { 0 };
            v.max(config.scratch_buffer_size)
        }
    };
    let uav_id = match config.uav_id {
        ResId::Id(v) => Some(v),
        ResId::Omitted => None,
        ResId::Default => {
            if !(134805..=144505).contains(&driver) {
                Some(if older1348 { 9 } else { 11 })
            } else {
                let pointer = config.args.iter().any(|a| {
                    a.arg_type == ArgType::Pointer
                        && matches!(a.ptr_space, PtrSpace::Constant | PtrSpace::Global)
                });
                if pointer || config.use_printf {
                    Some(11)
                } else {
                    None
                }
            }
        }
    };
    let const_buffer_id = match config.const_buffer_id {
        ResId::Id(v) => Some(v),
        ResId::Omitted => None,
        ResId::Default => {
            if older1348 {
                None
            } else {
                Some(10)
            }
        }
    };
    let printf_id = match config.printf_id {
        ResId::Id(v) => Some(v),
        ResId::Omitted => None,
        ResId::Default => {
            if !older1348 && (driver >= 152603 || config.use_printf) {
                Some(9)
            } else {
                None
            }
        }
    };
    let private_id = match config.private_id {
        ResId::Id(v) => Some(v),
        ResId::Omitted => None,
        ResId::Default => Some(8),
    };
    if uav_id.is_some_and(|v| v >= 1024) {
        return Err(err("the UAV id (`.uavid`) must be below 1024"));
    }
    if const_buffer_id.is_some_and(|v| v >= 1024) {
        return Err(err("the constant buffer id (`.cbid`) must be below 1024"));
    }
    if printf_id.is_some_and(|v| v >= 1024) {
        return Err(err("the printf id (`.printfid`) must be below 1024"));
    }
    if private_id.is_some_and(|v| v >= 1024) {
        return Err(err("the private id (`.privateid`) must be below 1024"));
    }
    // CLRX keeps "not supplied" as a large number: an omitted UAV id never matches one.
    let uav_raw = uav_id.unwrap_or(u32::MAX - 1);

    let mut res = vec![0u32; config.args.len()];
    let mut puav = vec![false; 1024];
    let mut cnt = [false; 8];
    let mut cb = [false; 160];
    let mut rd_img = [false; 128];
    let mut wr_img = [false; 8];
    for (k, arg) in config.args.iter().enumerate() {
        let Some(id) = arg.res_id else { continue };
        if is_global_or_new_const(arg, older1348) {
            let used = arg.used != 0;
            if (id < 9 && used) || (!used && id != uav_raw) || id >= 1024 {
                let rule = if used {
                    "9 to 1023 for a used global pointer"
                } else {
                    "the kernel's UAV id for an unused one"
                };
                return Err(id_out_of_range(name, k, arg, "UAV", id, rule));
            }
            if puav[id as usize] && id != uav_raw {
                return Err(id_taken(name, k, arg, "UAV", id));
            }
            puav[id as usize] = true;
            res[k] = id;
        } else if arg.arg_type == ArgType::Pointer && arg.ptr_space == PtrSpace::Constant {
            if !(2..160).contains(&id) {
                return Err(id_out_of_range(
                    name,
                    k,
                    arg,
                    "constant buffer",
                    id,
                    "2 to 159",
                ));
            }
            if cb[id as usize] {
                return Err(id_taken(name, k, arg, "constant buffer", id));
            }
            cb[id as usize] = true;
            res[k] = id;
        } else if arg.arg_type.is_image() {
            if arg.ptr_access & access::READ_ONLY != 0 {
                if id >= 128 {
                    return Err(id_out_of_range(
                        name,
                        k,
                        arg,
                        "read-only image",
                        id,
                        "0 to 127",
                    ));
                }
                if rd_img[id as usize] {
                    return Err(id_taken(name, k, arg, "read-only image", id));
                }
                rd_img[id as usize] = true;
                res[k] = id;
            } else if arg.ptr_access & access::WRITE_ONLY != 0 {
                if id >= 8 {
                    return Err(id_out_of_range(
                        name,
                        k,
                        arg,
                        "write-only image",
                        id,
                        "0 to 7",
                    ));
                }
                if wr_img[id as usize] {
                    return Err(id_taken(name, k, arg, "write-only image", id));
                }
                wr_img[id as usize] = true;
                res[k] = id;
            }
        } else if arg.arg_type == ArgType::Counter32 {
            if id >= 8 {
                return Err(id_out_of_range(name, k, arg, "counter", id, "0 to 7"));
            }
            if cnt[id as usize] {
                return Err(id_taken(name, k, arg, "counter", id));
            }
            cnt[id as usize] = true;
            res[k] = id;
        }
    }
    let mut puav_next = uav_raw.wrapping_add(1) as usize;
    let mut cb_next = 2 + usize::from(input.global_data.is_some());
    let (mut rd_next, mut wr_next, mut cnt_next) = (0usize, 0usize, 0usize);
    for (k, arg) in config.args.iter().enumerate() {
        if arg.res_id.is_some() {
            continue;
        }
        if is_global_or_new_const(arg, older1348) {
            if arg.used != 0 {
                while puav_next < 1024 && puav[puav_next] {
                    puav_next += 1;
                }
                if puav_next >= 1024 {
                    return Err(no_id_left(name, k, arg, "UAV", 1023));
                }
                res[k] = puav_next as u32;
                puav_next += 1;
            } else {
                res[k] = uav_raw;
            }
        } else if arg.arg_type == ArgType::Pointer && arg.ptr_space == PtrSpace::Constant {
            while cb_next < 160 && cb[cb_next] {
                cb_next += 1;
            }
            if cb_next >= 160 {
                return Err(no_id_left(name, k, arg, "constant buffer", 159));
            }
            res[k] = cb_next as u32;
            cb_next += 1;
        } else if arg.arg_type.is_image() {
            if arg.ptr_access & access::READ_ONLY != 0 {
                while rd_next < 128 && rd_img[rd_next] {
                    rd_next += 1;
                }
                if rd_next >= 128 {
                    return Err(no_id_left(name, k, arg, "read-only image", 127));
                }
                res[k] = rd_next as u32;
                rd_next += 1;
            } else if arg.ptr_access & access::WRITE_ONLY != 0 {
                while wr_next < 8 && wr_img[wr_next] {
                    wr_next += 1;
                }
                if wr_next >= 8 {
                    return Err(no_id_left(name, k, arg, "write-only image", 7));
                }
                res[k] = wr_next as u32;
                wr_next += 1;
            }
        } else if arg.arg_type == ArgType::Counter32 {
            while cnt_next < 8 && cnt[cnt_next] {
                cnt_next += 1;
            }
            if cnt_next >= 8 {
                return Err(no_id_left(name, k, arg, "counter", 7));
            }
            res[k] = cnt_next as u32;
            cnt_next += 1;
        }
    }
    let mut uavs = 0u32;
    let mut wr_images = 0;
    for arg in &config.args {
        if arg.arg_type.is_image() {
            if arg.ptr_access & access::MASK == access::WRITE_ONLY {
                uavs += 1;
                wr_images += 1;
                if wr_images > 8 {
                    return Err(err("more than 8 write-only images"));
                }
            }
        } else if arg.arg_type == ArgType::Pointer && arg.ptr_space == PtrSpace::Global {
            uavs += 1;
        }
    }
    if config.use_printf {
        uavs += 1;
    }
    Ok(Resolved {
        hw_region: config.hw_region.unwrap_or(0),
        uav_private,
        uav_id,
        const_buffer_id,
        printf_id,
        private_id,
        arg_res_ids: res,
        uavs,
        args_space: 0,
    })
}

fn metadata(
    driver: u32,
    input: &Input,
    name: &str,
    config: &KernelConfig,
    r: &mut Resolved,
    unique_id: u32,
) -> Result<String, FormatError> {
    use std::fmt::Write;
    let older1124 = driver < 112402;
    let older1348 = driver < 134805;
    let mut m = String::new();
    let _ = writeln!(m, ";ARGSTART:__OpenCL_{name}_kernel");
    m.push_str(if older1124 {
        ";version:3:1:104\n"
    } else {
        ";version:3:1:111\n"
    });
    let _ = writeln!(m, ";device:{}", input.device.name().to_ascii_lowercase());
    let _ = writeln!(m, ";uniqueid:{unique_id}");
    let _ = writeln!(m, ";memory:uavprivate:{}", r.uav_private);
    let _ = writeln!(m, ";memory:hwlocal:{}", config.hw_local_size);
    let _ = writeln!(m, ";memory:hwregion:{}", r.hw_region);
    let cws = config.reqd_work_group_size;
    if cws[0] != 0 || cws[1] != 0 {
        let _ = writeln!(m, ";cws:{}:{}:{}", cws[0], cws[1], cws[2]);
    }
    let mut offset = 0u64;
    for (k, arg) in config.args.iter().enumerate() {
        if arg.arg_type == ArgType::Structure {
            let _ = writeln!(
                m,
                ";value:{}:struct:{}:1:{offset}",
                arg.name, arg.struct_size
            );
            offset += (u64::from(arg.struct_size) + 15) & !15;
        } else if arg.arg_type == ArgType::Pointer {
            let tp = type_info(arg.pointer_type);
            if tp.kind == Kind::Unknown {
                return Err(FormatError::argument(
                    name,
                    k,
                    format!(
                        "argument `{}`: its type has no place in the metadata",
                        arg.name
                    ),
                ));
            }
            let type_size = (if tp.vec == 3 { 4 } else { tp.vec }) * tp.elem;
            let tname = if arg.struct_size == 0 && arg.pointer_type == ArgType::Structure {
                "opaque"
            } else {
                tp.name.unwrap_or("")
            };
            let _ = write!(m, ";pointer:{}:{tname}:1:1:{offset}:", arg.name);
            match arg.ptr_space {
                PtrSpace::Local => {
                    let _ = write!(m, "hl:{}", arg.res_id.unwrap_or(1));
                }
                PtrSpace::Constant | PtrSpace::Global => {
                    let space = if arg.ptr_space == PtrSpace::Global {
                        "uav"
                    } else if older1348 {
                        "hc"
                    } else {
                        "c"
                    };
                    let _ = write!(m, "{space}:{}", r.arg_res_ids[k]);
                }
                PtrSpace::None => {
                    return Err(FormatError::argument(
                        name,
                        k,
                        format!(
                            "argument `{}`: a pointer must be to global, constant or local memory",
                            arg.name
                        ),
                    ))
                }
            }
            let elem = if arg.pointer_type == ArgType::Structure {
                if arg.struct_size != 0 {
                    arg.struct_size
                } else {
                    4
                }
            } else {
                type_size
            };
            let ro = arg.ptr_access & access::CONST != 0 || arg.ptr_space == PtrSpace::Constant;
            let _ = writeln!(
                m,
                ":{elem}:{}:{}:{}",
                if ro { "RO" } else { "RW" },
                u8::from(arg.ptr_access & access::VOLATILE != 0),
                u8::from(arg.ptr_access & access::RESTRICT != 0)
            );
            offset += 16;
        } else if arg.arg_type.is_image() {
            let acc = match arg.ptr_access & access::MASK {
                access::READ_ONLY => "RO",
                access::WRITE_ONLY => "WO",
                access::READ_WRITE => "RW",
                _ => return Err(FormatError::argument(name, k, format!("image argument `{}` needs an access qualifier (read_only, write_only or read_write)", arg.name))),
            };
            let img = IMAGE_TYPE_NAMES[arg.arg_type.index() - ArgType::Image.index()];
            let _ = writeln!(
                m,
                ";image:{}:{img}:{acc}:{}:1:{offset}",
                arg.name, r.arg_res_ids[k]
            );
            offset += 32;
        } else if arg.arg_type == ArgType::Counter32 {
            let _ = writeln!(
                m,
                ";counter:{}:32:{}:1:{offset}",
                arg.name, r.arg_res_ids[k]
            );
            offset += 16;
        } else {
            let tp = type_info(arg.arg_type);
            if tp.kind == Kind::Unknown {
                return Err(FormatError::argument(
                    name,
                    k,
                    format!(
                        "argument `{}`: its type has no place in the metadata",
                        arg.name
                    ),
                ));
            }
            let type_size = (if tp.vec == 3 { 4 } else { tp.vec }) * tp.elem.max(4);
            let _ = writeln!(
                m,
                ";value:{}:{}:{}:1:{offset}",
                arg.name,
                tp.name.unwrap_or(""),
                tp.vec
            );
            offset += (u64::from(type_size) + 15) & !15;
        }
        if arg.ptr_access & access::CONST != 0 {
            let _ = writeln!(m, ";constarg:{k}:{}", arg.name);
        }
    }
    r.args_space = offset as u32;
    if input.global_data.is_some() {
        m.push_str(";memory:datareqd\n");
    }
    let _ = writeln!(m, ";function:1:{unique_id}");
    let arg_samplers = config
        .args
        .iter()
        .filter(|a| a.arg_type == ArgType::Sampler)
        .count() as u32;
    for (i, &samp) in config.samplers.iter().enumerate() {
        let _ = writeln!(
            m,
            ";sampler:unknown_{samp}:{}:1:{samp}",
            i as u32 + arg_samplers
        );
    }
    for (i, arg) in config
        .args
        .iter()
        .filter(|a| a.arg_type == ArgType::Sampler)
        .enumerate()
    {
        let _ = writeln!(m, ";sampler:{}:{i}:0:0", arg.name);
    }
    if input.is64 {
        m.push_str(";memory:64bitABI\n");
    }
    if let Some(v) = r.uav_id {
        let _ = writeln!(m, ";uavid:{v}");
    }
    if let Some(v) = r.printf_id {
        let _ = writeln!(m, ";printfid:{v}");
    }
    if let Some(v) = r.const_buffer_id {
        let _ = writeln!(m, ";cbid:{v}");
    }
    if let Some(v) = r.private_id {
        let _ = writeln!(m, ";privateid:{v}");
    }
    for (k, arg) in config.args.iter().enumerate() {
        let _ = writeln!(m, ";reflection:{k}:{}", arg.type_name);
    }
    let _ = writeln!(m, ";ARGEND:__OpenCL_{name}_kernel");
    Ok(m)
}

fn cal_note(out: &mut Bytes, note_type: u32, desc: &[u8]) {
    out.u32(8)
        .u32(desc.len() as u32)
        .u32(note_type)
        .bytes(b"ATI CAL\0")
        .bytes(desc);
}

fn cal_notes(driver: u32, input: &Input, config: &KernelConfig, r: &Resolved) -> Vec<u8> {
    let older1124 = driver < 112402;
    let older1348 = driver < 134805;
    let gen = input.device.generation();
    let mut read_only_images = 0u32;
    let mut write_only_images = 0u32;
    let mut wo_used_mask = 0u32;
    let mut local_pointers = false;
    let mut const_buffers = 2 + u32::from(older1348 && input.global_data.is_some());
    let mut arg_samplers = 0u32;
    for arg in &config.args {
        if arg.arg_type.is_image() {
            if arg.ptr_access & access::MASK == access::READ_ONLY {
                read_only_images += 1;
            }
            if arg.ptr_access & access::MASK == access::WRITE_ONLY {
                if arg.used != 0 {
                    wo_used_mask |= 1 << write_only_images;
                }
                write_only_images += 1;
            }
        } else if arg.arg_type == ArgType::Pointer {
            if arg.ptr_space == PtrSpace::Constant {
                const_buffers += 1;
            } else if arg.ptr_space == PtrSpace::Local {
                local_pointers = true;
            }
        } else if arg.arg_type == ArgType::Sampler {
            arg_samplers += 1;
        }
    }
    let samplers = config.samplers.len() as u32 + arg_samplers;
    let mut out = Bytes::default();

    let mut d = Bytes::default();
    for k in 0..read_only_images {
        d.u32(if older1124 {
            read_only_images - k - 1
        } else {
            k
        });
    }
    cal_note(&mut out, calnote::INPUTS, &d.0);
    cal_note(&mut out, calnote::OUTPUTS, &[]);

    let mut d = Bytes::default();
    let uav_entry = |d: &mut Bytes, id: u32, f1: u32, f2: u32, t: u32| {
        d.u32(id).u32(f1).u32(f2).u32(t);
    };
    let uav_id = r.uav_id.unwrap_or(u32::MAX - 1);
    if older1124 {
        const IMG_UAV_DIMS: [u32; 7] = [2, 1, 0, 0, 2, 2, 3];
        for (k, arg) in config.args.iter().enumerate() {
            if arg.arg_type.is_image() && arg.ptr_access & access::MASK == access::WRITE_ONLY {
                let dim = IMG_UAV_DIMS[arg.arg_type.index() - ArgType::Image.index()];
                uav_entry(&mut d, r.arg_res_ids[k], 2, dim, 3);
            }
        }
        if config.use_printf {
            uav_entry(&mut d, uav_id, 4, 0, 5);
        }
        for (k, arg) in config.args.iter().enumerate() {
            if arg.arg_type == ArgType::Pointer && arg.ptr_space == PtrSpace::Global {
                uav_entry(&mut d, r.arg_res_ids[k], 4, 0, 5);
            }
        }
    } else {
        for (k, arg) in config.args.iter().enumerate() {
            if arg.arg_type.is_image() && arg.ptr_access & access::MASK == access::WRITE_ONLY {
                uav_entry(&mut d, r.arg_res_ids[k], 2, 2, 5);
            } else if arg.arg_type == ArgType::Pointer && arg.ptr_space == PtrSpace::Global {
                uav_entry(&mut d, r.arg_res_ids[k], 4, 0, 5);
            }
        }
        if config.use_printf {
            uav_entry(&mut d, uav_id, 0, 0, 5);
        }
    }
    debug_assert_eq!(d.len() as u32, 16 * r.uavs);
    cal_note(&mut out, calnote::UAV, &d.0);
    cal_note(&mut out, calnote::CONDOUT, &config.cond_out.to_le_bytes());
    cal_note(&mut out, calnote::FLOAT32CONSTS, &[]);
    cal_note(&mut out, calnote::INT32CONSTS, &[]);
    cal_note(&mut out, calnote::BOOL32CONSTS, &[]);
    cal_note(
        &mut out,
        calnote::EARLYEXIT,
        &config.early_exit.to_le_bytes(),
    );
    cal_note(&mut out, calnote::GLOBAL_BUFFERS, &[]);

    let mut d = Bytes::default();
    if older1124 {
        for (k, arg) in config.args.iter().enumerate().rev() {
            if arg.arg_type == ArgType::Pointer && arg.ptr_space == PtrSpace::Constant {
                let size = if arg.const_space_size != 0 {
                    ((arg.const_space_size + 15) >> 4) as u32
                } else {
                    4096
                };
                d.u32(r.arg_res_ids[k]).u32(size);
            }
        }
        if let Some(g) = &input.global_data {
            d.u32(2).u32(((g.len() + 15) >> 4) as u32);
        }
        d.u32(1).u32((r.args_space + 15) >> 4);
        d.u32(0).u32(15);
    } else {
        d.u32(0).u32(0).u32(1).u32(0);
        for (k, arg) in config.args.iter().enumerate() {
            if arg.arg_type == ArgType::Pointer && arg.ptr_space == PtrSpace::Constant {
                d.u32(r.arg_res_ids[k]).u32(0);
            }
        }
        if older1348 && input.global_data.is_some() {
            d.u32(2).u32(0);
        }
    }
    debug_assert_eq!(d.len() as u32, 8 * const_buffers);
    cal_note(&mut out, calnote::CONSTANT_BUFFERS, &d.0);

    let mut d = Bytes::default();
    for k in 0..config.samplers.len() as u32 {
        d.u32(0).u32(k + arg_samplers);
    }
    for k in 0..arg_samplers {
        d.u32(0).u32(k);
    }
    debug_assert_eq!(d.len() as u32, 8 * samplers);
    cal_note(&mut out, calnote::INPUT_SAMPLERS, &d.0);
    cal_note(
        &mut out,
        calnote::SCRATCH_BUFFERS,
        &((config.scratch_buffer_size + 3) >> 2).to_le_bytes(),
    );
    cal_note(&mut out, calnote::PERSISTENT_BUFFERS, &[]);

    // Program info.
    let mut d = Bytes::default();
    let entry = |d: &mut Bytes, a: u32, v: u32| {
        d.u32(a).u32(v);
    };
    let user_datas = config.user_datas.len() as u32;
    entry(&mut d, 0x8000_1000, user_datas);
    for (k, u) in config.user_datas.iter().enumerate() {
        let k = (k as u32) << 2;
        entry(&mut d, 0x8000_1001 + k, u.data_class);
        entry(&mut d, 0x8000_1002 + k, u.api_slot);
        entry(&mut d, 0x8000_1003 + k, u.reg_start);
        entry(&mut d, 0x8000_1004 + k, u.reg_size);
    }
    if older1124 {
        for k in user_datas..16 {
            let k = k << 2;
            for i in 1..=4 {
                entry(&mut d, 0x8000_1000 + i + k, 0);
            }
        }
    }
    let local_size = if local_pointers {
        32768
    } else {
        config.hw_local_size as u32
    };
    let user_sgprs = user_sgprs(&config.user_datas);
    let rsrc2 = config.rsrc.pgm_rsrc2(
        gen,
        &gpu::RsrcLayout {
            user_data: user_sgprs,
            scratch: config.scratch_buffer_size != 0,
            dim_mask: config.dim_mask,
            lds_size: local_size,
            ..gpu::RsrcLayout::default()
        },
    );
    entry(&mut d, 0x8000_1041, config.used_vgprs);
    entry(&mut d, 0x8000_1042, config.used_sgprs);
    entry(&mut d, 0x8000_1863, gpu::max_sgprs_without_vcc(gen));
    entry(&mut d, 0x8000_1864, 256);
    entry(&mut d, 0x8000_1043, config.rsrc.float_mode);
    entry(&mut d, 0x8000_1044, u32::from(config.rsrc.ieee_mode));
    entry(&mut d, 0x8000_1045, (config.scratch_buffer_size + 3) >> 2);
    entry(&mut d, 0x0000_2e13, rsrc2);
    let cws = config.reqd_work_group_size;
    if cws[0] != 0 && cws[1] != 0 && cws[2] != 0 {
        entry(&mut d, 0x8000_001c, cws[0]);
        entry(&mut d, 0x8000_001d, cws[1]);
        entry(&mut d, 0x8000_001e, cws[2]);
    } else {
        entry(&mut d, 0x8000_001c, 256);
        entry(&mut d, 0x8000_001d, 0);
        entry(&mut d, 0x8000_001e, 0);
    }
    entry(&mut d, 0x8000_1841, 0);
    let mut uav_mask = [0u32; 32];
    uav_mask[0] = wo_used_mask;
    for (k, arg) in config.args.iter().enumerate() {
        if arg.used != 0 && is_global_or_new_const(arg, older1348) {
            let u = r.arg_res_ids[k] as usize;
            if u < 1024 {
                uav_mask[u >> 5] |= 1 << (u & 31);
            }
        }
    }
    if !older1348 && config.use_const_data {
        if let Some(cb) = r.const_buffer_id {
            uav_mask[0] |= 1u32.wrapping_shl(cb);
        }
    }
    if config.use_printf {
        uav_mask[0] |= 1u32.wrapping_shl(r.printf_id.unwrap_or(9));
    }
    entry(&mut d, 0x8000_001f, uav_mask[0]);
    for (p, &m) in uav_mask.iter().enumerate() {
        entry(&mut d, 0x8000_1843 + p as u32, m);
    }
    entry(&mut d, 0x8000_000a, 1);
    entry(&mut d, 0x8000_0078, 64);
    entry(&mut d, 0x8000_0081, 32768);
    entry(&mut d, 0x8000_0082, ((rsrc2 >> 15) & 0x1ff) << 8);
    cal_note(&mut out, calnote::PROGINFO, &d.0);

    cal_note(&mut out, calnote::SUB_CONSTANT_BUFFERS, &[]);
    cal_note(&mut out, calnote::UAV_MAILBOX_SIZE, &0u32.to_le_bytes());
    let mut d = Bytes::default();
    for m in uav_mask {
        d.u32(m);
    }
    cal_note(&mut out, calnote::UAV_OP_MASK, &d.0);
    out.0
}

/// Unique ids and function ids already taken by kernels given raw metadata.
fn taken_unique_ids(input: &Input) -> BTreeSet<u32> {
    let mut ids = BTreeSet::new();
    for k in &input.kernels {
        let KernelSetup::Raw { metadata, .. } = &k.setup else {
            continue;
        };
        let md = metadata.as_slice();
        if md.len() < 11 {
            continue;
        }
        let limit = md.len() - 11;
        let Some(pos) = (0..limit).find(|&p| &md[p..p + 11] == b"\n;uniqueid:") else {
            continue;
        };
        let mut pos = pos + 11;
        if let Some((v, _)) = parse_c_number(&md[pos..]) {
            ids.insert(v);
        }
        while pos < limit && &md[pos..pos + 11] != b"\n;function:" {
            pos += 1;
        }
        if pos >= limit {
            continue;
        }
        pos += 11;
        let Some(colon) = md[pos..].iter().position(|&c| c == b':') else {
            continue;
        };
        let start = pos + colon + 1;
        if start >= md.len() {
            continue;
        }
        if let Some((v, _)) = parse_c_number(&md[start..]) {
            ids.insert(v);
        }
    }
    ids
}

struct KernelParts {
    metadata: Vec<u8>,
    header: Vec<u8>,
    inner: Vec<u8>,
}

/// Section index of a format section in an inner ELF: `.text` 2, `.data` 3; extra
/// sections from 6.
fn inner_section(place: SymbolPlace) -> Option<u16> {
    match place {
        SymbolPlace::Text => Some(2),
        SymbolPlace::Data => Some(3),
        _ => None,
    }
}

/// Section index of a format section in the main ELF: with kernels `.rodata` 4, `.text`
/// 5, `.comment` 6 (extra sections from 7), without only `.comment` 4 (extra sections
/// from 5).
fn main_section(place: SymbolPlace, has_kernels: bool) -> Option<u16> {
    match (place, has_kernels) {
        (SymbolPlace::Rodata, true) => Some(4),
        (SymbolPlace::Text, true) => Some(5),
        (SymbolPlace::Comment, true) => Some(6),
        (SymbolPlace::Comment, false) => Some(4),
        _ => None,
    }
}

fn inner_binary(
    input: &Input,
    kernel: &KernelInput,
    notes: Vec<u8>,
) -> Result<Vec<u8>, FormatError> {
    let class = Class::Elf32;
    let header = Header {
        os_abi: 0x64,
        abi_version: 1,
        e_type: elf::ET_EXEC,
        machine: 0x7d,
        version: 1,
        flags: 1,
        ..Default::default()
    };
    let mut b = ElfBuilder::new(class, header);
    b.add(Region::program_headers(class));
    // CAL encoding entry: patched once the size is known.
    b.add(Region::user(vec![0; 20], 0));
    b.add(Region::generated(".shstrtab", elf::SHT_STRTAB, 0, 0));
    b.add(Region::section_headers(class));
    b.add(Region::user(notes, 0));
    b.add(Region::section(
        ".text",
        elf::SHT_PROGBITS,
        0,
        0,
        kernel.code.clone(),
    ));
    let data = kernel.data.clone().unwrap_or_else(|| vec![0; 4736]);
    let mut data_region = Region::section(".data", elf::SHT_PROGBITS, 0, 0, data);
    data_region.info_mut().ent_size = kernel.data.as_ref().map_or(0, |d| d.len() as u64);
    b.add(data_region);
    let mut symtab = Region::generated(".symtab", elf::SHT_SYMTAB, 0, 0);
    symtab.info_mut().info = Some(1);
    b.add(symtab);
    if kernel.extra_symbols.is_empty() {
        // Two zero bytes, as the reference writes an empty inner `.strtab`.
        b.add(Region::section(
            ".strtab",
            elf::SHT_STRTAB,
            0,
            0,
            vec![0, 0],
        ));
    } else {
        b.add(Region::generated(".strtab", elf::SHT_STRTAB, 0, 0));
    }
    b.add_extra_sections(&kernel.extra_sections);
    for s in &kernel.extra_symbols {
        b.symbols.push(s.entry(inner_section, 6)?);
    }
    let ph = |p_type: u32, start: usize, regions: usize, mem: bool| ProgramHeader {
        p_type,
        flags: 0,
        region_start: start,
        regions,
        have_mem_size: mem,
        paddr_base: elf::AddrBase::Header,
        vaddr_base: elf::AddrBase::Header,
        mem_size: 0,
        align: 0,
    };
    b.program_headers.push(ph(0x7000_0002, 1, 1, false));
    b.program_headers.push(ph(4, 4, 1, false));
    b.program_headers.push(ph(1, 5, 4, true));
    let mut bytes = b.build();
    let machine = INNER_DEVICE_CODES
        .get(gpu::device_index(input.device))
        .copied()
        .unwrap_or(0);
    let size = bytes.len() as u32;
    let mut entry = Bytes::default();
    entry
        .u32(machine)
        .u32(4)
        .u32(0x1c0)
        .u32(size.wrapping_sub(0x1c0))
        .u32(0);
    // The entry is the region after the program headers.
    let at = 52 + 3 * 32;
    bytes[at..at + 20].copy_from_slice(&entry.0);
    Ok(bytes)
}

/// Writes the binary.
/// Errors: every kernel's first refusal, or the binary's.
pub fn write(input: &Input) -> Result<Vec<u8>, Vec<FormatError>> {
    let (driver_info, driver) = resolve_driver(input);
    let older1348 = driver < 134805;
    let Some(machine) = device_code(input.device) else {
        return Err(vec![FormatError::new(format!(
            "the AMD OpenCL 1.2 binary format has no device code for {}",
            input.device
        ))]);
    };
    let taken = taken_unique_ids(input);
    let mut unique_id = 1024u32;
    let mut parts = Vec::new();
    let mut errors = Vec::new();
    // Each kernel is checked, so that all their problems are told at once.
    let mut kernel_parts = |kernel: &KernelInput| -> Result<KernelParts, FormatError> {
        Ok(match &kernel.setup {
            KernelSetup::Raw {
                metadata,
                header,
                cal_notes,
            } => {
                if metadata.is_empty() {
                    return Err(FormatError::kernel(&kernel.name, "neither a configuration (`.config`) nor its metadata (`.metadata`) is given"));
                }
                if header.is_empty() {
                    return Err(FormatError::kernel(
                        &kernel.name,
                        "without a configuration (`.config`) it needs its header (`.header`)",
                    ));
                }
                let mut notes = Bytes::default();
                for n in cal_notes {
                    cal_note(&mut notes, n.note_type, &n.data);
                }
                KernelParts {
                    metadata: metadata.clone(),
                    header: header.clone(),
                    inner: inner_binary(input, kernel, notes.0)?,
                }
            }
            KernelSetup::Config(config) => {
                while taken.contains(&unique_id) {
                    unique_id += 1;
                }
                let mut r = resolve_config(driver, input, &kernel.name, config)?;
                let md = metadata(driver, input, &kernel.name, config, &mut r, unique_id)?;
                let notes = cal_notes(driver, input, config, &r);
                let mut header = Bytes::default();
                header
                    .u32(if driver >= 164205 { r.uav_private } else { 0 })
                    .u32(0)
                    .u32(if older1348 { 0 } else { r.uav_private })
                    .u32(config.hw_local_size as u32)
                    .u32((if input.is64 { 8 } else { 0 }) | (if config.use_printf { 2 } else { 0 }))
                    .u32(1)
                    .u32(0)
                    .u32(0);
                unique_id += 1;
                KernelParts {
                    metadata: md.into_bytes(),
                    header: header.0,
                    inner: inner_binary(input, kernel, notes)?,
                }
            }
        })
    };
    for kernel in &input.kernels {
        match kernel_parts(kernel) {
            Ok(part) => parts.push(part),
            Err(e) => errors.push(e),
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }

    let class = if input.is64 {
        Class::Elf64
    } else {
        Class::Elf32
    };
    let header = Header {
        e_type: elf::ET_EXEC,
        machine,
        version: 1,
        ..Default::default()
    };
    let mut b = ElfBuilder::new(class, header);
    let has_kernels = !input.kernels.is_empty();

    // Symbol names and symbols are written by hand, as the reference lays them out.
    let mut syms = LocalSymbols::new(class);
    if !input.compile_options.is_empty() {
        let shndx = if has_kernels { 6 } else { 4 };
        syms.add(
            b"__OpenCL_compile_options",
            shndx,
            0,
            input.compile_options.len() as u64,
            elf::STT_OBJECT,
        );
    }
    let mut rodata_pos = 0u64;
    if let Some(g) = &input.global_data {
        let name: &[u8] = if older1348 {
            b"__OpenCL_2_global"
        } else {
            b"__OpenCL_0_global"
        };
        syms.add(name, 4, 0, g.len() as u64, elf::STT_OBJECT);
        rodata_pos += g.len() as u64;
    }
    let mut text_pos = 0u64;
    for (kernel, part) in input.kernels.iter().zip(&parts) {
        let name = &kernel.name;
        let (metadata, inner, header) = (
            part.metadata.len() as u64,
            part.inner.len() as u64,
            part.header.len() as u64,
        );
        syms.add(
            format!("__OpenCL_{name}_metadata").as_bytes(),
            4,
            rodata_pos,
            metadata,
            elf::STT_OBJECT,
        );
        rodata_pos += metadata;
        syms.add(
            format!("__OpenCL_{name}_kernel").as_bytes(),
            5,
            text_pos,
            inner,
            elf::STT_FUNC,
        );
        text_pos += inner;
        syms.add(
            format!("__OpenCL_{name}_header").as_bytes(),
            4,
            rodata_pos,
            header,
            elf::STT_OBJECT,
        );
        rodata_pos += header;
    }
    let first_extra = if has_kernels { 7 } else { 5 };
    for s in &input.extra_symbols {
        syms.add_symbol(&s.entry(|p| main_section(p, has_kernels), first_extra)?);
    }
    syms.add_sections(&mut b);
    if has_kernels {
        let mut rodata = Vec::new();
        if let Some(g) = &input.global_data {
            rodata.extend_from_slice(g);
        }
        let mut text = Vec::new();
        for part in &parts {
            rodata.extend_from_slice(&part.metadata);
            rodata.extend_from_slice(&part.header);
            text.extend_from_slice(&part.inner);
        }
        b.add(Region::section(
            ".rodata",
            elf::SHT_PROGBITS,
            elf::SHF_ALLOC,
            1,
            rodata,
        ));
        b.add(Region::section(
            ".text",
            elf::SHT_PROGBITS,
            elf::SHF_ALLOC | elf::SHF_EXECINSTR,
            1,
            text,
        ));
    }
    let mut comment = input.compile_options.clone().into_bytes();
    comment.extend_from_slice(driver_info.as_bytes());
    b.add(Region::section(
        ".comment",
        elf::SHT_PROGBITS,
        0,
        1,
        comment,
    ));
    b.add_extra_sections(&input.extra_sections);
    b.add(Region::section_headers(class));
    Ok(b.build())
}
