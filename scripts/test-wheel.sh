#!/usr/bin/env bash
# The PyPI package (pyproject.toml) as a user gets it: the pinned maturin,
# which scripts/setup.sh installs into .tools/venv, builds the wheel; pip
# installs it with no index into a fresh virtual environment; and the
# `apcheck` that puts on the environment's PATH is the CLI: Cargo.toml's
# version, a fixture plugin passes, one a client rejects fails with AP209.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
maturin="$repo/.tools/venv/bin/maturin"
if [ ! -x "$maturin" ]; then
    echo "maturin is not installed in .tools/venv: run scripts/setup.sh" >&2
    exit 1
fi
version=$(sed -n 's/^version = "\([^"]*\)"/\1/p' Cargo.toml | head -n 1)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Default features, in the packaging tests' quick release profile; a wheel
# for upload is built with plain `maturin build --release`, the shipping
# profile (docs/install.md).
. "$repo/scripts/quick-release.sh"
started=$(date +%s)
"$maturin" build --release --locked --out "$work/wheels"
echo "maturin build took $(( $(date +%s) - started )) s"
wheels=("$work"/wheels/*.whl)
if [ ${#wheels[@]} -ne 1 ]; then
    echo "FAIL: expected one wheel, got: ${wheels[*]}" >&2
    exit 1
fi
wheel=${wheels[0]}
# PyPI refuses a bare `linux_*` platform tag: a Linux wheel must name the
# manylinux (glibc) baseline it runs on.
case "$(basename "$wheel")" in
    "apcheck-$version-py3-none-linux_"*)
        echo "FAIL: $(basename "$wheel") has no manylinux tag; PyPI would refuse it" >&2
        exit 1 ;;
    "apcheck-$version-py3-none-"*) ;;
    *)
        echo "FAIL: $(basename "$wheel") is not apcheck $version for any Python 3" >&2
        exit 1 ;;
esac
echo "ok: $(basename "$wheel") ($(( $(stat -c %s "$wheel") / 1024 )) KiB)"

# The binary and the licence texts the metadata declares, and no Python
# extension (the crate's cdylib is the wasm build's).
"$repo/.tools/venv/bin/python" - "$wheel" "$version" <<'PY'
import sys, zipfile
wheel, version = sys.argv[1], sys.argv[2]
names = set(zipfile.ZipFile(wheel).namelist())
expected = {
    f"apcheck-{version}.data/scripts/apcheck",
    f"apcheck-{version}.dist-info/licenses/LICENSE-MIT",
    f"apcheck-{version}.dist-info/licenses/LICENSE-APACHE",
}
missing = expected - names
extensions = sorted(n for n in names if n.endswith((".so", ".pyd", ".dylib")))
if missing or extensions:
    sys.exit(f"FAIL: wheel lacks {sorted(missing)}, or carries extensions {extensions}:\n" + "\n".join(sorted(names)))
print("ok: the wheel carries the binary and both licence texts, and no extension module")
PY

# What PyPI checks on upload: the metadata renders (the README as the long
# description), for the wheel and for the sdist built beside it.
"$maturin" sdist --out "$work/sdist" > /dev/null
"$repo/.tools/venv/bin/twine" check --strict "$wheel" "$work"/sdist/*.tar.gz

python3 -m venv "$work/user"
"$work/user/bin/pip" install --quiet --disable-pip-version-check --no-index "$wheel"
export PATH="$work/user/bin:$PATH"
if [ "$(command -v apcheck)" != "$work/user/bin/apcheck" ]; then
    echo "FAIL: apcheck on PATH is $(command -v apcheck), not the environment's" >&2
    exit 1
fi

got=$(apcheck --version)
if [ "$got" != "apcheck $version" ]; then
    echo "FAIL: apcheck --version says '$got', not 'apcheck $version'" >&2
    exit 1
fi
echo "ok: apcheck --version is apcheck $version"

if ! apcheck check tests/fixtures/invoice-ops > "$work/good.log" 2>&1; then
    cat "$work/good.log"
    echo "FAIL: the installed apcheck fails a plugin a client loads" >&2
    exit 1
fi
echo "ok: a plugin a client loads passes"

status=0
apcheck check tests/fixtures/invoice-ops-bad-name > "$work/bad.log" 2>&1 || status=$?
if [ "$status" -ne 1 ] || ! grep -q "AP209" "$work/bad.log"; then
    cat "$work/bad.log"
    echo "FAIL: a rejected plugin exited $status, expected 1 with AP209" >&2
    exit 1
fi
echo "ok: a rejected plugin exits 1 with AP209"
