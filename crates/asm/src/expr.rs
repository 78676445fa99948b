//! Expressions: the assembler's own form (symbols bound where the expression is written)
//! and their evaluation with CLRX's 64-bit semantics.
//!
//! A syntax-tree expression is lowered once, where it is written: symbols that have a
//! value become values, the others stay references ([`Ir::Sym`]). An expression that
//! still references symbols is kept as a pending fixup; each time one of its symbols gets
//! a value, the value is substituted in place, and the expression is evaluated once the
//! last reference is gone.
//!
//! Section-relative values follow the reference: during evaluation a value is an offset
//! plus a linear combination of sections (`2*a - b`); the result must be absolute or one
//! section with coefficient 1. Addition, subtraction, multiplication by an absolute value,
//! left shifts, comparisons of values with the same sections, and the special cases of
//! bitwise and logical operators with 0 or -1 accept relative operands.
//!
//! Section differences (ROCm): the code and the global data are placed relative to each
//! other in the binary, at places known only when the assembly ends. Evaluated with
//! [`Sections::Space`], an expression that combines sections of that space beyond what
//! is known now (`code_label - data_label`, a product of two labels, comparing labels of
//! two sections) is not an error but [`EvalError::Later`]; evaluated again with
//! [`Sections::Placed`], each section of the space is at its address and the result, if
//! still a position, is one in the section holding it (as the reference does).

use crate::source::Location;
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

    /// The number stored for the value: the absolute value, or the offset in its section.
    pub fn raw(self) -> i64 {
        match self {
            Value::Abs(v) => v,
            Value::Rel { offset, .. } => offset,
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

/// Where an operator is written: an error that belongs to it (a division by zero) is
/// reported there, as the reference does, not at the expression's start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OpAt {
    pub loc: Location,
    pub len: u32,
}

/// A lowered expression.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ir {
    Value(Value),
    Sym(SymId),
    Unary(UnOp, Box<Ir>),
    /// The operator's place, when it was lowered from the source.
    Binary(BinOp, Box<Ir>, Box<Ir>, Option<OpAt>),
    Ternary(Box<Ir>, Box<Ir>, Box<Ir>),
}

/// Why an expression has no value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EvalError {
    /// It references symbols not defined yet.
    Pending,
    /// It can never have one: the message, and the operator it belongs to (if known).
    Invalid(String, Option<OpAt>),
    /// It combines sections whose places in the binary are known only at the end
    /// ([`Sections::Space`]).
    Later,
}

/// How positions in different sections combine.
#[derive(Clone, Copy)]
pub enum Sections<'a> {
    /// Only positions of one section combine (the sections' places are unknown).
    Single,
    /// The sections for which the function is true are placed relative to each other in
    /// the binary, at places known only at the end: an expression that needs them waits
    /// ([`EvalError::Later`]).
    Space(&'a dyn Fn(u32) -> bool),
    /// The end: the sections of the space and their addresses, the lowest first. A
    /// position in one of them is the first one's position plus the difference of their
    /// addresses; a resulting position is given in the section that holds it.
    Placed(&'a [(u32, i64)]),
}

impl Sections<'_> {
    /// A value as evaluation sees it: in [`Sections::Placed`], a position in a placed
    /// section is one in the first of them.
    fn value(&self, v: Value) -> Rv {
        if let (Sections::Placed(placed), Value::Rel { section, offset }) = (self, v) {
            if let (Some(&(base, base_addr)), Some(&(_, addr))) =
                (placed.first(), placed.iter().find(|p| p.0 == section))
            {
                return Rv {
                    v: (offset.wrapping_add(addr).wrapping_sub(base_addr)) as u64,
                    rels: vec![(base, 1)],
                };
            }
        }
        value_rv(v)
    }

    /// The reference's check of a relative operand where only an absolute one works:
    /// true if `r` is absolute, or (with [`Sections::Space`]) if all its sections are in
    /// the space, which makes the expression wait (`later`).
    fn absolute_or_later(&self, r: &Rv, later: &mut bool) -> bool {
        if r.rels.is_empty() {
            return true;
        }
        match self {
            Sections::Space(in_space) if r.rels.iter().all(|&(s, _)| in_space(s)) => {
                *later = true;
                true
            }
            _ => false,
        }
    }

    /// A position in the first placed section as one in the placed section holding it.
    fn place(&self, section: u32, offset: i64) -> Value {
        let Sections::Placed(placed) = self else {
            return Value::Rel { section, offset };
        };
        let Some(&(base, base_addr)) = placed.first() else {
            return Value::Rel { section, offset };
        };
        if section != base {
            return Value::Rel { section, offset };
        }
        let addr = base_addr.wrapping_add(offset);
        // The first section at the address, else the last one below it (the first one
        // when all are above), as the reference finds it.
        let i = placed
            .iter()
            .position(|p| p.1 >= addr)
            .unwrap_or(placed.len());
        let i = if i < placed.len() && placed[i].1 == addr {
            i
        } else {
            i.saturating_sub(1)
        };
        let holder = placed[i];
        Value::Rel {
            section: holder.0,
            offset: addr.wrapping_sub(holder.1),
        }
    }
}

impl From<String> for EvalError {
    fn from(message: String) -> Self {
        EvalError::Invalid(message, None)
    }
}

impl EvalError {
    /// The error with `at` as its place, unless it has one already (a deeper operator's).
    fn at(self, at: Option<OpAt>) -> EvalError {
        match self {
            EvalError::Invalid(message, None) => EvalError::Invalid(message, at),
            other => other,
        }
    }
}

/// A value during evaluation: an offset and `coefficient * section` terms.
#[derive(Debug, Clone, Default)]
struct Rv {
    v: u64,
    rels: Vec<(u32, u64)>,
}

impl Rv {
    fn abs(v: u64) -> Rv {
        Rv {
            v,
            rels: Vec::new(),
        }
    }
    fn is_abs(&self) -> bool {
        self.rels.is_empty()
    }
    fn negate_rels(&mut self) {
        for r in &mut self.rels {
            r.1 = r.1.wrapping_neg();
        }
    }
}

fn invalid<T>(message: &str) -> Result<T, EvalError> {
    Err(EvalError::Invalid(message.to_string(), None))
}

impl Ir {
    /// Evaluates with `lookup` giving the current value of a symbol (None if undefined);
    /// `warn` receives warnings (shift counts out of range).
    pub fn eval(
        &self,
        lookup: &dyn Fn(SymId) -> Option<Value>,
        warn: &mut dyn FnMut(String),
    ) -> Result<Value, EvalError> {
        self.eval_in(lookup, warn, Sections::Single)
    }

    /// [`eval`](Self::eval) with positions in different sections combining as `sections`
    /// says.
    pub fn eval_in(
        &self,
        lookup: &dyn Fn(SymId) -> Option<Value>,
        warn: &mut dyn FnMut(String),
        sections: Sections,
    ) -> Result<Value, EvalError> {
        let mut later = false;
        let rv = self.eval_rv(lookup, warn, &sections, &mut later)?;
        if later {
            return Err(EvalError::Later);
        }
        if rv.rels.is_empty() {
            return Ok(Value::Abs(rv.v as i64));
        }
        if rv.rels.len() == 1 && rv.rels[0].1 == 1 {
            return Ok(sections.place(rv.rels[0].0, rv.v as i64));
        }
        if let Sections::Space(in_space) = sections {
            if rv.rels.iter().all(|&(s, _)| in_space(s)) {
                return Err(EvalError::Later);
            }
        }
        invalid("only one section with coefficient 1 can be the result of an expression")
    }

    /// The number of nodes.
    pub fn size(&self) -> u64 {
        match self {
            Ir::Value(_) | Ir::Sym(_) => 1,
            Ir::Unary(_, e) => 1 + e.size(),
            Ir::Binary(_, a, b, _) => 1 + a.size() + b.size(),
            Ir::Ternary(c, t, e) => 1 + c.size() + t.size() + e.size(),
        }
    }

    /// Whether the expression references no symbol.
    pub fn is_closed(&self) -> bool {
        match self {
            Ir::Value(_) => true,
            Ir::Sym(_) => false,
            Ir::Unary(_, e) => e.is_closed(),
            Ir::Binary(_, a, b, _) => a.is_closed() && b.is_closed(),
            Ir::Ternary(c, t, e) => c.is_closed() && t.is_closed() && e.is_closed(),
        }
    }

    fn eval_rv(
        &self,
        lookup: &dyn Fn(SymId) -> Option<Value>,
        warn: &mut dyn FnMut(String),
        sections: &Sections,
        later: &mut bool,
    ) -> Result<Rv, EvalError> {
        match self {
            Ir::Value(v) => Ok(sections.value(*v)),
            Ir::Sym(id) => lookup(*id)
                .map(|v| sections.value(v))
                .ok_or(EvalError::Pending),
            Ir::Unary(op, e) => unary(*op, e.eval_rv(lookup, warn, sections, later)?),
            Ir::Binary(op, a, b, at) => {
                // Both sides first: "pending" wins over an error, as the reference only
                // evaluates an expression once every symbol in it is known.
                let (a, b) = (
                    a.eval_rv(lookup, warn, sections, later),
                    b.eval_rv(lookup, warn, sections, later),
                );
                match (a, b) {
                    (Err(EvalError::Pending), _) | (_, Err(EvalError::Pending)) => {
                        Err(EvalError::Pending)
                    }
                    (a, b) => binary(*op, a?, b?, warn, sections, later).map_err(|e| e.at(*at)),
                }
            }
            Ir::Ternary(c, t, e) => {
                let (c, t, e) = (
                    c.eval_rv(lookup, warn, sections, later),
                    t.eval_rv(lookup, warn, sections, later),
                    e.eval_rv(lookup, warn, sections, later),
                );
                if [&c, &t, &e]
                    .iter()
                    .any(|r| matches!(r, Err(EvalError::Pending)))
                {
                    return Err(EvalError::Pending);
                }
                let (c, t, e) = (c?, t?, e?);
                if !sections.absolute_or_later(&c, later) {
                    return invalid("the condition of `?:` must not be section-relative");
                }
                Ok(if c.v != 0 { t } else { e })
            }
        }
    }

    /// Symbols the expression references, each once, in order of first appearance.
    pub fn symbols(&self, out: &mut Vec<SymId>) {
        match self {
            Ir::Value(_) => {}
            Ir::Sym(id) => {
                if !out.contains(id) {
                    out.push(*id)
                }
            }
            Ir::Unary(_, e) => e.symbols(out),
            Ir::Binary(_, a, b, _) => {
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

    /// Replaces every reference to `id` by what `with` gives.
    pub fn substitute(&mut self, id: SymId, with: &dyn Fn() -> Ir) {
        match self {
            Ir::Value(_) => {}
            Ir::Sym(s) => {
                if *s == id {
                    *self = with();
                }
            }
            Ir::Unary(_, e) => e.substitute(id, with),
            Ir::Binary(_, a, b, _) => {
                a.substitute(id, with);
                b.substitute(id, with);
            }
            Ir::Ternary(c, t, e) => {
                c.substitute(id, with);
                t.substitute(id, with);
                e.substitute(id, with);
            }
        }
    }

    /// Whether the expression references `id`.
    pub fn mentions(&self, id: SymId) -> bool {
        match self {
            Ir::Value(_) => false,
            Ir::Sym(s) => *s == id,
            Ir::Unary(_, e) => e.mentions(id),
            Ir::Binary(_, a, b, _) => a.mentions(id) || b.mentions(id),
            Ir::Ternary(c, t, e) => c.mentions(id) || t.mentions(id) || e.mentions(id),
        }
    }
}

fn value_rv(v: Value) -> Rv {
    match v {
        Value::Abs(x) => Rv::abs(x as u64),
        Value::Rel { section, offset } => Rv {
            v: offset as u64,
            rels: vec![(section, 1)],
        },
    }
}

fn unary(op: UnOp, mut a: Rv) -> Result<Rv, EvalError> {
    match op {
        UnOp::Plus => {}
        UnOp::Neg => {
            a.negate_rels();
            a.v = a.v.wrapping_neg();
        }
        UnOp::Not => {
            // ~x = -x - 1: the sections are negated.
            a.negate_rels();
            a.v = !a.v;
        }
        UnOp::LogicalNot => {
            if !a.is_abs() {
                return invalid("logical negation is not allowed for a section-relative value");
            }
            a.v = u64::from(a.v == 0);
        }
    }
    Ok(a)
}

fn truth(b: bool) -> u64 {
    // CLRX comparisons give all ones for true.
    if b {
        u64::MAX
    } else {
        0
    }
}

fn shift_warning(warn: &mut dyn FnMut(String)) {
    warn("shift count out of range (0 to 63): the result is 0".to_string());
}

/// `a op b` where `a` is the left operand. Where an operator needs an absolute operand,
/// a relative one in the section space of `sections` passes for now and makes the
/// expression wait (`later`), as in the reference.
fn binary(
    op: BinOp,
    a: Rv,
    b: Rv,
    warn: &mut dyn FnMut(String),
    sections: &Sections,
    later: &mut bool,
) -> Result<Rv, EvalError> {
    use BinOp::*;
    let (x, y) = (a.v, b.v);
    // Whether an operand passes where an absolute one is needed; the reference checks
    // the right operand first, and the left one only when that decides anything.
    let mut check = |r: &Rv| sections.absolute_or_later(r, later);
    let (a_abs, b_abs) = match op {
        Add | Sub | Eq | Ne | Lt | Le | Gt | Ge | ULt | ULe | UGt | UGe => (a.is_abs(), b.is_abs()),
        // One absolute operand is enough.
        Mul => {
            let b_abs = check(&b);
            (!b_abs && check(&a), b_abs)
        }
        Div | UDiv | Rem | URem | Shr | AShr => {
            let b_abs = check(&b);
            (b_abs && check(&a), b_abs)
        }
        Shl => (a.is_abs(), check(&b)),
        And | Or | Xor | OrNot | LogicalAnd | LogicalOr => {
            let b_abs = check(&b);
            (check(&a), b_abs)
        }
    };
    let both_abs = a_abs && b_abs;
    let division = |what: &str| -> Result<(), EvalError> {
        if !both_abs {
            return Err(EvalError::Invalid(
                format!("{what} is not allowed for a section-relative value"),
                None,
            ));
        }
        if y == 0 {
            return invalid("division by zero");
        }
        Ok(())
    };
    Ok(match op {
        Add | Sub => {
            let mut rels = a.rels;
            let sign = if op == Sub { u64::MAX } else { 1 };
            for (s, m) in b.rels {
                let m = m.wrapping_mul(sign);
                match rels.iter_mut().find(|r| r.0 == s) {
                    Some(r) => r.1 = r.1.wrapping_add(m),
                    None => rels.push((s, m)),
                }
            }
            rels.retain(|r| r.1 != 0);
            let v = if op == Sub {
                x.wrapping_sub(y)
            } else {
                x.wrapping_add(y)
            };
            Rv { v, rels }
        }
        Mul => {
            if !a_abs && !b_abs {
                return invalid("multiplication of two section-relative values");
            }
            let (rel, factor) = if a.is_abs() { (b.rels, x) } else { (a.rels, y) };
            let rels = if factor == 0 {
                Vec::new()
            } else {
                rel.into_iter()
                    .map(|(s, m)| (s, m.wrapping_mul(factor)))
                    .collect()
            };
            Rv {
                v: x.wrapping_mul(y),
                rels,
            }
        }
        Div => {
            division("division")?;
            Rv::abs((x as i64).wrapping_div(y as i64) as u64)
        }
        UDiv => {
            division("division")?;
            Rv::abs(x / y)
        }
        Rem => {
            division("modulo")?;
            Rv::abs((x as i64).wrapping_rem(y as i64) as u64)
        }
        URem => {
            division("modulo")?;
            Rv::abs(x % y)
        }
        Shl => {
            if !b_abs {
                return invalid("a shift count must not be section-relative");
            }
            if y >= 64 {
                shift_warning(warn);
                Rv::abs(0)
            } else {
                Rv {
                    v: x << y,
                    rels: a.rels.into_iter().map(|(s, m)| (s, m << y)).collect(),
                }
            }
        }
        Shr | AShr => {
            if !both_abs {
                return invalid("a right shift is not allowed for a section-relative value");
            }
            if y >= 64 {
                shift_warning(warn);
                Rv::abs(if op == AShr && (x as i64) < 0 {
                    u64::MAX
                } else {
                    0
                })
            } else if op == AShr {
                Rv::abs(((x as i64) >> y) as u64)
            } else {
                Rv::abs(x >> y)
            }
        }
        And => {
            if (b_abs && y == 0) || (a_abs && x == 0) {
                Rv::abs(0)
            } else if b_abs && y == u64::MAX {
                a
            } else if a_abs && x == u64::MAX {
                b
            } else if !both_abs {
                return invalid("binary AND of a section-relative value (only with 0 or -1)");
            } else {
                Rv::abs(x & y)
            }
        }
        Or => {
            if (b_abs && y == u64::MAX) || (a_abs && x == u64::MAX) {
                Rv::abs(u64::MAX)
            } else if b_abs && y == 0 {
                a
            } else if a_abs && x == 0 {
                b
            } else if !both_abs {
                return invalid("binary OR of a section-relative value (only with 0 or -1)");
            } else {
                Rv::abs(x | y)
            }
        }
        Xor => {
            if b_abs && y == 0 {
                a
            } else if a_abs && x == 0 {
                b
            } else if !both_abs {
                return invalid("binary XOR of a section-relative value (only with 0)");
            } else {
                Rv::abs(x ^ y)
            }
        }
        OrNot => {
            // a | ~b
            if (b_abs && y == 0) || (a_abs && x == u64::MAX) {
                Rv::abs(u64::MAX)
            } else if b_abs && y == u64::MAX {
                a
            } else if a_abs && x == 0 {
                let mut b = b;
                b.negate_rels();
                b.v = !b.v;
                b
            } else if !both_abs {
                return invalid("binary OR-NOT of a section-relative value (only with 0 or -1)");
            } else {
                Rv::abs(x | !y)
            }
        }
        LogicalAnd => {
            if (a_abs && x == 0) || (b_abs && y == 0) {
                Rv::abs(0)
            } else if !both_abs {
                return invalid("logical AND of a section-relative value (only with 0)");
            } else {
                Rv::abs(1)
            }
        }
        LogicalOr => {
            if (a_abs && x != 0) || (b_abs && y != 0) {
                Rv::abs(1)
            } else if !both_abs {
                return invalid(
                    "logical OR of a section-relative value (only with a non-zero value)",
                );
            } else {
                Rv::abs(0)
            }
        }
        Eq | Ne | Lt | Le | Gt | Ge | ULt | ULe | UGt | UGe => {
            let mut ra = a.rels;
            let mut rb = b.rels;
            // Sections of the space compare later; the others must match now.
            if let Sections::Space(in_space) = sections {
                let before = ra.len() + rb.len();
                ra.retain(|&(s, _)| !in_space(s));
                rb.retain(|&(s, _)| !in_space(s));
                if ra.len() + rb.len() != before {
                    *later = true;
                }
            }
            ra.sort_unstable();
            rb.sort_unstable();
            if ra != rb {
                return invalid("compared values must have the same sections");
            }
            let (sx, sy) = (x as i64, y as i64);
            Rv::abs(truth(match op {
                Eq => x == y,
                Ne => x != y,
                Lt => sx < sy,
                Le => sx <= sy,
                Gt => sx > sy,
                Ge => sx >= sy,
                ULt => x < y,
                ULe => x <= y,
                UGt => x > y,
                _ => x >= y,
            }))
        }
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

    fn val(v: Value) -> Box<Ir> {
        Box::new(Ir::Value(v))
    }

    fn eval(ir: &Ir) -> Result<Value, EvalError> {
        ir.eval(&|_| None, &mut |_| {})
    }

    fn node(op: BinOp, a: Box<Ir>, b: Box<Ir>) -> Ir {
        Ir::Binary(op, a, b, None)
    }

    fn bin(op: BinOp, x: i64, y: i64) -> i64 {
        eval(&node(op, val(Value::Abs(x)), val(Value::Abs(y))))
            .unwrap()
            .abs()
            .unwrap()
    }

    fn rel(section: u32, offset: i64) -> Value {
        Value::Rel { section, offset }
    }

    #[test]
    fn operators_follow_clrx() {
        assert_eq!(bin(BinOp::Lt, 1, 2), -1);
        assert_eq!(bin(BinOp::ULt, -1, 2), 0);
        assert_eq!(bin(BinOp::UDiv, -2, 2), i64::MAX);
        assert_eq!(bin(BinOp::Div, -7, 2), -3);
        assert_eq!(bin(BinOp::AShr, -8, 1), -4);
        assert_eq!(bin(BinOp::Shr, -8, 60), 15);
        assert_eq!(bin(BinOp::OrNot, 0, 0), -1);
        assert_eq!(bin(BinOp::AShr, -8, 64), -1);
        assert_eq!(bin(BinOp::LogicalOr, 0, 5), 1);
    }

    #[test]
    fn shift_count_out_of_range_warns() {
        let mut warnings = Vec::new();
        let ir = node(BinOp::Shl, val(Value::Abs(1)), val(Value::Abs(65)));
        assert_eq!(
            ir.eval(&|_| None, &mut |w| warnings.push(w)),
            Ok(Value::Abs(0))
        );
        assert_eq!(warnings.len(), 1);
    }

    #[test]
    fn labels_subtract_to_absolute() {
        let ir = node(BinOp::Sub, val(rel(0, 12)), val(rel(0, 4)));
        assert_eq!(eval(&ir), Ok(Value::Abs(8)));
    }

    #[test]
    fn sections_combine_linearly() {
        // a*7 - (b - a)*a with b - a absolute: a*7 - 7*a = 0.
        let a = rel(1, 0);
        let b = rel(1, 7);
        let diff = node(BinOp::Sub, val(b), val(a));
        let right = node(BinOp::Mul, Box::new(diff), val(a));
        let left = node(BinOp::Mul, val(a), val(Value::Abs(7)));
        let ir = node(BinOp::Sub, Box::new(left), Box::new(right));
        assert_eq!(eval(&ir), Ok(Value::Abs(0)));
        // Two sections that cancel: (x2 + y) - x1 - y + x1 - x2 = 0.
        let ir = node(
            BinOp::Sub,
            Box::new(node(BinOp::Add, val(rel(1, 3)), val(rel(2, 5)))),
            Box::new(node(BinOp::Add, val(rel(2, 4)), val(rel(1, 1)))),
        );
        assert_eq!(eval(&ir), Ok(Value::Abs(3)));
        // Two sections left: an error.
        let ir = node(BinOp::Add, val(rel(1, 3)), val(rel(2, 5)));
        assert!(matches!(eval(&ir), Err(EvalError::Invalid(..))));
    }

    #[test]
    fn bitwise_special_cases_keep_sections() {
        let a = rel(3, 3);
        assert_eq!(eval(&node(BinOp::And, val(a), val(Value::Abs(-1)))), Ok(a));
        assert_eq!(
            eval(&node(BinOp::And, val(a), val(Value::Abs(0)))),
            Ok(Value::Abs(0))
        );
        assert_eq!(eval(&node(BinOp::Or, val(Value::Abs(0)), val(a))), Ok(a));
        assert_eq!(
            eval(&node(BinOp::OrNot, val(a), val(Value::Abs(0)))),
            Ok(Value::Abs(-1))
        );
        // 0 ! -a = ~(-a) = a - 1.
        let neg = Ir::Unary(UnOp::Neg, val(a));
        assert_eq!(
            eval(&node(BinOp::OrNot, val(Value::Abs(0)), Box::new(neg))),
            Ok(rel(3, 2))
        );
        assert!(eval(&node(BinOp::And, val(a), val(Value::Abs(3)))).is_err());
    }

    #[test]
    fn section_differences_wait_for_the_places() {
        let in_space = |s: u32| s == 1 || s == 2;
        let space = Sections::Space(&in_space);
        let eval_space = |ir: &Ir| ir.eval_in(&|_| None, &mut |_| {}, space);
        // Code minus data: later; a position plus a number: now.
        let diff = node(BinOp::Sub, val(rel(1, 5)), val(rel(2, 3)));
        assert_eq!(eval_space(&diff), Err(EvalError::Later));
        assert_eq!(
            eval_space(&node(BinOp::Add, val(rel(1, 5)), val(Value::Abs(4)))),
            Ok(rel(1, 9))
        );
        // A product of two positions, a comparison of two sections: later.
        assert_eq!(
            eval_space(&node(BinOp::Mul, val(rel(1, 5)), val(rel(2, 3)))),
            Err(EvalError::Later)
        );
        assert_eq!(
            eval_space(&node(BinOp::Lt, val(rel(1, 5)), val(rel(2, 3)))),
            Err(EvalError::Later)
        );
        // A section outside the space is an error as ever.
        assert!(matches!(
            eval_space(&node(BinOp::Sub, val(rel(1, 5)), val(rel(3, 3)))),
            Err(EvalError::Invalid(..))
        ));
        assert!(matches!(eval(&diff), Err(EvalError::Invalid(..))));

        // Placed: section 2 at 100, section 1 at 4096.
        let placed = [(2, 100), (1, 4096)];
        let eval_placed = |ir: &Ir| ir.eval_in(&|_| None, &mut |_| {}, Sections::Placed(&placed));
        assert_eq!(eval_placed(&diff), Ok(Value::Abs(4096 + 5 - 100 - 3)));
        // A position lands in the section holding it: 2 * code - data in code.
        let twice = node(
            BinOp::Add,
            val(rel(1, 0)),
            Box::new(node(BinOp::Sub, val(rel(1, 0)), val(rel(2, 20)))),
        );
        assert_eq!(eval_placed(&twice), Ok(rel(1, 4096 - 100 - 20)));
        assert_eq!(eval_placed(&Ir::Value(rel(2, 7))), Ok(rel(2, 7)));
    }

    #[test]
    fn pending_wins_over_errors() {
        let ir = node(BinOp::Div, Box::new(Ir::Sym(SymId(0))), val(Value::Abs(0)));
        assert_eq!(eval(&ir), Err(EvalError::Pending));
    }
}
