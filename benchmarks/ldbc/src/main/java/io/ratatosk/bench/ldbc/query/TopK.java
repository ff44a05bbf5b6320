package io.ratatosk.bench.ldbc.query;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/** The first {@code k} elements in {@code order} of everything offered, kept in a bounded heap. */
final class TopK<T> {
    private final int k;
    private final Comparator<T> order;
    private final PriorityQueue<T> heap;

    TopK(int k, Comparator<T> order) {
        this.k = k;
        this.order = order;
        this.heap = new PriorityQueue<>(order.reversed());
    }

    void offer(T element) {
        if (heap.size() < k) {
            heap.add(element);
        } else if (order.compare(element, heap.peek()) < 0) {
            heap.poll();
            heap.add(element);
        }
    }

    List<T> sorted() {
        List<T> list = new ArrayList<>(heap);
        list.sort(order);
        return list;
    }
}
