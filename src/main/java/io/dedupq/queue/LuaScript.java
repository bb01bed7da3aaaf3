package io.dedupq.queue;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** The Lua scripts under {@code src/main/resources/lua}; each file's header documents it. */
public enum LuaScript {
    ENQUEUE("enqueue"),
    CLAIM("claim"),
    BEAT("beat"),
    REQUEUE("requeue"),
    PROMOTE("promote"),
    RELEASE("release"),
    EXTEND("extend"),
    CREATE("create"),
    DEBIT("debit"),
    ISSUE("issue"),
    CANCEL("cancel"),
    REVIVE("revive"),
    DISCARD("discard"),
    PROGRESS("progress");

    private final String source;
    private final String sha;

    LuaScript(String verb) {
        this.source = read("lua/" + verb + ".lua");
        this.sha = sha1(source);
    }

    public String source() {
        return source;
    }

    /** SHA1 of the source, as Redis names a loaded script. */
    public String sha() {
        return sha;
    }

    private static String read(String path) {
        try (InputStream in = LuaScript.class.getClassLoader().getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("missing script " + path);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String sha1(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
