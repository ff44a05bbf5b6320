package io.ratatosk.nvm;

import io.ratatosk.core.FrameTable;
import io.ratatosk.core.config.Flag;
import io.ratatosk.core.config.FlagProblem;
import io.ratatosk.core.config.FlagRule;
import io.ratatosk.core.config.RuleContext;
import java.util.List;

/** The NVM tier's flags ({@code pagecache.swap=nvm}; docs/nvm.md) and their rule. */
public final class NvmFlags {
    private static final long TIB = 1L << 40;
    private static final long SECOND_NANOS = 1_000_000_000L;

    /** The longest modeled latency of one page operation, {@code read_latency} and {@code write_latency}: 10s. */
    public static final long MAX_LATENCY_NANOS = 10 * SECOND_NANOS;

    /** The most pages the NVM tier may hold: slot indexes are ints, and start-gap needs one spare slot in its arrays. */
    public static final int MAX_SLOTS = FrameTable.MAX_FRAMES - 1;

    /** The NVM device profiles ({@link NvmProfile} has one constant for each). */
    public static final List<String> PROFILES = List.of("nvme", "nvme-fast", "pcm", "dram");

    /** The NVM tier's write policies ({@link WritePolicy}). */
    public static final List<String> WRITE_POLICIES = List.of("write-back", "write-through");

    /** The NVM slot remappings ({@link Remapping}). */
    public static final List<String> REMAPPINGS = List.of("start-gap", "none");

    public static final Flag PROFILE = Flag.choice("pagecache.nvm.profile", "nvme", PROFILES,
            "Figures of the emulated NVM device: nvme 50us and nvme-fast 10us per page operation, pcm and dram per 64-byte line (Fedorov 2016, table 2.2).");

    public static final Flag CAPACITY = Flag.size("pagecache.nvm.capacity", "256m", 1, TIB,
            "Size of the NVM tier; it holds capacity / page_size pages, one per slot.")
            .accepting("a size in [1 page of pagecache.page_size, 1t]");

    public static final Flag DEVICES = Flag.integer("pagecache.nvm.devices", "1", 1, Integer.MAX_VALUE,
            "Independent NVM devices, each with its own request queue; slots are spread over them round robin.")
            .accepting("an integer >= 1, at most the NVM slots (capacity / page_size)");

    public static final Flag READ_LATENCY = Flag.duration("pagecache.nvm.read_latency", null, 0, MAX_LATENCY_NANOS,
            "Modeled latency of one page read from NVM; unset, the profile's figure applies (nvme 50us, nvme-fast 10us, pcm and dram per 64-byte line).")
            .derivedDefault("from pagecache.nvm.profile");

    public static final Flag WRITE_LATENCY = Flag.duration("pagecache.nvm.write_latency", null, 0, MAX_LATENCY_NANOS,
            "Modeled latency of one page write to NVM; unset, the profile's figure applies (nvme 50us, nvme-fast 10us, pcm and dram per 64-byte line).")
            .derivedDefault("from pagecache.nvm.profile");

    public static final Flag ENDURANCE = Flag.integer("pagecache.nvm.endurance", "100000", 1, Integer.MAX_VALUE,
            "Writes an NVM slot endures before it wears out (flash: 100000); used to project the device's lifetime.");

    public static final Flag WRITE_POLICY = Flag.choice("pagecache.nvm.write_policy", "write-back", WRITE_POLICIES,
            "When a dirty page evicted into NVM reaches its file: write-back when it leaves NVM or is flushed, write-through at once.");

    public static final Flag WRITE_AWARE = Flag.bool("pagecache.nvm.write_aware", "false",
            "Write-aware eviction (ARI): low-usage clean frames go before dirty ones, adapted by sampling so misses stay within 1/16 of the plain policy.");

    public static final Flag PREFETCH = Flag.integer("pagecache.nvm.prefetch", "0", 0, 64,
            "Prefetch depth after a swap-in from NVM; 0 turns prefetching off.");

    public static final Flag INJECT_LATENCY = Flag.bool("pagecache.nvm.inject_latency", "true",
            "Wait out the modeled NVM latency on every operation (spinning or parking); when false it is only counted.");

    public static final Flag REMAPPING = Flag.choice("pagecache.nvm.remapping", "start-gap", REMAPPINGS,
            "Wear levelling of NVM slots: start-gap rotates logical over physical slots, none maps them one to one.");

    /** Every flag, in the order the docs list them. */
    public static final List<Flag> ALL = List.of(PROFILE, CAPACITY, DEVICES, READ_LATENCY, WRITE_LATENCY, ENDURANCE,
            WRITE_POLICY, WRITE_AWARE, PREFETCH, INJECT_LATENCY, REMAPPING);

    /** The tier holds 1 to {@link #MAX_SLOTS} pages, and has no more devices than slots. */
    public static final List<FlagRule> RULES = List.of(NvmFlags::slots);

    private NvmFlags() {
    }

    private static void slots(RuleContext context, List<FlagProblem> problems) {
        if (!context.usable(CAPACITY) || context.pageSize() <= 0) {
            return;
        }
        Object given = context.values().given(CAPACITY);
        long capacity = given != null ? (Long) given : (Long) CAPACITY.parsedDefault();
        long pageSize = context.pageSize();
        long slots = capacity / pageSize;
        String holds = context.named(CAPACITY) + " holds " + pages(slots) + " of pagecache.page_size=" + pageSize;
        if (slots < 1) {
            problems.add(new FlagProblem(CAPACITY.name(), context.values().text(CAPACITY), holds + "; at least 1 is needed"));
            return;
        }
        if (slots > MAX_SLOTS) {
            problems.add(new FlagProblem(CAPACITY.name(), context.values().text(CAPACITY),
                    holds + "; at most " + MAX_SLOTS + " are supported"));
            return;
        }
        Object devices = context.values().given(DEVICES);
        if (devices != null && (Integer) devices > slots) {
            problems.add(new FlagProblem(DEVICES.name(), context.values().text(DEVICES),
                    context.named(DEVICES) + ": must be at most the NVM slots, " + slots + " (" + context.named(CAPACITY)
                            + " / pagecache.page_size=" + pageSize + ")"));
        }
    }

    private static String pages(long count) {
        return count + (count == 1 ? " page" : " pages");
    }
}
