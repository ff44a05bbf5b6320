package io.ratatosk.pagecache.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;

/**
 * A {@link FileChannel} over a real one that misbehaves as a disk and a busy JVM may: positional reads
 * and writes, force, size and truncate throw IOExceptions (reads and writes sometimes after moving part
 * of the data), reads and writes move fewer bytes than asked (which FileChannel allows), calls stall,
 * and the calling thread is interrupted just before the real call. What happens is drawn from
 * {@link Faults}, shared by every channel of a test and switched on and off at runtime.
 */
public final class FaultyFileChannel extends FileChannel {
    private final FileChannel real;
    private final Faults faults;

    public FaultyFileChannel(FileChannel real, Faults faults) {
        this.real = real;
        this.faults = faults;
    }

    /** Opens channels through {@code real}, each wrapped in a FaultyFileChannel drawing from {@code faults}. */
    public static FileChannelOpener opener(FileChannelOpener real, Faults faults) {
        return (path, create) -> new FaultyFileChannel(real.open(path, create), faults);
    }

    /**
     * What to inject, with what probability per call, from a seeded sequence: the same seed gives the
     * same sequence of decisions (though threads draw from it in whatever order they run). Thread-safe.
     */
    public static final class Faults {
        private final long seed;
        private final AtomicLong draws = new AtomicLong();
        public volatile boolean enabled;
        /** Probability that a call throws an IOException. */
        public volatile double ioException;
        /** Probability that a read or write moves only part of what was asked. */
        public volatile double shortTransfer;
        /** Probability that a call stalls for up to {@link #maxStallNanos}. */
        public volatile double stall;
        public volatile long maxStallNanos = 1_000_000;
        /** Probability that the calling thread is interrupted just before the real call. */
        public volatile double interruptCaller;
        /** Which threads may be interrupted; all by default. */
        public volatile Predicate<Thread> interruptible = t -> true;

        public final AtomicLong ioExceptions = new AtomicLong();
        public final AtomicLong shortTransfers = new AtomicLong();
        public final AtomicLong stalls = new AtomicLong();
        public final AtomicLong interrupts = new AtomicLong();
        /** Every force that reached the real channel, faults on or off. */
        public final AtomicLong forces = new AtomicLong();

        public Faults(long seed) {
            this.seed = seed;
        }

        /** The next number in [0, 1) of the seeded sequence. */
        public double draw() {
            long z = seed + draws.getAndIncrement() * 0x9E3779B97F4A7C15L;
            z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
            z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
            z ^= z >>> 31;
            return (z >>> 11) * 0x1.0p-53;
        }

        public boolean happens(double probability) {
            return probability > 0 && draw() < probability;
        }

        @Override
        public String toString() {
            return "channel faults: " + ioExceptions + " IOExceptions, " + shortTransfers + " short transfers, "
                + stalls + " stalls, " + interrupts + " interrupts";
        }
    }

    /** Stalls, interrupts the caller, or throws, as drawn; called before every real call when enabled. */
    private void beforeCall() {
        if (faults.happens(faults.stall)) {
            faults.stalls.incrementAndGet();
            LockSupport.parkNanos((long) (faults.draw() * faults.maxStallNanos));
        }
        if (faults.happens(faults.interruptCaller) && faults.interruptible.test(Thread.currentThread())) {
            faults.interrupts.incrementAndGet();
            Thread.currentThread().interrupt();
        }
    }

    private IOException injected(String what) {
        faults.ioExceptions.incrementAndGet();
        return new IOException("injected IOException: " + what);
    }

    @Override
    public int read(ByteBuffer dst, long position) throws IOException {
        return transfer(dst, position, false);
    }

    @Override
    public int write(ByteBuffer src, long position) throws IOException {
        return transfer(src, position, true);
    }

    /**
     * A positional read or write, with the faults drawn: an IOException (after moving part of the page
     * half the time: a transfer that fails half way), a short transfer, or the real call.
     */
    private int transfer(ByteBuffer buf, long position, boolean write) throws IOException {
        if (faults.enabled) {
            beforeCall();
            if (faults.happens(faults.ioException)) {
                if (buf.remaining() > 1 && faults.draw() < 0.5) {
                    partially(buf, position, write);
                }
                throw injected((write ? "write" : "read") + " at " + position);
            }
            if (buf.remaining() > 1 && faults.happens(faults.shortTransfer)) {
                faults.shortTransfers.incrementAndGet();
                return partially(buf, position, write);
            }
        }
        return real(buf, position, write);
    }

    /** Moves between 1 and remaining - 1 bytes of {@code buf} by narrowing its limit for one real call. */
    private int partially(ByteBuffer buf, long position, boolean write) throws IOException {
        int limit = buf.limit();
        int part = 1 + (int) (faults.draw() * (buf.remaining() - 1));
        buf.limit(buf.position() + part);
        try {
            return real(buf, position, write);
        } finally {
            buf.limit(limit);
        }
    }

    private int real(ByteBuffer buf, long position, boolean write) throws IOException {
        return write ? real.write(buf, position) : real.read(buf, position);
    }

    @Override
    public void force(boolean metaData) throws IOException {
        if (faults.enabled) {
            beforeCall();
            if (faults.happens(faults.ioException)) {
                throw injected("force");
            }
        }
        real.force(metaData);
        faults.forces.incrementAndGet();
    }

    @Override
    public long size() throws IOException {
        if (faults.enabled) {
            beforeCall();
            if (faults.happens(faults.ioException)) {
                throw injected("size");
            }
        }
        return real.size();
    }

    @Override
    public FileChannel truncate(long size) throws IOException {
        if (faults.enabled) {
            beforeCall();
            if (faults.happens(faults.ioException)) {
                throw injected("truncate");
            }
        }
        real.truncate(size);
        return this;
    }

    // Everything the page cache does not use passes straight through.

    @Override
    public int read(ByteBuffer dst) throws IOException {
        return real.read(dst);
    }

    @Override
    public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
        return real.read(dsts, offset, length);
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
        return real.write(src);
    }

    /**
     * A gathering write at the channel's position (FileSwapper's write of a run of pages), with the same
     * faults as a positional one: an IOException (after writing part of the first buffer half the time),
     * or a short transfer that writes only part of the first buffer.
     */
    @Override
    public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
        if (faults.enabled && length > 0) {
            beforeCall();
            boolean fail = faults.happens(faults.ioException);
            boolean partial = fail ? faults.draw() < 0.5 : faults.happens(faults.shortTransfer);
            if (partial && srcs[offset].remaining() > 1) {
                if (!fail) {
                    faults.shortTransfers.incrementAndGet();
                }
                ByteBuffer first = srcs[offset];
                int limit = first.limit();
                first.limit(first.position() + 1 + (int) (faults.draw() * (first.remaining() - 1)));
                long moved;
                try {
                    moved = real.write(first);
                } finally {
                    first.limit(limit);
                }
                if (!fail) {
                    return moved;
                }
            }
            if (fail) {
                throw injected("gathering write at " + real.position());
            }
        }
        return real.write(srcs, offset, length);
    }

    @Override
    public long position() throws IOException {
        return real.position();
    }

    @Override
    public FileChannel position(long newPosition) throws IOException {
        real.position(newPosition);
        return this;
    }

    @Override
    public long transferTo(long position, long count, WritableByteChannel target) throws IOException {
        return real.transferTo(position, count, target);
    }

    @Override
    public long transferFrom(ReadableByteChannel src, long position, long count) throws IOException {
        return real.transferFrom(src, position, count);
    }

    @Override
    public MappedByteBuffer map(MapMode mode, long position, long size) throws IOException {
        return real.map(mode, position, size);
    }

    @Override
    public FileLock lock(long position, long size, boolean shared) throws IOException {
        return real.lock(position, size, shared);
    }

    @Override
    public FileLock tryLock(long position, long size, boolean shared) throws IOException {
        return real.tryLock(position, size, shared);
    }

    @Override
    protected void implCloseChannel() throws IOException {
        real.close();
    }

    /** The channel underneath, for tests that act on it directly. */
    public FileChannel real() {
        return real;
    }
}
