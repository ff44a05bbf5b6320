package io.ratatosk.pagecache;

import io.ratatosk.core.PageSwapper;
import io.ratatosk.pagecache.internal.FileSwapperFactory;
import io.ratatosk.pagecache.tier.SwapTier;
import io.ratatosk.pagecache.tier.TierCounters;
import java.io.IOException;
import java.nio.file.Path;

/**
 * A tier that is plain files and nothing more, for tests of what the page cache does with a tier's hooks: each subclass
 * overrides the hook under test (write-awareness, servesCache, prefetchSource...) and leaves the files as they are.
 */
abstract class PlainFilesTier implements SwapTier {
    final FileSwapperFactory files = new FileSwapperFactory();

    @Override
    public PageSwapper create(Path file, int fileId, int filePageSize, boolean create) throws IOException {
        return files.create(file, fileId, filePageSize, create);
    }

    @Override
    public TierCounters counters() {
        return TierCounters.NONE;
    }

    @Override
    public void close() throws IOException {
        files.close();
    }
}
