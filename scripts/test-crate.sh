#!/usr/bin/env bash
# The crates.io channel as a user gets it: `cargo publish --workspace
# --dry-run` packages apcheck, apcheck-json and apcheck-hot; the package stays
# under a size budget; `cargo install` builds the packaged apcheck from its
# unpacked .crate alone (so a file the build needs and `include` leaves out
# fails here) into a fresh root, and that binary checks the reference fixtures.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# --no-verify: the install below is the verification build, the packaged
# apcheck against the packaged apcheck-json and apcheck-hot. Cargo's own
# would build the same in target/debug, where the unpacked apcheck's library,
# a cdylib as well, takes the unhashed file names of the repository's own
# build (libapcheck.rlib) and its binary would replace target/debug/apcheck.
# --allow-dirty: the test checks the working tree, uncommitted edits included;
# a real publish runs from a clean checkout without it. Packaging warns once
# per test and bench it leaves out, by design: the log is shown on failure.
if ! cargo publish --workspace --dry-run --no-verify --locked --allow-dirty > "$work/publish.log" 2>&1; then
    cat "$work/publish.log"
    echo "FAIL: cargo publish --workspace --dry-run" >&2
    exit 1
fi
grep -E '^ *Packaged ' "$work/publish.log"
echo "ok: cargo publish --workspace --dry-run"

# The .crate files as `cargo package` leaves them in target/package, unpacked
# outside the repository (inside it, Cargo would take them for members of
# this workspace) as the registry would serve them.
cargo package --workspace --no-verify --locked --allow-dirty > "$work/package.log" 2>&1 ||
    { cat "$work/package.log"; exit 1; }
for name in apcheck apcheck-json apcheck-hot; do
    tar -xzf "target/package/$name-$version.crate" -C "$work"
done

# crates.io refuses uploads over 10 MB; the budget is far tighter, so that a
# fixture or generated file landing in an included folder shows here. Today
# the crate is about 0.6 MB, most of it the two full MCP schemas build.rs reads.
crate="target/package/apcheck-$version.crate"
size=$(wc -c < "$crate")
if [ "$size" -gt 1048576 ]; then
    tar -tzvf "$crate" | sort -k 3 -n | tail -n 20
    echo "FAIL: $crate is $size bytes, over the 1 MiB budget" >&2
    exit 1
fi
echo "ok: $crate is $size bytes"

# The install from the unpacked package, with its own Cargo.lock (--locked),
# as `cargo install apcheck --locked` will build it. Only apcheck-json and
# apcheck-hot, not on crates.io yet, come from their unpacked packages through
# patches instead of the registry: the same files their uploads carry.
. "$repo/scripts/quick-release.sh"
started=$(date +%s)
if ! cargo install --path "$work/apcheck-$version" --locked --offline --root "$work/root" \
    --config "patch.crates-io.apcheck-json.path=\"$work/apcheck-json-$version\"" \
    --config "patch.crates-io.apcheck-hot.path=\"$work/apcheck-hot-$version\"" \
    > "$work/install.log" 2>&1; then
    cat "$work/install.log"
    echo "FAIL: cargo install of the packaged crate" >&2
    exit 1
fi
compiled=$(grep -c '^ *Compiling ' "$work/install.log" || true)
echo "ok: cargo install of the packaged crate ($(($(date +%s) - started)) s, $compiled crates compiled)"

apcheck="$work/root/bin/apcheck"
if [ "$("$apcheck" --version)" != "apcheck $version" ]; then
    "$apcheck" --version
    echo "FAIL: the installed binary is not apcheck $version" >&2
    exit 1
fi
echo "ok: $("$apcheck" --version)"

fixtures="$repo/tests/fixtures"
if ! "$apcheck" check "$fixtures/invoice-ops" > "$work/good.log"; then
    cat "$work/good.log"
    echo "FAIL: the installed binary fails the reference plugin" >&2
    exit 1
fi
if "$apcheck" check "$fixtures/invoice-ops-bad-name" > "$work/bad.log"; then
    cat "$work/bad.log"
    echo "FAIL: the installed binary passed a rejected plugin" >&2
    exit 1
fi
if ! grep -q "AP209" "$work/bad.log"; then
    cat "$work/bad.log"
    echo "FAIL: the installed binary failed the plugin, but not with the finding (AP209)" >&2
    exit 1
fi
echo "ok: check passes the reference plugin and fails the rejected one with AP209"
# The snapshot validates the tools against the MCP schema extracts build.rs
# writes, and must be the committed one byte for byte.
(cd "$fixtures/invoice-ops" && "$apcheck" snapshot . --tools invoice-tools=tools-list.json) > "$work/snapshot.json"
if ! cmp -s "$work/snapshot.json" "$fixtures/invoice-ops/snapshot.json"; then
    diff "$fixtures/invoice-ops/snapshot.json" "$work/snapshot.json" || true
    echo "FAIL: the installed binary's snapshot differs from tests/fixtures/invoice-ops/snapshot.json" >&2
    exit 1
fi
echo "ok: the installed binary's snapshot of the reference plugin is the committed one"
