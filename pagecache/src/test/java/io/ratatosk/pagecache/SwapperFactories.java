package io.ratatosk.pagecache;

import io.ratatosk.core.PageSwapper;
import io.ratatosk.core.PageSwapperFactory;
import io.ratatosk.pagecache.internal.FileSwapperFactory;
import java.io.IOException;
import java.nio.file.Path;
import java.util.function.UnaryOperator;

/** Swapper factories for tests. */
final class SwapperFactories {
    private SwapperFactories() {
    }

    /** Real file swappers, each wrapped by {@code wrap} (a {@link io.ratatosk.core.ForwardingPageSwapper} that breaks or watches some calls). */
    static PageSwapperFactory wrapping(UnaryOperator<PageSwapper> wrap) {
        PageSwapperFactory files = new FileSwapperFactory();
        return new PageSwapperFactory() {
            @Override
            public PageSwapper create(Path file, int fileId, int filePageSize, boolean create) throws IOException {
                return wrap.apply(files.create(file, fileId, filePageSize, create));
            }
        };
    }
}
