package io.ratatosk.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.pagecache.internal.TranslationTable;

/** A test's own evictions of a resident page, as the background evictor evicts one: in the pagecache test jar. */
final class Evictions {
    private Evictions() {
    }

    /** Evicts resident page {@code pageId} of {@code file} as the evictor does: locked, written out, unbound, freed. */
    static void evictPage(PagedFile file, long pageId) {
        EvictionEngine engine = file.mapping().engine();
        int entry = file.table().get(pageId);
        assertTrue(entry != TranslationTable.ABSENT && entry != TranslationTable.FAULTING, "page " + pageId + " is resident");
        assertEquals(EvictionOutcome.EVICTED, engine.tryEvict(entry - 1, true));
        engine.free(entry - 1);
    }

    /**
     * {@link #evictPage} on a thread of its own, waited for within the tests' bound: for a swapper's hook, whose own
     * thread may hold what the eviction waits for (a deadlock the wait must end, not join). Returns what the eviction
     * threw, the bound's failure with the eviction's stack where it did not end, or null.
     */
    static Throwable evictPageOnAnotherThread(PagedFile file, long pageId) {
        Throwable[] failed = new Throwable[1];
        Thread evictor = new Thread(() -> {
            try {
                evictPage(file, pageId);
            } catch (Throwable t) {
                failed[0] = t;
            }
        }, "eviction of page " + pageId);
        evictor.setDaemon(true); // one that never ends must not keep the test JVM alive
        evictor.start();
        try {
            Waits.join(evictor, evictor.getName());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (AssertionError hung) {
            return hung;
        }
        return failed[0];
    }
}
