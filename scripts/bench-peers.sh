#!/usr/bin/env bash
# Runs apcheck and its peers on the same generated inputs in one run, and
# prints every CLI row of the benchmark against peer tools: medians, ratios
# (ours / peer), and peak memory and CPU seconds (`/usr/bin/time -v`; on a
# loaded machine CPU seconds are the fairer time).
#
#   scripts/bench-peers.sh            # from the repository root
#   RUNS=3 SLOW_RUNS=1 scripts/bench-peers.sh
#
# Peers: jq (apt), ajv and jsondiffpatch (npm), Python jsonschema, skills-ref,
# agnix and skillsaw (PyPI). They are installed inside the clone, under
# target/bench-peers/ (node_modules, a venv); a peer that cannot be installed
# is skipped with the reason. JSON inputs come from `cargo bench --bench json`
# (target/bench-data/); the 50,000-skill plugin is generated here, in a
# temporary folder outside the clone's ignored paths.
#
# Our whole-process rows time the release binary, built once. The JSON
# benchmark (the inputs and our in-process figures) is built without LTO
# (CARGO_PROFILE_BENCH_LTO=off, parallel codegen): the bench profile rebuilds
# the whole dependency graph, as dev-dependencies change features, and with
# LTO on 2 cores that took over 20 minutes. BENCH_LTO=1 keeps `cargo bench`'s
# own profile (what CI's `cargo bench` step measures).
#
# These are benchmarks, not tests: the script fails only when a result is
# wrong (our patch does not turn A into B, validators disagree on which
# documents are valid, a check of the conformant plugin finds errors), never
# on a time. Peers slower than a second per run (skillsaw, skills-ref and agnix
# on 50,000 skills) run SLOW_RUNS times (default 1).
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT=$(pwd)
TARGET=${CARGO_TARGET_DIR:-$ROOT/target}
DATA=$ROOT/target/bench-data
PEERS=$ROOT/target/bench-peers
RUNS=${RUNS:-5}
SLOW_RUNS=${SLOW_RUNS:-1}
# Each skill is a folder and its SKILL.md, and the reader stops at 100,000
# entries by default (an incomplete check is an error), so "50,000 skills" is 49,990.
SKILLS=${SKILLS:-49990}
mkdir -p "$DATA" "$PEERS"

fail() {
    echo "bench-peers: $*" >&2
    exit 1
}

echo "== building the release binary" >&2
cargo build --release --locked --bin apcheck >&2
APCHECK=$TARGET/release/apcheck
echo "== building and running our benchmarks (writes $DATA)" >&2
if [ "${BENCH_LTO:-0}" = 1 ]; then
    ours=$(cargo bench --locked --bench json -- --data-dir "$DATA")
else
    ours=$(CARGO_PROFILE_BENCH_LTO=off CARGO_PROFILE_BENCH_CODEGEN_UNITS=16 cargo bench --locked --bench json -- --data-dir "$DATA")
fi
ours=$(tee /dev/stderr <<<"$ours" | awk '$1 == "result" {print $2, $3}')
our_ms() { awk -v n="$1" '$1 == n {print $2}' <<<"$ours"; }

echo "== installing peers (inside $PEERS)" >&2
declare -A skipped=()
if ! command -v jq >/dev/null && ! apt-get install -y jq >&2; then
    skipped[jq]="apt-get install jq failed"
fi
if [ ! -d "$PEERS/node_modules/ajv" ] || [ ! -d "$PEERS/node_modules/jsondiffpatch" ]; then
    npm install --prefix "$PEERS" --no-audit --no-fund jsondiffpatch ajv >&2 || skipped[node]="npm install failed"
fi
VENV=$PEERS/venv
if ! "$VENV/bin/python" -c "import jsonschema, jsonpatch, skills_ref" 2>/dev/null ||
    [ ! -x "$VENV/bin/skillsaw" ] || [ ! -x "$VENV/bin/agnix" ]; then
    if python3 -m venv "$VENV" >&2 && "$VENV/bin/pip" install -q jsonschema jsonpatch skills-ref agnix skillsaw >&2; then
        :
    else
        skipped[python]="python3 -m venv or pip install (jsonschema jsonpatch skills-ref agnix skillsaw) failed"
    fi
fi
has_python() { [ -z "${skipped[python]:-}" ] && [ -x "$VENV/bin/python" ]; }
has_node() { [ -z "${skipped[node]:-}" ]; }
has_jq() { [ -z "${skipped[jq]:-}" ]; }

# Median wall time in milliseconds of running a command N times (the first argument).
median_ms() {
    local n=$1
    shift
    local times=()
    for _ in $(seq "$n"); do
        local start end
        start=$(date +%s%N)
        "$@" >/dev/null 2>&1 || true
        end=$(date +%s%N)
        times+=($(((end - start) / 1000000)))
    done
    printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'
}

# Peak resident memory in MB and CPU seconds (user + system) of one run, from
# GNU time's verbose report: "MB SECONDS".
usage() {
    /usr/bin/time -v "$@" 2>&1 >/dev/null | awk -F': ' '
        /User time \(seconds\)|System time \(seconds\)/ {cpu += $2}
        /Maximum resident set size/ {mb = $2 / 1024}
        END {printf "%.0f %.2f\n", mb, cpu}'
}

cat >"$PEERS/ajv-bench.mjs" <<'EOF'
// In-process: ajv on the 10,000 small documents; prints the median ms and the valid count.
import { readFileSync, readdirSync } from "node:fs";
import Ajv2020 from "ajv/dist/2020.js";
const [schemaPath, dir, runs] = process.argv.slice(2);
const ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: false });
const validate = ajv.compile(JSON.parse(readFileSync(schemaPath, "utf8")));
const texts = readdirSync(dir).sort().map((f) => readFileSync(`${dir}/${f}`, "utf8"));
const times = [];
let valid = 0;
for (let r = 0; r < Number(runs); r++) {
  const start = process.hrtime.bigint();
  valid = 0;
  for (const text of texts) if (validate(JSON.parse(text))) valid++;
  times.push(Number(process.hrtime.bigint() - start) / 1e6);
}
times.sort((a, b) => a - b);
console.log(times[Math.floor(times.length / 2)].toFixed(1), valid);
EOF

cat >"$PEERS/ajv-one.mjs" <<'EOF'
// Whole process: read one document, parse it, validate it with every error; prints the verdict.
import { readFileSync } from "node:fs";
import Ajv2020 from "ajv/dist/2020.js";
const [schemaPath, documentPath] = process.argv.slice(2);
const ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: false });
const validate = ajv.compile(JSON.parse(readFileSync(schemaPath, "utf8")));
console.log(validate(JSON.parse(readFileSync(documentPath, "utf8"))) ? "valid" : "invalid");
EOF

cat >"$PEERS/jsondiffpatch-bench.mjs" <<'EOF'
// In-process: parse both snapshots, diff by name/id with moves, format as JSON Patch.
import { readFileSync } from "node:fs";
import { create } from "jsondiffpatch";
import { format } from "jsondiffpatch/formatters/jsonpatch";
const [a, b, runs] = process.argv.slice(2);
const left = readFileSync(a, "utf8");
const right = readFileSync(b, "utf8");
const differ = create({
  objectHash: (item, index) => item.name ?? item.id ?? `$$index:${index}`,
  arrays: { detectMove: true },
});
const times = [];
let ops = 0;
for (let r = 0; r < Number(runs); r++) {
  const start = process.hrtime.bigint();
  const l = JSON.parse(left);
  const delta = differ.diff(l, JSON.parse(right));
  ops = format(delta, l).length;
  times.push(Number(process.hrtime.bigint() - start) / 1e6);
}
times.sort((x, y) => x - y);
console.log(times[Math.floor(times.length / 2)].toFixed(1), ops);
EOF

cat >"$PEERS/jsonschema-bench.py" <<'EOF'
# In-process: Python jsonschema on the 10,000 small documents; prints the median ms and the valid count.
import json, os, sys, time
from jsonschema import Draft202012Validator
schema_path, folder, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
validator = Draft202012Validator(json.load(open(schema_path)))
texts = [open(os.path.join(folder, name)).read() for name in sorted(os.listdir(folder))]
times, valid = [], 0
for _ in range(runs):
    start = time.perf_counter()
    valid = sum(1 for text in texts if validator.is_valid(json.loads(text)))
    times.append((time.perf_counter() - start) * 1000)
times.sort()
print(f"{times[len(times) // 2]:.1f}", valid)
EOF

cat >"$PEERS/apply-patch.py" <<'EOF'
# Correctness: our RFC 6902 patch must turn A into B (an independent implementation applies it).
import json, sys
import jsonpatch
a, b, patch = (json.load(open(path)) for path in sys.argv[1:4])
print("applies" if jsonpatch.apply_patch(a, patch) == b else "differs")
EOF

cat >"$PEERS/skills-ref-bench.py" <<'EOF'
# In-process: skills-ref's validator on every skill folder of a plugin; prints the count with problems.
import sys
from pathlib import Path
from skills_ref import validate
root = Path(sys.argv[1]) / "skills"
print(sum(1 for skill in sorted(root.iterdir()) if validate(skill)))
EOF

# The plugin goes to a fresh temporary folder, removed on exit, not under
# target/: agnix skips what .gitignore names (target/ is), and under target/
# it validated nothing in 6 ms. Each peer must read every skill we read.
SKILL_PARENT=$(mktemp -d "${TMPDIR:-/tmp}/apcheck-bench-skills-XXXXXX")
trap 'rm -rf "$SKILL_PARENT"' EXIT
SKILL_ROOT=$SKILL_PARENT/bench-skills
echo "== generating a plugin with $SKILLS skills in $SKILL_ROOT" >&2
node - "$SKILL_ROOT" "$SKILLS" <<'EOF'
// A conformant plugin root: plugin.json and SKILLS skills with a short body each.
const { mkdirSync, writeFileSync } = require("node:fs");
const [root, count] = [process.argv[2], Number(process.argv[3])];
mkdirSync(`${root}/skills`, { recursive: true });
writeFileSync(`${root}/plugin.json`, JSON.stringify({
  $schema: "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json",
  name: "bench-skills", version: "1.0.0", description: "A generated plugin with many skills",
}, null, 2) + "\n");
const body = "Follow these steps carefully and report what you found.\n".repeat(20);
for (let i = 0; i < count; i++) {
  const name = `skill-${String(i).padStart(5, "0")}`;
  mkdirSync(`${root}/skills/${name}`);
  writeFileSync(`${root}/skills/${name}/SKILL.md`, `---\nname: ${name}\ndescription: Does task number ${i} when the user asks for it.\n---\n\n# Skill ${i}\n\n${body}`);
}
EOF

echo "== running" >&2
schema=$ROOT/schemas/agent-plugins/1.0.0/plugin.schema.json
big=$DATA/big.json
big50=$DATA/big-50mb.json
records=$DATA/records.schema.json
A=$DATA/tools-a.json
B=$DATA/tools-b.json
[ -f "$big50" ] && [ -f "$records" ] || fail "cargo bench --bench json did not write $big50 and $records"

# Rows: task, peer name, peer ms, our ms, peer MB, our MB, peer CPU s, our CPU s (any may be "-").
rows=()
row() { rows+=("$(printf '%s\t' "$@")"); }

# fmt 100 MB
mib=$(awk -v b="$(stat -c %s "$big")" 'BEGIN { printf "%.1f", b / 1048576 }')
cli_pretty=$(median_ms "$RUNS" "$APCHECK" fmt "$big")
cli_minify=$(median_ms "$RUNS" "$APCHECK" fmt --minify "$big")
read -r cli_fmt_mb cli_fmt_cpu < <(usage "$APCHECK" fmt "$big")
if has_jq; then
    read -r jq_mb jq_cpu < <(usage jq . "$big")
    row "fmt $mib MiB pretty, whole process" jq "$(median_ms "$RUNS" jq . "$big")" "$cli_pretty" "$jq_mb" "$cli_fmt_mb" "$jq_cpu" "$cli_fmt_cpu"
    row "fmt $mib MiB minify, whole process" "jq -c" "$(median_ms "$RUNS" jq -c . "$big")" "$cli_minify" - - - -
else
    row "fmt $mib MiB pretty, whole process" "jq (${skipped[jq]})" - "$cli_pretty" - "$cli_fmt_mb" - "$cli_fmt_cpu"
fi
row "fmt pretty, in-process (ours only)" - - "$(our_ms format-pretty)" - - - -
fmt_rate=$(awk -v m="$mib" -v t="$cli_pretty" 'BEGIN { printf "%.0f", m / (t / 1000) }')
fmt_cpu_rate=$(awk -v m="$mib" -v t="$cli_fmt_cpu" 'BEGIN { if (t > 0) printf "%.0f", m / t; else print "-" }')

# validate 10,000 small documents
cli_validate=$(median_ms "$RUNS" bash -c "'$APCHECK' validate --builtin plugin '$DATA'/small/*.json")
read -r cli_validate_mb cli_validate_cpu < <(usage bash -c "'$APCHECK' validate --builtin plugin '$DATA'/small/*.json")
our_valid=$("$APCHECK" validate --builtin plugin --format json "$DATA"/small/*.json 2>/dev/null | jq '[.files[] | select(.valid)] | length' || true)
if has_node; then
    read -r ajv_ms ajv_valid < <(node "$PEERS/ajv-bench.mjs" "$schema" "$DATA/small" "$RUNS")
    row "validate 10,000 small docs, in-process" ajv "$ajv_ms" "$(our_ms validate-10k)" - - - -
    [ "$ajv_valid" = "$our_valid" ] || fail "verdicts differ: ajv finds $ajv_valid valid documents, apcheck $our_valid"
fi
if has_python; then
    read -r py_ms py_valid < <("$VENV/bin/python" "$PEERS/jsonschema-bench.py" "$schema" "$DATA/small" "$RUNS")
    row "validate 10,000 small docs, in-process" "Python jsonschema" "$py_ms" "$(our_ms validate-10k)" - - - -
    [ "$py_valid" = "$our_valid" ] || fail "verdicts differ: Python jsonschema finds $py_valid valid documents, apcheck $our_valid"
fi
row "validate 10,000 files, whole process (ours only)" - - "$cli_validate" - "$cli_validate_mb" - "$cli_validate_cpu"

# validate one 50 MB document
our_one=$("$APCHECK" validate --schema "$records" "$big50" >/dev/null 2>&1 && echo valid || echo invalid)
cli_one=$(median_ms "$RUNS" "$APCHECK" validate --schema "$records" "$big50")
read -r cli_one_mb cli_one_cpu < <(usage "$APCHECK" validate --schema "$records" "$big50")
if has_node; then
    ajv_one=$(node "$PEERS/ajv-one.mjs" "$records" "$big50")
    [ "$ajv_one" = "$our_one" ] || fail "verdicts differ on $big50: ajv $ajv_one, apcheck $our_one"
    read -r ajv_one_mb ajv_one_cpu < <(usage node "$PEERS/ajv-one.mjs" "$records" "$big50")
    row "validate one 50 MB document, whole process" ajv "$(median_ms "$RUNS" node "$PEERS/ajv-one.mjs" "$records" "$big50")" "$cli_one" "$ajv_one_mb" "$cli_one_mb" "$ajv_one_cpu" "$cli_one_cpu"
else
    row "validate one 50 MB document, whole process" "ajv (${skipped[node]})" - "$cli_one" - "$cli_one_mb" - "$cli_one_cpu"
fi

# keyed diff of two 10,000-tool snapshots
"$APCHECK" diff "$A" "$B" --format patch >"$PEERS/patch.json" || true
our_patch_ops=$(jq length "$PEERS/patch.json" 2>/dev/null || echo "?")
if has_python; then
    applied=$("$VENV/bin/python" "$PEERS/apply-patch.py" "$A" "$B" "$PEERS/patch.json")
    [ "$applied" = "applies" ] || fail "our JSON Patch does not turn $A into $B"
fi
cli_patch=$(median_ms "$RUNS" "$APCHECK" diff "$A" "$B" --format patch)
read -r cli_patch_mb cli_patch_cpu < <(usage "$APCHECK" diff "$A" "$B" --format patch)
cli_text=$(median_ms "$RUNS" "$APCHECK" diff "$A" "$B")
read -r cli_text_mb cli_text_cpu < <(usage "$APCHECK" diff "$A" "$B")
if has_node; then
    read -r jdp_ms jdp_ops < <(node "$PEERS/jsondiffpatch-bench.mjs" "$A" "$B" "$RUNS")
    row "keyed diff 10k tools + JSON Patch, in-process" jsondiffpatch "$jdp_ms" "$(our_ms diff-10k-tools)" - - - -
    read -r jdp_mb jdp_cpu < <(usage node "$PEERS/jsondiffpatch-bench.mjs" "$A" "$B" 1)
    row "keyed diff 10k tools --format patch, whole process" jsondiffpatch "$(median_ms "$RUNS" node "$PEERS/jsondiffpatch-bench.mjs" "$A" "$B" 1)" "$cli_patch" "$jdp_mb" "$cli_patch_mb" "$jdp_cpu" "$cli_patch_cpu"
fi
row "keyed diff 10k tools, default text (vs our patch)" "apcheck --format patch" "$cli_patch" "$cli_text" "$cli_patch_mb" "$cli_text_mb" "$cli_patch_cpu" "$cli_text_cpu"

# check a plugin with 50,000 skills
"$APCHECK" check "$SKILL_ROOT" >/dev/null 2>&1 || fail "apcheck finds errors in the conformant $SKILLS-skill plugin"
cli_check=$(median_ms "$RUNS" "$APCHECK" check "$SKILL_ROOT")
read -r cli_check_mb cli_check_cpu < <(usage "$APCHECK" check "$SKILL_ROOT")
if has_python; then
    # agnix stops at 10,000 files unless its configuration lifts the limit;
    # a run that stops early would be timed as a fast one, so it must pass first.
    printf 'max_files_to_validate = %d\n' $((SKILLS * 2 + 10)) >"$PEERS/agnix.toml"
    agnix=("$VENV/bin/agnix" --config "$PEERS/agnix.toml" validate "$SKILL_ROOT")
    "${agnix[@]}" >/dev/null 2>&1 || fail "agnix did not validate the $SKILLS-skill plugin: ${agnix[*]}"
    read -r agnix_mb agnix_cpu < <(usage "${agnix[@]}")
    row "check $SKILLS skills, whole process" agnix "$(median_ms "$SLOW_RUNS" "${agnix[@]}")" "$cli_check" "$agnix_mb" "$cli_check_mb" "$agnix_cpu" "$cli_check_cpu"
    read -r saw_mb saw_cpu < <(usage "$VENV/bin/skillsaw" lint --no-progress "$SKILL_ROOT")
    row "check $SKILLS skills, whole process" skillsaw "$(median_ms "$SLOW_RUNS" "$VENV/bin/skillsaw" lint --no-progress "$SKILL_ROOT")" "$cli_check" "$saw_mb" "$cli_check_mb" "$saw_cpu" "$cli_check_cpu"
    bad=$("$VENV/bin/python" "$PEERS/skills-ref-bench.py" "$SKILL_ROOT")
    [ "$bad" = 0 ] || fail "skills-ref finds problems in $bad of the generated skills; apcheck finds none"
    read -r ref_mb ref_cpu < <(usage "$VENV/bin/python" "$PEERS/skills-ref-bench.py" "$SKILL_ROOT")
    row "check $SKILLS skills (skills only), whole process" skills-ref "$(median_ms "$SLOW_RUNS" "$VENV/bin/python" "$PEERS/skills-ref-bench.py" "$SKILL_ROOT")" "$cli_check" "$ref_mb" "$cli_check_mb" "$ref_cpu" "$cli_check_cpu"
else
    row "check $SKILLS skills, whole process" "agnix, skillsaw, skills-ref (${skipped[python]})" - "$cli_check" - "$cli_check_mb" - "$cli_check_cpu"
fi

ratio() {
    case "$1$2" in
    *-*) echo "-" ;;
    *) awk -v o="$2" -v p="$1" 'BEGIN { if (p > 0) printf "%.2fx", o / p; else print "-" }' ;;
    esac
}

echo
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs; medians of $RUNS runs ($SLOW_RUNS for skill linters); ratio = apcheck / peer"
printf '%-52s %-24s %10s %10s %7s %8s %8s %7s %7s %7s %7s\n' "task" "peer" "peer ms" "ours ms" "÷ peer" "peer MB" "ours MB" "÷ peer" "peer s" "ours s" "÷ peer"
for line in "${rows[@]}"; do
    IFS=$'\t' read -r task peer peer_ms our_ms peer_mb our_mb peer_cpu our_cpu <<<"$line"
    printf '%-52s %-24s %10s %10s %7s %8s %8s %7s %7s %7s %7s\n' "$task" "$peer" "$peer_ms" "$our_ms" "$(ratio "$peer_ms" "$our_ms")" \
        "$peer_mb" "$our_mb" "$(ratio "$peer_mb" "$our_mb")" "$peer_cpu" "$our_cpu" "$(ratio "$peer_cpu" "$our_cpu")"
done
echo "(ms: median wall time; MB: peak resident memory; s: CPU seconds, user + system, of one run)"
echo
echo "fmt: $fmt_rate MiB/s of input, whole process wall time; $fmt_cpu_rate MiB/s of CPU time (goal: 600)"
echo "JSON Patch operations: jsondiffpatch ${jdp_ops:-?}, apcheck $our_patch_ops (ours applies to A to give B)"
for peer in "${!skipped[@]}"; do
    echo "skipped $peer: ${skipped[$peer]}"
done

# The same rows for the book's figures table (`node scripts/figures.mjs` renders it).
mkdir -p "$ROOT/target/figures"
printf '%s\n' "${rows[@]}" | node -e '
const lines = require("node:fs").readFileSync(0, "utf8").split("\n").filter(Boolean);
const ratio = (ours, peer) => (Number(peer) > 0 && Number.isFinite(Number(ours)) ? `${(Number(ours) / Number(peer)).toFixed(2)}×` : "-");
const side = (ms, mb, cpu) => [`${ms} ms`, mb === "-" ? "" : `${mb} MB`, cpu === "-" ? "" : `${cpu} CPU s`].filter(Boolean).join(", ");
for (const line of lines) {
  const [task, peer, peerMs, ourMs, peerMb, ourMb, peerCpu, ourCpu] = line.split("\t");
  if (peer === "-") continue; // ours only: no peer to set it against
  const ratios = [ratio(ourMs, peerMs), ratio(ourMb, peerMb), ratio(ourCpu, peerCpu)].filter((r) => r !== "-").join(", ");
  const id = `peers-${`${task} ${peer}`.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "")}`;
  const figure = peerMs === "-" ? `${side(ourMs, ourMb, ourCpu)}; ${peer} not run` : `${side(ourMs, ourMb, ourCpu)}; ${peer} ${side(peerMs, peerMb, peerCpu)} (${ratios})`;
  console.log(JSON.stringify({ id, row: `${task}, against ${peer}`, figure, goal: "", by: "scripts/bench-peers.sh" }));
}' >"$ROOT/target/figures/bench-peers.jsonl"
echo "bench-peers: rows written to target/figures/bench-peers.jsonl (node scripts/figures.mjs renders them)"
