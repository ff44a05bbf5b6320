package io.ratatosk.core;

import java.util.SplittableRandom;

/**
 * One evicting thread's reusable state for {@link EvictionPolicy#nextVictim}: whether it is the
 * background evictor or a thread evicting cooperatively, whether this eviction episode has just
 * begun, and a private arm position for policies that give each episode its own arm (Muninn's
 * cooperative eviction starts at a random frame). Owned by one thread; allocated once per thread.
 */
public final class Sweep {
    private final boolean background;
    private final SplittableRandom random;
    private boolean fresh = true;
    private long position;

    private Sweep(boolean background, long seed) {
        this.background = background;
        this.random = new SplittableRandom(seed);
    }

    public static Sweep background() {
        return new Sweep(true, System.nanoTime());
    }

    public static Sweep cooperative() {
        return new Sweep(false, System.nanoTime() ^ Thread.currentThread().getId() * 0x9E3779B97F4A7C15L);
    }

    /** A cooperative sweep with a fixed seed, for deterministic tests. */
    public static Sweep cooperative(long seed) {
        return new Sweep(false, seed);
    }

    public boolean isBackground() {
        return background;
    }

    /** Called by the page cache when a new eviction episode starts (one fault, or one evictor batch). */
    public void begin() {
        fresh = true;
    }

    /** True on the first {@code nextVictim} call of an episode; the policy then calls {@link #started}. */
    public boolean isFresh() {
        return fresh;
    }

    public void started() {
        fresh = false;
    }

    public long position() {
        return position;
    }

    public void position(long position) {
        this.position = position;
    }

    /** A random frame index in [0, bound), from this sweep's own generator (no sharing, no allocation). */
    public int randomFrame(int bound) {
        return random.nextInt(bound);
    }
}
