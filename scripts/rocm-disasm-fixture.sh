#!/bin/sh
# Makes the disassembly fixture of the ROCm writer's tests, once: assembles
# crates/formats/tests/data/rocm_disasm.s with gcnasm (a ROCm code object is one ELF) and
# disassembles each kernel's code after its 256-byte descriptor with llvm-objdump from
# Debian's llvm-14 (apt-get install llvm-14). The tests read the result and need no
# llvm-objdump.
#
# usage: scripts/rocm-disasm-fixture.sh [GCNASM]   (default: target/release/gcnasm)
set -eu
cd "$(dirname "$0")/.."
gcnasm=${1:-target/release/gcnasm}
data=crates/formats/tests/data
objdump=${LLVM_OBJDUMP:-llvm-objdump-14}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$gcnasm" -o "$tmp/rocm.elf" "$data/rocm_disasm.s"
# Code ranges: from each kernel's address + 256 to the next kernel (or the end of .text).
ranges=$(python3 - "$tmp/rocm.elf" <<'PY'
import struct, sys
b = open(sys.argv[1], 'rb').read()
shoff, = struct.unpack_from('<Q', b, 0x28)
shnum, shstrndx = struct.unpack_from('<HH', b, 0x3c)
sh = [struct.unpack_from('<IIQQQQIIQQ', b, shoff + 64 * i) for i in range(shnum)]
strs = sh[shstrndx]
name = lambda o, t: b[t[4] + o:b.index(b'\0', t[4] + o)].decode()
by = {name(s[0], strs): s for s in sh}
text, dynsym, dynstr = by['.text'], by['.dynsym'], by['.dynstr']
kernels = []
for i in range(1, dynsym[5] // 24):
    st_name, info, other, shndx, value, size = struct.unpack_from('<IBBHQQ', b, dynsym[4] + 24 * i)
    if info & 0xf in (2, 10):
        kernels.append(value)
kernels.sort()
ends = kernels[1:] + [text[3] + text[5]]
for start, end in zip(kernels, ends):
    print(hex(start + 256), hex(end))
PY
)
{
    echo "# $("$objdump" --version | grep -m1 'LLVM version' | sed 's/^ *//')"
    echo "# $objdump -d --triple=amdgcn-- --mcpu=fiji --start-address=KERNEL+256 --stop-address=NEXT (rocm_disasm.s, from gcnasm)"
    echo "$ranges" | while read -r start end; do
        "$objdump" -d --triple=amdgcn-- --mcpu=fiji --start-address="$start" --stop-address="$end" "$tmp/rocm.elf" \
            | grep -P '^\t[a-z]|^[0-9a-f]+ <'
    done
} > "$data/rocm_disasm.objdump"
echo "wrote $data/rocm_disasm.objdump"
