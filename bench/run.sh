#!/usr/bin/env bash
# The dedupq benchmark, one command: builds the framework jar and the measured application
# (bench/app, a consumer of the jar with a no-op handler, its dedup-off build and, for the sql
# section, its sql build with a handler writing a PostgreSQL row per task), then runs
# io.dedupq.bench.Benchmark (src/test/java/io/dedupq/bench), which starts a private redis-server
# (no persistence), JVMs of bench/app, the BullMQ peer benchmark against the same Redis, wrk and
# redis-benchmark, and writes the report into docs/benchmarks.md (between its markers) and
# target/bench/run-<time>/ (report.md, results.jsonl, logs/).
#
#   bench/run.sh                                  # full default run (9 min on a quiet 2-core host)
#   REPEATS=3 WAIT_IDLE_PCT=90 bench/run.sh       # quieter numbers on a shared host
#   SECTIONS="matrix" CONCURRENCIES="16" JOBS=5000 bench/run.sh   # a quick look
#
# Knobs (environment): JOBS=50000 DUP_RATIO=0.2 SEED=42 WARMUP=200000 LAT_PROBES=200 REPEATS=1
# CONCURRENCIES="1 16 64" SECTIONS="matrix overlap dedupoff controls sql scaling wrk startup ceiling memory"
#   (and "replicas", not in the default: a worker with dedupq.durability.replicas 0 and 1 beside a replica of
#   the bench's Redis; REPEATS=3 gives three alternating pairs)
# BULLMQ_VARIANTS="dedup-option dedup-jobid" (add "plain" for BullMQ without dedup)
# HANDLERS="loop threads" (the no-op handler on the event loop and/or on handler threads)
# WAIT_IDLE_PCT=0 WAIT_IDLE_MAX_S=60 (before each cell wait until the host is that idle)
# WRK_SECONDS=10 WRK_WARMUP_SECONDS=20 WRK_CELLS="1@64 100@64 1000@8" (tasks per request@connections) TIMEOUT_S=300 SKIP_BUILD=0 DOC=docs/benchmarks.md
# BULLMQ_SRC=../shared/bench/peers/bullmq (the peer; copied to target/bench/bullmq, npm ci there)
# MEMORY_TASKS=100000 (the memory section: Redis memory per finished task, dedupq within its result
#   retention and after it, BullMQ per completed job; bench/peer/memory.mjs)
# BENCH_APP_PROPS="k=v,k=v" (extra system properties for every dedupq JVM)
# BENCH_JVM_OPTS="..." (options of every dedupq JVM; by default those of the image inside the pods' memory
#   limit, see bench/pod-jvm-opts.sh)
# STARTUP_STARTS=5 (the startup section: idle workers started one after another, their medians reported)
# STARTUP_CACHE=1 (the measured pods with the image's JDK 25 AOT cache; docs/operations.md "Start-up cache")
# NATIVE_RUNNER=path (the measured pods run that native executable of the app instead of its
#   JVM; see docs/native.md for building one on this machine)
set -euo pipefail
cd "$(dirname "$0")/.."

command -v redis-server >/dev/null || { echo "redis-server not found (apt-get install redis-server)" >&2; exit 1; }
command -v redis-benchmark >/dev/null || echo "redis-benchmark not found: no Redis ceiling (apt-get install redis-tools)" >&2
command -v wrk >/dev/null || echo "wrk not found: no HTTP numbers (apt-get install wrk)" >&2

mkdir -p target/bench
APP=target/it/bench/app/target
# bench/app's variant built with Maven profile $1 (dedup-off, sql) in the invoker's copy, against the
# framework jar it installed (the rest from the user's repository), into $APP/$1
build_variant() {
  ./mvnw -B -q -f target/it/bench/app/pom.xml -P"$1" -DskipTests package -Dmaven.repo.local=target/local-repo \
    -Dmaven.repo.local.tail="$(./mvnw -B -q help:evaluate -Dexpression=settings.localRepository -DforceStdout)"
}
SECTIONS=${SECTIONS:-matrix overlap dedupoff controls sql scaling wrk startup ceiling memory}
export SECTIONS
# a build of bench/app with a Maven profile, for the section that runs it; SKIP_BUILD=1 keeps one already built
section_build() {
  [[ " $SECTIONS " == *" $1 "* ]] || return 0
  if [ "${SKIP_BUILD:-0}" != 1 ] || [ ! -f $APP/$2/quarkus-app/quarkus-run.jar ]; then
    echo "building bench/app's $2 build ..." >&2
    build_variant $2
  fi
}
if [ "${SKIP_BUILD:-0}" != 1 ] || [ ! -f $APP/quarkus-app/quarkus-run.jar ]; then
  echo "building the framework jar, bench/app and the load generator ..." >&2
  # the invoker builds bench/app against the jar just packaged (see pom.xml); no test runs
  ./mvnw -B -q -DskipTests -DskipITs -Dinvoker.test=bench/app/pom.xml verify
fi
section_build dedupoff dedup-off
if [[ " $SECTIONS " == *" sql "* ]]; then
  [ -x /usr/lib/postgresql/15/bin/initdb ] || { echo "the sql section needs PostgreSQL 15 (apt-get install postgresql-15)" >&2; exit 1; }
fi
section_build sql sql
./mvnw -B -q dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/bench/classpath.txt >/dev/null

# the BullMQ peer: run where it is, from a copy of ours (never written into the shared folder)
BULLMQ_SRC=${BULLMQ_SRC:-../shared/bench/peers/bullmq}
PEER=target/bench/bullmq
if [ -f "$BULLMQ_SRC/bench.mjs" ] && command -v npm >/dev/null; then
  if [ ! -d "$PEER/node_modules/bullmq" ]; then
    rm -rf "$PEER" && mkdir -p "$PEER"
    (cd "$BULLMQ_SRC" && tar --exclude=node_modules --exclude=results -cf - .) | (cd "$PEER" && tar -xf -)
    chmod -R u+w "$PEER"
    (cd "$PEER" && npm ci --no-audit --no-fund --loglevel=error) >&2 || echo "npm ci failed: BullMQ is left out" >&2
  fi
  # our add/addBulk rate and memory drivers run from the peer's copy, where node resolves bullmq
  cp bench/peer/add.mjs bench/peer/memory.mjs "$PEER/"
  export BULLMQ_DIR=$PWD/$PEER
else
  echo "BullMQ peer not found at $BULLMQ_SRC (or no npm): BullMQ is left out" >&2
fi

# run from a snapshot, so that a build during the run cannot change what is measured
SNAP=target/bench/snapshot-$$
rm -rf target/bench/snapshot-*
mkdir -p "$SNAP/app/dedup-off" "$SNAP/app/sql"
cp -r $APP/quarkus-app "$SNAP/app/quarkus-app"
[ ! -d $APP/dedup-off/quarkus-app ] || cp -r $APP/dedup-off/quarkus-app "$SNAP/app/dedup-off/quarkus-app"
[ ! -d $APP/sql/quarkus-app ] || cp -r $APP/sql/quarkus-app "$SNAP/app/sql/quarkus-app"
cp -r target/classes "$SNAP/classes"
cp -r target/test-classes "$SNAP/test-classes"
export JAR=$SNAP/app/quarkus-app/quarkus-run.jar
if [ -n "${NATIVE_RUNNER:-}" ]; then
  cp "$NATIVE_RUNNER" "$SNAP/dedupq-runner"
  export JAR=$SNAP/dedupq-runner
fi
# the pods' JVM options (bench/pod-jvm-opts.sh: the image's, in the pods' memory limit). STARTUP_CACHE=1:
# the measured pods map an AOT cache that the image's training step makes for this snapshot (JDK 25,
# the image's default JVM)
BENCH_JVM_OPTS=$(bench/pod-jvm-opts.sh "$SNAP/app/quarkus-app")
export BENCH_JVM_OPTS
export DOC=${DOC:-docs/benchmarks.md}
exec java -Djava.util.logging.manager=org.jboss.logmanager.LogManager \
  -cp "$SNAP/test-classes:$SNAP/classes:$(cat target/bench/classpath.txt)" io.dedupq.bench.Benchmark
