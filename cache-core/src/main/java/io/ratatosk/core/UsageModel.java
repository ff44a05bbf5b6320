package io.ratatosk.core;

/**
 * A usage-count clock's settings (max usage, fault usage, evict threshold): how write-aware eviction's
 * shadow clocks model the policy they wrap. A usage clock reports its own; any other policy is
 * modeled as Muninn's clock.
 */
public record UsageModel(int maxUsage, int faultUsage, int evictThreshold) {
    /** Muninn's fixed settings: usage up to 4, a fault starts at 1, a candidate has at most 1. */
    public static final UsageModel MUNINN = new UsageModel(4, 1, 1);
}
