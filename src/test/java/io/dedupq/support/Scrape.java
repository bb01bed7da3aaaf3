package io.dedupq.support;

import static io.restassured.RestAssured.given;

import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** One read of /q/metrics (Prometheus text format), looked up by metric name and labels. */
public final class Scrape {

    private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\\{(.*)})?\\s+(\\S+)$");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");

    private final Map<String, Map<Map<String, String>, Double>> samples = new HashMap<>();

    private Scrape(String text) {
        for (String line : text.split("\n")) {
            Matcher sample = SAMPLE.matcher(line.trim());
            if (line.startsWith("#") || !sample.matches()) {
                continue;
            }
            Map<String, String> labels = new HashMap<>();
            if (sample.group(2) != null) {
                Matcher label = LABEL.matcher(sample.group(2));
                while (label.find()) {
                    labels.put(label.group(1), label.group(2));
                }
            }
            samples.computeIfAbsent(sample.group(1), n -> new HashMap<>()).put(labels, Double.parseDouble(sample.group(3)));
        }
    }

    public static Scrape now() {
        return new Scrape(given().get("/q/metrics").then().statusCode(200).extract().asString());
    }

    /** The sample whose labels include all of {@code labels}; 0 when there is none yet (a counter not yet touched). */
    public double value(String name, String... labels) {
        Map<String, String> wanted = new HashMap<>();
        for (int i = 0; i < labels.length; i += 2) {
            wanted.put(labels[i], labels[i + 1]);
        }
        return samples.getOrDefault(name, Map.of()).entrySet().stream()
                .filter(e -> e.getKey().entrySet().containsAll(wanted.entrySet()))
                .mapToDouble(Map.Entry::getValue).sum();
    }

    public boolean has(String name) {
        return samples.containsKey(name);
    }
}
