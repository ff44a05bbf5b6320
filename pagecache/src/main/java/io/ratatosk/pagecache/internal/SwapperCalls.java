package io.ratatosk.pagecache.internal;

import io.ratatosk.core.ForwardingPageSwapper;
import io.ratatosk.core.PageSwapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.function.IntFunction;

/**
 * Which page cache's swapper call the current thread is inside, so that a swapper (a plug-in, or a tier) that calls
 * back into its own page cache is refused instead of waiting for itself: an unmap, truncate or cache close waits for the
 * file's operations in flight, a flush for a page an eviction holds, a map for the mapping lock a closing thread holds
 * while it waits for those operations, and the swapper call is one of them.
 */
public final class SwapperCalls {
    /** This thread's swapper calls in progress, innermost last: no allocation per call once the thread made one. */
    private static final ThreadLocal<Calls> CURRENT = ThreadLocal.withInitial(Calls::new);

    private SwapperCalls() {
    }

    /** Makes the larger array a growing stack of calls moves to: a test's seam to fail there as a full heap would. */
    static volatile IntFunction<Object[]> newEntries = Object[]::new;

    /**
     * A stack of swapper calls: which cache made each, what it was, and on which file, three entries a call in one
     * array, so that growing it is one allocation and one store. (Three arrays grown one after the other were left at
     * two lengths by an OutOfMemoryError between the copies, and every later call that deep on the thread failed with
     * ArrayIndexOutOfBoundsException.)
     */
    private static final class Calls {
        private static final int CACHE = 0;
        private static final int OPERATION = 1;
        private static final int FILE = 2;
        private static final int STRIDE = 3;

        Object[] entries = new Object[4 * STRIDE];
        int depth;

        void push(Object cache, String operation, Path file) {
            int at = depth * STRIDE;
            if (at == entries.length) {
                Object[] grown = newEntries.apply(entries.length * 2);
                System.arraycopy(entries, 0, grown, 0, at);
                entries = grown;
            }
            entries[at + CACHE] = cache;
            entries[at + OPERATION] = operation;
            entries[at + FILE] = file;
            depth++;
        }

        /** The innermost call made by {@code cache}, or -1. */
        int innermost(Object cache) {
            for (int i = depth - 1; i >= 0; i--) {
                if (entries[i * STRIDE + CACHE] == cache) {
                    return i;
                }
            }
            return -1;
        }

        String operation(int call) {
            return (String) entries[call * STRIDE + OPERATION];
        }

        Path file(int call) {
            return (Path) entries[call * STRIDE + FILE];
        }

        void pop() {
            depth--;
            int at = depth * STRIDE;
            entries[at + CACHE] = null; // a closed cache is not kept reachable from a pooled thread
            entries[at + FILE] = null;
        }
    }

    /**
     * Throws if this thread is inside a call of a swapper of {@code cache} (made by that cache): {@code what} is the
     * call back, for the message.
     */
    public static void refuseInside(Object cache, String what) {
        Calls calls = CURRENT.get();
        int i = calls.innermost(cache);
        if (i >= 0) {
            throw new IllegalStateException(what + " was called from inside a call of its swapper ("
                + calls.operation(i) + " of " + calls.file(i) + "): a swapper or swap tier must not call back into"
                + " the page cache that called it; the call would wait for the swapper call in progress, that is for itself");
        }
    }

    /**
     * Whether this thread is inside a call of a swapper of {@code cache}: for a caller whose message for
     * {@link #refuseInside} would cost a string per call (a fault's), to build it only when it is needed.
     */
    public static boolean inside(Object cache) {
        return CURRENT.get().innermost(cache) >= 0;
    }

    /**
     * Marks a call of {@code cache}'s plug-in code that is not a swapper's (a factory's create) until {@link #end}:
     * call backs into {@code cache} are refused meanwhile, as from inside a swapper call.
     */
    public static void begin(Object cache, String operation, Path file) {
        CURRENT.get().push(cache, operation, file);
    }

    /** Ends the innermost {@link #begin}. */
    public static void end() {
        CURRENT.get().pop();
    }

    /** The swapper of a mapped file as the page cache calls it: every call marked as inside a call of {@code cache}'s swapper. */
    public static PageSwapper guard(PageSwapper swapper, Object cache, Path file) {
        return new Guarded(swapper, cache, file);
    }

    /** The swapper a {@link #guard} wraps. */
    public static PageSwapper unguarded(PageSwapper swapper) {
        return swapper instanceof Guarded guarded ? guarded.delegate() : swapper;
    }

    private static final class Guarded extends ForwardingPageSwapper {
        private final Object cache;
        private final Path file;

        Guarded(PageSwapper delegate, Object cache, Path file) {
            super(delegate);
            this.cache = cache;
            this.file = file;
        }

        private Calls enter(String operation) {
            Calls calls = CURRENT.get();
            calls.push(cache, operation, file);
            return calls;
        }

        private static void exit(Calls calls) {
            calls.pop();
        }

        @Override
        public int read(long pageId, long address) throws IOException {
            Calls outer = enter("read");
            try {
                return super.read(pageId, address);
            } finally {
                exit(outer);
            }
        }

        @Override
        public void write(long pageId, long address) throws IOException {
            Calls outer = enter("write");
            try {
                super.write(pageId, address);
            } finally {
                exit(outer);
            }
        }

        @Override
        public void write(long startPageId, long[] addresses, int count) throws IOException {
            Calls outer = enter("write");
            try {
                super.write(startPageId, addresses, count);
            } finally {
                exit(outer);
            }
        }

        @Override
        public void evict(long pageId, long address, boolean dirty) throws IOException {
            Calls outer = enter("evict");
            try {
                super.evict(pageId, address, dirty);
            } finally {
                exit(outer);
            }
        }

        @Override
        public boolean evictionIsPlainWrite() {
            return delegate().evictionIsPlainWrite();
        }

        @Override
        public void force() throws IOException {
            Calls outer = enter("force");
            try {
                super.force();
            } finally {
                exit(outer);
            }
        }

        @Override
        public long pageCount() throws IOException {
            Calls outer = enter("pageCount");
            try {
                return super.pageCount();
            } finally {
                exit(outer);
            }
        }

        @Override
        public void truncate(long pageCount) throws IOException {
            Calls outer = enter("truncate");
            try {
                super.truncate(pageCount);
            } finally {
                exit(outer);
            }
        }

        @Override
        public void close() throws IOException {
            Calls outer = enter("close");
            try {
                super.close();
            } finally {
                exit(outer);
            }
        }

        @Override
        public String toString() {
            return delegate().toString();
        }
    }
}
