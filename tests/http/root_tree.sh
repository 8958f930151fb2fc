#!/usr/bin/env bash
# file-manager --root DIR end to end (SEP-2093, issue 11), with the programs a user runs:
# `mcp-trust client ... tree` walks the real directory over stdio and Streamable HTTP, in both
# revisions; `... meta` prints one resource's metadata; nothing outside DIR is listed or read
# (a symlink out, `..`, percent-encoded `..` and `/`); a cycle through a symlink is shown once.
# Usage: root_tree.sh <build/bin>
set -uo pipefail
bin=$(readlink -f "$1")
# shellcheck source=../support/cli_checks.sh
source "$(dirname "$0")/../support/cli_checks.sh"

root="$tmp/root"
mkdir -p "$root/a/sub" "$tmp/outside"
printf 'hello' >"$root/a/b.txt"
printf '# C\n' >"$root/a/sub/c.md"
printf '\000\377\001binary' >"$root/bin.dat"
printf 'odd' >"$root/odd name %#.txt"
printf 'secret' >"$tmp/outside/secret.txt"
ln -s "$tmp/outside" "$root/out"            # points outside: never listed, never read
ln -s "$tmp/outside/secret.txt" "$root/leak.txt"
ln -s .. "$root/a/sub/up"                   # points inside, back up: an endless path a/sub/up/sub/up/...
mkfifo "$root/pipe"                         # neither file nor directory: never listed or opened

fm=("$bin/file-manager" --root "$root")
run "tree over stdio lists the directory" 0 "file:///a/sub/c.md" -- \
  "$bin/mcp-trust" client -- "${fm[@]}" tree file:/// --depth 4
out=$("$bin/mcp-trust" client -- "${fm[@]}" tree file:/// --depth 6 2>&1)
expect "tree shows sizes, kinds and modification times" \
  "$(grep -qE 'file:///a/b.txt +\(subscribable, text/plain, 5 B, modified [0-9-]+T' <<<"$out"; echo $?)" "$out"
expect "an odd name is percent-encoded" "$(grep -q 'file:///odd%20name%20%25%23.txt' <<<"$out"; echo $?)" "$out"
expect "nothing outside the root is listed" "$(! grep -qE 'secret|file:///out|leak|pipe' <<<"$out"; echo $?)" "$out"
expect "the endless path through a/sub/up ends at the depth limit" "$(grep -qE 'met again|stopped at' <<<"$out"; echo $?)" "$out"
json=$("$bin/mcp-trust" client --json -- "${fm[@]}" tree file:/// --depth 1 2>/dev/null)
expect "tree --json says how many, one event per resource" \
  "$(grep -q '"event":"tree"' <<<"$json" && [ "$(grep -c '"event":"resource"' <<<"$json")" -ge 4 ]; echo $?)" "$json"

run "meta prints a file's metadata" 0 '"size": 5' -- "$bin/mcp-trust" client -- "${fm[@]}" meta file:///a/b.txt
run "meta of a directory says it is listable" 0 '"list": true' -- "$bin/mcp-trust" client -- "${fm[@]}" meta file:///a/
run "a binary file is described as such" 0 'application/octet-stream' -- \
  "$bin/mcp-trust" client -- "${fm[@]}" meta file:///bin.dat
for escape in 'file:///out/secret.txt' 'file:///leak.txt' 'file:///a/../../outside/secret.txt' \
              'file:///%2e%2e/outside/secret.txt' 'file:///a%2F..%2F..%2Foutside%2Fsecret.txt'; do
  out=$("$bin/mcp-trust" client -- "${fm[@]}" meta "$escape" 2>&1)
  rc=$?
  expect "refused: $escape" "$([ "$rc" = 1 ] && ! grep -q secret.txt\" <<<"$out" && ! grep -q '"size": 6' <<<"$out"; echo $?)" "$out"
done
run "the tree of a file is the file alone" 0 "^1 resources" -- "$bin/mcp-trust" client -- "${fm[@]}" tree file:///a/b.txt --depth 1
run "a missing directory is a clear error" 1 "not found" -- "$bin/mcp-trust" client -- "${fm[@]}" meta file:///nope/

start url "$tmp/fm-http.log" --root "$root" --http --port 0
for protocol in 2026-07-28 2025-11-25; do
  run "tree over HTTP ($protocol)" 0 "file:///a/sub/c.md" -- \
    "$bin/mcp-trust" client --url "$url" --protocol "$protocol" -- tree --depth 3
  run "meta over HTTP ($protocol)" 0 '"lastModified"' -- \
    "$bin/mcp-trust" client --url "$url" --protocol "$protocol" -- meta file:///a/sub/c.md
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
