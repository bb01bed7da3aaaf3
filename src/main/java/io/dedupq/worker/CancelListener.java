package io.dedupq.worker;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dedupq.config.DedupqJson;
import io.dedupq.queue.ClusterAddresses;
import io.dedupq.queue.RedisKeys;
import io.dedupq.queue.RedisSettings;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisClientType;
import io.vertx.redis.client.RedisConnection;
import io.vertx.redis.client.RedisOptions;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * Hears cancel.lua's notices of cancelled running tasks and hands each to the {@link Watchdog},
 * which interrupts the execution if it runs here. It SUBSCRIBEs on a connection of a Redis client
 * of its own, never the app's: a subscribed connection carries nothing else, and a Sentinel
 * failover reconnects whatever connection a client holds, which must not cost the app's pool one.
 * When the subscription fails or Redis restarts, it connects and subscribes again after a pause.
 * On a Redis Cluster a notice published on one node reaches every node, so it subscribes on one
 * configured node at a time, the next one at each new try: a node that is down is passed over
 * (the Vert.x cluster client could not connect at all while any node was down). A notice sent
 * meanwhile is not repeated: the watchdog's next lock extension finds the lock gone
 * and the task cancelled, and does the same.
 */
@ApplicationScoped
public class CancelListener {

    private static final Logger LOG = Logger.getLogger(CancelListener.class);
    private static final String NAME = "dedupq-cancel";
    private static final long RECONNECT_MILLIS = 1000;
    /** One subscription, and a spare for a connection a failover may still be handing over. */
    private static final int CONNECTIONS = 2;

    private final RedisSettings settings;
    private final RedisKeys keys;
    private final Watchdog watchdog;
    private final ObjectMapper mapper;
    private final Vertx vertx;
    /** All below guarded by this. One client, or on a Cluster one per configured node, tried in turn. */
    private List<Redis> clients = List.of();
    private int tries;
    /** The connection subscribing or subscribed, null between connections. */
    private RedisConnection connection;
    private boolean subscribed;
    private boolean running;
    private boolean warned;

    public CancelListener(RedisSettings settings, RedisKeys keys, Watchdog watchdog, @DedupqJson ObjectMapper mapper,
            Vertx vertx) {
        this.settings = settings;
        this.keys = keys;
        this.watchdog = watchdog;
        this.mapper = mapper;
        this.vertx = vertx;
    }

    public synchronized void start() {
        running = true;
        if (clients.isEmpty()) {
            // clients for the app's life: each new one would register its pool's meters again
            RedisOptions options = settings.ownClient(NAME).setMaxPoolSize(CONNECTIONS);
            clients = options.getType() != RedisClientType.CLUSTER ? List.of(Redis.createClient(vertx, options))
                    : options.getEndpoints().stream().map(ClusterAddresses::address).map(node -> Redis.createClient(vertx,
                            ClusterAddresses.node(options, node).setPoolName(NAME + "@" + node))).toList();
        }
        connect();
    }

    public synchronized void stop() {
        running = false;
        subscribed = false;
        if (connection != null) {
            connection.close();
            connection = null;
        }
    }

    @PreDestroy
    synchronized void close() {
        stop();
        clients.forEach(Redis::close);
        clients = List.of();
    }

    /** True while subscribed (for tests and health: a notice can be heard). */
    public synchronized boolean subscribed() {
        return subscribed;
    }

    private synchronized void connect() {
        if (running) {
            clients.get(tries++ % clients.size()).connect().onSuccess(this::subscribe)
                    .onFailure(failure -> retry(null, failure));
        }
    }

    private void subscribe(RedisConnection opened) {
        synchronized (this) {
            if (!running) {
                opened.close();
                return;
            }
            connection = opened;
        }
        opened.handler(this::heard);
        opened.exceptionHandler(failure -> retry(opened, failure));
        opened.endHandler(ended -> retry(opened, null));
        opened.send(Request.cmd(Command.SUBSCRIBE).arg(keys.cancelChannel())).onSuccess(ok -> {
            synchronized (this) {
                if (connection != opened) {
                    return;
                }
                subscribed = true;
                if (warned) {
                    LOG.infof("subscribed to %s again", keys.cancelChannel());
                }
                warned = false;
            }
        }).onFailure(failure -> retry(opened, failure));
    }

    /**
     * The subscription on {@code lost} (null: no connection was had) ended or never began: connect
     * again after a pause, unless stopping. Closing a subscribed connection hands it back to no one
     * (the client drops a connection that was subscribed), so closing it twice costs nothing.
     */
    private void retry(RedisConnection lost, Throwable failure) {
        synchronized (this) {
            if (lost != null) {
                if (connection != lost) {
                    return;
                }
                connection = null;
                subscribed = false;
                lost.close();
            }
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
        vertx.setTimer(RECONNECT_MILLIS, id -> connect());
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
