package io.dedupq.bench;

/**
 * The task ids of one benchmark run, generated exactly as the BullMQ peer benchmark does
 * (mulberry32, seed 42): {@code jobs} entries, of which {@code round(jobs * dupRatio)} re-use an
 * id that appeared earlier (uniformly chosen). Same seed, same sequence in both benchmarks.
 *
 * @param lids   logical id of every entry, in enqueue order (0 .. unique-1)
 * @param unique distinct ids
 */
public record Workload(int[] lids, int unique) {

    public static Workload generate(int jobs, double dupRatio, int seed) {
        Mulberry32 rnd = new Mulberry32(seed);
        int dupCount = (int) Math.round(jobs * dupRatio);
        boolean[] isDup = new boolean[jobs];
        int[] pos = new int[jobs - 1];
        for (int i = 0; i < pos.length; i++) {
            pos[i] = i + 1;
        }
        // partial Fisher-Yates: dupCount distinct positions in [1, jobs)
        for (int i = 0; i < dupCount; i++) {
            int j = i + (int) Math.floor(rnd.next() * (pos.length - i));
            int swap = pos[i];
            pos[i] = pos[j];
            pos[j] = swap;
            isDup[pos[i]] = true;
        }
        int[] lids = new int[jobs];
        int next = 0;
        for (int i = 0; i < jobs; i++) {
            lids[i] = isDup[i] ? (int) Math.floor(rnd.next() * next) : next++;
        }
        return new Workload(lids, next);
    }

    public int jobs() {
        return lids.length;
    }

    /** The task id of logical id {@code lid}, as the peer names its jobs. */
    public static String taskId(int lid) {
        return "t" + lid;
    }

    /** JavaScript's mulberry32, bit for bit (int arithmetic is Math.imul). */
    private static final class Mulberry32 {
        private int a;

        Mulberry32(int seed) {
            this.a = seed;
        }

        double next() {
            a += 0x6d2b79f5;
            int t = (a ^ (a >>> 15)) * (1 | a);
            t = (t + ((t ^ (t >>> 7)) * (61 | t))) ^ t;
            return ((t ^ (t >>> 14)) & 0xffffffffL) / 4294967296.0;
        }
    }
}
