package io.ratatosk.nvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import io.ratatosk.core.ForwardingPageSwapper;
import io.ratatosk.core.PageSwapper;
import io.ratatosk.core.PageSwapperFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A file close through the tier that fails after the tier released the file's swapper (a copy evicted dirty during the
 * close, whose write-back then failed) must be retried to its end: the retry once refused itself as closed, for good.
 */
class NvmCloseRetryTest {
    private static final int PAGE = 512;
    private static final Path FILE = Path.of("a.db");

    private final OffHeapPages pages = new OffHeapPages(PAGE);
    private final InMemoryFiles files = new InMemoryFiles();
    /** Closes of the test's files behind the tier. */
    private final AtomicInteger fileCloses = new AtomicInteger();

    @AfterEach
    void freePages() {
        pages.close();
    }

    private long page(long version) {
        long address = pages.allocate();
        pages.fill(address, version);
        return address;
    }

    /** What a file's force does: {@code force} is the file's own; the hook may evict, fail or count around it. */
    @FunctionalInterface
    private interface ForceHook {
        void force(Path file, IoStep force) throws IOException;
    }

    @FunctionalInterface
    private interface IoStep {
        void run() throws IOException;
    }

    /** A tier of {@code slots} slots over the test's files, each file's force going through {@code hook}. */
    private NvmSwapStore store(int slots, WritePolicy policy, ForceHook hook) {
        PageSwapperFactory hooked = new PageSwapperFactory() {
            @Override
            public PageSwapper create(Path path, int fileId, int filePageSize, boolean create) throws IOException {
                return new ForwardingPageSwapper(files.create(path, fileId, filePageSize, create)) {
                    @Override
                    public void force() throws IOException {
                        hook.force(path, super::force);
                    }

                    @Override
                    public void close() throws IOException {
                        fileCloses.incrementAndGet();
                        super.close();
                    }
                };
            }

            @Override
            public void close() {
            }
        };
        return new NvmSwapStore(
            NvmDeviceConfig.builder(PAGE).slots(slots).writePolicy(policy).injectLatency(false).build(), hooked);
    }

    /** The first force evicts page 7 dirty (between the close's force and its drop), the second fails. */
    private ForceHook lateEvictionThenFailedForce(AtomicInteger forces, AtomicReferenceHolder holder) {
        return (path, force) -> {
            int n = forces.incrementAndGet();
            if (n == 1) {
                holder.swapper.evict(7, page(7), true); // evicted between the close's force and its drop
            } else if (n == 2) {
                throw new IOException("injected failure of the force after the late write-back");
            }
            force.run();
        };
    }

    @Test
    void aCloseWhoseLateDirtyCopyFailedToWriteBackIsRetriedToTheEnd() throws IOException {
        AtomicBoolean evictDuringForce = new AtomicBoolean(true);
        AtomicReferenceHolder holder = new AtomicReferenceHolder();
        AtomicInteger forcesAfterTheLateWrite = new AtomicInteger();
        NvmSwapStore store = store(8, WritePolicy.WRITE_BACK, (path, force) -> {
            if (evictDuringForce.getAndSet(false)) {
                // another thread's eviction landing between the close's force and its drop of the copies
                holder.swapper.evict(7, page(7), true);
                files.hook = (file, pageId) -> {
                    files.hook = (f, p) -> forcesAfterTheLateWrite.set(0);
                    throw new IOException("injected write-back failure of page " + pageId);
                };
            } else {
                forcesAfterTheLateWrite.incrementAndGet();
            }
            force.run();
        });
        PageSwapper swapper = store.create(FILE, 0, PAGE, true);
        holder.swapper = swapper;
        swapper.evict(1, page(1), true);

        IOException first = assertThrows(IOException.class, swapper::close);
        assertTrue(first.getMessage().contains("injected write-back failure of page 7"), first.getMessage());
        assertTrue(store.isDirtyInNvm(0, 7), "the copy whose write-back failed stays dirty in NVM");

        swapper.close(); // the retry writes the late copy back and makes it durable
        assertEquals(1, files.file(FILE).writesOf(7), "the late copy reached the file");
        assertTrue(forcesAfterTheLateWrite.get() >= 1, "the file was forced after the late copy was written");
        assertFalse(store.contains(0, 7));
        assertEquals(0, store.stats().residentPages());
        assertEquals(0, store.stats().dirtyPages());
        store.close(); // nothing left dirty: the device is freed, the close does not throw
    }

    /**
     * The late copy is written back, but the force after it fails: the retried close must force again. It found the drop
     * done, wrote nothing back, and closed the file without the force the late copy was owed.
     */
    @Test
    void aCloseWhoseForceAfterALateWriteBackFailedForcesAgainWhenRetried() throws IOException {
        AtomicInteger forces = new AtomicInteger();
        AtomicReferenceHolder holder = new AtomicReferenceHolder();
        NvmSwapStore store = store(8, WritePolicy.WRITE_BACK, lateEvictionThenFailedForce(forces, holder));
        PageSwapper swapper = store.create(FILE, 0, PAGE, true);
        holder.swapper = swapper;

        IOException first = assertThrows(IOException.class, swapper::close);
        assertTrue(first.getMessage().contains("injected failure of the force"), first.getMessage());
        assertEquals(1, files.file(FILE).writesOf(7), "the late copy was written back");

        // the id stays the closing file's until its close succeeds; another file beside it is left alone by the retry
        assertThrows(IllegalStateException.class, () -> store.create(Path.of("c.db"), 0, PAGE, true));
        PageSwapper next = store.create(Path.of("b.db"), 1, PAGE, true);
        next.evict(3, page(3), true);

        swapper.close();
        assertEquals(3, forces.get(), "the retried close forced the late copy's write");
        assertTrue(store.isDirtyInNvm(1, 3), "the retry left the other file's dirty copy alone");
        assertEquals(0, files.file(FILE).writesOf(3), "nothing of b.db went into a.db");
        next.close();
        assertEquals(1, files.file(Path.of("b.db")).writesOf(3));
        assertEquals(0, store.stats().residentPages());
        store.close();
    }

    /**
     * The same failed force, and then the tier's close instead of the file's: it finds the file, forces it and closes
     * it. The failed close had freed the file id before its force, so the tier's close never saw the file, which stayed
     * open, the late page unforced.
     */
    @Test
    void theTiersCloseFindsAFileWhoseForceAfterALateWriteBackFailed() throws IOException {
        AtomicInteger forces = new AtomicInteger();
        AtomicReferenceHolder holder = new AtomicReferenceHolder();
        NvmSwapStore store = store(8, WritePolicy.WRITE_BACK, lateEvictionThenFailedForce(forces, holder));
        PageSwapper swapper = store.create(FILE, 0, PAGE, true);
        holder.swapper = swapper;
        assertThrows(IOException.class, swapper::close);

        store.close();
        assertEquals(3, forces.get(), "the tier's close forced the late copy's write");
        assertEquals(1, fileCloses.get(), "the tier's close closed the file");
    }

    /**
     * A copy evicted dirty during the close (after its force, before its drop) that the tier's clock writes back, making
     * room for another file's eviction, before the drop reaches it: the drop found no dirty copy, so the close forced
     * nothing after the late write and returned with the page written but never made durable.
     */
    @Test
    void aLateCopyTheClockWritesBackBeforeTheDropIsForcedByTheClose() throws IOException {
        AtomicInteger forces = new AtomicInteger();
        AtomicReferenceHolder holder = new AtomicReferenceHolder();
        AtomicReferenceHolder other = new AtomicReferenceHolder();
        NvmSwapStore store = store(1, WritePolicy.WRITE_BACK, (path, force) -> {
            force.run();
            if (path.equals(FILE) && forces.incrementAndGet() == 1) {
                holder.swapper.evict(7, page(7), true); // evicted between the close's force and its drop
                other.swapper.evict(3, page(3), false); // the one slot's clock writes page 7 back for it
            }
        });
        PageSwapper swapper = store.create(FILE, 0, PAGE, true);
        holder.swapper = swapper;
        other.swapper = store.create(Path.of("b.db"), 1, PAGE, true);

        swapper.close();
        assertEquals(1, files.file(FILE).writesOf(7), "the clock wrote the late copy back");
        assertTrue(store.contains(1, 3), "b.db's page took the slot");
        assertEquals(2, forces.get(), "the close forced the file again after the late copy's write");
        other.swapper.close();
        store.close();
    }

    /**
     * A page evicted dirty during the close (after its force, before its drop) that the tier writes to the file itself
     * rather than keep dirty in NVM: under write-through, or bypassing a tier whose one slot holds a failing file's dirty
     * page. The drop found nothing dirty, so the close forced nothing after that write.
     */
    @Test
    void aLatePageWrittenThroughToTheFileIsForcedByTheClose() throws IOException {
        assertEquals(2, forcesOfAClosedDuringALateEviction(WritePolicy.WRITE_THROUGH, false),
            "the close forced the file again after the late page's write-through");
        assertEquals(1, files.file(FILE).writesOf(7), "the late page was written through");
    }

    @Test
    void aLatePageBypassingTheTierToTheFileIsForcedByTheClose() throws IOException {
        assertEquals(2, forcesOfAClosedDuringALateEviction(WritePolicy.WRITE_BACK, true),
            "the close forced the file again after the late page's bypass");
        assertEquals(1, files.file(FILE).writesOf(7), "the late page bypassed the tier to its file");
    }

    private int forcesOfAClosedDuringALateEviction(WritePolicy policy, boolean tierFullOfAFailingFile)
        throws IOException {
        AtomicInteger forces = new AtomicInteger();
        AtomicReferenceHolder holder = new AtomicReferenceHolder();
        NvmSwapStore store = store(1, policy, (path, force) -> {
            force.run();
            if (path.equals(FILE) && forces.incrementAndGet() == 1) {
                holder.swapper.evict(7, page(7), true); // evicted between the close's force and its drop
            }
        });
        PageSwapper swapper = store.create(FILE, 0, PAGE, true);
        holder.swapper = swapper;
        PageSwapper failing = null;
        Path failingFile = Path.of("b.db");
        if (tierFullOfAFailingFile) {
            failing = store.create(failingFile, 1, PAGE, true);
            failing.evict(3, page(3), true);
            files.hook = (file, pageId) -> {
                if (file.equals(failingFile)) {
                    throw new IOException("injected: b.db's disk fails");
                }
            };
        }

        swapper.close();
        if (failing != null) {
            assertTrue(store.isDirtyInNvm(1, 3), "the failing file's page stays dirty in the one slot");
            files.hook = (file, pageId) -> {
            };
            failing.close();
        }
        store.close();
        return forces.get();
    }

    private static final class AtomicReferenceHolder {
        volatile PageSwapper swapper;
    }
}
