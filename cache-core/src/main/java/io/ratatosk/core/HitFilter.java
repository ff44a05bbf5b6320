package io.ratatosk.core;

/**
 * A policy's hit filter as one object the page cache's read hit path keeps: a hit on a frame whose policy word
 * {@link #skips} changes nothing, so no call into the policy is made (see {@link EvictionPolicy#hitSkipMask()}).
 *
 * <p>Its own final class, not two calls on the policy: the cursor then loads the filter and its two words with no
 * check of the policy's class first (on a muninn hit, 93 instructions instead of 96). A policy whose filter changes
 * as it runs (best-of, at a switch) keeps one instance and {@link #set}s it; the fields are plain, read racily, as
 * {@link EvictionPolicy#hitSkipMask()} allows: a stale mask with a fresh value is at worst one hit lost or one
 * passed on for nothing.
 */
public final class HitFilter {
    private long mask;
    private long value;

    public HitFilter(long mask, long value) {
        set(mask, value);
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
