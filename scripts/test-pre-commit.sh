#!/usr/bin/env bash
# The pre-commit hook as users install it: the real pre-commit from PyPI
# (scripts/setup.sh installs it into .tools/venv) installs the mirror in
# pre-commit/ (`language: python`), whose one dependency is the apcheck
# wheel. PyPI is played by pypiserver on loopback, serving the wheel maturin
# builds from this commit and the setuptools wheel pip builds the mirror
# with, and nothing else: no fallback to pypi.org. In a temporary git
# repository whose .pre-commit-config.yaml names the mirror, `pre-commit run`
# fails while it holds a plugin a client rejects, passes once the plugin is
# fixed, and does not run for other files. The hook is the one .pre-commit-hooks.yaml builds from
# source, but for its `language`; that build itself is not run here (a
# release build of its own, ten minutes of CI).
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
tools="$repo/.tools/venv/bin"
for tool in pre-commit maturin pypi-server; do
    if [ ! -x "$tools/$tool" ]; then
        echo "$tool is not installed in .tools/venv: run scripts/setup.sh" >&2
        exit 1
    fi
done
setuptools=("$repo"/.tools/wheels/setuptools-*-py3-none-any.whl)
if [ ! -f "${setuptools[0]}" ]; then
    echo "the setuptools wheel is not in .tools/wheels: run scripts/setup.sh" >&2
    exit 1
fi

"$tools/python" - <<'PY'
import sys, yaml
def hooks(path):
    with open(path) as f:
        return [{k: v for k, v in hook.items() if k != "language"} for hook in yaml.safe_load(f)]
source, mirror = hooks(".pre-commit-hooks.yaml"), hooks("pre-commit/.pre-commit-hooks.yaml")
if source != mirror:
    sys.exit(f"FAIL: the hooks differ in more than their language:\n{source}\n{mirror}")
print("ok: the mirror's hook is the source-built one but for its language")
PY

work=$(mktemp -d)
server=""
cleanup() {
    if [ -n "$server" ]; then
        kill "$server" 2>/dev/null || true
        wait "$server" 2>/dev/null || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT

# The wheel scripts/test-wheel.sh built and tested: cargo finds it fresh, and
# maturin only packs it again (the same profile and target directory).
. "$repo/scripts/quick-release.sh"
mkdir "$work/index"
"$tools/maturin" build --release --locked --quiet --out "$work/index"
cp "${setuptools[0]}" "$work/index/"

port=$("$tools/python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$tools/pypi-server" run --host 127.0.0.1 --port "$port" --disable-fallback "$work/index" \
    > "$work/index.log" 2>&1 &
server=$!
if ! "$tools/python" - "$port" <<'PY'; then
import sys, time, urllib.request
url = f"http://127.0.0.1:{sys.argv[1]}/health"
deadline = time.monotonic() + 30
while True:
    try:
        urllib.request.urlopen(url, timeout=2).close()
        break
    except OSError:
        if time.monotonic() > deadline:
            sys.exit(f"FAIL: the index did not answer {url} within 30 s")
        time.sleep(0.2)
PY
    cat "$work/index.log"
    exit 1
fi
if ! kill -0 "$server" 2>/dev/null; then
    cat "$work/index.log"
    echo "FAIL: pypiserver exited (port $port taken?)" >&2
    exit 1
fi
echo "ok: the index serves $(cd "$work/index" && echo *.whl) on 127.0.0.1:$port"

# pip (in pre-commit's hook environment) sees that index only, with bounded
# waits; pre-commit's store starts empty, so the first run's install is timed whole.
export PIP_INDEX_URL="http://127.0.0.1:$port/simple/" PIP_CONFIG_FILE=/dev/null \
    PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_CACHE_DIR=1 PIP_TIMEOUT=10 PIP_RETRIES=0 \
    VIRTUALENV_NO_PERIODIC_UPDATE=1 PRE_COMMIT_HOME="$work/pre-commit-home"
unset PIP_EXTRA_INDEX_URL PIP_FIND_LINKS

# The mirror is a repository of its own (pre-commit/README.md).
cp -r pre-commit "$work/mirror"
git_quiet() { git -c user.email=ci@example.invalid -c user.name="apcheck CI" "$@"; }
(cd "$work/mirror" && git init -q && git add -A && git_quiet commit -q -m mirror)
rev=$(git -C "$work/mirror" rev-parse HEAD)

mkdir "$work/project"
cd "$work/project"
git init -q
schema="https://agent-plugins.org/schemas/1.0.0/plugin.schema.json"
mkdir -p skills/pdf-tools
# A name a client rejects (§5.5: upper case and `_`), so the plugin loads nothing.
printf '{\n  "$schema": "%s",\n  "name": "Invoice_Ops"\n}\n' "$schema" > plugin.json
printf -- '---\nname: pdf-tools\ndescription: Extracts text from PDF files. Use when the user works with PDFs.\n---\nBody.\n' \
    > skills/pdf-tools/SKILL.md
printf 'repos:\n  - repo: %s\n    rev: %s\n    hooks:\n      - id: apcheck\n' "$work/mirror" "$rev" \
    > .pre-commit-config.yaml
git add -A
git_quiet commit -q -m "a rejected plugin"

run() { timeout 300 "$tools/pre-commit" run "$@"; }

started=$(date +%s)
if run --all-files > bad.log 2>&1; then
    cat bad.log
    echo "FAIL: the hook passed a rejected plugin" >&2
    exit 1
fi
echo "pre-commit run, including the hook's install from the index, took $(( $(date +%s) - started )) s"
if ! grep -q "AP209" bad.log; then
    cat bad.log
    echo "FAIL: the hook failed, but not with the finding (AP209)" >&2
    exit 1
fi
if [ -z "$(find "$PRE_COMMIT_HOME" -path '*/bin/apcheck' -print -quit)" ]; then
    echo "FAIL: the hook's environment has no bin/apcheck from the wheel" >&2
    exit 1
fi
echo "ok: the rejected plugin fails the hook with AP209"

printf '{\n  "$schema": "%s",\n  "name": "invoice-ops"\n}\n' "$schema" > plugin.json
git add -A
git_quiet commit -q -m "the fixed plugin"
if ! run --all-files > good.log 2>&1; then
    cat good.log
    echo "FAIL: the hook fails the fixed plugin" >&2
    exit 1
fi
echo "ok: the fixed plugin passes the hook"

# A change to no plugin file does not run the hook at all.
echo "notes" > README.md
git add README.md
run --files README.md > skipped.log 2>&1
if ! grep -q "no files to check" skipped.log; then
    cat skipped.log
    echo "FAIL: the hook ran for a file that is not a plugin file" >&2
    exit 1
fi
echo "ok: other files do not run the hook"
