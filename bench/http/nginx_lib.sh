# Sourced by bench/http/run.sh and bench/gateway/http_front.sh: finds nginx, installing Debian's
# nginx-light if there is none (needs root). Uses the caller's $tmp (a scratch folder) and
# $policy_to_remove (which the caller's EXIT trap removes if set, in case of an interrupt while
# installing).

ensure_nginx() {  # sets nginx_bin; installs nginx-light when no nginx is found
  nginx_bin=$(command -v nginx || echo /usr/sbin/nginx)
  [ -x "$nginx_bin" ] && return
  echo "nginx not found: installing Debian's nginx-light" >&2
  # The package's postinst would start a system nginx on port 80 (and take CPU during the runs).
  # invoke-rc.d and deb-systemd-invoke ask /usr/sbin/policy-rc.d first; exit 101 means "action
  # forbidden". Docker images ship one already: keep it, and only remove one we wrote ourselves.
  local policy=/usr/sbin/policy-rc.d rc=0
  if [ ! -e "$policy" ]; then
    policy_to_remove=$policy
    printf '#!/bin/sh\n# written by bench/http/run.sh while it installs nginx-light\nexit 101\n' >"$policy"
    chmod 755 "$policy"
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y --no-install-recommends nginx-light >"$tmp/apt.log" 2>&1 \
    || { apt-get update >>"$tmp/apt.log" 2>&1 && apt-get install -y --no-install-recommends nginx-light >>"$tmp/apt.log" 2>&1; } \
    || rc=$?
  if [ -n "$policy_to_remove" ]; then rm -f "$policy_to_remove"; policy_to_remove=""; fi
  [ "$rc" = 0 ] || { cat "$tmp/apt.log" >&2; echo "could not install nginx-light" >&2; exit 1; }
  # Under systemd the package also enables nginx.service for the next boot: undo that, since this
  # machine never asked for a web server on port 80.
  if [ -d /run/systemd/system ] && command -v systemctl >/dev/null; then
    systemctl disable --quiet nginx 2>/dev/null || true
  fi
  nginx_bin=$(command -v nginx || echo /usr/sbin/nginx)
  [ -x "$nginx_bin" ] || { echo "nginx-light installed but no nginx binary found" >&2; exit 1; }
}

# free_port: a TCP port below the ephemeral range (where wrk's and curl's client ports come from)
# that nothing listens on now. nginx cannot listen on port 0: start_nginx_from retries if another
# process takes the port meanwhile.
free_port() {
  local port
  for _ in $(seq 1 50); do
    port=$((20000 + RANDOM % 12000))
    [ -z "$(ss -Hltn "sport = :$port")" ] && { echo "$port"; return; }
  done
  echo "no free port found" >&2; return 1
}

# start_nginx_from TEMPLATE PREFIX NAME READY -> prints the port of an nginx that is ready.
# Fills TEMPLATE's @NAME@ fields from the environment (the caller exports its own; PREFIX and PORT
# are set here) into PREFIX/nginx.conf and starts nginx from it in the foreground of a background
# job, its pid in $tmp/NAME.pid (for the caller's EXIT trap) and its output in $tmp/NAME.log. Ready
# once `READY PORT` succeeds (READY must print nothing). On another port if the one chosen was
# taken meanwhile; exits, showing the configuration and logs, if nginx stops or never gets ready.
start_nginx_from() {
  local template=$1 prefix=$2 name=$3 ready=$4 port
  mkdir -p "$prefix"
  for _ in 1 2 3 4 5; do
    port=$(free_port)
    PREFIX=$prefix PORT=$port perl -pe 's/\@([A-Z_]+)\@/$ENV{$1}/g' "$template" >"$prefix/nginx.conf"
    "$nginx_bin" -p "$prefix/" -c "$prefix/nginx.conf" -e "$prefix/error.log" >"$tmp/$name.log" 2>&1 &
    echo $! >"$tmp/$name.pid"
    for _ in $(seq 1 50); do
      if "$ready" "$port"; then echo "$port"; return; fi
      kill -0 "$(cat "$tmp/$name.pid")" 2>/dev/null || break  # exited: port taken or bad conf
      sleep 0.1
    done
    kill "$(cat "$tmp/$name.pid")" 2>/dev/null || true; wait "$(cat "$tmp/$name.pid")" 2>/dev/null || true
    grep -q 'Address already in use' "$prefix/error.log" "$tmp/$name.log" 2>/dev/null && continue
    cat "$prefix/nginx.conf" "$prefix/error.log" "$tmp/$name.log" >&2 2>/dev/null
    echo "nginx ($name) did not start or did not answer as expected" >&2; exit 1
  done
  echo "no free port found for nginx ($name)" >&2; exit 1
}
