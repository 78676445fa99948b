//! The AMD HSA kernel descriptor (`amd_kernel_code_t`, 256 bytes) that AMD OpenCL 2.0
//! (`.hsaconfig`) and GalliumCompute from LLVM 4.0 put before each kernel's code.
//!
//! Fields the source leaves unset are `None` and get defaults when the descriptor is
//! finished by the format's writer, which knows the register counts and sizes.

/// `enable_sgpr_*` flags (`enableSgprRegisterFlags`).
pub mod sgpr_flags {
    pub const PRIVATE_SEGMENT_BUFFER: u16 = 1;
    pub const DISPATCH_PTR: u16 = 2;
    pub const QUEUE_PTR: u16 = 4;
    pub const KERNARG_SEGMENT_PTR: u16 = 8;
    pub const DISPATCH_ID: u16 = 16;
    pub const FLAT_SCRATCH_INIT: u16 = 32;
    pub const PRIVATE_SEGMENT_SIZE: u16 = 64;
    pub const GRID_WORKGROUP_COUNT_SHIFT: u16 = 7;
    pub const GRID_WORKGROUP_COUNT_X: u16 = 128;
    pub const GRID_WORKGROUP_COUNT_Y: u16 = 256;
    pub const GRID_WORKGROUP_COUNT_Z: u16 = 512;
}

/// Feature flags (`enableFeatureFlags`).
pub mod feature_flags {
    pub const ORDERED_APPEND_GDS: u16 = 1;
    /// Bits 1-2: log2(private element size) - 1.
    pub const PRIVATE_ELEM_SIZE_SHIFT: u16 = 1;
    pub const PTR64: u16 = 8;
    pub const DYNAMIC_CALL_STACK: u16 = 16;
    pub const DEBUG_ENABLED: u16 = 32;
    pub const XNACK_ENABLED: u16 = 64;
}

/// What the HSA configuration pseudo-ops set. `None`: not given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HsaConfig {
    pub code_version: Option<(u32, u32)>,
    pub machine: Option<(u16, u16, u16, u16)>,
    pub kernel_code_entry_offset: Option<u64>,
    pub kernel_code_prefetch_offset: Option<u64>,
    pub kernel_code_prefetch_size: Option<u64>,
    pub max_scratch_backing_memory: Option<u64>,
    pub pgm_rsrc1: u32,
    pub pgm_rsrc2: u32,
    pub sgpr_flags: u16,
    pub feature_flags: u16,
    pub workitem_private_segment_size: Option<u32>,
    pub workgroup_group_segment_size: Option<u32>,
    pub gds_segment_size: Option<u32>,
    pub kernarg_segment_size: Option<u64>,
    pub workgroup_fbarrier_count: Option<u32>,
    pub wavefront_sgpr_count: Option<u16>,
    pub workitem_vgpr_count: Option<u16>,
    pub reserved_vgprs: Option<(u16, u16)>,
    pub reserved_sgprs: Option<(u16, u16)>,
    pub debug_wavefront_private_segment_offset_sgpr: Option<u16>,
    pub debug_private_segment_buffer_sgpr: Option<u16>,
    /// log2 of the alignments and of the wavefront size.
    pub kernarg_segment_align: Option<u8>,
    pub group_segment_align: Option<u8>,
    pub private_segment_align: Option<u8>,
    pub wavefront_size: Option<u8>,
    pub call_convention: u32,
    pub runtime_loader_kernel_symbol: Option<u64>,
    pub control_directive: [u8; 128],
    // Settings that build PGM_RSRC1/2 rather than being fields themselves.
    pub dim_mask: u32,
    pub used_sgprs: Option<u32>,
    pub used_vgprs: Option<u32>,
    pub user_data_num: Option<u32>,
    pub ieee_mode: bool,
    pub float_mode: u32,
    pub priority: u32,
    pub exceptions: u32,
    pub tg_size: bool,
    pub debug_mode: bool,
    pub priv_mode: bool,
    pub dx10_clamp: bool,
}

impl Default for HsaConfig {
    fn default() -> Self {
        HsaConfig {
            code_version: None,
            machine: None,
            kernel_code_entry_offset: None,
            kernel_code_prefetch_offset: None,
            kernel_code_prefetch_size: None,
            max_scratch_backing_memory: None,
            pgm_rsrc1: 0,
            pgm_rsrc2: 0,
            sgpr_flags: 0,
            feature_flags: 0,
            workitem_private_segment_size: None,
            workgroup_group_segment_size: None,
            gds_segment_size: None,
            kernarg_segment_size: None,
            workgroup_fbarrier_count: None,
            wavefront_sgpr_count: None,
            workitem_vgpr_count: None,
            reserved_vgprs: None,
            reserved_sgprs: None,
            debug_wavefront_private_segment_offset_sgpr: None,
            debug_private_segment_buffer_sgpr: None,
            kernarg_segment_align: None,
            group_segment_align: None,
            private_segment_align: None,
            wavefront_size: None,
            call_convention: 0,
            runtime_loader_kernel_symbol: None,
            control_directive: [0; 128],
            dim_mask: 0,
            used_sgprs: None,
            used_vgprs: None,
            user_data_num: None,
            ieee_mode: false,
            float_mode: 0xc0,
            priority: 0,
            exceptions: 0,
            tg_size: false,
            debug_mode: false,
            priv_mode: false,
            dx10_clamp: false,
        }
    }
}

impl HsaConfig {
    /// User SGPRs the enabled `enable_sgpr_*` flags take (at most 16).
    pub fn user_sgprs_from_flags(&self) -> u32 {
        use sgpr_flags::*;
        let f = self.sgpr_flags;
        let on = |bit: u16, n: u32| if f & bit != 0 { n } else { 0 };
        let n = on(PRIVATE_SEGMENT_BUFFER, 4)
            + on(DISPATCH_PTR, 2)
            + on(QUEUE_PTR, 2)
            + on(KERNARG_SEGMENT_PTR, 2)
            + on(DISPATCH_ID, 2)
            + on(FLAT_SCRATCH_INIT, 2)
            + on(PRIVATE_SEGMENT_SIZE, 1)
            + on(GRID_WORKGROUP_COUNT_X, 1)
            + on(GRID_WORKGROUP_COUNT_Y, 1)
            + on(GRID_WORKGROUP_COUNT_Z, 1);
        n.min(16)
    }
}

/// A finished descriptor, every field known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KernelCode {
    pub code_version_major: u32,
    pub code_version_minor: u32,
    pub machine_kind: u16,
    pub machine_major: u16,
    pub machine_minor: u16,
    pub machine_stepping: u16,
    pub kernel_code_entry_offset: u64,
    pub kernel_code_prefetch_offset: u64,
    pub kernel_code_prefetch_size: u64,
    pub max_scratch_backing_memory: u64,
    pub pgm_rsrc1: u32,
    pub pgm_rsrc2: u32,
    pub sgpr_flags: u16,
    pub feature_flags: u16,
    pub workitem_private_segment_size: u32,
    pub workgroup_group_segment_size: u32,
    pub gds_segment_size: u32,
    pub kernarg_segment_size: u64,
    pub workgroup_fbarrier_count: u32,
    pub wavefront_sgpr_count: u16,
    pub workitem_vgpr_count: u16,
    pub reserved_vgpr_first: u16,
    pub reserved_vgpr_count: u16,
    pub reserved_sgpr_first: u16,
    pub reserved_sgpr_count: u16,
    pub debug_wavefront_private_segment_offset_sgpr: u16,
    pub debug_private_segment_buffer_sgpr: u16,
    pub kernarg_segment_align: u8,
    pub group_segment_align: u8,
    pub private_segment_align: u8,
    pub wavefront_size: u8,
    pub call_convention: u32,
    pub runtime_loader_kernel_symbol: u64,
    pub control_directive: [u8; 128],
}

impl KernelCode {
    /// The 256 bytes, little-endian.
    pub fn to_bytes(&self) -> [u8; 256] {
        let mut b = crate::elf::Bytes::default();
        b.u32(self.code_version_major)
            .u32(self.code_version_minor)
            .u16(self.machine_kind)
            .u16(self.machine_major)
            .u16(self.machine_minor)
            .u16(self.machine_stepping)
            .u64(self.kernel_code_entry_offset)
            .u64(self.kernel_code_prefetch_offset)
            .u64(self.kernel_code_prefetch_size)
            .u64(self.max_scratch_backing_memory)
            .u32(self.pgm_rsrc1)
            .u32(self.pgm_rsrc2)
            .u16(self.sgpr_flags)
            .u16(self.feature_flags)
            .u32(self.workitem_private_segment_size)
            .u32(self.workgroup_group_segment_size)
            .u32(self.gds_segment_size)
            .u64(self.kernarg_segment_size)
            .u32(self.workgroup_fbarrier_count)
            .u16(self.wavefront_sgpr_count)
            .u16(self.workitem_vgpr_count)
            .u16(self.reserved_vgpr_first)
            .u16(self.reserved_vgpr_count)
            .u16(self.reserved_sgpr_first)
            .u16(self.reserved_sgpr_count)
            .u16(self.debug_wavefront_private_segment_offset_sgpr)
            .u16(self.debug_private_segment_buffer_sgpr)
            .u8(self.kernarg_segment_align)
            .u8(self.group_segment_align)
            .u8(self.private_segment_align)
            .u8(self.wavefront_size)
            .u32(self.call_convention)
            .zeros(12)
            .u64(self.runtime_loader_kernel_symbol)
            .bytes(&self.control_directive);
        b.0.try_into().expect("256 bytes")
    }
}
