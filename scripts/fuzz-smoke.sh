#!/usr/bin/env bash
# Runs each fuzz target briefly on nightly (cargo-fuzz needs it) and fails on
# the first crash, hang or leak: a smoke test, not a campaign.
#
#   scripts/fuzz-smoke.sh            # every target, 30 s each
#   FUZZ_SECONDS=300 scripts/fuzz-smoke.sh check_package
set -euo pipefail

cd "$(dirname "$0")/../fuzz"
seconds="${FUZZ_SECONDS:-30}"

if ! cargo fuzz --version >/dev/null 2>&1; then
    echo "installing cargo-fuzz" >&2
    cargo install cargo-fuzz --locked
fi
if ! rustup run nightly rustc --version >/dev/null 2>&1; then
    echo "fuzz-smoke: the nightly toolchain is required (rustup toolchain install nightly)" >&2
    exit 2
fi

targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    mapfile -t targets < <(cargo +nightly fuzz list)
fi

# Seed each corpus with real inputs so the fuzzer starts from valid packages.
shared="${APCHECK_SHARED:-../../shared}"
seed_dir() {
    local target="$1" dir="corpus/$1"
    mkdir -p "$dir"
    [ -d "$shared/corpus/real" ] || return 0
    case "$target" in
        parse_document)
            for file in "$shared"/corpus/real/*/plugin.json "$shared"/corpus/real/*/mcp.json; do
                if [ -f "$file" ]; then cp "$file" "$dir/$(echo "$file" | md5sum | cut -c1-16)"; fi
            done
            ;;
        check_package)
            # One flags byte, then plugin.json 0xFF mcp.json 0xFF SKILL.md, as the target splits it.
            for root in "$shared"/corpus/real/*/; do
                [ -f "$root/plugin.json" ] || continue
                skill=""
                for candidate in "$root"skills/*/SKILL.md; do
                    if [ -f "$candidate" ]; then skill="$candidate"; break; fi
                done
                {
                    printf '\000'
                    cat "$root/plugin.json"
                    printf '\377'
                    if [ -f "$root/mcp.json" ]; then cat "$root/mcp.json"; fi
                    printf '\377'
                    if [ -n "$skill" ]; then cat "$skill"; fi
                } > "$dir/$(basename "$root")"
            done
            ;;
        lsp_framing)
            # A session as an editor starts it: initialize, then a manifest opened.
            frame() { printf 'Content-Length: %d\r\n\r\n%s' "${#1}" "$1"; }
            {
                frame '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}'
                frame '{"jsonrpc":"2.0","method":"initialized","params":{}}'
                frame '{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///p/plugin.json","languageId":"json","version":1,"text":"{}"}}}'
                frame '{"jsonrpc":"2.0","id":2,"method":"textDocument/hover","params":{"textDocument":{"uri":"file:///p/plugin.json"},"position":{"line":0,"character":0}}}'
            } > "$dir/session"
            ;;
    esac
}

status=0
for target in "${targets[@]}"; do
    seed_dir "$target"
    echo "fuzz-smoke: $target for ${seconds}s" >&2
    if ! cargo +nightly fuzz run "$target" -- -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048; then
        echo "fuzz-smoke: $target FAILED; the crashing input is under fuzz/artifacts/$target/" >&2
        status=1
    fi
done
exit "$status"
