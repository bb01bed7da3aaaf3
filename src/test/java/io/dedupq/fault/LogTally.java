package io.dedupq.fault;

import io.dedupq.support.AppJvm;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Recovery figures read from the logs of every JVM of the run (the app logs each recovery). */
final class LogTally {

    private static final Pattern REAPED = Pattern.compile("presumed dead, (\\d+) copies back to pending");
    private static final Pattern ORPHANS = Pattern.compile("requeued (\\d+) copies that nothing here was running");
    private static final Pattern LEFT = Pattern.compile("stopped; (\\d+) unfinished copies back on pending");

    private LogTally() {
    }

    static void addTo(Figures figures, List<AppJvm> jvms) {
        for (AppJvm jvm : jvms) {
            for (String line : jvm.logLines()) {
                sum(figures, "copies requeued by the reaper (worker presumed dead)", REAPED, line);
                sum(figures, "copies requeued by their own worker (lost replies)", ORPHANS, line);
                sum(figures, "copies handed back at graceful shutdown", LEFT, line);
                if (line.contains(" outcome=") && line.contains("not recorded")) {
                    figures.add("executions whose outcome was refused (task owned by a newer one)", 1);
                }
                if (line.contains(" outcome=retrying")) {
                    figures.add("executions that failed and were retried", 1);
                }
            }
        }
    }

    private static void sum(Figures figures, String name, Pattern pattern, String line) {
        Matcher m = pattern.matcher(line);
        if (m.find()) {
            figures.add(name, Long.parseLong(m.group(1)));
        }
    }
}
