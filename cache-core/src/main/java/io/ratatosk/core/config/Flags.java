package io.ratatosk.core.config;

import io.ratatosk.core.FrameDescriptor;
import io.ratatosk.pagecache.PageCacheConfig;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Every startup flag of the page cache, in the order the documentation lists them.
 *
 * <p>Adding a flag is one line here: a constant built with a {@link Flag} factory and wrapped in
 * {@link #define}, which registers it in {@link #ALL}. Parsing, error messages, suggestions for
 * misspelt names and the table in {@code docs/configuration.md} then pick it up; regenerate that
 * table with {@code java -cp cache-core/target/classes io.ratatosk.core.config.Flags} (a test
 * fails until the doc matches). A rule that involves several flags goes in {@code PageCacheConfig}.
 *
 * <pre>
 * public static final Flag CLOCKPRO_GHOSTS = define(Flag.decimal("pagecache.clockpro.ghosts", "2.0", 0.5, 4,
 *         "Ghost entries kept, as a multiple of the frame count."));
 * </pre>
 *
 * <p>A flag whose default the reading policy chooses takes {@code null} as its default plus
 * {@link Flag#derivedDefault} to document it; the policy reads it with
 * {@code getInt(name, itsDefault)}. A new policy or swap name goes into {@link #POLICIES} or
 * {@link #SWAPS}, the one list its choice flag, its error message and the doc all use.
 */
public final class Flags {
    private static final String PREFIX = "pagecache.";
    private static final List<Flag> REGISTRY = new ArrayList<>();

    /** Every flag, in definition order. Unmodifiable. */
    public static final List<Flag> ALL = Collections.unmodifiableList(REGISTRY);

    /** The names {@code pagecache.policy} accepts: one eviction policy class each. */
    public static final List<String> POLICIES = List.of("muninn", "global-clock", "clock", "random",
            "clock-pro", "clock-pro-plus", "bitset-history", "bitset-history-exact", "deferred-lru");

    /** The names {@code pagecache.swap} accepts. */
    public static final List<String> SWAPS = List.of("file", "nvm");

    /** The NVM device profiles ({@code io.ratatosk.nvm.NvmProfile} has one constant for each). */
    public static final List<String> NVM_PROFILES = List.of("nvme", "nvme-fast", "pcm", "dram");

    /** The NVM tier's write policies ({@code io.ratatosk.nvm.WritePolicy}). */
    public static final List<String> NVM_WRITE_POLICIES = List.of("write-back", "write-through");

    /** The NVM slot remappings ({@code io.ratatosk.nvm.Remapping}). */
    public static final List<String> NVM_REMAPPINGS = List.of("start-gap", "none");

    private static final long KIB = 1L << 10;
    private static final long MIB = 1L << 20;
    private static final long TIB = 1L << 40;
    private static final long SECOND_NANOS = 1_000_000_000L;

    // ---------------------------------------------------------------- core

    public static final Flag MEMORY = define(Flag.size("pagecache.memory", "512m", 1, TIB,
            "Memory for page frames; the frame count is memory / page_size, rounded down.")
            .accepting("a size in [2 pages of pagecache.page_size, 1t]"));

    public static final Flag PAGE_SIZE = define(Flag.powerOfTwoSize("pagecache.page_size", "8k", 512, MIB,
            "Size of a page, and of the frame that holds it."));

    public static final Flag POLICY = define(Flag.choice("pagecache.policy", "muninn", POLICIES,
            "Eviction policy."));

    // ---------------------------------------------------------------- clock family (muninn, global-clock, clock, bitset-history)

    public static final Flag CLOCK_MAX_USAGE = define(Flag.integer("pagecache.clock.max_usage", null, 1, FrameDescriptor.MAX_USAGE,
            "Highest usage count a hit raises a page to.")
            .derivedDefault("4 for muninn, 7 for global-clock and bitset-history"));

    public static final Flag CLOCK_FAULT_USAGE = define(Flag.integer("pagecache.clock.fault_usage", "1", 0, FrameDescriptor.MAX_USAGE,
            "Usage count a page starts with after a fault.")
            .accepting("an integer in [0, pagecache.clock.max_usage]"));

    public static final Flag CLOCK_EVICT_THRESHOLD = define(Flag.integer("pagecache.clock.evict_threshold", "1", 0, FrameDescriptor.MAX_USAGE,
            "A sweep may evict a page whose usage count, before the sweep decrements it, is at most this.")
            .accepting("an integer in [0, pagecache.clock.max_usage]"));

    // ---------------------------------------------------------------- clock-pro, clock-pro-plus

    public static final Flag CLOCKPRO_ADAPTIVE = define(Flag.bool("pagecache.clockpro.adaptive", "true",
            "Let the cold target follow the workload (each policy by its own rule); false keeps it at pagecache.clockpro.cold_min."));

    public static final Flag CLOCKPRO_COLD_MIN = define(Flag.frameShare("pagecache.clockpro.cold_min", null,
            "Lowest cold target (resident cold pages), the fixed cold target when not adaptive, and what a filling cache leaves cold.")
            .derivedDefault("1% of frames, at least 2"));

    public static final Flag CLOCKPRO_COLD_MAX = define(Flag.frameShare("pagecache.clockpro.cold_max", null,
            "Highest cold target; a value above the frame count less pagecache.clockpro.cold_min is capped there.")
            .accepting("a fraction of the frames in (0, 1] like 0.1, or a frame count >= 1; at least pagecache.clockpro.cold_min")
            .derivedDefault("99% of frames for clock-pro, 50% for clock-pro-plus"));

    public static final Flag CLOCKPRO_GHOSTS = define(Flag.decimal("pagecache.clockpro.ghosts", null, 0.5, 4,
            "Ghost entries (pages evicted in their test period) kept, as a multiple of the frame count.")
            .accepting("a number in [0.5, 4.0]; ghosts x frames at most " + PolicySizes.MAX_GHOSTS
                    + ", and frames + ghosts x frames below " + PageCacheConfig.MAX_FRAMES)
            .derivedDefault("2.0 for clock-pro, 1.0 for clock-pro-plus"));

    // ---------------------------------------------------------------- bitset-history, bitset-history-exact (also read the clock flags)

    public static final Flag HISTORY_BITS = define(Flag.powerOfTwoInteger("pagecache.history.bits", null, 64, PolicySizes.MAX_HISTORY_BITS,
            "Bits in bitset-history's bitset of recently evicted pages; more bits, fewer collisions.")
            .accepting("a power of two in [64, " + PolicySizes.MAX_HISTORY_BITS + "], at most "
                    + PolicySizes.MAX_HISTORY_BITS_PER_FRAME + " x the frame count rounded up to a power of two")
            .derivedDefault("8 x frames rounded up to a power of two, at most 2^30"));

    public static final Flag HISTORY_CAPACITY = define(Flag.integer("pagecache.history.capacity", null, 1, PolicySizes.MAX_HISTORY_CAPACITY,
            "Evicted pages the history remembers; housekeeping forgets the oldest beyond this.")
            .accepting("an integer in [1, " + PolicySizes.MAX_HISTORY_CAPACITY + "], at most "
                    + PolicySizes.HISTORY_CAPACITY_PER_FRAME + " x the frame count")
            .derivedDefault("the frame count, at most " + PolicySizes.MAX_HISTORY_CAPACITY));

    public static final Flag HISTORY_BOOST_USAGE = define(Flag.integer("pagecache.history.boost_usage", null, 0, FrameDescriptor.MAX_USAGE,
            "Usage count a page starts with when its fault finds it in the history.")
            .accepting("an integer in [0, pagecache.clock.max_usage]")
            .derivedDefault("7, or pagecache.clock.max_usage when that is lower"));

    // ---------------------------------------------------------------- deferred-lru

    public static final Flag DEFERRED_LRU_PULL_THRESHOLD = define(Flag.frameShare("pagecache.deferred_lru.pull_threshold", "0.9",
            "Frames hit since the last pull that make the next hit move them all to the head of the LRU list."));

    public static final Flag DEFERRED_LRU_PURGE_COUNT = define(Flag.frameShare("pagecache.deferred_lru.purge_count", "0.01",
            "Eviction candidates one walk from the LRU tail collects."));

    // ---------------------------------------------------------------- background evictor

    public static final Flag EVICTOR_ENABLED = define(Flag.bool("pagecache.evictor.enabled", "true",
            "Run the background evictor, which keeps free frames ready; when off, faulting threads evict for themselves."));

    public static final Flag EVICTOR_KEEP_FREE = define(Flag.integer("pagecache.evictor.keep_free", null, 1, Integer.MAX_VALUE,
            "Free frames the background evictor keeps ready: it refills the pool to this many when it runs (every 10 ms, and at once when a fault finds fewer than half of them free).")
            .accepting("an integer >= 1, less than the frame count")
            .derivedDefault("5% of frames, at least 30 and at most 100000; frames / 2 below 60 frames"));

    // ---------------------------------------------------------------- swap tier

    public static final Flag SWAP = define(Flag.choice("pagecache.swap", "file", SWAPS,
            "Where evicted pages go: file writes them back to their files, nvm puts the emulated NVM tier in between."));

    // ---------------------------------------------------------------- NVM tier (pagecache.swap=nvm; docs/nvm.md)

    public static final Flag NVM_PROFILE = define(Flag.choice("pagecache.nvm.profile", "nvme", NVM_PROFILES,
            "Figures of the emulated NVM device: nvme 50us and nvme-fast 10us per page operation, pcm and dram per 64-byte line (Fedorov 2016, table 2.2)."));

    public static final Flag NVM_CAPACITY = define(Flag.size("pagecache.nvm.capacity", "256m", 1, TIB,
            "Size of the NVM tier; it holds capacity / page_size pages, one per slot.")
            .accepting("a size in [1 page of pagecache.page_size, 1t]"));

    public static final Flag NVM_DEVICES = define(Flag.integer("pagecache.nvm.devices", "1", 1, Integer.MAX_VALUE,
            "Independent NVM devices, each with its own request queue; slots are spread over them round robin.")
            .accepting("an integer >= 1, at most the NVM slots (capacity / page_size)"));

    public static final Flag NVM_READ_LATENCY = define(Flag.duration("pagecache.nvm.read_latency", null, 0, 10 * SECOND_NANOS,
            "Modeled latency of one page read from NVM; unset, the profile's figure applies (nvme 50us, nvme-fast 10us, pcm and dram per 64-byte line).")
            .derivedDefault("from pagecache.nvm.profile"));

    public static final Flag NVM_WRITE_LATENCY = define(Flag.duration("pagecache.nvm.write_latency", null, 0, 10 * SECOND_NANOS,
            "Modeled latency of one page write to NVM; unset, the profile's figure applies (nvme 50us, nvme-fast 10us, pcm and dram per 64-byte line).")
            .derivedDefault("from pagecache.nvm.profile"));

    public static final Flag NVM_ENDURANCE = define(Flag.integer("pagecache.nvm.endurance", "100000", 1, Integer.MAX_VALUE,
            "Writes an NVM slot endures before it wears out (flash: 100000); used to project the device's lifetime."));

    public static final Flag NVM_WRITE_POLICY = define(Flag.choice("pagecache.nvm.write_policy", "write-back", NVM_WRITE_POLICIES,
            "When a dirty page evicted into NVM reaches its file: write-back when it leaves NVM or is flushed, write-through at once."));

    public static final Flag NVM_WRITE_AWARE = define(Flag.bool("pagecache.nvm.write_aware", "false",
            "Write-aware eviction (ARI): low-usage clean frames go before dirty ones, adapted by sampling so misses stay within 1/16 of the plain policy."));

    public static final Flag NVM_PREFETCH = define(Flag.integer("pagecache.nvm.prefetch", "0", 0, 64,
            "Prefetch depth after a swap-in from NVM; 0 turns prefetching off."));

    public static final Flag NVM_INJECT_LATENCY = define(Flag.bool("pagecache.nvm.inject_latency", "true",
            "Wait out the modeled NVM latency on every operation (spinning or parking); when false it is only counted."));

    public static final Flag NVM_REMAPPING = define(Flag.choice("pagecache.nvm.remapping", "start-gap", NVM_REMAPPINGS,
            "Wear levelling of NVM slots: start-gap rotates logical over physical slots, none maps them one to one."));

    private Flags() {
    }

    /** Registers {@code flag} in {@link #ALL}; every constant above goes through here. */
    private static Flag define(Flag flag) {
        for (Flag existing : REGISTRY) {
            if (existing.name().equals(flag.name())) {
                throw new IllegalStateException("flag defined twice: " + flag.name());
            }
        }
        REGISTRY.add(flag);
        return flag;
    }

    /** The flag called exactly {@code name}, if any. */
    public static Optional<Flag> byName(String name) {
        for (Flag flag : ALL) {
            if (flag.name().equals(name)) {
                return Optional.of(flag);
            }
        }
        return Optional.empty();
    }

    /**
     * The flag whose name is closest to {@code misspelt}, if one is close enough to suggest.
     * Compares case-insensitively by edit distance, over the whole name and over its last dotted
     * segment ({@code pagecache.keep_free} finds {@code pagecache.evictor.keep_free}). When the
     * misspelt name starts with {@code pagecache.}, the whole-name comparison leaves that shared
     * prefix out, so that it does not make every short name look close to every other. A distance
     * counts as close when it is at most a third of the length of what it is compared with; among
     * close flags, the smallest distance relative to that length wins.
     */
    public static Optional<Flag> closest(String misspelt) {
        String given = misspelt.toLowerCase(Locale.ROOT).strip();
        boolean prefixed = given.startsWith(PREFIX);
        String givenName = prefixed ? given.substring(PREFIX.length()) : given;
        String givenSegment = given.substring(given.lastIndexOf('.') + 1);
        Flag best = null;
        double bestScore = Double.MAX_VALUE;
        for (Flag flag : ALL) {
            String name = prefixed ? flag.name().substring(PREFIX.length()) : flag.name();
            double score = Math.min(closeness(givenName, name), closeness(givenSegment, flag.shortName()));
            if (score < bestScore) {
                best = flag;
                bestScore = score;
            }
        }
        return Optional.ofNullable(best);
    }

    /** Edit distance relative to the length of {@code target}, or MAX_VALUE when it is more than a third of it. */
    private static double closeness(String given, String target) {
        if (given.isEmpty()) {
            return Double.MAX_VALUE;
        }
        int distance = editDistance(given, target);
        return distance <= Math.max(1, target.length() / 3) ? (double) distance / target.length() : Double.MAX_VALUE;
    }

    /** Levenshtein distance: insertions, deletions and substitutions, each costing one. */
    static int editDistance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitute = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitute, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }

    /**
     * The flag table of {@code docs/configuration.md}: one row per flag with its name, default,
     * accepted values and description. The doc must contain this text verbatim.
     */
    public static String markdownTable() {
        StringBuilder table = new StringBuilder();
        table.append("| Flag | Default | Accepted values | Description |\n");
        table.append("|------|---------|-----------------|-------------|\n");
        for (Flag flag : ALL) {
            String defaultCell = flag.hasFixedDefault() ? "`" + flag.defaultValue() + "`" : flag.defaultText();
            table.append("| `").append(flag.name()).append("` | ")
                    .append(cell(defaultCell)).append(" | ")
                    .append(cell(flag.accepted())).append(" | ")
                    .append(cell(flag.description())).append(" |\n");
        }
        return table.toString();
    }

    private static String cell(String text) {
        return text.replace("|", "\\|");
    }

    /** Prints {@link #markdownTable()}, to paste into {@code docs/configuration.md}. */
    public static void main(String[] args) {
        System.out.print(markdownTable());
    }
}
