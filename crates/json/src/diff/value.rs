//! Equality and hashing of JSON values as the diff sees them: numbers by exact
//! decimal value from their text (`1` equals `1.0` and `1e0`; two 100-digit
//! integers that differ in the last digit differ), strings by code points,
//! objects regardless of member order.

use std::cmp::Ordering;
use std::hash::{BuildHasher, Hash, Hasher};

use foldhash::quality::{FixedState, FoldHasher};

use serde_json::Value;

use super::tree::{Elements, Members, Shape, Tree};

/// Whether two values are the same JSON value.
pub fn equal(a: &Value, b: &Value) -> bool {
    trees_equal(a, b)
}

/// [`equal`], for either tree the diff walks.
pub(crate) fn trees_equal<'v, N: Tree<'v>>(a: N, b: N) -> bool {
    if a.spelled_alike(b) {
        return true;
    }
    match (a.shape(), b.shape()) {
        (Shape::Null, Shape::Null) => true,
        (Shape::Bool(x), Shape::Bool(y)) => x == y,
        (Shape::Number(x), Shape::Number(y)) => number_texts_equal(x, y),
        (Shape::String(x), Shape::String(y)) => x == y,
        (Shape::Array(x), Shape::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y.iter()).all(|(p, q)| trees_equal(p, q))
        }
        (Shape::Object(x), Shape::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(key, p)| y.get(&key).is_some_and(|q| trees_equal(p, q)))
        }
        _ => false,
    }
}

/// Whether two numbers have the same decimal value, read from their text
/// (serde_json keeps it: `arbitrary_precision`), never through `f64`.
fn number_texts_equal(x: &str, y: &str) -> bool {
    x == y || Decimal::of(x) == Decimal::of(y)
}

/// The order of two JSON numbers (texts the parser accepted) by exact decimal
/// value: `9007199254740993` is above `9007199254740992` and `1e-400` above
/// `0`, where `f64` rounds each pair together.
pub fn compare_numbers(x: &str, y: &str) -> Ordering {
    Decimal::of(x).cmp_value(&Decimal::of(y))
}

/// A JSON number's value in a canonical form: ±0.d₁d₂…dₙ × 10^exponent with
/// d₁ and dₙ not zero, so equal values have equal forms; zero has no digits.
#[derive(Debug, PartialEq, Eq, Hash)]
struct Decimal<'t> {
    negative: bool,
    digits: Digits<'t>,
    exponent: Exponent,
}

/// The significant digits: a slice of the integer digits followed by a slice
/// of the fraction digits, as written.
#[derive(Debug, Clone, Copy)]
struct Digits<'t> {
    integer: &'t [u8],
    fraction: &'t [u8],
}

impl Digits<'_> {
    fn iter(&self) -> impl Iterator<Item = u8> + '_ {
        self.integer.iter().chain(self.fraction).copied()
    }

    fn len(&self) -> usize {
        self.integer.len() + self.fraction.len()
    }
}

impl PartialEq for Digits<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl Eq for Digits<'_> {}

impl std::hash::Hash for Digits<'_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.len().hash(state);
        self.iter().for_each(|d| d.hash(state));
    }
}

/// A power of ten; beyond `i128` as its decimal digits (an exponent may have
/// any number of digits in JSON text).
#[derive(Debug, PartialEq, Eq, Hash)]
enum Exponent {
    Small(i128),
    /// Sign and magnitude digits (most significant first, no leading zero).
    Big(bool, Vec<u8>),
}

impl<'t> Decimal<'t> {
    /// The canonical form of the JSON number `text` (already validated by the parser).
    fn of(text: &'t str) -> Decimal<'t> {
        let bytes = text.as_bytes();
        let negative = bytes.first() == Some(&b'-');
        let unsigned = &bytes[usize::from(negative)..];
        let mantissa_end = unsigned
            .iter()
            .position(|b| matches!(b, b'e' | b'E'))
            .unwrap_or(unsigned.len());
        let (mantissa, exponent_text) = unsigned.split_at(mantissa_end);
        let (integer, fraction) = match mantissa.iter().position(|&b| b == b'.') {
            Some(dot) => (&mantissa[..dot], &mantissa[dot + 1..]),
            None => (mantissa, &mantissa[mantissa.len()..]),
        };
        let exponent_text = exponent_text.get(1..).unwrap_or_default();
        // 0.(integer fraction) × 10^(written + integer.len()), then strip zeros:
        // each leading zero dropped lowers the exponent by one.
        let leading = integer.iter().chain(fraction).take_while(|&&d| d == b'0').count();
        let total = integer.len() + fraction.len();
        if leading == total {
            return Decimal {
                negative: false,
                digits: Digits {
                    integer: &[],
                    fraction: &[],
                },
                exponent: Exponent::Small(0),
            };
        }
        let trailing = integer.iter().chain(fraction).rev().take_while(|&&d| d == b'0').count();
        let (start, end) = (leading, total - trailing);
        let cut = |from: usize, to: usize, offset: usize, part: &'t [u8]| {
            &part[from.clamp(offset, offset + part.len()) - offset..to.clamp(offset, offset + part.len()) - offset]
        };
        let digits = Digits {
            integer: cut(start, end, 0, integer),
            fraction: cut(start, end, integer.len(), fraction),
        };
        let shift = integer.len() as i128 - leading as i128;
        Decimal {
            negative,
            digits,
            exponent: Exponent::plus(exponent_text, shift),
        }
    }
}

impl Decimal<'_> {
    fn sign(&self) -> i8 {
        match (self.digits.len(), self.negative) {
            (0, _) => 0,
            (_, true) => -1,
            (_, false) => 1,
        }
    }

    /// Values of the same sign as ±0.d₁d₂… × 10^e with d₁ ≠ 0 order by the
    /// exponent, then by the digits (a missing digit is a zero, and sorts first).
    fn cmp_value(&self, other: &Self) -> Ordering {
        let sign = self.sign().cmp(&other.sign());
        if sign != Ordering::Equal || self.sign() == 0 {
            return sign;
        }
        let magnitude = self
            .exponent
            .cmp_value(&other.exponent)
            .then_with(|| self.digits.iter().cmp(other.digits.iter()));
        if self.negative { magnitude.reverse() } else { magnitude }
    }
}

impl Exponent {
    fn cmp_value(&self, other: &Self) -> Ordering {
        match (self, other) {
            (Exponent::Small(a), Exponent::Small(b)) => a.cmp(b),
            // A `Big` exponent is beyond every `Small` one, on its own side of zero.
            (Exponent::Big(negative, _), Exponent::Small(_)) => {
                if *negative {
                    Ordering::Less
                } else {
                    Ordering::Greater
                }
            }
            (Exponent::Small(_), Exponent::Big(..)) => other.cmp_value(self).reverse(),
            (Exponent::Big(a_negative, a), Exponent::Big(b_negative, b)) => match (a_negative, b_negative) {
                (false, true) => Ordering::Greater,
                (true, false) => Ordering::Less,
                // No leading zeros: the longer magnitude is the larger.
                (false, false) => a.len().cmp(&b.len()).then_with(|| a.cmp(b)),
                (true, true) => b.len().cmp(&a.len()).then_with(|| b.cmp(a)),
            },
        }
    }

    /// The value of the exponent `text` (optional sign, digits) plus `shift`.
    fn plus(text: &[u8], shift: i128) -> Exponent {
        let negative = text.first() == Some(&b'-');
        let digits = text
            .strip_prefix(b"-")
            .or_else(|| text.strip_prefix(b"+"))
            .unwrap_or(text);
        let start = digits.iter().position(|&d| d != b'0').unwrap_or(digits.len());
        let magnitude = &digits[start..];
        // 30 digits and a shift bounded by the text's length never overflow i128.
        if magnitude.len() <= 30 {
            let value = magnitude.iter().fold(0i128, |v, &d| v * 10 + i128::from(d - b'0'));
            return Exponent::Small(if negative { -value } else { value } + shift);
        }
        // |written| ≥ 10^30 > |shift|: the sign stays, the magnitude moves by |shift|.
        let mut big: Vec<u8> = magnitude.iter().map(|d| d - b'0').collect();
        let grows = (shift > 0) != negative;
        let mut carry = shift.unsigned_abs();
        for digit in big.iter_mut().rev() {
            if carry == 0 {
                break;
            }
            let step = (carry % 10) as u8;
            carry /= 10;
            if grows {
                let sum = *digit + step;
                *digit = sum % 10;
                carry += u128::from(sum / 10);
            } else if *digit >= step {
                *digit -= step;
            } else {
                *digit = *digit + 10 - step;
                carry += 1;
            }
        }
        if carry > 0 {
            // Only growth can carry out of the top digit.
            let mut head: Vec<u8> = carry.to_string().bytes().map(|d| d - b'0').collect();
            head.extend_from_slice(&big);
            big = head;
        }
        let first = big.iter().position(|&d| d != 0).unwrap_or(big.len());
        big.drain(..first);
        // The canonical form of a value that fits is `Small`, whichever way it was computed.
        let text: String = big.iter().map(|d| char::from(b'0' + d)).collect();
        match text.parse::<i128>() {
            Ok(value) => Exponent::Small(if negative { -value } else { value }),
            Err(_) => Exponent::Big(negative, big),
        }
    }
}

/// A hash consistent with [`equal`]: equal values hash alike.
pub fn hash(value: &Value) -> u64 {
    tree_hash(value)
}

/// [`hash`], for either tree the diff walks (the same number for the same text).
pub(crate) fn tree_hash<'v, N: Tree<'v>>(value: N) -> u64 {
    let mut hasher = new_hasher();
    feed(value, &mut hasher);
    hasher.finish()
}

/// foldhash rather than std's SipHash: a keyless hash either way (a collision
/// only costs the walk that compares the two values), and SipHash was a
/// twentieth of a big diff's time in the wasm.
fn new_hasher() -> FoldHasher<'static> {
    FixedState::default().build_hasher()
}

fn feed<'v, N: Tree<'v>>(value: N, hasher: &mut FoldHasher<'static>) {
    match value.shape() {
        Shape::Null => 0u8.hash(hasher),
        Shape::Bool(b) => (1u8, b).hash(hasher),
        Shape::Number(n) => (2u8, Decimal::of(n)).hash(hasher),
        Shape::String(s) => (3u8, &*s).hash(hasher),
        Shape::Array(items) => {
            (4u8, items.len()).hash(hasher);
            items.iter().for_each(|item| feed(item, hasher));
        }
        Shape::Object(members) => {
            // Order-independent: a commutative sum of per-member hashes.
            let sum = members.iter().fold(0u64, |sum, (key, member)| {
                let mut own = new_hasher();
                (*key).hash(&mut own);
                feed(member, &mut own);
                sum.wrapping_add(own.finish())
            });
            (5u8, members.len(), sum).hash(hasher);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn numbers_compare_by_value_and_objects_ignore_order() {
        let pairs = [
            (json!(1), json!(1.0)),
            (json!(-0.0), json!(0)),
            (json!({"a": 1, "b": [1, 2]}), json!({"b": [1.0, 2], "a": 1})),
        ];
        for (a, b) in pairs {
            assert!(equal(&a, &b), "{a} vs {b}");
            assert_eq!(hash(&a), hash(&b), "{a} vs {b}");
        }
        assert!(!equal(&json!([1, 2]), &json!([2, 1])));
        assert!(!equal(&json!("1"), &json!(1)));
        assert!(!equal(&json!(u64::MAX), &json!(-1)));
        assert!(!equal(&json!({"a": null}), &json!({})));
    }

    #[test]
    fn numbers_order_by_exact_value() {
        // Ascending groups of equal values; f64 would merge several neighbours.
        let groups: &[&[&str]] = &[
            &["-1e100000000000000000000000000000000000"],
            &["-1e400"],
            &["-18446744073709551617"],
            &["-9007199254740993"],
            &["-9007199254740992"],
            &["-1.5", "-15e-1"],
            &["-1e-400"],
            &["-1e-100000000000000000000000000000000000"],
            &["0", "-0", "0.0", "0e7", "-0.0e-3"],
            &["1e-100000000000000000000000000000000000"],
            &["1e-400"],
            &["0.1", "1e-1", "0.10"],
            &["0.12"],
            &["0.123"],
            &["1", "1.0", "1e0", "10e-1", "0.1E+1"],
            &["9.9999999999999999999"],
            &["10", "1e1"],
            &["1000", "1e3", "1E+3"],
            &["9007199254740992"],
            &["9007199254740993"],
            &["18446744073709551616"],
            &["1e400"],
            &["1e100000000000000000000000000000000000"],
        ];
        for (i, group) in groups.iter().enumerate() {
            for (j, other) in groups.iter().enumerate() {
                for x in group.iter() {
                    for y in other.iter() {
                        assert_eq!(compare_numbers(x, y), i.cmp(&j), "{x} vs {y}");
                    }
                }
            }
        }
    }
}
