package io.dedupq.queue;

import java.util.regex.Pattern;

/** The id rule of DESIGN.md, shared by task ids and the ids of accounts, campaigns, customers. */
public final class TaskIds {

    /** 1–128 characters of [A-Za-z0-9._:-], starting with a letter or digit. */
    public static final String PATTERN = "[A-Za-z0-9][A-Za-z0-9._:-]{0,127}";

    public static final String RULE = "must be 1-128 characters of A-Z a-z 0-9 . _ : - starting with a letter or digit";

    private static final Pattern COMPILED = Pattern.compile(PATTERN);

    private TaskIds() {
    }

    public static boolean valid(String id) {
        return id != null && id.length() <= 128 && COMPILED.matcher(id).matches();
    }
}
