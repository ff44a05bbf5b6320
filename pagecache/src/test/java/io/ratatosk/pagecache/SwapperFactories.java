package io.ratatosk.pagecache;

import io.ratatosk.core.PageSwapper;
import io.ratatosk.core.PageSwapperFactory;
import io.ratatosk.pagecache.internal.FileSwapperFactory;
import java.io.IOException;
import java.nio.file.Path;
import java.util.function.UnaryOperator;

/** Swapper factories for tests (public: the lifecycle tests in {@code it} wrap their fault injector's with it). */
public final class SwapperFactories {
    private SwapperFactories() {
    }

    /** Real file swappers, each wrapped by {@code wrap} (a {@link io.ratatosk.core.ForwardingPageSwapper} that breaks or watches some calls). */
    static PageSwapperFactory wrapping(UnaryOperator<PageSwapper> wrap) {
        return wrapping(new FileSwapperFactory(), wrap);
    }

    /** {@code inner}'s swappers, each wrapped by {@code wrap}; closing the factory closes {@code inner}. */
    public static PageSwapperFactory wrapping(PageSwapperFactory inner, UnaryOperator<PageSwapper> wrap) {
        return new PageSwapperFactory() {
            @Override
            public PageSwapper create(Path file, int fileId, int filePageSize, boolean create) throws IOException {
                return wrap.apply(inner.create(file, fileId, filePageSize, create));
            }

            @Override
            public void close() throws IOException {
                inner.close();
            }
        };
    }
}
