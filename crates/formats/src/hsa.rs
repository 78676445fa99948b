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
    /// The kernel runs in wave32 mode (GCN 1.5; `.use_wave32`).
    pub const WAVEFRONT_SIZE32: u16 = 1024;
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
    /// `.pgmrsrc1`, `.pgmrsrc2`, the modes, priority, exceptions, TG_SIZE.
    pub rsrc: crate::gpu::RsrcSettings,
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
            rsrc: crate::gpu::RsrcSettings::default(),
        }
    }
}

impl HsaConfig {
    /// User SGPRs the enabled `enable_sgpr_*` flags take (at most 16).
    pub fn user_sgprs_from_flags(&self) -> u32 {
        let n: u32 = self.user_sgprs_by_flags().iter().map(|&(n, _)| n).sum();
        n.min(16)
    }

    /// The user SGPRs the flags enable, in the order the setup fills them from s0.
    pub fn user_sgprs_by_flags(&self) -> Vec<(u32, Option<&'static str>)> {
        use sgpr_flags::*;
        const ORDER: [(u16, u32, &str); 10] = [
            (PRIVATE_SEGMENT_BUFFER, 4, "the private segment buffer"),
            (DISPATCH_PTR, 2, "the dispatch packet pointer"),
            (QUEUE_PTR, 2, "the queue pointer"),
            (KERNARG_SEGMENT_PTR, 2, "the kernel argument pointer"),
            (DISPATCH_ID, 2, "the dispatch id"),
            (FLAT_SCRATCH_INIT, 2, "the flat scratch init"),
            (PRIVATE_SEGMENT_SIZE, 1, "the private segment size"),
            (GRID_WORKGROUP_COUNT_X, 1, "the grid's work-group count x"),
            (GRID_WORKGROUP_COUNT_Y, 1, "the grid's work-group count y"),
            (GRID_WORKGROUP_COUNT_Z, 1, "the grid's work-group count z"),
        ];
        ORDER
            .iter()
            .filter(|(bit, _, _)| self.sgpr_flags & bit != 0)
            .map(|&(_, n, what)| (n, Some(what)))
            .collect()
    }

    /// What the setup fills before the kernel starts: the user SGPRs (by the flags,
    /// unnamed when `.userdatanum` sets another count), work-group ids, work-group
    /// info, private segment offset; work-item ids.
    pub fn setup_layout(&self) -> Vec<crate::gpu::SetupReg> {
        let by_flags = self.user_sgprs_by_flags();
        let from_flags: u32 = by_flags.iter().map(|&(n, _)| n).sum();
        // The setup fills at most 16: past that, or with another count given, the
        // registers are not named.
        let user = match self.user_data_num {
            Some(n) if n != from_flags => vec![(n, None)],
            None if from_flags > 16 => vec![(16, None)],
            _ => by_flags
                .into_iter()
                .map(|(n, what)| (n, what.map(str::to_string)))
                .collect(),
        };
        let private = self.workitem_private_segment_size.is_some_and(|s| s != 0);
        crate::gpu::setup_layout(&user, self.dim_mask, self.rsrc.tg_size, private)
    }
}

/// What a format's writer puts in a descriptor: the program resource registers it
/// builds, and the values of the fields the source leaves unset that depend on it.
pub(crate) struct KernelCodeDefaults {
    pub machine: (u16, u16, u16, u16),
    pub pgm_rsrc1: u32,
    pub pgm_rsrc2: u32,
    pub private_segment_size: u32,
    pub group_segment_size: u32,
    pub kernarg_segment_size: u64,
    pub wavefront_sgpr_count: u16,
    pub workitem_vgpr_count: u16,
    pub reserved_vgpr_first: u16,
    pub reserved_sgpr_first: u16,
}

/// A kernel's register counts when its descriptor gives none, from what its code uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DefaultRegisters {
    /// SGPRs with VCC, FLAT_SCRATCH and XNACK_MASK, at most the generation's maximum.
    pub sgprs: u32,
    /// SGPRs without them (the numbered ones the code and the setup need).
    pub numbered_sgprs: u32,
    pub vgprs: u32,
    /// The special registers counted: the code's, VCC always, and those the descriptor
    /// asks for.
    pub extra: crate::gpu::ExtraRegs,
}

impl HsaConfig {
    /// The SGPRs and VGPRs the setup fills before the kernel starts (user SGPRs,
    /// work-group ids, work-group info, private segment offset; work-item ids).
    pub fn setup_registers(&self) -> (u32, u32) {
        crate::gpu::setup_counts(&self.setup_layout())
    }

    /// The registers the kernel takes when `.sgprsnum`/`.vgprsnum` are not given: what
    /// its code uses (`code_sgprs`, `code_vgprs`, `code_extra`) and its setup needs.
    pub fn default_registers(
        &self,
        gen: gcn_isa::Generation,
        code_sgprs: u32,
        code_vgprs: u32,
        code_extra: crate::gpu::ExtraRegs,
    ) -> DefaultRegisters {
        use crate::gpu;
        let (min_sgprs, min_vgprs) = self.setup_registers();
        let extra = gpu::ExtraRegs {
            vcc: true,
            flat_scratch: code_extra.flat_scratch
                || self.sgpr_flags & sgpr_flags::FLAT_SCRATCH_INIT != 0,
            xnack_mask: code_extra.xnack_mask
                || self.feature_flags & feature_flags::XNACK_ENABLED != 0,
        };
        let numbered_sgprs = min_sgprs.max(code_sgprs);
        DefaultRegisters {
            sgprs: (numbered_sgprs + gpu::extra_sgprs(gen, extra)).min(gpu::max_sgprs(gen)),
            numbered_sgprs,
            vgprs: min_vgprs.max(code_vgprs),
            extra,
        }
    }
}

impl HsaConfig {
    /// The finished descriptor: the fields given, else the writer's values in `d` or
    /// the fixed defaults.
    pub(crate) fn kernel_code(&self, d: KernelCodeDefaults) -> KernelCode {
        let (code_major, code_minor) = self.code_version.unwrap_or((1, 0));
        let (kind, major, minor, stepping) = self.machine.unwrap_or(d.machine);
        KernelCode {
            code_version_major: code_major,
            code_version_minor: code_minor,
            machine_kind: kind,
            machine_major: major,
            machine_minor: minor,
            machine_stepping: stepping,
            kernel_code_entry_offset: self.kernel_code_entry_offset.unwrap_or(256),
            kernel_code_prefetch_offset: self.kernel_code_prefetch_offset.unwrap_or(0),
            kernel_code_prefetch_size: self.kernel_code_prefetch_size.unwrap_or(0),
            max_scratch_backing_memory: self.max_scratch_backing_memory.unwrap_or(0),
            pgm_rsrc1: d.pgm_rsrc1,
            pgm_rsrc2: d.pgm_rsrc2,
            sgpr_flags: self.sgpr_flags,
            feature_flags: self.feature_flags,
            workitem_private_segment_size: self
                .workitem_private_segment_size
                .unwrap_or(d.private_segment_size),
            workgroup_group_segment_size: self
                .workgroup_group_segment_size
                .unwrap_or(d.group_segment_size),
            gds_segment_size: self.gds_segment_size.unwrap_or(0),
            kernarg_segment_size: self.kernarg_segment_size.unwrap_or(d.kernarg_segment_size),
            workgroup_fbarrier_count: self.workgroup_fbarrier_count.unwrap_or(0),
            wavefront_sgpr_count: self.wavefront_sgpr_count.unwrap_or(d.wavefront_sgpr_count),
            workitem_vgpr_count: self.workitem_vgpr_count.unwrap_or(d.workitem_vgpr_count),
            reserved_vgpr_first: self.reserved_vgprs.map_or(d.reserved_vgpr_first, |r| r.0),
            reserved_vgpr_count: self.reserved_vgprs.map_or(0, |r| r.1),
            reserved_sgpr_first: self.reserved_sgprs.map_or(d.reserved_sgpr_first, |r| r.0),
            reserved_sgpr_count: self.reserved_sgprs.map_or(0, |r| r.1),
            debug_wavefront_private_segment_offset_sgpr: self
                .debug_wavefront_private_segment_offset_sgpr
                .unwrap_or(0),
            debug_private_segment_buffer_sgpr: self.debug_private_segment_buffer_sgpr.unwrap_or(0),
            kernarg_segment_align: self.kernarg_segment_align.unwrap_or(4),
            group_segment_align: self.group_segment_align.unwrap_or(4),
            private_segment_align: self.private_segment_align.unwrap_or(4),
            wavefront_size: self.wavefront_size.unwrap_or(6),
            call_convention: self.call_convention,
            runtime_loader_kernel_symbol: self.runtime_loader_kernel_symbol.unwrap_or(0),
            control_directive: self.control_directive,
        }
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
