package io.ratatosk.policies.replay;

import io.ratatosk.core.EvictionPolicy;
import io.ratatosk.core.FrameDescriptor;
import io.ratatosk.core.FrameTable;
import io.ratatosk.core.PageKey;
import io.ratatosk.core.Sweep;
import java.util.Arrays;
import java.util.function.Function;

/**
 * A single-threaded page cache over frame metadata only (a {@link FrameTable}, no page buffers) that
 * drives one {@link EvictionPolicy} through the SPI exactly as the page cache without a background
 * evictor does. The trace simulator replays traces with it, and so does every test that replays
 * references through a policy, so that they all count by the same rules:
 * <ul>
 *   <li>a hit calls {@code onHit(frame)}; a write hit holds the frame's write lock around it, which
 *       marks the frame modified;</li>
 *   <li>a miss while frames are free takes the next free frame, in order 0..n-1;</li>
 *   <li>a miss with every frame bound runs {@code housekeeping()}, begins an eviction episode on the
 *       one {@link Sweep} kept for the whole replay, asks {@code nextVictim} until it names a frame,
 *       takes the victim's exclusive lock, counts a write-back if it is modified, unbinds it and calls
 *       {@code onEvicted(victim, oldKey)};</li>
 *   <li>the missed page is always admitted: bound, then {@code onFault(frame, key)} under the
 *       exclusive lock, which a write fault turns into a write lock before letting go.</li>
 * </ul>
 * Page {@code p} is {@code PageKey.of(0, p)}; pages are small non-negative ints, indexed densely.
 * Nothing is pinned between two references, so a policy that names no victim for
 * {@link #MAX_EMPTY_SWEEPS} calls in a row, or names a frame outside the table, is broken: the
 * replay fails naming it instead of spinning.
 */
public final class PolicyReplay implements AutoCloseable {
    /**
     * Consecutive {@link EvictionPolicy#NO_VICTIM} answers after which a replay gives up: a usage clock
     * may need {@link FrameDescriptor#MAX_USAGE} sweeps to bring a cache of usage-7 pages down to its
     * threshold (bitset-history boosts pages straight to 7), so twice that.
     */
    public static final int MAX_EMPTY_SWEEPS = 2 * (FrameDescriptor.MAX_USAGE + 1);
    /** Pages the page index holds at most (an array stops a little short of Integer.MAX_VALUE): pages 0 to this - 1. */
    public static final int MAX_PAGES = Integer.MAX_VALUE - 8;

    private final FrameTable frames;
    private final EvictionPolicy policy;
    private final Sweep sweep;
    private final int frameCount;
    /** The frame holding each page, or -1; grows to the largest page referenced. */
    private int[] frameOfPage;
    private final int[] pageOfFrame;
    private int filled;
    private long hits;
    private long misses;
    private long evictions;
    private long writeBacks;
    private int lastEvicted = -1;
    private boolean closed;

    /** A replay through {@code frameCount} frames, evicting on one background sweep. */
    public PolicyReplay(int frameCount, Function<FrameTable, EvictionPolicy> policyFor) {
        this(frameCount, 0, policyFor, Sweep.background());
    }

    /**
     * @param frameCount frames of the cache
     * @param pageCount  pages expected (0..pageCount-1), to size the page index; more are accepted; at most {@link #MAX_PAGES}
     * @param policyFor  builds the policy over the replay's frame table
     * @param sweep      the sweep every eviction episode runs on: {@link Sweep#background()} for the
     *                   simulator's rules, a cooperative one to model a faulting thread's own arm
     */
    public PolicyReplay(int frameCount, int pageCount, Function<FrameTable, EvictionPolicy> policyFor, Sweep sweep) {
        if (frameCount <= 0) {
            throw new IllegalArgumentException("frameCount must be positive: frameCount=" + frameCount);
        }
        if (pageCount < 0 || pageCount > MAX_PAGES) {
            throw new IllegalArgumentException("pageCount must be in [0, " + MAX_PAGES + "] (PolicyReplay.MAX_PAGES): pageCount="
                + pageCount);
        }
        this.frameCount = frameCount;
        this.sweep = sweep;
        this.frames = new FrameTable(frameCount);
        try {
            this.policy = policyFor.apply(frames);
        } catch (RuntimeException | Error e) {
            frames.close();
            throw e;
        }
        this.frameOfPage = new int[Math.max(pageCount, 16)];
        Arrays.fill(frameOfPage, -1);
        this.pageOfFrame = new int[frameCount];
    }

    /**
     * Replays {@code pages} (all reads) through {@code frameCount} frames on a background sweep, checks
     * the policy's invariants and every binding at the end, and returns the number of hits.
     */
    public static long hits(int[] pages, int frameCount, Function<FrameTable, EvictionPolicy> policyFor) {
        int pageCount = 0;
        for (int page : pages) {
            if (page < MAX_PAGES) { // a larger page is refused by name when read, not sized for here
                pageCount = Math.max(pageCount, page + 1);
            }
        }
        try (PolicyReplay replay = new PolicyReplay(frameCount, pageCount, policyFor, Sweep.background())) {
            for (int page : pages) {
                replay.read(page);
            }
            replay.verify();
            return replay.hits();
        }
    }

    /** Reads {@code page}; true if it was resident. */
    public boolean read(int page) {
        return access(page, false);
    }

    /** Writes {@code page} (its frame ends modified); true if it was resident. */
    public boolean write(int page) {
        return access(page, true);
    }

    /** References {@code page}, writing it if {@code write}; true if it was resident. */
    public boolean access(int page, boolean write) {
        checkOpen();
        if (page < 0 || page >= frameOfPage.length) {
            growTo(page);
        }
        int frame = frameOfPage[page];
        if (frame >= 0) {
            hits++;
            if (write) {
                if (!frames.tryWriteLock(frame)) {
                    throw new IllegalStateException(policy.name() + ": frame " + frame + " of page " + page
                        + " refused a write lock, but nothing else runs here");
                }
                policy.onHit(frame);
                frames.unlockWrite(frame);
            } else {
                policy.onHit(frame);
            }
            return true;
        }
        misses++;
        if (filled < frameCount) {
            frame = filled++;
            lock(frame);
        } else {
            frame = evict();
            frameOfPage[pageOfFrame[frame]] = -1;
        }
        long pageKey = PageKey.of(0, page);
        frames.setBinding(frame, pageKey);
        policy.onFault(frame, pageKey);
        if (write) {
            frames.exclusiveToWriteLock(frame);
            frames.unlockWrite(frame);
        } else {
            frames.unlockExclusive(frame);
        }
        frameOfPage[page] = frame;
        pageOfFrame[frame] = page;
        return false;
    }

    /** Finds, locks and unbinds a victim; returns its frame, still exclusively locked. */
    private int evict() {
        policy.housekeeping();
        sweep.begin();
        for (int empty = 0; ; ) {
            int victim = policy.nextVictim(sweep);
            if (victim == EvictionPolicy.NO_VICTIM) {
                if (++empty == MAX_EMPTY_SWEEPS) {
                    throw new IllegalStateException(policy.name() + " found no victim in " + MAX_EMPTY_SWEEPS
                        + " full sweeps over " + frameCount + " frames, none pinned (request " + requests() + ")");
                }
                continue;
            }
            if (victim < 0 || victim >= frameCount) {
                throw new IllegalStateException(policy.name() + " returned frame " + victim + " outside 0.."
                    + (frameCount - 1) + " (request " + requests() + ")");
            }
            lock(victim);
            long oldKey = frames.binding(victim);
            if (frames.isModified(victim)) {
                writeBacks++;
                frames.clearModifiedExclusively(victim);
            }
            frames.setBinding(victim, PageKey.UNBOUND);
            policy.onEvicted(victim, oldKey);
            evictions++;
            lastEvicted = pageOfFrame[victim];
            return victim;
        }
    }

    private void lock(int frame) {
        if (!frames.tryExclusiveLock(frame)) {
            throw new IllegalStateException(policy.name() + ": frame " + frame
                + " is locked, but nothing else runs here");
        }
    }

    private void growTo(int page) {
        if (page < 0) {
            throw new IllegalArgumentException("page must not be negative: page=" + page);
        }
        if (page >= MAX_PAGES) {
            // Refused before the index grows: it grew to MAX_PAGES entries (8 GiB) first, then failed on the page
            // with an ArrayIndexOutOfBoundsException, or an OutOfMemoryError where the heap was smaller.
            throw new IllegalArgumentException("page must be below " + MAX_PAGES + " (PolicyReplay.MAX_PAGES): page=" + page);
        }
        int old = frameOfPage.length;
        frameOfPage = Arrays.copyOf(frameOfPage, (int) Math.min(MAX_PAGES, Math.max(page + 1L, 2L * old)));
        Arrays.fill(frameOfPage, old, frameOfPage.length, -1);
    }

    /**
     * Checks the policy's invariants and that every bound frame holds the page the replay put there,
     * with the page index agreeing; throws {@link IllegalStateException} naming the first mismatch.
     */
    public void verify() {
        checkOpen();
        policy.checkInvariants();
        for (int f = 0; f < filled; f++) {
            int page = pageOfFrame[f];
            if (frames.binding(f) != PageKey.of(0, page) || frameOfPage[page] != f) {
                throw new IllegalStateException(policy.name() + ": frame " + f + " is bound to "
                    + PageKey.toString(frames.binding(f)) + ", expected page " + page);
            }
        }
    }

    /** The frame holding {@code page}, or -1 if it is not resident. */
    public int frameOf(int page) {
        return page >= 0 && page < frameOfPage.length ? frameOfPage[page] : -1;
    }

    /** The page the latest eviction took out, or -1 before the first. */
    public int lastEvicted() {
        return lastEvicted;
    }

    public long hits() {
        return hits;
    }

    public long misses() {
        return misses;
    }

    public long requests() {
        return hits + misses;
    }

    /** Misses that had to evict: every miss once the frames are full. */
    public long evictions() {
        return evictions;
    }

    /** Evictions of modified frames: the writes to the file. */
    public long writeBacks() {
        return writeBacks;
    }

    public EvictionPolicy policy() {
        return policy;
    }

    public FrameTable frames() {
        return frames;
    }

    /**
     * Frees the frame table; a second close does nothing. Does not {@link #verify}: a test may have left the policy
     * inconsistent on purpose.
     */
    @Override
    public void close() {
        closed = true;
        frames.close();
    }

    /** The policy and the frames read and write the table's off-heap memory: once freed, that is another allocation's. */
    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("this replay of " + policy.name() + " is closed: its frame table is freed");
        }
    }
}
