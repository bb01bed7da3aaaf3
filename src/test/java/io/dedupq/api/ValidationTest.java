package io.dedupq.api;

import static io.dedupq.api.Bodies.utf8;
import static io.dedupq.api.RawJson.str;
import static io.dedupq.support.Api.openAccount;
import static io.dedupq.support.Api.uniqueId;
import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dedupq.queue.RedisCalls;
import io.dedupq.queue.RedisKeys;
import io.dedupq.support.RedisTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every input rule of the API, one refused request per case: the status, a problem document that
 * names the wrong field, no stack trace, and nothing enqueued or created. Positive controls at
 * the edges show that the rules refuse no more than they should.
 */
@QuarkusTest
@WithTestResource(RedisTestResource.class)
class ValidationTest {

    /** The account named in payment payloads; refused requests never reach it, accepted ones fail on it harmlessly. */
    private static final String ACCOUNT = "acc-validation";

    /**
     * @param field    what {@code errors[].field} must name, or null when no single field is at fault
     * @param mentions words the response must contain
     */
    record Case(String name, BadRequest request, int status, String field, List<String> mentions) {

        Case mentioning(String... words) {
            return new Case(name, request, status, field, List.of(words));
        }

        Named<Case> named() {
            return Named.of(name, this);
        }
    }

    @Inject
    RedisCalls redis;

    @Inject
    RedisKeys keys;

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void refusedWithAProblemAndNothingEnqueued(Case refused) {
        QueueSnapshot before = QueueSnapshot.settled(redis, keys);

        Problems.Reply reply = Problems.Reply.of(refused.request().send());

        Problems.check(reply, refused.status(), refused.field());
        for (String word : refused.mentions()) {
            assertTrue(reply.body().contains(word), () -> "should mention " + word + ": " + reply.body());
        }
        assertEquals(before, QueueSnapshot.take(redis, keys), "nothing may be enqueued");
        for (String path : refused.request().absentAfter()) {
            assertEquals(404, BadRequest.get(path).send().statusCode(), path + " was created");
        }
    }

    static Stream<Named<Case>> cases() {
        return Stream.of(idCases(), typeCases(), priorityCases(), voucherCases(), paymentCases(), bodyCases(), batchCases(),
                accountCases(), campaignCases()).flatMap(s -> s).map(Case::named);
    }

    private static Stream<Case> idCases() {
        Stream<Case> malformed = Stream.of(str("a b"), str("{x}"), str("a*b"), str("a\nb"), str("x".repeat(129)),
                str("-abc"), str("café"), str(""), "123", "true", "{}")
                .map(id -> task("id = " + label(id), validTask("unused").with("id", id), "id"));
        // payment and voucher set require-id: no UUID is made up for them, a retry would run again
        Stream<Case> required = Stream.of("null", null).flatMap(id -> Stream.of(
                task("payment id = " + label(id), validTask("unused").withOrWithout("id", id), "id")
                        .mentioning("required", "payment"),
                task("voucher id = " + label(id), Bodies.task("unused", "voucher", Bodies.voucher())
                        .withOrWithout("id", id), "id").mentioning("required", "voucher")));
        return Stream.concat(malformed, required);
    }

    private static Stream<Case> typeCases() {
        return Stream.of(
                taskField("type", str("refund")).mentioning("payment", "voucher"),
                taskField("type", null),
                taskField("type", "5"),
                taskField("type", str("")),
                taskField("type", str("PAYMENT")));
    }

    private static Stream<Case> priorityCases() {
        return Stream.of("10", "-1", "2.5", "1e1", str("9"), str("high"), "true", "{}", "[9]", "2147483648")
                .map(level -> taskField("priority", level).mentioning("0", "9"));
    }

    private static Stream<Case> voucherCases() {
        return Stream.of(
                voucherField("campaignId", null),
                voucherField("customerId", null),
                voucherField("campaignId", str("a b")),
                voucherField("campaignId", str("{c}")),
                voucherField("customerId", str("x".repeat(129))),
                voucherField("customerId", str("}:lock:x")),
                voucherField("customerId", "42"));
    }

    private static Stream<Case> paymentCases() {
        return Stream.of(
                paymentField("amount", "0"),
                paymentField("amount", "-5"),
                paymentField("amount", str("-5.00")),
                paymentField("amount", "12.345"),
                paymentField("amount", str("12.345")),
                paymentField("amount", "1000000000.01"),
                paymentField("amount", str("1000000000.01")),
                paymentField("amount", "1000000001"),
                paymentField("amount", str("NaN")),
                paymentField("amount", str("Infinity")),
                paymentField("amount", str("-Infinity")),
                paymentField("amount", "true"),
                paymentField("amount", str("1e3")),
                paymentField("amount", "null"),
                paymentField("amount", "{}"),
                paymentField("amount", "[12.5]"),
                paymentField("amount", str("")),
                paymentField("amount", str(" 12.50")),
                paymentField("amount", null),
                unreadableAmount("NaN"),
                unreadableAmount("Infinity"),
                unreadableAmount("-Infinity"),
                unreadableAmount("1e2147483648"),
                paymentField("currency", str("eur")),
                paymentField("currency", str("EURO")),
                paymentField("currency", str("EU")),
                paymentField("currency", "978"),
                paymentField("currency", null),
                paymentField("reference", str("r".repeat(257))),
                paymentField("reference", "5"),
                paymentField("reference", null),
                paymentField("accountId", str("a b")),
                paymentField("accountId", str("-acc")),
                paymentField("accountId", str("x".repeat(129))),
                paymentField("accountId", "42"),
                paymentField("accountId", null),
                paymentField("note", str("an unknown payload field")),
                taskField("payload", str("x")),
                taskField("payload", "[]"),
                taskField("payload", "5"),
                taskField("payload", "null"),
                taskField("payload", null));
    }

    private static Stream<Case> bodyCases() {
        String id = uniqueId("val");
        String valid = validTask(id).toString();
        return Stream.of(
                rawTask("body is an array", "[]", "body"),
                rawTask("body is a string", str("task"), "body"),
                rawTask("body is a number", "42", "body"),
                rawTask("body is null", "null", "body"),
                rawTask("body is empty", "", "body"),
                rawTask("body is blank", "  \n ", "body"),
                rawTask("body is truncated", valid.substring(0, valid.length() / 2), "body", id),
                rawTask("body has trailing garbage", valid + "}", "body", id),
                rawTask("body is malformed", "{\"id\":", "body"),
                task("duplicate key", validTask(id).duplicate("type", str("voucher")), "body", id),
                new Case("text/plain", BadRequest.post("/api/tasks", utf8(valid), taskPath(id))
                        .withContentType("text/plain"), 415, null, List.of()),
                new Case("body of 65537 bytes", BadRequest.post("/api/tasks",
                        Bodies.paddedTo(validTask(id), Bodies.MAX_BODY_BYTES + 1), taskPath(id)), 413, null, List.of()));
    }

    private static Stream<Case> batchCases() {
        List<String> ids = IntStream.range(0, 3).mapToObj(i -> uniqueId("val")).toList();
        List<String> many = IntStream.range(0, 1001).mapToObj(i -> uniqueId("many")).toList();
        List<RawJson> valid = ids.stream().map(ValidationTest::validTask).toList();
        return Stream.of(
                batch("1001 tasks", Bodies.batch(many.stream().map(ValidationTest::validTask).toList()), "tasks",
                        many.get(0), many.get(1000)),
                batch("empty tasks", Bodies.batch(List.of()), "tasks"),
                batch("tasks is an object", RawJson.object().with("tasks", "{}"), "tasks"),
                batch("tasks is a string", RawJson.object().with("tasks", str("x")), "tasks"),
                batch("tasks is null", RawJson.object().with("tasks", "null"), "tasks"),
                batch("tasks missing", RawJson.object(), "tasks"),
                batch("unknown field beside tasks", Bodies.batch(valid).with("priority", "1"), "priority", ids),
                batch("tasks[1] with a bad currency", Bodies.batch(replace(valid, 1, validTask(ids.get(1))
                        .with("payload", Bodies.payment(ACCOUNT).with("currency", str("eur"))))),
                        "tasks[1].payload.currency", ids),
                batch("tasks[2] with a bad id", Bodies.batch(replace(valid, 2, validTask("bad id"))), "tasks[2].id", ids),
                batch("tasks[1] without an id", Bodies.batch(replace(valid, 1, validTask("unused").without("id"))),
                        "tasks[1].id", ids).mentioning("required"),
                batch("tasks[2] with a null id", Bodies.batch(replace(valid, 2, validTask("unused").with("id", "null"))),
                        "tasks[2].id", ids).mentioning("required"),
                batch("tasks[1] is not an object", Bodies.batch(replace(valid, 1, "5")), "tasks[1]", ids),
                batch("tasks[2] with priority 10", Bodies.batch(replace(valid, 2, validTask(ids.get(2)).with("priority", "10"))),
                        "tasks[2].priority", ids),
                batch("tasks[0] has an unknown type", Bodies.batch(replace(valid, 0, validTask(ids.get(0))
                        .with("type", str("refund")))), "tasks[0].type", ids).mentioning("payment", "voucher"));
    }

    private static Stream<Case> accountCases() {
        return Stream.of(
                accountField("currency", "5"),
                accountField("currency", str("eur")),
                accountField("currency", null),
                accountField("balance", "-1"),
                accountField("balance", str("-0.01")),
                accountField("balance", str("1.005")),
                accountField("balance", "1.005"),
                accountField("balance", "true"),
                accountField("balance", str("abc")),
                accountField("balance", str("NaN")),
                accountField("balance", "1000000000000.01"),
                accountField("balance", "null"),
                accountField("balance", null),
                accountField("owner", str("an unknown field")),
                badPathId("/api/accounts/", "a%20b", Bodies.account()),
                badPathId("/api/accounts/", "-x", Bodies.account()),
                badPathId("/api/accounts/", "%7Bx%7D", Bodies.account()));
    }

    private static Stream<Case> campaignCases() {
        return Stream.of(
                campaignField("stock", "-1"),
                campaignField("stock", str("5")),
                campaignField("stock", "1.5"),
                campaignField("stock", "true"),
                campaignField("stock", "100000001"),
                campaignField("stock", null),
                campaignField("value", "0"),
                campaignField("value", str("1.234")),
                campaignField("value", str("NaN")),
                campaignField("value", "1000000000.01"),
                campaignField("value", null),
                campaignField("currency", str("usd")),
                campaignField("currency", "true"),
                badPathId("/api/campaigns/", "a%20b", Bodies.campaign()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("acceptedBodies")
    void acceptedAtTheEdges(String id, byte[] body) {
        QueueSnapshot before = QueueSnapshot.settled(redis, keys);

        Response response = given().contentType(ContentType.JSON).body(body).post("/api/tasks");

        assertEquals(202, response.statusCode(), response.asString());
        assertEquals(id, response.jsonPath().getString("id"));
        long enqueued = QueueSnapshot.take(redis, keys).enqueued().get("payment");
        assertEquals(before.enqueued().get("payment") + 1, enqueued, "enqueued once");
        given().get(taskPath(id)).then().statusCode(200);
    }

    static Stream<Arguments> acceptedBodies() {
        String number = uniqueId("num");
        String string = uniqueId("str");
        String max = uniqueId("max");
        String min = uniqueId("min");
        String longest = "L" + uniqueId("").repeat(4).substring(0, 127);
        String padded = uniqueId("pad");
        String lowest = uniqueId("p0");
        String highest = uniqueId("p9");
        String unset = uniqueId("pnull");
        return Stream.of(
                accepted("priority 0", lowest, validTask(lowest).with("priority", "0")),
                accepted("priority 9", highest, validTask(highest).with("priority", "9")),
                accepted("priority null", unset, validTask(unset).with("priority", "null")),
                accepted("amount 12.5 as a number", number, validTask(number).with("payload",
                        Bodies.payment(ACCOUNT).with("amount", "12.5"))),
                accepted("amount \"12.50\" as a string", string, validTask(string)),
                accepted("amount 1000000000", max, validTask(max).with("payload",
                        Bodies.payment(ACCOUNT).with("amount", "1000000000"))),
                accepted("amount \"0.01\"", min, validTask(min).with("payload",
                        Bodies.payment(ACCOUNT).with("amount", str("0.01")))),
                accepted("id of 128 characters", longest, validTask(longest)),
                accepted("body of exactly 65536 bytes", padded, Bodies.paddedTo(validTask(padded), Bodies.MAX_BODY_BYTES)));
    }

    @Test
    void secondPutOfAnAccountIsAConflictAndChangesNothing() {
        String id = uniqueId("acc");
        given().contentType(ContentType.JSON).body(Bodies.account().toString()).put("/api/accounts/" + id)
                .then().statusCode(201);

        Response again = given().contentType(ContentType.JSON)
                .body(Bodies.account().with("currency", str("USD")).with("balance", str("5.00")).toString())
                .put("/api/accounts/" + id);

        Problems.check(Problems.Reply.of(again), 409, null);
        JsonPath account = given().get("/api/accounts/" + id).then().statusCode(200).extract().jsonPath();
        assertEquals("EUR", account.getString("currency"));
        assertEquals(0, new BigDecimal("100.00").compareTo(new BigDecimal(account.getString("balance"))), account.prettify());
        assertEquals(List.of(), account.getList("ledger"));
    }

    @Test
    void secondPutOfACampaignIsAConflictAndChangesNothing() {
        String id = uniqueId("camp");
        given().contentType(ContentType.JSON).body(Bodies.campaign().toString()).put("/api/campaigns/" + id)
                .then().statusCode(201);

        Response again = given().contentType(ContentType.JSON)
                .body(Bodies.campaign().with("stock", "99").with("value", str("1.00")).toString())
                .put("/api/campaigns/" + id);

        Problems.check(Problems.Reply.of(again), 409, null);
        JsonPath campaign = given().get("/api/campaigns/" + id).then().statusCode(200).extract().jsonPath();
        assertEquals(10, campaign.getLong("stock"), campaign.prettify());
        assertEquals(0, new BigDecimal("10.00").compareTo(new BigDecimal(campaign.getString("value"))), campaign.prettify());
        assertEquals("EUR", campaign.getString("currency"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "abc", "-1", "10001", "1.5"})
    void limitOutsideItsRangeIsRefused(String limit) {
        String account = openAccount("EUR", "1.00");

        Response response = given().queryParam("limit", limit).get("/api/accounts/" + account);

        Problems.check(Problems.Reply.of(response), 400, "limit");
    }

    private static RawJson validTask(String id) {
        return Bodies.task(id, "payment", Bodies.payment(ACCOUNT));
    }

    private static Case task(String name, RawJson body, String field, String... ids) {
        return new Case(name, BadRequest.post("/api/tasks", utf8(body.toString()), taskPaths(ids)), 400, field, List.of());
    }

    private static Case rawTask(String name, String body, String field, String... ids) {
        return new Case(name, BadRequest.post("/api/tasks", utf8(body), taskPaths(ids)), 400, field, List.of());
    }

    /** A valid payment task with one top-level field set to {@code json} (null: removed). */
    private static Case taskField(String field, String json) {
        String id = uniqueId("val");
        return task(field + " = " + label(json), validTask(id).withOrWithout(field, json), field, id);
    }

    private static Case paymentField(String field, String json) {
        String id = uniqueId("val");
        return task("payload." + field + " = " + label(json),
                validTask(id).with("payload", Bodies.payment(ACCOUNT).withOrWithout(field, json)), "payload." + field, id);
    }

    /** A bare token that JSON does not have, or a number no parser can hold: the body cannot be read at all. */
    private static Case unreadableAmount(String token) {
        String id = uniqueId("val");
        return task("payload.amount = bare " + token,
                validTask(id).with("payload", Bodies.payment(ACCOUNT).with("amount", token)), "body", id);
    }

    private static Case voucherField(String field, String json) {
        String id = uniqueId("val");
        return task("voucher payload." + field + " = " + label(json),
                Bodies.task(id, "voucher", Bodies.voucher().withOrWithout(field, json)), "payload." + field, id);
    }

    private static Case batch(String name, RawJson body, String field, List<String> ids) {
        return batch(name, body, field, ids.toArray(String[]::new));
    }

    private static Case batch(String name, RawJson body, String field, String... ids) {
        return new Case("batch: " + name, BadRequest.post("/api/tasks/batch", utf8(body.toString()), taskPaths(ids)),
                400, field, List.of());
    }

    private static Case accountField(String field, String json) {
        String id = uniqueId("acc");
        return new Case("account " + field + " = " + label(json), BadRequest.put("/api/accounts/" + id,
                utf8(Bodies.account().withOrWithout(field, json).toString()), "/api/accounts/" + id),
                400, field, List.of());
    }

    private static Case campaignField(String field, String json) {
        String id = uniqueId("camp");
        return new Case("campaign " + field + " = " + label(json), BadRequest.put("/api/campaigns/" + id,
                utf8(Bodies.campaign().withOrWithout(field, json).toString()), "/api/campaigns/" + id),
                400, field, List.of());
    }

    private static Case badPathId(String base, String encodedId, RawJson body) {
        return new Case("PUT " + base + encodedId, BadRequest.put(base + encodedId, utf8(body.toString())),
                400, "id", List.of());
    }

    private static Arguments accepted(String name, String id, RawJson body) {
        return accepted(name, id, utf8(body.toString()));
    }

    private static Arguments accepted(String name, String id, byte[] body) {
        return Arguments.of(Named.of(name, id), body);
    }

    /** The tasks with one replaced by any JSON (its toString), valid or not. */
    private static List<Object> replace(List<RawJson> tasks, int index, Object replacement) {
        List<Object> copy = new ArrayList<>(tasks);
        copy.set(index, replacement);
        return copy;
    }

    private static String taskPath(String id) {
        return "/api/tasks/" + id;
    }

    private static String[] taskPaths(String... ids) {
        return Arrays.stream(ids).map(ValidationTest::taskPath).toArray(String[]::new);
    }

    private static String label(String json) {
        if (json == null) {
            return "(missing)";
        }
        return json.length() <= 40 ? json : json.substring(0, 20) + "...(" + json.length() + " chars)";
    }

}
