# peer_proof.sh — sourced by scripts/bench/peers.sh and run.sh: checks, from a peer tool's own
# output, that it traced the program it was given, and how many calls it recorded.
# A peer's timing counts only when its proof passes: a wrapper in the wrong place (e.g.
# `heaptrack taskset -c 1 PROGRAM` traces taskset) or a tool that silently recorded nothing would
# otherwise print a figure that measures nothing.
#
# Each function prints the count it proved on stdout and returns 0, or prints why the proof failed
# (one short phrase) and returns 1. Use: if n=$(proof ...); then ...; else why=$n; fi
#
#   heaptrack_proof FILE PROGRAM MIN      heaptrack_print on FILE: the debuggee is PROGRAM and it
#                                         recorded >= MIN calls to allocation functions
#   uftrace_proof DIR PROGRAM REGEX [EXPECTED]
#                                         `uftrace info`: the traced exe image is PROGRAM;
#                                         `uftrace report`: the calls of functions matching REGEX
#                                         (their sum)
#   ltrace_proof FILE PROGRAM FUNCTION [EXPECTED]
#                                         ltrace -o FILE: the lines "<PROGRAM's name>->FUNCTION("
#   lh_summary_layout_calls DIR PROGRAM [EXPECTED]
#                                         LoopHunter's summary-*.json in DIR for PROGRAM: the sum
#                                         of its threads' layout_calls
# A count of 0 fails; with EXPECTED, any other count than EXPECTED fails.

# proof_count COUNT EXPECTED WHAT: the common end of the proofs above
proof_count() {
  if [ "${1:-0}" -eq 0 ]; then echo "no $3 recorded"; return 1; fi
  if [ -n "$2" ] && [ "$1" != "$2" ]; then echo "$1 $3 recorded, $2 made"; return 1; fi
  echo "$1"
}

heaptrack_proof() {
  local file=$1 program=$2 min=$3 out debuggee calls
  [ -s "$file" ] || { echo "no heaptrack data file"; return 1; }
  out=$(heaptrack_print -p 0 -a 0 -T 0 -l 0 -f "$file" 2>&1) || { echo "heaptrack_print failed"; return 1; }
  debuggee=$(sed -n 's/^Debuggee command was: \([^ ]*\).*/\1/p' <<<"$out")
  calls=$(sed -n 's/^calls to allocation functions: \([0-9]*\).*/\1/p' <<<"$out")
  if [ "$debuggee" != "$program" ]; then
    echo "heaptrack traced ${debuggee##*/} (${calls:-0} allocation calls), not ${program##*/}"
    return 1
  fi
  if [ "${calls:-0}" -lt "$min" ]; then
    echo "${calls:-0} allocation calls recorded, fewer than the $min made"
    return 1
  fi
  echo "$calls"
}

uftrace_proof() {
  local dir=$1 program=$2 regex=$3 expected=${4:-} exe calls
  exe=$(uftrace info -d "$dir" 2>/dev/null | sed -n 's/^# exe image *: //p')
  if [ "$(readlink -f "$exe" 2>/dev/null)" != "$(readlink -f "$program")" ]; then
    echo "uftrace recorded '${exe:-nothing}', not ${program##*/}"
    return 1
  fi
  calls=$(uftrace report -d "$dir" 2>/dev/null | awk -v re="$regex" '$NF ~ re {s += $(NF - 1)} END {print s + 0}')
  proof_count "$calls" "$expected" "calls matching $regex"
}

ltrace_proof() {
  local file=$1 program=$2 function=$3 expected=${4:-} calls
  calls=$(grep -c "^${program##*/}->$function(" "$file" 2>/dev/null || true)
  proof_count "${calls:-0}" "$expected" "${program##*/}->$function calls"
}

lh_summary_layout_calls() {
  local dir=$1 program=$2 expected=${3:-} calls
  calls=$(python3 - "$dir" "$(readlink -f "$program")" <<'PY'
import glob, json, os, sys
d, program = sys.argv[1], sys.argv[2]
mine = [s for s in (json.load(open(f)) for f in glob.glob(os.path.join(d, "summary-*.json")))
        if os.path.realpath(s["process"]["executable"]) == program]
if len(mine) != 1:
    print(f"{len(mine)} LoopHunter summaries of {os.path.basename(program)}")
    sys.exit(1)
print(sum(t["layout_calls"] for t in mine[0]["threads"]))
PY
  ) || { echo "$calls"; return 1; }
  proof_count "$calls" "$expected" "layout calls"
}
