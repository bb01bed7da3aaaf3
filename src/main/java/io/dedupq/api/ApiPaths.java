package io.dedupq.api;

import java.util.List;

/**
 * The HTTP paths that are dedupq's own. Everything dedupq does to requests — API keys, the
 * API switch, problem+json for routing errors, the OpenAPI additions — applies to these and to
 * nothing else, so an application that adds dedupq keeps its own endpoints as they were.
 */
public final class ApiPaths {

    public static final String TASKS = "/api/tasks";
    public static final String QUEUES = "/api/queues";
    public static final String WORKERS = "/api/workers";
    public static final String ROLLUPS = "/api/rollups";
    public static final String ACCOUNTS = "/api/accounts";
    public static final String CAMPAIGNS = "/api/campaigns";
    public static final String DASHBOARD = "/dashboard";

    private static final List<String> API = List.of(TASKS, QUEUES, WORKERS, ROLLUPS, ACCOUNTS, CAMPAIGNS);

    private ApiPaths() {
    }

    /** A path of dedupq's HTTP API (the example task types' endpoints included). */
    public static boolean api(String path) {
        return path != null && API.stream().anyMatch(prefix -> under(path, prefix));
    }

    /** A path of the API or of the dashboard page. */
    public static boolean owns(String path) {
        return api(path) || (path != null && under(path, DASHBOARD));
    }

    private static boolean under(String path, String prefix) {
        return path.startsWith(prefix) && (path.length() == prefix.length() || path.charAt(prefix.length()) == '/');
    }
}
