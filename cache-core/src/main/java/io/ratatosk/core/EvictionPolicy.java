package io.ratatosk.core;

/**
 * Decides which frame to evict. The page cache (many threads, real frames) and the trace simulator
 * (one thread, metadata only) drive the same implementation through this interface; a policy keeps
 * its per-frame state in the {@link FrameTable}'s policy word and anything else in fixed arrays
 * allocated at construction.
 *
 * <p>Call order for one frame: {@link #onFault} when it is bound to a page (while the caller holds
 * the frame's exclusive lock), any number of {@link #onHit}, then, once the caller has taken the
 * exclusive lock on a frame returned by {@link #nextVictim}, {@link #onEvicted}. The page cache does
 * the evicting itself (lock, write out if dirty, unbind); a policy never touches lock words.
 *
 * <p>Hot path: {@code onHit} runs on every pin. It must not allocate, block or loop unboundedly;
 * a racy CAS that is not retried is fine.
 */
public interface EvictionPolicy {
    /** Returned by {@link #nextVictim} after a full pass that found no candidate. */
    int NO_VICTIM = -1;

    /** The policy's name as the user selects it, with flag overrides where the simulator adds them. */
    String name();

    /** The page in {@code frame} was accessed and was resident. */
    void onHit(int frame);

    /**
     * The hits {@link #onHit} would ignore, told from the frame's policy word alone: the page cache's read hit path
     * skips the call when the filter {@link HitFilter#skips} the word, so that the common hit of a clock (usage
     * already at its maximum) costs one load and no call. Skipping must change nothing: only a word on which
     * {@code onHit} does nothing may match. Default: a filter that skips nothing.
     *
     * <p>The page cache asks once, at start, keeps the object and reads it on every hit, racily. A policy whose
     * filter changes as it runs (best-of, when it changes expert) returns one instance every time and
     * {@link HitFilter#set}s it; any other may return a new one per call.
     */
    default HitFilter hitFilter() {
        return HitFilter.passingEveryHit();
    }

    /** {@code frame} was just bound to {@code pageKey} after a miss. */
    void onFault(int frame, long pageKey);

    /** {@code frame}, which held {@code pageKey}, was evicted and is now unbound. */
    void onEvicted(int frame, long pageKey);

    /**
     * Advances the policy's hand(s) and returns a frame it wants evicted, which
     * {@link FrameTable#isEvictable} reported evictable when the policy looked; or {@link #NO_VICTIM}
     * once it has passed over every frame without finding one. The caller then tries to take the
     * exclusive lock; if that fails (someone pinned the frame meanwhile) it simply asks again.
     *
     * @param sweep the caller's reusable sweep state: which kind of evictor is asking, and where a
     *              private arm stands (see {@link Sweep})
     */
    int nextVictim(Sweep sweep);

    /**
     * {@code victim}, which {@code policy} named over a table of {@code frameCount} frames, if it is {@link #NO_VICTIM}
     * or a frame of that table; else throws {@link IllegalStateException} naming the policy, the victim and the frames.
     * Such a victim is a bug in the policy, and whoever used it would read or write native memory outside the table,
     * which can crash the JVM. For every caller of {@link #nextVictim} that touches the frame (the page cache's engine,
     * write-aware eviction, best-of's miniatures and its switch): one comparison, nothing built unless it throws.
     *
     * @param asWhat what the policy is to the caller, ahead of its name in the message (a constant, so that nothing is
     *               built on a good victim): "eviction policy ", "best-of: the miniature of "
     */
    static int checkedVictim(int victim, String asWhat, EvictionPolicy policy, int frameCount) {
        if (victim != NO_VICTIM && (victim < 0 || victim >= frameCount)) {
            throw new IllegalStateException(asWhat + policy.name() + " named frame " + victim + " as its victim, which is"
                + " no frame of its table (0 to " + (frameCount - 1) + "): a bug in the policy; nothing was evicted");
        }
        return victim;
    }

    /**
     * Work kept off the fault path (history trimming, list consolidation), run by the background
     * evictor between batches and by the simulator now and then. Default: nothing.
     */
    default void housekeeping() {
    }

    /**
     * The page cache calls this once, before any request, when its background evictor will call
     * {@link #housekeeping} between its batches, and faulting threads never will: work that need not delay
     * a fault may then wait for the evictor (best-of's miniature simulations do). The simulator, and a page
     * cache without an evictor, never call it, so that housekeeping runs where it always did (before each
     * eviction) and a one-thread run stays deterministic. Default: nothing.
     */
    default void housekeepingInBackground() {
    }

    /**
     * Whether {@link #housekeeping} left work for its next call, having stopped early so that the background
     * evictor can refill the free frames in between (best-of's miniatures and w-tinylfu-adaptive's window
     * simulations replay their sampled requests a chunk per call there): the evictor then calls it again before
     * it sleeps. A racy snapshot: a stale answer costs one sleep or one call with nothing to do. Default: false.
     */
    default boolean housekeepingPending() {
        return false;
    }

    /**
     * What the policy says of its own state, for {@code stats()} and the reports (best-of: the expert the frames
     * follow), or "" when it has nothing to say beyond its name. Read without its lock: a snapshot that may
     * lag a concurrent change. Default: "".
     */
    default String state() {
        return "";
    }

    /**
     * The usage-count clock that models this policy for write-aware eviction's shadow sampling: a usage
     * clock's own settings; Muninn's for a policy that is not one.
     */
    default UsageModel usageModel() {
        return UsageModel.MUNINN;
    }

    /**
     * Checks the policy's own bookkeeping against the frames at the end of a single-threaded run
     * and throws {@link IllegalStateException} naming what is inconsistent. Default: nothing.
     */
    default void checkInvariants() {
    }
}
