package io.dedupq.queue;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * At most {@code starts} task starts in any {@code window}, across the whole fleet; written
 * {@code N/duration} in the configuration ({@code 100/1s}, {@code 5/1m}, {@code 20/500ms}).
 *
 * @param starts most tasks started in one window, 1 or more
 * @param window the window's length, at least 1 ms
 */
public record RateLimit(int starts, Duration window) {

    private static final Pattern FORM = Pattern.compile("(\\d{1,9})/(\\d{1,9})(ms|s|m|h)");

    /** The limit written as {@code N/duration}; an {@link IllegalArgumentException} saying what is wrong otherwise. */
    public static RateLimit parse(String text) {
        Matcher m = FORM.matcher(text.strip());
        if (!m.matches()) {
            throw new IllegalArgumentException("'" + text + "' is not a rate limit: write N/duration, N tasks per"
                    + " duration, with a unit of ms, s, m or h, e.g. 100/1s or 5/1m");
        }
        int starts = Integer.parseInt(m.group(1));
        long amount = Long.parseLong(m.group(2));
        Duration window = switch (m.group(3)) {
            case "ms" -> Duration.ofMillis(amount);
            case "s" -> Duration.ofSeconds(amount);
            case "m" -> Duration.ofMinutes(amount);
            default -> Duration.ofHours(amount);
        };
        if (starts < 1 || window.isZero()) {
            throw new IllegalArgumentException("'" + text + "' is not a rate limit: N and the duration must be above 0");
        }
        return new RateLimit(starts, window);
    }

    /** The configuration's form, its window in the largest unit that writes it whole: {@code 10/1s}, {@code 5/90s}. */
    @Override
    public String toString() {
        long ms = window.toMillis();
        for (Unit unit : Unit.values()) {
            if (ms % unit.millis == 0) {
                return starts + "/" + ms / unit.millis + unit.suffix;
            }
        }
        throw new AssertionError("every window is whole milliseconds");
    }

    /** The units of the form, largest first. */
    private enum Unit {
        HOURS(3_600_000, "h"), MINUTES(60_000, "m"), SECONDS(1000, "s"), MILLIS(1, "ms");

        private final long millis;
        private final String suffix;

        Unit(long millis, String suffix) {
            this.millis = millis;
            this.suffix = suffix;
        }
    }
}
