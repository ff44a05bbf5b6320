package io.ratatosk.pagecache;

import io.ratatosk.core.PageSwapper;
import java.io.IOException;

/**
 * A test double of a file of {@code pageCount} pages of zeros: a read leaves the frame as it is (zero bytes read),
 * writes, forces, cuts and the close do nothing. Tests override the one call they break.
 */
class ZeroPagesSwapper implements PageSwapper {
    private final int pageSize;
    private final long pageCount;

    ZeroPagesSwapper(int pageSize, long pageCount) {
        this.pageSize = pageSize;
        this.pageCount = pageCount;
    }

    @Override
    public int filePageSize() {
        return pageSize;
    }

    @Override
    public int read(long pageId, long address) throws IOException {
        return 0;
    }

    @Override
    public void write(long pageId, long address) {
    }

    @Override
    public void force() throws IOException {
    }

    @Override
    public long pageCount() {
        return pageCount;
    }

    @Override
    public void truncate(long pageCount) {
    }

    @Override
    public void close() {
    }
}
