package io.ratatosk.bench.jmh;

import io.ratatosk.bench.jmh.PrimitiveMaps.AgronaGhostSlots;
import io.ratatosk.bench.jmh.PrimitiveMaps.AgronaHistoryTable;
import io.ratatosk.bench.jmh.PrimitiveMaps.AgronaShadowIndex;
import io.ratatosk.bench.jmh.PrimitiveMaps.AgronaTraceIds;
import io.ratatosk.bench.jmh.PrimitiveMaps.GhostSlots;
import io.ratatosk.bench.jmh.PrimitiveMaps.HistoryTable;
import io.ratatosk.bench.jmh.PrimitiveMaps.OurGhostSlots;
import io.ratatosk.bench.jmh.PrimitiveMaps.OurHistoryTable;
import io.ratatosk.bench.jmh.PrimitiveMaps.OurShadowIndex;
import io.ratatosk.bench.jmh.PrimitiveMaps.OurTraceIds;
import io.ratatosk.bench.jmh.PrimitiveMaps.ShadowIndex;
import io.ratatosk.bench.jmh.PrimitiveMaps.TraceIds;
import io.ratatosk.core.PageKey;
import io.ratatosk.policies.GlobalClockPolicy;
import io.ratatosk.policies.PolicySizes;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.ThreadParams;

/**
 * Our hand-written single-threaded primitive maps against agrona's nearest map ({@link PrimitiveMaps}), each
 * under the operation mix its owner puts it through, at the sizes a cache of {@value #FRAMES} frames gives it.
 * {@code side=ratatosk} is ours, {@code side=agrona} agrona's; both run the same steps on the same keys, so
 * the return values agree. One operation is one step of the owner:
 * <ul>
 *   <li>{@code exactHistory}: a fault and an eviction of {@code ExactHistoryPolicy} at its default capacity,
 *       the frame count: remove the faulted key (remembered: a boost), then put the evicted key with its ring
 *       entry, first trimming the ring to the capacity when it is full (a get per trimmed entry, and a remove
 *       where it is the key's latest). The table holds up to twice the capacity.</li>
 *   <li>{@code ghosts}: a fault and an eviction of CLOCK-Pro at {@link PolicySizes#CLOCK_PRO_GHOSTS} ghosts per
 *       frame: look the faulted key up and remove its ghost; look the evicted key up (a stale ghost), add its
 *       ghost, and while over capacity remove the oldest ghost (the test hand).</li>
 *   <li>{@code shadowIndex}: one sampled reference replayed into an ARI shadow clock (1/64 of the frames):
 *       a lookup, and on a miss the clock's eviction (remove) and the new page (put).</li>
 *   <li>{@code traceIds}: the simulator reading a trace ({@code Trace.Builder}): a fresh map sized for 1/8 of
 *       the requests, then the dense id of every request; its growth is part of the cost.</li>
 * </ul>
 * Faults and evictions come from uniform page ids over {@value #FILE_TO_CACHE} times the frames through a FIFO
 * cache of the frames, as in {@link FaultPathBenchmark}; the shadow's references and the trace's requests are
 * Zipf ({@link PageIds#ZIPF_EXPONENT}). Not part of {@code ./bench jmh}'s default suite ({@link
 * JmhCommand#SUITE_PATTERN}): it informs a choice of data structure, not the cache's targets; run it by name,
 * {@code ./bench jmh PrimitiveMap}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class PrimitiveMapBenchmark {
    /** The {@code side} value of agrona's maps. */
    public static final String AGRONA = "agrona";
    static final int FRAMES = 1 << 16;
    static final int FILE_TO_CACHE = 4;
    /** Requests of the trace the simulator reads: one cycle of {@link PageIds}. */
    static final int TRACE_REQUESTS = PageIds.LENGTH;
    /** Distinct keys the trace's requests are drawn from. */
    static final int TRACE_KEYS = TRACE_REQUESTS / 4;

    @Param({CacheSide.RATATOSK, AGRONA})
    public String side;

    /** Whether {@link #side} is ours. */
    boolean ours() {
        if (CacheSide.RATATOSK.equals(side)) {
            return true;
        }
        if (AGRONA.equals(side)) {
            return false;
        }
        throw new IllegalArgumentException("side must be " + CacheSide.RATATOSK + " or " + AGRONA + ": side=" + side);
    }

    /** One fault and one eviction; 1 if the fault was boosted. */
    @Benchmark
    public int exactHistory(ExactHistory history) {
        return history.step();
    }

    /** One fault and one eviction; 1 if the faulted page had a ghost. */
    @Benchmark
    public int ghosts(Ghosts ghosts) {
        return ghosts.step();
    }

    /** One sampled reference; 1 on a shadow hit. */
    @Benchmark
    public int shadowIndex(Shadow shadow) {
        return shadow.step();
    }

    /** One request of the trace (an invocation reads the whole trace); the number of distinct keys. */
    @Benchmark
    @OperationsPerInvocation(TRACE_REQUESTS)
    public int traceIds(TraceRequests trace) {
        return trace.read();
    }

    /**
     * The faults of a cache: uniform page ids over {@code pages} pages through a FIFO cache of {@code frames}
     * frames, from the first eviction on; each fault is the page's key and the key of the page it evicts.
     * A cycle of {@link #LENGTH} faults, drawn once.
     */
    static final class FaultStream {
        static final int LENGTH = 1 << 20;
        final long[] faulted = new long[LENGTH];
        final long[] evicted = new long[LENGTH];

        FaultStream(int frames, int pages, long seed) {
            SplittableRandom random = new SplittableRandom(seed);
            boolean[] resident = new boolean[pages];
            int[] fifo = new int[frames];
            int filled = 0;
            int hand = 0;
            for (int n = 0; n < LENGTH; ) {
                int page = random.nextInt(pages);
                if (resident[page]) {
                    continue;
                }
                resident[page] = true;
                if (filled < frames) {
                    fifo[filled++] = page;
                    continue;
                }
                int victim = fifo[hand];
                resident[victim] = false;
                fifo[hand] = page;
                hand = hand + 1 == frames ? 0 : hand + 1;
                faulted[n] = PageKey.of(0, page);
                evicted[n] = PageKey.of(0, victim);
                n++;
            }
        }
    }

    /** {@code ExactHistoryPolicy}'s map calls, with its ring, on {@link #FRAMES} frames. */
    @State(Scope.Thread)
    public static class ExactHistory {
        private int capacity;
        private HistoryTable table;
        private long[] ring;
        private int ringMask;
        private long oldest;
        private long next;
        private FaultStream faults;
        private int cursor;

        @Setup(Level.Trial)
        public void open(PrimitiveMapBenchmark bench, ThreadParams thread) {
            open(bench.ours(), FRAMES, thread.getThreadIndex());
        }

        /** A history of {@code frames} entries (the default capacity), filled to its steady state. */
        void open(boolean ours, int frames, long seed) {
            capacity = frames;
            int bound = OurHistoryTable.ringBound(capacity);
            table = ours ? new OurHistoryTable(capacity) : new AgronaHistoryTable(OurHistoryTable.cells(capacity));
            ring = new long[bound];
            ringMask = bound - 1;
            faults = new FaultStream(frames, FILE_TO_CACHE * frames, seed);
            for (int i = 0; i < 2 * bound; i++) {
                step();
            }
        }

        int step() {
            int i = cursor;
            cursor = (i + 1) & (FaultStream.LENGTH - 1);
            int boosted = table.remove(faults.faulted[i]) != HistoryTable.ABSENT ? 1 : 0;
            if (next - oldest == ring.length) {
                trimTo(capacity);
            }
            long key = faults.evicted[i];
            ring[(int) (next & ringMask)] = key;
            table.put(key, next++);
            return boosted;
        }

        private void trimTo(int entries) {
            while (next - oldest > entries) {
                long key = ring[(int) (oldest & ringMask)];
                if (table.get(key) == oldest) {
                    table.remove(key);
                }
                oldest++;
            }
        }
    }

    /** CLOCK-Pro's ghost calls, with the ghosts in the order the test hand meets them, on {@link #FRAMES} frames. */
    @State(Scope.Thread)
    public static class Ghosts {
        private static final int NONE = GhostSlots.NONE;
        private GhostSlots ghosts;
        /** The ghosts oldest first, as a doubly linked list over the slots. */
        private int[] older;
        private int[] newer;
        private int oldestGhost = NONE;
        private int newestGhost = NONE;
        private FaultStream faults;
        private int cursor;

        @Setup(Level.Trial)
        public void open(PrimitiveMapBenchmark bench, ThreadParams thread) {
            open(bench.ours(), FRAMES, thread.getThreadIndex());
        }

        /** CLOCK-Pro's ghosts for {@code frames} frames, filled to capacity. */
        void open(boolean ours, int frames, long seed) {
            int capacity = (int) PolicySizes.ghostCapacity(frames, PolicySizes.CLOCK_PRO_GHOSTS);
            ghosts = ours ? new OurGhostSlots(capacity) : new AgronaGhostSlots(capacity, OurGhostSlots.cells(capacity));
            older = new int[ghosts.slots()];
            newer = new int[ghosts.slots()];
            faults = new FaultStream(frames, FILE_TO_CACHE * frames, seed);
            for (int i = 0; i < 2 * capacity; i++) {
                step();
            }
        }

        int step() {
            int i = cursor;
            cursor = (i + 1) & (FaultStream.LENGTH - 1);
            int refault = 0;
            int slot = ghosts.slotOf(faults.faulted[i]);
            if (slot != NONE) {
                drop(slot);
                refault = 1;
            }
            long evicted = faults.evicted[i];
            int stale = ghosts.slotOf(evicted);
            if (stale != NONE) {
                drop(stale);
            }
            append(ghosts.add(evicted));
            while (ghosts.overCapacity()) {
                drop(oldestGhost);
            }
            return refault;
        }

        private void append(int slot) {
            older[slot] = newestGhost;
            newer[slot] = NONE;
            if (newestGhost == NONE) {
                oldestGhost = slot;
            } else {
                newer[newestGhost] = slot;
            }
            newestGhost = slot;
        }

        private void drop(int slot) {
            int o = older[slot];
            int n = newer[slot];
            if (o == NONE) {
                oldestGhost = n;
            } else {
                newer[o] = n;
            }
            if (n == NONE) {
                newestGhost = o;
            } else {
                older[n] = o;
            }
            ghosts.remove(slot);
        }
    }

    /**
     * An ARI shadow clock's index calls ({@code ShadowClock.reference}, the plain variant without NVM): its
     * usage-count clock at the default usage settings, over the pages sampled from {@link #FRAMES} frames.
     */
    @State(Scope.Thread)
    public static class Shadow {
        private static final int MAX_USAGE = GlobalClockPolicy.DEFAULT_MAX_USAGE;
        private static final int FAULT_USAGE = GlobalClockPolicy.DEFAULT_FAULT_USAGE;
        private static final int EVICT_THRESHOLD = GlobalClockPolicy.DEFAULT_EVICT_THRESHOLD;
        private ShadowIndex index;
        private int capacity;
        private int[] ids;
        private byte[] usage;
        private int size;
        private int hand;
        private int[] references;
        private int cursor;

        @Setup(Level.Trial)
        public void open(PrimitiveMapBenchmark bench, ThreadParams thread) {
            open(bench.ours(), FRAMES, thread.getThreadIndex());
        }

        /**
         * The shadow of a cache of {@code frames} frames, warmed up. Its references are Zipf over the sampled
         * share of {@value #FILE_TO_CACHE} times the frames (the sample is a random subset of the pages, so its
         * ranks keep the skew); a page's id is the top half of its key's hash, as the sampler's.
         */
        void open(boolean ours, int frames, long seed) {
            capacity = OurShadowIndex.shadowFrames(frames);
            index = ours ? new OurShadowIndex(capacity) : new AgronaShadowIndex(OurShadowIndex.cells(capacity));
            ids = new int[capacity];
            usage = new byte[capacity];
            PageIds pages = PageIds.zipf(FILE_TO_CACHE * capacity, PageIds.ZIPF_EXPONENT, seed);
            references = new int[PageIds.LENGTH];
            for (int i = 0; i < references.length; i++) {
                int id = (int) (PageKey.hash(PageKey.of(0, pages.next())) >>> 32);
                references[i] = id == 0 ? 1 : id;
            }
            for (int i = 0; i < 4 * FILE_TO_CACHE * capacity; i++) {
                step();
            }
        }

        int step() {
            int i = cursor;
            cursor = (i + 1) & (PageIds.LENGTH - 1);
            int id = references[i];
            int slot = index.get(id);
            if (slot >= 0) {
                if (usage[slot] < MAX_USAGE) {
                    usage[slot]++;
                }
                return 1;
            }
            slot = size < capacity ? size++ : evict();
            ids[slot] = id;
            usage[slot] = (byte) FAULT_USAGE;
            index.put(id, slot);
            return 0;
        }

        private int evict() {
            while (true) {
                int slot = hand;
                hand = slot + 1 == capacity ? 0 : slot + 1;
                int u = usage[slot];
                if (u > 0) {
                    usage[slot] = (byte) (u - 1);
                }
                if (u <= EVICT_THRESHOLD) {
                    index.remove(ids[slot]);
                    return slot;
                }
            }
        }
    }

    /**
     * The simulator remapping a trace's keys to dense ids: Zipf requests over {@value #TRACE_KEYS} keys, each
     * key as a block trace has it, the first sector of a 4 KiB block (8 sectors of 512 bytes), so the keys are
     * sparse and regular, not random.
     */
    @State(Scope.Thread)
    public static class TraceRequests {
        private boolean ours;
        private long[] requests;

        @Setup(Level.Trial)
        public void open(PrimitiveMapBenchmark bench, ThreadParams thread) {
            open(bench.ours(), TRACE_KEYS, thread.getThreadIndex());
        }

        void open(boolean ours, int keys, long seed) {
            this.ours = ours;
            PageIds blocks = PageIds.zipf(keys, PageIds.ZIPF_EXPONENT, seed);
            requests = new long[PageIds.LENGTH];
            for (int i = 0; i < requests.length; i++) {
                requests[i] = 8L * blocks.next();
            }
        }

        /** Reads the trace into a fresh map, as {@code Trace.Builder} does; the distinct keys. */
        int read() {
            TraceIds ids = ours ? new OurTraceIds(requests.length)
                : new AgronaTraceIds(OurTraceIds.cells(OurTraceIds.expectedKeys(requests.length)));
            int last = 0;
            for (long key : requests) {
                last = ids.idOf(key);
            }
            return ids.size() + last;
        }
    }
}
