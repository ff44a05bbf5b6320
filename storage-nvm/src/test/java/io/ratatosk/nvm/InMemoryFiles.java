package io.ratatosk.nvm;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiFunction;

import io.ratatosk.core.PageSwapper;
import io.ratatosk.core.PageSwapperFactory;
import sun.misc.Unsafe;

/**
 * Test files in memory behind a {@link PageSwapperFactory}: records every write (page and the
 * version in its first word), counts writes in flight per page, and lets a test slow down or fail
 * writes through a hook.
 */
final class InMemoryFiles implements PageSwapperFactory {
    private static final Unsafe UNSAFE = OffHeapPages.UNSAFE;

    /** Called before each page write; may sleep or throw. */
    interface WriteHook {
        void beforeWrite(Path file, long pageId) throws IOException;
    }

    static final class MemoryFile {
        final ConcurrentHashMap<Long, byte[]> pages = new ConcurrentHashMap<>();
        final ConcurrentHashMap<Long, AtomicInteger> inFlight = new ConcurrentHashMap<>();
        final AtomicInteger maxInFlight = new AtomicInteger();
        final AtomicLong writes = new AtomicLong();
        final AtomicLong reads = new AtomicLong();
        final AtomicLong forces = new AtomicLong();
        /** "pageId:firstWord" for every completed write, in completion order. */
        final List<String> writeLog = new CopyOnWriteArrayList<>();
        volatile long truncatedTo = -1;

        long writesOf(long pageId) {
            String prefix = pageId + ":";
            return writeLog.stream().filter(s -> s.startsWith(prefix)).count();
        }
    }

    final ConcurrentHashMap<Path, MemoryFile> files = new ConcurrentHashMap<>();
    volatile WriteHook hook = (file, pageId) -> {
    };

    /** What a factory of {@link #wrapped} does at its close. */
    @FunctionalInterface
    interface FactoryClose {
        void close() throws IOException;
    }

    /**
     * A factory of these files whose swappers {@code wrap} may wrap (it gets the file's path and swapper: a
     * {@code ForwardingPageSwapper} that breaks or holds up some calls), and whose own close runs {@code close}.
     */
    PageSwapperFactory wrapped(BiFunction<Path, PageSwapper, PageSwapper> wrap, FactoryClose close) {
        return new PageSwapperFactory() {
            @Override
            public PageSwapper create(Path path, int fileId, int filePageSize, boolean create) throws IOException {
                return wrap.apply(path, InMemoryFiles.this.create(path, fileId, filePageSize, create));
            }

            @Override
            public void close() throws IOException {
                close.close();
            }
        };
    }

    MemoryFile file(Path path) {
        return files.computeIfAbsent(path, p -> new MemoryFile());
    }

    @Override
    public PageSwapper create(Path path, int fileId, int filePageSize, boolean create) throws IOException {
        if (!create && !files.containsKey(path)) {
            throw new IOException("no such file: " + path);
        }
        MemoryFile f = file(path);
        return new PageSwapper() {
            @Override
            public int filePageSize() {
                return filePageSize;
            }

            @Override
            public int read(long pageId, long address) {
                f.reads.incrementAndGet();
                byte[] page = f.pages.get(pageId);
                if (page == null) {
                    UNSAFE.setMemory(address, filePageSize, (byte) 0);
                    return 0;
                }
                UNSAFE.copyMemory(page, Unsafe.ARRAY_BYTE_BASE_OFFSET, null, address, filePageSize);
                return filePageSize;
            }

            @Override
            public void write(long pageId, long address) throws IOException {
                AtomicInteger flying = f.inFlight.computeIfAbsent(pageId, k -> new AtomicInteger());
                int now = flying.incrementAndGet();
                f.maxInFlight.accumulateAndGet(now, Math::max);
                try {
                    hook.beforeWrite(path, pageId);
                    byte[] page = new byte[filePageSize];
                    UNSAFE.copyMemory(null, address, page, Unsafe.ARRAY_BYTE_BASE_OFFSET, filePageSize);
                    f.pages.put(pageId, page);
                    f.writes.incrementAndGet();
                    f.writeLog.add(pageId + ":" + UNSAFE.getLong(address));
                } finally {
                    flying.decrementAndGet();
                }
            }

            @Override
            public void force() {
                f.forces.incrementAndGet();
            }

            @Override
            public long pageCount() {
                return f.pages.keySet().stream().mapToLong(p -> p + 1).max().orElse(0);
            }

            @Override
            public void truncate(long pageCount) {
                f.pages.keySet().removeIf(p -> p >= pageCount);
                f.truncatedTo = pageCount;
            }

            @Override
            public void close() {
            }
        };
    }
}
