package io.dedupq.handler;

import io.dedupq.config.DedupqConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/** The task handlers found as CDI beans, and the queue each task type is routed to. */
@ApplicationScoped
public class HandlerRegistry {

    private final TreeMap<String, TaskHandler<?>> byType = new TreeMap<>();
    private final TreeMap<String, String> queueByType = new TreeMap<>();
    private final List<String> queues;

    public HandlerRegistry(@Any Instance<TaskHandler<?>> handlers, DedupqConfig config) {
        for (TaskHandler<?> handler : handlers) {
            TaskHandler<?> previous = byType.put(handler.type(), handler);
            if (previous != null) {
                throw new IllegalStateException("two handlers for task type '" + handler.type() + "': "
                        + previous.getClass().getName() + " and " + handler.getClass().getName());
            }
            queueByType.put(handler.type(), config.routes().getOrDefault(handler.type(), handler.type()));
        }
        TreeSet<String> all = new TreeSet<>(queueByType.values());
        all.addAll(config.queues().keySet());
        this.queues = List.copyOf(all);
    }

    public Optional<TaskHandler<?>> handler(String type) {
        return Optional.ofNullable(byType.get(type));
    }

    public Set<String> types() {
        return Collections.unmodifiableSet(byType.keySet());
    }

    public String queueOf(String type) {
        return queueByType.get(type);
    }

    /** Every queue a task can be routed to, plus every queue named in configuration. */
    public List<String> queues() {
        return queues;
    }
}
