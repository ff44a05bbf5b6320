package io.ratatosk.core;

import java.io.IOException;
import java.util.Objects;

/**
 * A {@link PageSwapper} that hands every call to another: the base of a swapper that watches, slows
 * down or breaks some calls of a real one (a fault injector, a modeled device latency, a counter), so
 * each of those overrides only the calls it changes.
 */
public class ForwardingPageSwapper implements PageSwapper {
    private final PageSwapper delegate;

    public ForwardingPageSwapper(PageSwapper delegate) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
    }

    /** The swapper this one forwards to. */
    public final PageSwapper delegate() {
        return delegate;
    }

    @Override
    public int filePageSize() {
        return delegate.filePageSize();
    }

    /** What the delegate holds: a wrapper that watches or breaks calls holds no page of its own. */
    @Override
    public boolean holdsUnwrittenPages() {
        return delegate.holdsUnwrittenPages();
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

    /** Forwards to the delegate's own {@code evict}: overriding {@link #write} alone does not change evictions. */
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

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[" + delegate + "]";
    }
}
