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
 * the cache's swapper factory has closed: a tier writes back at its close what that file's close could not). Where
 * that factory's close failed too, the closed cache leaves the claim to its {@link LeftOpen} file: another cache's map
 * of the file tries its close again, and takes the file once it closes.
 */
final class JvmFileClaims {
    private static final ConcurrentHashMap<Object, Claim> CLAIMS = new ConcurrentHashMap<>();

    private JvmFileClaims() {
    }

    /** A closed cache's file whose swapper would not close: what another cache's map of it tries first. */
    interface LeftOpen {
        /**
         * Closes the file's swapper again; returns the failure, or null once nothing of the file is left open (its claim
         * is then given back, by the closed cache or by the caller).
         */
        Throwable closeAgain();
    }

    /** One cache's hold on one file. */
    static final class Claim {
        private final Object identity;
        private final Path path;
        /** Set once the holding cache closed without closing the file; null while it may still map or unmap it. */
        private volatile LeftOpen leftOpen;

        private Claim(Object identity, Path path) {
            this.identity = identity;
            this.path = path;
        }

        /** Gives the file back, once: a later call does nothing, and never frees another cache's claim. */
        void release() {
            CLAIMS.remove(identity, this);
        }

        /** The holding cache closed, but {@code file} would not close: another cache's map may close it. */
        void leftOpen(LeftOpen file) {
            leftOpen = file;
        }
    }

    /**
     * Claims the file of {@code identity} at {@code real}.
     *
     * @throws IllegalStateException if another page cache of this JVM has it mapped; {@link HeldByClosedCache} if one
     *                               closed without closing it
     */
    static Claim claim(Object identity, Path real) {
        Claim mine = new Claim(identity, real);
        Claim held = CLAIMS.putIfAbsent(identity, mine);
        if (held != null) {
            if (held.leftOpen != null) {
                throw new HeldByClosedCache(held, real);
            }
            throw new IllegalStateException("cannot map " + real + ": another page cache in this JVM has it mapped"
                + as(held, real) + "; two caches of one file would each keep its pages, a write through one unseen by"
                + " the other and lost under its flushes. Map it through that cache, or close it there first");
        }
        return mine;
    }

    /**
     * A claim refused because a closed cache holds the file it could not close: the claimer tries that close again
     * ({@link #closeAgain}) holding none of its own locks, and claims again once it succeeds. (Tried inside the claim, the
     * close ran under the claiming cache's mapping lock, and every map and close of that cache waited for the other
     * cache's swapper, for ever where its storage no longer answered.)
     */
    static final class HeldByClosedCache extends IllegalStateException {
        private final transient Claim held;

        private HeldByClosedCache(Claim held, Path real) {
            super("cannot map " + real + ": a page cache in this JVM that was closed could not close it" + as(held, real)
                + ", and keeps it until it can, since its swapper may still write it (a tier's copies the file lacks)");
            this.held = held;
        }

        /**
         * Closes the file's swapper again; once it closes, the file is free to claim.
         *
         * @throws IllegalStateException while it still does not close, naming that close's failure
         */
        void closeAgain() {
            // Without this, only a retried PagedFile.close of the dead mapping gave the file back: a host that closed the
            // tier itself (which closed the file) kept it from every other cache for the JVM's life.
            Throwable stillOpen = held.leftOpen.closeAgain();
            if (stillOpen != null) {
                throw new IllegalStateException(getMessage() + "; closing it again failed: " + stillOpen + ". Map it"
                    + " again once its storage takes that close", stillOpen);
            }
            held.release(); // given back by its close already; another cache may have claimed the file since
        }
    }

    private static String as(Claim held, Path real) {
        return held.path.equals(real) ? "" : " (as " + held.path + ")";
    }
}
