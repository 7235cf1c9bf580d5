#!/usr/bin/env bash
# Runs apcheck's JSON toolkit and its peers (jq, ajv, jsondiffpatch) on the same
# generated files in one run, and prints a table of medians and ratios.
#
#   scripts/bench-peers.sh            # from the repository root
#
# Inputs come from `cargo bench --bench json` (written to target/bench-data/).
# Peers are installed under target/bench-peers/ (npm) and with apt-get (jq).
# In-process rows time the work only (parse + check/diff), as each tool's
# library would be used; whole-process rows include start-up and file reading.
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT=$(pwd)
TARGET=${CARGO_TARGET_DIR:-$ROOT/target}
DATA=$ROOT/target/bench-data
PEERS=$ROOT/target/bench-peers
RUNS=${RUNS:-5}
mkdir -p "$DATA" "$PEERS"

echo "== building and running our benchmarks (writes $DATA)" >&2
ours=$(cargo bench --bench json -- --data-dir "$DATA" | tee /dev/stderr | awk '$1 == "result" {print $2, $3}')
our_ms() { awk -v n="$1" '$1 == n {print $2}' <<<"$ours"; }
cargo build --release --bin apcheck >&2
APCHECK=$TARGET/release/apcheck

echo "== installing peers" >&2
if ! command -v jq >/dev/null; then
    apt-get install -y jq >&2
fi
if [ ! -d "$PEERS/node_modules/ajv" ] || [ ! -d "$PEERS/node_modules/jsondiffpatch" ]; then
    npm install --prefix "$PEERS" --no-audit --no-fund jsondiffpatch ajv >&2
fi

# Median wall time in milliseconds of running a command RUNS times.
median_ms() {
    local times=()
    for _ in $(seq "$RUNS"); do
        local start end
        start=$(date +%s%N)
        "$@" >/dev/null
        end=$(date +%s%N)
        times+=($(((end - start) / 1000000)))
    done
    printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'
}

# Peak resident memory in MB of one run.
peak_mb() {
    /usr/bin/time -f '%M' "$@" 2>&1 >/dev/null | tail -1 | awk '{printf "%.0f", $1/1024}'
}

cat >"$PEERS/ajv-bench.mjs" <<'EOF'
import { readFileSync, readdirSync } from "node:fs";
import Ajv2020 from "ajv/dist/2020.js";
const [schemaPath, dir, runs] = process.argv.slice(2);
const ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: false });
const validate = ajv.compile(JSON.parse(readFileSync(schemaPath, "utf8")));
const texts = readdirSync(dir).sort().map((f) => readFileSync(`${dir}/${f}`, "utf8"));
const times = [];
for (let r = 0; r < Number(runs); r++) {
  const start = process.hrtime.bigint();
  let errors = 0;
  for (const text of texts) if (!validate(JSON.parse(text))) errors += validate.errors.length;
  times.push(Number(process.hrtime.bigint() - start) / 1e6);
}
times.sort((a, b) => a - b);
console.log(times[Math.floor(times.length / 2)].toFixed(1));
EOF

cat >"$PEERS/jsondiffpatch-bench.mjs" <<'EOF'
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

echo "== running peers" >&2
schema=$ROOT/schemas/agent-plugins/1.0.0/plugin.schema.json
ajv_ms=$(node "$PEERS/ajv-bench.mjs" "$schema" "$DATA/small" "$RUNS")
read -r jdp_ms jdp_ops < <(node "$PEERS/jsondiffpatch-bench.mjs" "$DATA/tools-a.json" "$DATA/tools-b.json" "$RUNS")
our_patch_ops=$("$APCHECK" diff "$DATA/tools-a.json" "$DATA/tools-b.json" --format patch | jq length || true)

jq_pretty=$(median_ms jq . "$DATA/big.json")
jq_minify=$(median_ms jq -c . "$DATA/big.json")
cli_pretty=$(median_ms "$APCHECK" fmt "$DATA/big.json")
cli_minify=$(median_ms "$APCHECK" fmt --minify "$DATA/big.json")
cli_validate=$(median_ms bash -c "'$APCHECK' validate --builtin plugin '$DATA'/small/*.json 2>/dev/null; true")
cli_diff=$(median_ms bash -c "'$APCHECK' diff '$DATA/tools-a.json' '$DATA/tools-b.json' --format patch; true")
cli_diff_mb=$(peak_mb bash -c "'$APCHECK' diff '$DATA/tools-a.json' '$DATA/tools-b.json' --format patch; true")
jq_mb=$(peak_mb jq . "$DATA/big.json")
cli_fmt_mb=$(peak_mb "$APCHECK" fmt "$DATA/big.json")

ratio() {
    case "$1$2" in
    *-*) echo "-" ;;
    *) awk -v p="$1" -v o="$2" 'BEGIN { if (o > 0) printf "%.1fx", p / o; else print "-" }' ;;
    esac
}

echo
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs; medians of $RUNS runs (ours in-process: of 3-7)"
printf '%-46s %12s %12s %10s\n' "task" "peer ms" "apcheck ms" "peer/ours"
row() { printf '%-46s %12s %12s %10s\n' "$1" "$2" "$3" "$(ratio "$2" "$3")"; }
row "format 100 MB pretty, whole process (jq .)" "$jq_pretty" "$cli_pretty"
row "format 100 MB minify, whole process (jq -c)" "$jq_minify" "$cli_minify"
row "format 100 MB pretty, in-process (ours)" "-" "$(our_ms format-pretty)"
row "validate 10,000 small docs, in-process (ajv)" "$ajv_ms" "$(our_ms validate-10k)"
row "validate 10,000 files, whole process (ours)" "-" "$cli_validate"
row "diff 10k tools + JSON Patch, in-process (jdp)" "$jdp_ms" "$(our_ms diff-10k-tools)"
row "diff 10k tools --format patch, whole process" "-" "$cli_diff"
echo
echo "JSON Patch operations: jsondiffpatch $jdp_ops, apcheck $our_patch_ops"
echo "peak memory MB: apcheck diff $cli_diff_mb; apcheck fmt 100 MB $cli_fmt_mb; jq . 100 MB $jq_mb"
