//! Fields of the AMD HSA kernel descriptor, as AMD OpenCL 2.0 (`.hsaconfig`) and
//! GalliumCompute (from LLVM 4.0) set them.

use gcn_formats::gpu;
use gcn_formats::hsa::{feature_flags, sgpr_flags, HsaConfig};

use gcn_isa::PseudoOpId as Id;

use super::stmt::{at_most, no_args, value_arg, warn_range};
use super::{Host, Stmt};

/// A value field of the descriptor, or a setting that builds one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Field {
    SgprsNum,
    VgprsNum,
    PgmRsrc1,
    PgmRsrc2,
    FloatMode,
    Priority,
    UserDataNum,
    Exceptions,
    KernelCodeEntryOffset,
    KernelCodePrefetchOffset,
    KernelCodePrefetchSize,
    MaxScratchBackingMemory,
    WorkitemPrivateSegmentSize,
    WorkgroupGroupSegmentSize,
    GdsSegmentSize,
    KernargSegmentSize,
    WorkgroupFbarrierCount,
    WavefrontSgprCount,
    WorkitemVgprCount,
    DebugWavefrontPrivateSegmentOffsetSgpr,
    DebugPrivateSegmentBufferSgpr,
    PrivateElemSize,
    KernargSegmentAlign,
    GroupSegmentAlign,
    PrivateSegmentAlign,
    WavefrontSize,
    CallConvention,
    RuntimeLoaderKernelSymbol,
}

/// Value fields only an HSA configuration has (not `.sgprsnum` and the like).
pub(crate) fn hsa_only_field(id: Id) -> Option<Field> {
    use Field::*;
    Some(match id {
        Id::KernelCodeEntryOffset => KernelCodeEntryOffset,
        Id::KernelCodePrefetchOffset => KernelCodePrefetchOffset,
        Id::KernelCodePrefetchSize => KernelCodePrefetchSize,
        Id::MaxScratchBackingMemory => MaxScratchBackingMemory,
        Id::WorkitemPrivateSegmentSize => WorkitemPrivateSegmentSize,
        Id::WorkgroupGroupSegmentSize => WorkgroupGroupSegmentSize,
        Id::GdsSegmentSize => GdsSegmentSize,
        Id::KernargSegmentSize => KernargSegmentSize,
        Id::WorkgroupFbarrierCount => WorkgroupFbarrierCount,
        Id::WavefrontSgprCount => WavefrontSgprCount,
        Id::WorkitemVgprCount => WorkitemVgprCount,
        Id::DebugWavefrontPrivateSegmentOffsetSgpr => DebugWavefrontPrivateSegmentOffsetSgpr,
        Id::DebugPrivateSegmentBufferSgpr => DebugPrivateSegmentBufferSgpr,
        Id::PrivateElemSize => PrivateElemSize,
        Id::KernargSegmentAlign => KernargSegmentAlign,
        Id::GroupSegmentAlign => GroupSegmentAlign,
        Id::PrivateSegmentAlign => PrivateSegmentAlign,
        Id::WavefrontSize => WavefrontSize,
        Id::CallConvention => CallConvention,
        Id::RuntimeLoaderKernelSymbol => RuntimeLoaderKernelSymbol,
        _ => return None,
    })
}

/// Flags only an HSA configuration has (`.use_*`).
pub(crate) fn hsa_flag(id: Id) -> Option<(bool, u16)> {
    Some(match id {
        Id::UsePrivateSegmentBuffer => (true, sgpr_flags::PRIVATE_SEGMENT_BUFFER),
        Id::UseDispatchPtr => (true, sgpr_flags::DISPATCH_PTR),
        Id::UseQueuePtr => (true, sgpr_flags::QUEUE_PTR),
        Id::UseKernargSegmentPtr => (true, sgpr_flags::KERNARG_SEGMENT_PTR),
        Id::UseDispatchId => (true, sgpr_flags::DISPATCH_ID),
        Id::UseFlatScratchInit => (true, sgpr_flags::FLAT_SCRATCH_INIT),
        Id::UsePrivateSegmentSize => (true, sgpr_flags::PRIVATE_SEGMENT_SIZE),
        Id::UseOrderedAppendGds => (false, feature_flags::ORDERED_APPEND_GDS),
        Id::UsePtr64 => (false, feature_flags::PTR64),
        Id::UseDynamicCallStack => (false, feature_flags::DYNAMIC_CALL_STACK),
        Id::UseDebugEnabled => (false, feature_flags::DEBUG_ENABLED),
        Id::UseXnackEnabled => (false, feature_flags::XNACK_ENABLED),
        _ => return None,
    })
}

fn power_of_two(v: i64) -> bool {
    v > 0 && (v & (v - 1)) == 0
}

fn log2(v: i64) -> u8 {
    63 - (v as u64).leading_zeros() as u8
}

/// Checks a value for a field; reports and returns false when it is refused.
pub(crate) fn check(h: &mut dyn Host, st: &Stmt, field: Field, value: i64) -> bool {
    use Field::*;
    let range = st.arg_range(0);
    let gen = h.generation();
    let err = |h: &mut dyn Host, m: String| {
        h.error_at(range, m);
        false
    };
    match field {
        SgprsNum => {
            let max = gpu::max_sgprs(gen);
            if value as u64 > u64::from(max) {
                return err(h, format!("used SGPRs number out of range (0-{max})"));
            }
        }
        VgprsNum if value as u64 > u64::from(gpu::MAX_VGPRS) => {
            return err(
                h,
                format!("used VGPRs number out of range (0-{})", gpu::MAX_VGPRS),
            );
        }
        Exceptions => warn_range(h, range, 7, value),
        FloatMode => warn_range(h, range, 8, value),
        Priority => warn_range(h, range, 2, value),
        WorkgroupGroupSegmentSize => {
            warn_range(h, range, 32, value);
            if value as u64 > gpu::MAX_LOCAL_SIZE {
                return err(
                    h,
                    format!("local size out of range (0-{})", gpu::MAX_LOCAL_SIZE),
                );
            }
        }
        UserDataNum if value as u64 > 16 => {
            return err(h, "user data number out of range (0-16)".into())
        }
        PrivateElemSize => {
            if !power_of_two(value) {
                return err(h, "private element size must be a power of two".into());
            }
            if !(2..=16).contains(&value) {
                return err(h, "private element size out of range".into());
            }
        }
        KernargSegmentAlign | GroupSegmentAlign | PrivateSegmentAlign => {
            if !power_of_two(value) {
                return err(h, "alignment must be a power of two".into());
            }
            if value < 16 {
                return err(h, "alignment must not be smaller than 16".into());
            }
        }
        WavefrontSize => {
            if !power_of_two(value) {
                return err(h, "wavefront size must be a power of two".into());
            }
            if value > 256 {
                return err(h, "wavefront size must not be greater than 256".into());
            }
        }
        WorkitemPrivateSegmentSize
        | GdsSegmentSize
        | WorkgroupFbarrierCount
        | CallConvention
        | PgmRsrc1
        | PgmRsrc2 => warn_range(h, range, 32, value),
        DebugWavefrontPrivateSegmentOffsetSgpr | DebugPrivateSegmentBufferSgpr
            if value as u64 >= u64::from(gpu::max_sgprs(gen)) =>
        {
            return err(h, "SGPR register out of range".into());
        }
        _ => {}
    }
    true
}

/// Sets a checked value.
pub(crate) fn set(h: &mut HsaConfig, field: Field, value: i64) {
    use Field::*;
    let v32 = value as u32;
    match field {
        SgprsNum => h.used_sgprs = Some(v32),
        VgprsNum => h.used_vgprs = Some(v32),
        PgmRsrc1 => h.rsrc.pgm_rsrc1 = v32,
        PgmRsrc2 => h.rsrc.pgm_rsrc2 = v32,
        FloatMode => h.rsrc.float_mode = v32,
        Priority => h.rsrc.priority = v32,
        UserDataNum => h.user_data_num = Some(v32),
        Exceptions => h.rsrc.exceptions = v32,
        KernelCodeEntryOffset => h.kernel_code_entry_offset = Some(value as u64),
        KernelCodePrefetchOffset => h.kernel_code_prefetch_offset = Some(value as u64),
        KernelCodePrefetchSize => h.kernel_code_prefetch_size = Some(value as u64),
        MaxScratchBackingMemory => h.max_scratch_backing_memory = Some(value as u64),
        WorkitemPrivateSegmentSize => h.workitem_private_segment_size = Some(v32),
        WorkgroupGroupSegmentSize => h.workgroup_group_segment_size = Some(v32),
        GdsSegmentSize => h.gds_segment_size = Some(v32),
        KernargSegmentSize => h.kernarg_segment_size = Some(value as u64),
        WorkgroupFbarrierCount => h.workgroup_fbarrier_count = Some(v32),
        WavefrontSgprCount => h.wavefront_sgpr_count = Some(value as u16),
        WorkitemVgprCount => h.workitem_vgpr_count = Some(value as u16),
        DebugWavefrontPrivateSegmentOffsetSgpr => {
            h.debug_wavefront_private_segment_offset_sgpr = Some(value as u16)
        }
        DebugPrivateSegmentBufferSgpr => h.debug_private_segment_buffer_sgpr = Some(value as u16),
        PrivateElemSize => {
            h.feature_flags = (h.feature_flags & !6)
                | (u16::from(log2(value) - 1) << feature_flags::PRIVATE_ELEM_SIZE_SHIFT)
        }
        KernargSegmentAlign => h.kernarg_segment_align = Some(log2(value)),
        GroupSegmentAlign => h.group_segment_align = Some(log2(value)),
        PrivateSegmentAlign => h.private_segment_align = Some(log2(value)),
        WavefrontSize => h.wavefront_size = Some(log2(value)),
        CallConvention => h.call_convention = v32,
        RuntimeLoaderKernelSymbol => h.runtime_loader_kernel_symbol = Some(value as u64),
    }
}

/// Parses the one value of a field's pseudo-op and sets it.
pub(crate) fn value(h: &mut dyn Host, st: &Stmt, field: Field) -> Option<i64> {
    let v = value_arg(h, st, 0)?;
    if !check(h, st, field, v) || !at_most(h, st, 1) {
        return None;
    }
    Some(v)
}

/// `.machine KIND, MAJOR, MINOR, STEPPING`.
pub(crate) fn machine(h: &mut dyn Host, st: &Stmt) -> Option<(u16, u16, u16, u16)> {
    let mut v = [0u16; 4];
    for (i, slot) in v.iter_mut().enumerate() {
        let x = value_arg(h, st, i)?;
        warn_range(h, st.arg_range(i), 16, x);
        *slot = x as u16;
    }
    at_most(h, st, 4).then_some((v[0], v[1], v[2], v[3]))
}

/// `.codeversion MAJOR, MINOR`.
pub(crate) fn code_version(h: &mut dyn Host, st: &Stmt) -> Option<(u32, u32)> {
    let major = value_arg(h, st, 0)?;
    warn_range(h, st.arg_range(0), 32, major);
    let minor = value_arg(h, st, 1)?;
    warn_range(h, st.arg_range(1), 32, minor);
    // The reference keeps 16 bits of each.
    at_most(h, st, 2).then_some((u32::from(major as u16), u32::from(minor as u16)))
}

/// `.reserved_sgprs FIRST, LAST` / `.reserved_vgprs FIRST, LAST`: (first, count).
pub(crate) fn reserved(h: &mut dyn Host, st: &Stmt, vgprs: bool) -> Option<(u16, u16)> {
    let max = if vgprs {
        gpu::MAX_VGPRS
    } else {
        gpu::max_sgprs(h.generation())
    };
    let what = if vgprs { "VGPR" } else { "SGPR" };
    let first = value_arg(h, st, 0);
    let mut good = first.is_some();
    if let Some(f) = first {
        if f as u64 > u64::from(max - 1) {
            h.error_at(
                st.arg_range(0),
                format!(
                    "first reserved {what} register out of range (0-{})",
                    max - 1
                ),
            );
            good = false;
        }
    }
    let last = value_arg(h, st, 1);
    good &= last.is_some();
    if let Some(l) = last {
        if l as u64 > u64::from(max - 1) {
            h.error_at(
                st.arg_range(1),
                format!("last reserved {what} register out of range (0-{})", max - 1),
            );
            good = false;
        }
    }
    if let (Some(f), Some(l)) = (first, last) {
        if f > l {
            h.error_at(st.arg_range(1), "wrong register range");
            good = false;
        }
    }
    if !good || !at_most(h, st, 2) {
        return None;
    }
    let (f, l) = (first? as u16, last? as u16);
    Some((f, l.wrapping_sub(f).wrapping_add(1)))
}

/// `.use_grid_workgroup_count DIMS` applied to the flags.
pub(crate) fn set_grid_workgroup_count(h: &mut HsaConfig, mask: u32) {
    let shift = sgpr_flags::GRID_WORKGROUP_COUNT_SHIFT;
    h.sgpr_flags = (h.sgpr_flags & !(7 << shift)) | ((mask as u16) << shift);
}

/// Sets a `.use_*` flag.
pub(crate) fn set_flag(h: &mut HsaConfig, sgpr: bool, bit: u16) {
    if sgpr {
        h.sgpr_flags |= bit;
    } else {
        h.feature_flags |= bit;
    }
}

/// Whether a pseudo-op without arguments has none (reported otherwise).
pub(crate) fn no_args_ok(h: &mut dyn Host, st: &Stmt) -> bool {
    no_args(h, st)
}
