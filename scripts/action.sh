#!/usr/bin/env bash
# The shell logic of action.yml, the composite GitHub Action, kept in one
# script so that CI runs it here (tests/cli/action.rs, on a fixture repository).
#
#   action.sh cache-key   the cache key of an apcheck built from this checkout
#   action.sh install     put apcheck in $APCHECK_ROOT: the release binary of the
#                         action's tag, checksum verified, or else cargo install from this checkout
#   action.sh check       apcheck check $INPUT_PATHS: annotations and a job summary, and SARIF to $INPUT_SARIF_FILE
#   action.sh changes     the `changes` Markdown report of $INPUT_OLD -> $INPUT_NEW, for a PR comment
#   action.sh post        (the trusted workflow only) post that report as a PR comment
#
# Inputs come as INPUT_* variables (action.yml's `env:`), outputs are appended
# to $GITHUB_OUTPUT and reports to $GITHUB_STEP_SUMMARY, as on a runner.
# `check` and `changes` run on untrusted pull-request code and need no token;
# only `post`, run by a `workflow_run` workflow that checks out no pull-request
# code, uses one (see docs/ci.md, "GitHub Action").
set -euo pipefail

action_dir=$(cd "$(dirname "$0")/.." && pwd)
apcheck=${APCHECK_BIN:-apcheck}
# The first line of every comment `post` writes, to find it again and update it.
marker="<!-- apcheck changes report -->"
# GitHub refuses comment bodies over 65,536 characters.
max_comment=60000
# Annotations written to the log by `check`; GitHub displays at most 10
# errors and 10 warnings per step, and more only slow the log down.
max_annotations=${APCHECK_MAX_ANNOTATIONS:-50}

output() { echo "$1=$2" >> "${GITHUB_OUTPUT:-/dev/null}"; }

# Splits a multi-line or space-separated input into the array named $1.
words() {
    local -n into=$1
    read -r -d '' -a into <<< "${2:-}" || true
}

cache_key() {
    # Everything the binary is built from; the action's checkout may not be a git repository.
    local sources
    sources=$(cd "$action_dir" && find Cargo.toml Cargo.lock build.rs src schemas -type f -print0 \
        | sort -z | xargs -0 sha256sum | sha256sum | cut -c1-16)
    # A runner without Rust still gets a key: the release binary needs none.
    local rust
    rust=$(rustc --version 2>/dev/null || echo no-rustc)
    output key "apcheck-${RUNNER_OS:-$(uname -s)}-$(echo "$rust" | tr -c 'a-zA-Z0-9.\n' '-')-$sources"
}

# The release target whose binary runs here (.github/workflows/release.yml
# builds one for each), or nothing for a platform without one.
release_target() {
    case "$(uname -s)-$(uname -m)" in
        Linux-x86_64) echo x86_64-unknown-linux-musl ;;
        Linux-aarch64 | Linux-arm64) echo aarch64-unknown-linux-musl ;;
        Darwin-x86_64) echo x86_64-apple-darwin ;;
        Darwin-arm64) echo aarch64-apple-darwin ;;
        MINGW*-x86_64 | MSYS*-x86_64 | CYGWIN*-x86_64) echo x86_64-pc-windows-msvc ;;
    esac
}

sha256() {
    if command -v sha256sum > /dev/null; then
        sha256sum "$1" | cut -d' ' -f1
    else
        shasum -a 256 "$1" | cut -d' ' -f1
    fi
}

# Downloads the release binary of the tag the action is used at into $1/bin.
# Returns 1, to build from source instead, when there is no release to use:
# the action is used at a branch or a commit, there is no binary for this
# platform, or a download fails. A binary whose checksum is not the release's
# exits 3 at once: that is tampering or corruption, never a reason to go on.
download_release() {
    local root=$1 ref=${APCHECK_ACTION_REF:-} repository=${APCHECK_ACTION_REPOSITORY:-}
    # The runner checks a used action out in _actions/OWNER/NAME/REF; this
    # covers runners that leave github.action_ref empty in composite actions.
    if [ -z "$ref" ] && [[ "$action_dir" == */_actions/*/*/* ]]; then
        ref=${action_dir##*/}
        repository=${action_dir%/*}
        repository=${repository#*/_actions/}
    fi
    if [[ ! "$ref" =~ ^v[0-9] ]]; then
        echo "apcheck: the action is used at '${ref:-an unknown ref}', not a release tag: building from source"
        return 1
    fi
    local target
    target=$(release_target)
    if [ -z "$target" ]; then
        echo "apcheck: no release binary for $(uname -s) $(uname -m): building from source"
        return 1
    fi
    local base=${APCHECK_RELEASE_BASE:-${GITHUB_SERVER_URL:-https://github.com}/$repository/releases/download}
    local archive=apcheck-$target.tar.gz exe=apcheck
    if [[ "$target" == *windows* ]]; then
        archive=apcheck-$target.zip exe=apcheck.exe
    fi
    local work
    work=$(mktemp -d)
    if ! curl -fsSL --retry 2 --connect-timeout 10 --max-time 120 -o "$work/$archive" "$base/$ref/$archive" ||
        ! curl -fsSL --retry 2 --connect-timeout 10 --max-time 30 -o "$work/$archive.sha256" "$base/$ref/$archive.sha256"; then
        echo "apcheck: no release binary at $base/$ref/$archive: building from source"
        rm -rf "$work"
        return 1
    fi
    local expected actual
    expected=$(cut -d' ' -f1 "$work/$archive.sha256" | head -n 1)
    actual=$(sha256 "$work/$archive")
    if [ "$expected" != "$actual" ]; then
        echo "::error::apcheck: the SHA-256 of $base/$ref/$archive is $actual, but its release says ${expected:-nothing}; refusing to use it"
        rm -rf "$work"
        exit 3
    fi
    # Called where `set -e` does not apply: each step's failure is checked.
    local unpack=(tar -xzf "$work/$archive" -C "$work/unpacked" "./$exe")
    [[ "$archive" != *.zip ]] || unpack=(unzip -q "$work/$archive" "$exe" -d "$work/unpacked")
    if ! { mkdir -p "$work/unpacked" "$root/bin" && "${unpack[@]}" && mv "$work/unpacked/$exe" "$root/bin/$exe"; }; then
        echo "apcheck: could not unpack $archive: building from source"
        rm -rf "$work"
        return 1
    fi
    rm -rf "$work"
    echo "apcheck: using the $ref release binary for $target (SHA-256 $actual)"
}

install() {
    local root=${APCHECK_ROOT:?APCHECK_ROOT names the install root}
    if [ -x "$root/bin/apcheck" ]; then
        echo "apcheck is cached in $root"
    elif ! download_release "$root"; then
        cargo install --locked --path "$action_dir" --root "$root"
    fi
    echo "$root/bin" >> "${GITHUB_PATH:-/dev/null}"
    output apcheck "$root/bin/apcheck"
}

# Splits the `args` input as a shell would (quotes and backslashes, so
# `--ignore "AP3 AP4"` is one value), without running anything it holds:
# xargs parses the quoting and only ever prints. Unbalanced quotes fail.
shell_words() {
    local -n into=$1
    into=()
    [ -n "${2//[[:space:]]/}" ] || return 0
    local parsed
    parsed=$(mktemp)
    if ! printf '%s\n' "$2" | xargs printf '%s\0' > "$parsed"; then
        rm -f "$parsed"
        echo "::error::args: unbalanced quotes in: $2"
        return 2
    fi
    mapfile -d '' -t into < "$parsed"
    rm -f "$parsed"
}

# The annotations of a `--format github` file, on the log: every summary line,
# then the workflow commands most severe first, at most $max_annotations of
# them (GitHub shows only the first few per step anyway); the job summary
# holds every finding.
annotate() {
    local file=$1 shown
    grep -v '^::' "$file" || true
    shown=$( { grep '^::error ' "$file"; grep '^::warning ' "$file"; grep '^::notice ' "$file"; } || true)
    [ -n "$shown" ] || return 0
    local total
    total=$(printf '%s\n' "$shown" | wc -l)
    printf '%s\n' "$shown" | head -n "$max_annotations"
    if [ "$total" -gt "$max_annotations" ]; then
        echo "apcheck: $((total - max_annotations)) more findings are not annotated; the job summary lists all $total"
    fi
}

check() {
    local paths args status=0 work
    words paths "${INPUT_PATHS:-.}"
    shell_words args "${INPUT_ARGS:-}" || return 2
    work=$(mktemp -d)
    # One check writes every output: annotations for the log, Markdown for the
    # job summary, and SARIF when asked. Every mode shows its findings, so a
    # private repository without code scanning still sees them.
    local outputs=(--format "github:$work/annotations" --format "markdown:$work/summary.md")
    case "${INPUT_FORMAT:-sarif}" in
        sarif)
            local file=${INPUT_SARIF_FILE:-apcheck.sarif}
            mkdir -p "$(dirname "$file")"
            outputs+=(--format "sarif:$file")
            ;;
        github) ;;
        *)
            echo "::error::format must be sarif or github, not ${INPUT_FORMAT}"
            rm -rf "$work"
            return 2
            ;;
    esac
    "$apcheck" check "${outputs[@]}" "${args[@]}" -- "${paths[@]}" || status=$?
    [ ! -f "$work/annotations" ] || annotate "$work/annotations"
    if [ -f "$work/summary.md" ]; then
        cat "$work/summary.md" >> "${GITHUB_STEP_SUMMARY:-/dev/null}"
    fi
    if [ "${INPUT_FORMAT:-sarif}" = sarif ] && [ -f "${file}" ]; then
        output sarif-file "$file"
        echo "apcheck: SARIF written to $file (exit code $status)"
    fi
    rm -rf "$work"
    output exit-code "$status"
    # 2 is a usage or I/O failure: never hidden. Findings fail the step only if asked.
    if [ "$status" -eq 2 ] || { [ "$status" -ne 0 ] && [ "${INPUT_FAIL_ON_FINDINGS:-true}" = true ]; }; then
        return "$status"
    fi
}

changes() {
    local dir=${INPUT_REPORT_DIR:-apcheck-changes} status=0
    : "${INPUT_OLD:?the old snapshot}" "${INPUT_NEW:?the new snapshot}"
    mkdir -p "$dir"
    "$apcheck" changes --format markdown -- "$INPUT_OLD" "$INPUT_NEW" > "$dir/report.md" || status=$?
    if [ "$status" -eq 2 ]; then
        return 2
    fi
    # The trusted workflow reads the number back, so it is written only when it is one.
    if [[ "${INPUT_PR_NUMBER:-}" =~ ^[0-9]+$ ]]; then
        echo "$INPUT_PR_NUMBER" > "$dir/pr-number"
    fi
    cat "$dir/report.md" >> "${GITHUB_STEP_SUMMARY:-/dev/null}"
    output report-dir "$dir"
    output changes-exit-code "$status"
}

post() {
    # Everything in the report directory came from a workflow that ran
    # pull-request code: the number must be a number, and the body is only text.
    local dir=${INPUT_REPORT_DIR:-apcheck-changes} pr body existing
    : "${GITHUB_REPOSITORY:?owner/name}" "${GH_TOKEN:?a token with pull-requests: write}"
    pr=$(head -c 20 "$dir/pr-number" 2>/dev/null | tr -d '[:space:]') || true
    if [[ ! "$pr" =~ ^[0-9]+$ ]]; then
        echo "apcheck: $dir/pr-number holds no pull request number; nothing to post"
        return 0
    fi
    body=$(mktemp)
    { echo "$marker"; head -c "$max_comment" "$dir/report.md"; } > "$body"
    existing=$(gh api --paginate "repos/$GITHUB_REPOSITORY/issues/$pr/comments" \
        --jq ".[] | select(.body | startswith(\"$marker\")) | .id" | head -n 1)
    if [ -n "$existing" ]; then
        gh api --method PATCH "repos/$GITHUB_REPOSITORY/issues/comments/$existing" -F "body=@$body" > /dev/null
        echo "apcheck: updated the report on pull request #$pr"
    else
        gh api --method POST "repos/$GITHUB_REPOSITORY/issues/$pr/comments" -F "body=@$body" > /dev/null
        echo "apcheck: posted the report on pull request #$pr"
    fi
    rm -f "$body"
}

case "${1:-}" in
    cache-key) cache_key ;;
    install) install ;;
    check) check ;;
    changes) changes ;;
    post) post ;;
    *)
        echo "usage: action.sh cache-key|install|check|changes|post" >&2
        exit 2
        ;;
esac
