package io.ratatosk.pagecache;

import io.ratatosk.core.PageSwapper;
import java.nio.file.Path;

/**
 * A file of clean 8 KiB pages for tests that drive the {@code EvictionEngine} directly: an eviction drops them and
 * nothing is read or written ({@link CleanPagesOnlySwapper}); nothing is resident and no prefetch is taken. Subclassed
 * where a test watches or breaks one call.
 */
class CleanPagesOwner implements FrameOwner {
    private final Path path;

    CleanPagesOwner(Path path) {
        this.path = path;
    }

    @Override
    public PageSwapper swapper() {
        return CleanPagesOnlySwapper.INSTANCE;
    }

    @Override
    public void pageLeft(long pageId, int frame) {
    }

    @Override
    public int pageSize() {
        return 8192;
    }

    @Override
    public Path path() {
        return path;
    }

    @Override
    public boolean isResident(long pageId) {
        return false;
    }

    @Override
    public boolean prefetch(long pageId) {
        return false;
    }
}
