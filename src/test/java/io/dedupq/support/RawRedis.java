package io.dedupq.support;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;

/** A plain-text PING on a raw socket, to show what a client without credentials or TLS gets. */
public final class RawRedis {

    private RawRedis() {
    }

    /**
     * Sends PING without logging in. With {@code expectedPrefix} the answer must start with it
     * (e.g. -NOAUTH); with null there must be no +PONG at all (a TLS port drops plain text).
     */
    public static void assertRefusesPlainPing(String url, String expectedPrefix) {
        URI uri = URI.create(url);
        String answer;
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(uri.getHost(), uri.getPort()), 2_000);
            socket.setSoTimeout(2_000);
            socket.getOutputStream().write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
            InputStream in = socket.getInputStream();
            byte[] reply = new byte[64];
            int n = in.read(reply);
            answer = n <= 0 ? "" : new String(reply, 0, n, StandardCharsets.US_ASCII);
        } catch (IOException e) {
            answer = "";
        }
        if (expectedPrefix == null) {
            assertFalse(answer.startsWith("+PONG"), "a plain-text client was answered: " + answer);
        } else {
            assertTrue(answer.startsWith(expectedPrefix), "answer: " + answer);
        }
    }
}
