#!/usr/bin/env bash
# The pre-commit hook (.pre-commit-hooks.yaml) with the real pre-commit from
# PyPI, which scripts/setup.sh installs into .tools/venv: `pre-commit
# try-repo` of this repository in a temporary git repository fails while it
# holds a plugin a client rejects, and passes once the plugin is fixed.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
pre_commit="$repo/.tools/venv/bin/pre-commit"
if [ ! -x "$pre_commit" ]; then
    echo "pre-commit is not installed in .tools/venv: run scripts/setup.sh" >&2
    exit 1
fi

# `language: rust` makes pre-commit `cargo install` this repository, a release
# build. Users get the shipping profile (fat LTO); the test only needs the hook
# to run, so the profile is made quick, the build goes to a target directory
# inside the clone that later runs reuse, and pre-commit's own cache lives
# there too. cargo install ignores Cargo.lock: offline, it resolves to the
# crates `cargo test --locked` already fetched.
export CARGO_TARGET_DIR="$repo/target/pre-commit"
export PRE_COMMIT_HOME="$repo/target/pre-commit/home"
export CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_CODEGEN_UNITS=256 \
    CARGO_PROFILE_RELEASE_OPT_LEVEL=0 CARGO_PROFILE_RELEASE_DEBUG=false CARGO_NET_OFFLINE=true

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
git init -q
git config user.email ci@example.invalid
git config user.name "apcheck CI"

schema="https://agent-plugins.org/schemas/1.0.0/plugin.schema.json"
mkdir -p skills/pdf-tools
# A name a client rejects (§5.5: upper case and `_`), so the plugin loads nothing.
printf '{\n  "$schema": "%s",\n  "name": "Invoice_Ops"\n}\n' "$schema" > plugin.json
printf -- '---\nname: pdf-tools\ndescription: Extracts text from PDF files. Use when the user works with PDFs.\n---\nBody.\n' \
    > skills/pdf-tools/SKILL.md
git add -A
git commit -q -m "a rejected plugin"

started=$(date +%s)
if "$pre_commit" try-repo "$repo" apcheck --all-files > bad.log 2>&1; then
    cat bad.log
    echo "FAIL: the hook passed a rejected plugin" >&2
    exit 1
fi
echo "try-repo (including cargo install) took $(( $(date +%s) - started )) s"
if ! grep -q "AP209" bad.log; then
    cat bad.log
    echo "FAIL: the hook failed, but not with the finding (AP209)" >&2
    exit 1
fi
echo "ok: the rejected plugin fails the hook with AP209"

printf '{\n  "$schema": "%s",\n  "name": "invoice-ops"\n}\n' "$schema" > plugin.json
git add -A
git commit -q -m "the fixed plugin"
if ! "$pre_commit" try-repo "$repo" apcheck --all-files > good.log 2>&1; then
    cat good.log
    echo "FAIL: the hook fails the fixed plugin" >&2
    exit 1
fi
echo "ok: the fixed plugin passes the hook"

# A change to no plugin file does not run the hook at all.
echo "notes" > README.md
git add README.md
"$pre_commit" try-repo "$repo" apcheck --files README.md > skipped.log 2>&1
if ! grep -q "no files to check" skipped.log; then
    cat skipped.log
    echo "FAIL: the hook ran for a file that is not a plugin file" >&2
    exit 1
fi
echo "ok: other files do not run the hook"
