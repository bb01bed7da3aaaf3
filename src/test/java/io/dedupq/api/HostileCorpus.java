package io.dedupq.api;

import static io.dedupq.api.Bodies.utf8;
import static io.dedupq.api.RawJson.str;
import static io.dedupq.support.Api.uniqueId;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * Several hundred requests the API must refuse, generated from a few lists of hostile
 * ingredients: every field of every body gets every value that is wrong for it, every endpoint
 * gets every broken body and wrong content type, every path id gets every bad id.
 */
final class HostileCorpus {

    static final String DEEP_ARRAY = "[".repeat(10_000) + "]".repeat(10_000);
    private static final String DEEP_OBJECT = "{\"a\":".repeat(10_000) + "1" + "}".repeat(10_000);
    private static final String DIGITS = "9".repeat(400);

    /** Wrong in every field: wrong JSON types, numbers no field should hold, tokens JSON does not have. */
    private static final List<String> WRONG_ANYWHERE = List.of("true", "false", "[]", "[\"EUR\"]", "{\"a\":1}",
            DEEP_ARRAY, DIGITS, "-" + DIGITS, "1e999999999", "-1e999999999", "1e-999999999", "1e2147483648", "NaN",
            "Infinity", "-Infinity", "0x10", "01", "undefined", "'EUR'", "\"unterminated");

    /** Numbers where a string belongs: strict JSON does not turn them into text. */
    private static final List<String> NUMBERS = List.of("42", "1.5", "-7");

    /** Wrong wherever an id belongs: task, account, campaign and customer ids, in bodies and in paths. */
    static final List<String> BAD_IDS = List.of("", " ", "a b", "{x}", "a{b}c", "*", "a*", "a\nb", "\n", "\t",
            "x".repeat(129), "x".repeat(10_240), "-x", ".x", "_x", ":x", "café", "😀", "id-😀", "}:lock:x",
            "x}:lock:y", "{dedupq:payment}:pending", "a\u0000b", "a\u001fb", "a\u007fb", "\u202eabc", "a/b", "a\\b",
            "a\"b", "a,b", "a%41", "a?b", "a#b", "a;b", "a+b", "a=b");

    /** Wrong for any amount of money: negative, more than 2 decimals, not a plain decimal, absurdly large. */
    private static final List<String> BAD_MONEY = List.of("-1", "-0.01", "12.345", "0.001", "-0.001", str("12.345"),
            str("-1"), str("1e3"), str("1E3"), str("NaN"), str("Infinity"), str("-Infinity"), str(""), str(" 1"),
            str("1 "), str("1,00"), str("12.50EUR"), str("0x10"), str("+1"), str("."), str("1."), str(".5"),
            str(DIGITS), "1E+400", "1000000000000.01");

    /** Wrong for a payment amount or a voucher value (more than 0, at most 10^9), though fine as a balance. */
    private static final List<String> BAD_POSITIVE_MONEY = List.of("0", "0.00", "-0", str("0"), str("0.00"),
            "1000000000.01", str("1000000001"));

    private static final List<String> BAD_CURRENCIES = List.of(str(""), str("eur"), str("Eur"), str("EURO"),
            str("EU"), str("E1R"), str("€UR"), str("ÉUR"), str(" EUR"), str("EUR\n"), str("E\u0000R"), "978");

    private static final List<String> BAD_COUNTS = List.of("-1", "1.5", "5.0", "1e2", str("5"), "100000001",
            "9223372036854775808", "-9223372036854775809");

    private static final List<String> BAD_TYPES = List.of(str(""), str("refund"), str("PAYMENT"), str("payment "),
            str(" payment"), str("pay\u0000ment"), str("😀"), str("x".repeat(10_240)), str("voucher\n"));

    private static final List<String> BAD_REFERENCES = List.of(str("r".repeat(257)), str("r".repeat(60_000)));

    private static final List<String> WRONG_CONTENT_TYPES = List.of("text/plain", "application/xml",
            "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/octet-stream",
            "application/json-patch+json");

    private static final List<String> BAD_LIMITS = List.of("0", "-1", "abc", "1e3", "10001", DIGITS, "1.0", "%00");

    private HostileCorpus() {
    }

    static List<BadRequest> requests() {
        List<BadRequest> all = new ArrayList<>();
        all.addAll(taskFields());
        all.addAll(paymentFields());
        all.addAll(voucherFields());
        all.addAll(batchFields());
        all.addAll(accountFields());
        all.addAll(campaignFields());
        all.addAll(brokenBodies());
        all.addAll(badPathIds());
        return all;
    }

    /** A valid task with one top-level field broken; its id, unless that is what is broken, must stay unknown. */
    private static List<BadRequest> taskFields() {
        List<BadRequest> out = new ArrayList<>();
        for (String field : List.of("id", "type", "payload")) {
            out.addAll(variants(badTaskField(field), json -> {
                String id = uniqueId("hostile");
                byte[] body = utf8(Bodies.task(id, "payment", Bodies.payment("acc-hostile")).withOrWithout(field, json).toString());
                return field.equals("id") ? BadRequest.post("/api/tasks", body) : BadRequest.post("/api/tasks", body, taskPath(id));
            }));
        }
        return out;
    }

    private static List<String> badTaskField(String field) {
        return switch (field) {
            // the payment queue sets require-id: a missing or null id is refused too (no UUID is made)
            case "id" -> required(badIds());
            case "type" -> required(concat(BAD_TYPES, NUMBERS));
            default -> required(concat(List.of(str("payload"), "{}"), NUMBERS));
        };
    }

    private static List<BadRequest> paymentFields() {
        List<BadRequest> out = new ArrayList<>();
        out.addAll(variants(required(badIds()), json -> payment("accountId", json)));
        out.addAll(variants(required(concat(BAD_MONEY, BAD_POSITIVE_MONEY)), json -> payment("amount", json)));
        out.addAll(variants(required(BAD_CURRENCIES), json -> payment("currency", json)));
        out.addAll(variants(required(concat(BAD_REFERENCES, NUMBERS)), json -> payment("reference", json)));
        out.add(payment("extra", str("unknown field")));
        return out;
    }

    private static List<BadRequest> voucherFields() {
        List<BadRequest> out = new ArrayList<>();
        for (String field : List.of("campaignId", "customerId")) {
            out.addAll(variants(required(badIds()), json -> {
                String id = uniqueId("hostile");
                return BadRequest.post("/api/tasks", utf8(Bodies.task(id, "voucher",
                        Bodies.voucher().withOrWithout(field, json)).toString()), taskPath(id));
            }));
        }
        return out;
    }

    /** The batch itself is wrong, or its second task is, between two valid tasks that must not be enqueued either. */
    private static List<BadRequest> batchFields() {
        List<BadRequest> out = new ArrayList<>();
        List<String> notTaskLists = concat(List.of("[]", "{}", str("tasks"), "[5]", "[null]", "[[]]", DEEP_ARRAY,
                RawJson.array(Stream.generate(HostileCorpus::validTask).limit(1001).toList())), WRONG_ANYWHERE);
        out.addAll(variants(required(notTaskLists), json -> BadRequest.post("/api/tasks/batch",
                utf8(RawJson.object().withOrWithout("tasks", json).toString()))));
        for (String field : List.of("id", "type", "payload")) {
            out.addAll(variants(badTaskField(field), json -> batchAround(validTask().withOrWithout(field, json))));
        }
        out.addAll(variants(required(concat(BAD_MONEY, BAD_POSITIVE_MONEY)), json -> batchAround(
                validTask().with("payload", Bodies.payment("acc-hostile").withOrWithout("amount", json)))));
        return out;
    }

    private static List<BadRequest> accountFields() {
        List<BadRequest> out = new ArrayList<>();
        out.addAll(variants(required(BAD_CURRENCIES), json -> account(Bodies.account().withOrWithout("currency", json))));
        out.addAll(variants(required(BAD_MONEY), json -> account(Bodies.account().withOrWithout("balance", json))));
        out.add(account(Bodies.account().with("owner", str("unknown field"))));
        return out;
    }

    private static List<BadRequest> campaignFields() {
        List<BadRequest> out = new ArrayList<>();
        out.addAll(variants(required(BAD_COUNTS), json -> campaign(Bodies.campaign().withOrWithout("stock", json))));
        out.addAll(variants(required(concat(BAD_MONEY, BAD_POSITIVE_MONEY)),
                json -> campaign(Bodies.campaign().withOrWithout("value", json))));
        out.addAll(variants(required(BAD_CURRENCIES), json -> campaign(Bodies.campaign().withOrWithout("currency", json))));
        return out;
    }

    /** Bodies that are not a usable JSON object at all, and good bodies with the wrong content type, on every endpoint. */
    private static List<BadRequest> brokenBodies() {
        List<BadRequest> out = new ArrayList<>();
        List<Function<byte[], BadRequest>> endpoints = List.of(
                body -> BadRequest.post("/api/tasks", body),
                body -> BadRequest.post("/api/tasks/batch", body),
                HostileCorpus::account,
                HostileCorpus::campaign);
        List<RawJson> valid = List.of(validTask(), Bodies.batch(List.of(validTask())), Bodies.account(), Bodies.campaign());
        for (int e = 0; e < endpoints.size(); e++) {
            Function<byte[], BadRequest> endpoint = endpoints.get(e);
            String good = valid.get(e).toString();
            for (String broken : broken(good)) {
                out.add(endpoint.apply(utf8(broken)));
            }
            out.add(endpoint.apply(invalidUtf8(good)));
            int limit = e == 1 ? Bodies.MAX_BATCH_BODY_BYTES : Bodies.MAX_BODY_BYTES;
            out.add(endpoint.apply(Bodies.paddedTo(valid.get(e), limit + 1)));
            for (String type : WRONG_CONTENT_TYPES) {
                out.add(endpoint.apply(utf8(good)).withContentType(type));
            }
        }
        return out;
    }

    private static List<String> broken(String good) {
        String firstKey = good.substring(1, good.indexOf(':'));
        String duplicated = "{" + good.substring(1, good.indexOf(',') + 1) + good.substring(1);
        return List.of("", " ", "\n\t", "null", "true", "0", "-1", str("text"), "[]", "[{}]", "{}", "{", "}",
                "{}{}", "{} x", "{\"a\"}", "{\"a\":}", "{,}", "{'a':1}", "{a:1}", "{\"a\":1,}", "/*c*/{}", "{}//c",
                "\u0000", DEEP_ARRAY, DEEP_OBJECT, "[" + good + "]", good.substring(0, 1), good.substring(0, good.length() / 2),
                good.substring(0, good.length() - 1), good + "x", good + good, duplicated,
                good.replace(firstKey, firstKey.toUpperCase()), good.replace(":", ":" + DIGITS + ","));
    }

    /** Every bad id in the path of every endpoint that takes one, and bad limits in the query. */
    private static List<BadRequest> badPathIds() {
        List<BadRequest> out = new ArrayList<>();
        for (String id : BAD_IDS) {
            String segment = BadRequest.segment(id);
            out.add(BadRequest.get("/api/tasks/" + segment));
            out.add(BadRequest.put("/api/accounts/" + segment, utf8(Bodies.account().toString())));
            out.add(BadRequest.put("/api/campaigns/" + segment, utf8(Bodies.campaign().toString())));
        }
        for (String limit : BAD_LIMITS) {
            out.add(BadRequest.get("/api/accounts/" + uniqueId("hostile") + "?limit=" + BadRequest.segment(limit)));
        }
        return out;
    }

    private static RawJson validTask() {
        return Bodies.task(uniqueId("hostile"), "payment", Bodies.payment("acc-hostile"));
    }

    private static BadRequest payment(String field, String json) {
        String id = uniqueId("hostile");
        return BadRequest.post("/api/tasks", utf8(Bodies.task(id, "payment",
                Bodies.payment("acc-hostile").withOrWithout(field, json)).toString()), taskPath(id));
    }

    private static BadRequest batchAround(RawJson broken) {
        String first = uniqueId("hostile");
        String last = uniqueId("hostile");
        RawJson body = Bodies.batch(List.of(Bodies.task(first, "payment", Bodies.payment("acc-hostile")), broken,
                Bodies.task(last, "payment", Bodies.payment("acc-hostile"))));
        return BadRequest.post("/api/tasks/batch", utf8(body.toString()), taskPath(first), taskPath(last));
    }

    private static BadRequest account(RawJson body) {
        return account(utf8(body.toString()));
    }

    /** PUT of a fresh account id, which must stay unknown. */
    private static BadRequest account(byte[] body) {
        String path = "/api/accounts/" + uniqueId("hostile");
        return BadRequest.put(path, body, path);
    }

    private static BadRequest campaign(RawJson body) {
        return campaign(utf8(body.toString()));
    }

    private static BadRequest campaign(byte[] body) {
        String path = "/api/campaigns/" + uniqueId("hostile");
        return BadRequest.put(path, body, path);
    }

    private static List<BadRequest> variants(List<String> values, Function<String, BadRequest> request) {
        return values.stream().map(request).toList();
    }

    private static List<String> badIds() {
        return concat(BAD_IDS.stream().map(RawJson::str).toList(), NUMBERS);
    }

    /** The values plus the wrong-anywhere ones, null, and the field missing (a null element). */
    private static List<String> required(List<String> values) {
        List<String> out = new ArrayList<>(concat(values, WRONG_ANYWHERE));
        out.add("null");
        out.add(null);
        return out;
    }

    private static List<String> concat(List<String> a, List<String> b) {
        return Stream.concat(a.stream(), b.stream()).toList();
    }

    /** A good body whose first string value holds bytes that are not UTF-8. */
    private static byte[] invalidUtf8(String good) {
        int quote = good.indexOf(":\"") + 2;
        byte[] head = good.substring(0, quote).getBytes(StandardCharsets.UTF_8);
        byte[] tail = good.substring(quote).getBytes(StandardCharsets.UTF_8);
        byte[] out = Arrays.copyOf(head, head.length + 2 + tail.length);
        out[head.length] = (byte) 0xff;
        out[head.length + 1] = (byte) 0xfe;
        System.arraycopy(tail, 0, out, head.length + 2, tail.length);
        return out;
    }

    private static String taskPath(String id) {
        return "/api/tasks/" + id;
    }
}
