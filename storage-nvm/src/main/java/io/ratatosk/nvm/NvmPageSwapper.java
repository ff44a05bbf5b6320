package io.ratatosk.nvm;

import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import io.ratatosk.core.PageSwapper;

/**
 * The swapper of one file mapped through the {@link NvmSwapStore}: every call goes through the NVM
 * tier, which reads and writes the file through the wrapped file swapper. Thread-safe, as
 * {@link PageSwapper} requires; see {@link NvmSwapStore} for what each call does in NVM.
 */
public final class NvmPageSwapper implements PageSwapper {
    private final NvmSwapStore store;
    private final Path file;
    private final int fileId;
    private final int filePageSize;
    private final PageSwapper fileSwapper;
    /** Pages of this file that are dirty in NVM; lets force skip the slot scan when 0. */
    private final AtomicLong dirtyPages = new AtomicLong();
    private volatile boolean closed;
    /**
     * Held by every close of the file ({@link #close}, {@link #abandon}): the page cache retrying a file's failed close
     * and the tier's close of the same file once ran at once, and the one that came second forced or wrote through a
     * file the first had made durable and closed meanwhile, and failed (ClosedChannelException) over a file that was fine.
     */
    private final Object closing = new Object();
    /** Set once the tier made the file durable and dropped its copies: all a close has left to do is close the file. */
    private volatile boolean forgotten;
    /** Set once its close was called: its file's cache unmapped it and will only retry the close; guarded by closing. */
    private boolean closeTried;
    /**
     * Set by the tier as it starts dropping the file's copies, once the file is durable: from then on its file id may
     * pass to another file, so every call through this swapper is refused ({@link #checkOpen}).
     */
    private volatile boolean released;
    /**
     * Set by every write of a page to the file through the tier (a write-back, a write-through, a bypass, a flush), and
     * cleared by the close just before its force: set after that, a page evicted during the close was written after the
     * force, and the drop owes the file another force, until one succeeds.
     */
    private volatile boolean forceOwed;

    /**
     * A dirty copy the tier had to drop unwritten (torn by a failed NVM write, its frame's newer version refused by the
     * file too), until the next force reports it: a flush under way may have counted on the copy.
     */
    private final AtomicReference<IOException> lostDirtyCopy = new AtomicReference<>();

    NvmPageSwapper(NvmSwapStore store, Path file, int fileId, int filePageSize, PageSwapper fileSwapper) {
        this.store = store;
        this.file = file;
        this.fileId = fileId;
        this.filePageSize = filePageSize;
        this.fileSwapper = fileSwapper;
    }

    public Path file() {
        return file;
    }

    public int fileId() {
        return fileId;
    }

    /** The swapper of the file behind the tier. */
    public PageSwapper fileSwapper() {
        return fileSwapper;
    }

    @Override
    public int filePageSize() {
        return filePageSize;
    }

    /** From NVM if it holds the page, else from the file. */
    @Override
    public int read(long pageId, long address) throws IOException {
        return store.read(this, pageId, address);
    }

    /** Flush: writes the file and drops the (now older) NVM copy. */
    @Override
    public void write(long pageId, long address) throws IOException {
        store.write(this, pageId, address);
    }

    @Override
    public void write(long startPageId, long[] addresses, int count) throws IOException {
        store.write(this, startPageId, addresses, count);
    }

    /** Into NVM (and, under write-through, the file if dirty). */
    @Override
    public void evict(long pageId, long address, boolean dirty) throws IOException {
        store.evict(this, pageId, address, dirty);
    }

    /** Writes this file's dirty NVM pages to it, then forces it. */
    @Override
    public void force() throws IOException {
        store.force(this);
    }

    /** The file's page count, or more if NVM holds a dirty page past its end. */
    @Override
    public long pageCount() throws IOException {
        return store.pageCount(this);
    }

    @Override
    public void truncate(long pageCount) throws IOException {
        store.truncate(this, pageCount);
    }

    /**
     * Makes every page of the file durable, forgets its NVM copies and closes the file. A file whose close
     * failed may be closed already: closing again only closes the file again (forcing it would throw).
     */
    @Override
    public void close() throws IOException {
        synchronized (closing) {
            if (closed) {
                return; // also when another thread's close made the file durable and closed it while this one waited
            }
            closeTried = true; // no frame of its file is left: the cache unmapped it
            if (!forgotten) {
                store.forget(this);
                forgotten = true;
            }
            fileSwapper.close();
            closed = true;
        }
    }

    /**
     * Called by the tier's close for a file it gives up on (no dirty copy in NVM): unless a close got there first, drops
     * its copies through the tier ({@code dropCopies}) and closes the file, with no force, marking this swapper closed.
     */
    void abandon(FileCloseStep dropCopies) throws IOException {
        synchronized (closing) {
            if (closed) {
                return;
            }
            dropCopies.run();
            forgotten = true;
            closed = true; // before the file's close, which may throw: a later close has nothing to retry
            fileSwapper.close();
        }
    }

    /**
     * Whether a close of this swapper failed, leaving dirty copies in NVM: the file was unmapped (nothing of it in any
     * frame), and only a retried close would use this swapper again.
     */
    boolean closeFailedHoldingUnwrittenPages() {
        synchronized (closing) {
            return closeTried && !closed && dirtyPages.get() > 0;
        }
    }

    /** A step of the tier's that may fail with an IOException. */
    @FunctionalInterface
    interface FileCloseStep {
        void run() throws IOException;
    }

    /** Called by the tier, with the file durable, before it drops the file's copies. */
    void release() {
        released = true;
    }

    void owesForce() {
        forceOwed = true;
    }

    boolean forceOwed() {
        return forceOwed;
    }

    void forced() {
        forceOwed = false;
    }

    boolean isReleased() {
        return released;
    }

    /**
     * Throws once the tier has released this swapper: its file id may belong to another file by now, whose pages in
     * NVM a call through this swapper would read, overwrite or drop. Closed as {@code FileSwapper} is closed.
     */
    void checkOpen() throws ClosedChannelException {
        if (released) {
            throw new SwapperClosedException(file, fileId);
        }
    }

    void lostDirtyCopy(IOException lost) {
        lostDirtyCopy.compareAndSet(null, lost);
    }

    /** The dirty copy lost since the last call, or null; reported once. */
    IOException takeLostDirtyCopy() {
        return lostDirtyCopy.getAndSet(null);
    }

    long dirtyPages() {
        return dirtyPages.get();
    }

    /**
     * Whether NVM holds a dirty copy of a page of this file: newer than the file until written back. A close that failed
     * writing one back leaves it here, dirty, for a retried close to write.
     */
    @Override
    public boolean holdsUnwrittenPages() {
        return dirtyPages.get() > 0;
    }

    void addDirty() {
        dirtyPages.incrementAndGet();
    }

    void removeDirty() {
        dirtyPages.decrementAndGet();
    }

    @Override
    public String toString() {
        return "NvmPageSwapper[" + file + ", file id " + fileId + "]";
    }

    private static final class SwapperClosedException extends ClosedChannelException {
        private final Path file;
        private final int fileId;

        SwapperClosedException(Path file, int fileId) {
            this.file = file;
            this.fileId = fileId;
        }

        @Override
        public String getMessage() {
            return "the NVM tier's swapper of " + file + " (file id " + fileId + ") is closed: no IO after close()";
        }
    }
}
