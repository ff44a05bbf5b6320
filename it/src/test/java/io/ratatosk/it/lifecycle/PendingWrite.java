package io.ratatosk.it.lifecycle;

/** The version this thread wrote to a page under its write cursor, acknowledged once the cursor moves on or closes. */
final class PendingWrite {
    private final FileModel file;
    private int slot = -1;
    private long version;

    PendingWrite(FileModel file) {
        this.file = file;
    }

    void set(int slot, long version) {
        if (this.slot >= 0 && this.slot != slot) {
            ack();
        }
        this.slot = slot;
        this.version = version;
    }

    void ack() {
        if (slot >= 0) {
            file.ack(slot, version);
            slot = -1;
        }
    }
}
