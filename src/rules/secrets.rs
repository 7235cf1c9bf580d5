//! Credentials embedded in MCP `headers` and `env` (AP5xx).
//!
//! §7.2.1: "Plugins MUST NOT embed credentials or other secrets in `headers`";
//! §9.2: the same for `env`. Both are visible package data. A finding is an
//! error, but it does not make the server invalid: the spec does not list it
//! among the entry-invalidating rules, and a client would still load it.
//!
//! Every message shows a secret masked, as its well-known prefix (if any) and
//! its length, e.g. `ghp_…(40 chars)`; the value itself never leaves here.

use std::sync::LazyLock;

use regex::Regex;

use crate::diag::Severity;
use crate::rule::{Example, Rule, RuleDoc};

const PLUGIN_JSON: &str =
    "{\n  \"$schema\": \"https://agent-plugins.org/schemas/1.0.0/plugin.schema.json\",\n  \"name\": \"demo\"\n}\n";

pub static SECRET_AUTHORIZATION: Rule = Rule {
    code: "AP501",
    name: "secret-authorization-literal",
    severity: Severity::Error,
    spec: "Agent Plugins §7.2.1, §9.2",
    summary: "A literal `Authorization` credential (or a `Bearer`/`Basic` value) is embedded in the configuration",
    fix_hint: Some(
        "remove it and revoke it if it was ever published; authorization is client-managed (§7.2.1), \
         so let the client's sign-in flow supply credentials",
    ),
    doc: RuleDoc {
        what: "A literal value in an `Authorization` or `Proxy-Authorization` header, or any header or `env` \
               value of the form `Bearer …` / `Basic …`. A value whose credential part is only a placeholder \
               (`Bearer ${API_TOKEN}`) or a documentation stand-in (`<token>`, `YOUR_TOKEN`) is not a secret.",
        why: "§7.2.1: \"Plugins MUST NOT embed credentials or other secrets in `headers`\" and \"Agent Plugins \
              v1 defines no OAuth configuration or portable credential-reference fields\"; §9.2 says the same of \
              `env`. Anything in the package is readable by everyone who installs it.",
        failing: Example::Package(&[
            ("plugin.json", PLUGIN_JSON),
            (
                "mcp.json",
                "{\n  \"$schema\": \"https://agent-plugins.org/schemas/1.0.0/mcp.schema.json\",\n  \"mcpServers\": {\n    \"billing\": {\n      \"type\": \"streamable-http\",\n      \"url\": \"https://billing.example.com/mcp\",\n      \"headers\": {\"Authorization\": \"Bearer 8d2c1f0b9e7a4c6d\"}\n    }\n  }\n}\n",
            ),
        ]),
        fixed: Example::Package(&[
            ("plugin.json", PLUGIN_JSON),
            (
                "mcp.json",
                "{\n  \"$schema\": \"https://agent-plugins.org/schemas/1.0.0/mcp.schema.json\",\n  \"mcpServers\": {\n    \"billing\": {\n      \"type\": \"streamable-http\",\n      \"url\": \"https://billing.example.com/mcp\"\n    }\n  }\n}\n",
            ),
        ]),
    },
};

pub static SECRET_TOKEN_SHAPE: Rule = Rule {
    code: "AP502",
    name: "secret-known-token",
    severity: Severity::Error,
    spec: "Agent Plugins §7.2.1, §9.2",
    summary: "A value has the shape of a well-known credential (GitHub, Slack, AWS, OpenAI, Anthropic, Stripe, JWT, private key…)",
    fix_hint: Some(
        "remove it and revoke it now if it was ever published; have the user provide it through the client \
         or the server's own configuration",
    ),
    doc: RuleDoc {
        what: "Header and `env` values containing a well-known credential shape: GitHub (`ghp_`, `gho_`, \
               `github_pat_`…), Slack (`xoxb-`…), AWS access key ids (`AKIA`…), OpenAI and Anthropic keys \
               (`sk-…`, `sk-ant-…`), Stripe (`sk_live_`…), Google (`AIza…`), GitLab (`glpat-`), npm, Hugging \
               Face, JSON Web Tokens, and PEM private key blocks.",
        why: "§9.2: \"Plugins MUST NOT embed credentials or other secrets in `env`\"; §7.2.1 says the same of \
              `headers`. These shapes are real credentials almost every time, and scanners harvest them from \
              published packages within minutes.",
        failing: Example::Package(&[
            ("plugin.json", PLUGIN_JSON),
            (
                "mcp.json",
                "{\n  \"$schema\": \"https://agent-plugins.org/schemas/1.0.0/mcp.schema.json\",\n  \"mcpServers\": {\n    \"issues\": {\n      \"type\": \"stdio\",\n      \"command\": \"npx\",\n      \"args\": [\"-y\", \"issues-server\"],\n      \"env\": {\"GITHUB_TOKEN\": \"ghp_0123456789abcdefghijklmnopqrstuvwxyzAB\"}\n    }\n  }\n}\n",
            ),
        ]),
        fixed: Example::Package(&[
            ("plugin.json", PLUGIN_JSON),
            (
                "mcp.json",
                "{\n  \"$schema\": \"https://agent-plugins.org/schemas/1.0.0/mcp.schema.json\",\n  \"mcpServers\": {\n    \"issues\": {\n      \"type\": \"stdio\",\n      \"command\": \"npx\",\n      \"args\": [\"-y\", \"issues-server\"]\n    }\n  }\n}\n",
            ),
        ]),
    },
};

pub static SECRET_NAMED_VALUE: Rule = Rule {
    code: "AP503",
    name: "secret-named-value",
    severity: Severity::Error,
    spec: "Agent Plugins §7.2.1, §9.2",
    summary: "A header or `env` entry named like a password, secret, key or token holds a literal credential",
    fix_hint: Some("remove it (and revoke it if it was published); have the user provide it outside the package"),
    doc: RuleDoc {
        what: "Header and `env` entries whose name says what they hold. A name ending in password, passwd, pwd, \
               passphrase, secret or credential(s) (`DB_PASSWORD`, `clientSecret`) with any literal value of four \
               or more characters; a name mentioning key, token, auth, session or cookie (`X-Api-Key`, \
               `accessToken`) with a random-looking value: at least 16 characters, letters and digits mixed, high \
               Shannon entropy, no spaces. Placeholders, stand-ins (`<token>`, `YOUR_KEY`), booleans, URLs and \
               paths are not secrets; names ending in `_URL`, `_FILE`, `_PATH`, `_ID` and the like are not \
               secret names.",
        why: "§7.2.1 and §9.2: plugins MUST NOT embed secrets in `headers` or `env`. A literal password, or a \
              random string under a key or token name, is a credential in all but name.",
        failing: Example::Package(&[
            ("plugin.json", PLUGIN_JSON),
            (
                "mcp.json",
                "{\n  \"$schema\": \"https://agent-plugins.org/schemas/1.0.0/mcp.schema.json\",\n  \"mcpServers\": {\n    \"search\": {\n      \"type\": \"streamable-http\",\n      \"url\": \"https://search.example.com/mcp\",\n      \"headers\": {\"X-Api-Key\": \"4f3c9a1e7b2d8c6f0a5e9d3b\"}\n    }\n  }\n}\n",
            ),
        ]),
        fixed: Example::Package(&[
            ("plugin.json", PLUGIN_JSON),
            (
                "mcp.json",
                "{\n  \"$schema\": \"https://agent-plugins.org/schemas/1.0.0/mcp.schema.json\",\n  \"mcpServers\": {\n    \"search\": {\n      \"type\": \"streamable-http\",\n      \"url\": \"https://search.example.com/mcp\",\n      \"headers\": {\"X-Client\": \"agent-plugin\"}\n    }\n  }\n}\n",
            ),
        ]),
    },
};

pub static SECRET_IN_OTHER_FIELD: Rule = Rule {
    code: "AP504",
    name: "secret-in-other-field",
    severity: Severity::Warning,
    spec: "Agent Plugins §7.2.1, §9.2",
    summary: "A credential-shaped value sits in `args` or `url`",
    fix_hint: Some("remove it (and revoke it if it was published); have the user provide it outside the package"),
    doc: RuleDoc {
        what: "`args` items and `url` values containing a well-known credential shape (as AP502) or a \
               `Bearer`/`Basic` credential, such as `--token ghp_…` or `?key=sk-…`, and a password in a URL's \
               user information (`https://bot:password@host`, which AP431 also makes invalid).",
        why: "The spec's MUST NOT names `headers` (§7.2.1) and `env` (§9.2), so this is a warning, not an error; \
              but `args` and `url` are just as visible to everyone who installs the package, and a token there is \
              exposed the same way.",
        failing: Example::Package(&[
            ("plugin.json", PLUGIN_JSON),
            (
                "mcp.json",
                "{\n  \"$schema\": \"https://agent-plugins.org/schemas/1.0.0/mcp.schema.json\",\n  \"mcpServers\": {\n    \"issues\": {\n      \"type\": \"stdio\",\n      \"command\": \"npx\",\n      \"args\": [\"-y\", \"issues-server\", \"--token\", \"ghp_0123456789abcdefghijklmnopqrstuvwxyzAB\"]\n    }\n  }\n}\n",
            ),
        ]),
        fixed: Example::Package(&[
            ("plugin.json", PLUGIN_JSON),
            (
                "mcp.json",
                "{\n  \"$schema\": \"https://agent-plugins.org/schemas/1.0.0/mcp.schema.json\",\n  \"mcpServers\": {\n    \"issues\": {\n      \"type\": \"stdio\",\n      \"command\": \"npx\",\n      \"args\": [\"-y\", \"issues-server\"]\n    }\n  }\n}\n",
            ),
        ]),
    },
};

pub static SECRET_IN_URL_QUERY: Rule = Rule {
    code: "AP505",
    name: "secret-in-url-query",
    severity: Severity::Warning,
    spec: "Agent Plugins §7.2.1",
    summary: "A secret-named URL query parameter holds a literal credential",
    fix_hint: Some(
        "remove it (and revoke it if it was published); send the credential in a header the user configures, not in the URL",
    ),
    doc: RuleDoc {
        what: "Query parameters of `url` whose name says they hold a credential (`api_key`, `access_token`, \
               `password`, …) with a literal value that looks like one: random-looking for key and token names, \
               any literal for password and secret names. `${…}` placeholders and stand-ins like `<token>` pass.",
        why: "§7.2.1: plugins must not embed credentials in `mcp.json`, and everyone who installs the package \
              reads its `url`; a key in the query is also written to every proxy and server log on the way.",
        failing: Example::Package(&[
            ("plugin.json", PLUGIN_JSON),
            (
                "mcp.json",
                "{\n  \"$schema\": \"https://agent-plugins.org/schemas/1.0.0/mcp.schema.json\",\n  \"mcpServers\": {\n    \"issues\": {\n      \"type\": \"streamable-http\",\n      \"url\": \"https://issues.acme.dev/mcp?api_key=8f14e45fceea167a5a36dedd4bea2543a1b2c3d4\"\n    }\n  }\n}\n",
            ),
        ]),
        fixed: Example::Package(&[
            ("plugin.json", PLUGIN_JSON),
            (
                "mcp.json",
                "{\n  \"$schema\": \"https://agent-plugins.org/schemas/1.0.0/mcp.schema.json\",\n  \"mcpServers\": {\n    \"issues\": {\n      \"type\": \"streamable-http\",\n      \"url\": \"https://issues.acme.dev/mcp\"\n    }\n  }\n}\n",
            ),
        ]),
    },
};

pub static SECRET_IN_ARGUMENT: Rule = Rule {
    code: "AP506",
    name: "secret-in-argument",
    severity: Severity::Warning,
    spec: "Agent Plugins §7.2.1, §9.2",
    summary: "A secret-named command-line flag in `args` holds a literal credential",
    fix_hint: Some(
        "remove it (and revoke it if it was published); have the server read the credential from a variable the user sets",
    ),
    doc: RuleDoc {
        what: "Flags in `args` whose name says they take a credential (`--api-key=…`, `--token …`, \
               `--password …`) with a literal value that looks like one, given after `=` or as the next item. \
               Well-known token shapes are AP504's; `${…}` placeholders and stand-ins pass.",
        why: "`args` are as visible as `env` (§9.2) to everyone who installs the package, and a credential on a \
              command line also shows in every process list on the user's machine.",
        failing: Example::Package(&[
            ("plugin.json", PLUGIN_JSON),
            (
                "mcp.json",
                "{\n  \"$schema\": \"https://agent-plugins.org/schemas/1.0.0/mcp.schema.json\",\n  \"mcpServers\": {\n    \"issues\": {\n      \"type\": \"stdio\",\n      \"command\": \"npx\",\n      \"args\": [\"-y\", \"issues-server\", \"--api-key=8f14e45fceea167a5a36dedd4bea2543a1b2c3d4\"]\n    }\n  }\n}\n",
            ),
        ]),
        fixed: Example::Package(&[
            ("plugin.json", PLUGIN_JSON),
            (
                "mcp.json",
                "{\n  \"$schema\": \"https://agent-plugins.org/schemas/1.0.0/mcp.schema.json\",\n  \"mcpServers\": {\n    \"issues\": {\n      \"type\": \"stdio\",\n      \"command\": \"npx\",\n      \"args\": [\"-y\", \"issues-server\"]\n    }\n  }\n}\n",
            ),
        ]),
    },
};

pub static RULES: &[&Rule] = &[
    &SECRET_AUTHORIZATION,
    &SECRET_TOKEN_SHAPE,
    &SECRET_NAMED_VALUE,
    &SECRET_IN_OTHER_FIELD,
    &SECRET_IN_URL_QUERY,
    &SECRET_IN_ARGUMENT,
];

/// Where a value sits; the spec forbids secrets in both.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    Header,
    Env,
}

/// A secret found in one value: the rule and a message that shows it masked.
#[derive(Debug, Clone)]
pub struct Secret {
    pub rule: &'static Rule,
    pub message: String,
}

/// Well-known credential shapes; group 1 is the non-secret prefix shown in messages.
static TOKEN_SHAPES: LazyLock<Vec<(&'static str, Regex)>> = LazyLock::new(|| {
    [
        ("GitHub token", r"\b(gh[pousr]_)[A-Za-z0-9]{30,}"),
        ("GitHub fine-grained token", r"\b(github_pat_)[A-Za-z0-9_]{30,}"),
        ("Slack token", r"\b(xox[abposr]-)[A-Za-z0-9-]{10,}"),
        ("AWS access key id", r"\b(AKIA|ASIA)[A-Z0-9]{16}\b"),
        ("Anthropic API key", r"\b(sk-ant-)[A-Za-z0-9_-]{20,}"),
        ("OpenAI API key", r"\b(sk-(?:proj-|svcacct-|admin-)?)[A-Za-z0-9_-]{20,}"),
        ("Stripe secret key", r"\b((?:sk|rk)_(?:live|test)_)[A-Za-z0-9]{16,}"),
        ("Google API key", r"\b(AIza)[A-Za-z0-9_-]{35}"),
        ("GitLab token", r"\b(glpat-)[A-Za-z0-9_-]{20,}"),
        ("npm token", r"\b(npm_)[A-Za-z0-9]{36}"),
        ("Hugging Face token", r"\b(hf_)[A-Za-z0-9]{30,}"),
        (
            "JSON Web Token",
            r"\b(eyJ)[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}",
        ),
        ("private key", r"(-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----)"),
    ]
    .into_iter()
    .map(|(label, pattern)| (label, Regex::new(pattern).expect("token shape patterns are valid")))
    .collect()
});

/// Looks for a secret in `value` of the header or `env` entry `name`.
pub fn detect(field: Field, name: &str, value: &str) -> Option<Secret> {
    let place = match field {
        Field::Header => format!("header {name:?}"),
        Field::Env => format!("`env` {name:?}"),
    };
    let visible = match field {
        Field::Header => "header values are visible package data (§7.2.1)",
        Field::Env => "`env` values are visible package data (§9.2)",
    };
    if let Some((label, shown)) = known_token(value) {
        return Some(Secret {
            rule: &SECRET_TOKEN_SHAPE,
            message: format!("{place} holds what looks like a {label} ({shown}); {visible}"),
        });
    }
    let literal = without_placeholders(value);
    let is_authorization = field == Field::Header
        && (name.eq_ignore_ascii_case("authorization") || name.eq_ignore_ascii_case("proxy-authorization"));
    if let Some((scheme, credential)) = split_credential(&literal, is_authorization)
        && !is_stand_in(credential)
    {
        let shown = match scheme {
            Some(scheme) => format!("{scheme} {}", masked("", credential)),
            None => masked("", credential),
        };
        return Some(Secret {
            rule: &SECRET_AUTHORIZATION,
            message: format!("{place} embeds a literal credential ({shown}); {visible}"),
        });
    }
    let literal = literal.trim();
    let what = match secret_name(name)? {
        SecretName::Always if looks_like_password(literal) => "a literal secret",
        SecretName::WhenRandom if looks_random(literal) => "a random-looking value",
        _ => return None,
    };
    (!is_stand_in(literal)).then(|| Secret {
        rule: &SECRET_NAMED_VALUE,
        message: format!("{place} holds {what} ({}); {visible}", masked("", literal)),
    })
}

/// Looks for an unmistakable credential (a well-known token shape, a `Bearer`
/// or `Basic` value) in `value` of another field, `place` naming it (`args[1]`, `url`).
pub fn detect_elsewhere(place: &str, value: &str) -> Option<Secret> {
    let shown = match known_token(value) {
        Some((label, shown)) => format!("a {label} ({shown})"),
        None => {
            let literal = without_placeholders(value);
            let (scheme, credential) = split_credential(&literal, false).filter(|(_, c)| !is_stand_in(c))?;
            format!(
                "a {} credential ({})",
                scheme.unwrap_or("literal"),
                masked("", credential)
            )
        }
    };
    Some(Secret {
        rule: &SECRET_IN_OTHER_FIELD,
        message: format!("{place} holds what looks like {shown}; everything in mcp.json is visible package data"),
    })
}

/// A password in a URL's user information (`user:password@host`), which is a
/// credential whatever it looks like.
pub fn detect_url_password(userinfo: &str) -> Option<Secret> {
    let (_, password) = userinfo.split_once(':')?;
    let password = without_placeholders(password);
    (!password.is_empty() && !is_stand_in(&password)).then(|| Secret {
        rule: &SECRET_IN_OTHER_FIELD,
        message: format!(
            "`url` holds a password in its user information ({}); everything in mcp.json is visible package data",
            masked("", &password)
        ),
    })
}

/// The label and masked form of the first well-known credential shape in `value`.
fn known_token(value: &str) -> Option<(&'static str, String)> {
    let (label, found) = TOKEN_SHAPES
        .iter()
        .find_map(|(label, shape)| shape.captures(value).map(|c| (*label, c)))?;
    // A key block's length is the whole value's: its BEGIN line alone says little.
    let token = if label == "private key" {
        value
    } else {
        found.get(0).map_or("", |m| m.as_str())
    };
    Some((label, masked(found.get(1).map_or("", |m| m.as_str()), token)))
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
fn named_secret(name: &str, value: &str) -> bool {
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

/// A secret-named query parameter of `url` with a literal credential
/// (`?api_key=…`, `&access_token=…`).
pub fn detect_in_url_query(url: &str) -> Option<Secret> {
    let query = url.split_once('?')?.1;
    let query = query.split('#').next().unwrap_or("");
    let (name, value) = query
        .split(['&', ';'])
        .filter_map(|pair| pair.split_once('='))
        .find(|(name, value)| named_secret(name, value))?;
    Some(Secret {
        rule: &SECRET_IN_URL_QUERY,
        message: format!(
            "`url` query parameter {name:?} holds a literal credential ({}); everything in mcp.json is visible package data",
            masked("", value)
        ),
    })
}

/// Secret-named flags in `args` with a literal credential, as `--name=value`
/// or `--name` then `value`: the index of the item holding the value, and the finding.
pub fn detect_in_args(args: &[Option<&str>]) -> Vec<(usize, Secret)> {
    let mut found = Vec::new();
    for (i, arg) in args.iter().enumerate() {
        let Some(flag) = arg.and_then(|arg| arg.strip_prefix('-')) else {
            continue;
        };
        let flag = flag.trim_start_matches('-');
        let (name, value, at) = match flag.split_once('=') {
            Some((name, value)) => (name, value, i),
            None => match args.get(i + 1).copied().flatten() {
                Some(next) if !next.starts_with('-') => (flag, next, i + 1),
                _ => continue,
            },
        };
        if named_secret(name, value) {
            found.push((
                at,
                Secret {
                    rule: &SECRET_IN_ARGUMENT,
                    message: format!(
                        "`args[{at}]` gives the flag {:?} a literal credential ({}); everything in mcp.json is visible package data",
                        format!("--{name}"),
                        masked("", value)
                    ),
                },
            ));
        }
    }
    found
}

/// Shapes a renderer masks wherever it quotes text, whatever rule pointed there.
static QUOTED_SHAPES: LazyLock<[Regex; 8]> = LazyLock::new(|| {
    [
        // A password in a URL's user information: group 1.
        r"(?i)\b[a-z][a-z0-9+.-]*://[^/\s\x22'@:]*:([^/\s\x22'@]+)@",
        // An authorization header's whole value as a JSON member, whatever its
        // scheme (`Token …`, `Digest …`) and wherever it sits (a stdio server's
        // stray `headers`, an extension): group 1.
        r#"(?i)"(?:proxy-)?authorization"\s*:\s*"([^"\\]+)""#,
        // A query parameter: name, value.
        r"[?&;]([A-Za-z0-9_.-]+)=([^&#\s\x22'\\]+)",
        // A flag with `=`: name, value.
        r"(?:^|[\s\x22'])--?([A-Za-z0-9][A-Za-z0-9_.-]*)=([^\s\x22'\\]+)",
        // A flag and its value, in one string or as the next JSON array item: name, value.
        r"(?:^|[\s\x22'])--?([A-Za-z0-9][A-Za-z0-9_.-]*)(?:\x22\s*,\s*\x22|\s+)([^\s\x22'\\-][^\s\x22'\\]*)",
        // A JSON member: name, value.
        r#""([A-Za-z0-9_.-]+)"\s*:\s*"([^"\\]*)""#,
        // An environment assignment in one string (`"DB_PASSWORD=…"`, an `env`
        // written as an array): name, value.
        r"(?:^|[\s\x22'])([A-Za-z_][A-Za-z0-9_]*)=([^\s\x22'\\&]+)",
        // An authorization value: group 1.
        r"(?i)\b(?:bearer|basic)\s+([A-Za-z0-9._~+/=-]{8,})",
    ]
    .map(|pattern| Regex::new(pattern).expect("quoted-text shapes are valid"))
});

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
            if *label == "private key" {
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
    ] = &*QUOTED_SHAPES;
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
fn masked(prefix: &str, secret: &str) -> String {
    format!("{prefix}…({} chars)", secret.chars().count())
}

/// `value` with every `${NAME}` removed: placeholders are never secrets.
fn without_placeholders(value: &str) -> String {
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
fn split_credential(value: &str, is_authorization: bool) -> Option<(Option<&str>, &str)> {
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
fn is_stand_in(text: &str) -> bool {
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
enum SecretName {
    /// It ends in password, secret…: any literal value is one.
    Always,
    /// It mentions a key, token…: a random-looking value is one; ids and modes are not.
    WhenRandom,
}

fn secret_name(name: &str) -> Option<SecretName> {
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
                || ["token", "secret", "password", "apikey", "accesskey"]
                    .iter()
                    .any(|part| w.contains(part))
        })
        .then_some(SecretName::WhenRandom)
}

/// A literal worth calling a password: not a flag, a path, a URL or a word like `none`.
fn looks_like_password(value: &str) -> bool {
    const NOT_PASSWORDS: &[&str] = &[
        "true", "false", "yes", "no", "none", "null", "nil", "on", "off", "unset",
    ];
    value.chars().count() >= 4
        && !NOT_PASSWORDS.iter().any(|word| value.eq_ignore_ascii_case(word))
        && !value.contains("://")
        && !value.starts_with(['/', '.', '~'])
}

/// `X-Api-Key` → [x, api, key]; `accessToken` → [access, token].
fn name_words(name: &str) -> Vec<String> {
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
fn looks_random(value: &str) -> bool {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn code(field: Field, name: &str, value: &str) -> Option<&'static str> {
        detect(field, name, value).map(|s| s.rule.code)
    }

    #[test]
    fn well_known_shapes_are_found_and_masked() {
        // §9.2: "Plugins MUST NOT embed credentials or other secrets in `env`."
        let samples = [
            "ghp_0123456789abcdefghijklmnopqrstuvwxyzAB",
            "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz",
            "xoxb-1234567890-abcdefghij",
            "AKIAIOSFODNN7EXAMPLE",
            "sk-ant-api03-abcdefghijklmnopqrstuvwxyz012345",
            "sk-proj-abcdefghijklmnopqrstuvwxyz012345",
            "sk_live_0123456789abcdefABCDEF",
            "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
            "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----",
        ];
        for sample in samples {
            let secret = detect(Field::Env, "SOME_SETTING", sample).unwrap_or_else(|| panic!("{sample}"));
            assert_eq!(secret.rule.code, "AP502", "{sample}");
            let middle = &sample[sample.len() / 2..][..6];
            assert!(!secret.message.contains(middle), "{}", secret.message);
        }
        let secret = detect(Field::Env, "GITHUB_TOKEN", samples[0]).unwrap();
        assert!(secret.message.contains("ghp_…(42 chars)"), "{}", secret.message);
    }

    #[test]
    fn authorization_literals_are_found() {
        // §7.2.1: "Plugins MUST NOT embed credentials or other secrets in `headers`."
        assert_eq!(code(Field::Header, "Authorization", "Bearer 8d2c1f0b"), Some("AP501"));
        assert_eq!(
            code(Field::Header, "proxy-authorization", "Basic dXNlcjpwYXNz"),
            Some("AP501")
        );
        assert_eq!(code(Field::Header, "Authorization", "abc123"), Some("AP501"));
        assert_eq!(code(Field::Env, "AUTH_HEADER", "Bearer abc"), Some("AP501"));
        let secret = detect(Field::Header, "Authorization", "Bearer 8d2c1f0b").unwrap();
        assert!(secret.message.contains("Bearer …(8 chars)"), "{}", secret.message);
    }

    #[test]
    fn placeholders_and_stand_ins_are_not_secrets() {
        // §9.2: `${API_KEY}` stays literal; it is a broken reference, not a credential.
        for (name, value) in [
            ("Authorization", "Bearer ${API_TOKEN}"),
            ("Authorization", "${AUTH}"),
            ("Authorization", "Bearer <token>"),
            ("Authorization", "Bearer YOUR_TOKEN"),
            ("Authorization", "Bearer"),
            ("Authorization", ""),
            ("X-Api-Key", "${API_KEY}"),
        ] {
            assert_eq!(code(Field::Header, name, value), None, "{name}: {value}");
        }
    }

    #[test]
    fn random_values_under_secret_names_are_found() {
        assert_eq!(
            code(Field::Header, "X-Api-Key", "4f3c9a1e7b2d8c6f0a5e9d3b"),
            Some("AP503")
        );
        assert_eq!(code(Field::Env, "DB_PASSWORD", "Tr0ub4dor&3xQ9zLmP"), Some("AP503"));
        assert_eq!(code(Field::Env, "accessToken", "a8F3kQ9zL2mX7vB1nC4d"), Some("AP503"));
        // A password needs no randomness to be one.
        assert_eq!(code(Field::Env, "DB_PASSWORD", "hunter2"), Some("AP503"));
        assert_eq!(code(Field::Env, "clientSecret", "correct horse battery"), Some("AP503"));
        assert_eq!(code(Field::Header, "X-Api-Key", "short-key"), None);
    }

    #[test]
    fn obvious_non_secrets_are_quiet() {
        for (name, value) in [
            ("HUBSPOT_CLI_VERSION", "8.12.0"),
            ("ENTROLY_MCP_PASSIVE", "1"),
            (
                "TOKEN_URL",
                "https://auth.example.com/oauth2/token?client=a8F3kQ9zL2mX7vB1",
            ),
            ("API_KEY_FILE", "a8F3kQ9zL2mX7vB1nC4d"),
            ("PUBLIC_KEY", "a8F3kQ9zL2mX7vB1nC4d"),
            ("X-Tenant", "a8F3kQ9zL2mX7vB1nC4d"),
            ("SECRET_STORE", "${PLUGIN_DATA}/secrets"),
            ("API_KEY", "not-set"),
            ("MONKEY_MODE", "on"),
            ("CACHE_KEY", "release-2024-cache"),
            ("DB_PASSWORD", "${DB_PASSWORD}"),
            ("ADMIN_PASSWORD", "changeme"),
            ("USE_SECRET", "true"),
            ("SECRET_BACKEND", "vault"),
            ("CLIENT_SECRET", "<your client secret>"),
        ] {
            assert_eq!(code(Field::Env, name, value), None, "{name}: {value}");
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
    fn credentials_in_other_fields_are_found() {
        let secret = detect_elsewhere("`args[3]`", "ghp_0123456789abcdefghijklmnopqrstuvwxyzAB").unwrap();
        assert_eq!(secret.rule.code, "AP504");
        assert!(secret.message.contains("ghp_…(42 chars)"), "{}", secret.message);
        assert!(
            detect_elsewhere(
                "`url`",
                "https://x.example.com/mcp?key=sk-proj-abcdefghijklmnopqrstuvwxyz"
            )
            .is_some()
        );
        assert!(detect_elsewhere("`args[0]`", "--verbose").is_none());
        assert!(detect_elsewhere("`args[0]`", "Bearer ${TOKEN}").is_none());
        assert!(
            detect_url_password("bot:hunter2")
                .unwrap()
                .message
                .contains("…(7 chars)")
        );
        assert!(detect_url_password("bot").is_none());
        assert!(detect_url_password("bot:${PASSWORD}").is_none());
    }

    #[test]
    fn name_words_split_separators_and_camel_case() {
        assert_eq!(name_words("X-Api-Key"), ["x", "api", "key"]);
        assert_eq!(name_words("accessToken"), ["access", "token"]);
        assert_eq!(name_words("AWS_SECRET_ACCESS_KEY"), ["aws", "secret", "access", "key"]);
    }

    #[test]
    fn secret_named_query_parameters_and_flags_are_found() {
        // Issue 9 §1: these raised nothing, and another finding's snippet then quoted the key.
        let hex = "8f14e45fceea167a5a36dedd4bea2543a1b2c3d4";
        for url in [
            format!("https://api.acme.dev/mcp?api_key={hex}"),
            format!("https://api.acme.dev/mcp?x=1&access_token={hex}#top"),
        ] {
            let secret = detect_in_url_query(&url).unwrap();
            assert_eq!(secret.rule.code, "AP505");
            assert!(!secret.message.contains(hex), "{}", secret.message);
        }
        for harmless in [
            "https://api.acme.dev/mcp?api_key=${API_KEY}",
            "https://api.acme.dev/mcp?token=<token>",
            "https://api.acme.dev/mcp?page=8f14e45fceea167a5a36dedd4bea2543a1b2c3d4",
        ] {
            assert!(detect_in_url_query(harmless).is_none(), "{harmless}");
        }
        let equals = format!("--api-key={hex}");
        let found = detect_in_args(&[Some("-y"), Some(&equals)]);
        assert_eq!(
            found.iter().map(|(i, s)| (*i, s.rule.code)).collect::<Vec<_>>(),
            [(1, "AP506")]
        );
        let found = detect_in_args(&[Some("--token"), Some(hex), Some("--password"), Some("hunter22")]);
        assert_eq!(found.iter().map(|(i, _)| *i).collect::<Vec<_>>(), [1, 3]);
        assert!(
            found
                .iter()
                .all(|(_, s)| !s.message.contains(hex) && !s.message.contains("hunter22"))
        );
        assert!(detect_in_args(&[Some("--token"), Some("${TOKEN}"), Some("--verbose")]).is_empty());
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
}
