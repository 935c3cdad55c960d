#!/usr/bin/env bash
# Brings a redis-server with hash-field expiration (Redis 8.0, Debian trixie's redis-tools) into
# .cache/redis-8/ for tests/lua-lint/hash-fields-redis.test.ts, without building anything and
# without changing the machine's packages: apt-get download with a private package list, and
# trixie's C library next to it (the binary needs glibc 2.38; bookworm has 2.36). Prints the path
# of the redis-server wrapper. Needs Debian's package mirror; run as root (CI) or with sudo.
set -euo pipefail
cd "$(dirname "$0")/.."
dir="$PWD/.cache/redis-8"
if [ -x "$dir/redis-server" ] && "$dir/redis-server" --version >/dev/null 2>&1; then echo "$dir/redis-server"; exit 0; fi
mkdir -p "$dir/apt/lists/partial" "$dir/apt/cache/archives/partial" "$dir/debs" "$dir/root"
echo 'deb http://deb.debian.org/debian trixie main' > "$dir/apt/sources.list"
opts=(-o "Dir::Etc::sourcelist=$dir/apt/sources.list" -o Dir::Etc::sourceparts=- -o "Dir::State::Lists=$dir/apt/lists" -o "Dir::Cache=$dir/apt/cache" -o APT::Sandbox::User=root)
apt-get "${opts[@]}" update -qq >/dev/null
(cd "$dir/debs" && apt-get "${opts[@]}" download -qq redis-tools libc6 libstdc++6 libgcc-s1 >/dev/null)
for deb in "$dir"/debs/*.deb; do dpkg-deb -x "$deb" "$dir/root"; done
lib="$dir/root/usr/lib/x86_64-linux-gnu"
cat > "$dir/redis-server" <<WRAPPER
#!/bin/sh
exec "$lib/ld-linux-x86-64.so.2" --library-path "$lib:/lib/x86_64-linux-gnu:/usr/lib/x86_64-linux-gnu" --argv0 redis-server "$dir/root/usr/bin/redis-check-rdb" "\$@"
WRAPPER
chmod +x "$dir/redis-server"
"$dir/redis-server" --version >/dev/null
echo "$dir/redis-server"
