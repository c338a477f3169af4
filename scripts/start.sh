#!/bin/sh
# `npm start`: the warm path starts no Node process of its own (each costs ~50 ms before the server can begin).
# Dependencies: the same files scripts/ensure-deps.mjs looks for; only when one is missing does it run (and install).
for f in node_modules/hono/package.json node_modules/drizzle-orm/package.json node_modules/bun/package.json; do
  [ -f "$f" ] || { node scripts/ensure-deps.mjs || exit 1; break; }
done
# Node version: npm names the Node it runs on in npm_config_user_agent ("npm/10.8.2 node/v20.20.2 linux x64 ..."),
# so the warning needs no Node start (~100 ms): the dependencies (the `ai` packages) declare Node >= 22, while the
# service itself runs on Bun, so an older Node still works; say so clearly rather than refuse (docs/decisions.md).
case "$npm_config_user_agent" in
*" node/v"[0-9].* | *" node/v1"[0-9].* | *" node/v2"[01].*)
  v=${npm_config_user_agent#* node/}
  v=${v%% *}
  echo "[start] WARNING: Node $v is older than Node 22, which the dependencies require (package.json \"engines\"). The service runs on Bun and starts anyway, but npm may warn (EBADENGINE) and a future release will refuse. Install Node 22 or later." >&2
  ;;
esac
# Process settings the allocator reads at start (scripts/runtime.env); a value the caller set is kept.
# Lines whose key is not a plain name (comments, blank lines, `KEY = 1`) are skipped, as scripts/runtime-env.ts does;
# the `|| [ -n "$key" ]` keeps a last line that has no newline.
while IFS='=' read -r key value || [ -n "$key" ]; do
  case "$key" in '' | [0-9]* | *[!A-Za-z0-9_]*) continue ;; esac
  eval "[ -n \"\${$key+set}\" ]" || export "$key=$value"
done <"${0%/*}/runtime.env" # no dirname: each external command costs the start a fork
exec bun app/http/serve.ts
