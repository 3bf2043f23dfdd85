//! An Int32 comparison as one range test (the scan loop's check of `Age eq 30` and the like).

use crate::filter::CmpOp;

/// `v op l` for Int32 operands as "v lies in [lo, lo + span]" (or not, for `ne`): the same
/// answer as `op.holds(v.cmp(&l))` without a branch on the operator.
#[derive(Debug, Clone, Copy)]
pub(super) struct IntRange {
    lo: i64,
    span: u64,
    inside: bool,
}

impl IntRange {
    pub(super) fn new(op: CmpOp, l: i32) -> IntRange {
        let l = i64::from(l);
        let (lo, hi, inside) = match op {
            CmpOp::Eq => (l, l, true),
            CmpOp::Ne => (l, l, false),
            CmpOp::Gt => (l + 1, i64::MAX, true),
            CmpOp::Ge => (l, i64::MAX, true),
            CmpOp::Lt => (i64::MIN, l - 1, true),
            CmpOp::Le => (i64::MIN, l, true),
        };
        IntRange {
            lo,
            span: hi.wrapping_sub(lo) as u64,
            inside,
        }
    }

    #[inline(always)]
    pub(super) fn holds(self, v: i32) -> bool {
        (i64::from(v).wrapping_sub(self.lo) as u64 <= self.span) == self.inside
    }
}
