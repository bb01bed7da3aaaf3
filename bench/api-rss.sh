#!/usr/bin/env bash
# Issue 17's flat-memory check of the API pod: one API pod of bench/app (worker off) on a private
# redis-server, POST /api/tasks with fresh ids from wrk for MINUTES, its RSS sampled every 5 s from
# /proc, then drawn with gnuplot. Writes target/api-rss/ (rss.csv, rss.png, wrk.txt, logs).
#
#   bench/api-rss.sh                          # 10 min at 64 connections
#   MINUTES=2 bench/api-rss.sh                # a short look
#
# The pod runs with the image's JVM options inside the pods' 512 MiB memory limit
# (bench/pod-jvm-opts.sh; STARTUP_CACHE=1 with a JDK 25 java first on PATH adds the image's AOT
# cache, trained for the copy of the application in target/api-rss/app). Nothing
# consumes the tasks, so Redis is emptied (FLUSHALL ASYNC) every 20 s to keep its memory bounded;
# the API pod does not notice.
set -euo pipefail
cd "$(dirname "$0")/.."
MINUTES=${MINUTES:-10}
CONNECTIONS=${CONNECTIONS:-64}
for tool in wrk gnuplot redis-server redis-cli curl; do
  command -v $tool >/dev/null || { echo "$tool not found (apt-get install wrk gnuplot-nox redis-server redis-tools curl)" >&2; exit 1; }
done
JAR=target/it/bench/app/target/quarkus-app/quarkus-run.jar
if [ "${SKIP_BUILD:-0}" != 1 ] || [ ! -f $JAR ]; then
  # the invoker builds bench/app against the jar just packaged (see pom.xml); no test runs
  ./mvnw -B -q -DskipTests -DskipITs -Dinvoker.test=bench/app/pom.xml verify
fi
OUT=target/api-rss
rm -rf $OUT && mkdir -p $OUT
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
REDIS_PORT=$(free_port)
HTTP_PORT=$(free_port)
redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --save '' --appendonly no > $OUT/redis.log 2>&1 &
REDIS_PID=$!
cp -r "$(dirname $JAR)" $OUT/app
JVM_OPTS=$(bench/pod-jvm-opts.sh $OUT/app)
REDIS_URL=redis://127.0.0.1:$REDIS_PORT java $JVM_OPTS \
  -Dquarkus.http.port="$HTTP_PORT" -Ddedupq.worker.enabled=false -jar $OUT/app/quarkus-run.jar > $OUT/api.log 2>&1 &
API_PID=$!
trap 'kill $API_PID $REDIS_PID 2>/dev/null || true' EXIT
until curl -fs -o /dev/null "http://127.0.0.1:$HTTP_PORT/q/health/ready"; do
  kill -0 $API_PID 2>/dev/null || { cat $OUT/api.log >&2; exit 1; }
  sleep 0.2
done

echo "seconds,rss_mib" > $OUT/rss.csv
started=$(date +%s.%N)
sample() {
  awk -v now="$(date +%s.%N)" -v t0="$started" '/^VmRSS:/ { printf "%.1f,%.1f\n", now - t0, $2 / 1024 }' \
    /proc/$API_PID/status >> $OUT/rss.csv
}
(
  n=0
  while kill -0 $API_PID 2>/dev/null; do
    sample
    n=$((n + 1))
    [ $((n % 4)) -ne 0 ] || redis-cli -p "$REDIS_PORT" FLUSHALL ASYNC > /dev/null
    sleep 5
  done
) &
SAMPLER_PID=$!
wrk -t2 -c"$CONNECTIONS" -d"${MINUTES}m" --latency -s bench/wrk/enqueue.lua "http://127.0.0.1:$HTTP_PORT" \
  -- "$(date +%s)" 1 > $OUT/wrk.txt
sample
kill $SAMPLER_PID 2>/dev/null || true
cat $OUT/wrk.txt

gnuplot <<EOF
set terminal png size 1000,500
set output "$OUT/rss.png"
set datafile separator ","
set title "dedupq API pod under wrk: POST /api/tasks, $CONNECTIONS connections, $MINUTES min (512 MiB limit, worker off, $(java -version 2>&1 | head -1 | tr -d '"' | cut -d' ' -f1-3))"
set xlabel "seconds"
set ylabel "RSS, MiB"
set yrange [0:*]
set grid
plot "$OUT/rss.csv" every ::1 using 1:2 with lines lw 2 title "RSS of the API pod"
EOF
echo "RSS samples in $OUT/rss.csv, chart in $OUT/rss.png"
