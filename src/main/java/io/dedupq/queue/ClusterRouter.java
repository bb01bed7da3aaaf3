package io.dedupq.queue;

import io.vertx.core.CompositeFuture;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisOptions;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Sends each command on a Redis Cluster to the master that serves its hash slot, over a
 * standalone client per master. The Vert.x cluster client (4.5) takes a connection to every
 * node of its slot map, replicas included, for every command, and fails the command when any of
 * them cannot be reached: one replica that died stopped every queue until the cluster flagged
 * it as failed. Here a command needs the master of its own slot only, so a node that is down
 * stops the queues of its slots and no others.
 * <p>
 * The slot map is CLUSTER SLOTS of the first node that answers (the masters of the last map and
 * the configured hosts are asked at once). It is read again after a command failed (a master
 * may have been replaced), at most once a second, and a MOVED reply sends the command on to the
 * node it names at once (ASK, during a slot's migration, with ASKING before it).
 */
final class ClusterRouter implements RedisNodes {

    private static final int SLOTS = 16384;
    private static final Pattern REDIRECT = Pattern.compile("(MOVED|ASK) \\d+ (\\S+)");
    private static final long READ_AGAIN_AFTER_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final Vertx vertx;
    private final RedisOptions options;
    private final Map<String, Redis> clients = new ConcurrentHashMap<>();
    /** The last slot map read; null before the first reading. */
    private volatile SlotMap known;
    /** The reading of the slot map under way, if any: one at a time. */
    private final AtomicReference<Future<SlotMap>> reading = new AtomicReference<>();
    private volatile long readAt = System.nanoTime() - READ_AGAIN_AFTER_NANOS;

    ClusterRouter(Vertx vertx, RedisOptions options) {
        this.vertx = vertx;
        this.options = new RedisOptions(options);
    }

    @Override
    public Future<Response> send(int slot, Request request) {
        return routed(slot, client -> client.send(request), (client, asking) -> asking
                ? client.batch(List.of(Request.cmd(Command.ASKING), request)).map(replies -> replies.get(1))
                : client.send(request));
    }

    @Override
    public Future<List<Response>> batch(int slot, List<Request> requests) {
        return routed(slot, client -> client.batch(requests), (client, asking) -> asking
                ? client.batch(withAsking(requests)).map(ClusterRouter::withoutAsking)
                : client.batch(requests));
    }

    @Override
    public void close() {
        clients.values().forEach(Redis::close);
    }

    /**
     * A reading of CLUSTER SLOTS: host:port of the master of each slot (null: no master serves
     * it), and the masters once each, for keyless commands and the next reading.
     */
    private record SlotMap(String[] bySlot, List<String> masters) {

        SlotMap(String[] bySlot) {
            this(bySlot, Arrays.stream(bySlot).filter(Objects::nonNull).distinct().toList());
        }

        String master(int slot) {
            if (bySlot[slot] == null) {
                throw new IllegalStateException("no master of the Redis Cluster serves hash slot " + slot);
            }
            return bySlot[slot];
        }

        /** The masters in a random order: keyless commands spread over them. */
        List<String> shuffled() {
            List<String> order = new ArrayList<>(masters);
            Collections.shuffle(order, ThreadLocalRandom.current());
            return order;
        }
    }

    private interface Redirected<T> {
        Future<T> send(Redis client, boolean asking);
    }

    /**
     * Sends to the master of {@code slot}, or for a keyless command to the masters in turn until
     * one can be reached; a MOVED or ASK reply sends it once more, where the reply says.
     */
    private <T> Future<T> routed(int slot, Function<Redis, Future<T>> send, Redirected<T> redirected) {
        return slotMap().compose(map -> slot < 0 ? anyMaster(map.shuffled(), 0, send)
                : send.apply(client(map.master(slot)))).recover(e -> {
                    Matcher redirect = redirect(e);
                    readAgain();
                    if (redirect == null) {
                        return Future.failedFuture(e);
                    }
                    return redirected.send(client(redirect.group(2)), "ASK".equals(redirect.group(1)));
                });
    }

    /** The next master after one that refused the connection: the command did not reach it, so it is sent once. */
    private <T> Future<T> anyMaster(List<String> masters, int at, Function<Redis, Future<T>> send) {
        return send.apply(client(masters.get(at))).recover(e -> at + 1 < masters.size()
                && RedisReplies.connectFailure(e) != null ? anyMaster(masters, at + 1, send) : Future.failedFuture(e));
    }

    private static Matcher redirect(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            Matcher m = t.getMessage() == null ? null : REDIRECT.matcher(t.getMessage());
            if (m != null && m.find()) {
                return m;
            }
        }
        return null;
    }

    private Future<SlotMap> slotMap() {
        SlotMap map = known;
        return map != null ? Future.succeededFuture(map) : read();
    }

    /** A new reading of the slot map, unless one is under way or the last began less than a second ago. */
    private void readAgain() {
        if (System.nanoTime() - readAt >= READ_AGAIN_AFTER_NANOS) {
            read();
        }
    }

    private Future<SlotMap> read() {
        Promise<SlotMap> promise = Promise.promise();
        if (!reading.compareAndSet(null, promise.future())) {
            Future<SlotMap> running = reading.get();
            return running != null ? running : slotMap();
        }
        readAt = System.nanoTime();
        SlotMap last = known;
        Set<String> askable = new LinkedHashSet<>(last == null ? List.of() : last.masters());
        options.getEndpoints().forEach(endpoint -> askable.add(ClusterAddresses.address(endpoint)));
        List<Future<SlotMap>> asks = askable.stream()
                .map(address -> client(address).send(Request.cmd(Command.CLUSTER).arg("SLOTS"))
                        .map(reply -> slotMap(reply, address)))
                .toList();
        // a node that takes the connection and never answers (SIGSTOP) must not hold the reading up for good
        Future.any(asks).timeout(RedisGateway.REPLY_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS).onComplete(any -> {
            if (any.succeeded()) {
                known = first(any.result());
            }
            reading.set(null);
            if (any.succeeded()) {
                promise.complete(known);
            } else {
                promise.fail(new IllegalStateException("no node of the Redis Cluster told its slot map (asked "
                        + askable + ")", any.cause()));
            }
        });
        return promise.future();
    }

    private static SlotMap first(CompositeFuture answers) {
        for (int i = 0; i < answers.size(); i++) {
            if (answers.succeeded(i)) {
                return answers.resultAt(i);
            }
        }
        throw new IllegalStateException("Future.any succeeded without a result");
    }

    /**
     * CLUSTER SLOTS: per range, its first and last slot, then its master as (host, port, ...). A
     * node that does not know its own host names it "" ({@code asked} is that node's address).
     */
    private static SlotMap slotMap(Response reply, String asked) {
        String[] map = new String[SLOTS];
        for (Response range : reply) {
            Response master = range.get(2);
            String host = master.get(0).toString();
            String address = (host.isEmpty() || "?".equals(host) ? asked.substring(0, asked.lastIndexOf(':')) : host)
                    + ":" + master.get(1).toInteger();
            Arrays.fill(map, range.get(0).toInteger(), range.get(1).toInteger() + 1, address);
        }
        return new SlotMap(map);
    }

    /** The client of the node at {@code address}, made on first use, with the pool settings of the configured client. */
    private Redis client(String address) {
        return clients.computeIfAbsent(address, a -> Redis.createClient(vertx, ClusterAddresses.node(options, a)
                .setPoolName(options.getPoolName() + "@" + a)));
    }

    /** ASKING before every command: it lets only the next one into a migrating slot. */
    private static List<Request> withAsking(List<Request> requests) {
        List<Request> asking = new ArrayList<>(2 * requests.size());
        requests.forEach(request -> {
            asking.add(Request.cmd(Command.ASKING));
            asking.add(request);
        });
        return asking;
    }

    private static List<Response> withoutAsking(List<Response> replies) {
        List<Response> own = new ArrayList<>(replies.size() / 2);
        for (int i = 1; i < replies.size(); i += 2) {
            own.add(replies.get(i));
        }
        return own;
    }
}
