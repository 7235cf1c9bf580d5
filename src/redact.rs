//! Credential detection and masking, for every output path: the shapes of
//! well-known credentials, the heuristics for secret-named values, the masking
//! of quoted text, and [`KnownSecrets`], the configured values of one
//! `--connect` run that a server may echo back. A leaf: it knows nothing of
//! rules, reports or renderers, so the secret rules (`rules::secrets`), the
//! renderers (`render::escape`) and the live edge all use the same detection.

use std::borrow::Cow;
use std::sync::OnceLock;

use regex::Regex;

/// A credential shape, and the literal text that every match of it holds.
/// Most strings an output quotes (names, paths, messages) hold none of those
/// literals: a substring search answers for them without the regex, and a
/// regex is compiled only when a string first needs it. In the wasm, running
/// the 21 shapes' regexes over every string of a report, and compiling them
/// all up front, took a third of a 500-skill `npx apcheck check`.
struct Shape {
    /// Any match contains one of these.
    needles: &'static [&'static str],
    /// The pattern is case-insensitive (`(?i)`), so are the needles.
    ignore_case: bool,
    /// A match counts only under a [secret name](secret_name), so text with
    /// none of [`SECRET_NAME_PARTS`] in it holds none.
    secret_named: bool,
    pattern: &'static str,
    regex: OnceLock<Regex>,
}

impl Shape {
    const fn new(needles: &'static [&'static str], pattern: &'static str) -> Shape {
        Shape {
            needles,
            ignore_case: false,
            secret_named: false,
            pattern,
            regex: OnceLock::new(),
        }
    }

    /// A name and value shape: group 1 the name, group 2 the value.
    const fn named(needles: &'static [&'static str], pattern: &'static str) -> Shape {
        Shape {
            needles,
            ignore_case: false,
            secret_named: true,
            pattern,
            regex: OnceLock::new(),
        }
    }

    const fn ignoring_case(needles: &'static [&'static str], pattern: &'static str) -> Shape {
        Shape {
            needles,
            ignore_case: true,
            secret_named: false,
            pattern,
            regex: OnceLock::new(),
        }
    }

    /// False only when no match can be in `text`.
    fn may_match(&self, text: &str) -> bool {
        let has_needle = if self.ignore_case {
            // Unicode case folding maps a few other letters onto ASCII ones
            // (`ſ` onto `s`, the Kelvin sign onto `k`): such text gets the regex.
            !text.is_ascii() || contains_any_ignoring_ascii_case(text, self.needles)
        } else {
            self.needles
                .iter()
                .any(|needle| memchr::memmem::find(text.as_bytes(), needle.as_bytes()).is_some())
        };
        // Names are ASCII (the patterns' name groups), compared lowercased.
        has_needle && (!self.secret_named || contains_any_ignoring_ascii_case(text, SECRET_NAME_PARTS))
    }

    fn regex(&self) -> &Regex {
        self.regex
            .get_or_init(|| Regex::new(self.pattern).expect("credential shape patterns are valid"))
    }

    fn captures<'t>(&self, text: &'t str) -> Option<regex::Captures<'t>> {
        if self.may_match(text) {
            self.regex().captures(text)
        } else {
            None
        }
    }

    fn find_iter<'t>(&self, text: &'t str) -> impl Iterator<Item = regex::Match<'t>> {
        self.may_match(text)
            .then(|| self.regex().find_iter(text))
            .into_iter()
            .flatten()
    }

    fn captures_iter<'t>(&self, text: &'t str) -> impl Iterator<Item = regex::Captures<'t>> {
        self.may_match(text)
            .then(|| self.regex().captures_iter(text))
            .into_iter()
            .flatten()
    }
}

fn contains_any_ignoring_ascii_case(text: &str, needles: &[&str]) -> bool {
    needles
        .iter()
        .any(|needle| contains_ignoring_ascii_case(text.as_bytes(), needle.as_bytes()))
}

/// Whether `needle` (not empty) is in `text`, its ASCII letters in either
/// case. Every string a renderer quotes is asked this for each shape, so the
/// candidates are found by `memchr` on the needle's first byte, many bytes at
/// a time, rather than by comparing at every position: in the npm package's
/// wasm, comparing window by window was a tenth of a check. (The exact-case
/// search is `memchr::memmem`'s.)
fn contains_ignoring_ascii_case(text: &[u8], needle: &[u8]) -> bool {
    let Some((&first, rest)) = needle.split_first() else {
        return true;
    };
    let mut at = 0;
    while let Some(offset) = memchr::memchr2(first.to_ascii_lowercase(), first.to_ascii_uppercase(), &text[at..]) {
        let start = at + offset;
        let Some(candidate) = text.get(start + 1..start + needle.len()) else {
            return false;
        };
        if candidate.eq_ignore_ascii_case(rest) {
            return true;
        }
        at = start + 1;
    }
    false
}

/// Well-known credential shapes, each named with its article ("an OpenAI API
/// key") for messages to quote; group 1 is the non-secret prefix shown in messages.
static TOKEN_SHAPES: [(&str, Shape); 13] = [
    ("a GitHub token", Shape::new(&["gh"], r"\b(gh[pousr]_)[A-Za-z0-9]{30,}")),
    (
        "a GitHub fine-grained token",
        Shape::new(&["github_pat_"], r"\b(github_pat_)[A-Za-z0-9_]{30,}"),
    ),
    (
        "a Slack token",
        Shape::new(&["xox"], r"\b(xox[abposr]-)[A-Za-z0-9-]{10,}"),
    ),
    (
        "an AWS access key id",
        Shape::new(&["AKIA", "ASIA"], r"\b(AKIA|ASIA)[A-Z0-9]{16}\b"),
    ),
    (
        "an Anthropic API key",
        Shape::new(&["sk-ant-"], r"\b(sk-ant-)[A-Za-z0-9_-]{20,}"),
    ),
    (
        "an OpenAI API key",
        Shape::new(&["sk-"], r"\b(sk-(?:proj-|svcacct-|admin-)?)[A-Za-z0-9_-]{20,}"),
    ),
    (
        "a Stripe secret key",
        Shape::new(&["k_live_", "k_test_"], r"\b((?:sk|rk)_(?:live|test)_)[A-Za-z0-9]{16,}"),
    ),
    ("a Google API key", Shape::new(&["AIza"], r"\b(AIza)[A-Za-z0-9_-]{35}")),
    (
        "a GitLab token",
        Shape::new(&["glpat-"], r"\b(glpat-)[A-Za-z0-9_-]{20,}"),
    ),
    ("an npm token", Shape::new(&["npm_"], r"\b(npm_)[A-Za-z0-9]{36}")),
    ("a Hugging Face token", Shape::new(&["hf_"], r"\b(hf_)[A-Za-z0-9]{30,}")),
    (
        "a JSON Web Token",
        Shape::new(
            &["eyJ"],
            r"\b(eyJ)[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}",
        ),
    ),
    (
        "a private key",
        Shape::new(&["PRIVATE KEY-----"], r"(-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----)"),
    ),
];

/// The label and masked form of the first well-known credential shape in `value`.
pub(crate) fn known_token(value: &str) -> Option<(&'static str, String)> {
    let (label, found) = TOKEN_SHAPES
        .iter()
        .find_map(|(label, shape)| shape.captures(value).map(|c| (*label, c)))?;
    // A key block's length is the whole value's: its BEGIN line alone says little.
    let token = if label == "a private key" {
        value
    } else {
        found.get(0).map_or("", |m| m.as_str())
    };
    Some((label, masked(found.get(1).map_or("", |m| m.as_str()), token)))
}

/// Whether a fix that writes `value` (under `name`, `""` for none) out again
/// could carry a credential: a fix's edits are printed whole in every format,
/// since they must apply exactly, so they are never masked. Any value of a
/// secret-named name counts, random-looking or not: in doubt, no fix.
pub(crate) fn fix_would_echo_secret(name: &str, value: &str) -> bool {
    masked_if_secret(value).is_some() || (secret_name(name).is_some() && !value.trim().is_empty())
}

/// `text` masked when it holds a well-known credential or a `Bearer`/`Basic`
/// one; `None` when it may be shown. For messages that quote configuration text.
pub fn masked_if_secret(text: &str) -> Option<String> {
    if let Some(found) = TOKEN_SHAPES.iter().find_map(|(_, shape)| shape.captures(text)) {
        return Some(masked(found.get(1).map_or("", |m| m.as_str()), text));
    }
    let literal = without_placeholders(text);
    split_credential(&literal, false)
        .filter(|(_, credential)| !is_stand_in(credential))
        .map(|_| masked("", text))
}

/// Whether `value` of the parameter, flag or member `name` is a literal
/// credential: random-looking for key and token names, any literal worth the
/// name for password and secret names; never a placeholder or a stand-in.
pub(crate) fn named_secret(name: &str, value: &str) -> bool {
    let literal = without_placeholders(value);
    let literal = literal.trim();
    if literal.is_empty() || is_stand_in(literal) {
        return false;
    }
    match secret_name(name) {
        Some(SecretName::Always) => looks_like_password(literal),
        Some(SecretName::WhenRandom) => looks_random(literal),
        None => false,
    }
}

/// Shapes a renderer masks wherever it quotes text, whatever rule pointed there.
static QUOTED_SHAPES: [Shape; 8] = [
    // A password in a URL's user information: group 1.
    Shape::new(&["://"], r"(?i)\b[a-z][a-z0-9+.-]*://[^/\s\x22'@:]*:([^/\s\x22'@]+)@"),
    // An authorization header's whole value as a JSON member, whatever its
    // scheme (`Token …`, `Digest …`) and wherever it sits (a stdio server's
    // stray `headers`, an extension): group 1.
    Shape::new(&["\""], r#"(?i)"(?:proxy-)?authorization"\s*:\s*"([^"\\]+)""#),
    // A query parameter: name, value.
    Shape::named(&["="], r"[?&;]([A-Za-z0-9_.-]+)=([^&#\s\x22'\\]+)"),
    // A flag with `=`: name, value.
    Shape::named(
        &["="],
        r"(?:^|[\s\x22'])--?([A-Za-z0-9][A-Za-z0-9_.-]*)=([^\s\x22'\\]+)",
    ),
    // A flag and its value, in one string or as the next JSON array item: name, value.
    Shape::named(
        &["-"],
        r"(?:^|[\s\x22'])--?([A-Za-z0-9][A-Za-z0-9_.-]*)(?:\x22\s*,\s*\x22|\s+)([^\s\x22'\\-][^\s\x22'\\]*)",
    ),
    // A JSON member: name, value.
    Shape::named(&["\""], r#""([A-Za-z0-9_.-]+)"\s*:\s*"([^"\\]*)""#),
    // An environment assignment in one string (`"DB_PASSWORD=…"`, an `env`
    // written as an array): name, value.
    Shape::named(&["="], r"(?:^|[\s\x22'])([A-Za-z_][A-Za-z0-9_]*)=([^\s\x22'\\&]+)"),
    // An authorization value: group 1.
    Shape::ignoring_case(
        &["bearer", "basic"],
        r"(?i)\b(?:bearer|basic)\s+([A-Za-z0-9._~+/=-]{8,})",
    ),
];

/// Byte ranges of `text` that hold a credential and must never be quoted:
/// every well-known token shape (to the end of a private key), a URL's
/// password, a Bearer/Basic credential, and the value of a secret-named query
/// parameter, flag or JSON member. For renderers, which mask them wherever
/// they quote source lines, whichever finding they quote them for.
pub fn credential_ranges(text: &str) -> Vec<std::ops::Range<usize>> {
    let mut ranges = Vec::new();
    for (label, shape) in TOKEN_SHAPES.iter() {
        for found in shape.find_iter(text) {
            let mut end = found.end();
            if *label == "a private key" {
                // The key body follows its BEGIN line, up to the end of the string or line.
                end += text[end..].find(['"', '\n']).unwrap_or(text.len() - end);
            }
            ranges.push(found.start()..end);
        }
    }
    let [
        password,
        authorization_member,
        query,
        flag_equals,
        flag_then_value,
        member,
        assignment,
        authorization,
    ] = &QUOTED_SHAPES;
    for shape in [password, authorization_member, authorization] {
        for found in shape.captures_iter(text).filter_map(|c| c.get(1)) {
            // The part after a scheme word is the credential: `Bearer ${TOKEN}` holds none.
            let value = found.as_str().trim();
            let credential = value.split_once(char::is_whitespace).map_or(value, |(_, rest)| rest);
            let literal = without_placeholders(credential);
            if !literal.trim().is_empty() && !is_stand_in(literal.trim()) {
                ranges.push(found.range());
            }
        }
    }
    for shape in [query, flag_equals, flag_then_value, member, assignment] {
        for found in shape.captures_iter(text) {
            if let (Some(name), Some(value)) = (found.get(1), found.get(2))
                && named_secret(name.as_str(), value.as_str())
            {
                ranges.push(value.range());
            }
        }
    }
    ranges.sort_by_key(|range| range.start);
    ranges
}

/// `text` with every [credential range](credential_ranges) replaced by `*`
/// byte for byte (so spans into it stay valid).
pub fn mask_credentials(text: &str) -> std::borrow::Cow<'_, str> {
    let ranges = credential_ranges(text);
    if ranges.is_empty() {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut bytes = text.as_bytes().to_vec();
    for range in ranges {
        for byte in &mut bytes[range] {
            if *byte != b'\n' && *byte != b'\r' {
                *byte = b'*';
            }
        }
    }
    // Every range starts and ends on a character boundary (regex matches do),
    // so masking whole bytes leaves valid UTF-8.
    std::borrow::Cow::Owned(String::from_utf8(bytes).expect("masking whole characters keeps UTF-8"))
}

/// `prefix…(N chars)`: what every face may show of a secret.
pub(crate) fn masked(prefix: &str, secret: &str) -> String {
    format!("{prefix}…({} chars)", secret.chars().count())
}

/// `value` with every `${NAME}` removed: placeholders are never secrets.
pub(crate) fn without_placeholders(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    let mut rest = value;
    while let Some(start) = rest.find("${") {
        out.push_str(&rest[..start]);
        match rest[start..].find('}') {
            Some(end) => rest = &rest[start + end + 1..],
            None => {
                rest = &rest[start..];
                break;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The credential in an authorization-style value, with its scheme word if any.
/// For an `Authorization` header any literal counts; elsewhere only `Bearer`/`Basic` values.
pub(crate) fn split_credential(value: &str, is_authorization: bool) -> Option<(Option<&str>, &str)> {
    let value = value.trim();
    if value.is_empty() {
        return None;
    }
    let split = value
        .split_once(char::is_whitespace)
        .map(|(scheme, rest)| (scheme, rest.trim()))
        .filter(|(scheme, _)| scheme.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') && scheme.len() <= 24);
    match split {
        Some((scheme, credential)) if scheme.eq_ignore_ascii_case("bearer") || scheme.eq_ignore_ascii_case("basic") => {
            (!credential.is_empty()).then_some((Some(scheme), credential))
        }
        Some((scheme, credential)) if is_authorization => {
            (!credential.is_empty()).then_some((Some(scheme), credential))
        }
        // A lone word in an Authorization header is the credential itself, unless it is only a scheme.
        None if is_authorization && !is_scheme_word(value) => Some((None, value)),
        _ => None,
    }
}

fn is_scheme_word(word: &str) -> bool {
    ["bearer", "basic", "token", "digest", "bot"]
        .iter()
        .any(|scheme| word.eq_ignore_ascii_case(scheme))
}

/// Documentation stand-ins (`<token>`, `YOUR_API_KEY`, `xxxx`, `changeme`) are not secrets.
pub(crate) fn is_stand_in(text: &str) -> bool {
    let lower = text.to_ascii_lowercase();
    let screaming = text
        .chars()
        .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
        && text.contains('_');
    (text.starts_with('<') && text.ends_with('>'))
        || screaming
        || lower.contains("your")
        || lower.contains("xxxx")
        || lower.contains("placeholder")
        || lower.contains("changeme")
        || lower.contains("example")
        || lower.chars().all(|c| c == '*' || c == '.' || c == '…')
}

/// How strongly a header or variable name says it holds a secret.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SecretName {
    /// It ends in password, secret…: any literal value is one.
    Always,
    /// It mentions a key, token…: a random-looking value is one; ids and modes are not.
    WhenRandom,
}

/// Every name [`secret_name`] takes for a secret's holds one of these, in
/// some ASCII case: text without any holds no secret-named value.
const SECRET_NAME_PARTS: &[&str] = &[
    "pass",
    "pwd",
    "secret",
    "credential",
    "key",
    "token",
    "auth",
    "session",
    "cookie",
    "signature",
];

const ALWAYS_WHEN_LAST: &[&str] = &[
    "password",
    "passwd",
    "pwd",
    "passphrase",
    "secret",
    "credential",
    "credentials",
];
const WHEN_RANDOM: &[&str] = &[
    "key",
    "apikey",
    "token",
    "pass",
    "auth",
    "session",
    "cookie",
    "signature",
];
/// Secret words that count inside a longer word (`githubtoken`).
const SECRET_WORD_PARTS: &[&str] = &["token", "secret", "password", "apikey", "accesskey"];

pub(crate) fn secret_name(name: &str) -> Option<SecretName> {
    const NOT_A_SECRET_WHEN_LAST: &[&str] = &[
        "url", "uri", "file", "path", "dir", "name", "id", "type", "header", "env", "var", "length", "len", "size",
        "count", "version", "mode", "host", "endpoint", "region", "format", "enabled", "ttl", "timeout",
    ];
    let words = name_words(name);
    let last = words.last()?;
    if NOT_A_SECRET_WHEN_LAST.contains(&last.as_str()) || words.iter().any(|w| w == "public") {
        return None;
    }
    if ALWAYS_WHEN_LAST.contains(&last.as_str()) || last.ends_with("password") || last.ends_with("secret") {
        return Some(SecretName::Always);
    }
    words
        .iter()
        .any(|w| {
            ALWAYS_WHEN_LAST.contains(&w.as_str())
                || WHEN_RANDOM.contains(&w.as_str())
                || SECRET_WORD_PARTS.iter().any(|part| w.contains(part))
        })
        .then_some(SecretName::WhenRandom)
}

/// A literal worth calling a password: not a flag, a path, a URL or a word like `none`.
pub(crate) fn looks_like_password(value: &str) -> bool {
    const NOT_PASSWORDS: &[&str] = &[
        "true", "false", "yes", "no", "none", "null", "nil", "on", "off", "unset",
    ];
    value.chars().count() >= 4
        && !NOT_PASSWORDS.iter().any(|word| value.eq_ignore_ascii_case(word))
        && !value.contains("://")
        && !value.starts_with(['/', '.', '~'])
}

/// `X-Api-Key` → [x, api, key]; `accessToken` → [access, token].
pub(crate) fn name_words(name: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut current = String::new();
    let mut previous_lower = false;
    for c in name.chars() {
        if !c.is_ascii_alphanumeric() {
            if !current.is_empty() {
                words.push(std::mem::take(&mut current));
            }
            previous_lower = false;
            continue;
        }
        if c.is_ascii_uppercase() && previous_lower && !current.is_empty() {
            words.push(std::mem::take(&mut current));
        }
        previous_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
        current.push(c.to_ascii_lowercase());
    }
    if !current.is_empty() {
        words.push(current);
    }
    words
}

/// At least 16 characters, letters and digits mixed, no spaces, not a URL or
/// path, and a Shannon entropy of at least 3.5 bits per character.
pub(crate) fn looks_random(value: &str) -> bool {
    let length = value.chars().count();
    if length < 16
        || value.contains(char::is_whitespace)
        || value.contains("://")
        || value.starts_with(['/', '.', '~'])
        || !value.chars().any(|c| c.is_ascii_digit())
        || !value.chars().any(|c| c.is_alphabetic())
    {
        return false;
    }
    shannon_entropy(value) >= 3.5
}

fn shannon_entropy(value: &str) -> f64 {
    let mut counts = std::collections::HashMap::new();
    for c in value.chars() {
        *counts.entry(c).or_insert(0usize) += 1;
    }
    let length = value.chars().count() as f64;
    counts
        .values()
        .map(|&n| {
            let p = n as f64 / length;
            -p * p.log2()
        })
        .sum()
}

/// `text` with every well-known credential shape replaced by its masked form
/// (`ghp_…(40 chars)`), nothing else touched. For data that is written to be
/// kept, such as a snapshot: the heuristics of [`mask_credentials`] (a
/// secret-named flag, a query parameter) would change tool schemas, but a
/// token shape is a credential wherever it shows.
pub fn mask_token_shapes(text: &str) -> Cow<'_, str> {
    let mut text = Cow::Borrowed(text);
    for (label, shape) in TOKEN_SHAPES.iter() {
        if !shape.may_match(&text) || !shape.regex().is_match(&text) {
            continue;
        }
        let replaced = shape
            .regex()
            .replace_all(&text, |found: &regex::Captures| {
                let prefix = found.get(1).map_or("", |m| m.as_str());
                if *label == "a private key" {
                    format!("{prefix}…")
                } else {
                    masked(prefix, &found[0])
                }
            })
            .into_owned();
        text = Cow::Owned(replaced);
    }
    text
}

/// `text` with every credential-shaped word masked the way every apcheck
/// face masks secrets (`ghp_…(40 chars)`), including the word after
/// `Bearer`/`Basic`. For free text a server wrote (its stderr), where
/// [`mask_credentials`]'s shapes of configuration text do not apply.
pub fn mask_credential_words(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let mut after_scheme = false;
        for word in line.split_inclusive(char::is_whitespace) {
            let bare = word.trim_end();
            let masked = if after_scheme && !bare.is_empty() {
                Some(masked("", bare))
            } else {
                masked_if_secret(bare)
            };
            after_scheme = bare.eq_ignore_ascii_case("bearer") || bare.eq_ignore_ascii_case("basic");
            match masked {
                Some(masked) => {
                    out.push_str(&masked);
                    out.push_str(&word[bare.len()..]);
                }
                None => out.push_str(word),
            }
        }
    }
    out
}

/// The values a configuration hands a server that are, or may be,
/// credentials: a server can echo any of them back (`auth failed for token
/// …`, a 401 body repeating a header, an HTTP library quoting the URL), and
/// whatever shape it has, it must not reach an output. Which values count:
/// any literal under a secret's name (`API_TOKEN`, `X-Api-Key`, even when the
/// rules would not flag it), every random-looking one whatever its name, the credential after an authorization scheme, a URL's password
/// and random-looking user, and secret-named or random-looking query values,
/// as written and percent-decoded. Plain words, numbers, paths and URLs
/// (`production`, `1`, `/tmp/x`) are not credentials and stay readable: a
/// tool that mentions `production` keeps its description.
#[derive(Debug, Clone, Default)]
pub struct KnownSecrets {
    /// Longest first, so a secret that holds another is masked whole.
    values: Vec<String>,
}

impl KnownSecrets {
    /// An `env` value or a header value, under its `name`.
    pub fn add_named(&mut self, name: &str, value: &str) {
        let literal = without_placeholders(value);
        let literal = literal.trim();
        let is_authorization = ["authorization", "proxy-authorization"]
            .iter()
            .any(|header| name.eq_ignore_ascii_case(header));
        if let Some((_, credential)) = split_credential(literal, is_authorization)
            && !is_stand_in(credential)
        {
            self.push(credential);
            self.push(literal);
        }
        // Under a secret's name any literal worth the name counts, random or
        // not: masking an echo of `letmein123` costs nothing, showing it does.
        let named = secret_name(name).is_some() && looks_like_password(literal) && !is_stand_in(literal);
        if named || self.unnamed_secret(literal) {
            self.push(literal);
        }
    }

    /// A server's `url`: its user information and its query values.
    pub fn add_url(&mut self, url: &str) {
        let after_scheme = url.split_once("://").map_or(url, |(_, rest)| rest);
        let authority = after_scheme.split(['/', '?', '#']).next().unwrap_or("");
        if let Some((userinfo, _)) = authority.rsplit_once('@') {
            let (user, password) = userinfo.split_once(':').unwrap_or((userinfo, ""));
            let password = without_placeholders(password);
            if !password.is_empty() && !is_stand_in(&password) {
                self.push_encoded(&password);
            }
            if self.unnamed_secret(user) {
                self.push_encoded(user);
            }
        }
        let Some((_, query)) = url.split_once('?') else {
            return;
        };
        let query = query.split('#').next().unwrap_or("");
        for (name, value) in query.split(['&', ';']).filter_map(|pair| pair.split_once('=')) {
            let decoded = percent_encoding::percent_decode_str(value).decode_utf8_lossy();
            if named_secret(name, value) || named_secret(name, &decoded) || self.unnamed_secret(&decoded) {
                self.push_encoded(value);
            }
        }
    }

    /// A value with no telling name that is a credential all the same.
    fn unnamed_secret(&self, value: &str) -> bool {
        let literal = without_placeholders(value);
        known_token(&literal).is_some() || (looks_random(literal.trim()) && !is_stand_in(literal.trim()))
    }

    /// `value` as written and percent-decoded.
    fn push_encoded(&mut self, value: &str) {
        self.push(value);
        let decoded = percent_encoding::percent_decode_str(value).decode_utf8_lossy();
        self.push(&decoded);
    }

    fn push(&mut self, value: &str) {
        // Four characters is the shortest password the rules flag; anything
        // shorter would mask common words and numbers everywhere.
        if value.chars().count() < 4 || self.values.iter().any(|known| known == value) {
            return;
        }
        self.values.push(value.to_string());
        self.values.sort_by(|a, b| b.len().cmp(&a.len()).then_with(|| a.cmp(b)));
    }

    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// `text` with every known secret in it masked (`…(24 chars)`).
    pub fn mask<'t>(&self, text: &'t str) -> Cow<'t, str> {
        let mut text = Cow::Borrowed(text);
        for secret in &self.values {
            if text.contains(secret.as_str()) {
                text = Cow::Owned(text.replace(secret.as_str(), &masked("", secret)));
            }
        }
        text
    }

    /// Every string of `value`, member names included, [masked](Self::mask).
    pub fn mask_json(&self, value: &mut serde_json::Value) {
        match value {
            serde_json::Value::String(text) => {
                if let Cow::Owned(masked) = self.mask(text) {
                    *text = masked;
                }
            }
            serde_json::Value::Array(items) => items.iter_mut().for_each(|item| self.mask_json(item)),
            serde_json::Value::Object(members) => self.mask_members(members),
            _ => {}
        }
    }

    /// [`Self::mask_json`] for an object's members, in their order.
    pub fn mask_members(&self, members: &mut serde_json::Map<String, serde_json::Value>) {
        *members = std::mem::take(members)
            .into_iter()
            .map(|(name, mut value)| {
                self.mask_json(&mut value);
                (self.mask(&name).into_owned(), value)
            })
            .collect();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`contains_ignoring_ascii_case`] finds a needle exactly where comparing
    /// at every position does.
    #[test]
    fn contains_ignoring_ascii_case_agrees_with_comparing_every_window() {
        let texts = [
            "",
            "k",
            "KEY",
            "a-kEy=",
            "xke",
            "pass://",
            "Bearer x",
            "ſecret",
            "ghgh",
            "\"=\"",
            "ke\u{e9}y",
        ];
        let needles = ["key", "k", "://", "gh", "\"", "bearer", "pass", "y"];
        for text in texts {
            for needle in needles {
                let windows = text
                    .as_bytes()
                    .windows(needle.len())
                    .any(|window| window.eq_ignore_ascii_case(needle.as_bytes()));
                assert_eq!(
                    contains_ignoring_ascii_case(text.as_bytes(), needle.as_bytes()),
                    windows,
                    "{text:?} {needle:?}"
                );
            }
        }
    }

    #[test]
    fn configuration_text_is_masked_only_when_it_holds_a_credential() {
        let masked = masked_if_secret("--token=ghp_0123456789abcdefghijklmnopqrstuvwxyzAB").unwrap();
        assert_eq!(masked, "ghp_…(50 chars)");
        assert_eq!(masked_if_secret("Bearer 8d2c1f0b").as_deref(), Some("…(15 chars)"));
        assert_eq!(masked_if_secret("./bin/server"), None);
        assert_eq!(masked_if_secret("Bearer ${TOKEN}"), None);
    }

    #[test]
    fn name_words_split_separators_and_camel_case() {
        assert_eq!(name_words("X-Api-Key"), ["x", "api", "key"]);
        assert_eq!(name_words("accessToken"), ["access", "token"]);
        assert_eq!(name_words("AWS_SECRET_ACCESS_KEY"), ["aws", "secret", "access", "key"]);
    }

    #[test]
    fn quoted_text_masks_every_credential_shape() {
        let hex = "8f14e45fceea167a5a36dedd4bea2543a1b2c3d4";
        for (text, secret) in [
            (
                r#""url": "https://bot:hunter2@git.acme.dev/mcp""#.to_string(),
                "hunter2",
            ),
            (format!(r#""url": "https://a.dev/mcp?api_key={hex}""#), hex),
            (format!(r#""args": ["--api-key={hex}"]"#), hex),
            (format!(r#""args": ["--token", "{hex}"]"#), hex),
            (format!(r#""GITHUB_TOKEN": "ghp_{}""#, "a".repeat(36)), "ghp_"),
            (format!(r#""API_KEY": "{hex}""#), hex),
            (
                r#""Authorization": "Bearer abcdefgh12345678""#.to_string(),
                "abcdefgh12345678",
            ),
            // Any scheme, wherever the member sits (a stdio server's stray `headers`).
            (r#""authorization": "Token hunter2pass""#.to_string(), "hunter2pass"),
            // `env` written as an array of assignments.
            (
                r#""env": ["DB_PASSWORD=correcthorsebattery"]"#.to_string(),
                "correcthorse",
            ),
        ] {
            let masked = mask_credentials(&text);
            assert!(!masked.contains(secret), "{masked}");
            assert_eq!(masked.len(), text.len());
        }
        let harmless = r#""args": ["--token", "${TOKEN}", "MODE=fast"], "url": "https://a.dev/mcp?page=2",
            "Authorization": "Bearer ${API_TOKEN}""#;
        assert_eq!(mask_credentials(harmless), harmless);
    }

    /// The needles only let a shape's regex be skipped: a credential that
    /// holds none of them verbatim (a `(?i)` shape's other case, a letter that
    /// folds onto an ASCII one) is still found.
    #[test]
    fn needles_never_hide_a_match() {
        let key = "dXNlcjpwYXNzd29yZA==";
        for text in [format!("BEARER {key}"), format!("Basic {key}"), format!("baſic {key}")] {
            assert!(!mask_credentials(&text).contains(key), "{text}");
        }
        let samples = [
            format!("ghp_{}", "a".repeat(36)),
            format!("github_pat_{}", "a".repeat(36)),
            "xoxb-0123456789ab".to_string(),
            "AKIA0123456789ABCDEF".to_string(),
            format!("sk-ant-{}", "a".repeat(24)),
            format!("sk-proj-{}", "a".repeat(24)),
            format!("rk_live_{}", "a".repeat(24)),
            format!("AIza{}", "a".repeat(35)),
            format!("glpat-{}", "a".repeat(24)),
            format!("npm_{}", "a".repeat(36)),
            format!("hf_{}", "a".repeat(36)),
            format!("eyJ{0}.{0}.{0}", "a".repeat(12)),
            "-----BEGIN RSA PRIVATE KEY-----".to_string(),
        ];
        for word in [ALWAYS_WHEN_LAST, WHEN_RANDOM, SECRET_WORD_PARTS].concat() {
            assert!(contains_any_ignoring_ascii_case(word, SECRET_NAME_PARTS), "{word}");
        }
        assert!(secret_name("password").is_some() && secret_name("accessKey").is_some());
        for ((label, shape), sample) in TOKEN_SHAPES.iter().zip(&samples) {
            assert!(shape.regex().is_match(sample), "{label}: {sample}");
            assert!(shape.may_match(sample), "{label}: {sample}");
            assert_eq!(known_token(sample).map(|(found, _)| found), Some(*label));
        }
    }

    #[test]
    fn token_shapes_are_masked_and_nothing_else() {
        let text = "web=token ghp_0123456789abcdefghijklmnopqrstuvwxyzAB --api-key=8f14e45fceea167a5a36dedd4bea2543";
        let masked = mask_token_shapes(text);
        assert_eq!(
            masked,
            "web=token ghp_…(42 chars) --api-key=8f14e45fceea167a5a36dedd4bea2543"
        );
        assert!(matches!(mask_token_shapes("plain text"), Cow::Borrowed(_)));
    }

    #[test]
    fn known_secrets_are_the_configured_credentials() {
        let mut known = KnownSecrets::default();
        known.add_named("API_TOKEN", "k7Qx2pL9vR4mZ8wT1nB6cY3d");
        known.add_named("DB_PASSWORD", "hunter2");
        known.add_named("Authorization", "Bearer abc123def456");
        known.add_named("SOME_SETTING", "Zq8Wm3Rt7Yp2Lk9Xv4Bn6Hc1");
        known.add_named("NODE_ENV", "production");
        known.add_named("LEVEL", "1");
        known.add_named("X-Api-Key", "letmein123");
        known.add_named("USE_SECRET", "true");
        known.add_named("API_KEY", "${API_KEY}");
        known.add_url("https://bot:p%40ss-w0rd@api.acme.dev/mcp?api_key=8f14e45fceea167a5a36dedd4bea2543&page=2");
        let text = "auth failed for token k7Qx2pL9vR4mZ8wT1nB6cY3d (hunter2, abc123def456, Zq8Wm3Rt7Yp2Lk9Xv4Bn6Hc1) \
                    p@ss-w0rd p%40ss-w0rd 8f14e45fceea167a5a36dedd4bea2543 letmein123 in production, level 1, page 2, true";
        let masked = known.mask(text);
        for secret in [
            "k7Qx2pL9vR4mZ8wT1nB6cY3d",
            "hunter2",
            "abc123def456",
            "Zq8Wm3Rt7Yp2Lk9Xv4Bn6Hc1",
            "p@ss-w0rd",
            "p%40ss-w0rd",
            "8f14e45fceea167a5a36dedd4bea2543",
            "letmein123",
        ] {
            assert!(!masked.contains(secret), "{secret}: {masked}");
        }
        assert!(masked.contains("token …(24 chars)"), "{masked}");
        assert!(masked.contains("in production, level 1, page 2, true"), "{masked}");
        let mut value = serde_json::json!({"hunter2": ["x hunter2 y"], "n": 1});
        known.mask_json(&mut value);
        assert_eq!(value, serde_json::json!({"…(7 chars)": ["x …(7 chars) y"], "n": 1}));
    }

    #[test]
    fn stderr_credentials_are_masked() {
        let masked = mask_credential_words(
            "token ghp_0123456789abcdefghijABCDEFGHIJ0123456789 failed\nAuthorization: Bearer abc.def\nplain line\n",
        );
        assert!(!masked.contains("ghp_0123456789abcdef"), "{masked}");
        assert!(!masked.contains("abc.def"), "{masked}");
        assert!(masked.contains("plain line\n"));
        assert!(masked.contains("failed\n"));
    }
}
