package io.ratatosk.nvm;

/**
 * When a dirty page evicted from the frames reaches its file ({@code pagecache.nvm.write_policy}).
 */
public enum WritePolicy {
    /**
     * The default: a dirty page stays dirty in NVM and is written to the file when it leaves NVM,
     * when its file is flushed ({@code force}) or closed. Absorbs repeated write-outs of hot pages.
     */
    WRITE_BACK("write-back"),
    /**
     * The file is written when the page leaves the frames; NVM holds clean copies only, so NVM
     * speeds up re-faults but never delays durability.
     */
    WRITE_THROUGH("write-through");

    private final String flagValue;

    WritePolicy(String flagValue) {
        this.flagValue = flagValue;
    }

    public String flagValue() {
        return flagValue;
    }
}
