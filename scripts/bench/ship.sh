#!/usr/bin/env bash
# Benchmark: `loophunter ship` of a backlog of queued reports, side by side in one run:
#   - against a collector that accepts and discards (Tests/Receivers/otlp_receiver.py --discard:
#     it reads each body and answers 200 with an empty ExportLogsServiceResponse, decoding
#     nothing), which measures the shipper itself;
#   - against the real decoder (the same receiver decoding every request with opentelemetry-proto
#     and checking it), whose Python decoding is inside the time;
# for OTLP with the protobuf encoding (the default) and with the JSON encoding, and, against the
# discarding collector, for the json format (one report per request).
# Prints a Markdown table: per row the reports, the HTTP requests they took, the bytes on the wire
# (gzipped, as sent), the wall time of the whole `loophunter ship` run (intake, spool moves,
# reading, encoding, gzip, HTTP), the shipper's own CPU time (user + system), and the throughput.
# Every row is checked: every report sent once, the spool's sent/ holding them all, and with the
# decoder every id accepted and no request malformed; a failed check stops the script.
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
# bench COLLECTOR(discard|decoder) FORMAT(otlp|json) ENCODING(protobuf|json|-)
# Prints: requests wall_s cpu_s accepted malformed bytes sent_in_spool
bench() {
  local collector=$1 format=$2 encoding=$3
  local name=$collector-$format-$encoding
  local dir=$work/$name
  python3 scripts/bench/make_report_corpus.py "$work/seed" "$dir" "$count"
  chmod 700 "$dir"
  rm -f "$work/port" "$work/$name.jsonl"
  local receiver=(--mode "$format")
  [ "$collector" = discard ] && receiver+=(--discard)
  "$python" Tests/Receivers/otlp_receiver.py "${receiver[@]}" --port-file "$work/port" --log "$work/$name.jsonl" \
    --lifetime 1800 2>"$work/$name.stderr" &
  collector_pid=$!
  for _ in $(seq 200); do [ -s "$work/port" ] && break; sleep 0.05; done
  local url="http://127.0.0.1:$(cat "$work/port")"
  local options=(--format "$format" --quiet)
  [ "$encoding" != - ] && options+=(--otlp-encoding "$encoding")
  local TIMEFORMAT="%R %U %S"
  { time "$cli" ship "$dir" --to "$url" "${options[@]}" >"$work/$name.out" 2>"$work/$name.err"; } 2>"$work/$name.time"
  kill "$collector_pid"; wait "$collector_pid" 2>/dev/null || true
  collector_pid=
  local sent
  sent=$(find "$dir/.ship/sent" -name 'report-*.json' | wc -l)
  "$python" - "$work/$name.jsonl" "$work/$name.time" "$collector" "$sent" <<'PY'
import json, sys
entries = [json.loads(line) for line in open(sys.argv[1])]
wall, user, system = (float(x) for x in open(sys.argv[2]).read().split())
if sys.argv[3] == "discard":
    accepted = -1  # nothing decoded: the spool's sent/ is the check
else:
    accepted = len({i for e in entries if e.get("status") == 200 for i in e.get("ids", [])})
malformed = sum(1 for e in entries if e.get("error"))
sent = sum(e["bytes"] for e in entries)
print(len(entries), wall, user + system, accepted, malformed, sent, sys.argv[4])
PY
}

echo "## \`loophunter ship\`: $count queued reports, to a collector that discards and to the decoder"
echo
echo "| collector | format | encoding | reports | requests | reports/request | bytes on the wire | time | shipper CPU | CPU per report | throughput |"
echo "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"
for row in "discard otlp protobuf" "discard otlp json" "decoder otlp protobuf" "decoder otlp json" "discard json -"; do
  read -r collector format encoding <<<"$row"
  read -r requests seconds cpu accepted malformed bytes sent < <(bench "$collector" "$format" "$encoding")
  name=$collector-$format-$encoding
  if ! grep -q "$count sent, 0 rejected, 0 still pending" "$work/$name.out" || [ "$sent" != "$count" ] \
     || { [ "$accepted" != -1 ] && [ "$accepted" != "$count" ]; } || [ "$malformed" != 0 ]; then
    echo "ship.sh: $row: $sent of $count reports in sent/, $accepted accepted by the decoder, $malformed malformed requests" >&2
    cat "$work/$name.out" "$work/$name.err" "$work/$name.stderr" >&2
    exit 1
  fi
  printf "| %s | %s | %s | %d | %d | %.0f | %.2f MiB | %.2f s | %.2f s | %.0f µs | **%.0f reports/s** |\n" \
    "$collector" "$format" "$encoding" "$count" "$requests" "$(echo "$count / $requests" | bc -l)" \
    "$(echo "$bytes / 1048576" | bc -l)" "$seconds" "$cpu" "$(echo "$cpu * 1000000 / $count" | bc -l)" \
    "$(echo "$count / $seconds" | bc -l)"
done
echo
echo "Release build; defaults (OTLP: batches of up to 512 reports / 4 MiB, gzip; json format: one report"
echo "per request, no gzip unless the endpoint advertises it; 2 requests in flight). Time: the whole"
echo "\`loophunter ship\` run (intake into the spool, claiming, reading, encoding, gzip, HTTP, moving each"
echo "report to sent/). Shipper CPU: its user + system time. Collectors: Tests/Receivers/otlp_receiver.py"
echo "(Python) on loopback, --discard (reads each body, answers 200, decodes nothing) or decoding every"
echo "request with opentelemetry-proto (its decoding is inside the time). $(nproc) cores."
