package io.ratatosk.policies;

import io.ratatosk.core.EvictionPolicy;
import io.ratatosk.core.FrameTable;
import io.ratatosk.core.config.Flag;
import io.ratatosk.core.config.FlagValues;
import java.util.List;
import java.util.Objects;

/**
 * One eviction policy as the {@link PolicyRegistry} lists it: the name {@code pagecache.policy} takes,
 * a line on what it is, the flags it reads with the default each has for it, and its factory.
 *
 * @param name    the {@code pagecache.policy} value, lower case
 * @param summary one line for the docs and {@code ./bench}
 * @param flags   the flags the factory reads, each with this policy's default
 * @param factory builds the policy over the frames from the flag values (unset flags at their defaults)
 * @param guardedFactory builds it for an owner that calls its faults, evictions, victim choice and housekeeping
 *                       only under the owner's own lock (best-of, for its experts and miniatures): a policy
 *                       with a lock of its own then takes none ({@link DeferringLock#guardedByOwner}); for the
 *                       others, {@code factory}. Hits, and housekeeping where the owner runs it in the
 *                       background, still come without the owner's lock: what they touch must not need it
 */
public record PolicyEntry(String name, String summary, List<ReadFlag> flags, Factory factory, Factory guardedFactory) {
    public PolicyEntry {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(summary, "summary");
        flags = List.copyOf(flags);
        Objects.requireNonNull(factory, "factory");
        Objects.requireNonNull(guardedFactory, "guardedFactory");
    }

    /** A policy that builds the same way for an owner: no lock of its own, or one it must keep. */
    public PolicyEntry(String name, String summary, List<ReadFlag> flags, Factory factory) {
        this(name, summary, flags, factory, factory);
    }

    /** Builds a policy; the values passed every rule of the registry for these frames. */
    @FunctionalInterface
    public interface Factory {
        EvictionPolicy create(FrameTable frames, FlagValues values);
    }

    /**
     * A flag a policy reads, and what it defaults to for that policy when unset.
     *
     * @param flag         the flag
     * @param defaultValue the default for this policy, as the docs show it
     */
    public record ReadFlag(Flag flag, String defaultValue) {
        /** A flag whose default is the flag's own. */
        public static ReadFlag of(Flag flag) {
            return new ReadFlag(flag, flag.hasFixedDefault() ? flag.defaultValue() : flag.defaultText());
        }
    }

    /** Whether this policy reads {@code flag}. */
    public boolean reads(Flag flag) {
        return flags.stream().anyMatch(read -> read.flag() == flag);
    }
}
