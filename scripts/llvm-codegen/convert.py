#!/usr/bin/env python3
"""convert.py LLC_S CPU OUT_CLRX OUT_MC

Translate llc-14 AMDGPU assembly into
  * OUT_CLRX: a CLRX-dialect source gcnasm accepts (ROCm format with one .kernel/.config
    per amdhsa kernel, or raw code for non-HSA targets such as tahiti), and
  * OUT_MC:   the same instruction/label lines in LLVM syntax only (for llvm-mc -show-encoding),
so that the i-th instruction of both files is the same instruction.
Also writes OUT_CLRX + '.args' with the gcnasm command line arguments.
"""
import sys, re

GPU = {'tahiti': 'Tahiti', 'hawaii': 'Hawaii', 'gfx701': 'Hawaii', 'gfx700': 'Kaveri',
       'fiji': 'Fiji', 'gfx803': 'Fiji', 'tonga': 'Tonga', 'gfx900': 'GFX900',
       'gfx906': 'GFX906', 'gfx1010': 'GFX1010', 'gfx1011': 'GFX1011', 'gfx1030': 'GFX1011'}

relcount = [0]


def strip_comment(l):
    # LLVM AMDGPU asm comments start with ';'
    i = l.find(';')
    if i >= 0:
        l = l[:i]
    return l.rstrip()


def conv_label(name):
    # CLRX symbol names: alnum, '.', '_' ; LLVM labels (.LBB0_1, .Ltmp0) already fit
    return name.replace('$', '_S_').replace('@', '_AT_')


def conv_instr(ins):
    """Return (list of CLRX lines) for one LLVM instruction line (already comment-stripped)."""
    out_pre = []
    s = ins.strip()
    # relocations: X@rel32@lo+A / X@rel32@hi+A / X@gotpcrel32@lo ...
    m = re.search(r'([A-Za-z_.$][\w.$]*)@(rel32|gotpcrel32|abs32)@(lo|hi)([+-]\d+)?', s)
    if m:
        sym, kind, part, add = m.group(1), m.group(2), m.group(3), m.group(4) or '+0'
        if kind == 'abs32':
            # absolute symbol (dynamic LDS base on non-HSA targets): no CLRX equivalent, use 0
            s = s[:m.start()] + '0x10000' + s[m.end():]
            return out_pre + ['\t' + s + '   # was ' + m.group(0)]
        if kind != 'rel32':
            raise ValueError('unsupported relocation ' + kind)
        relcount[0] += 1
        lab = '.Lrel_%d' % relcount[0]
        out_pre.append(lab + ':')
        # P (address of the literal) = instruction address + 4
        expr = '(%s %s - %s - 4)' % (conv_label(sym), add, lab)
        if part == 'lo':
            expr = '(%s & 0xffffffff)' % expr
        else:
            expr = '((%s >>> 32) & 0xffffffff)' % expr
        s = s[:m.start()] + expr + s[m.end():]
    # s_waitcnt vmcnt(0) lgkmcnt(0) -> joined by '&'
    if s.startswith('s_waitcnt ') and not s.startswith('s_waitcnt_'):
        parts = s[len('s_waitcnt '):].split()
        if all(re.match(r'\w+\(\d+\)$', p) for p in parts) and len(parts) > 1:
            s = 's_waitcnt ' + ' & '.join(parts)
    # exp target takes a comma in CLRX
    s = re.sub(r'^exp\s+(\w+)\s+', r'exp \1, ', s)
    # op_sel with fewer than 4 bits (v_permlane16: [fi, bound_ctrl]) -> pad to 4
    def pad(m):
        b = [x.strip() for x in m.group(1).split(',')]
        return 'op_sel:[%s]' % ','.join(b + ['0'] * (4 - len(b)))
    if not s.startswith('v_pk_'):
        s = re.sub(r'op_sel:\[([^\]]*)\]', pad, s)
    # names CLRX spells differently
    s = re.sub(r'^s_waitcnt_depctr\b', 's_waitcnt_decptr', s)
    if GEN11[0]:
        s = re.sub(r'^buffer_wbinvl1_vol\b', 'buffer_wbinvl1_sc', s)
    # hwreg(HW_REG_NAME[, off, size]) -> hwreg(@ID, off, size)
    def hw(m):
        a = [x.strip() for x in m.group(1).split(',')]
        name = a[0]
        if name.startswith('HW_REG_'):
            name = '@%d' % HWREG[name[7:]]
        off, size = (a[1], a[2]) if len(a) == 3 else ('0', '32')
        return 'hwreg(%s, %s, %s)' % (name, off, size)
    s = re.sub(r'hwreg\(([^)]*)\)', hw, s)
    # ds_swizzle offset:swizzle(MODE,...) -> numeric offset
    m = re.search(r'offset:swizzle\(([^)]*)\)', s)
    if m:
        s = s[:m.start()] + 'offset:%d' % swizzle(m.group(1)) + s[m.end():]
    return out_pre + ['\t' + s]


HWREG = dict(MODE=1, STATUS=2, TRAPSTS=3, HW_ID=4, GPR_ALLOC=5, LDS_ALLOC=6, IB_STS=7,
             SH_MEM_BASES=15, TBA_LO=16, TBA_HI=17, TMA_LO=18, TMA_HI=19, FLAT_SCR_LO=20,
             FLAT_SCR_HI=21, XNACK_MASK=22, HW_ID1=23, HW_ID2=24, POPS_PACKER=25, SHADER_CYCLES=29)
GEN11 = [False]


def swizzle(arg):
    a = [x.strip() for x in arg.split(',')]
    mode = a[0]
    if mode == 'BITMASK_PERM':
        pat = a[1].strip('"')
        andm = orm = xorm = 0
        for i, ch in enumerate(reversed(pat)):
            if ch == '1':
                orm |= 1 << i
            elif ch == 'p':
                andm |= 1 << i
            elif ch == 'i':
                andm |= 1 << i
                xorm |= 1 << i
        return andm | (orm << 5) | (xorm << 10)
    if mode == 'QUAD_PERM':
        v = [int(x) for x in a[1:5]]
        return 0x8000 | v[0] | (v[1] << 2) | (v[2] << 4) | (v[3] << 6)
    if mode == 'SWAP':
        return (0x1f) | (int(a[1]) << 10)
    if mode == 'REVERSE':
        return (0x1f) | ((int(a[1]) - 1) << 10)
    if mode == 'BROADCAST':
        size, lane = int(a[1]), int(a[2])
        return ((0x1f & ~(size - 1)) ) | ((lane & (size - 1)) << 5)
    raise ValueError('swizzle ' + arg)


def parse(path):
    text = open(path).read().split('\n')
    funcnames = set()
    for l in text:
        m = re.match(r'\s*\.type\s+([\w.$]+),@function', l)
        if m:
            funcnames.add(m.group(1))
    funcs = []       # (name, [body lines]) ; body lines are ('label', name) / ('ins', text) / ('align', n)
    kerns = {}       # name -> dict of .amdhsa_* settings
    cur = None
    inmeta = False
    inkd = None
    for raw in text:
        l = strip_comment(raw)
        st = l.strip()
        if st.startswith('.amdgpu_metadata'):
            inmeta = True
            continue
        if inmeta:
            if st.startswith('.end_amdgpu_metadata'):
                inmeta = False
            continue
        if st.startswith('.amdhsa_kernel '):
            inkd = st.split()[1]
            kerns[inkd] = {}
            continue
        if inkd:
            if st.startswith('.end_amdhsa_kernel'):
                inkd = None
            else:
                p = st.split()
                if p:
                    kerns[inkd][p[0]] = p[1] if len(p) > 1 else ''
            continue
        if not st:
            continue
        m = re.match(r'^([\w.$]+):$', st)
        if m:
            name = m.group(1)
            if name in funcnames:
                cur = (name, [])
                funcs.append(cur)
                continue
            if re.match(r'\.Lfunc_end\d+$', name):
                cur = None
                continue
            if cur is not None:
                cur[1].append(('label', name))
            continue
        if cur is None:
            continue
        if st.startswith('.'):
            m = re.match(r'\.p2align\s+(\d+)', st)
            if m:
                cur[1].append(('align', int(m.group(1))))
            continue
        cur[1].append(('ins', st))
    return funcs, kerns


def dims(kd):
    g = ''.join(a for a in 'xyz' if kd.get('.amdhsa_system_sgpr_workgroup_id_' + a, '1' if a == 'x' else '0') == '1')
    n = int(kd.get('.amdhsa_system_vgpr_workitem_id', '0'))
    l = 'xyz'[:n + 1]
    return g, l


def main():
    src, cpu, out_clrx, out_mc = sys.argv[1:5]
    gpu = GPU[cpu]
    GEN11[0] = gpu in ('Hawaii', 'Kaveri', 'Bonaire')
    funcs, kerns = parse(src)
    hsa = bool(kerns)
    clrx = []
    mc = []
    args = ['-b', 'rawcode', '-g', gpu]
    GEN11[0] = gpu in ('Hawaii', 'Kaveri', 'Bonaire')
    wave32 = any(k.get('.amdhsa_wavefront_size32') == '1' for k in kerns.values())
    if hsa:
        args = ['-b', 'rocm', '-g', gpu]
        clrx += ['.rocm', '.gpu ' + gpu]
        for name, kd in kerns.items():
            clrx.append('.kernel ' + conv_label(name))
            clrx.append('    .config')
            g, l = dims(kd)
            clrx.append('        .dims %s, %s' % (g, l) if g else '        .dims , %s' % l)
            flagmap = [('private_segment_buffer', '.use_private_segment_buffer'),
                       ('dispatch_ptr', '.use_dispatch_ptr'),
                       ('queue_ptr', '.use_queue_ptr'),
                       ('kernarg_segment_ptr', '.use_kernarg_segment_ptr'),
                       ('dispatch_id', '.use_dispatch_id'),
                       ('flat_scratch_init', '.use_flat_scratch_init'),
                       ('private_segment_size', '.use_private_segment_size')]
            for f, d in flagmap:
                if kd.get('.amdhsa_user_sgpr_' + f) == '1':
                    clrx.append('        ' + d)
            if kd.get('.amdhsa_system_sgpr_workgroup_info') == '1':
                clrx.append('        .tgsize')
            priv = int(kd.get('.amdhsa_private_segment_fixed_size', '0'))
            if kd.get('.amdhsa_system_sgpr_private_segment_wavefront_offset') == '1':
                clrx.append('        .private_segment_fixed_size %d' % max(priv, 4))
            elif priv:
                clrx.append('        # private size %d without wave offset: not declared' % priv)
            lds = int(kd.get('.amdhsa_group_segment_fixed_size', '0'))
            if lds:
                clrx.append('        .group_segment_fixed_size %d' % lds)
            if kd.get('.amdhsa_wavefront_size32') == '1':
                clrx.append('        .use_wave32')
            nuser = int(kd.get('.amdhsa_user_sgpr_count', '0'))
            clrx.append('        # llvm user_sgpr_count %d' % nuser)
        clrx.append('.text')
    else:
        if cpu.startswith('gfx10') and wave32:
            args.append('-3')
    mc.append('\t.text')
    syms = sorted(set(re.findall(r'\bSCRATCH_RSRC_DWORD\d\b', open(src).read())))
    for sy in syms:
        # Mesa relocations for the scratch resource: no value in raw code, use 0
        clrx.append('%s = 0x10000' % sy)  # forces a literal like LLVM's fixup
    for name, body in funcs:
        kern = name in kerns
        if kern:
            clrx.append('.p2align 8')
        clrx.append(conv_label(name) + ':')
        mc.append(name + ':')
        if kern and hsa:
            clrx.append('\t.skip 256')
        for kind, v in body:
            if kind == 'label':
                clrx.append(conv_label(v) + ':')
                mc.append(v + ':')
            elif kind == 'align':
                clrx.append('.p2align %d' % v)
                mc.append('\t.p2align %d' % v)
            else:
                clrx += conv_instr(v)
                mc.append('\t' + v)
    open(out_clrx, 'w').write('\n'.join(clrx) + '\n')
    open(out_mc, 'w').write('\n'.join(mc) + '\n')
    open(out_clrx + '.args', 'w').write(' '.join(args) + '\n')


if __name__ == '__main__':
    main()
