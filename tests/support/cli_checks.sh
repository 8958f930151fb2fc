# Shared by the end-to-end shell tests: the checks they make and how they start a server.
# Source it after setting `bin` (the build's bin folder); it makes `tmp` and cleans up at exit.
# shellcheck shell=bash
set -uo pipefail
tmp=$(mktemp -d)
pids=()
cleanup() {
  ((${#pids[@]})) && kill "${pids[@]}" 2>/dev/null
  wait 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT
passed=0 failed=0
pass() { passed=$((passed + 1)); echo "ok   $1"; }
failure() { failed=$((failed + 1)); echo "FAIL $1"; [ -n "${2:-}" ] && echo "$2" | tail -n 15; }

# run NAME EXPECTED_EXIT [GREP_PATTERN] -- COMMAND...: the command must exit with EXPECTED_EXIT
# and, if a pattern is given, print a line matching it (case-insensitive).
run() {
  local name=$1 want=$2 pattern=""
  shift 2
  if [ "$1" != "--" ]; then pattern=$1; shift; fi
  shift
  local out rc
  out=$("$@" 2>&1)
  rc=$?
  if [ "$rc" != "$want" ]; then failure "$name (exit $rc, wanted $want)" "$out"
  elif [ -n "$pattern" ] && ! grep -qiE -- "$pattern" <<<"$out"; then failure "$name (no line matches /$pattern/)" "$out"
  else pass "$name"; fi
}
# expect NAME CONDITION-RESULT DETAIL: records a check made in this shell.
expect() { if [ "$2" = 0 ]; then pass "$1"; else failure "$1" "$3"; fi; }

# start VAR LOG ARGS...: starts file-manager in this shell (so its pid is ours to stop) and sets VAR
# to the URL it prints once listening.
start() {
  local var=$1 log=$2
  shift 2
  "$bin/file-manager" "$@" >"$log" 2>&1 &
  pids+=($!)
  local found=""
  for _ in $(seq 1 200); do
    found=$(grep -oE 'http://localhost:[0-9]+/mcp' "$log" | head -n1)
    [ -n "$found" ] && break
    kill -0 "${pids[-1]}" 2>/dev/null || break
    sleep 0.05
  done
  if [ -z "$found" ]; then echo "file-manager did not start:" >&2; cat "$log" >&2; exit 1; fi
  printf -v "$var" "%s" "$found"
}

