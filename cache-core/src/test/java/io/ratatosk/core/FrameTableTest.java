package io.ratatosk.core;

import static io.ratatosk.core.FrameDescriptor.EXCLUSIVE;
import static io.ratatosk.core.FrameDescriptor.FLUSH;
import static io.ratatosk.core.FrameDescriptor.MAX_WRITERS;
import static io.ratatosk.core.FrameDescriptor.MODIFIED;
import static io.ratatosk.core.FrameDescriptor.USAGE_MASK;
import static io.ratatosk.core.FrameDescriptor.WRITERS_MASK;
import static io.ratatosk.core.FrameDescriptor.WRITER_ONE;
import static io.ratatosk.core.FrameDescriptor.describe;
import static io.ratatosk.core.FrameDescriptor.sequence;
import static io.ratatosk.core.FrameDescriptor.writers;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Every transition of the frame lock word (protocol in {@code docs/architecture.md}, "Frame metadata"),
 * the binding and policy word, and two concurrent checks: that writers, optimistic readers and an
 * exclusive locker keep the word consistent, and that turning an exclusive lock into a write lock
 * leaves no moment in which the frame is unlocked.
 */
class FrameTableTest {
    /** A frame with neighbours on both sides, so a test also sees writes that stray out of it. */
    private static final int F = 1;

    private static final int PAUSE_SPINS = 20;

    private FrameTable table;

    @BeforeEach
    void createTable() {
        table = new FrameTable(3);
    }

    @AfterEach
    void closeTable() {
        table.close();
    }

    /** Takes a write lock and releases it: the frame ends up modified, unlocked, its sequence bumped. */
    private void writeOnce() {
        assertTrue(table.tryWriteLock(F));
        table.unlockWrite(F);
    }

    // ---- a new table ----------------------------------------------------------------------------

    @Test
    void aNewFrameIsUnlockedUnmodifiedUnboundWithAnEmptyPolicyWord() {
        for (int frame = 0; frame < table.frameCount(); frame++) {
            assertEquals(0, table.lockWord(frame));
            assertTrue(table.isUnlocked(frame));
            assertFalse(table.isModified(frame));
            assertEquals(PageKey.UNBOUND, table.binding(frame));
            assertFalse(table.isEvictable(frame), "an unbound frame holds no page to evict");
            assertEquals(0, table.policyWord(frame));
        }
    }

    @Test
    void theFrameCountMustBePositive() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new FrameTable(0));
        assertTrue(e.getMessage().contains("frameCount=0"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new FrameTable(-1));
    }

    /** A count past MAX_FRAMES (the configuration's limit, which a table built directly never met) went on to allocate. */
    @Test
    void aFrameCountPastTheLimitIsRefusedNamingTheCountAndTheLimit() {
        for (int frameCount : new int[] {FrameTable.MAX_FRAMES + 1, Integer.MAX_VALUE}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new FrameTable(frameCount));
            assertTrue(e.getMessage().contains(String.valueOf(frameCount))
                && e.getMessage().contains(String.valueOf(FrameTable.MAX_FRAMES)), e.getMessage());
        }
    }

    @Test
    void changingOneFrameLeavesItsNeighboursAlone() {
        assertTrue(table.tryWriteLock(F));
        assertTrue(table.tryFlushLock(F) != FrameTable.FLUSH_LOCK_FAILED);
        table.setBinding(F, PageKey.of(3, 5));
        table.setPolicyWord(F, -1L);
        for (int neighbour : new int[] {F - 1, F + 1}) {
            assertEquals(0, table.lockWord(neighbour));
            assertEquals(PageKey.UNBOUND, table.binding(neighbour));
            assertEquals(0, table.policyWord(neighbour));
        }
    }

    // ---- optimistic reads -------------------------------------------------------------------------

    @Test
    void aWriteLockGivenBackUnusedUnderAFlushLeavesThePageCleanAndTheFlushLocked() {
        long clean = table.lockWord(F);
        // A writer's lock on a frame that turned out to hold another page marks it modified; a flush of that page sees it
        // so and takes the flush lock while the writer still holds its lock.
        long before = table.tryWriteLockFrom(F);
        long flushStamp = table.tryFlushLock(F);
        assertTrue(flushStamp != FrameTable.FLUSH_LOCK_FAILED);
        table.unlockWriteUnused(F, before);
        assertFalse(table.isModified(F), "nothing wrote the page: not modified, though a flush holds it");
        assertEquals(clean | FLUSH, table.lockWord(F), "the flush keeps its lock; the sequence is the one before");
        table.unlockFlush(F, flushStamp, true);
        assertEquals(clean, table.lockWord(F), "clean, for no later flush to write again");

        // A flush that held the page before the lock and gave it back meanwhile: its release kept the bit (it saw a writer).
        assertTrue(table.tryWriteLock(F));
        table.unlockWrite(F);
        long dirty = table.lockWord(F);
        flushStamp = table.tryFlushLock(F);
        before = table.tryWriteLockFrom(F);
        assertEquals(dirty | FLUSH, before);
        table.unlockFlush(F, flushStamp, true);
        table.unlockWriteUnused(F, before);
        assertEquals(dirty, table.lockWord(F), "modified as before (what the flush wrote may be torn), flush lock gone");
    }

    @Test
    void aWriteLockGivenBackUnusedLeavesTheWordAsItWasUnlessSomethingElseChangedIt() {
        long clean = table.lockWord(F);
        long before = table.tryWriteLockFrom(F);
        assertEquals(clean, before, "the word the lock replaced");
        assertTrue(table.isModified(F));
        table.unlockWriteUnused(F, before);
        assertEquals(clean, table.lockWord(F), "not modified, the same sequence: a reader's stamp still validates");

        before = table.tryWriteLockFrom(F);
        assertTrue(table.tryWriteLock(F), "another writer, who may write");
        table.unlockWrite(F);
        table.unlockWriteUnused(F, before);
        assertTrue(table.isModified(F), "another writer held the page meanwhile: it stays modified");
        assertEquals(0, writers(table.lockWord(F)));
        assertNotEquals(sequence(clean), sequence(table.lockWord(F)));

        assertTrue(table.tryExclusiveLock(F));
        assertEquals(FrameTable.WRITE_LOCK_FAILED, table.tryWriteLockFrom(F), "exclusively locked");
        table.unlockExclusive(F);
    }

    @Test
    void aStampIsReadableUnlessTheFrameIsExclusivelyLocked() {
        assertTrue(FrameTable.isReadable(table.optimisticStamp(F)));
        assertTrue(table.tryWriteLock(F));
        assertTrue(FrameTable.isReadable(table.optimisticStamp(F)), "a write lock does not stop a read from starting");
        table.unlockWrite(F);
        assertTrue(table.tryExclusiveLock(F));
        assertFalse(FrameTable.isReadable(table.optimisticStamp(F)));
    }

    @Test
    void validatePassesWhenNothingHappenedInBetween() {
        writeOnce();
        long stamp = table.optimisticStamp(F);
        assertTrue(table.validate(F, stamp));
        assertTrue(table.validate(F, stamp), "validating does not consume the stamp");
    }

    @Test
    void validateFailsAfterAWriteLockCameAndWent() {
        long stamp = table.optimisticStamp(F);
        writeOnce();
        assertFalse(table.validate(F, stamp));
    }

    @Test
    void validateFailsWhileAWriteLockTakenAfterTheStampIsHeld() {
        long stamp = table.optimisticStamp(F);
        assertTrue(table.tryWriteLock(F));
        assertFalse(table.validate(F, stamp));
    }

    @Test
    void validateFailsForAStampTakenWhileAWriterHeldTheFrame() {
        assertTrue(table.tryWriteLock(F));
        long stamp = table.optimisticStamp(F);
        assertFalse(table.validate(F, stamp), "the writer may be changing the page under the reader");
    }

    @Test
    void validateFailsAfterAnExclusiveLockCameAndWent() {
        long stamp = table.optimisticStamp(F);
        assertTrue(table.tryExclusiveLock(F));
        table.unlockExclusive(F);
        assertFalse(table.validate(F, stamp));
    }

    @Test
    void validateFailsWhileAnExclusiveLockTakenAfterTheStampIsHeld() {
        long stamp = table.optimisticStamp(F);
        assertTrue(table.tryExclusiveLock(F));
        assertFalse(table.validate(F, stamp));
    }

    @Test
    void validateFailsForAStampTakenUnderTheExclusiveLock() {
        assertTrue(table.tryExclusiveLock(F));
        long stamp = table.optimisticStamp(F);
        assertFalse(table.validate(F, stamp));
    }

    @Test
    void validateIgnoresAFlushLockTakenHeldAndReleased() {
        writeOnce();
        long stamp = table.optimisticStamp(F);
        long flushStamp = table.tryFlushLock(F);
        assertTrue(table.validate(F, stamp), "a flusher only reads the page");
        table.unlockFlush(F, flushStamp, false);
        assertTrue(table.isModified(F));
        assertTrue(table.validate(F, stamp));
        assertTrue(table.validate(F, flushStamp), "a stamp taken under the flush lock is as good");
    }

    @Test
    void validateIgnoresTheModifiedBitClearedByAFlush() {
        writeOnce();
        long stamp = table.optimisticStamp(F);
        table.unlockFlush(F, table.tryFlushLock(F), true);
        assertFalse(table.isModified(F));
        assertTrue(table.validate(F, stamp), "a flush that wrote the page out did not change it");
    }

    // ---- write locks ------------------------------------------------------------------------------

    @Test
    void tryWriteLockOnAFreeFrameCountsOneWriterAndMarksTheFrameModified() {
        long before = table.lockWord(F);
        assertTrue(table.tryWriteLock(F));
        assertEquals(1, table.writeLockCount(F));
        assertTrue(table.isModified(F));
        assertFalse(table.isExclusivelyLocked(F));
        assertEquals(sequence(before), sequence(table.lockWord(F)), "taking a lock does not bump the sequence");
    }

    @Test
    void tryWriteLockSucceedsWhileTheFrameIsFlushLocked() {
        assertNotEquals(FrameTable.FLUSH_LOCK_FAILED, table.tryFlushLock(F));
        assertTrue(table.tryWriteLock(F));
        assertEquals(FLUSH | MODIFIED | WRITER_ONE, table.lockWord(F));
    }

    @Test
    void tryWriteLockSucceedsWhileOtherWritersHoldTheFrameAndCountsThemAll() {
        for (int n = 1; n <= 3; n++) {
            assertTrue(table.tryWriteLock(F));
            assertEquals(n, table.writeLockCount(F));
        }
    }

    @Test
    void tryWriteLockFailsWhileTheFrameIsExclusivelyLocked() {
        assertTrue(table.tryExclusiveLock(F));
        long word = table.lockWord(F);
        assertFalse(table.tryWriteLock(F));
        assertEquals(word, table.lockWord(F), "a failed attempt leaves the word alone");
    }

    @Test
    void tryWriteLockFailsAtMaxWritersWithoutOverflowingIntoTheFlags() {
        for (long n = 0; n < MAX_WRITERS; n++) {
            assertTrue(table.tryWriteLock(F), "write lock " + (n + 1));
        }
        assertFalse(table.tryWriteLock(F));
        assertEquals(MAX_WRITERS, table.writeLockCount(F));
        assertEquals(MODIFIED | WRITERS_MASK, table.lockWord(F), "neither FLUSH nor EXCLUSIVE may be set by a carry");
    }

    @Test
    void unlockWriteTakesOneWriterAwayAndBumpsTheSequence() {
        assertTrue(table.tryWriteLock(F));
        assertTrue(table.tryWriteLock(F));
        long before = table.lockWord(F);
        table.unlockWrite(F);
        long after = table.lockWord(F);
        assertEquals(1, writers(after));
        assertEquals(sequence(before) + 1, sequence(after));
        table.unlockWrite(F);
        assertEquals(0, table.writeLockCount(F));
        assertEquals(MODIFIED | (sequence(before) + 2), table.lockWord(F), "the page stays modified once the writers are gone");
    }

    @Test
    void unlockWriteThrowsWhenTheFrameIsNotWriteLockedAndShowsTheLockWord() {
        writeOnce();
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> table.unlockWrite(F));
        assertEquals("frame 1 is not write locked: lock word MODIFIED writers=0 sequence=1", e.getMessage());
        assertEquals(MODIFIED | 1, table.lockWord(F), "the count does not go below zero");
    }

    @Test
    void unlockWriteThrowsUnderTheExclusiveLockAndLeavesItHeld() {
        assertTrue(table.tryExclusiveLock(F));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> table.unlockWrite(F));
        assertTrue(e.getMessage().endsWith("lock word EXCLUSIVE writers=0 sequence=0"), e.getMessage());
        assertEquals(EXCLUSIVE, table.lockWord(F));
    }

    // ---- the exclusive lock --------------------------------------------------------------------------

    @Test
    void tryExclusiveLockSucceedsOnAFreeFrameEvenIfModified() {
        writeOnce();
        assertTrue(table.tryExclusiveLock(F));
        assertEquals(EXCLUSIVE | MODIFIED | 1, table.lockWord(F));
    }

    @Test
    void tryExclusiveLockFailsWhileAWriterHoldsTheFrame() {
        assertTrue(table.tryWriteLock(F));
        assertFalse(table.tryExclusiveLock(F));
        assertEquals(MODIFIED | WRITER_ONE, table.lockWord(F));
    }

    @Test
    void tryExclusiveLockFailsWhileTheFrameIsFlushLocked() {
        assertNotEquals(FrameTable.FLUSH_LOCK_FAILED, table.tryFlushLock(F));
        assertFalse(table.tryExclusiveLock(F));
        assertEquals(FLUSH, table.lockWord(F));
    }

    @Test
    void tryExclusiveLockFailsWhileTheFrameIsAlreadyExclusivelyLocked() {
        assertTrue(table.tryExclusiveLock(F));
        assertFalse(table.tryExclusiveLock(F));
        assertEquals(EXCLUSIVE, table.lockWord(F));
    }

    @Test
    void unlockExclusiveClearsTheLockKeepsModifiedAndBumpsTheSequence() {
        writeOnce();
        assertTrue(table.tryExclusiveLock(F));
        table.unlockExclusive(F);
        assertEquals(MODIFIED | 2, table.lockWord(F));
        assertTrue(table.isUnlocked(F));
    }

    @Test
    void unlockExclusiveThrowsWhenTheFrameIsNotExclusivelyLockedAndShowsTheLockWord() {
        assertTrue(table.tryWriteLock(F));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> table.unlockExclusive(F));
        assertEquals("frame 1 is not exclusively locked: lock word MODIFIED writers=1 sequence=0", e.getMessage());
        assertEquals(MODIFIED | WRITER_ONE, table.lockWord(F), "the writer keeps its lock");
    }

    @Test
    void exclusiveToWriteLockLeavesExactlyOneWriterAndAModifiedFrame() {
        assertTrue(table.tryExclusiveLock(F));
        table.exclusiveToWriteLock(F);
        assertEquals(MODIFIED | WRITER_ONE | 1, table.lockWord(F), "not exclusive, one writer, the sequence bumped once");
        assertFalse(table.tryExclusiveLock(F), "the writer pins the frame");
        assertTrue(table.tryWriteLock(F), "other writers may join");
        table.unlockWrite(F);
        table.unlockWrite(F);
        assertTrue(table.isUnlocked(F));
    }

    @Test
    void exclusiveToWriteLockThrowsWhenTheFrameIsNotExclusivelyLocked() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> table.exclusiveToWriteLock(F));
        assertEquals("frame 1 is not exclusively locked: lock word writers=0 sequence=0", e.getMessage());
        assertEquals(0, table.lockWord(F));
    }

    /**
     * An observer samples the lock word while the main thread turns exclusive locks into write locks,
     * bracketing each conversion with its round number: a sample taken between the brackets of one round
     * must show the frame locked, exclusive or written. An implementation that unlocked and then relocked
     * would leave an unlocked word to be seen, and an evictor could take the frame in that moment.
     */
    @Test
    void exclusiveToWriteLockGoesStraightFromExclusiveToOneWriter() throws Exception {
        AtomicLong convertingRound = new AtomicLong(-1);
        AtomicBoolean done = new AtomicBoolean();
        AtomicLong samplesInRounds = new AtomicLong();
        AtomicReference<String> unlockedSample = new AtomicReference<>();
        AtomicReference<Throwable> observerFailed = new AtomicReference<>();
        Thread observer = new Thread(() -> {
            try {
                observe(done, convertingRound, samplesInRounds, unlockedSample);
            } catch (Throwable e) {
                observerFailed.set(e); // the test's failure, not "sampled too few"
            }
        }, "lock-word-observer");
        observer.setDaemon(true);
        observer.start();
        try {
            for (long round = 0; samplesInRounds.get() < 100_000 && round < 50_000_000 && observer.isAlive(); round++) {
                assertTrue(table.tryExclusiveLock(F));
                convertingRound.set(round);
                table.exclusiveToWriteLock(F);
                convertingRound.set(-1);
                table.unlockWrite(F);
            }
        } finally {
            done.set(true);
            Waits.join(observer, "the lock word's observer stopped");
        }
        if (observerFailed.get() != null) {
            throw new AssertionError("the observer failed", observerFailed.get());
        }
        assertTrue(samplesInRounds.get() >= 100_000, "the observer sampled too few conversions: " + samplesInRounds.get());
        assertNull(unlockedSample.get(), "the frame was seen unlocked during a conversion");
    }

    private void observe(AtomicBoolean done, AtomicLong convertingRound, AtomicLong samplesInRounds,
                         AtomicReference<String> unlockedSample) {
        while (!done.get()) {
            long roundBefore = convertingRound.get();
            long word = table.lockWord(F);
            long roundAfter = convertingRound.get();
            if (roundBefore >= 0 && roundBefore == roundAfter) {
                samplesInRounds.incrementAndGet();
                if ((word & (EXCLUSIVE | WRITERS_MASK)) == 0) {
                    unlockedSample.compareAndSet(null, "round " + roundBefore + ": lock word " + describe(word));
                }
            }
        }
    }

    // ---- the flush lock -------------------------------------------------------------------------------

    @Test
    void tryFlushLockReturnsTheWordAsItWasAndSetsFlush() {
        writeOnce();
        long before = table.lockWord(F);
        long flushStamp = table.tryFlushLock(F);
        assertEquals(before, flushStamp);
        assertEquals(before | FLUSH, table.lockWord(F));
    }

    @Test
    void tryFlushLockSucceedsWhileWritersHoldTheFrame() {
        assertTrue(table.tryWriteLock(F));
        assertEquals(MODIFIED | WRITER_ONE, table.tryFlushLock(F));
    }

    @Test
    void tryFlushLockFailsWhileTheFrameIsExclusivelyLocked() {
        assertTrue(table.tryExclusiveLock(F));
        assertEquals(FrameTable.FLUSH_LOCK_FAILED, table.tryFlushLock(F));
        assertEquals(EXCLUSIVE, table.lockWord(F));
    }

    @Test
    void tryFlushLockFailsWhileTheFrameIsAlreadyFlushLocked() {
        writeOnce();
        assertNotEquals(FrameTable.FLUSH_LOCK_FAILED, table.tryFlushLock(F));
        assertEquals(FrameTable.FLUSH_LOCK_FAILED, table.tryFlushLock(F));
        assertEquals(FLUSH | MODIFIED | 1, table.lockWord(F));
    }

    @Test
    void unlockFlushClearsModifiedWhenWrittenAndNoWriterTouchedThePage() {
        writeOnce();
        long flushStamp = table.tryFlushLock(F);
        table.unlockFlush(F, flushStamp, true);
        assertEquals(1, table.lockWord(F), "neither FLUSH nor MODIFIED, the sequence unchanged");
        assertTrue(table.tryExclusiveLock(F), "the flush lock is gone");
    }

    @Test
    void unlockFlushKeepsModifiedWhenTheWriteOutFailed() {
        writeOnce();
        long flushStamp = table.tryFlushLock(F);
        table.unlockFlush(F, flushStamp, false);
        assertEquals(MODIFIED | 1, table.lockWord(F));
    }

    @Test
    void unlockFlushKeepsModifiedWhenAWriterHeldThePageAtTheFlushStamp() {
        assertTrue(table.tryWriteLock(F));
        long flushStamp = table.tryFlushLock(F);
        table.unlockFlush(F, flushStamp, true);
        assertEquals(MODIFIED | WRITER_ONE, table.lockWord(F), "what was written may be torn");
        table.unlockWrite(F);
        assertTrue(table.isModified(F));
    }

    @Test
    void unlockFlushKeepsModifiedWhenAWriterTookThePageAfterTheFlushStampAndStillHoldsIt() {
        writeOnce();
        long flushStamp = table.tryFlushLock(F);
        assertTrue(table.tryWriteLock(F));
        table.unlockFlush(F, flushStamp, true);
        assertEquals(MODIFIED | WRITER_ONE | 1, table.lockWord(F));
    }

    @Test
    void unlockFlushKeepsModifiedWhenAWriterCameAndWentSinceTheFlushStamp() {
        writeOnce();
        long flushStamp = table.tryFlushLock(F);
        writeOnce();
        table.unlockFlush(F, flushStamp, true);
        assertEquals(MODIFIED | 2, table.lockWord(F), "the write-out may hold the older version");
    }

    @Test
    void unlockFlushThrowsWhenTheFrameIsNotFlushLockedAndShowsTheLockWord() {
        assertTrue(table.tryExclusiveLock(F));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> table.unlockFlush(F, 0, true));
        assertEquals("frame 1 is not flush locked: lock word EXCLUSIVE writers=0 sequence=0", e.getMessage());
        assertEquals(EXCLUSIVE, table.lockWord(F));
    }

    // ---- clearing the modified bit under the exclusive lock ------------------------------------------

    @Test
    void clearModifiedExclusivelyClearsOnlyTheModifiedBit() {
        writeOnce();
        assertTrue(table.tryExclusiveLock(F));
        table.clearModifiedExclusively(F);
        assertEquals(EXCLUSIVE | 1, table.lockWord(F));
    }

    @Test
    void clearModifiedExclusivelyThrowsWithoutTheExclusiveLockAndKeepsTheBit() {
        writeOnce();
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> table.clearModifiedExclusively(F));
        assertEquals("frame 1 is not exclusively locked: lock word MODIFIED writers=0 sequence=1", e.getMessage());
        assertTrue(table.isModified(F));
    }

    // ---- unlocked, evictable ---------------------------------------------------------------------------

    @Test
    void aFrameIsUnlockedOnlyWhenNoWriterFlusherOrExclusiveHolderHasIt() {
        writeOnce();
        assertTrue(table.isUnlocked(F), "MODIFIED alone does not pin");
        assertTrue(table.tryWriteLock(F));
        assertFalse(table.isUnlocked(F));
        table.unlockWrite(F);
        long flushStamp = table.tryFlushLock(F);
        assertFalse(table.isUnlocked(F));
        table.unlockFlush(F, flushStamp, true);
        assertTrue(table.tryExclusiveLock(F));
        assertFalse(table.isUnlocked(F));
        table.unlockExclusive(F);
        assertTrue(table.isUnlocked(F));
    }

    @Test
    void aFrameIsEvictableWhenBoundAndUnlocked() {
        assertFalse(table.isEvictable(F), "unbound");
        table.setBinding(F, PageKey.of(0, 9));
        assertTrue(table.isEvictable(F));
        assertTrue(table.tryWriteLock(F));
        assertFalse(table.isEvictable(F), "pinned by a writer");
        table.unlockWrite(F);
        assertTrue(table.isEvictable(F), "modified but unlocked: evictable after a write-out");
        assertTrue(table.tryExclusiveLock(F));
        assertFalse(table.isEvictable(F), "already being evicted");
        table.setBinding(F, PageKey.UNBOUND);
        table.unlockExclusive(F);
        assertFalse(table.isEvictable(F), "unbound again");
    }

    // ---- binding and policy word -----------------------------------------------------------------------

    @Test
    void theBindingHoldsThePageKeySet() {
        long key = PageKey.of(PageKey.MAX_FILE_ID, PageKey.MAX_PAGE_ID);
        table.setBinding(F, key);
        assertEquals(key, table.binding(F));
        assertEquals(0, table.lockWord(F), "binding does not touch the lock word");
        table.setBinding(F, PageKey.UNBOUND);
        assertEquals(PageKey.UNBOUND, table.binding(F));
    }

    @Test
    void thePolicyWordIsSetAndComparedAndSwappedWhole() {
        table.setPolicyWord(F, 0x1234_5678_9ABC_DEF0L);
        assertEquals(0x1234_5678_9ABC_DEF0L, table.policyWord(F));
        assertFalse(table.casPolicyWord(F, 0, 1));
        assertEquals(0x1234_5678_9ABC_DEF0L, table.policyWord(F));
        assertTrue(table.casPolicyWord(F, 0x1234_5678_9ABC_DEF0L, -1L));
        assertEquals(-1L, table.policyWord(F));
    }

    @Test
    void usageIsTheLowBitsOfThePolicyWord() {
        table.setPolicyWord(F, 0xF0 | 5);
        assertEquals(5, table.usage(F));
    }

    @Test
    void setUsageKeepsThePolicysOtherBits() {
        long otherBits = -1L & ~USAGE_MASK;
        table.setPolicyWord(F, otherBits | 2);
        table.setUsage(F, FrameDescriptor.MAX_USAGE);
        assertEquals(otherBits | FrameDescriptor.MAX_USAGE, table.policyWord(F));
        table.setUsage(F, 0);
        assertEquals(otherBits, table.policyWord(F));
    }

    // ---- close -----------------------------------------------------------------------------------------

    @Test
    void closingTwiceIsHarmless() {
        FrameTable other = new FrameTable(2);
        other.close();
        assertDoesNotThrow(other::close);
    }

    // ---- writers, optimistic readers and an exclusive locker at once -------------------------------------

    /** Data only the exclusive locker writes, under its lock: a reader whose stamp validates must see it whole. */
    private static final class GuardedData {
        /** Number of exclusive holds begun; each hold writes it to {@link #first} and {@link #second}. */
        volatile long holds;
        long first;
        long second;
    }

    @Test
    void writersOptimisticReadersAndAnExclusiveLockerKeepTheLockWordConsistent() throws Exception {
        int writerThreads = 2;
        int readerThreads = 2;
        long enough = 20_000;
        GuardedData data = new GuardedData();
        Queue<String> failures = new ConcurrentLinkedQueue<>();
        AtomicBoolean stop = new AtomicBoolean();
        LongAdder writeLocks = new LongAdder();
        LongAdder exclusiveHolds = new LongAdder();
        LongAdder validatedReads = new LongAdder();
        List<Thread> threads = new ArrayList<>();

        for (int t = 0; t < writerThreads; t++) {
            threads.add(new Thread(reportingFailures(failures, () -> {
                while (!stop.get()) {
                    if (table.tryWriteLock(F)) {
                        long word = table.lockWord(F);
                        if ((word & EXCLUSIVE) != 0 || writers(word) < 1 || writers(word) > writerThreads || (word & MODIFIED) == 0) {
                            failures.add("writer holds the lock but sees " + describe(word));
                        }
                        table.unlockWrite(F);
                        writeLocks.increment();
                    }
                    pause(); // leave the frame free for a while, or readers would hardly ever validate
                }
            }), "writer-" + t));
        }
        threads.add(new Thread(reportingFailures(failures, () -> {
            while (!stop.get()) {
                if (table.tryExclusiveLock(F)) {
                    long word = table.lockWord(F);
                    if (writers(word) != 0 || (word & FLUSH) != 0) {
                        failures.add("exclusive holder sees " + describe(word));
                    }
                    long hold = data.holds + 1;
                    data.holds = hold;
                    data.first = hold;
                    data.second = hold;
                    table.unlockExclusive(F);
                    exclusiveHolds.increment();
                }
                pause();
            }
        }), "exclusive-locker"));
        for (int t = 0; t < readerThreads; t++) {
            threads.add(new Thread(reportingFailures(failures, () -> {
                while (!stop.get()) {
                    long stamp = table.optimisticStamp(F);
                    if (((stamp & EXCLUSIVE) != 0 && writers(stamp) != 0) || writers(stamp) > writerThreads) {
                        failures.add("reader sees an impossible lock word: " + describe(stamp));
                    }
                    if (!FrameTable.isReadable(stamp)) {
                        continue;
                    }
                    long holdsBefore = data.holds;
                    long first = data.first;
                    pause(); // long enough for a whole exclusive hold to fit in: validate must then fail
                    long second = data.second;
                    long holdsAfter = data.holds;
                    if (table.validate(F, stamp)) {
                        if (holdsBefore != holdsAfter || first != holdsBefore || second != holdsBefore) {
                            failures.add("validate passed across an exclusive hold: holds " + holdsBefore + " then " + holdsAfter
                                + ", data read " + first + "/" + second + ", stamp " + describe(stamp));
                        }
                        validatedReads.increment();
                    }
                }
            }), "reader-" + t));
        }

        threads.forEach(t -> t.setDaemon(true)); // one stuck must not keep the test JVM alive
        threads.forEach(Thread::start);
        // until each role made enough progress: the shared bound only ends a run in which one of them starves (livelock)
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(Waits.BOUND_SECONDS);
        try {
            while (failures.isEmpty() && System.nanoTime() < deadline
                && (writeLocks.sum() < enough || exclusiveHolds.sum() < enough || validatedReads.sum() < enough)) {
                Thread.sleep(10);
            }
        } finally {
            stop.set(true);
            for (Thread thread : threads) {
                Waits.join(thread, thread.getName() + " stopped"); // stuck on the lock word: fail, not hang
            }
        }

        assertEquals(List.of(), new ArrayList<>(failures));
        assertTrue(writeLocks.sum() >= enough && exclusiveHolds.sum() >= enough && validatedReads.sum() >= enough,
            "every role should have made progress within " + Waits.BOUND_SECONDS + " s (ratatosk.test.wait_s): " + writeLocks.sum() + " write locks, " + exclusiveHolds.sum()
                + " exclusive holds, " + validatedReads.sum() + " validated reads");
        long end = table.lockWord(F);
        assertEquals(0, end & (EXCLUSIVE | FLUSH | WRITERS_MASK), "nothing left locked: " + describe(end));
    }

    /** Busy-waits a moment (a few microseconds at most), without giving up the processor. */
    private static void pause() {
        for (int i = 0; i < PAUSE_SPINS; i++) {
            Thread.onSpinWait();
        }
    }

    /** The body, with anything it throws (an unlock of a lock not held, say) added to {@code failures}. */
    private static Runnable reportingFailures(Queue<String> failures, Runnable body) {
        return () -> {
            try {
                body.run();
            } catch (Throwable t) {
                failures.add(Thread.currentThread().getName() + " threw " + t);
            }
        };
    }
}
