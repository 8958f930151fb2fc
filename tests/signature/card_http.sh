#!/usr/bin/env bash
# The capability signature over HTTP, end to end with the programs a user runs:
# file-manager --http serves its card; `mcp-trust card` fetches and verifies it; the card answers
# 304 to a matching If-None-Match; `mcp-trust client --url` holds the server to the card's signature
# in strict mode, passes the mid-session admin grant, and stops a misbehaving server (exit 4).
# Usage: card_http.sh <build/bin>
set -uo pipefail
bin=$(readlink -f "$1")
tmp=$(mktemp -d)
pids=()
trap 'kill "${pids[@]}" 2>/dev/null; wait 2>/dev/null; rm -rf "$tmp"' EXIT
passed=0 failed=0
check() {  # check NAME EXPECTED_EXIT COMMAND...
  local name=$1 want=$2; shift 2
  out=$("$@" 2>&1); rc=$?
  if [ "$rc" = "$want" ]; then passed=$((passed + 1)); echo "ok   $name"
  else failed=$((failed + 1)); echo "FAIL $name (exit $rc, wanted $want)"; echo "$out" | tail -n 15; fi
}
start() {  # start LOG ARGS... -> prints the URL
  local log=$1; shift
  "$bin/file-manager" "$@" >"$log" 2>&1 &
  pids+=($!)
  for _ in $(seq 1 100); do
    url=$(grep -oE 'http://localhost:[0-9]+/mcp' "$log" | head -n1)
    [ -n "$url" ] && { echo "$url"; return 0; }
    sleep 0.1
  done
  cat "$log" >&2; return 1
}

"$bin/mcp-trust" keygen --out "$tmp/key" >"$tmp/keygen.txt" 2>&1 || { cat "$tmp/keygen.txt"; exit 1; }
awk '/^publicKey:/{print $2}' "$tmp/keygen.txt" >"$tmp/key.pub"
"$bin/mcp-trust" keygen --out "$tmp/other" | awk '/^publicKey:/{print $2}' >"$tmp/other.pub"

url=$(start "$tmp/fm.log" --http --port 0 --sign-key "$tmp/key" --grant-admin-after 500ms) || exit 1
card="${url%/mcp}/.well-known/mcp.json"

check "card verifies with the signer's key" 0 "$bin/mcp-trust" card --public-key "$tmp/key.pub" "$url"
check "card proof fails with another key (exit 4)" 4 "$bin/mcp-trust" card --public-key "$tmp/other.pub" "$url"
etag=$(curl -s -D - -o /dev/null "$card" | tr -d '\r' | awk -F': ' 'tolower($1)=="etag"{print $2}')
check "card has a strong ETag and Cache-Control" 0 bash -c "[ -n '$etag' ] && curl -s -D - -o /dev/null '$card' | grep -qi '^cache-control: .*max-age'"
check "matching If-None-Match gets 304" 0 bash -c "[ \"\$(curl -s -o /dev/null -w '%{http_code}' -H 'If-None-Match: $etag' '$card')\" = 304 ]"
check "other If-None-Match gets 200" 0 bash -c "[ \"\$(curl -s -o /dev/null -w '%{http_code}' -H 'If-None-Match: \"sha256:00\"' '$card')\" = 200 ]"
check "strict client over HTTP passes the mid-session grant" 0 \
  "$bin/mcp-trust" client --mode strict --url "$url" -- watch --for 2s
out=$("$bin/mcp-trust" client --mode strict --url "$url" -- watch --for 2s 2>&1)
check "the grant shows admin_delete within the signature" 0 bash -c "echo \"\$0\" | grep -q admin_delete" "$out"

bad=$(start "$tmp/bad.log" --http --port 0 --misbehave=annotation) || exit 1
check "strict client stops a misbehaving HTTP server (exit 4)" 4 \
  "$bin/mcp-trust" client --mode strict --url "$bad" -- watch --for 2s
out=$("$bin/mcp-trust" client --mode permissive --url "$bad" -- watch --for 1s 2>&1)
check "permissive client reports and goes on (exit 0)" 0 bash -c "echo \"\$0\" | grep -qi 'annotation'" "$out"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
