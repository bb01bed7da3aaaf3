package io.dedupq.worker;

import io.dedupq.config.DedupqConfig;
import jakarta.enterprise.context.ApplicationScoped;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.UUID;

/**
 * This process's worker id: names its processing lists, starts its lock tokens and its
 * heartbeat entry. Unique per process unless configured, so a restarted pod never mistakes
 * its predecessor's copies for its own.
 */
@ApplicationScoped
public class WorkerIdentity {

    private final String id;

    public WorkerIdentity(DedupqConfig config) {
        this.id = config.worker().id().orElseGet(WorkerIdentity::generate);
    }

    public String id() {
        return id;
    }

    private static String generate() {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            host = "host";
        }
        host = host.replaceAll("[^A-Za-z0-9.-]", "-");
        return host + "-" + ProcessHandle.current().pid() + "-" + UUID.randomUUID().toString().substring(0, 8);
    }
}
