#!/usr/bin/env bash
# The capability signature over HTTP, end to end with the programs a user runs:
# file-manager --http serves its card; `mcp-trust card` fetches and verifies it; the card has a
# strong ETag and a Cache-Control max-age, and answers 304 to a matching If-None-Match;
# `mcp-trust client --url` holds the server to the card's signature in strict mode, passes the
# mid-session admin grant, and stops a misbehaving server (exit 4); server profiles are served,
# listed by `mcp-trust profiles`, and the signed and read-only profiles verified by the client.
# Every check looks at both the exit status and, where it says so, the output.
# Usage: card_http.sh <build/bin>
set -uo pipefail
bin=$(readlink -f "$1")
# shellcheck source=../support/cli_checks.sh
source "$(dirname "$0")/../support/cli_checks.sh"

"$bin/mcp-trust" keygen --out "$tmp/key" >"$tmp/keygen.txt" 2>&1 || { cat "$tmp/keygen.txt"; exit 1; }
awk '/^publicKey:/{print $2}' "$tmp/keygen.txt" >"$tmp/key.pub"
"$bin/mcp-trust" keygen --out "$tmp/other" >"$tmp/other.txt" 2>&1 || { cat "$tmp/other.txt"; exit 1; }
awk '/^publicKey:/{print $2}' "$tmp/other.txt" >"$tmp/other.pub"
[ -s "$tmp/key.pub" ] && [ -s "$tmp/other.pub" ] || { echo "keygen printed no publicKey line"; exit 1; }

start url "$tmp/fm.log" --http --port 0 --sign-key "$tmp/key" --grant-admin-after 500ms
card="${url%/mcp}/.well-known/mcp.json"

run "card verifies with the signer's key" 0 "valid" -- "$bin/mcp-trust" card --public-key "$tmp/key.pub" "$url"
run "card proof fails with another key (exit 4)" 4 -- "$bin/mcp-trust" card --public-key "$tmp/other.pub" "$url"
# A trust store's key is in service between notBefore and notAfter: judged at --now, else now.
printf '{"keys":[{"publicKey":"%s","notBefore":1000000000000,"notAfter":1100000000000}]}' "$(cat "$tmp/key.pub")" >"$tmp/store.json"
run "card verifies with a trust store at a --now within the key's time" 0 "valid" -- \
  "$bin/mcp-trust" card --trust-store "$tmp/store.json" --now 1050000000000 "$url"
run "card's key expired at a later --now (exit 4)" 4 "expired" -- \
  "$bin/mcp-trust" card --trust-store "$tmp/store.json" --now 1200000000000 "$url"
run "card's key expired by the system clock without --now (exit 4)" 4 "expired" -- \
  "$bin/mcp-trust" card --trust-store "$tmp/store.json" "$url"
run "--now needs --trust-store (exit 2)" 2 -- "$bin/mcp-trust" card --public-key "$tmp/key.pub" --now 1 "$url"

headers=$(curl -sS -D - -o /dev/null "$card" | tr -d '\r')
status=$(awk 'NR==1{print $2}' <<<"$headers")
etag=$(awk -F': ' 'tolower($1)=="etag"{print $2}' <<<"$headers")
cache=$(awk -F': ' 'tolower($1)=="cache-control"{print $2}' <<<"$headers")
expect "card is served (200)" "$([ "$status" = 200 ]; echo $?)" "$headers"
# Strong: a quoted opaque string, not W/"..." (RFC 9110 §8.8.3).
expect "card has a strong ETag" "$([[ $etag =~ ^\"[^\"]+\"$ ]]; echo $?)" "ETag: '$etag'"
expect "card has Cache-Control with max-age" "$([[ $cache =~ max-age=[0-9]+ ]]; echo $?)" "Cache-Control: '$cache'"
code=$(curl -sS -o /dev/null -w '%{http_code}' -H "If-None-Match: $etag" "$card")
expect "matching If-None-Match gets 304" "$([ "$code" = 304 ]; echo $?)" "got $code"
code=$(curl -sS -o /dev/null -w '%{http_code}' -H 'If-None-Match: "sha256:00"' "$card")
expect "other If-None-Match gets 200" "$([ "$code" = 200 ]; echo $?)" "got $code"

run "strict client over HTTP passes the mid-session grant, showing admin_delete" 0 "admin_delete" -- \
  "$bin/mcp-trust" client --mode strict --url "$url" -- watch --for 2s

start bad "$tmp/bad.log" --http --port 0 --misbehave=annotation
run "strict client stops a misbehaving HTTP server (exit 4)" 4 "annotation" -- \
  "$bin/mcp-trust" client --mode strict --url "$bad" -- watch --for 2s
run "permissive client reports the violation and goes on (exit 0)" 0 "annotation" -- \
  "$bin/mcp-trust" client --mode permissive --url "$bad" -- watch --for 1s

# Server profiles (docs/wire/profiles.md): the well-known document, and the profiles mcp-trust
# publishes verified by the client before it uses the server.
cat >"$tmp/profiles.json" <<'JSON'
[{"profileURL": "https://mcp-trust.dev/profiles/signed/1.0", "default": true, "minMcpVersion": "2025-11-25"},
 {"profileURL": "https://mcp-trust.dev/profiles/read-only/1.0", "default": false, "minMcpVersion": "2025-11-25"}]
JSON
start prof "$tmp/prof.log" --http --port 0 --sign-key "$tmp/key" --profiles "$tmp/profiles.json"
run "mcp-trust profiles lists the server's profiles, default first" 0 "signed/1.0 .*default" -- \
  "$bin/mcp-trust" profiles "$prof"
code=$(curl -sS -o /dev/null -w '%{http_code}' "${prof%/mcp}/.well-known/mcp-profiles")
expect "the profiles document is served (200)" "$([ "$code" = 200 ]; echo $?)" "got $code"
signed=https://mcp-trust.dev/profiles/signed/1.0
for protocol in 2026-07-28 2025-11-25; do
  run "signed profile granted when card and manifest verify ($protocol)" 0 "\"profile\": \"$signed\"" -- \
    "$bin/mcp-trust" client --json --protocol "$protocol" --url "$prof" --profile "$signed" \
    --card-key "$tmp/key.pub" --manifest-key "$tmp/key.pub" -- tools
done
run "signed profile refused without a verified card" 1 "verified proof" -- \
  "$bin/mcp-trust" client --url "$prof" --profile "$signed" --manifest-key "$tmp/key.pub" -- tools
run "a card proof that fails stops the client (exit 4)" 4 "does not verify" -- \
  "$bin/mcp-trust" client --url "$prof" --profile "$signed" --card-key "$tmp/other.pub" --manifest-key "$tmp/key.pub" -- tools
run "read-only profile refused: file-manager writes and deletes" 1 "readOnlyHint" -- \
  "$bin/mcp-trust" client --url "$prof" --profile https://mcp-trust.dev/profiles/read-only/1.0 -- tools
run "a profile the server does not implement is refused" 1 "none of the requested profiles|supportedProfiles|implements none" -- \
  "$bin/mcp-trust" client --url "$prof" --profile https://example.com/profiles/other/1.0 -- tools

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
