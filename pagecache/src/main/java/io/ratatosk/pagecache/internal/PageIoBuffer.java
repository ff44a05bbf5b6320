package io.ratatosk.pagecache.internal;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.agrona.BufferUtil;
import org.agrona.UnsafeAccess;
import sun.misc.Unsafe;

/**
 * The {@link ByteBuffer} one thread hands to a {@code FileChannel} to move one page between a file and
 * a frame. Page frames are raw off-heap memory and a channel only reads into buffers, and JDK 17 has no
 * public way to wrap an address in a buffer. Two ways across:
 * <ul>
 *   <li>{@link #direct()}: a direct buffer retargeted at the frame itself, so the system call reads into
 *   or writes from page memory and nothing is copied. It sets the buffer's {@code address} and
 *   {@code capacity} fields with {@code Unsafe}, which needs no {@code --add-opens}; whether that works on
 *   the running JDK is checked once, when this class loads ({@link #DIRECT_AVAILABLE}).</li>
 *   <li>{@link #copying}: a scratch buffer of its own, copied from or into the frame: one extra page copy
 *   per transfer (docs/benchmarks.md measures what it costs a fault), used where the direct way is not.</li>
 * </ul>
 * Not thread-safe: each thread holds its own.
 */
public abstract class PageIoBuffer {
    private static final Unsafe UNSAFE = UnsafeAccess.UNSAFE;
    private static final long ADDRESS_FIELD;
    private static final long CAPACITY_FIELD;
    /** Whether {@link #direct()} works on this JDK. */
    public static final boolean DIRECT_AVAILABLE;
    /** Why not, when {@link #DIRECT_AVAILABLE} is false; null otherwise. */
    public static final String DIRECT_UNAVAILABLE_REASON;

    static {
        long address = -1;
        long capacity = -1;
        String reason = null;
        try {
            address = UNSAFE.objectFieldOffset(java.nio.Buffer.class.getDeclaredField("address"));
            capacity = UNSAFE.objectFieldOffset(java.nio.Buffer.class.getDeclaredField("capacity"));
        } catch (NoSuchFieldException | RuntimeException e) {
            reason = "java.nio.Buffer has no address/capacity field to retarget: " + e;
        }
        ADDRESS_FIELD = address;
        CAPACITY_FIELD = capacity;
        if (reason == null) {
            reason = selfCheck();
        }
        DIRECT_AVAILABLE = reason == null;
        DIRECT_UNAVAILABLE_REASON = reason;
    }

    /** Reads and writes a small region both ways through a retargeted buffer; null if all went as expected. */
    private static String selfCheck() {
        long region = UNSAFE.allocateMemory(64);
        try {
            UNSAFE.setMemory(region, 64, (byte) 0);
            UNSAFE.putLong(region + 8, 0x0123_4567_89AB_CDEFL);
            ByteBuffer b = new Direct().at(region + 8, 16).order(ByteOrder.nativeOrder());
            if (b.capacity() != 16 || b.remaining() != 16 || b.getLong(0) != UNSAFE.getLong(region + 8)) {
                return "a retargeted buffer did not see the memory it was pointed at";
            }
            b.putLong(8, 42L);
            if (UNSAFE.getLong(region + 16) != 42L || UNSAFE.getLong(region + 24) != 0L) {
                return "a write through a retargeted buffer did not land where it was pointed";
            }
            return null;
        } catch (RuntimeException | LinkageError e) {
            return "retargeting a direct buffer failed: " + e;
        } finally {
            UNSAFE.freeMemory(region);
        }
    }

    /** The zero-copy buffer if this JDK allows it, else a copying one. */
    public static PageIoBuffer forPages(int pageSize) {
        return DIRECT_AVAILABLE ? direct() : copying(pageSize);
    }

    /** A buffer retargeted at each frame; only where {@link #DIRECT_AVAILABLE}. */
    public static PageIoBuffer direct() {
        if (!DIRECT_AVAILABLE) {
            throw new UnsupportedOperationException("zero-copy page IO is not available on this JDK: " + DIRECT_UNAVAILABLE_REASON);
        }
        return new Direct();
    }

    /** A buffer of its own, copied from and into frames of up to {@code pageSize} bytes. */
    public static PageIoBuffer copying(int pageSize) {
        return new Copying(pageSize, 64);
    }

    /**
     * For direct IO, which needs buffers aligned to {@code alignment} (a power of two): a frame whose address
     * is aligned is read and written in place where the JDK allows it, any other (an NVM slot, say) through
     * a scratch buffer of its own that is aligned.
     */
    public static PageIoBuffer aligned(int pageSize, int alignment) {
        return new Aligning(pageSize, alignment);
    }

    /**
     * A buffer to read {@code length} bytes into, positioned at 0 with {@code length} remaining; call
     * {@link #afterRead} with what was read.
     */
    abstract ByteBuffer forRead(long address, int length);

    /** Makes the {@code bytesRead} bytes read into the {@link #forRead} buffer appear at {@code address}. */
    abstract void afterRead(long address, int bytesRead);

    /** A buffer holding the {@code length} bytes at {@code address}, positioned at 0 with {@code length} remaining. */
    abstract ByteBuffer forWrite(long address, int length);

    /** Points one direct buffer at each frame in turn: the channel moves bytes straight in and out of page memory. */
    private static final class Direct extends PageIoBuffer {
        /**
         * A duplicate, so it owns no memory and no cleaner (the 0-byte original it keeps alive frees only
         * its own byte): retargeting it can neither leak nor free page memory.
         */
        private final ByteBuffer view = ByteBuffer.allocateDirect(0).duplicate();

        ByteBuffer at(long address, int length) {
            UNSAFE.putLong(view, ADDRESS_FIELD, address);
            UNSAFE.putInt(view, CAPACITY_FIELD, length);
            view.clear();
            return view;
        }

        @Override
        ByteBuffer forRead(long address, int length) {
            return at(address, length);
        }

        @Override
        void afterRead(long address, int bytesRead) {
        }

        @Override
        ByteBuffer forWrite(long address, int length) {
            return at(address, length);
        }
    }

    /** A scratch buffer of its own, with one copy per transfer. */
    private static final class Copying extends PageIoBuffer {
        private final ByteBuffer scratch;
        private final long scratchAddress;

        Copying(int pageSize, int alignment) {
            this.scratch = BufferUtil.allocateDirectAligned((pageSize + alignment - 1) & -alignment, alignment);
            this.scratchAddress = BufferUtil.address(scratch);
        }

        @Override
        ByteBuffer forRead(long address, int length) {
            scratch.clear().limit(length);
            return scratch;
        }

        @Override
        void afterRead(long address, int bytesRead) {
            if (bytesRead > 0) {
                UNSAFE.copyMemory(scratchAddress, address, bytesRead);
            }
        }

        @Override
        ByteBuffer forWrite(long address, int length) {
            UNSAFE.copyMemory(address, scratchAddress, length);
            scratch.clear().limit(length);
            return scratch;
        }
    }

    /** In place where the address is aligned (and the JDK allows it), through an aligned scratch buffer otherwise. */
    private static final class Aligning extends PageIoBuffer {
        private final int pageSize;
        private final int alignment;
        private final long mask;
        private final Direct inPlace = DIRECT_AVAILABLE ? new Direct() : null;
        /** Made on first use: page frames are aligned, so only a tier's slots need it. */
        private Copying copying;
        /** Which of the two the last {@link #forRead} used, for its {@link #afterRead}. */
        private PageIoBuffer lastRead;

        Aligning(int pageSize, int alignment) {
            this.pageSize = pageSize;
            this.alignment = alignment;
            this.mask = alignment - 1;
        }

        private PageIoBuffer pick(long address) {
            if (inPlace != null && (address & mask) == 0) {
                return inPlace;
            }
            if (copying == null) {
                copying = new Copying(pageSize, alignment);
            }
            return copying;
        }

        @Override
        ByteBuffer forRead(long address, int length) {
            lastRead = pick(address);
            return lastRead.forRead(address, length);
        }

        @Override
        void afterRead(long address, int bytesRead) {
            lastRead.afterRead(address, bytesRead);
        }

        @Override
        ByteBuffer forWrite(long address, int length) {
            return pick(address).forWrite(address, length);
        }
    }
}
