#!/bin/sh
# Prints the JVM options of a measured dedupq pod, on one line (run from the repository root):
# BENCH_JVM_OPTS if set, else the JAVA_OPTS of docker/Dockerfile.jvm without its listen address,
# inside the 512 MiB memory limit that docker/k8s/ and docker/compose.yaml give every pod
# (-XX:MaxRAM: the JVM then sizes its heap as in that container, not from the host's RAM).
#
#   bench/pod-jvm-opts.sh [quarkus-app directory]
#
# With STARTUP_CACHE=1 (a JDK 25 java first on PATH) it first trains the image's AOT cache for
# the application in that directory (docker/train-startup-cache.sh, the image's own step, with
# these options) and adds the cache to them.
set -eu
opts=${BENCH_JVM_OPTS:-"-XX:MaxRAM=512m $(sed -n 's/^ENV JAVA_OPTS="\(.*\)"$/\1/p' docker/Dockerfile.jvm |
  sed 's/ *-Dquarkus\.http\.host=[^ ]*//')"}
if [ "${STARTUP_CACHE:-0}" = 1 ]; then
  java -XX:AOTMode=off -version >/dev/null 2>&1 || { echo "STARTUP_CACHE=1 needs a JDK 25 java on PATH" >&2; exit 1; }
  root=$PWD
  port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  app=${1:?"the quarkus-app directory to train the cache for"}
  (cd "$app" && JAVA_OPTS=$opts TRAINING_PORT=$port sh "$root/docker/train-startup-cache.sh" true) >&2
  opts="$opts -XX:AOTCache=$(cd "$app" && pwd)/app.aot"
fi
echo "$opts"
