package io.dedupq.queue;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Lua scripts under {@code src/main/resources/lua}; each file's header documents it. A line
 * {@code -- include: <name>} in a script is replaced by {@code lua/include/<name>.lua}: the code
 * several scripts share is written once, and Redis still gets one self-contained script.
 */
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
    PROGRESS("progress"),
    RECALL("recall");

    private final String source;
    private final String sha;

    LuaScript(String verb) {
        this.source = Include.LINE.matcher(read("lua/" + verb + ".lua"))
                .replaceAll(line -> Matcher.quoteReplacement(read("lua/include/" + line.group(1) + ".lua")));
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

    /** A holder: an enum's constants are built before its own static fields. */
    private static final class Include {
        static final Pattern LINE = Pattern.compile("(?m)^-- include: ([a-z-]+)$");
    }
}
