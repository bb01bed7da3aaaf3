package io.dedupq.support;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;

/**
 * Redis's MONITOR on a socket of its own: every command the server runs from now on, one line
 * each ({@code <time> [<db> <client>] "CMD" "arg" …}); keeps the lines that {@code keep} accepts.
 * Counts what a client really sends, which no reply shows.
 */
public final class RedisMonitor implements AutoCloseable {

    private final Socket socket = new Socket();
    private final List<String> kept = new CopyOnWriteArrayList<>();

    public RedisMonitor(String url, Predicate<String> keep) {
        URI uri = URI.create(url);
        try {
            socket.connect(new InetSocketAddress(uri.getHost(), uri.getPort()), 2_000);
            socket.getOutputStream().write("MONITOR\r\n".getBytes(StandardCharsets.US_ASCII));
            BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
            if (!"+OK".equals(in.readLine())) {
                throw new IllegalStateException("MONITOR refused");
            }
            Thread reader = new Thread(() -> {
                try {
                    for (String line; (line = in.readLine()) != null; ) {
                        if (keep.test(line)) {
                            kept.add(line);
                        }
                    }
                } catch (IOException closed) {
                    // close() ends the reading
                }
            }, "redis-monitor");
            reader.setDaemon(true);
            reader.start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The lines kept so far. */
    public List<String> lines() {
        return List.copyOf(kept);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
