//! Operands shared by every encoder: registers, inline constants, literals, modifiers.
