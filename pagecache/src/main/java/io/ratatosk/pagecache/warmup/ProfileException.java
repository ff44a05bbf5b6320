package io.ratatosk.pagecache.warmup;

/** A resident-page profile that cannot be used, and why; the warm-up skips it with one warning. */
public final class ProfileException extends Exception {
    public ProfileException(String reason) {
        super(reason, null, false, false);
    }
}
