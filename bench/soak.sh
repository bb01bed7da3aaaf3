#!/usr/bin/env bash
# The long soak (io.dedupq.fault.Soak, src/test/java): 2 api pods and 4 worker pods of the
# packaged service on one Redis (AOF), payment and voucher tasks with duplicates over HTTP,
# a worker killed with SIGKILL every 30-60 s, Redis crashed once; then an audit of every
# effect. Writes target/soak/ (report.txt, soak.csv, soak.png, every JVM's log).
#
#   bench/soak.sh        # 1,000,000 tasks over 20 min, dedup window 3 min
#   SOAK_TASKS=20000 SOAK_MINUTES=2 SOAK_DEDUP_WINDOW=30s bench/soak.sh   # a short look
set -euo pipefail
cd "$(dirname "$0")/.."
command -v redis-server >/dev/null || { echo "redis-server not found (apt-get install redis-server)" >&2; exit 1; }
./mvnw -B -q -DskipTests package
./mvnw -B -q dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/soak-classpath.txt >/dev/null
exec java -Dsoak.tasks="${SOAK_TASKS:-1000000}" -Dsoak.minutes="${SOAK_MINUTES:-20}" \
  -Dsoak.workers="${SOAK_WORKERS:-4}" -Dsoak.api-pods="${SOAK_API_PODS:-2}" -Dsoak.dedup-window="${SOAK_DEDUP_WINDOW:-3m}" ${SOAK_SEED:+-Dsoak.seed=$SOAK_SEED} \
  -Djava.util.logging.manager=org.jboss.logmanager.LogManager \
  -cp "target/test-classes:target/classes:$(cat target/soak-classpath.txt)" io.dedupq.fault.Soak
