package io.ratatosk.nvm;

import io.ratatosk.core.PageSwapperFactory;
import io.ratatosk.core.config.Flag;
import io.ratatosk.core.config.FlagRule;
import io.ratatosk.pagecache.PageCacheConfig;
import io.ratatosk.pagecache.tier.SwapTier;
import io.ratatosk.pagecache.tier.SwapTierProvider;
import java.util.List;

/** {@code pagecache.swap=nvm}: the emulated NVM tier, {@link NvmSwapStore}, configured by {@link NvmFlags}. */
public final class NvmTierProvider implements SwapTierProvider {
    public static final String NAME = "nvm";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "puts the emulated NVM tier in between";
    }

    @Override
    public List<Flag> flags() {
        return NvmFlags.ALL;
    }

    @Override
    public List<FlagRule> rules() {
        return NvmFlags.RULES;
    }

    @Override
    public SwapTier open(PageCacheConfig config, PageSwapperFactory files) {
        return new NvmSwapStore(NvmDeviceConfig.from(config), files);
    }
}
