package io.ratatosk.bench.sim;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Which configuration flags each policy reads, and how a short key in a policy override
 * ({@code global-clock:max_usage=4}) resolves to one of them: a key names the policy's flag that
 * equals it or ends with {@code "." + key}; none or several is an error listing the policy's flags.
 */
final class PolicyFlags {
    /** The policy flags of policies.md; the universe until the configuration registry is available. */
    static final List<String> POLICY_FLAGS = List.of(
        "pagecache.clock.max_usage", "pagecache.clock.fault_usage", "pagecache.clock.evict_threshold",
        "pagecache.clockpro.adaptive", "pagecache.clockpro.cold_min", "pagecache.clockpro.cold_max",
        "pagecache.clockpro.ghosts",
        "pagecache.history.bits", "pagecache.history.capacity", "pagecache.history.boost_usage",
        "pagecache.deferred_lru.pull_threshold", "pagecache.deferred_lru.purge_count");

    private static final List<String> EVERY_POLICY_NAMESPACE = List.of(
        "pagecache.clock.", "pagecache.clockpro.", "pagecache.history.", "pagecache.deferred_lru.");

    /**
     * What each policy reads: a full flag name, or a namespace ending in '.'. A policy missing here
     * (a newly added one) may take any policy flag.
     */
    private static final Map<String, List<String>> SCOPES = Map.of(
        "muninn", List.of("pagecache.clock.max_usage"),
        "global-clock", List.of("pagecache.clock."),
        "clock", List.of(),
        "random", List.of(),
        "clock-pro", List.of("pagecache.clockpro."),
        "clock-pro-plus", List.of("pagecache.clockpro."),
        "bitset-history", List.of("pagecache.history.", "pagecache.clock."),
        "bitset-history-exact", List.of("pagecache.history.", "pagecache.clock."),
        "deferred-lru", List.of("pagecache.deferred_lru."));

    private final Collection<String> universe;

    PolicyFlags(Collection<String> universe) {
        this.universe = new TreeSet<>(universe);
    }

    static PolicyFlags standard() {
        return new PolicyFlags(POLICY_FLAGS);
    }

    /** The flags {@code policy} reads, sorted. */
    List<String> flagsOf(String policy) {
        List<String> scope = SCOPES.getOrDefault(policy, EVERY_POLICY_NAMESPACE);
        List<String> flags = new ArrayList<>();
        for (String flag : universe) {
            for (String s : scope) {
                if (s.endsWith(".") ? flag.startsWith(s) : flag.equals(s)) {
                    flags.add(flag);
                    break;
                }
            }
        }
        return flags;
    }

    /** The full flag name {@code key} stands for in {@code policy}'s overrides. */
    String resolve(String policy, String key) {
        List<String> flags = flagsOf(policy);
        if (flags.isEmpty()) {
            throw new IllegalArgumentException("policy " + policy + " takes no flags, so '" + key + "' cannot be set");
        }
        List<String> matches = new ArrayList<>();
        for (String flag : flags) {
            if (flag.equals(key) || flag.endsWith("." + key)) {
                matches.add(flag);
            }
        }
        if (matches.size() == 1) {
            return matches.get(0);
        }
        String problem = matches.isEmpty() ? "unknown flag '" + key + "'" : "ambiguous flag '" + key + "' (" + matches + ")";
        throw new IllegalArgumentException(problem + " for policy " + policy + "; its flags: " + String.join(", ", flags));
    }
}
