package io.ratatosk.nvm;

import java.util.ArrayList;
import java.util.List;

import io.ratatosk.core.PageKey;
import org.agrona.UnsafeAccess;
import sun.misc.Unsafe;

/** Off-heap page buffers for tests (standing in for page frames), filled with reproducible content. */
final class OffHeapPages implements AutoCloseable {
    static final Unsafe UNSAFE = UnsafeAccess.UNSAFE;

    private final List<Long> allocated = new ArrayList<>();
    private final int pageSize;

    OffHeapPages(int pageSize) {
        if (pageSize % Long.BYTES != 0) {
            throw new IllegalArgumentException("test pages are whole longs: pageSize=" + pageSize);
        }
        this.pageSize = pageSize;
    }

    int pageSize() {
        return pageSize;
    }

    long allocate() {
        long address = UNSAFE.allocateMemory(pageSize);
        UNSAFE.setMemory(address, pageSize, (byte) 0);
        allocated.add(address);
        return address;
    }

    /** Fills the page with content determined by {@code version} (never all zeros). */
    void fill(long address, long version) {
        for (int i = 0; i < pageSize; i += Long.BYTES) {
            UNSAFE.putLong(address + i, word(version, i));
        }
    }

    /** The first offset where the page differs from {@code version}'s content, or -1. */
    int firstMismatch(long address, long version) {
        for (int i = 0; i < pageSize; i += Long.BYTES) {
            if (UNSAFE.getLong(address + i) != word(version, i)) {
                return i;
            }
        }
        return -1;
    }

    static long word(long version, int offset) {
        return PageKey.hash(version * 0x9E3779B97F4A7C15L + offset + 1) | 1L;
    }

    @Override
    public void close() {
        for (long a : allocated) {
            UNSAFE.freeMemory(a);
        }
        allocated.clear();
    }
}
