package io.ratatosk.pagecache;

import io.ratatosk.core.ForwardingPageSwapper;
import io.ratatosk.core.PageSwapper;
import io.ratatosk.core.PageSwapperFactory;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.LongSupplier;

/** A file swapper that records every write call: its first page, its page count and the time on a given clock. */
final class RecordingSwapper extends ForwardingPageSwapper {
    /** One write call. */
    record WriteCall(long startPageId, int pages, long atNanos) {
    }

    private final List<WriteCall> calls;
    private final LongSupplier clock;

    RecordingSwapper(PageSwapper delegate, List<WriteCall> calls, LongSupplier clock) {
        super(delegate);
        this.calls = calls;
        this.clock = clock;
    }

    /** A factory of recording swappers over real files, all recording into {@code calls}. */
    static PageSwapperFactory factory(List<WriteCall> calls, LongSupplier clock) {
        return SwapperFactories.wrapping(swapper -> new RecordingSwapper(swapper, calls, clock));
    }

    static List<WriteCall> newLog() {
        return new CopyOnWriteArrayList<>();
    }

    @Override
    public void write(long pageId, long address) throws IOException {
        calls.add(new WriteCall(pageId, 1, clock.getAsLong()));
        super.write(pageId, address);
    }

    @Override
    public void write(long startPageId, long[] addresses, int count) throws IOException {
        calls.add(new WriteCall(startPageId, count, clock.getAsLong()));
        super.write(startPageId, addresses, count);
    }
}
