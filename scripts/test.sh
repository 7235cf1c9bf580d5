#!/usr/bin/env bash
# Every test apcheck has, in the order a failure is cheapest to see:
# formatting and lints (the GitHub workflows' too), native tests (unit, rules, corpus, CLI, the GitHub
# Action's script), the PyPI wheel installed as a user installs it, the
# pre-commit hook through the real pre-commit from that wheel, the crates.io
# package (publish dry run, installed from its .crate), the wasm
# build with its size, the wasm exports in headless Chromium, the page end to
# end in headless Chromium, the npm package (build, parity with the CLI, types),
# the VS Code extension (build, unit tests, its platform package), a fuzz
# smoke run, and the benchmarks' figures, which end up in the book's figures
# table (docs/figures.md). The book (docs/, mdBook) is built and its links
# checked right after the lints.
# Needs the tools .ci/run installs. `FAST=1` skips fuzzing and benchmarks.
set -euo pipefail
cd "$(dirname "$0")/.."
export APCHECK_SHARED="${APCHECK_SHARED:-$(cd .. && pwd)/shared}"
# Every temporary file of the run goes in one folder, removed at exit: the
# tests' own, and the profile folders Chromium leaves behind when
# chromedriver is stopped (about 90 MB per browser).
run_tmp="$(mktemp -d "${TMPDIR:-/tmp}/apcheck-test.XXXXXX")"
trap 'rm -rf "$run_tmp"' EXIT
export TMPDIR="$run_tmp"

passed=0
# Each step prints its wall time, so a run's log says where CI's minutes go.
step() {
    echo
    echo "== $1"
    shift
    local started=$SECONDS
    "$@"
    echo "-- $((SECONDS - started)) s"
    passed=$((passed + 1))
}

step "format" cargo fmt --all -- --check
step "clippy" cargo clippy --workspace --all-targets --locked -- -D warnings
# The wasm builds compile code the native build leaves out (and leave out
# native-only code): checked on their own, so neither carries dead code.
step "clippy (wasm: the page's build and the npm package's)" bash -c '
    cargo clippy --target wasm32-unknown-unknown --no-default-features --lib --locked -- -D warnings &&
    cargo clippy --target wasm32-unknown-unknown --no-default-features --features node --lib --locked -- -D warnings'
# With no arguments actionlint checks every .yml and .yaml file in the
# repository's .github/workflows; it also runs shellcheck on `run:` scripts
# when that is on PATH.
step "GitHub workflows (actionlint)" .tools/venv/bin/actionlint -no-color
# The book: its figures page must be the rendering of its record, and every
# relative link and #anchor of the built pages, and the README's links into
# it, must resolve. Built afresh, so a page that is no longer in the summary
# cannot hide a dead link.
step "the book (docs/): figures rendered from their record, mdbook build, every internal link and anchor" bash -c '
    node --test tests/book/ &&
    node scripts/figures.mjs --check &&
    rm -rf target/book && mdbook build docs && node scripts/check-links.mjs'
step "native tests" cargo test --workspace --locked
step "PyPI wheel: maturin release build, offline install into a fresh venv, the CLI runs" \
    bash scripts/test-wheel.sh
step "pre-commit hook from the wheel through a loopback index (pre-commit run: a rejected plugin fails, the fixed one passes)" \
    bash scripts/test-pre-commit.sh
step "crates.io package: publish dry run, size budget, cargo install of the .crate, the installed binary checks the fixtures" \
    bash scripts/test-crate.sh
step "web build (wasm + page, sizes)" npm run build
step "wasm exports in headless Chromium" env \
    CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
    CHROMEDRIVER=/usr/bin/chromedriver \
    cargo test --locked --target wasm32-unknown-unknown --no-default-features --test 'wasm_*'
step "the npm package's wasm exports (fixAll, applyEdits) in headless Chromium" env \
    CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
    CHROMEDRIVER=/usr/bin/chromedriver \
    cargo test --locked --target wasm32-unknown-unknown --no-default-features --features node --test wasm_fix --test wasm_args
step "page end to end in headless Chromium" npm run test:e2e
step "npm package build (wasm for Node and bundlers, size budget)" npm run build:npm
step "npm package: pack, offline install, output parity with the CLI, typed API; with its platform package, the native commands" npm run test:npm
# Packaging runs the extension's type-check and bundle (vsce's prepublish) and
# bundles target/debug/apcheck, which the native tests built.
step "VS Code extension: unit tests, then this platform's .vsix (type-check, bundle, contents, the bundled binary runs)" \
    npm test --prefix editors/vscode
if [ -z "${FAST:-}" ]; then
    step "fuzz smoke" env FUZZ_SECONDS="${FUZZ_SECONDS:-20}" bash scripts/fuzz-smoke.sh
    # Each runner appends its rows to target/figures/; only this run's are merged.
    rm -rf target/figures
    step "benchmarks (figures, not assertions)" cargo bench --locked
    step "page benchmarks in headless Chromium (ratios to ajv, jsondiffpatch, native, the CLI; the page's start)" node scripts/bench-page.mjs
    step "figures: this run's rows into docs/figures.json, rendered as docs/figures.md" node scripts/figures.mjs
fi

echo
echo "steps: $passed passed, 0 failed, in $SECONDS s"
