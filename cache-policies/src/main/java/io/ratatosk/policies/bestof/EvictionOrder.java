package io.ratatosk.policies.bestof;

import io.ratatosk.core.EvictionPolicy;
import io.ratatosk.core.FrameDescriptor;
import io.ratatosk.core.FrameTable;
import io.ratatosk.core.PageKey;
import io.ratatosk.core.Sweep;
import java.util.Arrays;

/**
 * The frames an outgoing expert knows, in the order it would evict them: what a switch hands the incoming
 * expert, first to go first. Told of the resident pages in that order, the new expert's own order (a FIFO's
 * queue, a clock's sweep from its hand) starts as the old one's ranking of them, where frame order would start
 * it at random: the switch then evicts the pages the old expert held coldest first, not whichever sit in the
 * lowest frames.
 *
 * <p>The outgoing expert is asked for victims ({@code nextVictim}, then {@code onEvicted} as if each one had
 * been evicted) until it has named every frame once. It is discarded after the switch, so what this does to its
 * state (hands moved, queues emptied, ghosts added, counts decremented) does not matter; the frames themselves
 * stay bound and resident, and only their policy words change, which the switch resets anyway. A frame it does
 * not name (pinned while it looked, or still unnamed when {@link #MAX_CALLS_PER_FRAME} calls per frame ran out)
 * follows the named ones, in frame order.
 *
 * <p>The caller holds the policy's lock: nothing else evicts or faults meanwhile. Hits may go on and touch the
 * words of frames already named; their bits are reset with the rest.
 */
final class EvictionOrder {
    /**
     * A clock names a frame again on every pass once its count is down (nothing here unbinds it), and needs one
     * pass per unit of count to bring the hottest down: calls beyond this many per frame are a policy that no
     * longer converges, and the rest go in frame order. Usage counts stop at 7 ({@code pagecache.clock.max_usage}).
     */
    static final int MAX_CALLS_PER_FRAME = 16;
    /**
     * A clock's pass that finds no count at zero only lowers them ({@code NO_VICTIM}, as the page cache sees it before
     * it asks again): this many passes in a row without a victim mean the rest is pinned.
     */
    static final int MAX_EMPTY_PASSES = 2 * (FrameDescriptor.MAX_USAGE + 1);

    private EvictionOrder() {
    }

    /**
     * The frames set in {@code known} ({@code count} of them), in the order {@code outgoing} evicts them.
     *
     * @param outgoing the expert being replaced: its state is used up
     * @param frames   the frame table both experts work on (bindings are read, never changed)
     * @param known    one bit per frame the outgoing expert was told of; not modified
     * @param count    the bits set in {@code known}
     */
    static int[] of(EvictionPolicy outgoing, FrameTable frames, long[] known, int count) {
        int[] order = new int[count];
        of(outgoing, frames, known, count, order, new long[known.length]);
        return order;
    }

    /**
     * {@link #of(EvictionPolicy, FrameTable, long[], int)} into arrays the caller keeps, so that a switch allocates
     * none: the first {@code count} entries of {@code order} are written, {@code named} is cleared first and used up.
     *
     * @param order at least {@code count} long
     * @param named scratch, at least as long as {@code known}
     */
    static void of(EvictionPolicy outgoing, FrameTable frames, long[] known, int count, int[] order, long[] named) {
        Arrays.fill(named, 0);
        int n = 0;
        int emptyPasses = 0;
        Sweep sweep = Sweep.background();
        sweep.begin();
        long calls = (long) MAX_CALLS_PER_FRAME * frames.frameCount();
        while (n < count && calls-- > 0) {
            int victim = EvictionPolicy.checkedVictim(outgoing.nextVictim(sweep),
                BestOfPolicy.NAME + ": the outgoing expert ", outgoing, frames.frameCount());
            if (victim == EvictionPolicy.NO_VICTIM) {
                if (++emptyPasses > MAX_EMPTY_PASSES) {
                    break; // what is left cannot be evicted now (pinned)
                }
                continue;
            }
            emptyPasses = 0;
            long bit = 1L << victim;
            int word = victim >>> 6;
            if ((named[word] & bit) != 0) {
                continue; // a clock comes round to it again
            }
            named[word] |= bit;
            if ((known[word] & bit) != 0) {
                order[n++] = victim;
            }
            long pageKey = frames.binding(victim);
            if (pageKey != PageKey.UNBOUND) { // a frame being unbound is locked, so never a victim: never so here
                outgoing.onEvicted(victim, pageKey);
            }
        }
        for (int word = 0; word < known.length && n < count; word++) {
            for (long bits = known[word] & ~named[word]; bits != 0; bits &= bits - 1) {
                order[n++] = (word << 6) + Long.numberOfTrailingZeros(bits);
            }
        }
    }
}
