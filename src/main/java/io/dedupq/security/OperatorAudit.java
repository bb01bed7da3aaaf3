package io.dedupq.security;

import io.quarkus.security.identity.SecurityIdentity;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;
import org.jboss.logging.MDC;

/**
 * One line per operator action (dead-letter retry and discard, cancel) in the logger category
 * {@value #CATEGORY}, naming the API key that did it and what came of it. The fields are in the
 * message ({@code action=retry key=ops queue=payment task=pay-1 outcome=done}) and, for JSON logs,
 * in the line's MDC as well, so a log pipeline can select them without parsing the message.
 * Without authentication (security off) the key reads {@code anonymous}.
 */
@ApplicationScoped
public class OperatorAudit {

    /** The logger category of the audit lines: route or keep it apart from the rest. */
    public static final String CATEGORY = "dedupq.audit";

    private static final Logger LOG = Logger.getLogger(CATEGORY);
    private static final String[] FIELDS = {"action", "key", "queue", "task", "outcome"};

    private final SecurityIdentity identity;

    public OperatorAudit(SecurityIdentity identity) {
        this.identity = identity;
    }

    /**
     * @param queue   the queue the action named, or the one the task was found in; null when none
     * @param outcome what came of it, e.g. {@code done}, {@code not-found}, {@code not-dead}
     */
    public void record(String action, String queue, String task, String outcome) {
        String key = identity.isAnonymous() ? "anonymous" : identity.getPrincipal().getName();
        String[] values = {action, key, queue == null ? "-" : queue, task, outcome};
        try {
            for (int i = 0; i < FIELDS.length; i++) {
                MDC.put(FIELDS[i], values[i]);
            }
            LOG.infof("action=%s key=%s queue=%s task=%s outcome=%s", (Object[]) values);
        } finally {
            for (String field : FIELDS) {
                MDC.remove(field);
            }
        }
    }
}
