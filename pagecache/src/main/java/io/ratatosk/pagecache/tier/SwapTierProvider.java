package io.ratatosk.pagecache.tier;

import io.ratatosk.core.PageSwapperFactory;
import io.ratatosk.core.config.Flag;
import io.ratatosk.core.config.FlagRule;
import io.ratatosk.pagecache.PageCacheConfig;
import java.util.List;

/**
 * A swap tier the page cache can put between its frames and the store's files, found through
 * {@link java.util.ServiceLoader} ({@code META-INF/services/io.ratatosk.pagecache.tier.SwapTierProvider})
 * and chosen with {@code pagecache.swap=<name>}. The page cache knows a tier only through this and
 * {@link SwapTier}: {@code storage-nvm}'s emulated NVM is one, and adding its jar to the class path is
 * what makes {@code pagecache.swap=nvm} and the {@code pagecache.nvm.*} flags exist.
 *
 * <p>A provider is another jar's code, and the page cache does not trust it with its own startup: one that cannot be
 * instantiated, throws from {@link #name()}, {@link #description()}, {@link #flags()} or {@link #rules()}, returns null,
 * a name that is not lower case, {@code file} or another tier's, or a flag whose name another flag has, is left out,
 * with a logged warning; {@code PageCacheFlags.REFUSED_TIERS} and {@code pagecache.swap}'s error say why, and the page
 * cache works as without it. A rule that throws refuses only the configurations that choose its tier. {@link #open}
 * must build a new tier on every call: null is refused, and so is a tier that serves another open cache (it is left
 * to that cache).
 */
public interface SwapTierProvider {
    /** The {@code pagecache.swap} value that selects this tier: lower case, not {@code file}. */
    String name();

    /** One line for {@code pagecache.swap}'s documentation: what the tier puts between frames and files. */
    String description();

    /** The flags the tier reads, in the order the documentation lists them; parsed with the page cache's own. */
    List<Flag> flags();

    /** Rules across the tier's flags (and the page size), checked when the configuration is parsed. */
    default List<FlagRule> rules() {
        return List.of();
    }

    /** Builds the tier in front of {@code files}, from a configuration that passed {@link #rules()}. */
    SwapTier open(PageCacheConfig config, PageSwapperFactory files);
}
