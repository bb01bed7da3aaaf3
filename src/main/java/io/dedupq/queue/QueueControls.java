package io.dedupq.queue;

import io.dedupq.config.DedupqConfig;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.time.Duration;
import java.util.Locale;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * The limits a queue runs under, as the serving pod is configured ({@code dedupq.queues.<q>.*}):
 * pods configured alike show the same; a pod started with other settings shows its own.
 */
@RegisterForReflection
@Schema(description = "the queue's limits in the configuration of the pod that answers (dedupq.queues.<queue>.*)")
public record QueueControls(
        @Schema(description = "handlers of the queue running at once on one worker process") int concurrency,
        @Schema(description = "partitions the queue is split into (1: not split)") int partitions,
        @Schema(description = "most task starts per window across all pods, written N/duration (10/1s, 5/1m); "
                + "null: no limit", nullable = true, example = "10/1s") String rateLimit,
        @Schema(description = "most tasks of one group running at once across all pods; 0: no limit")
        int groupConcurrency,
        @Schema(description = "most task starts of one group per window across all pods, written N/duration; "
                + "null: no limit", nullable = true, example = "2/1s") String groupRateLimit,
        @Schema(description = "how claims choose between priority levels", enumeration = {"strict", "weighted"})
        String priorityOrder,
        @Schema(description = "longest one execution's handler may run, in ms; null: none (a task's own timeout "
                + "at submit takes precedence)", nullable = true) Long timeoutMs) {

    public static QueueControls of(DedupqConfig.QueueConfig settings) {
        return new QueueControls(settings.concurrency(), settings.partitions(),
                settings.rateLimit().map(RateLimit::toString).orElse(null), settings.groupConcurrency(),
                settings.groupRateLimit().map(RateLimit::toString).orElse(null),
                settings.priorityOrder().name().toLowerCase(Locale.ROOT),
                settings.timeout().map(Duration::toMillis).orElse(null));
    }
}
