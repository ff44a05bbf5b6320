package io.ratatosk.pagecache;

import io.ratatosk.core.PageSwapper;
import io.ratatosk.core.PageSwapperFactory;
import java.io.IOException;
import java.nio.file.Path;
import java.util.function.UnaryOperator;

/** A swapper that hands every call to another; tests override the calls they want to break or watch. */
class ForwardingPageSwapper implements PageSwapper {
    final PageSwapper delegate;

    ForwardingPageSwapper(PageSwapper delegate) {
        this.delegate = delegate;
    }

    /** A factory of real file swappers, each wrapped by {@code wrap}. */
    static PageSwapperFactory factory(UnaryOperator<PageSwapper> wrap) {
        PageSwapperFactory files = new io.ratatosk.pagecache.internal.FileSwapperFactory();
        return new PageSwapperFactory() {
            @Override
            public PageSwapper create(Path file, int fileId, int filePageSize, boolean create) throws IOException {
                return wrap.apply(files.create(file, fileId, filePageSize, create));
            }
        };
    }

    @Override
    public int filePageSize() {
        return delegate.filePageSize();
    }

    @Override
    public int read(long pageId, long address) throws IOException {
        return delegate.read(pageId, address);
    }

    @Override
    public void write(long pageId, long address) throws IOException {
        delegate.write(pageId, address);
    }

    @Override
    public void write(long startPageId, long[] addresses, int count) throws IOException {
        delegate.write(startPageId, addresses, count);
    }

    @Override
    public void evict(long pageId, long address, boolean dirty) throws IOException {
        delegate.evict(pageId, address, dirty);
    }

    @Override
    public void force() throws IOException {
        delegate.force();
    }

    @Override
    public long pageCount() throws IOException {
        return delegate.pageCount();
    }

    @Override
    public void truncate(long pageCount) throws IOException {
        delegate.truncate(pageCount);
    }

    @Override
    public void close() throws IOException {
        delegate.close();
    }
}
