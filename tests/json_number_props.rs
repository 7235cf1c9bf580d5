//! The diff compares numbers exactly, by decimal value from their text.
//!
//! The oracle: a value is generated as `digits × 10^exponent` with no trailing
//! zero in `digits`, so two generated values are equal exactly when their
//! (sign, digits, exponent) are. Each value is written in several JSON forms
//! (plain, scientific, padded with zeros, exponent with `E` and `+`); every form
//! of a value must compare and hash equal, and forms of different values not.

use apcheck::json::diff::value::{equal, hash};
use proptest::prelude::*;
use serde_json::Value;

#[derive(Debug, Clone)]
struct Exact {
    negative: bool,
    /// No leading or trailing zero; empty for zero.
    digits: String,
    exponent: i64,
}

fn exact() -> impl Strategy<Value = Exact> {
    (any::<bool>(), "[1-9]([0-9]{0,60}[1-9])?", -80i64..80).prop_map(|(negative, digits, exponent)| Exact {
        negative,
        digits,
        exponent,
    })
}

impl Exact {
    fn sign(&self) -> &'static str {
        if self.negative { "-" } else { "" }
    }

    /// Every way of writing the value this test knows.
    fn forms(&self, pad: usize) -> Vec<String> {
        let (sign, digits, exponent) = (self.sign(), &self.digits, self.exponent);
        let zeros = "0".repeat(pad);
        let mut forms = vec![
            format!("{sign}{digits}e{exponent}"),
            format!("{sign}{digits}{zeros}E{}", exponent - pad as i64),
            format!(
                "{sign}{}.{}{zeros}e+{}",
                &digits[..1],
                &digits[1..],
                exponent + digits.len() as i64 - 1
            )
            .replace(".e", ".0e")
            .replace("e+-", "e-"),
            format!("{sign}0.{zeros}{digits}e{}", exponent + (pad + digits.len()) as i64),
        ];
        // Without an exponent: digits, zeros and a decimal point where the exponent puts it.
        let plain = if exponent >= 0 {
            format!("{sign}{digits}{}", "0".repeat(exponent as usize))
        } else {
            let point = digits.len() as i64 + exponent;
            if point > 0 {
                format!(
                    "{sign}{}.{}{zeros}",
                    &digits[..point as usize],
                    &digits[point as usize..]
                )
            } else {
                format!("{sign}0.{}{digits}", "0".repeat((-point) as usize))
            }
        };
        forms.push(plain);
        forms
    }
}

fn number(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

proptest! {
    #[test]
    fn forms_of_one_value_are_equal(value in exact(), pad in 0usize..4) {
        let forms = value.forms(pad);
        let first = number(&forms[0]);
        for form in &forms[1..] {
            let other = number(form);
            prop_assert!(equal(&first, &other), "{} vs {}", forms[0], form);
            prop_assert_eq!(hash(&first), hash(&other), "{} vs {}", &forms[0], form);
        }
    }

    #[test]
    fn different_values_differ(a in exact(), b in exact(), pad in 0usize..4) {
        let same = a.negative == b.negative && a.digits == b.digits && a.exponent == b.exponent;
        for (x, y) in a.forms(pad).iter().zip(b.forms(0)) {
            prop_assert_eq!(equal(&number(x), &number(&y)), same, "{} vs {}", x, y);
        }
    }

    #[test]
    fn one_digit_more_differs(value in exact()) {
        let longer = format!("{}{}1e{}", value.sign(), value.digits, value.exponent - 1);
        let text = format!("{}{}e{}", value.sign(), value.digits, value.exponent);
        prop_assert!(!equal(&number(&text), &number(&longer)), "{} vs {}", text, longer);
    }
}

#[test]
fn integers_beyond_f64_and_zeros() {
    let big = "1".repeat(100);
    let bigger = format!("{}2", "1".repeat(99));
    assert!(!equal(&number(&big), &number(&bigger)));
    assert!(!equal(&number("18446744073709551616"), &number("18446744073709551617")));
    for (x, y) in [
        ("1.0", "1"),
        ("1e3", "1000"),
        ("-0", "0"),
        ("0e99", "0.000"),
        ("-0.0e-7", "0"),
    ] {
        assert!(equal(&number(x), &number(y)), "{x} vs {y}");
        assert_eq!(hash(&number(x)), hash(&number(y)), "{x} vs {y}");
    }
    // Exponents past i128, and ones that cross into it from the other side.
    let huge = format!("1e{}", "9".repeat(50));
    let shifted = format!("10e{}8", "9".repeat(49));
    assert!(equal(&number(&huge), &number(&shifted)));
    assert!(!equal(&number(&huge), &number(&format!("1e{}", "9".repeat(49)))));
    // 10^(10^30 - 41), once through the big path (a 31-digit exponent) and once not.
    let edge = format!("0.{}1e1{}", "0".repeat(40), "0".repeat(30));
    let inside = format!("1e{}59", "9".repeat(28));
    assert!(equal(&number(&edge), &number(&inside)));
    assert_eq!(hash(&number(&edge)), hash(&number(&inside)));
    assert!(equal(&number("1e400"), &number("10e399")));
    assert!(!equal(&number("1e400"), &number("1e401")));
}
