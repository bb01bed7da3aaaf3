package io.dedupq.worker;

/**
 * One copy this worker owns: the task id and type (as claim.lua read them), the envelope as it
 * sits in the processing list, its lock token and fence.
 */
public record Claim(String id, String type, String envelope, String token, long fence) {
}
