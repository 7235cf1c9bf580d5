//! The GitHub Action's shell logic (`scripts/action.sh`, which `action.yml`
//! runs step by step) on a fixture repository, with the runner's files
//! (`GITHUB_OUTPUT`, `GITHUB_STEP_SUMMARY`, `GITHUB_PATH`) as temporary files
//! and the built apcheck. `post` talks to GitHub through `gh`, replaced here by
//! a stand-in that records what it was asked.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

use crate::support::{APCHECK_BIN, apcheck, repo};

const PLUGIN_SCHEMA: &str = "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json";

struct Fixture {
    dir: tempfile::TempDir,
}

impl Fixture {
    /// A marketplace with a clean plugin and a rejected one (AP209), and two
    /// snapshot fixtures of the clean one: before and after a skill was added.
    fn new() -> Fixture {
        let fixture = Fixture {
            dir: tempfile::tempdir().unwrap(),
        };
        let manifest = |name: &str, version: &str| {
            format!("{{\"$schema\": \"{PLUGIN_SCHEMA}\", \"name\": \"{name}\", \"version\": \"{version}\"}}")
        };
        fixture.write("plugins/good/plugin.json", &manifest("good", "1.0.0"));
        fixture.write("plugins/bad/plugin.json", &manifest("Bad_Name", "1.0.0"));
        let old = fixture.apcheck(&["snapshot", "plugins/good"]);
        assert_eq!(old.status.code(), Some(0), "{}", String::from_utf8_lossy(&old.stderr));
        fixture.write("snapshots/old.json", &String::from_utf8(old.stdout).unwrap());
        fixture.write("plugins/good/plugin.json", &manifest("good", "1.1.0"));
        fixture.write(
            "plugins/good/skills/pdf-tools/SKILL.md",
            "---\nname: pdf-tools\ndescription: Extracts text from PDF files. Use when the user works with PDFs.\n---\nBody.\n",
        );
        let new = fixture.apcheck(&["snapshot", "plugins/good"]);
        fixture.write("snapshots/new.json", &String::from_utf8(new.stdout).unwrap());
        fixture
    }

    fn path(&self, relative: &str) -> PathBuf {
        self.dir.path().join(relative)
    }

    fn write(&self, relative: &str, text: &str) {
        let path = self.path(relative);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
    }

    fn read(&self, relative: &str) -> String {
        fs::read_to_string(self.path(relative)).unwrap_or_default()
    }

    fn apcheck(&self, args: &[&str]) -> Output {
        apcheck(args).current_dir(self.dir.path()).output()
    }

    /// `action.sh SUBCOMMAND` in the fixture, as a runner step with `env`.
    fn step(&self, subcommand: &str, env: &[(&str, &str)]) -> Output {
        let script = repo().join("scripts/action.sh");
        let mut command = Command::new("bash");
        command
            .arg(script)
            .arg(subcommand)
            .current_dir(self.dir.path())
            .env("APCHECK_BIN", APCHECK_BIN)
            .env("GITHUB_OUTPUT", self.path("runner/output"))
            .env("GITHUB_STEP_SUMMARY", self.path("runner/summary"))
            .env("GITHUB_PATH", self.path("runner/path"));
        for (key, value) in env {
            command.env(key, value);
        }
        fs::create_dir_all(self.path("runner")).unwrap();
        command.output().unwrap()
    }

    /// The step outputs written so far, and forgets them.
    fn outputs(&self) -> String {
        let text = self.read("runner/output");
        let _ = fs::remove_file(self.path("runner/output"));
        text
    }
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn check_writes_sarif_and_fails_on_findings_only_when_asked() {
    let fixture = Fixture::new();
    let lenient = fixture.step(
        "check",
        &[("INPUT_PATHS", "plugins"), ("INPUT_FAIL_ON_FINDINGS", "false")],
    );
    assert_eq!(lenient.status.code(), Some(0), "{}", text(&lenient.stderr));
    assert_eq!(fixture.outputs(), "sarif-file=apcheck.sarif\nexit-code=1\n");
    let log: Value = serde_json::from_str(&fixture.read("apcheck.sarif")).expect("a SARIF log");
    assert_eq!(log["version"], "2.1.0");
    let results = log["runs"][0]["results"].as_array().unwrap();
    assert!(results.iter().any(|r| r["ruleId"] == "AP209"), "{results:?}");

    // By default a finding at error level fails the step, after the file is written.
    let _ = fs::remove_file(fixture.path("apcheck.sarif"));
    let strict = fixture.step(
        "check",
        &[
            ("INPUT_PATHS", "plugins/good\nplugins/bad"),
            ("INPUT_SARIF_FILE", "out/a.sarif"),
        ],
    );
    assert_eq!(strict.status.code(), Some(1));
    assert!(fixture.outputs().contains("exit-code=1"));
    let log: Value = serde_json::from_str(&fixture.read("out/a.sarif")).expect("written before failing");
    assert_eq!(log["runs"][0]["results"].as_array().unwrap().len(), results.len());

    // Extra flags go through; the clean plugin alone passes.
    let clean = fixture.step(
        "check",
        &[("INPUT_PATHS", "plugins/good"), ("INPUT_ARGS", "--deny warnings")],
    );
    assert_eq!(clean.status.code(), Some(0), "{}", text(&clean.stdout));
    assert!(fixture.outputs().contains("exit-code=0"));
}

#[test]
fn github_format_prints_annotations_and_usage_errors_always_fail() {
    let fixture = Fixture::new();
    let annotated = fixture.step(
        "check",
        &[
            ("INPUT_PATHS", "plugins"),
            ("INPUT_FORMAT", "github"),
            ("INPUT_FAIL_ON_FINDINGS", "false"),
        ],
    );
    assert_eq!(annotated.status.code(), Some(0));
    let stdout = text(&annotated.stdout);
    assert!(stdout.contains("::error file=plugins/bad/plugin.json"), "{stdout}");
    assert!(stdout.contains("AP209"), "{stdout}");

    let missing = fixture.step(
        "check",
        &[("INPUT_PATHS", "no-such-dir"), ("INPUT_FAIL_ON_FINDINGS", "false")],
    );
    assert_eq!(missing.status.code(), Some(2), "exit 2 is never hidden");
    let wrong_format = fixture.step("check", &[("INPUT_FORMAT", "text")]);
    assert_eq!(wrong_format.status.code(), Some(2));
    assert!(text(&wrong_format.stdout).contains("::error::format must be sarif or github"));
}

#[test]
fn every_mode_annotates_the_log_and_writes_a_job_summary() {
    let fixture = Fixture::new();
    for format in ["sarif", "github"] {
        let _ = fs::remove_file(fixture.path("runner/summary"));
        let step = fixture.step(
            "check",
            &[
                ("INPUT_PATHS", "plugins"),
                ("INPUT_FORMAT", format),
                ("INPUT_FAIL_ON_FINDINGS", "false"),
            ],
        );
        assert_eq!(step.status.code(), Some(0), "{format}: {}", text(&step.stderr));
        let log = text(&step.stdout);
        assert!(log.contains("::error file=plugins/bad/plugin.json"), "{format}: {log}");
        let summary = fixture.read("runner/summary");
        assert!(
            summary.contains("AP209"),
            "{format}: the job summary lists the findings: {summary}"
        );
        assert!(summary.contains("rejected"), "{format}: {summary}");
        // Each code links its rule's published page.
        let link = format!("[`AP209`]({})", apcheck::rule::doc_url("AP209"));
        assert!(summary.contains(&link), "{format}: {summary}");
    }
}

#[test]
fn annotations_come_most_severe_first_and_are_capped() {
    let fixture = Fixture::new();
    // A warning (an unknown key, §5.1) in the clean plugin, an error in the bad one,
    // and a cap of one: the error is the one shown.
    fixture.write(
        "plugins/good/plugin.json",
        &format!("{{\"$schema\": \"{PLUGIN_SCHEMA}\", \"name\": \"good\", \"x-extra\": 1}}"),
    );
    let step = fixture.step(
        "check",
        &[
            ("INPUT_PATHS", "plugins/good plugins/bad"),
            ("INPUT_FORMAT", "github"),
            ("INPUT_FAIL_ON_FINDINGS", "false"),
            ("APCHECK_MAX_ANNOTATIONS", "1"),
        ],
    );
    let log = text(&step.stdout);
    let commands: Vec<&str> = log.lines().filter(|line| line.starts_with("::")).collect();
    assert_eq!(commands.len(), 1, "{log}");
    assert!(commands[0].starts_with("::error "), "{log}");
    assert!(log.contains("more findings are not annotated"), "{log}");
}

#[test]
fn args_are_split_as_a_shell_would_and_nothing_in_them_runs() {
    let fixture = Fixture::new();
    // One quoted value with a space: two codes for one flag.
    let step = fixture.step(
        "check",
        &[
            ("INPUT_PATHS", "plugins/bad"),
            ("INPUT_FORMAT", "github"),
            ("INPUT_ARGS", "--ignore \"AP2, AP3\""),
        ],
    );
    let log = text(&step.stdout);
    assert_ne!(step.status.code(), Some(2), "{log}{}", text(&step.stderr));
    assert!(!log.contains("AP209"), "AP2 is ignored: {log}");
    // Command substitution is text, not a command.
    let marker = fixture.path("ran");
    let hostile = format!(
        "--ignore \"$(touch {})\" `touch {}`",
        marker.display(),
        marker.display()
    );
    let step = fixture.step("check", &[("INPUT_PATHS", "plugins/good"), ("INPUT_ARGS", &hostile)]);
    assert!(!marker.exists(), "nothing in args runs");
    assert_eq!(
        step.status.code(),
        Some(2),
        "the words are passed on and refused by apcheck"
    );
    let unbalanced = fixture.step(
        "check",
        &[("INPUT_PATHS", "plugins/good"), ("INPUT_ARGS", "--ignore \"AP2")],
    );
    assert_eq!(unbalanced.status.code(), Some(2));
    assert!(text(&unbalanced.stdout).contains("unbalanced quotes"));
}

#[test]
fn changes_writes_the_markdown_report_and_a_checked_pr_number() {
    let fixture = Fixture::new();
    let output = fixture.step(
        "changes",
        &[
            ("INPUT_OLD", "snapshots/old.json"),
            ("INPUT_NEW", "snapshots/new.json"),
            ("INPUT_PR_NUMBER", "42"),
        ],
    );
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let report = fixture.read("apcheck-changes/report.md");
    let direct = text(
        &fixture
            .apcheck(&[
                "changes",
                "--format",
                "markdown",
                "snapshots/old.json",
                "snapshots/new.json",
            ])
            .stdout,
    );
    assert_eq!(report, direct, "the report is the CLI's Markdown");
    assert!(report.contains("pdf-tools"), "{report}");
    assert_eq!(fixture.read("apcheck-changes/pr-number"), "42\n");
    assert!(fixture.read("runner/summary").contains(&report));
    assert!(fixture.outputs().contains("report-dir=apcheck-changes\n"));

    // A number that is not one is not passed on to the trusted workflow.
    let odd = fixture.step(
        "changes",
        &[
            ("INPUT_OLD", "snapshots/old.json"),
            ("INPUT_NEW", "snapshots/new.json"),
            ("INPUT_PR_NUMBER", "42; rm -rf /"),
            ("INPUT_REPORT_DIR", "odd"),
        ],
    );
    assert_eq!(odd.status.code(), Some(0));
    assert!(!fixture.path("odd/pr-number").exists());
    let unreadable = fixture.step(
        "changes",
        &[("INPUT_OLD", "missing.json"), ("INPUT_NEW", "snapshots/new.json")],
    );
    assert_eq!(unreadable.status.code(), Some(2));
}

/// A stand-in for `gh`: logs its arguments, keeps the body it was given, and
/// answers the comment listing with `existing` (the ids `--jq` would print).
fn fake_gh(fixture: &Fixture, existing: &str) -> String {
    fixture.write("gh/existing", existing);
    fixture.write(
        "gh/gh",
        "#!/bin/sh\necho \"$*\" >> \"$FAKE_GH/log\"\nfor a in \"$@\"; do case \"$a\" in body=@*) cp \"${a#body=@}\" \"$FAKE_GH/body\";; esac; done\ncase \"$*\" in *--paginate*) cat \"$FAKE_GH/existing\";; esac\n",
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(fixture.path("gh/gh"), fs::Permissions::from_mode(0o755)).unwrap();
    }
    format!(
        "{}:{}",
        fixture.path("gh").display(),
        std::env::var("PATH").unwrap_or_default()
    )
}

#[test]
fn post_comments_once_and_then_updates_its_comment() {
    let fixture = Fixture::new();
    fixture.write("apcheck-changes/report.md", "## Changes\n\n- added `pdf-tools`\n");
    fixture.write("apcheck-changes/pr-number", "7\n");
    let env = |path: &str| -> Vec<(String, String)> {
        vec![
            ("PATH".into(), path.into()),
            ("FAKE_GH".into(), fixture.path("gh").display().to_string()),
            ("GITHUB_REPOSITORY".into(), "acme/plugins".into()),
            ("GH_TOKEN".into(), "not-a-real-token".into()),
        ]
    };
    let run = |path: &str| {
        let env = env(path);
        let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        fixture.step("post", &env)
    };

    let path = fake_gh(&fixture, "");
    let first = run(&path);
    assert_eq!(first.status.code(), Some(0), "{}", text(&first.stderr));
    assert!(text(&first.stdout).contains("posted the report on pull request #7"));
    let log = fixture.read("gh/log");
    assert!(log.contains("--paginate repos/acme/plugins/issues/7/comments"), "{log}");
    assert!(
        log.contains("--method POST repos/acme/plugins/issues/7/comments"),
        "{log}"
    );
    let body = fixture.read("gh/body");
    assert_eq!(
        body,
        "<!-- apcheck changes report -->\n## Changes\n\n- added `pdf-tools`\n"
    );

    let _ = fs::remove_file(fixture.path("gh/log"));
    let path = fake_gh(&fixture, "991\n");
    let second = run(&path);
    assert_eq!(second.status.code(), Some(0), "{}", text(&second.stderr));
    assert!(
        fixture
            .read("gh/log")
            .contains("--method PATCH repos/acme/plugins/issues/comments/991")
    );

    // The number comes from a workflow that ran pull-request code: only digits are used.
    fixture.write("apcheck-changes/pr-number", "7/../../x\n");
    let _ = fs::remove_file(fixture.path("gh/log"));
    let refused = run(&path);
    assert_eq!(refused.status.code(), Some(0));
    assert!(text(&refused.stdout).contains("no pull request number"));
    assert_eq!(fixture.read("gh/log"), "", "gh is not called");
}

#[test]
fn the_cache_key_and_an_installed_binary_are_step_outputs() {
    let fixture = Fixture::new();
    let key = fixture.step("cache-key", &[("RUNNER_OS", "Linux")]);
    assert_eq!(key.status.code(), Some(0), "{}", text(&key.stderr));
    let outputs = fixture.outputs();
    assert!(outputs.starts_with("key=apcheck-Linux-rustc-"), "{outputs}");
    // The same sources give the same key.
    fixture.step("cache-key", &[("RUNNER_OS", "Linux")]);
    assert_eq!(fixture.outputs(), outputs);
    // A runner without Rust, which the release binary does not need, still gets
    // one (rustup's rustc is in ~/.cargo/bin, not in the system's folders).
    let no_rust = fixture.step("cache-key", &[("RUNNER_OS", "Linux"), ("PATH", "/usr/bin:/bin")]);
    assert_eq!(no_rust.status.code(), Some(0), "{}", text(&no_rust.stderr));
    assert!(fixture.outputs().starts_with("key=apcheck-Linux-no-rustc-"));

    // A cache hit: the binary is there, nothing is built.
    let root = fixture.path("tools");
    fs::create_dir_all(root.join("bin")).unwrap();
    fs::copy(APCHECK_BIN, root.join("bin/apcheck")).unwrap();
    let install = fixture.step("install", &[("APCHECK_ROOT", root.to_str().unwrap())]);
    assert_eq!(install.status.code(), Some(0), "{}", text(&install.stderr));
    assert!(text(&install.stdout).contains("apcheck is cached in"));
    assert_eq!(fixture.read("runner/path"), format!("{}\n", root.join("bin").display()));
    assert!(
        fixture
            .outputs()
            .contains(&format!("apcheck={}", root.join("bin/apcheck").display()))
    );
}

/// The release target `action.sh` downloads for on this machine, as
/// .github/workflows/release.yml names it.
fn release_target() -> &'static str {
    match (std::env::consts::OS, std::env::consts::ARCH) {
        ("linux", "x86_64") => "x86_64-unknown-linux-musl",
        ("linux", "aarch64") => "aarch64-unknown-linux-musl",
        ("macos", "x86_64") => "x86_64-apple-darwin",
        ("macos", "aarch64") => "aarch64-apple-darwin",
        other => panic!("no release target for {other:?}"),
    }
}

/// A release of tag `tag` in `root`, as the release workflow lays it out:
/// the built apcheck in apcheck-TARGET.tar.gz, and its `sha256sum` line.
fn publish_release(fixture: &Fixture, root: &str, tag: &str) -> PathBuf {
    let stage = fixture.path("stage");
    fs::create_dir_all(&stage).unwrap();
    fs::copy(APCHECK_BIN, stage.join("apcheck")).unwrap();
    fs::write(stage.join("README.md"), "apcheck\n").unwrap();
    let dir = fixture.path(root).join(tag);
    fs::create_dir_all(&dir).unwrap();
    let archive = format!("apcheck-{}.tar.gz", release_target());
    // The fastest gzip level: a debug binary is large, and the format is the same.
    let shell = format!(
        "tar -C '{}' -cf - . | gzip -1 > {archive} && sha256sum {archive} > {archive}.sha256",
        stage.display()
    );
    let packed = Command::new("sh")
        .arg("-c")
        .arg(shell)
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(packed.status.success(), "{}", text(&packed.stderr));
    dir.join(archive)
}

/// A static file server on a free loopback port, stopped when dropped; it
/// also stops itself after five minutes, should the test never drop it.
struct Server {
    child: std::process::Child,
    base: String,
}

impl Server {
    fn start(dir: &Path) -> Server {
        use std::io::{BufRead, BufReader};
        let script = "import functools, http.server, os, sys, threading\n\
            threading.Timer(300, os._exit, [1]).start()\n\
            handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=sys.argv[1])\n\
            server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), handler)\n\
            print(server.server_address[1], flush=True)\n\
            server.serve_forever()\n";
        let mut child = Command::new("python3")
            .args(["-c", script])
            .arg(dir)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("python3 serves the release");
        let mut port = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut port)
            .unwrap();
        let base = format!("http://127.0.0.1:{}", port.trim());
        Server { child, base }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `install` with the action used at `tag`, releases from `base`, and a
/// stand-in `cargo` that only logs, so that a build from source shows.
fn install_at(fixture: &Fixture, tag: &str, base: &str, root: &Path) -> Output {
    fixture.write("cargo/cargo", "#!/bin/sh\necho \"$*\" >> \"$FAKE_CARGO/log\"\n");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(fixture.path("cargo/cargo"), fs::Permissions::from_mode(0o755)).unwrap();
    }
    let path = format!(
        "{}:{}",
        fixture.path("cargo").display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let fake = fixture.path("cargo").display().to_string();
    fixture.step(
        "install",
        &[
            ("PATH", &path),
            ("FAKE_CARGO", &fake),
            ("APCHECK_ROOT", root.to_str().unwrap()),
            ("APCHECK_ACTION_REF", tag),
            ("APCHECK_ACTION_REPOSITORY", "acme/apcheck"),
            ("APCHECK_RELEASE_BASE", base),
        ],
    )
}

#[test]
fn at_a_release_tag_the_verified_release_binary_is_used_and_nothing_is_built() {
    let fixture = Fixture::new();
    publish_release(&fixture, "releases", "v0.1.0");
    let server = Server::start(&fixture.path("releases"));
    let root = fixture.path("tools");
    let install = install_at(&fixture, "v0.1.0", &server.base, &root);
    let log = text(&install.stdout);
    assert_eq!(install.status.code(), Some(0), "{log}{}", text(&install.stderr));
    assert!(log.contains("using the v0.1.0 release binary"), "{log}");
    assert_eq!(fixture.read("cargo/log"), "", "nothing is built");
    assert_eq!(
        fs::read(root.join("bin/apcheck")).unwrap(),
        fs::read(APCHECK_BIN).unwrap()
    );
    let version = Command::new(root.join("bin/apcheck"))
        .arg("--version")
        .output()
        .unwrap();
    assert!(version.status.success());
    assert_eq!(fixture.read("runner/path"), format!("{}\n", root.join("bin").display()));
    assert!(
        fixture
            .outputs()
            .contains(&format!("apcheck={}", root.join("bin/apcheck").display()))
    );
}

#[test]
fn a_release_binary_whose_checksum_differs_fails_the_step_and_is_not_built_around() {
    let fixture = Fixture::new();
    let archive = publish_release(&fixture, "releases", "v0.1.0");
    let name = archive.file_name().unwrap().to_str().unwrap();
    fs::write(
        archive.with_file_name(format!("{name}.sha256")),
        format!("{}  {name}\n", "0".repeat(64)),
    )
    .unwrap();
    let server = Server::start(&fixture.path("releases"));
    let root = fixture.path("tools");
    let install = install_at(&fixture, "v0.1.0", &server.base, &root);
    let log = text(&install.stdout);
    assert_eq!(install.status.code(), Some(3), "{log}{}", text(&install.stderr));
    assert!(log.contains("::error::apcheck: the SHA-256 of"), "{log}");
    assert!(log.contains("refusing to use it"), "{log}");
    assert_eq!(fixture.read("cargo/log"), "", "a mismatch is not a reason to build");
    assert!(!root.join("bin/apcheck").exists());
}

#[test]
fn without_a_release_for_the_ref_the_action_builds_from_source() {
    let fixture = Fixture::new();
    fs::create_dir_all(fixture.path("releases")).unwrap();
    let server = Server::start(&fixture.path("releases"));
    let script_dir = repo().display().to_string();
    // A tag with no release (404), a branch and a commit: each is built.
    for (tag, why) in [
        ("v0.0.9", "no release binary at"),
        ("main", "not a release tag"),
        ("0123456789abcdef0123456789abcdef01234567", "not a release tag"),
    ] {
        let _ = fs::remove_file(fixture.path("cargo/log"));
        let root = fixture.path(&format!("tools-{tag}"));
        let install = install_at(&fixture, tag, &server.base, &root);
        let log = text(&install.stdout);
        assert_eq!(install.status.code(), Some(0), "{tag}: {log}{}", text(&install.stderr));
        assert!(log.contains(why), "{tag}: {log}");
        assert_eq!(
            fixture.read("cargo/log"),
            format!("install --locked --path {script_dir} --root {}\n", root.display()),
            "{tag}"
        );
    }
}
