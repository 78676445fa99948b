#!/usr/bin/env python3
"""Operand lists and flags for a (mnemonic, encoding, generation), by rule.

The rules follow the instruction naming of the CLRX docs (type suffixes, dwordxN,
_x2, cmpswap...) with the docs' 'Syntax:' lines as the source for register counts
of vector-ALU and DS instructions. One-off: its output went into data/instructions.txt.
"""
import re

TYPE_RE = re.compile(r"^([fiub])(\d+)$")


def ty_regs(t):
    """(type suffix for the data file, register count) of a mnemonic type like f64, u16."""
    m = TYPE_RE.match(t or "")
    if not m:
        return "", 1
    kind, bits = m.group(1), int(m.group(2))
    regs = 2 if bits == 64 else 1
    if kind == "f":
        return f":f{bits}", regs
    return (":b16" if bits == 16 else ""), regs


def op(kind, regs=1, ty=""):
    return kind + (f":{regs}" if regs != 1 else "") + ty


def name_types(name):
    """Destination and source types from the mnemonic suffixes: v_cvt_f32_f16 -> (f32, f16)."""
    parts = name.split("_")
    tys = [p for p in parts[2:] if TYPE_RE.match(p)]
    if not tys:
        return None, None
    if len(tys) >= 2 and TYPE_RE.match(parts[-2]):
        return parts[-2], parts[-1]
    return tys[-1], tys[-1]


# ---------------------------------------------------------------- scalar ALU

def scalar_sizes(name):
    wide = bool(re.search(r"_[biu]64$", name))
    return (2, 2, 2) if wide else (1, 1, 1)


SOP2_SPECIAL = {
    "s_lshl_b64": "sdst:2,ssrc:2,ssrc", "s_lshr_b64": "sdst:2,ssrc:2,ssrc",
    "s_ashr_i64": "sdst:2,ssrc:2,ssrc", "s_bfe_u64": "sdst:2,ssrc:2,ssrc",
    "s_bfe_i64": "sdst:2,ssrc:2,ssrc", "s_bfm_b64": "sdst:2,ssrc,ssrc",
    "s_cbranch_g_fork": "ssrc:2,ssrc:2", "s_rfe_restore_b64": "ssrc:2,ssrc",
}
SOP1_SPECIAL = {
    "s_getpc_b64": "sdst:2", "s_setpc_b64": "ssrc:2", "s_rfe_b64": "ssrc:2",
    "s_cbranch_join": "ssrc", "s_set_gpr_idx_idx": "ssrc", "s_bitset0_b64": "sdst:2,ssrc",
    "s_bitset1_b64": "sdst:2,ssrc", "s_bitreplicate_b64_b32": "sdst:2,ssrc",
}
SOPC_SPECIAL = {"s_bitcmp0_b64": "ssrc:2,ssrc", "s_bitcmp1_b64": "ssrc:2,ssrc",
                "s_set_gpr_idx_on": "ssrc,gpridx"}
SOPK_SPECIAL = {
    "s_cbranch_i_fork": "sdst:2,reladdr", "s_call_b64": "sdst:2,reladdr",
    "s_getreg_b32": "sdst,hwreg", "s_getreg_regrd_b32": "sdst,hwreg",
    "s_setreg_b32": "hwreg,sdst", "s_setreg_imm32_b32": "hwreg,imm32",
    "s_subvector_loop_begin": "sdst,reladdr", "s_subvector_loop_end": "sdst,reladdr",
    "s_version": "imm16",
}
SOPP_NONE = {"s_endpgm", "s_barrier", "s_icache_inv", "s_ttracedata", "s_wakeup",
             "s_endpgm_saved", "s_set_gpr_idx_off", "s_endpgm_ordered_ps_done",
             "s_code_end", "s_wait_idle"}


def sop2(name):
    if name in SOP2_SPECIAL:
        return SOP2_SPECIAL[name]
    d, a, b = scalar_sizes(name)
    return f"{op('sdst', d)},{op('ssrc', a)},{op('ssrc', b)}"


def sop1(name):
    if name in SOP1_SPECIAL:
        return SOP1_SPECIAL[name]
    if re.search(r"_i32_[bi]64$", name):     # s_bcnt1_i32_b64, s_flbit_i32_i64...
        return "sdst,ssrc:2"
    d, a, _ = scalar_sizes(name)
    return f"{op('sdst', d)},{op('ssrc', a)}"


def sopc(name):
    if name in SOPC_SPECIAL:
        return SOPC_SPECIAL[name]
    d, a, b = scalar_sizes(name)
    return f"{op('ssrc', a)},{op('ssrc', b)}"


def sopk(name):
    if name in SOPK_SPECIAL:
        return SOPK_SPECIAL[name]
    if re.match(r"s_cmpk_.*_u32$", name):
        return "sdst,imm16"
    return "sdst,simm16"


def sopp(name):
    if name in SOPP_NONE:
        return "-"
    if name == "s_branch" or name.startswith("s_cbranch"):
        return "reladdr"
    if name == "s_waitcnt":
        return "waitcnt"
    if name.startswith("s_sendmsg"):
        return "sendmsg"
    return "simm16"


# ---------------------------------------------------------------- scalar memory

def smem_dwords(name):
    m = re.search(r"dwordx(\d+)$", name)
    return int(m.group(1)) if m else 1


def smem(name, enc):
    """Operands and flags of SMRD/SMEM instructions."""
    base = "sbase:4" if "_buffer_" in name or name.endswith("_buffer") else "sbase:2"
    if name in ("s_memtime", "s_memrealtime"):
        return "sdst:2", "load"
    if name in ("s_get_waveid_in_workgroup",):
        return "sdst", "load"
    if name.startswith("s_dcache_discard"):
        return f"{base},smoff", ""
    if name.startswith("s_dcache") or name.startswith("s_gl1_inv"):
        return "-", ""
    if name.startswith("s_atc_probe"):
        return f"sdataimm,{base},smoff", ""
    if "_atomic_" in name:
        n = 2 if name.endswith("_x2") else 1
        if "cmpswap" in name:
            n *= 2
        return f"{op('sdata', n)},{base},smoff", "atomic"
    n = smem_dwords(name)
    if "_store_" in name:
        return f"{op('sdata', n)},{base},smoff", "store"
    return f"{op('sdst', n)},{base},smoff", "load"


# ---------------------------------------------------------------- vector ALU

def src_ops(name, syntax, nsrc, first_vsrc=False):
    """Source operands of a VOP instruction: count from docs syntax where known."""
    dty, sty = name_types(name)
    t, regs = ty_regs(sty)
    out = []
    fields = [f for f in (syntax or []) if f[0].startswith("SRC") or f[0].startswith("VSRC")
              or f[0].startswith("SSRC")]
    for i in range(nsrc):
        n = regs
        if i < len(fields) and fields[i][1] is not None:
            n = fields[i][1]
        elif i < len(fields) and syntax is not None:
            n = 1 if regs == 2 and TYPE_RE.match(sty or "") and fields else regs
        kind = "vsrc" if (first_vsrc and i == 1) else "src"
        out.append(op(kind, n, t if not (n == 1 and t == ":f64") else ""))
    return out


def dst_op(name, syntax):
    dty, _ = name_types(name)
    t, regs = ty_regs(dty)
    for f, n in syntax or []:
        if f == "VDST" and n is not None:
            regs = n
    return op("vdst", regs, t if not (regs == 1 and t == ":f64") else "")


VOP_NONE = {"v_nop", "v_clrexcp", "v_pipeflush"}
CARRY_OUT = re.compile(r"^v_(add|sub|subrev)_(i32|co_u32)$|^v_(add|sub|subrev)_u32$")
CARRY_IN = re.compile(r"^v_(addc|subb|subbrev)(_co)?_u32$|^v_(add|sub|subrev)_co_ci_u32$")
K_MID = re.compile(r"^v_(madmk|fmamk)_f(16|32)$")
K_LAST = re.compile(r"^v_(madak|fmaak)_f(16|32)$")
MAC = re.compile(r"^v_(mac|fmac)(_legacy)?_f(16|32)$|^v_pk_fmac_f16$|^v_dot[24]c_")


def vop1(name, syntax, gen):
    if name in VOP_NONE:
        return "-", ""
    if name == "v_readfirstlane_b32":
        return "sdst,src", ""
    if name in ("v_swap_b32", "v_swaprel_b32"):
        return "vdst,vsrc", ""
    return f"{dst_op(name, syntax)},{src_ops(name, syntax, 1)[0]}", ""


def vop2(name, syntax, gen):
    """VOP2 instructions (which also have a VOP3 form, written with the same operands)."""
    _, sty = name_types(name)
    t, _ = ty_regs(sty)
    s = src_ops(name, syntax, 2, first_vsrc=True)
    if name == "v_cndmask_b32":
        return "vdst,src,vsrc,vccsrc", ""
    if CARRY_IN.match(name):
        return "vdst,vccdst,src,vsrc,vccsrc", "vop3b"
    if CARRY_OUT.match(name) and not (gen >= "1.4" and name.endswith("_u32") and "_co_" not in name):
        return "vdst,vccdst,src,vsrc", "vop3b"
    if K_MID.match(name):
        return f"vdst{t},src{t},kimm{t},vsrc{t}", "noe64"
    if K_LAST.match(name):
        return f"vdst{t},src{t},vsrc{t},kimm{t}", "noe64"
    if name == "v_readlane_b32":
        return "sdst,vsrc,ssrc", ""
    if name == "v_writelane_b32":
        return "vdst,ssrc,ssrc", ""
    if name.startswith("v_ldexp_f"):
        s[1] = "vsrc"
    flags = "mac" if MAC.match(name) else ""
    return f"{dst_op(name, syntax)},{','.join(s)}", flags


def vopc(name, syntax, gen):
    _, sty = name_types(name)
    t, regs = ty_regs(sty)
    a = op("src", regs, t)
    b = op("vsrc", regs, t)
    if "_class_" in name:
        b = "vsrc"
    if gen.startswith("1.5") and name.startswith("v_cmpx"):
        return f"{a},{b}", ""      # GFX10: v_cmpx writes EXEC only, no destination operand
    return f"vccdst,{a},{b}", ""


VOP3B = re.compile(r"^v_div_scale_f(32|64)$|^v_mad_(u64_u32|i64_i32)$|^v_(add|sub|subrev)_co_u32$")


def vop3(name, syntax, gen, flags_in=""):
    if name in ("v_readlane_b32", "v_readlane_regrd_b32"):
        return "sdst,vsrc,ssrc", ""
    if name in ("v_writelane_b32", "v_writelane_regwr_b32"):
        return "vdst,ssrc,ssrc", ""
    if "interp" in flags_in or name.startswith("v_interp_"):
        return interp_vop3(name)
    nsrc = len([f for f in (syntax or []) if f[0].startswith("SRC") or f[0].startswith("SSRC")
                or f[0].startswith("VSRC")])
    if not syntax:
        nsrc = 3
    s = src_ops(name, syntax, nsrc)
    if name.startswith("v_ldexp_f") or name == "v_trig_preop_f64":
        s[1] = "src"     # the exponent / segment select is an integer
    if VOP3B.match(name):
        return f"{dst_op(name, syntax)},vccdst,{','.join(s)}", "vop3b"
    return f"{dst_op(name, syntax)},{','.join(s)}", ""


def interp_vop3(name):
    if name == "v_interp_mov_f32":
        return "vdst,interp,attr", "interp"
    if name == "v_interp_p1lv_f16":
        return "vdst,vsrc,attr,vsrc", "interp"
    if name.startswith("v_interp_p2") and "f16" in name:
        return "vdst,vsrc,attr,vsrc", "interp"
    return "vdst,vsrc,attr", "interp"


def vop3p(name, syntax, gen):
    if "_mix" in name:
        return "vdst,src:f16,src:f16,src:f16", ""
    if name.startswith("v_dot"):
        return "vdst,src,src,src" + (":f32" if "f32" in name else ""), ""
    _, sty = name_types(name)
    t, _ = ty_regs(sty)
    n = 3 if re.match(r"v_pk_(mad|fma)_", name) else 2
    return ",".join(["vdst"] + [f"src{t}"] * n), ("mac" if name == "v_pk_fmac_f16" else "")


def vintrp(name):
    if name == "v_interp_mov_f32":
        return "vdst,interp,attr", ""
    return "vdst,vsrc,attr", ""


# ---------------------------------------------------------------- memory

def ds(name, syntax):
    flags = []
    if re.search(r"(read|write|wrxchg)2(st64)?_", name) or "2st64" in name:
        flags.append("offset2")
    if name.startswith("ds_gws") or name in ("ds_ordered_count",):
        flags.append("gds")
    ops = []
    for f, n in syntax or []:
        n = n or 1
        if f in ("VDST", "DST"):
            ops.append(op("vdst", n))
        elif f in ("ADDR", "VADDR"):
            ops.append("addr")
        elif f.startswith("VDATA") or f == "SRC":
            ops.append(op("vdata", n))
    if name in DS_SPECIAL:
        ops = DS_SPECIAL[name]
    elif syntax is None:
        ops = ds_rule(name)
    return ",".join(ops) or "-", ",".join(flags)


DS_SPECIAL = {
    "ds_gws_init": ["vdata"], "ds_gws_sema_br": ["vdata"], "ds_gws_barrier": ["vdata"],
    "ds_gws_sema_v": [], "ds_gws_sema_p": [], "ds_gws_sema_release_all": [],
    "ds_ordered_count": ["vdst", "addr"], "ds_write_addtid_b32": ["vdata"],
    "ds_read_addtid_b32": ["vdst"], "ds_append": ["vdst"], "ds_consume": ["vdst"],
    "ds_condxchg32_rtn_b64": ["vdst:2", "addr", "vdata:2"],
    "ds_condxchg32_rtn_b128": ["vdst:4", "addr", "vdata:4"],
}


def ds_rule(name):
    """Fallback for DS instructions the docs don't describe (GCN 1.5 additions)."""
    if "_src2_" in name:
        return ["addr"]
    n = 2 if re.search(r"_[bfiu]64$|_x2$", name) else 1
    if "read" in name or "load" in name:
        return [op("vdst", n), "addr"]
    if "write" in name or "store" in name:
        return ["addr", op("vdata", n)]
    return [op("vdst", n), "addr", op("vdata", n)]


def buf_dwords(name):
    m = re.search(r"format_(?:d16_)?(?:hi_)?(x|xy|xyz|xyzw)$", name)
    if m:
        n = len(m.group(1))
        return (n + 1) // 2 if "_d16_" in name else n
    m = re.search(r"dwordx(\d)$", name)
    if m:
        return int(m.group(1))
    if name.endswith("_x2") or "_x2_" in name:
        return 2
    return 1


def mubuf(name, enc):
    if name in ("buffer_wbinvl1", "buffer_wbinvl1_sc", "buffer_wbinvl1_vol",
                "buffer_gl0_inv", "buffer_gl1_inv"):
        return "-", ""
    if name == "buffer_store_lds_dword":
        return "srsrc:4,soffset", "store"
    n = buf_dwords(name)
    tail = "vaddr:1-2,srsrc:4,soffset"
    if "_atomic_" in name:
        if "cmpswap" in name:
            n *= 2
        return f"{op('vdata', n)},{tail}", "atomic" + (",cmpswap" if "cmpswap" in name else "")
    if "_store_" in name:
        return f"{op('vdata', n)},{tail}", "store"
    return f"{op('vdst', n)},{tail}", "load"


def mimg(name):
    if name.startswith("image_sample") or name.startswith("image_gather") or \
            name == "image_get_lod":
        flags = "sample" + (",gather4" if "gather" in name else "")
        return "vdst:1-4,vaddr:1-16,srsrc:4-8,ssamp:4", flags
    if "_atomic_" in name:
        n = "2" if "cmpswap" in name else "1"
        return f"vdata:{n}-4,vaddr:1-4,srsrc:4-8", "atomic" + (",cmpswap" if "cmpswap" in name else "")
    if name.startswith("image_store"):
        return "vdata:1-4,vaddr:1-4,srsrc:4-8", "store"
    return "vdst:1-4,vaddr:1-4,srsrc:4-8", "load"


def flat(name, enc):
    n = buf_dwords(name)
    if enc == "flat":
        addr, tail = "vaddr:2", ""
    elif enc == "global":
        addr, tail = "vaddr:1-2", ",saddr"
    else:
        addr, tail = "vaddr", ",saddr"
    if "_atomic_" in name:
        if "cmpswap" in name:
            d = n * 2
        else:
            d = n
        return f"{op('vdst', n)},{addr},{op('vdata', d)}{tail}", \
            "atomic" + (",cmpswap" if "cmpswap" in name else "")
    if "_store_" in name:
        return f"{addr},{op('vdata', n)}{tail}", "store"
    return f"{op('vdst', n)},{addr}{tail}", "load"


def operands(name, enc, gen, syntax, flags_in=""):
    """(operand list, flags) for the data file."""
    if enc == "sop2": return sop2(name), ""
    if enc == "sop1": return sop1(name), ""
    if enc == "sopc": return sopc(name), ""
    if enc == "sopk": return sopk(name), ""
    if enc == "sopp": return sopp(name), ""
    if enc in ("smrd", "smem"): return smem(name, enc)
    if enc == "vop1": return vop1(name, syntax, gen)
    if enc == "vop2": return vop2(name, syntax, gen)
    if enc == "vopc": return vopc(name, syntax, gen)
    if enc == "vop3": return vop3(name, syntax, gen, flags_in)
    if enc == "vop3p": return vop3p(name, syntax, gen)
    if enc == "vintrp": return vintrp(name)
    if enc == "ds": return ds(name, syntax)
    if enc in ("mubuf", "mtbuf"): return mubuf(name, enc)
    if enc == "mimg": return mimg(name)
    if enc == "exp": return "exptgt,expsrc,expsrc,expsrc,expsrc", ""
    if enc in ("flat", "global", "scratch"): return flat(name, enc)
    raise ValueError(enc)
