//! The detection several MCP checks share (`headers`, `env`, `url`, `args`)
//! and the rules it finds for all of them (AP501-AP504). A rule only one
//! check finds sits beside that check: AP505 in `rules/mcp/url.rs`, AP506 in
//! `rules/mcp/args.rs`.
//!
//! Every message shows a secret masked, as its well-known prefix (if any) and
//! its length, e.g. `ghp_…(40 chars)`; the value itself never leaves here.

use crate::diag::Severity;
use crate::redact::{
    SecretName, is_stand_in, known_token, looks_like_password, looks_random, masked, secret_name, split_credential,
    without_placeholders,
};
use crate::rule::{Example, Rule};

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
    doc: rule_doc! {
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
    summary: "A value in mcp.json has the shape of a well-known credential (GitHub, Slack, AWS, OpenAI, Anthropic, Stripe, JWT, private key…)",
    fix_hint: Some(
        "remove it and revoke it now if it was ever published; have the user provide it through the client \
         or the server's own configuration",
    ),
    doc: rule_doc! {
        what: "Header, `env`, `args` and `url` values containing a well-known credential shape: GitHub (`ghp_`, `gho_`, \
               `github_pat_`…), Slack (`xoxb-`…), AWS access key ids (`AKIA`…), OpenAI and Anthropic keys \
               (`sk-…`, `sk-ant-…`), Stripe (`sk_live_`…), Google (`AIza…`), GitLab (`glpat-`), npm, Hugging \
               Face, JSON Web Tokens, and PEM private key blocks.",
        why: "§9.2: \"Plugins MUST NOT embed credentials or other secrets in `env`\"; §7.2.1 says the same of \
              `headers`. These shapes are real credentials almost every time, and scanners harvest them from \
              published packages within minutes, so this is an error in `args` and `url` too: the MUST NOT \
              names `headers` and `env`, but a key in `args` or a URL is published the same way, and a warning \
              would let CI pass with it.",
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
    doc: rule_doc! {
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
    summary: "A `Bearer`/`Basic` credential or a URL password sits in `args` or `url`",
    fix_hint: Some("remove it (and revoke it if it was published); have the user provide it outside the package"),
    doc: rule_doc! {
        what: "`args` items and `url` values containing a `Bearer`/`Basic` credential, such as \
               `--header \"Bearer 8d2c…\"`, and a password in a URL's user information \
               (`https://bot:password@host`, which AP431 also makes invalid). A well-known token shape there \
               (`ghp_…`, `sk_live_…`) is AP502, an error.",
        why: "The spec's MUST NOT names `headers` (§7.2.1) and `env` (§9.2), so this is a warning, not an error; \
              but `args` and `url` are just as visible to everyone who installs the package, and a token there is \
              exposed the same way.",
        failing: Example::Package(&[
            ("plugin.json", PLUGIN_JSON),
            (
                "mcp.json",
                "{\n  \"$schema\": \"https://agent-plugins.org/schemas/1.0.0/mcp.schema.json\",\n  \"mcpServers\": {\n    \"issues\": {\n      \"type\": \"stdio\",\n      \"command\": \"npx\",\n      \"args\": [\"-y\", \"issues-server\", \"--auth\", \"Bearer 8d2c1f0b9e7a4c6d\"]\n    }\n  }\n}\n",
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
            message: format!("{place} holds what looks like {label} ({shown}); {visible}"),
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

/// Looks for an unmistakable credential in `value` of another field, `place`
/// naming it (`args[1]`, `url`): a well-known token shape is AP502, an error
/// wherever it sits in mcp.json (a published key is as leaked in `args` as in
/// `env`); a `Bearer` or `Basic` value is AP504.
pub fn detect_elsewhere(place: &str, value: &str) -> Option<Secret> {
    let visible = "everything in mcp.json is visible package data";
    if let Some((label, shown)) = known_token(value) {
        return Some(Secret {
            rule: &SECRET_TOKEN_SHAPE,
            message: format!("{place} holds what looks like {label} ({shown}); {visible}"),
        });
    }
    let literal = without_placeholders(value);
    let (scheme, credential) = split_credential(&literal, false).filter(|(_, c)| !is_stand_in(c))?;
    Some(Secret {
        rule: &SECRET_IN_OTHER_FIELD,
        message: format!(
            "{place} holds what looks like a {} credential ({}); {visible}",
            scheme.unwrap_or("literal"),
            masked("", credential)
        ),
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
    fn each_shape_is_named_with_the_article_its_sound_takes() {
        let named = |value: &str| detect(Field::Env, "SOME_SETTING", value).unwrap().message;
        let openai = named("sk-proj-abcdefghijklmnopqrstuvwxyz012345");
        assert!(openai.contains("looks like an OpenAI API key (sk-proj-"), "{openai}");
        let aws = named("AKIAIOSFODNN7EXAMPLE");
        assert!(aws.contains("looks like an AWS access key id"), "{aws}");
        let npm = named("npm_0123456789abcdefghijklmnopqrstuvwxyz");
        assert!(npm.contains("looks like an npm token"), "{npm}");
        let github = named("ghp_0123456789abcdefghijklmnopqrstuvwxyzAB");
        assert!(github.contains("looks like a GitHub token"), "{github}");
        let elsewhere = detect_elsewhere("args[1]", "sk-ant-api03-abcdefghijklmnopqrstuvwxyz012345").unwrap();
        assert!(
            elsewhere.message.contains("looks like an Anthropic API key"),
            "{}",
            elsewhere.message
        );
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
    fn credentials_in_other_fields_are_found() {
        // A published key is an error wherever it sits in mcp.json.
        let secret = detect_elsewhere("`args[3]`", "ghp_0123456789abcdefghijklmnopqrstuvwxyzAB").unwrap();
        assert_eq!(secret.rule.code, "AP502");
        assert!(secret.message.contains("ghp_…(42 chars)"), "{}", secret.message);
        let secret = detect_elsewhere(
            "`url`",
            "https://x.example.com/mcp?key=sk-proj-abcdefghijklmnopqrstuvwxyz",
        )
        .unwrap();
        assert_eq!(secret.rule.code, "AP502");
        let secret = detect_elsewhere("`args[1]`", "Bearer 8d2c1f0b9e7a4c6d").unwrap();
        assert_eq!(secret.rule.code, "AP504");
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
}
