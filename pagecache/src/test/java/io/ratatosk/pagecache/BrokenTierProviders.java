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

    /** Loads fine; its one rule throws on every check. */
    public static final class ThrowingRule extends Base {
        @Override
        public List<io.ratatosk.core.config.FlagRule> rules() {
            return List.of((context, problems) -> {
                throw new IllegalStateException("injected: the rule failed");
            });
        }
    }
}
