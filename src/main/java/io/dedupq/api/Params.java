package io.dedupq.api;

import io.dedupq.queue.TaskIds;
import java.util.List;

/** Checks of path and query parameters shared by the resources. */
public final class Params {

    public static final int DEFAULT_LIMIT = 1000;
    public static final int MAX_LIMIT = 10_000;

    private Params() {
    }

    /** A path id must follow the task-id rule; anything else is a 400 naming the parameter. */
    public static String id(String value) {
        if (!TaskIds.valid(value)) {
            throw new ProblemException(Problem.invalid("id", TaskIds.RULE));
        }
        return value;
    }

    /** {@code ?limit=}: absent means the default; outside 1..10000 is a 400. */
    public static int limit(String value) {
        return whole("limit", value, 1, MAX_LIMIT, DEFAULT_LIMIT);
    }

    /** {@code ?offset=}: absent means 0; a negative or non-numeric value is a 400. */
    public static int offset(String value) {
        return whole("offset", value, 0, Integer.MAX_VALUE, 0);
    }

    private static int whole(String name, String value, int min, int max, int absent) {
        if (value == null) {
            return absent;
        }
        try {
            int number = Integer.parseInt(value);
            if (number >= min && number <= max) {
                return number;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new ProblemException(Problem.invalid(name, "must be a whole number from " + min + " to " + max));
    }

    /** A path queue must be one the handlers serve; anything else is a 404 listing the known ones. */
    public static String queue(String name, List<String> known) {
        if (!known.contains(name)) {
            throw new ProblemException(Problem.of(404, "queue-not-found", "Not Found", "no queue named " + name
                    + "; known queues: " + String.join(", ", known)));
        }
        return name;
    }

    public static ProblemException notFound(String what, String id) {
        return new ProblemException(Problem.of(404, what + "-not-found", "Not Found", "no " + what + " with id " + id));
    }

    public static ProblemException exists(String what, String id) {
        return new ProblemException(Problem.of(409, what + "-exists", "Already exists",
                what + " " + id + " already exists; nothing was changed"));
    }
}
