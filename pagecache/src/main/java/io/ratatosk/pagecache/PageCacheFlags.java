package io.ratatosk.pagecache;

import io.ratatosk.core.config.Flag;
import io.ratatosk.core.config.FlagCatalog;
import io.ratatosk.core.config.FlagRule;
import io.ratatosk.pagecache.tier.SwapTierProvider;
import io.ratatosk.policies.PolicyRegistry;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.ServiceLoader;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Every startup flag of the page cache: its own (memory, page size, policy, evictor, swap tier), the
 * policies' (from {@link PolicyRegistry}) and those of every swap tier on the class path (from each
 * {@link SwapTierProvider}), in the order {@code docs/configuration.md} lists them. Regenerate that
 * table with {@code java -cp ... io.ratatosk.pagecache.PageCacheFlags} (a test fails until the doc matches).
 */
public final class PageCacheFlags {
    private static final long MIB = 1L << 20;
    private static final long TIB = 1L << 40;

    /** The {@code pagecache.swap} value that puts no tier between frames and files. */
    public static final String FILE_SWAP = "file";

    /** The swap tiers on the class path, by {@code pagecache.swap} name, in the order their flags are listed. */
    public static final List<SwapTierProvider> TIERS = ServiceLoader.load(SwapTierProvider.class,
            PageCacheFlags.class.getClassLoader()).stream().map(ServiceLoader.Provider::get)
            .sorted(Comparator.comparing(SwapTierProvider::name)).toList();

    public static final Flag MEMORY = Flag.size("pagecache.memory", "512m", 1, TIB,
            "Memory for page frames; the frame count is memory / page_size, rounded down.")
            .accepting("a size in [2 pages of pagecache.page_size, 1t]");

    public static final Flag PAGE_SIZE = Flag.powerOfTwoSize("pagecache.page_size", "8k", 512, MIB,
            "Size of a page, and of the frame that holds it.");

    public static final Flag POLICY = Flag.choice("pagecache.policy", PolicyRegistry.DEFAULT_POLICY, PolicyRegistry.NAMES,
            "Eviction policy.");

    public static final Flag EVICTOR_ENABLED = Flag.bool("pagecache.evictor.enabled", "true",
            "Run the background evictor, which keeps free frames ready; when off, faulting threads evict for themselves.");

    public static final Flag EVICTOR_KEEP_FREE = Flag.integer("pagecache.evictor.keep_free", null, 1, Integer.MAX_VALUE,
            "Free frames the background evictor keeps ready: it refills the pool to this many when it runs (every 10 ms, and at once when a fault finds fewer than half of them free).")
            .accepting("an integer >= 1, less than the frame count")
            .derivedDefault("5% of frames, at least 30 and at most 100000; frames / 2 below 60 frames");

    public static final Flag SWAP = swapFlag();

    public static final Flag HUGE_PAGES = Flag.choice("pagecache.huge_pages", "auto", List.of("auto", "off"),
            "Transparent huge pages for the page memory: auto asks Linux for them with madvise on JDK 22+ when the JVM grants native access (--enable-native-access=ALL-UNNAMED), and keeps the ordinary allocation otherwise; stats().hugePages() says which.");

    /** Every flag: the page cache's, the policies', the tiers'. */
    public static final FlagCatalog ALL = new FlagCatalog(List.of(MEMORY, PAGE_SIZE, POLICY), PolicyRegistry.flags().all(),
            List.of(EVICTOR_ENABLED, EVICTOR_KEEP_FREE, SWAP, HUGE_PAGES), OperationsFlags.ALL, tierFlags());

    /** The rules across flags of the policies and the tiers. */
    public static final List<FlagRule> RULES = rules();

    private PageCacheFlags() {
    }

    private static Flag swapFlag() {
        Flag swap = Flag.choice("pagecache.swap", FILE_SWAP,
                Stream.concat(Stream.of(FILE_SWAP), TIERS.stream().map(SwapTierProvider::name)).toList(),
                "Where evicted pages go: " + Stream.concat(Stream.of("file writes them back to their files"),
                        TIERS.stream().map(tier -> tier.name() + " " + tier.description())).collect(Collectors.joining(", ")) + ".");
        // Without a tier on the class path, say where the one a user most likely meant comes from.
        return TIERS.isEmpty() ? swap.accepting("one of file (nvm comes with io.ratatosk:storage-nvm on the class path)") : swap;
    }

    private static List<Flag> tierFlags() {
        List<Flag> flags = new ArrayList<>();
        TIERS.forEach(tier -> flags.addAll(tier.flags()));
        return flags;
    }

    private static List<FlagRule> rules() {
        List<FlagRule> rules = new ArrayList<>(PolicyRegistry.RULES);
        TIERS.forEach(tier -> rules.addAll(tier.rules()));
        return List.copyOf(rules);
    }

    /** The tier {@code pagecache.swap=name} selects. */
    static SwapTierProvider tier(String name) {
        return TIERS.stream().filter(tier -> tier.name().equals(name)).findFirst().orElseThrow(
                () -> new IllegalArgumentException("pagecache.swap=" + name + ": no such tier on the class path"));
    }

    /** Prints the flag table, to paste into {@code docs/configuration.md}. */
    public static void main(String[] args) {
        System.out.print(ALL.markdownTable());
    }
}
