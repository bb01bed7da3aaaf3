package io.dedupq.worker;

import io.dedupq.config.DedupqConfig;
import jakarta.enterprise.context.ApplicationScoped;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.UUID;

/**
 * This process's worker id: names its processing lists, starts its lock tokens and its
 * heartbeat entry. Always unique per process — a configured {@code dedupq.worker.id} (say the
 * pod name) is only its first part — so a pod restarted under the same name never mistakes its
 * predecessor's copies for its own, and the reaper can recover them.
 */
@ApplicationScoped
public class WorkerIdentity {

    private final String id;

    public WorkerIdentity(DedupqConfig config) {
        String name = config.worker().id().orElseGet(WorkerIdentity::host);
        if (!name.matches("[A-Za-z0-9._-]{1,64}")) {
            throw new IllegalStateException("dedupq.worker.id must be 1-64 characters of A-Z a-z 0-9 . _ - (got '"
                    + name + "'); lock tokens are <worker id>:<fence>");
        }
        this.id = name + "-" + ProcessHandle.current().pid() + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    public String id() {
        return id;
    }

    private static String host() {
        try {
            String host = InetAddress.getLocalHost().getHostName().replaceAll("[^A-Za-z0-9.-]", "-");
            return host.length() > 64 ? host.substring(0, 64) : host;
        } catch (UnknownHostException e) {
            return "worker";
        }
    }
}
