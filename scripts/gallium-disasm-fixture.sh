#!/bin/sh
# Makes the disassembly fixture of the GalliumCompute writer's tests, once:
# assembles crates/formats/tests/data/gallium_disasm.s with gcnasm, takes the ELF out of
# the Gallium binary and disassembles its .text with llvm-objdump from Debian's llvm-14
# (apt-get install llvm-14). The tests read the result and need no llvm-objdump.
#
# usage: scripts/gallium-disasm-fixture.sh [GCNASM]   (default: target/release/gcnasm)
set -eu
cd "$(dirname "$0")/.."
gcnasm=${1:-target/release/gcnasm}
data=crates/formats/tests/data
objdump=${LLVM_OBJDUMP:-llvm-objdump-14}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$gcnasm" -o "$tmp/gallium.bin" "$data/gallium_disasm.s"
python3 - "$tmp/gallium.bin" "$tmp/gallium.elf" <<'PY'
import sys
data = open(sys.argv[1], 'rb').read()
start = data.index(b'\x7fELF')
open(sys.argv[2], 'wb').write(data[start:])
PY
{
    echo "# $("$objdump" --version | grep -m1 'LLVM version' | sed 's/^ *//')"
    echo "# $objdump -d --triple=amdgcn-- --mcpu=tonga (ELF of gallium_disasm.s, from gcnasm)"
    "$objdump" -d --triple=amdgcn-- --mcpu=tonga "$tmp/gallium.elf" | grep -P '^\t|^[0-9a-f]+ <'
} > "$data/gallium_disasm.objdump"
echo "wrote $data/gallium_disasm.objdump"
