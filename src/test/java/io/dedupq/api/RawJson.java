package io.dedupq.api;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A JSON object written member by member from raw fragments, so that a test can send what no
 * serializer would write: bare NaN, duplicate keys, a number where a string belongs. Immutable:
 * every change returns a copy, so one valid body can be the base of many broken ones.
 */
final class RawJson {

    private record Member(String name, String json) {
    }

    private final List<Member> members;

    private RawJson(List<Member> members) {
        this.members = List.copyOf(members);
    }

    static RawJson object() {
        return new RawJson(List.of());
    }

    /** Sets {@code name} to a raw JSON fragment, in place when it is already there. */
    RawJson with(String name, String json) {
        List<Member> copy = new ArrayList<>(members);
        Member member = new Member(name, json);
        int at = indexOf(name);
        if (at >= 0) {
            copy.set(at, member);
        } else {
            copy.add(member);
        }
        return new RawJson(copy);
    }

    RawJson with(String name, RawJson json) {
        return with(name, json.toString());
    }

    /** Sets {@code name}, or removes it when {@code json} is null (a missing field). */
    RawJson withOrWithout(String name, String json) {
        return json == null ? without(name) : with(name, json);
    }

    /** Adds a second member of the same name: a duplicate key. */
    RawJson duplicate(String name, String json) {
        List<Member> copy = new ArrayList<>(members);
        copy.add(new Member(name, json));
        return new RawJson(copy);
    }

    RawJson without(String name) {
        return new RawJson(members.stream().filter(m -> !m.name().equals(name)).toList());
    }

    /** A JSON string literal, escaped as JSON requires (control characters included). */
    static String str(String value) {
        return "\"" + new String(JsonStringEncoder.getInstance().quoteAsString(value)) + "\"";
    }

    static String array(List<?> items) {
        return items.stream().map(Object::toString).collect(Collectors.joining(",", "[", "]"));
    }

    private int indexOf(String name) {
        for (int i = 0; i < members.size(); i++) {
            if (members.get(i).name().equals(name)) {
                return i;
            }
        }
        return -1;
    }

    @Override
    public String toString() {
        return members.stream().map(m -> str(m.name()) + ":" + m.json()).collect(Collectors.joining(",", "{", "}"));
    }
}
