package io.ratatosk.core;

import static io.ratatosk.core.FrameDescriptor.BINDING_OFFSET;
import static io.ratatosk.core.FrameDescriptor.EXCLUSIVE;
import static io.ratatosk.core.FrameDescriptor.FLUSH;
import static io.ratatosk.core.FrameDescriptor.LOCK_WORD_OFFSET;
import static io.ratatosk.core.FrameDescriptor.MODIFIED;
import static io.ratatosk.core.FrameDescriptor.PINNING_BITS;
import static io.ratatosk.core.FrameDescriptor.POLICY_WORD_OFFSET;
import static io.ratatosk.core.FrameDescriptor.REGION_ALIGNMENT;
import static io.ratatosk.core.FrameDescriptor.SEQUENCE_MASK;
import static io.ratatosk.core.FrameDescriptor.USAGE_MASK;
import static io.ratatosk.core.FrameDescriptor.WRITERS_MASK;
import static io.ratatosk.core.FrameDescriptor.WRITER_ONE;
import static io.ratatosk.core.FrameDescriptor.describe;
import static io.ratatosk.core.FrameDescriptor.frameOffset;
import static io.ratatosk.core.FrameDescriptor.nextSequence;

import org.agrona.UnsafeAccess;
import sun.misc.Unsafe;

/**
 * Every frame's metadata in one flat off-heap region (layout in {@link FrameDescriptor}): the lock
 * word, the binding and the policy word. The page buffer's address is not stored here: the page cache
 * computes it from the frame index. The page cache and the trace simulator both use the table, so an
 * eviction policy sees the same state in either.
 *
 * <p>Lock protocol, in short: optimistic readers take a {@link #optimisticStamp stamp} and
 * {@link #validate} it after reading; writers take a shared {@link #tryWriteLock write lock} that
 * pins the frame and marks it modified; eviction and fault-in take the {@link #tryExclusiveLock
 * exclusive lock}, which excludes everything but optimistic readers (who then fail validation);
 * flushing takes the {@link #tryFlushLock flush lock}, which excludes eviction and other flushers but
 * neither writers nor readers. Releasing a write or exclusive lock bumps the sequence.
 *
 * <p>Not thread-safe to {@link #close}: callers stop using the table first.
 */
public final class FrameTable implements AutoCloseable {
    /** The most frames a table may have: frame indexes are ints, and arrays stop a little short of Integer.MAX_VALUE. */
    public static final int MAX_FRAMES = Integer.MAX_VALUE - 8;
    private static final Unsafe UNSAFE = UnsafeAccess.UNSAFE;

    private final int frameCount;
    /** What allocateMemory returned, to free. */
    private final long allocation;
    /** The first frame: {@code allocation} rounded up to {@link FrameDescriptor#REGION_ALIGNMENT}. */
    private final long base;
    private volatile boolean closed;

    public FrameTable(int frameCount) {
        if (frameCount <= 0) {
            throw new IllegalArgumentException("frame count must be positive: frameCount=" + frameCount);
        }
        if (frameCount > MAX_FRAMES) {
            // The page cache's configuration refuses such counts earlier; the simulator and the policies' tests build
            // tables directly, and a count past this asked for up to 64 GiB of native memory to zero.
            throw new IllegalArgumentException("frame count " + frameCount + " is more than a frame table may have: at most "
                + MAX_FRAMES + " frames (FrameTable.MAX_FRAMES)");
        }
        this.frameCount = frameCount;
        // frameOffset, not frameCount * FRAME_BYTES: calling into FrameDescriptor initializes it, which
        // checks the layout before any frame is touched.
        long bytes = frameOffset(frameCount);
        // malloc aligns to 16 bytes only: half the frames would straddle two cache lines, and a hit that
        // reads the lock word and then the binding and policy word would miss twice instead of once.
        this.allocation = UNSAFE.allocateMemory(bytes + REGION_ALIGNMENT - 1);
        this.base = (allocation + REGION_ALIGNMENT - 1) & -REGION_ALIGNMENT;
        UNSAFE.setMemory(base, bytes, (byte) 0);
    }

    public int frameCount() {
        return frameCount;
    }

    /**
     * The address of {@code frame}'s metadata, its fields at {@link FrameDescriptor}'s offsets: for a hit path
     * that reads the lock word, binding and policy word with loads of its own (valid while the table is open).
     */
    public long frameAddress(int frame) {
        return base + frameOffset(frame);
    }

    private long at(int frame, int fieldOffset) {
        return base + frameOffset(frame) + fieldOffset;
    }

    // ---- lock word ---------------------------------------------------------------------------

    public long lockWord(int frame) {
        return UNSAFE.getLongVolatile(null, at(frame, LOCK_WORD_OFFSET));
    }

    private boolean casLockWord(int frame, long expected, long update) {
        return UNSAFE.compareAndSwapLong(null, at(frame, LOCK_WORD_OFFSET), expected, update);
    }

    /** A stamp for an optimistic read; the read is only valid if the stamp {@link #isReadable}. */
    public long optimisticStamp(int frame) {
        return lockWord(frame);
    }

    /** Whether an optimistic read may start under this stamp (no exclusive lock was held). */
    public static boolean isReadable(long stamp) {
        return stamp >= 0; // EXCLUSIVE is the sign bit (FrameDescriptor checks): one test, no mask
    }

    /**
     * True if nothing could have changed the page since {@code stamp} was taken: no writer or
     * exclusive holder then, none now, and no release in between (the sequence is unchanged).
     */
    public boolean validate(int frame, long stamp) {
        UNSAFE.loadFence();
        long now = lockWord(frame);
        return canValidate(stamp) && ((now ^ stamp) & ~(MODIFIED | FLUSH)) == 0;
    }

    /**
     * Whether a read under this stamp can ever {@link #validate}: no exclusive holder and no writer when it was
     * taken. A hit path that validates by comparing the lock word with the stamp alone must check this first:
     * a writer still holding its lock leaves the word unchanged while the bytes change under the reader.
     */
    public static boolean canValidate(long stamp) {
        return (stamp & (EXCLUSIVE | WRITERS_MASK)) == 0;
    }

    /** Shared write lock: fails while the frame is exclusively locked. Pins the frame; marks it modified. */
    public boolean tryWriteLock(int frame) {
        return tryWriteLockFrom(frame) != WRITE_LOCK_FAILED;
    }

    /** Returned by {@link #tryWriteLockFrom} when the lock was not taken: no lock word it replaces has EXCLUSIVE set. */
    public static final long WRITE_LOCK_FAILED = -1L;

    /**
     * {@link #tryWriteLock}, returning the lock word the lock replaced (for {@link #unlockWriteUnused}), or
     * {@link #WRITE_LOCK_FAILED}.
     */
    public long tryWriteLockFrom(int frame) {
        long w = lockWord(frame);
        if ((w & EXCLUSIVE) != 0 || (w & WRITERS_MASK) == WRITERS_MASK || !casLockWord(frame, w, (w + WRITER_ONE) | MODIFIED)) {
            return WRITE_LOCK_FAILED;
        }
        return w;
    }

    /**
     * Releases a write lock that {@link #tryWriteLockFrom} took over the word {@code before} and under which nothing
     * was written (the frame turned out to hold another page than the one the lock was for): the word goes back to
     * {@code before} if nothing else changed it meanwhile, so the lock leaves the page neither marked modified nor with
     * a new sequence; else as {@link #unlockWrite}. Nothing else can bring the word back to what the lock made it (every
     * other writer's release and every exclusive hold moves the sequence), so an unchanged word means nobody wrote. The
     * flush bit is no write and is left as it is now: a flush that took or gave back its lock meanwhile (a flush of the
     * other page, which the lock marked modified) once sent the release to unlockWrite, and the page stayed modified
     * (the flush's own release keeps the bit where it saw a writer), to be written back again though nothing wrote it.
     */
    public void unlockWriteUnused(int frame, long before) {
        long locked = ((before + WRITER_ONE) | MODIFIED) & ~FLUSH;
        long w;
        do {
            w = lockWord(frame);
            if ((w & ~FLUSH) != locked) {
                unlockWrite(frame);
                return;
            }
        } while (!casLockWord(frame, w, (before & ~FLUSH) | (w & FLUSH)));
    }

    public void unlockWrite(int frame) {
        long w;
        do {
            w = lockWord(frame);
            if ((w & WRITERS_MASK) == 0) {
                throw new IllegalStateException("frame " + frame + " is not write locked: lock word " + describe(w));
            }
        } while (!casLockWord(frame, w, nextSequence(w - WRITER_ONE)));
    }

    /** Exclusive lock: succeeds only if nobody holds any lock on the frame. */
    public boolean tryExclusiveLock(int frame) {
        long w = lockWord(frame);
        return (w & PINNING_BITS) == 0 && casLockWord(frame, w, w | EXCLUSIVE);
    }

    public void unlockExclusive(int frame) {
        long w = lockWord(frame);
        assertExclusive(frame, w);
        // A volatile store, not a CAS: while EXCLUSIVE is set no other thread changes the word (every
        // try-lock fails on the bit, and no writer or flusher holds the frame to release it), so no update
        // can be lost. The store's release semantics publish everything written under the lock before the
        // unlock is seen. (A release store alone would do for that; the volatile store's extra fence is
        // paid once per exclusive hold, a fault or an eviction, never on a hit.)
        UNSAFE.putLongVolatile(null, at(frame, LOCK_WORD_OFFSET), nextSequence(w & ~EXCLUSIVE));
    }

    /** Turns an exclusive lock into one shared write lock without a window for an evictor. */
    public void exclusiveToWriteLock(int frame) {
        long w = lockWord(frame);
        assertExclusive(frame, w);
        UNSAFE.putLongVolatile(null, at(frame, LOCK_WORD_OFFSET),
            nextSequence((w & ~EXCLUSIVE) + WRITER_ONE) | MODIFIED);
    }

    /** Number of shared write locks held on the frame right now. */
    public int writeLockCount(int frame) {
        return FrameDescriptor.writers(lockWord(frame));
    }

    public boolean isExclusivelyLocked(int frame) {
        return (lockWord(frame) & EXCLUSIVE) != 0;
    }

    private static void assertExclusive(int frame, long w) {
        if ((w & EXCLUSIVE) == 0) {
            throw new IllegalStateException("frame " + frame + " is not exclusively locked: lock word " + describe(w));
        }
    }

    /** Returned by {@link #tryFlushLock} when the frame is exclusively or already flush locked. */
    public static final long FLUSH_LOCK_FAILED = -1L;

    /**
     * Flush lock: excludes eviction and other flushers, not writers or optimistic readers. Returns the
     * lock word as it was (the flush stamp), or {@link #FLUSH_LOCK_FAILED}.
     */
    public long tryFlushLock(int frame) {
        long w = lockWord(frame);
        if ((w & (EXCLUSIVE | FLUSH)) != 0 || !casLockWord(frame, w, w | FLUSH)) {
            return FLUSH_LOCK_FAILED;
        }
        return w;
    }

    /**
     * Releases the flush lock. The modified bit is cleared only if the write-out succeeded and no writer
     * held or took the page since {@code flushStamp}: otherwise what was written may be torn or stale,
     * and the page stays dirty for a later flush or eviction.
     */
    public void unlockFlush(int frame, long flushStamp, boolean written) {
        long w;
        long update;
        do {
            w = lockWord(frame);
            if ((w & FLUSH) == 0) {
                throw new IllegalStateException("frame " + frame + " is not flush locked: lock word " + describe(w));
            }
            boolean untouched = written
                && (flushStamp & WRITERS_MASK) == 0
                && (w & WRITERS_MASK) == 0
                && ((w ^ flushStamp) & SEQUENCE_MASK) == 0;
            update = untouched ? w & ~(FLUSH | MODIFIED) : w & ~FLUSH;
        } while (!casLockWord(frame, w, update));
    }

    public boolean isModified(int frame) {
        return (lockWord(frame) & MODIFIED) != 0;
    }

    /** Clears the modified bit; only under the exclusive lock (after an eviction's write-out). */
    public void clearModifiedExclusively(int frame) {
        long w = lockWord(frame);
        assertExclusive(frame, w);
        UNSAFE.putLongVolatile(null, at(frame, LOCK_WORD_OFFSET), w & ~MODIFIED);
    }

    /** True if nobody holds a lock on the frame at this instant (it is neither pinned nor being evicted). */
    public boolean isUnlocked(int frame) {
        return (lockWord(frame) & PINNING_BITS) == 0;
    }

    /** Evictable as the policies mean it: bound to a page and not locked by anyone right now. */
    public boolean isEvictable(int frame) {
        return isUnlocked(frame) && binding(frame) != PageKey.UNBOUND;
    }

    // ---- binding ------------------------------------------------------------------------------

    /** The {@link PageKey} the frame holds, or {@link PageKey#UNBOUND}. */
    public long binding(int frame) {
        return UNSAFE.getLongVolatile(null, at(frame, BINDING_OFFSET));
    }

    /** Binds or unbinds ({@link PageKey#UNBOUND}); only under the exclusive lock, or in the simulator. */
    public void setBinding(int frame, long pageKey) {
        UNSAFE.putLongVolatile(null, at(frame, BINDING_OFFSET), pageKey);
    }

    // ---- policy word --------------------------------------------------------------------------

    public long policyWord(int frame) {
        return UNSAFE.getLongVolatile(null, at(frame, POLICY_WORD_OFFSET));
    }

    public void setPolicyWord(int frame, long value) {
        UNSAFE.putLongVolatile(null, at(frame, POLICY_WORD_OFFSET), value);
    }

    public boolean casPolicyWord(int frame, long expected, long update) {
        return UNSAFE.compareAndSwapLong(null, at(frame, POLICY_WORD_OFFSET), expected, update);
    }

    public int usage(int frame) {
        return (int) (policyWord(frame) & USAGE_MASK);
    }

    /** Sets the usage bits, keeping the policy's other bits; retries only on a concurrent change. */
    public void setUsage(int frame, int usage) {
        long w;
        do {
            w = policyWord(frame);
        } while (!casPolicyWord(frame, w, (w & ~USAGE_MASK) | (usage & USAGE_MASK)));
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            UNSAFE.freeMemory(allocation);
        }
    }
}
