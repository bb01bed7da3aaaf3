package io.dedupq.fault;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/** Named counts of one fault-suite run, printed at its end in the order they were first touched. */
final class Figures {

    private final Map<String, AtomicLong> counts = new LinkedHashMap<>();

    synchronized AtomicLong counter(String name) {
        return counts.computeIfAbsent(name, n -> new AtomicLong());
    }

    void add(String name, long n) {
        counter(name).addAndGet(n);
    }

    void set(String name, long value) {
        counter(name).set(value);
    }

    long get(String name) {
        return counter(name).get();
    }

    synchronized String report() {
        StringBuilder text = new StringBuilder("fault suite figures\n");
        counts.forEach((name, value) -> text.append(String.format("  %-44s %,d%n", name, value.get())));
        return text.toString();
    }
}
