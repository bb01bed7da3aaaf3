package io.dedupq.worker;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dedupq.config.DedupqJson;
import io.dedupq.queue.RedisKeys;
import io.vertx.core.Vertx;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Redis;
import io.vertx.mutiny.redis.client.RedisConnection;
import io.vertx.mutiny.redis.client.Request;
import io.vertx.mutiny.redis.client.Response;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

/**
 * Hears cancel.lua's notices of cancelled running tasks and hands each to the {@link Watchdog},
 * which interrupts the execution if it runs here. It SUBSCRIBEs on a connection of its own from
 * the app's Redis client (a subscribed connection carries nothing else); when that connection
 * fails or Redis restarts, it connects and subscribes again after a pause. A notice sent while
 * it was away is not repeated: the watchdog's next lock extension finds the lock gone and the
 * task cancelled, and does the same.
 */
@ApplicationScoped
public class CancelListener {

    private static final Logger LOG = Logger.getLogger(CancelListener.class);
    private static final long RECONNECT_MILLIS = 1000;

    private final Redis redis;
    private final RedisKeys keys;
    private final Watchdog watchdog;
    private final ObjectMapper mapper;
    private final Vertx vertx;
    /** The subscribed connection, or null between connections; guarded by this. */
    private RedisConnection connection;
    private boolean running;
    private boolean warned;

    public CancelListener(Redis redis, RedisKeys keys, Watchdog watchdog, @DedupqJson ObjectMapper mapper, Vertx vertx) {
        this.redis = redis;
        this.keys = keys;
        this.watchdog = watchdog;
        this.mapper = mapper;
        this.vertx = vertx;
    }

    public synchronized void start() {
        running = true;
        connect();
    }

    public synchronized void stop() {
        running = false;
        if (connection != null) {
            connection.closeAndForget();
            connection = null;
        }
    }

    /** True while subscribed (for tests and health: a notice can be heard). */
    public synchronized boolean subscribed() {
        return connection != null;
    }

    private void connect() {
        redis.connect().subscribe().with(this::subscribe, this::retry);
    }

    private void subscribe(RedisConnection opened) {
        synchronized (this) {
            if (!running) {
                opened.closeAndForget();
                return;
            }
        }
        opened.handler(this::heard);
        opened.exceptionHandler(failure -> lost(opened, failure));
        opened.endHandler(() -> lost(opened, null));
        opened.send(Request.cmd(Command.SUBSCRIBE).arg(keys.cancelChannel())).subscribe().with(ok -> {
            synchronized (this) {
                if (!running) {
                    opened.closeAndForget();
                    return;
                }
                connection = opened;
                if (warned) {
                    LOG.infof("subscribed to %s again", keys.cancelChannel());
                }
                warned = false;
            }
        }, failure -> {
            opened.closeAndForget();
            retry(failure);
        });
    }

    /** A subscribed connection ended: connect again, unless stopping. */
    private void lost(RedisConnection ended, Throwable failure) {
        synchronized (this) {
            if (connection != ended) {
                return;
            }
            connection = null;
        }
        ended.closeAndForget();
        retry(failure);
    }

    private void retry(Throwable failure) {
        synchronized (this) {
            if (!running) {
                return;
            }
            if (!warned) {
                // once per outage: the watchdog covers the notices missed meanwhile
                LOG.warnf("not subscribed to %s (%s); trying again every %d ms, lost locks' checks cover the gap",
                        keys.cancelChannel(), failure == null ? "connection closed" : failure.getMessage(), RECONNECT_MILLIS);
                warned = true;
            }
        }
        vertx.setTimer(RECONNECT_MILLIS, id -> {
            synchronized (this) {
                if (!running) {
                    return;
                }
            }
            connect();
        });
    }

    /** A pushed message: {@code [message, channel, {"id","token"}]} in RESP2 and RESP3 alike; anything else is ignored. */
    private void heard(Response push) {
        if (push.size() != 3 || !"message".equals(push.get(0).toString())) {
            return;
        }
        try {
            JsonNode notice = mapper.readTree(push.get(2).toString());
            if (notice.path("token").isTextual()) {
                watchdog.cancelled(notice.path("token").textValue());
            }
        } catch (JsonProcessingException e) {
            LOG.debugf("ignored a message on %s that is not a cancel notice", keys.cancelChannel());
        }
    }
}
