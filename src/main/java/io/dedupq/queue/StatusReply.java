package io.dedupq.queue;

import io.vertx.mutiny.redis.client.Response;

/**
 * The {@code {code, status}} reply that cancel.lua and revive.lua share: code 1 when the script
 * did its work, 0 when it found nothing to work on, -1 when the task's status forbade it.
 *
 * @param answer what the code means to that script
 * @param status the task's status after the call, or the one that forbade it; "" when nothing was found
 */
public record StatusReply<A extends Enum<A>>(A answer, String status) {

    static <A extends Enum<A>> StatusReply<A> read(Response reply, A done, A nothing, A refused) {
        int code = reply.get(0).toInteger();
        return new StatusReply<>(code == 1 ? done : code == 0 ? nothing : refused, reply.get(1).toString());
    }
}
