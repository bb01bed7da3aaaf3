package io.dedupq.support;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

/** Runs many calls on a thread pool, released together by a start gate so they really overlap. */
public final class Concurrently {

    private Concurrently() {
    }

    /** Calls {@code call(0..times-1)} on {@code threads} threads; results in index order, failures rethrown. */
    public static <T> List<T> run(int threads, int times, IntFunction<T> call) {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch gate = new CountDownLatch(1);
        try {
            List<Future<T>> futures = new ArrayList<>(times);
            for (int i = 0; i < times; i++) {
                int index = i;
                futures.add(pool.submit(() -> {
                    gate.await();
                    return call.apply(index);
                }));
            }
            gate.countDown();
            List<T> results = new ArrayList<>(times);
            for (Future<T> future : futures) {
                results.add(future.get(60, TimeUnit.SECONDS));
            }
            return results;
        } catch (ExecutionException e) {
            throw new AssertionError("a concurrent call failed: " + e.getCause(), e.getCause());
        } catch (Exception e) {
            throw new AssertionError("concurrent calls did not finish: " + e, e);
        } finally {
            pool.shutdownNow();
        }
    }
}
