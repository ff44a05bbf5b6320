package io.ratatosk.core;

/**
 * A policy's hit filter ({@link EvictionPolicy#hitFilter()}) as one object the page cache's read hit path keeps: a
 * hit on a frame whose policy word it {@link #skips} changes nothing, so no call into the policy is made.
 *
 * <p>Its own final class, not two calls on the policy: the cursor then loads the filter and its two words with no
 * check of the policy's class first (docs/benchmarks.md, "The hit filter as one object"). A policy whose filter
 * changes as it runs (best-of, at a switch) keeps one instance and {@link #set}s it; the fields are plain, read
 * racily: a stale mask with a fresh value, or a stale filter with a fresh word, is at worst one hit lost or one
 * passed on for nothing.
 */
public final class HitFilter {
    /** Mask 0 and value 1: no word matches, so every hit is passed on. */
    private static final long PASS_MASK = 0;
    private static final long PASS_VALUE = 1;

    private long mask;
    private long value;

    public HitFilter(long mask, long value) {
        set(mask, value);
    }

    /** A filter that skips no hit: every one reaches {@link EvictionPolicy#onHit}. A new instance (filters are mutable). */
    public static HitFilter passingEveryHit() {
        return new HitFilter(PASS_MASK, PASS_VALUE);
    }

    /** Makes this filter skip no hit, as {@link #passingEveryHit()}'s. */
    public void passEveryHit() {
        set(PASS_MASK, PASS_VALUE);
    }

    /** Whether a hit on a frame with this policy word needs no call. */
    public boolean skips(long policyWord) {
        return (policyWord & mask) == value;
    }

    public void set(long mask, long value) {
        this.mask = mask;
        this.value = value;
    }

    public long mask() {
        return mask;
    }

    public long value() {
        return value;
    }
}
