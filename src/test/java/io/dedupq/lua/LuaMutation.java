package io.dedupq.lua;

import io.dedupq.queue.LuaScript;

/**
 * One named, plausible mistake in one script: the exact text {@code find}, which must occur
 * exactly once in the script's source, replaced by {@code replace}. A text that no longer
 * matches fails the mutation check instead of being skipped, so a rewritten script gets its
 * list updated.
 */
record LuaMutation(LuaScript script, String name, String find, String replace) {

    /** The script's file name, e.g. {@code claim.lua}. */
    String file() {
        return script.name().toLowerCase() + ".lua";
    }

    /** The mutated source; fails when {@code find} does not occur exactly once. */
    String apply() {
        String source = script.source();
        int at = source.indexOf(find);
        if (at < 0) {
            throw new AssertionError(file() + " no longer contains the text of mutation '" + name + "': the script "
                    + "changed, so update LuaMutations (see docs/guarantees-testing.md). Text: " + find);
        }
        if (source.indexOf(find, at + 1) >= 0) {
            throw new AssertionError(file() + " contains the text of mutation '" + name + "' more than once: make it "
                    + "longer so it names one place. Text: " + find);
        }
        return source.substring(0, at) + replace + source.substring(at + find.length());
    }

    @Override
    public String toString() {
        return file() + ": " + name;
    }
}
