package io.ratatosk.pagecache;

import io.ratatosk.core.ForwardingPageSwapper;
import io.ratatosk.core.PageSwapper;
import io.ratatosk.core.PageSwapperFactory;
import io.ratatosk.pagecache.internal.FaultyFileChannel;
import io.ratatosk.pagecache.internal.FileChannelOpener;
import io.ratatosk.pagecache.internal.FileSwapperFactory;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Real file swappers with faults injected at two levels, all drawn from one seed and switched on and off
 * together ({@link #enable}):
 * <ul>
 *   <li>below the swapper, on its channel ({@link FaultyFileChannel}, {@link #channel}): IOExceptions
 *   (some after moving part of the data), short reads and writes, stalls, and interrupts of the calling
 *   thread just before the real call;</li>
 *   <li>at the swapper: IOExceptions and Errors ({@link InternalError}, {@link AssertionError}) thrown by
 *   read, write, evict and force, before or after the real operation (after: it happened, but the caller
 *   is told it failed), and interrupts of another of the registered {@link #workers}.</li>
 * </ul>
 * Every injected throwable's message starts with {@value #MARK}, so a test can tell an injected fault
 * (or a failure caused by one) from a bug. Only registered worker threads are ever interrupted: an
 * application can interrupt its own threads, not the cache's evictor.
 */
final class FaultInjectingSwapperFactory implements PageSwapperFactory {
    static final String MARK = "injected";

    final FaultyFileChannel.Faults channel;
    private final FaultyFileChannel.Faults draws;
    private final FileSwapperFactory files;
    /** The threads that may be interrupted, by the channel or by another thread's swapper call. */
    final Set<Thread> workers = ConcurrentHashMap.newKeySet();

    private volatile boolean enabled;
    /** Probability that a swapper read, write, evict or force throws an IOException. */
    volatile double ioException;
    /** Probability that a swapper read, write, evict or force throws an Error. */
    volatile double error;
    /** Probability that a swapper call interrupts another registered worker. */
    volatile double interruptOther;

    final AtomicLong ioExceptions = new AtomicLong();
    final AtomicLong errors = new AtomicLong();
    final AtomicLong interrupts = new AtomicLong();

    /** Over the default channels, which ignore interrupts. */
    FaultInjectingSwapperFactory(long seed) {
        this(seed, FileChannelOpener.uninterruptible());
    }

    /** @param real opens the channels underneath, e.g. {@link FileChannelOpener#interruptible()} for FileSwapper's fallback */
    FaultInjectingSwapperFactory(long seed, FileChannelOpener real) {
        this.channel = new FaultyFileChannel.Faults(seed);
        this.draws = new FaultyFileChannel.Faults(seed * 0x2545F4914F6CDD1DL + 1);
        this.channel.interruptible = workers::contains;
        this.files = new FileSwapperFactory(FaultyFileChannel.opener(real, channel));
    }

    /** Switches every fault, at both levels, on or off. */
    void enable(boolean on) {
        enabled = on;
        channel.enabled = on;
    }

    @Override
    public PageSwapper create(Path file, int fileId, int filePageSize, boolean create) throws IOException {
        return new InjectingSwapper(files.create(file, fileId, filePageSize, create));
    }

    /** Throws an injected IOException or Error, or not, as drawn; may interrupt another worker first. */
    private void maybeFail(String operation, long pageId, boolean after) throws IOException {
        if (!enabled) {
            return;
        }
        if (draws.happens(interruptOther)) {
            interruptAnotherWorker();
        }
        double d = draws.draw();
        if (d >= ioException + error) {
            return;
        }
        String what = operation + (pageId >= 0 ? " of page " + pageId : "") + (after ? ", after doing it" : ", before doing it");
        if (d < ioException) {
            ioExceptions.incrementAndGet();
            throw new IOException(MARK + " IOException: " + what);
        }
        if (d < ioException + error) {
            errors.incrementAndGet();
            throw draws.draw() < 0.5 ? new InternalError(MARK + " InternalError: " + what) : new AssertionError(MARK + " AssertionError: " + what);
        }
    }

    private void interruptAnotherWorker() {
        List<Thread> others = new ArrayList<>(workers);
        others.remove(Thread.currentThread());
        if (!others.isEmpty()) {
            others.get((int) (draws.draw() * others.size())).interrupt();
            interrupts.incrementAndGet();
        }
    }

    @Override
    public String toString() {
        return "swapper faults: " + ioExceptions + " IOExceptions, " + errors + " Errors, " + interrupts
            + " interrupts of other workers; " + channel;
    }

    /** A real swapper whose read, write, evict and force fail as drawn, before or after the real work. */
    private final class InjectingSwapper extends ForwardingPageSwapper {
        InjectingSwapper(PageSwapper real) {
            super(real);
        }

        @Override
        public int read(long pageId, long address) throws IOException {
            maybeFail("read", pageId, false);
            int n = super.read(pageId, address);
            maybeFail("read", pageId, true);
            return n;
        }

        @Override
        public void write(long pageId, long address) throws IOException {
            maybeFail("write", pageId, false);
            super.write(pageId, address);
            maybeFail("write", pageId, true);
        }

        @Override
        public void write(long startPageId, long[] addresses, int count) throws IOException {
            maybeFail("vectored write", startPageId, false);
            super.write(startPageId, addresses, count);
            maybeFail("vectored write", startPageId, true);
        }

        /** The real swapper's eviction with failures drawn as for a write: background sweeps may then write behind. */
        @Override
        public boolean evictionIsPlainWrite() {
            return true;
        }

        @Override
        public void evict(long pageId, long address, boolean dirty) throws IOException {
            maybeFail("evict", pageId, false);
            super.evict(pageId, address, dirty);
            maybeFail("evict", pageId, true);
        }

        @Override
        public void force() throws IOException {
            maybeFail("force", -1, false);
            super.force();
            maybeFail("force", -1, true);
        }
    }
}
