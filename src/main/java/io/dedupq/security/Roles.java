package io.dedupq.security;

/** The two roles an API key can carry; an operator key may do everything a producer key may. */
public final class Roles {

    /** Enqueue tasks and read their status. */
    public static final String PRODUCER = "producer";

    /** Queue stats, dead-letter actions, the dashboard's data, the example resources. */
    public static final String OPERATOR = "operator";

    private Roles() {
    }
}
