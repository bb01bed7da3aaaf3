#!/usr/bin/env bash
# Issue 17's flat-memory check of a pod under sustained load: one pod of bench/app on a private
# redis-server for MINUTES, its RSS sampled every 5 s from /proc, then drawn with gnuplot.
# Writes target/pod-rss/ (rss.csv, rss.png, load.txt, logs).
#
#   bench/pod-rss.sh                     # the API pod (worker off), POST /api/tasks with fresh ids from wrk, 10 min
#   ROLE=worker bench/pod-rss.sh         # a worker pod (API off) taking LPUSHed tasks at RATE a second
#   MINUTES=2 bench/pod-rss.sh           # a short look
#
# Knobs: ROLE=api|worker MINUTES=10 CONNECTIONS=64 (api) RATE=5000 CONCURRENCY=16 (worker).
# The pod runs with the image's JVM options inside the pods' 512 MiB memory limit
# (bench/pod-jvm-opts.sh; STARTUP_CACHE=1 with a JDK 25 java first on PATH adds the image's AOT
# cache, trained for the copy of the application in target/pod-rss/app). Redis's memory stays
# bounded: for the API pod nothing consumes the tasks, so Redis is emptied (FLUSHALL ASYNC) every
# 20 s, which the pod does not notice; the worker's queue keeps results 2 s and ids 20 s.
set -euo pipefail
cd "$(dirname "$0")/.."
ROLE=${ROLE:-api}
MINUTES=${MINUTES:-10}
CONNECTIONS=${CONNECTIONS:-64}
RATE=${RATE:-5000}
CONCURRENCY=${CONCURRENCY:-16}
case $ROLE in api | worker) ;; *) echo "ROLE must be api or worker" >&2; exit 1 ;; esac
for tool in wrk gnuplot redis-server redis-cli curl python3; do
  command -v $tool >/dev/null || { echo "$tool not found (apt-get install wrk gnuplot-nox redis-server redis-tools curl python3)" >&2; exit 1; }
done
JAR=target/it/bench/app/target/quarkus-app/quarkus-run.jar
if [ "${SKIP_BUILD:-0}" != 1 ] || [ ! -f $JAR ]; then
  # the invoker builds bench/app against the jar just packaged (see pom.xml); no test runs
  ./mvnw -B -q -DskipTests -DskipITs -Dinvoker.test=bench/app/pom.xml verify
fi
OUT=target/pod-rss
rm -rf $OUT && mkdir -p $OUT
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
REDIS_PORT=$(free_port)
HTTP_PORT=$(free_port)
redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --save '' --appendonly no > $OUT/redis.log 2>&1 &
REDIS_PID=$!
cp -r "$(dirname $JAR)" $OUT/app
JVM_OPTS=$(bench/pod-jvm-opts.sh $OUT/app)
if [ "$ROLE" = api ]; then
  ROLE_PROPS="-Ddedupq.worker.enabled=false"
else
  ROLE_PROPS="-Ddedupq.api.enabled=false -Ddedupq.worker.id=pod-rss -Ddedupq.queues.noop.concurrency=$CONCURRENCY
    -Ddedupq.queues.noop.result-retention=2s -Ddedupq.queues.noop.dedup-window=20s"
fi
# shellcheck disable=SC2086 # option lists
REDIS_URL=redis://127.0.0.1:$REDIS_PORT java $JVM_OPTS -Dquarkus.http.port="$HTTP_PORT" $ROLE_PROPS \
  -jar $OUT/app/quarkus-run.jar > $OUT/$ROLE.log 2>&1 &
POD_PID=$!
trap 'kill $POD_PID $REDIS_PID 2>/dev/null || true' EXIT
until curl -fs -o /dev/null "http://127.0.0.1:$HTTP_PORT/q/health/ready"; do
  kill -0 $POD_PID 2>/dev/null || { cat $OUT/$ROLE.log >&2; exit 1; }
  sleep 0.2
done

echo "seconds,rss_mib" > $OUT/rss.csv
started=$(date +%s.%N)
sample() {
  awk -v now="$(date +%s.%N)" -v t0="$started" '/^VmRSS:/ { printf "%.1f,%.1f\n", now - t0, $2 / 1024 }' \
    /proc/$POD_PID/status >> $OUT/rss.csv
}
(
  n=0
  while kill -0 $POD_PID 2>/dev/null; do
    sample
    n=$((n + 1))
    [ "$ROLE" = worker ] || [ $((n % 4)) -ne 0 ] || redis-cli -p "$REDIS_PORT" FLUSHALL ASYNC > /dev/null
    sleep 5
  done
) &
SAMPLER_PID=$!
if [ "$ROLE" = api ]; then
  LOAD="POST /api/tasks, $CONNECTIONS connections"
  wrk -t2 -c"$CONNECTIONS" -d"${MINUTES}m" --latency -s bench/wrk/enqueue.lua "http://127.0.0.1:$HTTP_PORT" \
    -- "$(date +%s)" 1 > $OUT/load.txt
else
  LOAD="$RATE LPUSHed tasks a second, concurrency $CONCURRENCY"
  python3 bench/lpush_load.py "$REDIS_PORT" $((MINUTES * 60)) "$RATE" > $OUT/load.txt
  echo "left in pending: $(redis-cli -p "$REDIS_PORT" LLEN '{dedupq:noop}:pending')" >> $OUT/load.txt
  echo "outcomes logged: $(grep -c 'outcome=' $OUT/$ROLE.log)" >> $OUT/load.txt
fi
sample
kill $SAMPLER_PID 2>/dev/null || true
cat $OUT/load.txt

gnuplot <<PLOT
set terminal png size 1000,500
set output "$OUT/rss.png"
set datafile separator ","
set title "dedupq $ROLE pod: $LOAD, $MINUTES min (512 MiB limit, $(java -version 2>&1 | head -1 | tr -d '"' | cut -d' ' -f1-3))"
set xlabel "seconds"
set ylabel "RSS, MiB"
set yrange [0:*]
set grid
plot "$OUT/rss.csv" every ::1 using 1:2 with lines lw 2 title "RSS of the $ROLE pod"
PLOT
echo "RSS samples in $OUT/rss.csv, chart in $OUT/rss.png"
