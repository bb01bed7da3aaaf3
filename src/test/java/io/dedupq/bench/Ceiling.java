package io.dedupq.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The Redis ceiling: the peer's ceiling.sh (redis-benchmark: LPUSH, RPOP, SET NX PX, EVALSHA of
 * small scripts, at -P 1 and -P 16) against the same private server, one pass.
 */
public final class Ceiling {

    /** One redis-benchmark line. */
    public record Row(String test, int pipeline, double opsPerSecond, double p50Ms) {
    }

    private Ceiling() {
    }

    public static List<Row> run(Path peerDir, int redisPort, Path out) {
        Path script = peerDir.resolve("ceiling.sh");
        Path log = out.resolve("logs").resolve("ceiling.log");
        try {
            Files.createDirectories(log.getParent());
            ProcessBuilder builder = new ProcessBuilder("bash", script.toString()).redirectError(log.toFile());
            builder.environment().putAll(Map.of("REDIS_PORT", Integer.toString(redisPort), "CEILING_REPEATS", "1"));
            Process process = builder.start();
            String text = new String(process.getInputStream().readAllBytes());
            process.waitFor();
            Files.writeString(out.resolve("ceiling.jsonl"), text);
            List<Row> rows = new ArrayList<>();
            ObjectMapper json = new ObjectMapper();
            for (String line : text.split("\n")) {
                if (line.startsWith("{")) {
                    JsonNode r = json.readTree(line);
                    rows.add(new Row(r.path("test").asText(), r.path("pipeline").asInt(), r.path("rps").asDouble(),
                            r.path("p50_ms").asDouble()));
                }
            }
            return rows;
        } catch (IOException e) {
            throw new IllegalStateException("ceiling.sh failed: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
