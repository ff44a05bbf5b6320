package io.ratatosk.pagecache;

import io.ratatosk.core.PageSwapperFactory;
import io.ratatosk.core.config.Flag;
import io.ratatosk.pagecache.tier.SwapTier;
import io.ratatosk.pagecache.tier.SwapTierProvider;
import java.util.List;

/**
 * Swap tier providers that break every rule of {@link SwapTierProvider}, for {@link TierProviderLoadingTest}, which
 * lists them in a {@code META-INF/services} file of a class loader of its own: never on this module's class path.
 */
public final class BrokenTierProviders {
    private BrokenTierProviders() {
    }

    /** What the broken ones change. */
    public abstract static class Base implements SwapTierProvider {
        @Override
        public String name() {
            return getClass().getSimpleName().toLowerCase(java.util.Locale.ROOT);
        }

        @Override
        public String description() {
            return "a test tier";
        }

        @Override
        public List<Flag> flags() {
            return List.of();
        }

        @Override
        public SwapTier open(PageCacheConfig config, PageSwapperFactory files) {
            throw new UnsupportedOperationException("a test tier opens nothing");
        }
    }

    /** The one that works: {@code pagecache.swap=good} with a flag of its own. */
    public static final class Good extends Base {
        @Override
        public String name() {
            return "good";
        }

        @Override
        public List<Flag> flags() {
            return List.of(Flag.bool("pagecache.good.enabled", "true", "A flag of the good tier."));
        }
    }

    public static final class ThrowingConstructor extends Base {
        public ThrowingConstructor() {
            throw new IllegalStateException("injected: the provider's constructor failed");
        }
    }

    /** A constructor failing with an exception that cannot be put into words: its getMessage, and so toString, throw. */
    public static final class UnprintableFailure extends Base {
        public UnprintableFailure() {
            throw new Unprintable();
        }
    }

    /** A name() that throws an exception that cannot be put into words. */
    public static final class UnprintableName extends Base {
        @Override
        public String name() {
            throw new Unprintable();
        }
    }

    static final class Unprintable extends RuntimeException {
        @Override
        public String getMessage() {
            throw new IllegalStateException("injected: this exception's message cannot be made");
        }
    }

    public static final class UpperCaseName extends Base {
        @Override
        public String name() {
            return "Upper";
        }
    }

    public static final class FileName extends Base {
        @Override
        public String name() {
            return "file";
        }
    }

    public static final class NullName extends Base {
        @Override
        public String name() {
            return null;
        }
    }

    public static final class ThrowingName extends Base {
        @Override
        public String name() {
            throw new IllegalStateException("injected: name() failed");
        }
    }

    public static final class NullDescription extends Base {
        @Override
        public String description() {
            return null;
        }
    }

    public static final class ThrowingFlags extends Base {
        @Override
        public List<Flag> flags() {
            throw new IllegalStateException("injected: flags() failed");
        }
    }

    public static final class ClashingFlag extends Base {
        @Override
        public List<Flag> flags() {
            return List.of(Flag.size("pagecache.memory", "1m", 1, 1L << 40, "A tier's flag with a core flag's name."));
        }
    }

    public static final class TwiceTheSameFlag extends Base {
        @Override
        public List<Flag> flags() {
            return List.of(Flag.bool("pagecache.twice.on", "true", "One."), Flag.bool("pagecache.twice.on", "false", "Two."));
        }
    }

    public static final class GoodsFlag extends Base {
        @Override
        public List<Flag> flags() {
            return List.of(Flag.bool("pagecache.good.enabled", "false", "The good tier's flag name, again."));
        }
    }

    /** Named like {@link Good}, listed after it. */
    public static final class DuplicateName extends Base {
        @Override
        public String name() {
            return "good";
        }
    }

    public static final class NullRules extends Base {
        @Override
        public List<io.ratatosk.core.config.FlagRule> rules() {
            return null;
        }
    }

    /** Loads fine; its open returns null. */
    public static final class NullOpen extends Base {
        @Override
        public SwapTier open(PageCacheConfig config, PageSwapperFactory files) {
            return null;
        }
    }

    /** Loads fine; its open fails with a bug of its own. */
    public static final class BuggyOpen extends Base {
        @Override
        public SwapTier open(PageCacheConfig config, PageSwapperFactory files) {
            throw new NullPointerException("injected: a field the provider forgot to set");
        }
    }

    /** Loads fine; its one rule throws on every check. */
    public static final class ThrowingRule extends Base {
        @Override
        public List<io.ratatosk.core.config.FlagRule> rules() {
            return List.of((context, problems) -> {
                throw new IllegalStateException("injected: the rule failed");
            });
        }
    }

    /** Loads fine; its one rule throws a checked exception it does not declare (a sneaky throw, as Lombok's). */
    public static final class SneakyRule extends Base {
        @Override
        public List<io.ratatosk.core.config.FlagRule> rules() {
            return List.of((context, problems) -> BrokenTierProviders.<RuntimeException>sneakyThrow(
                new java.io.IOException("injected: the rule's undeclared IOException")));
        }
    }

    /** Loads fine; its one rule throws an exception whose message cannot be made. */
    public static final class UnprintableRule extends Base {
        @Override
        public List<io.ratatosk.core.config.FlagRule> rules() {
            return List.of((context, problems) -> {
                throw new Unprintable();
            });
        }
    }

    @SuppressWarnings("unchecked")
    private static <T extends Throwable> void sneakyThrow(Throwable t) throws T {
        throw (T) t;
    }

    /** Loads fine; its open returns one tier for every cache, as a provider that keeps a singleton would. */
    public static final class Singleton extends Base {
        static ClosingTier tier;

        @Override
        public synchronized SwapTier open(PageCacheConfig config, PageSwapperFactory files) {
            if (tier == null) {
                tier = new ClosingTier(files);
            }
            return tier;
        }
    }

    /** Plain files behind a tier that, like the NVM tier, closes the swappers it made when it closes. */
    static final class ClosingTier implements SwapTier {
        private final PageSwapperFactory files;
        private final List<io.ratatosk.core.PageSwapper> made = new java.util.ArrayList<>();

        ClosingTier(PageSwapperFactory files) {
            this.files = files;
        }

        @Override
        public synchronized io.ratatosk.core.PageSwapper create(java.nio.file.Path file, int fileId, int filePageSize,
                                                               boolean create) throws java.io.IOException {
            io.ratatosk.core.PageSwapper swapper = new io.ratatosk.core.ForwardingPageSwapper(files.create(file, fileId,
                filePageSize, create));
            made.add(swapper);
            return swapper;
        }

        @Override
        public io.ratatosk.pagecache.tier.TierCounters counters() {
            return io.ratatosk.pagecache.tier.TierCounters.NONE;
        }

        @Override
        public synchronized void close() throws java.io.IOException {
            for (io.ratatosk.core.PageSwapper swapper : made) {
                swapper.close();
            }
            made.clear();
        }
    }

    /**
     * Run in the test's own class loader: opens a cache with {@code pagecache.swap=singleton}, writes, has a second open
     * refused, then writes more, closes and reads it all back. Returns what went wrong, or null.
     */
    public static String singletonScenario(java.nio.file.Path dir) throws Exception {
        java.util.Map<String, String> flags = java.util.Map.of("pagecache.memory", "16k", "pagecache.page_size", "4k",
            "pagecache.jmx.enabled", "false", "pagecache.warmup.enabled", "false", "pagecache.swap", "singleton");
        java.nio.file.Path path = dir.resolve("singleton.db");
        PageCache first = PageCache.open(PageCacheConfig.parse(flags));
        PagedFile file = first.map(path, 4096);
        put(file, 0, 100);
        try {
            PageCache.open(PageCacheConfig.parse(flags)).close();
            return "the second open of the same tier was not refused";
        } catch (IllegalArgumentException expected) {
            if (!expected.getMessage().contains("already serves")) {
                return "refused with " + expected;
            }
        }
        for (int p = 1; p < 10; p++) {
            put(file, p, 100 + p); // more pages than frames: evictions write through the tier's swappers
        }
        first.close();
        java.util.Map<String, String> plain = new java.util.HashMap<>(flags);
        plain.put("pagecache.swap", "file");
        try (PageCache cache = PageCache.open(PageCacheConfig.parse(plain)); PagedFile again = cache.map(path, 4096);
             PageCursor c = again.io(0, PagedFile.PF_SHARED_READ_LOCK)) {
            for (int p = 0; p < 10; p++) {
                if (!c.next(p) || c.getLong(0) != 100 + p) {
                    return "page " + p + " lost";
                }
            }
        }
        return null;
    }

    private static void put(PagedFile file, long pageId, long value) throws java.io.IOException {
        try (PageCursor c = file.io(pageId, PagedFile.PF_SHARED_WRITE_LOCK)) {
            if (!c.next()) {
                throw new AssertionError("page " + pageId);
            }
            c.putLong(0, value);
        }
    }
}
