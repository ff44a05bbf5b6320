package io.ratatosk.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ratatosk.core.PageKey;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * An evicted or dropped page's frame is unbound before its file hears that the page left. An unmap stops waiting
 * for a page once its table entry is gone, returns, and frees the file's id for the next map: a frame still bound
 * to the file then is a page that outlived its file. (The background evictor, preempted between the two steps
 * in the old order, failed {@code LifecycleTest.unmappingWhileOtherThreadsFaultLeavesNoFrameBoundToTheFile} once.)
 */
class UnbindOrderTest {
    private static final int FILE_ID = 3;

    @Test
    void aFileToldThatAPageLeftFindsNoFrameStillBoundToIt() throws Exception {
        PageCacheConfig config = PageCacheConfig.parse(Map.of("pagecache.memory", "128k", "pagecache.page_size", "8k",
            "pagecache.evictor.enabled", "false"));
        EvictionEngine engine = new EvictionEngine(config, frames -> new InertPolicy("inert"));
        try {
            List<Long> bindingsSeen = new ArrayList<>();
            Owner owner = new Owner(engine, bindingsSeen);
            engine.register(FILE_ID, owner);

            int evicted = bindAPage(engine, 1);
            engine.frames().unlockExclusive(evicted);
            assertEquals(EvictionOutcome.EVICTED, engine.tryEvict(evicted, true));
            engine.free(evicted);

            int dropped = bindAPage(engine, 2);
            engine.drop(owner, PageKey.of(FILE_ID, 2), dropped);

            assertEquals(List.of(PageKey.UNBOUND, PageKey.UNBOUND), bindingsSeen,
                "the binding each frame had when its file heard that the page left");
        } finally {
            engine.close();
        }
    }

    /** A free frame bound to page {@code pageId} of the file, held exclusively. */
    private static int bindAPage(EvictionEngine engine, long pageId) {
        int frame = engine.tryGrabFreeFrame();
        engine.bind(frame, PageKey.of(FILE_ID, pageId));
        return frame;
    }

    /** A file that notes, when told a page left a frame, what that frame is bound to at that moment. */
    private static final class Owner extends CleanPagesOwner {
        private final EvictionEngine engine;
        private final List<Long> bindingsSeen;

        Owner(EvictionEngine engine, List<Long> bindingsSeen) {
            super(Path.of("unbind-order.db"));
            this.engine = engine;
            this.bindingsSeen = bindingsSeen;
        }

        @Override
        public void pageLeft(long pageId, int frame) {
            bindingsSeen.add(engine.frames().binding(frame));
        }
    }
}
