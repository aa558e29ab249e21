#!/usr/bin/env bash
# Creates the Python virtual environment of the output validators (Tests/Validators) at
# .build/validators-venv, with pinned versions of:
#   sarif-pydantic  the SARIF 2.1.0 object model (pydantic): the log must load into it
#   sarif-tools     the `sarif` CLI, a real SARIF consumer: `sarif summary`, `sarif csv` ...
#   junitparser     a JUnit XML reader
#   opentelemetry-proto, protobuf
#                   the official OTLP protobuf definitions: the test collector of `loophunter ship`
#                   (Tests/Receivers/otlp_receiver.py) decodes every request with them
# Fast when already there (a stamp file records the pins). Prints nothing on success; on failure,
# says what went wrong and which command installs what is missing. Needs no standard input.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$root/.build/validators-venv"
stamp="$venv/.loophunter-validators"
pins="sarif-pydantic==0.6.2 sarif-tools==3.0.5 junitparser==5.0.3 opentelemetry-proto==1.45.2 protobuf==7.36.2"

if [[ -x "$venv/bin/python" && -f "$stamp" && "$(cat "$stamp")" == "$pins" ]]; then
  exit 0
fi

if ! command -v python3 >/dev/null 2>&1; then
  echo "setup-validators: python3 is not installed; install it with: apt-get install -y python3 python3-venv" >&2
  exit 1
fi

mkdir -p "$root/.build"
# One setup at a time (two test processes may start together).
exec 9>"$root/.build/validators-venv.lock"
if command -v flock >/dev/null 2>&1; then flock 9; fi
if [[ -x "$venv/bin/python" && -f "$stamp" && "$(cat "$stamp")" == "$pins" ]]; then
  exit 0
fi

log="$(mktemp)"
trap 'rm -f "$log"' EXIT
rm -rf "$venv"
if ! python3 -m venv "$venv" >"$log" 2>&1; then
  rm -rf "$venv"
  echo "setup-validators: 'python3 -m venv' failed (the venv module or ensurepip is missing)." >&2
  echo "Install it with: apt-get install -y python3-venv" >&2
  cat "$log" >&2
  exit 1
fi
# shellcheck disable=SC2086 # the pins are separate words
if ! PIP_DISABLE_PIP_VERSION_CHECK=1 "$venv/bin/python" -m pip install --no-input --quiet $pins \
    </dev/null >"$log" 2>&1; then
  echo "setup-validators: could not install the validators ($pins) into $venv:" >&2
  cat "$log" >&2
  exit 1
fi
echo "$pins" >"$stamp"
