package io.dedupq.bench;

import io.dedupq.support.AppJvm;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.DoubleSupplier;

/**
 * CPU use over an interval, as the peer benchmark reports it: the host's busy time
 * (/proc/stat), the dedupq JVMs, the Redis server and this load generator, and "foreign" CPU,
 * the busy time none of them used (other processes on a shared host), in % of all cores.
 */
public final class CpuMeter {

    private static final int CORES = Runtime.getRuntime().availableProcessors();

    /** CPU percentages of one interval of {@code seconds}; dedupq, redis and loadgen in % of one core. */
    public record Usage(double seconds, double hostBusyPct, double dedupqPct, double redisPct, double loadgenPct,
            double foreignPct) {

        /** CPU seconds the Redis server used in the interval. */
        public double redisSeconds() {
            return redisPct * seconds / 100;
        }
    }

    private record Sample(long nanos, double host, double dedupq, double redis, double self) {
    }

    private final DoubleSupplier dedupqCpu;
    private final DoubleSupplier redisCpu;
    private Sample start;

    /** {@code dedupqCpu}: CPU seconds of the dedupq JVMs measured; {@code redisCpu}: of the server. */
    public CpuMeter(DoubleSupplier dedupqCpu, DoubleSupplier redisCpu) {
        this.dedupqCpu = dedupqCpu;
        this.redisCpu = redisCpu;
    }

    public static CpuMeter of(List<AppJvm> apps, BenchRedis redis) {
        return new CpuMeter(() -> apps.stream().mapToDouble(AppJvm::cpuSeconds).sum(), redis::cpuSeconds);
    }

    public CpuMeter begin() {
        start = sample();
        return this;
    }

    public Usage end() {
        Sample end = sample();
        double wall = (end.nanos - start.nanos) / 1e9;
        double host = end.host - start.host;
        double dedupq = end.dedupq - start.dedupq;
        double redis = end.redis - start.redis;
        double self = end.self - start.self;
        return new Usage(wall, 100 * host / (wall * CORES), 100 * dedupq / wall, 100 * redis / wall, 100 * self / wall,
                100 * Math.max(0, host - dedupq - redis - self) / (wall * CORES));
    }

    private Sample sample() {
        return new Sample(System.nanoTime(), hostBusySeconds(), dedupqCpu.getAsDouble(), redisCpu.getAsDouble(),
                AppJvm.cpuSecondsOf(ProcessHandle.current().pid()));
    }

    /** Busy seconds of all cores since boot (user, nice, system, irq, softirq, steal). */
    static double hostBusySeconds() {
        try {
            String[] f = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
            long busy = Long.parseLong(f[1]) + Long.parseLong(f[2]) + Long.parseLong(f[3]) + Long.parseLong(f[6])
                    + Long.parseLong(f[7]) + (f.length > 8 ? Long.parseLong(f[8]) : 0);
            return busy / 100.0;
        } catch (IOException e) {
            return 0;
        }
    }

    /** Share of all cores busy over one second (%). */
    public static double hostBusyPctOverOneSecond() {
        double before = hostBusySeconds();
        AppJvm.sleep(1000);
        return 100 * (hostBusySeconds() - before) / CORES;
    }

    /**
     * On a shared host (like the peer's WAIT_IDLE_PCT): waits at most {@code maxSeconds} until
     * the host has been at least {@code idlePct} % idle for 3 seconds in a row. Returns the busy %
     * of the last second.
     */
    public static double waitIdle(int idlePct, int maxSeconds) {
        long deadline = System.nanoTime() + maxSeconds * 1_000_000_000L;
        int quiet = 0;
        double busy = 0;
        while (idlePct > 0 && quiet < 3 && System.nanoTime() < deadline) {
            busy = hostBusyPctOverOneSecond();
            quiet = 100 - busy >= idlePct ? quiet + 1 : 0;
        }
        return busy;
    }
}
