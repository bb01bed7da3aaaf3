package io.dedupq.queue;

/** The id rule of DESIGN.md, shared by task ids and the ids of accounts, campaigns, customers. */
public final class TaskIds {

    /** 1–128 characters of [A-Za-z0-9._:-], starting with a letter or digit. */
    public static final String PATTERN = "[A-Za-z0-9][A-Za-z0-9._:-]{0,127}";

    public static final String RULE = "must be 1-128 characters of A-Z a-z 0-9 . _ : - starting with a letter or digit";

    private TaskIds() {
    }

    /** {@link #PATTERN}, checked by hand: every submitted task's id passes here, and a regex match cost more. */
    public static boolean valid(String id) {
        if (id == null || id.isEmpty() || id.length() > 128 || !alphanumeric(id.charAt(0))) {
            return false;
        }
        for (int i = 1; i < id.length(); i++) {
            char c = id.charAt(i);
            if (!alphanumeric(c) && c != '.' && c != '_' && c != ':' && c != '-') {
                return false;
            }
        }
        return true;
    }

    private static boolean alphanumeric(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    }
}
