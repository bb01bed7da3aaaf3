package io.dedupq.worker;

/**
 * One copy this worker owns: the task id (as claim.lua read it), the envelope as it sits in
 * the processing list, its lock token and fence.
 */
public record Claim(String id, String envelope, String token, long fence) {
}
