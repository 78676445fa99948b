//! Expressions: the assembler's own form (symbols bound at the point of use) and their
//! evaluation with CLRX's 64-bit semantics.
//!
//! A syntax-tree expression is lowered once, where it is written: known symbols become
//! values, unknown ones stay references ([`Ir::Sym`]). A lowered expression that still
//! references undefined symbols is kept as a pending fixup and evaluated again when they
//! are defined.

use crate::symbols::SymId;

/// A value: absolute, or an offset into a section (a label, `.`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Value {
    Abs(i64),
    Rel { section: u32, offset: i64 },
}

impl Value {
    pub fn abs(self) -> Option<i64> {
        match self {
            Value::Abs(v) => Some(v),
            Value::Rel { .. } => None,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnOp {
    Neg,
    Not,
    LogicalNot,
    Plus,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinOp {
    Mul,
    Div,
    UDiv,
    Rem,
    URem,
    Shl,
    Shr,
    AShr,
    And,
    Or,
    Xor,
    OrNot,
    Add,
    Sub,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    ULt,
    ULe,
    UGt,
    UGe,
    LogicalAnd,
    LogicalOr,
}

/// A lowered expression.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ir {
    Value(Value),
    Sym(SymId),
    Unary(UnOp, Box<Ir>),
    Binary(BinOp, Box<Ir>, Box<Ir>),
    Ternary(Box<Ir>, Box<Ir>, Box<Ir>),
}

/// Why an expression has no value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EvalError {
    /// It references symbols not defined yet.
    Pending,
    /// It can never have one.
    Invalid(String),
}

impl From<String> for EvalError {
    fn from(message: String) -> Self {
        EvalError::Invalid(message)
    }
}

impl Ir {
    /// Evaluates with `lookup` giving the current value of a symbol (None if undefined).
    pub fn eval(&self, lookup: &dyn Fn(SymId) -> Option<Value>) -> Result<Value, EvalError> {
        match self {
            Ir::Value(v) => Ok(*v),
            Ir::Sym(id) => lookup(*id).ok_or(EvalError::Pending),
            Ir::Unary(op, e) => unary(*op, e.eval(lookup)?),
            Ir::Binary(op, a, b) => {
                // Both sides first, so that "pending" wins over an error on one side only
                // when the other side is what is missing.
                let (a, b) = (a.eval(lookup), b.eval(lookup));
                binary(*op, a?, b?)
            }
            Ir::Ternary(c, t, e) => {
                let c = c.eval(lookup)?;
                let c = c.abs().ok_or_else(|| "condition of `?:` must be absolute".to_string())?;
                if c != 0 { t.eval(lookup) } else { e.eval(lookup) }
            }
        }
    }

    /// Symbols the expression waits for.
    pub fn symbols(&self, out: &mut Vec<SymId>) {
        match self {
            Ir::Value(_) => {}
            Ir::Sym(id) => out.push(*id),
            Ir::Unary(_, e) => e.symbols(out),
            Ir::Binary(_, a, b) => {
                a.symbols(out);
                b.symbols(out);
            }
            Ir::Ternary(c, t, e) => {
                c.symbols(out);
                t.symbols(out);
                e.symbols(out);
            }
        }
    }
}

fn unary(op: UnOp, v: Value) -> Result<Value, EvalError> {
    let Value::Abs(x) = v else {
        return match op {
            UnOp::Plus => Ok(v),
            _ => Err(EvalError::Invalid("only `+` and `-` apply to a section-relative value".into())),
        };
    };
    Ok(Value::Abs(match op {
        UnOp::Neg => x.wrapping_neg(),
        UnOp::Not => !x,
        UnOp::LogicalNot => i64::from(x == 0),
        UnOp::Plus => x,
    }))
}

fn truth(b: bool) -> i64 {
    // CLRX comparisons give all ones for true.
    if b { -1 } else { 0 }
}

fn binary(op: BinOp, a: Value, b: Value) -> Result<Value, EvalError> {
    use BinOp::*;
    match (a, b) {
        (Value::Abs(x), Value::Abs(y)) => abs_binary(op, x, y).map(Value::Abs),
        (Value::Rel { section, offset }, Value::Abs(y)) if matches!(op, Add | Sub) => {
            let offset = if op == Add { offset.wrapping_add(y) } else { offset.wrapping_sub(y) };
            Ok(Value::Rel { section, offset })
        }
        (Value::Abs(x), Value::Rel { section, offset }) if op == Add => {
            Ok(Value::Rel { section, offset: offset.wrapping_add(x) })
        }
        (Value::Rel { section: s1, offset: x }, Value::Rel { section: s2, offset: y }) if s1 == s2 => {
            match op {
                Sub | Eq | Ne | Lt | Le | Gt | Ge | ULt | ULe | UGt | UGe => {
                    abs_binary(op, x, y).map(Value::Abs)
                }
                _ => Err(not_absolute()),
            }
        }
        _ => Err(not_absolute()),
    }
}

fn not_absolute() -> EvalError {
    EvalError::Invalid("operation on section-relative values gives no absolute result".into())
}

fn abs_binary(op: BinOp, x: i64, y: i64) -> Result<i64, EvalError> {
    use BinOp::*;
    let (ux, uy) = (x as u64, y as u64);
    let division_by_zero = || EvalError::Invalid("division by zero".into());
    Ok(match op {
        Mul => x.wrapping_mul(y),
        Div => {
            if y == 0 {
                return Err(division_by_zero());
            }
            x.wrapping_div(y)
        }
        UDiv => (ux.checked_div(uy).ok_or_else(division_by_zero)?) as i64,
        Rem => {
            if y == 0 {
                return Err(division_by_zero());
            }
            x.wrapping_rem(y)
        }
        URem => (ux.checked_rem(uy).ok_or_else(division_by_zero)?) as i64,
        Shl => if uy >= 64 { 0 } else { (ux << uy) as i64 },
        Shr => if uy >= 64 { 0 } else { (ux >> uy) as i64 },
        AShr => if uy >= 64 { x >> 63 } else { x >> uy },
        And => x & y,
        Or => x | y,
        Xor => x ^ y,
        OrNot => x | !y,
        Add => x.wrapping_add(y),
        Sub => x.wrapping_sub(y),
        Eq => truth(x == y),
        Ne => truth(x != y),
        Lt => truth(x < y),
        Le => truth(x <= y),
        Gt => truth(x > y),
        Ge => truth(x >= y),
        ULt => truth(ux < uy),
        ULe => truth(ux <= uy),
        UGt => truth(ux > uy),
        UGe => truth(ux >= uy),
        LogicalAnd => i64::from(x != 0 && y != 0),
        LogicalOr => i64::from(x != 0 || y != 0),
    })
}

/// The binary operator of a token kind.
pub fn bin_op(kind: gcn_syntax::SyntaxKind) -> Option<BinOp> {
    use gcn_syntax::SyntaxKind::*;
    Some(match kind {
        STAR => BinOp::Mul,
        SLASH => BinOp::Div,
        SLASH2 => BinOp::UDiv,
        PERCENT => BinOp::Rem,
        PERCENT2 => BinOp::URem,
        SHL => BinOp::Shl,
        SHR => BinOp::Shr,
        ASHR => BinOp::AShr,
        AMP => BinOp::And,
        PIPE => BinOp::Or,
        CARET => BinOp::Xor,
        BANG => BinOp::OrNot,
        PLUS => BinOp::Add,
        MINUS => BinOp::Sub,
        EQ2 => BinOp::Eq,
        NEQ => BinOp::Ne,
        LT => BinOp::Lt,
        LE => BinOp::Le,
        GT => BinOp::Gt,
        GE => BinOp::Ge,
        LT_AT => BinOp::ULt,
        LE_AT => BinOp::ULe,
        GT_AT => BinOp::UGt,
        GE_AT => BinOp::UGe,
        AMP2 => BinOp::LogicalAnd,
        PIPE2 => BinOp::LogicalOr,
        _ => return None,
    })
}

pub fn un_op(kind: gcn_syntax::SyntaxKind) -> Option<UnOp> {
    use gcn_syntax::SyntaxKind::*;
    Some(match kind {
        MINUS => UnOp::Neg,
        TILDE => UnOp::Not,
        BANG => UnOp::LogicalNot,
        PLUS => UnOp::Plus,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bin(op: BinOp, x: i64, y: i64) -> i64 {
        let ir = Ir::Binary(op, Box::new(Ir::Value(Value::Abs(x))), Box::new(Ir::Value(Value::Abs(y))));
        ir.eval(&|_| None).unwrap().abs().unwrap()
    }

    #[test]
    fn operators_follow_clrx() {
        assert_eq!(bin(BinOp::Lt, 1, 2), -1);
        assert_eq!(bin(BinOp::ULt, -1, 2), 0);
        assert_eq!(bin(BinOp::UDiv, -2, 2), i64::MAX);
        assert_eq!(bin(BinOp::AShr, -8, 1), -4);
        assert_eq!(bin(BinOp::Shr, -8, 60), 15);
        assert_eq!(bin(BinOp::OrNot, 0, 0), -1);
    }

    #[test]
    fn labels_subtract_to_absolute() {
        let a = Ir::Value(Value::Rel { section: 0, offset: 12 });
        let b = Ir::Value(Value::Rel { section: 0, offset: 4 });
        let ir = Ir::Binary(BinOp::Sub, Box::new(a), Box::new(b));
        assert_eq!(ir.eval(&|_| None), Ok(Value::Abs(8)));
    }
}
