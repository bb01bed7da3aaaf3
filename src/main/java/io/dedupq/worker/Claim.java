package io.dedupq.worker;

/** One copy this worker owns: the envelope as it sits in the processing list, its lock token and fence. */
public record Claim(String envelope, String token, long fence) {
}
