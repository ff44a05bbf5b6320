package io.ratatosk.pagecache;

import static org.junit.jupiter.api.Assertions.assertFalse;

import io.ratatosk.core.PageSwapper;

/**
 * A swapper for a test double of a file whose pages are clean: an eviction hands them to it, which drops them; a read,
 * a write or a truncate is a test's mistake and fails it. Pages of 8 KiB.
 */
final class CleanPagesOnlySwapper implements PageSwapper {
    static final CleanPagesOnlySwapper INSTANCE = new CleanPagesOnlySwapper();

    private CleanPagesOnlySwapper() {
    }

    @Override
    public int filePageSize() {
        return 8192;
    }

    @Override
    public int read(long pageId, long address) {
        throw new AssertionError("nothing is read here");
    }

    @Override
    public void write(long pageId, long address) {
        throw new AssertionError("a clean page is not written");
    }

    @Override
    public void evict(long pageId, long address, boolean dirty) {
        assertFalse(dirty, "the pages are clean");
    }

    @Override
    public void force() {
    }

    @Override
    public long pageCount() {
        return 0;
    }

    @Override
    public void truncate(long pageCount) {
        throw new AssertionError("nothing is truncated here");
    }

    @Override
    public void close() {
    }
}
