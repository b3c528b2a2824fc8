#!/usr/bin/env bash
# The join reference of ../shared/bench, in one run: pgbench running the minimal SQL of a desk join,
# then one `npm start` (every core: node:cluster on PostgreSQL + Redis) taking desk joins from wrk at
# the same concurrency, and the ratio of the two. Loopback only; about a minute. Needs wrk, pgbench,
# and the machine's PostgreSQL (127.0.0.1:5432) and Redis (127.0.0.1:6379).
set -euo pipefail
cd "$(dirname "$0")/.."
REF="${REF:-../shared/bench}"
PG="postgres://postgres@127.0.0.1:5432"
CLIENTS="${CLIENTS:-8}"
SECONDS_RUN="${SECONDS_RUN:-15}"
PORT="${PORT:-3981}"
psql -q "$PG/postgres" -c "DROP DATABASE IF EXISTS joinref WITH (FORCE)" -c "CREATE DATABASE joinref"
psql -q "$PG/joinref" -f "$REF/join-schema.sql" -c "INSERT INTO venue SELECT g, 0 FROM generate_series(1, 16) g" >/dev/null
pg_tps=$(pgbench -n -M prepared -c "$CLIENTS" -j 2 -T "$SECONDS_RUN" -D venues=16 -f "$REF/join-tx.sql" "$PG/joinref" 2>/dev/null | sed -n 's/^tps = \([0-9.]*\).*/\1/p' | head -1)
psql -q "$PG/postgres" -c "DROP DATABASE IF EXISTS hb_joinratio WITH (FORCE)" -c "CREATE DATABASE hb_joinratio"
email=bench-owner@example.test; password=bench-owner-password-1
DATABASE_URL="$PG/hb_joinratio" REDIS_URL=redis://127.0.0.1:6379 JOBS_PREFIX=joinratio PORT=$PORT LOG_LEVEL=warn \
  BOOTSTRAP_OWNER_EMAIL=$email BOOTSTRAP_OWNER_PASSWORD=$password env ${API_PROCESSES:+API_PROCESSES=$API_PROCESSES} node dist/apps/api/src/main.js --cores >/tmp/join-ratio-api.log 2>&1 &
api=$!
trap 'kill $api 2>/dev/null || true' EXIT
for _ in $(seq 1 60); do grep -q "api processes\|hostboard is running" /tmp/join-ratio-api.log && break; sleep 1; done
base="http://127.0.0.1:$PORT"
token=$(curl -fsS -H 'content-type: application/json' -d "{\"email\":\"$email\",\"password\":\"$password\"}" "$base/v1/auth/sessions" | node -pe 'JSON.parse(require("fs").readFileSync(0)).token')
venues=""
for i in $(seq 1 16); do
  id=$(curl -fsS -H 'content-type: application/json' -H "authorization: Bearer $token" \
    -d "{\"slug\":\"wrk-$i-$RANDOM\",\"name\":\"Bench $i\",\"timeZone\":\"UTC\",\"preset\":\"restaurant\"}" "$base/v1/venues" | node -pe 'JSON.parse(require("fs").readFileSync(0)).id')
  curl -fsS -o /dev/null -H 'content-type: application/json' -H "authorization: Bearer $token" \
    -d '{"days":[1,2,3,4,5,6,7],"start":"00:00","end":"23:59","turnMinutes":60}' "$base/v1/venues/$id/service-windows"
  curl -fsS -o /dev/null -H 'content-type: application/json' -H "authorization: Bearer $token" -d '{"label":"T1","capacity":4}' "$base/v1/venues/$id/tables"
  venues="$venues${venues:+,}$id"
done
# CPU seconds (user + system) of the api processes and of PostgreSQL, read from /proc around the load.
cpu() { local t=0; for p in $(pgrep -f "$1" || true); do t=$((t + $(awk '{print $14 + $15}' /proc/$p/stat 2>/dev/null || echo 0))); done; echo $t; }
hz=$(getconf CLK_TCK)
api0=$(cpu "dist/apps/api/src/main.js"); pg0=$(cpu "postgres")
out=$(VENUES=$venues TOKEN=$token wrk -t 2 -c "$CLIENTS" -d "${SECONDS_RUN}s" --latency -s "$REF/join-load.lua" "$base")
api1=$(cpu "dist/apps/api/src/main.js"); pg1=$(cpu "postgres")
api_rps=$(echo "$out" | sed -n 's/^Requests\/sec: *\([0-9.]*\).*/\1/p')
non2xx=$(echo "$out" | sed -n 's/.*Non-2xx or 3xx responses: *\([0-9]*\).*/\1/p')
echo "$out" | grep -E "Latency|50%|99%|requests in"
joins=$(echo "$out" | sed -n 's/^ *\([0-9]*\) requests in.*/\1/p')
echo "CPU per join: api $(node -pe "(($api1 - $api0) / $hz * 1000 / $joins).toFixed(2)") ms, PostgreSQL $(node -pe "(($pg1 - $pg0) / $hz * 1000 / $joins).toFixed(2)") ms (all its processes)"
echo "pgbench: ${pg_tps} tps; api: ${api_rps} joins/s (non-2xx: ${non2xx:-0}); ratio $(node -pe "($api_rps / $pg_tps).toFixed(2)"); load average: $(cut -d' ' -f1-3 /proc/loadavg)"
