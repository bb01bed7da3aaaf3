package io.dedupq.config;

import io.dedupq.queue.RateLimit;
import org.eclipse.microprofile.config.spi.Converter;

/** Reads {@code dedupq.queues.<q>.rate-limit} and {@code group-rate-limit}; a wrong value stops the start with the reason. */
public class RateLimitConverter implements Converter<RateLimit> {

    @Override
    public RateLimit convert(String value) {
        return RateLimit.parse(value);
    }
}
