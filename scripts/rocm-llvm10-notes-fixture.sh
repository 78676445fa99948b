#!/bin/sh
# Makes the metadata fixture of the ROCm LLVM 10 format tests, once: assembles
# crates/formats/tests/data/rocm_llvm10/vector_add.s with gcnasm and decodes its notes
# with llvm-readelf from Debian's llvm-14 (apt-get install llvm-14), which reads the v3
# (MessagePack) metadata. The fixture keeps the note's bytes too, so the tests know LLVM
# decoded what the writer writes today. The tests need no llvm-readelf.
#
# usage: scripts/rocm-llvm10-notes-fixture.sh [GCNASM]   (default: target/release/gcnasm)
set -eu
cd "$(dirname "$0")/.."
gcnasm=${1:-target/release/gcnasm}
data=crates/formats/tests/data
readelf=${LLVM_READELF:-llvm-readelf-14}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$gcnasm" -o "$tmp/rocm.elf" "$data/rocm_llvm10/vector_add.s"
note=$(python3 - "$tmp/rocm.elf" <<'PY'
import struct, sys
b = open(sys.argv[1], 'rb').read()
shoff, = struct.unpack_from('<Q', b, 0x28)
shnum, shstrndx = struct.unpack_from('<HH', b, 0x3c)
sh = [struct.unpack_from('<IIQQQQIIQQ', b, shoff + 64 * i) for i in range(shnum)]
strs = sh[shstrndx]
name = lambda s: b[strs[4] + s[0]:b.index(b'\0', strs[4] + s[0])].decode()
note = next(s for s in sh if name(s) == '.note')
namesz, descsz, ntype = struct.unpack_from('<III', b, note[4])
desc = note[4] + 12 + (namesz + 3) // 4 * 4
print(b[desc:desc + descsz].hex())
PY
)
{
    echo "# $("$readelf" --version | grep -m1 'LLVM version' | sed 's/^ *//')"
    echo "# $readelf --notes (rocm_llvm10/vector_add.s, from gcnasm)"
    echo "# note: $note"
    "$readelf" --notes "$tmp/rocm.elf"
} > "$data/rocm_llvm10_notes.readelf"
echo "wrote $data/rocm_llvm10_notes.readelf"
