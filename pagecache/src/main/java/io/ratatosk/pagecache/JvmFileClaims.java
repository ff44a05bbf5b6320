package io.ratatosk.pagecache;

import java.nio.file.Path;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The files mapped by every page cache of this JVM, by identity ({@link FileRegistry#identityOf}): a file is mapped
 * by one cache at a time. Two caches of one file would each keep its pages in frames of their own: a write through
 * one is invisible through the other, and each one's flushes write over the other's pages, silently.
 *
 * <p>A cache's registry claims a file before it opens its swapper and gives the claim back when the file leaves it:
 * a failed map, the unmap that closed its swapper, the cache's close (for a file whose swapper would not close, once
 * the cache's swapper factory has closed: a tier writes back at its close what that file's close could not).
 */
final class JvmFileClaims {
    private static final ConcurrentHashMap<Object, Claim> CLAIMS = new ConcurrentHashMap<>();

    private JvmFileClaims() {
    }

    /** One cache's hold on one file. */
    static final class Claim {
        private final Object identity;
        private final Path path;

        private Claim(Object identity, Path path) {
            this.identity = identity;
            this.path = path;
        }

        /** Gives the file back, once: a later call does nothing, and never frees another cache's claim. */
        void release() {
            CLAIMS.remove(identity, this);
        }
    }

    /**
     * Claims the file of {@code identity} at {@code real}.
     *
     * @throws IllegalStateException if another page cache of this JVM has it mapped
     */
    static Claim claim(Object identity, Path real) {
        Claim mine = new Claim(identity, real);
        Claim held = CLAIMS.putIfAbsent(identity, mine);
        if (held != null) {
            throw new IllegalStateException("cannot map " + real + ": another page cache in this JVM has it mapped"
                + (held.path.equals(real) ? "" : " (as " + held.path + ")") + "; two caches of one file would each keep"
                + " its pages, a write through one unseen by the other and lost under its flushes. Map it through that"
                + " cache, or close it there first");
        }
        return mine;
    }
}
