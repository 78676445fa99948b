#! gpu=Tonga
# Register symbols naming inline constants (`x = %value`): clrxasm reads the value
# as an operand of no type (GCNAssembler::parseRegisterRange -> parseOperand with
# INSTROP_ONLYINLINECONSTS): integers -16..64 and single-precision float constants
# only; an integer with a float's bits, or a float in half or double precision, would
# be a literal and is refused.
.rawcode
half = %0.5
m16 = %-16
invpi = %0.15915494
s_add_u32 s1, half, m16
s_add_u32 s2, invpi, s3
bits = %0x3f000000
halfh = %0.5h
twol = %2.0l
big = %65
