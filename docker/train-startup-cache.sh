#!/bin/sh
# Image build step (docker/Dockerfile.jvm, build argument STARTUP_CACHE=true): one training start
# of the application writes a start-up cache for this image's JVM, and startup-cache.args names
# it for the entry point (empty without a cache). JDK 24 and later: an AOT cache (JEP 483/515);
# JDK 17: an AppCDS archive. Either must be made by the very JVM that reads it, hence here and
# not at `mvn package`. See docs/operations.md "Start-up cache".
#
# The cache holds only classes of the JVM's own class loaders: those of the aot-jar layout
# (quarkus.package.jar.type=aot-jar, the service's packaging), not those of the fast-jar's loader.
# The jar is started by its absolute path, which the cache records: a pod that starts it from its
# directory by its plain name matches it, and so does one started from elsewhere by that path.
set -eu
port=${TRAINING_PORT:-8080}
: > startup-cache.args
[ "${1:-false}" = true ] || exit 0
if java -XX:AOTMode=off -version >/dev/null 2>&1; then
  record=-XX:AOTCacheOutput=app.aot use=-XX:AOTCache=app.aot cache=app.aot
else
  record=-XX:ArchiveClassesAtExit=app-cds.jsa use=-XX:SharedArchiveFile=app-cds.jsa cache=app-cds.jsa
fi
# a full start of both roles: no Redis listens here (a pod starts without it and retries), and
# security is off for this run only (there is no key at build time); SIGTERM ends it, and the
# JVM writes the cache as it exits
REDIS_URL=redis://127.0.0.1:1 DEDUPQ_SECURITY_ENABLED=false \
  java $JAVA_OPTS $record -Dquarkus.http.port=$port -jar "$PWD/quarkus-run.jar" > /tmp/training.log 2>&1 &
pid=$!
until curl -fs -o /dev/null http://127.0.0.1:$port/q/health/live; do
  kill -0 $pid 2>/dev/null || { cat /tmp/training.log; exit 1; }
  sleep 0.2
done
kill -TERM $pid
wait $pid || true
[ -s $cache ] || { cat /tmp/training.log; echo "no $cache written" >&2; exit 1; }
rm -f /tmp/training.log
echo $use > startup-cache.args
