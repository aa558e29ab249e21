#!/usr/bin/env bash
# Benchmark: `loophunter ship` of a backlog of queued reports to the local test collector
# (Tests/Receivers/otlp_receiver.py, which decodes every OTLP request with opentelemetry-proto).
# Prints a Markdown table: per format, the reports, the HTTP requests they took (batching), the
# wall time of the whole run and the throughput in reports/s. Both sides run on this machine, so
# the collector's decoding (Python protobuf) is part of the time.
#
# Usage: scripts/bench/ship.sh [COUNT]   (default 10000)
#   LOOPHUNTER_CLI=path   use this loophunter instead of building .build/release/loophunter
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
count=${1:-10000}

cli=${LOOPHUNTER_CLI:-}
if [ -z "$cli" ]; then
  swift build -c release --product loophunter >/dev/null
  cli=$root/.build/release/loophunter
fi
scripts/build-native.sh >/dev/null
scripts/setup-validators.sh
python=$root/.build/validators-venv/bin/python

work=$(mktemp -d /tmp/loophunter-ship-bench.XXXXXX)
collector_pid=
cleanup() { [ -n "$collector_pid" ] && kill "$collector_pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT

# Seeds: real reports of the toykit scenarios that loop, written by the preload.
mkdir -m 700 "$work/seed"
for scenario in loop capped-loop oscillate; do
  LD_PRELOAD=$root/.build/release/libloophunter.so LOOPHUNTER_DIR=$work/seed \
    "$root/.build/release/toykit-demo" "$scenario" >/dev/null 2>&1 || true
done
ls "$work"/seed/report-*.json >/dev/null 2>&1 || { echo "ship.sh: the scenarios wrote no report" >&2; exit 1; }

# One run: COUNT reports queued in a fresh directory, shipped in one `loophunter ship`.
# Prints: requests seconds accepted malformed bytes
bench() {
  local format=$1 dir=$work/$1
  python3 scripts/bench/make_report_corpus.py "$work/seed" "$dir" "$count"
  chmod 700 "$dir"
  rm -f "$work/port" "$work/$format.jsonl"
  "$python" Tests/Receivers/otlp_receiver.py --mode "$format" --port-file "$work/port" --log "$work/$format.jsonl" \
    --lifetime 1800 2>"$work/$format.stderr" &
  collector_pid=$!
  for _ in $(seq 200); do [ -s "$work/port" ] && break; sleep 0.05; done
  local url="http://127.0.0.1:$(cat "$work/port")"
  local start end
  start=$(date +%s.%N)
  "$cli" ship "$dir" --to "$url" --format "$format" --quiet >"$work/$format.out"
  end=$(date +%s.%N)
  kill "$collector_pid"; wait "$collector_pid" 2>/dev/null || true
  collector_pid=
  "$python" - "$work/$format.jsonl" "$start" "$end" <<'PY'
import json, sys
entries = [json.loads(line) for line in open(sys.argv[1])]
accepted = {i for e in entries if e.get("status") == 200 for i in e.get("ids", [])}
malformed = sum(1 for e in entries if e.get("error"))
sent = sum(e["bytes"] for e in entries)
print(len(entries), float(sys.argv[3]) - float(sys.argv[2]), len(accepted), malformed, sent)
PY
}

echo "## \`loophunter ship\`: $count queued reports to the local collector"
echo
echo "| format | reports | requests | reports/request | bytes on the wire | time | throughput |"
echo "|---|---:|---:|---:|---:|---:|---:|"
for format in otlp json; do
  read -r requests seconds accepted malformed bytes < <(bench "$format")
  if [ "$accepted" != "$count" ] || [ "$malformed" != 0 ]; then
    echo "ship.sh: $format: $accepted of $count reports accepted, $malformed malformed requests" >&2
    cat "$work/$format.out" "$work/$format.stderr" >&2
    exit 1
  fi
  printf "| %s | %d | %d | %.0f | %.1f MiB | %.2f s | **%.0f reports/s** |\n" "$format" "$count" "$requests" \
    "$(echo "$count / $requests" | bc -l)" "$(echo "$bytes / 1048576" | bc -l)" "$seconds" "$(echo "$count / $seconds" | bc -l)"
done
echo
echo "Release build; defaults (OTLP: batches of up to 512 reports / 4 MiB, gzip; JSON: one report per"
echo "request, no gzip unless the endpoint advertises it; 2 requests in flight). The collector is"
echo "Tests/Receivers/otlp_receiver.py (Python, opentelemetry-proto decoding every request) on loopback:"
echo "its decoding is inside the time. $(nproc) cores."
