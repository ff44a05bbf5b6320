package io.ratatosk.nvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ratatosk.pagecache.PageCache;
import io.ratatosk.pagecache.Waits;
import io.ratatosk.pagecache.PageCacheConfig;
import io.ratatosk.pagecache.PagedFile;
import io.ratatosk.pagecache.PageCursor;
import io.ratatosk.pagecache.InvalidConfigurationException;
import io.ratatosk.core.EvictionPolicy;
import io.ratatosk.core.FrameTable;
import io.ratatosk.core.config.Flag;
import io.ratatosk.pagecache.OperationsFlags;
import io.ratatosk.pagecache.PageCacheFlags;
import io.ratatosk.policies.PolicyRegistry;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every number the parser accepts works. For every flag, boundary values and odd spellings, alone and
 * with each policy, and the flags that constrain each other in combination: either
 * {@link PageCacheConfig#parse} refuses the config with an {@link InvalidConfigurationException}
 * (never another exception), or the config builds: its policy over a {@link FrameTable} of its frame
 * count, its NVM device config, and, where memory and NVM capacity are small, a page cache that
 * opens, evicts while a file of more pages than frames is written and read back, and closes.
 */
class AcceptedConfigOpensTest {
    /** Values tried for every flag: the bounds of every kind of flag, just inside and outside, and odd spellings. */
    private static final List<String> VALUES = List.of(
        // spellings
        "", " ", "1e3", "0x10", " 5 ", "-0", "+5", "NaN", "Infinity", "1_000", "1,000", "abc", "\u0661", ".5", "5.",
        "-0.0", "0.0", "1.0000000001", "0.9999999999999999999999", "0." + "0".repeat(21) + "1",
        "0." + "0".repeat(400) + "1", "9".repeat(400),
        // integers around the bounds in use
        "-1", "0", "1", "2", "3", "4", "7", "8", "9", "63", "64", "65", "512", "513", "100000", "268435456", "268435457",
        "1073741824", "1073741825", "2147483638", "2147483639", "2147483647", "2147483648",
        // decimals
        "0.01", "0.4999", "0.5", "1.0", "4.0", "4.0000001",
        // sizes
        "511", "1k", "8191", "8k", "16k", "1m", "1048577", "1.5k", "1.3k", "1 GiB", "8KB", "1t", "1tb", "1025g",
        // durations
        "0ns", "1.5ns", "50us", "10s", "10.000000001s", "10000000001", "-1ns",
        // choices and booleans
        "true", "FALSE", "yes", " NVM ", "file", "clock-pro", "Deferred-LRU", "pcm", "none", "write-through", "lru");

    /** Every variation starts here: 8 frames of 8k, and an 8-slot NVM tier without injected latency. */
    private static final Map<String, String> BASE = Map.of(
        "pagecache.memory", "64k", "pagecache.nvm.capacity", "64k", "pagecache.nvm.inject_latency", "false");

    /** A policy is built over a frame table when there are at most this many frames. */
    private static final int MAX_FRAMES_BUILT = 1 << 16;
    /** A cache is opened when it has at most this many frames, of at most this many bytes (and NVM bytes)... */
    private static final int MAX_FRAMES_OPENED = 512;
    private static final long MAX_BYTES_OPENED = 4L << 20;
    /** ... and serves a file when it has at most this many frames. */
    private static final int MAX_FRAMES_USED = 64;

    @TempDir
    Path dir;

    private final List<String> failures = new ArrayList<>();
    private int parsed;
    private int accepted;
    private int built;
    private int opened;
    private int files;

    @Test
    void everyValueOfEveryFlagIsRefusedOrWorksWithEveryPolicy() {
        for (Flag flag : PageCacheFlags.ALL.all()) {
            for (String value : VALUES) {
                for (String policy : policiesFor(flag)) {
                    Map<String, String> flags = new LinkedHashMap<>(BASE);
                    if (!policy.isEmpty()) {
                        flags.put("pagecache.policy", policy);
                    }
                    if (flag.name().startsWith("pagecache.nvm.")) {
                        flags.put("pagecache.swap", "nvm");
                    }
                    flags.put(flag.name(), value);
                    check(flags, opensWith(flag, policy));
                    if (flag.name().startsWith("pagecache.clock.") && (policy.equals("muninn") || policy.equals("global-clock"))) {
                        // The write-aware wrapper models the policy with the clock flags too, those muninn does not read.
                        flags.put("pagecache.swap", "nvm");
                        flags.put("pagecache.nvm.write_aware", "true");
                        check(flags, true);
                    }
                }
            }
        }
        report();
    }

    @Test
    void coldBoundsInEveryCombinationAreRefusedOrWork() {
        List<String> shares = List.of("1", "2", "3", "8", "0.0000001", "0.5", "0.97", "1.0");
        combinations(Map.of(
            "pagecache.policy", List.of("clock-pro", "clock-pro-plus", "muninn"),
            "pagecache.memory", List.of("16k", "24k", "64k"),
            "pagecache.clockpro.cold_min", withUnset(shares),
            "pagecache.clockpro.cold_max", withUnset(shares),
            "pagecache.clockpro.adaptive", List.of("true", "false")),
            flags -> check(flags, flags.get("pagecache.policy").startsWith("clock-pro")));
        report();
    }

    @Test
    void framesInEveryCombinationAreRefusedOrWork() {
        combinations(Map.of(
            "pagecache.policy", PolicyRegistry.NAMES,
            "pagecache.memory", List.of("1", "1k", "3k", "16k", "24k", "1m", "1t"),
            "pagecache.page_size", List.of("512", "1k", "8k", "1m"),
            "pagecache.evictor.keep_free", withUnset(List.of("1", "2", "15", "32")),
            "pagecache.evictor.enabled", List.of("true", "false")), flags -> check(flags, true));
        report();
    }

    @Test
    void usageCountsInEveryCombinationAreRefusedOrWork() {
        List<String> usages = withUnset(List.of("0", "1", "4", "5", "7", "8"));
        combinations(Map.of(
            "pagecache.policy", List.of("muninn", "global-clock", "clock", "bitset-history", "bitset-history-exact"),
            "pagecache.clock.max_usage", withUnset(List.of("1", "4", "7")),
            "pagecache.clock.fault_usage", usages,
            "pagecache.clock.evict_threshold", usages,
            "pagecache.history.boost_usage", usages), flags -> check(flags, false));
        combinations(Map.of(
            "pagecache.policy", List.of("muninn", "global-clock", "bitset-history"),
            "pagecache.swap", List.of("nvm"),
            "pagecache.nvm.write_aware", List.of("true"),
            "pagecache.clock.max_usage", withUnset(List.of("1", "4", "7")),
            "pagecache.clock.fault_usage", withUnset(List.of("0", "4", "7")),
            "pagecache.clock.evict_threshold", withUnset(List.of("0", "4", "7"))), flags -> check(flags, true));
        report();
    }

    @Test
    void historySizesInEveryCombinationAreRefusedOrWork() {
        combinations(Map.of(
            "pagecache.policy", List.of("bitset-history", "bitset-history-exact", "muninn"),
            "pagecache.memory", List.of("16k", "256k", "2m", "1t"),
            "pagecache.history.capacity", withUnset(List.of("1", "8", "9", "128", "129", "1024", "268435456")),
            "pagecache.history.bits", withUnset(List.of("64", "1024", "1073741824"))), flags -> check(flags, true));
        report();
    }

    @Test
    void ghostsInEveryCombinationAreRefusedOrWork() {
        combinations(Map.of(
            "pagecache.policy", List.of("clock-pro", "clock-pro-plus", "muninn"),
            "pagecache.memory", List.of("16k", "256k", "1g", "256g", "1t"),
            "pagecache.page_size", List.of("512", "1k", "8k"),
            "pagecache.clockpro.ghosts", withUnset(List.of("0.5", "1.0", "2.0", "4.0"))), flags -> check(flags, true));
        report();
    }

    @Test
    void nvmSlotsInEveryCombinationAreRefusedOrWork() {
        combinations(Map.of(
            "pagecache.swap", List.of("nvm"),
            "pagecache.memory", List.of("64k"),
            "pagecache.page_size", List.of("512", "8k", "1m"),
            "pagecache.nvm.capacity", List.of("1", "512", "8k", "16k", "1m", "1t"),
            "pagecache.nvm.devices", List.of("1", "2", "16", "2147483647"),
            "pagecache.nvm.remapping", List.of("start-gap", "none"),
            "pagecache.nvm.prefetch", List.of("0", "64"),
            "pagecache.nvm.write_aware", List.of("true", "false")), flags -> check(flags, true));
        report();
    }

    // ---------------------------------------------------------------- issue 11's bugs

    @Test
    void coldBoundsThatContradictEachOtherAreRefusedAtParseNotByThePolicyWhenTheCacheOpens() {
        // Was accepted; PageCache.open then threw a bare IllegalArgumentException from the policy.
        InvalidConfigurationException e = assertThrows(InvalidConfigurationException.class, () -> PageCacheConfig.parse(Map.of(
            "pagecache.policy", "clock-pro", "pagecache.clockpro.cold_min", "0.5", "pagecache.clockpro.cold_max", "0.1")));
        assertTrue(e.getMessage().startsWith("pagecache.clockpro.cold_min=0.5 (32768 frames) must be at most "
            + "pagecache.clockpro.cold_max=0.1 (6554 frames)"), e.getMessage());
    }

    @Test
    void aFractionTooSmallForADoubleIsOneFrameAndTheCacheOpensWithIt() throws IOException {
        // Was a raw IllegalArgumentException out of the parser (the fraction rounded to 0.0).
        String tiny = "0." + "0".repeat(400) + "1";
        for (String[] policyAndFlag : new String[][] {{"clock-pro", "pagecache.clockpro.cold_min"},
            {"clock-pro-plus", "pagecache.clockpro.cold_min"}, {"deferred-lru", "pagecache.deferred_lru.purge_count"},
            {"deferred-lru", "pagecache.deferred_lru.pull_threshold"}}) {
            PageCacheConfig config = PageCacheConfig.parse(Map.of("pagecache.memory", "64k",
                "pagecache.policy", policyAndFlag[0], policyAndFlag[1], tiny));
            assertEquals(1, config.getFrameCount(policyAndFlag[1]));
            try (PageCache cache = PageCache.open(config)) {
                writeAndReadBack(cache, config.frames() * 2);
            }
        }
    }

    @Test
    void anNvmTierOfMoreSlotsThanTheOldIndexLimitIsAcceptedAndConfigured() {
        // The NVM index used to refuse more than 2^29 slots, which these flags allow.
        PageCacheConfig config = PageCacheConfig.parse(Map.of("pagecache.swap", "nvm", "pagecache.page_size", "512",
            "pagecache.memory", "1m", "pagecache.nvm.capacity", Long.toString(((1L << 29) + 1) * 512)));
        assertEquals((1 << 29) + 1, NvmDeviceConfig.from(config).slots());
    }

    // ---------------------------------------------------------------- the check

    /**
     * Parses {@code flags}; a refusal must be an InvalidConfigurationException, and an accepted config
     * must build (and, when {@code open} and small, open and serve a file). Failures are collected.
     */
    private void check(Map<String, String> flags, boolean open) {
        parsed++;
        PageCacheConfig config;
        try {
            config = PageCacheConfig.parse(flags);
        } catch (InvalidConfigurationException refused) {
            if (refused.getMessage().isBlank() || refused.problems().isEmpty()) {
                failures.add(flags + ": refused without a message");
            }
            return;
        } catch (RuntimeException | Error e) {
            failures.add(flags + ": parse threw " + trace(e));
            return;
        }
        accepted++;
        try {
            use(config, open);
        } catch (Exception | Error e) {
            failures.add(flags + ": accepted, but " + trace(e));
        }
    }

    private void use(PageCacheConfig config, boolean open) throws IOException {
        NvmDeviceConfig nvm = NvmDeviceConfig.from(config);
        assertEquals(config.getSize("pagecache.nvm.capacity") / config.pageSize(), nvm.slots());
        if (config.frames() > MAX_FRAMES_BUILT) {
            return;
        }
        try (FrameTable frames = new FrameTable(config.frames())) {
            EvictionPolicy policy = PolicyRegistry.create(config.policy(), frames, config);
            policy.checkInvariants();
            built++;
        }
        long nvmBytes = "nvm".equals(config.swap()) ? config.getSize("pagecache.nvm.capacity") : 0;
        if (!open || config.frames() > MAX_FRAMES_OPENED || config.memoryBytes() > MAX_BYTES_OPENED || nvmBytes > MAX_BYTES_OPENED) {
            return;
        }
        opened++;
        inFreshThread(() -> {
            try (PageCache cache = PageCache.open(config)) {
                if (config.frames() <= MAX_FRAMES_USED) {
                    writeAndReadBack(cache, config.frames() + 3);
                }
            }
        });
    }

    private interface Use {
        void run() throws Exception;
    }

    /**
     * Runs {@code use} in a thread of its own, which ends with it: a thread keeps what a closed cache
     * left in its thread-locals (the cursor pool of each file it used), and this test opens thousands.
     */
    private static void inFreshThread(Use use) {
        Throwable[] failure = new Throwable[1];
        Thread thread = new Thread(() -> {
            try {
                use.run();
            } catch (Throwable e) {
                failure[0] = e;
            }
        }, "accepted-config");
        thread.setDaemon(true); // one stuck in the cache must not keep the test JVM alive
        thread.start();
        try {
            Waits.join(thread, "a use of an accepted configuration"); // stuck in the cache: fail, not hang
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
        if (failure[0] instanceof RuntimeException e) {
            throw e;
        }
        if (failure[0] instanceof Error e) {
            throw e;
        }
        if (failure[0] != null) {
            throw new AssertionError(failure[0]);
        }
    }

    /** Writes {@code pages} pages (more than the frames, so that pages are evicted), then reads each back. */
    private void writeAndReadBack(PageCache cache, int pages) throws IOException {
        Path path = dir.resolve("accepted-" + files++ + ".db");
        try (PagedFile file = cache.map(path, cache.pageSize())) {
            try (PageCursor cursor = file.io(0, PagedFile.PF_SHARED_WRITE_LOCK)) {
                for (int page = 0; page < pages; page++) {
                    assertTrue(cursor.next(page));
                    cursor.putInt(0, page * 31 + 7);
                }
            }
            try (PageCursor cursor = file.io(0, PagedFile.PF_SHARED_READ_LOCK)) {
                for (int page = 0; page < pages; page++) {
                    assertTrue(cursor.next(page));
                    int value;
                    do {
                        value = cursor.getInt(0);
                    } while (cursor.shouldRetry());
                    assertEquals(page * 31 + 7, value, "page " + page);
                }
            }
        }
        Files.delete(path);
    }

    private void report() {
        assertTrue(accepted > 0 && built > 0, "the values must include configs that are accepted and built");
        assertEquals(List.of(), failures.subList(0, Math.min(20, failures.size())),
            failures.size() + " of " + parsed + " configs failed (" + accepted + " accepted, " + built + " built, "
                + opened + " opened)");
        assertFalse(parsed == accepted, "the values must include configs that are refused");
    }

    // ---------------------------------------------------------------- which variations

    /**
     * The policies a flag's values are tried with: every policy for the flags that change the frame
     * count or the evictor, and for the policy flags; the default policy ("") for the rest.
     */
    private static List<String> policiesFor(Flag flag) {
        String name = flag.name();
        if (name.equals("pagecache.policy") || name.startsWith("pagecache.nvm.") || name.equals("pagecache.swap")
            || OperationsFlags.ALL.contains(flag)) {
            // The operations' flags (IO, flush limit, name, JMX, warm-up) reach no policy: each policy opened a cache
            // with each of their values, 1,500 caches that differed from the default policy's in the policy alone.
            return List.of("");
        }
        return PolicyRegistry.NAMES;
    }

    /**
     * A cache opens for the flags that change the frames or the evictor, and for the policy flags of the policy at hand:
     * those its registry entry lists (best-of reads its experts'). A policy that does not read the flag makes the cache
     * it makes without it, which the frame flags open for every policy: the s3fifo, tinylfu and bestof flags, missing
     * from a list of prefixes here, opened a cache with each of the 13 policies for each of their values (2,500 caches),
     * where 1 to 3 policies read them.
     */
    private static boolean opensWith(Flag flag, String policy) {
        if (PolicyRegistry.flags().byName(flag.name()).isEmpty()) {
            return true;
        }
        return PolicyRegistry.entry(policy).orElseThrow().flags().stream()
            .anyMatch(read -> read.flag().name().equals(flag.name()));
    }

    private static List<String> withUnset(List<String> values) {
        List<String> all = new ArrayList<>(values);
        all.add(null);
        return all;
    }

    /** Calls {@code check} with every combination of one value per flag; a null value leaves the flag unset. */
    private static void combinations(Map<String, List<String>> axes, Consumer<Map<String, String>> check) {
        List<String> names = new ArrayList<>(axes.keySet());
        combine(names, 0, axes, new LinkedHashMap<>(), check);
    }

    private static void combine(List<String> names, int index, Map<String, List<String>> axes, Map<String, String> chosen,
                                Consumer<Map<String, String>> check) {
        if (index == names.size()) {
            Map<String, String> flags = new LinkedHashMap<>(BASE);
            chosen.forEach((name, value) -> {
                if (value != null) {
                    flags.put(name, value);
                }
            });
            check.accept(flags);
            return;
        }
        String name = names.get(index);
        for (String value : axes.get(name)) {
            chosen.put(name, value);
            combine(names, index + 1, axes, chosen, check);
        }
        chosen.remove(name);
    }

    private static String trace(Throwable e) {
        StringWriter out = new StringWriter();
        e.printStackTrace(new PrintWriter(out));
        String[] lines = out.toString().split("\n");
        return String.join("\n", List.of(lines).subList(0, Math.min(6, lines.length)));
    }
}
