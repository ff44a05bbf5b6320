package io.ratatosk.pagecache;

import io.ratatosk.policies.PolicySettings;

/** The page cache's flags as the policies read them: a flag the user did not set takes the policy's default. */
final class ConfigPolicySettings implements PolicySettings {
    private final PageCacheConfig config;

    ConfigPolicySettings(PageCacheConfig config) {
        this.config = config;
    }

    @Override
    public int getInt(String flagName, int defaultIfUnset) {
        return config.getInt(flagName, defaultIfUnset);
    }

    @Override
    public double getDouble(String flagName, double defaultIfUnset) {
        return config.getDouble(flagName, defaultIfUnset);
    }

    @Override
    public int getFrameCount(String flagName, int frames, int defaultIfUnset) {
        return config.isSet(flagName) ? config.getFrameCount(flagName) : defaultIfUnset;
    }

    @Override
    public boolean getBoolean(String flagName, boolean defaultIfUnset) {
        return config.isSet(flagName) ? config.getBoolean(flagName) : defaultIfUnset;
    }
}
