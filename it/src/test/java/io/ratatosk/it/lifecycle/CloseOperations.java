package io.ratatosk.it.lifecycle;

import io.ratatosk.nvm.NvmSwapStore;
import io.ratatosk.pagecache.NoEvictableFrameException;
import io.ratatosk.pagecache.PageCursor;
import io.ratatosk.pagecache.PagedFile;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A worker's closes: of the cache (while other threads work, across this thread's read cursor, under its write
 * cursor) and of a file under its write cursor. A close that succeeds makes the scenario reopen the cache.
 * {@link Worker} draws them; they draw from its random source, in the order they always did.
 */
final class CloseOperations {
    private final Worker worker;
    private final Scenario sc;
    private final int t;
    private final SplittableRandom rnd;
    private final StringBuilder trace;

    CloseOperations(Worker worker) {
        this.worker = worker;
        this.sc = worker.sc;
        this.t = worker.t;
        this.rnd = worker.rnd;
        this.trace = worker.trace;
    }

    void closeCache() throws IOException {
        CacheGeneration g = sc.current();
        worker.workOnCache(g);
        trace.append("close g").append(g.number).append(' ');
        try {
            closeAndJudge(g);
        } finally {
            afterCacheClose(g);
        }
    }

    /** Closes {@code g}; a refusal is allowed where another thread may hold a write cursor, or the disk failed. */
    private boolean closeAndJudge(CacheGeneration g) throws IOException {
        try {
            List<String> names = new ArrayList<>();
            List<FaultInjector.Forces> stuck = worker.stuckForces(g, names);
            sc.close(g);
            trace.append("closed ");
            for (int i = 0; i < stuck.size(); i++) {
                if (stuck.get(i).closedBy() == Thread.currentThread()) {
                    throw worker.fail("PageCache.close() returned normally although it unmapped " + names.get(i) + ", a force of"
                        + " whose mapping had failed before: the failure sticks to the close that unmaps it", null);
                }
            }
            return true;
        } catch (IllegalStateException e) {
            if (e instanceof NoEvictableFrameException || sc.config.threads() == 1) {
                throw worker.fail("PageCache.close() threw " + e + " with no write cursor open", e);
            }
            trace.append("refused: ").append(e.getMessage()).append(' ');
            return false;
        } catch (IOException e) {
            if (!FaultInjector.isInjected(e)) {
                throw worker.fail("PageCache.close() threw " + e + " with no disk fault injected (a write cursor holding a page"
                    + " must give IllegalStateException)", e);
            }
            trace.append("failed: ").append(e).append(' ');
            return false;
        }
    }

    /**
     * The host closes the NVM tier it gave the current cache while the cache is open: refused with IllegalStateException
     * (the cache closes its tier with itself; closed under it, every file's swapper was released), and so is a close of
     * the tier's device; the cache and the tier go on as before, as every later operation of the model judges. A close
     * that returned must have found the cache closed: the cache says it is closed before it lets its tier go.
     */
    void closeHostTierUnderCache() throws IOException {
        CacheGeneration g = sc.current();
        NvmSwapStore tier = g.hostTier;
        if (tier == null) {
            trace.append("g").append(g.number).append(" has no tier of the host's ");
            return;
        }
        worker.workOnCache(g);
        trace.append("close the host's tier of g").append(g.number).append(' ');
        expectRefusedUnderCache(g, tier::close, "NvmSwapStore.close()");
        expectRefusedUnderCache(g, tier.device()::close, "NvmDevice.close() of the tier's device");
        sc.hostTierClosesRefused.incrementAndGet();
    }

    interface Close {
        void close() throws IOException;
    }

    private void expectRefusedUnderCache(CacheGeneration g, Close close, String what) throws IOException {
        try {
            close.close();
        } catch (IllegalStateException e) {
            trace.append("refused: ").append(e.getMessage()).append(' ');
            return; // judged: the refusal, or a close of the cache explains it
        }
        if (!g.cache.isClosed()) {
            throw worker.fail(what + " of the NVM tier serving " + g + " returned normally while the cache is open: only the"
                + " cache closes its tier, with itself", null);
        }
        trace.append("closed (the cache closed meanwhile) ");
    }

    private void afterCacheClose(CacheGeneration g) {
        if (g.closed) {
            for (Ref ref : new ArrayList<>(worker.refs)) {
                if (ref.gen() == g) {
                    worker.release(ref);
                }
            }
            sc.reopenAfter(g, "t" + t);
        }
    }

    /**
     * A read cursor stays open while the cache closes: reading through it must not crash (it may read
     * garbage), and its {@code shouldRetry()} and {@code next()} must throw IllegalStateException.
     */
    void staleReadAcrossClose() throws IOException {
        FileModel f = worker.randomFile();
        Ref ref = worker.ensureRef(f);
        CacheGeneration g = ref.gen();
        long id = rnd.nextInt(f.pages);
        trace.append(ref).append(" read ").append(id).append(" across close ");
        PageCursor c = ref.pf().io(id, PagedFile.PF_SHARED_READ_LOCK);
        try {
            int cutsBefore = f.cutsFinished();
            boolean pinned = c.next();
            if (pinned) {
                // a page another thread's truncate cut under the read leaves the cursor on no page
                pinned = worker.verifyUnderReadCursor(c, f, id, false, cutsBefore);
            }
            // now and then a link holds a page too: it outlives the cache as its parent does
            long linkedId = rnd.nextInt(f.pages);
            PageCursor link = rnd.nextInt(3) == 0 ? c.openLinkedCursor(linkedId) : null;
            boolean linkPinned = link != null && link.next();
            if (link != null) {
                trace.append("link(").append(linkedId).append(")=").append(linkPinned).append(' ');
            }
            if (!closeAndJudge(g)) {
                return;
            }
            long sum = 0;
            for (int i = 0; i < PageImage.words(f.pageSize); i++) {
                sum += c.getLong(i * Long.BYTES); // may be garbage; must not crash
                sum += link != null ? link.getLong(i * Long.BYTES) : 0;
            }
            trace.append("stale read survived (").append(Long.toHexString(sum)).append(") ");
            if (pinned || linkPinned) {
                expectClosed(() -> c.shouldRetry(), "shouldRetry()" + (linkPinned ? " with a pinned link" : ""), ref);
            }
            if (link != null) {
                expectClosed(() -> link.next(), "next() of a linked cursor", ref);
            }
            expectClosed(() -> c.next(), "next()", ref);
            expectClosed(() -> c.next(id), "next(" + id + ")", ref);
            expectClosed(() -> c.openLinkedCursor(linkedId), "openLinkedCursor(" + linkedId + ")", ref);
        } finally {
            worker.closeCursor(c); // closes the link too
            afterCacheClose(g);
        }
    }

    /**
     * With this thread's own write cursor holding a page, closing the cache must be refused with
     * IllegalStateException, and the cache stay open with the file mapped; the page is then written again.
     */
    void closeWithOwnPin() throws IOException {
        FileModel f = worker.randomFile();
        Ref ref = worker.ensureRef(f);
        CacheGeneration g = ref.gen();
        long id = worker.ownPage(f);
        boolean viaLink = rnd.nextInt(3) == 0;
        trace.append(ref).append(" pin ").append(id).append(viaLink ? " through a link" : "").append(" then close g")
            .append(g.number).append(' ');
        PageCursor parent = ref.pf().io(id, PagedFile.PF_SHARED_WRITE_LOCK);
        PendingWrite pending = new PendingWrite(f);
        boolean abandon = false;
        try {
            // a linked write cursor's page holds the close back as its parent's would (the parent holds none)
            PageCursor c = viaLink ? parent.openLinkedCursor(id) : parent;
            if (!c.next()) {
                throw worker.fail("write cursor next() on " + ref + " returned false", null);
            }
            worker.checkMappedWhilePinned(ref, id);
            worker.writeIfOwn(c, f, id, pending);
            int startedBefore = g.closesStarted.get();
            try {
                sc.close(g);
                abandon = true; // its frame memory may be gone: do not touch the cursor again
                throw worker.fail("PageCache.close() returned normally while this thread's write cursor held " + f.name + " page " + id, null);
            } catch (IllegalStateException e) {
                if (e instanceof NoEvictableFrameException) {
                    throw e;
                }
                trace.append("refused ");
            } catch (IOException e) {
                if (!FaultInjector.isInjected(e)) {
                    throw worker.fail("PageCache.close() with a write cursor holding a page threw " + e
                        + " instead of IllegalStateException", e);
                }
                trace.append("failed: ").append(e).append(' ');
            }
            if (!worker.alive(ref.pf()) && g.closesStarted.get() == startedBefore + 1) {
                throw worker.fail("PageCache.close() was refused for a pinned page of " + f.name + ", but left that file unmapped", null);
            }
            worker.writeIfOwn(c, f, id, pending); // the page is still ours
        } finally {
            if (!abandon) {
                worker.closeCursor(parent);
                pending.ack();
            }
        }
    }

    /**
     * With this thread's own write cursor holding a page, closing its reference to the file either just
     * drops the reference (others hold the file) or is refused with IllegalStateException: the file stays mapped.
     */
    void unmapWithOwnPin() throws IOException {
        FileModel f = worker.randomFile();
        Ref ref = worker.ensureRef(f, false);
        long id = worker.ownPage(f);
        boolean viaLink = rnd.nextInt(3) == 0;
        trace.append(ref).append(" pin ").append(id).append(viaLink ? " through a link" : "").append(" then close the file ");
        PageCursor parent = ref.pf().io(id, PagedFile.PF_SHARED_WRITE_LOCK);
        PendingWrite pending = new PendingWrite(f);
        try {
            PageCursor c = viaLink ? parent.openLinkedCursor(id) : parent;
            if (!c.next()) {
                throw worker.fail("write cursor next() on " + ref + " returned false", null);
            }
            worker.checkMappedWhilePinned(ref, id);
            worker.writeIfOwn(c, f, id, pending);
            worker.refs.remove(ref);
            FaultInjector.Forces forces = worker.forcesOf(ref);
            try {
                ref.pf().close();
                trace.append("reference dropped ");
            } catch (IllegalStateException e) {
                if (e instanceof NoEvictableFrameException) {
                    throw e;
                }
                worker.refs.add(ref);
                trace.append("refused ");
            } catch (IOException | Error e) {
                // An injected Error too (a write before the refusal): it once left this operation with the reference
                // dropped and the file mapped, and the page held was never checked again
                if (!FaultInjector.isInjected(e)) {
                    throw e;
                }
                trace.append("failed: ").append(e).append(' ');
                if (worker.stillMappedAfterFailedClose(ref, forces, e)) {
                    worker.refs.add(ref); // the unmap failed: still mapped, still ours
                }
            }
            if (!worker.alive(ref.pf()) && !ref.mayBeClosed()) {
                throw worker.fail("PagedFile.close() unmapped " + f.name + " while this thread's write cursor held page " + id, null);
            }
            worker.writeIfOwn(c, f, id, pending);
        } finally {
            worker.closeCursor(parent); // closes the link too
            pending.ack();
        }
    }

    private void expectClosed(Worker.Call call, String what, Ref ref) {
        worker.expectIllegalState(call, what + " on a read cursor of " + ref + " after its cache closed");
    }
}
